#!/usr/bin/env bash
# xperf annotate --stdio against perf annotate --stdio on the same files: the same shares per
# instruction address, the same hottest instruction, perf's layout line for line, objdump's
# instruction text (with Zydis) on glibc's AVX-512 string functions, source lines above
# their instructions; errors; the builds without a disassembler and without Zydis.
. "$(dirname "$0")/lib.sh"

A=$XPERF_BUILD/xperf-annotate
WL=$XPERF_BUILD/workloads
F=$TEST_TMP/files
export A WL F
mkdir -p "$F"

# The recordings every case reads, made once: shares (-g, 50/30/20 in work_a/b/c) and
# libc_sort (no -g; cmp_int's samples spread over its instructions), libc_strings (glibc's
# string functions, AVX-512 code on a CPU with it), by perf and by xperf.
if have_perf; then
	perf_run record -q -N --no-bpf-event -g -e cpu-clock -o "$F/shares.data" -- "$WL/shares" 1 \
		>/dev/null 2>"$F/rec.err" || rm -f "$F/shares.data"
	perf_run record -q -N --no-bpf-event -e cpu-clock -o "$F/sort.data" -- "$WL/libc_sort" 1 \
		>/dev/null 2>>"$F/rec.err" || rm -f "$F/sort.data"
	perf_run record -q -N --no-bpf-event -e cpu-clock -o "$F/strings.data" -- \
		"$WL/libc_strings" 1 >/dev/null 2>>"$F/rec.err" || rm -f "$F/strings.data"
	perf_run record -q -N --no-bpf-event -e cpu-clock -o "$F/cxx.data" -- \
		"$WL/cxx_inline" 0.5 >/dev/null 2>>"$F/rec.err" || rm -f "$F/cxx.data"
fi
"$XPERF_BUILD/xperf-record" -q -o "$F/xsort.data" -- "$WL/libc_sort" 1 >/dev/null \
	2>>"$F/rec.err" || rm -f "$F/xsort.data"

# need FILE: skip the case when the recording could not be made
need() { [ -s "$F/$1" ] || skip "recording $1 failed: $(tail -n 1 "$F/rec.err")"; }
# needs_disasm: skip a case that disassembles in a build without a disassembler
needs_disasm() {
	grep -qx "#define HAVE_CAPSTONE 1\|#define HAVE_ZYDIS 1" "$XPERF_BUILD/config.h" ||
		skip "this build has neither Zydis nor capstone: annotate says it is not supported"
}
# needs_zydis: skip a case that wants objdump's text (capstone's is not)
needs_zydis() {
	grep -qx "#define HAVE_ZYDIS 1" "$XPERF_BUILD/config.h" ||
		skip "this build has no Zydis (HAVE_ZYDIS=0): capstone's text is not objdump's"
}
# needs_libdw: skip a case that compares source lines (a build without libdw reads none)
needs_libdw() {
	grep -qx "#define HAVE_LIBDW 1" "$XPERF_BUILD/config.h" ||
		skip "this build has no libdw (HAVE_LIBDW=0): no source lines or inline frames as perf has them"
}
export -f need needs_disasm needs_zydis needs_libdw

# pcts FILE: "address percent" of every instruction line of an annotate --stdio output
pcts() { awk '/^ +[0-9]+\.[0-9]+ : +[0-9a-f]+:/ { a = $3; sub(/:$/, "", a); print a, $1 }' "$1"; }
# texts FILE: "address<TAB>instruction text" of every instruction line, blanks squeezed
texts() { awk '/^ +[0-9]+\.[0-9]+ : +[0-9a-f]+:/ { sub(/^ +[0-9.]+ : +/, ""); a = $1
	sub(/:$/, "", a); sub(/^[0-9a-f]+: +/, ""); gsub(/[ \t]+/, " "); sub(/ $/, "")
	print a "\t" $0 }' "$1"; }
# layout FILE: the output without the instructions' text (after "address:")
layout() { sed 's/^\( *[0-9.]* : *[0-9a-f]*:\).*/\1/' "$1"; }
export -f pcts texts layout

