#!/usr/bin/env bash
# xperf report --pprof read back by a real client, go tool pprof: the same top functions
# and shares as xperf report --no-children --sort sym, the same stacks as --folded.
. "$(dirname "$0")/lib.sh"

XR=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads

have_go() { command -v go >/dev/null 2>&1; }
go_case() {
	if ! have_go; then
		skip_case "$1" "go is absent (Debian golang-go): no pprof client to read the file"
	elif ! "$XR" --help 2>&1 | grep -q -- --pprof; then
		skip_case "$1" "xperf-report has no --pprof"
	elif ! grep -qx "#define HAVE_PBC 1" "$XPERF_BUILD/config.h"; then
		skip_case "$1" "xperf was built without libprotobuf-c and zlib (HAVE_PBC=0)"
	else
		test_case "$@"
	fi
}
export GOCACHE=$TEST_TMP/gocache GOFLAGS=-mod=mod HOME=${HOME:-$TEST_TMP}
DATA=$TEST_TMP/x.data
FLAT=$TEST_TMP/flat.data
"$XPERF_BUILD/xperf-record" -q -g -o "$DATA" -- "$WL/shares" 0.4 >/dev/null 2>&1 || :
"$XPERF_BUILD/xperf-record" -q -o "$FLAT" -- "$WL/shares" 0.4 >/dev/null 2>&1 || :
TWO=$TEST_TMP/two.data OFF=$TEST_TMP/off.data
"$XPERF_BUILD/xperf-record" -q -g -e cpu-clock,task-clock -o "$TWO" -- "$WL/shares" 0.3 \
	>/dev/null 2>&1 || :
