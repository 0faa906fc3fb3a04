#!/usr/bin/env bash
# xperf report: errors, usage, help and input selection (no perf needed for most cases).
. "$(dirname "$0")/lib.sh"

R=$XPERF_BUILD/xperf-report
MAN=$TOP/docs/xperf-report.1
WORK="sh -c 'i=0; while [ \$i -lt 50000 ]; do i=\$((i+1)); done'"

# rec FILE: record the workload with perf into FILE
rec() {
	eval "perf_run record -q -N -o $1 -- $WORK" 2>rec.err ||
		fail "perf record: $(tail -n 3 rec.err)"
}

test_case "missing input file: one error line naming it, exit 2" '
	rc=0; "$R" --stats -i nope.data >out 2>err || rc=$?
	[ "$rc" -eq 2 ] || fail "exit $rc"
	[ "$(wc -l <err)" -eq 1 ] || fail "stderr has $(wc -l <err) lines"
	grep -q "^xperf report: error: .*nope\.data" err || fail "message: $(cat err)"
	[ ! -s out ] || fail "stdout not empty"
'

test_case "no input at all: error names xperf.data, exit 2" '
	rc=0; "$R" --stats </dev/null >out 2>err || rc=$?
	[ "$rc" -eq 2 ] || fail "exit $rc"
	grep -q "^xperf report: error: .*xperf\.data" err || fail "message: $(cat err)"
'

test_case "not a perf.data file: error with offset, exit 2" '
	printf "this is not a perf.data file, not at all, really not\n%.0s" 1 2 3 >junk.data
	rc=0; "$R" --stats -i junk.data >out 2>err || rc=$?
	[ "$rc" -eq 2 ] || fail "exit $rc"
	[ "$(wc -l <err)" -eq 1 ] || fail "stderr: $(cat err)"
	grep -q "^xperf report: error: junk\.data: .*offset" err || fail "message: $(cat err)"
'

test_case "empty file: error, exit 2" '
	: >empty.data
	rc=0; "$R" --stats -i empty.data >out 2>err || rc=$?
	[ "$rc" -eq 2 ] || fail "exit $rc"
	grep -q "^xperf report: error: " err || fail "message: $(cat err)"
'

test_case "unknown option: usage on stderr, exit 1" '
	rc=0; "$R" --no-such-option >out 2>err || rc=$?
	[ "$rc" -eq 1 ] || fail "exit $rc"
	grep -q "no-such-option" err || fail "no error naming the option"
	grep -q "^usage: xperf report" err || fail "no usage on stderr"
	[ ! -s out ] || fail "stdout not empty"
'

test_case "stray argument and conflicting modes: exit 1" '
	rc=0; "$R" --stats extra >/dev/null 2>err || rc=$?
	[ "$rc" -eq 1 ] || fail "stray argument: exit $rc"
	rc=0; "$R" --stats --header-only -i x >/dev/null 2>err || rc=$?
	[ "$rc" -eq 1 ] || fail "--stats --header-only: exit $rc"
	grep -q "header-only" err || fail "message: $(cat err)"
'

test_case "--help lists every option of the man page and the man page every option" '
	"$R" --help >help 2>err || fail "--help failed"
	[ ! -s err ] || fail "--help wrote to stderr"
	grep -q "^usage: xperf report" help || fail "no usage line"
	# the option definitions of the man page: the line after each .TP
	awk "prev == \".TP\" { print } { prev = \$0 }" "$MAN" |
		sed -e "s/\\\\f[BIRP]//g" -e "s/\\\\//g" | grep -o -- "^[.B ]*-[^ ]*, --[a-z][a-z-]*\|^[.B ]*--[a-z][a-z-]*" |
		grep -o -- "--[a-z][a-z-]*" | sed "s/^--//" | sort -u >man_opts
	sed -n "s/^ *\(-[a-zA-Z], \)\?--\(\[no-\]\)\?\([a-z][a-z-]*\).*/\3/p" help | sort -u >help_opts
	[ -s man_opts ] && [ -s help_opts ] || fail "could not extract options"
	for o in input dump stats header-only quiet; do
		grep -qx "$o" help_opts || fail "--help lacks --$o"
	done
	missing=$(comm -23 help_opts man_opts | tr "\n" " ")
	[ -z "$missing" ] || fail "man page lacks: $missing"
	extra=$(comm -13 help_opts man_opts | grep -vx help | tr "\n" " ")
	[ -z "$extra" ] || fail "--help lacks: $extra"
'

perf_case "without -i: reads perf.data when xperf.data is absent, and says so" '
	rec perf.data
	rc=0; "$R" --stats </dev/null >out 2>err || rc=$?
	[ "$rc" -eq 0 ] || fail "exit $rc: $(cat err)"
	grep -q "perf\.data" err || fail "no note on stderr: $(cat err)"
	grep -q "SAMPLE events:" out || fail "no stats"
	"$R" --stats -q </dev/null >out 2>err
	[ ! -s err ] || fail "-q still printed: $(cat err)"
	cp perf.data xperf.data
	: >perf.data
	"$R" --stats </dev/null >out 2>err || fail "xperf.data not preferred: $(cat err)"
	[ ! -s err ] || fail "note printed although xperf.data exists: $(cat err)"
'

perf_case "a cut-off file is read up to its last whole record, with one warning" '
	rec full.data
	# cut in the middle of the data section, as a recorder killed mid-write leaves it
	off=$("$R" --header-only -i full.data | sed -n "s/^# data offset *: //p")
	size=$("$R" --header-only -i full.data | sed -n "s/^# data size *: //p")
	[ "${size:-0}" -gt 0 ] || fail "no data size in the header"
	head -c $((off + size / 2)) full.data >cut.data
	rc=0; "$R" --stats -i cut.data >out 2>err || rc=$?
	[ "$rc" -eq 0 ] || fail "exit $rc: $(cat err)"
	[ "$(grep -c "^xperf report: warning: " err)" -eq 1 ] || fail "warnings: $(cat err)"
	[ "$(wc -l <err)" -eq 1 ] || fail "stderr: $(cat err)"
	full=$("$R" --stats -i full.data | sed -n "s/^ *SAMPLE events: *\([0-9]*\).*/\1/p" | head -1)
	cut=$(sed -n "s/^ *SAMPLE events: *\([0-9]*\).*/\1/p" out | head -1)
	[ "$cut" -gt 0 ] && [ "$cut" -lt "$full" ] || fail "samples: cut $cut, full $full"
	"$R" -q --stats -i cut.data >/dev/null 2>err
	[ ! -s err ] || fail "-q still warned"
'

test_done
