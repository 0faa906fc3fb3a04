#!/usr/bin/env bash
# xperf report's call-graph views against perf report on the same -g files: the Children and
# Self columns (perf's default for such files), the folded stacks, and perf's graph layout.
. "$(dirname "$0")/lib.sh"

R=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
export R WL

# prec, rows and same_children: the comparisons the report suites share
. "$(dirname "$0")/lib_compare.sh"

# same_folded OPTS FILE: the same folded stacks with the same sample counts, under the
# same entries (entry lines reduced to their columns, stacks sorted within an entry), vdso
# frames and rows as normalize_vdso spells them: the counts of stacks made equal summed, and
# [vdso] entries without their percentages or stacks: where perf cannot resolve the vdso
# (no build-id cache, as on a fresh machine) it keys the self row by map-relative address
# and the callchain row by raw ip, two entries where we have one. vdso frames inside
# other entries' stacks are still compared.
same_folded() {
	local f=$1
	shift
	perf_run report --stdio -q "$@" -i "$f" >perf.out 2>perf.err || fail "perf: $(tail -n 3 perf.err)"
	"$R" --stdio -q "$@" -i "$f" >xperf.out 2>xperf.err || fail "xperf: $(cat xperf.err)"
	norm() {
		normalize_vdso "$f" <"$1" |
			awk '/^ +[0-9.]+% / { $1 = $1; e = $0; v = 0; if (e ~ / \[vdso\] \[\.\] \[vdso\]$/) {
						while (sub(/^[0-9.]+% /, "", e)) ; v = 1 }; next }
			     v { next }
			     /^[0-9]/ { s = $0; sub(/^[0-9]+ /, "", s); k = e " | " s
					if (!(k in N)) K[++n] = k; N[k] += $1; E[k] = e; S[k] = s }
			     END { for (i = 1; i <= n; i++) print E[K[i]] " | " N[K[i]] " " S[K[i]] }' |
			sort
	}
	norm perf.out >perf.folded
	norm xperf.out >xperf.folded
	[ -s perf.folded ] || fail "perf printed no folded stacks"
	diff perf.folded xperf.folded >folded.diff || fail "folded stacks differ: $(head -n 6 folded.diff)"
}
export -f same_folded

perf_case "shares -g: Children/Self of the top 20 entries as perf's (perf's default view)" '
	prec -g -o g.data -- "$WL/shares" 0.5
	perf_run report --stdio --children -g none -i g.data >perf.out 2>/dev/null
	"$R" --stdio -g none -i g.data >xperf.out 2>xperf.err || fail "$(cat xperf.err)"
	grep -q "^# Children      Self  Command" xperf.out || fail "no Children/Self titles"
	same_children perf.out xperf.out
	grep -q "\[\.\] do_round$" xperf.out || fail "no do_round entry"
	awk "/\\[\\.\\] main\$/ { sub(/%/, \"\", \$1); exit !(\$1 > 90) }" xperf.out ||
		fail "main does not hold its callees: $(grep "\] main$" xperf.out)"
'

perf_case "shares -g: folded stacks with counts, caller and callee, children and not" '
	prec -g -o g.data -- "$WL/shares" 0.5
	same_folded g.data --no-children -g folded,0,caller,count
	grep -q "level8;do_round;work_a$" xperf.folded || fail "no full work_a stack"
	same_folded g.data --no-children -g folded,0,callee,count
	same_folded g.data --children -g folded,0,caller,count
	same_folded g.data --children -g folded,0.5,callee,period
'

perf_case "recurse -g: recursion counted once per sample in Children, same stacks" '
	prec -g -o r.data -- "$WL/recurse" 0.5
	perf_run report --stdio --children -g none -i r.data >perf.out 2>/dev/null
	"$R" --stdio --children -g none -i r.data >xperf.out 2>xperf.err || fail "$(cat xperf.err)"
	same_children perf.out xperf.out
	awk "/^ +[0-9.]+% / { sub(/%/, \"\", \$1); if (\$1 + 0 > 100.001) exit 1 }" xperf.out ||
		fail "a Children value over 100%"
	same_folded r.data --no-children -g folded,0,caller,count
	same_folded r.data --children -g folded,0,caller,count
