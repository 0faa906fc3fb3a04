# Comparing xperf report with perf report on the same file, sourced by tests/cmd/*.sh after
# lib.sh. Needs R (xperf-report) and MIN_MATCH (per cent of samples) exported by the caller.
#   prec ARGS...                 perf record -q -N --no-bpf-event ARGS (fails the case)
#   same_stacks FILE OPTS...     folded stacks of both, >= MIN_MATCH % of samples the same
#   same_children PERF XPERF     the top 20 rows of either within 0.5 points on the other
#   need FILE                    $FILES/FILE, recorded once by the suite, or skip the case
#   entry_lines FILE             a --stdio report's title and entry lines
#   report_lines WHO FILE OPTS.. those of perf's or xperf's report, sorted (keep, drop)
#   same_report FILE OPTS...     perf and xperf print the same lines, byte for byte
#   write_prog_c, build_both, build_id: a program and its rebuild with another build-id
# Both sides are asked for --no-inline: perf names inline frames through binutils'
# addr2line, which often gives them their host's name (report_inline.sh tests ours).

prec() {
	perf_run record -q -N --no-bpf-event "$@" >/dev/null 2>prec.err ||
		fail "perf record failed: $(tail -n 2 prec.err)"
}

# folded FILE VIEW OPTS...: "entry | stack" lines with their counts ("N entry | stack"),
# vdso spelled one way, from perf (VIEW perf) or xperf (VIEW xperf), both with --no-inline
folded() {
	local f=$1 who=$2
	shift 2
	if [ "$who" = perf ]; then
		perf_run report --stdio -q --no-inline "$@" -i "$f" 2>perf.err ||
			fail "perf: $(tail -n 3 perf.err)"
	else
		"$R" --stdio -q --no-inline "$@" -i "$f" 2>xperf.err || fail "xperf: $(cat xperf.err)"
	fi | normalize_vdso "$f" |
		awk '/^ +[0-9.]+% / { $1 = $1; e = $0; sub(/^[0-9.]+% /, "", e); next }
		     /^[0-9]/ { n = $1; s = $0; sub(/^[0-9]+ /, "", s); N[e " | " s] += n }
		     END { for (k in N) print N[k], k }' | sort -k2
}

# same_stacks FILE OPTS...: at least MIN_MATCH % of perf's samples have the same folded
# stack (and entry) in xperf's output (perf.folded, xperf.folded, stacks.diff are left)
same_stacks() {
	local f=$1
	shift
	folded "$f" perf "$@" >perf.folded
	folded "$f" xperf "$@" >xperf.folded
	[ -s perf.folded ] || fail "perf printed no folded stacks"
	diff perf.folded xperf.folded >stacks.diff || :
	awk -v min="$MIN_MATCH" '
	{ n = $1; k = $0; sub(/^[0-9]+ /, "", k) }
	FILENAME == ARGV[1] { P[k] = n; total += n; next }
	{ X[k] = n }
	END {
		for (k in P) same += (k in X) ? (X[k] < P[k] ? X[k] : P[k]) : 0
		printf "%d of %d samples with the same stack\n", same, total
		exit !(total > 0 && same * 100 >= min * total)
	}' perf.folded xperf.folded || fail "stacks differ: $(head -n 8 stacks.diff)"
}

# rows FILE: "children self row" per entry line, vdso spelled one way
rows() {
	normalize_vdso <"$1" | awk '/^ +[0-9]+\.[0-9]+% / { $1 = $1; print }'
}

# same_children PERF_OUT XPERF_OUT: the top 20 of either side on the other, both columns
# within 0.5 points (a row missing on one side counts as 0 % there)
same_children() {
	rows "$1" >perf.rows
	rows "$2" >xperf.rows
	[ -s perf.rows ] || fail "no rows in perf's output"
	awk -v top=20 '
	function key(   k, i) { k = ""; for (i = 3; i <= NF; i++) k = k " " $i; return k }
	function num(s) { sub(/%$/, "", s); return s + 0 }
	FILENAME == ARGV[1] { k = key(); PC[k] += num($1); PS[k] += num($2); if (++np <= top) PT[k] = 1; next }
	{ k = key(); XC[k] += num($1); XS[k] += num($2); if (++nx <= top) XT[k] = 1 }
	function check(k,   d1, d2) {
		# a row one side does not print is 0 there: within 0.5 points if small
		d1 = PC[k] - XC[k]; d2 = PS[k] - XS[k]
		if (d1 < 0) d1 = -d1
		if (d2 < 0) d2 = -d2
		if (d1 > 0.5 || d2 > 0.5) {
			printf "row%s: perf %s/%s, xperf %s/%s\n", k, PC[k], PS[k], XC[k], XS[k]
			bad++
		}
	}
	END { for (k in PT) check(k); for (k in XT) check(k); exit bad > 0 }' perf.rows xperf.rows
}
export -f prec folded same_stacks rows same_children

