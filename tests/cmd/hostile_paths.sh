#!/usr/bin/env bash
# Files a profile names that are not what they claim: a mapped file that is now a FIFO, a
# symlink to /dev/zero, a directory or absurdly large; a /tmp/perf-PID.map that is a FIFO,
# a link to /dev/zero or another user's; --kallsyms naming such a file. Every reading
# command (report --stdio, script, annotate, report --pprof) finishes at once (a hang is a
# timeout here, never a hung suite), says so in one warning line naming the file (an error
# for --kallsyms), and stays small.
. "$(dirname "$0")/lib.sh"

SYNTH=$XPERF_BUILD/tests/xpf-synth
# peak RSS allowed to any run (KB): xperf needs ~10 MB here (more under ASan); a reader
# of /dev/zero passes it within a second
RSS_MAX_KB=200000
LIMIT=20
export SYNTH RSS_MAX_KB LIMIT

# mkdata: dso.data, 300 samples in ./dso (a copy of xpf-synth, which wrote it), and
# anon.data, the same samples in anonymous memory ("//anon": perf's /tmp/perf-PID.map);
# $pid is the pid the files name, $map its map file
mkdata() {
	cp "$SYNTH" dso
	./dso -o dso.data --no-compress -n 300 >/dev/null
	pid=$(python3 - "$PWD/dso" <<'EOF'
import struct, sys
d = bytearray(open("dso.data", "rb").read())
p = sys.argv[1].encode() + b"\0"
i = d.find(p)
assert i > 0 and d.find(p, i + 1) < 0, "the MMAP2 file name is not in dso.data once"
# MMAP2: header (8), pid, tid, start, len, pgoff, maj, min, ino, ino_generation, prot,
# flags, then the file name at 72
print(struct.unpack_from("<I", d, i - 64)[0])
d[i:i + len(p)] = b"//anon".ljust(len(p), b"\0")
open("anon.data", "wb").write(d)
EOF
)
	[ -n "$pid" ] || fail "cannot make anon.data"
	map=/tmp/perf-$pid.map
	[ ! -e "$map" ] || skip "$map exists already (another process's)"
	trap 'rm -f "$map"' EXIT
}

# run_cmd NAME ARGS...: run xperf-NAME ARGS under the time limit; sets $rc, leaves stdout
# in out, stderr in err and the peak RSS (KB, of the command or what timeout killed) in rss
run_cmd() {
	local name=$1
	shift
	rc=0
	/usr/bin/time -f %M -o rss timeout $LIMIT "$XPERF_BUILD/xperf-$name" "$@" >out 2>err ||
		rc=$?
	[ $rc -ne 124 ] || fail "xperf $name $* hangs (killed after ${LIMIT}s)"
	[ "$(tail -n 1 rss)" -le $RSS_MAX_KB ] ||
		fail "xperf $name $*: peak RSS $(tail -n 1 rss) KB (bound $RSS_MAX_KB)"
}

# refused FILE PATH WHY: every reading command finishes on FILE with one warning line
# saying PATH was refused for WHY (samples shown by address), and no other line naming it
refused() {
	local file=$1 path=$2 why=$3 args
	for args in "report --stdio" "script" "annotate --stdio" "report --pprof p.pb"; do
		run_cmd $args -i "$file"
		case $args in
		annotate*)
			# no sample resolves to a symbol: nothing to annotate, as before
			[ $rc -eq 2 ] && grep -q "has no samples in symbols to annotate" err ||
				fail "xperf $args: exit $rc: $(cat err)" ;;
		*)	[ $rc -eq 0 ] || fail "xperf $args: exit $rc: $(cat err)" ;;
		esac
		[ "$(grep -c -F -- "$path" err)" -eq 1 ] &&
			grep -q -F -- "warning: '$path': $why: its samples are shown by address" err ||
			fail "xperf $args: not one warning for '$path' ($why): $(cat err)"
	done
	# -q: no warning
	run_cmd script -q -i "$file"
	! grep -q -F -- "$path" err || fail "xperf script -q warns: $(cat err)"
}

# resolved FILE SYMBOL: report and script name SYMBOL, and warn of nothing
resolved() {
	local args
	for args in "report --stdio" "script"; do
		run_cmd $args -i "$1"
		[ $rc -eq 0 ] || fail "xperf $args: exit $rc: $(cat err)"
		grep -q "$2" out || fail "xperf $args: no $2: $(head out)"
		[ ! -s err ] || fail "xperf $args: stderr: $(cat err)"
	done
}
export -f mkdata run_cmd refused resolved

if [ ! -x "$SYNTH" ] || [ ! -x /usr/bin/time ] || ! command -v python3 >/dev/null; then
	skip_case "hostile paths" "tests/xpf-synth is not built, or /usr/bin/time or python3 is absent"
	test_done
fi

test_case "a mapped file that is a FIFO: refused unread, one warning" '
	mkdata
	resolved dso.data synth_hot
	rm dso && mkfifo dso
	refused dso.data "$PWD/dso" "a FIFO, not a regular file"
'

test_case "a mapped file that is a symlink to /dev/zero: refused, one warning" '
	mkdata
	rm dso && ln -s /dev/zero dso
	refused dso.data "$PWD/dso" "a character device, not a regular file"
'

test_case "a mapped file that is a directory: refused, one warning" '
	mkdata
	rm dso && mkdir dso
	refused dso.data "$PWD/dso" "a directory, not a regular file"
'

