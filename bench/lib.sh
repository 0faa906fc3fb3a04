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

# report_big_file: the path of the large compressed -g file of the report benches
# ($BENCH_CACHE or $BUILD/bench-cache, report-big.data: >= MIN_SAMPLES samples, 500k by
# default), recorded with perf (cpu-clock every 20 us, CPU_SECONDS of CPU on two threads)
# when it is missing or too small. Says what it does on stderr; fails when it cannot.
report_big_file() {
	local cache=${BENCH_CACHE:-$BUILD/bench-cache} min=${MIN_SAMPLES:-500000}
	local big n=0 wl=$BUILD/workloads/threads cpu=${CPU_SECONDS:-22}
	big=$cache/report-big.data
	mkdir -p "$cache"
	[ -s "$big" ] && n=$(samples_of "$big")
	if [ "${n:-0}" -lt "$min" ]; then
		echo "   recording $big (about $((cpu / 2 + 2)) s)..." >&2
		if [ -x "$wl" ]; then
			set -- "$wl" "$cpu"
		else
			# two CPU-bound shells, one per core
			set -- sh -c "timeout $((cpu / 2)) sh -c 'while :; do :; done' &
				      timeout $((cpu / 2)) sh -c 'while :; do :; done'; wait"
		fi
		if ! perf record -q -z -g -N --no-bpf-event -e cpu-clock -c 20000 -o "$big.tmp" -- "$@" \
			>/dev/null 2>"$BENCH_TMP/record.err" || ! mv "$big.tmp" "$big"; then
			echo "   perf record failed: $(tail -n 3 "$BENCH_TMP/record.err")" >&2
			return 1
		fi
		n=$(samples_of "$big")
	fi
	echo "   file: $big, $(du -k "$big" | cut -f1) KiB, ${n:-0} samples (compressed, -g)" >&2
	[ "${n:-0}" -ge "$min" ] || { echo "   too few samples" >&2; return 1; }
	echo "$big"
}
