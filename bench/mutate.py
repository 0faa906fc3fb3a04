#!/usr/bin/env python3
"""Damaged files through every reading command: xperf (ASan+UBSan build) beside perf.

    bench/mutate.py [--mutants N] [--seed S] [--jobs J] [--timeout SEC] [--build DIR]
                    [--no-perf] [--keep]

`make mutate` runs it. Mutants are made from the seeds of tests/fuzz/corpus-pass/ (a
recording of every kind xperf and perf write: see its MANIFEST), deterministically from
--seed: bit flips, byte sets, truncations, record-size and record-field edits, splices of
two seeds, edits of the header, the attrs and the feature table, characters of an event
format in TRACING_DATA (seeds that have one). Each mutant goes through
every reading command under a time limit; the table counts, per command, crashes (a
signal), sanitizer reports (ASan, UBSan, LeakSanitizer), hangs (the time limit), other
exit codes, and the peak RSS (wait4's ru_maxrss). perf runs its namesakes on the same
mutants for comparison. Inputs behind a finding are copied to DIR/mutate/found/ and named
in DIR/mutate/findings.txt, with the first lines of what the command printed.
"""
import argparse
import os
import random
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED_DIR = os.path.join(TOP, "tests/fuzz/corpus-pass")
KALLSYMS = os.path.join(TOP, "tests/fuzz/kallsyms")
SEEDPROG_SH = os.path.join(TOP, "tests/fuzz/seedprog.sh")
# annotate: user code only (kernel code would come from the host's /proc/kcore)
ANN_DSOS = "seedprog,[vdso],libc.so.6"

HDR = 104
INTERESTING64 = [0, 1, 7, 8, 16, 0xFF, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
                 1 << 32, 1 << 40, 1 << 62, (1 << 63) - 1, 1 << 63, (1 << 64) - 1,
                 (1 << 64) - 8]
INTERESTING16 = [0, 1, 4, 7, 8, 16, 24, 0x7FFF, 0x8000, 0xFFF8, 0xFFFF]


# ---- mutations ----------------------------------------------------------------------------

def records(b):
    """(offset, size) of each record of a file's data section or of a pipe stream."""
    if len(b) < 16:
        return []
    if struct.unpack_from("<Q", b, 8)[0] == 16:      # pipe stream
        start, end = 16, len(b)
    elif len(b) >= HDR:
        off, size = struct.unpack_from("<QQ", b, 40)
        start, end = off, min(len(b), off + size)
    else:
        return []
    out, pos = [], start
    while pos + 8 <= end and len(out) < 100000:
        size = struct.unpack_from("<H", b, pos + 6)[0]
        if size < 8:
            break
        out.append((pos, size))
        pos += size
    return out


def put64(b, off, v):
    if 0 <= off and off + 8 <= len(b):
        struct.pack_into("<Q", b, off, v & ((1 << 64) - 1))


def m_bitflip(rng, b, seeds):
    for _ in range(rng.randint(1, 8)):
        if b:
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    return "bitflip"


def m_byteset(rng, b, seeds):
    for _ in range(rng.randint(1, 4)):
        if b:
            b[rng.randrange(len(b))] = rng.choice([0, 0xFF, 0x7F, 0x80, 1, rng.randrange(256)])
    return "byteset"


def m_truncate(rng, b, seeds):
    if len(b) > 1:
        del b[rng.randrange(1, len(b)):]
    return "truncate"


def m_record_size(rng, b, seeds):
    recs = records(b)
    if not recs:
        return m_bitflip(rng, b, seeds)
    off, size = rng.choice(recs)
    v = rng.choice(INTERESTING16 + [size + 8, max(0, size - 8), rng.randrange(65536)])
    struct.pack_into("<H", b, off + 6, v & 0xFFFF)
    return "record-size"


