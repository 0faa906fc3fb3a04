#!/usr/bin/env bash
# xperf diff against perf diff on the same files, line for line: pairs recorded from the
# shares workload (two durations; one where work_c got slower; two builds of it at different
# addresses; three files), every computation and the options that change the table; the
# default inputs; bad inputs; --help and the man page.
. "$(dirname "$0")/lib.sh"

D=$XPERF_BUILD/xperf-diff
WL=$XPERF_BUILD/workloads
F=$TEST_TMP/files
export D WL F
mkdir -p "$F/v2"

# The recordings, made once by perf (-N) and by xperf: shares for 0.3 s and 0.5 s, shares
# with work_c at 50% instead of 20% (slower), and a second build of shares whose functions
# sit at other addresses (aligned to 256), recorded from a directory of its own so that
# its file has the same name. With the samples' cpus, for --cpu and --sort cpu.
if have_perf; then
	rec() { perf_run record -q -N --no-bpf-event --sample-cpu -e cpu-clock -o "$F/$1" -- "${@:2}" \
		>/dev/null 2>>"$F/rec.err" || rm -f "$F/$1"; }
	rec a.data "$WL/shares" 0.3
	rec b.data "$WL/shares" 0.5
	rec c.data "$WL/shares" 0.2
	rec slow.data "$WL/shares" 0.5 20 30 50
	cc -std=gnu11 -O1 -g -fno-omit-frame-pointer -fno-inline -falign-functions=256 -pthread \
		-o "$F/v2/shares" "$TOP/tests/workloads/shares.c" -lm 2>>"$F/rec.err" &&
		rec v2.data "$F/v2/shares" 0.3
fi
"$XPERF_BUILD/xperf-record" -q -o "$F/xa.data" -- "$WL/shares" 0.3 >/dev/null 2>>"$F/rec.err" ||
	rm -f "$F/xa.data"
"$XPERF_BUILD/xperf-record" -q -o "$F/xb.data" -- "$WL/shares" 0.5 20 30 50 >/dev/null \
	2>>"$F/rec.err" || rm -f "$F/xb.data"

need() { for f in "$@"; do [ -s "$F/$f" ] ||
	skip "recording $f failed: $(tail -n 1 "$F/rec.err" 2>/dev/null)"; done; }
# same ARGS...: perf diff and xperf diff print the same lines for ARGS (stdout)
same() {
	perf_run diff "$@" >perf.out 2>perf.err || fail "perf diff $*: $(tail -n 3 perf.err)"
	"$D" "$@" >xperf.out 2>xperf.err || fail "xperf diff $*: $(cat xperf.err)"
	[ -s perf.out ] || fail "perf diff $* printed nothing"
	diff perf.out xperf.out >d.out || fail "xperf diff $* differs from perf diff: $(head -n 20 d.out)"
}
export -f need same

perf_case "two durations: perf diff's table line for line (delta-abs, the default)" '
	need a.data b.data
	same "$F/a.data" "$F/b.data"
	grep -q "^# Baseline  Delta Abs  Shared Object" xperf.out || fail "titles: $(head -n 5 xperf.out)"
'

for opts in "-c delta" "-c ratio" "-c wdiff:1,2" "-c wdiff:3,-2" "-p" "-F" "-c ratio -F -p" \
	"-c wdiff:2,1 -F" "-b" "-b -p" "-s comm" "-s comm,dso" "-s dso" "-s sym" "-s pid,sym" \
	"-s cpu" "-q" "-t :" "-t , -p" "-o 0" "-d shares" "-d shares --percentage relative" \
	"-b --percentage relative -d shares" "-S work_a" "-S work_a,work_b" "-C shares" \
	"--cpu 0" "--cpu 0-$(($(nproc) - 1))" "--time 0%-50%" "--percentage absolute"; do
	perf_case "two durations with $opts: as perf diff" "
		need a.data b.data
		same $opts \"\$F/a.data\" \"\$F/b.data\"
	"
done

perf_case "a file against its copy: +0.00% everywhere, weighted diffs of 0, ratios of 1, as perf" '
	need a.data
	cp "$F/a.data" copy.data
	same "$F/a.data" copy.data
	same -c wdiff:1,1 "$F/a.data" copy.data
	grep -Eq "^ +[0-9.]+% +0  " xperf.out || fail "no weighted diff of 0: $(head -n 8 xperf.out)"
	same -c ratio -p "$F/a.data" copy.data
