#!/usr/bin/env bash
# xperf top's TUI, driven in tmux while samples stream: the status line, report's keys, q
# restoring the terminal. Each case has its own session on a private server; the pane runs a
# plain bash, so after top ends the same pane shows whether the terminal came back clean.
. "$(dirname "$0")/lib.sh"

WL=$XPERF_BUILD/workloads
SOCK=$TEST_TMP/tmux.sock
tm() { tmux -S "$SOCK" "$@"; }
trap 'tm kill-server >/dev/null 2>&1; kill $BUSY 2>/dev/null; rm -rf "$TEST_TMP"' EXIT

why_skip=
if ! command -v tmux >/dev/null 2>&1; then
	why_skip="tmux is not installed (scripts/ensure-deps.sh installs it)"
elif ! xperf version | grep -q '+ncursesw'; then
	why_skip="this build has no TUI (built without ncursesw)"
fi
tui_case() {
	if [ -n "$why_skip" ]; then skip_case "$1" "$why_skip"; else test_case "$@"; fi
}
[ -z "$why_skip" ] && tm new-session -d -s keeper -x 80 -y 24 "sleep 100000"

# the workload every case watches: work_a / work_b / work_c at 50 / 30 / 20 %
"$WL/shares" 600 >/dev/null 2>&1 & BUSY=$!
export BUSY

screen() { tm capture-pane -p -t "$1"; }
wait_screen() {
	local i n=$((${3:-10} * 20))
	for ((i = 0; i < n; i++)); do
		screen "$1" | grep -qE -- "$2" && return 0
		sleep 0.05
	done
	echo "the screen never showed /$2/:"
	screen "$1"
	return 1
}
pane() {
	tm kill-session -t "$1" >/dev/null 2>&1 || :
	tm -u new-session -d -s "$1" -x "${2:-120}" -y "${3:-30}" -c "$PWD" \
		"env PS1='$ ' HISTFILE=/dev/null bash --norc --noprofile -i"
	wait_screen "$1" '^\$' 5
}
keys() { local s=$1; shift; tm send-keys -t "$s" "$@"; }
# top SESSION ARGS...: xperf top ARGS in the pane, until its first refresh is on screen
top() {
	local s=$1
	shift
	keys "$s" "LANG=C.UTF-8 xperf top $* ; echo EXIT=\$?" Enter
	wait_screen "$s" "PerfTop: .* irqs/sec" 20
}
ended() {
	wait_screen "$1" "^EXIT=($2)\$" 10
	[ "$(tm display -p -t "$1" '#{alternate_on}')" = 0 ] || fail "still on the alternate screen"
	keys "$1" 'stty -a | tr " ;" "\n\n" | grep -xE -- "-?(echo|icanon)" | LC_ALL=C sort | tr "\n" " "; echo' Enter
	wait_screen "$1" '^-?echo -?icanon *$' 5
	screen "$1" | grep -qxE 'echo icanon *' || fail "echo or icanon left off: $(screen "$1" | tail -n 2)"
}
entries() { screen "$1" | sed -n '3,$p' | sed '$d' | grep -E '^[-+ ] +[0-9]+\.[0-9]+%'; }
# the samples of the main view's title ("Samples: 4K of event ..."), as a number
samples_of() { screen "$1" | sed -n '1s/^Samples: \([0-9]*\)\(K\?\).*/\1 \2/p' |
	awk '{ print $2 == "K" ? $1 * 1000 : $1 }'; }

tui_case "the hottest function first, the status line with samples/s and lost samples" '
	pane t
	top t -p $BUSY -d 0.5
	wait_screen t "work_a"
	entries t | head -n 1 | grep -q work_a || fail "first entry: $(entries t | head -n 1)"
	screen t | tail -n 1 | grep -qE "PerfTop: +[0-9]+ irqs/sec .* lost: [0-9]+/[0-9]+" ||
		fail "status line: $(screen t | tail -n 1)"
	keys t q
	ended t 0
'

tui_case "samples stream: the counts grow from one refresh to the next" '
	pane t
	top t -p $BUSY -d 0.5
	a=$(samples_of t)
	sleep 1.5
	b=$(samples_of t)
	[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ] || fail "samples $a then $b"
	keys t q
	ended t 0
'

tui_case "the report keys while samples stream: / filters, d zooms into a DSO, Esc, q" '
	pane t
	top t -p $BUSY -d 0.5
	keys t / w o r k _ b Enter
	wait_screen t "Symbol: work_b"
	sleep 1.2 # two refreshes: the filter stays
	[ "$(entries t | grep -vc work_b)" = 0 ] || fail "other symbols shown: $(entries t)"
	keys t Escape
	wait_screen t "work_a"
	# the first entry is the hottest of the shares processes: d zooms into its DSO
	keys t Home
	keys t d
	wait_screen t "DSO: shares"
	sleep 1.2
	[ "$(entries t | grep -vc " shares ")" = 0 ] || fail "other DSOs shown: $(entries t)"
	keys t Escape
	keys t q
	ended t 0
'

tui_case "the flame graph and annotate of a live profile (-g), and back" '
	pane t
	top t -g -p $BUSY -d 0.5
	wait_screen t "work_a"
	keys t f
	wait_screen t "Flame graph"
	sleep 1.2 # refreshes held while the flame graph is open
	keys t q
	wait_screen t "PerfTop:"
	keys t /  w o r k _ a Enter
	wait_screen t "Symbol: work_a"
	keys t a
	wait_screen t "Tab: next hot" 10
	screen t | grep -qE "^ +[0-9]+\.[0-9]+% +[0-9a-f]+:" || fail "no instruction with a share: $(screen t)"
	keys t q
	wait_screen t "PerfTop:"
	keys t q
	ended t 0
'

tui_case "without -g, f and c say top runs without -g (not that a file lacks them)" '
	pane t
	top t -p $BUSY -d 0.5
	wait_screen t "work_a"
	keys t f
	wait_screen t "f: no call chains: top runs without -g"
	keys t c
	wait_screen t "c: no call chains: top runs without -g"
	keys t q
	ended t 0
'

tui_case "--refreshes 2: the TUI ends by itself after two refreshes, even in the flame graph" '
	pane t
	t0=$(date +%s%N)
	top t -g -p $BUSY -d 0.5 --refreshes 2
	keys t f
	ended t 0
	t1=$(date +%s%N)
	# the first refresh comes at 0.5 s, the second at 1 s, the end at 1.5 s
	[ $(( (t1 - t0) / 1000000 )) -lt 8000 ] || fail "took $(( (t1 - t0) / 1000000 )) ms"
'

tui_case "q restores the terminal (alternate screen off, echo and icanon back)" '
	pane t
	top t -d 0.5
	sleep 1
	keys t q
	ended t 0
'

test_done
