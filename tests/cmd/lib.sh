# Shell test library: source it from tests/cmd/*.sh. One behaviour per case:
#   test_case "perf reads our compressed file" '
#       $XPERF_BUILD/xperf-report --stats -i f.data >out && grep -q SAMPLE out
#   '
# Prints "ok - NAME", "not ok - NAME: ..." or "skip - NAME: why" (the protocol of tests/run.sh).
# Each case runs in a fresh directory under $TEST_TMP, in a subshell with `set -e`: any
# failing command fails the case, except (bash rules) one on the left of && or ||, or
# after `!` -- write `[ $rc -eq 1 ] || fail "exit $rc"`, not `[ $rc -eq 1 ] && ...`.

set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) XPERF_BUILD=$BUILD ;; *) XPERF_BUILD=$TOP/$BUILD ;; esac
export XPERF_BUILD
export PATH="$XPERF_BUILD:$PATH"
TEST_NAME=$(basename "$0" .sh)
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/xperf-$TEST_NAME.XXXXXX")
trap 'rm -rf "$TEST_TMP"' EXIT
_case_no=0
_failed=0

have_perf() { command -v perf >/dev/null 2>&1; }

# test_case NAME SCRIPT: run SCRIPT; pass if it exits 0.
test_case() {
	local name=$1 script=$2 dir log
	_case_no=$((_case_no + 1))
	dir=$TEST_TMP/case$_case_no
	mkdir -p "$dir"
	log=$dir/.log
	_case_dir=$dir
	# Not `if (...)`: bash ignores `set -e` inside a condition, even in a subshell, so
	# a failing line in the middle of a case would go unnoticed. Run it as a plain
	# command (with errexit off out here) and read $? afterwards.
	local outer_e=0 rc
	case $- in *e*) outer_e=1; set +e ;; esac
	(cd "$dir" && set -e && eval "$script") >"$log" 2>&1
	rc=$?
	[ $outer_e = 1 ] && set -e
	if [ $rc -eq 0 ]; then
		echo "ok - $name"
	elif [ $rc -eq 77 ] && [ -s "$dir/.skip" ]; then
		echo "skip - $name: $(head -n 1 "$dir/.skip")"
	else
		echo "not ok - $name: exit $rc; last output:"
		tail -n 15 "$log" | sed 's/^/    | /'
		_failed=1
	fi
}

# skip_case NAME WHY
skip_case() { echo "skip - $1: $2"; }

# A case that needs perf: skip (saying so) where perf is absent.
perf_case() {
	if have_perf; then test_case "$@"; else skip_case "$1" "/usr/bin/perf is absent"; fi
}

# fail MESSAGE: end a case with a message (inside a case script)
fail() { echo "FAIL: $*" >&2; return 1; }

# skip WHY: end a case as skipped (inside a case script), e.g. when perf's own reference
# run shows the machine was too disturbed to judge
skip() { echo "$*" >"$_case_dir/.skip"; exit 77; }

test_done() { exit $_failed; }
