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
	for pair in LIBDW:elfutils/libdw.h CURSES:ncursesw/curses.h CAPSTONE:capstone/capstone.h \
		    ZYDIS:Zydis/Zydis.h; do
		v=${pair%%:*} h=/usr/include/${pair#*:}
		if [ -e "$h" ]; then want=1; else want=0; fi
		grep -qx "HAVE_$v = $want" tree/config.mak || fail "HAVE_$v should be $want"
		grep -qx "#define HAVE_$v $want" tree/config.h || fail "config.h HAVE_$v"
	done
	grep -q "^  libzstd .* yes" out
'

test_case "configure --without-X disables an optional library" '
	build_files
	tree/configure --without-capstone --without-ncursesw --without-zydis >out
	grep -qx "HAVE_CAPSTONE = 0" tree/config.mak
	grep -qx "HAVE_ZYDIS = 0" tree/config.mak
	grep -q "^  zydis .* disabled" out
	grep -qx "HAVE_CURSES = 0" tree/config.mak
	grep -qx "CAPSTONE_LIBS = " tree/config.mak
	grep -q "^  capstone .* disabled" out
'

test_case "configure names the Debian package of a missing optional library" '
	build_files
	fake_cc
	NO_LIBS="-lcapstone -ldw -lZydis" tree/configure --cc="$PWD/cc-without" >out
	grep -qx "HAVE_CAPSTONE = 0" tree/config.mak
	grep -qx "HAVE_ZYDIS = 0" tree/config.mak
	grep -q "^  zydis .*no .*libzydis-dev" out
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

test_case "configure falls back to compile tests when pkg-config knows nothing" '
	build_files
	mkdir fakepc
	printf "#!/bin/sh\necho \"pkg-config \$*\" >>%s/pc.log\nexit 1\n" "$PWD" >fakepc/pkg-config
	chmod +x fakepc/pkg-config
	PATH="$PWD/fakepc:$PATH" tree/configure >out
	[ -s pc.log ] || fail "configure never asked pkg-config"
	grep -qx "HAVE_ZSTD = 1" tree/config.mak
	grep -q "^ZSTD_LIBS = -lzstd" tree/config.mak
	grep -q "^  libzstd .* yes" out
	grep -q "^  libelf .* yes" out
'

test_case "configure with neither pkg-config nor the library names the package" '
	build_files
	fake_cc
	mkdir fakepc
	printf "#!/bin/sh\nexit 1\n" >fakepc/pkg-config
	chmod +x fakepc/pkg-config
	rc=0; PATH="$PWD/fakepc:$PATH" NO_LIBS="-lelf" tree/configure --cc="$PWD/cc-without" >out 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"
	grep -q "^  libelf .*libelf-dev" out || fail "no libelf-dev in: $(cat out)"
'

test_case "configure rejects an unknown option" '
	build_files
	rc=0; tree/configure --with-frobs 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"; grep -q "unknown option" err
'

# Optional libraries: the Makefile's lists (LIBDW_FILES/LIBDW_STUBS, CURSES_..., CAPSTONE_...),
# read through `make print-VAR` on the real tree.
mk() { make -s -C "$TOP" "$@"; }
# has LIST WORD: WORD is one of the words of LIST
has() { case " $(echo $1) " in *" $2 "*) return 0 ;; esac; return 1; }
export -f mk has

