#!/usr/bin/env bash
# xperf report --stdio against perf report --stdio on one --call-graph dwarf file (>= 20k
# samples of libc_sort, whose stacks go through libc without frame pointers): best-of wall
# time and peak RSS of each, and the ratios xperf/perf (DESIGN target: time <= 0.2; this
# bench's RSS target: <= 0.15). Both unwind every sample's stack copy with libdw; perf also
# expands inlined frames (addr2line), so --no-inline is timed too, to show the unwinding alone.
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
XR=$BUILD/xperf-report
WL=$BUILD/workloads/libc_sort
MIN_SAMPLES=${MIN_SAMPLES:-20000}

command -v perf >/dev/null || { echo "   perf is absent: skipped"; exit 0; }
[ -x "$XR" ] || { echo "   $XR is not built"; exit 1; }
[ -x "$WL" ] || { echo "   $WL is not built"; exit 1; }
if ! "$BUILD/xperf" version 2>/dev/null | grep -Eq '^ +libdw +yes'; then
	echo "   this build has no libdw: skipped"
	exit 0
fi

# cpu-clock every 100 us: about 4-6k samples per second of libc_sort (8 KiB of stack each), 8 s
DW=$(bench_file report-dwarf.data "$MIN_SAMPLES" "--call-graph dwarf" \
	--call-graph dwarf -e cpu-clock -c 100000 -- "$WL" 8) || exit 1

# The two reports must agree before their times mean anything: same first rows.
"$XR" --stdio -q --no-children -g none -i "$DW" >"$BENCH_TMP/x.out" 2>&1 || { echo "   xperf report failed"; exit 1; }
perf report --stdio --no-children -q -g none -i "$DW" >"$BENCH_TMP/p.out" 2>/dev/null
if ! diff -q <(head -n 5 "$BENCH_TMP/x.out") <(head -n 5 "$BENCH_TMP/p.out") >/dev/null; then
	echo "   WARNING: the first rows differ from perf's"
fi

tx=$(best_time "$XR" --stdio -i "$DW")
tp=$(best_time perf report --stdio -i "$DW")
tn=$(best_time perf report --stdio --no-inline -i "$DW")
echo "   report --stdio time: xperf ${tx}s, perf ${tp}s, ratio $(ratio "$tx" "$tp") (target <= 0.2)"
echo "   against perf --no-inline (unwinding alone): perf ${tn}s, ratio $(ratio "$tx" "$tn")"
if [ -x /usr/bin/time ]; then
	rx=$(peak_rss "$XR" --stdio -i "$DW")
	rp=$(peak_rss perf report --stdio -i "$DW")
	echo "   report --stdio peak RSS: xperf ${rx} KiB, perf ${rp} KiB, ratio $(ratio "$rx" "$rp") (target <= 0.15)"
else
	echo "   peak RSS: /usr/bin/time is absent"
fi
