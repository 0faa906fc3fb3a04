#!/usr/bin/env bash
# A DSO whose file on disk is not the one recorded (another build-id: rebuilt, replaced,
# upgraded) is not symbolised from that file: its samples stay under its name with raw
# addresses and one warning names it, unless the recorded file is found under --symfs or
# in perf's build-id cache (~/.debug/.build-id/xx/rest/elf). The recorded build-id comes
# from the BUILD_ID feature (perf record) or from MMAP2 records (xperf record); a kernel
# whose build-id is not the running one's is the same case. perf is the oracle: it shows
# the same raw addresses.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_compare.sh"

R=$XPERF_BUILD/xperf-report
XREC=$XPERF_BUILD/xperf-record
WL=$XPERF_BUILD/workloads
export R XREC WL

write_prog_c

# one_warning_naming ERR NAME: exactly one line on stderr, the build-id warning naming NAME
one_warning_naming() {
	[ "$(wc -l <"$1")" -eq 1 ] || { cat "$1"; fail "want exactly one line on stderr"; }
	grep -qF "xperf report: warning: $2 is not the one that was recorded (build-id " "$1" ||
		fail "not the build-id warning for $2: $(cat "$1")"
}
export -f one_warning_naming

have_cc() { command -v "${CC:-cc}" >/dev/null && command -v nm >/dev/null && command -v readelf >/dev/null; }
if ! have_cc; then
	skip_case "build-id mismatch" "a C compiler, nm or readelf is absent"
	test_done
fi

perf_case "perf record file (BUILD_ID feature): the replaced program is shown by address, with one warning" '
	build_both
	perf_run record -q -N --no-bpf-event -o p.data -- ./prog 0.3 >/dev/null 2>&1 || fail "perf record failed"
	"$R" --stdio -i p.data >before.out 2>err || fail "$(cat err)"
	[ ! -s err ] || fail "a warning before the file was replaced: $(cat err)"
	grep -q "\[\.\] hot_loop$" before.out || fail "no hot_loop before the file was replaced"
	cp variant prog
	"$R" --stdio -i p.data >xperf.out 2>err || fail "exit $?: $(cat err)"
	one_warning_naming err "$PWD/prog"
	grep -qF "$(build_id orig)" err || fail "the warning does not give the recorded build-id"
	! grep -q never_ran xperf.out || fail "never_ran, from the other file, is in the report"
	grep -qE "  prog +\[\.\] 0x0000000000001[0-9a-f]{3}$" xperf.out || fail "no raw address of prog"
	# perf: the same rows (raw addresses of prog)
	perf_run report --stdio -i p.data >perf.out 2>/dev/null
	! grep -q never_ran perf.out || fail "perf shows never_ran: the oracle disagrees"
	top() { awk "/^ +[0-9.]+% / { print \$NF; exit }" "$1"; }
	[ "$(top perf.out)" = "$(top xperf.out)" ] || fail "top row: perf $(top perf.out), xperf $(top xperf.out)"
'

if [ -x "$XREC" ]; then
	perf_case "xperf record file (MMAP2 build-ids): the same, and perf agrees" '
		build_both
		"$XREC" -o x.data -- ./prog 0.3 >/dev/null 2>rec.err || fail "record: $(cat rec.err)"
		"$R" -D -i x.data | grep -q "PERF_RECORD_MMAP2.*<$(build_id orig)>.*/prog$" ||
			skip "this kernel does not put build-ids in MMAP2 records"
		cp variant prog
		"$R" --stdio -i x.data >xperf.out 2>err || fail "exit $?: $(cat err)"
		one_warning_naming err "$PWD/prog"
		! grep -q never_ran xperf.out || fail "never_ran, from the other file, is in the report"
		perf_run report --stdio -i x.data >perf.out 2>/dev/null
		! grep -q never_ran perf.out || fail "perf shows never_ran: the oracle disagrees"
		# -g: nor in the chains
		"$XREC" -g -o g.data -- ./orig 0.3 >/dev/null 2>rec.err || fail "record: $(cat rec.err)"
		cp variant orig
		"$R" --stdio -g folded -i g.data >g.out 2>err || fail "exit $?: $(cat err)"
		one_warning_naming err "$PWD/orig"
		! grep -q never_ran g.out || fail "never_ran in the call graph"
	'
else
	skip_case "xperf record file (MMAP2 build-ids): the same, and perf agrees" "xperf-record is not built"
fi

