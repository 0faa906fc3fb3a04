#!/bin/sh
# Make sure the Debian packages xperf builds and tests with are installed.
#
#   ensure-deps.sh            check; as root, install what is missing (used by make check)
#   ensure-deps.sh --build    the same, for the build dependencies only (make demo, configure)
#   ensure-deps.sh --install  as the first form, but fail when something cannot be installed
#   ensure-deps.sh --list     print the packages and whether each is installed
#
# On a fresh Debian 12 machine this runs `apt-get update` once, then one `apt-get install`.
# Not root, or not Debian: it says what is missing and carries on (the build or the tests that
# need a missing package then fail or skip, saying why). Add a package a test needs to
# TEST_PKGS below.
set -u

# g++: the C++ test workload; binutils: objcopy and strip, which split the debuglink workload;
# libiberty-dev: binutils' demangler (a static library), as perf uses it;
# libzydis-dev: annotate's x86 decoder (AVX-512, objdump's text), libcapstone-dev the others;
# libprotobuf-c-dev, protobuf-c-compiler, zlib1g-dev: report --pprof (profile.proto, gzip);
# libdebuginfod-dev: --debuginfod (debug files of stripped binaries from debuginfod servers)
BUILD_PKGS="gcc g++ binutils make libc6-dev pkg-config libelf-dev libdw-dev libzstd-dev libiberty-dev libncurses-dev libcapstone-dev libzydis-dev libprotobuf-c-dev protobuf-c-compiler zlib1g-dev libtraceevent-dev libdebuginfod-dev"
# clang + libclang-rt-14-dev: libFuzzer; linux-perf: the oracle; python3: JSON checks;
# tmux: TUI tests; valgrind: memory checks; zstd: inspecting compressed payloads;
# man-db: `xperf help CMD`; procps: ps/pgrep in record tests; locales: the locale sources
# (/usr/share/i18n/locales) the stat tests build a grouping locale (en_US) from;
# libc6-dbg: libc's local symbols (msort_with_tmp; /usr/lib/debug/.build-id/, found by
# build-id), which the DWARF record tests and the symbolisation tests look for;
# golang-go: go tool pprof reads report --pprof files in the tests;
# debuginfod: elfutils' server, which tests/cmd/debuginfod.sh serves a debug file with;
# chromium: the flame-graph tests click in the SVG in a real browser (headless, driven by
# node's DevTools client); nodejs, npm: that client, and tests/cmd/speedscope.sh installs
# speedscope (npm) and opens report --speedscope files in its page in headless Chromium
TEST_PKGS="clang libclang-rt-14-dev linux-perf python3 tmux valgrind zstd man-db procps locales libc6-dbg golang-go debuginfod chromium nodejs npm"

mode=check
case "${1:-}" in
--build) mode=build ;;
--install) mode=install ;;
--list) mode=list ;;
"") ;;
*) echo "usage: $0 [--build|--install|--list]" >&2; exit 1 ;;
esac

pkgs="$BUILD_PKGS $TEST_PKGS"
[ "$mode" = build ] && pkgs=$BUILD_PKGS

# npm: nodesource's nodejs (a newer node than Debian's) carries its own npm and conflicts
# with Debian's package, so an npm on PATH will do.
installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed' ||
		{ [ "$1" = npm ] && command -v npm >/dev/null 2>&1; }
}

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "ensure-deps: not a Debian system; make sure these (or your distribution's equivalents) are installed: $pkgs"
	[ "$mode" = install ] && exit 1
	exit 0
fi

missing=
for p in $pkgs; do
	if installed "$p"; then
		[ "$mode" = list ] && echo "installed  $p"
	else
		[ "$mode" = list ] && echo "missing    $p"
		missing="$missing $p"
	fi
done
[ "$mode" = list ] && exit 0
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "ensure-deps: missing Debian packages:$missing"
	echo "ensure-deps: run as root: apt-get install$missing   (or: sudo make deps)"
	[ "$mode" = install ] && exit 1
	exit 0
fi

echo "ensure-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# Another apt (unattended-upgrades on a fresh machine) may hold the lock: wait for it.
APT="apt-get -q -y -o DPkg::Lock::Timeout=600"
# The package lists of a fresh machine are empty or stale: update once before installing.
if ! $APT update >/tmp/xperf-apt-update.log 2>&1; then
	echo "ensure-deps: apt-get update failed (see /tmp/xperf-apt-update.log); trying to install anyway"
fi
# shellcheck disable=SC2086
if $APT install --no-install-recommends $missing >/tmp/xperf-apt-install.log 2>&1; then
	echo "ensure-deps: installed:$missing"
	exit 0
fi
# One package we cannot get must not stop the others: retry them one by one.
echo "ensure-deps: apt-get install failed (see /tmp/xperf-apt-install.log); trying one by one"
failed=
for p in $missing; do
	$APT install --no-install-recommends "$p" >>/tmp/xperf-apt-install.log 2>&1 || failed="$failed $p"
done
if [ -n "$failed" ]; then
	echo "ensure-deps: could not install:$failed"
	[ "$mode" = check ] && exit 0
	exit 1
fi
echo "ensure-deps: installed:$missing"
exit 0
