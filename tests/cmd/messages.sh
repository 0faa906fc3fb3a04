#!/usr/bin/env bash
# What every command says to a bad command line or a bad input: one clear line (the
# subject, the reason, the fix), the usage in one line, the right exit status.
. "$(dirname "$0")/lib.sh"

# stderr_lines FILE: the number of lines in FILE
stderr_lines() { wc -l <"$1" | tr -d " "; }
export -f stderr_lines

test_case "a usage error: the error, one usage line, where the options are; exit 1" '
	for cmd in "record -F abc -- true" "record --no-such -- true" "stat -r x -- true" \
		   "report --sort" "script --no-such" "annotate a b" "inject -q" "list --x"; do
		set -- $cmd
		rc=0; "xperf-$1" "${@:2}" >out 2>err </dev/null || rc=$?
		[ $rc -eq 1 ] || fail "$cmd: exit $rc"
		[ "$(stderr_lines err)" -eq 3 ] || fail "$cmd: $(stderr_lines err) lines: $(head -c 600 err)"
		grep -q "^xperf $1: error: " err || fail "$cmd: $(head -n 1 err)"
		grep -q "^usage: xperf $1 " err || fail "$cmd: no usage line"
		grep -qx "run .xperf $1 -h. to list the options" err || fail "$cmd: $(tail -n 1 err)"
		[ ! -s out ] || fail "$cmd: stdout"
	done
'

test_done
