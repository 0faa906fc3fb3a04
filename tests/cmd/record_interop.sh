#!/bin/bash
# xperf record against perf: perf reads every xperf file cleanly and finds in it what the
# bundled workloads are designed to show; perf's own recordings of the same workloads are
# the reference (they prove the workloads right).
. "$(dirname "$0")/lib.sh"

W=$XPERF_BUILD/workloads
REC=$XPERF_BUILD/xperf-record
TOL=3 # percentage points

# rec_case NAME SCRIPT: needs perf and xperf-record (which may not be built yet).
rec_case() {
	if [ ! -x "$REC" ]; then
		skip_case "$1" "$REC is not built"
	else
		perf_case "$@"
	fi
}

# perf_reads FILE: perf report and perf script read FILE with status 0, nothing on stderr,
# and find samples.
perf_reads() {
	perf report --stdio -i "$1" >"$1.report" 2>"$1.report.err" ||
		{ cat "$1.report.err"; fail "perf report failed on $1"; }
	perf script -i "$1" >"$1.script" 2>"$1.script.err" ||
		{ cat "$1.script.err"; fail "perf script failed on $1"; }
	if [ -s "$1.report.err" ] || [ -s "$1.script.err" ]; then
		cat "$1.report.err" "$1.script.err"
		fail "perf wrote warnings reading $1"
	fi
	[ -s "$1.script" ] || fail "perf script found no samples in $1"
}

# pct FILE SORT KEY: the --no-children percentage perf reports for KEY (last column).
pct() {
	perf report --stdio --no-children --sort "$2" -i "$1" 2>/dev/null |
		awk -v k="$3" '!/^#/ && $NF == k { sub("%", "", $1); print $1; found = 1; exit }
			       END { if (!found) print "0" }'
}

# near GOT WANT: |GOT - WANT| <= TOL, saying so when not.
near() {
	awk -v a="$1" -v b="$2" -v t="$TOL" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }' ||
		fail "got $1%, want $2% +- $TOL"
}

check_shares() {
	local a b c
	a=$(pct "$1" sym work_a) b=$(pct "$1" sym work_b) c=$(pct "$1" sym work_c)
	echo "$1: work_a $a% work_b $b% work_c $c%"
	near "$a" 50 && near "$b" 30 && near "$c" 20
}

check_threads() {
	local a b
	a=$(pct "$1" comm xp-thread-a) b=$(pct "$1" comm xp-thread-b)
	echo "$1: xp-thread-a $a% xp-thread-b $b%"
	near "$a" 60 && near "$b" 40
}

# forker: the exec'd children and the forked child are followed, with their own samples.
check_forker() {
	local comms
	comms=$(perf report --stdio --no-children --sort comm -i "$1" 2>/dev/null | grep -v '^#')
	echo "$comms" | head -n 5
	echo "$comms" | awk '$2 == "forker-child" { f = 1 } END { exit !f }' ||
		fail "no samples of the exec'd children"
	echo "$comms" | awk '$2 == "forker-fork" { f = 1 } END { exit !f }' ||
		fail "no samples of the forked child"
	perf script -F comm,ip,sym -i "$1" 2>/dev/null | grep -q 'forker-child .* child_work$' ||
		fail "child_work not resolved in the children"
	# two exec'd children: at least two distinct pids with forker-child samples
	[ "$(perf script -F comm,pid -i "$1" 2>/dev/null | awk '$1 == "forker-child" { print $2 }' |
	     sort -u | wc -l)" -ge 2 ] || fail "fewer than two children seen"
}

