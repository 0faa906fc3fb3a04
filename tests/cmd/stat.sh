#!/usr/bin/env bash
# xperf stat behaviour: targets, exit statuses, signals, errors, output options, help and man page.
. "$(dirname "$0")/lib.sh"
W=$XPERF_BUILD/workloads
export W
csv_val() { awk -F, -v e="$2" '$3 == e { print $1; exit }' "$1"; }
# wait_for SECONDS CMD...: until CMD succeeds (checked every 20 ms); 1 after SECONDS.
# Cases act on processes only once they are in the state the case needs, never after a
# guessed sleep: a loaded CI machine or a sanitizer build can be slower than any guess.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.02
	done
}
# catches_int PID: PID has a SIGINT handler (a background job starts with SIGINT ignored)
catches_int() {
	local m
	m=$(awk "/^SigCgt:/ { print \$2 }" /proc/$1/status 2>/dev/null) && [ -n "$m" ] && (( 0x$m & 2 ))
}
# counting PID: PID holds perf_event fds
counting() { ls -l /proc/$1/fd 2>/dev/null | grep -q "perf_event"; }
export -f csv_val wait_for catches_int counting

test_case "the command's stdout and stderr are untouched; ours goes to stderr" '
	xperf-stat -e task-clock $W/stat_switch 3 >out.txt 2>err.txt
	[ "$(cat out.txt)" = "out 3" ] || fail "stdout: $(cat out.txt)"
	grep -q "^err 3$" err.txt
	grep -q "Performance counter stats for .*stat_switch 3" err.txt
'

