#!/usr/bin/env bash
# xperf record targets: a command and its children, -p, -t, -a, -C, -u; checked with perf's reader.
. "$(dirname "$0")/lib.sh"

WL=$XPERF_BUILD/workloads
export WL

# share FILE COLUMN-REGEX: perf report's percentage for a symbol (0 when absent)
share() {
	perf_run report --stdio -i "$1" --sort "${3:-sym}" 2>/dev/null |
		awk -v s="$2" '$0 ~ s { gsub("%", "", $1); print $1; found = 1; exit }
			       END { if (!found) print 0 }'
}
export -f share
# near A B TOL: |A - B| <= TOL
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }
export -f near

perf_case "the known-share workload: perf's report of our file gives each function its share (3 points)" '
	xperf-record -q -- $WL/shares 2
	a=$(share xperf.data "work_a"); b=$(share xperf.data "work_b"); c=$(share xperf.data "work_c")
	echo "work_a $a work_b $b work_c $c"
	near "$a" 50 3 && near "$b" 30 3 && near "$c" 20 3
'

perf_case "-g: call chains through the deep chain of the known-share workload" '
	xperf-record -q -g -- $WL/shares 1
	perf_run script -i xperf.data 2>err >s || { cat err; fail "perf script failed"; }
	grep -c "level8" s || fail "no level8 in $(wc -l <s) lines"
	grep -q "do_round" s && grep -q "work_a" s
'

perf_case "children are followed by default (fork, exec and threads)" '
	xperf-record -q -- $WL/forker 2 0.4
	perf_run report --stdio -i xperf.data --sort comm,sym 2>/dev/null >r
	cat r | head -20
	grep -qE "forker-child +\[\.\] child_work" r
	grep -qE "forker-fork +\[\.\] fork_work" r
	grep -qE "forker +\[\.\] parent_work" r
	xperf-record -q -- $WL/threads 0.6
	perf_run report --stdio -i xperf.data --sort comm 2>/dev/null >r
	grep -q xp-thread-a r && grep -q xp-thread-b r
'

perf_case "--no-inherit records the command alone" '
	xperf-record -q --no-inherit -- $WL/forker 2 0.4
	perf_run report --stdio -i xperf.data --sort comm,sym 2>/dev/null >r
	grep -q parent_work r
	if grep -q child_work r; then fail "record_targets.sh:49: must not hold"; fi
	if grep -q fork_work r; then fail "record_targets.sh:50: must not hold"; fi
'

perf_case "-p attaches to a running process and stops when it exits" '
	$WL/spin 1.5 & pid=$!
	sleep 0.2
	start=$(date +%s%N)
	xperf-record -q -p $pid
	end=$(date +%s%N)
	wait $pid
	test $(( (end - start) / 1000000 )) -lt 3000 || fail "did not stop with the process"
	perf_run report --stdio -i xperf.data --sort pid,sym 2>/dev/null >r
	grep -q "spin_work" r
	grep -q "$pid" r
'

perf_case "-p with two processes, stopped by SIGINT, samples from both" '
	$WL/spin 20 & p1=$!
	$WL/spin 20 & p2=$!
	sleep 0.1
	xperf-record -q -p $p1,$p2 &
	rec=$!
	sleep 1
	kill -INT $rec
	set +e; wait $rec; set -e
	kill $p1 $p2; wait $p1 $p2 || true
	perf_run report --stdio -i xperf.data --sort pid 2>/dev/null >r
	grep -q "$p1" r && grep -q "$p2" r
'

perf_case "-t records one thread of a process" '
	$WL/threads 3 & pid=$!
	sleep 0.3
	tid=$(ls /proc/$pid/task | sort -n | tail -1)
	xperf-record -q -t $tid -- sleep 0.5
	kill $pid; wait $pid || true
	perf_run script -F tid -i xperf.data 2>/dev/null | sort -u >tids
	cat tids
	test "$(wc -l <tids)" -eq 1
	grep -qw "$tid" tids
'

perf_case "-a records other processes than the command, with the cpu of each sample" '
	$WL/spin 3 & pid=$!
	xperf-record -q -a -- sleep 0.5
	kill $pid; wait $pid || true
	perf_run report --stdio -i xperf.data --sort pid,sym 2>/dev/null >r
	grep -q "spin_work" r
	perf_run script -F cpu -i xperf.data 2>/dev/null | head -1 | grep -qE "\[[0-9]+\]"
'

perf_case "-C records only the cpus asked for" '
	xperf-record -q -C 0 -- $WL/spin 0.5
	perf_run script -F cpu -i xperf.data 2>/dev/null | sort -u >cpus
	cat cpus
	test "$(cat cpus | tr -d " ")" = "[000]"
'

perf_case "-u USER records the processes of that user" '
	[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 ||
		skip "needs root, setpriv and user nobody"
	setpriv --reuid=nobody --regid=nogroup --clear-groups $WL/spin 3 & pid=$!
	sleep 0.2
	xperf-record -q -u nobody -- sleep 0.5
	kill $pid; wait $pid || true
	perf_run report --stdio -i xperf.data --sort pid,sym 2>/dev/null >r
	grep -q "spin_work" r
'

perf_case "-p of a process that does not exist: clear error, no file" '
	set +e
	xperf-record -p 999999999 2>err; rc=$?
	set -e
	cat err
	test $rc -ne 0
	grep -q "999999999" err
	test ! -e xperf.data
'

test_done
