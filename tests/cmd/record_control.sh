#!/usr/bin/env bash
# xperf record's recording control and sample contents, against perf 6.1: -s with report -T,
# -d, --sample-cpu, register lists, --filter, -D, --switch-output, --max-size, and the faults.
. "$(dirname "$0")/lib.sh"

WL=$XPERF_BUILD/workloads
export WL

have_tp() { [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; }

# pieces: the --switch-output files of the case's directory (FILE.YYYYMMDDHHMMSScc)
pieces() { ls | grep -E '^xperf\.data\.[0-9]{16}$' || true; }
# reads_piece FILE [last]: perf report and script read it without a complaint, and so does
# xperf; the samples each one counts are the same, and the workload's function ($PIECE_FN,
# spin_work by default) is named (threads and maps of the piece are in it). The last piece may hold no sample, when the
# switch came just before the command ended (so may perf's): then both read its records.
reads_piece() {
	if [ "${2:-}" = last ] && ! perf_run script -i "$1" 2>/dev/null | grep -q .; then
		perf_run report --stats -i "$1" >st 2>err
		no_warnings err
		grep -q "FINISHED_INIT events" st || fail "$1: perf reads no records"
		xperf-report --stats -i "$1" >xst
		grep -q "FINISHED_INIT" xst || fail "$1: xperf reads no records"
		return 0
	fi
	local fn=${PIECE_FN:-spin_work}
	perf_reads_back "$1"
	xperf-report --stdio -i "$1" >xout 2>xerr
	if [ -n "${PIECES_SHARE_FN:-}" ]; then
		# a piece cut by size may hold only start-up records and samples: the function
		# must be in some piece, each seen alike by perf and xperf
		if grep -q $fn out; then echo "$1" >>pieces_with_fn; fi
		if grep -q $fn xout; then echo "$1" >>xpieces_with_fn; fi
	else
		grep -q $fn out || fail "$1: perf report names no $fn"
		grep -q $fn xout || fail "$1: xperf report names no $fn"
	fi
	xperf-script -i "$1" >xs 2>xerr
	[ "$(wc -l <s)" = "$(wc -l <xs)" ] || fail "$1: perf script $(wc -l <s) lines, xperf script $(wc -l <xs)"
}
export -f pieces reads_piece

perf_case "-s: the attr as perf sets it (inherit_stat, time fields in read_format)" '
	xperf-record -q -s -- $WL/threads 0.2
	perf_run record -q -N --no-bpf-event -s -o perf.data -- $WL/threads 0.2
	for f in xperf.data perf.data; do
		perf_run evlist -v -i $f | head -n 1 >$f.attr
		grep -q "inherit_stat: 1" $f.attr
		grep -q "read_format: TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID" $f.attr
	done
'

perf_case "-s: report -T prints what perf report -T prints, on our file and on perf own" '
	xperf-record -q -s -- $WL/threads 0.4
	perf_run record -q -N --no-bpf-event -s -o perf.data -- $WL/threads 0.4
	for f in xperf.data perf.data; do
		perf_run report -T --stdio -i $f 2>/dev/null | sed -n "/^#  *PID  *TID/,\$p" >perf.T
		xperf-report -T --stdio -i $f 2>/dev/null | sed -n "/^#  *PID  *TID/,\$p" >xperf.T
		cat xperf.T
		[ "$(wc -l <perf.T)" -ge 3 ] || fail "$f: perf shows fewer than two threads"
		diff perf.T xperf.T
	done
'

perf_case "-s with two events: report -T has a column each, in perf order" '
	xperf-record -q -s -e cpu-clock -e page-faults -- $WL/threads 0.2
	perf_run report -T --stdio -i xperf.data 2>/dev/null | sed -n "/^#  *PID  *TID/,\$p" >perf.T
	xperf-report -T --stdio -i xperf.data 2>/dev/null | sed -n "/^#  *PID  *TID/,\$p" >xperf.T
	cat xperf.T
	grep -q "^#  *PID  *TID  cpu-clock  page-faults$" xperf.T
	diff perf.T xperf.T
'

perf_case "-s: a thread count is about the periods of its own samples" '
	# What the kernel reports is not exact, in perf 6.1 recordings as in ours: with
	# inherit_stat it swaps the counts of equivalent contexts on a context switch, so a
	# count may come out 5-10 % above its thread samples, and now and then under the
	# parent task instead of a child (the one that exits holding the cloned context).
	# Exact is the comparison with perf above; here each listed thread with 100 samples
	# or more has a count within 15 % of its samples periods (cpu-clock: nanoseconds).
	xperf-record -q -s -- $WL/threads 0.6
	xperf-report -T --stdio -i xperf.data | sed -n "/^#  *PID  *TID/,\$p" | tail -n +2 >T
	perf_run script -F tid,period -i xperf.data >s
	test -s T
	checked=0
	while read -r pid tid count; do
		n=$(awk -v t=$tid "\$1 == t { n++ } END { print n + 0 }" s)
		sum=$(awk -v t=$tid "\$1 == t { s += \$2 } END { printf \"%d\", s }" s)
		echo "tid $tid: count $count, $n samples, periods $sum"
		[ $n -ge 100 ] || continue
		checked=$((checked + 1))
		awk -v c=$count -v s=$sum "BEGIN { d = c - s; if (d < 0) d = -d; exit !(d <= 0.15 * s) }" ||
			fail "tid $tid: count $count and samples $sum differ by more than 15 %"
	done <T
	[ $checked -ge 1 ] || fail "no thread with 100 samples listed"
'

perf_case "-d, --sample-cpu, --user-regs, -I: the attrs perf writes for the same options" '
	opts="-d --sample-cpu --user-regs=AX,bx,R15 -I"
	xperf-record -q $opts -- $WL/spin 0.2
	perf_run record -q -N --no-bpf-event $opts -o perf.data -- $WL/spin 0.2
	for f in xperf.data perf.data; do
		perf_run evlist -v -i $f | head -n 1 | tr "," "\n" |
			grep -E "sample_type|sample_regs|mmap_data" | sed "s/^ *//" >$f.attr
	done
	cat xperf.data.attr
	diff perf.data.attr xperf.data.attr
	perf_reads_back xperf.data
	perf_run script -F ip,cpu,addr,iregs,uregs -i xperf.data >regs 2>err
	no_warnings err
	grep -q "IP:0x.* R15:0x" regs
	xperf-report --stdio -i xperf.data | grep -q spin_work
'

perf_case "--user-regs=? and -I? name the registers perf names, as perf: stderr, status 129" '
	for q in --user-regs=? --intr-regs=? -I?; do
		set +e
		perf record $q >perf.out 2>perf.err; prc=$?
		xperf-record $q >x.out 2>x.err; xrc=$?
		set -e
		[ $xrc = $prc ] || fail "$q: xperf exits $xrc, perf $prc"
		[ ! -s x.out ] || fail "$q: xperf printed on stdout: $(head -c 200 x.out)"
		[ ! -s perf.out ] || fail "$q: perf printed on stdout (the oracle changed)"
		head -n 1 perf.err >perf.list
		head -n 1 x.err >x.list
		grep -q "^available registers: AX " perf.list
		diff perf.list x.list
	done
'

if have_tp; then
perf_case "--filter: the kernel keeps only matching tracepoint samples, perf reads them" '
	xperf-record -q -e sched:sched_switch -- sh -c "sleep 0.05; sleep 0.05" 
	perf_run script -i xperf.data >all
	grep -q "prev_state=S" all
	xperf-record -q -e sched:sched_switch --filter "prev_state == 1" -o f.data -- \
		sh -c "sleep 0.05; sleep 0.05"
	perf_run script -i f.data >s 2>err
	no_warnings err
	cat s
	grep -q "prev_state=S" s
	if grep -v "prev_state=S " s; then fail "a sample the filter refuses"; fi
'

perf_case "--filter twice on one event: both apply, as perf joins them with &&" '
	xperf-record -q -e sched:sched_switch --filter "prev_state == 1" \
		--filter "prev_comm == \"sleep\"" -- sh -c "sleep 0.05; sleep 0.05"
	perf_run script -i xperf.data >s
	grep -q "prev_comm=sleep .*prev_state=S" s
	if grep -v "prev_comm=sleep .*prev_state=S " s; then fail "a sample one filter refuses"; fi
'
fi

perf_case "-D: events start after the delay, behind the dummy:HG tracking event perf adds" '
	xperf-record -D 400 -- $WL/spin 1 2>err
	grep -qx "Events disabled" err
	grep -qx "Events enabled" err
	perf_run evlist -i xperf.data >ev
	grep -qx "dummy:HG" ev
	perf_reads_back xperf.data
	grep -q spin_work out
	# the dummy saw the exec at once; the first sample comes 400 ms (wall time) later
	perf_run script --show-task-events -i xperf.data >s
	exec=$(grep -m1 "PERF_RECORD_COMM exec: spin" s | awk "{ print \$3 }" | tr -d :)
	first=$(grep -m1 "cpu-clock:" s | awk "{ print \$3 }" | tr -d :)
	echo "exec $exec, first sample $first"
	test -n "$exec" && test -n "$first"
	awk -v e=$exec -v f=$first "BEGIN { exit !(f - e >= 0.4 && f - e < 2.4) }" ||
		fail "first sample $first, exec $exec: not 400 ms apart"
'

perf_case "-D -1: the events never start" '
	xperf-record -D -1 -- $WL/spin 0.2 2>err
	grep -qx "Events disabled" err
	if grep -q "Events enabled" err; then fail "enabled"; fi
	xperf-report --stats -i xperf.data >st
	if grep -q "SAMPLE events: *[1-9]" st; then fail "samples were recorded"; fi
'

perf_case "--switch-output (SIGUSR2): two complete pieces named as perf names them" '
	xperf-record -q --switch-output -- $WL/spin 1.5 & pid=$!
	sleep 0.7
	kill -USR2 $pid
	wait $pid
	pieces >p
	cat p
	[ "$(wc -l <p)" = 2 ] || fail "$(wc -l <p) pieces"
	test ! -e xperf.data
	for f in $(head -n -1 p); do reads_piece $f; done
	reads_piece $(tail -n 1 p) last
'

perf_case "--switch-output=SIZE: pieces past the size, each read by perf and xperf" '
	xperf-record --no-compress --switch-output=50K -F 10000 -g -- $WL/spin 1 2>err
	pieces >p
	cat p err
	[ "$(wc -l <p)" -ge 2 ] || fail "$(wc -l <p) pieces"
	grep -q "^\[ xperf record: Dump xperf.data.[0-9]\{16\} \]" err
	export PIECES_SHARE_FN=1
	for f in $(head -n -1 p); do reads_piece $f; done
	reads_piece $(tail -n 1 p) last
	test -s pieces_with_fn || fail "no piece holds spin_work for perf"
	cmp pieces_with_fn xpieces_with_fn || fail "perf and xperf find spin_work in other pieces"
'

perf_case "--switch-output=1s: a piece a second" '
	xperf-record -q --switch-output=1s -- $WL/spin 2.5
	pieces >p
	cat p
	[ "$(wc -l <p)" = 3 ] || fail "$(wc -l <p) pieces"
	for f in $(head -n -1 p); do reads_piece $f; done
	reads_piece $(tail -n 1 p) last
'

if have_tp; then
# The marker of the phases workload: a system call nothing else here makes. The events of
# --switch-output-event are watched on every cpu for a command, as perf watches them.
MARK=syscalls:sys_enter_sched_rr_get_interval
export MARK
if [ -d /sys/kernel/tracing/events/syscalls/sys_enter_sched_rr_get_interval ] ||
   [ -d /sys/kernel/debug/tracing/events/syscalls/sys_enter_sched_rr_get_interval ]; then
perf_case "--switch-output-event: a piece per marker as with perf, each read by perf and xperf" '
	perf_run record -q -N --no-bpf-event --switch-output-event $MARK -o perf.data -- \
		$WL/phases 3 0.3
	np=$(ls | grep -cE "^perf\.data\.[0-9]{16}$" || true)
	xperf-record --switch-output-event $MARK -- $WL/phases 3 0.3 2>err
	pieces >p
	cat p err
	[ "$np" = 3 ] || skip "perf made $np pieces of 2 markers (another task made the call?)"
	[ "$(wc -l <p)" = "$np" ] || fail "$(wc -l <p) pieces, perf $np"
	# the events are not recorded: only cpu-clock samples
	xperf-report --stats -i $(head -n 1 p) >st
	if grep -q "sched_rr_get_interval" st; then fail "the marker event went to the file"; fi
	export PIECE_FN=phase_work
	for f in $(head -n -1 p); do reads_piece $f; done
	reads_piece $(tail -n 1 p) last
'

perf_case "--switch-output-event with --switch-output=SIZE: signal mode wins, as in perf" '
	xperf-record -q --switch-output=1G --switch-output-event $MARK -- $WL/phases 2 0.2 & pid=$!
	sleep 0.1
	kill -USR2 $pid
	wait $pid
	pieces >p
	cat p
	[ "$(wc -l <p)" = 3 ] || fail "$(wc -l <p) pieces: SIGUSR2 and the marker should switch"
'
else
skip_case "--switch-output-event against perf" "no syscalls:sys_enter_sched_rr_get_interval"
fi
fi

perf_case "--switch-max-files=2: only the 2 newest pieces stay, as with perf" '
	perf_run record -q -N --no-bpf-event --switch-output=1s --switch-max-files=2 \
		-o perf.data -- $WL/spin 3.5
	np=$(ls | grep -cE "^perf\.data\.[0-9]{16}$" || true)
	xperf-record --switch-output=1s --switch-max-files=2 -- $WL/spin 3.5 2>err
	pieces >p
	cat p err
	[ "$np" = 2 ] || fail "perf kept $np pieces"
	[ "$(wc -l <p)" = 2 ] || fail "xperf kept $(wc -l <p) pieces"
	# the kept ones are the last two named, of four
	grep -o "xperf\.data\.[0-9]\{16\}" err >dumped
	[ "$(wc -l <dumped)" = 4 ] || fail "$(wc -l <dumped) pieces dumped"
	tail -n 2 dumped | diff - p
	reads_piece $(head -n 1 p)
	reads_piece $(tail -n 1 p) last
'

perf_case "--max-size: the recording stops past the size, the file complete" '
	start=$(date +%s%N)
	xperf-record --no-compress --max-size=200K -F 10000 -g -- $WL/spin 3 2>err
	end=$(date +%s%N)
	cat err
	grep -q "size limit reached" err
	size=$(stat -c %s xperf.data)
	echo "size $size"
	# one round (100 ms at 10 kHz with call chains) past the limit at most
	[ $size -ge 204800 ] && [ $size -lt 800000 ] || fail "size $size"
	[ $(( (end - start) / 1000000 )) -lt 2500 ] || fail "it did not stop early"
	perf_reads_back xperf.data
'

for bad in "--switch-output=garbage" "--switch-output=10x" "--max-size=x" "--max-size=0" \
	   "-D abc" "-D -2" "--user-regs=AX,FOO" "-IFOO" "--filter x" \
	   "-e cpu-clock --filter x" "--switch-output -o -" "--switch-max-files=-1" \
	   "--switch-output-event no_such_event" "--switch-output-event sched:no_such_tp"; do
	test_case "a bad value ($bad): exit 1, one error line, no file" "
		set +e
		xperf-record $bad -- true 2>err; rc=\$?
		set -e
		cat err
		test \$rc -eq 1
		[ \"\$(grep -c \"^xperf record: error: \" err)\" = 1 ]
		head -n 1 err | grep -q \"^xperf record: error: \"
		test ! -e xperf.data
	"
done

if have_tp; then
test_case "a filter the kernel refuses: exit 2 and the kernel's reason" '
	set +e
	xperf-record -e sched:sched_switch --filter "no_such_field == 1" -- true 2>err; rc=$?
	set -e
	cat err
	test $rc -eq 2
	grep -q "^xperf record: error: cannot set filter .no_such_field == 1. on event .sched:sched_switch.: Invalid argument" err
'
fi

test_done
