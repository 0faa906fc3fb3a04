#!/usr/bin/env bash
# xperf report's call-graph modes (-g graph, fractal, flat, folded with order, threshold,
# print limit and value), -G, --percent-limit on call graphs, and files with several events
# (a section each, --group side by side), against perf report on the same files.
# Call graphs are compared entry by entry, the entry line and every line of its graph
# exactly; the order of entries with equal values is left to the report's sort tests.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_compare.sh"

R=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
export R WL

# blocks FILE <REPORT: each entry with the lines below it (its graph) as one line, "\t"
# for newlines, sorted; vdso spelled one way, and [vdso] entries left out: where perf
# cannot resolve the vdso (no build-id cache) it keys them otherwise (see lib_compare.sh).
# perf's fractal "[...]" branch is a symbol it mallocs and does not clear: whether it
# prints " (inlined)" after it depends on what the heap held, so that is dropped.
# perf gives an entry without a map (an unmapped chain frame) the level of the address its
# sample resolved before it (fill_callchain_info leaves al->level as it was), [.] or [k]
# by the order of the frames, which xperf does not follow (yet): that level is masked.
blocks() {
	normalize_vdso "$1" | sed -E "s/--\[\.\.\.\] \(inlined\)$/--[...]/; s/(\[unknown\] +)\[k\] /\1[.] /" | awk '
	function out() { if (b != "") { sub(/\t+$/, "", b); if (b !~ /^[^\t]*\[vdso\] +\[\.\] \[vdso\]/) print b } b = "" }
	/^ +[0-9.]+%/ { out(); b = $0; next }
	/^#/ { out(); next }
	b != "" { b = b "\t" $0 }
	END { out() }' | sort
}

# same_graphs FILE OPTS...: perf and xperf print the same entries with the same graphs
# (perf.blocks, xperf.blocks and blocks.diff are left)
same_graphs() {
	local f=$1
	shift
	perf_run report --stdio "$@" -i "$f" >perf.out 2>perf.err || fail "perf $*: $(tail -n 3 perf.err)"
	"$R" --stdio "$@" -i "$f" >xperf.out 2>xperf.err || fail "xperf $*: $(cat xperf.err)"
	blocks "$f" <perf.out >perf.blocks
	blocks "$f" <xperf.out >xperf.blocks
	[ -s perf.blocks ] || fail "perf $*: no entries"
	diff <(tr '\t' '\n' <perf.blocks) <(tr '\t' '\n' <xperf.blocks) >blocks.diff ||
		fail "$*: entries or graphs differ: $(head -n 24 blocks.diff)"
}

# same_text FILE OPTS...: perf and xperf print the same report, line for line, but for
# perf's random tip
same_text() {
	local f=$1
	shift
	perf_run report --stdio "$@" -i "$f" 2>perf.err | grep -v "^# (Tip:" >perf.out ||
		fail "perf $*: $(tail -n 3 perf.err)"
	"$R" --stdio "$@" -i "$f" 2>xperf.err | grep -v "^# (Tip:" >xperf.out ||
		fail "xperf $*: $(cat xperf.err)"
	diff perf.out xperf.out >text.diff || fail "$*: differs: $(head -n 12 text.diff)"
}
export -f blocks same_graphs same_text

perf_case "a filter down to one name: a line naming it above the report, the column dropped, as perf" '
	prec -g -o one.data -- "$WL/two_callers" 0.3
	same_text one.data --no-children -g none -c two_callers
	grep -qx "# comm: two_callers" xperf.out || fail "no comm line: $(head -n 4 xperf.out)"
	same_text one.data --no-children -g none -S leaf_work
	grep -qx "# symbol: leaf_work" xperf.out || fail "no symbol line: $(head -n 4 xperf.out)"
	if grep "^# Overhead" xperf.out | grep -q Symbol; then fail "the symbol column is shown"; fi
	same_text one.data --no-children -g none -d two_callers -c two_callers -q
	same_text one.data --no-children -c two_callers -S leaf_work,shared_work
	# only the columns shown: a comm filter with --sort dso or -F without comm
	same_text one.data --no-children -g none -c two_callers --sort dso
	if grep -q "^# comm" xperf.out; then fail "a comm line without the comm column"; fi
	same_text one.data --no-children -g none -c two_callers -F overhead,sym
