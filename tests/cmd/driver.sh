#!/usr/bin/env bash
# The xperf driver: dispatch to xperf-CMD, help, man pages, suggestions, version.
. "$(dirname "$0")/lib.sh"

DRIVER=$XPERF_BUILD/xperf
COMMANDS="record report stat script annotate diff inject list top"
# the commands this tree has sources for (the others are not implemented yet)
BUILT=" $(make -s -C "$TOP" BUILD="$XPERF_BUILD" print-BUILT_COMMANDS) "
UNIMPLEMENTED=
for c in $COMMANDS; do
	case "$BUILT" in *" $c "*) ;; *) UNIMPLEMENTED="$UNIMPLEMENTED $c" ;; esac
done
export BUILT UNIMPLEMENTED

# A private tree with a copy of the driver and fake commands, so these cases do not depend
# on which real commands are built yet.
fake_tree() {
	mkdir -p bin docs other fakeman
	cp "$DRIVER" bin/xperf
}
fake_command() { # DIR NAME STATUS: a command that prints its argv and exits STATUS
	cat >"$1/xperf-$2" <<EOF
#!/bin/sh
echo "ran $1/xperf-$2 argv0=\$(basename "\$0")"
for a in "\$@"; do echo "arg=[\$a]"; done
exit $3
EOF
	chmod +x "$1/xperf-$2"
}
fake_man() { # MAN_W_STATUS: a man that logs its arguments; `man -w` exits MAN_W_STATUS
	cat >fakeman/man <<EOF
#!/bin/sh
echo "man \$*" >>"$PWD/man.log"
[ "\$1" = -w ] && exit $1
exit 0
EOF
	chmod +x fakeman/man
}

test_case "xperf --help lists every command with a description" '
	"$DRIVER" --help >out
	for c in $COMMANDS help version; do
		grep -Eq "^   $c +[A-Z][a-z]+ " out || fail "$c missing from help"
	done
	"$DRIVER" help >out2
	cmp out out2
'

test_case "help marks commands that are not built, and those not implemented yet" '
	fake_tree
	fake_command bin report 0
	PATH=/usr/bin:/bin bin/xperf --help >out
	grep -E "^   report " out | grep -vq "not built"
	grep -E "^   stat " out | grep -q "(not built)"
	for c in $UNIMPLEMENTED; do
		grep -E "^   $c " out | grep -q "(not implemented yet)" || fail "$c: $(grep "^   $c " out)"
	done
	for c in $BUILT; do
		! grep -E "^   $c " out | grep -q "not implemented" || fail "$c has sources"
	done
'

test_case "xperf with no command prints usage and exits 1" '
	rc=0; "$DRIVER" >out 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"
	grep -q "^usage: xperf" err
	[ ! -s out ]
'

test_case "a typo gets a suggestion and exit 1" '
	rc=0; "$DRIVER" recrod -i x >out 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"
	[ "$(cat err)" = "xperf: '"'"'recrod'"'"' is not an xperf command. Did you mean '"'"'record'"'"'?" ] ||
		fail "got: $(cat err)"
	rc=0; "$DRIVER" stta 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"; grep -q "Did you mean '"'"'stat'"'"'?" err
	rc=0; "$DRIVER" reprot 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"; grep -q "Did you mean '"'"'report'"'"'?" err
'

test_case "a word far from every command gets no suggestion" '
	rc=0; "$DRIVER" frobnicate 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"
	grep -q "'"'"'frobnicate'"'"' is not an xperf command. See '"'"'xperf --help'"'"'." err
	if grep -q "Did you mean" err; then fail "a suggestion for frobnicate"; fi
'

test_case "an unknown option exits 1" '
	rc=0; "$DRIVER" --frob 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"; grep -q "unknown option" err
'

