# Sourced: where the seeds of tests/fuzz/corpus-pass/ say their program ran, and putting the
# program (tests/fuzz/seedprog, kept in git: the seeds carry its build id) there.
SEEDPROG_PATH=/tmp/xperf-fuzz-seedprog/seedprog
seedprog_install() {
	local dir=${SEEDPROG_PATH%/*}
	mkdir -p "$dir" && chmod 755 "$dir" || return 1
	cmp -s tests/fuzz/seedprog "$SEEDPROG_PATH" 2>/dev/null && return 0
	cp tests/fuzz/seedprog "$SEEDPROG_PATH.$$" && chmod 755 "$SEEDPROG_PATH.$$" &&
		mv "$SEEDPROG_PATH.$$" "$SEEDPROG_PATH"
}
