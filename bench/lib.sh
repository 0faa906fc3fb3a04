#!/usr/bin/env bash
# Helpers shared by bench/bench_*.sh (sourced first thing): BUILD and BENCH_TMP, timing,
# peak RSS, sample counts and ratios. Every helper writes its scratch files to $BENCH_TMP.
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
BENCH_TMP=${BENCH_TMP:-$(mktemp -d /tmp/xperf-bench.XXXXXX)}
RUNS=${RUNS:-3}

# ratio A B: A / B to three places, "n/a" when B is not positive
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }

samples_of() { # FILE: SAMPLE count according to perf
	perf report --stats -i "$1" 2>/dev/null |
		awk '/^Aggregated/ { a = 1 } a && $1 == "SAMPLE" { print $3; exit }'
}

# best_time CMD...: best wall time in seconds over $RUNS runs (after one warm-up run);
# hyperfine when it is there, else our own loop
best_time() {
	if command -v hyperfine >/dev/null && command -v python3 >/dev/null; then
		hyperfine -N -w 1 -r "$RUNS" --export-json "$BENCH_TMP/h.json" "$*" >/dev/null 2>&1 &&
			python3 -c 'import json,sys; print("%.4f" % json.load(open(sys.argv[1]))["results"][0]["min"])' \
				"$BENCH_TMP/h.json" && return
	fi
	local best="" t0 t1 i
	"$@" >/dev/null 2>&1
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		if [ -z "$best" ] || [ $((t1 - t0)) -lt "$best" ]; then best=$((t1 - t0)); fi
	done
	awk -v ns="$best" 'BEGIN { printf "%.4f\n", ns / 1e9 }'
}

# best_cpu CMD...: least CPU time (task-clock, user + system) in seconds over $RUNS runs.
# The machine is shared and busy: wall time includes waiting for a CPU, CPU time does not.
best_cpu() {
	local best="" ms i
	for ((i = 0; i < RUNS; i++)); do
		perf stat -x, -e task-clock -o "$BENCH_TMP/stat" "$@" >/dev/null 2>&1
		ms=$(awk -F, '$3 == "task-clock" || $3 ~ /^task-clock/ { print $1; exit }' "$BENCH_TMP/stat")
		[ -n "$ms" ] || continue
		if [ -z "$best" ] || awk -v a="$ms" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$ms
		fi
	done
	awk -v ms="${best:-0}" 'BEGIN { printf "%.4f\n", ms / 1000 }'
}

peak_rss() { # CMD...: maximum resident set size in KiB
	/usr/bin/time -f %M -o "$BENCH_TMP/rss" "$@" >/dev/null 2>&1
	tail -n 1 "$BENCH_TMP/rss"
}

# report_rss_line WHAT ARGS...: one line comparing the peak RSS of `xperf-report ARGS` with
# `perf report ARGS` (DESIGN target: ratio <= 0.5)
report_rss_line() {
	local what=$1 rx rp
	shift
	if [ ! -x /usr/bin/time ]; then
		echo "   peak RSS: /usr/bin/time is absent"
		return
	fi
	rx=$(peak_rss "$BUILD/xperf-report" "$@")
	rp=$(peak_rss perf report "$@")
	echo "   $what peak RSS: xperf ${rx} KiB, perf ${rp} KiB, ratio $(ratio "$rx" "$rp") (target <= 0.5)"
}

# The recordings the benches share, kept between runs.
CACHE=${BENCH_CACHE:-$BUILD/bench-cache}

# bench_file NAME MIN WHAT [--newer FILE] PERF_RECORD_ARGS... -- CMD...: the path of
# $CACHE/NAME, a perf recording of at least MIN samples, made anew with
# `perf record -q -N --no-bpf-event PERF_RECORD_ARGS -- CMD` (up to three tries) when it is
# missing, too small, older than FILE, or made by another command line (kept in NAME.cmd: a
# recording of a workload path that has since gone, e.g. another checkout's, would time a
# report that cannot read the program's files). WHAT says in a word or two what it holds. Says what
# it does on stderr; fails when there are still too few samples.
bench_file() {
	local name=$1 min=$2 what=$3 newer="" f n=0 i
	shift 3
	if [ "${1:-}" = --newer ]; then
		newer=$2
		shift 2
	fi
	f=$CACHE/$name
	mkdir -p "$CACHE"
	[ -s "$f" ] && { [ -z "$newer" ] || [ "$f" -nt "$newer" ]; } &&
		[ "$(cat "$f.cmd" 2>/dev/null)" = "$*" ] && n=$(samples_of "$f")
	if [ "${n:-0}" -lt "$min" ]; then
		echo "   recording $f..." >&2
		: >"$BENCH_TMP/record.err"
		for i in 1 2 3; do
			perf record -q -N --no-bpf-event -o "$f.tmp" "$@" >/dev/null \
				2>"$BENCH_TMP/record.err" && mv "$f.tmp" "$f" && echo "$*" >"$f.cmd" && break
		done
		n=$(samples_of "$f")
	fi
	echo "   file: $f, $(du -k "$f" | cut -f1) KiB, ${n:-0} samples ($what)" >&2
	if [ "${n:-0}" -lt "$min" ]; then
		echo "   too few samples: $(tail -n 2 "$BENCH_TMP/record.err" | tr '\n' ' ')" >&2
		return 1
	fi
	echo "$f"
}

# two_busy_threads SECONDS: BUSY_CMD (an array) becomes a command of two CPU-bound threads:
# the threads workload, or two busy shells where it is not built
two_busy_threads() {
	if [ -x "$BUILD/workloads/threads" ]; then
		BUSY_CMD=("$BUILD/workloads/threads" "$1")
	else
		BUSY_CMD=(sh -c "timeout $1 sh -c 'while :; do :; done' & timeout $1 sh -c 'while :; do :; done'; wait")
	fi
}

# report_big_file: the path of the large compressed -g file of the report benches
# ($CACHE/report-big.data: >= MIN_SAMPLES samples, 500k by default), recorded with perf
# (cpu-clock every 20 us, CPU_SECONDS of CPU on two threads) when it is missing or too small.
report_big_file() {
	big_file_args
	bench_file report-big.data "${MIN_SAMPLES:-500000}" "compressed, -g" "${BIG_ARGS[@]}"
}

# big_file_args: BIG_ARGS (an array) becomes the perf record arguments of report-big.data
big_file_args() {
	two_busy_threads "${CPU_SECONDS:-22}"
	BIG_ARGS=(-z -g -e cpu-clock -c 20000 -- "${BUSY_CMD[@]}")
}

# report_stdio_file: the big file of report_big_file when it is there with at least
# MIN_SAMPLES (100k by default) samples, else a smaller one of its own (about 5 s to record)
report_stdio_file() {
	local min=${MIN_SAMPLES:-100000} n=0

	big_file_args
	[ -s "$CACHE/report-big.data" ] && [ "$(cat "$CACHE/report-big.data.cmd" 2>/dev/null)" = "${BIG_ARGS[*]}" ] &&
		n=$(samples_of "$CACHE/report-big.data")
	if [ "${n:-0}" -ge "$min" ]; then
		echo "   file: $CACHE/report-big.data, $(du -k "$CACHE/report-big.data" | cut -f1) KiB, $n samples (-g)" >&2
		echo "$CACHE/report-big.data"
		return
	fi
	two_busy_threads 5
	bench_file report-stdio.data "$min" "-g" -z -g -e cpu-clock -c 20000 -- "${BUSY_CMD[@]}"
}
