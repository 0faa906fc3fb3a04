#!/usr/bin/env bash
# perf 6.1 reads what our writer writes: files from xpf-synth (compressed, plain, pipe)
# through perf report --header-only, --stats, -D and --stdio.
. "$(dirname "$0")/lib.sh"

SYNTH=$XPERF_BUILD/tests/xpf-synth

# check_stats COUNTS STATS: every "TYPE N" line xpf-synth printed appears in perf's
# aggregated stats (the first "TYPE events:" line) with the same N.
check_stats() {
	local type n got
	while read -r type n; do
		got=$(grep -m1 -E "^ *$type events:" "$2" | awk '{print $3}')
		[ "$got" = "$n" ] || fail "$type: perf counted '${got}', we wrote $n"
	done <"$1"
}

# check_dump COUNTS DUMP: the same counts from perf report -D (one line per record)
check_dump() {
	local type n got
	while read -r type n; do
		got=$(grep -c -E "PERF_RECORD_${type}([^A-Z0-9_]|$)" "$2" || true)
		[ "$got" = "$n" ] || fail "$type: perf report -D shows $got, we wrote $n"
	done <"$1"
}

# top_symbol REPORT: the symbol of the first entry of a --stdio -q --no-children report
top_symbol() { grep -m1 '%' "$1" | awk '{print $NF}'; }

perf_case 'perf reads the header of a compressed file' '
	"$SYNTH" -o f.data -n 500
	perf_run report --header-only -i f.data >hdr 2>err
	grep -q "^# hostname : $(uname -n)\$" hdr || fail "no hostname"
	grep -q "^# os release : $(uname -r)\$" hdr || fail "no os release"
	grep -q "^# perf version : xpf-synth 0.1\$" hdr
	grep -q "^# arch : $(uname -m)\$" hdr
	grep -q "^# nrcpus online : 2\$" hdr
	grep -q "^# cpudesc : synthetic cpu\$" hdr
	grep -q "^# cpuid : Synthetic,1,2,3\$" hdr
	grep -q "^# total memory : 1048576 kB\$" hdr
	grep -q "^# cmdline : .*xpf-synth -o f.data -n 500" hdr
	grep -q "^# event : name = cpu-clock, .*id = { 1000 }" hdr
	grep -q "^# sample duration : *499.000 ms" hdr || fail "sample time: $(grep sample hdr)"
	grep -q "^# compressed : Zstd, level = 1" hdr
	! grep -qi -E "warn|error|fail" err || fail "stderr: $(cat err)"
'

for mode in compressed plain; do
	opt=; [ $mode = plain ] && opt=--no-compress
	perf_case "perf --stats counts every record of a $mode file" '
		"$SYNTH" -o f.data $opt -n 777 -r 50 --counts 2>counts
		perf_run report --stats -i f.data >stats 2>&1
		check_stats counts stats
		if [ '$mode' = compressed ]; then
			grep -q "COMPRESSED events:" stats || fail "no COMPRESSED records"
		else
			! grep -q "COMPRESSED events:" stats || fail "COMPRESSED records in a plain file"
		fi
	'
	perf_case "perf report -D walks every record of a $mode file" '
		"$SYNTH" -o f.data $opt -n 300 -r 64 --counts 2>counts
		perf_run report -D -i f.data >dump 2>err
		check_dump counts dump
	'
	perf_case "perf report --stdio prints a $mode file without warnings" '
		"$SYNTH" -o f.data $opt -n 600
		perf_run report --stdio -q --no-children -i f.data >rep 2>err
		[ ! -s err ] || fail "stderr: $(cat err)"
		[ "$(top_symbol rep)" = synth_hot ] || fail "top symbol $(top_symbol rep)"
		grep -q "50.00%.*synth_hot" rep
		grep -q "33.3.%.*synth_warm" rep
	'
done

perf_case 'records straddling COMPRESSED records (rounds larger than a chunk)' '
	"$SYNTH" -o f.data -n 20000 -r 5000 --counts 2>counts
	perf_run report --stats -i f.data >stats 2>&1
	check_stats counts stats
	n=$(grep -m1 "COMPRESSED events:" stats | awk "{print \$3}")
	[ "$n" -gt 8 ] || fail "only $n COMPRESSED records"
	perf_run report --stdio -q --no-children -i f.data >rep 2>err
	[ ! -s err ] || fail "stderr: $(cat err)"
	[ "$(top_symbol rep)" = synth_hot ]
'

# perf 6.1 cannot --stats or -D its own compressed pipe streams ("Couldn't decompress
# data": those modes skip the HEADER_FEATURE that sizes the buffer); report and script can.
for mode in compressed plain; do
	opt=; [ $mode = plain ] && opt=--no-compress
	perf_case "perf reads a $mode pipe stream" '
		"$SYNTH" -o - $opt -n 400 -r 100 --counts >f.data 2>counts
		[ "$(head -c 16 f.data | od -An -tu8 | awk "{print \$2}")" = 16 ] || fail "not a pipe header"
		perf_run report --header-only -i - <f.data >hdr 2>&1
		grep -q "^# hostname : $(uname -n)\$" hdr || fail "no hostname"
		grep -q "^# event : name = cpu-clock" hdr
		n=$(perf_run script -G -F comm,tid,time,event -i - <f.data 2>err | grep -c "cpu-clock")
		[ "$n" = "$(awk "/^SAMPLE/ {print \$2}" counts)" ] || fail "perf script shows $n samples"
		[ ! -s err ] || fail "stderr: $(cat err)"
		if [ '$mode' = plain ]; then
			perf_run report --stats -i - <f.data >stats 2>&1
			check_stats counts stats
		fi
		perf_run report --stdio -q --no-children -i - <f.data >rep 2>err
		[ ! -s err ] || fail "stderr: $(cat err)"
		[ "$(top_symbol rep)" = synth_hot ]
	'
done

perf_case 'two events: perf maps samples to their event through the ids' '
	"$SYNTH" -o f.data -e 2 -n 600
	perf_run report --header-only -i f.data | grep -q "name = task-clock, .*id = { 1001 }"
	perf_run report --stdio -q --no-children --sort sym -i f.data >rep 2>err
	[ ! -s err ] || fail "stderr: $(cat err)"
	# cpu-clock gets every synth_hot sample, task-clock the warm and cold ones
	perf_run report --stdio --no-children --sort sym -i f.data 2>/dev/null |
		awk "/^# Samples:.*of event/ {ev=\$NF} /%/ && !seen[ev]++ {print ev, \$NF}" >tops
	grep -q "cpu-clock.* synth_hot" tops || fail "$(cat tops)"
	grep -q "task-clock.* synth_warm" tops || fail "$(cat tops)"
'

for mode in compressed plain; do
	opt=; [ $mode = plain ] && opt=--no-compress
	perf_case "perf reads a killed writer's $mode file up to its last round" '
		! "$SYNTH" -o f.data $opt -n 1000 -r 100 --kill-after-rounds 3 2>counts
		grep -q "^SAMPLE 300\$" counts
		perf_run report --stats -i f.data >stats 2>&1
		grep -q -E "^ *SAMPLE events: *300 " stats || fail "$(cat stats)"
		grep -q -E "^ *FINISHED_ROUND events: *3 " stats
		perf_run report --header-only -i f.data | grep -q "^# hostname : $(uname -n)\$"
	'
done

test_case 'xpf-synth fails cleanly on a full disk' '
	! "$SYNTH" -o /dev/full 2>err
	grep -q "No space left on device" err
'

test_done
