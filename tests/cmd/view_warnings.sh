#!/usr/bin/env bash
# Every command that reads a profile says the same about what its records hold, one warning
# line each, counted: lost events (LOST chunks, LOST_SAMPLES), records of a type it does not
# process, a filter that matched no sample; and refuses --cpu on a file without the samples'
# cpu, as perf does. The files are written by tests/tools/xpf-synth, so the counts are known;
# perf 6.1 reads the same files for its own words and numbers.
. "$(dirname "$0")/lib.sh"

SYNTH=$XPERF_BUILD/tests/xpf-synth
export SYNTH

# views FILE [ARGS...]: every command that reads FILE, each one's stderr in err.VIEW and its
# exit status in rc.VIEW: the report's stdio, flame graph and pprof modes, script, annotate
# (the TUI is in report_tui.sh)
views() {
	local f=$1 v rc
	shift
	for v in ${VIEWS:-stdio flamegraph pprof script annotate}; do
		rc=0
		case $v in
		stdio) xperf report --stdio -i "$f" "$@" >out.$v 2>err.$v || rc=$? ;;
		flamegraph) xperf report --flamegraph out.svg -i "$f" "$@" 2>err.$v || rc=$? ;;
		pprof)
			grep -qx "#define HAVE_PBC 1" "$XPERF_BUILD/config.h" || continue
			xperf report --pprof out.pb -i "$f" "$@" 2>err.$v || rc=$? ;;
		script) xperf script -i "$f" "$@" >out.$v 2>err.$v || rc=$? ;;
		annotate)
			grep -qx "#define HAVE_CAPSTONE 1" "$XPERF_BUILD/config.h" || continue
			xperf annotate --stdio -i "$f" "$@" >out.$v 2>err.$v || rc=$? ;;
		esac
		echo $rc >rc.$v
	done
}

# once REGEX: every view printed exactly one line matching REGEX on stderr
once() {
	local e n
	for e in err.*; do
		n=$(grep -cE -- "$1" "$e" || true)
		[ "$n" = 1 ] || { cat "$e"; fail "${e#err.}: $n lines match /$1/, want 1"; }
	done
}

# none REGEX: no view printed a line matching REGEX
none() {
	local e
	for e in err.*; do
		if grep -E -- "$1" "$e"; then fail "${e#err.}: a line matches /$1/"; fi
	done
}
export -f views once none

test_case 'lost chunks and lost samples: one warning each in every view, with the counts' '
	"$SYNTH" -o l.data -n 800 --lost 70 --lost-samples 5
	views l.data
	once "^xperf [a-z]+: warning: processed 895 events and lost 70 chunks \(210 events the kernel could not write\): check IO/CPU overload$"
	once "^xperf [a-z]+: warning: processed 800 samples and lost 10 \(1\.23%\): check IO/CPU overload$"
	grep -qx "# Total Lost Samples: 10" out.stdio
	xperf report --stdio -q -i l.data 2>q >/dev/null
	[ ! -s q ] || fail "-q printed: $(cat q)"
'

test_case 'a file without lost records: no lost warning' '
	"$SYNTH" -o c.data -n 300
	views c.data
	none "lost"
'

perf_case 'perf counts the same events and lost chunks, and the same lost samples' '
	"$SYNTH" -o l.data -n 600 --lost 33 --lost-samples 4
	perf_run report --stdio -i l.data >p.out 2>p.err
	want=$(sed -n "s/^Processed \([0-9]*\) events and lost \([0-9]*\) chunks!$/\1 \2/p" p.err)
	[ -n "$want" ] || fail "perf did not warn: $(cat p.err)"
	xperf report --stdio -i l.data >x.out 2>x.err
	got=$(sed -n "s/.*warning: processed \([0-9]*\) events and lost \([0-9]*\) chunks.*/\1 \2/p" x.err)
	[ "$got" = "$want" ] || fail "perf: $want, xperf: $got"
	grep -x "# Total Lost Samples: [0-9]*" p.out >p.lost
	grep -x "# Total Lost Samples: [0-9]*" x.out | diff p.lost -
'

