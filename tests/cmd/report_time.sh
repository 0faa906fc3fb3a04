#!/usr/bin/env bash
# xperf report --time against perf report --time on the same file: absolute ranges and
# perf's percent slices keep the same samples (perf's rounding at a slice's edges), and
# strings perf refuses are refused with one line.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_compare.sh"

R=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
export R WL

# same_time FILE TIME OPTS...: perf and xperf print the same report under --time TIME
same_time() {
	local f=$1 t=$2
	shift 2
	perf_run report --stdio -q "$@" --time "$t" -i "$f" >perf.out 2>perf.err ||
		fail "perf --time $t: $(tail -n 2 perf.err)"
	"$R" --stdio -q "$@" --time "$t" -i "$f" >xperf.out 2>xperf.err ||
		fail "xperf --time $t: $(cat xperf.err)"
	[ -s perf.out ] || fail "perf --time $t printed nothing"
	# vdso code spelled one way, its own rows left out: perf names them only from its
	# build-id cache, which -N leaves empty (see normalize_vdso in lib.sh)
	normalize_vdso "$f" <perf.out | grep -v "\[vdso\] *\[\.\] \[vdso\]\$" >perf.norm || :
	normalize_vdso "$f" <xperf.out | grep -v "\[vdso\] *\[\.\] \[vdso\]\$" >xperf.norm || :
	diff perf.norm xperf.norm >time.diff || fail "--time $t $*: differs: $(head -n 8 time.diff)"
}
export -f same_time

perf_case "--time percent slices and absolute ranges keep the samples perf keeps" '
	prec -o t.data -- "$WL/shares" 0.5
	for t in 10%/2 10%/1,10%/3 0%-10%,30%-40% 25% 50%-100%; do
		same_time t.data "$t" --no-children --sort dso,sym
	done
	# absolute: from the header'"'"'s first sample to the middle, then two ranges
	read -r first last < <(perf_run report --header-only -i t.data 2>/dev/null |
		awk "/time of first sample/ { f = \$NF } /time of last sample/ { l = \$NF } END { print f, l }")
	[ -n "$first" ] && [ -n "$last" ] || fail "perf shows no first/last sample time"
	mid=$(awk -v f="$first" -v l="$last" "BEGIN { printf \"%.6f\", (f + l) / 2 }")
	q=$(awk -v f="$first" -v l="$last" "BEGIN { printf \"%.6f\", f + (l - f) / 4 }")
	same_time t.data "$first,$mid" --no-children --sort dso,sym
	same_time t.data ",$q $mid," --no-children --sort comm,dso,sym
	# the slice holds fewer samples than the whole file: the filter did something
	"$R" --stdio -q --no-children --sort comm,dso,sym -i t.data >all.out
	cmp -s all.out xperf.out && fail "--time changed nothing"
	:
'

perf_case "--time on a -g file: the children view as perf's" '
	prec -g -o g.data -- "$WL/shares" 0.5
	same_time g.data 20%/3 -g none
	same_time g.data 0%-50% --no-children -g folded,0,caller,count
'

test_case "--time strings perf refuses: one error line naming the string, no report" '
	"$XPERF_BUILD/xperf-record" -q -o t.data -- "$WL/shares" 0.3 >/dev/null 2>&1
	for t in abc 5,3 "1,3 2,4" 1.0123456789, 10%/11 0%/1 10%/x; do
		rc=0
		"$R" --stdio --time "$t" -i t.data >out 2>err || rc=$?
		[ $rc -ne 0 ] || fail "--time $t: exit 0"
		[ "$(wc -l <err)" -eq 1 ] || fail "--time $t: not one line: $(cat err)"
		grep -qF "'"'"'$t'"'"'" err || fail "--time $t: the string is not named: $(cat err)"
		[ ! -s out ] || fail "--time $t: a report was printed"
	done
'

test_case "--time percentages on a pipe stream without sample times: said, not guessed" '
	"$XPERF_BUILD/xperf-record" -q -o - -- "$WL/shares" 0.3 >p.data 2>/dev/null
	rc=0
	"$R" --stdio --time 10%/1 -i p.data >out 2>err || rc=$?
	[ $rc -ne 0 ] || fail "exit 0"
	grep -q "no first and last sample time" err || fail "$(cat err)"
	# absolute times need no bounds
	"$R" --stdio -q --time "1," -i p.data >out 2>err || fail "$(cat err)"
	grep -q "work_a" out || fail "no samples after 1 s: $(head -n 3 out)"
'

test_case "--time that keeps no sample: one warning naming it" '
	"$XPERF_BUILD/xperf-record" -q -o t.data -- "$WL/shares" 0.3 >/dev/null 2>&1
	"$R" --stdio --time 1,2 -i t.data >out 2>err || fail "exit $?: $(cat err)"
	grep -q "^xperf report: warning: --time .1,2. matched none of the" err || fail "$(cat err)"
'

test_done
