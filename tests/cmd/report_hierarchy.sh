#!/usr/bin/env bash
# xperf report --hierarchy (the sort keys as levels of a tree, graphs below the last level)
# against perf report --stdio --hierarchy on the same files, line for line and in order:
# the default keys and others, children given or not (the hierarchy shows own periods),
# -g none and graph modes, -n, --show-total-period, --percent-limit, -q, groups, a file
# without call chains; files recorded by perf (-N) and by xperf. Then what it refuses:
# -F (as perf); report_modes.sh tests the TUI's and the exports' refusals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_compare.sh"

R=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
export R WL

# The files, recorded once for every case (a case that finds one missing skips, saying so).
FILES=$TEST_TMP/files
mkdir -p "$FILES"
record_all() {
	have_perf || return 0
	(cd "$FILES" &&
		perf_run record -q -N --no-bpf-event -g -o g.data -- "$WL/cxx_inline" 0.5 &&
		perf_run record -q -N --no-bpf-event -o flat.data -- "$WL/libc_sort" 0.3 &&
		perf_run record -q -N --no-bpf-event -g -e '{cpu-clock,task-clock}' \
			-o grp.data -- "$WL/two_callers" 0.4 &&
		"$XPERF_BUILD/xperf-record" -q --call-graph fp -o xg.data -- "$WL/threads" 0.4 &&
		"$XPERF_BUILD/xperf-record" -q -o xflat.data -- "$WL/cxx_inline" 0.3
	) >"$FILES/rec.log" 2>&1 || echo "recording failed: $(tail -n 3 "$FILES/rec.log")" >"$FILES/failed"
}
record_all
export FILES

# same_tree FILE OPTS...: perf and xperf print the same --hierarchy report, every line in
# its order (padding too), but for perf's random tip; vdso spelled one way; --no-inline on
# both sides (see lib_compare.sh); `drop` (a grep -E regex) leaves lines out. perf.out,
# xperf.out and tree.diff are left.
same_tree() {
	local f=$1
	shift
	perf_run report --stdio --no-inline --hierarchy "$@" -i "$f" 2>perf.err |
		grep -v "^# (Tip:" | grep -Ev "${drop:-^\$^}" | normalize_vdso "$f" >perf.out ||
		fail "perf $*: $(tail -n 3 perf.err)"
	"$R" --stdio --no-inline --hierarchy "$@" -i "$f" 2>xperf.err |
		grep -v "^# (Tip:" | grep -Ev "${drop:-^\$^}" | normalize_vdso "$f" >xperf.out ||
		fail "xperf $*: $(cat xperf.err)"
	grep -q '^ *[0-9.]*%  ' perf.out || fail "perf $*: no entries"
	diff perf.out xperf.out >tree.diff || fail "$*: differs: $(head -n 16 tree.diff)"
}
export -f same_tree

for who in perf xperf; do
	if [ $who = perf ]; then g=g.data flat=flat.data; else g=xg.data flat=xflat.data; fi
	export g flat

	perf_case "default keys, children or not, file with chains by $who" '
		f=$(need $g)
		same_tree "$f"
		grep -q "Command / Shared Object / Symbol" xperf.out || fail "no hierarchy title"
		grep -q "^ *---" xperf.out || fail "no graph below the symbols"
		same_tree "$f" --children
		same_tree "$f" --no-children
		same_tree "$f" -g none
		same_tree "$f" --no-children -g none
	'

	perf_case "--sort dso,sym and -s comm, sym,dso, pid,sym, file by $who" '
		f=$(need $g)
		same_tree "$f" --sort dso,sym
		same_tree "$f" -s comm
		same_tree "$f" -s sym,dso -g none
		same_tree "$f" -s pid,sym -g none
		same_tree "$f" -s dso,comm -g none
	'

	perf_case "-n, --show-total-period, --percent-limit, -q, file by $who" '
		f=$(need $g)
		same_tree "$f" -n
		same_tree "$f" --show-total-period -g none
		same_tree "$f" -n --show-total-period -g none --sort dso,sym
		same_tree "$f" --percent-limit 2 -g none
		same_tree "$f" --percent-limit 2
		same_tree "$f" -q -g none
		# a level whose entries are all under the limit says so (cxx_inline: its own
		# DSO above 50 %, its three hot functions a third each)
		same_tree "$f" --percent-limit 50
		same_tree "$f" -n --percent-limit 50 -g none
		[ $who = xperf ] || grep -q "^ *no entry >= 50.00%\$" xperf.out ||
			fail "no \"no entry\" line"
	'

	perf_case "a filter down to one name keeps its level, file by $who" '
		f=$(need $g)
		comm=$(awk "/^ +[0-9.]+%/ { print \$2; exit }" <(
			"$R" --stdio -q --no-children -g none -s comm -i "$f"))
		[ -n "$comm" ] || fail "no command in the file"
		# perf says "# comm: NAME" above the report, which the flat view lacks too
		drop="^# (comm|dso): " same_tree "$f" --comms "$comm" -g none
		grep -q "Command / Shared Object / Symbol" xperf.out || fail "the level was dropped"
	'

	perf_case "graph modes below the last level, file by $who" '
		f=$(need $g)
		same_tree "$f" -g caller
		same_tree "$f" --no-children -g callee
		same_tree "$f" -g flat
		same_tree "$f" -g folded
		same_tree "$f" -G
	'

	perf_case "a file without call chains, by $who" '
		f=$(need $flat)
		same_tree "$f"
		same_tree "$f" -n --show-total-period
		same_tree "$f" --sort dso,sym
		same_tree "$f" -s comm -q
	'
done

perf_case "groups: the members side by side at every level" '
	f=$(need grp.data)
	same_tree "$f"
	same_tree "$f" -g none -n --show-total-period
	same_tree "$f" --sort dso,sym -g none
	same_tree "$f" --no-group -g none
	grep -q "^ *[0-9.]*%  *[0-9.]*%  " xperf.out && fail "--no-group: two columns"
	:
'

test_case "-F: refused as perf refuses it, one error line" '
	f=$(need xflat.data)
	! "$R" --stdio --hierarchy -F overhead,sym -i "$f" >out 2>err || fail "-F taken"
	[ ! -s out ] || fail "a report was printed: $(head -n 3 out)"
	[ "$(wc -l <err)" = 1 ] || fail "not one line: $(cat err)"
	grep -q -- "--hierarchy and --fields options cannot be used together" err ||
		fail "message: $(cat err)"
'

test_case "-v: each symbol with its address and origin, as in the flat view" '
	f=$(need xflat.data)
	"$R" --stdio -v --no-children -g none -i "$f" >flat.out 2>err || fail "flat: $(cat err)"
	"$R" --stdio -v --hierarchy -i "$f" >tree.out 2>err || fail "tree: $(cat err)"
	for o in flat tree; do
		sed -n "s/^ *[0-9.]*%  .*\(0x[0-9a-f]* *[a-zA-Z] \[.\] .*\)\$/\1/p" $o.out |
			sed "s/ *\$//" | sort >$o.syms
	done
	[ -s flat.syms ] || fail "no -v symbols in the flat view: $(head -n 12 flat.out)"
	diff flat.syms tree.syms >syms.diff || fail "$(head -n 8 syms.diff)"
'

test_done
