#!/usr/bin/env bash
# Debug files from a real debuginfod server (elfutils' `debuginfod`, Debian package
# debuginfod) on 127.0.0.1: a stripped copy of the debuglink workload (no .symtab, no DWARF,
# no .gnu_debuglink: only its build-id says which debug file it needs) is recorded, the
# server serves a folder holding its debug file (objcopy --only-keep-debug), and report,
# script and annotate must name its functions, lines and source as perf does reading the
# unstripped binary. With the server stopped: one warning, the stripped file's own symbols,
# and no wait. lib.sh gives the suite an empty HOME and XDG_CACHE_HOME, so libdebuginfod's
# cache ($XDG_CACHE_HOME/debuginfod_client) starts empty.
. "$(dirname "$0")/lib.sh"

R=$XPERF_BUILD/xperf-report
S=$XPERF_BUILD/xperf-script
A=$XPERF_BUILD/xperf-annotate
FULL=$XPERF_BUILD/obj/tests/workloads/debuglink.full
F=$TEST_TMP/files
mkdir -p "$F/srv"
export R S A F

if [ ! -x "$FULL" ]; then
	skip_case "debuginfod" "$FULL is not built"
	test_done
fi

# A build without libdebuginfod (CI's nolibs build): --debuginfod says it cannot ask, once;
# DEBUGINFOD_URLS alone is ignored without a word, as perf built without it ignores it.
if ! "$XPERF_BUILD/xperf" version 2>/dev/null | grep -q '+libdebuginfod'; then
	strip --strip-all -o "$F/prog" "$FULL"
	"$XPERF_BUILD/xperf-record" -q -o "$F/x.data" -- "$F/prog" 0.2 >/dev/null 2>"$F/x.err"
	test_case "without libdebuginfod: --debuginfod gives one warning saying so" '
		[ -s $F/x.data ] || skip "no recording ($(tail -n 1 $F/x.err))"
		for cmd in "$R --stdio" "$S"; do
			$cmd --debuginfod=http://127.0.0.1:9 -i $F/x.data >out 2>err
			[ "$(wc -l <err)" -eq 1 ] || fail "$cmd: not one line: $(cat err)"
			grep -q "built without libdebuginfod" err || fail "$cmd: $(cat err)"
			DEBUGINFOD_URLS=http://127.0.0.1:9 $cmd -i $F/x.data >out 2>err
			[ ! -s err ] || fail "$cmd: DEBUGINFOD_URLS alone warns: $(cat err)"
		done
	'
	test_done
fi
if ! command -v debuginfod >/dev/null 2>&1; then
	skip_case "debuginfod" "the debuginfod server is not installed (Debian package debuginfod)"
	test_done
fi

# The stripped program and its debug file, which only the server has.
cp "$FULL" "$F/prog.full"
objcopy --only-keep-debug "$F/prog.full" "$F/srv/prog.debug"
strip --strip-all -o "$F/prog" "$F/prog.full"
BUILD_ID=$(readelf -n "$F/prog" | sed -n 's/.*Build ID: //p')
# and a C++ one with functions that exist only inlined (cxx_inline), for inline frames
if [ -x "$XPERF_BUILD/workloads/cxx_inline" ]; then
	objcopy --only-keep-debug "$XPERF_BUILD/workloads/cxx_inline" "$F/srv/cxx.debug"
	strip --strip-all -o "$F/cxx" "$XPERF_BUILD/workloads/cxx_inline"
fi
# perf's oracle reads the unstripped binary at the recorded path under --symfs (same build-id)
mkdir -p "$F/symfs$F"
cp "$F/prog.full" "$F/symfs$F/prog"
export BUILD_ID

