#!/usr/bin/env bash
# The build system: ./configure probes, stub selection for optional libraries, config.h,
# make install.
. "$(dirname "$0")/lib.sh"

# A scratch tree with just the build files, so configure can write its outputs there.
build_files() {
	mkdir -p tree/scripts
	cp "$TOP/configure" "$TOP/Makefile" tree/
	cp "$TOP/scripts/gen-config-h.sh" "$TOP/scripts/ensure-deps.sh" tree/scripts/
}
# A compiler that fails to link whatever library is named in $NO_LIBS (space separated).
fake_cc() {
	cat >cc-without <<'EOF'
#!/bin/sh
for a in "$@"; do
	for l in $NO_LIBS; do [ "$a" = "$l" ] && { echo "ld: cannot find $l" >&2; exit 1; }; done
done
exec cc "$@"
EOF
	chmod +x cc-without
}

test_case "configure finds the Debian libraries and writes config.mak and config.h" '
	build_files
	tree/configure >out
	for v in HAVE_LIBELF HAVE_ZSTD; do grep -qx "$v = 1" tree/config.mak || fail "$v"; done
	grep -q "^ZSTD_LIBS = .*-lzstd" tree/config.mak
	grep -q "^#define HAVE_LIBELF 1" tree/config.h
	# The optional ones are found exactly when their headers are there.
	for pair in LIBDW:elfutils/libdw.h CURSES:ncursesw/curses.h CAPSTONE:capstone/capstone.h; do
		v=${pair%%:*} h=/usr/include/${pair#*:}
		if [ -e "$h" ]; then want=1; else want=0; fi
		grep -qx "HAVE_$v = $want" tree/config.mak || fail "HAVE_$v should be $want"
		grep -qx "#define HAVE_$v $want" tree/config.h || fail "config.h HAVE_$v"
	done
	grep -q "^  libzstd .* yes" out
'

test_case "configure --without-X disables an optional library" '
	build_files
	tree/configure --without-capstone --without-ncursesw >out
	grep -qx "HAVE_CAPSTONE = 0" tree/config.mak
	grep -qx "HAVE_CURSES = 0" tree/config.mak
	grep -qx "CAPSTONE_LIBS = " tree/config.mak
	grep -q "^  capstone .* disabled" out
'

test_case "configure names the Debian package of a missing optional library" '
	build_files
	fake_cc
	NO_LIBS="-lcapstone -ldw" tree/configure --cc="$PWD/cc-without" >out
	grep -qx "HAVE_CAPSTONE = 0" tree/config.mak
	grep -qx "HAVE_LIBDW = 0" tree/config.mak
	grep -q "^  capstone .*no .*libcapstone-dev" out
	grep -q "^missing: apt-get install.*libdw-dev.*libcapstone-dev" out
'

test_case "configure fails without libzstd, naming libzstd-dev" '
	build_files
	fake_cc
	rc=0; NO_LIBS="-lzstd" tree/configure --cc="$PWD/cc-without" >out 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"
	grep -q "libzstd-dev" out
	grep -q "required" err
'

test_case "configure rejects an unknown option" '
	build_files
	rc=0; tree/configure --with-frobs 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"; grep -q "unknown option" err
'

# Stub selection: fake sources in a scratch tree, asked through `make print-VAR`.
stub_tree() {
	build_files
	mkdir -p tree/src/report/tui_curses tree/src/report/tui_curses_stub
	touch tree/src/report/main.c tree/src/report/tui_curses/screen.c \
		tree/src/report/tui_curses_stub/screen.c tree/src/report/annotate_capstone.c \
		tree/src/report/annotate_capstone_stub.c tree/src/report/inline_dw.c \
		tree/src/report/inline_dw_stub.c
}
test_case "with every library, the real files are built and the stubs are not" '
	stub_tree
	make -s -C tree HAVE_CURSES=1 HAVE_CAPSTONE=1 HAVE_LIBDW=1 print-REPORT_SRC | tr " " "\n" | sort >got
	printf "%s\n" src/report/annotate_capstone.c src/report/inline_dw.c src/report/main.c \
		src/report/tui_curses/screen.c | sort >want
	diff want got
'
test_case "without the optional libraries, the stubs are built instead" '
	stub_tree
	make -s -C tree HAVE_CURSES=0 HAVE_CAPSTONE=0 HAVE_LIBDW=0 print-REPORT_SRC | tr " " "\n" | sort >got
	printf "%s\n" src/report/annotate_capstone_stub.c src/report/inline_dw_stub.c src/report/main.c \
		src/report/tui_curses_stub/screen.c | sort >want
	diff want got
	[ -z "$(make -s -C tree HAVE_CURSES=0 print-CURSES_LIBS)" ] || fail "still links ncursesw"
'

test_case "build/config.h follows the make variables" '
	make -s -C "$TOP" BUILD="$PWD/b" HAVE_CURSES=0 HAVE_CAPSTONE=1 "$PWD/b/config.h"
	grep -qx "#define HAVE_CURSES 0" b/config.h
	grep -qx "#define HAVE_CAPSTONE 1" b/config.h
	make -s -C "$TOP" BUILD="$PWD/b" HAVE_CURSES=1 "$PWD/b/config.h"
	grep -qx "#define HAVE_CURSES 1" b/config.h
'

test_case "ensure-deps --list reports every package it manages" '
	command -v dpkg-query >/dev/null || { echo "not Debian"; exit 0; }
	"$TOP/scripts/ensure-deps.sh" --list >out
	for p in libelf-dev libdw-dev libzstd-dev libncurses-dev libcapstone-dev clang libclang-rt-14-dev linux-perf python3; do
		grep -Eq "^(installed|missing) +$p$" out || fail "$p not listed"
	done
	# It agrees with dpkg about each one.
	while read -r state p; do
		if dpkg-query -W -f="\${Status}" "$p" 2>/dev/null | grep -q "install ok installed"; then
			[ "$state" = installed ] || fail "$p is installed, it says $state"
		else
			[ "$state" = missing ] || fail "$p is missing, it says $state"
		fi
	done <out
'

test_case "make install puts the commands and man pages under PREFIX" '
	[ -x "$XPERF_BUILD/xperf" ] || fail "build first"
	make -s -C "$TOP" BUILD="$XPERF_BUILD" install PREFIX="$PWD/inst" >log 2>&1 || { tail log; fail "make install"; }
	[ -x inst/bin/xperf ]
	for f in "$XPERF_BUILD"/xperf-*; do
		[ -x "inst/bin/$(basename "$f")" ] || fail "$(basename "$f") not installed"
	done
	[ -f inst/share/man/man1/xperf.1 ]
	inst/bin/xperf version | grep -q "^xperf version "
	# The installed driver finds its installed man page when man does not know the prefix.
	mkdir fakeman
	printf "#!/bin/sh\necho \"man \$*\" >>%s/man.log\n[ \"\$1\" = -w ] && exit 16\nexit 0\n" "$PWD" >fakeman/man
	chmod +x fakeman/man
	PATH="$PWD/fakeman:/usr/bin:/bin" inst/bin/xperf help xperf
	grep -qx "man -l $PWD/inst/bin/../share/man/man1/xperf.1" man.log
'

test_done
