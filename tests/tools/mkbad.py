#!/usr/bin/env python3
"""Make the bad-file corpus (tests/corpus/{bad,bad-samples,truncated}) from the good seeds.

    tests/tools/mkbad.py              rewrite bad/ and truncated/ from good/
    tests/tools/mkbad.py --good       first re-record good/ with /usr/bin/perf (root)
    tests/tools/mkbad.py --out DIR    write the sets and MANIFEST under DIR instead

Each bad file breaks one rule of the format (the layout is in src/format/xpf_abi.h); a
reader must refuse it with one error naming the file and, where it applies, the offset.
Each truncated file is what a killed recorder or an interrupted copy leaves: a reader must
read it up to the last whole record and warn once. The generated files are committed, so
tests and fuzzing need neither perf nor python; tests/corpus/MANIFEST says what each is.
"""
import os
import struct
import subprocess
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(TOP, "tests", "corpus")
GOOD = os.path.join(CORPUS, "good")

HDR = struct.Struct("<QQQQQQQQQ4Q")  # magic, size, attr_size, attrs{off,size}, data{}, event_types{}, features
REC = struct.Struct("<IHH")          # perf_event_header: type, misc, size
FEAT_HOSTNAME, FEAT_CMDLINE, FEAT_EVENT_DESC = 3, 11, 12
REC_COMPRESSED = 81
MAGIC = b"PERFILE2"
OUT = CORPUS  # --out DIR writes the generated sets (not good/) elsewhere, to compare


def header(d):
    v = HDR.unpack_from(d, 0)
    return {"magic": v[0], "size": v[1], "attr_size": v[2], "attrs": (v[3], v[4]),
            "data": (v[5], v[6]), "features": v[9:13]}


def put_u64(d, off, val):
    struct.pack_into("<Q", d, off, val)


def put_u32(d, off, val):
    struct.pack_into("<I", d, off, val)


# Field offsets in the 104-byte file header.
H_MAGIC, H_SIZE, H_ATTR_SIZE, H_ATTRS_OFF, H_ATTRS_SIZE, H_DATA_OFF, H_DATA_SIZE = 0, 8, 16, 24, 32, 40, 48
H_FEATURES = 72


def records(d, start, end):
    """(offset, type, size) of each record in d[start:end]."""
    out, off = [], start
    while off + REC.size <= end:
        t, _, s = REC.unpack_from(d, off)
        if s < REC.size:
            break
        out.append((off, t, s))
        off += s
    return out