test_case "-o FILE takes our output off stderr; --append adds" '
	xperf-stat -o s.txt -e task-clock $W/stat_switch 2 >out.txt 2>err.txt
	[ "$(cat err.txt)" = "err 2" ] || fail "stderr: $(cat err.txt)"
	grep -q "^# started on " s.txt
	grep -q "msec task-clock" s.txt
	xperf-stat -o s.txt --append -x, -e page-faults true
	[ "$(grep -c "^# started on" s.txt)" = 2 ]
	grep -q ",page-faults," s.txt
	grep -q "msec task-clock" s.txt
'

test_case "-o on a full disk: an error naming the file, exit 2" '
	[ -w /dev/full ] || skip "no /dev/full"
	rc=0; xperf-stat -o /dev/full -e task-clock true 2>err.txt || rc=$?
	[ "$rc" = 2 ] || fail "exit $rc"
	grep -q "^xperf stat: error: cannot write .*/dev/full" err.txt
'

test_case "the exit status of the command is returned" '
	rc=0; xperf-stat -e task-clock $W/stat_signal 0 exit 7 2>err.txt || rc=$?
	[ "$rc" = 7 ] || fail "exit $rc"
	xperf-stat -e task-clock true 2>/dev/null
'

test_case "a command killed by a signal: reported, counts printed, 128+sig" '
	rc=0; xperf-stat -x, -e page-faults,task-clock $W/stat_signal 9 2>err.txt || rc=$?
	[ "$rc" = 137 ] || fail "exit $rc"
	grep -q "killed by signal 9" err.txt
	pf=$(csv_val err.txt page-faults)
	[ "$pf" -ge 256 ] || fail "page-faults $pf"
'

test_case "SIGINT to the process group: counts so far are printed" '
	# a process group of its own, led by this bash: $$ is the group id. The command writes
	# "ready" once it runs, so xperf-stat is counting and catches SIGINT by then.
	setsid bash -c "echo \$\$ >pg.txt; exec 2>err.txt; xperf-stat -e task-clock,cs $W/stat_ready ready 60; echo \$? >rc.txt" &
	wait_for 60 test -s ready || fail "the command did not start"
	pg=$(cat pg.txt)
	kill -INT -- -$pg
	wait_for 60 test -s rc.txt || { kill -KILL -- -$pg; fail "xperf-stat did not end"; }
	wait
	cat err.txt
	[ "$(cat rc.txt)" = 130 ] || fail "exit $(cat rc.txt)"
	grep -Eq "^ +[0-9.]+ msec task-clock" err.txt
	grep -q "seconds time elapsed" err.txt
'

test_case "SIGINT ends a system-wide count without a command" '
	xperf-stat -a -e cs 2>err.txt & pid=$!
	# SIGINT before xperf-stat installs its handler would be ignored (a background job)
	wait_for 60 catches_int $pid || { kill -KILL $pid; fail "xperf-stat never caught SIGINT"; }
	sleep 0.2
	kill -INT $pid
	wait_for 60 grep -q "seconds time elapsed" err.txt || { kill -KILL $pid; fail "did not end"; }
	wait $pid
	grep -q "Performance counter stats for .system wide." err.txt
	grep -Eq "^ +[0-9]+      cs " err.txt
'

test_case "command not found: clear error, exit 127" '
	rc=0; xperf-stat -e task-clock no-such-command-xyz 2>err.txt || rc=$?
	[ "$rc" = 127 ] || fail "exit $rc"
	grep -q "^xperf stat: error: cannot run .no-such-command-xyz.: No such file or directory" err.txt
	! grep -q "Performance counter stats" err.txt
'

test_case "unknown event: usage error naming it" '
	rc=0; xperf-stat -e no-such-event true 2>err.txt || rc=$?
	[ "$rc" = 1 ] || fail "exit $rc"
	grep -q "no-such-event" err.txt
	grep -q "^xperf stat: error: " err.txt
'

test_case "bad options are usage errors" '
	for args in "-r 0 true" "-I 5 true" "-x, -j true" "" "-p 1 -a true" "--no-such-option true"; do
		rc=0; xperf-stat $args 2>err.txt || rc=$?
		[ "$rc" = 1 ] || fail "exit $rc for $args"
	done
'

test_case "no permission: perf_event_paranoid advice (unprivileged -a)" '
	[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null || skip "needs root and setpriv"
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ] || skip "paranoid < 1"
	d=$(mktemp -d /tmp/xperf-stat-perm.XXXXXX); chmod 755 $d
	cp "$XPERF_BUILD/xperf-stat" $d/; chmod 755 $d/xperf-stat
	rc=0; setpriv --reuid=65534 --regid=65534 --clear-groups $d/xperf-stat -a -e cs sleep 0.1 2>err.txt || rc=$?
	# unprivileged task counting works, as perf: user-space only, shown as :u
	setpriv --reuid=65534 --regid=65534 --clear-groups $d/xperf-stat -e task-clock true 2>ok.txt
	rm -rf $d
	cat err.txt
	[ "$rc" = 2 ] || fail "exit $rc"
	grep -q "perf_event_paranoid" err.txt
	grep -q "task-clock:u" ok.txt
'

test_case "groups are counted together" '
	xperf-stat -x, -e "{task-clock,page-faults},cs" $W/stat_pages 100 2>err.txt
	[ "$(csv_val err.txt page-faults)" -ge 100 ]
	grep -q ",task-clock," err.txt
'

test_case "-r N: mean, noise, (N runs); --table lists each run with min and max" '
	xperf-stat -r 4 --table -e page-faults $W/stat_pages 300 2>err.txt
	grep -q "(4 runs):" err.txt
	[ "$(grep -Ec "^ +[0-9.]+ \([+-][0-9.]+\) #+$" err.txt)" = 4 ]
	grep -q "# Range: min [0-9.]*, max [0-9.]*" err.txt
	grep -q "# Final result:" err.txt
	grep -Eq "^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed" err.txt
	pf=$(awk "/page-faults/ {print \$1}" err.txt | head -1)
	[ "$pf" -ge 300 ]
	# beyond perf: each event with its min and max over the runs, around the mean
	grep -q "# Range of counts over the runs (min, max):" err.txt
	set -- $(grep -E "^ +[0-9]+ +[0-9]+      page-faults$" err.txt)
	[ $# = 3 ] || fail "no page-faults range"
	[ "$1" -ge 300 ] && [ "$1" -le "$pf" ] && [ "$2" -ge "$pf" ] || fail "range $1 $2 around $pf"
'

test_case "-p PID counts a running process until the command ends" '
	$W/spin 5 & pid=$!
	xperf-stat -p $pid -x, -e task-clock sleep 0.3 2>err.txt
	kill $pid; wait $pid 2>/dev/null || true
	tc=$(csv_val err.txt task-clock)
	echo "task-clock $tc"
	awk -v t="$tc" "BEGIN { exit !(t > 50 && t < 1000) }"
'

test_case "-t TID and the end of the target end the count" '
	$W/stat_ready ready 60 & pid=$!
	wait_for 60 test -s ready || fail "the target did not start"
	xperf-stat -t $pid -e task-clock 2>err.txt & xp=$!
	# end the target only once xperf-stat counts it
	wait_for 60 counting $xp || { kill $pid; fail "xperf-stat did not open counters"; }
	rm ready
	wait_for 60 grep -q "seconds time elapsed" err.txt || { kill -KILL $xp; fail "did not end"; }
	wait $xp
	wait $pid
	grep -q "Performance counter stats for thread id .$pid.:" err.txt
	grep -q "msec task-clock" err.txt
'

test_case "--timeout stops the command and prints counts" '
	start=$(date +%s%N)
	rc=0; xperf-stat --timeout 200 -e task-clock sleep 5 2>err.txt || rc=$?
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	[ "$ms" -lt 2000 ] || fail "took $ms ms"
	grep -q "msec task-clock" err.txt
'

test_case "-I with --interval-count stops after N intervals" '
	xperf-stat -I 100 --interval-count 3 -x, -e task-clock sleep 5 2>err.txt
	n=$(grep -c task-clock err.txt)
	# exactly N, as perf prints (no partial interval after the command is stopped)
	[ "$n" = 3 ] || fail "$n intervals"
'

test_case "-v prints raw value, enabled and running; -q prints nothing; -n no counters" '
	xperf-stat -v -e task-clock true 2>v.txt
	grep -Eq "^task-clock: [0-9]+ [0-9]+ [0-9]+$" v.txt
	xperf-stat -q -e task-clock true 2>q.txt
	[ ! -s q.txt ]
	xperf-stat -n true 2>n.txt
	grep -q "seconds time elapsed" n.txt
	! grep -q "task-clock" n.txt
'

test_case "--no-big-num and -x keep digits ungrouped in a grouping locale" '
	# the C locale never groups, so build one that does (en_US: 1,234)
	command -v localedef >/dev/null || skip "no localedef"
	mkdir loc
	localedef -i en_US -f UTF-8 loc/en_US.UTF-8 2>/dev/null || [ -d loc/en_US.UTF-8 ] || skip "cannot build en_US"
	export LOCPATH=$PWD/loc LC_ALL=en_US.UTF-8
	xperf-stat -e page-faults $W/stat_pages 2000 2>big.txt
	grep -Eq "^ +[0-9],[0-9]{3}      page-faults" big.txt || fail "no grouping: $(cat big.txt)"
	xperf-stat --no-big-num -e page-faults $W/stat_pages 2000 2>a.txt
	xperf-stat -x, -e page-faults $W/stat_pages 2000 2>b.txt
	grep -Eq "^ +[0-9]{4}      page-faults" a.txt
	grep -Eq "^[0-9]{4},,page-faults," b.txt
'

test_case "-D delays counting from the command start, as perf" '
	# spin runs 0.6 s of wall time whatever the load; counting starts 300 ms into it
	# (long enough that a loaded machine oversleeping by tens of ms does not matter)
	xperf-stat -D 300 -e task-clock $W/spin 0.6 2>err.txt
	cat err.txt
	el=$(awk "/seconds time elapsed/ { print \$1 }" err.txt)
	awk -v e="$el" "BEGIN { exit !(e > 0.15 && e < 0.5) }" || fail "elapsed $el, expected about 0.3"
	tc=$(awk "/msec task-clock/ { print \$1 }" err.txt)
	awk -v t="$tc" "BEGIN { exit !(t > 0 && t < 500) }" || fail "task-clock $tc"
'

test_case "--help lists every option, each documented in docs/xperf-stat.1" '
	xperf-stat --help >h.txt
	opts=$(grep -Eo -- "--(\[no-\])?[a-z][a-z-]+" h.txt | sed "s/\[no-\]//" | sort -u)
	[ "$(echo "$opts" | wc -l)" -ge 25 ] || fail "only $(echo "$opts" | wc -l) options"
	for o in $opts; do
		[ "$o" = --help ] && continue
		grep -q -- "$(echo "$o" | sed "s/-/\\\\\\\\-/g")" "$TOP/docs/xperf-stat.1" || fail "$o missing from the man page"
	done
'

test_done