'

perf_case "recurse 200 deep: chains cut (kernel, --max-stack) keep the self time on the leaf, as perf" '
	prec -g -o r.data -- "$WL/recurse" 200 0.5
	for ms in "" 0 1 10 127; do
		opt=${ms:+--max-stack $ms}
		perf_run report --stdio --children -g none $opt -i r.data >perf.out 2>/dev/null
		"$R" --stdio --children -g none $opt -i r.data >xperf.out 2>xperf.err ||
			fail "$opt: $(cat xperf.err)"
		same_children perf.out xperf.out || fail "children rows differ with ${opt:-no --max-stack}"
		# the self time stays on bottom_work, the leaf, however short the chain
		awk "\$NF == \"bottom_work\" { sub(/%/, \"\", \$2); f = 1; exit !(\$2 > 50) } END { exit !f }" \
			xperf.out || fail "$opt: bottom_work has not the self time: $(grep bottom_work xperf.out)"
		[ "$ms" = 0 ] && continue # no chains: nothing folded on either side
		same_folded r.data --children -g folded,0,caller,count $opt
		same_folded r.data --no-children -g folded,0,callee,count $opt
	done
	grep -q "recurse;recurse;recurse;recurse;recurse;recurse;recurse;recurse;recurse;recurse\$" \
		xperf.folded || fail "no 10-frame recurse chain with --max-stack 10"
'

test_case "--max-stack takes a number of frames" '
	rc=0; "$R" --max-stack x -i "$TOP/tests/corpus/good/callchain.bin" >out 2>err || rc=$?
	[ "$rc" -eq 1 ] || fail "exit $rc: $(cat err)"
	grep -q "max-stack" err || fail "message: $(cat err)"
	"$R" --max-stack 5 -i "$TOP/tests/corpus/good/callchain.bin" >out 2>err || fail "$(cat err)"
'

perf_case "graph (the default print mode): the same lines as perf for the main entries" '
	prec -g -o g.data -- "$WL/shares" 0.5
	perf_run report --stdio -i g.data >perf.out 2>/dev/null
	"$R" --stdio -i g.data >xperf.out 2>xperf.err || fail "$(cat xperf.err)"
	grep -q -- "--[0-9.]*%--work_a$" xperf.out || fail "no work_a branch"
	# each entry block of perf (entry line and its graph) whose entry is in the top 12 of
	# both sides and whose Children value is unique: the same block in xperf
	blocks() { awk "/^ +[0-9.]+% / { n++ } n <= 12 { print n \"\\t\" \$0 }" "$1"; }
	for e in main do_round work_a work_b level4; do
		awk -v e="$e" "/^ +[0-9.]+% / { p = (\$NF == e) } p" perf.out >p.$e
		awk -v e="$e" "/^ +[0-9.]+% / { p = (\$NF == e) } p" xperf.out >x.$e
		[ -s p.$e ] || continue
		diff <(normalize_vdso g.data <p.$e) <(normalize_vdso g.data <x.$e) >d.$e ||
			fail "graph of $e differs: $(head -n 8 d.$e)"
	done
	perf_run report --stdio --no-children -i g.data >perf.out 2>/dev/null
	"$R" --stdio --no-children -i g.data >xperf.out 2>xperf.err || fail "$(cat xperf.err)"
	for e in work_a work_b; do
		awk -v e="$e" "/^ +[0-9.]+% / { p = (\$NF == e) } p" perf.out >p.$e
		awk -v e="$e" "/^ +[0-9.]+% / { p = (\$NF == e) } p" xperf.out >x.$e
		diff <(normalize_vdso g.data <p.$e) <(normalize_vdso g.data <x.$e) >d.$e ||
			fail "callee graph of $e differs: $(head -n 8 d.$e)"
	done
'

