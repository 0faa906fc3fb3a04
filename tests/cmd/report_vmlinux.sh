#!/usr/bin/env bash
# -k/--vmlinux FILE: the kernel's symbols from an ELF image instead of kallsyms, against
# perf report --vmlinux on the same files. No vmlinux with symbols is on a test machine:
# tests/tools/mkvmlinux makes one from /proc/kallsyms, its names given a suffix, so a name
# shown proves it came from the image; its build id is the recorded kernel's, or another
# (the image is then not read, as perf, and xperf warns).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_compare.sh"

R=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
MK=$XPERF_BUILD/tests/mkvmlinux
export R WL MK

FILES=$TEST_TMP/files
mkdir -p "$FILES"
record_all() {
	have_perf || return 0
	(cd "$FILES" &&
		perf_run record -q -N -e cpu-clock -o k.data -- "$WL/kernel_time" 0.3 &&
		perf_run record -q -N -e cpu-clock -g -o kg.data -- "$WL/kernel_time" 0.3 &&
		"$XPERF_BUILD/xperf-record" -q -e cpu-clock -o xk.data -- "$WL/kernel_time" 0.3
	) >"$FILES/rec.log" 2>&1 || echo "recording failed: $(tail -n 3 "$FILES/rec.log")" >"$FILES/failed"
}
record_all
export FILES

# image FILE [BUILD_ID]: vmlinux.img, the running kernel's text symbols named NAME_vml, with
# FILE's recorded kernel build id (or BUILD_ID)
image() {
	local bid=${2-}
	awk 'NR == 1 && $1 ~ /^0+$/ { exit 1 }' /proc/kallsyms ||
		skip "/proc/kallsyms hides the addresses (kptr_restrict)"
	[ -n "$bid" ] ||
		bid=$(perf_run buildid-list -i "$1" 2>/dev/null | awk '/kernel.kallsyms/ { print $1 }')
	[ -n "$bid" ] || skip "the file recorded no kernel build id"
	awk 'NF == 3 && $2 ~ /^[tTwW]$/ { $3 = $3 "_vml" } { print }' /proc/kallsyms >ks.vml
	"$MK" ks.vml "$bid" vmlinux.img >/dev/null || fail "mkvmlinux failed"
}
export -f image

for who in perf xperf; do
	if [ $who = perf ]; then k=k.data; else k=xk.data; fi
	export k
	perf_case "--vmlinux: kernel symbols from the image, file by $who" '
		f=$(need $k)
		image "$f"
		same_report "$f" --vmlinux vmlinux.img
		same_report "$f" --vmlinux vmlinux.img --sort sym
		grep -q "\[k\] [a-z_0-9.]*_vml" xperf.out || fail "no symbol of the image: $(head -20 xperf.out)"
		[ ! -s xperf.err ] || fail "warnings: $(cat xperf.err)"
	'
	perf_case "--vmlinux with another build id: not read, kernel by address, a warning, file by $who" '
		f=$(need $k)
		image "$f" 00112233445566778899aabbccddeeff00112233
		same_report "$f" --vmlinux vmlinux.img
		! grep -q "_vml" xperf.out || fail "the image was read"
		[ "$(grep -c . xperf.err)" = 1 ] || fail "not one warning: $(cat xperf.err)"
		grep -q "warning: --vmlinux vmlinux.img is not the kernel that was recorded" xperf.err ||
			fail "$(cat xperf.err)"
	'
done

perf_case "--vmlinux with call chains: kernel frames from the image, as perf" '
	f=$(need kg.data)
	image "$f"
	same_report "$f" --vmlinux vmlinux.img --children
	same_report "$f" --vmlinux vmlinux.img --no-children -g caller
	grep -q "_vml" xperf.out || fail "no symbol of the image"
'

perf_case "script --vmlinux: the same kernel symbols as perf script" '
	f=$(need k.data)
	image "$f"
	perf_run script -F ip,sym -i "$f" --vmlinux vmlinux.img >perf.script 2>/dev/null
	"$XPERF_BUILD/xperf-script" -F ip,sym -i "$f" --vmlinux vmlinux.img >xperf.script
	grep -q "_vml" xperf.script || fail "no symbol of the image"
	diff perf.script xperf.script >script.diff || fail "$(head script.diff)"
'

test_done
