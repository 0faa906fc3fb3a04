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

tui_case "a pipe has no timeline: the message says to give --time" '
	need "$THREADS"
	pane t 120 30
	tm send-keys -t t "LANG=C.UTF-8 xperf report -i - <$THREADS; echo EXIT=\$?" Enter
	wait_screen t "^Press"
	keys t T
	wait_screen t "T: a pipe cannot be read again for the timeline: give --time"
	keys t q
	ended t 0
'

test_done
