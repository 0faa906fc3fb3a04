#!/usr/bin/env bash
# xperf report's output modes (src/report/modes.c): an option given that the chosen mode
# cannot honour is a usage error naming both, never ignored; options left at their defaults
# are not checked; an unknown --sort key is an error in every mode.
. "$(dirname "$0")/lib.sh"

R=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
F=$TEST_TMP/files
export R WL F
mkdir -p "$F"

"$XPERF_BUILD/xperf-record" -q -o "$F/flat.data" -- "$WL/shares" 0.3 >/dev/null 2>"$F/rec.err" ||
	rm -f "$F/flat.data"
need() { [ -s "$F/$1" ] || skip "recording $1 failed: $(tail -n 1 "$F/rec.err")"; }
have_pprof() { "$R" --help | grep -q -- --pprof && grep -qx "#define HAVE_PBC 1" "$XPERF_BUILD/config.h"; }
export -f need have_pprof

# refused MODE-ARGS -- OPTION-ARGS: exit 1, one line naming both (an option by its long
# name, however given), nothing written
refused() {
	local mode=() opt=() rc=0 name
	while [ "$1" != -- ]; do mode+=("$1"); shift; done
	shift
	opt=("$@")
	name=${opt[0]%%=*}
	"$R" -i "$F/flat.data" "${mode[@]}" "${opt[@]}" >out 2>err || rc=$?
	[ $rc -eq 1 ] || fail "${mode[*]} ${opt[*]}: exit $rc"
	[ "$(cat err)" = "xperf report: error: '$name' is not supported with '${mode[0]}'" ] ||
		fail "${mode[*]} ${opt[*]}: $(cat err)"
	[ ! -s out ] || fail "${mode[*]} ${opt[*]}: printed $(head -n 2 out)"
}
export -f refused

test_case "an export refuses what it cannot honour: one line naming both, exit 1" '
	need flat.data
	refused --flamegraph fg.svg -- --percent-limit 5
	refused --flamegraph fg.svg -- --children
	refused --flamegraph fg.svg -- --fields overhead,sym
	[ ! -e fg.svg ] || fail "the flame graph was written anyway"
	refused --speedscope s.json -- --percent-limit 5
	refused --speedscope s.json -- --sort dso
	refused --speedscope s.json -- --children
	refused --speedscope s.json -- --threads
	refused --flamegraph fg.svg -- --hierarchy
	refused --speedscope s.json -- --hierarchy
	[ ! -e s.json ] || fail "the speedscope file was written anyway"
	if have_pprof; then
		refused --pprof p.pb.gz -- --percent-limit 5
		refused --pprof p.pb.gz -- --sort dso
		refused --pprof p.pb.gz -- --call-graph=caller
		refused --pprof p.pb.gz -- --hierarchy
		[ ! -e p.pb.gz ] || fail "the pprof file was written anyway"
	fi
'

test_case "the raw views refuse the symbolised views options" '
	need flat.data
	refused --stats -- --sort dso
	refused --dump -- --symfs /
	refused --header-only -- --show-nr-samples
	refused --stats -- --no-demangle
'

test_case "--header, -T, -F and --hierarchy only with the stdio view" '
	need flat.data
	refused --tui -- --header
	refused --tui -- --hierarchy
	refused --tui -- --threads
	refused --tui -- --fields=overhead,sym
	refused --flamegraph fg.svg -- --header
	rc=0; "$R" -i "$F/flat.data" --stats -n >out 2>err || rc=$?
	[ $rc -eq 1 ] || fail "--stats -n: exit $rc"
	grep -qx "xperf report: error: .--show-nr-samples. is not supported with .--stats." err ||
		fail "$(cat err)"
'

test_case "options left at their defaults are not checked" '
	need flat.data
	"$R" -i "$F/flat.data" --flamegraph fg.svg 2>err || fail "$(cat err)"
	[ -s fg.svg ] || fail "no flame graph"
	"$R" -i "$F/flat.data" --stats >out 2>err || fail "$(cat err)"
	grep -q "SAMPLE events:" out || fail "$(head -n 5 out)"
	if have_pprof; then
		"$R" -i "$F/flat.data" --pprof p.pb.gz 2>err || fail "$(cat err)"
		[ -s p.pb.gz ] || fail "no pprof file"
	fi
	# and what a mode honours is taken
	"$R" -i "$F/flat.data" --flamegraph fg.svg --comms shares --no-demangle 2>err ||
		fail "$(cat err)"
	"$R" -i "$F/flat.data" --speedscope s.json --comms shares --no-demangle --max-stack 3 \
		--inline 2>err || fail "$(cat err)"
	[ -s s.json ] || fail "no speedscope file"
	rc=0; "$R" -i "$F/flat.data" --speedscope s.json --flamegraph fg.svg 2>err || rc=$?
	[ $rc -eq 1 ] || fail "--speedscope with --flamegraph: exit $rc"
	grep -q "cannot be combined" err || fail "$(cat err)"
'

test_case "an unknown --sort key is an error in every mode, as perf" '
	need flat.data
	for m in --stdio --flamegraph=fg.svg --pprof=p.pb.gz --speedscope=s.json --stats --dump \
		--header-only; do
		rc=0; "$R" -i "$F/flat.data" $m --sort nosuchkey >out 2>err || rc=$?
		[ $rc -eq 1 ] || fail "$m: exit $rc"
		grep -q "^xperf report: error: unknown --sort key .nosuchkey." err || fail "$m: $(cat err)"
		[ "$(wc -l <err)" -eq 1 ] || fail "$m: $(cat err)"
	done
	[ ! -e fg.svg ] && [ ! -e p.pb.gz ] && [ ! -e s.json ] || fail "a file was written"
'

test_case "on a terminal, an option only the stdio view honours picks it over the TUI" '
	need flat.data
	command -v script >/dev/null || skip "script (util-linux) is absent"
	xperf version | grep -q "+ncursesw" || skip "this build has no TUI"
	rc=0
	TERM=xterm timeout 20 script -qec "$R -F overhead,sym -i $F/flat.data" /dev/null \
		>out 2>&1 </dev/null || rc=$?
	[ $rc -eq 0 ] || fail "exit $rc (the TUI waited for keys?)"
	grep -q "^# Overhead  Symbol" out || fail "$(head -n 12 out)"
	TERM=xterm timeout 20 script -qec "$R --hierarchy -i $F/flat.data" /dev/null \
		>out 2>&1 </dev/null || rc=$?
	[ $rc -eq 0 ] || fail "--hierarchy: exit $rc (the TUI waited for keys?)"
	grep -q "^# *Overhead  Command / Shared Object / Symbol" out || fail "$(head -n 12 out)"
'

test_done
