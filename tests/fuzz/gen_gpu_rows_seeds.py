#!/usr/bin/python3
"""Seeds of tests/fuzz/fuzz-gpu-rows: small runs of each layout that the
readers open (a call launching a kernel and a copy, a range around them,
names), written in the target's encoding: byte 0 the layout (0 Nsight, 1
.rpd, 2 rocprofv3), then rows: a table index, then per column a value
(tag 0 NULL, 1 int8, 4 int64 little-endian, 5 text of length < 32, 6 real).
The tables and their column orders are those of fuzz-gpu-rows.c.

usage: gen_gpu_rows_seeds.py DIR"""
import os
import struct
import sys


def null():
    return b"\0"


def i8(v):
    return b"\1" + struct.pack("<b", v)


def i64(v):
    return b"\4" + struct.pack("<q", v)


def text(s):
    b = s.encode()[:31]
    return b"\5" + bytes([len(b)]) + b


def real(v):
    return b"\6" + struct.pack("<d", v)


def row(table, *values):
    return bytes([table]) + b"".join(values)


GTID = (1 << 24) | 100  # pid 1, tid 100
GPID = 1 << 24


def nsight():
    out = b"\0"
    for i, s in enumerate(["cudaLaunchKernel", "saxpy", "saxpy(float*)",
                           "cudaMemcpy", "step"], 1):
        out += row(0, i8(i), text(s))
    # runtime: start end class gtid corr name ret
    out += row(1, i64(110), i64(150), i8(0), i64(GTID), i8(7), i8(1), i8(0))
    out += row(1, i64(200), i64(900), i8(0), i64(GTID), i8(8), i8(4), i8(0))
    out += row(1, i64(200), i64(900), i8(67), i64(GTID), i8(8), i8(4), i8(0))
    # kernel: start end dev ctx stream corr gpid demangled short regs grid block
    out += row(2, i64(160), i64(400), i8(0), i8(1), i8(7), i8(7), i64(GPID),
               i8(3), i8(2), i8(32), i8(64), i8(127))
    # memcpy: start end dev ctx stream corr gpid bytes kind src dst
    out += row(3, i64(500), i64(1000), i8(0), i8(1), i8(7), i8(8),
               i64(GPID), i64(2000), i8(1), i8(0), i8(1))
    # NVTX: start end type range category text gtid textId domain
    out += row(5, i64(100), i64(1000), i8(59), null(), i8(3), null(),
               i64(GTID), i8(5), i8(0))
    # a kernel whose correlation id matches no call, and a hostile one
    out += row(2, i64(1200), i64(1100), i8(0), i8(1), i8(7), i8(99),
               i64(GPID), null(), text("x"), real(1.5), i8(-1), null())
    return out


def rpd():
    out = b"\1"
    for i, s in enumerate(["hipLaunchKernel", "KernelExecution", "saxpy",
                           "hipMemcpy", "CopyHostToDevice", "UserMarker",
                           "step"], 1):
        out += row(0, i8(i), text(s))
    # api: id pid tid start end name args
    out += row(1, i8(1), i8(5), i8(5), i64(100), i64(1000), i8(6), i8(7))
    out += row(1, i8(2), i8(5), i8(5), i64(110), i64(150), i8(1), i8(3))
    out += row(1, i8(3), i8(5), i8(5), i64(200), i64(900), i8(4), i8(3))
    # op: id gpu queue seq signal start end description type
    out += row(2, i8(1), i8(0), i8(0), i8(0), null(), i64(160), i64(400),
               i8(3), i8(2))
    out += row(2, i8(2), i8(0), i8(0), i8(1), null(), i64(500), i64(1000),
               i8(5), i8(5))
    # api_ops: id api op; copyapi: api stream size ...
    out += row(3, i8(1), i8(2), i8(1))
    out += row(3, i8(2), i8(3), i8(2))
    out += row(4, i8(3), null(), i64(2000))
    out += row(6, i8(1), text("gpu"), i8(0), text("power"), i64(100),
               i64(200), text("5.5"))
    return out


def v3():
    out = b"\2"
    for i, s in enumerate(["hipLaunchKernel", "hipMemcpy", "MEMORY_COPY"],
                          1):
        out += row(0, i8(i), text("g"), text(s))
    # region: id guid nid pid tid start end name event
    out += row(1, i8(1), text("g"), i8(0), i8(5), i8(5), i64(110), i64(150),
               i8(1), i8(1))
    out += row(1, i8(2), text("g"), i8(0), i8(5), i8(5), i64(200), i64(900),
               i8(2), i8(2))
    # dispatch: id pid tid agent kernel queue start end event dispatch
    # stream grid
    out += row(2, i8(1), i8(5), i8(5), i8(1), i8(1), i8(9), i64(160),
               i64(400), i8(3), i8(1), i8(0), i8(64))
    # event: id guid category stack parent corr call line extdata
    out += row(3, i8(1), text("g"), null(), i8(1), i8(0), null(), null(),
               null(), text("{}"))
    out += row(3, i8(2), text("g"), null(), i8(2), i8(0), null(), null(),
               null(), text("{}"))
    out += row(3, i8(3), text("g"), null(), i8(1), i8(0), null(), null(),
               null(), text("{}"))
    out += row(3, i8(4), text("g"), null(), i8(2), i8(0), null(), null(),
               null(), text("{}"))
    # symbol: id guid nid pid code kernel display
    out += row(4, i8(1), text("g"), i8(0), i8(5), i8(0),
               text("_Z5saxpyPf"), text("saxpy"))
    # copy: id guid nid pid tid start end name size event dst src
    out += row(5, i8(1), text("g"), i8(0), i8(5), i8(5), i64(500),
               i64(1000), i8(3), i64(2000), i8(4), i8(1), i8(0))
    # process: id guid nid ppid pid init fini start end command env ext
    out += row(6, i8(1), text("g"), i8(0), i8(1), i8(5), null(), null(),
               null(), null(), text("a.out"),
               text('{"PMI_RANK": "3"}'), null())
    # agent: id guid nid pid type absolute logical type_index ...
    out += row(7, i8(1), text("g"), i8(0), i8(5), text("GPU"), i8(0),
               i8(0), i8(0), null(), text("gfx90a"), null(), null())
    return out


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    for name, data in (("nsight", nsight()), ("rpd", rpd()), ("v3", v3())):
        with open(os.path.join(d, name + ".bin"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