test_case "the command beside the driver runs with the arguments verbatim" '
	fake_tree
	fake_command bin record 0
	bin/xperf record -F 99 "a b" "" -- sleep 1 >out
	grep -q "ran bin/xperf-record argv0=xperf-record" out
	printf "arg=[-F]\narg=[99]\narg=[a b]\narg=[]\narg=[--]\narg=[sleep]\narg=[1]\n" >want
	grep "^arg=" out | diff want -
'

test_case "the command exit status is the driver exit status" '
	fake_tree
	fake_command bin stat 7
	rc=0; bin/xperf stat true >/dev/null || rc=$?
	[ $rc -eq 7 ] || fail "exit $rc"
'

test_case "commands are found in PATH when not beside the driver" '
	fake_tree
	fake_command other script 0
	PATH="$PWD/other:/usr/bin:/bin" bin/xperf script -i f >out
	grep -q "ran .*other/xperf-script" out
	grep -q "arg=\[-i\]" out
'

test_case "the command beside the driver wins over PATH" '
	fake_tree
	fake_command other list 3
	fake_command bin list 0
	PATH="$PWD/other:/usr/bin:/bin" bin/xperf list >out
	grep -q "ran bin/xperf-list" out
'

test_case "a known command that is not built says so and exits 2" '
	fake_tree
	rc=0; PATH=/usr/bin:/bin bin/xperf stat foo >out 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	grep -q "'"'"'stat'"'"' is an xperf command but xperf-stat is not built or installed" err
	[ ! -s out ]
'

test_case "a command this tree has no sources for says it is not implemented yet, exit 2" '
	# a driver built as if the tree had only record (BUILT_COMMANDS, from the Makefile)
	make -s -C "$TOP" BUILD="$PWD/b" BUILT_COMMANDS=record "$PWD/b/xperf" >make.log 2>&1 ||
		fail "build: $(tail -n 5 make.log)"
	rc=0; PATH=/usr/bin:/bin b/xperf stat -e x true >out 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	[ "$(cat err)" = "xperf: error: '"'"'stat'"'"' is not implemented yet" ] || fail "$(cat err)"
	[ ! -s out ]
	PATH=/usr/bin:/bin b/xperf --help >help
	grep -E "^   stat " help | grep -q "(not implemented yet)"
	grep -E "^   record " help | grep -q "(not built)" || fail "record: $(grep "^   record " help)"
'

test_case "a command that cannot be executed is an error, not a crash" '
	fake_tree
	printf "not a program" >bin/xperf-report
	chmod +x bin/xperf-report
	rc=0; PATH=/usr/bin:/bin bin/xperf report 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	grep -q "cannot run" err
'

test_case "version lists the libraries the code uses, each as config.h has it, and no other" '
	"$DRIVER" --version >out
	"$DRIVER" version >out2
	cmp out out2
	ver=$(sed -n "s/^VERSION *:= *//p" "$TOP/Makefile")
	[ "$(head -1 out)" = "xperf version $ver" ] || fail "first line: $(head -1 out)"
	for lib in zstd:HAVE_ZSTD: libelf:HAVE_LIBELF: libdw:HAVE_LIBDW:LIBDW_FILES \
		   ncursesw:HAVE_CURSES:CURSES_FILES capstone:HAVE_CAPSTONE:CAPSTONE_FILES \
		   zydis:HAVE_ZYDIS:ZYDIS_FILES \
		   protobuf-c:HAVE_PBC:PBC_FILES libtraceevent:HAVE_TRACEEVENT:TRACEEVENT_FILES; do
		IFS=: read -r name macro files <<<"$lib"
		# a library is used when the Makefile lists files for it (zstd and libelf always)
		if [ -n "$files" ] && [ -z "$(make -s -C "$TOP" print-$files)" ]; then
			! grep -qw -- "$name" out || fail "$name is listed, but no code uses it"
			continue
		fi
		v=$(sed -n "s/^#define $macro //p" "$XPERF_BUILD/config.h")
		if [ "$v" = 1 ]; then want=yes; sign=+; else want=no; sign=-; fi
		grep -Eq "^  $name +$want " out || fail "$name should be $want"
		grep -q "^features:.* $sign$name" out || fail "features line: $name"
	done
