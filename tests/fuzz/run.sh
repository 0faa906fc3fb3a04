#!/usr/bin/env bash
# Fuzz the perf.data reader with libFuzzer, seeded with tests/corpus/{good,bad,truncated}.
#
#   tests/fuzz/run.sh short   bounded run (FUZZ_SECONDS, default 20) in a scratch corpus;
#                             used by tests/run.sh, prints one ok / not ok / skip line
#   tests/fuzz/run.sh long    make fuzz: FUZZ_SECONDS (default 600), corpus kept in
#                             tests/fuzz/corpus-work/ so runs build on each other
#
# A crash, sanitizer report, leak or timeout leaves its input in $BUILD/fuzz/artifacts/;
# replay it with: $BUILD/fuzz/fuzz_reader FILE
set -u
cd "$(dirname "$0")/../.."
mode=${1:-short}
BUILD=${BUILD:-build}
case "$mode" in
short) secs=${FUZZ_SECONDS:-20} ;;
long) secs=${FUZZ_SECONDS:-600} ;;
*) echo "usage: $0 short|long" >&2; exit 1 ;;
esac
FUZZ_CC=${FUZZ_CC:-clang}
name="fuzz reader"

skip() { echo "skip - $name: $*"; exit 0; }
notok() { echo "not ok - $name: $*"; exit 1; }

command -v "$FUZZ_CC" >/dev/null 2>&1 || skip "$FUZZ_CC is not installed (Debian: clang libclang-rt-14-dev)"
ls src/format/reader*.c >/dev/null 2>&1 || skip "the reader (src/format/reader*.c) is not written yet"

# libFuzzer is a separate package from clang on Debian: tell its absence from a broken harness.
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$probe/p.c"
if ! "$FUZZ_CC" -fsanitize=fuzzer,address,undefined -o "$probe/p" "$probe/p.c" >/dev/null 2>&1; then
	skip "$FUZZ_CC cannot link libFuzzer with ASan+UBSan (Debian: libclang-rt-14-dev)"
fi

if ! make --no-print-directory BUILD="$BUILD" FUZZ_CC="$FUZZ_CC" "$BUILD/fuzz/fuzz_reader" >"$probe/build.log" 2>&1; then
	tail -n 20 "$probe/build.log" | sed 's/^/    | /'
	notok "the harness does not build"
fi

if [ "$mode" = long ]; then
	work=tests/fuzz/corpus-work
	mkdir -p "$work"
else
	work=$probe/corpus
	mkdir -p "$work"
fi
for d in good bad truncated fuzz-found; do
	[ -d tests/corpus/$d ] && cp tests/corpus/$d/*.bin "$work/" 2>/dev/null
done
arts=$BUILD/fuzz/artifacts
mkdir -p "$arts"
log=$BUILD/fuzz/last-$mode.log

# -timeout: one input taking 10 s is a hang; -rss_limit_mb: an absurd count must not turn
# into an absurd allocation; -max_len: room for the corpus files and a bit more.
start=$(date +%s)
"$BUILD/fuzz/fuzz_reader" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-max_len=65536 -print_final_stats=1 -artifact_prefix="$arts/" "$work" >"$log" 2>&1
rc=$?
took=$(($(date +%s) - start))
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)

if [ "$rc" -ne 0 ]; then
	grep -E 'ERROR|SUMMARY|runtime error|Test unit written|==[0-9]+==' "$log" | head -n 12 | sed 's/^/    | /'
	notok "a crash, sanitizer report, leak or timeout after $took s (exit $rc); inputs in $arts, log in $log"
fi
[ -n "$execs" ] && [ "$execs" -gt 0 ] || notok "the fuzzer ran no input (see $log)"
echo "ok - $name $took s, $execs execs, no crash"
