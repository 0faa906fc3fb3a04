#!/usr/bin/env bash
# Every command of the README's tour runs and succeeds, in order, in one scratch directory
# whose build/ is the build under test.
. "$(dirname "$0")/lib.sh"

tour=$(sed -n '/^<!-- tour/,/^<!-- end tour/p' "$TOP/README.md" | grep -v '^<!--' | grep -v '^```')
if [ -z "$tour" ]; then
	echo "not ok - the README has a tour block: not found"
	exit 1
fi
mkdir -p "$TEST_TMP/tour"
ln -s "$XPERF_BUILD" "$TEST_TMP/tour/build"

while IFS= read -r line; do
	[ -n "$line" ] || continue
	# Commands it needs that are not built yet: skip, saying which.
	missing=
	for n in $(printf '%s\n' "$line" | grep -oE 'build/xperf [a-z]+' | awk '{print $2}' | sort -u); do
		case "$n" in version|help) continue ;; esac
		[ -x "$XPERF_BUILD/xperf-$n" ] || missing="$missing xperf-$n"
	done
	if [ -n "$missing" ]; then
		skip_case "README: $line" "not built:$missing"
		continue
	fi
	runner=test_case
	case "$line" in perf\ *|*\|\ perf\ *) runner=perf_case ;; esac
	$runner "README: $line" '
		cd "$TEST_TMP/tour"
		rc=0; timeout 60 bash -c "$line" >out 2>&1 || rc=$?
		[ $rc -eq 0 ] || { cat out; fail "exit status $rc"; }
		[ -s out ] || fail "no output"
	'
done <<<"$tour"
test_done
