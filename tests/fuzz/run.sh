#!/usr/bin/env bash
# Fuzz with libFuzzer: the perf.data reader alone (fuzz_reader.c), the tracepoint format
# check against libtraceevent (fuzz_tpformat.c), and every reading command whole, the pass
# and its views (fuzz_pass.c).
#
#   tests/fuzz/run.sh short [reader|tpformat|pass]   bounded runs (FUZZ_SECONDS each, default 20) in a
#                             scratch corpus; used by tests/run.sh, prints one ok / not ok /
#                             skip line per target
#   tests/fuzz/run.sh long [reader|tpformat|pass]    make fuzz: FUZZ_SECONDS each (default 600), the
#                             corpus kept in tests/fuzz/corpus-work{,-pass}/ so runs build on
#                             each other
#
# Seeds: tests/corpus/{good,bad,bad-samples,truncated,fuzz-found} and, for the pass,
# tests/fuzz/corpus-pass/ (recordings of every kind, see its MANIFEST). The pass replays
# every seed first, so a short run takes at least that long.
# A crash, sanitizer report, leak, timeout or memory past the limit leaves its input in
# $BUILD/fuzz/artifacts/; replay it with: $BUILD/fuzz/fuzz_reader FILE (or fuzz_pass FILE,
# after `. tests/fuzz/seedprog.sh; seedprog_install`, from the top of the tree).
set -u
cd "$(dirname "$0")/../.."
mode=${1:-short}
only=${2:-}
BUILD=${BUILD:-build}
case "$mode" in
short) secs=${FUZZ_SECONDS:-20} ;;
long) secs=${FUZZ_SECONDS:-600} ;;
*) echo "usage: $0 short|long [reader|tpformat|pass]" >&2; exit 1 ;;
esac
FUZZ_CC=${FUZZ_CC:-clang}
. tests/fuzz/seedprog.sh

probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
failed=0

skip_all() { for t in reader tpformat pass; do want "$t" && echo "skip - fuzz $t: $*"; done; exit 0; }
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }

command -v "$FUZZ_CC" >/dev/null 2>&1 || skip_all "$FUZZ_CC is not installed (Debian: clang libclang-rt-14-dev)"
ls src/format/reader*.c >/dev/null 2>&1 || skip_all "the reader (src/format/reader*.c) is not written yet"

# libFuzzer is a separate package from clang on Debian: tell its absence from a broken harness.
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$probe/p.c"
if ! "$FUZZ_CC" -fsanitize=fuzzer,address,undefined -o "$probe/p" "$probe/p.c" >/dev/null 2>&1; then
	skip_all "$FUZZ_CC cannot link libFuzzer with ASan+UBSan (Debian: libclang-rt-14-dev)"
fi

# run_target NAME TIMEOUT SEED_DIR... : build, fuzz for $secs, print one line
run_target() {
	local t=$1 timeout=$2 name="fuzz $1" work start took rc execs log arts extra=() asan_options=
	shift 2
	if ! make --no-print-directory BUILD="$BUILD" FUZZ_CC="$FUZZ_CC" "$BUILD/fuzz/fuzz_$t" \
		>"$probe/build-$t.log" 2>&1; then
		tail -n 20 "$probe/build-$t.log" | sed 's/^/    | /'
		echo "not ok - $name: the harness does not build"
		failed=1
		return
	fi
	if [ "$mode" = long ]; then
		work=tests/fuzz/corpus-work$([ "$t" = pass ] && echo -pass)
	else
		work=$probe/corpus-$t
	fi
	mkdir -p "$work"
	for d in "$@"; do
		[ -d "$d" ] && cp "$d"/*.bin "$work/" 2>/dev/null
	done
	arts=$BUILD/fuzz/artifacts
	mkdir -p "$arts"
	log=$BUILD/fuzz/last-$t-$mode.log
	if [ "$t" = tpformat ]; then
		# the formats of this kernel, where tracefs is mounted; libtraceevent's own
		# messages go, and its leaks on formats it gives up on are not ours; it asks for
		# about 3 GB (untouched) to print a __get_cpumask(): see fuzz_tpformat.c
		for fmt in /sys/kernel/tracing/events/*/*/format; do
			[ -r "$fmt" ] && cp "$fmt" "$work/$(echo "$fmt" | cut -d/ -f6-7 | tr / _).bin"
		done 2>/dev/null
		extra=(-close_fd_mask=2 -detect_leaks=0 -malloc_limit_mb=4096)
		asan_options=detect_leaks=0
	fi
	if [ "$t" = pass ]; then
		# the commands' own messages (stderr) would drown the log; libFuzzer keeps its
		# output and the sanitizers' reports on a copy of stderr
		extra=(-close_fd_mask=2)
		export XPERF_FUZZ_KALLSYMS=tests/fuzz/kallsyms
		if ! seedprog_install; then
			echo "not ok - $name: cannot put tests/fuzz/seedprog at $SEEDPROG_PATH"
			failed=1
			return
		fi
	fi
	# -timeout: one input taking that long is a hang; -rss_limit_mb (and the malloc limit it
	# implies): an absurd count must not turn into an absurd allocation; -max_len: room for
	# the corpus files and a bit more.
	start=$(date +%s)
	ASAN_OPTIONS=${asan_options:-${ASAN_OPTIONS:-}} "$BUILD/fuzz/fuzz_$t" -max_total_time="$secs" -timeout="$timeout" -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$arts/" "${extra[@]}" \
		"$work" >"$log" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	if [ "$rc" -ne 0 ]; then
		grep -E 'ERROR|SUMMARY|runtime error|Test unit written|==[0-9]+==' "$log" | head -n 12 |
			sed 's/^/    | /'
		echo "not ok - $name: a crash, sanitizer report, leak or timeout after $took s (exit $rc); inputs in $arts, log in $log"
		failed=1
		return
	fi
	if [ -z "$execs" ] || [ "$execs" -le 0 ]; then
		echo "not ok - $name: the fuzzer ran no input (see $log)"
		failed=1
		return
	fi
	echo "ok - $name $took s, $execs execs, no crash"
}

corpus=tests/corpus
want reader && run_target reader 10 $corpus/good $corpus/bad $corpus/bad-samples \
	$corpus/truncated $corpus/fuzz-found
if want tpformat; then
	if "$BUILD/xperf" version 2>/dev/null | grep -q '+libtraceevent'; then
		run_target tpformat 10 $corpus/tp-formats
	else
		echo "skip - fuzz tpformat: xperf is built without libtraceevent"
	fi
fi
# 14 commands an input, the DWARF ones loading libc's unwind tables: 60 s is a hang even on
# a loaded machine
if want pass; then
	if [ "$mode" = long ]; then
		run_target pass 60 tests/fuzz/corpus-pass $corpus/good $corpus/bad \
			$corpus/bad-samples $corpus/truncated $corpus/fuzz-found \
			$corpus/fuzz-found-pass
	else
		run_target pass 60 tests/fuzz/corpus-pass $corpus/fuzz-found $corpus/fuzz-found-pass
	fi
fi
exit $failed