'

perf_case "filters that leave the baseline no sample: the -nan% deltas of perf, in its order" '
	need a.data b.data
	# b.data was recorded after a.data: from its first sample on, a.data has none
	t=$(perf_run script -F time -i "$F/b.data" 2>/dev/null | head -n 1 | tr -d " :")
	[ -n "$t" ] || skip "no sample time in b.data"
	same --time "$t," "$F/a.data" "$F/b.data"
	grep -q " -nan%  " xperf.out || fail "no -nan%: $(head -n 8 xperf.out)"
	same --time "$t," -F "$F/a.data" "$F/b.data"
'

perf_case "work_c got slower: as perf diff, and work_c is the entry that grew most" '
	need b.data slow.data
	same "$F/b.data" "$F/slow.data"
	awk "/%/ && / work_[abc]\$/ { d = \$2; sub(/^[+]/, \"\", d); sub(/%/, \"\", d)
		if (n++ == 0 || d + 0 > max) { max = d + 0; top = \$NF } } END { print top }" xperf.out |
		grep -qx "work_c" ||
		fail "work_c is not the entry that grew most: $(grep work_ xperf.out)"
	same -c delta "$F/b.data" "$F/slow.data"
	same -c ratio "$F/b.data" "$F/slow.data"
'

perf_case "two builds at different addresses pair by symbol name, as perf diff" '
	need a.data v2.data
	same "$F/a.data" "$F/v2.data"
	grep -Eq "^ +[0-9.]+% +[-+][0-9.]+% +shares +\[\.\] work_a$" xperf.out ||
		fail "work_a is not paired across the builds: $(grep work_a xperf.out)"
'

perf_case "a program rebuilt after its recording: its unresolved samples are one line, as perf diff" '
	need a.data
	mkdir -p v3
	cc -std=gnu11 -O1 -g -fno-omit-frame-pointer -fno-inline -pthread -o v3/shares \
		"$TOP/tests/workloads/shares.c" -lm
	perf_run record -q -N --no-bpf-event --sample-cpu -e cpu-clock -o old.data -- v3/shares 0.3 \
		>/dev/null 2>rec.err || skip "perf record failed: $(tail -n 1 rec.err)"
	# another build at the same path: the recorded one is gone, its samples have no symbols
	cc -std=gnu11 -O1 -g -fno-omit-frame-pointer -fno-inline -falign-functions=128 -pthread \
		-o v3/shares "$TOP/tests/workloads/shares.c" -lm
	same old.data "$F/a.data"
	same -c ratio -p "$F/a.data" old.data
	[ "$(grep -c "shares  *\[\.\] 0x" xperf.out)" -eq 1 ] ||
		fail "not one unresolved line: $(grep "0x" xperf.out)"
'

perf_case "three files: a column per newer file, the data files listed; -o 2 as perf" '
	need a.data b.data c.data
	same "$F/a.data" "$F/b.data" "$F/c.data"
	grep -q "^#  \[2\] .*c.data" xperf.out || fail "no data files: $(head -n 8 xperf.out)"
	same -o 2 -p "$F/a.data" "$F/b.data" "$F/c.data"
	same -c ratio -o 0 "$F/a.data" "$F/c.data" "$F/b.data"
'

perf_case "xperf record's files: what perf diff prints for them" '
	need xa.data xb.data
	same "$F/xa.data" "$F/xb.data"
	same -c ratio "$F/xa.data" "$F/xb.data"
'

perf_case "default inputs: perf.data.old and perf.data, one argument against perf.data.old" '
	need a.data b.data
	cp "$F/a.data" perf.data.old
	cp "$F/b.data" perf.data
	same
	mv perf.data new.data
	same new.data
'

test_case "default inputs: xperf.data.old and xperf.data when they are there" '
	need xa.data xb.data
	cp "$F/xa.data" xperf.data.old
	cp "$F/xb.data" xperf.data
	"$D" >out 2>err || fail "exit $?: $(cat err)"
	grep -q "work_c" out || fail "no table: $(head out)"
	"$D" "$F/xa.data" "$F/xb.data" >out2 2>err
	cmp out out2 || fail "not the table of the same files"
