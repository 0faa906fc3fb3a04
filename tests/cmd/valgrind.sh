#!/usr/bin/env bash
# The main paths of every command and the unit test programs under valgrind: no memory error
# and no definitely or indirectly lost block (a project rule). Small inputs, about 30 s.
. "$(dirname "$0")/lib.sh"

B=$XPERF_BUILD
CORPUS=$TOP/tests/corpus

# vg LOG CMD...: run CMD under valgrind with its output in LOG.out; fail the case (printing
# valgrind's report) on any memory error or definite/indirect leak, else return CMD's status.
vg() {
	local log=$1 rc=0
	shift
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect --error-exitcode=99 \
		--log-file="$log" "$@" >"$log.out" 2>&1 || rc=$?
	if [ $rc -eq 99 ] || grep -qE 'Invalid (read|write|free)|uninitialised|lost in' "$log"; then
		cat "$log" >&2
		fail "valgrind found errors in: $*"
		return 1
	fi
	return $rc
}
export -f vg

# A sanitizer build cannot run under valgrind.
sanitized() { readelf -d "$1" 2>/dev/null | grep -q 'libasan'; }

if ! command -v valgrind >/dev/null 2>&1; then
	skip_case "valgrind" "valgrind is not installed (apt-get install valgrind)"
	test_done
fi
if sanitized "$B/xperf-stat" || sanitized "$B/xperf-report"; then
	skip_case "valgrind" "$B is a sanitizer build; valgrind runs on the plain build"
	test_done
fi

# have BIN...: every named program is built
have() {
	local b
	for b in "$@"; do [ -x "$B/$b" ] || return 1; done
}

# The harness itself: a program that leaks must fail vg (or every case below means nothing).
if command -v cc >/dev/null 2>&1; then
	test_case "vg fails on a leaking program" '
		printf "#include <stdlib.h>\nint main(void){ void *volatile p = malloc(64); p = 0; (void)p; return 0; }\n" >leak.c
		cc -O0 -o leak leak.c
		if (vg log ./leak) 2>/dev/null; then fail "a leak went unnoticed"; fi
		grep -q "definitely lost" log
	'
fi

if have tests/xpf-synth xperf-report; then
	test_case "report --stats, --dump, --header-only on a compressed xperf file" '
		$B/tests/xpf-synth -o s.data -n 200 -e 2
		vg log1 $B/xperf-report --stats -i s.data
		grep -q "SAMPLE events: *200" log1.out
		vg log2 $B/xperf-report --dump -i s.data
		[ "$(grep -c "PERF_RECORD_SAMPLE" log2.out)" -eq 200 ]
		vg log3 $B/xperf-report --header-only -i s.data
		grep -q "hostname" log3.out
	'
	test_case "report --dump on an xperf pipe stream" '
		$B/tests/xpf-synth -o - -n 100 >p.data
		vg log $B/xperf-report --dump -i - <p.data
		[ "$(grep -c "PERF_RECORD_SAMPLE" log.out)" -eq 100 ]
	'
	test_case "report refuses bad files and reads truncated ones cleanly" '
		for f in bad/attr-ids-huge bad/hostname-len-huge bad/zstd-corrupt \
			 bad-samples/callchain-nr-huge truncated/zstd-cut-mid-record fuzz-found/fuzz-crash-1; do
			rc=0
			vg log $B/xperf-report --stats -i $CORPUS/$f.bin || rc=$?
			[ $rc -eq 0 ] || [ $rc -eq 2 ] || fail "$f: exit $rc"
		done
	'
fi

if have xperf-report; then
	perf_case "report on perf files: plain, -z, -g, pipe" '
		perf_run record -N -o plain.data -- true 2>/dev/null
		perf_run record -N -z -o z.data -- true 2>/dev/null
		perf_run record -N -g -o g.data -- true 2>/dev/null
		perf_run record -N -o - -- true >pipe.data 2>/dev/null
		for f in plain z g; do
			vg log $B/xperf-report --stats -i $f.data
			grep -q "TOTAL events" log.out
			vg log $B/xperf-report --header-only -i $f.data
		done
		vg log $B/xperf-report --dump -i g.data
		grep -q "PERF_RECORD_SAMPLE" log.out
		vg log $B/xperf-report --dump -i pipe.data
		grep -q "PERF_RECORD_COMM" log.out
	'
fi

if have xperf-stat; then
	test_case "stat -e task-clock, -r 2, -x, -e page-faults" '
		vg log1 $B/xperf-stat -e task-clock true
		grep -q "task-clock" log1.out
		vg log2 $B/xperf-stat -r 2 true
		grep -q "2 runs" log2.out
		vg log3 $B/xperf-stat -x, -e page-faults true
		grep -q ",page-faults," log3.out
	'
	test_case "stat refuses a bad event" '
		rc=0
		vg log $B/xperf-stat -e "cpu-clock:zz,nosuch" true || rc=$?
		[ $rc -eq 1 ] || fail "exit $rc"
	'
fi

if have xperf-list; then
	test_case "list, list sw, list --attr" '
		vg log1 $B/xperf-list
		grep -q "cpu-clock" log1.out
		vg log2 $B/xperf-list sw
		grep -q "task-clock" log2.out
		vg log3 $B/xperf-list --attr cpu-clock:u sched:sched_switch r1234 mem:0x1000:rw
		grep -q "perf_event_attr" log3.out
	'
fi

if have xperf-record xperf-report; then
	test_case "record -- true, then report --stats on it" '
		vg log1 $B/xperf-record -o v.data -- true
		vg log2 $B/xperf-report --stats -i v.data
		grep -q "TOTAL events" log2.out
	'
	test_case "record -s --switch-output -D --filter, then report -T on a piece" '
		tp=
		if [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; then
			tp="-e sched:sched_switch --filter prev_state==1"
		fi
		vg log1 $B/xperf-record -s --switch-output -D 10 -e cpu-clock $tp -- sh -c "sleep 0.02; true"
		f=$(ls | grep -E "^xperf\.data\.[0-9]{16}$")
		vg log2 $B/xperf-report -T --stdio -i $f
		grep -q "PID *TID" log2.out
	'
	if [ -d /sys/kernel/tracing/events/syscalls/sys_enter_sched_rr_get_interval ]; then
	test_case "record --switch-output-event --switch-max-files=1, and -I?" '
		vg log1 $B/xperf-record --switch-max-files=1 --switch-output-event \
			syscalls:sys_enter_sched_rr_get_interval -- $B/workloads/phases 3 0.05
		[ "$(ls | grep -cE "^xperf\.data\.[0-9]{16}$")" = 1 ] || fail "not one piece left"
		rc=0
		vg log2 $B/xperf-record -I? || rc=$?
		[ $rc -eq 129 ] || fail "-I? exit $rc"
	'
	fi
fi

# The unit programs, as many at a time as there are cpus (valgrind runs each on one), each
# with its own case: "vg" inside a background job, its status kept for the case to check.
UNIT=$TEST_TMP/unit
mkdir -p "$UNIT"
jobs_max=$(nproc 2>/dev/null || echo 2)
for t in "$B"/tests/test_*; do
	[ -x "$t" ] || continue
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
	name=$(basename "$t")
	( rc=0; cd "$UNIT" && vg "$name.log" "$t" 2>"$name.err" || rc=$?; echo $rc >"$name.rc" ) &
done
wait
for t in "$B"/tests/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	test_case "unit $name" "
		cat '$UNIT/$name.err' >&2
		[ \"\$(cat '$UNIT/$name.rc')\" = 0 ] || fail 'exit status '\$(cat '$UNIT/$name.rc')
	"
done

test_done
