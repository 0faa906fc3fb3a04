#!/usr/bin/env bash
# xperf record --off-cpu on a workload that switches about 10,000 times a second: its wall
# time recorded against alone (target <= 1.10x), the blocked intervals written, and records lost.
# Best of BENCH_REPEAT (5) runs each, the variants taking turns. Two times per run: the whole
# command (the recorder's start-up and tear-down included) and the workload's own (it times
# itself), so what the recorder adds around the workload shows apart from what the workload
# pays while recorded; and the recorder's own cpu time (perf stat --no-inherit), the part
# that is our code. The machine's load is printed first: on a busy machine the ratios grow.
# Last, the cpu's timer reprograms per sleep, counted (not timed): the kernel's share.
# perf 6.1 has no --off-cpu without BPF: its line is sched:sched_switch -g, the same
# kernel work without the pairing, for scale.
set -u
. "$(dirname "$0")/lib.sh"
T=$BENCH_TMP
XR=$BUILD/xperf-record
REPEAT=${BENCH_REPEAT:-5}
command -v perf >/dev/null || { echo "perf is absent"; exit 0; }
[ -x "$XR" ] || { echo "$XR is not built"; exit 1; }

# Fixed work, not fixed time, so overhead shows as a longer run: N rounds of a little
# computing and a 60 us sleep (timer slack 1 ns: the sleep is what it says), each round
# one switch out and in.
cat >"$T/switcher.c" <<'EOF2'
#include <stdint.h>
#include <stdio.h>
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
/* switcher ROUNDS [FILE]: FILE gets the milliseconds the rounds took */
int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 20000;
	struct timespec a, b;
	prctl(PR_SET_TIMERSLACK, 1UL);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long r = 0; r < rounds; r++) {
		work();
		nap();
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (argc > 2) {
		FILE *f = fopen(argv[2], "w");
		if (!f)
			return 1;
		fprintf(f, "%lld\n", ((b.tv_sec - a.tv_sec) * 1000000000LL + b.tv_nsec - a.tv_nsec) / 1000000);
		fclose(f);
	}
	return 0;
}
EOF2
cc -O1 -g -fno-omit-frame-pointer -fno-inline -o "$T/switcher" "$T/switcher.c" || exit 1
ROUNDS=${BENCH_SWITCH_ROUNDS:-20000}
SW="$T/switcher $ROUNDS $T/inner.ms"

now() { date +%s%N; }
# best VAR MS: keep in VAR the smallest MS so far
best() { if [ "${!1}" -eq 0 ] || [ "$2" -lt "${!1}" ]; then printf -v "$1" %d "$2"; fi; }
# timed VAR CMD...: the fastest run in ms so far in VAR, the workload's own time (what it
# wrote to inner.ms) in VAR_in; the variants take turns
timed() {
	local var=$1 s e rc
	shift
	rm -f "$T/inner.ms"
	s=$(now); "$@" >/dev/null 2>"$T/$var.err"; rc=$?; e=$(now)
	[ $rc -eq 0 ] || echo "   ($var: '$*' exited with status $rc: $(tail -n 2 "$T/$var.err" | tr '\n' ' '))"
	best "$var" $(( (e - s) / 1000000 ))
	[ -s "$T/inner.ms" ] && best "${var}_in" "$(cat "$T/inner.ms")"
}
# cpu_ms CMD...: the cpu time (task-clock, ms) of CMD's own process, not of its children
cpu_ms() {
	perf stat --no-inherit -x, -e task-clock -o "$T/cpu.csv" -- "$@" >/dev/null 2>&1
	awk -F, '$3 ~ /^task-clock/ { printf "%d", $1 + 0.5 }' "$T/cpu.csv"
}
# reprograms CMD...: the TSC-deadline (or x2APIC one-shot) timer writes made while CMD's
# tasks are on a cpu; "n/a" without the msr:write_msr tracepoint (not x86, no tracefs)
reprograms() {
	perf stat -x, -e msr:write_msr --filter 'msr==0x6e0 || msr==0x838' \
		-o "$T/msr.csv" -- "$@" >/dev/null 2>&1 &&
		awk -F, '$3 ~ /write_msr/ { n = $1 } END { if (n ~ /^[0-9]+$/) print n; else print "n/a" }' \
			"$T/msr.csv" || echo n/a
}
per_sleep() { if [ "$1" = n/a ]; then echo n/a; else ratio "$1" "$ROUNDS"; fi; }
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
echo "   load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cpus; best of $REPEAT runs each"
alone=0 x=0 xp=0 xd=0 p=0 pp=0 alone_in=0 x_in=0 xp_in=0 xd_in=0 p_in=0 pp_in=0
for ((i = 0; i < REPEAT; i++)); do
	timed alone $SW
	timed x "$XR" -q --off-cpu -o x.data -- $SW
	timed xp "$XR" -q -g -o xp.data -- $SW
	timed xd "$XR" -q --off-cpu -e dummy -o xd.data -- $SW
	timed p perf record -q -N --no-bpf-event -g -e cpu-clock -e sched:sched_switch \
		-o p.data -- $SW
	timed pp perf record -q -N --no-bpf-event -g -o pp.data -- $SW
