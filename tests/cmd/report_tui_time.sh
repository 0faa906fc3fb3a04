#!/usr/bin/env bash
# The TUI's timeline (T), driven in tmux (lib_tui.sh): when the samples fall, in all and per
# thread, and a range chosen there that every view then keeps, as --time.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_tui.sh"

THREADS=$TEST_TMP/threads.data
[ -z "$why_skip" ] && { xperf record -q -g -o "$THREADS" -- "$WL/threads" 0.5 >/dev/null 2>&1 || :; }

# samples_of <SCREEN: the sample count of the main view's title
title_samples() { sed -n "1s/^Samples: \\([0-9]*\\) .*/\\1/p"; }

tui_case "T: a strip for all and one per thread, the busiest first" '
	need "$THREADS"
	pane t 120 30
	tui t xperf report -i "$THREADS"
	keys t T
	wait_screen t "^Timeline: [0-9]+ samples of event .cpu-clock., [0-9.]+ s, [0-9.]+ ms a column"
	total=$(screen t | sed -n "1s/^Timeline: \\([0-9]*\\) samples.*/\\1/p")
	want=$(xperf script -F tid -i "$THREADS" 2>/dev/null | wc -l)
	[ "$total" = "$want" ] || fail "the timeline has $total samples, script $want"
	# per thread as script counts them: the busiest first
	a=$(screen t | sed -n "4s/^[^(]*(\\([0-9]*\\)).*/\\1/p")
	busiest=$(xperf script -F tid -i "$THREADS" 2>/dev/null | sort | uniq -c | sort -k1,1nr | head -n 1 | awk "{ print \$2 }")
	[ "$a" = "$busiest" ] || fail "first thread row $a, the busiest $busiest"
	screen t | sed -n 3p | grep -qE "^all +[▁▂▃▄▅▆▇█ ]+" || fail "no strip for all: $(screen t | sed -n 3p)"
	# the two busy threads of the workload have strips
	screen t | grep -qE "^xp-thread-a\\([0-9]+\\) +[▁▂▃▄▅▆▇█]" || fail "no thread-a strip: $(screen t)"
	screen t | grep -qE "^xp-thread-b\\([0-9]+\\) +[▁▂▃▄▅▆▇█]" || fail "no thread-b strip"
	keys t Escape
	wait_screen t "^Press"
	keys t q
	ended t 0
'

tui_case "a range marked with Space and Enter: every view keeps its samples, as --time" '
	need "$THREADS"
	pane t 120 30
	tui t xperf report -i "$THREADS"
	keys t T
	wait_screen t "^Timeline: "
	keys t Enter
	wait_screen t "Space marks where the range starts"
	keys t Space Right Right Right Right Right Right Right Right Right Right
	wait_screen t "^Range: +0\\.000 s to [0-9.]+ s: [0-9]+ samples"
	range=$(screen t | sed -n "2s/.*: \\([0-9]*\\) samples.*/\\1/p")
	keys t Enter
	wait_screen t "^Samples: .*, Time: [0-9]+\\.[0-9]{9},[0-9]+\\.[0-9]{9}"
	time=$(screen t | sed -n "1s/.*, Time: \\([0-9.]*,[0-9.]*\\).*/\\1/p")
	got=$(screen t | title_samples)
	# the same --time on the stdio report: the same samples, the same first entries
	want=$(xperf report --stdio --time "$time" -i "$THREADS" 2>/dev/null |
		sed -n "s/^# Samples: \\([0-9]*\\) .*/\\1/p" | head -n 1)
	echo "range $range, TUI $got, stdio --time $time: $want"
	[ "$got" = "$want" ] && [ "$got" = "$range" ] || fail "range $range, TUI $got, stdio $want"
	[ "$got" -gt 0 ] || fail "no samples in the range"
	xperf report --stdio -q --time "$time" -i "$THREADS" 2>/dev/null | grep -E "^ +[0-9.]+%" |
		awk "{ \$1 = \$1; print }" | head -n 3 >stdio.rows
	entries t | head -n 3 | sed "s/^[-+]//" | awk "{ \$1 = \$1; print }" >tui.rows
	diff stdio.rows tui.rows || fail "the entries differ from the stdio view"
	# the timeline shows the range in effect; r takes every sample again
	keys t T
	wait_screen t "^Timeline: .*, now --time $time"
	wait_screen t "^Range: +0\\.000 s"
	keys t r
	wait_screen t "^Samples: [0-9.]+K? +of event .cpu-clock., Event count \\(approx\\.\\): [0-9]+$"
	keys t q
	ended t 0
'

