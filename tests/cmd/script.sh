#!/usr/bin/env bash
# xperf script against perf script 6.1 on the same files (perf's and ours): default lines
# with call chains, -F lists, side-band records, --ns, pipes, and --folded against a
# collapse of perf script's output.
. "$(dirname "$0")/lib.sh"

XS=$XPERF_BUILD/xperf-script
XR=$XPERF_BUILD/xperf-record
WL=$XPERF_BUILD/workloads
DATA=$TEST_TMP/data
mkdir -p "$DATA"

# xperf names [vdso] code (perf 6.1 prints [unknown] without a build-id cache): one spelling
vdso() { sed -E 's/ [^ ]+ \(\[vdso\]\)$/ [unknown] ([vdso])/'; }
export -f vdso

# same_as_perf FILE ARGS...: xperf script and perf script print the same lines
same_as_perf() {
	local f=$1
	shift
	perf_run script -i "$f" "$@" >perf.raw 2>perf.err
	"$XS" -i "$f" "$@" >xperf.out 2>xperf.err
	vdso <perf.raw >perf.out
	vdso <xperf.out >xperf.norm
	test -s perf.out || fail "perf script printed nothing: $(head -3 perf.err)"
	diff perf.out xperf.norm >diff.out || { head -20 diff.out; fail "differs from perf script $*"; }
}
export -f same_as_perf

