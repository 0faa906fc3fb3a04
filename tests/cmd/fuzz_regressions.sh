#!/usr/bin/env bash
# Inputs the fuzzer once crashed the reader with (tests/corpus/fuzz-found): each must now be
# refused with one error line and exit 2, under the sanitizers too when SANITIZE=1.
. "$(dirname "$0")/lib.sh"

for f in "$TOP"/tests/corpus/fuzz-found/*.bin; do
	[ -e "$f" ] || continue
	test_case "fuzz-found/$(basename "$f") is refused cleanly" '
		rc=0; timeout 10 xperf-report --stats -i "'"$f"'" >out 2>err || rc=$?
		[ $rc -eq 2 ] || fail "exit $rc, want 2"
		[ "$(wc -l <err)" -eq 1 ] || { cat err; fail "want one line on stderr"; }
		grep -q "^xperf report: error: .*offset" err || fail "no offset in: $(cat err)"
	'
done
test_done
