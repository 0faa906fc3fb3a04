#!/usr/bin/env bash
# JIT code (anonymous executable memory) in xperf report --stdio against perf report on the
# same files: perf's "[JIT] tid PID" object, raw [.] 0x... addresses without a
# /tmp/perf-PID.map file, the file's symbols with one; flat (--no-children) and default views.
. "$(dirname "$0")/lib.sh"

R=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
export R WL

# rows FILE: every entry line of a --stdio report, blanks squeezed, section number first;
# only those matching $ONLY (an ERE) when set; [vdso] symbols as normalize_vdso spells them
rows() {
	normalize_vdso <"$1" |
		awk '/^# Samples: / { s++ } /^ +[0-9]+\.[0-9]+% / { $1 = $1; print s " " $0 }' |
		grep -E -- "${ONLY:-.}"
}

# same_rows PERF_OUT XPERF_OUT: the top 20 rows of either side are on the other side, each
# percentage column within 0.5 points (a row is keyed by its non-percentage columns; rows
# with the same key, as [vdso] rows become, are summed)
same_rows() {
	rows "$1" >perf.rows
	rows "$2" >xperf.rows
	[ -s perf.rows ] || fail "no rows in perf's output"
	awk -v top=20 '
	function key(   k, i) { k = $1; for (i = 2; i <= NF; i++) if ($i !~ /^[0-9.]+%$/) k = k " " $i; return k }
	function pcts(old,   a, p, i, j) {
		split(old, a, " "); p = ""; j = 0
		for (i = 2; i <= NF; i++) if ($i ~ /^[0-9.]+%$/) p = p " " ($i + a[++j])
		return p
	}
	FILENAME == ARGV[1] { k = key(); P[k] = pcts(P[k]); if (++np[$1] <= top) PT[k] = 1; next }
	{ k = key(); X[k] = pcts(X[k]); if (++nx[$1] <= top) XT[k] = 1 }
	function check(k,   a, b, n, i, d) {
		if (!(k in P) || !(k in X)) { printf "row [%s]: perf%s, xperf%s\n", k,
			(k in P) ? P[k] : " absent", (k in X) ? X[k] : " absent"; bad++; return }
		n = split(P[k], a, " "); split(X[k], b, " ")
		for (i = 1; i <= n; i++) {
			d = a[i] - b[i]; if (d < 0) d = -d
			if (d > 0.5) { printf "row [%s]: perf%s, xperf%s\n", k, P[k], X[k]; bad++; return }
		}
	}
	END { for (k in PT) check(k); for (k in XT) check(k); exit bad > 0 }' perf.rows xperf.rows
}

# compare FILE [OPTIONS...]: perf's and xperf's --stdio reports of FILE agree (same_rows)
compare() {
	local f=$1
	shift
	perf_run report --stdio "$@" -i "$f" >perf.out 2>perf.err ||
		fail "perf report failed: $(tail -n 3 perf.err)"
	"$R" --stdio "$@" -i "$f" >xperf.out 2>xperf.err || fail "xperf report failed: $(cat xperf.err)"
	same_rows perf.out xperf.out
}

# jit_rec OUT.data [PERF-OPTIONS...]: perf records the jit workload (-m: it writes its
# /tmp/perf-PID.map); sets $pid and $map
jit_rec() {
	local f=$1
	shift
	perf_run record -q -N --no-bpf-event "$@" -o "$f" -- "$WL/jit" -m 1 >jit.out 2>prec.err ||
		fail "perf record failed: $(tail -n 2 prec.err)"
	pid=$(awk '/^jit: pid/ { print $3 }' jit.out)
	[ -n "$pid" ] || fail "the jit workload printed no pid: $(cat jit.out prec.err)"
	map=/tmp/perf-$pid.map
	[ -s "$map" ] || fail "the jit workload wrote no $map"
}

# jit_case NAME PERF-RECORD-OPTIONS REPORT-OPTIONS [ONLY]: with the map file, then without;
# ONLY (an ERE) limits the comparison to the rows it matches
jit_case() {
	local name=$1 ropts=$2 opts=$3 only=${4:-}
	ONLY=$only perf_case "$name: jit_a/jit_b from /tmp/perf-PID.map, then raw addresses without it" '
		# every jit process (each perf record run) lists its map file there, removed when
		# the case ends whatever happens
		export WL_MAP_LIST=$PWD/maps
		trap "[ ! -f \"\$WL_MAP_LIST\" ] || xargs rm -f <\"\$WL_MAP_LIST\"" EXIT
		jit_rec j.data '"$ropts"'
		compare j.data '"$opts"'
		grep -qE "\[JIT\] tid $pid +\[\.\] jit_a$" xperf.out || fail "no jit_a row of [JIT] tid $pid"
		grep -qE "\[JIT\] tid $pid +\[\.\] jit_b$" xperf.out || fail "no jit_b row of [JIT] tid $pid"
		! grep -q "perf-$pid\.map" xperf.out || fail "the object is named after the map file"
		rm -f "$map"
		compare j.data '"$opts"'
		grep -qE "\[JIT\] tid $pid +\[\.\] 0x[0-9a-f]{16}$" xperf.out ||
			fail "no raw address row of [JIT] tid $pid"
		! grep -q "jit_a" xperf.out || fail "jit_a shown without the map file"
	'
}
export -f rows same_rows compare jit_rec

if [ -x "$WL/jit" ] && "$WL/jit" 0 >/dev/null 2>&1; then
	jit_case "flat (--no-children)" "" "--no-children"
	jit_case "-g, default view (children)" "-g" ""
	jit_case "-g, flat view" "-g" "--no-children"
	jit_case "system-wide (-a), flat" "-a" "--no-children"
	# every row: callchain-only entries of unresolved frames in file DSOs are keyed by
	# their virtual address on both sides
	jit_case "system-wide (-a -g), default view" "-a -g" ""
else
	skip_case "JIT code as perf names it" "the jit workload does not run on this machine"
fi

test_done
