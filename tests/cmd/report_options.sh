#!/usr/bin/env bash
# xperf report's sort keys (pid, cpu, parent and their combinations), filters (--pid, --tid,
# --cpu, -S, --hide-unresolved, -p/-x), -F fields, -v, ties, --header, -n and
# --show-total-period with --children, each against
# perf report on the same file: files of the threads and forker workloads (several threads
# and processes), recorded by perf (-N) and by xperf. perf's file records the cpu
# (--sample-cpu); xperf records it only system-wide, which would bring in the machine's
# other processes, so its file has none (cpu -1, as perf shows it).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_compare.sh"

R=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
export R WL

# The files, recorded once for every case (a case that finds one missing skips, saying so).
FILES=$TEST_TMP/files
mkdir -p "$FILES"
record_all() {
	have_perf || return 0
	(cd "$FILES" &&
		perf_run record -q -N --no-bpf-event --sample-cpu -o thr.data -- "$WL/threads" 0.6 &&
		perf_run record -q -N --no-bpf-event -g -o fork.data -- "$WL/forker" 2 0.3 &&
		"$XPERF_BUILD/xperf-record" -q -o xthr.data -- "$WL/threads" 0.6 &&
		"$XPERF_BUILD/xperf-record" -q --call-graph fp -o xfork.data -- "$WL/forker" 2 0.3
	) >"$FILES/rec.log" 2>&1 || echo "recording failed: $(tail -n 3 "$FILES/rec.log")" >"$FILES/failed"
}
record_all

export FILES

# thread_of FILE COMM: the tid of the first thread named COMM (perf's --sort pid column)
thread_of() {
	perf_run report --stdio -q --no-children --sort pid -g none -i "$1" 2>/dev/null |
		sed -n "s/^ *[0-9.]*% *\([0-9]*\):$2 *\$/\1/p" | head -n 1
}
export -f thread_of

for who in perf xperf; do
	if [ $who = perf ]; then thr=thr.data fork=fork.data; else thr=xthr.data fork=xfork.data; fi
	export thr fork

	perf_case "--sort pid, file by $who: threads by tid and last name" '
		f=$(need $thr)
		same_report "$f" --no-children --sort pid
		grep -q ":xp-thread-a" xperf.out || fail "no xp-thread-a row"
	'

	perf_case "--sort pid,cpu and cpu,comm,dso, file by $who" '
		f=$(need $thr)
		same_report "$f" --no-children --sort pid,cpu
		same_report "$f" --no-children --sort cpu,comm,dso
	'

	perf_case "--sort pid,dso,sym, file by $who (call chains, -g none)" '
		f=$(need $fork)
		same_report "$f" --no-children -g none --sort pid,dso,sym
	'

	perf_case "--sort pid with --children, file by $who" '
		f=$(need $fork)
		same_report "$f" --children -g none --sort pid
	'

	perf_case "--sort pid,sym with call graphs: the same chains per thread, file by $who" '
		f=$(need $fork)
		MIN_MATCH=98 same_stacks "$f" --no-children -g folded --sort pid,sym
	'

	perf_case "--sort parent, -p REGEX, -x, file by $who" '
		f=$(need $fork)
		same_report "$f" --no-children -g none --sort comm,parent
		same_report "$f" --no-children -g none -p main
		same_report "$f" --no-children -g none -p "work\$" -x --sort dso,parent
		grep -q "child_work" xperf.out || fail "no child_work parent"
		! grep -q "\[other\]" xperf.out || fail "-x kept [other]"
	'

	perf_case "--pid and --tid with --sort pid, file by $who" '
		f=$(need $fork)
		c=$(thread_of "$f" forker-child) p=$(thread_of "$f" forker)
		[ -n "$c" ] && [ -n "$p" ] || fail "no forker-child or forker thread in perf report"
		same_report "$f" --no-children -g none --sort pid,dso,sym --pid "$c"
		same_report "$f" --no-children -g none --sort pid,comm,sym --tid "$c,$p"
		[ "$(grep -c "%" xperf.lines)" -gt 1 ] || fail "too few rows"
	'

	perf_case "-S SYMBOLS, file by $who" '
		f=$(need $fork)
		same_report "$f" --no-children -g none -S child_work,parent_work
		same_report "$f" --no-children -S child_work,parent_work
	'

	perf_case "--hide-unresolved, file by $who" '
		f=$(need $fork)
		same_report "$f" --no-children -g none --hide-unresolved
	'

	perf_case "-n with --children counts the own samples of each entry, file by $who" '
		f=$(need $fork)
		same_report "$f" --children -n -g none
	'

	perf_case "--show-total-period: the own period of each entry, file by $who" '
		f=$(need $fork)
		same_report "$f" --children -n --show-total-period -g none
		grep -q "^# Children      Self       Samples        Period  Command" xperf.out ||
			fail "titles: $(grep Children xperf.out)"
		same_report "$f" --no-children --show-total-period -g none --sort dso,sym
		# an explicit -F list decides the columns itself, as in perf
		same_report "$f" --no-children --show-total-period -g none -F overhead,sym
	'
done

perf_case "-F FIELDS: columns, grouping and order as perf" '
	f=$(need fork.data)
	for F in overhead,sym overhead,sample,period,comm overhead_sys,overhead_us,sym \
		 sym,overhead overhead,pid overhead_children,overhead,sample,comm; do
		same_report "$f" -g none -F "$F"
		# without sym the order is the same too: no two entries tie on every field
		# (addresses without a symbol tie in perf, which leaves them as they came)
		case $F in *sym*) continue ;; esac
		diff <(entry_lines perf.out) <(entry_lines xperf.out) >order.diff ||
			fail "-F $F: another order: $(head -n 6 order.diff)"
	done
	same_report "$f" -g none -F comm,overhead -s dso
	same_report "$f" -g none -F sym,sample -s comm
	same_report "$f" --no-children -F overhead,sym,period -n