def feature_table(d):
    """{bit: (table entry offset, payload offset, payload size)} of a file (not a pipe)."""
    h = header(d)
    pos = h["data"][0] + h["data"][1]
    bits = [b for b in range(256) if h["features"][b // 64] >> (b % 64) & 1]
    out = {}
    for i, b in enumerate(bits):
        ent = pos + 16 * i
        off, size = struct.unpack_from("<QQ", d, ent)
        out[b] = (ent, off, size)
    return out


def read_good(name):
    with open(os.path.join(GOOD, name), "rb") as f:
        return bytearray(f.read())


def make_bad(plain, zstd, pipe):
    """{name: (bytes, what it breaks)}"""
    bad = {}
    h = header(plain)
    data_off, data_size = h["data"]
    attrs_off, attrs_size = h["attrs"]
    size = len(plain)
    recs = records(plain, data_off, data_off + data_size)
    feats = feature_table(plain)

    def variant(name, why, edit, base=plain):
        d = bytearray(base)
        edit(d)
        bad[name] = (bytes(d), why)

    variant("empty.bin", "a file of 0 bytes", lambda d: d.clear())
    variant("bad-magic.bin", "magic is PERFILE3", lambda d: d.__setitem__(slice(0, 8), b"PERFILE3"))
    variant("not-perf.bin", "an ELF header instead of a perf.data header",
            lambda d: d.__setitem__(slice(0, 16), b"\x7fELF\x02\x01\x01" + bytes(9)))
    variant("short-header.bin", "the file ends 40 bytes into the header", lambda d: d.__delitem__(slice(40, None)))
    variant("header-size-200.bin", "header.size is 200, not 104 (or 16 for a pipe)",
            lambda d: put_u64(d, H_SIZE, 200))
    variant("attr-size-zero.bin", "header.attr_size is 0", lambda d: put_u64(d, H_ATTR_SIZE, 0))
    variant("attr-size-huge.bin", "header.attr_size is 2^32, far more than an attr",
            lambda d: put_u64(d, H_ATTR_SIZE, 1 << 32))
    variant("attrs-past-eof.bin", "the attrs section starts 4096 bytes past the end of the file",
            lambda d: put_u64(d, H_ATTRS_OFF, size + 4096))
    variant("attrs-size-overflow.bin", "attrs.offset + attrs.size wraps around 2^64",
            lambda d: put_u64(d, H_ATTRS_SIZE, (1 << 64) - 64))
    # The first attr's ids section {offset, size} follows the perf_event_attr.
    ids_ent = attrs_off + h["attr_size"] - 16
    variant("attr-ids-past-eof.bin", "the first attr's ids section is past the end of the file",
            lambda d: put_u64(d, ids_ent, size + 100))
    variant("attr-ids-huge.bin", "the first attr's ids section is 2^40 bytes long",
            lambda d: put_u64(d, ids_ent + 8, 1 << 40))
    # perf_event_attr.size is the u32 at offset 4 of the attr. (0 is valid: ABI 0, 64 bytes.)
    variant("attr-attrsize-big.bin", "the first perf_event_attr says its size is 4096, more than attr_size",
            lambda d: put_u32(d, attrs_off + 4, 4096))
    variant("data-offset-past-eof.bin", "the data section starts 4096 bytes past the end of the file",
            lambda d: put_u64(d, H_DATA_OFF, size + 4096))
    variant("data-size-overflow.bin", "data.offset + data.size wraps around 2^64",
            lambda d: put_u64(d, H_DATA_SIZE, (1 << 64) - 8))
    variant("data-overlaps-header.bin", "the data section starts at offset 0, over the header",
            lambda d: put_u64(d, H_DATA_OFF, 0))
    variant("attrs-overlap-data.bin", "the attrs section starts inside the data section",
            lambda d: put_u64(d, H_ATTRS_OFF, data_off + 8))
    variant("data-overlaps-attrs.bin", "the data section starts inside the attrs section",
            lambda d: (put_u64(d, H_DATA_OFF, attrs_off + 8), put_u64(d, H_DATA_SIZE, data_size + data_off - attrs_off - 8)))

    first, second = recs[0][0], recs[1][0]
    variant("record-size-zero.bin", "the first data record has size 0",
            lambda d: struct.pack_into("<H", d, first + 6, 0))
    variant("record-size-4.bin", "the second data record has size 4, less than its own header",
            lambda d: struct.pack_into("<H", d, second + 6, 4))
    variant("record-past-data-end.bin",
            "the second data record is 65528 bytes long, past the end of the data section "
            "(the file goes on with the features, so this is corruption, not truncation)",
            lambda d: struct.pack_into("<H", d, second + 6, 65528))
    # Features: table entries and payload contents.
    ent, off, fsize = feats[FEAT_HOSTNAME]
    variant("hostname-len-huge.bin", "the HOSTNAME string length is 0xffffffff",
            lambda d: put_u32(d, off, 0xFFFFFFFF))
    variant("hostname-past-eof.bin", "the HOSTNAME feature's offset is past the end of the file",
            lambda d: put_u64(d, ent, size + 64))
    variant("hostname-size-huge.bin", "the HOSTNAME feature's size is 2^62",
            lambda d: put_u64(d, ent + 8, 1 << 62))
    ent, off, fsize = feats[FEAT_EVENT_DESC]
    variant("event-desc-nr-huge.bin", "EVENT_DESC says 1e9 events", lambda d: put_u32(d, off, 1000000000))
    variant("event-desc-attr-size-huge.bin", "EVENT_DESC says each attr is 0x7fffffff bytes",
            lambda d: put_u32(d, off + 4, 0x7FFFFFFF))
    # After nr and attr_size: the first attr, then its nr_ids.
    ed_attr_size = struct.unpack_from("<I", plain, off + 4)[0]
    variant("event-desc-ids-huge.bin", "EVENT_DESC's first event has 0x40000000 ids",
            lambda d: put_u32(d, off + 8 + ed_attr_size, 0x40000000))
    if FEAT_CMDLINE in feats:
        ent, off, fsize = feats[FEAT_CMDLINE]
        variant("cmdline-nr-huge.bin", "CMDLINE says 0xffffffff arguments", lambda d: put_u32(d, off, 0xFFFFFFFF))
    feat_start = data_off + data_size
    variant("features-all-bits.bin", "every one of the 256 feature bits is set, with no table to match",
            lambda d: d.__setitem__(slice(H_FEATURES, H_FEATURES + 32), b"\xff" * 32))
    variant("features-all-bits-cut.bin",
            "every feature bit is set and the file ends 24 bytes into the feature table: its first "
            "payload lies inside the table those bits claim (damage, not a cut)",
            lambda d: (d.__setitem__(slice(H_FEATURES, H_FEATURES + 32), b"\xff" * 32),
                       d.__delitem__(slice(feat_start + 24, None))))

    # A COMPRESSED record whose zstd frame is damaged in the middle.
    zh = header(zstd)
    zrecs = [r for r in records(zstd, zh["data"][0], zh["data"][0] + zh["data"][1]) if r[1] == REC_COMPRESSED]
    c_off, _, c_size = zrecs[0]

    def corrupt_block(d):
        # Frame header: magic, descriptor, [window], [dict id], [content size]; then the
        # first block header, whose type we set to 3 (reserved): zstd must refuse it.
        f = c_off + 8
        fhd = d[f + 4]
        single = fhd >> 5 & 1
        hlen = 4 + 1 + (0 if single else 1) + [0, 1, 2, 4][fhd & 3] + [single, 2, 4, 8][fhd >> 6]
        d[f + hlen] |= 0x06
    variant("zstd-corrupt.bin", "the first COMPRESSED record's first zstd block has the reserved type 3",
            corrupt_block, zstd)
    variant("zstd-bad-magic.bin", "the first COMPRESSED record does not start with a zstd frame",
            lambda d: d.__setitem__(slice(c_off + 8, c_off + 12), b"\0\0\0\0"), zstd)
    variant("zstd-size-8.bin", "the first COMPRESSED record is 8 bytes: no zstd data at all",
            lambda d: (struct.pack_into("<H", d, c_off + 6, 8),
                       d.__setitem__(slice(c_off + 8, c_off + c_size), b"\0" * (c_size - 8))), zstd)

    # Pipe streams.
    p_recs = records(pipe, 16, len(pipe))
    attr_rec = next(r for r in p_recs if r[1] == 64)  # HEADER_ATTR
    variant("pipe-record-size-zero.bin", "a pipe stream whose first record has size 0",
            lambda d: struct.pack_into("<H", d, 16 + 6, 0), pipe)
    variant("pipe-attr-short.bin", "a pipe stream whose HEADER_ATTR record is 16 bytes: shorter than an attr",
            lambda d: (struct.pack_into("<H", d, attr_rec[0] + 6, 16),
                       d.__setitem__(slice(attr_rec[0] + 16, attr_rec[0] + attr_rec[2]),
                                     REC.pack(68, 0, 8) * ((attr_rec[2] - 16) // 8))), pipe)
    return bad


def sample_fields_before_callchain(sample_type):
    """u64 words of a sample before its callchain (no READ), per perf_event.h's order."""
    bits = [1 << 16, 1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 6, 1 << 9, 1 << 7, 1 << 8]
    # IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD
    return sum(1 for b in bits if sample_type & b)


def make_bad_samples(plain, callchain):
    """Files whose layout is sound but whose SAMPLE records are not."""
    out = {}
    h = header(plain)
    recs = records(plain, h["data"][0], h["data"][0] + h["data"][1])
    s_off, _, s_size = next(r for r in recs if r[1] == 9)  # PERF_RECORD_SAMPLE
    d = bytearray(plain)
    # Keep the records after it in place: fill the rest of its old size with FINISHED_ROUNDs.
    struct.pack_into("<H", d, s_off + 6, 8)
    d[s_off + 8:s_off + s_size] = REC.pack(68, 0, 8) * ((s_size - 8) // 8)
    out["sample-short.bin"] = (bytes(d), "the first SAMPLE record is 8 bytes: shorter than its sample_type requires")

    h = header(callchain)
    recs = records(callchain, h["data"][0], h["data"][0] + h["data"][1])
    sample_type = struct.unpack_from("<Q", callchain, h["attrs"][0] + 24)[0]
    if sample_type & (1 << 5):  # PERF_SAMPLE_CALLCHAIN
        nr_at = 8 + 8 * sample_fields_before_callchain(sample_type)
        s_off = next(r for r in recs if r[1] == 9)[0]
        d = bytearray(callchain)
        put_u64(d, s_off + nr_at, 0xFFFFFFFF)
        out["callchain-nr-huge.bin"] = (bytes(d), "the first SAMPLE's callchain has 0xffffffff entries")
        d = bytearray(callchain)
        put_u64(d, s_off + nr_at, (1 << 61) + 1)
        out["callchain-nr-overflow.bin"] = (bytes(d), "the first SAMPLE's callchain nr * 8 wraps around 2^64")
    return out


def make_undecodable(plain, two_events):
    """Files whose layout is sound but some or all SAMPLE records cannot be decoded with
    their attr: a report must count them in one warning, never drop them in silence."""
    out = {}
    h = header(plain)
    # perf_event_attr.sample_type is the u64 at offset 24 of the attr
    d = bytearray(plain)
    st = struct.unpack_from("<Q", d, h["attrs"][0] + 24)[0]
    put_u64(d, h["attrs"][0] + 24, st | 1 << 43)
    out["sample-type-unknown-bit.bin"] = (bytes(d), "the attr's sample_type has bit 43 set, unknown: "
                                          "no SAMPLE can be decoded")

    h = header(two_events)
    recs = records(two_events, h["data"][0], h["data"][0] + h["data"][1])
    st = struct.unpack_from("<Q", two_events, h["attrs"][0] + 24)[0]
    assert st & (1 << 6) and not st & (1 << 16), "two-events.bin: want PERF_SAMPLE_ID, no IDENTIFIER"
    id_at = 8 + 8 * (bin(st & 0xf).count("1"))  # after IP, TID, TIME, ADDR
    samples = [r for r in recs if r[1] == 9]
    d = bytearray(two_events)
    for off, _, _ in samples[2::5]:
        put_u64(d, off + id_at, 999999)
    out["sample-ids-unknown.bin"] = (bytes(d), "every fifth SAMPLE (from the third) has id 999999, "
                                     "which no attr owns")

    h = header(plain)
    recs = records(plain, h["data"][0], h["data"][0] + h["data"][1])
    i = next(i for i, r in enumerate(recs) if r[1] == 9 and i + 1 < len(recs))
    d = bytearray(plain)
    struct.pack_into("<H", d, recs[i][0] + 6, recs[i][2] + recs[i + 1][2])
    out["sample-size-grown.bin"] = (bytes(d), "the first SAMPLE's size also covers the record after it: "
                                    "more bytes than its sample_type needs")
    return out


def make_truncated(plain, zstd):
    out = {}
    h = header(plain)
    data_off, data_size = h["data"]
    recs = records(plain, data_off, data_off + data_size)
    # Cut inside a record about two thirds of the way into the data.
    r = recs[(2 * len(recs)) // 3]
    cut = r[0] + r[2] // 2
    out["cut-mid-data.bin"] = (bytes(plain[:cut]),
                               "a good file cut in the middle of a record of the data section (interrupted copy)")
    d = bytearray(plain[:data_off + data_size])
    put_u64(d, H_DATA_SIZE, 0)
    out["killed-recorder.bin"] = (bytes(d),
                                  "data.size is 0 and no feature section follows the data, feature bits still set "
                                  "(what perf leaves when killed)")
    # Cut after the whole data section, inside the features: the data must still be read.
    feat_start = data_off + data_size
    out["feature-table-cut.bin"] = (bytes(plain[:feat_start + 24]),
                                    "the file ends 24 bytes into the feature table, after the whole data section")
    ent, off, fsize = feature_table(plain)[FEAT_CMDLINE]
    out["feature-payload-cut.bin"] = (bytes(plain[:off + fsize // 2]),
                                      "the file ends in the middle of the CMDLINE feature, after the whole data "
                                      "section, the feature table and the features before CMDLINE")
    zh = header(zstd)
    zr = [x for x in records(zstd, zh["data"][0], zh["data"][0] + zh["data"][1]) if x[1] == REC_COMPRESSED]
    last = zr[-1]
    out["zstd-cut-mid-record.bin"] = (bytes(zstd[:last[0] + last[2] // 2]),
                                      "a compressed file cut in the middle of its last COMPRESSED record")
    d = bytearray(zstd[:last[0] + last[2] // 2])
    put_u64(d, H_DATA_SIZE, 0)
    out["zstd-full-disk.bin"] = (bytes(d),
                                 "a compressed file whose recorder met a full disk: data size 0 in the header, "
                                 "its last COMPRESSED record cut short, no feature section")
    return out


def record_good():
    """Re-record the seeds with perf: tiny, deterministic in shape."""
    os.makedirs(GOOD, exist_ok=True)
    loop = "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done"
    base = ["perf", "record", "-N", "--no-bpf-event", "-e", "cpu-clock", "-F", "500"]
    runs = {
        "plain.bin": base + ["-o", "{out}"],
        # -m 2: a small ring buffer drained often, so the file has several COMPRESSED records
        "zstd.bin": ["perf", "record", "-N", "--no-bpf-event", "-e", "cpu-clock", "-F", "4000", "-m", "2",
                     "-z", "-o", "{out}"],
        "callchain.bin": base + ["-g", "-o", "{out}"],
        "two-events.bin": ["perf", "record", "-N", "--no-bpf-event", "-e", "cpu-clock,task-clock", "-F", "500",
                           "-o", "{out}"],
    }
    for name, argv in runs.items():
        out = os.path.join(GOOD, name)
        if os.path.exists(out):
            os.unlink(out)  # else perf keeps the old one as NAME.old
        subprocess.run([a.replace("{out}", out) for a in argv] + ["--", "sh", "-c", loop],
                       check=True, stderr=subprocess.DEVNULL)
        os.chmod(out, 0o644)
    with open(os.path.join(GOOD, "pipe.bin"), "wb") as f:
        subprocess.run(base + ["-o", "-", "--", "sh", "-c", loop], check=True, stdout=f,
                       stderr=subprocess.DEVNULL)


def write_set(folder, files):
    path = os.path.join(OUT, folder)
    os.makedirs(path, exist_ok=True)
    for old in os.listdir(path):
        if old.endswith(".bin"):
            os.unlink(os.path.join(path, old))
    for name, (data, _) in sorted(files.items()):
        with open(os.path.join(path, name), "wb") as f:
            f.write(data)


def main():
    global OUT
    args = sys.argv[1:]
    if "--out" in args:
        OUT = os.path.abspath(args[args.index("--out") + 1])
    if "--good" in args:
        record_good()
    plain, zstd, pipe = read_good("plain.bin"), read_good("zstd.bin"), read_good("pipe.bin")
    callchain = read_good("callchain.bin")
    for name, d in (("plain.bin", plain), ("zstd.bin", zstd)):
        if d[:8] != MAGIC or header(d)["size"] != 104:
            sys.exit("mkbad: good/%s is not a perf.data file" % name)
    bad = make_bad(plain, zstd, pipe)
    trunc = make_truncated(plain, zstd)
    samples = make_bad_samples(plain, callchain)
    samples.update(make_undecodable(plain, read_good("two-events.bin")))
    write_set("bad", bad)
    write_set("bad-samples", samples)
    write_set("truncated", trunc)
    with open(os.path.join(OUT, "MANIFEST"), "w") as f:
        f.write("# Written by tests/tools/mkbad.py: what each file of the corpus is.\n")
        f.write("# bad/: a reader must refuse each with one error line naming the file.\n")
        for name in sorted(bad):
            f.write("bad/%s\t%s\n" % (name, bad[name][1]))
        f.write("# bad-samples/: sound layout, broken SAMPLE records: decoding must fail cleanly.\n")
        for name in sorted(samples):
            f.write("bad-samples/%s\t%s\n" % (name, samples[name][1]))
        f.write("# truncated/: a reader must read each up to the last whole record and warn once.\n")
        for name in sorted(trunc):
            f.write("truncated/%s\t%s\n" % (name, trunc[name][1]))
    print("mkbad: %d bad, %d bad-samples, %d truncated files in %s" % (len(bad), len(samples), len(trunc), OUT))


if __name__ == "__main__":
    main()
