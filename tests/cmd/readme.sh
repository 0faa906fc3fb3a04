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

# What the tour promises of the demo program: xperf's own report ranks work_a, work_b and
# work_c first, in that order, with about 50% / 30% / 20% (wide margins: a loaded machine).
if [ -x "$XPERF_BUILD/xperf-report" ] && [ -s "$TEST_TMP/tour/demo.data" ]; then
	test_case "README: the tour profile shows work_a / work_b / work_c at about 50/30/20" '
		"$XPERF_BUILD/xperf" report --stdio --no-children --sort sym -i "$TEST_TMP/tour/demo.data" >out
		grep -E "^ +[0-9.]+% " out | head -n 3 | awk "{print \$NF}" | tr "\n" " " >top3
		[ "$(cat top3)" = "work_a work_b work_c " ] || fail "top three: $(cat top3)"
		for fw in work_a:40:60 work_b:22:38 work_c:13:27; do
			f=${fw%%:*} lo=${fw#*:}; hi=${lo#*:}; lo=${lo%%:*}
			pct=$(grep -E " $f\$" out | awk "{sub(\"%\",\"\",\$1); print int(\$1)}")
			[ "$pct" -ge "$lo" ] && [ "$pct" -le "$hi" ] || fail "$f at $pct%, want $lo..$hi"
		done
	'
else
	skip_case "README: the tour profile shows work_a / work_b / work_c at about 50/30/20" \
		"xperf-report or the tour recording is missing"
fi

# The quick start's `make demo` (its script, on the build under test; make demo itself only
# adds ensure-deps and make all).
if [ -x "$XPERF_BUILD/xperf-record" ] && [ -x "$XPERF_BUILD/xperf-report" ]; then
	test_case "README: make demo records the demo program and shows its profile" '
		rc=0; BUILD="$XPERF_BUILD" DEMO_SECONDS=1 DEMO_OUT="$PWD/demo.data" \
			timeout 120 bash "$TOP/scripts/demo.sh" >out 2>&1 </dev/null || rc=$?
		[ $rc -eq 0 ] || { tail out; fail "demo exit $rc"; }
		grep -q "xperf report --stdio" out || fail "no xperf report --stdio step"
		# the whole xperf profile (a -g file: children view, call graphs under entries)
		awk "/xperf report --stdio/ { p = 1; next } p && /\\$ / { p = 0 } p" out |
			grep -q "\[\.\] work_a" || fail "no work_a in the xperf profile"
		if command -v perf >/dev/null; then
			grep -A 10 "^\$ perf report" out | grep -q "\[\.\] work_a" || fail "perf did not read the demo file"
		fi
	'
else
	skip_case "README: make demo records the demo program and shows its profile" "xperf-record or xperf-report is not built"
fi

# The Testing section: `tests/run.sh WORDS` runs only the named suites and ends with the count.
test_case "README: tests/run.sh driver runs only that suite and ends with the count line" '
	cd "$TOP"
	BUILD="$XPERF_BUILD" timeout 300 bash tests/run.sh driver >"$OLDPWD/out" 2>&1 || fail "driver suite fails"
	cd "$OLDPWD"
	tail -n 1 out | grep -Eqx "[0-9]+ passed, 0 failed, [0-9]+ skipped" || fail "last line: $(tail -n 1 out)"
	[ "$(tail -n 1 out | cut -d" " -f1)" -gt 5 ] || fail "too few cases ran"
	if grep -v "^\[cmd/driver\]" out | sed "\$d" | grep -q .; then fail "other suites ran"; fi
'
test_done
