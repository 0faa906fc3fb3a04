#!/usr/bin/env bash
# The view layer's shared options and warnings (src/view/): script and annotate find the
# recorded files where report does (--symfs DIR, perf's build-id cache), script --inline
# shows inline frames as perf script --inline, and every command that reads a profile says
# the same warnings about the same file. perf 6.1 is the oracle where it has the option.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_compare.sh"

R=$XPERF_BUILD/xperf-report
XS=$XPERF_BUILD/xperf-script
XA=$XPERF_BUILD/xperf-annotate
W=$XPERF_BUILD/workloads
export R XS XA W

write_prog_c

# replaced: record ./prog with perf into p.data, then put the variant (another build-id,
# never_ran where hot_loop was) in its place; the recorded file stays as ./orig, and is
# laid out under symfs/ and in a build-id cache under home/.debug as perf looks for it
replaced() {
	build_both
	perf_run record -q -N --no-bpf-event -e cpu-clock -o p.data -- ./prog 0.3 >/dev/null 2>&1 ||
		fail "perf record failed"
	cp variant prog
	mkdir -p "symfs$PWD" && cp orig "symfs$PWD/prog"
	bid=$(build_id orig)
	mkdir -p "home/.debug/.build-id/${bid:0:2}/${bid:2}"
	cp orig "home/.debug/.build-id/${bid:0:2}/${bid:2}/elf"
}
# no_home_cache: a HOME without a build-id cache, so only what the case gives is found
no_home_cache() { mkdir -p empty; export HOME=$PWD/empty; }
# same_lines PERF XPERF [SKIP]: the same lines, but for the [vdso] code xperf names (perf 6.1
# prints [unknown] without a build-id cache) and lines matching SKIP
same_lines() {
	local vdso="s/ [^ ]+ \(\[vdso\]\)$/ [unknown] ([vdso])/"
	sed -E "$vdso" "$1" | grep -v -- "${3:-^NO SUCH LINE$}" >perf.norm || :
	sed -E "$vdso" "$2" | grep -v -- "${3:-^NO SUCH LINE$}" >xperf.norm || :
	diff perf.norm xperf.norm >diff.out || { head -20 diff.out; return 1; }
}
export -f replaced no_home_cache same_lines

if ! command -v "${CC:-cc}" >/dev/null || ! command -v nm >/dev/null ||
	! command -v readelf >/dev/null; then
	skip_case "view_options" "a C compiler, nm or readelf is absent"
	test_done
fi

perf_case "script --symfs DIR: the recorded program's symbols from DIR, the lines of perf script --symfs" '
	replaced
	no_home_cache
	"$XS" -i p.data >plain.out 2>plain.err || fail "exit $?: $(cat plain.err)"
	! grep -q hot_loop plain.out || fail "hot_loop without --symfs: the file was not replaced?"
	"$XS" --symfs symfs -i p.data >xperf.out 2>err || fail "exit $?: $(cat err)"
	[ ! -s err ] || fail "stderr with --symfs: $(cat err)"
	grep -q " hot_loop+0x" xperf.out || fail "no hot_loop with --symfs"
	! grep -q never_ran xperf.out || fail "never_ran, from the other file, with --symfs"
	perf_run script --symfs symfs -i p.data >perf.out 2>/dev/null
	# perf looks for kallsyms under DIR too; xperf reads the running kernel'"'"'s
	same_lines perf.out xperf.out "kernel.kallsyms" || fail "differs from perf script --symfs"
'

perf_case "script looks in perf's build-id cache for the recorded program, as perf script" '
	replaced
	HOME=$PWD/home "$XS" -i p.data >xperf.out 2>err || fail "exit $?: $(cat err)"
	[ ! -s err ] || fail "stderr with the cache: $(cat err)"
	grep -q " hot_loop+0x" xperf.out || fail "no hot_loop from the build-id cache"
	HOME=$PWD/home perf_run script -i p.data >perf.out 2>/dev/null
	grep -q " hot_loop+0x" perf.out || fail "perf finds no hot_loop in the cache: the layout is wrong"
	same_lines perf.out xperf.out || fail "differs from perf script"
'

perf_case "annotate --symfs DIR and the build-id cache: the recorded program's code, not the file in its place" '
	"$XA" --help 2>&1 | grep -q -- --symfs || fail "no --symfs in annotate --help"
	replaced
	no_home_cache
	cp variant keep && cp orig prog
	"$XA" --stdio --stdio-color never hot_loop -i p.data >want.out 2>err || fail "before: $(cat err)"
	cp keep prog
	rc=0; "$XA" --stdio --stdio-color never hot_loop -i p.data >plain.out 2>plain.err || rc=$?
	if [ $rc -eq 0 ] && cmp -s want.out plain.out; then
		fail "the replaced file annotates as the recorded one"
	fi
	"$XA" --stdio --stdio-color never --symfs symfs hot_loop -i p.data >symfs.out 2>err ||
		fail "exit $?: $(cat err)"
	[ ! -s err ] || fail "stderr with --symfs: $(cat err)"
	diff want.out symfs.out >diff.out || { head -20 diff.out; fail "--symfs: not the recorded code"; }
	HOME=$PWD/home "$XA" --stdio --stdio-color never hot_loop -i p.data >cache.out 2>err ||
		fail "exit $?: $(cat err)"
	diff want.out cache.out >diff.out || { head -20 diff.out; fail "cache: not the recorded code"; }
'

