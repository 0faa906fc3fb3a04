#!/usr/bin/env bash
# xperf report on --call-graph dwarf files against perf report on the same files: the user
# stack unwound in-process with libdwfl (through libc, built without frame pointers), joined
# to the kernel part as perf joins them. Both expand inlined functions in DWARF chains by
# default (perf through binutils' addr2line, whose names of inline frames are sometimes the
# host's; report_inline.sh tests xperf's): here both are asked for --no-inline.
. "$(dirname "$0")/lib.sh"

R=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
MIN_MATCH=99 # per cent of perf's samples whose folded stack xperf must print the same
export R WL MIN_MATCH

# a build without libdw prints the leaf only, and says so (the last case)
have_libdw() { "$XPERF_BUILD/xperf" version 2>/dev/null | grep -Eq '^ +libdw +yes'; }

. "$(dirname "$0")/lib_compare.sh"


# dwarf_case NAME SCRIPT: needs perf, libdw in this build and the libc_sort workload
dwarf_case() {
	if ! have_libdw; then
		skip_case "$1" "this build has no libdw"
	elif [ ! -x "$WL/libc_sort" ]; then
		skip_case "$1" "$WL/libc_sort is not built"
	else
		perf_case "$@"
	fi
}

dwarf_case "libc_sort: -g caller folded stacks through libc as perf's" '
	prec --call-graph dwarf -o d.data -- "$WL/libc_sort" 1
	same_stacks d.data --no-children -g folded,0,caller,count
	# the chain the workload is made of, through libc without frame pointers
	grep -q "main;libc_round;[^;]*qsort_r;msort_with_tmp[^;]*;.*cmp_int$" xperf.folded ||
		fail "no main -> libc_round -> qsort_r -> msort_with_tmp -> cmp_int chain"
	same_stacks d.data --no-children -g folded,0,callee,count
'

dwarf_case "libc_sort: Children/Self of the top 20 as perf's" '
	prec --call-graph dwarf -o d.data -- "$WL/libc_sort" 1
	perf_run report --stdio --no-inline --children -g none -i d.data >perf.out 2>/dev/null
	"$R" --stdio --no-inline --children -g none -i d.data >xperf.out 2>xperf.err ||
		fail "$(cat xperf.err)"
	same_children perf.out xperf.out
	awk "/\\[\\.\\] libc_round\$/ { sub(/%/, \"\", \$1); exit !(\$1 > 80) }" xperf.out ||
		fail "libc_round does not hold qsort_r: $(grep "libc_round$" xperf.out)"
'

dwarf_case "kernel and user parts joined as perf joins them (page faults)" '
	wl="$WL/stat_pages" arg=300000
	[ -x "$WL/kernel_time" ] && wl="$WL/kernel_time" arg=0.5
	prec --call-graph dwarf -o k.data -- "$wl" $arg
	same_stacks k.data --no-children -g folded,0,caller,count
	grep -Eq ";main;(.*;)?(asm_exc_page_fault|entry_SYSCALL_64[a-z_]*)(;|\$)" xperf.folded ||
		fail "no stack from main into the kernel"
	same_stacks k.data --no-children -g folded,0,callee,count
'

