#!/usr/bin/env bash
# The bundled symbolisation workloads, each recorded by perf and by xperf, with frame
# pointers (-g) and with --call-graph dwarf: on every file xperf's report equals perf's
# (top 20 Children/Self within 0.5 points, the same -g caller stacks for >= 99 % of the
# samples). cxx_inline: a template, a lambda, an inlined-only function (C++ names);
# debuglink: symbols only in a .gnu_debuglink file; libc_sort: time in libc's qsort_r
# (libc's local symbols from libc6-dbg by build-id); kernel_time: time in the kernel.
. "$(dirname "$0")/lib.sh"

R=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
MIN_MATCH=99
export R WL MIN_MATCH
. "$(dirname "$0")/lib_compare.sh"

have_libdw() { "$XPERF_BUILD/xperf" version 2>/dev/null | grep -Eq '^ +libdw +yes'; }

# record WHO MODE FILE WORKLOAD: one recording by perf or xperf
record() {
	local who=$1 mode=$2 out=$3 wl=$4 cg=-g
	[ "$mode" = dwarf ] && cg="--call-graph=dwarf"
	if [ "$who" = perf ]; then
		prec $cg -o "$out" -- "$WL/$wl" 0.6
	else
		"$XPERF_BUILD/xperf-record" -q $cg -o "$out" -- "$WL/$wl" 0.6 >/dev/null 2>rec.err ||
			fail "xperf record: $(cat rec.err)"
	fi
}
export -f record

# same_report FILE: both checks on one file
same_report() {
	perf_run report --stdio --no-inline --children -g none -i "$1" >perf.out 2>/dev/null
	"$R" --stdio --no-inline --children -g none -i "$1" >xperf.out 2>xperf.err ||
		fail "$(cat xperf.err)"
	same_children perf.out xperf.out
	same_stacks "$1" --no-children -g folded,0,caller,count
}
export -f same_report

for wl in cxx_inline debuglink libc_sort kernel_time; do
	for who in perf xperf; do
		for mode in fp dwarf; do
			name="$wl, recorded by $who, $mode: top 20 and -g caller stacks as perf's"
			if [ ! -x "$WL/$wl" ]; then
				skip_case "$name" "$WL/$wl is not built"
			elif [ $who = xperf ] && [ ! -x "$XPERF_BUILD/xperf-record" ]; then
				skip_case "$name" "xperf-record is not built"
			elif [ $mode = dwarf ] && ! have_libdw; then
				skip_case "$name" "this build has no libdw"
			else
				perf_case "$name" "record $who $mode f.data $wl; same_report f.data"
			fi
		done
	done
done

test_done
