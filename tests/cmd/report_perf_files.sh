#!/usr/bin/env bash
# xperf report reads what perf 6.1 writes: --stats counts, --header-only lines and --dump
# records must equal perf report's on the same files (plain, -z, -g, dwarf, two events, pipe).
. "$(dirname "$0")/lib.sh"

R=$XPERF_BUILD/xperf-report
FILES=$TEST_TMP/files
mkdir -p "$FILES"
WORK="sh -c 'i=0; while [ \$i -lt 200000 ]; do i=\$((i+1)); done'"

# rec NAME PERF-RECORD-ARGS...: record the workload once into $FILES/NAME.data
rec() {
	local name=$1
	shift
	[ -s "$FILES/$name.data" ] && return 0
	if [ "$name" = pipe ]; then
		eval "perf_run record -q -N $* -o - -- $WORK" >"$FILES/$name.data" 2>"$FILES/$name.err"
	else
		eval "perf_run record -q -N $* -o $FILES/$name.data -- $WORK" 2>"$FILES/$name.err"
	fi
}

# "section TYPE count" lines of a --stats output, section being "Aggregated" or the event
stats_table() {
	awk '/^Aggregated stats/ { sec = "Aggregated"; next }
	     / stats:$/ { sec = $0; sub(/ stats:$/, "", sec); next }
	     /^ *[A-Z_0-9]+ events: *[0-9]+/ { print sec, $1, $3 }' "$1"
}

# TYPE count, from the decoded record lines of a -D output (COMPRESSED left out: perf
# does not print it)
dump_table() {
	grep -E '^(-1 -1 )?([0-9]+ )*(0x[0-9a-f]+|0) \[0x[0-9a-f]+\]: PERF_RECORD_' "$1" |
		grep -oE 'PERF_RECORD_[A-Z0-9_]+' | grep -v '^PERF_RECORD_COMPRESSED' |
		sort | uniq -c | awk '{ print $2, $1 }'
}

check_stats() { # NAME
	f=$FILES/$1.data
	[ -s "$f" ] || fail "perf record failed: $(cat "$FILES/$1.err")"
	"$R" --stats -i "$f" >ours 2>ours.err || fail "xperf report: $(cat ours.err)"
	perf_run report --stats -i "$f" >theirs 2>/dev/null || fail "perf report failed"
	stats_table ours >a; stats_table theirs >b
	grep -q "^Aggregated SAMPLE [1-9]" b || fail "perf saw no samples"
	[ "$(wc -l <b)" -ge 5 ] || fail "could not parse perf's output"
	diff b a || fail "counts differ (< perf, > xperf)"
}

check_header() { # NAME
	f=$FILES/$1.data
	"$R" --header-only -i "$f" | grep -v "^# captured on" >ours
	perf_run report --header-only -i "$f" 2>/dev/null | grep -v "^# captured on" >theirs
	for key in "hostname" "os release" "nrcpus online" "nrcpus avail" "arch" "perf version" \
		   "cpuid" "total memory" "event : name"; do
		grep -q "^# $key" theirs || fail "perf printed no '$key' line"
		diff <(grep "^# $key" theirs) <(grep "^# $key" ours) || fail "'$key' lines differ"
	done
	diff theirs ours || fail "other header lines differ (< perf, > xperf)"
}

check_dump() { # NAME
	f=$FILES/$1.data
	"$R" -D -i "$f" >ours 2>ours.err || fail "xperf report -D: $(cat ours.err)"
	perf_run report -D -i "$f" >theirs 2>/dev/null || fail "perf report -D failed"
	dump_table ours >a; dump_table theirs >b
	grep -q "^PERF_RECORD_SAMPLE [1-9]" b || fail "perf -D shows no samples"
	diff b a || fail "records per type differ (< perf, > xperf)"
	# decoded sample detail lines (callchain, registers, user stack) as many as perf's
	for pat in "^\.\.\. FP chain: nr:" "^\.\.\. user regs: mask" "^\.\.\. ustack: size" \
		   "^\.\.\.\.\. *[0-9]+: [0-9a-f]{16}$"; do
		[ "$(grep -cE "$pat" ours)" -eq "$(grep -cE "$pat" theirs)" ] ||
			fail "'$pat': xperf $(grep -cE "$pat" ours), perf $(grep -cE "$pat" theirs)"
	done
}

