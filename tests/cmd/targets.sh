#!/usr/bin/env bash
# Targets shared by record and stat (the events library's -p/-t/-u/-a/-C): one parser, one
# set of messages, one alive check that takes a zombie for dead.
. "$(dirname "$0")/lib.sh"
W=$XPERF_BUILD/workloads
export W

# wait_for SECONDS CMD...: until CMD succeeds (every 20 ms); 1 after SECONDS
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.02
	done
}
# is_zombie PID
is_zombie() { [ "$(sed "s/.*) //" "/proc/$1/stat" 2>/dev/null | cut -c1)" = Z ]; }
# unreaped CMD...: start CMD under a parent that never reaps it (the parent execs sleep);
# CMD's pid goes to ./pid, the parent's to ./parent. Nothing runs in the foreground between:
# the shell would reap CMD while it waits for it.
unreaped() {
	sh -c "$* & echo \$! >pid; exec sleep 120" >/dev/null &
	echo $! >parent
	wait_for 30 test -s pid || fail "the spinner did not start"
}
export -f wait_for is_zombie unreaped

# both ARGS...: run xperf-record (into r.data) and xperf-stat with ARGS; their status and
# the first line of their stderr, the command name taken out, go to rec.rc/rec.err and
# stat.rc/stat.err (stat adds its usage to a usage error, record does not)
both() {
	local rc
	rc=0; xperf-record -o r.data "$@" 2>rec.raw >/dev/null || rc=$?
	echo $rc >rec.rc
	sed -n "1s/^xperf record: /xperf CMD: /p" rec.raw >rec.err
	rc=0; xperf-stat "$@" 2>stat.raw >/dev/null || rc=$?
	echo $rc >stat.rc
	sed -n "1s/^xperf stat: /xperf CMD: /p" stat.raw >stat.err
}
export -f both

test_case "a process that does not exist: the same error from record and stat, exit 2" '
	both -p 999999999
	[ "$(cat rec.rc) $(cat stat.rc)" = "2 2" ] || fail "exit $(cat rec.rc) and $(cat stat.rc)"
	grep -qx "xperf CMD: error: no process with pid 999999999" rec.err || fail "$(cat rec.err)"
	diff rec.err stat.err
	[ ! -e r.data ] || fail "record left a file"
	both -t 999999999
	grep -qx "xperf CMD: error: no thread with tid 999999999" rec.err || fail "$(cat rec.err)"
	diff rec.err stat.err
'

test_case "target options that exclude each other or are not numbers: one usage error each" '
	for args in "-p 1 -a" "-t 1 -C 0" "-p 1 -t 1" "-p 1,x" "-t ,1" "-p 1,,2"; do
		both $args true
		[ "$(cat rec.rc) $(cat stat.rc)" = "1 1" ] ||
			fail "$args: exit $(cat rec.rc) and $(cat stat.rc)"
		diff rec.err stat.err || fail "$args: the messages differ"
	done
	both -p 1 -a true
	grep -qx "xperf CMD: error: options .-p. and .-a. exclude each other" rec.err
	both -p 1,x true
	grep -qx "xperf CMD: error: invalid pid list .1,x. (numbers separated by commas)" rec.err
'

test_case "a zombie is no target: record and stat refuse it with the same error" '
	unreaped sleep 0
	z=$(cat pid)
	wait_for 30 is_zombie $z || { kill $(cat parent); fail "$z never became a zombie"; }
	both -p $z
	kill $(cat parent)
	[ "$(cat rec.rc) $(cat stat.rc)" = "2 2" ] || fail "exit $(cat rec.rc) and $(cat stat.rc)"
	grep -qx "xperf CMD: error: process $z has exited" rec.err || fail "$(cat rec.err)"
	diff rec.err stat.err
'

# Before, stat took a zombie for alive (kill(pid, 0) succeeds) and counted until the parent
# reaped it, here for two minutes.
for cmd in stat record; do
	test_case "$cmd -p ends when its process exits, though nobody reaps it" '
		unreaped $W/spin 1
		t0=$SECONDS
		rc=0
		if [ '$cmd' = stat ]; then
			timeout 60 xperf-stat -p $(cat pid) -e task-clock 2>out || rc=$?
		else
			timeout 60 xperf-record -p $(cat pid) -o r.data 2>out || rc=$?
		fi
		kill $(cat parent)
		cat out
		[ $rc -eq 0 ] || fail "exit $rc (124: still running after 60 s)"
		[ $((SECONDS - t0)) -lt 30 ] || fail "took $((SECONDS - t0)) s"
		if [ '$cmd' = stat ]; then
			grep -q "msec task-clock" out
		else
			xperf-report --stats -i r.data | grep -q SAMPLE
		fi
	'
done

test_done
