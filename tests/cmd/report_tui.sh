#!/usr/bin/env bash
# xperf report's TUI, driven in tmux (lib_tui.sh): keys sent with send-keys, assertions on
# what a person sees (capture-pane).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_tui.sh"

# The profiles the cases browse, recorded once.
SHARES=$TEST_TMP/shares.data
CALLERS=$TEST_TMP/callers.data
TWO=$TEST_TMP/two_events.data
OFF=$TEST_TMP/offcpu.data
THREADS=$TEST_TMP/threads.data
if [ -z "$why_skip" ]; then
	xperf record -q -g -o "$THREADS" -- "$WL/threads" 0.5 >/dev/null 2>&1 || :
	xperf record -q -g -o "$SHARES" -- "$WL/shares" 1 >/dev/null 2>&1 || :
	xperf record -q -g -o "$CALLERS" -- "$WL/two_callers" 1 >/dev/null 2>&1 || :
	xperf record -q -g -e cpu-clock,task-clock -o "$TWO" -- "$WL/shares" 0.5 >/dev/null 2>&1 || :
	# on- and off-CPU time (report --wall): 50% computing, 30% asleep, 20% waiting on a pipe
	xperf record -q -g --off-cpu -e cpu-clock -o "$OFF" -- "$WL/offcpu" 10 cpu >/dev/null \
		2>"$OFF.err" || rm -f "$OFF"
fi

# The TUI KEYS section of the manual as "KEYS|WHAT" lines, headings as "Heading:"
doc_keys() {
	awk '/^\.SH TUI KEYS/ { on = 1; next } /^\.SH/ { on = 0 } !on { next }
	     /^\.SS/ { sub(/^\.SS +/, ""); print $0 ":"; next }
	     /^\.TP/ { k = 1; next }
	     k == 1 { sub(/^\.B +/, ""); key = $0; k = 2; next }
	     k == 2 { print key "|" $0; k = 0 }' "$TOP/docs/xperf-report.1" | sed 's/\\-/-/g'
}
# The h screen (from the line after its title to the status line) in the same form
help_keys() {
	sed -n '2,/^q or Esc: back/p' | sed '$d' | grep -v '^ *$' |
		sed -E 's/^  ([^ ]|[^ ].*[^ ]) {2,}(.*)$/\1|\2/; s/ +$//'
}

tui_case "default on a terminal: the TUI, hottest function (work_a) on the first entry line" '
	need "$SHARES"
	pane t
	tui t xperf report --no-children -i "$SHARES"
	screen t | sed -n 1p | grep -q "^Samples: .* of event .cpu-clock." || fail "no title line"
	screen t | sed -n 3p | grep -q "\[\.\] work_a *$" || fail "line 3: $(screen t | sed -n 3p)"
	keys t q
	ended t 0
'

