#!/usr/bin/env python3
"""Damage the printk formats of the first TRACING_DATA in a little-endian perf.data file or
stream, keeping every size: damage_tracing_data.py IN OUT MODE, where MODE is
  nul      a NUL inside the section's first line ("abcd\\0efg")
  nocolon  a last line with no " : " (libtraceevent reads past the end of such a line)
The layout is perf's trace-event-read.c (and the comment atop src/script/tracepoint_te.c).
"""
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
mode = sys.argv[3]
o = d.index(b"\x17\x08Dtracing") + 10
o = d.index(b"\0", o) + 1 + 2 + 4          # version, endian, long size, page size
def block64(o):
    n, = struct.unpack_from("<Q", d, o); return o + 8 + n
o = block64(o + 12)                           # header_page
o = block64(o + 13)                           # header_event
n, = struct.unpack_from("<I", d, o); o += 4
for _ in range(n): o = block64(o)
n, = struct.unpack_from("<I", d, o); o += 4
for _ in range(n):
    o = d.index(b"\0", o) + 1
    k, = struct.unpack_from("<I", d, o); o += 4
    for _ in range(k): o = block64(o)
n, = struct.unpack_from("<I", d, o); o += 4 + n  # kallsyms
n, = struct.unpack_from("<I", d, o); o += 4      # printk
assert n >= 8, "printk section too short to damage"
if mode == "nul":
    d[o:o + 8] = b"abcd\0efg"
elif mode == "nocolon":
    d[o + n - 5:o + n] = b"\nabc\n"
print(o, n)
open(sys.argv[2], "wb").write(d)
