#!/usr/bin/env bash
# Event groups in the TUI, driven in tmux (lib_tui.sh): a group's events side by side in one
# main view, as perf's TUI shows them, and --group / --no-group.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_tui.sh"

GRP=$TEST_TMP/group.data
TWO=$TEST_TMP/two_events.data
if [ -z "$why_skip" ]; then
	xperf record -q -g -e '{cpu-clock,page-faults}' -o "$GRP" -- "$WL/shares" 0.5 >/dev/null 2>&1 || :
	xperf record -q -e cpu-clock,task-clock -o "$TWO" -- "$WL/shares" 0.3 >/dev/null 2>&1 || :
fi

# A case that also needs perf (its TUI is the oracle).
tui_perf_case() {
	if [ -z "$why_skip" ] && ! have_perf; then skip_case "$1" "/usr/bin/perf is absent"
	else tui_case "$@"; fi
}

# top_lines SESSION N: the title, the column titles and the first N - 2 entry lines
top_lines() { screen "$1" | head -n "$2" | sed 's/ *$//'; }

tui_perf_case "{cpu-clock,page-faults}: one main view, the members side by side, as perf's TUI" '
	need "$GRP"
	# wide enough that neither cuts a line
	pane p 200 40
	tm send-keys -t p "perf report -i $GRP" Enter
	wait_screen p "^Samples: .* of events .anon group \\{ cpu-clock, page-faults \\}." 30
	wait_screen p "^\\+ +[0-9.]+%" 30
	top_lines p 20 >want
	tm send-keys -t p q
	pane t 200 40
	tui t xperf report -i "$GRP"
	top_lines t 20 >got
	cat got
	diff want got || fail "the screens differ (perf: <, xperf: >)"
	# Self and Children of both members: four shares before the command
	grep -qE "^  +Children +Self  Command" got || fail "no Children and Self titles"
	sed -n 3p got | grep -qE "^\\+ +[0-9.]+% +[0-9.]+% +[0-9.]+% +[0-9.]+%  shares " ||
		fail "not four shares: $(sed -n 3p got)"
	keys t q
	ended t 0
'

tui_perf_case "a group with --no-children and -n: Overhead and Samples of each member, as perf" '
	need "$GRP"
	pane p 200 40
	tm send-keys -t p "perf report --no-children -n -i $GRP" Enter
	wait_screen p "^\\+ +[0-9.]+%" 30
	top_lines p 12 >want
	tm send-keys -t p q
	pane t 200 40
	tui t xperf report --no-children -n -i "$GRP"
	top_lines t 12 >got
	cat got
	diff want got || fail "the screens differ (perf: <, xperf: >)"
	keys t q
	ended t 0
'

tui_perf_case "a group with --show-total-period: the Period of each member, as perf" '
	need "$GRP"
	pane p 200 40
	tm send-keys -t p "perf report --no-children --show-total-period -i $GRP" Enter
	wait_screen p "^\\+ +[0-9.]+%" 30
	top_lines p 12 >want
	tm send-keys -t p q
	pane t 200 40
	tui t xperf report --no-children --show-total-period -i "$GRP"
	top_lines t 12 >got
	grep -q "Period" got || fail "no Period column: $(head -n 2 got)"
	diff want got || fail "the screens differ (perf: <, xperf: >)"
	keys t q
	ended t 0
'

tui_case "a group: Enter unfolds the chains of its leader, P saves the side-by-side lines" '
	need "$GRP"
	pane t
	tui t xperf report --no-children -i "$GRP"
	# work_a leads (its own cpu-clock samples); its chain goes down to main
	entries t | head -n 1 | grep -q "work_a" || fail "$(entries t | head -n 1)"
	keys t Enter
	wait_screen t "do_round"
	keys t P
	wait_screen t "lines saved to xperf.hist.0"
	head -n 1 xperf.hist.0 | grep -qE "^- +[0-9.]+% +[0-9.]+%  shares +shares +\\[\\.\\] work_a" ||
		fail "$(head -n 1 xperf.hist.0)"
	grep -q "do_round" xperf.hist.0 || fail "no chain in the saved lines"
	keys t q
	ended t 0
'

tui_perf_case "--group on a file of two events: side by side, as perf; no chains: no fold marker" '
	need "$TWO"
	pane p 200 40
	tm send-keys -t p "perf report --group -i $TWO" Enter
	wait_screen p "^ +[0-9.]+% +[0-9.]+%  shares " 30
	top_lines p 12 >want
	tm send-keys -t p q
	pane t 200 40
	tui t xperf report --group -i "$TWO"
	top_lines t 12 >got
	cat got
	diff want got || fail "the screens differ (perf: <, xperf: >)"
	grep -q "^Samples: .* of events .cpu-clock, task-clock., Event count" got || fail "title"
	keys t Tab
	wait_screen t "^Tab: the file has one event with samples"
	keys t q
	ended t 0
'

tui_case "--no-group on a group: the event list, each member alone" '
	need "$GRP"
	pane t
	tui t xperf report --no-group -i "$GRP"
	wait_screen t "^Available samples: 2 events"
	wait_screen t "samples of event .cpu-clock."
	wait_screen t "samples of event .page-faults."
	keys t Enter
	wait_screen t "^Samples: .* of event .cpu-clock., Event count"
	keys t q
	ended t 0
'

test_done
