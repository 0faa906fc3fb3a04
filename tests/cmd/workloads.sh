#!/usr/bin/env bash
# The workloads the symbolisation tests profile (cxx_inline, debuglink, kernel_time): each
# runs, is built as its source says, and perf (the oracle) finds in a recording of it the
# functions it is designed to show, with roughly the documented shares.
. "$(dirname "$0")/lib.sh"

W=$XPERF_BUILD/workloads
SRC=$TOP/tests/workloads
TOL=10 # percentage points: these tests guard the workloads, not the profilers' precision
LAMBDA='work::lambda_host(unsigned long)::{lambda(unsigned long)#1}::operator()'
export W SRC TOL LAMBDA

# precw OUT ARGS...: perf record -q -N --no-bpf-event ARGS, the workload's output in OUT
# (perf_run retries perf's own aborts)
precw() {
	local out=$1
	shift
	perf_run record -q -N --no-bpf-event "$@" >"$out" 2>prec.err ||
		fail "perf record failed: $(tail -n 2 prec.err)"
}

# report DATA [OPTIONS...]: perf's flat --no-children --sort sym rows, "PCT% [x] SYMBOL",
# blanks squeezed (a C++ symbol keeps its inner blanks: one per "unsigned long")
report() {
	local f=$1
	shift
	perf_run report --stdio --no-children --sort sym -g none "$@" -i "$f" 2>/dev/null |
		awk '/^ +[0-9.]+% / { $1 = $1; print }'
}

# pct ROWS SYMBOL: SYMBOL's percentage in ROWS (from report), 0 when absent; the SYMBOL
# "[k]" is the sum of all kernel rows
pct() {
	awk -v k="$2" '{ p = $1; sub(/%$/, "", p); s = $0; sub(/^[^ ]+ [^ ]+ /, "", s)
			 if (k == "[k]" ? $2 == "[k]" : s == k) t += p }
		       END { printf "%.2f\n", t }' "$1"
}

# measured WLOUT KEY: the share the workload measured for KEY in its own CPU time (its -v
# line, "... KEY 33.1% ...")
measured() {
	awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { v = $(i + 1); sub(/[%;]+$/, "", v)
							      print v; exit } }' "$1"
}

# off GOT WANT: |GOT - WANT| > TOL
off() { awk -v a="$1" -v b="$2" -v t="$TOL" 'BEGIN { d = a - b; exit !(d > t || -d > t) }'; }

