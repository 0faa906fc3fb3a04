#!/usr/bin/env bash
# xperf report --stats against perf report --stats on one large compressed -g file (>= 500k
# samples): best-of wall and CPU time and peak RSS of each, and the ratios xperf/perf (target:
# wall time <= 0.1).
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
XR=$BUILD/xperf-report

command -v perf >/dev/null || { echo "   perf is absent: skipped"; exit 0; }
[ -x "$XR" ] || { echo "   $XR is not built"; exit 1; }
BIG=$(report_big_file) || exit 1
n=$(samples_of "$BIG")

# The two outputs must agree before their times mean anything.
"$XR" --stats -i "$BIG" >"$BENCH_TMP/x.out" 2>&1 || { echo "   xperf report failed"; exit 1; }
perf report --stats -i "$BIG" >"$BENCH_TMP/p.out" 2>/dev/null
if ! diff -q <(grep ' events: ' "$BENCH_TMP/x.out") <(grep ' events: ' "$BENCH_TMP/p.out") \
	>/dev/null; then
	echo "   WARNING: --stats counts differ from perf's"
fi

if ! command -v hyperfine >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	apt-get install -y -qq hyperfine >/dev/null 2>&1 ||
		{ apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq hyperfine >/dev/null 2>&1; }
fi

if [ ! -x /usr/bin/time ] && [ "$(id -u)" = 0 ]; then
	apt-get install -y -qq time >/dev/null 2>&1
fi

tx=$(best_time "$XR" --stats -i "$BIG")
tp=$(best_time perf report --stats -i "$BIG")
cx=$(best_cpu "$XR" --stats -i "$BIG")
cp=$(best_cpu perf report --stats -i "$BIG")
# The target is on wall-clock time (issue 2: "the time"); xperf decompresses on a second
# thread, so its CPU time (both threads) is larger than its wall time and shown apart.
echo "   report --stats wall time: xperf ${tx}s, perf ${tp}s, ratio $(ratio "$tx" "$tp") (target <= 0.1)"
echo "   report --stats CPU time (user+sys, all threads): xperf ${cx}s, perf ${cp}s, ratio $(ratio "$cx" "$cp")"
report_rss_line "report --stats" --stats -i "$BIG"

# -D prints every record; perf's hex dump makes its output several times larger, so only our
# throughput is shown, not a ratio.
cd=$(best_cpu sh -c "'$XR' -D -i '$BIG' >/dev/null")
echo "   report -D CPU time: xperf ${cd}s ($(awk -v n="$n" -v t="$cd" \
	'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }') samples/s)"
