#!/usr/bin/env bash
# Issue 11: the cost of a report grows with distinct call paths, gently. From a real perf -g
# recording, tests/tools/xpf-paths makes files of 100k and 1M samples that each have a
# 10-frame path of their own (plain records); every view is timed with its peak RSS:
# children + graph (the default), -g none, --no-children, --no-children -g none; perf's
# on the 100k file beside xperf's. Bytes per path: the peak RSS of a view over that of the
# flat view (--no-children -g none, which keeps nothing per path) on the same file, per path
# (DESIGN target: <= 300). Also: graph lines per second (-g graph,0), and the flat view's
# peak RSS against the file's size (the reader gives back the pages it has read).
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
XR=$BUILD/xperf-report
PATHS=$BUILD/tests/xpf-paths

command -v perf >/dev/null || { echo "   perf is absent: skipped"; exit 0; }
[ -x "$XR" ] && [ -x "$PATHS" ] || { echo "   $XR or $PATHS is not built"; exit 1; }
[ -x /usr/bin/time ] || { echo "   /usr/bin/time is absent: no peak RSS to measure"; exit 0; }
REAL=$(bench_file paths-real.data 1 "-g, shares" -g -e cpu-clock -- "$BUILD/workloads/shares" 0.5) ||
	exit 1
for n in 100000 1000000; do
	f=$CACHE/paths-$n.data
	if [ ! -s "$f" ] || [ "$PATHS" -nt "$f" ]; then
		"$PATHS" -i "$REAL" -o "$f" -n $n >/dev/null || { echo "   xpf-paths failed"; exit 1; }
	fi
done

# measure RUNS CMD...: "SECONDS KIB" of CMD (output to /dev/null): the least wall time and
# the largest peak RSS of RUNS runs; "fail" when a run fails
measure() {
	local runs=$1 best="" rss=0 i t m
	shift
	for ((i = 0; i < runs; i++)); do
		/usr/bin/time -f "%e %M" -o "$BENCH_TMP/tm" "$@" >/dev/null 2>&1 || { echo fail; return; }
		read -r t m <"$BENCH_TMP/tm"
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
		[ "$m" -gt "$rss" ] && rss=$m
	done
	echo "$best $rss"
}

views=("" "-g none" "--no-children" "--no-children -g none")
names=("children + graph" "-g none" "--no-children" "--no-children -g none")
declare -A XT XM PT PM
for n in 100000 1000000; do
	f=$CACHE/paths-$n.data
	runs=3
	[ $n -ge 1000000 ] && runs=1
	echo "   file: $f, $(($(stat -c %s "$f") >> 20)) MiB, $n samples, each its own 10-frame path"
	for i in "${!views[@]}"; do
		read -r XT[$n,$i] XM[$n,$i] < <(measure $runs "$XR" --stdio ${views[$i]} -i "$f")
	done
	base=${XM[$n,3]}
	for i in "${!views[@]}"; do
		line="   $n paths, ${names[$i]}: xperf ${XT[$n,$i]} s, $((XM[$n,$i] >> 10)) MiB"
		if [ $n -eq 100000 ]; then
			read -r PT[$i] PM[$i] < <(measure 1 perf report --stdio ${views[$i]} -i "$f")
			line="$line; perf ${PT[$i]} s, $((PM[$i] >> 10)) MiB; ratio time $(ratio "${XT[$n,$i]}" "${PT[$i]}"), RSS $(ratio "${XM[$n,$i]}" "${PM[$i]}")"
		fi
		[ "$i" -lt 3 ] && line="$line; $(awk -v a="${XM[$n,$i]}" -v b="$base" -v n=$n \
			'BEGIN { printf "%.0f", (a - b) * 1024 / n }') bytes/path (target <= 300)"
		echo "$line"
	done
done
for i in "${!views[@]}"; do
	echo "   1M / 100k paths, ${names[$i]}: time x$(ratio "${XT[1000000,$i]}" "${XT[100000,$i]}") (linear: x10)"
done

f=$CACHE/paths-100000.data
read -r t _ < <(measure 1 "$XR" --stdio -g graph,0 -i "$f")
lines=$("$XR" --stdio -g graph,0 -i "$f" | wc -l)
echo "   100k paths, -g graph,0 (every branch): $lines lines in $t s, $(awk -v l="$lines" -v t="$t" \
	'BEGIN { printf "%.0f", (t > 0 ? l / t : 0) }') lines/s"
f=$CACHE/paths-1000000.data
echo "   plain $(($(stat -c %s "$f") >> 20)) MiB file, --no-children -g none: peak RSS $((XM[1000000,3] >> 10)) MiB," \
	"$(ratio "$((XM[1000000,3] * 1024))" "$(stat -c %s "$f")")x the file (pages behind the reader given back)"