test_case "optional libraries: every file using one is listed, each with its stub" '
	for lib in "LIBDW:elfutils/(lib|known-|elf-|version)|dwarf\.h" "CURSES:n?curses(w/|\.h)|curses\.h" "CAPSTONE:capstone" \
		   "ZYDIS:Zydis/|Zycore/" \
		   "PBC:zlib\.h|protobuf-c|profile\.pb-c\.h" "TRACEEVENT:traceevent/" \
		   "DEBUGINFOD:elfutils/debuginfod\.h"; do
		v=${lib%%:*} re=${lib#*:}
		files=$(mk print-${v}_FILES) stubs=$(mk print-${v}_STUBS)
		users=$(cd "$TOP" && grep -rlE "^#include [<\"]($re)" src || :)
		for f in $users; do
			has "$files" $f || fail "$f includes a $v header but is not in ${v}_FILES"
		done
		# each file has its stub: foo_stub.c beside it, or one in the stub folder of its folder
		for f in $files; do
			has "$stubs" ${f%.c}_stub.c && continue
			for st in $stubs; do [ "$(dirname $st)" = "$(dirname $f)_stub" ] && continue 2; done
			fail "$f has no ${f%.c}_stub.c nor $(dirname $f)_stub/ in ${v}_STUBS"
		done
		for f in $stubs; do
			! grep -qE "^#include [<\"]($re)" "$TOP/$f" || fail "the stub $f includes the library"
		done
	done
'

test_case "a library on builds its files and not their stubs, off the other way round" '
	on=$(mk HAVE_LIBDW=1 HAVE_CURSES=1 HAVE_CAPSTONE=1 HAVE_ZYDIS=1 HAVE_PBC=1 HAVE_TRACEEVENT=1 \
		HAVE_DEBUGINFOD=1 print-ALL_SRC)
	off=$(mk HAVE_LIBDW=0 HAVE_CURSES=0 HAVE_CAPSTONE=0 HAVE_ZYDIS=0 HAVE_PBC=0 HAVE_TRACEEVENT=0 \
		HAVE_DEBUGINFOD=0 print-ALL_SRC)
	files= stubs=
	for v in LIBDW CURSES CAPSTONE ZYDIS PBC TRACEEVENT DEBUGINFOD; do
		files="$files $(mk print-${v}_FILES)" stubs="$stubs $(mk print-${v}_STUBS)"
	done
	[ -n "$(echo $files)" ] || fail "no optional file at all: nothing to check"
	for f in $files; do
		has "$on" $f || fail "$f not built with its library"
		! has "$off" $f || fail "$f built without its library"
	done
	for f in $stubs; do
		! has "$on" $f || fail "stub $f built with the library"
		has "$off" $f || fail "stub $f not built without the library"
	done
	# everything else is built either way
	for f in $on; do has "$files" $f || has "$off" $f || fail "$f only with the libraries"; done
	for f in $off; do has "$stubs" $f || has "$on" $f || fail "$f only without them"; done
	[ -z "$(mk HAVE_CURSES=0 print-CURSES_LIBS)" ] || fail "still links ncursesw"
	[ -z "$(mk HAVE_LIBDW=0 print-DW_LIBS)" ] || fail "still links libdw"
	[ -z "$(mk HAVE_PBC=0 print-PBC_LIBS)" ] || fail "still links protobuf-c"
	[ -z "$(mk HAVE_TRACEEVENT=0 print-TRACEEVENT_LIBS)" ] || fail "still links libtraceevent"
	[ -z "$(mk HAVE_DEBUGINFOD=0 print-DEBUGINFOD_LIBS)" ] || fail "still links libdebuginfod"
'

test_case "a listed file that does not exist stops the build, naming it" '
	rc=0; mk LIBDW_FILES=src/profile/nope_dw.c print-ALL_SRC >out 2>&1 || rc=$?
	[ $rc -ne 0 ] || fail "make went on"
	grep -q "src/profile/nope_dw.c, listed for an optional library, is missing" out
'

test_case "build/config.h follows the make variables" '
	make -s -C "$TOP" BUILD="$PWD/b" HAVE_CURSES=0 HAVE_CAPSTONE=1 "$PWD/b/config.h"
	grep -qx "#define HAVE_CURSES 0" b/config.h
	grep -qx "#define HAVE_CAPSTONE 1" b/config.h
	make -s -C "$TOP" BUILD="$PWD/b" HAVE_CURSES=1 "$PWD/b/config.h"
	grep -qx "#define HAVE_CURSES 1" b/config.h
'

test_case "ensure-deps --list reports every package it manages" '
	command -v dpkg-query >/dev/null || skip "not Debian"
	"$TOP/scripts/ensure-deps.sh" --list >out
	for p in g++ binutils libelf-dev libdw-dev libzstd-dev libncurses-dev libcapstone-dev libzydis-dev clang libclang-rt-14-dev linux-perf python3 locales libc6-dbg; do
		grep -qxF -e "installed  $p" -e "missing    $p" out || fail "$p not listed"
	done
	# It agrees with dpkg about each one (npm: or an npm on PATH, as nodesource'"'"'s nodejs
	# carries its own)
	while read -r state p; do
		if dpkg-query -W -f="\${Status}" "$p" 2>/dev/null | grep -q "install ok installed" ||
			{ [ "$p" = npm ] && command -v npm >/dev/null 2>&1; }; then
			[ "$state" = installed ] || fail "$p is installed, it says $state"
		else
			[ "$state" = missing ] || fail "$p is missing, it says $state"
		fi
	done <out
'

# A fake Debian: dpkg-query says the packages in $MISSING are not installed, apt-get and id
# log or pretend; so the fresh-machine path of ensure-deps.sh runs without touching the system.
fake_debian() { # UID
	mkdir -p fakebin
	cat >fakebin/dpkg-query <<'EOF2'
#!/bin/sh
for p in $MISSING; do [ "$p" = "$3" ] && exit 1; done
printf "install ok installed"
EOF2
	cat >fakebin/apt-get <<EOF2
#!/bin/sh
echo "apt-get \$*" >>$PWD/apt.log
exit \${APT_FAIL:-0}
EOF2
	printf "#!/bin/sh\necho %s\n" "$1" >fakebin/id
	chmod +x fakebin/*
}

test_case "ensure-deps on a fresh machine: apt-get update once, then one install of what is missing" '
	fake_debian 0
	MISSING="libdw-dev clang linux-perf" PATH="$PWD/fakebin:$PATH" sh "$TOP/scripts/ensure-deps.sh" >out
	[ "$(grep -c " update" apt.log)" -eq 1 ] || fail "update count"
	head -1 apt.log | grep -q " update"
	grep -q "install --no-install-recommends  *libdw-dev clang linux-perf$" apt.log ||
		fail "install line: $(cat apt.log)"
	[ "$(wc -l <apt.log)" -eq 2 ]
'

test_case "ensure-deps with nothing missing runs no apt-get" '
	fake_debian 0
	MISSING= PATH="$PWD/fakebin:$PATH" sh "$TOP/scripts/ensure-deps.sh" >out
	[ ! -e apt.log ]
'

test_case "ensure-deps --build installs only the build packages" '
	fake_debian 0
	MISSING="libzstd-dev tmux" PATH="$PWD/fakebin:$PATH" sh "$TOP/scripts/ensure-deps.sh" --build >out
	grep -q "install --no-install-recommends  *libzstd-dev$" apt.log
'

test_case "ensure-deps as a user names the packages and installs nothing" '
	fake_debian 1000
	MISSING="libcapstone-dev valgrind" PATH="$PWD/fakebin:$PATH" sh "$TOP/scripts/ensure-deps.sh" >out
	[ ! -e apt.log ]
	grep -q "missing Debian packages: libcapstone-dev valgrind" out
	rc=0; MISSING="valgrind" PATH="$PWD/fakebin:$PATH" sh "$TOP/scripts/ensure-deps.sh" --install >out || rc=$?
	[ $rc -eq 1 ] || fail "--install as a user: exit $rc"
'

test_case "ensure-deps goes on one by one when one package cannot be installed" '
	fake_debian 0
	rc=0; APT_FAIL=100 MISSING="tmux zstd" PATH="$PWD/fakebin:$PATH" sh "$TOP/scripts/ensure-deps.sh" >out || rc=$?
	[ $rc -eq 0 ] || fail "check mode must carry on: exit $rc"
	grep -q "install --no-install-recommends tmux$" apt.log
	grep -q "install --no-install-recommends zstd$" apt.log
	grep -q "could not install: tmux zstd" out
'

test_case "make install puts the commands and man pages under PREFIX" '
	[ -x "$XPERF_BUILD/xperf" ] || fail "build first"
	# the build under test as it was configured: make must not rebuild it another way
	have=$(sed -n "s/^#define \(HAVE_[A-Z]*\) \([01]\)$/\1=\2/p" "$XPERF_BUILD/config.h")
	make -s -C "$TOP" BUILD="$XPERF_BUILD" SANITIZE="${SANITIZE:-0}" $have install PREFIX="$PWD/inst" >log 2>&1 || { tail log; fail "make install"; }
	[ -x inst/bin/xperf ]
	for f in "$XPERF_BUILD"/xperf-*; do
		[ -x "inst/bin/$(basename "$f")" ] || fail "$(basename "$f") not installed"
	done
	[ -f inst/share/man/man1/xperf.1 ]
	# Every manual page of docs/ is installed, and man finds it under the prefix.
	for m in "$TOP"/docs/*.1; do
		cmp "$m" "inst/share/man/man1/$(basename "$m")" || fail "$(basename "$m") not installed"
		if command -v man >/dev/null; then
			n=$(basename "$m" .1)
			MANWIDTH=80 MANPAGER=cat man -M "$PWD/inst/share/man" "$n" >page 2>/dev/null ||
				fail "man -M PREFIX/share/man $n fails"
			grep -qi "^$n(1)" page || fail "man -M shows no $n(1)"
		fi
	done
	inst/bin/xperf version | grep -q "^xperf version "
	# The installed driver finds its installed man page when man does not know the prefix.
	mkdir fakeman
	printf "#!/bin/sh\necho \"man \$*\" >>%s/man.log\n[ \"\$1\" = -w ] && exit 16\nexit 0\n" "$PWD" >fakeman/man
	chmod +x fakeman/man
	PATH="$PWD/fakeman:/usr/bin:/bin" inst/bin/xperf help xperf
	grep -qx "man -l $PWD/inst/bin/../share/man/man1/xperf.1" man.log
'

# Merges happen many times a day here; markers once reached main in a document.
test_case "no tracked file holds a merge's conflict markers" '
	git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1 || skip "not a git checkout"
	bad=$(git -C "$TOP" grep -IlE "^(<<<<<<< |>>>>>>> )" || true)
	[ -z "$bad" ] || fail "conflict markers in: $(echo $bad)"
'

test_done
