#!/usr/bin/env bash
# Record the seeds of the pass fuzzer and of `make mutate` into tests/fuzz/corpus-pass/, one
# small file (< 64 KB) of each kind xperf writes and reads, and their MANIFEST:
#
#   BUILD=build tests/fuzz/mkseeds.sh     (as root, or with perf_event_paranoid <= 1)
#
# Every seed profiles tests/fuzz/seedprog run from SEEDPROG_PATH (tests/fuzz/seedprog.sh),
# so the harness finds its symbols, DWARF and code wherever the tree is. The files are kept
# in git: rerun this only to change the set (the recordings differ each time).
set -eu
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
. tests/fuzz/seedprog.sh
out=tests/fuzz/corpus-pass
xr() { "$BUILD/xperf-record" -q "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seedprog_install
rm -f "$out"/*.bin "$out/MANIFEST"
mkdir -p "$out"
manifest=$tmp/MANIFEST
note() { printf '%s\t%s\n' "$1" "$2" >>"$manifest"; }
P=$SEEDPROG_PATH

xr -F 1000 -o "$out/default.bin" -- "$P" 40
note default.bin "xperf record: cpu-clock samples, zstd-compressed (the default)"
xr -F 1000 --no-compress -o "$out/plain.bin" -- "$P" 40
note plain.bin "xperf record --no-compress: plain records"
xr -F 1000 -g -o "$out/fp.bin" -- "$P" 40
note fp.bin "xperf record -g: frame-pointer call chains, kernel and user"
xr -F 500 --call-graph dwarf,512 -o "$out/dwarf.bin" -- "$P" 30
note dwarf.bin "xperf record --call-graph dwarf,512: user registers and 512-byte stack copies"
xr -F 500 --off-cpu -o "$out/offcpu.bin" -- "$P" 40
note offcpu.bin "xperf record --off-cpu: cpu-clock with chains, sched_switch and offcpu-time samples"
xr -F 1000 -e cpu-clock -e task-clock --sample-cpu -d -s -o "$out/two-events.bin" -- "$P" 30
note two-events.bin "xperf record -e cpu-clock -e task-clock --sample-cpu -d -s: two events, ids, addresses, per-thread READ records"
xr -F 1000 -e '{cpu-clock,task-clock}' -g -o "$out/group.bin" -- "$P" 30
note group.bin "xperf record -e '{cpu-clock,task-clock}' -g: an event group"
xr -F 1000 -e sched:sched_switch -e cpu-clock -o "$out/tracepoint.bin" -- "$P" 30
note tracepoint.bin "xperf record -e sched:sched_switch -e cpu-clock: a tracepoint and TRACING_DATA"
xr -F 2000 -g --switch-output=16K -o "$tmp/switch.data" -- "$P" 200 2>/dev/null || true
piece=$(ls "$tmp"/switch.data.* 2>/dev/null | head -n 1)
[ -n "$piece" ] || { echo "mkseeds: --switch-output wrote no piece" >&2; exit 1; }
cp "$piece" "$out/switch-piece.bin"
note switch-piece.bin "xperf record -g --switch-output=16K: the first piece"
xr -F 1000 -g -o - -- "$P" 40 >"$out/pipe.bin"
note pipe.bin "xperf record -g -o -: a pipe stream (header, then HEADER_ATTR/FEATURE records)"
xr -F 1000 --call-graph dwarf,256 -o - -- "$P" 20 >"$out/pipe-dwarf.bin"
note pipe-dwarf.bin "xperf record --call-graph dwarf,256 -o -: a pipe stream with stack copies"
perf record -q -N -F 1000 -z -g -o "$out/perf-z.bin" -- "$P" 40 2>/dev/null
note perf-z.bin "perf record -z -g: perf's zstd-compressed file with frame-pointer chains"
perf record -q -N -F 500 --call-graph dwarf,512 -o "$out/perf-dwarf.bin" -- "$P" 30 2>/dev/null
note perf-dwarf.bin "perf record --call-graph dwarf,512: perf's plain file with stack copies"
perf record -q -N -F 1000 -g -o - -- "$P" 30 2>/dev/null >"$out/perf-pipe.bin"
note perf-pipe.bin "perf record -g -o -: perf's pipe stream"
"$BUILD/xperf-inject" -i "$out/fp.bin" -o "$out/injected.bin" -b
note injected.bin "xperf inject -b of fp.bin: plain records, build ids from MMAP2"

big=0
for f in "$out"/*.bin; do
	s=$(stat -c %s "$f")
	if [ "$s" -ge 65536 ]; then echo "mkseeds: $f is $s bytes, over 64 KB" >&2; big=1; fi
done
{
	echo "# Written by tests/fuzz/mkseeds.sh: the seeds of the pass fuzzer (tests/fuzz/fuzz_pass.c)"
	echo "# and of make mutate (bench/mutate.sh): each a recording of tests/fuzz/seedprog."
	sort "$manifest"
} >"$out/MANIFEST"
exit $big
