#!/usr/bin/env bash
# xperf report --mem-mode (perf's memory view of files recorded with -d): its default sort
# order and each memory key (symbol_daddr, dso_daddr, mem, snoop, tlb, locked, blocked,
# dcacheline, phys_daddr, data_page_size, local_weight, local_ins_lat) against perf report --mem-mode on the same
# files, line for line and in perf's order; page-faults samples carry real data addresses
# on a machine without a PMU. And the refusals: a file without data sources, a memory key
# without --mem-mode, a mode that has no memory view.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_compare.sh"

R=$XPERF_BUILD/xperf-report
WL=$XPERF_BUILD/workloads
export R WL

FILES=$TEST_TMP/files
mkdir -p "$FILES"
record_all() {
	have_perf || return 0
	(cd "$FILES" &&
		perf_run record -q -N -d -e page-faults -c 1 -o pages.data -- "$WL/stat_pages" 300 &&
		perf_run record -q -N -d -e page-faults -c 1 -o fork.data -- "$WL/forker" 2 0.2 &&
		perf_run record -q -N -e page-faults -c 1 -o nod.data -- "$WL/stat_pages" 10 &&
		"$XPERF_BUILD/xperf-record" -q -d -e page-faults -c 1 -o xpages.data -- \
			"$WL/stat_pages" 300 &&
		"$XPERF_BUILD/xperf-record" -q -d -e page-faults -c 1 -o xfork.data -- \
			"$WL/forker" 2 0.2
	) >"$FILES/rec.log" 2>&1 || echo "recording failed: $(tail -n 3 "$FILES/rec.log")" >"$FILES/failed"
	# physical addresses need CAP_SYS_ADMIN: their case skips without
	(cd "$FILES" && perf_run record -q -N -d --phys-data -e page-faults -c 1 -o phys.data -- \
		"$WL/stat_pages" 100) >"$FILES/phys.log" 2>&1 || rm -f "$FILES/phys.data"
	(cd "$FILES" && perf_run record -q -N -d --data-page-size -e page-faults -c 1 \
		-o pagesize.data -- "$WL/forker" 2 0.2) >"$FILES/pagesize.log" 2>&1 ||
		rm -f "$FILES/pagesize.data"
}
record_all
export FILES

# same_lines FILE OPTS...: perf report --mem-mode and xperf report --mem-mode print the same
# title and entry lines, byte for byte and in the same order (ties included)
same_lines() {
	local f=$1
	shift
	perf_run report --stdio --mem-mode "$@" -i "$f" >perf.out 2>perf.err ||
		fail "perf report $*: $(tail -n 3 perf.err)"
	"$R" --stdio --mem-mode "$@" -i "$f" >xperf.out 2>xperf.err ||
		fail "xperf report $*: $(cat xperf.err)"
	entry_lines perf.out >perf.lines
	entry_lines xperf.out >xperf.lines
	grep -q '%' perf.lines || fail "perf printed no entries"
	diff perf.lines xperf.lines >reports.diff || fail "$* differs: $(head -n 12 reports.diff)"
}
export -f same_lines

