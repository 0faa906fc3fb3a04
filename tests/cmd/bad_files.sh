#!/usr/bin/env bash
# The reader against the corpus (tests/corpus, made by tests/tools/mkbad.py): every bad file
# is refused with one error line naming it, broken samples are reported without a crash,
# truncated files are read with one warning, good files are read as perf reads them.
# Nothing may crash or hang.
. "$(dirname "$0")/lib.sh"

CORPUS=$TOP/tests/corpus
REPORT=$XPERF_BUILD/xperf-report

if [ ! -x "$REPORT" ]; then
	for f in "$CORPUS"/bad/*.bin "$CORPUS"/bad-samples/*.bin "$CORPUS"/truncated/*.bin "$CORPUS"/good/*.bin; do
		skip_case "report --stats on $(basename "$(dirname "$f")")/$(basename "$f")" \
			"xperf-report is not built yet"
	done
	test_done
fi

# Whole records in the data section of a perf.data FILE that end at or before the end of the
# file (data.size 0 means "up to the end of the file", as a killed recorder leaves it); with
# a TYPE, only records of that type. Raw records, as perf --stats counts them in a file
# without COMPRESSED records.
count_records() { # FILE [TYPE]
	python3 - "$@" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
want = int(sys.argv[2]) if len(sys.argv) > 2 else None
off, size = struct.unpack_from("<QQ", d, 40)
end = len(d) if size == 0 else min(len(d), off + size)
n = 0
while off + 8 <= end:
	t, _, s = struct.unpack_from("<IHH", d, off)
	if s < 8 or off + s > end:
		break
	if want is None or t == want:
		n += 1
	off += s
print(n)
EOF
}

# "TOTAL events: N" (or "NAME events: N") from --stats output, as perf prints it.
stat_count() { # FILE NAME
	sed -n "s/^ *$2 events: *\([0-9][0-9]*\).*/\1/p" "$1" | head -1
}

