#!/usr/bin/env bash
# xperf record --switch-events and --off-cpu: switch records as perf writes and prints them,
# off-CPU time (offcpu-time) charged to the stacks that blocked, report --wall, and the
# faults (tracefs missing or unreadable, no permission for the tracepoint).
. "$(dirname "$0")/lib.sh"

WL=$XPERF_BUILD/workloads
export WL

have_tp() { [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; }

# switch records of the file, as perf script lists them
nr_switches() { perf_run script -i "$1" --show-switch-events 2>/dev/null | grep -c "PERF_RECORD_SWITCH"; }
export -f nr_switches

perf_case "--switch-events: as many SWITCH records as perf records on the same workload (5%)" '
	# 2000 sleeps: each one switch out and one in; preemptions add a few
	xperf-record -q --switch-events -- $WL/stat_switch 2000 >/dev/null 2>&1
	perf_run record -q -N --no-bpf-event --switch-events -o perf.data -- \
		$WL/stat_switch 2000 >/dev/null 2>&1
	x=$(nr_switches xperf.data) p=$(nr_switches perf.data)
	echo "xperf $x perf $p"
	[ "$x" -ge 4000 ] || fail "xperf: $x switch records for 2000 sleeps"
	awk -v x=$x -v p=$p "BEGIN { d = x - p; if (d < 0) d = -d; exit !(d <= 0.05 * p) }" ||
		fail "xperf $x, perf $p: more than 5% apart"
'

perf_case "--show-switch-events: xperf script prints perf script's lines, per task and with -a" '
	xperf-record -q --switch-events -- $WL/stat_switch 200 >/dev/null 2>&1
	xperf-record -q -a --switch-events -o all.data -- $WL/stat_switch 200 >/dev/null 2>&1
	perf_run record -q -N --no-bpf-event --switch-events -o perf.data -- \
		$WL/stat_switch 200 >/dev/null 2>&1
	for f in xperf.data all.data perf.data; do
		perf_run script -i $f --show-switch-events >p.$f 2>err
		no_warnings err
		xperf-script -i $f --show-switch-events >x.$f
		grep -q "PERF_RECORD_SWITCH" x.$f || fail "$f: no switch lines"
		diff p.$f x.$f >d || { head d; fail "$f: not what perf script prints"; }
	done
	grep -q "PERF_RECORD_SWITCH_CPU_WIDE OUT .* next pid/tid: " x.all.data
	grep -q "PERF_RECORD_SWITCH IN  " x.xperf.data
	# without the option, no switch lines
	xperf-script -i xperf.data >plain
	if grep -q PERF_RECORD_SWITCH plain; then fail "switch lines without the option"; fi
'

perf_case "--switch-events: --stats and --dump count and show them as perf does" '
	xperf-record -q -a --switch-events -- $WL/stat_switch 100 >/dev/null 2>&1
	xperf-report --stats -i xperf.data | grep "SWITCH_CPU_WIDE events" >x
	perf_run report --stats -i xperf.data 2>/dev/null | grep "SWITCH_CPU_WIDE events" >p
	diff p x
	# the file offset is left out: a record that straddles two compressed records is
	# shown at the first one by xperf, at the second by perf (not a switch matter)
	xperf-report --dump -i xperf.data | grep "PERF_RECORD_SWITCH" |
		sed "s/ 0x[0-9a-f]* \\[/ [/" | sort >x
	perf_run report -D -i xperf.data 2>/dev/null | grep "PERF_RECORD_SWITCH" |
		sed "s/ 0x[0-9a-f]* \\[/ [/" | sort >p
	test -s x
	diff p x
'

# The workload computes 50%, sleeps 30% and waits on a pipe 20% of each round, and says what
# it measured itself on stderr: "offcpu: wall S compute S compute_cpu S sleep S pipe S".
# pct_of FILE SYMBOL: the Children percent of SYMBOL in FILE (a --sort sym -g none report)
pct_of() { awk -v s="$2" "\$NF == s && /%/ { sub(/%/, \"\", \$1); print \$1; exit }" "$1"; }
# near A B POINTS: |A - B| <= POINTS
near() { awk -v a="$1" -v b="$2" -v p="$3" "BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= p) }"; }
# measured FIELD: a number of the workload's own line in wl.err
measured() { awk -v f="$1" "{ for (i = 1; i < NF; i++) if (\$i == f) print \$(i + 1) }" wl.err; }
export -f pct_of near measured

if have_tp; then
test_case "--off-cpu: the two blocking stacks at the shares of wall time the workload measured" '
	xperf-record -q --off-cpu -- $WL/offcpu 20 2>wl.err >/dev/null
	cat wl.err
	xperf-report --stdio --children -g none --sort sym -i xperf.data >r
	sed -n "/of event .offcpu-time./,/^$/p" r >off
	grep -q "Event count" off || fail "no offcpu-time event"
	total=$(awk "/Event count/ { print \$NF }" off)
	wall=$(measured wall)
	for f in sleep_a_while:sleep:30 wait_for_pipe:pipe:20; do
		IFS=: read sym field nominal <<<"$f"
		pct=$(pct_of off $sym)
		[ -n "$pct" ] || fail "$sym: not in the offcpu-time stacks"
		of_wall=$(awk -v p=$pct -v t=$total -v w=$wall "BEGIN { print p * t / 1e9 / w }")
		self=$(awk -v s=$(measured $field) -v w=$wall "BEGIN { print 100 * s / w }")
		echo "$sym: $of_wall% of wall time (the workload measured $self%, nominal $nominal%)"
		near $of_wall $self 3 || fail "$sym: $of_wall% against the $self% measured"
		# a loaded machine lengthens the blocked times (wakeups wait for a cpu), and the
		# workload measures that too: the nominal share is a loose check only
		near $of_wall $nominal 15 || fail "$sym: $of_wall% against the nominal $nominal%"
	done
	# perf reads the file, and its offcpu-time section has the same stacks
	perf_run report --stdio --children -g none --sort sym -i xperf.data >p 2>err
	no_warnings err
	sed -n "/of event .offcpu-time./,/^$/p" p >poff
	[ "$(pct_of poff sleep_a_while)" = "$(pct_of off sleep_a_while)" ] || fail "perf differs"
	perf_run script -i xperf.data >/dev/null 2>err
	no_warnings err
'

test_case "report --wall: on-CPU and off-CPU time merged as the thread spent it" '
	xperf-record -q --off-cpu -e cpu-clock -- $WL/offcpu 20 2>wl.err >/dev/null
	cat wl.err
	xperf-report --wall --stdio --children -g none --sort sym -i xperf.data >r
	grep -q "of event .cpu-clock + offcpu-time.$" r
	# the thread was on the cpu compute_cpu seconds; the rest of compute() it was
	# runnable, preempted, which is neither on- nor off-CPU (blocked) time, as in perf
	on=$(measured compute_cpu) sl=$(measured sleep) pi=$(measured pipe)
	for f in compute:$on sleep_a_while:$sl wait_for_pipe:$pi; do
		IFS=: read sym secs <<<"$f"
		pct=$(pct_of r $sym)
		want=$(awk -v s=$secs -v a=$on -v b=$sl -v c=$pi "BEGIN { print 100 * s / (a + b + c) }")
		echo "$sym: $pct% (the workload measured $want%)"
		[ -n "$pct" ] && near $pct $want 3 || fail "$sym: $pct% against $want%"
	done
	# a file without off-CPU time: one line that says how to record one
	xperf-record -q -o plain.data -- $WL/spin 0.1
	rc=0; xperf-report --wall --stdio -i plain.data >out 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"
	[ $(wc -l <err) -eq 1 ] && grep -q "record it with .xperf record --off-cpu" err
'

test_case "report --wall: the shares of a thread that computes 50 ms of cpu a round" '
	# cpu mode: compute() runs until it has had 50 ms of cpu, so its on-CPU time is the
	# same however busy the machine is (preempted time counts in neither). Its blocked
	# times are not: a sleep ends when the thread runs again, later on a loaded machine,
	# and the off-CPU time holds that wait as the workload measured it. So the shares are
	# compared with what the workload measured, and with 50/30/20 only loosely.
	xperf-record -q --off-cpu -e cpu-clock -- $WL/offcpu 20 cpu 2>wl.err >/dev/null
	cat wl.err
	xperf-report --wall --stdio --children -g none --sort sym -i xperf.data >r
	on=$(measured compute_cpu) sl=$(measured sleep) pi=$(measured pipe)
	for f in compute:$on:50 sleep_a_while:$sl:30 wait_for_pipe:$pi:20; do
		IFS=: read sym secs nominal <<<"$f"
		pct=$(pct_of r $sym)
		want=$(awk -v s=$secs -v a=$on -v b=$sl -v c=$pi "BEGIN { print 100 * s / (a + b + c) }")
		echo "$sym: $pct% (the workload measured $want%, nominal $nominal%)"
		[ -n "$pct" ] && near $pct $want 3 || fail "$sym: $pct% against $want%"
		near $pct $nominal 15 || fail "$sym: $pct% is far from the nominal $nominal%"
	done
'

test_case "--off-cpu --call-graph dwarf: the blocking stacks unwound from the stack copy" '
	xperf-record -q --off-cpu --call-graph dwarf -- $WL/offcpu 5 2>/dev/null >/dev/null
	xperf-report --stdio --children -g none --sort sym -i xperf.data >r
	sed -n "/of event .offcpu-time./,/^$/p" r >off
	pct_of off sleep_a_while | grep -q . || fail "no sleep_a_while"
	pct_of off wait_for_pipe | grep -q . || fail "no wait_for_pipe"
'

# Processes other than zombies whose command line names FILE (the releaser is a fork of
# the recorder, so it carries the recorder's command line).
live_recorders() {
	local p
	for p in $(pgrep -f -- "-o $1 " || true); do
		[ "$(ps -o stat= -p "$p" 2>/dev/null | cut -c1)" = Z ] || echo "$p"
	done
}
export -f live_recorders

perf_case "--off-cpu: the file is complete when the command returns, no process stays behind" '
	out=held-$$.data
	# a pipe on stdout and stderr: they end when the command does, not the release
	xperf-record -q --off-cpu -o $out -- $WL/offcpu 2 2>&1 | cat >out.txt
	perf_run report --stats -i $out >st 2>err
	no_warnings err
	grep -A2 "offcpu-time stats" st | grep -q "SAMPLE events"
	# the kernel lets the tracepoint go within tens of ms: allow two seconds
	for i in $(seq 20); do
		[ -z "$(live_recorders $out)" ] && break
		sleep 0.1
	done
	[ -z "$(live_recorders $out)" ] || fail "still running: $(live_recorders $out)"
'

test_case "--off-cpu: switch records stay out of the file unless --switch-events" '
	xperf-record -q --off-cpu -- $WL/offcpu 2 2>/dev/null >/dev/null
	if xperf-report --stats -i xperf.data | grep -q SWITCH; then fail "switch records"; fi
	xperf-record -q --off-cpu --switch-events -o both.data -- $WL/offcpu 2 2>/dev/null >/dev/null
	xperf-report --stats -i both.data | grep -q "SWITCH events"
'
else
skip_case "--off-cpu cases" "no sched tracepoints (tracefs)"
fi

test_case "--off-cpu without tracefs: one line with the mount command" '
	command -v unshare >/dev/null || skip "no unshare"
	unshare -m true 2>/dev/null || skip "cannot make a mount namespace"
	rc=0
	unshare -m sh -c "mount -t tmpfs -o ro none /sys/kernel &&
		exec xperf-record --off-cpu -- true" >out 2>err || rc=$?
	cat err
	[ $rc -eq 1 ] || fail "exit $rc"
	[ $(wc -l <err) -eq 1 ] || fail "more than one line"
	grep -q "mount -t tracefs nodev /sys/kernel/tracing" err
'

test_case "--off-cpu without permission for the tracepoint: one line with the fix" '
	command -v setpriv >/dev/null || skip "no setpriv"
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 0 ] ||
		skip "perf_event_paranoid is -1: the tracepoint is allowed to everyone"
	rc=0
	setpriv --bounding-set=-all --inh-caps=-all -- \
		xperf-record -q --off-cpu -- true >out 2>err || rc=$?
	cat err
	[ $rc -eq 2 ] || fail "exit $rc"
	[ $(wc -l <err) -eq 1 ] || fail "more than one line"
	grep -q "sysctl -w kernel.perf_event_paranoid=-1" err
	# tracefs that this user may not read (mode 700): said so, with the remount
	if [ "$(stat -c %a /sys/kernel/tracing 2>/dev/null)" = 700 ]; then
		rc=0
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			xperf-record -q --off-cpu -o /dev/null -- true >out 2>err || rc=$?
		cat err
		[ $rc -eq 1 ] && [ $(wc -l <err) -eq 1 ] || fail "exit $rc"
		grep -q "not readable by this user.*mount -o remount,mode=755" err
	fi
'

test_done