# same_text SYMBOL FILE: objdump's text (perf annotate's) at every address xperf shows
same_text() {
	perf_run annotate --stdio -s "$1" -i "$2" >perf.out 2>perf.err ||
		fail "perf annotate $1 failed: $(tail -n 3 perf.err)"
	"$A" --stdio -s "$1" -i "$2" >xperf.out 2>xperf.err || fail "xperf annotate $1: $(cat xperf.err)"
	texts perf.out | sort >p.txt
	texts xperf.out | sort >x.txt
	[ -s p.txt ] || fail "perf printed no instructions for $1"
	[ "$(cut -f1 p.txt)" = "$(cut -f1 x.txt)" ] ||
		fail "$1: not the same instruction addresses: $(diff <(cut -f1 p.txt) <(cut -f1 x.txt) | head -5)"
	join -t "$(printf "\t")" p.txt x.txt | awk -F"\t" "\$2 != \$3 { print \$1 \": perf \" \$2 \", xperf \" \$3 }" >d.txt
	[ ! -s d.txt ] || fail "$1: $(wc -l <d.txt) of $(wc -l <p.txt) instructions differ: $(head -n 5 d.txt)"
}
export -f same_text

# same_pcts SYMBOL FILE: perf's and xperf's shares per address agree within 0.5 points, on
# the same addresses, with the same hottest instruction
same_pcts() {
	perf_run annotate --stdio -s "$1" -i "$2" >perf.out 2>perf.err ||
		fail "perf annotate failed: $(tail -n 3 perf.err)"
	"$A" --stdio -s "$1" -i "$2" >xperf.out 2>xperf.err || fail "xperf annotate: $(cat xperf.err)"
	pcts perf.out | sort >p.pct
	pcts xperf.out | sort >x.pct
	[ -s p.pct ] || fail "perf printed no instructions"
	[ "$(cut -d" " -f1 p.pct)" = "$(cut -d" " -f1 x.pct)" ] ||
		fail "not the same instruction addresses: $(diff <(cut -d" " -f1 p.pct) <(cut -d" " -f1 x.pct) | head -5)"
	join p.pct x.pct | awk '{ d = $2 - $3; if (d < 0) d = -d
		if (d > 0.5) { print "at " $1 ": perf " $2 ", xperf " $3; bad = 1 } } END { exit bad }' ||
		fail "shares differ"
	[ "$(sort -k2,2nr -k1,1 p.pct | head -n 1 | cut -d" " -f1)" = \
	  "$(sort -k2,2nr -k1,1 x.pct | head -n 1 | cut -d" " -f1)" ] ||
		fail "hottest instruction: perf $(sort -k2,2nr p.pct | head -n 1), xperf $(sort -k2,2nr x.pct | head -n 1)"
}
export -f same_pcts

perf_case "work_a: per-instruction shares and the hottest instruction as perf's (-g file)" '
	need shares.data
	needs_disasm
	same_pcts work_a "$F/shares.data"
'

perf_case "cmp_int: shares spread over many instructions equal perf's" '
	need sort.data
	needs_disasm
	same_pcts cmp_int "$F/sort.data"
	[ "$(awk "\$2 > 0" x.pct | wc -l)" -ge 3 ] || skip "too few instructions with samples to compare"
'

perf_case "msort_with_tmp in libc (debug info from the build-id file) as perf's" '
	need sort.data
	needs_disasm
	sym=$(perf_run report --stdio --no-children -q -i "$F/sort.data" --dsos libc.so.6 --sort sym \
	      2>/dev/null | awk "/%/ { print \$NF; exit }")
	[ -n "$sym" ] || skip "no libc symbol with samples"
	same_pcts "$sym" "$F/sort.data"
'

perf_case "xperf record's file: the same shares as perf annotate reads in it" '
	need xsort.data
	needs_disasm
	same_pcts cmp_int "$F/xsort.data"
'

perf_case "perf's layout line for line: header, objdump lines, numbers, source" '
	need sort.data
	needs_disasm
	needs_libdw
	for opt in "" --no-source -l -n --show-total-period "--percent-type local-hits"; do
		perf_run annotate --stdio $opt -s cmp_int -i "$F/sort.data" >perf.out 2>/dev/null
		"$A" --stdio $opt -s cmp_int -i "$F/sort.data" >xperf.out
		layout perf.out >p.lay
		layout xperf.out >x.lay
		diff p.lay x.lay >d || fail "with [$opt]: $(head -n 20 d)"
	done
'

perf_case "glibc's AVX-512 string functions: objdump's text at every address, no (bad)" '
	need strings.data
	needs_zydis
	syms=$(perf_run report --stdio --no-children -q -i "$F/strings.data" --dsos libc.so.6 \
	       --sort sym 2>/dev/null | awk "/%/ && \$NF ~ /_(evex|avx2)/ { print \$NF }")
	[ -n "$syms" ] || skip "no *_evex or *_avx2 function in libc.so.6 took samples (a CPU without AVX2, or a libc without them)"
	echo "$syms" | grep -q _evex || echo "no *_evex function ran (a CPU without AVX-512): comparing $syms"
	for s in $syms; do
		same_text "$s" "$F/strings.data"
		! grep -q "(bad)" xperf.out || fail "$s: (bad) in xperf: $(grep -c "(bad)" xperf.out)"
	done