perf_case "stripped program: chain entries by raw address, self entries by file offset, as perf" '
	command -v strip >/dev/null || skip "strip (binutils) is absent"
	cp "$WL/shares" stripped && strip stripped
	prec -g -o s.data -- ./stripped 0.3
	perf_run report --stdio --children -g none -i s.data >perf.out 2>/dev/null
	"$R" --stdio --children -g none -i s.data >xperf.out 2>xperf.err || fail "$(cat xperf.err)"
	same_children perf.out xperf.out
	# the hot code of the stripped program is two entries: its self time under the address
	# in the file, its callers time under the address in the process (PIE: far above)
	sig() { awk "\$4 == \"stripped\" && \$NF ~ /^0x/ { a = \$NF; sub(/^0x0*/, \"\", a); print \$2, length(a) }" xperf.out; }
	self=$(sig | awk "\$1 != \"0.00%\" && \$2 <= 6" | head -n 1)
	chain=$(sig | awk "\$1 == \"0.00%\" && \$2 >= 9" | head -n 1)
	[ -n "$self" ] && [ -n "$chain" ] || fail "want both a file-offset self row and a raw-address chain row"
	same_folded s.data --children -g folded,0,caller,count
	same_folded s.data --no-children -g folded,0,callee,count
	perf_run report --stdio --no-children -i s.data >perf.out 2>/dev/null
	"$R" --stdio --no-children -i s.data >xperf.out 2>xperf.err || fail "$(cat xperf.err)"
	# graph lines name raw addresses on both sides
	diff <(grep -oE -- "--0x[0-9a-f]+|^ +0x[0-9a-f]+" perf.out | sort -u) \
	     <(grep -oE -- "--0x[0-9a-f]+|^ +0x[0-9a-f]+" xperf.out | sort -u) >d ||
		fail "graph addresses differ: $(head -n 6 d)"
'

perf_case "stripped program: every line in perf's order, ties included, in 12 graph views" '
	command -v strip >/dev/null || skip "strip (binutils) is absent"
	cp "$WL/shares" stripped && strip stripped
	prec -g -o s.data -- ./stripped 0.3
	# many entries tie (an address each, the same share): perf orders them by the depth of
	# their chains, then by signed address difference (_sort__addr_cmp)
	for s in sym comm,dso,sym pid,sym; do for c in --children --no-children; do for g in caller callee; do
		perf_run report --stdio $c --sort $s -g $g -i s.data 2>/dev/null | grep -v "^#" >perf.out
		"$R" --stdio $c --sort $s -g $g -i s.data 2>xperf.err | grep -v "^#" >xperf.out ||
			fail "$(cat xperf.err)"
		diff perf.out xperf.out >d || fail "$s $c -g $g: $(head -n 8 d)"
	done; done; done
'

perf_case "garbage frame pointers (xz): [k]/[.] and order of unmapped entries as perf's" '
	command -v xz >/dev/null || skip "xz is absent"
	head -c 8000000 /dev/urandom >in.bin
	prec -g -o xz.data -- xz -k -c -6 in.bin
	# chains of a program without frame pointers end in garbage: an entry keeps the level
	# of the sample that made it first, the level before it as perf walks the chain (the
	# sample level [k] for a kernel sample walked outermost first, the user frame before it
	# [.] walked innermost first); garbage addresses compare by their signed difference, no
	# order: the trees of perf place them, in the order the samples made them
	for g in caller callee; do
		perf_run report --stdio --children --sort sym -g $g -i xz.data 2>/dev/null |
			grep -v "^#" >perf.$g
		"$R" --stdio --children --sort sym -g $g -i xz.data 2>xperf.err |
			grep -v "^#" >xperf.$g || fail "$(cat xperf.err)"
		grep -qE "\] 0x[0-9a-f]+$" perf.$g || skip "no unmapped entries in this recording"
		diff perf.$g xperf.$g >d || fail "-g $g: $(grep -c "^<" d) lines differ: $(head -n 6 d)"
	done
	grep -q "\[k\] 0x" perf.caller || skip "no kernel sample reached a garbage frame"
'

