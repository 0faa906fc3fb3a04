#!/usr/bin/env bash
# xperf report --speedscope read back by the real viewer: speedscope's own page (the npm
# package) in headless Chromium shows the thread's profile and work_a as the hottest frame;
# the file validates against the schema the package ships; per thread, the weights sum to
# the thread's period and the samples keep perf script's time order.
. "$(dirname "$0")/lib.sh"

XR=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
TOOLS=$TOP/tests/tools
# speedscope, pinned: installed once per build directory (make clean forgets it)
SS_VERSION=1.25.0
SS_DIR=$XPERF_BUILD/test-deps/speedscope-$SS_VERSION
RELEASE=$SS_DIR/node_modules/speedscope/dist/release
SCHEMA=$RELEASE/file-format-schema.json
export XR WL TOOLS RELEASE SCHEMA

why_no_speedscope=
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	why_no_speedscope="node or npm is absent (Debian nodejs, npm)"
elif [ ! -s "$RELEASE/index.html" ]; then
	mkdir -p "$SS_DIR"
	npm install --prefix "$SS_DIR" --no-audit --no-fund --no-save --loglevel=error \
		--cache "$TEST_TMP/npm-cache" "speedscope@$SS_VERSION" >"$TEST_TMP/npm.log" 2>&1 ||
		why_no_speedscope="npm install speedscope@$SS_VERSION failed: $(tail -n 1 "$TEST_TMP/npm.log")"
	[ -n "$why_no_speedscope" ] || [ -s "$RELEASE/index.html" ] || [ -s "$SCHEMA" ] ||
		why_no_speedscope="the speedscope package has no dist/release/index.html"
fi
why_no_chromium=
command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1 ||
	why_no_chromium="chromium is absent (Debian chromium): no browser to open the file in"
export why_no_speedscope why_no_chromium

# a case that needs the package (its schema); a case that needs the browser too
ss_case() {
	if [ -n "$why_no_speedscope" ]; then skip_case "$1" "$why_no_speedscope"
	else test_case "$@"; fi
}
browser_case() {
	if [ -n "$why_no_speedscope" ]; then skip_case "$1" "$why_no_speedscope"
	elif [ -n "$why_no_chromium" ]; then skip_case "$1" "$why_no_chromium"
	else test_case "$@"; fi
}

DATA=$TEST_TMP/x.data FLAT=$TEST_TMP/flat.data THR=$TEST_TMP/threads.data
TWO=$TEST_TMP/two.data OFF=$TEST_TMP/off.data FAULTS=$TEST_TMP/faults.data
"$XPERF_BUILD/xperf-record" -q -g -o "$DATA" -- "$WL/shares" 0.4 >/dev/null 2>&1 || :
"$XPERF_BUILD/xperf-record" -q -o "$FLAT" -- "$WL/shares" 0.2 >/dev/null 2>&1 || :
"$XPERF_BUILD/xperf-record" -q -g -o "$THR" -- "$WL/threads" 0.3 >/dev/null 2>&1 || :
"$XPERF_BUILD/xperf-record" -q -g -e cpu-clock,task-clock -o "$TWO" -- "$WL/shares" 0.2 \
	>/dev/null 2>&1 || :
"$XPERF_BUILD/xperf-record" -q -g -e page-faults -c 1 -o "$FAULTS" -- "$WL/shares" 0.1 \
	>/dev/null 2>&1 || :