'

perf_case "-g graph, fractal, flat, folded, caller and callee, children and not: as perf" '
	prec -g -o t.data -- "$WL/two_callers" 0.5
	prec -g -o r.data -- "$WL/recurse" 0.5
	for f in t.data r.data; do
		for mode in graph fractal flat folded; do
			same_graphs $f -g $mode
			same_graphs $f --no-children -g $mode
			same_graphs $f --children -g $mode,callee
			same_graphs $f --no-children -g $mode,caller
		done
		[ $f = r.data ] || grep -q "main;caller_one;shared_work;leaf_work$" xperf.out ||
			fail "no caller_one folded stack"
	done
'

perf_case "-g threshold, print limit and value: fractal [...] branches, limited levels" '
	prec -g -o t.data -- "$WL/two_callers" 0.5
	prec -g -o s.data -- "$WL/shares" 0.5
	for f in t.data s.data; do
		for g in fractal,5,period fractal,0.5,1,callee fractal,0,count fractal,0,1,count \
			 graph,0,2 graph,0.5,1,caller,count flat,0,2 flat,2,period folded,0,3,count \
			 folded,1,percent; do
			same_graphs $f -g $g
			same_graphs $f --no-children -g $g
		done
	done
	same_graphs t.data --no-children -g fractal,0.5,1,callee
	grep -q -- "--[0-9.]*%--\[\.\.\.\]$" xperf.out || fail "no [...] branch with print limit 1"
'

perf_case "-g alone, -g WORD as the next argument, words by prefix, --no-call-graph: as perf" '
	prec -g -o t.data -- "$WL/two_callers" 0.5
	# -g alone is graph,0.5,caller,function,percent: caller order even without children
	same_graphs t.data --no-children -g
	"$R" --stdio --no-children -i t.data -g >end.out 2>xperf.err || fail "$(cat xperf.err)"
	diff <(blocks t.data <end.out) xperf.blocks >d || fail "-g last differs from -g -i"
	same_graphs t.data -g caller --no-children
	same_graphs t.data --no-children -g f
	same_graphs t.data -g fo,0,c,co
	same_graphs t.data -g fr,1,p
	same_graphs t.data --no-children --no-call-graph
	! grep -q -- "---" xperf.out || fail "graph lines with --no-call-graph"
'

perf_case "-G/--inverted: caller order whatever -g and --children say, as perf" '
	prec -g -o t.data -- "$WL/two_callers" 0.5
	same_graphs t.data -G --no-children
	same_graphs t.data --inverted -g callee --no-children
	same_graphs t.data -G -g fractal
	"$R" --stdio -q --no-children -g caller -i t.data >caller.out 2>/dev/null
	"$R" --stdio -q --no-children -G -i t.data >inverted.out 2>/dev/null
	diff caller.out inverted.out >d || fail "-G is not -g caller: $(head -n 6 d)"
'

perf_case "--percent-limit prunes call-graph branches as perf (the later of it and -g wins)" '
	prec -g -o s.data -- "$WL/shares" 0.5
	# work_a, work_b and work_c take about 50, 30 and 20 % of the time: 25 splits them
	same_graphs s.data --percent-limit 25
	same_graphs s.data -g graph,1 --percent-limit 25
	same_graphs s.data --percent-limit 25 -g graph,1
	same_graphs s.data --no-children --percent-limit 2 -g fractal
	same_graphs s.data --no-children --percent-limit 10 -g flat
	"$R" --stdio -q --percent-limit 25 -g graph,1 -i s.data >a.out 2>/dev/null
	"$R" --stdio -q -g graph,1 --percent-limit 25 -i s.data >b.out 2>/dev/null
	! diff -q a.out b.out >/dev/null || fail "the order of -g and --percent-limit changed nothing"
'

perf_case "--max-stack with fractal, flat and folded chains: as perf" '
	prec -g -o r.data -- "$WL/recurse" 200 0.3
	for ms in 1 10; do
		same_graphs r.data --max-stack $ms -g fractal
		same_graphs r.data --no-children --max-stack $ms -g flat
		same_graphs r.data --max-stack $ms -g folded,0,callee,count
	done
'

