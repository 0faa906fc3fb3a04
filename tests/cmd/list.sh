#!/usr/bin/env bash
# xperf list: the events it shows agree with perf list, and --attr encodes events as perf does.
. "$(dirname "$0")/lib.sh"

FAKE=$TOP/tests/fake-sysfs
export FAKE

# names TAG < list output: the event names of lines tagged [TAG], "a OR b" kept whole
names() { sed -n "s/^  \(.*[^ ]\) *\[$1\]\$/\1/p"; }
export -f names

# first_attr: fields of the first perf_event_attr block on stdin that the event syntax sets
# (perf stat adds its own sample_type, read_format, disabled, inherit ... which we do not)
first_attr() {
	awk '/^perf_event_attr:/ { inb = 1; next }
	     /^-----/ { if (inb) exit; next }
	     inb' |
	grep -E '^  (type|config|\{ bp_addr, config1 \}|\{ bp_len, config2 \}|bp_type|exclude_[a-z]+|precise_ip|pinned|exclusive) ' |
	sed 's/  */ /g'
}
export -f first_attr

test_case "list shows software events, msr/tsc/ and a tracepoint" '
	xperf-list >out
	grep -qE "^  cpu-clock +\[Software event\]$" out
	grep -qE "^  context-switches OR cs +\[Software event\]$" out
	if [ -e /sys/bus/event_source/devices/msr/events/tsc ]; then
		grep -qE "^  msr/tsc/ +\[Kernel PMU event\]$" out
	fi
	grep -qE "^  sched:sched_switch +\[Tracepoint event\]$" out
	grep -qE "^  mem:<addr>\[/len\]\[:access\] +\[Hardware breakpoint\]$" out
'

perf_case "software event names and aliases agree with perf list" '
	perf list sw 2>/dev/null | names "Software event" >want
	xperf-list sw | names "Software event" >got
	test -s want
	diff -u want got
'

# perf adds vendor JSON events and metrics on machines with a PMU; compare the sections
# both derive from the kernel alone, in perf's order
perf_case "software, raw, breakpoint and tracepoint sections agree with perf list" '
	tags="\[(Software event|Raw hardware event descriptor|Hardware breakpoint|Tracepoint event)\]\$"
	perf list 2>/dev/null | sed "/^Metric Groups:/,\$d" | grep -E "$tags" >want
	xperf-list | grep -E "$tags" >got
	test -s want
	diff -u want got
'

perf_case "tracepoint globs list what perf list lists" '
	for g in "sched:*" "sched:sched_sw*" "irq:*entry"; do
		perf list "$g" 2>/dev/null | grep -v "^\$" >want
		xperf-list "$g" >got
		test -s got
		diff -u want got
	done
'

perf_case "a bare word matches inside names, as perf list does" '
	perf list tsc 2>/dev/null | grep -v "^\$" >want
	xperf-list tsc >got
	diff -u want got
'

test_case "list filters by kind" '
	xperf-list sw >out
	if grep -v "\[Software event\]" out; then fail "list.sh:68: must not hold"; fi
	xperf-list tracepoint >out
	if grep -v "\[Tracepoint event\]" out; then fail "list.sh:70: must not hold"; fi
	grep -q "sched:sched_switch" out
	xperf-list pmu --sysfs "$FAKE" >out
	grep -qE "^  cpu/cpu-cycles/ +\[Kernel PMU event\]$" out
	grep -qE "^  power/energy-pkg/ +\[Kernel PMU event\]$" out
'

test_case "--help prints usage and exits 0, bad options exit 1" '
	xperf-list --help >out
	grep -q "usage: xperf list" out
	grep -q -- "--attr" out
	set +e
	xperf-list --no-such-option 2>err
	rc=$?
	set -e
	test $rc = 1
'

test_case "an unknown event exits 1 and suggests the nearest name" '
	set +e
	xperf-list --attr cpu-clok 2>err
	rc=$?
	set -e
	test $rc = 1
	grep -qx "xperf list: error: event '"'"'cpu-clok'"'"' not found, did you mean '"'"'cpu-clock'"'"'?" err
'

test_case "--attr encodes pmu terms from a fake sysfs" '
	xperf-list --sysfs "$FAKE" --attr "cpu/event=0x3c,cmask=1,inv,edge/" >out
	grep -qE "^  type +4$" out
	grep -qE "^  config +0x184003c$" out
'

# The oracle: perf stat -vv prints the perf_event_attr of each event it opens.
for ev in cpu-clock:u page-faults:k msr/tsc/ sched:sched_switch r1a8 L1-dcache-load-misses \
	mem:0x1000:rw mem:0x2000/8:w cs:G cs:H cycles:ppp instructions:u dTLB-load-misses \
	LLC-store-misses branch-loads cpu-clock:uS task-clock:hk; do
	case $ev in msr/*) [ -e /sys/bus/event_source/devices/msr ] || continue ;; esac
	perf_case "--attr $ev encodes as perf stat -vv shows" "
		perf stat -vv -e '$ev' true 2>&1 | first_attr >want
		xperf-list --attr '$ev' | first_attr >got
		test -s want
		diff -u want got
	"
done

perf_case "--attr of a group with modifiers matches perf stat -vv member by member" '
	perf stat -vv -e "{cs,faults}:k" true 2>&1 >/dev/null |
		awk "/^perf_event_attr:/ { n++ } n == 2 && /^-----/ { exit } { print }" >perf.txt
	xperf-list --attr "{cs,faults}:k" >ours.txt
	first_attr <perf.txt >want1
	first_attr <ours.txt >got1
	diff -u want1 got1
	sed "1,/^perf_event_attr:/d" perf.txt | sed -n "/^perf_event_attr:/,\$p" | first_attr >want2
	awk "/^faults/ { f = 1 } f" ours.txt | first_attr >got2
	test -s want2
	diff -u want2 got2
'

test_done
