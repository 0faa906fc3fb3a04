#!/usr/bin/env bash
# docs/examples/self_read.c, the example of xpe_self_read(): it runs and says how it read.
. "$(dirname "$0")/lib.sh"

test_case "the self_read example counts its loop and names the way it read" '
	"$XPERF_BUILD/docs/self_read" 2000000 >out
	cat out
	grep -qE "^counted [1-9][0-9]*$" out
	if grep -q "^task-clock" out; then
		# a software counter: the page never allows rdpmc, every value is read(2)
		[ "$(grep -c "(read(2): the page says user space cannot read it)" out)" = 2 ]
	else
		grep -qE "^(before|after) .*\((read\(2\)|mmap page and rdpmc)" out
	fi
'

test_done