'

test_case "--flamegraph: the graph of NEW, the function that got slower red, the others blue" '
	"$XPERF_BUILD/xperf-record" -q -g -o old.data -- "$WL/shares" 0.4 >/dev/null 2>&1
	"$XPERF_BUILD/xperf-record" -q -g -o new.data -- "$WL/shares" 0.4 20 30 50 >/dev/null 2>&1
	"$D" --flamegraph d.svg old.data new.data 2>err || fail "exit: $(cat err)"
	[ ! -s err ] || fail "stderr: $(cat err)"
	grep -q "Differential Flame Graph" d.svg || fail "no title"
	# the widest box of each function: its title (samples, share, change) and its colour
	box() { grep -o "<title>$1 in shares ([^<]*</title><rect[^>]*fill=\"rgb([0-9,]*)\"" d.svg |
		sort -t"(" -k2 -n -r | head -n 1; }
	c=$(box work_c) a=$(box work_a)
	case $c in *", +"*"fill=\"rgb(255,"*) ;; *) fail "work_c not red and grown: $c" ;; esac
	case $a in *", -"*",255)\""*) ;; *) fail "work_a not blue and shrunk: $a" ;; esac
	# widths from NEW: work_c has about 50% of its samples; the change about 50 - 20 points
	share=$(sed -E "s/.* samples, ([0-9.]+)%, ([-+][0-9.]+)%.*/\1 \2/" <<<"$c")
	awk -v s="$share" "BEGIN { split(s, v, \" \"); exit !(v[1] > 40 && v[2] > 20 && v[2] < 40) }" ||
		fail "work_c share and change: $share"
	# two files only, and the table is not printed
	rc=0; "$D" --flamegraph x.svg old.data new.data old.data 2>err || rc=$?
	[ $rc = 1 ] && grep -q "compares two files" err || fail "three files: exit $rc, $(cat err)"
'

test_case "a missing file: one line naming it, exit 2" '
	need xa.data
	rc=0; "$D" "$F/xa.data" nosuch.data >out 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	[ "$(wc -l <err)" -eq 1 ] || fail "not one line: $(cat err)"
	grep -q "nosuch.data" err || fail "does not name the file: $(cat err)"
	[ ! -s out ] || fail "printed a table: $(head out)"
'

test_case "a file that is not perf.data: one line naming it, exit 2" '
	need xa.data
	echo "hello" >notdata
	rc=0; "$D" "$F/xa.data" notdata >out 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	[ "$(wc -l <err)" -eq 1 ] || fail "not one line: $(cat err)"
	grep -q "notdata" err || fail "does not name the file: $(cat err)"
'

test_case "bad -c, -o, --percentage, --sort: a usage error, exit 1" '
	for a in "-c foo" "-c wdiff:1" "-c wdiff:0,1" "-c ratio:2" "-o 2" "--percentage half" \
		 "-s nokey" "--pid x"; do
		rc=0; "$D" $a a.data b.data >out 2>err || rc=$?
		[ $rc -eq 1 ] || fail "$a: exit $rc: $(cat err)"
		head -n 1 err | grep -q "^xperf diff: error: " || fail "$a: $(cat err)"
	done
'

test_case "xperf diff is dispatched by xperf" '
	need xa.data xb.data
	"$XPERF_BUILD/xperf" diff "$F/xa.data" "$F/xb.data" >out 2>err || fail "$(cat err)"
	"$D" "$F/xa.data" "$F/xb.data" >out2
	cmp out out2 || fail "not the same output"
'

test_case "--help lists every option, each documented in docs/xperf-diff.1" '
	"$D" --help >h.txt
	opts=$(grep -Eo -- "--(\[no-\])?[a-z][a-z-]+" h.txt | sed "s/\[no-\]//" | sort -u)
	[ "$(echo "$opts" | wc -l)" -ge 15 ] || fail "only $(echo "$opts" | wc -l) options"
	for o in $opts; do
		[ "$o" = --help ] && continue
		grep -q -- "$(echo "$o" | sed "s/-/\\\\\\\\-/g")" "$TOP/docs/xperf-diff.1" ||
			fail "$o missing from the man page"
	done
'

test_done