# collapse: perf script's default output as flame-graph collapsers read it: comm, then the
# frames outermost first (symbol without +offset; [unknown] symbols by their DSO's base
# name, [unknown] without one), and the number of samples of each stack
collapse() {
	awk '
	function flush(   s, i) {
		if (comm == "") return
		s = comm
		for (i = n; i >= 1; i--) s = s ";" f[i]
		count[s]++
		comm = ""; n = 0
	}
	/^[^\t]/ && match($0, / +-?[0-9]+ +[0-9]+\.[0-9]+: /) { flush(); comm = substr($0, 1, RSTART - 1); next }
	/^\t/ {
		line = $0; sub(/^\t *[0-9a-f]+ /, "", line)
		if (line ~ / \(inlined\)$/) { sub(/ \(inlined\)$/, "", line); sym = line }
		else {
			dso = line; sub(/.* \(/, "", dso); sub(/\)$/, "", dso)
			sym = line; sub(/ \([^(]*\)$/, "", sym)
		}
		sub(/\+0x[0-9a-f]+$/, "", sym)
		if (sym == "[unknown]" && dso != "[unknown]") { sym = dso; sub(/.*\//, "", sym) }
		f[++n] = sym; next
	}
	/^$/ { flush() }
	END { flush(); for (s in count) print s, count[s] }' | LC_ALL=C sort
}
export -f collapse

# sum_stacks: merge equal stacks (frames that print alike), sorted
sum_stacks() {
	awk '{ c = $NF; $NF = ""; sub(/ $/, ""); s[$0] += c } END { for (k in s) print k, s[k] }' |
		LC_ALL=C sort
}
export -f sum_stacks

record() { # NAME RECORDER ARGS...: record once into $DATA/NAME.data
	local name=$1 who=$2
	shift 2
	if [ "$who" = perf ]; then
		perf_run record -N -q -e cpu-clock -o "$DATA/$name.data" "$@" >/dev/null 2>&1 || :
	else
		"$XR" -q -o "$DATA/$name.data" "$@" >/dev/null 2>&1 || :
	fi
}
export DATA XS XR WL

if have_perf; then
	record p-shares perf -g -- "$WL/shares" 0.3
	record p-flat perf -- "$WL/shares" 0.3
	record p-threads perf -g -- "$WL/threads" 0.3
	record p-sort perf --call-graph dwarf -- "$WL/libc_sort" 0.3
fi
record x-shares xperf -g -- "$WL/shares" 0.3
record x-threads xperf -g -- "$WL/threads" 0.3

perf_case "perf-recorded -g file: the same lines as perf script" '
	same_as_perf "$DATA/p-shares.data"
	grep -q "work_a+0x" xperf.out
'
perf_case "xperf-recorded -g file: the same lines as perf script" '
	same_as_perf "$DATA/x-shares.data"
'
perf_case "threads: the same lines as perf script" '
	same_as_perf "$DATA/p-threads.data"
	same_as_perf "$DATA/x-threads.data"
'
perf_case "a file without call chains: one line per sample, as perf script" '
	same_as_perf "$DATA/p-flat.data"
	[ "$(wc -l <xperf.out)" -gt 10 ]
'
perf_case "-F comm,tid,time,ip,sym,dso as perf script" '
	same_as_perf "$DATA/p-shares.data" -F comm,tid,time,ip,sym,dso
	same_as_perf "$DATA/p-flat.data" -F comm,tid,time,ip,sym,dso
'
perf_case "-F +pid,-period, -F sw:comm,ip, --ns, -G as perf script" '
	same_as_perf "$DATA/p-flat.data" -F +pid,-period
	same_as_perf "$DATA/p-flat.data" -F sw:comm,ip
	same_as_perf "$DATA/x-shares.data" --ns
	same_as_perf "$DATA/x-shares.data" -G
'
perf_case "-G -F sym, sym without ip: the lines of perf script 6.1 (no symbol without ip)" '
	# perf 6.1 prints sym and dso within the ip field: without ip, an empty line
	same_as_perf "$DATA/p-shares.data" -G -F sym
	same_as_perf "$DATA/p-shares.data" -G -F ip,sym
	same_as_perf "$DATA/p-shares.data" -F comm,sym,dso
	same_as_perf "$DATA/p-flat.data" -G -F sym,dso
	"$XS" -i "$DATA/p-shares.data" -G -F ip,sym | grep -q " work_a$" || fail "no work_a with -F ip,sym"
'
# Issue 20: every frame at an address of its own (tests/xpf-paths -u: a deleted binary).
# A script prints each sample and forgets it: its memory must not grow with the distinct
# frames (it kept 80-odd bytes a frame: 95 MB for 1M of them). An AddressSanitizer build's
# peak RSS is the sanitizer's.
perf_case "unresolved addresses: as perf script, memory bounded whatever the frames" '
	PATHS=$XPERF_BUILD/tests/xpf-paths
	[ -x "$PATHS" ] && [ -x /usr/bin/time ] || skip "tests/xpf-paths or /usr/bin/time is absent"
	"$PATHS" -u -i "$DATA/p-shares.data" -o u1.data -n 2000 >/dev/null || fail "xpf-paths"
	same_as_perf u1.data
	grep -q "deleted-binary" xperf.out || fail "no frame of the unresolved map"
	! ldd "$XS" 2>/dev/null | grep -q libasan || skip "an AddressSanitizer build"
	"$PATHS" -u -i "$DATA/p-shares.data" -o u10.data -n 10000 >/dev/null || fail "xpf-paths"
	"$PATHS" -u -i "$DATA/p-shares.data" -o u100.data -n 100000 >/dev/null || fail "xpf-paths"
	for n in 10 100; do
		/usr/bin/time -f %M -o rss$n "$XS" -i u$n.data >/dev/null 2>err || fail "$(cat err)"
	done
	# 90000 more samples, each with 10 frames of their own and its own ip (a frame more)
	per=$(( ($(tail -n 1 rss100) - $(tail -n 1 rss10)) * 1024 / 990000 ))
	echo "10k samples: $(tail -n 1 rss10) KiB, 100k: $(tail -n 1 rss100) KiB:" \
		"$per bytes a frame"
	[ "$per" -le 16 ] || fail "$per bytes a distinct frame (over 16)"
'
perf_case "--show-task-events --show-mmap-events as perf script" '
	same_as_perf "$DATA/p-threads.data" --show-task-events --show-mmap-events
	grep -q "PERF_RECORD_COMM exec: threads" xperf.out
	grep -q "PERF_RECORD_MMAP2 .*r-xp .*/threads$" xperf.out
	same_as_perf "$DATA/x-threads.data" --show-task-events
	grep -q "PERF_RECORD_FORK" xperf.out
'
perf_case "-F misc: K and U of samples, E, S and Sp of side-band records, as perf script" '
	perf_run record -N -q -e cpu-clock -g --switch-events -o k.data -- sh -c \
		"dd if=/dev/zero of=/dev/null bs=1 count=300000 2>/dev/null; sleep 0.05" \
		>/dev/null 2>&1 || fail "perf record"
	same_as_perf k.data -F comm,tid,time,ip,sym,misc
	grep -q "^ *dd  *[0-9]* K  " xperf.out || fail "no K sample"
	grep -q "^ *dd  *[0-9]* U  " xperf.out || fail "no U sample"
	same_as_perf k.data -F misc,comm,event -G
	same_as_perf k.data --show-task-events --show-switch-events --show-mmap-events \
		-F comm,tid,misc,time
	grep -q " E  .*PERF_RECORD_COMM exec" xperf.out || fail "no E on the exec"
	grep -q " S  .*PERF_RECORD_SWITCH OUT" xperf.out || fail "no S on a switch out"
'
# DWARF unwinding and source lines need libdw (report_dwarf.sh checks what a build
# without it says)
have_libdw() { "$XPERF_BUILD/xperf" version 2>/dev/null | grep -Eq "^ +libdw +yes"; }
export -f have_libdw
perf_case "DWARF call graphs: the same samples and frame addresses as perf script" '
	have_libdw || skip "built without libdw: no DWARF unwinding"
	# names differ on purpose where DWARF and ELF names differ (see xperf-script.1)
	perf_run script -i "$DATA/p-sort.data" >perf.out 2>/dev/null
	"$XS" -i "$DATA/p-sort.data" >xperf.out
	addrs() { sed -E "s/^(\t *[0-9a-f]+) .*/\1/; s/^([^\t].*: )$/\1/"; }
	addrs <perf.out | uniq >p.addrs
	addrs <xperf.out | uniq >x.addrs
	test -s p.addrs
	diff p.addrs x.addrs | head -20
	cmp -s p.addrs x.addrs || fail "frame addresses differ from perf script"
	grep -q msort_with_tmp xperf.out
'
perf_case "DWARF samples whose stack cannot be unwound show their own frame, as perf script" '
	have_libdw || skip "built without libdw: no DWARF unwinding"
	# the workload gone, samples in it have no file to read CFI from
	cp "$WL/libc_sort" ./gone
	perf_run record -q -N --call-graph dwarf -o g.data -- ./gone 0.3 >/dev/null 2>&1
	rm gone
	perf_run script -i g.data >perf.out 2>/dev/null
	"$XS" -i g.data >xperf.out
	# each sample: its header line and its first frame line`s address
	first() { awk "BEGIN { RS = \"\"; FS = \"\n\" } { split(\$2, a, \" \"); print \$1 \" | \" a[1] }" "$1"; }
	first perf.out >p.first
	first xperf.out >x.first
	grep -q " | $" x.first && fail "samples without a frame: $(grep -c " | $" x.first)"
	grep -q "\[unknown\] (.*/gone)" xperf.out
	diff p.first x.first | head -10
	cmp -s p.first x.first || fail "first frames differ from perf script"
	"$XPERF_BUILD/xperf-report" --stdio --no-children -g folded,0,caller,count -i g.data >r.out
	grep -Eq "^[0-9]+ 0x[0-9a-f]+\$" r.out || fail "the report lost its leaf-only stacks"
'
perf_case "-i - reads a pipe stream as perf script does" '
	"$XR" -q -g -o - -- "$WL/shares" 0.2 >pipe.data 2>/dev/null
	perf_run script -i - <pipe.data 2>/dev/null | vdso >perf.out
	"$XS" -i - <pipe.data | vdso >xperf.out
	test -s perf.out
	cmp perf.out xperf.out
'
perf_case "--folded equals a collapse of perf script output" '
	for f in p-shares x-shares p-threads; do
		perf_run script -i "$DATA/$f.data" 2>/dev/null | vdso | collapse | sum_stacks >perf.folded
		"$XS" --folded -i "$DATA/$f.data" | sed -E "s/__vdso_[A-Za-z0-9_]+/[vdso]/g" |
			sum_stacks >xperf.folded
		test -s perf.folded
		diff perf.folded xperf.folded | head -10
		cmp -s perf.folded xperf.folded || fail "$f: folded stacks differ"
		cp xperf.folded "$f.folded"
	done
	grep -q "^shares;.*;work_a [0-9]*$" p-shares.folded
'
test_case "--folded lines are sorted, counts add up to the samples" '
	"$XS" --folded -i "$DATA/x-shares.data" >f
	LC_ALL=C sort -c f
	n=$(awk "{ s += \$NF } END { print s }" f)
	m=$("$XPERF_BUILD/xperf-report" --stats -i "$DATA/x-shares.data" | awk "\$1 == \"SAMPLE\" { print \$3; exit }")
	[ "$n" = "$m" ] || fail "folded counts $n, file has $m samples"
'
test_case "-F srcline prints source lines of the workload" '
	have_libdw || skip "built without libdw: no source lines (the case below checks its message)"
	"$XS" -F comm,ip,sym,srcline -i "$DATA/x-shares.data" >out 2>err
	grep -Eq "^  shares\.c:[0-9]+$" out
	! grep -q "need libdw" err
'
test_case "-F srcline without libdw: one warning that says so, addresses for lines" '
	! have_libdw || skip "built with libdw (the case above checks the lines)"
	"$XS" -F comm,ip,sym,srcline -i "$DATA/x-shares.data" >out 2>err
	[ "$(grep -c "source lines need libdw" err)" -eq 1 ] || fail "$(cat err)"
	grep -Eq "^  shares\[[0-9a-f]+\]$" out || fail "$(head -5 out)"
'
perf_case "-F srcline where no line is known (xz): perf's ??:0 silence and dso[addr]" '
	have_libdw || skip "built without libdw"
	command -v xz >/dev/null || skip "xz is absent"
	head -c 4000000 /dev/urandom >in.bin
	perf_run record -N -q -e cpu-clock -g -o xz.data -- xz -k -c -6 in.bin >/dev/null 2>&1 ||
		fail "perf record"
	# lines the DWARF knows are compared elsewhere (binutils, which perf runs, names
	# another file for some of libc'"'"'s inlined lines): here only where none is known,
	# which perf prints as nothing (addr2line named a function) or "dso[address]"; and
	# not ":0", binutils'"'"' answer for ld.so'"'"'s start code (a CU without a line there)
	known() { grep -vE "^  ([^ ]+\.[A-Za-z]+:[0-9]+|:0)\$"; }
	perf_run script -F ip,sym,srcline -i xz.data 2>/dev/null | known >perf.out
	"$XS" -F ip,sym,srcline -i xz.data 2>err | known >xperf.out || fail "$(cat err)"
	diff perf.out xperf.out >d || fail "differs from perf script: $(head -n 8 d)"
	grep -A1 "\[unknown\]\$" xperf.out | grep -q "^	" || fail "no [unknown] frame without a srcline"
'
test_case "an unknown -F field is a usage error naming it" '
	rc=0; "$XS" -F comm,bogus -i "$DATA/x-shares.data" >out 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"
	grep -q "bogus" err
	[ ! -s out ]
'
# Tracepoint fields: formats from the file's TRACING_DATA, printed by libtraceevent as perf
# prints them (kernel addresses named with %pS, flag and symbol tables, arrays), from files
# and pipes. A build without libtraceevent says so once and prints the lines without them.
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || :
have_tp() { [ -d /sys/kernel/tracing/events/sched ]; }
te_built() { "$XPERF_BUILD/xperf" version | grep -q "+libtraceevent"; }
export -f te_built
TP_EVENTS="-e sched:sched_switch -e sched:sched_process_exec -e syscalls:sys_enter_openat
	-e kmem:kmalloc -e timer:hrtimer_start -e irq:softirq_entry"
TP_WORK="sleep 0.05; $WL/shares 0.1; cat /etc/hostname"
export TP_EVENTS TP_WORK
if have_tp; then
	if have_perf; then
		perf_run record -N -q -g $TP_EVENTS -o "$DATA/p-tp.data" -- sh -c "$TP_WORK" \
			>/dev/null 2>&1 || :
	fi
	"$XR" -q $TP_EVENTS -o "$DATA/x-tp.data" -- sh -c "$TP_WORK" >/dev/null 2>&1 || :
	perf_case "tracepoint fields and call chains of a perf file, as perf script prints them" '
		te_built || skip "built without libtraceevent (the case below checks its message)"
		same_as_perf "$DATA/p-tp.data"
		grep -q "sched:sched_switch: prev_comm=.* ==> next_comm=" xperf.out
		grep -q "syscalls:sys_enter_openat: dfd: 0x" xperf.out
		grep -Eq "kmem:kmalloc: call_site=[a-z_]+\+0x[0-9a-f]+ .* gfp_flags=GFP_" xperf.out
		! grep -q "warning" xperf.err
	'
	perf_case "tracepoint fields of an xperf file, with -F lists, as perf script" '
		te_built || skip "built without libtraceevent (the case below checks its message)"
		same_as_perf "$DATA/x-tp.data"
		grep -q "sched:sched_process_exec: filename=" xperf.out
		for F in comm,tid,time,event,trace trace tid,event,trace,ip,sym,dso; do
			same_as_perf "$DATA/x-tp.data" -F $F
		done
	'
	perf_case "tracepoint fields from a pipe stream, as perf script prints them" '
		te_built || skip "built without libtraceevent (the case below checks its message)"
		perf_run record -N -q -g $TP_EVENTS -o - -- sh -c "$TP_WORK" >pipe.data 2>/dev/null
		perf_run script -i - <pipe.data >perf.out 2>/dev/null
		"$XS" -i - <pipe.data >xperf.out
		grep -q "sched:sched_switch: prev_comm=" perf.out
		diff perf.out xperf.out >diff.out || { head diff.out; fail "differs from perf script"; }
	'
	perf_case "damaged tracing data: one warning naming it, the lines without their fields" '
		te_built || skip "built without libtraceevent (the case below checks its message)"
		perf_run record -N -q -e sched:sched_switch -o - -- sleep 0.05 >pipe.data 2>/dev/null
		python3 - <<EOF2
d = open("pipe.data", "rb").read()
magic = b"\x17\x08Dtracing"
assert magic in d, "no TRACING_DATA in the stream"
open("bad.data", "wb").write(d.replace(magic, b"\x17\x08Dtracinx", 1))
EOF2
		"$XS" -i - <bad.data >out 2>err || fail "exit $?: $(cat err)"
		[ "$(grep -c "tracing data is damaged" err)" -eq 1 ] || fail "$(cat err)"
		grep -q "sched:sched_switch: *$" out || fail "$(head -3 out)"
	'
	perf_case "printk formats with a NUL or a line without \" : \": one warning, no fields, no over-read" '
		te_built || skip "built without libtraceevent (the case below checks its message)"
		perf_run record -N -q -e sched:sched_switch -o - -- sleep 0.05 >pipe.data 2>/dev/null
		for mode in nul nocolon; do
			python3 "$TOP/tests/tools/damage_tracing_data.py" pipe.data bad.data $mode >/dev/null ||
				skip "no printk formats to damage in the tracing data"
			rc=0; "$XS" -i - <bad.data >out 2>err || rc=$?
			[ $rc -eq 0 ] || { head -5 err; fail "$mode: exit $rc"; }
			[ "$(wc -l <err)" -eq 1 ] || { head -5 err; fail "$mode: want one line on stderr"; }
			grep -q "^xperf script: warning: .*tracing data is damaged (printk formats)" err ||
				fail "$mode: $(cat err)"
			grep -q "sched:sched_switch: *$" out || fail "$mode: $(head -3 out)"
		done
	'
	test_case "a build without libtraceevent prints the lines and says once why fields lack" '
		! te_built || skip "built with libtraceevent (the cases above compare its fields)"
		"$XS" -i "$DATA/x-tp.data" >out 2>err
		[ "$(grep -c "built without libtraceevent" err)" -eq 1 ] || fail "$(cat err)"
		grep -q "sched:sched_switch: *$" out
	'
else
	skip_case "tracepoint fields" "tracefs has no sched events (mount -t tracefs nodev /sys/kernel/tracing)"
fi
test_case "-F cpu on samples without CPU is an error, as in perf" '
	rc=0; "$XS" -F comm,cpu -i "$DATA/x-shares.data" >out 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"
	grep -q "CPU" err
'
test_case "--help lists the options" '
	"$XS" --help >out
	for o in fields ns show-task-events show-mmap-events folded input; do
		grep -Eq -- "--(\[no-\])?$o" out || fail "--$o missing"
	done
'
test_done
