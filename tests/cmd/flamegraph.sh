#!/usr/bin/env bash
# xperf report --flamegraph FILE.svg: a standalone SVG that parses as XML, names the hot
# functions of the workload with widths in the right order and proportions, carries hover
# titles and the zoom script; errors.
. "$(dirname "$0")/lib.sh"

R=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
F=$TEST_TMP/files
export R WL F
mkdir -p "$F"

# shares: 50% / 30% / 20% of its time in work_a / work_b / work_c, below a chain of levels
"$XPERF_BUILD/xperf-record" -q -g -o "$F/g.data" -- "$WL/shares" 1 >/dev/null 2>"$F/rec.err" ||
	rm -f "$F/g.data"
"$XPERF_BUILD/xperf-record" -q -o "$F/flat.data" -- "$WL/shares" 0.5 >/dev/null 2>>"$F/rec.err" ||
	rm -f "$F/flat.data"

# two events, each with call chains, and the cpu of each sample
"$XPERF_BUILD/xperf-record" -q -g --sample-cpu -e cpu-clock,task-clock -o "$F/two.data" -- \
	"$WL/shares" 0.5 >/dev/null 2>>"$F/rec.err" || rm -f "$F/two.data"
# on- and off-CPU time: 50% computing, 30% asleep, 20% waiting on a pipe (report --wall)
if [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; then
	"$XPERF_BUILD/xperf-record" -q --off-cpu -e cpu-clock -o "$F/off.data" -- \
		"$WL/offcpu" 10 cpu >/dev/null 2>>"$F/rec.err" || rm -f "$F/off.data"
fi

# a Python program: deep stacks of interpreter and kernel frames, many narrow boxes (the
# zoom lost callers of such boxes when it compared rounded coordinates)
"$XPERF_BUILD/xperf-record" -q -g -o "$F/py.data" -- python3 -c '
import json, random, re
d = [{"a": random.random(), "b": [str(i) for i in range(20)]} for _ in range(3000)]
for _ in range(8):
    s = json.dumps(d); json.loads(s); sorted(d, key=lambda x: x["a"]); re.findall(r"\d+", s)
' >/dev/null 2>>"$F/rec.err" || rm -f "$F/py.data"

need() { [ -s "$F/$1" ] || skip "recording $1 failed: $(tail -n 1 "$F/rec.err")"; }
# a browser to click in: headless Chromium, driven over its DevTools protocol by node
have_browser() {
	command -v chromium >/dev/null ||
		skip "chromium is absent (scripts/ensure-deps.sh installs it)"
	node --experimental-websocket -e 'if (typeof WebSocket != "function") process.exit(1)' \
		2>/dev/null || skip "no node with a WebSocket client (node >= 20, --experimental-websocket)"
}
browse() { node --experimental-websocket "$TOP/tests/tools/svg_browser.mjs" "$@"; }
export -f have_browser browse
have_python() { command -v python3 >/dev/null || skip "python3 is absent"; }
export -f need have_python

# widths SVG: "name width-percent depth" of every box (widths of one name summed per depth)
widths() {
	python3 - "$1" <<'EOF'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
frames = root.find(".//s:g[@id='frames']", ns)
tot = {}
for g in frames.findall("s:g", ns):
    k = (g.get("data-n"), g.get("data-d"))
    tot[k] = tot.get(k, 0.0) + float(g.get("data-w")) * 100
for (n, d), w in sorted(tot.items()):
    print(n, "%.3f" % w, d)
EOF
}
export -f widths

test_case "the SVG parses as XML, with a title per box and the zoom script" '
	need g.data
	have_python
	"$R" --flamegraph fg.svg -i "$F/g.data" >out 2>err
	[ ! -s out ] || fail "stdout: $(head -n 3 out)"
	python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" fg.svg ||
		fail "not XML"
	grep -q "<title>work_a in shares ([0-9,]* samples, [0-9.]*%)</title>" fg.svg ||
		fail "no hover title for work_a"
	grep -q "function zoom(" fg.svg || fail "no zoom script"
	grep -q "onload=\"init(evt)\"" fg.svg || fail "the script is not started"
'

test_case "work_a, work_b, work_c: widths in order and as the report's Children shares" '
	need g.data
	have_python
	"$R" --flamegraph fg.svg -i "$F/g.data"
	widths fg.svg >w
	"$R" --stdio --children -g none --sort sym -i "$F/g.data" >rep
	for f in work_a work_b work_c; do
		svg=$(awk -v f=$f "\$1 == f { s += \$2 } END { print s + 0 }" w)
		rep=$(awk -v f=$f "\$NF == f { sub(/%/, \"\", \$1); print \$1 }" rep)
		[ -n "$rep" ] || fail "$f is not in the report"
		awk -v a="$svg" -v b="$rep" "BEGIN { d = a - b; if (d < 0) d = -d; exit d > 0.5 }" ||
			fail "$f: width $svg%, report $rep%"
		echo "$f $svg" >>got
	done
	sort -k2,2nr got | cut -d" " -f1 | tr "\n" " " >order
	[ "$(cat order)" = "work_a work_b work_c " ] || fail "order by width: $(cat order)"
'

# near5 FILE: the shares of work_a, work_b, work_c among the three ("name share" lines of
# FILE, summed per name) are 50/30/20 within 5 points; prints them
near5() {
	awk "{ s[\$1] += \$2 } END { t = s[\"work_a\"] + s[\"work_b\"] + s[\"work_c\"]; if (t <= 0) exit 1
		a = 100 * s[\"work_a\"] / t; b = 100 * s[\"work_b\"] / t; c = 100 * s[\"work_c\"] / t
		printf \"%.1f/%.1f/%.1f\", a, b, c
		d = a - 50; if (d < 0) d = -d; e = b - 30; if (e < 0) e = -e; f = c - 20; if (f < 0) f = -f
		exit (d > 5 || e > 5 || f > 5) }" "$1"
}
export -f near5

test_case "widths in the workload's proportions 50/30/20, within a few points" '
	need g.data
	have_python
	"$R" --stdio --no-children -g none --sort sym -i "$F/g.data" |
		awk "/%/ { sub(/%/, \"\", \$1); print \$NF, \$1 }" >rep
	# a disturbed machine makes the workload itself miss its shares: not ours to judge
	r=$(near5 rep) || skip "the workload ran at $r (report), not 50/30/20"
	"$R" --flamegraph fg.svg -i "$F/g.data"
	widths fg.svg | cut -d" " -f1,2 >w
	got=$(near5 w) || fail "widths $got, the report says $r"
'

test_case "the root spans every sample, the commands above it, callers below callees" '
	need g.data
	have_python
	"$R" --flamegraph fg.svg -i "$F/g.data"
	widths fg.svg >w
	awk "\$1 == \"all\" && \$3 == 0 { ok = \$2 > 99.99 } END { exit !ok }" w || fail "root: $(head -n 3 w)"
	awk "\$1 == \"shares\" && \$3 == 1 { ok = 1 } END { exit !ok }" w || fail "no command box"
	d_main=$(awk "\$1 == \"main\" { print \$3; exit }" w)
	d_a=$(awk "\$1 == \"work_a\" && \$2 > 10 { print \$3; exit }" w)
	[ -n "$d_main" ] && [ -n "$d_a" ] && [ "$d_main" -lt "$d_a" ] || fail "main at $d_main, work_a at $d_a"
'

test_case "a file without call chains: command, then function" '
	need flat.data
	have_python
	"$R" --flamegraph fg.svg -i "$F/flat.data"
	widths fg.svg >w
	grep -q "^work_a [0-9.]* 2$" w || fail "$(cat w)"
	grep -q "no call chains" fg.svg || fail "the subtitle does not say so"
'

# share SVG NAME: the summed width (percent) of NAME's boxes, 0 when it has none
share() { widths "$1" | awk -v n="$2" "\$1 == n { s += \$2 } END { print s + 0 }"; }
export -f share

test_case "the filters apply: -S, --pid, --tid, --cpu, --time, --hide-unresolved" '
	need g.data
	need two.data
	have_python
	"$R" --flamegraph all.svg -i "$F/g.data"
	"$R" --flamegraph a.svg -S work_a -i "$F/g.data"
	widths a.svg >w
	grep -q "^work_a " w || fail "no work_a: $(cat w)"
	! grep -q "^work_[bc] " w || fail "-S work_a kept $(grep "^work_[bc] " w)"
	cmp -s all.svg a.svg && fail "-S work_a drew the same graph"
	pid=$("$XPERF_BUILD/xperf-script" -F pid -i "$F/g.data" | awk "{ print \$1; exit }")
	"$R" --flamegraph p.svg --pid "$pid" -i "$F/g.data"
	"$R" --flamegraph t.svg --tid "$pid" -i "$F/g.data"
	[ "$(share p.svg work_a)" = "$(share all.svg work_a)" ] || fail "--pid $pid left out samples"
	[ "$(share t.svg work_a)" = "$(share all.svg work_a)" ] || fail "--tid $pid left out samples"
	for o in "--pid 999999" "--tid 999999" "-S nosuchsym"; do
		rc=0; "$R" --flamegraph n.svg $o -i "$F/g.data" 2>err || rc=$?
		[ $rc -eq 2 ] || fail "$o: exit $rc"
		grep -q "^xperf report: error: no samples for the flame graph" err || fail "$o: $(cat err)"
		[ ! -e n.svg ] || fail "$o: a graph of nothing was written"
	done
	cpu=$("$XPERF_BUILD/xperf-script" -F cpu -i "$F/two.data" | tr -d "[]" | awk "{ print \$1 + 0; exit }")
	"$R" --flamegraph c.svg --cpu "$cpu" -i "$F/two.data" 2>err
	"$R" --flamegraph c2.svg -i "$F/two.data" 2>err
	n=$(grep -o "cpu-clock: [0-9]* samples" c.svg | tr -dc 0-9)
	n2=$(grep -o "cpu-clock: [0-9]* samples" c2.svg | tr -dc 0-9)
	echo "--cpu $cpu: $n samples, all cpus: $n2"
	[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" -le "$n2" ] || fail "--cpu $cpu: $n of $n2 samples"
	"$R" --flamegraph h.svg --time 0%-50% -i "$F/two.data" 2>err
	n=$(grep -o "cpu-clock: [0-9]* samples" h.svg | tr -dc 0-9)
	echo "--time 0%-50%: $n samples, all: $n2"
	[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" -lt "$n2" ] || fail "--time 0%-50%: $n of $n2 samples"
	rc=0; "$R" --flamegraph n.svg --cpu 77 -i "$F/two.data" 2>err || rc=$?
	[ $rc -eq 2 ] && [ ! -e n.svg ] || fail "--cpu 77: exit $rc, $(cat err)"
	"$R" --flamegraph u.svg --hide-unresolved -i "$F/g.data"
	! widths u.svg | grep -q "^\[" || fail "--hide-unresolved drew $(widths u.svg | grep "^\[" | head -n 3)"
'

test_case "--wall: off-CPU time drawn beside on-CPU time, as the report shares it" '
	need off.data
	have_python
	"$R" --flamegraph on.svg -i "$F/off.data" 2>err
	"$R" --flamegraph wall.svg --wall -i "$F/off.data" 2>err
	grep -q "cpu-clock + offcpu-time: [0-9]* samples" wall.svg || fail "subtitle: $(grep -o "cpu-clock[^<]*" wall.svg)"
	"$R" --stdio --wall --children -g none --sort sym -i "$F/off.data" >rep
	for f in compute sleep_a_while wait_for_pipe; do
		svg=$(share wall.svg $f)
		rep=$(awk -v f=$f "\$NF == f { sub(/%/, \"\", \$1); print \$1; exit }" rep)
		echo "$f: svg $svg% report $rep%, on-CPU only $(share on.svg $f)%"
		[ -n "$rep" ] || fail "$f is not in the report"
		awk -v a="$svg" -v b="$rep" "BEGIN { d = a - b; if (d < 0) d = -d; exit d > 0.5 }" ||
			fail "$f: width $svg%, report $rep%"
	done
	# without --wall, the time asleep is not drawn: the cpu-clock event alone
	awk -v a="$(share on.svg sleep_a_while)" "BEGIN { exit !(a < 5) }" ||
		fail "sleep_a_while at $(share on.svg sleep_a_while)% of the cpu-clock samples"
	# --wall draws one event, both merged: naming one is refused, not half done
	rc=0; "$R" --flamegraph n.svg --event offcpu-time --wall -i "$F/off.data" 2>err || rc=$?
	[ $rc -eq 1 ] && [ ! -e n.svg ] || fail "--event with --wall: exit $rc"
	grep -qx "xperf report: error: .--event. cannot be combined with .--wall.: it draws one event, on- and off-CPU time merged" err ||
		fail "$(cat err)"
'

test_case "--event NAME draws that event; without it the first, one line saying which" '
	need two.data
	"$R" --flamegraph first.svg -i "$F/two.data" 2>err
	cat err
	[ "$(grep -c warning err)" -eq 1 ] || fail "$(cat err)"
	grep -q "several events (cpu-clock, task-clock): the flame graph shows .cpu-clock. (--event NAME" err ||
		fail "$(cat err)"
	grep -q ">cpu-clock: [0-9]* samples" first.svg || fail "not cpu-clock"
	"$R" --flamegraph task.svg --event task-clock -i "$F/two.data" 2>err
	[ ! -s err ] || fail "$(cat err)"
	grep -q ">task-clock: [0-9]* samples" task.svg || fail "--event task-clock drew another"
	rc=0; "$R" --flamegraph n.svg --event cycles -i "$F/two.data" 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"
	grep -qx "xperf report: error: no event .cycles. in the file: its events with samples are cpu-clock, task-clock" err ||
		fail "$(cat err)"
'

# boxes FILE.svg: "index depth x w y name" of every box, in the order of the file
boxes() {
	python3 - "$1" <<'EOF'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
frames = ET.parse(sys.argv[1]).getroot().find(".//s:g[@id='frames']", ns)
for i, g in enumerate(frames.findall("s:g", ns)):
    r = g.find("s:rect", ns)
    print(i, g.get("data-d"), g.get("data-x"), g.get("data-w"), r.get("y"), g.get("data-n"))
EOF
}
export -f boxes

test_case "boxes are written depth first: each inside the caller the zoom finds for it" '
	need py.data
	have_python
	"$R" --flamegraph py.svg -i "$F/py.data" 2>err
	boxes py.svg >b
	echo "$(wc -l <b) boxes"
	[ "$(wc -l <b)" -gt 200 ] || fail "only $(wc -l <b) boxes in the Python profile"
	# the script takes the nearest box before a box, one row lower, as its caller
	awk "{ d = \$2; x = \$3; w = \$4
	       if (d > 0) { split(last[d - 1], q, \" \")
	         if (x < q[1] - 1e-12 || x + w > q[1] + q[2] + 1e-12) { print \"box \" \$1 \" outside its caller\"; bad++ } }
	       last[d] = x \" \" w }
	     END { exit bad > 0 }" b || fail "$(head -n 3 b)"
'

test_case "a click in Chromium zooms into a box: its callers stay, the rest goes" '
	need py.data
	need g.data
	have_browser
	"$R" --flamegraph py.svg -i "$F/py.data" 2>err
	"$R" --flamegraph g.svg -i "$F/g.data" 2>err
	browse py.svg zoom 120 >out || fail "the driver: $(cat out)"
	cat out
	grep -q "^clicked [0-9]*, mouse [1-9][0-9]*, bad 0$" out || fail "$(head -n 5 out)"
	browse g.svg zoom >out || fail "the driver: $(cat out)"
	cat out
	grep -q "^clicked [0-9]*, mouse [1-9][0-9]*, bad 0$" out || fail "$(head -n 5 out)"
'

test_case "Ctrl-F in Chromium: the matches turn magenta, Matched: their share as the report" '
	need g.data
	have_browser
	"$R" --flamegraph g.svg -i "$F/g.data" 2>err
	browse g.svg search "^work_[ab]\$" >out || fail "the driver: $(cat out)"
	cat out
	[ "$(grep "^box " out | sort -u | tr "\n" " ")" = "box work_a box work_b " ] ||
		fail "highlighted: $(grep "^box " out | sort -u)"
	got=$(sed -n "s/^matched Matched: \([0-9.]*\)%$/\1/p" out)
	"$R" --stdio --children -g none --sort sym -i "$F/g.data" >rep
	want=$(awk "\$NF == \"work_a\" || \$NF == \"work_b\" { sub(/%/, \"\", \$1); s += \$1 } END { print s }" rep)
	echo "matched $got%, report $want%"
	[ -n "$got" ] && awk -v a="$got" -v b="$want" "BEGIN { d = a - b; if (d < 0) d = -d; exit d > 0.3 }" ||
		fail "Matched $got%, the report $want%"
	grep -q "^button Reset Search$" out || fail "the button does not say Reset Search"
	grep -q "^after reset  , 0 highlighted$" out || fail "$(tail -n 1 out)"
'

test_case "--flamegraph-inverted: an icicle graph, the same boxes with the root on top" '
	need g.data
	have_python
	"$R" --flamegraph up.svg -i "$F/g.data"
	"$R" --flamegraph down.svg --flamegraph-inverted -i "$F/g.data"
	grep -q ">Icicle Graph</text>" down.svg || fail "title: $(grep -o "id=.title[^<]*" down.svg)"
	widths up.svg >a
	widths down.svg >b
	cmp -s a b || fail "other boxes: $(diff a b | head -n 5)"
	# y grows with the depth, the root on the first row under the title
	boxes down.svg | awk "{ if (\$2 in y && y[\$2] != \$5) bad = 1; y[\$2] = \$5 }
		END { for (d = 1; d in y; d++) if (y[d] <= y[d - 1]) bad = 1; exit bad || y[0] != 60 }" ||
		fail "rows: $(boxes down.svg | head -n 3)"
	boxes up.svg | awk "\$2 == 0 { exit !(\$5 > 60 + 16) }" || fail "the default is not a flame graph"
	rc=0; "$R" --stdio --flamegraph-inverted -i "$F/g.data" >/dev/null 2>err || rc=$?
	[ $rc -eq 1 ] || fail "--stdio --flamegraph-inverted: exit $rc"
	grep -q "flamegraph-inverted. is not supported with .--stdio." err || fail "$(cat err)"
'

test_case "an unwritable output: one error naming it, exit 2" '
	need flat.data
	rc=0; "$R" --flamegraph /nonexistent/dir/fg.svg -i "$F/flat.data" 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	grep -q "^xperf report: error: cannot write '"'"'/nonexistent/dir/fg.svg'"'"'" err || fail "$(cat err)"
'

test_case "--flamegraph with --stats is a usage error" '
	need flat.data
	rc=0; "$R" --flamegraph fg.svg --stats -i "$F/flat.data" 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"
	[ ! -e fg.svg ] || fail "wrote the file anyway"
'

test_done