dwarf_case "samples in the vdso: unwound through its CFI, the same stacks as perf" '
	[ -x "$WL/vdso_clock" ] || skip "$WL/vdso_clock is not built"
	# perf unwinds through the vdso only from the copy in its build-id cache, which `-N`
	# leaves empty: this one recording fills the cache of this case'"'"'s own HOME, as a
	# user'"'"'s first `perf record` does (xperf reads the running kernel'"'"'s vdso either way)
	export HOME=$PWD/home
	mkdir -p "$HOME"
	perf_run record -q --no-bpf-event --call-graph dwarf -o v.data -- "$WL/vdso_clock" 0.5 \
		>/dev/null 2>prec.err || fail "perf record failed: $(tail -n 2 prec.err)"
	ls -d "$HOME"/.debug/\[vdso\]/*/ >/dev/null 2>&1 ||
		skip "perf kept no copy of the vdso in its build-id cache"
	perf_run report --stdio -q --no-children --sort dso -i v.data >dso.out 2>/dev/null
	# the vdso answers clock_gettime only with a clocksource it can read (tsc, kvm-clock);
	# otherwise it is a system call, and the samples are then in the kernel
	awk "\$2 == \"[vdso]\" { sub(/%/, \"\", \$1); v = \$1 } END { exit !(v > 50) }" dso.out ||
		skip "clock_gettime is not answered in the vdso here: $(head -n 3 dso.out)"
	same_stacks v.data --no-children -g folded,0,caller,count
	grep -Eq "^[0-9]+ .*;main;clock_loop;clock_gettime[^;]*;\[vdso\]\$" xperf.folded ||
		fail "no main -> clock_loop -> clock_gettime -> [vdso] chain: $(head -n 3 xperf.folded)"
'

if [ -x "$XPERF_BUILD/xperf-record" ]; then
	dwarf_case "xperf record --call-graph dwarf file: the same stacks as perf reads" '
		"$XPERF_BUILD/xperf-record" -q --call-graph dwarf -o x.data -- "$WL/libc_sort" 1 \
			>/dev/null 2>rec.err || fail "record: $(cat rec.err)"
		same_stacks x.data --no-children -g folded,0,caller,count
	'
else
	skip_case "xperf record --call-graph dwarf file: the same stacks as perf reads" \
		"xperf-record is not built"
fi

dwarf_case "samples that cannot be unwound keep their leaf, one summary warning" '
	# the workload gone, samples in it have no file to read CFI from
	cp "$WL/libc_sort" ./gone
	prec --call-graph dwarf -o g.data -- ./gone 0.3
	rm gone
	"$R" --stdio --no-children -g folded,0,caller,count -i g.data >out 2>err ||
		fail "$(cat err)"
	[ "$(grep -c "samples with a DWARF user stack could not be unwound" err)" = 1 ] ||
		fail "warning: $(cat err)"
	n=$(sed -n "s/.*warning: \([0-9]*\) of .*/\1/p" err)
	[ "${n:-0}" -gt 0 ] || fail "no sample counted: $(cat err)"
	grep -Eq "^[0-9]+ 0x[0-9a-f]+\$" out || fail "no leaf-only stacks"
	"$R" --stdio -q -i g.data >/dev/null 2>err.q
	[ ! -s err.q ] || fail "-q still warns: $(cat err.q)"
'

# chains FILE: each sample's frame addresses on one line, from `script -F ip` (samples apart
# by blank lines)
chains() { awk 'NF == 0 { if (l != "") print l; l = ""; next } { l = l " " $1 } END { if (l != "") print l }' "$1"; }
# same_chains PERF-SCRIPT XPERF-SCRIPT MIN: at least MIN % of the samples (in file order) have
# perf's chain, or one that goes on where perf's stops
same_chains() {
	chains "$1" >t
	chains "$2" >m
	[ "$(wc -l <t)" = "$(wc -l <m)" ] || fail "$(wc -l <t) samples by perf, $(wc -l <m) by xperf"
	paste -d "|" t m | awk -F "|" -v min="$3" '
	{ n++; p = $1; sub(/ ffffffffffffffff$/, "", p) }
	$1 == $2 || index($2, p " ") == 1 { ok++; next }
	{ if (++bad <= 3) print "perf:" $1 "\nxperf:" $2 >"/dev/stderr" }
	END { printf "%d of %d chains as perf'"'"'s\n", ok, n; exit !(n && ok * 100 >= min * n) }' ||
		fail "chains differ from perf's"
}
export -f chains same_chains

# nocfi_rec WHO OUT.data: WHO (perf or xperf) records the nocfi workload; its map file goes
nocfi_rec() {
	if [ "$1" = perf ]; then
		perf_run record -q -N --no-bpf-event --call-graph dwarf -o "$2" -- "$WL/nocfi" 1 \
			>nocfi.out 2>rec.err || fail "perf record: $(cat rec.err)"
	else
		"$XPERF_BUILD/xperf-record" -q --call-graph dwarf -o "$2" -- "$WL/nocfi" 1 \
			>nocfi.out 2>rec.err || fail "xperf record: $(cat rec.err)"
	fi
	pid=$(awk '/^nocfi: pid/ { print $3 }' nocfi.out)
	[ -n "$pid" ] || fail "the nocfi workload printed no pid: $(cat nocfi.out rec.err)"
}
export -f nocfi_rec

# Frames without CFI: perf 6.1 unwinds with libunwind, which walks rbp from code of a file
# that has no CFI for it, and stops at JIT code (no file to read CFI from); xperf the same
dwarf_case "frames without CFI (in the binary: rbp; JIT code: the end), as perf, both recorders" '
	[ -x "$WL/nocfi" ] || skip "$WL/nocfi is not built"
	# every nocfi process (the probe, each perf record run) lists its map file there
	export WL_MAP_LIST=$PWD/maps
	trap "[ ! -f \"\$WL_MAP_LIST\" ] || xargs rm -f <\"\$WL_MAP_LIST\"" EXIT
	"$WL/nocfi" 0 >/dev/null 2>&1 || skip "the nocfi workload does not run on this machine"
	nocfi_rec perf p.data
	have_xrec=0
	if [ -x "$XPERF_BUILD/xperf-record" ]; then nocfi_rec xperf x.data; have_xrec=1; fi
	for f in p.data $([ $have_xrec = 1 ] && echo x.data); do
		perf_run script --no-inline -F ip,sym -i $f >$f.perf 2>/dev/null || fail "perf script $f"
		"$XPERF_BUILD/xperf-script" --no-inline -F ip,sym -i $f >$f.xperf 2>$f.err ||
			fail "xperf script $f: $(cat $f.err)"
		same_chains $f.perf $f.xperf 100
		# the four phases, as perf shows them (its chains are the reference above)
		sym() { awk "BEGIN { RS = \"\" } { gsub(/\n[ \t]+[0-9a-f]+ /, \";\"); sub(/^[ \t]+[0-9a-f]+ /, \"\"); print }" "$1"; }
		sym $f.xperf >$f.sym
		grep -q "^c_leaf;nocfi_call;main;" $f.sym || fail "$f: no c_leaf <- nocfi_call <- main chain"
		grep -q "^nocfi_spin;main;" $f.sym || fail "$f: no nocfi_spin <- main chain"
		grep -qx "c_leaf;jit_call" $f.sym || fail "$f: no c_leaf <- jit_call chain ending there"
		grep -qx "jit_spin" $f.sym || fail "$f: no jit_spin chain of its own"
		! grep -q "could not be unwound" $f.err || fail "$f: $(cat $f.err)"
	done
'

# node maps V8's builtins a second time, away from its text, and runs them without CFI
dwarf_case "node (three executable segments, its builtins mapped twice, JIT code): chains as perf's" '
	command -v node >/dev/null || skip "node is absent"
	cat >b.js <<-EOF
	function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
	let s = 0; const t0 = Date.now(); const o = {};
	while (Date.now() - t0 < 700) { s += fib(20); o["k" + (s % 1000)] = JSON.stringify({ a: s }); }
	console.log(s);
	EOF
	# node writes /tmp/perf-PID.map: removed when the case ends, whatever happens, for
	# each process of the file (the node it ran)
	node_maps() {
		[ -f n.data ] || return 0
		perf script -F pid -i n.data 2>/dev/null | sort -u | while read -r p; do
			case $p in *[!0-9]* | "") ;; *) rm -f "/tmp/perf-$p.map" ;; esac
		done
	}
	trap node_maps EXIT
	prec --call-graph dwarf -o n.data -- node --perf-basic-prof b.js
	perf_run script --no-inline -F ip -i n.data >n.perf 2>/dev/null || fail "perf script"
	"$XPERF_BUILD/xperf-script" --no-inline -F ip -i n.data >n.xperf 2>n.err || fail "$(cat n.err)"
	same_chains n.perf n.xperf 99
