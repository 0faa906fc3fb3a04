#!/usr/bin/env bash
# `make demo`: record the bundled demo program (tests/workloads/shares: 50% / 30% / 20% of its
# time in work_a / work_b / work_c) and show what xperf makes of it. Uses xperf record when
# it is built, else perf record; reports with xperf report, and lets perf read the file too.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
X=$BUILD/xperf
PROG=$BUILD/workloads/shares
OUT=${DEMO_OUT:-$BUILD/demo.data}
SECONDS_TO_RUN=${DEMO_SECONDS:-2}

[ -x "$X" ] && [ -x "$PROG" ] || { echo "demo: build first (make)" >&2; exit 2; }

if [ -t 1 ]; then bold=$(printf '\033[1m') plain=$(printf '\033[0m'); else bold= plain=; fi
step() { printf '\n%s$ %s%s\n' "$bold" "$*" "$plain"; "$@"; }

rm -f "$OUT"
if [ -x "$BUILD/xperf-record" ]; then
	step "$X" record -g -F 999 -o "$OUT" -- "$PROG" "$SECONDS_TO_RUN"
elif command -v perf >/dev/null 2>&1; then
	echo "demo: xperf record is not built yet; recording with perf"
	step perf record -N -z -g -e cpu-clock -F 999 -o "$OUT" -- "$PROG" "$SECONDS_TO_RUN"
else
	echo "demo: neither xperf-record nor perf is available" >&2
	exit 2
fi

[ -x "$BUILD/xperf-report" ] || { echo "demo: xperf report is not built yet" >&2; exit 2; }
step "$X" report --header-only -i "$OUT"
step "$X" report --stats -i "$OUT"
# The profile itself, once report has a view; until then the dump's first samples.
if "$X" report --stdio -i "$OUT" >/dev/null 2>&1; then
	step "$X" report --stdio -i "$OUT"
else
	echo
	echo "demo: 'xperf report --stdio' is not there yet; the first samples instead:"
	"$X" report -D -i "$OUT" | grep -m 5 -A 3 'PERF_RECORD_SAMPLE' || true
fi
if command -v perf >/dev/null 2>&1; then
	echo
	echo "demo: the same file read by Linux perf (the format is perf.data):"
	step perf report --stdio --no-children -g none --sort sym -i "$OUT" --percent-limit 5 2>/dev/null | \
		grep -v '^#' | grep -v '^$' | head -n 20
fi
if "$X" annotate --stdio -i "$OUT" work_a >/dev/null 2>&1; then
	echo
	echo "demo: where in work_a the time went, instruction by instruction:"
	step "$X" annotate --stdio -i "$OUT" work_a 2>/dev/null
fi
echo
echo "demo: the data file is $OUT"
echo "demo: on a terminal, '$X report -i $OUT' opens the TUI: Enter unfolds a call chain,"
echo "      a annotates, c shows callers and callees, f draws a flame graph, ? lists the keys"
