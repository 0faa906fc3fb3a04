#!/usr/bin/env bash
# `make bench`: every bench/bench_*.sh, each comparing xperf with perf on the same work in one
# run and printing ratios (xperf / perf; lower is better unless the line says otherwise).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
export BUILD PATH="$BUILD:$PATH"
export BENCH_TMP=${BENCH_TMP:-$(mktemp -d /tmp/xperf-bench.XXXXXX)}
trap 'rm -rf "$BENCH_TMP"' EXIT
command -v perf >/dev/null || { echo "bench: /usr/bin/perf is absent; nothing to compare against"; exit 0; }
status=0
for b in bench/bench_*.sh; do
	[ -e "$b" ] || continue
	echo "== $(basename "$b" .sh)"
	bash "$b" || { echo "   (failed: exit $?)"; status=1; }
done
exit $status