# --stdio rows "pct event:comm dso level symbol" of entries of at least 0.5%, from either
# report; [vdso] symbols as normalize_vdso spells them, rows it makes equal summed
stdio_rows() {
	normalize_vdso <"$1" | awk '/^# Samples:/ { ev++ } /^#/ || NF < 5 { next }
	     { p = $1; sub(/%$/, "", p); k = ev ":" $2 " " $3 " " $4 " " $5; if (!(k in S)) K[++n] = k; S[k] += p }
	     END { for (i = 1; i <= n; i++) if (S[K[i]] >= 0.5) print S[K[i]], K[i] }'
}

check_stdio() { # NAME: same events, totals and top entries (within 0.5 points) as perf
	f=$FILES/$1.data
	[ -s "$f" ] || fail "perf record failed"
	"$R" --stdio -i "$f" >ours 2>ours.err || fail "xperf report: $(cat ours.err)"
	perf_run report --stdio --no-children -g none -i "$f" >theirs 2>/dev/null || fail "perf report"
	diff <(grep -E "^# (Samples|Event count|Total Lost)" theirs) \
	     <(grep -E "^# (Samples|Event count|Total Lost)" ours) || fail "totals differ"
	stdio_rows theirs >b; stdio_rows ours >a
	[ -s b ] || fail "no rows parsed from perf's report"
	while read -r pct comm dso lvl sym; do
		mine=$(awk -v c="$comm" -v d="$dso" -v l="$lvl" -v s="$sym" \
			'$2 == c && $3 == d && $4 == l && $5 == s { print $1 }' a)
		[ -n "$mine" ] || fail "missing: $pct% $comm $dso $lvl $sym"
		awk -v a="$pct" -v b="$mine" 'BEGIN { d = a - b; exit !(d <= 0.5 && d >= -0.5) }' ||
			fail "$comm $dso $sym: perf $pct%, xperf $mine%"
	done <b
}

if have_perf; then
	rec plain
	rec z -z
	rec g -g
	rec dwarf --call-graph dwarf
	rec two -e cpu-clock,page-faults
	rec pipe
	if [ -x "$XPERF_BUILD/workloads/threads" ] && [ ! -s "$FILES/threads.data" ]; then
		perf_run record -q -N -o "$FILES/threads.data" -- "$XPERF_BUILD/workloads/threads" 0.5 \
			>/dev/null 2>"$FILES/threads.err"
	fi
fi

for name in plain z g dwarf two pipe; do
	perf_case "--stats counts equal perf's: $name" "check_stats $name"
	perf_case "--header-only lines equal perf's: $name" "check_header $name"
	perf_case "--dump shows as many records per type as perf -D: $name" "check_dump $name"
done

for name in plain z two pipe; do
	perf_case "--stdio totals and top entries equal perf's: $name" "check_stdio $name"
done
if [ -x "$XPERF_BUILD/workloads/threads" ]; then
	perf_case "--stdio: threads workload split 60/40 as perf reports it" '
		check_stdio threads
		grep -qE "xp-thread-a +threads +\[\.\] thread_a_work" ours || fail "no thread_a_work"
		grep -qE "xp-thread-b +threads +\[\.\] thread_b_work" ours || fail "no thread_b_work"
	'
else
	skip_case "--stdio: threads workload" "build/workloads/threads is not built"
fi

perf_case "-i - reads a pipe stream from stdin, live from perf record" '
	eval "perf_run record -q -N -o - -- $WORK" 2>/dev/null | tee live.data |
		"$R" --stats -i - >ours 2>err || fail "xperf report: $(cat err)"
	perf_run report --stats -i live.data >theirs 2>/dev/null
	stats_table ours >a; stats_table theirs >b
	grep -q "^Aggregated SAMPLE [1-9]" b || fail "no samples"
	diff b a || fail "counts differ"
'

perf_case "--dump decodes MMAP2, COMM, EXIT and samples like perf (same lines)" '
	f=$FILES/g.data
	"$R" -D -i "$f" | grep -E "PERF_RECORD_(MMAP2|COMM|EXIT|SAMPLE)" | sort >a
	perf_run report -D -i "$f" 2>/dev/null | grep -E "PERF_RECORD_(MMAP2|COMM|EXIT|SAMPLE)" | sort >b
	[ -s b ] || fail "perf printed nothing"
	diff b a || fail "decoded lines differ"
'

test_done
