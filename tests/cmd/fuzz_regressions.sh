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

# Tracepoint formats damaged inside TRACING_DATA (tests/corpus/damaged-formats, see its
# MANIFEST): libtraceevent trusts a format's text and perf dies on each. script leaves the
# format out with one warning naming the event and prints the lines without their fields.
seed=$TOP/tests/fuzz/corpus-pass/tracepoint.bin
for f in "$TOP"/tests/corpus/damaged-formats/*.bin; do
	case $f in */crash-before-good.bin) continue ;; esac
	test_case "damaged-formats/$(basename "$f"): one warning naming the event, the lines without fields" '
		"$XPERF_BUILD/xperf" version | grep -q "+libtraceevent" ||
			skip "built without libtraceevent"
		rc=0; timeout 20 xperf-script -i "'"$f"'" >out 2>err || rc=$?
		[ $rc -eq 0 ] || { cat err; fail "exit $rc"; }
		[ "$(grep -c "warning: tracepoint fields of sched:sched_switch are not printed: its format in the file.s tracing data is damaged (" err)" -eq 1 ] ||
			{ cat err; fail "want one warning naming sched:sched_switch"; }
		[ "$(grep -c "tracepoint fields" err)" -eq 1 ] || { cat err; fail "more than one line about the formats"; }
		timeout 20 xperf-script -i "'"$seed"'" >good 2>/dev/null
		want=$(grep -c " sched:sched_switch: " good)
		[ "$want" -gt 0 ] || fail "the seed has no sched_switch samples"
		[ "$(grep -c " sched:sched_switch: " out)" -eq "$want" ] || fail "not every sched_switch line"
		[ "$(grep -c " cpu-clock: " out)" -eq "$(grep -c " cpu-clock: " good)" ] ||
			fail "not every cpu-clock line"
		if grep -q "prev_comm=" out; then fail "fields from the damaged format"; fi
	'
done

test_case "damaged-formats/crash-before-good.bin: the format after the one that kills the parser prints its fields" '
	"$XPERF_BUILD/xperf" version | grep -q "+libtraceevent" || skip "built without libtraceevent"
	f=$TOP/tests/corpus/damaged-formats/crash-before-good.bin
	rc=0; timeout 20 xperf-script -i "$f" >out 2>err || rc=$?
	[ $rc -eq 0 ] || { cat err; fail "exit $rc"; }
	[ "$(grep -c "tracepoint fields" err)" -eq 1 ] &&
		grep -q "warning: tracepoint fields of sched:fake_event are not printed: .*(its print fmt is not a C expression)" err ||
		{ cat err; fail "want one warning naming sched:fake_event"; }
	timeout 20 xperf-script -i "$seed" >good 2>/dev/null
	diff good out || fail "the lines differ from the seed'"'"'s"
'
test_done