for who in perf xperf; do
	if [ $who = perf ]; then pages=pages.data fork=fork.data; else pages=xpages.data fork=xfork.data; fi
	export pages fork
	perf_case "--mem-mode: perf's default sort order, weights, file by $who" '
		same_lines "$(need $pages)"
		same_lines "$(need $fork)"
		grep -q "^# Total weight : " xperf.out || fail "no Total weight line"
		grep -q "^# Sort order   : local_weight,mem,sym,dso,symbol_daddr" xperf.out ||
			fail "no Sort order line"
	'
	perf_case "--mem-mode --sort symbol_daddr: data symbols and addresses, file by $who" '
		same_lines "$(need $pages)" --sort symbol_daddr
		same_lines "$(need $fork)" --sort symbol_daddr
		same_lines "$(need $fork)" --sort sym,symbol_daddr
		# variables of the loader are named, with their offset
		grep -q "_rtld_global+0x" xperf.out || grep -q "_rtld_global_ro+0x" xperf.out ||
			fail "no variable of ld.so in the data symbols"
	'
	perf_case "--mem-mode --sort dso_daddr: the data maps, file by $who" '
		same_lines "$(need $pages)" --sort dso_daddr
		same_lines "$(need $fork)" --sort dso,dso_daddr
		same_lines "$(need $fork)" --sort symbol_daddr,dso_daddr
		grep -q " anon" xperf.out || fail "no anonymous data map"
	'
	perf_case "--mem-mode --sort mem (data source levels), file by $who" '
		same_lines "$(need $fork)" --sort mem
		same_lines "$(need $fork)" --sort mem,sym
	'
	perf_case "--mem-mode --sort snoop, file by $who" '
		same_lines "$(need $fork)" --sort snoop
		same_lines "$(need $fork)" --sort snoop,dso
	'
	perf_case "--mem-mode --sort tlb, file by $who" '
		same_lines "$(need $fork)" --sort tlb
		same_lines "$(need $fork)" --sort tlb,dso
	'
	perf_case "--mem-mode --sort locked (unpadded last), file by $who" '
		same_lines "$(need $fork)" --sort locked
		same_lines "$(need $fork)" --sort locked,dso
	'
	perf_case "--mem-mode --sort blocked (unpadded last), file by $who" '
		same_lines "$(need $fork)" --sort blocked
		same_lines "$(need $fork)" --sort blocked,dso
	'
	perf_case "--mem-mode --sort dcacheline (data cache lines), file by $who" '
		same_lines "$(need $pages)" --sort dcacheline
		same_lines "$(need $fork)" --sort dcacheline,sym
		# a line of several processes is one entry, and again one per process
		same_lines "$(need $fork)" --sort pid,dcacheline
		same_lines "$(need $fork)" --sort dcacheline,symbol_daddr
		same_lines "$(need $fork)" --sort dcacheline
		grep -q "^# Overhead  Data Cacheline" xperf.out || fail "no Data Cacheline column"
		grep -qE "%  \[X\] 0x" xperf.out || fail "no line outside every map ([X])"
		grep -qE "%  \[\.\] [_a-zA-Z]" xperf.out || fail "no line named after a symbol"
		# the lines are of this machine'"'"'s cache line size (perf'"'"'s cl_address())
		size=$(getconf LEVEL1_DCACHE_LINESIZE 2>/dev/null || echo 0)
		if [ "${size:-0}" -gt 0 ]; then
			grep -oE "\] 0x[0-9a-f]{16}$" xperf.out | awk -v s=$size "
				{ a = substr(\$2, 3); v = 0
				  for (i = 13; i <= 16; i++) v = v * 16 + index(\"0123456789abcdef\", substr(a, i, 1)) - 1
				  if (v % s) { print \"not a line: \" \$2; bad = 1 } }
				END { exit bad }" || fail "addresses off their lines"
		fi
	'
	perf_case "--mem-mode --sort local_weight and local_ins_lat, file by $who" '
		same_lines "$(need $fork)" --sort local_weight,dso
		same_lines "$(need $fork)" --sort local_ins_lat,dso
	'
	perf_case "--mem-mode -F with a data key, file by $who" '
		same_lines "$(need $pages)" -F overhead,sample,symbol_daddr
	'
done

perf_case "--mem-mode --sort phys_daddr: physical addresses (perf record --phys-data)" '
	[ -s "$FILES/phys.data" ] || skip "perf record --phys-data failed: $(tail -n 1 "$FILES/phys.log")"
	same_lines "$FILES/phys.data" --sort phys_daddr
	same_lines "$FILES/phys.data" --sort sym,phys_daddr
	same_lines "$FILES/phys.data" --sort dso,phys_daddr
'

perf_case "--mem-mode --sort data_page_size (perf record --data-page-size)" '
	[ -s "$FILES/pagesize.data" ] ||
		skip "perf record --data-page-size failed: $(tail -n 1 "$FILES/pagesize.log")"
	same_lines "$FILES/pagesize.data" --sort data_page_size
	same_lines "$FILES/pagesize.data" --sort sym,data_page_size
	grep -q " 4K " xperf.out || fail "no 4K page"
	same_lines "$(need pages.data)" --sort data_page_size,dso
'

perf_case "--mem-mode refusals: no data sources, a memory key alone, another mode" '
	f=$(need nod.data)
	if "$R" --stdio --mem-mode -i "$f" >out 2>err; then fail "a file without -d passed"; fi
	grep -q "needs the samples.* data sources.*record with -d" err || fail "$(cat err)"
	[ "$(wc -l <err)" = 1 ] || fail "more than one line: $(cat err)"
	if "$R" --stdio --sort symbol_daddr -i "$(need pages.data)" >out 2>err; then
		fail "symbol_daddr without --mem-mode passed"
	fi
	grep -q "symbol_daddr.* needs --mem-mode" err || fail "$(cat err)"
	if "$R" --stdio --sort dcacheline -i "$(need pages.data)" >out 2>err; then
		fail "dcacheline without --mem-mode passed"
	fi
	grep -q "dcacheline.* needs --mem-mode" err || fail "$(cat err)"
	# perf refuses it too (with exit 0, where xperf fails)
	perf_run report --stdio --sort dcacheline -i "$(need pages.data)" >/dev/null 2>perr || :
	grep -q "Invalid --sort key: .dcacheline" perr ||
		fail "perf took dcacheline without --mem-mode: so should xperf"
	if "$R" --mem-mode --flamegraph out.svg -i "$(need pages.data)" 2>err; then
		fail "--flamegraph --mem-mode passed"
	fi
	grep -q "mem-mode.* not supported with .--flamegraph" err || fail "$(cat err)"
'

test_done