perf_case "the recorded file under --symfs DIR, or in perf's build-id cache: symbols, no warning" '
	build_both
	perf_run record -q -N --no-bpf-event -o p.data -- ./prog 0.3 >/dev/null 2>&1 || fail "perf record failed"
	bid=$(build_id orig)
	cp variant prog
	mkdir -p "symfs$PWD" && cp orig "symfs$PWD/prog"
	"$R" --stdio --symfs symfs -i p.data >xperf.out 2>err || fail "$(cat err)"
	[ ! -s err ] || fail "stderr with --symfs: $(cat err)"
	grep -q "\[\.\] hot_loop$" xperf.out || fail "no hot_loop with --symfs"
	! grep -q never_ran xperf.out || fail "never_ran with --symfs"
	# perf'"'"'s cache layout, found through HOME as perf finds it
	mkdir -p "home/.debug/.build-id/${bid:0:2}/${bid:2}" && cp orig "home/.debug/.build-id/${bid:0:2}/${bid:2}/elf"
	HOME=$PWD/home "$R" --stdio -i p.data >xperf.out 2>err || fail "$(cat err)"
	[ ! -s err ] || fail "stderr with the cache: $(cat err)"
	grep -q "\[\.\] hot_loop$" xperf.out || fail "no hot_loop from the build-id cache"
	HOME=$PWD/home perf_run report --stdio -i p.data >perf.out 2>/dev/null
	grep -q "\[\.\] hot_loop$" perf.out || fail "perf does not find hot_loop in the cache: the layout is wrong"
'

perf_case "a kernel that is not the running one: kernel samples by address, one warning, as perf" '
	[ -r /sys/kernel/notes ] || skip "/sys/kernel/notes is not readable"
	perf_run record -q -N --no-bpf-event -o k.data -- "$WL/kernel_time" 0.3 >/dev/null 2>&1 ||
		fail "perf record failed"
	"$R" --stdio -i k.data >before.out 2>err || fail "$(cat err)"
	grep -q "\[k\] [a-z_]" before.out || skip "no kernel symbols here (kptr_restrict?)"
	# flip the first byte of the recorded kernel build-id (BUILD_ID feature, bit 2)
	python3 - <<EOF || fail "cannot edit the BUILD_ID feature"
import struct
d = bytearray(open("k.data", "rb").read())
off, size = struct.unpack_from("<QQ", d, 40)
feats = struct.unpack_from("<4Q", d, 72)
bits = [b for b in range(256) if feats[b // 64] >> (b % 64) & 1]
ent = off + size + 16 * bits.index(2)
p, end = struct.unpack_from("<QQ", d, ent)
end += p
done = False
while p < end:
    t, misc, s = struct.unpack_from("<IHH", d, p)
    if bytes(d[p + 36:p + s]).split(b"\0")[0] == b"[kernel.kallsyms]":
        d[p + 12] ^= 0xff
        done = True
    p += s
assert done
open("k2.data", "wb").write(d)
EOF
	"$R" --stdio -i k2.data >xperf.out 2>err || fail "exit $?: $(cat err)"
	one_warning_naming err "[kernel.kallsyms]"
	! grep -q "\[k\] [a-z_]" xperf.out || fail "kernel symbols named from the running kernel"
	grep -q "\[k\] 0xffff" xperf.out || fail "no raw kernel address"
	perf_run report --stdio -i k2.data >perf.out 2>/dev/null
	! grep -q "\[k\] [a-z_]" perf.out || fail "perf names kernel symbols: the oracle disagrees"
'

perf_case "system-wide (-a) with another kernel: the warning names [kernel.kallsyms] once" '
	[ -r /sys/kernel/notes ] || skip "/sys/kernel/notes is not readable"
	perf_run record -q -N --no-bpf-event -a -o a.data -- "$WL/kernel_time" 0.3 >/dev/null 2>&1 ||
		skip "perf record -a failed (perf_event_paranoid?)"
	python3 - <<EOF || fail "cannot edit the BUILD_ID feature"
import struct
d = bytearray(open("a.data", "rb").read())
off, size = struct.unpack_from("<QQ", d, 40)
feats = struct.unpack_from("<4Q", d, 72)
bits = [b for b in range(256) if feats[b // 64] >> (b % 64) & 1]
ent = off + size + 16 * bits.index(2)
p, end = struct.unpack_from("<QQ", d, ent)
end += p
while p < end:
    t, misc, s = struct.unpack_from("<IHH", d, p)
    if bytes(d[p + 36:p + s]).split(b"\0")[0] == b"[kernel.kallsyms]":
        d[p + 12] ^= 0xff
    p += s
open("a2.data", "wb").write(d)
EOF
	"$R" --stdio -i a2.data >xperf.out 2>err || fail "exit $?: $(cat err)"
	one_warning_naming err "[kernel.kallsyms]"
'

test_done