tui_case "a pipe, --stdio and TERM=dumb get the stdio view" '
	need "$SHARES"
	xperf report -i "$SHARES" | grep -q "^# Samples: " || fail "pipe: no stdio report"
	pane t
	keys t "TERM=dumb xperf report -i \"$SHARES\" | cat > dumb.txt; xperf report --stdio -i \"$SHARES\" > /dev/null; echo EXIT=\$?" Enter
	wait_screen t "^EXIT=0" 20
	keys t "TERM=dumb xperf report --no-children -g none --percent-limit 10 -i \"$SHARES\"; echo DUMB=\$?" Enter
	wait_screen t "^DUMB=0" 20
	screen t | grep -q "^# Samples: " || fail "TERM=dumb did not print the stdio view"
	[ "$(tm display -p -t t "#{alternate_on}")" = 0 ]
'

tui_case "--tui without a terminal: an error naming why, exit 1" '
	need "$SHARES"
	rc=0
	xperf report --tui -i "$SHARES" >out 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"
	grep -q "error: --tui: standard output is not a terminal" err
	rc=0
	xperf report --tui --stdio -i "$SHARES" >out 2>err || rc=$?
	[ $rc -eq 1 ] || fail "--tui --stdio: exit $rc"
'

tui_case "Enter unfolds an entry's call chain and folds it again" '
	need "$SHARES"
	pane t
	tui t xperf report --no-children -i "$SHARES"
	screen t | sed -n 3p | grep -q "^+ .*work_a" || fail "work_a is not a folded entry"
	screen t | sed -n 4p | is_entry || fail "line 4 is not an entry before unfolding"
	keys t Enter
	wait_screen t "^- .*work_a"
	# callee order: the chain under work_a goes up through do_round and level8 to main
	chain=$(screen t | sed -n "4,\$p" | chain_lines)
	grep -q "do_round" <<<"$chain" || fail "no do_round in the chain: $chain"
	grep -q "level8" <<<"$chain" || fail "no level8 in the chain: $chain"
	keys t Enter
	wait_screen t "^\+ .*work_a"
	screen t | sed -n 4p | is_entry || fail "the chain is still shown after folding"
	keys t q
	ended t 0
'

tui_case "E unfolds every chain, C folds them, e one entry's whole chain (UTF-8 lines)" '
	need "$SHARES"
	pane t
	tui t xperf report -i "$SHARES"
	keys t E
	wait_screen t "└─"
	# every line, saved with P: no entry left folded, and a chain under several
	keys t P
	wait_screen t "saved to xperf.hist.0"
	! grep -q "^+" xperf.hist.0 || fail "folded entries left: $(grep "^+" xperf.hist.0 | head -n 3)"
	[ "$(grep -c "^-" xperf.hist.0)" -ge 3 ] || fail "$(grep -c "^-" xperf.hist.0) entries unfolded"
	keys t C
	wait_screen t "^\+ "
	! screen t | grep -q "└─" || fail "C left chains unfolded"
	keys t Home e
	wait_screen t "└─"
	screen t | grep -q "work_a" || fail "e did not unfold down to work_a"
	keys t q
	ended t 0
'

tui_case "ASCII line drawing outside a UTF-8 locale" '
	need "$SHARES"
	pane t
	tm send-keys -t t "LC_ALL=C xperf report -i \"$SHARES\"; echo EXIT=\$?" Enter
	wait_screen t "^Press"
	keys t E
	wait_screen t "^ +\`-"
	! screen t | grep -q "[└├│]" || fail "UTF-8 lines in the C locale"
	keys t q
	ended t 0
'

tui_case "/ filters the symbols: the one searched for, and only it" '
	need "$SHARES"
	pane t
	tui t xperf report -i "$SHARES"
	keys t / w o r k _ b Enter
	wait_screen t "Symbol: work_b"
	entries t | grep -q "work_b" || fail "work_b not shown"
	[ "$(entries t | grep -vc "work_b")" = 0 ] || fail "other symbols shown: $(entries t)"
	keys t Escape
	wait_screen t "work_a"
	keys t q
	ended t 0
'

tui_case "d zooms into the selected entry's DSO and hides the others; Esc zooms out; k, K, t" '
	need "$SHARES"
	pane t
	tui t xperf report -i "$SHARES"
	entries t | grep -q "libc\.so" || fail "no libc entry to hide"
	# the second entry is main, in the shares program
	keys t Down
	keys t d
	wait_screen t "DSO: shares"
	[ "$(entries t | awk "\$4 != \"shares\"" | wc -l)" = 0 ] || fail "other DSOs shown: $(entries t)"
	entries t | grep -q "work_a" || fail "work_a hidden"
	keys t Escape
	wait_screen t "libc\.so"
	keys t k
	wait_screen t "Kernel only"
	[ "$(entries t | grep -vc "\[k\]")" = 0 ] || fail "user entries with k: $(entries t)"
	keys t K
	wait_screen t "zoom out"
	keys t K
	wait_screen t "Kernel only"
	keys t Left t
	wait_screen t "Command: shares"
	keys t q
	ended t 0
'

tui_case "the sort keys of the table (time, socket, symbol_size, addr) are the TUI columns too" '
	need "$THREADS"
	pane k
	tui k xperf report --no-children -g none --sort time,socket,symbol_size,addr -i "$THREADS"
	screen k | grep -q "Time *Socket *Symbol size *Address" || fail "titles: $(screen k | head -n 3)"
	# the TUI rows are the stdio rows: the same keys, the same shares, in the same order
	xperf report --stdio -q --no-children -g none --sort time,socket,symbol_size,addr \
		-i "$THREADS" 2>/dev/null | awk "NF { \$1 = \$1; print }" | head -n 5 >stdio.rows
	entries k | head -n 5 | awk "{ \$1 = \$1; print }" >tui.rows
	[ -s tui.rows ] || fail "no entries: $(screen k)"
	diff stdio.rows tui.rows >rows.diff || fail "TUI and stdio differ: $(cat rows.diff)"
	keys k q
	ended k 0
'

tui_case "t zooms into the selected thread with --sort pid, and the flame view follows" '
	need "$THREADS"
	pane t
	tui t xperf report --no-children --sort pid,sym -i "$THREADS"
	# the first entry is one of the two worker threads; its tid leads the Pid:Command column
	tid=$(entries t | head -n 1 | awk "{ split(\$3, a, \":\"); print a[1] }")
	name=$(entries t | head -n 1 | awk "{ split(\$3, a, \":\"); print a[2] }")
	case $name in xp-thread-[ab]) ;; *) fail "first entry: $(entries t | head -n 1)" ;; esac
	entries t | grep -qv " $tid:" || fail "only one thread before the zoom"
	keys t t
	wait_screen t "Thread: $name\\($tid\\)"
	[ "$(entries t | grep -vc " $tid:")" = 0 ] || fail "other threads shown: $(entries t)"
	keys t f
	wait_screen t "^Flame graph: .*, Thread: $name\\($tid\\)"
	screen t | grep -q "\[${name%_*}" || fail "no frame of $name: $(screen t)"
	other=xp-thread-a
	[ "$name" = xp-thread-a ] && other=xp-thread-b
	! screen t | grep -q "\[$other" || fail "the other thread drawn: $(screen t)"
	keys t Escape
	wait_screen t "Thread: $name"
	keys t t
	wait_screen t "zoom out"
	keys t q
	ended t 0
