#!/usr/bin/python3
"""gen_otf2_big: a large OTF2 archive for bench/bench-otf2.sh, written with
the OTF2 library's Python bindings (python3-otf2): LOCS locations (one MPI
rank each, one thread), each `main` around CALLS calls of `solve`, which
calls `kernel` or `mpi` in turn (4 events a call, 1 GHz ticks).
usage: gen_otf2_big.py DIR LOCS CALLS"""
import sys

import otf2


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    out, locs, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with otf2.writer.open(out, timer_resolution=1000000000) as trace:
        d = trace.definitions
        node = d.system_tree_node("node")
        regs = [d.region(x) for x in ("main", "solve", "kernel", "mpi")]
        for li in range(locs):
            g = d.location_group("rank %d" % li, system_tree_parent=node)
            w = trace.event_writer("thread", group=g)
            t = 1000
            w.enter(t, regs[0])
            for c in range(calls):
                inner = regs[2 + c % 2]
                t += 10
                w.enter(t, regs[1])
                t += 10
                w.enter(t, inner)
                t += 50 + (c * 7 + li) % 40
                w.leave(t, inner)
                t += 10
                w.leave(t, regs[1])
            w.leave(t + 10, regs[0])


if __name__ == "__main__":
    main()