test_case "a mapped file larger than 8 GiB (sparse): refused, one warning" '
	mkdata
	truncate -s 9G dso
	refused dso.data "$PWD/dso" "larger than 8192 MiB"
'

test_case "perf-PID.map that is a FIFO: refused, one warning" '
	mkdata
	printf "0 ffffffffffffffff jitted_all\n" >"$map"
	resolved anon.data jitted_all
	rm "$map"
	mkfifo "$map"
	refused anon.data "$map" "a FIFO, not a regular file"
'

test_case "perf-PID.map that is a symlink to /dev/zero: refused, memory bounded" '
	mkdata
	ln -s /dev/zero "$map"
	refused anon.data "$map" "a character device, not a regular file"
'

test_case "perf-PID.map larger than 256 MiB (sparse): refused, one warning" '
	mkdata
	truncate -s 300M "$map"
	refused anon.data "$map" "larger than 256 MiB"
'

if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	test_case "perf-PID.map owned by another user: refused, one warning" '
		mkdata
		printf "0 ffffffffffffffff planted\n" >"$map"
		resolved anon.data planted
		chown nobody "$map"
		refused anon.data "$map" "owned by another user (uid $(id -u nobody)), not by you or root"
		! grep -q planted out || fail "the planted symbol was shown"
	'
else
	skip_case "perf-PID.map owned by another user" "needs root (chown) and a user nobody"
fi

# Files the loaders are led to from a file the profile names: a .gnu_debuglink debug file,
# a build-id cache entry. Refused unread like the named file itself, with one warning line
# naming each in every view (none with -q).
W=$XPERF_BUILD/workloads
export W
# led_to FILE PATH: every reading command finishes on FILE with one warning naming PATH as
# a FIFO refused unread; -q says nothing of it
led_to() {
	local file=$1 path=$2 args
	for args in "report --stdio" "script" "annotate --stdio -d debuglink" \
		    "report --pprof p.pb" "report --flamegraph f.svg"; do
		run_cmd $args -i "$file"
		[ $rc -lt 124 ] || fail "xperf $args: exit $rc: $(cat err)"
		[ "$(grep -c -F -- "$path" err)" -eq 1 ] &&
			grep -q -F -- "warning: '$path': a FIFO, not a regular file: refused unread" err ||
			fail "xperf $args: not one warning for '$path': $(cat err)"
	done
	run_cmd script -q -i "$file"
	! grep -q -F -- "$path" err || fail "xperf script -q warns: $(cat err)"
}
export -f led_to

test_case "a debug file (.gnu_debuglink) that is a FIFO: refused unread, one warning in every view" '
	[ -x $W/debuglink ] || skip "$W/debuglink is not built"
	cp $W/debuglink $W/debuglink.debug .
	"$XPERF_BUILD/xperf" record -q -o dl.data -- ./debuglink 0.3 >/dev/null 2>&1 ||
		skip "xperf record cannot record here"
	run_cmd report --stdio -i dl.data
	grep -q dl_work_a out || skip "no samples in dl_work_a: $(head -n 20 out)"
	rm debuglink.debug && mkfifo debuglink.debug
	led_to dl.data "$PWD/debuglink.debug"
'

test_case "a build-id cache entry that is a FIFO: refused unread, one warning in every view" '
	[ -x $W/debuglink ] || skip "$W/debuglink is not built"
	cp $W/debuglink .
	"$XPERF_BUILD/xperf" record -q -o dl.data -- ./debuglink 0.3 >/dev/null 2>&1 ||
		skip "xperf record cannot record here"
	id=$(readelf -n debuglink | sed -n "s/.*Build ID: //p")
	[ -n "$id" ] || skip "the workload has no build-id"
	# the recorded file is gone (another one in its place): the cache entry is looked up
	cp "$(type -P true)" debuglink
	entry=$HOME/.debug/.build-id/${id:0:2}/${id:2}/elf
	mkdir -p "$(dirname "$entry")" && mkfifo "$entry"
	led_to dl.data "$entry"
'

# --kallsyms FILE: not a regular, bounded file: one error line naming it, exit 2 (perf:
# "Invalid file"), for every command that takes it
kallsyms_refused() {
	local k=$1 why=$2 args
	for args in "report --stdio" "script" "annotate --stdio"; do
		run_cmd $args --kallsyms "$k" -i dso.data
		[ $rc -eq 2 ] || fail "xperf $args --kallsyms $k: exit $rc: $(cat err)"
		[ "$(wc -l <err)" -eq 1 ] && grep -q -F -- "error: kallsyms file '$k': $why" err ||
			fail "xperf $args --kallsyms $k: $(cat err)"
		[ ! -s out ] || fail "xperf $args --kallsyms $k printed a report: $(head -n 3 out)"
	done
}
export -f kallsyms_refused

test_case "--kallsyms of a missing file, a directory, /dev/zero, a FIFO: an error" '
	mkdata
	printf "ffffffff81000000 T _stext\n" >k
	run_cmd report --stdio --kallsyms k -i dso.data
	[ $rc -eq 0 ] && grep -q synth_hot out || fail "--kallsyms k: exit $rc: $(cat err)"
	mkdir d && mkfifo f
	kallsyms_refused /nonexistent "No such file or directory"
	kallsyms_refused "$PWD/d" "a directory, not a regular file"
	kallsyms_refused /dev/zero "a character device, not a regular file"
	kallsyms_refused "$PWD/f" "a FIFO, not a regular file"
'

test_done