test_case "-g address and bad -g words: usage errors naming them, exit 1" '
	for g in address graph,x bogus; do
		rc=0; "$R" --stdio -g $g -i "$TOP/tests/corpus/good/callchain.bin" >out 2>err || rc=$?
		[ "$rc" -eq 1 ] || fail "-g $g: exit $rc: $(cat err)"
		grep -q -- "-g" err || fail "-g $g: message: $(cat err)"
	done
	grep -q "address.*not supported" <("$R" --stdio -g address -i "$TOP/tests/corpus/good/callchain.bin" 2>&1) ||
		fail "-g address is not said to be unsupported"
'

perf_case "two events: a section each with perf's header lines, line for line" '
	prec -e cpu-clock,task-clock -o e.data -- "$WL/shares" 0.3
	same_text e.data
	[ "$(grep -c "^# Samples: " xperf.out)" -eq 2 ] || fail "not two sections"
	same_text e.data -n --sort dso,sym
	# perf forces a group of the events: --no-group says "events" for the first
	same_text e.data --no-group
	grep -q "^# Samples: .* of events .cpu-clock.$" xperf.out || fail "no forced leader head"
	# and --group puts them side by side, named without braces
	same_text e.data --group
	grep -q "^# Samples: .* of events .cpu-clock, task-clock.$" xperf.out || fail "no group head"
'

perf_case "a software event and a tracepoint: a section each, line for line as perf" '
	[ -d /sys/kernel/tracing/events/raw_syscalls ] || [ -d /sys/kernel/debug/tracing/events/raw_syscalls ] ||
		skip "no raw_syscalls tracepoints (tracefs not mounted)"
	prec -e cpu-clock -e raw_syscalls:sys_enter -o tp.data -- "$WL/shares" 0.3
	same_text tp.data
	grep -q "^# Samples: .* of event .raw_syscalls:sys_enter.$" xperf.out || fail "no tracepoint section"
	same_text tp.data --sort comm
	same_text tp.data --group
'

perf_case "{cpu-clock,task-clock}: one section side by side (perf's default), --group options" '
	prec -e "{cpu-clock,task-clock}" -o grp.data -- "$WL/shares" 0.3
	same_text grp.data
	grep -q "^# Samples: .* of events .anon group { cpu-clock, task-clock }.$" xperf.out ||
		fail "no group head: $(grep "^# Samples" xperf.out)"
	grep -q "^#         Overhead  Command" xperf.out || fail "titles: $(grep Overhead xperf.out)"
	same_text grp.data --group -n
	same_text grp.data --group -n --show-total-period
	same_text grp.data --group --percent-limit 1
	same_text grp.data --group --sort dso,sym
	same_text grp.data --no-group
	[ "$(grep -c "^# Samples: " xperf.out)" -eq 2 ] || fail "--no-group: not two sections"
'

perf_case "{cpu-clock,task-clock} -g: Children and Self side by side, the leader's graphs" '
	prec -g -e "{cpu-clock,task-clock}" -o gg.data -- "$WL/two_callers" 0.3
	same_graphs gg.data
	grep -q "^#         Children              Self  Command" xperf.out ||
		fail "titles: $(grep Children xperf.out)"
	same_graphs gg.data --no-children
	same_graphs gg.data -n -g folded,0,count
	same_graphs gg.data --show-total-period
	same_graphs gg.data --no-children -g fractal,0.5,callee
	same_graphs gg.data --percent-limit 5
'

if [ -x "$XPERF_BUILD/xperf-record" ]; then
	perf_case "xperf-record {cpu-clock,task-clock} and -g files: as perf reads them" '
		"$XPERF_BUILD/xperf-record" -e "{cpu-clock,task-clock}" -o xg.data -- "$WL/shares" 0.3 \
			>/dev/null 2>rec.err || fail "record: $(cat rec.err)"
		same_text xg.data
		grep -q "of events .anon group" xperf.out || fail "no group section"
		"$XPERF_BUILD/xperf-record" -g -o x.data -- "$WL/two_callers" 0.5 >/dev/null 2>rec.err ||
			fail "record: $(cat rec.err)"
		same_graphs x.data -g fractal
		same_graphs x.data --no-children -g flat
	'
else
	skip_case "xperf-record {cpu-clock,task-clock} and -g files: as perf reads them" \
		"xperf-record is not built"
fi

test_done
