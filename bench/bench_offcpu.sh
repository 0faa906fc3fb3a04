#!/usr/bin/env bash
# xperf record --off-cpu on a workload that switches about 10,000 times a second: its wall
# time recorded against alone (target <= 1.10x), the blocked intervals written, and records lost.
# perf 6.1 has no --off-cpu without BPF: its line is sched:sched_switch -g, the same
# kernel work without the pairing, for scale.
set -u
. "$(dirname "$0")/lib.sh"
T=$BENCH_TMP
XR=$BUILD/xperf-record
REPEAT=${BENCH_REPEAT:-3}
command -v perf >/dev/null || { echo "perf is absent"; exit 0; }
[ -x "$XR" ] || { echo "$XR is not built"; exit 1; }

# Fixed work, not fixed time, so overhead shows as a longer run: N rounds of a little
# computing and a 60 us sleep (timer slack 1 ns: the sleep is what it says), each round
# one switch out and in.
cat >"$T/switcher.c" <<'EOF2'
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <sys/prctl.h>
volatile uint64_t sink;
__attribute__((noinline)) static void work(void)
{
	uint64_t x = sink | 1;
	for (int i = 0; i < 4000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	sink = x;
}
__attribute__((noinline)) static void nap(void)
{
	struct timespec ts = { 0, 60000 };
	nanosleep(&ts, NULL);
}
int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 20000;
	prctl(PR_SET_TIMERSLACK, 1UL);
	for (long r = 0; r < rounds; r++) {
		work();
		nap();
	}
	return 0;
}
EOF2
cc -O1 -g -fno-omit-frame-pointer -fno-inline -o "$T/switcher" "$T/switcher.c" || exit 1
ROUNDS=${BENCH_SWITCH_ROUNDS:-20000}
SW="$T/switcher $ROUNDS"

now() { date +%s%N; }
# timed VAR CMD...: the fastest run in ms so far in VAR; the variants take turns
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
# event_samples FILE EVENT: samples of EVENT in FILE, as perf counts them
event_samples() {
	perf report --stats -i "$1" 2>/dev/null |
		awk -v e="$2 stats:" '$0 == e { a = 1; next } a && $1 == "SAMPLE" { print $3; exit }'
}

cd "$T" || exit 1
alone=0 x=0 xp=0 p=0 pp=0
for ((i = 0; i < REPEAT; i++)); do
	timed alone $SW
	timed x "$XR" -q --off-cpu -o x.data -- $SW
	timed xp "$XR" -q -g -o xp.data -- $SW
	timed p perf record -q -N --no-bpf-event -g -e cpu-clock -e sched:sched_switch \
		-o p.data -- $SW
	timed pp perf record -q -N --no-bpf-event -g -o pp.data -- $SW
done
xoff=$(event_samples x.data offcpu-time)
echo "   workload alone                        ${alone} ms, $ROUNDS sleeps: $(ratio "$((ROUNDS * 1000))" "$alone") switches/s"
printf "   --off-cpu slowdown        xperf %s (target <= 1.10)   perf -e cpu-clock,sched:sched_switch -g %s\n" \
	"$(ratio "$x" "$alone")" "$(ratio "$p" "$alone")"
# what on-CPU sampling alone costs a task that switches this often (a per-task cpu-clock
# timer is stopped and started at every switch), and what --off-cpu adds to it
printf "   -g (cpu-clock) slowdown   xperf %s   perf %s   --off-cpu / -g: xperf %s\n" \
	"$(ratio "$xp" "$alone")" "$(ratio "$pp" "$alone")" "$(ratio "$x" "$xp")"
echo "   offcpu-time samples       xperf $xoff for $ROUNDS sleeps   lost records: xperf $(lost_of x.data) (target 0)   perf $(lost_of p.data)"
