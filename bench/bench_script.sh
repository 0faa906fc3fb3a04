#!/usr/bin/env bash
# xperf script against perf script on one large -g file (the report-big.data of
# bench_report.sh when it is there, >= 100k samples): wall time of the default output
# (target <= 0.2x), of --folded against perf script alone, the cheaper half of a
# perf script | stackcollapse pipeline (target <= 0.05x; also without the kallsyms cache,
# XPERF_NO_KALLSYMS_CACHE=1), and of report --pprof against
# perf's children report (target <= 0.3x).
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
XS=$BUILD/xperf-script
XR=$BUILD/xperf-report

command -v perf >/dev/null || { echo "   perf is absent: skipped"; exit 0; }
[ -x "$XS" ] || { echo "   $XS is not built"; exit 1; }

BIG=$(report_stdio_file) || exit 1

# The outputs must agree before their times mean anything: the same first lines.
"$XS" -i "$BIG" 2>/dev/null | head -n 200 | sed -E 's/ [^ ]+ \(\[vdso\]\)$/ [unknown] ([vdso])/' >"$BENCH_TMP/x.out"
perf script -i "$BIG" 2>/dev/null | head -n 200 | sed -E 's/ [^ ]+ \(\[vdso\]\)$/ [unknown] ([vdso])/' >"$BENCH_TMP/p.out"
cmp -s "$BENCH_TMP/x.out" "$BENCH_TMP/p.out" || echo "   WARNING: the first lines differ from perf script's"

tp=$(best_time perf script -i "$BIG")
tx=$(best_time "$XS" -i "$BIG")
echo "   script time: xperf ${tx}s, perf ${tp}s, ratio $(ratio "$tx" "$tp") (target <= 0.2)"
tf=$(best_time "$XS" --folded -i "$BIG")
echo "   script --folded time: xperf ${tf}s, perf script alone ${tp}s, ratio $(ratio "$tf" "$tp") (target <= 0.05)"
tf=$(best_time env XPERF_NO_KALLSYMS_CACHE=1 "$XS" --folded -i "$BIG")
echo "   script --folded time without the kallsyms cache: xperf ${tf}s, ratio $(ratio "$tf" "$tp") (target <= 0.05)"
if "$XR" --help 2>&1 | grep -q -- --pprof; then
	tr=$(best_time perf report --stdio --children -i "$BIG")
	tpp=$(best_time "$XR" --pprof "$BENCH_TMP/p.pb.gz" -i "$BIG")
	echo "   report --pprof time: xperf ${tpp}s, perf report --children ${tr}s, ratio $(ratio "$tpp" "$tr") (target <= 0.3)"
else
	echo "   report --pprof: not built (no libprotobuf-c)"
fi