if [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; then
	"$XPERF_BUILD/xperf-record" -q -g --off-cpu -e cpu-clock -o "$OFF" -- "$WL/offcpu" 10 cpu \
		>/dev/null 2>&1 || :
fi
export DATA FLAT THR TWO OFF FAULTS

need() { [ -s "$1" ] || skip "recording $(basename "$1") failed"; }
# check FILE [leaves]: the schema's verdict and the profiles' summary lines
check() { node "$TOOLS/speedscope_check.mjs" "$SCHEMA" "$@"; }
# script_of FILE: "tid leaf-symbol period event" per sample in time order, as perf script
# (or xperf script where perf is absent) prints them
script_of() {
	if have_perf; then perf_run script -F tid,period,event,ip,sym -i "$1" 2>/dev/null
	else "$XPERF_BUILD/xperf-script" -F tid,period,event,ip,sym -i "$1"; fi |
		awk '/^[^\t]/ { t = $1; p = $2; e = $3; sub(/:$/, "", e); w = 1; next }
			w && NF { print t, $2, p, e; w = 0 }'
}
export -f need check script_of

browser_case "speedscope shows the export: the thread's profile, work_a the hottest frame" '
	need "$DATA"
	"$XR" --speedscope x.json -i "$DATA"
	TMPDIR=$PWD node --experimental-websocket "$TOOLS/speedscope_browser.mjs" "$RELEASE" x.json \
		shot.png >page
	cat page
	pid=$(script_of "$DATA" | awk "{ print \$1; exit }")
	grep -qx "title x.data - speedscope" page || fail "title: $(grep ^title page)"
	grep -qx "profile shares $pid/$pid cpu-clock" page || fail "$(grep ^profile page)"
	# the heaviest stack, leftmost in Left Heavy, ends in work_a, with its source line (a
	# build without libdw: its object)
	where="shares\.c:[0-9]*"
	"$XPERF_BUILD/xperf" version | grep -q "+libdw" || where=".*/shares:\\?"
	grep "^hover " page | tail -n 1 | grep -q " work_a $where$" ||
		fail "the leftmost leaf: $(grep ^hover page | tail -n 1)"
	grep -q "^hover .* main $where$" page || fail "no main under the mouse"
	# the viewer'"'"'s own summary: work_a, work_b, work_c most self time, in that order
	grep "^sandwich " page | head -n 3 | cut -d" " -f2 | tr "\n" " " >top
	[ "$(cat top)" = "work_a work_b work_c " ] || fail "Sandwich top 3: $(cat top)"
	# the flame chart was drawn: many colours, not a blank or an error page
	read -r _ w h n < <(grep ^shot page)
	[ "$w" -eq 1200 ] && [ "$h" -eq 800 ] && [ "$n" -gt 50 ] || fail "screenshot: $(grep ^shot page)"
'

browser_case "off-CPU time is a profile of its own the viewer shows" '
	need "$OFF"
	"$XR" --speedscope off.json -i "$OFF"
	TMPDIR=$PWD node --experimental-websocket "$TOOLS/speedscope_browser.mjs" "$RELEASE" off.json \
		shot.png >page
	cat page
	grep -q "^profile offcpu [0-9]*/[0-9]* cpu-clock" page || fail "$(grep ^profile page)"
	check off.json >sum
	cat sum
	grep -q "^profile offcpu [0-9]*/[0-9]* offcpu-time|nanoseconds|" sum || fail "no off-CPU profile"
'

browser_case "the page check can fail: a file cut short is an error the page shows" '
	need "$DATA"
	"$XR" --speedscope - -i "$DATA" | head -c 2000 >cut.json
	rc=0
	TMPDIR=$PWD node --experimental-websocket "$TOOLS/speedscope_browser.mjs" "$RELEASE" cut.json \
		shot.png >page || rc=$?
	cat page
	[ $rc -eq 3 ] || fail "exit $rc"
	grep -q "^error " page || fail "no error read from the page"
	! grep -q "^profile " page || fail "a profile shown"
'

ss_case "the file validates against the schema speedscope ships; - writes it to stdout" '
	need "$DATA"
	"$XR" --speedscope x.json -i "$DATA" 2>err
	[ ! -s err ] || fail "$(cat err)"
	check x.json >sum || { cat sum; fail "invalid"; }
	cat sum
	grep -q "^profile shares [0-9]*/[0-9]* cpu-clock|nanoseconds|" sum
	"$XR" --speedscope - -i "$DATA" >stdout.json
	cmp x.json stdout.json || fail "stdout differs from the file"
	# frames carry the source line of their function where the DWARF knows it
	if "$XPERF_BUILD/xperf" version | grep -q "+libdw"; then
		grep -q "{\"name\":\"work_a\",\"file\":\"shares.c\",\"line\":[0-9]*}" x.json ||
			fail "work_a has no file and line: $(grep work_a x.json | head -n 1)"
	fi
'

ss_case "per thread: the weights sum to its period, the samples in the time order of perf script" '
	need "$THR"
	"$XR" --speedscope t.json -i "$THR"
	check t.json leaves >sum
	script_of "$THR" >samples
	grep "^profile " sum
	[ "$(grep -c "^profile " sum)" -ge 3 ] || fail "fewer than 3 threads"
	i=0
	while IFS="|" read -r name unit n total start end; do
		tid=${name#* }; tid=${tid%% *}; tid=${tid#*/}
		want=$(awk -v t=$tid "\$1 == t { s += \$3 } END { print s + 0 }" samples)
		echo "tid $tid: weights $total, perf script $want"
		[ "$total" = "$want" ] && [ "$end" = "$want" ] && [ "$start" = 0 ] ||
			fail "tid $tid: weights $total (end $end), periods $want"
		# the leaves in order, runs of one leaf as one: the stacks are samples in time order
		awk -v i=$i "\$1 == \"leaf\" && \$2 == i { print \$3 }" sum | uniq >x.leaves
		awk -v t=$tid "\$1 == t { print \$2 }" samples | uniq >p.leaves
		cmp -s x.leaves p.leaves || { diff p.leaves x.leaves | head; fail "tid $tid: not in time order"; }
		i=$((i + 1))
	done < <(sed -n "s/^profile //p" sum)
	# the busiest thread first
	sed -n "s/^profile //p" sum | cut -d"|" -f4 | sort -c -n -r || fail "not busiest first"
'

ss_case "a file without call chains: a frame per sample, its own function" '
	need "$FLAT"
	"$XR" --speedscope f.json -i "$FLAT"
	check f.json leaves >sum
	grep "^profile " sum
	node -e "const d = require(\"./f.json\");
		process.exit(d.profiles.every(p => p.samples.every(s => s.length === 1)) ? 0 : 1)" ||
		fail "a stack of more than one frame"
	grep -q "^leaf 0 work_a$" sum
'

ss_case "--event: that event alone, its unit; counts are unit none; a warning names the default" '
	need "$TWO"
	"$XR" --speedscope a.json -i "$TWO" 2>err
	grep -qx "xperf report: warning: the file has several events (cpu-clock, task-clock): the speedscope profile shows .cpu-clock. (--event NAME picks another)" err ||
		fail "$(cat err)"
	"$XR" --speedscope t.json --event task-clock -i "$TWO" 2>err
	[ ! -s err ] || fail "$(cat err)"
	check t.json >sum
	cat sum
	[ "$(grep -c "^profile .* task-clock|nanoseconds|" sum)" = "$(grep -c "^profile " sum)" ] ||
		fail "not task-clock alone"
	rc=0; "$XR" --speedscope n.json --event cycles -i "$TWO" 2>err || rc=$?
	[ $rc -eq 1 ] && [ ! -e n.json ] || fail "--event cycles: exit $rc"
	grep -q "no event .cycles. in the file: its events with samples are cpu-clock, task-clock" err ||
		fail "$(cat err)"
	need "$FAULTS"
	"$XR" --speedscope p.json -i "$FAULTS"
	check p.json >sum
	grep -q "^profile shares [0-9/]* page-faults|none|" sum || fail "$(cat sum)"
'

ss_case "--wall: on- and off-CPU time of a thread as one profile, their sum" '
	need "$OFF"
	"$XR" --speedscope off.json -i "$OFF"
	"$XR" --speedscope wall.json --wall -i "$OFF"
	check off.json >off
	check wall.json >wall
	cat off wall
	on=$(awk -F"|" "/ cpu-clock\|/ { print \$4 }" off | head -n 1)
	oc=$(awk -F"|" "/ offcpu-time\|/ { print \$4 }" off | head -n 1)
	w=$(awk -F"|" "/ cpu-clock \+ offcpu-time\|nanoseconds\|/ { print \$4 }" wall | head -n 1)
	[ -n "$on" ] && [ -n "$oc" ] && [ "$w" = $((on + oc)) ] || fail "wall $w, on $on + off $oc"
	want=$(script_of "$OFF" | awk "\$4 == \"offcpu-time\" { s += \$3 } END { print s + 0 }")
	[ "$oc" = "$want" ] || fail "off-CPU weights $oc, perf script $want"
'

ss_case "the filters apply: --tid, -S, --time, --comms; none left is an error" '
	need "$THR"
	tid=$(script_of "$THR" | awk "{ n[\$1]++ } END { for (t in n) if (n[t] > m) { m = n[t]; b = t }; print b }")
	"$XR" --speedscope t.json --tid $tid -i "$THR"
	check t.json >sum
	[ "$(grep -c "^profile " sum)" = 1 ] && grep -q "^profile [^ ]* [0-9]*/$tid " sum ||
		fail "--tid $tid: $(cat sum)"
	need "$DATA"
	"$XR" --speedscope a.json -S work_a -i "$DATA"
	check a.json leaves >sum
	[ "$(grep "^leaf " sum | cut -d" " -f3 | sort -u)" = work_a ] || fail "-S work_a: $(grep ^leaf sum | sort | uniq -c)"
	"$XR" --speedscope all.json -i "$DATA"
	"$XR" --speedscope half.json --time 0%-50% -i "$DATA"
	a=$(check all.json | grep ^profile | cut -d"|" -f4)
	h=$(check half.json | grep ^profile | cut -d"|" -f4)
	echo "--time 0%-50%: $h of $a"
	[ "$h" -gt 0 ] && [ "$h" -lt "$a" ] || fail "--time 0%-50%: $h of $a"
	"$XR" --speedscope c.json --comms shares -i "$DATA"
	cmp -s all.json c.json || fail "--comms shares changed the file"
	rc=0; "$XR" --speedscope n.json --pid 999999 -i "$DATA" 2>err || rc=$?
	[ $rc -eq 2 ] && [ ! -e n.json ] || fail "--pid 999999: exit $rc"
	grep -q "no samples for the speedscope profile: the filters left none" err || fail "$(cat err)"
'

test_case "--speedscope to a directory that does not exist: one error, exit 2" '
	need "$FLAT"
	rc=0; "$XR" --speedscope /nonexistent/dir/x.json -i "$FLAT" >out 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	[ "$(cat err)" = "xperf report: error: cannot write '"'"'/nonexistent/dir/x.json'"'"': No such file or directory" ] ||
		fail "$(cat err)"
'

test_done