# shares_judged WANTS WLWANTS WORKLOAD SECONDS: record WORKLOAD -v SECONDS with -g into
# p.data (its -v line in wl.out, perf's rows in rows), then each "SYMBOL=PCT" of WANTS
# (separated by ";"; PCT "sys": the workload's rusage share of system time) must be
# within TOL points of perf's share. When one is not, the
# workload's own measurement decides: if it is off its documented split too (WLWANTS, the
# same form with the keys of its -v line), the machine was disturbed: try once more, then
# skip; if the workload measured its split right, perf saw the time elsewhere: fail.
shares_judged() {
	local wants=$1 wlwants=$2 try w sym want got bad disturbed
	shift 2
	for try in 1 2; do
		precw wl.out -g -o p.data -- "$@"
		report p.data >rows
		head -n 8 rows
		cat wl.out
		bad= disturbed=
		IFS=';' read -ra w <<<"$wants"
		for sym in "${w[@]}"; do
			want=${sym##*=} sym=${sym%=*}
			# "sys": the kernel's share of the cpu time the workload used, from its
			# rusage, which counts the system call's entry and exit on either side
			[ "$want" != sys ] || want=$(sed -n "s/.*rusage: sys \([0-9.]*\)%.*/\1/p" wl.out)
			got=$(pct rows "$sym")
			off "$got" "$want" && bad="$bad; $sym: $got% (want $want% +- $TOL)"
		done
		[ -n "$bad" ] || return 0
		IFS=';' read -ra w <<<"$wlwants"
		for sym in "${w[@]}"; do
			want=${sym##*=} sym=${sym%=*}
			got=$(measured wl.out "$sym")
			[ -n "$got" ] || fail "no $sym in the workload's -v line: $(cat wl.out)"
			off "$got" "$want" && disturbed="$disturbed; $sym measured $got% (want $want%)"
		done
		[ -n "$disturbed" ] || fail "perf's shares are off${bad} while the workload measured its split right: $(cat wl.out)"
		echo "try $try: disturbed${disturbed}"
	done
	skip "the workload measured its own split off twice${disturbed}: the machine is disturbed"
}

# inlined_into ELF: "INLINED HOST" for each DW_TAG_inlined_subroutine in ELF's DWARF (as
# readelf dumps it): the function it inlines and the subprogram around it, each named by
# following DW_AT_abstract_origin and DW_AT_specification (GCC names a C++ function of a
# namespace only on its declaration, inside DW_TAG_namespace)
inlined_into() {
	readelf --debug-dump=info "$1" 2>/dev/null | awk '
	function ref(s) { sub(/.*<0x/, "", s); sub(/>.*/, "", s); return hex(s) }
	function hex(s) { sub(/^0+/, "", s); return tolower(s) }
	function name(o,   n) {
		for (n = 0; n < 8 && o != ""; n++) {
			if (o in NAME) return NAME[o]
			o = (o in ORIG) ? ORIG[o] : (o in SPEC) ? SPEC[o] : ""
		}
		return "?"
	}
	/^ *<[0-9]+><[0-9a-f]+>: Abbrev Number: [0-9]+ \(/ {
		split($0, a, /[<>]/); depth = a[2] + 0; die = hex(a[4])
		tag = $0; sub(/.*\(/, "", tag); sub(/\).*/, "", tag)
		TAG[die] = tag; PARENT[die] = depth ? up[depth - 1] : ""; up[depth] = die; next
	}
	/^ *<[0-9a-f]+> +DW_AT_name / { v = $0; sub(/.*: /, "", v); NAME[die] = v }
	/^ *<[0-9a-f]+> +DW_AT_abstract_origin/ { ORIG[die] = ref($0) }
	/^ *<[0-9a-f]+> +DW_AT_specification/ { SPEC[die] = ref($0) }
	END {
		for (d in TAG) {
			if (TAG[d] != "DW_TAG_inlined_subroutine") continue
			for (p = PARENT[d]; p != "" && TAG[p] != "DW_TAG_subprogram"; p = PARENT[p]) ;
			print name(d), (p == "" ? "?" : name(p))
		}
	}' | sort -u
}

# on_lines ROWS FILE FUNCTION HOST: of HOST's rows in ROWS (report --sort sym,srcline), the
# share on FUNCTION's source lines in FILE (from its opening line to its closing brace at the
# start of a line), as "HOST total% on_lines%"
on_lines() {
	local l
	l=$(awk -v f="$3(" 'index($0, f) && !s && /^[a-z]/ { s = NR } s && /^}/ { print s, NR; exit }' "$2")
	[ -n "$l" ] || fail "$3 not found in $2"
	awk -v l="$l" -v file="${2##*/}" -v host="$4" 'BEGIN { split(l, r, " ") }
		$3 == host { p = $1; sub(/%$/, "", p); t += p
			     n = split($NF, f, ":"); if (f[1] == file && f[n] >= r[1] && f[n] <= r[2]) in_f += p }
		END { printf "%s %.2f %.2f\n", host, t, in_f }' "$1"
}
export -f precw report pct measured off shares_judged inlined_into on_lines

# ---- each runs and exits 0 ----------------------------------------------------------------

for wl in cxx_inline debuglink kernel_time; do
	test_case "$wl runs, exits 0 and prints its measured shares with -v" '
		[ -x "$W/'$wl'" ] || fail "$W/'$wl' is not built"
		"$W/'$wl'" 0.1
		"$W/'$wl'" -v 0.2 >out
		cat out
		grep -q "^'$wl': [0-9]* rounds, .*%" out || fail "no shares line"
	'
done

# ---- how they are built (binutils; these are what the profilers will be tested on) ------

test_case "cxx_inline: mangled names in namespace work, hot_inlined without a symbol of its own" '
	nm "$W/cxx_inline" >syms
	for s in _ZN4work11sum_squaresIdEET_PKS1_mm _ZZN4work11lambda_hostEmENKUlmE_clEm \
		 _ZN4work11inline_hostEm _ZN4work8do_roundEv; do
		grep -q " $s$" syms || fail "no symbol $s"
	done
	# nothing renamed by GCC (.isra, .constprop) and no out-of-line copy of hot_inlined
	! grep -E "work.*\\.(isra|constprop|part|cold)" syms || fail "a renamed clone"
	! grep -i hot_inlined syms || fail "hot_inlined has a symbol"
'

test_case "cxx_inline: DWARF records hot_inlined inlined into inline_host (DW_TAG_inlined_subroutine)" '
	inlined_into "$W/cxx_inline" >pairs
	cat pairs
	grep -qx "hot_inlined inline_host" pairs || fail "no DW_TAG_inlined_subroutine of hot_inlined inside inline_host"
'

test_case "debuglink: stripped (no .symtab, no DWARF), .gnu_debuglink names debuglink.debug" '
	nm "$W/debuglink" >syms 2>err || :
	grep -q "no symbols" err || fail "nm finds symbols: $(head -n 3 syms)"
	nm -D "$W/debuglink" >dyn
	! grep dl_ dyn || fail "the dynamic symbols name dl_* functions"
	readelf -S -W "$W/debuglink" >sections
	! grep -E "\\.(symtab|debug_info) " sections || fail "a .symtab or .debug_info section"
	readelf -p .gnu_debuglink "$W/debuglink" | grep -q "] *debuglink.debug$" ||
		fail "no .gnu_debuglink naming debuglink.debug"
	nm "$W/debuglink.debug" >dsyms
	grep -q " T dl_work_a$" dsyms && grep -q " T dl_work_b$" dsyms || fail "debuglink.debug lacks dl_work_a/b"
	# the same build: the same build-id note in both
	id1=$(readelf -n "$W/debuglink" 2>/dev/null | sed -n "s/.*Build ID: //p")
	id2=$(readelf -n "$W/debuglink.debug" 2>/dev/null | sed -n "s/.*Build ID: //p")
	[ -n "$id1" ] && [ "$id1" = "$id2" ] || fail "build-ids differ: $id1 vs $id2"
'

# ---- what perf shows in a recording of each ----------------------------------------------

perf_case "cxx_inline -g: perf names sum_squares<double>, the lambda and inline_host, about a third each" '
	shares_judged "work::sum_squares<double>=33.3;$LAMBDA=33.3;work::inline_host=33.3" \
		"sum_squares=33.3;lambda=33.3;inline_host=33.3" "$W/cxx_inline" -v 1
	# the chain through do_round: frame pointers kept in the leaves
	perf_run report --stdio --no-children --sort sym -G -i p.data 2>/dev/null >graph
	grep -q -- "--work::do_round" graph || fail "no call chain through work::do_round"
'

perf_case "cxx_inline: perf puts inline_host's samples on hot_inlined's source lines" '
	precw wl.out -o p.data -- "$W/cxx_inline" 0.5
	report p.data --sort sym,srcline >rows
	grep " work::inline_host " rows
	read -r host total on <<<"$(on_lines rows "$SRC/cxx_inline.cc" hot_inlined work::inline_host)"
	echo "$host: $total%, $on% on hot_inlined'"'"'s lines"
	awk -v t="$total" -v o="$on" "BEGIN { exit !(t > 0 && o >= 0.9 * t) }" ||
		fail "inline_host'"'"'s samples are not on hot_inlined'"'"'s lines"
'

perf_case "debuglink -g: perf resolves dl_work_a and dl_work_b through the debuglink, 60% / 40%" '
	shares_judged "dl_work_a=60;dl_work_b=40" "dl_work_a=60;dl_work_b=40" "$W/debuglink" -v 1
'

perf_case "debuglink: perf names the functions only when debuglink.debug is beside it or in .debug/" '
	mkdir bin
	cp "$W/debuglink" bin/
	precw wl.out -o p.data -- bin/debuglink 0.3
	report p.data >alone
	! grep -q dl_work alone || fail "named without the debug file: $(grep dl_work alone)"
	mkdir bin/.debug
	cp "$W/debuglink.debug" bin/.debug/
	report p.data >dotdebug
	grep -q " dl_work_a$" dotdebug || fail "not named with bin/.debug/debuglink.debug: $(head -n 3 dotdebug)"
	mv bin/.debug/debuglink.debug bin/
	report p.data >beside
	grep -q " dl_work_a$" beside || fail "not named with bin/debuglink.debug: $(head -n 3 beside)"
'

perf_case "kernel_time -g: a [k] symbol leads, the kernel its rusage share, kt_user_work about 20%" '
	[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 1 ] ||
		skip "kernel samples need root or kernel.perf_event_paranoid <= 1"
	shares_judged "[k]=sys;kt_user_work=20" "kt_read_zero=80;kt_user_work=20" "$W/kernel_time" -v 1
	head -n 3 rows | grep -q " \\[k\\] " || fail "no [k] symbol among the top 3 entries"
'

test_done
