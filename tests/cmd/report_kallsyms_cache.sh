#!/usr/bin/env bash
# The kallsyms cache: the first report of a file with kernel samples writes the running
# kernel's symbols to $XDG_CACHE_HOME/xperf/kallsyms (private to the user); later reports
# take them from there instead of /proc/kallsyms, with the same output; a cache for another
# key (kernel, parser), of another boot that the first page of /proc/kallsyms does not agree
# with once moved, or a damaged one is read anew and rewritten;
# XPERF_NO_KALLSYMS_CACHE=1 bypasses it. lib.sh points XDG_CACHE_HOME into the suite's
# temporary directory.
. "$(dirname "$0")/lib.sh"

R=$XPERF_BUILD/xperf-report
S=$XPERF_BUILD/xperf-script
WL=$XPERF_BUILD/workloads
export R S WL

# one recording with time in the kernel, shared by the cases
K=$TEST_TMP/k.data
export K
if have_perf && [ -x "$WL/kernel_time" ]; then
	perf_run record -q -N --no-bpf-event -o "$K" -- "$WL/kernel_time" 0.3 >/dev/null 2>&1 ||
		rm -f "$K"
fi

# precondition of every case: the recording, kernel symbols we may read, a boot id
need_kernel() {
	[ -s "$K" ] || skip "no recording (perf or the kernel_time workload is absent)"
	[ -r /proc/sys/kernel/random/boot_id ] || skip "this kernel has no boot id: no cache"
	XPERF_NO_KALLSYMS_CACHE=1 "$R" --stdio --sort sym -i "$K" >nocache.out 2>nocache.err
	grep -q '\[k\] [a-z_]' nocache.out || skip "no kernel symbols here (kptr_restrict?)"
}
export -f need_kernel

test_case "the first report writes the cache, private to the user" '
	need_kernel
	export XDG_CACHE_HOME=$PWD/cache
	"$R" --stdio --sort sym -i "$K" >first.out 2>/dev/null
	test -s cache/xperf/kallsyms || fail "no cache file"
	[ "$(stat -c %a cache/xperf)" = 700 ] || fail "directory mode $(stat -c %a cache/xperf)"
	[ "$(stat -c %a cache/xperf/kallsyms)" = 600 ] || fail "mode $(stat -c %a cache/xperf/kallsyms)"
	[ "$(stat -c %u cache/xperf/kallsyms)" = "$(id -u)" ] || fail "not ours"
	cmp nocache.out first.out
'

test_case "a later report reads the cache, not /proc/kallsyms, with the same output" '
	need_kernel
	command -v strace >/dev/null || skip "strace is absent"
	export XDG_CACHE_HOME=$PWD/cache
	"$R" --stdio --sort sym -i "$K" >first.out 2>/dev/null
	# LeakSanitizer cannot run under ptrace: an ASan build leaves leaks to the other cases
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -y -e trace=openat,read -o trace "$R" --stdio --sort sym -i "$K" >second.out 2>/dev/null
	grep -q "xperf/kallsyms\"" trace || fail "the cache was not opened"
	# only its first page, to see whether addresses are shown (a whole read is hundreds)
	reads=$(grep -cE "read\([0-9]+</proc/kallsyms>" trace)
	[ "$reads" -le 4 ] || fail "/proc/kallsyms was read all the same ($reads reads)"
	cmp nocache.out second.out
	"$S" -i "$K" >script_cached.out 2>/dev/null
	XPERF_NO_KALLSYMS_CACHE=1 "$S" -i "$K" >script_plain.out 2>/dev/null
	cmp script_plain.out script_cached.out
'

test_case "script, annotate, --flamegraph and --pprof write the cache as report does" '
	need_kernel
	for c in script annotate flamegraph pprof; do
		export XDG_CACHE_HOME=$PWD/c-$c
		case $c in
		script) "$S" -i "$K" >/dev/null 2>err ;;
		annotate) "$XPERF_BUILD/xperf-annotate" --stdio -i "$K" >/dev/null 2>err ;;
		flamegraph) "$R" --flamegraph fg.svg -i "$K" >/dev/null 2>err ;;
		pprof)
			"$XPERF_BUILD/xperf" version | grep -Eq "^ +protobuf-c +yes" || continue
			"$R" --pprof p.pb.gz -i "$K" >/dev/null 2>err ;;
		esac || fail "$c: $(head -n 3 err)"
		test -s "c-$c/xperf/kallsyms" || fail "$c wrote no cache"
	done
'

test_case "XPERF_NO_KALLSYMS_CACHE=1 neither reads nor writes the cache" '
	need_kernel
	command -v strace >/dev/null || skip "strace is absent"
	export XDG_CACHE_HOME=$PWD/cache
	XPERF_NO_KALLSYMS_CACHE=1 "$R" --stdio --sort sym -i "$K" >out 2>/dev/null
	[ ! -e cache ] || fail "a cache was written"
	"$R" --stdio --sort sym -i "$K" >/dev/null 2>&1
	XPERF_NO_KALLSYMS_CACHE=1 ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -e trace=openat -o trace "$R" --stdio --sort sym -i "$K" >out 2>/dev/null
	! grep -q "xperf/kallsyms" trace || fail "the cache was not opened"
	cmp nocache.out out
'

# rewritten FILE GOOD: the cache file is GOOD again, byte for byte
rewritten() { cmp -s "$1" "$2" || fail "the cache was not rewritten"; }
export -f rewritten

