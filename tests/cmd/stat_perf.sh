#!/usr/bin/env bash
# xperf stat against perf stat on the same bundled workloads: counts, layout, CSV and JSON shapes.
. "$(dirname "$0")/lib.sh"
W=$XPERF_BUILD/workloads
export W

# Helpers for the case scripts (they run in subshells, so export them)
# csv_val FILE EVENT: the value column of EVENT's line in CSV output
csv_val() { awk -F, -v e="$2" '$3 == e { print $1; exit }' "$1"; }
# within PCT A B: |A - B| <= PCT% of B (or both zero)
within() { awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = (b < 0 ? -b : b); exit !(d <= m * p / 100 || (a == 0 && b == 0)) }'; }
# shape FILE: every number replaced, runs of blanks squeezed (what must match perf exactly)
shape() { sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g; s/ [KMG]\/sec/ \/sec/; s/ +$//' "$1"; }
# interval_events FILE: for -x, -I output, the events of each interval in order, one
# line per distinct list (a correct output has exactly one)
interval_events() {
	awk -F, '{ if ($1 != t) { if (NR > 1) print l; t = $1; l = "" } l = l " " $4 } END { print l }' "$1" | sort -u
}
# threads_up PID: the threads workload PID runs both its threads, named (it is set up)
threads_up() {
	[ "$(cat /proc/$1/task/*/comm 2>/dev/null | grep -c "^xp-thread-[ab]$")" = 2 ]
}
wait_threads() { # PID: wait (60 s at most) for threads_up, rather than guess a sleep
	local end=$((SECONDS + 60))
	until threads_up "$1"; do [ $SECONDS -lt $end ] || return 1; sleep 0.02; done
}
export -f csv_val within shape interval_events threads_up wait_threads

perf_case "default output has perf's layout (line lengths, words)" '
	xperf-stat true 2>x.txt
	perf stat true 2>p.txt
	diff <(awk "{print length(\$0)}" x.txt) <(awk "{print length(\$0)}" p.txt)
	diff <(shape x.txt) <(shape p.txt)
'

perf_case "<not supported> for events the machine lacks, like perf" '
	xperf-stat -e cycles,task-clock true 2>x.txt
	perf stat -e cycles,task-clock true 2>p.txt
	if grep -q "<not supported>.*cycles" p.txt; then
		grep -q "^   <not supported>      cycles  " x.txt || fail "no <not supported> line: $(cat x.txt)"
	else
		grep -q "cycles" x.txt && ! grep -q "not supported" x.txt
	fi
	diff <(shape x.txt) <(shape p.txt)
'

perf_case "page-faults within 5% of perf" '
	xperf-stat -x, -e page-faults $W/stat_pages 4000 2>x.csv
	perf stat -x, -e page-faults $W/stat_pages 4000 2>p.csv
	a=$(csv_val x.csv page-faults); b=$(csv_val p.csv page-faults)
	echo "xperf $a perf $b"
	[ "$a" -ge 4000 ] || fail "too few faults: $a"
	within 5 "$a" "$b"
'

perf_case "context-switches and cpu-migrations consistent with perf" '
	xperf-stat -x, -e context-switches,cpu-migrations $W/stat_switch 200 >/dev/null 2>x.csv
	perf stat -x, -e context-switches,cpu-migrations $W/stat_switch 200 >/dev/null 2>p.csv
	a=$(csv_val x.csv context-switches); b=$(csv_val p.csv context-switches)
	echo "cs xperf $a perf $b"
	[ "$a" -ge 200 ] && [ "$b" -ge 200 ] || fail "fewer switches than sleeps"
	within 25 "$a" "$b"
	a=$(csv_val x.csv cpu-migrations); b=$(csv_val p.csv cpu-migrations)
	echo "migrations xperf $a perf $b"
	[ "$a" -le "$(csv_val x.csv context-switches)" ]
	d=$((a - b)); [ "${d#-}" -le 20 ] || within 50 "$a" "$b"
'

perf_case "task-clock within 10% of perf on a CPU-bound workload" '
	# alternate the two and keep the fastest run of each: the VM is noisy, the work fixed
	for i in 1 2 3 4; do
		xperf-stat -x, -e task-clock $W/stat_spin 100 2>x.csv; csv_val x.csv task-clock >>x.all
		perf stat -x, -e task-clock $W/stat_spin 100 2>p.csv; csv_val p.csv task-clock >>p.all
	done
	a=$(sort -g x.all | head -1); b=$(sort -g p.all | head -1)
	echo "xperf $a perf $b"
	within 10 "$a" "$b"
'

perf_case "msr/tsc/ counts and is within 10% of perf" '
	[ -d /sys/bus/event_source/devices/msr ] || skip "no msr PMU"
	for i in 1 2 3 4; do
		xperf-stat -x, -e msr/tsc/ $W/stat_spin 100 2>x.csv; csv_val x.csv msr/tsc/ >>x.all
		perf stat -x, -e msr/tsc/ $W/stat_spin 100 2>p.csv; csv_val p.csv msr/tsc/ >>p.all
	done
	a=$(sort -g x.all | head -1); b=$(sort -g p.all | head -1)
	echo "xperf $a perf $b"
	[ "$a" -gt 1000000 ] || fail "tsc did not count: $a"
	within 10 "$a" "$b"
'

perf_case "CSV has perf's columns (plain, -r, -I, -A, groups)" '
	# -I: sleep 0.35 sleeps through at least one whole 100 ms interval whenever it starts,
	# so both tools always print counted and <not counted> intervals (see -I layout below)
	for args in "true" "-r 2 true" "-I 100 sleep 0.35" "-a -A -e cpu-clock,cs sleep 0.1" \
		    "-e {task-clock,page-faults},msr/tsc/ true"; do
		xperf-stat -x, $args 2>x.csv >/dev/null
		perf stat -x, $args 2>p.csv >/dev/null
		diff <(awk -F, "{print NF}" x.csv | sort -u) <(awk -F, "{print NF}" p.csv | sort -u) ||
			fail "columns differ for $args"
		# event names in the same order (3rd field, or 4th after the timestamp or cpu)
		[ "$(cut -d, -f3,4 x.csv | sed -E "s/^[0-9.]*,//" | tr -d 0-9 | sort -u)" = \
		  "$(cut -d, -f3,4 p.csv | sed -E "s/^[0-9.]*,//" | tr -d 0-9 | sort -u)" ] || fail "fields differ for $args"
		# every field in the order perf prints it, numbers aside
		csvshape() { shape "$1" | sed -E "s/,[KMG]\/sec/,\/sec/"; }
		case $args in
		-I*)
			# which interval the command slept through, and how many there are, follow
			# the scheduler in perf too: compare the kinds of lines and each interval
			diff <(csvshape x.csv | sort -u) <(csvshape p.csv | sort -u) ||
				fail "CSV lines differ for $args"
			[ "$(interval_events x.csv)" = "$(interval_events p.csv)" ] ||
				fail "events per interval differ for $args: $(interval_events x.csv)"
			[ "$(interval_events x.csv | wc -l)" = 1 ] || fail "intervals differ in events"
			;;
		*)
			diff <(csvshape x.csv) <(csvshape p.csv) || fail "CSV differs for $args" ;;
		esac
	done
