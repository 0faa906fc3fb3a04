#!/usr/bin/env bash
# xperf stat against perf stat: start-up + tear-down on `true`, and counting overhead on a
# CPU-bound workload (slowdown against the workload alone). Prints ratios; lower is better.
set -u
. "$(dirname "$0")/lib.sh"
XS=$BUILD/xperf-stat
SPIN=$BUILD/workloads/stat_spin
TMP=$BENCH_TMP
[ -x "$XS" ] || { echo "bench_stat: $XS is not built"; exit 1; }
[ -x "$SPIN" ] || { echo "bench_stat: $SPIN is not built"; exit 1; }
command -v perf >/dev/null || { echo "bench_stat: perf is absent"; exit 0; }

if ! command -v hyperfine >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	apt-get install -y -qq hyperfine >/dev/null 2>&1 || true
fi

# mean_seconds RUNS CMD...: mean wall time of CMD (hyperfine, else best-of-RUNS loop)
mean_seconds() {
	local runs=$1; shift
	if command -v hyperfine >/dev/null; then
		hyperfine -N --warmup 3 --runs "$runs" --export-json "$TMP/h.json" -- "$*" >/dev/null 2>&1 &&
			python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["mean"])' "$TMP/h.json" &&
			return
	fi
	local best= i s e t
	for i in $(seq "$runs"); do
		s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
		t=$((e - s)); if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
	done
	awk -v t="$best" 'BEGIN { printf "%.9f\n", t / 1e9 }'
}

echo "-- start-up + tear-down: stat -e task-clock true (target <= 0.25)"
x=$(mean_seconds 200 "$XS" -e task-clock true)
p=$(mean_seconds 200 perf stat -e task-clock true)
printf "   xperf %.6fs  perf %.6fs  ratio %s\n" "$x" "$p" "$(ratio "$x" "$p")"

echo "-- same with the default events: stat true"
x=$(mean_seconds 100 "$XS" true)
p=$(mean_seconds 100 perf stat true)
printf "   xperf %.6fs  perf %.6fs  ratio %s\n" "$x" "$p" "$(ratio "$x" "$p")"

echo "-- counting overhead on stat_spin 300 (slowdown against the workload alone)"
a=$(mean_seconds 5 "$SPIN" 300)
x=$(mean_seconds 5 "$XS" -e task-clock,page-faults,context-switches "$SPIN" 300)
p=$(mean_seconds 5 perf stat -e task-clock,page-faults,context-switches "$SPIN" 300)
printf "   alone %.4fs  xperf %.4fs (x%s)  perf %.4fs (x%s)  xperf/perf ratio %s\n" "$a" "$x" \
	"$(ratio "$x" "$a")" "$p" "$(ratio "$p" "$a")" "$(ratio "$x" "$p")"