perf_case "threads of one command (sort): entries that tie in perf's order, every line" '
	seq 1 300000 | awk "{ srand(\$1); printf \"%08x %s\\n\", rand() * 2^31, \$1 }" >lines
	prec -g -o s.data -- sort --parallel=2 -S 64M lines
	# perf compares the depths of the chains of two entries only when the samples that made
	# them came from one thread, whatever their command: no order, so the shape of its
	# tree places entries that tie, as the order their samples made them in decides
	for c in comm,dso,sym sym; do for g in caller callee; do
		perf_run report --stdio --children --sort $c -g $g -i s.data 2>/dev/null |
			grep -v "^#" >perf.out
		"$R" --stdio --children --sort $c -g $g -i s.data 2>xperf.err | grep -v "^#" >xperf.out ||
			fail "$(cat xperf.err)"
		diff perf.out xperf.out >d || fail "--sort $c -g $g: $(grep -c "^<" d) lines differ: $(head -n 8 d)"
	done; done
	[ "$(perf_run script -F tid -i s.data 2>/dev/null | sort -u | wc -l)" -ge 2 ] ||
		skip "sort sampled one thread only"
'

perf_case "callee graphs (node): siblings of one share in the order perf made their DSOs" '
	command -v node >/dev/null || skip "node is absent"
	cat >js.js <<-EOF
	function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
	let s = 0; const o = {};
	for (let i = 0; i < 200000; i++) { o["k" + (i % 1000)] = JSON.stringify({ i }); }
	for (let i = 0; i < 26; i++) s += fib(i);
	console.log(s, Object.keys(o).length);
	EOF
	# perf orders the callers of a frame that tie by their DSOs as it allocated them: those
	# of the BUILD_ID feature first, as it reads the header, then the others (ld.so, met in
	# chains only) as their maps come; half the recordings have such ties: two are made
	for i in 1 2; do
		prec -F 997 -g -o n$i.data -- node --perf-basic-prof js.js
		for p in $(perf_run script -F pid -i n$i.data 2>/dev/null | sort -u); do
			rm -f "/tmp/perf-$p.map"
		done
		for c in --children --no-children; do
			perf_run report --stdio $c -g callee --sort dso,sym -i n$i.data 2>/dev/null |
				grep -v "^#" >perf.out
			"$R" --stdio $c -g callee --sort dso,sym -i n$i.data 2>xperf.err |
				grep -v "^#" >xperf.out || fail "$(cat xperf.err)"
			diff perf.out xperf.out >d || fail "$c: $(grep -c "^<" d) lines differ: $(head -n 8 d)"
		done
	done
'

if [ -x "$XPERF_BUILD/xperf-record" ]; then
	perf_case "xperf-record -g file: Children/Self and folded stacks as perf reads them" '
		"$XPERF_BUILD/xperf-record" -g -o x.data -- "$WL/shares" 0.5 >/dev/null 2>rec.err ||
			fail "record: $(cat rec.err)"
		perf_run report --stdio --children -g none -i x.data >perf.out 2>/dev/null
		"$R" --stdio -g none -i x.data >xperf.out 2>xperf.err || fail "$(cat xperf.err)"
		same_children perf.out xperf.out
		same_folded x.data --no-children -g folded,0,caller,count
	'
else
	skip_case "xperf-record -g file: Children/Self and folded stacks as perf reads them" \
		"xperf-record is not built"
fi

perf_case "-g none and --no-children on a -g file: the flat view, no graph lines" '
	prec -g -o g.data -- "$WL/shares" 0.3
	"$R" --stdio --no-children -g none -i g.data >xperf.out 2>xperf.err || fail "$(cat xperf.err)"
	grep -q "^# Overhead  Command" xperf.out || fail "not the flat titles"
	! grep -q -- "---" xperf.out || fail "graph lines with -g none"
'