def m_record_field(rng, b, seeds):
    recs = records(b)
    if not recs:
        return m_byteset(rng, b, seeds)
    off, size = rng.choice(recs)
    if rng.random() < 0.3:             # the type
        struct.pack_into("<I", b, off, rng.choice([0, 1, 3, 9, 10, 11, 67, 68, 69, 70, 71,
                                                     73, 79, 80, 81, 83, 255, 0xFFFFFFFF]))
        return "record-type"
    if size > 8:
        put64(b, off + 8 + 8 * rng.randrange((size - 8) // 8 or 1), rng.choice(INTERESTING64))
    return "record-field"


def m_splice(rng, b, seeds):
    other = rng.choice(seeds)
    if len(b) < 2 or len(other) < 2:
        return m_truncate(rng, b, seeds)
    cut = rng.randrange(1, len(b))
    recs = records(b)
    if recs and rng.random() < 0.6:    # at a record boundary, with another seed's records
        cut = rng.choice(recs)[0]
        orecs = records(other)
        tail = other[rng.choice(orecs)[0]:] if orecs else other[rng.randrange(len(other)):]
    else:
        tail = other[rng.randrange(len(other)):]
    del b[cut:]
    b.extend(tail)
    return "splice"


def m_header(rng, b, seeds):
    if len(b) < HDR or struct.unpack_from("<Q", b, 8)[0] == 16:
        return m_record_size(rng, b, seeds)
    # size, attr_size, attrs {off,size}, data {off,size}, event_types {off,size}, features
    field = rng.choice([8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96])
    put64(b, field, rng.choice(INTERESTING64 + [len(b), len(b) + 8, len(b) - 8]))
    return "header"


def m_feature_table(rng, b, seeds):
    if len(b) < HDR or struct.unpack_from("<Q", b, 8)[0] == 16:
        return m_record_field(rng, b, seeds)
    off, size = struct.unpack_from("<QQ", b, 40)
    table = off + size
    bits = sum(bin(struct.unpack_from("<Q", b, 72 + 8 * i)[0]).count("1") for i in range(4))
    if table >= len(b) or not bits:
        return m_header(rng, b, seeds)
    e = table + 16 * rng.randrange(bits)
    if rng.random() < 0.5:             # a feature's {offset, size}
        put64(b, e + 8 * rng.randrange(2), rng.choice(INTERESTING64 + [len(b)]))
    else:                              # inside a payload: counts and lengths
        p, n = struct.unpack_from("<QQ", b, e) if e + 16 <= len(b) else (0, 0)
        if p < len(b) and n:
            q = p + 4 * rng.randrange(max(1, min(n, len(b) - p) // 4))
            if q + 4 <= len(b):
                struct.pack_into("<I", b, q, rng.choice([0, 1, 0xFF, 0xFFFF, 0x7FFFFFFF,
                                                         0xFFFFFFFF, rng.randrange(1 << 32)]))
    return "feature"


def m_attr(rng, b, seeds):
    if len(b) < HDR or struct.unpack_from("<Q", b, 8)[0] == 16:
        return m_record_field(rng, b, seeds)
    off, size = struct.unpack_from("<QQ", b, 24)
    if off >= len(b) or not size:
        return m_header(rng, b, seeds)
    # perf_event_attr: type, size, config, sample_period, sample_type, read_format, flags...
    field = rng.choice([0, 4, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120])
    if field in (0, 4):
        struct.pack_into("<I", b, off + field, rng.choice([0, 1, 2, 0xFFFF, 0xFFFFFFFF, 8, 200]))
    elif field == 24 and rng.random() < 0.5:        # sample_type: flip one bit
        v = struct.unpack_from("<Q", b, off + 24)[0] ^ (1 << rng.randrange(26))
        put64(b, off + 24, v)
    else:
        put64(b, off + field, rng.choice(INTERESTING64))
    return "attr"


def m_tracing_format(rng, b, seeds):
    """Characters of an event format's text in TRACING_DATA (libtraceevent parses it)."""
    start = b.find(b"name: ")
    fmt = b.rfind(b"print fmt: ")
    end = b.find(b"\n", fmt) if fmt > start >= 0 else -1
    if end < 0:
        return m_bitflip(rng, b, seeds)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(start, end)
        if rng.random() < 0.5:
            b[i] ^= 1 << rng.randrange(7)
        else:
            b[i] = ord(rng.choice(' ;:\n\t()[]{}"\'0123456789az,*&|-+<>?.%/\\'))
    return "tracing-format"


MUTATORS = [m_bitflip, m_byteset, m_truncate, m_record_size, m_record_field, m_splice,
            m_header, m_feature_table, m_attr, m_tracing_format]


def make_mutants(n, seed, outdir):
    names = sorted(f for f in os.listdir(SEED_DIR) if f.endswith(".bin"))
    seeds = [open(os.path.join(SEED_DIR, f), "rb").read() for f in names]
    rng = random.Random(seed)
    out = []
    for i in range(n):
        k = i % len(names)             # every kind in turn
        b = bytearray(seeds[k])
        kinds = [rng.choice(MUTATORS)(rng, b, seeds) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
        path = os.path.join(outdir, "m%05d-%s-%s.bin" % (i, names[k][:-4], "+".join(kinds)))
        with open(path, "wb") as f:
            f.write(b)
        out.append(path)
    return out


# ---- commands -----------------------------------------------------------------------------

def commands(build, rel_build, with_perf):
    """(tool, name, argv with {IN} and {OUT}) for every reading command."""
    out = [("xperf",) + c for c in xperf_commands(build)]
    if rel_build:
        out += [("xperf-rel",) + c for c in xperf_commands(rel_build)]
    if with_perf:
        out += [("perf",) + c for c in perf_commands()]
    return out


def xperf_commands(build):
    b = os.path.join(TOP, build)
    xr, xs = os.path.join(b, "xperf-report"), os.path.join(b, "xperf-script")
    xa, xi = os.path.join(b, "xperf-annotate"), os.path.join(b, "xperf-inject")
    k = ["--kallsyms", KALLSYMS]
    fields = ["-F", "comm,tid,time,event,ip,sym,dso,period,trace",
              "--show-task-events", "--show-mmap-events"]
    x = [
        ("report --stdio", [xr, "-i", "{IN}", "--stdio", "--no-children", "-g", "none"] + k),
        ("report --stdio -g", [xr, "-i", "{IN}", "--stdio", "-g", "graph,0.5,caller"] + k),
        ("report --flamegraph", [xr, "-i", "{IN}", "--flamegraph", "/dev/null"] + k),
        ("report --pprof", [xr, "-i", "{IN}", "--pprof", "/dev/null"] + k),
        ("report --stats", [xr, "-i", "{IN}", "--stats"]),
        ("report -D", [xr, "-i", "{IN}", "-D"]),
        ("script", [xs, "-i", "{IN}"] + k),
        ("script -F ...", [xs, "-i", "{IN}"] + fields + k),
        ("annotate --stdio", [xa, "-i", "{IN}", "--stdio", "-d", ANN_DSOS] + k),
        ("inject", [xi, "-i", "{IN}", "-o", "{OUT}"]),
    ]
    return x


def perf_commands():
    k = ["--kallsyms", KALLSYMS]
    fields = ["-F", "comm,tid,time,event,ip,sym,dso,period,trace",
              "--show-task-events", "--show-mmap-events"]
    return [
        ("report --stdio", ["perf", "report", "-i", "{IN}", "--stdio", "--no-children",
                            "-g", "none"] + k),
        ("report --stdio -g", ["perf", "report", "-i", "{IN}", "--stdio", "-g",
                               "graph,0.5,caller"] + k),
        ("report --stats", ["perf", "report", "-i", "{IN}", "--stats"]),
        ("report -D", ["perf", "report", "-i", "{IN}", "-D"]),
        ("script", ["perf", "script", "-i", "{IN}"] + k),
        ("script -F ...", ["perf", "script", "-i", "{IN}"] + fields + k),
        ("annotate --stdio", ["perf", "annotate", "-i", "{IN}", "--stdio", "-d",
                              ANN_DSOS] + k),
        ("inject", ["perf", "inject", "-i", "{IN}", "-o", "{OUT}"]),
    ]


SAN_MARKS = (b"ERROR: AddressSanitizer", b"ERROR: LeakSanitizer", b"runtime error:",
             b"ERROR: UndefinedBehaviorSanitizer")


# GNU time measures the peak RSS: wait4's ru_maxrss for a child of this process would count
# the copy of python it was forked from
GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def run_one(argv, timeout, env, cwd):
    """(status, signal or None, hung, peak RSS KB, seconds, stderr head)."""
    t0 = time.monotonic()
    rss_file = os.path.join(cwd, "rss")
    if GNU_TIME:
        argv = [GNU_TIME, "-f", "%M", "-o", rss_file] + argv
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=err, env=env, cwd=cwd, start_new_session=True)
        hung = []

        def kill():
            hung.append(True)
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        timer = threading.Timer(timeout, kill)
        timer.start()
        _, status, ru = os.wait4(p.pid, 0)
        timer.cancel()
        p.returncode = 0                  # reaped here, not by Popen
        err.seek(0)
        text = err.read(1 << 20)
    secs = time.monotonic() - t0
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    rss = ru.ru_maxrss
    if GNU_TIME:
        # GNU time exits as its command did; before the figure it writes "Command
        # terminated by signal N" (or "Command exited with non-zero status N")
        rss = 0
        try:
            with open(rss_file) as f:
                lines = f.read().splitlines()
            rss = int(lines[-1])
            if lines[0].startswith("Command terminated by signal"):
                sig = int(lines[0].split()[-1])
        except (OSError, ValueError, IndexError):
            pass
    return code, sig, bool(hung), rss, secs, text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mutants", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--build", default=os.environ.get("BUILD", "build-san"))
    ap.add_argument("--release", default="build",
                    help="also run the release build's commands (their RSS is the one the "
                         "bound is about: ASan's shadow inflates it); '' for none")
    ap.add_argument("--no-perf", action="store_true")
    ap.add_argument("--perf-every", type=int, default=1,
                    help="run perf on every Nth mutant only (it costs as much as xperf's ASan "
                         "build)")
    ap.add_argument("--leaks", action="store_true",
                    help="LeakSanitizer at every exit (triples the cost of a run; the pass "
                         "fuzzer checks leaks)")
    ap.add_argument("--keep", action="store_true", help="keep the mutants")
    ap.add_argument("--max-seconds", type=float, default=0,
                    help="start no mutant after this long (the table says how many ran)")
    a = ap.parse_args()

    for tool in ("xperf-report", "xperf-script", "xperf-annotate", "xperf-inject"):
        if not os.access(os.path.join(TOP, a.build, tool), os.X_OK):
            sys.exit("mutate: %s/%s is not built (make SANITIZE=1)" % (a.build, tool))
    with_perf = not a.no_perf and shutil.which("perf") is not None
    subprocess.run(["bash", "-c", ". '%s' && seedprog_install" % SEEDPROG_SH], cwd=TOP,
                   check=True)
    work = os.path.join(TOP, a.build, "mutate")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "mutants"))
    os.makedirs(os.path.join(work, "found"))
    home = os.path.join(work, "home")
    os.makedirs(home)
    env = dict(os.environ, HOME=home, XDG_CACHE_HOME=home, TERM="dumb", NO_COLOR="1",
               PAGER="cat",
               ASAN_OPTIONS="detect_leaks=%d:abort_on_error=0:exitcode=99" % a.leaks,
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=99")
    mutants = make_mutants(a.mutants, a.seed, os.path.join(work, "mutants"))
    rel = a.release if a.release and os.access(os.path.join(TOP, a.release, "xperf-report"),
                                               os.X_OK) else None
    cmds = commands(a.build, rel, with_perf)

    stats = {}   # (tool, name) -> dict
    findings = []
    lock = threading.Lock()
    done = [0]
    t0 = time.monotonic()

    def job(mi):
        path = mutants[mi]
        if a.max_seconds and time.monotonic() - t0 > a.max_seconds:
            return
        scratch = tempfile.mkdtemp(dir=work)
        try:
            for tool, name, argv in cmds:
                if tool == "perf" and mi % max(1, a.perf_every):
                    continue
                out = os.path.join(scratch, "out.data")
                args = [s.replace("{IN}", path).replace("{OUT}", out) for s in argv]
                code, sig, hung, rss, secs, text = run_one(args, a.timeout, env, scratch)
                san = any(m in text for m in SAN_MARKS)
                kind = ("hang" if hung else "crash" if sig and not san else
                        "sanitizer" if san else None)
                if tool != "perf" and not kind and code not in (0, 1, 2):
                    kind = "exit %d" % code
                with lock:
                    s = stats.setdefault((tool, name), dict(runs=0, ok=0, crash=0, sanitizer=0,
                                                            hang=0, other=0, rss=0, rss_file="",
                                                            secs=0.0))
                    s["runs"] += 1
                    s["ok"] += code == 0
                    s["secs"] += secs
                    if kind in ("crash", "sanitizer", "hang"):
                        s[kind] += 1
                    elif kind:
                        s["other"] += 1
                    if rss > s["rss"]:
                        s["rss"], s["rss_file"] = rss, os.path.basename(path)
                    if kind:
                        findings.append((tool, name, kind, path, sig, text))
                try:
                    os.unlink(out)
                except FileNotFoundError:
                    pass
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        with lock:
            done[0] += 1
            if done[0] % 100 == 0:
                print("mutate: %d/%d mutants, %.0f s" % (done[0], len(mutants),
                                                         time.monotonic() - t0),
                      file=sys.stderr, flush=True)

    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        list(ex.map(job, range(len(mutants))))
    took = time.monotonic() - t0

    with open(os.path.join(work, "findings.txt"), "w") as f:
        for tool, name, kind, path, sig, text in sorted(findings, key=lambda x: x[:3]):
            if tool != "perf":
                shutil.copy(path, os.path.join(work, "found"))
            head = text.decode("utf-8", "replace").splitlines()
            keep = [l for l in head if any(m.decode() in l for m in SAN_MARKS) or " #" in l][:8]
            f.write("%s %s: %s%s on %s\n" % (tool, name, kind, " (signal %d)" % sig if sig else "",
                                             os.path.basename(path)))
            for l in (keep or head[:4]):
                f.write("    | %s\n" % l[:200])

    print("%d mutants of %d seeds (seed %d), %d s limit, xperf: %s (leak checks %s)%s, %.0f s" %
          (done[0], len([x for x in os.listdir(SEED_DIR) if x.endswith(".bin")]), a.seed,
           a.timeout, a.build, "on" if a.leaks else "off", ", xperf-rel: " + rel if rel else "",
           took))
    print("%-9s %-20s %6s %6s %6s %9s %6s %6s %9s %7s  %s" % ("tool", "command", "runs", "exit0",
          "crash", "sanitizer", "hang", "other", "peak RSS", "mean s", "(peak on)"))
    tot = {}
    for (tool, name), s in sorted(stats.items()):
        print("%-9s %-20s %6d %6d %6d %9d %6d %6d %7d KB %7.3f  %s" % (tool, name, s["runs"],
              s["ok"], s["crash"], s["sanitizer"], s["hang"], s["other"], s["rss"],
              s["secs"] / max(1, s["runs"]), s["rss_file"]))
        t = tot.setdefault(tool, [0, 0, 0, 0, 0, 0])
        for i, key in enumerate(("runs", "crash", "sanitizer", "hang", "other")):
            t[i] += s[key]
        t[5] = max(t[5], s["rss"])
    for tool, t in sorted(tot.items()):
        print("%-9s %-20s %6d %6s %6d %9d %6d %6d %7d KB" % (tool, "TOTAL", t[0], "", t[1], t[2],
              t[3], t[4], t[5]))
    if done[0] < len(mutants):
        print("(%d of the %d mutants made: --max-seconds %.0f ran out)" % (done[0], len(mutants),
                                                                       a.max_seconds))
    print("perf ran on every %s mutant" % ("" if a.perf_every <= 1 else "%dth" % a.perf_every))
    print("findings: %s (inputs of xperf's in %s)" % (os.path.join(work, "findings.txt"),
                                                     os.path.join(work, "found")))
    if not a.keep:
        shutil.rmtree(os.path.join(work, "mutants"), ignore_errors=True)
    bad = sum(t[1] + t[2] + t[3] for tool, t in tot.items() if tool != "perf")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