# same_screen A B WHAT: the two panes show the same screen (a range applied in one, --time
# given to the other), once both have drawn it (a loaded machine draws late). Entries of
# equal shares may come in either order from one run to the next (the view's order of
# ties follows the order the pass met them in, which the kernel's symbols being read on a
# thread varies): then the same lines, and the same shares line by line, will do.
shares() { sed -E 's/^([-+ ] +[0-9.]+%( +[0-9.]+%)?).*/\1/' "$1"; }
same_screen() {
	local i
	for ((i = 0; i < 50; i++)); do
		screen "$1" >"$1.screen"
		screen "$2" >"$2.screen"
		diff "$1.screen" "$2.screen" >/dev/null && return 0
		diff <(sort "$1.screen") <(sort "$2.screen") >/dev/null &&
			diff <(shares "$1.screen") <(shares "$2.screen") >/dev/null && return 0
		sleep 0.1
	done
	fail "$3: the screens differ: $(diff "$1.screen" "$2.screen")"
}

# pick_range SESSION: in the timeline, a range from a tenth of the width to four tenths
# (PgDn moves a tenth); echoes its --time
pick_range() {
	keys "$1" T
	wait_screen "$1" "^Timeline: "
	keys "$1" Home NPage Space NPage NPage NPage
	wait_screen "$1" "^Range: +[0-9.]+ s to [0-9.]+ s: [0-9]+ samples"
	keys "$1" Enter
	wait_screen "$1" "^Samples: .*, Time: [0-9]+\\.[0-9]{9},[0-9]+\\.[0-9]{9}"
	screen "$1" | sed -n "1s/.*, Time: \\([0-9.]*,[0-9.]*\\).*/\\1/p"
}

tui_case "Enter shows what --time shows: the same screen, filters and totals too" '
	need "$THREADS"
	# without children the first entry has self samples, which annotate shows
	for filt in "" "--no-children --comms xp-thread-a" \
		"--no-children --hide-unresolved --sort dso,sym"; do
		pane t 120 30
		tui t xperf report $filt -i "$THREADS"
		time=$(pick_range t)
		[ -n "$time" ] || fail "no range applied"
		pane u 120 30
		tui u xperf report $filt --time "$time" -i "$THREADS"
		same_screen t u "filters \"$filt\", --time $time"
		# annotate the first entry: the same hits
		keys t Home a
		keys u Home a
		wait_screen t "^Annotate "
		wait_screen u "^Annotate "
		case $filt in
		--no-children*) screen t | grep -qE "^Annotate .*: [1-9][0-9]* samples" ||
			fail "no samples annotated: $(screen t | head -n 3)" ;;
		esac
		same_screen t u "annotate, filters \"$filt\""
		keys t q q
		keys u q q
		ended t 0
		ended u 0
	done
'

tui_case "a pipe has a timeline too: its range shows what --time shows" '
	need "$THREADS"
	pane t 120 30
	tm send-keys -t t "LANG=C.UTF-8 xperf report -i - <$THREADS; echo EXIT=\$?" Enter
	wait_screen t "^Press"
	keys t T
	wait_screen t "^Timeline: [0-9]+ samples of event"
	total=$(screen t | sed -n "1s/^Timeline: \\([0-9]*\\) samples.*/\\1/p")
	want=$(xperf script -F tid -i "$THREADS" 2>/dev/null | wc -l)
	[ "$total" = "$want" ] || fail "the timeline has $total samples, script $want"
	keys t Escape
	wait_screen t "^Press"
	time=$(pick_range t)
	pane u 120 30
	tui u xperf report --time "$time" -i "$THREADS"
	same_screen t u "a pipe, --time $time"
	keys t q
	keys u q
	ended t 0
	ended u 0
'

tui_case "opened with --time, the timeline still shows every sample; r takes them all" '
	need "$THREADS"
	pane t 120 30
	tui t xperf report --time 10%-50% -i "$THREADS"
	wait_screen t "^Samples: .*, Time: 10%-50%"
	keys t T
	wait_screen t "^Timeline: [0-9]+ samples of event .*, now --time 10%-50%"
	total=$(screen t | sed -n "1s/^Timeline: \\([0-9]*\\) samples.*/\\1/p")
	want=$(xperf script -F tid -i "$THREADS" 2>/dev/null | wc -l)
	[ "$total" = "$want" ] || fail "the timeline has $total samples, script $want"
	keys t r
	wait_screen t "^Samples: [0-9.]+K? +of event .cpu-clock., Event count \\(approx\\.\\): [0-9]+$"
	pane u 120 30
	tui u xperf report -i "$THREADS"
	same_screen t u "every sample again"
	keys t q
	keys u q
	ended t 0
	ended u 0
'

test_done