'

tui_case "flame graph: work_a wider than work_b wider than work_c, widest first" '
	need "$SHARES"
	pane t
	tui t xperf report -i "$SHARES"
	keys t f
	wait_screen t "^Flame graph"
	row=$(screen t | grep "\[work_a" | head -n 1)
	[ -n "$row" ] || fail "no work_a frame: $(screen t)"
	wa=$(frame_width "$row" work_a) wb=$(frame_width "$row" work_b) wc=$(frame_width "$row" work_c)
	echo "widths: work_a $wa, work_b $wb, work_c $wc"
	[ "$wa" -gt "$wb" ] && [ "$wb" -gt "$wc" ] && [ "$wc" -gt 0 ] || fail "widths out of order: $row"
	[ "$(frame_pos "$row" work_a)" -lt "$(frame_pos "$row" work_b)" ] &&
		[ "$(frame_pos "$row" work_b)" -lt "$(frame_pos "$row" work_c)" ] || fail "not widest first: $row"
	# below them their caller, do_round, as wide as the three together
	screen t | grep -q "\[do_round" || fail "no do_round row"
	# opened on the selected entry (libc start code): Up climbs the widest callees to work_a
	for i in $(seq 15); do
		screen t | tail -n 1 | grep -q "^work_a: " && break
		keys t Up
		sleep 0.1
	done
	wait_screen t "^work_a: [0-9.]+% "
	keys t Enter
	wait_screen t "zoom: work_a"
	keys t Escape
	wait_screen t "^Flame graph: [^,]*$"
	keys t Escape
	wait_screen t "^Press"
	keys t q
	ended t 0
'