test_case "a cache for another kernel is read anew and rewritten" '
	need_kernel
	export XDG_CACHE_HOME=$PWD/cache
	"$R" --stdio --sort sym -i "$K" >/dev/null 2>&1
	cp cache/xperf/kallsyms good
	# the key starts at byte 32 of the file (after magic, sizes and checksum): the boot id
	# (40 bytes, zero where the kernel has a build-id), then the build-id
	printf 00000000 | dd of=cache/xperf/kallsyms bs=1 seek=72 conv=notrunc 2>/dev/null
	! cmp -s good cache/xperf/kallsyms || fail "the key did not change"
	"$R" --stdio --sort sym -i "$K" >out 2>/dev/null
	cmp nocache.out out
	rewritten cache/xperf/kallsyms good
'

test_case "the first report after a boot into the same kernel takes the cache of the boot before, moved" '
	need_kernel
	command -v strace >/dev/null || skip "strace is absent"
	export XDG_CACHE_HOME=$PWD/cache
	"$R" --stdio --sort sym -i "$K" >/dev/null 2>&1
	cp cache/xperf/kallsyms good
	# the cache the boot before would have left: every address 0x2600000 lower
	"$XPERF_BUILD/tests/xpf-kcache" cache/xperf/kallsyms 2600000 || fail "xpf-kcache failed"
	! cmp -s good cache/xperf/kallsyms || fail "the cache did not move"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -y -e trace=openat,read -o trace "$R" --stdio --sort sym -i "$K" >out 2>/dev/null
	cmp nocache.out out
	reads=$(grep -cE "read\([0-9]+</proc/kallsyms>" trace)
	[ "$reads" -le 4 ] || fail "/proc/kallsyms was read all the same ($reads reads)"
	# written again at the addresses of this boot: as a first report of this boot writes it
	rewritten cache/xperf/kallsyms good
'

test_case "a cache of another boot whose symbols are not where kallsyms says is read anew" '
	need_kernel
	export XDG_CACHE_HOME=$PWD/cache
	"$R" --stdio --sort sym -i "$K" >/dev/null 2>&1
	cp cache/xperf/kallsyms good
	# the anchor (the first code symbol) of the boot that wrote it, at byte 112: moved by
	# 0x10 bytes, every symbol would be moved by as much, none where /proc/kallsyms says
	v=$(od -An -t x1 -j 112 -N 1 good | tr -d " ")
	printf "\\x$(printf %02x $(((0x$v + 0x10) & 0xff)))" |
		dd of=cache/xperf/kallsyms bs=1 seek=112 conv=notrunc 2>/dev/null
	! cmp -s good cache/xperf/kallsyms || fail "the anchor did not change"
	"$R" --stdio --sort sym -i "$K" >out 2>/dev/null
	cmp nocache.out out
	rewritten cache/xperf/kallsyms good
'

test_case "a damaged, short or foreign cache is ignored and rewritten" '
	need_kernel
	export XDG_CACHE_HOME=$PWD/cache
	"$R" --stdio --sort sym -i "$K" >/dev/null 2>&1
	cp cache/xperf/kallsyms good
	size=$(stat -c %s good)
	# a name changed: the checksum says so
	printf ZZ | dd of=cache/xperf/kallsyms bs=1 seek=$((size - 4)) conv=notrunc 2>/dev/null
	"$R" --stdio --sort sym -i "$K" >out 2>/dev/null
	cmp nocache.out out
	rewritten cache/xperf/kallsyms good
	# cut short
	truncate -s $((size / 2)) cache/xperf/kallsyms
	"$R" --stdio --sort sym -i "$K" >out 2>/dev/null
	cmp nocache.out out
	rewritten cache/xperf/kallsyms good
	# not a cache at all
	head -c 4096 /dev/urandom >cache/xperf/kallsyms
	"$R" --stdio --sort sym -i "$K" >out 2>/dev/null
	cmp nocache.out out
	rewritten cache/xperf/kallsyms good
	# another build of the format (another magic)
	printf XPKSYMS9 | dd of=cache/xperf/kallsyms bs=1 seek=0 conv=notrunc 2>/dev/null
	"$R" --stdio --sort sym -i "$K" >out 2>/dev/null
	cmp nocache.out out
	rewritten cache/xperf/kallsyms good
'

test_case "a cache directory that cannot be written is no error" '
	need_kernel
	mkdir ro
	touch ro/xperf
	XDG_CACHE_HOME=$PWD/ro "$R" --stdio --sort sym -i "$K" >out 2>err
	cmp nocache.out out
	cmp -s nocache.err err || fail "it complained: $(cat err)"
'

test_case "a cache directory others may write to gets no cache, and no complaint" '
	need_kernel
	mkdir -p open/xperf
	chmod 0777 open/xperf
	XDG_CACHE_HOME=$PWD/open "$R" --stdio --sort sym -i "$K" >out 2>err
	cmp nocache.out out
	cmp -s nocache.err err || fail "it complained: $(cat err)"
	[ ! -e open/xperf/kallsyms ] || fail "the kernel addresses went into a shared directory"
	chmod 0700 open/xperf
	XDG_CACHE_HOME=$PWD/open "$R" --stdio --sort sym -i "$K" >/dev/null 2>&1
	[ -s open/xperf/kallsyms ] || fail "no cache in the private directory"
'

test_case "a kallsyms that hides every address: one warning, the kernel shown by address" '
	need_kernel
	printf "0000000000000000 T _text\n0000000000000000 t other\n" >zeros
	"$R" --stdio --sort dso,sym --kallsyms zeros -i "$K" >out 2>err || fail "exit $?"
	[ "$(grep -c "kernel.s symbols are hidden" err)" = 1 ] || fail "no single warning: $(cat err)"
	grep -q "\[k\] 0x" out || fail "no kernel address in the report"
	"$R" --stdio -q --kallsyms zeros -i "$K" >/dev/null 2>err
	[ ! -s err ] || fail "-q warned: $(cat err)"
'

test_done
