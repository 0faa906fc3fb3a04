#!/usr/bin/env bash
# Parity on real programs nobody here wrote: python3, gcc's cc1, xz, sqlite3, node (with
# --perf-basic-prof), a C++ program (cc1plus), a libc-heavy one (sort), git and perf itself,
# each recorded by perf with frame pointers (-g) and with --call-graph dwarf. On every file
# `xperf report` and `perf report` print the same views, and the table gives the share of
# identical lines per view (LCS of the two outputs over the longer one) and the share of
# samples whose script chain matches perf's (whole, or deeper where perf's stops early).
# Not part of `make bench` (minutes of perf addr2line): run it alone.
#   bash bench/parity_real.sh [PROGRAM...]     (PARITY_DIR keeps the files and outputs)
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
X=$BUILD/xperf
D=${PARITY_DIR:-/tmp/xperf-parity}
FREQ=${FREQ:-997}
TMO=${TMO:-600}
mkdir -p "$D/work"
command -v perf >/dev/null || { echo "perf is absent: nothing to compare against"; exit 0; }
[ -x "$X" ] || { echo "$X is not built"; exit 1; }

# Inputs the programs work on, made once.
W=$D/work
[ -s "$W/lines" ] || seq 1 400000 | awk '{ srand($1); printf "%08x %s\n", rand() * 2^31, $1 }' >"$W/lines"
[ -s "$W/blob" ] || cat /usr/bin/perf /usr/bin/gdb 2>/dev/null | head -c 6000000 >"$W/blob"
# one C file that stands alone: the largest of ours, preprocessed
[ -s "$W/c.i" ] || gcc -E -D_GNU_SOURCE -Isrc -I"$BUILD" src/profile/pass.c >"$W/c.i"
cat >"$W/cxx.cc" <<'EOF'
#include <map>
#include <string>
#include <vector>
#include <algorithm>
#include <regex>
#include <iostream>
std::map<std::string, std::vector<int>> f(int n) {
	std::map<std::string, std::vector<int>> m;
	for (int i = 0; i < n; i++) m[std::to_string(i % 97)].push_back(i);
	std::regex r("[0-9]+");
	for (auto &kv : m) std::sort(kv.second.rbegin(), kv.second.rend());
	return m;
}
int main() { std::cout << f(1000).size() << "\n"; }
EOF
cat >"$W/py.py" <<'EOF'
import json, re
d = {}
for i in range(300000):
    d[str(i)] = [i, i * 2, {"k": i}]
s = json.dumps(d)
print(len(re.findall(r'"k": (\d+)', s)), len(json.loads(s)))
EOF
cat >"$W/js.js" <<'EOF'
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
let s = 0; const o = {};
for (let i = 0; i < 200000; i++) { o["k" + (i % 1000)] = JSON.stringify({ i }); }
for (let i = 0; i < 26; i++) s += fib(i);
console.log(s, Object.keys(o).length);
EOF
[ -s "$W/perf.data" ] || perf record -q -N -g -o "$W/perf.data" -- sort "$W/lines" >/dev/null 2>&1

# NAME: the command line recording runs (empty when its program is missing)
cmd_of() {
	case $1 in
	python3) command -v /usr/bin/python3 >/dev/null && echo "/usr/bin/python3 $W/py.py" ;;
	cc1) command -v gcc >/dev/null && echo "gcc -O2 -w -c $W/c.i -o /dev/null" ;;
	xz) command -v xz >/dev/null && echo "xz -T1 -6 -c $W/blob" ;;
	sqlite3) command -v sqlite3 >/dev/null &&
		echo "sqlite3 :memory: \"create table t(a,b); with recursive c(x) as (select 1 union all select x+1 from c limit 300000) insert into t select x, hex(randomblob(8)) from c; create index i on t(b); select count(*), max(b) from t group by a % 7;\"" ;;
	node) command -v node >/dev/null && echo "node --perf-basic-prof $W/js.js" ;;
	cxx) command -v g++ >/dev/null && echo "g++ -O1 -w -c $W/cxx.cc -o /dev/null" ;;
	sort) echo "sort -S 64M $W/lines" ;;
	git) command -v git >/dev/null && echo "git -C $PWD log -p -n 400 --stat" ;;
	perf) echo "perf report --stdio -i $W/perf.data" ;;
	esac
}

# count of lines the two files share (GNU diff's LCS), and the share over the longer one;
# perf's random "# (Tip: ...)" line is left out
same_pct() { # PERF XPERF
	local np nx rm
	grep -v '^# (Tip:' "$1" >"$1.cmp"
	grep -v '^# (Tip:' "$2" >"$2.cmp"
	np=$(wc -l <"$1.cmp")
	nx=$(wc -l <"$2.cmp")
	rm=$(diff --speed-large-files "$1.cmp" "$2.cmp" | grep -c '^< ')
	awk -v c=$((np - rm)) -v a="$np" -v b="$nx" 'BEGIN { m = a > b ? a : b;
		if (m == 0) print "-"; else printf "%.1f", 100 * c / m }'
}

