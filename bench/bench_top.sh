#!/usr/bin/env bash
# xperf top against perf top on one busy process, both in a tmux terminal (perf top --stdio
# busy-loops without one): each one's own CPU over the same window, as a ratio.
set -u
. "$(dirname "$0")/lib.sh"
T=$BENCH_TMP
SECS=${BENCH_SECS:-10}
command -v perf >/dev/null || { echo "perf is absent"; exit 0; }
command -v tmux >/dev/null || { echo "tmux is absent"; exit 0; }
[ -x "$BUILD/xperf-top" ] || { echo "$BUILD/xperf-top is not built"; exit 1; }
SOCK=$T/tmux.sock

# lost_of NAME: the total of lost samples on the last screen of session NAME
lost_of() { local n; n=$(grep -o 'lost: [0-9]*/[0-9]*' "$T/$1.screen" 2>/dev/null | tail -n 1 | cut -d/ -f2); echo "${n:-? (not on its screen)}"; }

# ticks PID: the CPU time of a process's threads in ns (schedstat: finer than clock ticks)
ticks() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }

# cpu_of NAME CMD...: the command in a tmux pane for 2 s of warm-up and $SECS measured;
# prints its CPU in percent of one core
cpu_of() {
	local name=$1 pid t0 t1
	shift
	tmux -S "$SOCK" new-session -d -s "$name" -x 200 -y 50 "$*"
	sleep 2
	# the pane runs the command itself (sh -c execs a lone command)
	pid=$(tmux -S "$SOCK" display-message -p -t "$name" "#{pane_pid}")
	t0=$(ticks "$pid")
	sleep "$SECS"
	t1=$(ticks "$pid")
	# the screen, for its lost samples (both status lines say "lost: N/TOTAL")
	tmux -S "$SOCK" capture-pane -p -t "$name" >"$T/$name.screen"
	tmux -S "$SOCK" send-keys -t "$name" q
	sleep 0.5
	tmux -S "$SOCK" kill-session -t "$name" 2>/dev/null
	awk -v a="$t0" -v b="$t1" -v s="$SECS" 'BEGIN { printf "%.2f", (b - a) / 1e9 / s * 100 }'
}

cat >"$T/busy.c" <<'EOF2'
volatile unsigned long sink;
__attribute__((noinline)) static void burn(void) { for (unsigned long i = 0; i < 100000; i++) sink += i; }
int main(void) { for (;;) burn(); }
EOF2
cc -O1 -fno-omit-frame-pointer -o "$T/busy" "$T/busy.c" || exit 1
"$T/busy" & BUSY=$!
sleep 0.2
trap 'kill $BUSY 2>/dev/null; tmux -S "$SOCK" kill-server 2>/dev/null' EXIT

x=$(cpu_of xtop "$BUILD/xperf-top" -p "$BUSY")
p=$(cpu_of ptop perf top -p "$BUSY")
echo "top on one busy process, default frequency (4000 Hz), ${SECS} s in tmux:"
echo "  xperf top: ${x}% of a core   perf top: ${p}% of a core   ratio $(ratio "$x" "$p")"
echo "  lost samples: xperf top $(lost_of xtop)   perf top $(lost_of ptop)"
xs=$(cpu_of xtops "$BUILD/xperf-top" --stdio -p "$BUSY")
echo "  xperf top --stdio: ${xs}% of a core"
# the whole machine (every cpu at 4000 Hz: as many samples as it has cpus allow)
x=$(cpu_of xtopa "$BUILD/xperf-top")
p=$(cpu_of ptopa perf top)
echo "the whole machine, default frequency, ${SECS} s in tmux:"
echo "  xperf top: ${x}% of a core   perf top: ${p}% of a core   ratio $(ratio "$x" "$p")"
echo "  lost samples: xperf top $(lost_of xtopa)   perf top $(lost_of ptopa)"

# A big window: the busy process at 100 kHz for 40 s (some 1M samples on a quiet machine), one
# table at the end (-v gives the samples in its window and how long the refresh took: settle,
# print, age).
"$BUILD/xperf-top" --stdio -p "$BUSY" -F 100000 -d "${BENCH_WINDOW_SECS:-40}" --refreshes 1 -v \
	>/dev/null 2>"$T/v.err"
w=$(grep -o '[0-9]* samples in the window' "$T/v.err" | awk '{print $1}')
ms=$(grep -o '[0-9.]* ms to settle' "$T/v.err" | awk '{print $1}')
echo "refresh of a window of ${w:-?} samples (one process): ${ms:-?} ms (target < 50)"

# The whole machine for 5 s at 20 kHz: the entries are what ran (stripped programs give an
# entry per address, as in perf), and the refresh follows their number.
"$BUILD/xperf-top" --stdio -F 20000 -d 5 --refreshes 1 -v >/dev/null 2>"$T/a.err"
echo "refresh system-wide: $(grep -o '[0-9]* samples.*' "$T/a.err")"