'

perf_case "globals and C++ targets named as objdump -C names them: perf's text" '
	need shares.data
	need cxx.data
	needs_zydis
	needs_libdw
	same_text work_a "$F/shares.data"
	grep -q "# [0-9a-f]* <sink>$" xperf.out || fail "sink not named: $(grep "(%rip)" xperf.out)"
	syms=$(perf_run report --stdio --no-children -q -i "$F/cxx.data" --sort sym 2>/dev/null |
	       awk "/%/ && /\[\.\]/ && /work::/ { sub(/^ *[0-9.]+% +\[\.\] /, \"\"); print }")
	[ -n "$syms" ] || skip "no C++ function of cxx_inline took samples"
	while IFS= read -r s; do
		same_text "$s" "$F/cxx.data"
	done <<<"$syms"
	grep -q "<work::inline_host(unsigned long)+0x[0-9a-f]*>" xperf.out ||
		grep -q "(unsigned long" xperf.out || fail "no C++ parameters in the targets"
'

test_case "a source line above its instructions (the workloads are built with -g)" '
	need xsort.data
	needs_disasm
	needs_libdw
	"$A" --stdio cmp_int -i "$F/xsort.data" >out
	# the line of the definition, then (perhaps after other source lines) the first instruction
	n_src=$(grep -n "^ *: [0-9]\+ .*int cmp_int(const void \*a" out | head -n 1 | cut -d: -f1)
	n_ins=$(grep -n "^ *[0-9.]\+ : *[0-9a-f]\+:" out | head -n 1 | cut -d: -f1)
	[ -n "$n_src" ] || fail "no source line of cmp_int: $(head -n 20 out)"
	[ "$n_src" -lt "$n_ins" ] || fail "source line $n_src not above the first instruction ($n_ins)"
	grep -q "^ *: [0-9]\+ .*return (x > y) - (x < y);" out || fail "the body is not shown"
'

perf_case "without SYMBOL: the user-space symbols in perf's order, each with its sample count" '
	need shares.data
	needs_disasm
	perf_run annotate --stdio -i "$F/shares.data" >perf.out 2>/dev/null
	"$A" --stdio -i "$F/shares.data" >xperf.out 2>xperf.err
	# [vdso]: perf with -N has no vdso image to disassemble, we read the running one
	grep "Source code & Disassembly of" perf.out | grep -v "\[kernel\|\[vdso\]" >p.heads
	grep "Source code & Disassembly of" xperf.out | grep -v "\[kernel\|\[vdso\]" >x.heads
	[ "$(wc -l <p.heads)" -ge 3 ] || fail "perf annotated $(wc -l <p.heads) symbols"
	diff p.heads x.heads || fail "headings differ"
'

perf_case "--time: the samples of that slice, as report --time keeps them" '
	need shares.data
	needs_disasm
	R=$XPERF_BUILD/xperf-report
	all=$("$A" --stdio -i "$F/shares.data" work_a 2>/dev/null | sed -n "s/.*(\([0-9]*\) samples,.*/\1/p")
	for t in 0%-50% 50%-100% 10%/3; do
		n=$("$A" --stdio --time $t -i "$F/shares.data" work_a 2>err |
			sed -n "s/.*(\([0-9]*\) samples,.*/\1/p")
		m=$("$R" --stdio -q -n --no-children --sort sym --time $t -i "$F/shares.data" 2>/dev/null |
			awk "\$NF == \"work_a\" { print \$2 }")
		[ -n "$n" ] && [ "$n" = "$m" ] || fail "--time $t: annotate ${n:-none}, report ${m:-none}"
		[ "$n" -lt "$all" ] || fail "--time $t keeps all $all samples"
	done
'

test_case "an unknown symbol: one error line, exit 2" '
	need xsort.data
	needs_disasm
	rc=0; "$A" --stdio no_such_function -i "$F/xsort.data" >out 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	[ "$(wc -l <err)" -eq 1 ] || fail "stderr: $(cat err)"
	grep -q "^xperf annotate: error: symbol '"'"'no_such_function'"'"' has no samples" err ||
		fail "message: $(cat err)"
	[ ! -s out ] || fail "stdout: $(head -n 3 out)"
'

