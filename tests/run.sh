#!/usr/bin/env bash
# Run every test (unit programs, command scripts, the short fuzz run) and count cases.
# The last line is "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BUILD
pass=0 fail=0 skip=0
results=$(mktemp)
trap 'rm -f "$results"' EXIT

run_one() { # label, command...
	local label=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed "s|^|[$label] |"
	local p f s
	p=$(printf '%s\n' "$out" | grep -c '^ok - ')
	f=$(printf '%s\n' "$out" | grep -c '^not ok - ')
	s=$(printf '%s\n' "$out" | grep -c '^skip - ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "[$label] not ok - $label exited with status $rc without reporting a failed case"
		f=$((f + 1))
	fi
	echo "$p $f $s" >>"$results"
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	run_one "unit/$(basename "$t")" "$t"
done
for t in tests/cmd/*.sh; do
	[ "$(basename "$t")" = lib.sh ] && continue
	run_one "cmd/$(basename "$t" .sh)" bash "$t"
done
if [ -x tests/fuzz/run.sh ]; then
	run_one "fuzz" tests/fuzz/run.sh short
fi

while read -r p f s; do
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
done <"$results"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