perf_case "--children --dsos with a key without the DSO (--sort comm): rows, as perf" '
	# kernel samples only: every sample passes --dsos [kernel.kallsyms], so perf and xperf
	# agree (perf shows an entry whose first sample passed, with all its samples)
	prec -g -e cpu-clock:k -o k.data -- sh -c "dd if=/dev/zero of=/dev/null bs=1 count=200000 2>/dev/null; head -c 10000000 /dev/urandom | wc -c"
	perf_run report --stdio --children -g none --dsos "[kernel.kallsyms]" --sort comm -i k.data \
		>perf.out 2>/dev/null
	"$R" --stdio --children -g none --dsos "[kernel.kallsyms]" --sort comm -i k.data >xperf.out \
		2>xperf.err || fail "$(cat xperf.err)"
	same_children perf.out xperf.out || fail "rows differ from perf"
	# user samples too: a command'\''s children and self are its samples in the DSO, those
	# --no-children counts
	prec -g -o g.data -- "$WL/libc_sort" 0.3
	"$R" --stdio --children -g none --dsos libc.so.6 --sort comm -i g.data >c.out 2>&1 ||
		fail "$(cat c.out)"
	"$R" --stdio --no-children -g none --dsos libc.so.6 --sort comm -i g.data >n.out 2>&1 ||
		fail "$(cat n.out)"
	awk "/%/ { print \$2, \$3 }" c.out >c.rows
	awk "/%/ { print \$1, \$2 }" n.out >n.rows
	[ -s c.rows ] || fail "no rows: $(cat c.out)"
	diff c.rows n.rows || fail "--children rows are not the samples --no-children shows"
'

perf_case "-g pipe stream: perf's pipe defaults (no children, caller order), same stacks" '
	perf_run record -q -N --no-bpf-event -g -o - -- "$WL/shares" 0.3 >p.data 2>/dev/null
	perf_run report --stdio -q -g folded,0,count -i p.data >perf.out 2>/dev/null
	"$R" --stdio -q -g folded,0,count -i - <p.data >xperf.out 2>xperf.err || fail "$(cat xperf.err)"
	[ -s perf.out ] || fail "perf printed nothing"
	diff <(normalize_vdso p.data <perf.out | sort) <(normalize_vdso p.data <xperf.out | sort) >d ||
		fail "differs: $(head -n 6 d)"
'

test_case "--no-children: callee order in a pipe stream as in a file (the same lines)" '
	"$XPERF_BUILD/tests/xpf-synth" -o f.data -n 300
	"$XPERF_BUILD/tests/xpf-synth" -o - -n 300 >p.data
	"$R" --stdio -q --no-children -i f.data >file.out
	"$R" --stdio -q --no-children -i - <p.data >pipe.out
	"$R" --stdio -q --no-children -i p.data >pipe2.out
	grep -A2 -m1 "synth_hot" pipe.out | tail -n 1 | grep -q -- "---synth_hot" ||
		fail "not callee first: $(head -n 5 pipe.out)"
	diff file.out pipe.out
	diff file.out pipe2.out
'

perf_case "--no-children on a pipe stream: perf's order (callee), its default: caller" '
	"$XPERF_BUILD/tests/xpf-synth" -o - -n 300 >p.data
	for o in --no-children ""; do
		perf_run report --stdio -q -g folded,0,count $o -i p.data >perf.out 2>/dev/null
		"$R" --stdio -q -g folded,0,count $o -i - <p.data >xperf.out
		[ -s perf.out ] || fail "perf printed nothing"
		diff <(sort perf.out) <(sort xperf.out) || fail "differs with ${o:-no option}"
	done
'

perf_case "a file without callchains keeps the flat view" '
	prec -o a.data -- "$WL/shares" 0.2
	"$R" --stdio -i a.data >xperf.out 2>xperf.err || fail "$(cat xperf.err)"
	grep -q "^# Overhead  Command" xperf.out || fail "titles: $(grep Overhead xperf.out)"
'

test_case "bad -g argument: usage error naming it, exit 1" '
	rc=0; "$R" -g bogus -i "$TOP/tests/corpus/good/plain.bin" >out 2>err || rc=$?
	[ "$rc" -eq 1 ] || fail "exit $rc: $(cat err)"
	grep -q "bogus" err || fail "message: $(cat err)"
'

test_done