test_case "kernel code that cannot be read: a warning after the others, an error alone" '
	needs_disasm
	[ -r /proc/kcore ] && head -c 1 /proc/kcore >/dev/null 2>&1 &&
		skip "/proc/kcore is readable here: kernel symbols can be annotated"
	"$XPERF_BUILD/xperf-record" -q -e cpu-clock -o k.data -- "$WL/kernel_time" 0.5 >/dev/null 2>&1
	rc=0; "$A" --stdio -i k.data >out 2>err || rc=$?
	cat err
	grep -q "cannot annotate" err || skip "no kernel symbol resolved (kptr_restrict?)"
	[ $rc -eq 0 ] || fail "exit $rc with symbols annotated"
	grep -q "^ Percent" out
	! grep -q "error:" err || fail "an error line, yet exit 0"
	grep -q "^xperf annotate: warning: cannot annotate .* in \[kernel.kallsyms\]: .*/proc/kcore" err
	grep -q "^hint: kernel code is read from /proc/kcore" err
	sym=$(sed -n "s/^xperf annotate: warning: cannot annotate .\([^ ]*\). in \[kernel.kallsyms\].*/\1/p" err | head -n 1)
	rc=0; "$A" --stdio -i k.data "$sym" >out 2>err || rc=$?
	cat err
	[ $rc -eq 2 ] || fail "$sym alone: exit $rc"
	grep -q "^xperf annotate: error: cannot annotate .$sym. in \[kernel.kallsyms\]" err
'

test_case "options perf has and we do not: a clear usage error" '
	need xsort.data
	for o in "--percent-type global-period" --tui; do
		rc=0; "$A" $o -i "$F/xsort.data" cmp_int >out 2>err || rc=$?
		[ $rc -eq 1 ] || fail "$o: exit $rc"
		grep -q "^xperf annotate: error: .*not supported" err || fail "$o: $(cat err)"
	done
'

test_case "a pipe stream on stdin" '
	need xsort.data
	needs_disasm
	"$XPERF_BUILD/xperf-record" -q -o - -- "$WL/shares" 0.3 2>/dev/null |
		"$A" --stdio -i - work_b >out
	grep -q "Source code & Disassembly of shares" out
	grep -q "^ *[0-9.]\+ : *[0-9a-f]\+:" out
'

test_case "without Zydis (HAVE_ZYDIS=0): capstone decodes x86, the shares as the full build" '
	need xsort.data
	grep -qx "#define HAVE_ZYDIS 1" "$XPERF_BUILD/config.h" ||
		skip "this build is the one without Zydis: nothing to compare it with"
	grep -qx "#define HAVE_CAPSTONE 1" "$XPERF_BUILD/config.h" || skip "no capstone either"
	nb=$TOP/build-nozydis
	make -C "$TOP" --no-print-directory BUILD="$nb" HAVE_ZYDIS=0 "$nb/xperf-annotate" \
		>make.log 2>&1 || fail "build: $(tail -n 5 make.log)"
	grep -q "HAVE_ZYDIS 0" "$nb/config.h" || fail "config.h: $(cat "$nb/config.h")"
	"$nb/xperf-annotate" --stdio cmp_int -i "$F/xsort.data" >nz.out 2>nz.err || fail "$(cat nz.err)"
	"$A" --stdio cmp_int -i "$F/xsort.data" >z.out
	[ "$(pcts nz.out)" = "$(pcts z.out)" ] || fail "shares differ: $(diff <(pcts nz.out) <(pcts z.out) | head -5)"
'

test_case "without a disassembler (no Zydis, no capstone): not supported in this build, exit 2" '
	need xsort.data
	nb=$TOP/build-nocap
	make -C "$TOP" --no-print-directory BUILD="$nb" HAVE_CAPSTONE=0 HAVE_ZYDIS=0 \
		"$nb/xperf-annotate" >make.log 2>&1 || fail "build: $(tail -n 5 make.log)"
	grep -q "HAVE_CAPSTONE 0" "$nb/config.h" || fail "config.h: $(cat "$nb/config.h")"
	grep -q "HAVE_ZYDIS 0" "$nb/config.h" || fail "config.h: $(cat "$nb/config.h")"
	rc=0; "$nb/xperf-annotate" --stdio cmp_int -i "$F/xsort.data" >out 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	grep -q "^xperf annotate: error: annotate is not supported in this build" err ||
		fail "message: $(cat err)"
'

test_case "--help lists every option, each documented in docs/xperf-annotate.1" '
	"$A" --help >h.txt
	opts=$(grep -Eo -- "--(\[no-\])?[a-z][a-z-]+" h.txt | sed "s/\[no-\]//" | sort -u)
	[ "$(echo "$opts" | wc -l)" -ge 15 ] || fail "only $(echo "$opts" | wc -l) options"
	for o in $opts; do
		[ "$o" = --help ] && continue
		grep -q -- "$(echo "$o" | sed "s/-/\\\\\\\\-/g")" "$TOP/docs/xperf-annotate.1" ||
			fail "$o missing from the man page"
	done
'

test_done