perf_case "report, its exports, script and annotate give the same warning for the same file" '
	replaced
	no_home_cache
	"$R" --stdio -i p.data >/dev/null 2>report.err || fail "report: $(cat report.err)"
	"$R" --flamegraph f.svg -i p.data 2>flame.err || fail "flamegraph: $(cat flame.err)"
	"$XS" -i p.data >/dev/null 2>script.err || fail "script: $(cat script.err)"
	"$XA" --stdio -i p.data >/dev/null 2>annotate.err || :
	if "$R" --help | grep -q -- --pprof; then
		"$R" --pprof p.pb.gz -i p.data 2>pprof.err || fail "pprof: $(cat pprof.err)"
	fi
	"$R" --speedscope s.json -i p.data 2>speedscope.err || fail "speedscope: $(cat speedscope.err)"
	grep -qF "xperf report: warning: $PWD/prog is not the one that was recorded" report.err ||
		fail "report: $(cat report.err)"
	want=$(sed "s/^xperf report: //" report.err)
	for c in flame script annotate pprof speedscope; do
		[ -f $c.err ] || continue
		# annotate says its own failures too (a symbol whose code cannot be read)
		got=$(grep "warning:" $c.err | grep -v "warning: cannot annotate " |
			sed -E "s/^xperf [a-z]+: //")
		[ "$got" = "$want" ] || fail "$c says: $got; report: $want"
	done
	# -q: none
	"$XS" -q -i p.data >/dev/null 2>q.err
	[ ! -s q.err ] || fail "script -q: $(cat q.err)"
'

perf_case "script --tid, --comms, -S, --cpu, --time, --dsos: the samples perf script keeps" '
	perf_run record -q -N --no-bpf-event --sample-cpu -e cpu-clock -g -o t.data -- "$W/threads" 0.3 \
		>/dev/null 2>&1 || fail "perf record failed"
	"$XS" -i t.data >all.out 2>err || fail "exit $?: $(cat err)"
	tid=$(awk "/^[^\t]/ { print \$2 }" all.out | sort | uniq -c | sort -n | awk "{ t = \$2 } END { print t }")
	sym=$("$XS" -G -F ip,sym -i t.data | awk "{ print \$2 }" | sort | uniq -c | sort -n |
		awk "{ s = \$2 } END { print s }")
	cpu=$(perf_run script -F cpu -i t.data 2>/dev/null | head -n 1 | tr -dc 0-9 | sed "s/^0*\(.\)/\1/")
	for f in "--tid $tid" "--comms threads" "-S $sym" "--cpu $cpu" "--time 10%/2" \
		"--dsos threads"; do
		perf_run script $f -i t.data >perf.out 2>/dev/null
		"$XS" $f -i t.data >xperf.out 2>err || fail "$f: exit $?: $(cat err)"
		[ -s perf.out ] || fail "$f: perf keeps no sample"
		same_lines perf.out xperf.out || fail "$f differs from perf script"
	done
'

if ! "$XPERF_BUILD/xperf" version 2>/dev/null | grep -q '+libdw'; then
	skip_case "script --inline" "xperf was built without libdw"
elif [ ! -x "$W/cxx_inline" ]; then
	skip_case "script --inline" "$W/cxx_inline is not built (g++ missing?)"
else
	perf_case "script --inline: inline frames above their host, the other lines perf script's; --no-inline: none, as perf" '
		perf_run record -q -N --no-bpf-event -e cpu-clock -g -o fp.data -- "$W/cxx_inline" 0.5 \
			>/dev/null 2>&1 || fail "perf record failed"
		"$XS" -i fp.data >plain.out 2>err || fail "exit $?: $(cat err)"
		! grep -q "(inlined)" plain.out || fail "inline frames without --inline (perf has none)"
		"$XS" --inline -i fp.data >xperf.out 2>err || fail "exit $?: $(cat err)"
		# hot_inlined, inlined into work::inline_host: a line at the same address above it
		grep -A1 " hot_inlined+0x[0-9a-f]* (inlined)$" xperf.out | grep -v "^--$" >pairs || :
		[ -s pairs ] || fail "no hot_inlined (inlined) frame"
		awk "NR % 2 == 1 { a = \$1 } NR % 2 == 0 && (\$1 != a || \$2 !~ /^work::inline_host\+/) { bad = 1 }
			END { exit bad }" pairs || { head pairs; fail "not above work::inline_host at its address"; }
		grep -v " (inlined)$" xperf.out >rest.out
		perf_run script -i fp.data >perf.out 2>/dev/null
		same_lines perf.out rest.out || fail "the other lines differ from perf script"
		"$XS" --inline --no-inline -i fp.data >no.out 2>err || fail "exit $?: $(cat err)"
		cmp -s plain.out no.out || fail "--no-inline after --inline is not the default"
		# a DWARF file has them by default, as perf; --no-inline takes them out, as perf
		perf_run record -q -N --no-bpf-event -e cpu-clock --call-graph dwarf -o dw.data -- \
			"$W/cxx_inline" 0.2 >/dev/null 2>&1 || fail "perf record failed"
		[ "$(perf_run script -i dw.data 2>/dev/null | grep -c "(inlined)$")" -gt 0 ] ||
			skip "perf shows no inline frame in the DWARF file"
		[ "$("$XS" -i dw.data 2>/dev/null | grep -c "(inlined)$")" -gt 0 ] ||
			fail "no inline frame in the DWARF file by default"
		[ "$(perf_run script --no-inline -i dw.data 2>/dev/null | grep -c "(inlined)$")" = 0 ] ||
			fail "perf --no-inline shows inline frames: the oracle disagrees"
		[ "$("$XS" --no-inline -i dw.data 2>/dev/null | grep -c "(inlined)$")" = 0 ] ||
			fail "--no-inline: inline frames in the DWARF file"
	'
fi

test_done
