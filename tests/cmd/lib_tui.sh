# The tmux driver of the TUI suites (report_tui*.sh, diff_tui.sh, tui_live.sh,
# top_tui.sh): keys sent with send-keys,
# assertions on what a person sees (capture-pane). Each suite has its own tmux server; the
# pane runs a plain bash, so after the TUI ends the same pane shows whether the terminal came
# back clean (tmux's alternate_on flag, `stty -a`). Sourced after lib.sh.

WL=$XPERF_BUILD/workloads
# a private server whose socket goes away with the test's directory (tmux leaves it behind)
SOCK=$TEST_TMP/tmux.sock
tm() { tmux -S "$SOCK" "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$TEST_TMP"' EXIT

why_skip=
if ! command -v tmux >/dev/null 2>&1; then
	why_skip="tmux is not installed (scripts/ensure-deps.sh installs it)"
elif ! xperf version | grep -q '+ncursesw'; then
	why_skip="this build has no TUI (built without ncursesw)"
fi
tui_case() {
	if [ -n "$why_skip" ]; then skip_case "$1" "$why_skip"; else test_case "$@"; fi
}

# A session that lives as long as the script: tmux ends its server when the last session
# ends, and a new session asked for meanwhile would find the server going away.
[ -z "$why_skip" ] && tm new-session -d -s keeper -x 80 -y 24 "sleep 100000"

screen() { tm capture-pane -p -t "$1"; }

# wait_screen SESSION REGEX [SECONDS]: until a line of the pane matches REGEX (else fail,
# showing the screen). 30 s by default: a CI run of the sanitizer build beside other work
# once kept a screen of report_tui_time from changing for 10 s, its keys not yet read
wait_screen() {
	local i n=$((${3:-30} * 20))
	for ((i = 0; i < n; i++)); do
		screen "$1" | grep -qE -- "$2" && return 0
		sleep 0.05
	done
	echo "the screen never showed /$2/:"
	screen "$1"
	return 1
}

# pane SESSION [COLS LINES]: a new session running a plain bash in the case's directory
# (COLS defaults to $PANE_COLS, else 100)
pane() {
	tm kill-session -t "$1" >/dev/null 2>&1 || :
	tm -u new-session -d -s "$1" -x "${2:-${PANE_COLS:-100}}" -y "${3:-30}" -c "$PWD" \
		"env PS1='$ ' HISTFILE=/dev/null bash --norc --noprofile -i"
	wait_screen "$1" '^\$' 5
}

# tui SESSION ARGS...: run xperf-report ARGS in the pane (UTF-8 locale unless the ARGS set
# one) and wait for its status line; EXIT=N follows when it ends
tui() {
	local s=$1
	shift
	tm send-keys -t "$s" "LANG=C.UTF-8 $* ; echo EXIT=\$?" Enter
	wait_screen "$s" "^Press '\\?' for help|^Enter: open the event" 20
}

keys() {
	local s=$1
	shift
	tm send-keys -t "$s" "$@"
}

# ended SESSION STATUS: the TUI has ended with STATUS (a regex) and the terminal is clean
ended() {
	wait_screen "$1" "^EXIT=($2)\$" 10
	[ "$(tm display -p -t "$1" '#{alternate_on}')" = 0 ] || fail "still on the alternate screen"
	keys "$1" 'stty -a | tr " ;" "\n\n" | grep -xE -- "-?(echo|icanon)" | LC_ALL=C sort | tr "\n" " "; echo' Enter
	wait_screen "$1" '^-?echo -?icanon *$' 5
	screen "$1" | grep -qxE 'echo icanon *' || fail "echo or icanon left off: $(screen "$1" | tail -n 2)"
}

# the entry lines of a screen (the lines after the column titles, before the status line)
entries() { screen "$1" | sed -n '3,$p' | sed '$d' | grep -E '^[-+ ] +[0-9]+\.[0-9]+%'; }

# is_entry <LINE: an entry line (fold marker, then a share); chain_lines: the lines before
# the next entry line
is_entry() { grep -qE '^[-+ ] +[0-9]+\.[0-9]+%'; }
chain_lines() { awk '/^[-+ ] +[0-9]+\.[0-9]+%/ { exit } { print }'; }

# status_on_line SESSION N: wait until the pane is N lines high with the status line last
status_on_line() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ "$(screen "$1" | wc -l)" = "$2" ] && screen "$1" | sed -n "$2p" | grep -q "^Press" &&
			return 0
		sleep 0.05
	done
	return 1
}

need() { [ -s "$1" ] || fail "recording $(basename "$1") failed"; }

# frame_width ROW NAME: columns of the flame-graph frame [NAME...] in ROW (0: absent)
frame_width() {
	awk -v n="[$2" '{ i = index($0, n); if (!i) { print 0; exit } print index(substr($0, i), "]") }' <<<"$1"
}
frame_pos() { awk -v n="[$2" '{ print index($0, n) }' <<<"$1"; }

# side WHICH <SCREEN: the lines of the caller/callee view under "Callers:" (1) or "Callees:" (2)
side() { awk -v w="$1" '/^ Callers:/ { s = 1; next } /^ Callees:/ { s = 2; next } s == w'; }

