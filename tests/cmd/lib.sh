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
# The kallsyms cache (${XDG_CACHE_HOME:-$HOME/.cache}/xperf) of every suite goes to its own
# directory, never into the home of whoever runs the tests.
export XDG_CACHE_HOME=$TEST_TMP/cache
# So is HOME, with perf's build-id cache (~/.debug) and everything else a home holds: a
# suite sees what it sees on a fresh machine, never what earlier runs left in the home of
# whoever runs it (a warm ~/.debug once hid a failure that every new machine met).
export HOME=$TEST_TMP/home XDG_CONFIG_HOME=$TEST_TMP/config XDG_DATA_HOME=$TEST_TMP/data
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME"
# No debuginfod server unless a suite starts one (tests/cmd/debuginfod.sh): a login shell of
# Debian's libdebuginfod-common sets DEBUGINFOD_URLS, and a report would ask it over the
# network for every stripped file perf's half of a comparison cannot read.
unset DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH DEBUGINFOD_TIMEOUT DEBUGINFOD_RETRY_LIMIT
# perf names (and unwinds through) vdso code only from the copy in its build-id cache, which
# a user's first plain `perf record` fills and the tests' `perf record -N` never does: fill
# this suite's once, as on a machine where perf has been used, so perf's half of every
# comparison does not hang on what this home happened to hold
if command -v perf >/dev/null 2>&1; then
	perf record -q --no-bpf-event --buildid-all -o "$TEST_TMP/.vdso.data" -- true \
		>/dev/null 2>&1 || :
	rm -f "$TEST_TMP/.vdso.data"
fi
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
	local outer_e=0 rc first=
	case $- in *e*) outer_e=1; set +e ;; esac
	(cd "$dir" && set -e && eval "$script") >"$log" 2>&1
	rc=$?
	# A comparison with perf's sampling (perf_case) may meet a disturbed machine once: it
	# runs a second time, in a fresh directory, and passes only if that run passes. The
	# first failure stays in the output (run.sh lists such cases as flaky).
	if [ $rc -ne 0 ] && [ $rc -ne 77 ] && [ "${_second_chance:-0}" = 1 ]; then
		first=$(grep -m1 "FAIL:" "$log" || tail -n 1 "$log")
		dir=$dir.again
		mkdir -p "$dir"
		_case_dir=$dir
		(cd "$dir" && set -e && eval "$script") >"$dir/.log" 2>&1
		rc=$?
		[ $rc -eq 0 ] || log=$dir/.log
	fi
	[ $outer_e = 1 ] && set -e
	if [ $rc -eq 0 ] && [ -n "$first" ]; then
		echo "ok - $name (passed on a second run; the first: ${first:0:200})"
	elif [ $rc -eq 0 ]; then
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
	if have_perf; then
		_second_chance=1 test_case "$@"
	else
		skip_case "$1" "/usr/bin/perf is absent"
	fi
}

# fail MESSAGE: end a case with a message (inside a case script)
fail() { echo "FAIL: $*" >&2; return 1; }

# skip WHY: end a case as skipped (inside a case script), e.g. when perf's own reference
# run shows the machine was too disturbed to judge
skip() { echo "$*" >"$_case_dir/.skip"; exit 77; }

