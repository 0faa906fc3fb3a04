#!/usr/bin/env bash
# xperf report --stdio (the default view) against perf report --stdio --no-children on the
# same files: the same top-20 (comm, dso, symbol) rows of each event, within 0.5 points.
. "$(dirname "$0")/lib.sh"

R=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
export R WL

# rows FILE: "section<TAB>row<TAB>percent" for every entry line of a --stdio report; the
# section counts "# Samples:" lines (one per event), the row is its columns, blanks squeezed,
# [vdso] symbols as normalize_vdso spells them (same_top sums rows it makes equal).
rows() {
	normalize_vdso <"$1" | awk '/^# Samples: / { s++ }
	     /^ +[0-9]+\.[0-9]+% / { p = $1; sub(/%$/, "", p); $1 = ""; sub(/^ +/, "");
				     print s "\t" $0 "\t" p }'
}

# same_top PERF_OUT XPERF_OUT: each of the top 20 rows of either side, per section, is on
# the other side within 0.5 points (a row absent there counts as 0%); sections match.
same_top() {
	local ps xs
	ps=$(grep -c '^# Samples: ' "$1" || true)
	xs=$(grep -c '^# Samples: ' "$2" || true)
	[ "$ps" = "$xs" ] || fail "perf has $ps event sections, xperf $xs"
	rows "$1" >perf.rows
	rows "$2" >xperf.rows
	[ -s perf.rows ] || fail "no rows in perf's output"
	awk -F'\t' -v top=20 '
	function check(k, a, b, who,   d, pa, pb) {
		pa = (k in a) ? a[k] : 0; pb = (k in b) ? b[k] : 0; d = pa - pb
		if (d < 0) d = -d
		if (d > 0.5) {
			split(k, f, SUBSEP)
			printf "%s top row [%s] %s: perf %s, xperf %s\n", who, f[1], f[2],
				(k in P) ? P[k] "%" : "absent", (k in X) ? X[k] "%" : "absent"
			bad++
		}
	}
	FILENAME == ARGV[1] { k = $1 SUBSEP $2; P[k] += $3; if (++np[$1] <= top) PT[k] = 1; next }
	{ k = $1 SUBSEP $2; X[k] += $3; if (++nx[$1] <= top) XT[k] = 1 }
	END {
		for (k in PT) check(k, P, X, "perf")
		for (k in XT) check(k, X, P, "xperf")
		exit bad > 0
	}' perf.rows xperf.rows
}

# compare FILE [OPTIONS...]: both reports of FILE with the same options, then same_top
compare() {
	local f=$1
	shift
	perf_run report --stdio --no-children "$@" -i "$f" >perf.out 2>perf.err ||
		fail "perf report failed: $(tail -n 3 perf.err)"
	"$R" --stdio --no-children "$@" -i "$f" >xperf.out 2>xperf.err || fail "xperf report failed: $(cat xperf.err)"
	same_top perf.out xperf.out
}
# prec ARGS...: perf record -q -N --no-bpf-event ARGS (perf_run retries perf's own aborts)
prec() {
	perf_run record -q -N --no-bpf-event "$@" >/dev/null 2>prec.err ||
		fail "perf record failed: $(tail -n 2 prec.err)"
}
export -f rows same_top compare prec

perf_case "user-space workload: same rows as perf, same header and column widths" '
	prec -o a.data -- "$WL/shares" 0.5
	compare a.data
	grep -q "^ .*%  shares  *shares  *\[\.\] work_a$" xperf.out || fail "no work_a row"
	diff <(grep "^#" perf.out | grep -v Tip) <(grep "^#" xperf.out | grep -v Tip) ||
		fail "header lines differ"
'

perf_case "a 0-size label inside a function: the function is named, as perf names it" '
	prec -o l.data -- "$WL/label" 0.5
	compare l.data --sort sym
	grep -q "\[\.\] label_work$" perf.out || fail "perf has no label_work row"
	grep -q "\[\.\] label_work$" xperf.out || fail "no label_work row"
	! grep "label_inside" xperf.out || fail "the label named"
'

