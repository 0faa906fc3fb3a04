#!/usr/bin/env bash
# xperf record: the file perf reads, the attrs perf would set, what the user sees.
. "$(dirname "$0")/lib.sh"

WL=$XPERF_BUILD/workloads
# A short CPU-bound command: the bundled workload, or a shell loop before it exists.
if [ -x "$WL/spin" ]; then
	BUSY="$WL/spin 0.3"
else
	BUSY="sh -c 'i=0; while [ \$i -lt 200000 ]; do i=\$((i+1)); done'"
fi
export BUSY WL


perf_case "perf report --stdio reads the default (compressed) file without warnings" '
	eval xperf-record -q -- $BUSY
	test -s xperf.data
	perf_run report --stdio -i xperf.data >out 2>err
	no_warnings err
	grep -q "^# Samples: " out
	grep -qE "^ +[0-9.]+%" out
'

perf_case "perf script reads every sample we say we wrote" '
	eval xperf-record -- $BUSY 2>summary
	n=$(sed -n "s/.*(\([0-9]*\) samples).*/\1/p" summary)
	test "$n" -gt 10
	perf_run script -i xperf.data >out 2>err
	no_warnings err
	test "$(wc -l <out)" -eq "$n" || fail "perf script: $(wc -l <out) lines, we said $n"
'

for variant in "--no-compress" "-z 9" "-g" "--call-graph dwarf" "--call-graph dwarf,4096" \
	       "-c 100000" "-F 1000" "-e cpu-clock -e task-clock" "-a" "-C 0" "--no-inherit" \
	       "-e cpu-clock:u" "-B"; do
	perf_case "perf report and perf script read: record $variant" "
		eval xperf-record -q $variant -- \$BUSY
		perf_reads_back xperf.data
	"
done

perf_case "the summary is perf's: woken up, captured and wrote, samples, compression ratio" '
	eval xperf-record -- $BUSY 2>err
	grep -qE "^\[ xperf record: Woken up [0-9]+ times to write data \]$" err
	grep -qE "^\[ xperf record: Captured and wrote [0-9.]+ MB xperf.data \([0-9]+ samples\), compression ratio [0-9.]+ \]$" err
	n=$(perf_run report --stats -i xperf.data 2>/dev/null | sed -n "s/^ *SAMPLE events: *\([0-9]*\).*/\1/p" | head -1)
	grep -q "($n samples)" err || fail "perf counts $n samples"
'

test_case "-q prints nothing on success" '
	eval xperf-record -q -- $BUSY 2>err
	test ! -s err || { cat err; fail "stderr not empty"; }
'

perf_case "default attrs match perf record: freq 4000, IP|TID|TIME|PERIOD, tracking on the event" '
	eval xperf-record -q -- $BUSY
	perf_run evlist -v -i xperf.data >ev
	cat ev
	grep -q "sample_freq }: 4000" ev
	grep -q "sample_type: IP|TID|TIME|PERIOD," ev
	grep -q "freq: 1" ev
	grep -q "inherit: 1" ev
	grep -q "enable_on_exec: 1" ev
	grep -q "sample_id_all: 1" ev
	grep -q "comm_exec: 1" ev
	grep -q "mmap2: 1" ev
	grep -q "task: 1" ev
'

perf_case "-F, -c, -a, --no-inherit, -g and dwarf set the attrs perf sets" '
	eval xperf-record -q -F 1234 -- $BUSY
	perf_run evlist -v -i xperf.data | grep -q "sample_freq }: 1234"
	eval xperf-record -q -c 50000 -- $BUSY
	perf_run evlist -v -i xperf.data >ev; grep -q "sample_freq }: 50000" ev; ! grep -q "freq: 1" ev
	eval xperf-record -q -a -- $BUSY
	perf_run evlist -v -i xperf.data | grep -q "sample_type: IP|TID|TIME|CPU|PERIOD,"
	eval xperf-record -q --no-inherit -- $BUSY
	if perf_run evlist -v -i xperf.data | grep -q "inherit: 1"; then fail "record.sh:90: must not hold"; fi
	eval xperf-record -q -g -- $BUSY
	perf_run evlist -v -i xperf.data >ev
	grep -q "sample_type: IP|TID|TIME|CALLCHAIN|PERIOD," ev
	if grep -q "mmap_data" ev; then fail "-g: mmap_data set"; fi
	eval xperf-record -q --call-graph dwarf -- $BUSY
	perf_run evlist -v -i xperf.data >ev
	grep -q "CALLCHAIN|PERIOD|REGS_USER|STACK_USER" ev
	grep -q "sample_regs_user: 0xff0fff" ev
	grep -q "sample_stack_user: 8192" ev
	grep -q "exclude_callchain_user: 1" ev
	grep -q "mmap_data: 1" ev
	eval xperf-record -q --call-graph dwarf,1000 -- $BUSY
	perf_run evlist -v -i xperf.data | grep -q "sample_stack_user: 1000"
'

perf_case "several events: IDENTIFIER, one attr each, samples of both" '
	eval xperf-record -q -e cpu-clock -e task-clock -- $BUSY
	perf_run evlist -v -i xperf.data >ev
	test "$(grep -c "sample_type: IP|TID|TIME|PERIOD|IDENTIFIER," ev)" -eq 2
	perf_run script -F event -i xperf.data | sort | uniq -c >ev
	grep -q "cpu-clock" ev && grep -q "task-clock" ev
