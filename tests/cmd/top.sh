#!/usr/bin/env bash
# xperf top --stdio: live tables of a running workload, system-wide and per task; its errors.
. "$(dirname "$0")/lib.sh"

WL=$XPERF_BUILD/workloads
export WL

test_case "the hottest function appears within two refreshes (--stdio, system-wide)" '
	$WL/spin 8 >/dev/null & pid=$!
	rc=0; xperf-top --stdio -d 1 --refreshes 2 >out 2>err || rc=$?
	[ $rc -eq 0 ] || { cat err; kill $pid; fail "exit $rc"; }
	kill $pid 2>/dev/null || :
	[ "$(grep -c "PerfTop:" out)" -eq 2 ] || fail "not two tables: $(cat out)"
	grep -q "spin_work" out || fail "spin_work missing: $(cat out)"
'

test_case "-p: only the process, its hottest function first" '
	$WL/spin 8 >/dev/null & pid=$!
	sleep 0.2
	rc=0; xperf-top --stdio -p $pid -d 1 --refreshes 1 >out 2>err || rc=$?
	[ $rc -eq 0 ] || { cat err; kill $pid; fail "exit $rc"; }
	kill $pid 2>/dev/null || :
	grep -q "target_pid: $pid" out || fail "no target in the status line: $(head -1 out)"
	first=$(grep "\[[.k]\]" out | head -1)
	echo "$first" | grep -q spin_work || fail "first entry: $first"
'

test_case "a process started after top appears (system-wide)" '
	xperf-top --stdio -d 1 --refreshes 3 >out 2>err & top=$!
	sleep 1.2
	$WL/spin 2 >/dev/null
	rc=0; wait $top || rc=$?
	[ $rc -eq 0 ] || { cat err; fail "exit $rc"; }
	grep -q "spin_work" out || fail "spin_work missing: $(cat out)"
'

test_case "-z: each table holds only its own interval; --refreshes ends it" '
	$WL/spin 8 >/dev/null & pid=$!
	rc=0; xperf-top --stdio -z -d 0.5 --refreshes 3 -E 3 -n >out 2>err || rc=$?
	[ $rc -eq 0 ] || { cat err; kill $pid; fail "exit $rc"; }
	kill $pid 2>/dev/null || :
	[ "$(grep -c "PerfTop:" out)" -eq 3 ] || fail "not three tables"
	[ "$(grep -c "%" out)" -le 12 ] || fail "-E 3 shows more: $(cat out)"
'

test_case "-g: each entry its call chains below it, as perf top --stdio -g" '
	$WL/spin 8 >/dev/null & pid=$!
	sleep 0.2
	rc=0; xperf-top --stdio -g -p $pid -d 1 --refreshes 1 -E 5 >out 2>err || rc=$?
	[ $rc -eq 0 ] || { cat err; kill $pid; fail "exit $rc"; }
	rc=0; xperf-top --stdio -g --no-children -p $pid -d 1 --refreshes 1 -E 1 >self 2>err || rc=$?
	kill $pid 2>/dev/null || :
	[ $rc -eq 0 ] || { cat err; fail "exit $rc"; }
	# the entry main: its graph opens with ---main, its callee spin_work below it (on a
	# branch of its own where a timer interrupt came in main itself: --99.98%--spin_work)
	grep -A3 "\[\.\] main *$" out | grep -q "^            ---main$" || fail "no graph of main: $(cat out)"
	grep -A4 "\[\.\] main *$" out | grep -qE "^ +(--[0-9.]+%--)?spin_work$" ||
		fail "no spin_work below main: $(cat out)"
	# --no-children: the callee chain from spin_work up to main
	head -8 self | grep -A2 "^            ---spin_work$" | grep -q "^               main$" ||
		fail "no callee chain: $(cat self)"
'

test_case "-E 3: the three hottest of all entries, hottest first (a selection, then its sort)" '
	$WL/spin 8 >/dev/null & pid=$!
	rc=0; xperf-top --stdio -E 3 -n -d 1 --refreshes 1 >out 2>err || rc=$?
	kill $pid 2>/dev/null || :
	[ $rc -eq 0 ] || { cat err; fail "exit $rc"; }
	grep "\[[.k]\]" out | awk "{ print \$2 }" >n
	[ "$(wc -l <n)" -eq 3 ] || fail "not three rows: $(cat out)"
	sort -rn n | cmp -s - n || fail "not hottest first: $(cat out)"
	grep "\[[.k]\]" out | head -1 | grep -q spin_work || fail "spin_work not first: $(cat out)"
'

test_case "-K: no kernel entries; -U: no user entries" '
	$WL/spin 8 >/dev/null & pid=$!
	rc=0; xperf-top --stdio -K -d 1 --refreshes 1 >k 2>err || rc=$?
	[ $rc -eq 0 ] || { cat err; kill $pid; fail "exit $rc"; }
	rc=0; xperf-top --stdio -U -d 1 --refreshes 1 >u 2>err || rc=$?
	[ $rc -eq 0 ] || { cat err; kill $pid; fail "exit $rc"; }
	kill $pid 2>/dev/null || :
	! grep -q "\[k\]" k || fail "-K shows kernel entries"
	! grep -q "\[\.\]" u || fail "-U shows user entries"
	grep -q "\[\.\]" k
'

test_case "bad options: one line each, exit 1" '
	for args in "--refreshes -1" "-d 0" "-K -U" "--call-graph lbr" "-e nosuchevent" "-p 1 -t 1" "--bogus" "-s nosuchkey"; do
		rc=0; xperf-top --stdio --refreshes 1 $args >out 2>err || rc=$?
		[ $rc -eq 1 ] || fail "$args: exit $rc"
		[ "$(grep -vc "^hint:\|^usage:\|^run .xperf top -h\|^ *$" err)" -le 1 ] || fail "$args: $(cat err)"
		grep -q "^xperf top: error:" err || fail "$args: $(cat err)"
	done
'

test_case "no permission (perf_event_paranoid 2, another user): one line with the fix" '
	[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user"
	command -v setpriv >/dev/null || skip "no setpriv"
	old=$(cat /proc/sys/kernel/perf_event_paranoid)
	echo 2 >/proc/sys/kernel/perf_event_paranoid || skip "cannot set perf_event_paranoid"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups $XPERF_BUILD/xperf-top --stdio \
		--refreshes 1 >out 2>err || rc=$?
	echo "$old" >/proc/sys/kernel/perf_event_paranoid
	cat err
	[ $rc -eq 2 ] || fail "exit $rc"
	[ "$(wc -l <err)" -eq 1 ] || fail "more than one line"
	grep -q "perf_event_paranoid is 2" err && grep -q "sysctl -w kernel.perf_event_paranoid" err
'

test_case "--help lists every option, each documented in docs/xperf-top.1" '
	xperf-top --help >h
	for o in $(grep -oE -- "^ +(-[a-zA-Z], )?--[a-z][a-z_-]*" h | grep -o -- "--.*" | sort -u); do
		grep -q -- "$(echo "$o" | sed "s/-/\\\\\\\\-/g")" "$TOP/docs/xperf-top.1" ||
			fail "$o missing from the man page"
	done
'

test_done
