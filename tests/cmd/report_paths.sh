#!/usr/bin/env bash
# Issue 11: reports of files where every sample has its own call path (made from a real
# perf -g recording by tests/tools/xpf-paths): the same entries and stacks as perf, every
# view within 300 bytes of peak RSS per distinct path (over the flat view's, which keeps
# nothing per path), and a plain file's pages not kept once read (peak RSS of the flat view
# well under the file's size); with unresolved addresses, --no-children's rows and memory.
# bench/bench_report_paths.sh times the big ones.
. "$(dirname "$0")/lib.sh"

R=$XPERF_BUILD/xperf-report
PATHS=$XPERF_BUILD/tests/xpf-paths
WL=$XPERF_BUILD/workloads
export R PATHS WL

if [ ! -x "$PATHS" ] || [ ! -x /usr/bin/time ]; then
	skip_case "distinct-path files" "tests/xpf-paths is not built, or /usr/bin/time is absent"
	test_done
fi

# real F: a perf -g recording of shares into F
real() {
	perf_run record -q -N --no-bpf-event -g -o "$1" -- "$WL/shares" 0.3 >/dev/null 2>rec.err ||
		fail "perf record failed: $(tail -n 2 rec.err)"
}

# sized: peak RSS says something of this build (AddressSanitizer's shadow and quarantine
# would swamp it)
sized() {
	if ldd "$R" 2>/dev/null | grep -q libasan; then
		skip "an AddressSanitizer build: its peak RSS is the sanitizer's"
	fi
}

# peak_kib ARGS...: peak RSS in KiB of xperf-report ARGS (its output dropped; it must succeed)
peak_kib() {
	/usr/bin/time -f %M -o rss "$R" "$@" >/dev/null 2>err || fail "xperf-report $*: $(cat err)"
	[ ! -s err ] || fail "xperf-report $* said: $(cat err)"
	tail -n 1 rss
}
export -f real sized peak_kib

perf_case "20k distinct paths: children rows and folded stacks as perf's" '
	real r.data
	"$PATHS" -i r.data -o p.data -n 20000 >out || fail "xpf-paths failed"
	grep -q "^paths 20000 " out || fail "xpf-paths: $(cat out)"
	perf_run report --stdio --children -g none -i p.data >perf.out 2>/dev/null
	"$R" --stdio -g none -i p.data >xperf.out 2>err || fail "$(cat err)"
	diff <(grep -E "^ +[0-9]" perf.out | sort) <(grep -E "^ +[0-9]" xperf.out | sort) >d ||
		fail "children rows differ: $(head -n 6 d)"
	for o in "--children -g folded,0,caller,count" "--no-children -g folded,0,callee,count"; do
		perf_run report --stdio -q $o -i p.data 2>/dev/null | sort >perf.f
		"$R" --stdio -q $o -i p.data 2>err | sort >xperf.f
		[ "$(grep -c ";" perf.f)" -ge 20000 ] || fail "perf shows fewer than 20000 stacks with $o"
		diff perf.f xperf.f >d || fail "$o differs: $(head -n 6 d)"
	done
'

perf_case "100k distinct paths: every view within 300 bytes of peak RSS a path" '
	sized
	real r.data
	"$PATHS" -i r.data -o p.data -n 100000 >/dev/null || fail "xpf-paths failed"
	base=$(peak_kib --stdio --no-children -g none -i p.data)
	for v in "" "-g none" "--no-children" "-g folded,0"; do
		kib=$(peak_kib --stdio $v -i p.data)
		per=$(( (kib - base) * 1024 / 100000 ))
		echo "${v:-children + graph}: $kib KiB, flat view $base KiB: $per bytes/path"
		[ "$per" -le 300 ] || fail "${v:-children + graph}: $per bytes per path (over 300)"
	done
'

# Issue 20: frames at addresses of their own (xpf-paths -u), every frame an entry. perf's
# --no-children makes entries of the samples' own ips only, the chains below them; xperf
# made one per frame of every path too (2.2 KB a path), now only the paths' own (1.1 KB).
perf_case "unresolved addresses: --no-children rows as perf, entries the paths' own only" '
	real r.data
	"$PATHS" -u -i r.data -o u.data -n 20000 >/dev/null || fail "xpf-paths -u failed"
	perf_run report --stdio --no-children -i u.data >perf.out 2>/dev/null
	"$R" --stdio --no-children -i u.data >xperf.out 2>err || fail "$(cat err)"
	[ "$(grep -cE "^ +[0-9]" perf.out)" -ge 20000 ] || fail "perf shows under 20000 rows"
	diff <(grep -E "^ +[0-9]" perf.out) <(grep -E "^ +[0-9]" xperf.out) >d ||
		fail "rows differ: $(head -n 6 d)"
	sized
	"$PATHS" -u -i r.data -o u.data -n 50000 >/dev/null || fail "xpf-paths -u failed"
	base=$(peak_kib --stdio --no-children -g none -i u.data)
	kib=$(peak_kib --stdio --no-children -i u.data)
	per=$(( (kib - base) * 1024 / 50000 ))
	echo "--no-children: $kib KiB, flat view $base KiB: $per bytes/path"
	[ "$per" -le 1500 ] || fail "--no-children: $per bytes per path (over 1500)"
'

perf_case "a plain file is not kept in memory once read (flat view under half its size)" '
	sized
	real r.data
	"$PATHS" -i r.data -o p.data -n 500000 >/dev/null || fail "xpf-paths failed"
	size=$(( $(stat -c %s p.data) >> 10 ))
	kib=$(peak_kib --stdio --no-children -g none -i p.data)
	echo "file $size KiB, peak RSS $kib KiB"
	[ $((kib * 2)) -lt "$size" ] || fail "peak RSS $kib KiB for a $size KiB file"
'

test_done