'

# With --children and graphs perf orders entries of equal children by the depth of their
# chains within a thread, and across threads as its tree insertion falls: only the
# orders that do not depend on that are compared line for line.
perf_case "entries of equal overhead in the order of perf" '
	f=$(need fork.data)
	for m in "--no-children -g graph" "--no-children -g none" "--children -g none"; do
		perf_run report --stdio $m -i "$f" >perf.out 2>perf.err || fail "perf failed"
		"$R" --stdio $m -i "$f" >xperf.out 2>xperf.err || fail "$(cat xperf.err)"
		diff <(entry_lines perf.out | grep -v "^#") <(entry_lines xperf.out | grep -v "^#") \
			>order.diff || fail "$m: $(head -n 8 order.diff)"
	done
	# the top entries of equal children: the same entries with the same numbers. perf
	# puts a caller above its callee only among entries first met in one process:
	# forker-child is two processes, and the order of perf then follows which one made
	# each entry (1 recording in 15 here puts child_work above main), which xperf does
	# not model (docs/xperf-report.1, --children)
	perf_run report --stdio --children -q -i "$f" 2>/dev/null | grep "%  forker-child" | head -n 3 | sort >p3
	"$R" --stdio --children -q -i "$f" 2>/dev/null | grep "%  forker-child" | head -n 3 | sort >x3
	diff p3 x3 || fail "the top forker-child entries differ"
'

for who in perf xperf; do
	if [ $who = perf ]; then fork=fork.data; else fork=xfork.data; fi
	export fork
	perf_case "-v: each symbol with its first sample address, long DSO names, file by $who" '
		f=$(need $fork)
		for m in "--sort sym" "--sort comm,dso,sym" "--sort dso,sym"; do
			perf_run report --stdio -v --no-children -g none $m -i "$f" >perf.out 2>perf.err ||
				fail "perf failed"
			"$R" --stdio -v --no-children -g none $m -i "$f" >xperf.out 2>xperf.err ||
				fail "$(cat xperf.err)"
			# the letter after the address says where perf found the symbols (its
			# build-id cache, a debug file...): xperf tells fewer places apart; the
			# long name perf gives the vdso is a temporary file of its own (so blanks
			# are squeezed: that name may set the width of the column)
			for w in perf xperf; do
				entry_lines $w.out | sed -E -e "s/ [A-Za-z!] (\[[.kguH]\])/ ? \1/" \
					-e "s#/tmp/perf-vdso\.so-[A-Za-z0-9]+#[vdso]#" -e "s/ +/ /g" |
					grep -v "^#" | sort >$w.lines
			done
			grep -q "^ [0-9.]*% .*0x[0-9a-f]* ? \\[" xperf.lines || fail "$m: no address"
			diff perf.lines xperf.lines >v.diff || fail "$m: $(head -n 8 v.diff)"
		done
	'
done

perf_case "--cpu LIST: only those cpus, out of the totals too" '
	f=$(need thr.data)
	cpu=$(perf_run report --stdio -q --sort cpu -g none -i "$f" 2>/dev/null | awk "{ print \$2 + 0; exit }")
	[ -n "$cpu" ] || fail "no cpu in perf report"
	same_report "$f" --no-children --sort cpu,sym -C "$cpu"
	same_report "$f" --no-children --sort comm -C "$cpu"
	grep -q "Event count" xperf.out || fail "no event count line"
'

perf_case "--header prints the header, then the report, as perf" '
	f=$(need thr.data)
	perf_run report --stdio --no-children --header -i "$f" >perf.out 2>perf.err || fail "perf failed"
	"$R" --stdio --no-children --header -i "$f" >xperf.out 2>xperf.err || fail "$(cat xperf.err)"
	grep -q "^# hostname" xperf.out || fail "no header"
	grep -q "^# Samples: " xperf.out || fail "no report after the header"
	! grep -q "To display the perf.data header" xperf.out || fail "the header hint is printed"
	entry_lines perf.out | sed -n "/^# Total Lost/,\$p" >p.tail
	entry_lines xperf.out | sed -n "/^# Total Lost/,\$p" >x.tail
	diff <(sort p.tail) <(sort x.tail) || fail "the report differs"
	"$R" --header-only -i "$f" >only.out
	! grep -q "^# Samples: " only.out || fail "--header-only printed the report"
'

perf_case "bad lists, and parent without call chains: one error line, no report" '
	f=$(need thr.data)
	for o in "--pid 1x" "--tid ,a" "--cpu 3-1" "-p (" "--sort parent"; do
		rc=0; "$R" --stdio $o -i "$f" >out 2>err || rc=$?
		[ "$rc" -ne 0 ] || fail "$o: exit 0"
		[ "$(wc -l <err)" -eq 1 ] || fail "$o: stderr $(cat err)"
		grep -q "^xperf report: error: " err || fail "$o: $(cat err)"
	done
	rc=0; "$R" --stdio --sort tid -i "$f" >out 2>err || rc=$?
	[ "$rc" -eq 1 ] || fail "--sort tid: exit $rc (perf 6.1 has no tid key)"
'

test_done