perf_case "kernel time (dd): [k] rows from kallsyms, libc from its debug file" '
	prec -o dd.data -- dd if=/dev/zero of=/dev/null bs=1 count=2000000
	compare dd.data
	grep -q "\[kernel\.kallsyms\]  *\[k\] " xperf.out || fail "no kernel rows"
'

perf_case "-g file: the flat rows match perf (children off)" '
	prec -g -o g.data -- "$WL/shares" 0.5
	compare g.data
'

perf_case "two events: one section per event, each matching perf" '
	prec -e cpu-clock,page-faults -o me.data -- "$WL/shares" 0.3
	compare me.data
	[ "$(grep -c "^# Samples: " xperf.out)" -eq 2 ] || fail "not two sections"
	grep -q "of event .page-faults." xperf.out || fail "no page-faults section"
'

perf_case "threads and forks: comms follow COMM/FORK in time order" '
	prec -o t.data -- "$WL/threads" 0.5
	compare t.data
	prec -o f.data -- "$WL/forker"
	compare f.data
'

perf_case "system-wide (-a): every process and the idle task (swapper) as perf names them" '
	prec -a -o s.data -- sleep 1
	compare s.data
'

perf_case "--sort, -n, --percent-limit as perf applies them" '
	prec -o a.data -- dd if=/dev/zero of=/dev/null bs=1 count=500000
	compare a.data --sort dso,sym
	grep -q "^# Overhead  Shared Object  *Symbol" xperf.out || fail "columns: $(grep Overhead xperf.out)"
	compare a.data --sort comm
	[ "$(grep -c "%" xperf.out)" -ge 1 ] || fail "no rows"
	compare a.data -n
	diff <(awk "/^ +[0-9.]+%/ { print \$2 }" perf.out | sort -n) \
	     <(awk "/^ +[0-9.]+%/ { print \$2 }" xperf.out | sort -n) >/dev/null ||
		fail "sample counts differ"
	compare a.data --percent-limit 5
	awk "/^ +[0-9.]+%/ { sub(/%/, \"\", \$1); if (\$1 + 0 < 5) exit 1 }" xperf.out ||
		fail "a row under 5% is shown"
'

perf_case "--comms and --dsos keep perf's absolute percentages and drop the column" '
	prec -o a.data -- dd if=/dev/zero of=/dev/null bs=1 count=500000
	compare a.data --comms dd --dsos libc.so.6
	grep -q "^# Overhead  Symbol" xperf.out || fail "columns: $(grep Overhead xperf.out)"
	compare a.data --dsos "[kernel.kallsyms],libc.so.6"
	! grep -q "  dd  *dd  " xperf.out || fail "a row of the dd binary is shown"
'

perf_case "pipe input: xperf report -i - reads perf record -o -" '
	perf_run record -q -N --no-bpf-event -o - -- "$WL/shares" 0.3 >p.data 2>/dev/null
	perf_run report --stdio --no-children -i p.data >perf.out 2>/dev/null
	"$R" -i - <p.data >xperf.out 2>xperf.err || fail "$(cat xperf.err)"
	same_top perf.out xperf.out
'

perf_case "-q prints entry lines only" '
	prec -o a.data -- "$WL/shares" 0.2
	"$R" -q -i a.data >out
	[ -s out ] || fail "nothing printed"
	! grep -q "^#" out || fail "header lines with -q"
'

if [ -x "$XPERF_BUILD/xperf-record" ]; then
	perf_case "xperf-record file: same rows from both readers" '
		"$XPERF_BUILD/xperf-record" -o x.data -- "$WL/shares" 0.5
		compare x.data
		grep -q "\[\.\] work_a$" xperf.out || fail "no work_a row"
	'
else
	skip_case "xperf-record file: same rows from both readers" "xperf-record is not built"
fi

test_case "unknown --sort key: usage error naming it, exit 1" '
	rc=0; "$R" --sort comm,bogus -i "$TOP/tests/corpus/good/plain.bin" >out 2>err || rc=$?
	[ "$rc" -eq 1 ] || fail "exit $rc: $(cat err)"
	grep -q "bogus" err || fail "message: $(cat err)"
'

test_done