for f in "$CORPUS"/bad/*.bin; do
	name=$(basename "$f")
	why=$(sed -n "s|^bad/$name\t||p" "$CORPUS/MANIFEST")
	test_case "bad/$name is refused with one error line ($why)" '
		rc=0; timeout 10 "$XPERF_BUILD/xperf" report --stats -i "'"$f"'" >out 2>err || rc=$?
		[ $rc -ne 124 ] || fail "did not finish in 10 s"
		[ $rc -lt 128 ] || fail "killed by signal $((rc - 128))"
		[ $rc -ne 0 ] || fail "exit 0 on a bad file"
		[ $rc -eq 2 ] || fail "exit $rc, want 2 (runtime error)"
		[ "$(wc -l <err)" -eq 1 ] || { cat err; fail "want exactly one line on stderr"; }
		grep -q "^xperf report: error: " err || fail "not an error line: $(cat err)"
		grep -qF "'"$name"'" err || fail "the error does not name the file: $(cat err)"
		# Past the 104-byte header, the error says where in the file the damage is.
		if [ "$(stat -c %s "'"$f"'")" -ge 104 ]; then
			grep -q "offset 0x[0-9a-f]" err || fail "the error names no file offset: $(cat err)"
		fi
	'
done

for f in "$CORPUS"/bad-samples/*.bin; do
	name=$(basename "$f")
	why=$(sed -n "s|^bad-samples/$name\t||p" "$CORPUS/MANIFEST")
	test_case "bad-samples/$name: the dump says the sample cannot be decoded ($why)" '
		rc=0; timeout 10 "$XPERF_BUILD/xperf" report -D -i "'"$f"'" >out 2>err || rc=$?
		[ $rc -ne 124 ] || fail "did not finish in 10 s"
		[ $rc -lt 128 ] || fail "killed by signal $((rc - 128))"
		if [ $rc -eq 0 ]; then
			grep -Eqi "SAMPLE.*(cannot|error|invalid|bad)" out ||
				fail "exit 0 and no word about the broken sample"
		else
			[ "$(wc -l <err)" -eq 1 ] || { cat err; fail "want exactly one line on stderr"; }
		fi
		rc=0; timeout 10 "$XPERF_BUILD/xperf" report --stats -i "'"$f"'" >out 2>err || rc=$?
		[ $rc -ne 124 ] && [ $rc -lt 128 ] || fail "--stats: exit $rc"
	'
done

test_case "the committed corpus is what tests/tools/mkbad.py makes" '
	command -v python3 >/dev/null || skip "python3 absent"
	python3 "$TOP/tests/tools/mkbad.py" --out gen >/dev/null
	for d in bad bad-samples truncated; do
		diff -r "$CORPUS/$d" "gen/$d" || fail "$d differs: rerun tests/tools/mkbad.py"
	done
	diff "$CORPUS/MANIFEST" gen/MANIFEST
'

perf_case "the record counter agrees with perf on the good plain file" '
	perf_run report --stats -i "$CORPUS/good/plain.bin" >perf.out 2>/dev/null
	[ "$(stat_count perf.out TOTAL)" = "$(count_records "$CORPUS/good/plain.bin")" ]
'

for f in "$CORPUS"/truncated/*.bin; do
	name=$(basename "$f")
	test_case "truncated/$name is read up to its last whole record with one warning" '
		rc=0; timeout 10 "$XPERF_BUILD/xperf" report --stats -i "'"$f"'" >out 2>err || rc=$?
		[ $rc -eq 0 ] || { cat err; fail "exit $rc"; }
		[ "$(wc -l <err)" -eq 1 ] || { cat err; fail "want exactly one line on stderr"; }
		grep -q "^xperf report: warning: " err || fail "not a warning line: $(cat err)"
		total=$(stat_count out TOTAL)
		[ -n "$total" ] && [ "$total" -gt 0 ] || { cat out; fail "no TOTAL count"; }
		case "'"$name"'" in
		zstd-*)
			# Compressed: fewer records than the whole file, and exactly the whole
			# COMPRESSED records before the cut.
			perf_run report --stats -i "$CORPUS/good/zstd.bin" >good.out 2>/dev/null
			[ "$total" -lt "$(stat_count good.out TOTAL)" ] || fail "TOTAL $total, not less than the whole file"
			got=$(stat_count out COMPRESSED); want=$(count_records "'"$f"'" 81)
			[ "${got:-0}" = "$want" ] || fail "COMPRESSED ${got:-none}, want $want"
			[ "$want" -gt 0 ] || fail "the seed has too few COMPRESSED records to test this"
			;;
		*)
			want=$(count_records "'"$f"'")
			[ "$total" = "$want" ] || fail "TOTAL $total, want $want whole records"
			;;
		esac
	'
done

# The offset of the first record of a FILE's data section that the file cuts short (data.size
# 0 or past the end: up to the end of the file), in hex; nothing if the cut falls between records.
cut_offset() { # FILE
	python3 - "$1" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
off, size = struct.unpack_from("<QQ", d, 40)
end = off + size if size and off + size <= len(d) else len(d)
while off + 8 <= end:
	s = struct.unpack_from("<IHH", d, off)[2]
	if s < 8 or off + s > end:
		break
	off += s
if off < end:
	print("0x%x" % off)
EOF
}

test_case "a cut recording: one warning saying why the end was a guess and where the cut record is" '
	command -v python3 >/dev/null || skip "python3 absent"
	n=0
	for f in "$CORPUS"/truncated/*.bin; do
		off=$(cut_offset "$f")
		[ -n "$off" ] || continue
		n=$((n + 1))
		"$XPERF_BUILD/xperf" report --stats -i "$f" >out 2>err || fail "exit $? on $f"
		[ "$(wc -l <err)" -eq 1 ] || { cat err; fail "want one line on stderr for $f"; }
		grep -q "^xperf report: warning: $f: .*: read up to offset $off, where a record is cut short\$" err ||
			fail "not the warning, want offset $off: $(cat err)"
	done
	[ $n -ge 3 ] || fail "only $n cut files in the corpus"
	# a full disk: data size 0, and the line says the features are missing too
	"$XPERF_BUILD/xperf" report --stats -i "$CORPUS/truncated/zstd-full-disk.bin" >out 2>err
	grep -q "data size in the header is 0 (the recorder did not finish, no feature section): read up to offset 0x" err ||
		fail "zstd-full-disk.bin: $(cat err)"
'

test_case "every view of a recording cut by a full disk says so in one warning line" '
	f=$CORPUS/truncated/zstd-full-disk.bin
	views="report:--stdio report:--header-only report:-D report:--flamegraph=f.svg script: annotate:--stdio"
	if "$XPERF_BUILD/xperf" version | grep -q "+protobuf-c"; then views="$views report:--pprof=p.pb"; fi
	for v in $views; do
		cmd=${v%%:*} opt=${v#*:}
		rc=0; "$XPERF_BUILD/xperf" $cmd $opt -i "$f" >out 2>err || rc=$?
		[ $rc -eq 0 ] || { cat err; fail "$cmd $opt: exit $rc"; }
		[ "$(grep -c "^xperf $cmd: warning: $f: data size in the header is 0" err)" -eq 1 ] ||
			{ cat err; fail "$cmd $opt: want one warning about the cut"; }
	done
'

test_case "a file cut inside its feature section: the whole data, the features before the cut, one warning" '
	"$XPERF_BUILD/xperf" report --stats -i "$CORPUS/good/plain.bin" >good.out
	for cut in table:feature-table-cut section:feature-payload-cut; do
		f=$CORPUS/truncated/${cut#*:}.bin
		rc=0; "$XPERF_BUILD/xperf" report --stats -i "$f" >out 2>err || rc=$?
		[ $rc -eq 0 ] || { cat err; fail "exit $rc on $f"; }
		[ "$(wc -l <err)" -eq 1 ] || { cat err; fail "want exactly one line on stderr"; }
		size=$(printf "0x%x" "$(stat -c %s "$f")")
		grep -q "^xperf report: warning: $f: file is truncated inside its feature ${cut%%:*}.*file size $size.*left out\$" err ||
			fail "not the warning: $(cat err)"
		for what in TOTAL SAMPLE MMAP2 COMM; do
			[ "$(stat_count out $what)" = "$(stat_count good.out $what)" ] ||
				fail "$what: $(stat_count out $what) in the cut file, $(stat_count good.out $what) in the whole one"
		done
	done
	# the features before the cut (HOSTNAME ... TOTAL_MEM) are read, the cut one is not
	"$XPERF_BUILD/xperf" report --header-only -i "$CORPUS/truncated/feature-payload-cut.bin" >h 2>/dev/null
	"$XPERF_BUILD/xperf" report --header-only -i "$CORPUS/good/plain.bin" >gh
	for line in hostname "os release" "total memory"; do
		grep "^# $line *:" gh >want || fail "the seed has no $line line to compare"
		grep -qxF "$(cat want)" h || fail "no \"$(cat want)\" from the cut file"
	done
	grep -q "^# cmdline" gh || fail "the seed has no cmdline line to compare"
	if grep -q "^# cmdline" h; then fail "a cmdline from a cut feature"; fi
'

for f in "$CORPUS"/good/*.bin; do
	name=$(basename "$f")
	perf_case "good/$name is read silently with perf's record counts" '
		rc=0; timeout 10 "$XPERF_BUILD/xperf" report --stats -i "'"$f"'" >out 2>err || rc=$?
		[ $rc -eq 0 ] || { cat err; fail "exit $rc"; }
		[ ! -s err ] || fail "stderr: $(cat err)"
		perf_run report --stats -i "'"$f"'" >perf.out 2>/dev/null
		for what in TOTAL SAMPLE MMAP2 COMM; do
			[ "$(stat_count out $what)" = "$(stat_count perf.out $what)" ] ||
				fail "$what: xperf $(stat_count out $what), perf $(stat_count perf.out $what)"
		done
	'
done

test_done
