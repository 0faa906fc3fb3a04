#!/usr/bin/env bash
# The TUI library's live entry point, tui_browse() with an update callback (what xperf top
# shows its profile with), through tests/tools/tui-live.c in tmux: the update's new results
# drawn with the zooms and selection kept, its status line, no change of the profile while
# a sub-view holds it, a failing update ending the browser with its message.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/lib_tui.sh"
LIVE=$XPERF_BUILD/tests/tui-live

SHARES=$TEST_TMP/shares.data
CALLERS=$TEST_TMP/callers.data
if [ -z "$why_skip" ]; then
	xperf record -q -g -o "$SHARES" -- "$WL/shares" 0.5 >/dev/null 2>&1 || :
	xperf record -q -g -o "$CALLERS" -- "$WL/two_callers" 0.5 >/dev/null 2>&1 || :
fi

# live SESSION ARGS...: tui-live ARGS in the pane, until its main view shows
live() {
	local s=$1
	shift
	keys "$s" "LANG=C.UTF-8 $LIVE $* ; echo EXIT=\$?" Enter
	wait_screen "$s" "^Samples: " 20
}

tui_case "an update's new profile is drawn, with the source's status line" '
	need "$SHARES"
	need "$CALLERS"
	pane t
	live t "$SHARES" "$CALLERS"
	screen t | grep -q "\[\.\] work_a" || screen t | grep -q "shares " ||
		fail "not the first profile: $(screen t | head -n 4)"
	wait_screen t "\[\.\] caller_one" 5
	! screen t | grep -q "work_a" || fail "the first profile still shown"
	screen t | tail -n 1 | grep -qE "^live: [0-9]+ updates, 1 applied" ||
		fail "status line: $(screen t | tail -n 1)"
	keys t q
	ended t 0
	screen t | grep -qE "^updates [0-9]+ applied 1 held 0 status 0" || fail "$(screen t | tail -n 3)"
'

tui_case "a refresh keeps the zoom and the selected entry (the same keys)" '
	need "$SHARES"
	pane t
	live t -a 15 "$SHARES" "$SHARES"
	wait_screen t "^live: [0-9]+ updates, 0 applied" 5
	keys t / level Enter
	wait_screen t "Symbol: level" 5
	keys t Down Down
	wait_screen t " 3/8 *$" 5
	sel=$(screen t | sed -n 5p)
	screen t | grep -qE "^live: [0-9]+ updates, 0 applied" || fail "applied too soon to tell"
	wait_screen t "^live: [0-9]+ updates, 1 applied" 10
	screen t | sed -n 1p | grep -q "Symbol: level" || fail "zoom lost: $(screen t | sed -n 1p)"
	pos=$(screen t | tail -n 1 | grep -oE "[0-9]+/[0-9]+ *$")
	line=$(screen t | sed -n "$((2 + ${pos%%/*}))p")
	[ "$line" = "$sel" ] || fail "selected before: $sel, after: $line ($pos)"
	keys t q
	ended t 0
'

tui_case "while a sub-view is open the update is held: the profile changes after it" '
	need "$SHARES"
	need "$CALLERS"
	pane t
	live t -a 3 "$SHARES" "$CALLERS"
	keys t h
	wait_screen t "q or Esc: back" 5
	sleep 1.5
	screen t | grep -q "q or Esc: back" || fail "the key list did not stay"
	keys t q
	wait_screen t "\[\.\] caller_one" 5
	keys t q
	ended t 0
	line=$(screen t | grep -E "^updates [0-9]+ applied 1 held [0-9]+ status 0")
	held=$(sed -E "s/.* held ([0-9]+) .*/\1/" <<<"$line")
	[ "${held:-0}" -ge 3 ] || fail "held: ${held:-none} ($line)"
'

tui_case "a failing update ends the browser: its message, exit 2, a clean terminal" '
	need "$SHARES"
	pane t
	live t -f 3 "$SHARES" "$SHARES"
	ended t 2
	screen t | grep -q "^tui-live: error: the source failed after 3 updates" ||
		fail "no message: $(screen t | tail -n 4)"
'