'

test_case "help CMD opens the installed man page" '
	fake_tree
	fake_man 0
	PATH="$PWD/fakeman:/usr/bin:/bin" bin/xperf help record
	grep -qx "man -w xperf-record" man.log
	grep -qx "man xperf-record" man.log
'

test_case "help CMD falls back to the docs beside the build tree" '
	fake_tree
	fake_man 16
	echo ".TH XPERF-REPORT 1" >docs/xperf-report.1
	PATH="$PWD/fakeman:/usr/bin:/bin" bin/xperf help report
	grep -qx "man -l $PWD/bin/../docs/xperf-report.1" man.log
'

test_case "help CMD without any page exits 2" '
	fake_tree
	fake_man 16
	rc=0; PATH="$PWD/fakeman:/usr/bin:/bin" bin/xperf help stat 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc"
	grep -q "no manual page for '"'"'xperf-stat'"'"'" err
'

test_case "help with an unknown command suggests one" '
	rc=0; "$DRIVER" help reportt 2>err || rc=$?
	[ $rc -eq 1 ] || fail "exit $rc"; grep -q "Did you mean '"'"'report'"'"'?" err
'

test_case "docs/xperf.1 renders and names every command" '
	for c in $COMMANDS; do
		grep -qF "xperf\\-$c" "$TOP/docs/xperf.1" || fail "xperf.1 does not mention xperf-$c"
	done
	if command -v man >/dev/null; then
		MANWIDTH=80 MANPAGER=cat man -l "$TOP/docs/xperf.1" >page 2>err
		grep -q "NAME" page
		grep -q "xperf - a Linux profiler" page
		[ ! -s err ] || fail "man warns: $(cat err)"
	fi
'

# Every built command has its manual page in docs/, and `xperf help CMD` shows it (through
# the installed page or, failing that, the one in docs/).
for c in $COMMANDS; do
	if [ -z "${BUILT##* $c *}" ] && [ ! -x "$XPERF_BUILD/xperf-$c" ]; then
		skip_case "xperf help $c shows docs/xperf-$c.1" "xperf-$c is not built"
	elif [ ! -x "$XPERF_BUILD/xperf-$c" ]; then
		skip_case "xperf help $c shows docs/xperf-$c.1" "xperf $c is not implemented yet"
	elif ! command -v man >/dev/null; then
		skip_case "xperf help $c shows docs/xperf-$c.1" "man is not installed"
	else
		test_case "xperf help $c shows docs/xperf-$c.1" '
			page="$TOP/docs/xperf-'"$c"'.1"
			[ -f "$page" ] || fail "no $page"
			MANWIDTH=80 MANPAGER=cat man -l "$page" >want 2>err
			[ ! -s err ] || fail "man warns: $(cat err)"
			grep -q "^NAME" want || fail "no NAME section"
			grep -q "xperf-'"$c"' *\\?-" want || fail "NAME does not name xperf-'"$c"'"
			MANWIDTH=80 MANPAGER=cat "$DRIVER" help '"$c"' >got 2>err2 || fail "help exits non-zero: $(cat err2)"
			grep -q "^XPERF-'"$(echo $c | tr a-z A-Z)"'(1)" got || fail "help shows no XPERF-'"$c"'(1) page"
			grep -q "^SYNOPSIS" got || fail "help page has no SYNOPSIS"
		'
	fi
done

for c in $COMMANDS; do
	if [ -x "$XPERF_BUILD/xperf-$c" ]; then
		test_case "xperf $c --help reaches the real command" '
			"$DRIVER" '"$c"' --help >out 2>&1
			grep -qi "usage" out
		'
	elif [ -z "${BUILT##* $c *}" ]; then
		skip_case "xperf $c --help reaches the real command" "xperf-$c is not built"
	else
		skip_case "xperf $c --help reaches the real command" "xperf $c is not implemented yet"
	fi
done

test_done