if [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; then
	"$XPERF_BUILD/xperf-record" -q --off-cpu -e cpu-clock -o "$OFF" -- "$WL/offcpu" 10 cpu \
		>/dev/null 2>&1 || :
fi
export DATA FLAT TWO OFF XR

# top N: "name percent" of the flat view of each tool, by period
pprof_top() {
	go tool pprof -top -symbolize=none -nodecount=50 "$1" 2>/dev/null |
		awk '/^ *flat +flat%/ { t = 1; next } t && $2 ~ /%$/ { sub(/%/, "", $2); print $6, $2 }'
}
report_top() {
	"$XR" --stdio -q --no-children -g none --sort sym -i "$1" |
		awk '$1 ~ /%$/ { sub(/%/, "", $1); print $3, $1 }'
}
export -f pprof_top report_top

# pbc_case NAME BODY: a case of the writer alone (no client needed), where it is built
pbc_case() {
	if ! grep -qx "#define HAVE_PBC 1" "$XPERF_BUILD/config.h"; then
		skip_case "$1" "xperf was built without libprotobuf-c and zlib (HAVE_PBC=0)"
	else
		test_case "$@"
	fi
}

go_case "go tool pprof -top: the same functions and shares as the report" '
	"$XR" --pprof p.pb.gz -i "$DATA"
	gzip -t p.pb.gz
	pprof_top p.pb.gz | head -n 3 >pp
	report_top "$DATA" | head -n 3 >rp
	cat pp rp
	[ "$(wc -l <pp)" -eq 3 ] || fail "pprof shows fewer than 3 functions"
	cut -d" " -f1 pp >pn; cut -d" " -f1 rp >rn
	cmp pn rn || fail "top functions differ"
	paste -d" " pp rp | awk "{ d = \$2 - \$4; if (d < 0) d = -d; if (d > 0.1) exit 1 }" ||
		fail "shares differ by more than 0.1 points"
	grep -q "^work_a " pp
'
go_case "a file without call chains: every sample at its own location, as the report" '
	"$XR" --pprof p.pb.gz -i "$FLAT"
	go tool pprof -top -symbolize=none p.pb.gz >top 2>/dev/null
	! grep -q "Total samples = 0\b" top || fail "$(grep "Total samples" top)"
	pprof_top p.pb.gz | head -n 3 >pp
	report_top "$FLAT" | head -n 3 >rp
	cat pp rp
	[ "$(wc -l <pp)" -eq 3 ] || fail "pprof shows fewer than 3 functions"
	cut -d" " -f1 pp >pn; cut -d" " -f1 rp >rn
	cmp pn rn || fail "top functions differ"
	paste -d" " pp rp | awk "{ d = \$2 - \$4; if (d < 0) d = -d; if (d > 0.1) exit 1 }" ||
		fail "shares differ by more than 0.1 points"
	# each sample one frame deep: its own function is its whole stack
	go tool pprof -traces -symbolize=none p.pb.gz 2>/dev/null | awk "
		/^-+\\+-+\$/ { if (n > max) max = n; n = 0; t++; next }
		t && !/comm:/ && NF { n++ }
		END { if (n > max) max = n; print t, max; exit !(t > 3 && max == 1) }" >depth ||
		fail "traces, deepest: $(cat depth)"
'
go_case "go tool pprof names the program: its mapping comes first" '
	"$XR" --pprof p.pb.gz -i "$DATA" 2>err || fail "$(cat err)"
	# shares starts in ld.so and libc: their mappings are made before its own
	go tool pprof -top -symbolize=none p.pb.gz 2>/dev/null | head -n 1 >file
	[ "$(cat file)" = "File: shares" ] || fail "$(cat file)"
'

go_case "go tool pprof -traces: the same stacks as xperf script --folded" '
	"$XR" --pprof p.pb.gz -i "$DATA"
	go tool pprof -traces -symbolize=none -sample_index=samples p.pb.gz 2>/dev/null |
	awk "
		/^-+\\+-+$/ { if (s != \"\") print s, c; s = \"\"; n = 0; next }
		/^ +comm: / { comm = \$2; next }
		/^ +[0-9]+ +/ && s == \"\" { c = \$1; f[n = 1] = \$2; s = \"x\" }
		s != \"\" && NF == 1 { f[++n] = \$1 }
		/^ *$/ { }
		{ if (s != \"\") { t = comm; for (i = n; i >= 1; i--) t = t \";\" f[i]; s = t } }
		END { if (s != \"\") print s, c }" |
		awk "{ c = \$NF; \$NF = \"\"; sub(/ \$/, \"\"); a[\$0] += c } END { for (k in a) print k, a[k] }" |
		LC_ALL=C sort >traces
	"$XPERF_BUILD/xperf-script" --folded -i "$DATA" >folded
	test -s traces
	diff traces folded | head -10
	cmp -s traces folded || fail "stacks differ"
'
go_case "mappings carry build ids, the profile its duration and period" '
	"$XR" --pprof p.pb.gz -i "$DATA"
	go tool pprof -raw -symbolize=none p.pb.gz >raw 2>/dev/null
	id=$(perf_run buildid-list -i "$DATA" 2>/dev/null | awk "/\/shares\$/ { print \$1 }")
	[ -n "$id" ] || id=$("$XR" --header-only -i "$DATA" | awk "/shares/ && /build/ { print }")
	grep -q "Duration: [0-9.]*m\?s" <(go tool pprof -top -symbolize=none p.pb.gz 2>/dev/null)
	grep -q "PeriodType: cpu-clock nanoseconds" raw
	if [ -n "$id" ] && have_perf; then grep -q "$id" raw || fail "no build id $id"; fi
'
# nr_samples FILE: the samples pprof counts in FILE
nr_samples() {
	go tool pprof -top -symbolize=none -sample_index=samples "$1" 2>/dev/null |
		sed -n "s/.*Total samples = \([0-9]*\).*/\1/p"
}
export -f nr_samples
go_case "the filters apply: -S, --pid, --time" '
	"$XR" --pprof all.pb.gz -i "$DATA"
	"$XR" --pprof half.pb.gz --time 0%-50% -i "$DATA"
	a=$(nr_samples all.pb.gz) h=$(nr_samples half.pb.gz)
	echo "--time 0%-50%: $h of $a samples"
	[ -n "$h" ] && [ "$h" -gt 0 ] && [ "$h" -lt "$a" ] || fail "--time 0%-50%: $h of $a samples"
	"$XR" --pprof a.pb.gz -S work_a -i "$DATA"
	pprof_top a.pb.gz >top
	cat top
	[ "$(awk "\$2 > 0" top | cut -d" " -f1)" = work_a ] || fail "-S work_a: $(cat top)"
	rc=0; "$XR" --pprof n.pb.gz --pid 999999 -i "$DATA" 2>err || rc=$?
	pprof_top n.pb.gz >top
	[ ! -s top ] || fail "--pid 999999 kept $(head -n 3 top)"
'
go_case "--event NAME writes that event alone; without it every event" '
	[ -s "$TWO" ] || skip "recording two events failed"
	"$XR" --pprof all.pb.gz -i "$TWO" 2>err
	[ ! -s err ] || fail "$(cat err)"
	go tool pprof -raw -symbolize=none all.pb.gz 2>/dev/null | sed -n "/^Samples:/{n;p;q}" >types
	grep -q "cpu-clock/nanoseconds.* task-clock/nanoseconds" types || fail "$(cat types)"
	"$XR" --pprof t.pb.gz --event task-clock -i "$TWO"
	go tool pprof -raw -symbolize=none t.pb.gz 2>/dev/null | sed -n "/^Samples:/{n;p;q}" >types
	[ "$(cat types)" = "samples/count task-clock/nanoseconds[dflt]" ] || fail "$(cat types)"
	rc=0; "$XR" --pprof n.pb.gz --event cycles -i "$TWO" 2>err || rc=$?
	[ $rc -eq 1 ] && [ ! -e n.pb.gz ] || fail "--event cycles: exit $rc"
	grep -q "no event .cycles. in the file: its events with samples are cpu-clock, task-clock" err ||
		fail "$(cat err)"
'
go_case "--wall: off-CPU time beside on-CPU time, as the report shares it" '
	[ -s "$OFF" ] || skip "no off-CPU recording (tracefs sched events)"
	"$XR" --pprof w.pb.gz --wall -i "$OFF"
	go tool pprof -top -symbolize=none -nodecount=50 w.pb.gz 2>/dev/null |
		awk "/^ *flat +flat%/ { t = 1; next } t { sub(/%/, \"\", \$5); print \$6, \$5 }" >cum
	"$XR" --stdio -q --wall --children -g none --sort sym -i "$OFF" |
		awk "\$1 ~ /%\$/ { sub(/%/, \"\", \$1); print \$NF, \$1 }" >rep
	for f in compute sleep_a_while wait_for_pipe; do
		a=$(awk -v f=$f "\$1 == f { print \$2; exit }" cum)
		b=$(awk -v f=$f "\$1 == f { print \$2; exit }" rep)
		echo "$f: pprof $a% report $b%"
		[ -n "$a" ] && [ -n "$b" ] || fail "$f missing"
		awk -v a="$a" -v b="$b" "BEGIN { d = a - b; if (d < 0) d = -d; exit d > 0.5 }" ||
			fail "$f: pprof $a%, report $b%"
	done
'
# pb_ids FILE: the profile's messages as its bytes have them (go tool pprof merges equal
# locations and renumbers them before it shows any): checks that locations and functions
# have ids 1..N in order, functions each their own (name, file), and that every id a sample
# or line names is defined; prints "locations shared inline-groups functions alike" where
# shared counts the locations that several samples hold, alike those with the content
# (mapping, address, lines) of an earlier one: frames the profile keeps apart that pprof
# shows as one, as frames of one symbol without line info (the pass made no stand-in
# "sym+offset" line for pprof: none should be alike).
pb_ids() {
	python3 - "$1" <<'EOF'
import gzip, sys

def fields(b):
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            sys.exit("wire type %d of field %d" % (wt, f))
        yield f, wt, v

def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1; v |= (c & 0x7f) << s; s += 7
        if c < 0x80:
            return v, i

def packed(wt, v):
    if wt == 0:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i); out.append(x)
    return out

locs, fns, samples = [], [], []
for f, wt, v in fields(gzip.open(sys.argv[1]).read()):
    if f == 2:
        samples.append([x for g, w, y in fields(v) if g == 1 for x in packed(w, y)])
    elif f == 4:
        m = {g: y for g, w, y in fields(v) if g != 4}
        lines = tuple(tuple(sorted(dict((g, y) for g, w, y in fields(l)).items()))
                      for g, w, l in fields(v) if g == 4)
        locs.append((m.get(1, 0), (m.get(2, 0), m.get(3, 0), lines)))
    elif f == 5:
        m = {g: y for g, w, y in fields(v)}
        fns.append((m.get(1, 0), (m.get(2, 0), m.get(4, 0))))
bad = []
for what, items in (("location", locs), ("function", fns)):
    seen = {}
    for n, (i, c) in enumerate(items, 1):
        if i != n:
            bad.append("%s id %d at %d" % (what, i, n))
        if c in seen and what == "function":
            bad.append("%s %d repeats %d" % (what, i, seen[c]))
        seen.setdefault(c, i)
held = {}
for s in samples:
    for i in set(s):
        held[i] = held.get(i, 0) + 1
        if not 1 <= i <= len(locs):
            bad.append("a sample names location %d" % i)
for i, (m, a, lines) in locs:
    for l in lines:
        if not 1 <= dict(l).get(1, 0) <= len(fns):
            bad.append("location %d names function %d" % (i, dict(l).get(1, 0)))
for b in bad[:10]:
    print(b)
print(len(locs), sum(1 for n in held.values() if n > 1),
      sum(1 for i, (m, a, lines) in locs if len(lines) > 1), len(fns),
      len(locs) - len(set(c for i, c in locs)))
sys.exit(1 if bad else 0)
EOF
}
export -f pb_ids
go_case "locations and functions: one id each, shared by the samples, inline frames grouped" '
	command -v python3 >/dev/null || skip "python3 is absent: nothing reads the raw messages"
	"$XR" --pprof p.pb.gz -i "$DATA"
	pb_ids p.pb.gz >ids || fail "$(cat ids)"
	read -r n shared inl nfn alike <ids
	echo "$n locations, $shared held by several samples, $nfn functions, $alike alike"
	[ "$n" -gt 3 ] && [ "$shared" -gt 0 ] && [ "$nfn" -gt 3 ] || fail "$(cat ids)"
	"$XR" --pprof f.pb.gz -i "$FLAT"
	pb_ids f.pb.gz >ids || fail "without call chains: $(cat ids)"
	[ -x "$WL/cxx_inline" ] || skip "$WL/cxx_inline is not built (g++ missing?)"
	grep -qx "#define HAVE_LIBDW 1" "$XPERF_BUILD/config.h" ||
		skip "xperf was built without libdw: no inline frames"
	"$XPERF_BUILD/xperf-record" -q -g -o inl.data -- "$WL/cxx_inline" 0.5 >/dev/null 2>&1
	"$XR" --pprof i.pb.gz --inline -i inl.data
	pb_ids i.pb.gz >ids || fail "--inline: $(cat ids)"
	read -r n shared inl nfn alike <ids
	echo "--inline: $n locations, $shared held by several samples, $inl with inline frames"
	[ "$inl" -gt 0 ] || fail "no location holds inline frames"
	# hot_inlined is inlined into inline_host: a location of both, the inlined one first
	go tool pprof -raw -symbolize=none i.pb.gz 2>/dev/null |
		grep -A1 "^ *[0-9]*: 0x[0-9a-f]* M=[0-9]* hot_inlined " | grep -q "work::inline_host" ||
		fail "no location of hot_inlined inside work::inline_host"
'
go_case "frames of one symbol without line info: one location, whatever their offsets" '
	command -v python3 >/dev/null || skip "python3 is absent: nothing reads the raw messages"
	"$XPERF_BUILD/xperf-record" -q -g -o k.data -- "$WL/kernel_time" 0.3 >/dev/null 2>&1 ||
		skip "cannot record $WL/kernel_time"
	# the kernel has no DWARF here: its functions, sampled at many offsets, have no lines
	"$XR" --stdio --no-children --sort sym -i k.data 2>/dev/null | grep -q "\[k\]" ||
		skip "no kernel frames sampled (perf_event_paranoid?)"
	"$XR" --pprof k.pb.gz -i k.data
	pb_ids k.pb.gz >ids || fail "$(cat ids)"
	read -r n shared inl nfn alike <ids
	echo "$n locations, $alike alike"
	[ "$alike" = 0 ] || fail "$alike locations alike another"
	# the merged frames still read as the report has them
	go tool pprof -traces -symbolize=none k.pb.gz 2>/dev/null | grep -q "kt_read_zero" ||
		fail "pprof shows no kt_read_zero"
'
pbc_case "--pprof to a full device: one error, exit 2" '
	[ -w /dev/full ] || skip "no writable /dev/full"
	rc=0; "$XR" --pprof /dev/full -i "$DATA" >out 2>err || rc=$?
	cat err
	[ $rc -eq 2 ] || fail "exit $rc"
	[ "$(cat err)" = "xperf report: error: cannot write '"'"'/dev/full'"'"': No space left on device" ] ||
		fail "$(cat err)"
'
pbc_case "--pprof that fails halfway keeps the old file, leaves no cut one, says why" '
	# the file size limit stops the write after a kilobyte (SIGXFSZ ignored: EFBIG); a
	# profile of 3000 paths at addresses of their own is far past it (the recording alone
	# may export to less)
	"$XPERF_BUILD/tests/xpf-paths" -u -i "$DATA" -o big.data -n 3000 >/dev/null ||
		fail "xpf-paths could not make the file"
	echo old >p.pb.gz
	rc=0; (trap "" XFSZ; ulimit -f 1; "$XR" --pprof p.pb.gz -i big.data) >out 2>err || rc=$?
	cat err
	[ $rc -eq 2 ] || fail "exit $rc"
	[ "$(cat err)" = "xperf report: error: cannot write '"'"'p.pb.gz'"'"': File too large" ] ||
		fail "$(cat err)"
	[ "$(cat p.pb.gz)" = old ] || fail "the old file is gone"
	rc=0; (trap "" XFSZ; ulimit -f 1; "$XR" --pprof new.pb.gz -i big.data) >out 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	[ "$(ls | grep -c "pb.gz")" -eq 1 ] || fail "files left: $(ls | grep pb.gz)"
	# whole, it replaces the old file, with the modes a new file gets
	"$XR" --pprof p.pb.gz -i "$DATA" 2>err || fail "$(cat err)"
	gzip -t p.pb.gz || fail "not gzip"
	[ "$(stat -c %a p.pb.gz)" = "$(umask -S >/dev/null; touch plain; stat -c %a plain)" ] ||
		fail "mode $(stat -c %a p.pb.gz)"
'
test_case "--pprof to a directory that does not exist: one error, exit 2" '
	rc=0; "$XR" --pprof /nonexistent/dir/p.pb.gz -i "$DATA" >out 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	grep -q "error:" err
'
test_done