# A free port on 127.0.0.1 (asked of the kernel), and the server over srv/; it is up once it
# serves the debug file (its first scan indexes the folder), within 30 s.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
PORT= SRV_PID=
start_server() {
	local i
	for i in 1 2 3; do
		PORT=$(free_port)
		debuginfod -F -d "$F/db.sqlite" -p "$PORT" -t 0 -g 0 "$F/srv" >"$F/server.log" 2>&1 &
		SRV_PID=$!
		for _ in $(seq 1 150); do
			python3 - "$PORT" "$BUILD_ID" 2>/dev/null <<-'EOF' && return 0
			import sys, urllib.request
			u = "http://127.0.0.1:%s/buildid/%s/debuginfo" % (sys.argv[1], sys.argv[2])
			sys.exit(0 if urllib.request.urlopen(u, timeout=2).status == 200 else 1)
			EOF
			kill -0 "$SRV_PID" 2>/dev/null || break
			sleep 0.2
		done
		kill "$SRV_PID" 2>/dev/null; wait "$SRV_PID" 2>/dev/null
		SRV_PID=
	done
	return 1
}
stop_server() {
	[ -n "$SRV_PID" ] || return 0
	kill "$SRV_PID" 2>/dev/null || :
	wait "$SRV_PID" 2>/dev/null || :
	SRV_PID=
}
trap 'stop_server; rm -rf "$TEST_TMP"' EXIT
# no server anywhere unless a case names one (lib.sh unsets DEBUGINFOD_URLS); no proxy
# between us and 127.0.0.1
unset DEBUGINFOD_PROGRESS DEBUGINFOD_VERBOSE
export no_proxy=127.0.0.1 NO_PROXY=127.0.0.1

if ! start_server; then
	skip_case "debuginfod" "the debuginfod server did not start: $(tail -n 3 "$F/server.log")"
	test_done
fi
URL=http://127.0.0.1:$PORT
export URL

if have_perf; then
	perf_run record -q -N --no-bpf-event -o "$F/perf.data" -- "$F/prog" 0.5 >/dev/null 2>"$F/perf.err"
fi
"$XPERF_BUILD/xperf-record" -q -o "$F/x.data" -- "$F/prog" 0.5 >/dev/null 2>"$F/x.err"
if [ -x "$F/cxx" ]; then
	"$XPERF_BUILD/xperf-record" -q -g -o "$F/cxx.data" -- "$F/cxx" 0.5 >/dev/null 2>"$F/cxx.err"
fi

# entries DATA: perf's and our stdio report rows of prog, header and blank lines left out
entries() { grep -v '^#' "$1" | grep -v '^$'; }
export -f entries

# Each case has a cache of its own (empty: everything comes from the server).
fresh_cache() { export XDG_CACHE_HOME=$PWD/cache; }
export -f fresh_cache

for f in perf x; do
	test_case "report: the stripped program's functions from the server ($f.data)" "
		[ -s $F/$f.data ] || skip 'no recording ($(tail -n 1 "$F/$f.err" 2>/dev/null))'
		fresh_cache
		DEBUGINFOD_URLS=\$URL \$R --stdio --no-children --sort dso,sym --dsos prog \
			-i $F/$f.data >out 2>err
		grep -qE '\[\.\] dl_work_a\$' out || fail \"no dl_work_a: \$(head -n 20 out)\"
		grep -qE '\[\.\] dl_work_b\$' out || fail 'no dl_work_b'
		[ ! -s err ] || fail \"warnings: \$(cat err)\"
		# the file is in libdebuginfod's cache now
		[ -s cache/debuginfod_client/\$BUILD_ID/debuginfo ] || fail 'not in the cache'
	"
done

perf_case "report: the same entries as perf reading the unstripped binary" '
	[ -s $F/perf.data ] || skip "no perf recording"
	fresh_cache
	perf_run report --stdio --no-children --sort dso,sym --dsos prog --symfs $F/symfs \
		-i $F/perf.data >theirs 2>/dev/null
	DEBUGINFOD_URLS=$URL $R --stdio --no-children --sort dso,sym --dsos prog \
		-i $F/perf.data >ours
	grep -q "dl_work_a" theirs || fail "perf does not name dl_work_a under --symfs: no oracle"
	entries theirs >t; entries ours >o
	diff t o || fail "entries differ"
