#!/usr/bin/env bash
# xperf report --stdio against perf report --stdio --no-children on one large -g file (>= 100k
# samples; the report-big.data of bench_report.sh when it is there): best-of wall time and
# peak RSS of each, and the ratios xperf/perf (DESIGN target: time <= 0.1, RSS <= 0.5).
# Both sides' defaults on a -g file are children mode with graphs (the first ratio line);
# the flat view (--no-children -g none) is measured too.
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
CACHE=${BENCH_CACHE:-$BUILD/bench-cache}
XR=$BUILD/xperf-report
MIN_SAMPLES=${MIN_SAMPLES:-100000}

command -v perf >/dev/null || { echo "   perf is absent: skipped"; exit 0; }
[ -x "$XR" ] || { echo "   $XR is not built"; exit 1; }
mkdir -p "$CACHE"

# the big file of bench_report.sh if it is there, else our own smaller one
BIG=$CACHE/report-big.data
n=0
[ -s "$BIG" ] && n=$(samples_of "$BIG")
if [ "${n:-0}" -lt "$MIN_SAMPLES" ]; then
	BIG=$CACHE/report-stdio.data
	[ -s "$BIG" ] && n=$(samples_of "$BIG")
fi
if [ "${n:-0}" -lt "$MIN_SAMPLES" ]; then
	echo "   recording $BIG (about 5 s)..."
	if [ -x "$BUILD/workloads/threads" ]; then
		set -- "$BUILD/workloads/threads" 5
	else
		set -- sh -c "timeout 5 sh -c 'while :; do :; done' & timeout 5 sh -c 'while :; do :; done'; wait"
	fi
	for i in 1 2 3; do
		perf record -q -z -g -N --no-bpf-event -e cpu-clock -c 20000 -o "$BIG.tmp" -- "$@" \
			>/dev/null 2>"$BENCH_TMP/record.err" && mv "$BIG.tmp" "$BIG" && break
	done
	n=$(samples_of "$BIG")
fi
echo "   file: $BIG, $(du -k "$BIG" | cut -f1) KiB, ${n:-0} samples (-g)"
[ "${n:-0}" -ge "$MIN_SAMPLES" ] || { echo "   too few samples"; exit 1; }

# The two reports must agree before their times mean anything: same first rows.
"$XR" --stdio -q --no-children -g none -i "$BIG" >"$BENCH_TMP/x.out" 2>&1 || { echo "   xperf report failed"; exit 1; }
perf report --stdio --no-children -q -g none -i "$BIG" >"$BENCH_TMP/p.out" 2>/dev/null
if ! diff -q <(head -n 5 "$BENCH_TMP/x.out") <(head -n 5 "$BENCH_TMP/p.out") >/dev/null; then
	echo "   WARNING: the first rows differ from perf's"
fi

tc=$(best_time "$XR" --stdio -i "$BIG")
tpc=$(best_time perf report --stdio -i "$BIG")
echo "   report --stdio (children + graph) time: xperf ${tc}s, perf ${tpc}s, ratio $(ratio "$tc" "$tpc") (target <= 0.1)"
tx=$(best_time "$XR" --stdio --no-children -g none -i "$BIG")
tf=$(best_time perf report --stdio --no-children -g none -i "$BIG")
echo "   report --stdio --no-children -g none time: xperf ${tx}s, perf ${tf}s, ratio $(ratio "$tx" "$tf") (target <= 0.1)"
report_rss_line "report --stdio (children + graph)" --stdio -i "$BIG"
