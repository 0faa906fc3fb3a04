#!/usr/bin/env bash
# xperf report's sort keys of perf 6.1 beyond comm/pid/dso/sym/srcline/cpu/parent (srcfile,
# symbol_size, dso_size, time, addr, socket, cgroup, cgroup_id, ipc_null), each against
# perf report on the same file, files recorded by perf (-N) and by xperf; and --sort's
# errors (an unknown key, too many keys).
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
		perf_run record -q -N --no-bpf-event --sample-cpu -o thr.data -- "$WL/threads" 0.5 &&
		perf_run record -q -N --no-bpf-event -g -o fork.data -- "$WL/forker" 2 0.3 &&
		perf_run record -q -N --no-bpf-event --all-cgroups -o cg.data -- "$WL/threads" 0.3 &&
		perf_run record -q -N --no-bpf-event --namespaces -o ns.data -- "$WL/threads" 0.3 &&
		"$XPERF_BUILD/xperf-record" -q -o xthr.data -- "$WL/threads" 0.5 &&
		"$XPERF_BUILD/xperf-record" -q --call-graph fp -o xfork.data -- "$WL/forker" 2 0.3
	) >"$FILES/rec.log" 2>&1 || echo "recording failed: $(tail -n 3 "$FILES/rec.log")" >"$FILES/failed"
}
record_all

export FILES

# near FILE OPTS...: the entries of perf and xperf (their last column) within half a point,
# the entries of 1 % or more on both sides
near() {
	local f=$1
	shift
	report_lines perf "$f" -q "$@" | awk "{ print \$1, \$NF }" >perf.rows
	report_lines xperf "$f" -q "$@" | awk "{ print \$1, \$NF }" >xperf.rows
	[ -s perf.rows ] || fail "perf printed no entries"
	awk '
	{ v = $1; sub(/%$/, "", v) }
	FILENAME == ARGV[1] { P[$2] = v + 0; next }
	{ X[$2] = v + 0 }
	END {
		for (k in P) if (P[k] >= 1 || X[k] >= 1) {
			d = P[k] - X[k]; if (d < 0) d = -d
			if (d > 0.5) { printf "%s: perf %s, xperf %s\n", k, P[k], X[k]; bad++ }
		}
		for (k in X) if (X[k] >= 1 && !(k in P)) { printf "%s: only xperf\n", k; bad++ }
		exit bad > 0
	}' perf.rows xperf.rows >near.out || fail "$*: $(cat near.out)"
}
export -f near

for who in perf xperf; do
	if [ $who = perf ]; then thr=thr.data fork=fork.data; else thr=xthr.data fork=xfork.data; fi
	export thr fork

	perf_case "--sort time: 100 ms periods, file by $who" '
		same_report "$(need $thr)" --no-children --sort time
		same_report "$(need $thr)" --no-children --sort comm,time
		# with children, perf counts a sample once per frame of its chain there
		same_report "$(need $fork)" --children -g none --sort time
	'
	perf_case "--sort addr, with and without children, file by $who" '
		same_report "$(need $thr)" --no-children --sort addr
		same_report "$(need $fork)" --children -g none --sort addr
		same_report "$(need $fork)" --no-children -g none --sort comm,addr
	'
	perf_case "--sort socket: the cpu topology of the file (-001 without), file by $who" '
		same_report "$(need $thr)" --no-children --sort socket
		same_report "$(need $thr)" --no-children --sort socket,cpu
		same_report "$(need $fork)" --children -g none --sort socket
	'
	perf_case "--sort cgroup and cgroup_id without cgroups recorded, file by $who" '
		same_report "$(need $thr)" --no-children --sort cgroup,cgroup_id,comm
	'
	# symbol_size is not compared here: under load some recordings differ from perf in a
	# row not yet understood (see the commit that took the case out)
	# the kernel's map as perf ends it from kallsyms (past the last data symbol), not as
	# the file recorded it (the end of text); the vdso is left out (perf 6.1 without a
	# build-id cache sizes it otherwise)
	perf_case "--sort dso_size: the size of the map, the kernel'\''s too, file by $who" '
		k="%  +[0-9]+  (threads|forker|libc|ld-linux|true|\[kernel\.kallsyms\])"
		keep=$k same_report "$(need $thr)" --no-children --sort dso_size,dso
		keep=$k same_report "$(need $fork)" --children -g none --sort dso_size,dso
		grep -q "kernel.kallsyms" xperf.lines || skip "no kernel samples in the fork file: the kernel row is not compared"
	'
	# srcfile is the file of srcline, whose file perf takes elsewhere for some inlined code
	# (a line of workload.h inlined into threads.c is threads.c to perf; so is ld.so'\''s
	# dl-cacheinfo.h, left out): the files within half a point of perf'\''s, those of a point
	# or more the same
	perf_case "--sort srcfile, file by $who" '
		near "$(need $thr)" --no-children --sort srcfile --dsos threads,libc.so.6
		near "$(need $fork)" --no-children -g none --sort srcfile --dsos forker,libc.so.6
	'
done

perf_case "--sort cgroup: the cgroups of perf record --all-cgroups, by their names" '
	same_report "$(need cg.data)" --no-children --sort cgroup
	same_report "$(need cg.data)" --no-children --sort cgroup,comm,dso
	grep -q "  /" xperf.lines || fail "no cgroup named: $(cat xperf.lines)"
'

perf_case "--sort cgroup_id: the cgroup namespace of perf record --namespaces" '
	same_report "$(need ns.data)" --no-children --sort cgroup_id,comm
	grep -qv "  0/0x0" xperf.lines || fail "no namespace: $(cat xperf.lines)"
'

test_case "--sort: an unknown key is a usage error; every key at once, and perf'\''s prefixes, are not" '
	f=$(need xfork.data)
	"$R" --stdio --sort comm,nosuchkey -i "$f" >out 2>err && fail "exit 0"
	[ $? = 1 ] || fail "not a usage error"
	grep -q "unknown --sort key .nosuchkey.: use pid, comm" err || fail "message: $(cat err)"
	keys=comm,dso,sym,srcline,pid,cpu,parent,srcfile,symbol_size,dso_size,time,addr,socket
	"$R" --stdio -g none --sort $keys,cgroup,cgroup_id,ipc_null,comm -p x -i "$f" >out 2>err ||
		fail "every key (one repeated, and -p adding parent) refused: $(cat err)"
	grep -q "^# Children .*Command.*cgroup id (dev/inode)  IPC" out || fail "titles: $(head -n 12 out)"
	# perf prefixes: "so" is socket, "t" time
	"$R" --stdio --no-children --sort so,t -i "$f" >out 2>err || fail "prefixes refused: $(cat err)"
	grep -q "^# Overhead  Socket  Time" out || fail "prefixes: $(head -n 12 out)"
'

test_case "--help names every sort key there is, in the order the error lists them" '
	"$R" --sort nosuchkey -i none.data 2>err >/dev/null && fail "exit 0"
	want=$(sed -n "s/.*unknown --sort key .nosuchkey.: use //p" err | tr -d " " | tr , "\n")
	[ "$(echo "$want" | wc -l)" -ge 16 ] || fail "the error lists: $want"
	"$R" --help | tr "\n" " " | sed "s/  */ /g" |
		sed -n "s/.*--sort <KEYS> \(.*\)(default: comm,dso,sym).*/\1/p" >help
	got=$(sed "s/([^)]*)//g; s/.*a comma-separated list of //; s/;.*//" help | tr -d " " | tr , "\n")
	[ "$got" = "$want" ] || fail "--help: $(echo $got), the table: $(echo $want)"
'

test_done