done
xoff=$(event_samples x.data offcpu-time)
xcpu=$(cpu_ms "$XR" -q --off-cpu -o xc.data -- $SW)
xpcpu=$(cpu_ms "$XR" -q -g -o xc.data -- $SW)
tw_alone=$(reprograms $SW)
tw_x=$(reprograms "$XR" -q --off-cpu -o xc.data -- $SW)
pcpu=$(cpu_ms perf record -q -N --no-bpf-event -g -e cpu-clock -e sched:sched_switch -o pc.data -- $SW)
echo "   workload alone                        ${alone} ms (its own time ${alone_in} ms), $ROUNDS sleeps: $(ratio "$((ROUNDS * 1000))" "$alone") switches/s"
printf "   --off-cpu slowdown        xperf %s (target <= 1.10)   perf -e cpu-clock,sched:sched_switch -g %s\n" \
	"$(ratio "$x" "$alone")" "$(ratio "$p" "$alone")"
# the same, timed by the workload: without the recorder's start-up and tear-down (with a
# tracepoint, the kernel's release of it at the last close takes RCU grace periods, some
# 30-40 ms here: perf waits for them, xperf leaves the wait to a short-lived child)
printf "     the workload's own time   xperf %s   perf %s\n" \
	"$(ratio "$x_in" "$alone_in")" "$(ratio "$p_in" "$alone_in")"
# what on-CPU sampling alone costs a task that switches this often (a per-task cpu-clock
# timer is stopped and started at every switch), and what --off-cpu adds to it
printf "   -g (cpu-clock) slowdown   xperf %s   perf %s   --off-cpu / -g: xperf %s (own time %s)\n" \
	"$(ratio "$xp" "$alone")" "$(ratio "$pp" "$alone")" "$(ratio "$x" "$xp")" \
	"$(ratio "$x_in" "$xp_in")"
# the two halves of --off-cpu's cost, each alone: its on-CPU sampling (the default event
# with call chains: -g), and its own events (the sched_switch samples and the switch
# records that end each interval) with a dummy event in place of any on-CPU sampling
printf "   its two halves, own time   on-CPU sampling (-g) %s   --off-cpu -e dummy %s\n" \
	"$(ratio "$xp_in" "$alone_in")" "$(ratio "$xd_in" "$alone_in")"
echo "   recorder's own cpu time   xperf --off-cpu ${xcpu} ms, -g ${xpcpu} ms   perf (cpu-clock,sched:sched_switch -g) ${pcpu} ms"
# why -g costs what it costs here: at each switch in, the kernel restarts the task's
# cpu-clock hrtimer (at 4000 Hz it is the earliest timer), which reprograms the cpu's
# timer, a VM exit of some microseconds in a guest; perf's cpu-clock pays the same
echo "   timer reprograms per sleep  alone $(per_sleep "$tw_alone")   xperf --off-cpu $(per_sleep "$tw_x") (in the workload's tasks; msr:write_msr)"
echo "   offcpu-time samples       xperf $xoff for $ROUNDS sleeps   lost records: xperf $(lost_of x.data) (target 0)   perf $(lost_of p.data)"
