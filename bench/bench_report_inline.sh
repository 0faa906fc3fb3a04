#!/usr/bin/env bash
# xperf report --inline --sort sym,srcline against perf's on one -g file of the cxx_inline
# workload (>= 20k samples): best-of wall time of each and the ratio xperf/perf (DESIGN
# target: <= 0.05; perf starts addr2line for the lines and inline frames, xperf reads the
# DWARF in-process with libdw).
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
XR=$BUILD/xperf-report
WL=$BUILD/workloads/cxx_inline
MIN_SAMPLES=${MIN_SAMPLES:-20000}

command -v perf >/dev/null || { echo "   perf is absent: skipped"; exit 0; }
[ -x "$XR" ] || { echo "   $XR is not built"; exit 1; }
[ -x "$WL" ] || { echo "   $WL is not built (g++ missing?): skipped"; exit 0; }
"$BUILD/xperf" version 2>/dev/null | grep -q '+libdw' ||
	{ echo "   xperf was built without libdw: skipped"; exit 0; }

# cpu-clock every 20 us: about 50k samples per second of the single-threaded workload, 1 s;
# a file of an older build of the workload would have lost its DWARF: recorded anew then
F=$(bench_file report-inline.data "$MIN_SAMPLES" "-g, cxx_inline" --newer "$WL" \
	-z -g -e cpu-clock -c 20000 -- "$WL" 1) || exit 1

ARGS="--stdio --inline --sort sym,srcline"
# The flat rows must agree before the times mean anything.
"$XR" $ARGS --no-children -g none -q -i "$F" >"$BENCH_TMP/x.out" 2>&1 ||
	{ echo "   xperf report failed"; exit 1; }
perf report $ARGS --no-children -g none -q -i "$F" >"$BENCH_TMP/p.out" 2>/dev/null
if ! diff -q <(head -n 5 "$BENCH_TMP/x.out") <(head -n 5 "$BENCH_TMP/p.out") >/dev/null; then
	echo "   WARNING: the first rows differ from perf's"
fi

# perf takes seconds per run here: one timed run after the warm-up is enough
tx=$(best_time "$XR" $ARGS -i "$F")
tp=$(RUNS=1 best_time perf report $ARGS -i "$F")
echo "   report $ARGS (children, graphs) wall time: xperf ${tx}s, perf ${tp}s," \
	"ratio $(ratio "$tx" "$tp") (target <= 0.05)"