# share of samples whose chain (the addresses of the frame lines of `script`, a run of one
# address counted once: inlined frames share their host's) equals perf's, or goes on where
# perf's stops (perf ends a chain it could not finish with ffffffffffffffff [unknown]);
# samples are matched in file order
chain_pct() { # PERF-SCRIPT XPERF-SCRIPT
	python3 - "$1" "$2" <<'EOF'
import sys
def samples(p):
    out, cur = [], None
    for line in open(p, errors="replace"):
        if not line.strip():
            cur = None
            continue
        if line[0] not in " \t":
            cur = []
            out.append(cur)
        elif cur is not None:
            ip = line.split()[0]
            if not cur or cur[-1] != ip:
                cur.append(ip)
    return out
a, b = samples(sys.argv[1]), samples(sys.argv[2])
ok = deeper = 0
for c, d in zip(a, b):
    if d == c:
        ok += 1
        continue
    if c and c[-1] == "ffffffffffffffff":
        c = c[:-1]
    if len(d) > len(c) and d[:len(c)] == c:
        deeper += 1
if not a:
    print("-")
else:
    print("%.1f%s" % (100.0 * (ok + deeper) / len(a), " (%d deeper)" % deeper if deeper else ""))
EOF
}

VIEWS="children nochildren gnone srcline script"
# perf 6.1 names a function met in a chain by its DWARF alias as "(inlined)" (addr2line's
# answer: __GI___libc_malloc (inlined) for malloc); we keep the symbol (xperf-report(1)).
# DWARF files are read with --no-inline on both sides unless DWARF_ARGS says otherwise.
DWARF_ARGS=${DWARF_ARGS---no-inline}
view_args() {
	case $1 in
	children) echo "report --stdio --children" ;;
	nochildren) echo "report --stdio --no-children" ;;
	gnone) echo "report --stdio --no-children -g none" ;;
	srcline) echo "report --stdio --no-children -g none --sort srcline" ;;
	script) echo "script" ;;
	esac
}

progs=${*:-python3 cc1 xz sqlite3 node cxx sort git perf}
printf '%-8s %-5s %7s' program mode samples
for v in $VIEWS; do printf ' %10s' "$v"; done
printf '  %s\n' chains
for p in $progs; do
	c=$(cmd_of "$p")
	[ -n "$c" ] || { echo "$p: not installed, skipped"; continue; }
	for mode in fp dwarf; do
		f=$D/$p.$mode.data
		o=$D/$p.$mode
		[ $mode = dwarf ] && [ -n "$DWARF_ARGS" ] && o=$o$(echo "$DWARF_ARGS" | tr -d ' =')
		mkdir -p "$o"
		if [ ! -s "$f" ]; then
			if [ $mode = fp ]; then cg="-g"; else cg="--call-graph dwarf"; fi
			(cd "$W" && eval "perf record -q -N -F $FREQ $cg -o $f -- $c" >/dev/null 2>"$o/record.err") ||
				{ echo "$p $mode: perf record failed: $(tail -n 1 "$o/record.err")"; continue; }
		fi
		n=$(perf report --stats -i "$f" 2>/dev/null | awk '/^Aggregated/ { a = 1 } a && $1 == "SAMPLE" { print $3; exit }')
		printf '%-8s %-5s %7s' "$p" "$mode" "${n:-?}"
		for v in $VIEWS; do
			a=$(view_args "$v")
			[ $mode = dwarf ] && a="$a $DWARF_ARGS"
			[ -s "$o/$v.perf" ] || timeout "$TMO" perf $a -i "$f" >"$o/$v.perf" 2>/dev/null ||
				{ printf ' %10s' "perf:$?"; rm -f "$o/$v.perf"; continue; }
			timeout "$TMO" "$X" $a -i "$f" >"$o/$v.xperf" 2>"$o/$v.xperf.err" ||
				{ printf ' %10s' "xperf:$?"; continue; }
			printf ' %10s' "$(same_pct "$o/$v.perf" "$o/$v.xperf")"
		done
		if [ -s "$o/script.perf" ] && [ -s "$o/script.xperf" ]; then
			printf '  %s\n' "$(chain_pct "$o/script.perf" "$o/script.xperf")"
		else
			printf '  -\n'
		fi
	done
done
echo "(per view: % of identical lines; chains: % of samples matching perf's; dwarf files"
echo " read with '$DWARF_ARGS' on both sides; $D keeps the files and outputs)"