'

perf_case "report --sort srcline: the lines perf reads in the unstripped binary" '
	[ -s $F/perf.data ] || skip "no perf recording"
	fresh_cache
	perf_run report --stdio --no-children --sort sym,srcline --dsos prog --symfs $F/symfs \
		-i $F/perf.data >theirs 2>/dev/null
	DEBUGINFOD_URLS=$URL $R --stdio --no-children --sort sym,srcline --dsos prog \
		-i $F/perf.data >ours
	line=$(grep -n "void dl_work_a(" $TOP/tests/workloads/debuglink.c | cut -d: -f1)
	grep -qE "\[\.\] dl_work_a +debuglink.c:$line\$" ours || fail "no dl_work_a at debuglink.c:$line"
	grep -q "debuglink.c:" theirs || fail "perf names no line: no oracle"
	# the rows of at least 1% (a sample or two may sit on either side of a line boundary)
	big() { entries "$1" | awk "{ p = \$1; sub(/%/, \"\", p) } p + 0 >= 1" |
		sed "s/^ *[0-9.]*% *//"; }
	big theirs >t; big ours >o
	diff t o || fail "lines differ"
'

test_case "inline frames from the server's file, with --debuginfod=URLS (no DEBUGINFOD_URLS)" '
	[ -s $F/cxx.data ] || skip "no cxx_inline recording ($(tail -n 1 $F/cxx.err 2>/dev/null))"
	fresh_cache
	$R --stdio --no-children -g folded,0,callee --inline --debuginfod=$URL \
		-i $F/cxx.data >out 2>err
	grep -qE "^[0-9.]+% hot_inlined \(inlined\);work::inline_host(;|\$)" out ||
		fail "no hot_inlined (inlined) on top of work::inline_host: $(grep -m3 inline_host out)"
	[ ! -s err ] || fail "warnings: $(cat err)"
'

test_case "the same call graph as the unstripped binary's (cxx_inline, --inline)" '
	[ -s $F/cxx.data ] || skip "no cxx_inline recording"
	fresh_cache
	mkdir -p symfs$F
	cp $XPERF_BUILD/workloads/cxx_inline symfs$F/cxx
	$R --stdio --no-children -g folded,0,callee --inline --dsos cxx --symfs $PWD/symfs \
		-i $F/cxx.data >full
	DEBUGINFOD_URLS=$URL $R --stdio --no-children -g folded,0,callee --inline --dsos cxx \
		-i $F/cxx.data >fetched
	grep -q "inline_host" full || fail "no inline_host from the unstripped binary"
	# --symfs hides libc from the first (it is not under symfs): the frames below main go,
	# and so do the stacks that never reach main (a sample in a PLT stub, whose caller the
	# frame pointers skip, goes on in libc), which the two name differently
	for f in full fetched; do
		awk "!/;/ || /[; ]main(;|\$)/" $f | sed -E "s/([; ])main;.*/\1main/" >$f.cut
	done
	grep -q "inline_host" full.cut || fail "no inline_host left to compare"
	diff full.cut fetched.cut || fail "the fetched debug file gives another report"
'

test_case "script names the functions from the server's file" '
	[ -s $F/x.data ] || skip "no recording"
	fresh_cache
	DEBUGINFOD_URLS=$URL $S -F ip,sym,dso -i $F/x.data >out 2>err
	grep -qE "dl_work_a .*\(.*/prog\)" out || fail "no dl_work_a: $(head -n 5 out)"
'

test_case "annotate shows the source lines of the server's file" '
	[ -s $F/x.data ] || skip "no recording"
	fresh_cache
	DEBUGINFOD_URLS=$URL $A --stdio dl_work_a -i $F/x.data >out 2>err
	grep -qE "^ *: [0-9]+ .*void dl_work_a\(uint64_t n\)" out ||
		fail "no source line of dl_work_a: $(head -n 20 out)"
'