'

dwarf_case "a stack copy too short for the chain: perf's last frame ffffffffffffffff, the same chains" '
	[ -x "$WL/recurse" ] || skip "$WL/recurse is not built"
	# 1 KiB of a 200-frame recursion: the return addresses past the copy read as 0
	perf_run record -q -N --no-bpf-event --call-graph dwarf,1024 -o r.data -- "$WL/recurse" 200 0.3 \
		>/dev/null 2>&1 || fail "perf record failed"
	# each sample'"'"'s frame addresses on one line (-F ip: samples apart by blank lines)
	ips() { awk "NF == 0 { if (l != \"\") print l; l = \"\"; next } { l = l \" \" \$1 } END { if (l != \"\") print l }" "$1"; }
	perf_run script --no-inline -F ip -i r.data >theirs 2>/dev/null || fail "perf script failed"
	"$XPERF_BUILD/xperf" script --no-inline -F ip -i r.data >ours 2>err || fail "xperf script: $(cat err)"
	ips theirs >t; ips ours >m
	grep -q " ffffffffffffffff\$" t || skip "perf ends no chain with ffffffffffffffff"
	[ "$(wc -l <t)" -ge 20 ] || fail "only $(wc -l <t) samples"
	diff t m >d || fail "$(grep -c "^<" d) of $(wc -l <t) chains differ from perf'"'"'s: $(head -n 4 d | cut -c1-200)"
'

# A build without libdw: this one, or one made here (the report alone)
perf_case "without libdw: DWARF files reported with their leaves, said once" '
	r=$R
	if have_libdw; then
		make -s -C "$TOP" BUILD="$PWD/b" HAVE_LIBDW=0 "$PWD/b/xperf-report" >make.log 2>&1 ||
			fail "build: $(tail -n 5 make.log)"
		r=$PWD/b/xperf-report
	fi
	prec --call-graph dwarf -o d.data -- "$WL/shares" 0.3
	"$r" --stdio --no-children -i d.data >out 2>err || fail "$(cat err)"
	[ "$(grep -c "DWARF call graphs are not supported in this build" err)" = 1 ] ||
		fail "message: $(cat err)"
	grep -q "\[\.\] work_a" out || fail "no samples shown"
'

test_done
