#!/usr/bin/env bash
# xperf inject: rewritten files that perf reads with the same record counts and xperf
# reports the same way, uncompressed unless -z; pipes on both sides; -b.
. "$(dirname "$0")/lib.sh"

XI=$XPERF_BUILD/xperf-inject
XR=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
D=$TEST_TMP/data
mkdir -p "$D"
"$XPERF_BUILD/xperf-record" -q -g -o "$D/x.data" -- "$WL/shares" 0.3 >/dev/null 2>&1 || :
if have_perf; then
	perf_run record -N -q -g -e cpu-clock -o "$D/p.data" -- "$WL/threads" 0.3 >/dev/null 2>&1 || :
fi
export D XI XR

# counts FILE: perf's record counts by type, less the ones a rewrite changes (COMPRESSED
# records and the total that includes them)
counts() {
	perf_run report --stats -i "$1" 2>/dev/null |
		awk '/^Aggregated/ { a = 1; next } /stats:$/ { a = 0 }
		     a && / events: / && $1 != "TOTAL" && $1 != "COMPRESSED" { print $1, $3 }'
}
export -f counts

# noattr_pipe: in.pipe, a pipe stream, and noattr.pipe, the same without its HEADER_ATTR
# records (type 64): an input whose first record comes before any event is described
noattr_pipe() {
	"$XPERF_BUILD/xperf-record" -q -o - -- true 2>/dev/null >in.pipe
	python3 -c "
import struct
b = open(\"in.pipe\", \"rb\").read(); out = b[:16]; p = 16
while p < len(b):
    t, m, s = struct.unpack_from(\"<IHH\", b, p)
    out += b\"\" if t == 64 else b[p:p + s]; p += s
open(\"noattr.pipe\", \"wb\").write(out)"
}
export -f noattr_pipe

perf_case "an xperf file: uncompressed output, the same counts for perf, the same report" '
	"$XI" -i "$D/x.data" -o out.data
	! perf_run report --header-only -i out.data | grep -q "^# compressed"
	perf_run report --header-only -i "$D/x.data" | grep -q "^# compressed"
	counts "$D/x.data" >a; counts out.data >b
	grep -q "^SAMPLE " a
	cmp a b || fail "record counts differ"
	"$XR" --stdio -i "$D/x.data" >r1; "$XR" --stdio -i out.data >r2
	cmp r1 r2 || fail "xperf report differs"
	perf_run report --stdio --no-children -q -i out.data 2>err | grep -q "work_a"
	no_warnings err
'
perf_case "a perf file: perf script prints the same after the rewrite" '
	"$XI" -i "$D/p.data" -o out.data
	perf_run script -i "$D/p.data" >s1 2>/dev/null
	perf_run script -i out.data >s2 2>/dev/null
	test -s s1
	cmp s1 s2
	counts "$D/p.data" >a; counts out.data >b
	cmp a b
'
perf_case "-z compresses, and perf reads it" '
	"$XI" -z -i "$D/p.data" -o z.data
	perf_run report --header-only -i z.data | grep -q "^# compressed : Zstd"
	counts "$D/p.data" >a; counts z.data >b
	cmp a b
	[ "$(stat -c %s z.data)" -lt "$(stat -c %s "$D/p.data")" ]
'
perf_case "pipes: stream in, stream out" '
	"$XPERF_BUILD/xperf-record" -q -g -o - -- "$WL/shares" 0.2 2>/dev/null >in.pipe
	"$XI" <in.pipe >out.pipe
	n=$(perf_run report --stats -i - <out.pipe 2>/dev/null | awk "\$1 == \"SAMPLE\" { print \$3; exit }")
	m=$("$XR" --stats -i - <in.pipe | awk "\$1 == \"SAMPLE\" { print \$3; exit }")
	[ -n "$n" ] && [ "$n" = "$m" ] || fail "perf counts $n samples, the input has $m"
	"$XI" -i - -o file.data <in.pipe
	"$XR" --stdio -i file.data | grep -q work_a
'
perf_case "-b: build ids of MMAP2 records go to the BUILD_ID feature" '
	# perf --buildid-mmap writes build ids in MMAP2 records and no BUILD_ID feature
	perf_run record -N -q --buildid-mmap -e cpu-clock -o in.data -- "$WL/shares" 0.2 >/dev/null 2>&1
	"$XI" -i in.data -o plain.data
	"$XI" -b -i in.data -o b.data
	"$XR" --header-only -i plain.data | grep "^# missing features" | grep -q BUILD_ID ||
		skip "perf wrote a BUILD_ID feature: nothing for -b to add"
	! "$XR" --header-only -i b.data | grep "^# missing features" | grep -q BUILD_ID
	id=$(perf_run buildid-list -i in.data 2>/dev/null | awk "/\/shares\$/ { print \$1 }")
	[ -n "$id" ]
	"$XR" --header-only -I -i b.data >h 2>/dev/null || "$XR" --header-only -i b.data >h
	perf_run buildid-list -i b.data 2>/dev/null | grep -q "^$id .*/shares$"
	counts in.data >a; counts b.data >c
	cmp a c
'
test_case "usage errors exit 1: -b to a pipe, a bad level, the same file" '
	rc=0; "$XI" -b -i "$D/x.data" -o - >out 2>err || rc=$?
	[ $rc -eq 1 ] || fail "-b: exit $rc"
	rc=0; "$XI" -z30 -i "$D/x.data" -o o.data 2>err || rc=$?
	[ $rc -eq 1 ] || fail "-z30: exit $rc"
	rc=0; "$XI" -i "$D/x.data" -o "$D/x.data" 2>err || rc=$?
	[ $rc -eq 1 ] || fail "same file: exit $rc"
'
test_case "a damaged input: one error, exit 2, no output file left" '
	head -c 300 "$D/x.data" >bad.data
	printf "garbage" | dd of=bad.data bs=1 seek=0 conv=notrunc 2>/dev/null
	rc=0; "$XI" -i bad.data -o out.data 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	[ ! -e out.data ]
	[ "$(grep -c "error:" err)" -eq 1 ]
'
test_case "an existing output is kept as FILE.old, as perf inject and xperf record do" '
	cp "$D/x.data" out.data
	echo old >>out.data
	cp out.data before
	"$XI" -i "$D/x.data" -o out.data
	cmp -s before out.data.old || fail "FILE.old is not the old file"
	"$XR" --stdio -i out.data | grep -q work_a
	ls >names
	! grep -q "\.tmp\." names || fail "a temporary was left: $(cat names)"
'
test_case "a symbolic link at the output path is never followed: it becomes FILE.old" '
	echo precious >target
	ln -s target out.data
	ln -s nowhere dangling.data
	"$XI" -i "$D/x.data" -o out.data
	"$XI" -i "$D/x.data" -o dangling.data
	[ "$(cat target)" = precious ] || fail "the link was followed"
	[ ! -e nowhere ] || fail "the dangling link was followed"
	[ "$(readlink out.data.old)" = target ] && [ "$(readlink dangling.data.old)" = nowhere ]
	[ ! -L out.data ] && [ ! -L dangling.data ]
	"$XR" --stdio -i dangling.data | grep -q work_a
'
test_case "a failed inject leaves the output as it was, no FILE.old, no temporary" '
	# an input that fails after the output is open: its first record precedes any event
	noattr_pipe
	cp "$D/x.data" out.data
	rc=0; "$XI" -i noattr.pipe -o out.data 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	cmp -s "$D/x.data" out.data || fail "the output was changed"
	ls >names
	[ "$(cat names)" = "err
in.pipe
names
noattr.pipe
out.data" ] || fail "left behind: $(cat names)"
'
test_case "an interrupted inject leaves no temporary and no output" '
	mkfifo in.fifo
	"$XPERF_BUILD/xperf-record" -q -o - -- true 2>/dev/null | head -c 16 >head16
	"$XI" -i - -o out.data <in.fifo 2>err &
	pid=$!
	exec 3>in.fifo
	cat head16 >&3
	for i in $(seq 100); do ls out.data.tmp.* >/dev/null 2>&1 && break; sleep 0.05; done
	ls out.data.tmp.* >/dev/null 2>&1 || fail "no temporary while it waits for records"
	kill -INT $pid
	rc=0; wait $pid || rc=$?
	exec 3>&-
	[ $rc -eq 130 ] || fail "exit $rc"
	ls >names
	! grep -q "^out.data" names || fail "left behind: $(cat names)"
'
test_case "an input without events: the error names the input and the offset" '
	noattr_pipe
	rc=0; "$XI" -i noattr.pipe -o out.data 2>err || rc=$?
	cat err
	[ $rc -eq 2 ] || fail "exit $rc"
	grep -q "^xperf inject: error: .noattr.pipe.: the [A-Z_0-9]* record at offset 0x[0-9a-f]* comes before any event" err
	! grep -q "out.data" err || fail "the output was blamed"
	[ ! -e out.data ]
'
test_done