'

perf_case "JSON lines parse and carry perf's keys" '
	for args in "true" "-r 2 -e task-clock,cs true" "-I 100 -e task-clock sleep 0.35" "-a -A -e cs sleep 0.1"; do
		xperf-stat -j $args 2>x.json >/dev/null
		perf stat -j $args 2>p.json >/dev/null
		[ -s x.json ] || fail "no output"
		while IFS= read -r line; do
			printf "%s\n" "$line" | python3 -m json.tool >/dev/null || fail "bad JSON: $line"
		done <x.json
		keys() { python3 -c "import json,sys; print(sorted({k for l in sys.stdin if l.strip() for k in json.loads(l)}))"; }
		[ "$(keys <x.json)" = "$(keys <p.json)" ] || fail "keys differ for $args: $(keys <x.json) vs $(keys <p.json)"
		# and in the order perf writes them, line by line
		order() { python3 -c "import json,sys; print(sorted({tuple(json.loads(l)) for l in sys.stdin if l.strip()}))"; }
		[ "$(order <x.json)" = "$(order <p.json)" ] || fail "key order differs for $args"
	done
'

perf_case "-r output has perf's shape" '
	xperf-stat -r 3 -e task-clock,cs true 2>x.txt
	perf stat -r 3 -e task-clock,cs true 2>p.txt
	grep -q "Performance counter stats for .true. (3 runs):" x.txt
	grep -Eq "^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed  \( \+- +[0-9.]+% \)$" x.txt
	nonoise() { shape "$1" | grep -v elapsed | sed -E "s/ \( \+- ?N% \)//"; }
	diff <(nonoise x.txt) <(nonoise p.txt)
'

perf_case "-I prints perf's interval layout" '
	xperf-stat -I 100 -e task-clock,page-faults $W/stat_switch 800 >/dev/null 2>x.txt
	perf stat -I 100 -e task-clock,page-faults $W/stat_switch 800 >/dev/null 2>p.txt
	head -1 x.txt | grep -q "^#           time             counts unit events$"
	n=$(grep -c task-clock x.txt)
	[ "$n" -ge 2 ] || fail "only $n intervals"
	# timestamps grow
	awk "/task-clock/ { if (\$1 <= last) exit 1; last = \$1 }" x.txt
	# an interval the scheduler kept the command off the cpu is <not counted>, in perf too;
	# compare the counted lines here, and those on a command that surely sleeps through one
	counted() { shape "$1" | grep -v "<not counted>" | sort -u; }
	diff <(counted x.txt) <(counted p.txt)
	xperf-stat -I 100 -e task-clock,page-faults sleep 0.35 2>xs.txt
	perf stat -I 100 -e task-clock,page-faults sleep 0.35 2>ps.txt
	grep -q "<not counted> msec task-clock" xs.txt || fail "no <not counted> interval: $(cat xs.txt)"
	diff <(shape xs.txt | sort -u) <(shape ps.txt | sort -u)
