#!/usr/bin/env bash
# xperf diff --tui, driven in tmux (lib_tui.sh): NEW's flame graph coloured by the change from
# OLD, as diff --flamegraph colours its SVG, in the TUI's flame view.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_tui.sh"

# shares gives work_a, work_b, work_c 50/30/20% of its time by default, 20/30/50% with
# "20 30 50": from OLD to NEW work_c grows, work_a shrinks
OLD=$TEST_TMP/old.data
NEW=$TEST_TMP/new.data
if [ -z "$why_skip" ]; then
	xperf record -q -g -o "$OLD" -- "$WL/shares" 0.4 >/dev/null 2>&1 || :
	xperf record -q -g -o "$NEW" -- "$WL/shares" 0.4 20 30 50 >/dev/null 2>&1 || :
fi

# diff_tui SESSION ARGS...: xperf diff ARGS in the pane, until its flame graph shows
diff_tui() {
	local s=$1
	shift
	tm send-keys -t "$s" "LANG=C.UTF-8 xperf diff $* ; echo EXIT=\$?" Enter
	wait_screen "$s" "^Differential flame graph: " 20
}

# sgr_before SESSION NAME: the colour codes that start the box [NAME (capture-pane -e)
sgr_before() {
	tm capture-pane -e -p -t "$1" | grep -o "$(printf "\033")\\[[0-9;]*m\\[$2" | head -n 1 |
		sed "s/\\[$2\$//" | tr -d "\\033"
}

tui_case "diff --tui: NEW's flame graph, work_c (grew) red, work_a (shrank) blue, as the SVG" '
	need "$OLD"
	need "$NEW"
	cp "$OLD" old.data
	cp "$NEW" new.data
	pane t 120
	diff_tui t --tui old.data new.data
	screen t | head -n 1 | grep -qE "^Differential flame graph: [0-9.KM]+ samples of event .cpu-clock. against [0-9]+ of old\\.data: red grew, blue shrank$" ||
		fail "title: $(screen t | head -n 1)"
	# red (xterm-256 196..224 or 8-colour red) and blue (21..189 or blue) backgrounds
	c=$(sgr_before t work_c) a=$(sgr_before t work_a)
	echo "work_c: $c, work_a: $a"
	case $c in *48\;5\;196m | *48\;5\;210m | *48\;5\;217m | *48\;5\;224m | *41m | *31m) ;;
		*) fail "work_c not red: $c" ;; esac
	case $a in *48\;5\;21m | *48\;5\;105m | *48\;5\;147m | *48\;5\;189m | *44m | *34m) ;;
		*) fail "work_a not blue: $a" ;; esac
	# the status line gives the selected frame'"'"'s change, the SVG'"'"'s number
	keys t / w o r k _ c Enter n
	wait_screen t "\\| work_c: [0-9.]+% \\([0-9]+ samples\\), [-+][0-9.]+% from .*old\\.data, self"
	got=$(screen t | tail -n 1 | sed -E "s/.*, ([-+][0-9.]+)% from .*/\\1/")
	xperf diff --flamegraph d.svg old.data new.data
	want=$(grep -o "<title>work_c in shares ([^<]*</title>" d.svg | sed -E "s/.*, ([-+][0-9.]+)%\\).*/\\1/" |
		sort -g -r | head -n 1)
	echo "TUI $got, SVG $want"
	[ "$got" = "$want" ] || fail "work_c changed $got in the TUI, $want in the SVG"
	awk -v d="$got" "BEGIN { exit !(d > 15) }" || fail "work_c grew only $got points"
	keys t q
	wait_screen t "^Press .\\?. for help"
	keys t q
	ended t 0
'

tui_case "q goes to the main view of NEW, whose f draws the differential graph again" '
	need "$OLD"
	need "$NEW"
	cp "$OLD" old.data
	cp "$NEW" new.data
	pane t
	diff_tui t --tui old.data new.data
	keys t q
	wait_screen t "^Samples: .* of event .cpu-clock., Event count"
	entries t | grep -q "work_c" || fail "no work_c entry: $(entries t | head -n 5)"
	keys t f
	wait_screen t "^Differential flame graph: "
	keys t Escape
	wait_screen t "^Press .\\?. for help"
	# s counts NEW'"'"'s samples again (not its file), and f still compares with OLD
	rm new.data
	keys t s
	wait_screen t "^Sort keys"
	keys t dso,sym Enter
	wait_screen t "^  Children +Self +Shared Object +Symbol"
	keys t f
	wait_screen t "^Differential flame graph: "
	keys t Escape
	wait_screen t "^Press .\\?. for help"
	keys t q
	ended t 0
'

tui_case "diff --tui refuses the options of the table, three files, no terminal and files without -g" '
	need "$OLD"
	need "$NEW"
	rc=0; xperf diff --tui -c ratio "$OLD" "$NEW" >out 2>err || rc=$?
	[ $rc = 1 ] && grep -q "'"'"'--compute'"'"' is not supported with '"'"'--tui'"'"'" err ||
		fail "-c: exit $rc, $(cat err)"
	rc=0; xperf diff --tui --flamegraph x.svg "$OLD" "$NEW" >out 2>err || rc=$?
	[ $rc = 1 ] && grep -q "flamegraph" err || fail "--flamegraph: exit $rc, $(cat err)"
	rc=0; xperf diff --tui "$OLD" "$NEW" "$OLD" >out 2>err || rc=$?
	[ $rc = 1 ] && grep -q "compares two files" err || fail "three files: exit $rc, $(cat err)"
	# standard output a pipe: said at once, nothing read
	rc=0; xperf diff --tui "$OLD" "$NEW" 2>err | cat >out || rc=$?
	grep -q "not a terminal" err || fail "a pipe: $(cat err)"
	[ ! -s out ] || fail "printed: $(head -n 3 out)"
	xperf record -q -o flat1.data -- "$WL/shares" 0.2 >/dev/null 2>&1
	xperf record -q -o flat2.data -- "$WL/shares" 0.2 >/dev/null 2>&1
	pane t
	tm send-keys -t t "xperf diff --tui flat1.data flat2.data; echo EXIT=\$?" Enter
	wait_screen t "^EXIT=2$"
	screen t | grep -q "record .* with -g" || fail "$(screen t)"
	[ "$(tm display -p -t t "#{alternate_on}")" = 0 ] || fail "left on the alternate screen"
'

test_done