# need FILE: the file a suite recorded once into $FILES, or skip the case ($FILES/failed
# says why the recording failed)
need() {
	[ ! -e "$FILES/failed" ] || skip "$(cat "$FILES/failed")"
	[ -s "$FILES/$1" ] || skip "$1 was not recorded"
	echo "$FILES/$1"
}

# entry_lines FILE: the title and entry lines of a --stdio report (no tip, no blank lines)
entry_lines() {
	grep -v -e '^# (Tip' -e '^$' -e '^# To display' "$1" | normalize_vdso
}

# report_lines WHO FILE OPTS...: perf's or xperf's --stdio report of FILE (left in
# WHO.out), its title and entry lines sorted (entries of equal overhead may come in another
# order); `keep` (a grep -E regex, default all) selects entry lines, `drop` leaves lines out
report_lines() {
	local who=$1 f=$2
	shift 2
	# each failure returns: a caller testing it (`|| return 1`) turns set -e off in here
	if [ "$who" = perf ]; then
		perf_run report --stdio "$@" -i "$f" >perf.out 2>perf.err ||
			{ fail "perf report $*: $(tail -n 3 perf.err)"; return 1; }
	else
		"$R" --stdio "$@" -i "$f" >xperf.out 2>xperf.err ||
			{ fail "xperf report $*: $(cat xperf.err)"; return 1; }
	fi
	entry_lines $who.out | grep -E "^#|${keep:-.}" | grep -Ev "${drop:-^\$}" | sort
}

# same_report FILE OPTS...: perf and xperf print the same title and entry lines, each line
# byte for byte (widths, percentages, counts), and the titles in the same order; the order
# of entries with equal overhead is not compared (perf.lines, xperf.lines and reports.diff
# are left)
same_report() {
	local f=$1
	shift
	report_lines perf "$f" "$@" >perf.lines || return 1
	report_lines xperf "$f" "$@" >xperf.lines || return 1
	grep -qv '^#' perf.lines || fail "perf printed no entries"
	diff perf.lines xperf.lines >reports.diff || fail "$* differs: $(head -n 12 reports.diff)"
	diff <(grep '^# [A-Z.]' perf.out) <(grep '^# [A-Z.]' xperf.out) >titles.diff ||
		fail "$* titles differ: $(cat titles.diff)"
}

# write_prog_c: $TEST_TMP/prog.c (exported as PROG_C), whose hot_loop burns the time; built
# with -DVARIANT, never_ran comes first and takes the addresses hot_loop has in the plain
# build (so the other file's symbols would name it)
write_prog_c() {
	cat >"$TEST_TMP/prog.c" <<'EOF'
#include <stdlib.h>
#include <time.h>
volatile unsigned long sink;
#ifdef VARIANT
__attribute__((noinline)) void never_ran(void)
{
	for (int i = 0; i < 100; i++)
		sink += (unsigned long)i * 11;
	for (int i = 0; i < 100; i++)
		sink += (unsigned long)i * 13;
	for (int i = 0; i < 100; i++)
		sink += (unsigned long)i * 17;
}
#endif
__attribute__((noinline)) void hot_loop(void)
{
	for (int i = 0; i < 1000; i++)
		sink += (unsigned long)i * 3;
}
int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.3;
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 1000; i++)
			hot_loop();
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 < secs);
#ifdef VARIANT
	if (argc > 5)
		never_ran();
#endif
	return 0;
}
EOF
	PROG_C=$TEST_TMP/prog.c
	export PROG_C
}

# build_both: ./prog (plain) and ./variant (-DVARIANT), two build-ids, never_ran over
# hot_loop (else the case is skipped); ./orig keeps the plain build
build_both() {
	${CC:-cc} -O1 -fno-omit-frame-pointer -o prog "$PROG_C" || fail "cannot compile"
	${CC:-cc} -O1 -fno-omit-frame-pointer -DVARIANT -o variant "$PROG_C" || fail "cannot compile"
	[ "$(nm prog | awk "/ hot_loop\$/ { print \$1 }")" = "$(nm variant | awk "/ never_ran\$/ { print \$1 }")" ] ||
		skip "the compiler did not put never_ran where hot_loop was"
	cp prog orig
}

# build_id FILE: the GNU build-id of FILE in hex
build_id() { readelf -n "$1" | awk "/Build ID:/ { print \$3; exit }"; }
export -f need entry_lines report_lines same_report write_prog_c build_both build_id