# recurse -g: some callchain holds at least 100 recurse frames under bottom_work.
check_recurse() {
	local max
	max=$(perf script -i "$1" 2>/dev/null | awk '
		NF == 0 { if (n > m && leaf) m = n; n = 0; first = 1; leaf = 0; next }
		/ bottom_work\+/ && first { leaf = 1 }
		/^[ \t]/ { first = 0 }
		/ recurse\+0x/ { n++ }
		END { if (n > m && leaf) m = n; print m + 0 }')
	echo "$1: deepest chain has $max recurse frames"
	[ "$max" -ge 100 ] || fail "callchains are shallow ($max recurse frames)"
}

xrec() { "$REC" -q "$@"; }
# perf 6.1 itself aborts now and then on this machine: the oracle gets one retry
prec() {
	perf record -N --no-bpf-event -q "$@" >/dev/null 2>&1 ||
		perf record -N --no-bpf-event -q "$@" >/dev/null 2>&1
}

rec_case "shares: perf reads the xperf file and gives work_a/b/c 50/30/20 within $TOL points" '
	xrec -o x.data "$W/shares" 2
	perf_reads x.data
	check_shares x.data
'

perf_case "shares: perf's own recording gives 50/30/20 within $TOL points (the workload is right)" '
	prec -o p.data "$W/shares" 2
	check_shares p.data
'

rec_case "shares -g: deep call chain main -> level1..8 -> do_round -> work_a in perf script" '
	xrec -g -o x.data "$W/shares" 1
	perf_reads x.data
	perf script -i x.data 2>/dev/null | awk "
		NF == 0 { if (a && l1 && l8 && m) ok = 1; a = l1 = l8 = m = 0; next }
		/ work_a\+/ { a = 1 } / level1\+/ { l1 = 1 } / level8\+/ { l8 = 1 } / main\+/ { m = 1 }
		END { exit !ok }" || fail "no sample with the whole chain"
'

rec_case "threads: perf reads the xperf file, comm split 60/40 within $TOL points" '
	xrec -o x.data "$W/threads" 1.5
	perf_reads x.data
	check_threads x.data
'

perf_case "threads: perf's own recording splits 60/40 (reference)" '
	prec -o p.data "$W/threads" 1.5
	check_threads p.data
'

rec_case "forker: perf reads the xperf file, children are followed" '
	xrec -o x.data "$W/forker" 2 0.5
	perf_reads x.data
	check_forker x.data
'

perf_case "forker: perf's own recording follows the children (reference)" '
	prec -o p.data "$W/forker" 2 0.5
	check_forker p.data
'

rec_case "recurse -g: perf script shows deep frame-pointer callchains in the xperf file" '
	xrec -g -o x.data "$W/recurse" 200 1
	perf_reads x.data
	check_recurse x.data
'

perf_case "recurse -g: perf's own recording has deep callchains (reference)" '
	prec -g -o p.data "$W/recurse" 200 1
	check_recurse p.data
'

# Attach to a running spin, stop with SIGINT as a user would.
rec_case "-p: xperf attaches to a running process; perf sees its samples in spin_work" '
	"$W/spin" 10 & spin=$!
	sleep 0.2
	"$REC" -q -o x.data -p $spin & rec=$!
	sleep 1
	kill -INT $rec
	wait $rec || true
	kill $spin; wait $spin || true
	perf_reads x.data
	p=$(pct x.data sym spin_work)
	echo "spin_work $p%"
	near "$p" 100 || fail "spin_work has $p% of the samples"
	perf script -F pid -i x.data 2>/dev/null | awk -v p=$spin "\$1 == p { f = 1 } END { exit !f }" ||
		fail "no sample of pid $spin"
'

# perf's idiom: the command only sets the duration.
rec_case "-p PID -- sleep 1: the command times the recording of PID" '
	"$W/spin" 10 & spin=$!
	sleep 0.2
	xrec -o x.data -p $spin -- sleep 1
	kill $spin; wait $spin || true
	perf_reads x.data
	p=$(pct x.data sym spin_work)
	near "$p" 100 || fail "spin_work has $p% of the samples"
'

# The synthesized maps of an attached process are those perf synthesizes.
rec_case "-p: synthesized COMM and MMAP2 records match perf's for the same process" '
	"$W/threads" 20 & pid=$!
	sleep 0.3
	xrec -o x.data -p $pid -- sleep 0.3
	prec -o p.data -p $pid -- sleep 0.3
	kill $pid; wait $pid || true
	# synthesized records are the ones with time 0; build ids replace maj:min ino in ours
	for f in x p; do
		perf report -D -i $f.data 2>/dev/null |
			grep -E "^0 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_(COMM|MMAP)" |
			grep -v perf-exec | grep -v "^.*: PERF_RECORD_COMM: sleep" |
			sed -E "s/^0 0x[0-9a-f]+ \[0x[0-9a-f]+\]: //; s/ @ (0x[0-9a-f]+|0) [^]]*\]/ @ \1]/" \
			>$f.synth
	done
	cat x.synth
	[ -s p.synth ] || fail "no synthesized records in perf'"'"'s file"
	diff p.synth x.synth || fail "synthesized records differ from perf'"'"'s"
'

# -a: every existing process is synthesized, so a process started before resolves.
rec_case "-a: perf reads the system-wide xperf file and resolves a process started before" '
	"$W/spin" 10 & spin=$!
	sleep 0.2
	xrec -a -o x.data -- sleep 0.5
	kill $spin; wait $spin || true
	perf_reads x.data
	perf report --stdio --no-children --sort comm,sym -i x.data 2>/dev/null |
		grep -E "^ +[0-9.]+% +spin +\[\.\] spin_work" || fail "spin_work of spin not resolved"
	# the kernel map and kernel threads (COMM only) are there too
	perf report -D -i x.data 2>/dev/null | grep -q "PERF_RECORD_MMAP -1/0: .*\[kernel.kallsyms\]_text" ||
		fail "no kernel map"
	perf report -D -i x.data 2>/dev/null | grep -q "PERF_RECORD_COMM: kthreadd:2/2" ||
		fail "kernel threads not synthesized"
'

rec_case "header: perf prints the same host features for the xperf file as for its own" '
	xrec -o x.data "$W/spin" 0.1
	prec -o p.data "$W/spin" 0.1
	keys="hostname|os release|arch|nrcpus online|nrcpus avail|cpudesc|cpuid|total memory"
	for f in x p; do
		perf report --header-only -i $f.data 2>/dev/null | grep -E "^# ($keys) :" >$f.hdr
		perf report --header-only -I -i $f.data 2>/dev/null |
			grep -E "^# (sibling|CPU [0-9])" >>$f.hdr
	done
	cat x.hdr
	[ $(grep -c . p.hdr) -ge 8 ] || fail "perf printed too few header lines"
	diff p.hdr x.hdr || fail "host features differ"
	perf report --header-only -i x.data 2>/dev/null | grep -q "^# perf version : xperf " ||
		fail "no xperf version"
	perf report --header-only -i x.data 2>/dev/null | grep -q "^# cmdline : .*xperf-record" ||
		fail "no cmdline"
'

rec_case "build ids: perf buildid-list of the xperf file gives the workload's ELF build id" '
	xrec -o x.data "$W/shares" 0.3
	want=$(readelf -n "$W/shares" | awk "/Build ID:/ { print \$3 }")
	[ -n "$want" ] || fail "the workload has no build id"
	perf buildid-list -i x.data 2>buildid.err | tee ids
	[ ! -s buildid.err ] || { cat buildid.err; fail "perf buildid-list warned"; }
	grep -q "^$want .*workloads/shares$" ids || fail "no $want for shares"
	kid=$(perf buildid-list -k 2>/dev/null)
	[ -z "$kid" ] || grep -q "^$kid \[kernel.kallsyms\]$" ids || fail "no kernel build id"
'

test_done
