# Comparing xperf report with perf report on the same file, sourced by tests/cmd/*.sh after
# lib.sh. Needs R (xperf-report) and MIN_MATCH (per cent of samples) exported by the caller.
#   prec ARGS...                 perf record -q -N --no-bpf-event ARGS (fails the case)
#   same_stacks FILE OPTS...     folded stacks of both, >= MIN_MATCH % of samples the same
#   same_children PERF XPERF     the top 20 rows of either within 0.5 points on the other
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
