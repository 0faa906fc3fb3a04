#!/usr/bin/env bash
# xperf diff against perf diff on the 1M-sample bench file (report-big.data of
# bench_report.sh: >= 500k samples, about 1.1M) against a copy of itself: both read both
# files. Best-of wall and CPU time of each and the ratios xperf/perf (issue 21 target:
# xperf at least 10x faster, wall time ratio <= 0.1), after checking that both print the
# same table.
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
XD=$BUILD/xperf-diff

command -v perf >/dev/null || { echo "   perf is absent: skipped"; exit 0; }
[ -x "$XD" ] || { echo "   $XD is not built"; exit 1; }
BIG=$(report_big_file) || exit 1
COPY=$BENCH_TMP/copy.data
cp "$BIG" "$COPY"

# The two must agree before their times mean anything: the same table, line for line.
"$XD" "$BIG" "$COPY" >"$BENCH_TMP/x.out" 2>/dev/null || { echo "   xperf diff failed"; exit 1; }
perf diff "$BIG" "$COPY" >"$BENCH_TMP/p.out" 2>/dev/null
if ! cmp -s "$BENCH_TMP/x.out" "$BENCH_TMP/p.out"; then
	echo "   WARNING: the table differs from perf diff's"
fi

tx=$(best_time "$XD" "$BIG" "$COPY")
tp=$(best_time perf diff "$BIG" "$COPY")
cx=$(best_cpu "$XD" "$BIG" "$COPY")
cp=$(best_cpu perf diff "$BIG" "$COPY")
echo "   diff (a file against its copy, $(samples_of "$BIG") samples each) wall time: xperf ${tx}s, perf ${tp}s, ratio $(ratio "$tx" "$tp") (target <= 0.1); CPU time: xperf ${cx}s, perf ${cp}s, ratio $(ratio "$cx" "$cp")"
