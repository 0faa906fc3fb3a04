#!/usr/bin/env bash
# xperf annotate --stdio against perf annotate --stdio (which runs objdump) for the hottest
# symbol of one -g file of the shares workload (>= 100k samples): best-of wall time of each
# and the ratio xperf/perf (DESIGN target: <= 0.1), after checking that both give the same
# shares per instruction.
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
XA=$BUILD/xperf-annotate
MIN_SAMPLES=${MIN_SAMPLES:-100000}

command -v perf >/dev/null || { echo "   perf is absent: skipped"; exit 0; }
[ -x "$XA" ] || { echo "   $XA is not built"; exit 1; }
[ -x "$BUILD/workloads/shares" ] || { echo "   $BUILD/workloads/shares is not built"; exit 1; }

# cpu-clock every 20 us: about 50k samples per second, 6 s
F=$(bench_file annotate.data "$MIN_SAMPLES" "-g" -z -g -e cpu-clock -c 20000 -- \
	"$BUILD/workloads/shares" 6) || exit 1

sym=$(perf report --stdio --no-children -q -g none --sort sym -i "$F" 2>/dev/null |
	awk '/%/ { print $NF; exit }')
[ -n "$sym" ] || { echo "   no symbol in perf's report"; exit 1; }

# The two must agree before their times mean anything: the same share on each address.
pcts() { awk '/^ +[0-9]+\.[0-9]+ : +[0-9a-f]+:/ { a = $3; sub(/:$/, "", a); print a, $1 }' "$1" | sort; }
"$XA" --stdio -s "$sym" -i "$F" >"$BENCH_TMP/x.out" 2>&1 || { echo "   xperf annotate failed"; exit 1; }
perf annotate --stdio -s "$sym" -i "$F" >"$BENCH_TMP/p.out" 2>/dev/null
if ! join <(pcts "$BENCH_TMP/p.out") <(pcts "$BENCH_TMP/x.out") |
	awk '{ d = $2 - $3; if (d < 0) d = -d; if (d > 0.5) bad = 1; n++ } END { exit bad || !n }'; then
	echo "   WARNING: the shares per instruction differ from perf's"
fi

# A run of xperf's takes about 12 ms: on a shared 2-core machine one scheduling delay of a
# few ms (a thread woken onto a busy cpu) is a third of it, so the best of the usual 3 runs
# is mostly luck. Both commands get the same number of runs, more of them (ANNOTATE_RUNS).
tx=$(RUNS=${ANNOTATE_RUNS:-15} best_time "$XA" --stdio -s "$sym" -i "$F")
tp=$(RUNS=${ANNOTATE_RUNS:-15} best_time perf annotate --stdio -s "$sym" -i "$F")
echo "   annotate --stdio $sym time (best of ${ANNOTATE_RUNS:-15}): xperf ${tx}s, perf ${tp}s, ratio $(ratio "$tx" "$tp") (target <= 0.1)"
# Without a symbol both annotate every symbol with samples: perf runs objdump once for each.
ta=$(best_time "$XA" --stdio -i "$F")
tpa=$(best_time perf annotate --stdio -i "$F")
echo "   annotate --stdio (every symbol) time: xperf ${ta}s, perf ${tpa}s, ratio $(ratio "$ta" "$tpa")"
