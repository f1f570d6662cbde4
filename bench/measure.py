#!/usr/bin/env python3
"""Run a command several times and report its wall time (best and median)
and peak resident memory (from wait4's rusage, per run).

usage: measure.py [--runs N] [--label TEXT] -- COMMAND [ARGS...]
Prints one line: LABEL  best S  median S  peak-RSS MB  (command)."""
import os
import statistics
import subprocess
import sys
import time


def main():
    args = sys.argv[1:]
    runs, label = 5, None
    while args and args[0] != "--":
        if args[0] == "--runs":
            runs = int(args[1])
            args = args[2:]
        elif args[0] == "--label":
            label = args[1]
            args = args[2:]
        else:
            raise SystemExit(__doc__)
    cmd = args[1:]
    times, peak = [], 0
    for _ in range(runs):
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(p.pid, 0)
        times.append(time.perf_counter() - t)
        err = p.stderr.read().decode(errors="replace")
        p.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit("%s failed: %s" % (" ".join(cmd), err[:400]))
        peak = max(peak, usage.ru_maxrss / 1024)
    print("%-34s best %7.3f s  median %7.3f s  peak RSS %6.0f MB   (%s)" % (
        label or cmd[1], min(times), statistics.median(times), peak,
        " ".join(cmd)))


if __name__ == "__main__":
    main()