test_case "no server named: no symbols, no warning, nothing asked" '
	[ -s $F/x.data ] || skip "no recording"
	fresh_cache
	$R --stdio --no-children --sort sym --dsos prog -i $F/x.data >out 2>err
	! grep -q dl_work_a out || fail "dl_work_a named without a server"
	[ ! -s err ] || fail "warnings: $(cat err)"
	[ ! -e cache/debuginfod_client ] || fail "libdebuginfod was started"
'

test_case "--no-debuginfod: DEBUGINFOD_URLS is not asked" '
	[ -s $F/x.data ] || skip "no recording"
	fresh_cache
	DEBUGINFOD_URLS=$URL $R --stdio --no-children --sort sym --no-debuginfod \
		-i $F/x.data >out 2>err
	! grep -q dl_work_a out || fail "dl_work_a named"
	[ ! -e cache/debuginfod_client ] || fail "libdebuginfod was asked"
'

# The file fetched once into a cache, for the case after the server stopped
if [ -s "$F/x.data" ]; then
	XDG_CACHE_HOME=$F/warm DEBUGINFOD_URLS=$URL "$R" --stdio -i "$F/x.data" >/dev/null 2>&1 || :
fi
# From here on the server is stopped: nobody listens on its port
stop_server

test_case "the server stopped: one warning, the symbol table, no wait" '
	[ -s $F/x.data ] || skip "no recording"
	fresh_cache
	t0=$(date +%s%N)
	rc=0
	DEBUGINFOD_URLS=$URL timeout 60 $R --stdio --no-children --sort sym --inline \
		-i $F/x.data >out 2>err || rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ $rc -eq 0 ] || fail "exit $rc: $(cat err)"
	[ "$(grep -c debuginfod err)" -eq 1 ] || fail "not one warning: $(cat err)"
	[ "$(wc -l <err)" -eq 1 ] || fail "more than the warning: $(cat err)"
	grep -q "$URL" err || fail "the warning names no server: $(cat err)"
	! grep -q dl_work_a out || fail "dl_work_a named without the debug file"
	# the stripped file keeps its .dynsym, which names none of its functions: its samples
	# are shown by address, as perf shows them
	grep -qE "\[\.\] 0x0" out || fail "no address entry: $(head -n 20 out)"
	[ $ms -lt 5000 ] || fail "took $ms ms"
'

test_case "a server that never answers: one wait of DEBUGINFOD_TIMEOUT (default 5 s), one warning" '
	[ -s $F/x.data ] || skip "no recording"
	fresh_cache
	python3 -c "
import socket
s = socket.socket(); s.bind((\"127.0.0.1\", 0)); s.listen(8)
print(s.getsockname()[1], flush=True)
conns = []
while True:
    c, _ = s.accept(); conns.append(c)
" >port &
	pid=$!
	for _ in $(seq 50); do [ -s port ] && break; sleep 0.1; done
	t0=$(date +%s%N)
	rc=0
	DEBUGINFOD_URLS=http://127.0.0.1:$(cat port) timeout 60 $R --stdio --no-children \
		--sort sym,srcline -i $F/x.data >out 2>err || rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	kill $pid
	[ $rc -eq 0 ] || fail "exit $rc: $(cat err)"
	[ "$(wc -l <err)" -eq 1 ] && grep -q "timed out" err || fail "not one warning: $(cat err)"
	[ $ms -ge 4500 ] && [ $ms -lt 8000 ] || fail "took $ms ms"
'

test_case "the server stopped, the file in the cache: symbols from the cache" '
	[ -s $F/warm/debuginfod_client/$BUILD_ID/debuginfo ] || skip "the file was not fetched"
	DEBUGINFOD_URLS=$URL XDG_CACHE_HOME=$F/warm $R --stdio --no-children --sort sym \
		-i $F/x.data >out 2>err
	grep -q dl_work_a out || fail "no dl_work_a from the cache"
	[ ! -s err ] || fail "warnings: $(cat err)"
'

test_done