'

perf_case "-a -A: one row per cpu, perf's layout" '
	xperf-stat -a -A -e cpu-clock,cs sleep 0.1 2>x.txt
	perf stat -a -A -e cpu-clock,cs sleep 0.1 2>p.txt
	ncpu=$(grep -c "^CPU[0-9]" p.txt)
	[ "$(grep -c "^CPU[0-9]" x.txt)" = "$ncpu" ]
	diff <(shape x.txt) <(shape p.txt)
'

perf_case "--per-thread on a threaded workload like perf" '
	$W/threads 4 >/dev/null & pid=$!
	wait_threads $pid || fail "the workload did not start its threads"
	xperf-stat --per-thread -p $pid -e task-clock sleep 0.3 2>x.txt
	perf stat --per-thread -p $pid -e task-clock sleep 0.3 2>p.txt
	kill $pid; wait $pid 2>/dev/null || true
	cat x.txt
	[ "$(grep -c "task-clock" x.txt)" = "$(grep -c "task-clock" p.txt)" ]
	grep -Eq "^ +xp-thread-a-[0-9]+ +[0-9.]+ msec task-clock" x.txt
	grep -Eq "^ +threads-$pid " x.txt
'

perf_case "<not counted> for the group mate of an unsupported event, like perf" '
	perf stat -e cycles true 2>c.txt
	grep -q "<not supported>.*cycles" c.txt || skip "cycles is supported here"
	xperf-stat -e "{task-clock,cycles}" true 2>x.txt
	perf stat -e "{task-clock,cycles}" true 2>p.txt
	cat x.txt
	grep -q "^     <not counted> msec task-clock  " x.txt || fail "task-clock not <not counted>"
	grep -q "^   <not supported>      cycles  " x.txt
	diff <(shape x.txt) <(shape p.txt)
	xperf-stat -x, -e "{task-clock,cycles}" true 2>x.csv
	perf stat -x, -e "{task-clock,cycles}" true 2>p.csv
	diff x.csv p.csv
'

perf_case "<not counted> for a thread that never ran (--per-thread), like perf" '
	$W/threads 3 >/dev/null & pid=$!
	wait_threads $pid || fail "the workload did not start its threads"
	xperf-stat --per-thread -p $pid -e task-clock sleep 0.2 2>x.txt
	perf stat --per-thread -p $pid -e task-clock sleep 0.2 2>p.txt
	kill $pid; wait $pid 2>/dev/null || true
	cat x.txt p.txt
	grep -Eq "^ +threads-$pid +<not counted> msec task-clock" p.txt || skip "perf counted the main thread"
	grep -Eq "^ +threads-$pid +<not counted> msec task-clock +$" x.txt
	[ "$(grep "not counted" x.txt | shape /dev/stdin)" = "$(grep "not counted" p.txt | shape /dev/stdin)" ]
'

perf_case "rates per second whatever the clock modifiers, like perf" '
	for e in task-clock:u,page-faults:k task-clock,page-faults:u task-clock:u,page-faults; do
		xperf-stat -e $e true 2>x.txt
		perf stat -e $e true 2>p.txt
		diff <(shape x.txt) <(shape p.txt) || fail "differs for $e"
	done
	grep -Eq "page-faults +# +[0-9.]+ [KM]?/sec" x.txt
'

perf_case "--big-num groups thousands in a grouping locale, --no-big-num not, like perf" '
	command -v localedef >/dev/null || skip "no localedef"
	mkdir loc
	localedef -i en_US -f UTF-8 loc/en_US.UTF-8 2>/dev/null || [ -d loc/en_US.UTF-8 ] || skip "cannot build en_US"
	export LOCPATH=$PWD/loc LC_ALL=en_US.UTF-8
	for o in "" --no-big-num; do
		xperf-stat $o -e page-faults $W/stat_pages 3000 2>x.txt
		perf stat $o -e page-faults $W/stat_pages 3000 2>p.txt
		xl=$(grep page-faults x.txt); pl=$(grep page-faults p.txt)
		echo "xperf: $xl"; echo "perf:  $pl"
		[ "$(echo "$xl" | shape /dev/stdin)" = "$(echo "$pl" | shape /dev/stdin)" ] || fail "differs for \"$o\""
	done
	grep -Eq "^ +[0-9]+      page-faults" x.txt
	xperf-stat -e page-faults $W/stat_pages 3000 2>x.txt
	grep -Eq "^ +[0-9],[0-9]{3}      page-faults" x.txt
'

perf_case "-v says a counter failed to read where perf does" '
	xperf-stat -v -e task-clock,cycles true 2>x.txt
	perf stat -v -e task-clock,cycles true 2>p.txt
	for l in "failed to read counter cycles" "cycles: 0 0 0"; do
		[ "$(grep -c "^$l$" x.txt)" = "$(grep -c "^$l$" p.txt)" ] || fail "\"$l\" differs"
	done
	grep -Eq "^task-clock: [0-9]+ [0-9]+ [0-9]+$" x.txt
'

test_done
