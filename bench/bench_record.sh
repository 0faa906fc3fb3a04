#!/usr/bin/env bash
# xperf record against perf record on the same CPU-bound work, in one run: slowdown, samples,
# losses, file sizes, the fixed cost of `record true`, and losses with DWARF call graphs.
set -u
. "$(dirname "$0")/lib.sh"
T=$BENCH_TMP
XR=$BUILD/xperf-record
REPEAT=${BENCH_REPEAT:-3}
command -v perf >/dev/null || { echo "perf is absent"; exit 0; }
[ -x "$XR" ] || { echo "$XR is not built"; exit 1; }

# A workload of fixed work (not fixed time), so a slowdown shows as a longer run. Deep
# enough stacks that -g has something to walk; frame pointers kept.
cat >"$T/burn.c" <<'EOF'
#include <stdint.h>
#include <stdlib.h>
volatile uint64_t sink;
__attribute__((noinline)) static uint64_t leaf(uint64_t n)
{
	uint64_t x = sink | 1;
	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}
__attribute__((noinline)) static uint64_t mid(int d, uint64_t n)
{
	return d ? mid(d - 1, n) + 1 : leaf(n);
}
int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 2000;
	for (long r = 0; r < rounds; r++)
		sink += mid(12, 1000000);
	return 0;
}
EOF
cc -O1 -g -fno-omit-frame-pointer -fno-inline -o "$T/burn" "$T/burn.c" || exit 1
BURN="$T/burn ${BENCH_ROUNDS:-1000}"

now() { date +%s%N; }
# timed VAR CMD...: run CMD once and keep the fastest time in ms seen so far in VAR. The
# variants take turns, so a noisy neighbour slows all of them alike; the minimum is the run
# least disturbed.
timed() {
	local var=$1 s e d rc
	shift
	s=$(now); "$@" >/dev/null 2>"$T/$var.err"; rc=$?; e=$(now)
	[ $rc -eq 0 ] || echo "   ($var: '$*' exited with status $rc: $(tail -n 2 "$T/$var.err" | tr '\n' ' '))"
	d=$(( (e - s) / 1000000 ))
	if [ "${!var}" -eq 0 ] || [ $d -lt "${!var}" ]; then printf -v "$var" %d $d; fi
}
lost_of() {
	perf script --show-lost-events -i "$1" 2>/dev/null |
		awk '/PERF_RECORD_LOST/ { for (i = 1; i <= NF; i++) if ($i == "lost") s += $(i + 1) } END { print s + 0 }'
}
size_of() { stat -c %s "$1"; }

cd "$T" || exit 1
alone=0 x=0 p=0 pz=0
for ((i = 0; i < REPEAT; i++)); do
	timed alone $BURN
	timed x "$XR" -q -F 10000 -g -o x.data -- $BURN
	timed p perf record -q -N --no-bpf-event -F 10000 -g -o p.data -- $BURN
	timed pz perf record -q -N --no-bpf-event -z -F 10000 -g -o pz.data -- $BURN
done

xs=$(samples_of x.data); ps=$(samples_of p.data); pzs=$(samples_of pz.data)
xl=$(lost_of x.data); pl=$(lost_of p.data)
xb=$(size_of x.data); pb=$(size_of p.data); pzb=$(size_of pz.data)

echo "   workload alone                      ${alone} ms"
printf "   slowdown at -F 10000 -g   xperf %s   perf %s   (xperf/perf %s, target <= 1)\n" \
	"$(ratio "$x" "$alone")" "$(ratio "$p" "$alone")" "$(ratio "$x" "$p")"
echo "   samples written / lost    xperf $xs / $xl   perf $ps / $pl   (target: xperf 0 lost)"
printf "   file size                 xperf %d B (%s B/sample)   perf %d B (%s B/sample)   perf -z %d B (%s B/sample)\n" \
	"$xb" "$(ratio "$xb" "$xs")" "$pb" "$(ratio "$pb" "$ps")" "$pzb" "$(ratio "$pzb" "$pzs")"
printf "   file size per sample      xperf / perf -z %s (target <= 1)   xperf / perf %s\n" \
	"$(ratio "$(ratio "$xb" "$xs")" "$(ratio "$pzb" "$pzs")")" "$(ratio "$(ratio "$xb" "$xs")" "$(ratio "$pb" "$ps")")"

# The fixed cost: set-up and tear-down around a command that does nothing.
N=${BENCH_TRUE_RUNS:-20}
s=$(now); for ((i = 0; i < N; i++)); do "$XR" -q -o t.data -- true 2>/dev/null; done; e=$(now)
xt=$(( (e - s) / N / 1000 ))
s=$(now); for ((i = 0; i < N; i++)); do perf record -q -N --no-bpf-event -o t.data -- true 2>/dev/null; done; e=$(now)
pt=$(( (e - s) / N / 1000 ))
echo "   record true               xperf ${xt} us   perf ${pt} us   (xperf/perf $(ratio "$xt" "$pt"), target <= 0.3)"

# DWARF call graphs copy 8 KB of stack per sample: 80 MB/s per cpu at 10 kHz.
"$XR" -q -F 10000 --call-graph dwarf -o xd.data -- $BURN 2>/dev/null
perf record -q -N --no-bpf-event -F 10000 --call-graph dwarf -o pd.data -- $BURN 2>/dev/null
echo "   --call-graph dwarf -F 10000: samples / lost   xperf $(samples_of xd.data) / $(lost_of xd.data)   perf $(samples_of pd.data) / $(lost_of pd.data)   (target: xperf 0 lost)"
printf "   --call-graph dwarf file   xperf %d B   perf %d B\n" "$(size_of xd.data)" "$(size_of pd.data)"
