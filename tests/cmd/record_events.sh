#!/usr/bin/env bash
# xperf record with each event syntax: tracepoints (TRACING_DATA), groups (GROUP_DESC),
# modifiers and lists, read back by perf and by xperf report.
. "$(dirname "$0")/lib.sh"

WL=$XPERF_BUILD/workloads
export WL


have_tp() { [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; }

if have_tp; then
perf_case "a tracepoint recording: perf report and perf script decode its raw fields" '
	xperf-record -q -e sched:sched_switch -- sleep 0.2
	perf_run report --stdio -i xperf.data >out 2>err
	no_warnings err
	grep -q "of event .sched:sched_switch." out
	perf_run script -i xperf.data >s 2>err
	no_warnings err
	grep -q "sched:sched_switch: prev_comm=sleep prev_pid=[0-9]* .*==> next_comm=" s
'

perf_case "tracepoints: attrs as perf sets them (RAW|CPU, period 1, no freq)" '
	xperf-record -q -e sched:sched_switch -- sleep 0.1
	perf_run record -q -N --no-bpf-event -e sched:sched_switch -o perf.data -- sleep 0.1
	for f in xperf.data perf.data; do
		perf_run evlist -v -i $f | grep "^sched:sched_switch:" >$f.attr
		grep -q "sample_type: IP|TID|TIME|CPU|PERIOD|RAW" $f.attr
		grep -q "{ sample_period, sample_freq }: 1," $f.attr
		if grep -q ", freq: 1" $f.attr; then fail "$f: freq set"; fi
	done
	# -F replaces the weak period of 1, as in perf
	xperf-record -q -F 100 -e sched:sched_switch -o f.data -- sleep 0.1
	perf_run evlist -v -i f.data | grep -q ", freq: 1"
'

perf_case "tracepoints with a sampling event, a glob and a comma list" '
	xperf-record -q -e sched:sched_switch,cpu-clock -e "sched:sched_process_e*" -- \
		sh -c "$WL/spin 0.2; true"
	perf_run evlist -i xperf.data >ev
	grep -qx cpu-clock ev
	grep -qx sched:sched_process_exec ev
	grep -qx sched:sched_process_exit ev
	perf_run script -i xperf.data >s 2>err
	no_warnings err
	grep -q "sched:sched_process_exec: filename=" s
	grep -q "cpu-clock:" s
	perf_run report --stdio -i xperf.data >/dev/null 2>err
	no_warnings err
'

perf_case "a tracepoint pipe stream (-o -) carries its tracing data to perf and xperf" '
	xperf-record -q -e sched:sched_switch -o - -- sleep 0.2 >p.data
	perf_run script -i - <p.data >s 2>err
	no_warnings err
	grep -q "sched:sched_switch: prev_comm=" s
	xperf-report --stats -i - <p.data >st
	grep -q "TRACING_DATA" st
	xperf-report --stdio -i p.data >r 2>err
	grep -q "sched:sched_switch" r
'
else
	skip_case "tracepoint recordings" "tracefs has no sched events"
fi

perf_case "a group {a,b}: GROUP_DESC, perf shows the group as its own does" '
	xperf-record -q -e "{cpu-clock,page-faults}" -e task-clock -- $WL/spin 0.2
	perf_run evlist -g -i xperf.data >g
	grep -qx "{cpu-clock,page-faults}" g
	grep -qx "task-clock" g
	perf_run report --stdio -i xperf.data >out 2>err
	no_warnings err
	grep -q "of events .anon group { cpu-clock, page-faults }." out
'

for e in "cpu-clock:u" "cpu-clock:k" "{cpu-clock,task-clock}:u" "page-faults" \
	 "cpu-clock,task-clock" "cpu-clock:ppp"; do
	# a kernel-only event needs kernel time: a short spin may get no kernel tick at all on
	# a loaded machine, and perf report then says the file has no samples
	work='$WL/spin 0.2'
	case $e in *:k) work='dd if=/dev/zero of=/dev/null bs=1 count=300000 status=none' ;; esac
	perf_case "perf report and perf script read: record -e '$e'" "
		xperf-record -q -e '$e' -- $work
		perf_reads_back xperf.data
	"
done

test_done