tui_case "flame graph after a main-view zoom: only the samples the main view shows" '
	need "$SHARES"
	pane t
	tui t xperf report -i "$SHARES"
	keys t / w o r k _ b Enter
	wait_screen t "Symbol: work_b"
	keys t f
	wait_screen t "^Flame graph: .*, Symbol: work_b"
	screen t >view
	row=$(grep "\[work_b" view | head -n 1)
	[ -n "$row" ] || fail "no work_b frame: $(cat view)"
	! grep -q "\[work_a\|\[work_c" view || fail "frames the zoom hides are drawn: $(cat view)"
	# the only stacks left end in work_b: it is as wide as its caller do_round
	wb=$(frame_width "$row" work_b)
	dr=$(frame_width "$(grep "\[do_round" view | head -n 1)" do_round)
	echo "widths: work_b $wb, do_round $dr"
	[ "$wb" -gt 60 ] && [ "$wb" = "$dr" ] || fail "work_b $wb columns, do_round $dr"
	keys t Escape
	wait_screen t "Symbol: work_b"
	keys t q
	ended t 0
'

tui_case "flame graph: the title names the event shown, under --wall both merged" '
	need "$TWO"
	pane t
	tui t xperf report --no-children -i "$TWO"
	keys t Down Enter
	wait_screen t "^Samples: .* of event .task-clock."
	keys t f
	wait_screen t "^Flame graph: [0-9.KM]+ +samples of event .task-clock.$"
	keys t q
	wait_screen t "^Samples: .* of event .task-clock."
	keys t q
	ended t 0
	[ -s "$OFF" ] || skip "no off-CPU recording (sched tracepoints): $(tail -n 1 "$OFF.err")"
	pane u
	tui u xperf report --wall -i "$OFF"
	wait_screen u "^Samples: .* of event .cpu-clock \+ offcpu-time."
	keys u f
	wait_screen u "^Flame graph: [0-9.KM]+ +samples of event .cpu-clock \+ offcpu-time.$"
	# the time asleep is drawn: the graph is of both
	screen u | grep -q "\[sleep_a_while" || fail "no sleep_a_while frame: $(screen u)"
	keys u q
	wait_screen u "^Press"
	keys u q
	ended u 0
'

tui_case "flame graph: / highlights the frames that match and gives their share" '
	need "$SHARES"
	pane t
	tui t xperf report -i "$SHARES"
	keys t f
	wait_screen t "^Flame graph"
	keys t /
	wait_screen t "^Search frames"
	keys t w o r k _ a Enter
	wait_screen t "^Matched .work_a.: [0-9.]+% \| "
	got=$(screen t | tail -n 1 | sed -n "s/^Matched .work_a.: \([0-9.]*\)% .*/\1/p")
	want=$(xperf report --stdio --children -g none --sort sym -i "$SHARES" |
		awk "\$NF == \"work_a\" { sub(/%/, \"\", \$1); print \$1 }")
	echo "matched $got%, report $want%"
	awk -v a="$got" -v b="$want" "BEGIN { d = a - b; if (d < 0) d = -d; exit d > 0.3 }" ||
		fail "matched $got%, the report $want%"
	# the matched frame in the search colour (white on green), the others not
	tm capture-pane -e -p -t t >colours
	grep -q "42m\[work_a" colours ||
		fail "work_a not highlighted: $(grep -o ".\{12\}\[work_a" colours | head -n 1 | od -c | head -n 3)"
	! grep -q "42m\[work_b" colours || fail "work_b highlighted"
	# an empty search clears it: the status line names the selected frame first again
	keys t / Enter
	wait_screen t "^[^ ]+: [0-9.]+% \([0-9]+ samples\)"
	keys t q
	wait_screen t "^Press"
	keys t q
	ended t 0
'

tui_case "flame graph: n and N go from one highlighted frame to the next, round the end" '
	need "$SHARES"
	pane t
	tui t xperf report -i "$SHARES"
	keys t f
	wait_screen t "^Flame graph"
	keys t n
	wait_screen t "nothing searched for yet: / asks for a text"
	keys t / w o r k _ Enter
	wait_screen t "^Matched .work_.: "
	# work_a, work_b, work_c side by side, left to right (widest first); a stray sample
	# may draw one more
	keys t n
	wait_screen t "\| match 1 of [0-9]+ \| work_a: [0-9.]+%"
	n=$(screen t | tail -n 1 | sed -n "s/.*| match 1 of \([0-9]*\) |.*/\1/p")
	[ "$n" -ge 3 ] || fail "$n matches"
	: >visited
	for ((i = 2; i <= n; i++)); do
		keys t n
		wait_screen t "\| match $i of $n \| "
		screen t | tail -n 1 >>visited
	done
	grep -q "| work_b: " visited || fail "n never selected work_b: $(cat visited)"
	grep -q "| work_c: " visited || fail "n never selected work_c: $(cat visited)"
	keys t n
	wait_screen t "\| match 1 of $n \(round the end\) \| work_a: "
	keys t N
	wait_screen t "\| match $n of $n \(round the end\) \| "
	keys t N
	wait_screen t "\| match $((n - 1)) of $n \| "
	# the selected frame is drawn in the selection colour, the other matches highlighted
	keys t N
	wait_screen t "\| match $((n - 2)) of $n \| "
	tm capture-pane -e -p -t t >colours
	sel=$(screen t | tail -n 1 | sed -n "s/.*| \(work_[a-c]\): .*/\1/p")
	[ -n "$sel" ] || fail "no work_ frame selected: $(screen t | tail -n 1)"
	! grep -q "42m\[$sel" colours || fail "$sel still in the search colour, not selected"
	# (two matches side by side share one colour change)
	grep -q "42m\[work_[a-c]" colours || fail "the other matches not highlighted"
	# a text no frame has
	keys t / z z z Enter n
	wait_screen t "no frame drawn matches .zzz."
	keys t q
	wait_screen t "^Press"
	keys t q
	ended t 0
'

tui_case "flame graph: i flips it to an icicle graph, --flamegraph-inverted opens so" '
	need "$SHARES"
	pane t
	tui t xperf report -i "$SHARES"
	keys t f
	wait_screen t "^Flame graph"
	screen t | sed -n 29p | grep -q "^\[all" || fail "the root is not at the bottom: $(screen t | sed -n 29p)"
	keys t i
	wait_screen t "^Icicle graph: "
	screen t | sed -n 2p | grep -q "^\[all" || fail "the root is not on top: $(screen t | sed -n 2p)"
	# the arrows follow the screen: Up goes to the caller, down to the widest callee
	for i in $(seq 15); do
		screen t | tail -n 1 | grep -q "^all: " && break
		keys t Up
		sleep 0.1
	done
	wait_screen t "^all: "
	keys t Down
	wait_screen t "^shares: "
	keys t i
	wait_screen t "^Flame graph: "
	keys t q
	wait_screen t "^Press"
	keys t q
	ended t 0
	pane u
	tui u xperf report --flamegraph-inverted -i "$SHARES"
	keys u f
	wait_screen u "^Icicle graph: "
	keys u q
	wait_screen u "^Press"
	keys u q
	ended u 0
'

tui_case "caller/callee view: shared_work's two callers, caller_one first, and its callee" '
	need "$CALLERS"
	pane t
	tui t xperf report -i "$CALLERS"
	keys t / s h a r e d _ w o r k Enter
	wait_screen t "Symbol: shared_work"
	keys t c
	wait_screen t "^Callers and callees of shared_work"
	screen t >view
	callers=$(side 1 <view | grep -v shared_work)
	callees=$(side 2 <view)
	grep -q "caller_one" <<<"$callers" || fail "caller_one not among the callers"
	grep -q "caller_two" <<<"$callers" || fail "caller_two not among the callers"
	[ "$(grep -n caller_one <<<"$callers" | cut -d: -f1)" -lt "$(grep -n caller_two <<<"$callers" | cut -d: -f1)" ] ||
		fail "caller_one (2/3 of the calls) is not above caller_two"
	one=$(grep caller_one <<<"$callers" | awk "{ print \$1 + 0 }")
	two=$(grep caller_two <<<"$callers" | awk "{ print \$1 + 0 }")
	awk -v a="$one" -v b="$two" "BEGIN { exit !(a > b && b > 0) }" || fail "shares $one <= $two"
	grep -q "leaf_work" <<<"$callees" || fail "leaf_work not among the callees"
	# Enter on a caller shows its own callers and callees
	keys t Up Up Enter
	wait_screen t "^Callers and callees of caller_"
	keys t Escape
	wait_screen t "^Callers and callees of shared_work"
	keys t q
	wait_screen t "^Press"
	keys t q
	ended t 0
'

tui_case "a annotates work_a: the hottest instruction with its share, its source line above" '
	need "$SHARES"
	"$XPERF_BUILD/xperf" version | grep -q "+capstone\|+zydis" || skip "this build has no disassembler"
	pane t
	tui t xperf report --no-children -i "$SHARES"
	keys t a
	wait_screen t "^Annotate work_a \(shares\): [0-9]+ samples"
	screen t >view
	# as perf'"'"'s TUI: the global by name, a jump inside the function by its address alone
	grep -Eq "mov +sink,%r8" view || fail "sink not named: $(grep "mov " view)"
	grep -Eq "jne +[0-9a-f]+ +\^" view || fail "the loop'"'"'s jump: $(grep "jne" view)"
	# the line and share of the instruction with the largest share
	read -r pct best < <(awk "/^ +[0-9]+\.[0-9]+% / { v = \$1 + 0; if (v > m) { m = v; n = NR } }
				  END { print n + 0, m + 0 }" view)
	[ "$pct" -gt 0 ] || fail "no instruction with a share: $(cat view)"
	awk -v b="$best" "BEGIN { exit !(b >= 20) }" || fail "the hottest share is $best%"
	line=$(grep -n "shares.c:[0-9]" view | head -n 1 | cut -d: -f1)
	[ -n "$line" ] || fail "no source line of shares.c"
	[ "$line" -lt "$pct" ] || fail "the source line ($line) is not above the hottest instruction ($pct)"
	keys t Escape
	wait_screen t "^Press"
	keys t q
	ended t 0
'

tui_case "annotate: t shows period and samples, s the source lines with totals, / and n search" '
	need "$SHARES"
	"$XPERF_BUILD/xperf" version | grep -q "+capstone\|+zydis" || skip "this build has no disassembler"
	"$XPERF_BUILD/xperf" version | grep -q "+libdw" || skip "this build reads no source lines"
	pane t 120 30
	tui t xperf report --no-children -i "$SHARES"
	keys t a
	wait_screen t "^Annotate work_a \(shares\): [0-9]+ samples"
	samples=$(screen t | sed -n 1p | sed -E "s/.*: ([0-9]+) samples.*/\1/")
	# t: period (no % sign), then samples: the instructions'"'"' samples add up to the title'"'"'s
	keys t t
	wait_screen t "showing period"
	! screen t | grep -qE "^ +[0-9]+\.[0-9]+% " || fail "still percent: $(screen t)"
	keys t t
	wait_screen t "showing samples"
	sum=$(screen t | sed -n "2,\$p" | awk "/^ +[0-9]+ +[0-9a-f]+:/ { s += \$1 } END { print s + 0 }")
	[ "$sum" = "$samples" ] || fail "samples on screen $sum, title $samples: $(screen t)"
	keys t t
	wait_screen t "showing percent"
	# s: the source lines, each once, with the share of its instructions
	keys t s
	wait_screen t "^Source of work_a \(shares\): [0-9]+ samples, [0-9]+ lines"
	screen t | grep -E "^ +[0-9]+\.[0-9]+% +shares\.c:[0-9]+ " >src || fail "no source line: $(screen t)"
	awk "{ s += \$1 } END { exit !(s > 99.9 && s < 100.1) }" src || fail "shares of the lines: $(cat src)"
	keys t Enter
	wait_screen t "^Annotate work_a"
	# / searches, n goes on, a text not there is said
	keys t / imul Enter
	wait_screen t "^Tab: next hot"
	keys t / zzzq Enter
	wait_screen t "zzzq. not found"
	keys t Escape
	wait_screen t "^Press"
	keys t q
	ended t 0
'

tui_case "a resize to 80x24 redraws the whole screen" '
	need "$SHARES"
	pane t 132 43
	tui t xperf report --no-children -i "$SHARES"
	tm resize-window -t t -x 80 -y 24
	status_on_line t 24 || fail "no status line on line 24 after the resize: $(screen t | tail -n 2)"
	[ "$(screen t | wc -l)" = 24 ] || fail "$(screen t | wc -l) lines"
	screen t | sed -n 1p | grep -q "^Samples: " || fail "no title line"
	screen t | sed -n 3p | grep -q "work_a" || fail "line 3: $(screen t | sed -n 3p)"
	# columns, not bytes: a cut name ends with a 3-byte ellipsis
	w=$(screen t | LC_ALL=C.UTF-8 wc -L)
	[ "$w" -le 80 ] || fail "a line $w columns wide"
	tm resize-window -t t -x 120 -y 30
	status_on_line t 30 || fail "not redrawn at 120x30: $(screen t | tail -n 2)"
	keys t q
	ended t 0
'

tui_case "SIGTERM, SIGINT and a crash signal leave a clean terminal" '
	need "$SHARES"
	pane t
	# a sanitizer build reports the SEGV and exits with its own status: any failure will do
	for sig in TERM SEGV; do
		tui t xperf-report -i "$SHARES"
		pid=$(pgrep -P "$(tm display -p -t t "#{pane_pid}")" -x xperf-report)
		[ -n "$pid" ] || fail "no xperf-report in the pane"
		kill -$sig "$pid"
		if [ $sig = TERM ]; then ended t 143; else ended t "[1-9][0-9]*"; fi
		keys t clear Enter
		wait_screen t "^\\\$ *$"
	done
	tui t xperf-report -i "$SHARES"
	keys t C-c
	# bash drops the rest of a command line killed by SIGINT: ask for the status apart
	wait_screen t "^\\\$ *$"
	keys t "echo EXIT=\$?" Enter
	ended t 130
'

tui_case "colours, and none with NO_COLOR (the selection still shown, reversed)" '
	need "$SHARES"
	pane t
	tui t xperf report -i "$SHARES"
	tm capture-pane -p -e -t t >color
	grep -qE $'"'"'\e\[[0-9;]*(3[1-7]|4[1-7])[;m]'"'"' color || fail "no colours"
	keys t q
	ended t 0
	tui t NO_COLOR=1 xperf report -i "$SHARES"
	tm capture-pane -p -e -t t >mono
	! grep -qE $'"'"'\e\[[0-9;]*(3[1-7]|4[1-7])[;m]'"'"' mono || fail "colours with NO_COLOR"
	grep -qE $'"'"'\e\[[0-9;]*7[;m]'"'"' mono || fail "no reverse video for the selection"
	keys t q
	ended t 0
'

tui_case "several events: a list first, Enter opens one, Esc goes back to the list" '
	need "$TWO"
	pane t
	tui t xperf report -i "$TWO"
	screen t | grep -q "^Available samples: 2 events" || fail "no event list"
	screen t | grep -q "cpu-clock" && screen t | grep -q "task-clock" || fail "events not listed"
	keys t Down Enter
	wait_screen t "^Samples: .* of event .task-clock."
	keys t Escape
	wait_screen t "^Available samples"
	keys t q
	ended t 0
'

tui_case "Tab and Shift-Tab go round the events in the main view, as in perf" '
	need "$TWO"
	pane t
	tui t xperf report --no-children -i "$TWO"
	keys t Enter
	wait_screen t "^Samples: .* of event .cpu-clock."
	keys t Tab
	wait_screen t "^Samples: .* of event .task-clock."
	keys t Tab
	wait_screen t "^Samples: .* of event .cpu-clock."
	keys t BTab
	wait_screen t "^Samples: .* of event .task-clock."
	# the main view still takes its keys, Esc still leads back to the list
	entries t | head -n 1 | grep -q "work_a" || fail "first entry: $(entries t | head -n 1)"
	keys t Escape
	wait_screen t "^Available samples"
	keys t q
	ended t 0
	# one event: Tab stays and says why
	pane u
	tui u xperf report --no-children -i "$SHARES"
	keys u Tab
	wait_screen u "^Tab: the file has one event with samples"
	keys u q
	ended u 0
'

tui_case "L hides the entries under a percent, Space pages down, F1 lists the keys" '
	need "$SHARES"
	pane t 100 12
	tui t xperf report --no-children -i "$SHARES"
	[ "$(entries t | wc -l)" -gt 3 ] || fail "too few entries: $(entries t)"
	keys t L
	wait_screen t "^Hide entries under percent"
	keys t 15 Enter
	wait_screen t "entries under 15% hidden"
	# work_a, work_b and work_c (50/30/20%) stay; nothing under 15%
	[ "$(entries t | wc -l)" = 3 ] || fail "entries: $(entries t)"
	entries t | awk "{ sub(/%/, \"\", \$2); if (\$2 + 0 < 15) exit 1 }" || fail "$(entries t)"
	keys t L
	wait_screen t "^Hide entries"
	keys t abc Enter
	wait_screen t "invalid percent: .abc. \\(0 to 100\\)"
	[ "$(entries t | wc -l)" = 3 ] || fail "a bad value changed the limit: $(entries t)"
	keys t L
	wait_screen t "^Hide entries"
	keys t 0 Enter
	wait_screen t "every entry shown"
	[ "$(entries t | wc -l)" -gt 3 ] || fail "limit not lifted: $(entries t)"
	# Space: one screen down, as PgDn
	keys t Space
	wait_screen t " ([0-9]+)/([0-9]+) *$"
	pos=$(screen t | tail -n 1 | awk "{ split(\$NF, a, \"/\"); print a[1] }")
	[ "$pos" -gt 1 ] || fail "Space did not move: $(screen t | tail -n 1)"
	keys t F1
	wait_screen t "^Keys"
	keys t q
	wait_screen t "^Press"
	keys t q
	ended t 0
'

tui_case "s sorts by other keys: the rows of --sort KEYS, from a pipe too; a bad key is said" '
	need "$SHARES"
	pane t 100 30
	tui t xperf report --no-children -i "$SHARES"
	keys t s
	wait_screen t "^Sort keys"
	keys t dso,nosuch Enter
	wait_screen t "unknown sort key .nosuch."
	keys t s
	wait_screen t "^Sort keys"
	keys t dso,sym Enter
	wait_screen t "^  Overhead  Shared Object +Symbol"
	xperf report --stdio -q --no-children -g none --sort dso,sym -i "$SHARES" 2>/dev/null |
		awk "NF { \$1 = \$1; print }" | head -n 5 >stdio.rows
	entries t | head -n 5 | sed "s/^[-+]//" | awk "{ \$1 = \$1; print }" >tui.rows
	diff stdio.rows tui.rows >rows.diff || fail "TUI and stdio differ: $(cat rows.diff)"
	keys t q
	ended t 0
	# a pipe is not read again either: its samples are counted again
	pane u
	tui u xperf report --tui --no-children -i - "<" "$SHARES"
	keys u s
	wait_screen u "^Sort keys"
	keys u dso,sym Enter
	wait_screen u "^  Overhead  Shared Object +Symbol"
	entries u | head -n 5 | sed "s/^[-+]//" | awk "{ \$1 = \$1; print }" >pipe.rows
	diff stdio.rows pipe.rows >rows.diff || fail "pipe: TUI and stdio differ: $(cat rows.diff)"
	# what the pass did not compute is said, and the view stays
	keys u s
	wait_screen u "^Sort keys"
	keys u srcline Enter
	wait_screen u "s: the pass did not look up source lines: give --sort"
	keys u Enter
	wait_screen u "^  Overhead  Shared Object +Symbol"
	keys u q
	ended u 0
'

# same_rows FILE: the entries on screen are FILE's, the first three in its order (entries of
# equal shares further down come in the order the pass met them, which the kernel's symbols,
# read on a thread beside the pass, may change from one run to the next)
same_rows() {
	entries t >tui.rows
	{ diff <(head -n 3 "$1") <(head -n 3 tui.rows) && diff <(sort "$1") <(sort tui.rows); } >rows.diff
}

tui_case "s and o never read the file again: replaced and then deleted, it still sorts" '
	need "$SHARES"
	need "$CALLERS"
	cp "$SHARES" mine.data
	# what a fresh pass shows with those keys, self and children
	pane f 120 40
	for c in --no-children --children; do
		tui f xperf report $c --sort sym,pid,cpu -i "$SHARES"
		entries f >fresh$c.rows
		keys f q
		ended f 0
	done
	[ -s fresh--children.rows ] || fail "no entries: $(screen f)"
	pane t 120 40
	tui t xperf report --no-children -i mine.data
	# another recording in its place, then none: a second pass would show callers.data
	# or fail
	cp "$CALLERS" mine.data
	keys t s
	wait_screen t "^Sort keys"
	keys t sym,pid,cpu Enter
	wait_screen t "^  Overhead +Symbol +Pid:Command +CPU"
	same_rows fresh--no-children.rows || fail "replaced: s differs: $(cat rows.diff)"
	rm mine.data
	keys t o
	wait_screen t "^  Children +Self +Symbol"
	same_rows fresh--children.rows || fail "deleted: o differs: $(cat rows.diff)"
	keys t q
	ended t 0
'

tui_case "o goes between children and self, and self alone, as --children and --no-children" '
	need "$SHARES"
	pane t 100 30
	tui t xperf report -i "$SHARES"
	screen t | grep -q "^  Children      Self  Command" || fail "not children first: $(screen t | head -n 2)"
	keys t o
	wait_screen t "^  Overhead  Command"
	xperf report --stdio -q --no-children -g none -i "$SHARES" 2>/dev/null |
		awk "NF { \$1 = \$1; print }" | head -n 3 >stdio.rows
	entries t | head -n 3 | sed "s/^[-+]//" | awk "{ \$1 = \$1; print }" >tui.rows
	diff stdio.rows tui.rows >rows.diff || fail "self rows differ: $(cat rows.diff)"
	keys t o
	wait_screen t "^  Children      Self  Command"
	keys t q
	ended t 0
'

tui_case "+ marks only the entries whose chains unfold; Enter on the others says why" '
	need "$SHARES"
	pane t 100 60
	tui t xperf report -i "$SHARES"
	keys t End
	wait_screen t "^ "
	# the last entry (selected) is one of the smallest: with chains under the threshold it
	# has no + (perf'"'"'s has_children), and Enter says so
	last=$(entries t | tail -n 1)
	case $last in " "*) ;; *) skip "the smallest entry of this recording unfolds: $last" ;; esac
	keys t Enter
	wait_screen t "no call chains above the threshold for this entry"
	keys t Home
	wait_screen t "^Samples"
	entries t | head -n 1 | grep -q "^+" || fail "first entry not marked: $(entries t | head -n 1)"
	keys t Enter
	wait_screen t "^-"
	keys t q
	ended t 0
'

tui_case "the header screen scrolls long lines sideways; Left at the edge goes back" '
	need "$SHARES"
	pane t 40 20
	tui t xperf report --no-children -i "$SHARES"
	keys t i
	wait_screen t "^# hostname"
	wait_screen t "Right: more"
	line=$(screen t | grep "^# hostname")
	keys t Right
	wait_screen t "Left/Right: more"
	! screen t | grep -q "^# hostname" || fail "did not scroll: $(screen t | head -n 4)"
	screen t | grep -q "^me *: " || fail "not 8 columns on: $(screen t | head -n 8)"
	keys t Left
	wait_screen t "^# hostname"
	keys t Left
	wait_screen t "^Press"
	keys t q
	ended t 0
'

tui_case "i shows the header, P saves the lines to xperf.hist.0" '
	need "$SHARES"
	pane t
	tui t xperf report --no-children -i "$SHARES"
	keys t i
	wait_screen t "^# hostname"
	keys t q
	wait_screen t "^Press"
	keys t P
	wait_screen t "lines saved to xperf.hist.0"
	head -n 1 xperf.hist.0 | grep -q "work_a" || fail "$(head -n 3 xperf.hist.0)"
	keys t q
	ended t 0
'

tui_case "-v prints the time to the first screen and the keys' latency" '
	need "$SHARES"
	pane t
	tui t xperf report -v -i "$SHARES" "2>err"
	keys t Down Down Enter E C q
	ended t 0
	grep -E "tui: first screen [0-9.]+ ms after start" err
	grep -E "tui: 5 keys answered, mean [0-9.]+ ms, slowest [0-9.]+ ms" err
'

tui_case "the h screen lists the keys of docs/xperf-report.1, the same words" '
	need "$SHARES"
	pane t 120 90
	tui t xperf report -i "$SHARES"
	keys t h
	wait_screen t "^Keys"
	screen t | help_keys >shown
	doc_keys >documented
	[ "$(wc -l <documented)" -gt 20 ] || fail "the manual lists $(wc -l <documented) keys"
	diff documented shown || fail "the h screen and the manual differ"
	keys t q q
	ended t 0
'

tui_case "the TUI says what the stdio report says of lost and skipped records, once each" '
	"$XPERF_BUILD/tests/xpf-synth" -o l.data -n 800 --lost 70 --lost-samples 5 --type 200
	pane t
	tui t xperf report -i l.data "2>err"
	keys t q
	ended t 0
	xperf report --stdio -i l.data 2>want >/dev/null
	grep -c "warning:" want | grep -qx 3
	diff want err
'

tui_case "--mem-mode: the title and column titles as perf's TUI shows them" '
	command -v perf >/dev/null || skip "perf is not installed"
	perf record -q -d -e page-faults -N -o mem.data -- "$WL/threads" 0.2 >/dev/null 2>&1 ||
		skip "perf record -d -e page-faults failed here"
	pane p 140 20
	tm send-keys -t p "LANG=C.UTF-8 perf report --mem-mode -i mem.data; echo EXIT=\$?" Enter
	wait_screen p "^Samples: " 30
	pane t 140 20
	tui t xperf report --mem-mode -i mem.data
	# perf cuts the last column at the edge where xperf ends it with an ellipsis
	screen p | sed -n "1,2p" | cut -c1-138 >perf.head
	screen t | sed -n "1,2p" | cut -c1-138 >xperf.head
	grep -q "Event count (approx\\.)" perf.head || fail "perf: $(cat perf.head)"
	diff perf.head xperf.head || fail "the head of the screen differs from perf'"'"'s"
	keys p q
	keys t q
	ended t 0
'

test_done