# perf_run ARGS...: `perf ARGS`, run again (3 runs in all) only when perf dies of a signal
# (exit >= 128): perf 6.1 sometimes aborts by itself (exit 134, "assertion failed at
# util/build-id.c") when other processes come and go. Ordinary failures are not retried.
# Each run's output is held back and only the last run's reaches the caller's stdout and
# stderr (as one stream, in order, when they are the same file, e.g. 2>&1), so redirections
# and pipes see one run; a stdin that perf reads (-i -) is saved first for every run.
perf_run() {
	local tmp i rc=0 same=0 in=/dev/stdin prev=
	tmp=$(mktemp -d "${TEST_TMP:-${TMPDIR:-/tmp}}/perf_run.XXXXXX") || return 2
	[ /dev/stdout -ef /dev/stderr ] && same=1
	for i in "$@"; do
		case "$prev $i" in "-i -" | "--input -" | *" --input=-") in=$tmp/in ;; esac
		prev=$i
	done
	[ "$in" = /dev/stdin ] || cat >"$in"
	for i in 1 2 3; do
		rc=0
		if [ "$in" = /dev/stdin ]; then
			_perf_once "$tmp" $same "$@" || rc=$?
		else
			_perf_once "$tmp" $same "$@" <"$in" || rc=$?
		fi
		[ $rc -ge 128 ] || break
	done
	cat "$tmp/out" || :
	[ $same = 1 ] || cat "$tmp/err" >&2 || :
	rm -rf "$tmp"
	return $rc
}
_perf_once() {
	local tmp=$1 same=$2
	shift 2
	if [ "$same" = 1 ]; then command perf "$@" >"$tmp/out" 2>&1
	else command perf "$@" >"$tmp/out" 2>"$tmp/err"; fi
}

# no_warnings FILE: perf printed nothing that looks like a complaint
no_warnings() {
	if grep -iE 'warning|error|fail|invalid|corrupt|incompatible|broken|missing|unknown.*record|bad' "$1"; then
		fail "perf complained (see above)"
	fi
}
export -f no_warnings

# perf_reads_back FILE: perf report shows sample rows and perf script prints events from
# FILE, neither with a complaint (leaves out, s and err in the case's directory)
perf_reads_back() {
	perf_run report --stdio -i "$1" >out 2>err
	no_warnings err
	grep -qE '^ +[0-9.]+%' out || fail "perf report shows no sample rows"
	perf_run script -i "$1" >s 2>err
	no_warnings err
	test -s s || fail "perf script printed nothing"
}

# normalize_vdso [PERF_DATA] <REPORT >OUT: one spelling, "[vdso]", for code in the vdso.
# perf names [vdso] symbols only from its build-id cache (~/.debug), which `perf record -N`
# never fills: on a fresh machine it prints raw addresses where xperf, reading the running
# kernel's vdso, prints __vdso_* names. So: the symbol of a report row whose object is
# [vdso] becomes [vdso] (callers sum rows made equal), and so do frames (folded stacks,
# graph lines) named __vdso_* and raw 0x addresses inside a [vdso] mapping of PERF_DATA.
normalize_vdso() {
	local maps=
	if [ -n "${1:-}" ]; then
		maps=$(perf_run report -D -i "$1" 2>/dev/null |
			sed -n 's/.*PERF_RECORD_MMAP2* [0-9-]*\/[0-9-]*: \[\(0x[0-9a-f]*\)(\(0x[0-9a-f]*\)) .*\[vdso\]$/\1 \2/p' |
			sort -u | tr '\n' ' ')
	fi
	awk -v maps="$maps" '
	function hex(s,   n, i) {
		n = 0; s = tolower(substr(s, 3))
		for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	function in_vdso(a,   i) {
		for (i = 1; i < nm; i += 2) if (a >= M[i] && a < M[i] + M[i + 1]) return 1
		return 0
	}
	BEGIN { nm = split(maps, m, " "); for (i = 1; i <= nm; i++) M[i] = hex(m[i]) }
	{
		if (match($0, /\[vdso\] +\[\.\] /)) $0 = substr($0, 1, RSTART + RLENGTH - 1) "[vdso]"
		out = ""; s = $0
		while (match(s, /(0x[0-9a-f]+|__vdso_[A-Za-z0-9_]+)/)) {
			t = substr(s, RSTART, RLENGTH)
			pre = substr(s, RSTART - 1, 1); post = substr(s, RSTART + RLENGTH, 1)
			ok = pre !~ /[A-Za-z0-9_.@]/ && post !~ /[A-Za-z0-9_.@]/
			if (ok && (t ~ /^__vdso_/ || in_vdso(hex(t)))) t = "[vdso]"
			out = out substr(s, 1, RSTART - 1) t; s = substr(s, RSTART + RLENGTH)
		}
		print out s
	}'
}

export -f perf_run _perf_once normalize_vdso

test_done() { exit $_failed; }
