#!/usr/bin/env bash
# xperf top's TUI, driven in tmux while samples stream: the status line, report's keys, q
# restoring the terminal. Each case has its own session on a private server; the pane runs a
# plain bash, so after top ends the same pane shows whether the terminal came back clean.
. "$(dirname "$0")/lib.sh"

PANE_COLS=120
. "$(dirname "$0")/lib_tui.sh"
trap 'tm kill-server >/dev/null 2>&1; kill $BUSY 2>/dev/null; rm -rf "$TEST_TMP"' EXIT

# the workload every case watches: work_a / work_b / work_c at 50 / 30 / 20 %
"$WL/shares" 600 >/dev/null 2>&1 & BUSY=$!
export BUSY

# top SESSION ARGS...: xperf top ARGS in the pane, until its first refresh is on screen
top() {
	local s=$1
	shift
	keys "$s" "LANG=C.UTF-8 xperf top $* ; echo EXIT=\$?" Enter
	wait_screen "$s" "PerfTop: .* irqs/sec" 20
}
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