test_case 'records of a type xperf does not process: one warning per type, counted, first offset' '
	"$SYNTH" -o t.data -n 200 --type 200 --type 0 --type 200 --type 65535 --type 70 --type 25
	views t.data
	once "^xperf [a-z]+: warning: failed to process 2 records of type 200: a type xperf does not know \(first at offset 0x[0-9a-f]+\)$"
	once "^xperf [a-z]+: warning: failed to process 1 record of type 0: a type xperf does not know"
	once "^xperf [a-z]+: warning: failed to process 1 record of type 65535: a type xperf does not know"
	once "^xperf [a-z]+: warning: failed to process 1 record of type 25: a type xperf does not know"
	once "^xperf [a-z]+: warning: failed to process 1 record of type 70 \(AUXTRACE_INFO\): xperf does not decode AUX area traces"
	for e in err.*; do [ "$(wc -l <$e)" = 5 ] || fail "${e#err.}: $(cat $e)"; done
	grep -q "100.00%.*synth_caller" out.stdio
'

test_case 'the first offset of a skipped type in a plain file is the record'"'"'s own' '
	"$SYNTH" -o t.data -n 100 --no-compress --type 200
	xperf report --stdio -i t.data 2>err >/dev/null
	off=$(sed -n "s/.*type 200: .*first at offset \(0x[0-9a-f]*\).*/\1/p" err)
	[ -n "$off" ]
	xperf report -D -i t.data | grep -qF " $off [0x10]: PERF_RECORD_UNKNOWN(200)" ||
		fail "no record of type 200 at $off"
'

test_case 'a COMPRESSED record inside compressed data is said, not taken apart' '
	"$SYNTH" -o n.data -n 200 --type 81
	views n.data
	once "^xperf [a-z]+: warning: failed to process 1 record of type 81 \(COMPRESSED\): compressed data inside compressed data"
'

perf_case 'perf fails on the same records (it stops: we read on and say so)' '
	for t in 200 65535 70; do
		"$SYNTH" -o t$t.data -n 100 --type $t
		perf_run report --stdio -i t$t.data >/dev/null 2>p.err || :
		grep -q "failed to process type: $t" p.err
	done
	"$SYNTH" -o t0.data -n 100 --type 0
	perf_run report --stdio -i t0.data >/dev/null 2>p.err || :
	grep -q "Found 1 unknown events" p.err
'

test_case '--cpu on a file without the samples'"'"' cpu is an error in every view' '
	"$SYNTH" -o nc.data -n 100 --no-cpu
	views nc.data -C 0
	once "^xperf [a-z]+: error: cannot filter by cpu: the file does not contain CPU events"
	for r in rc.*; do [ "$(cat $r)" = 2 ] || fail "${r#rc.}: exit $(cat $r)"; done
	xperf report --stdio -i - -C 0 <nc.data >/dev/null 2>perr && fail "the pipe passed"
	grep -q "does not contain CPU events" perr
	xperf report --stdio -q -i nc.data >/dev/null
'

perf_case 'perf refuses -C on the same file' '
	"$SYNTH" -o nc.data -n 100 --no-cpu
	perf_run report --stdio -i nc.data -C 0 >/dev/null 2>p.err || :
	grep -q "File does not contain CPU events. Remove -C option to proceed." p.err
'

test_case 'a filter that matched no sample: one warning naming it, in every view' '
	# annotate takes none of these filters (nor does perf annotate)
	export VIEWS="stdio flamegraph pprof script"
	"$SYNTH" -o f.data -n 300
	views f.data --pid 1
	once "^xperf [a-z]+: warning: --pid .1. matched none of the 300 samples$"
	views f.data --comms nosuch
	once "^xperf [a-z]+: warning: --comms .nosuch. matched none of the 300 samples$"
	views f.data -S nosuch
	once "^xperf [a-z]+: warning: --symbols .nosuch. matched none of the 300 samples$"
	views f.data -C 1 --pid 1
	once "^xperf [a-z]+: warning: --pid .1. matched none of the 150 samples the other filters kept$"
	views f.data -C 0,1 --comms xpf-synth
	none "matched none"
'
test_done
