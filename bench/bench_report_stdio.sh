#!/usr/bin/env bash
# xperf report --stdio against perf report --stdio on one large -g file (>= 100k samples; the
# report-big.data of bench_report.sh when it is there): best-of wall time, best-of CPU time
# (task-clock of every thread: the steadier number on a shared machine) and peak RSS of
# each, and the ratios xperf/perf (DESIGN targets: children view <= 0.1, --no-children and
# --no-children -g none <= 0.15, RSS <= 0.5), the last also as the first report after a boot
# into the same kernel (the kallsyms cache of the boot before, moved) and on a new kernel (no
# kallsyms cache: /proc/kallsyms read whole).
# Both sides' defaults on a -g file are children mode with graphs (the first ratio line).
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
XR=$BUILD/xperf-report

command -v perf >/dev/null || { echo "   perf is absent: skipped"; exit 0; }
[ -x "$XR" ] || { echo "   $XR is not built"; exit 1; }

# the big file of bench_report.sh if it is there, else our own smaller one
BIG=$(report_stdio_file) || exit 1

# The two reports must agree before their times mean anything: same first rows.
"$XR" --stdio -q --no-children -g none -i "$BIG" >"$BENCH_TMP/x.out" 2>&1 || { echo "   xperf report failed"; exit 1; }
perf report --stdio --no-children -q -g none -i "$BIG" >"$BENCH_TMP/p.out" 2>/dev/null
if ! diff -q <(head -n 5 "$BENCH_TMP/x.out") <(head -n 5 "$BENCH_TMP/p.out") >/dev/null; then
	echo "   WARNING: the first rows differ from perf's"
fi

# view LABEL TARGET ARGS...: the wall and CPU times of both on the big file, and the ratios
# (xperf runs under `env $XENV` when XENV is set)
view() {
	local label=$1 target=$2 tx tp cx cp
	shift 2
	tx=$(best_time ${XENV:+env $XENV} "$XR" --stdio "$@" -i "$BIG")
	tp=$(best_time perf report --stdio "$@" -i "$BIG")
	cx=$(best_cpu ${XENV:+env $XENV} "$XR" --stdio "$@" -i "$BIG")
	cp=$(best_cpu perf report --stdio "$@" -i "$BIG")
	PT=$tp PC=$cp
	echo "   report --stdio $label wall time: xperf ${tx}s, perf ${tp}s, ratio $(ratio "$tx" "$tp"); CPU time: xperf ${cx}s, perf ${cp}s, ratio $(ratio "$cx" "$cp") (target <= $target)"
}
view "(children + graph)" 0.1
view "--no-children" 0.15 --no-children
view "--no-children -g none" 0.15 --no-children -g none
# The views above read the kernel's symbols from the kallsyms cache (~/.cache/xperf, written
# by the first run). The first report after a boot into the same kernel finds the cache of the
# boot before, every address in it moved by KASLR (xpf-kcache writes one; put back before each
# run, which writes it again at this boot's addresses); a first report on a new kernel has no
# cache and reads /proc/kallsyms whole, as this last one does.
KC=$BUILD/tests/xpf-kcache
mkdir -p "$BENCH_TMP/xdg/xperf" && chmod 700 "$BENCH_TMP/xdg/xperf"
if [ -x "$KC" ] && "$KC" "$BENCH_TMP/moved" 2>/dev/null; then
	tx="" cx=""
	for ((i = 0; i <= RUNS; i++)); do # the first: a warm-up
		cp "$BENCH_TMP/moved" "$BENCH_TMP/xdg/xperf/kallsyms"
		XDG_CACHE_HOME=$BENCH_TMP/xdg perf stat -x, -e task-clock -e duration_time \
			-o "$BENCH_TMP/stat" "$XR" --stdio --no-children -g none -i "$BIG" >/dev/null 2>&1
		((i)) || continue
		read -r c w < <(awk -F, '$3 ~ /^task-clock/ { c = $1 } $3 ~ /^duration_time/ { w = $1 }
			END { printf "%.4f %.4f\n", c / 1000, w / 1e9 }' "$BENCH_TMP/stat")
		if [ -z "$tx" ] || awk -v a="$w" -v b="$tx" 'BEGIN { exit !(a < b) }'; then tx=$w; fi
		if [ -z "$cx" ] || awk -v a="$c" -v b="$cx" 'BEGIN { exit !(a < b) }'; then cx=$c; fi
	done
	# the wall time as best_time() takes the others' where hyperfine is there
	if command -v hyperfine >/dev/null && command -v python3 >/dev/null &&
		hyperfine -N -w 1 -r "$RUNS" --prepare "cp $BENCH_TMP/moved $BENCH_TMP/xdg/xperf/kallsyms" \
			--export-json "$BENCH_TMP/h.json" "env XDG_CACHE_HOME=$BENCH_TMP/xdg $XR --stdio --no-children -g none -i $BIG" \
			>/dev/null 2>&1; then
		tx=$(python3 -c 'import json,sys; print("%.4f" % json.load(open(sys.argv[1]))["results"][0]["min"])' \
			"$BENCH_TMP/h.json")
	fi
	echo "   report --stdio --no-children -g none, first after a boot (kallsyms cache moved) wall time: xperf ${tx}s, perf ${PT}s, ratio $(ratio "$tx" "$PT"); CPU time: xperf ${cx}s, perf ${PC}s, ratio $(ratio "$cx" "$PC") (target <= 0.15)"
else
	echo "   first report after a boot: no kallsyms cache to move here ($KC)"
fi
XENV=XPERF_NO_KALLSYMS_CACHE=1 view "--no-children -g none, no kallsyms cache (a new kernel)" 0.15 --no-children -g none
report_rss_line "report --stdio (children + graph)" --stdio -i "$BIG"
