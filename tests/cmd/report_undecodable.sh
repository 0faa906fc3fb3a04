#!/usr/bin/env bash
# Samples the report cannot decode (tests/corpus/bad-samples: an id no attr owns, unknown
# sample_type bits, a size that disagrees with the attr, a callchain past the record) are
# counted in one summary warning naming the first one's offset and why, the "# Samples"
# headers count what was shown, and more than half of the samples lost that way is a
# failure (exit 2). The expected numbers come from an independent walk of each file.
. "$(dirname "$0")/lib.sh"

CORPUS=$TOP/tests/corpus
R=$XPERF_BUILD/xperf-report
export CORPUS R

# facts FILE: "TOTAL BAD FIRST REASON" for the SAMPLE records of a plain perf.data FILE,
# decoded here with the attrs' sample_type: how many, how many cannot be decoded, the file
# offset of the first of those (0x... or -) and a word for why (id, bits, size, callchain)
facts() {
	python3 - "$1" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
attr_size, a_off, a_size, data_off, data_size = struct.unpack_from("<QQQQQ", d, 16)
attrs = {}   # id -> sample_type
types = []
for off in range(a_off, a_off + a_size, attr_size):
    st = struct.unpack_from("<Q", d, off + 24)[0]
    ids_off, ids_size = struct.unpack_from("<QQ", d, off + attr_size - 16)
    types.append(st)
    for i in range(ids_size // 8):
        attrs[struct.unpack_from("<Q", d, ids_off + 8 * i)[0]] = st
KNOWN = (1 << 25) - 1
FIXED = [0, 1, 2, 3, 6, 9, 7, 8]  # IP TID TIME ADDR ID STREAM_ID CPU PERIOD, in order
total = bad = 0
first, why = None, "-"
off, end = data_off, data_off + data_size
while off + 8 <= end:
    t, _, s = struct.unpack_from("<IHH", d, off)
    if s < 8:
        break
    if t == 9:
        total += 1
        st, reason = types[0], None
        if len(types) > 1:
            st0 = types[0]
            if st0 & (1 << 16):
                sid = struct.unpack_from("<Q", d, off + 8)[0]
            else:
                sid = struct.unpack_from("<Q", d, off + 8 + 8 * bin(st0 & 0xf).count("1"))[0]
            st = attrs.get(sid)
            if st is None:
                reason = "id"
        if reason is None and st & ~KNOWN:
            reason = "bits"
        if reason is None:
            assert not st & ~((1 << 16) | (1 << 5) | sum(1 << b for b in FIXED)), "layout not handled here"
            need = 8 + 8 * (bin(st & sum(1 << b for b in FIXED)).count("1") + bool(st & (1 << 16)))
            if st & (1 << 5):
                if need + 8 > s:
                    reason = "size"
                else:
                    nr = struct.unpack_from("<Q", d, off + need)[0]
                    need += 8 + 8 * nr
                    reason = "callchain" if need > s else None
            if reason is None and need != s:
                reason = "size"
        if reason:
            bad += 1
            if first is None:
                first, why = off, reason
    off += s
print(total, bad, "0x%x" % first if first is not None else "-", why)
EOF
}
export -f facts

# The words of each reason in xperf's warning.
reason_re() {
	case $1 in
	id) echo "id [0-9]+ matches no event" ;;
	bits) echo "unknown sample_type bits 0x[0-9a-f]+" ;;
	size) echo "sample record of size [0-9]+(, but its sample_type needs [0-9]+ bytes|: .* needs [0-9]+ bytes, [0-9]+ left)" ;;
	callchain) echo "sample record of size [0-9]+: callchain at byte [0-9]+ needs [0-9]+ bytes, [0-9]+ left" ;;
	esac
}
export -f reason_re

if ! command -v python3 >/dev/null; then
	skip_case "undecodable samples are counted" "python3 is absent (the cases walk the files with it)"
	test_done
fi

for f in "$CORPUS"/bad-samples/*.bin; do
	name=bad-samples/$(basename "$f")
	test_case "$name: one summary warning with the count, first offset and reason; the headers count what was shown" '
		read -r total bad first why < <(facts "'"$f"'")
		[ "$bad" -gt 0 ] || fail "the walk finds no undecodable sample in this file"
		rc=0; "$R" --stdio -i "'"$f"'" >out 2>err || rc=$?
		want_rc=0; [ $((bad * 2)) -gt "$total" ] && want_rc=2
		[ $rc -eq $want_rc ] || { cat err; fail "exit $rc, want $want_rc ($bad of $total samples undecodable)"; }
		[ "$(wc -l <err)" -eq 1 ] || { cat err; fail "want exactly one line on stderr"; }
		n=$(LC_ALL=C awk -v n="$bad" "BEGIN { s = sprintf(\"%d\", n); o = \"\"; while (length(s) > 3) { o = \",\" substr(s, length(s) - 2) o; s = substr(s, 1, length(s) - 3) } print s o }")
		s=s; [ "$bad" -eq 1 ] && s=
		grep -Eq "^xperf report: warning: $n sample$s could not be decoded \(first at offset $first: $(reason_re "$why")\)\$" err ||
			fail "want $n undecodable, first at $first ($why); got: $(cat err)"
		shown=$(sed -n "s/^# Samples: \([0-9]*\) .*/\1/p" out | awk "{ s += \$1 } END { print s + 0 }")
		[ "$shown" -eq $((total - bad)) ] || fail "headers count $shown samples, want $((total - bad))"
	'
done

test_case "-q keeps the warning when the report fails for it, and drops it when it does not" '
	rc=0; "$R" --stdio -q -i "$CORPUS/bad-samples/sample-type-unknown-bit.bin" >out 2>err || rc=$?
	[ $rc -eq 2 ] || fail "exit $rc, want 2"
	grep -q "^xperf report: warning: .* could not be decoded" err || fail "no warning: $(cat err)"
	rc=0; "$R" --stdio -q -i "$CORPUS/bad-samples/sample-ids-unknown.bin" >out 2>err || rc=$?
	[ $rc -eq 0 ] || fail "exit $rc, want 0"
	[ ! -s err ] || fail "-q printed: $(cat err)"
'

test_case "good files have no undecodable sample and no warning" '
	for f in "$CORPUS"/good/*.bin; do
		case $f in *pipe.bin | *zstd.bin) continue ;; esac # the walk reads plain files
		read -r total bad first why < <(facts "$f")
		[ "$bad" -eq 0 ] || fail "$f: the walk finds $bad undecodable samples"
		"$R" --stdio -i "$f" >out 2>err || fail "$f: exit $?"
		[ ! -s err ] || fail "$f: $(cat err)"
		shown=$(sed -n "s/^# Samples: \([0-9]*\) .*/\1/p" out | awk "{ s += \$1 } END { print s + 0 }")
		[ "$shown" -eq "$total" ] || fail "$f: headers count $shown samples, want $total"
	done
'

test_done
