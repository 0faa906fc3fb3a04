#!/usr/bin/env bash
# Run every test (unit programs, command scripts, the short fuzz run) and count cases.
# The last line is "N passed, N failed, N skipped".
#
#   tests/run.sh                 everything built in $BUILD (default build/)
#   tests/run.sh driver test_x   only the suites whose name contains one of the words
#
# Each suite (one unit program or one tests/cmd/*.sh) runs under a time limit
# (SUITE_TIMEOUT seconds, default 900) so one hang cannot eat CI's 90 minutes; a suite that
# exits non-zero without printing a "not ok" line counts as one failure. BUILD_FAILED=N
# (non-zero, set by make check) adds one failed case for the build itself.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SUITE_TIMEOUT=${SUITE_TIMEOUT:-900}
export BUILD
# Sanitizer reports must fail the test that triggered them, with a stack to read.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1:print_summary=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
pass=0 fail=0 skip=0
results=$(mktemp)
failures=$(mktemp)
flaky=$(mktemp)
# The kallsyms cache of tests goes to a directory of this run (tests/cmd/lib.sh gives each
# command suite its own), never into the home of whoever runs them.
XDG_CACHE_HOME=$(mktemp -d)
export XDG_CACHE_HOME
trap 'rm -f "$results" "$failures" "$flaky"; rm -rf "$XDG_CACHE_HOME"' EXIT

selected() { # NAME: is this suite asked for?
	[ ${#filters[@]} -eq 0 ] && return 0
	local w
	for w in "${filters[@]}"; do
		case "$1" in *"$w"*) return 0 ;; esac
	done
	return 1
}
filters=("$@")

run_one() { # label, command...
	local label=$1 out rc start secs
	shift
	selected "$label" || return 0
	start=$(date +%s)
	out=$(timeout -k 10 "$SUITE_TIMEOUT" "$@" 2>&1 </dev/null)
	rc=$?
	secs=$(($(date +%s) - start))
	printf '%s\n' "$out" | sed "s|^|[$label] |"
	printf '%s\n' "$out" | grep '^not ok - ' | sed "s|^|[$label] |" >>"$failures"
	printf '%s\n' "$out" | grep '^ok - .*(passed on a second run' | sed "s|^|[$label] |" >>"$flaky"
	local p f s
	p=$(printf '%s\n' "$out" | grep -c '^ok - ')
	f=$(printf '%s\n' "$out" | grep -c '^not ok - ')
	s=$(printf '%s\n' "$out" | grep -c '^skip - ')
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "[$label] not ok - $label did not finish within $SUITE_TIMEOUT s" | tee -a "$failures"
		f=$((f + 1))
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "[$label] not ok - $label exited with status $rc without reporting a failed case" |
			tee -a "$failures"
		f=$((f + 1))
	fi
	[ "$secs" -ge 60 ] && echo "[$label] note: took $secs s"
	echo "$p $f $s" >>"$results"
}

if [ "${BUILD_FAILED:-0}" != 0 ]; then
	echo "[build] not ok - build: make all failed (status $BUILD_FAILED); testing what did build" |
		tee -a "$failures"
	echo "0 1 0" >>"$results"
fi
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	run_one "unit/$(basename "$t")" "$t"
done
for t in tests/cmd/*.sh; do
	case $(basename "$t") in lib*.sh) continue ;; esac # libraries the suites source
	run_one "cmd/$(basename "$t" .sh)" bash "$t"
done
if [ -f tests/fuzz/run.sh ]; then
	run_one "fuzz" bash tests/fuzz/run.sh short
fi

while read -r p f s; do
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
done <"$results"
# CI logs keep only the tail: name the flaky cases and the failures again above the count.
if [ -s "$flaky" ]; then
	echo "cases that failed once and passed on a second run:"
	cat "$flaky"
fi
if [ -s "$failures" ]; then
	echo "failed cases:"
	cat "$failures"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