'

perf_case "-F max uses kernel.perf_event_max_sample_rate" '
	max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
	eval xperf-record -F max -- $BUSY 2>err
	grep -q "maximum frequency rate of $max Hz" err
	perf_run evlist -v -i xperf.data | grep -q "sample_freq }: $max"
'

perf_case "without a PMU, cycles falls back to cpu-clock with one note" '
	if perf stat -e cycles -x, true 2>&1 | grep -q "<not supported>"; then
		eval xperf-record -- $BUSY 2>err
		test "$(grep -c "note:.*cycles" err)" -eq 1
		perf_run evlist -i xperf.data | grep -q "cpu-clock"
	else
		eval xperf-record -- $BUSY 2>err
		if grep -q "note:" err; then fail "record.sh:125: must not hold"; fi
		perf_run evlist -i xperf.data | grep -q cycles
	fi
'

test_case "the command's exit status is ours" '
	set +e
	xperf-record -q -- sh -c "exit 7"; rc=$?
	set -e
	test $rc -eq 7
	test -s xperf.data
'

test_case "an existing output file becomes FILE.old" '
	eval xperf-record -q -o f.data -- $BUSY
	cp f.data first
	eval xperf-record -q -o f.data -- $BUSY
	cmp -s first f.data.old
	test -s f.data
'

test_case "a symbolic link at the output path is never followed: it becomes FILE.old" '
	echo precious >target
	ln -s target f.data
	ln -s nowhere g.data
	xperf-record -q -o f.data -- true
	xperf-record -q -o g.data -- true
	[ "$(cat target)" = precious ] || fail "the link was followed"
	[ ! -e nowhere ] || fail "the dangling link was followed (perf creates its target)"
	[ "$(readlink f.data.old)" = target ] && [ "$(readlink g.data.old)" = nowhere ]
	[ ! -L f.data ] && xperf-report --stats -i g.data | grep -q "COMM"
'

test_case "an old output that cannot become FILE.old: an error, and the output stays" '
	echo old >f.data
	mkdir -p f.data.old/full && touch f.data.old/full/x
	rc=0; xperf-record -q -o f.data -- true 2>err || rc=$?
	cat err
	[ $rc -eq 2 ] || fail "exit $rc"
	grep -q "error: cannot keep the existing .f.data. as .f.data.old.: " err
	[ "$(cat f.data)" = old ] || fail "the old output was overwritten"
'

perf_case "-o - writes a pipe stream perf reads" '
	eval xperf-record -q -o - -- $BUSY >pipe.data
	perf_run report --stdio -i - <pipe.data >out 2>err
	no_warnings err
	grep -qE "^ +[0-9.]+%" out
	eval xperf-record -q -o - -- $BUSY | perf_run script -i - >s 2>err
	no_warnings err
	test -s s
'

perf_case "-z takes its level attached, separate, or none (level 1), as perf" '
	for a in "-z" "-z3 3" "-z 3 3" "--compression-level 1" "--compression-level=5 5"; do
		set -- $a
		xperf-record -q $1 ${3:+$2} -o z.data -- true
		want=${3:-${2:-1}}
		perf_run report --header-only -i z.data >h 2>/dev/null
		grep -q "# compressed : Zstd, level = $want," h || fail "$a: $(grep compressed h)"
	done
'

test_case "-c and -F exclude each other, even -F at its default value (perf refuses too)" '
	set +e
	xperf-record -q -F 4000 -c 100 -o f.data -- true 2>err; rc=$?
	set -e
	test $rc -eq 1
	grep -q "exclude each other" err
	test ! -e f.data
'

test_case "--help lists every option" '
	xperf-record --help >help
	for o in -e -F -c -g --call-graph -p -t -a -C -u --no-inherit -o -m -z --no-compress \
		 -q -v --no-buildid; do
		grep -qe " $o\b" help || fail "$o missing from --help"
	done
'

perf_case "-m sets the ring size perf-style (rounded up to a power of two)" '
	eval xperf-record -v -m 3 -- $BUSY 2>err
	grep -q "rounding mmap pages size to 4 pages" err
	grep -q "mmap size 20480B" err
	eval xperf-record -v -m 1M -- $BUSY 2>err
	grep -q "mmap size 1052672B" err
'

perf_case "build ids: perf buildid-list shows the ELF note id of the workload; -B leaves them out" '
	[ -x "$WL/spin" ] || skip "no workload"
	want=$(readelf -n "$WL/spin" | sed -n "s/.*Build ID: *\([0-9a-f]*\).*/\1/p")
	test -n "$want"
	xperf-record -q -- $WL/spin 0.2
	perf_run buildid-list -i xperf.data >ids
	cat ids
	grep -q "^$want .*workloads/spin$" ids
	xperf-record -q -B -- $WL/spin 0.2
	if perf_run buildid-list -i xperf.data | grep -q "^$want"; then fail "record.sh:181: must not hold"; fi
'

test_case "xperf record (through the driver) runs xperf-record" '
	[ -x "$XPERF_BUILD/xperf" ] || skip "no driver"
	eval "$XPERF_BUILD/xperf" record -q -- $BUSY
	test -s xperf.data
'

test_done
