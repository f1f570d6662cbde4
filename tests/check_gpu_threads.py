"""A GPU run's threads pane (T, headless, 160x40) on the default column,
GPU time (ns) (I): at the root each GPU queue or stream row holds the time
of its kernels, copies and memsets, summed here by SQL from the database
(rocpd_op by gpuId and queueId; Nsight's CUPTI_ACTIVITY_KIND_KERNEL,
_MEMCPY and _MEMSET by deviceId and streamId), and each host thread row 0;
at the root and at the hot path's end (H T) the rows sum to the tree's
value ("thread sum X (100%) = stored summary X").

usage: check_gpu_threads.py CALLSCOPE DB   (exit 1 on a mismatch)
"""
import re
import sqlite3
import subprocess
import sys

cs, db = sys.argv[1:3]
fails = []
UNIT = {"ns": 1, "us": 1e3, "\u00b5s": 1e3, "ms": 1e6, "s": 1e9}


def ns(text):
    """(nanoseconds, half a unit of the last digit) of "183.9 ms"."""
    m = re.fullmatch(r"(-?[\d,]+(?:\.(\d+))?)(?: (ns|us|\u00b5s|ms|s))?",
                     text)
    if not m:
        return None
    f = UNIT[m.group(3) or "ns"]
    dec = len(m.group(2) or "")
    return float(m.group(1).replace(",", "")) * f, 0.5 * 10 ** -dec * f


def expected():
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    tabs = {r[0] for r in c.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    want = {}
    if "rocpd_op" in tabs:
        for g, q, t in c.execute('SELECT gpuId, queueId, SUM("end" - start)'
                                 " FROM rocpd_op GROUP BY 1, 2"):
            want["GPU %d queue %d" % (g, q)] = t
    for k in ("KERNEL", "MEMCPY", "MEMSET"):
        if "CUPTI_ACTIVITY_KIND_" + k in tabs:
            for d, s, t in c.execute(
                    'SELECT deviceId, streamId, SUM("end" - start) FROM '
                    "CUPTI_ACTIVITY_KIND_%s GROUP BY 1, 2" % k):
                key = "GPU %d stream %d" % (d, s)
                want[key] = want.get(key, 0) + t
    return want


def copies():
    """(the tree's name of the host-to-device copies, their SQL time)."""
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    tabs = {r[0] for r in c.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "rocpd_op" in tabs:
        return "CopyHostToDevice", c.execute(
            'SELECT SUM(o."end" - o.start) FROM rocpd_op o JOIN '
            "rocpd_string t ON t.id = o.opType_id WHERE t.string = "
            "'CopyHostToDevice'").fetchone()[0]
    if "CUPTI_ACTIVITY_KIND_MEMCPY" in tabs:
        return "[memcpy HtoD]", c.execute(
            'SELECT SUM("end" - start) FROM CUPTI_ACTIVITY_KIND_MEMCPY '
            "WHERE copyKind = 1").fetchone()[0]
    return None, None


def pane(keys, column="GPU time (ns) (I)"):
    out = subprocess.run([cs, "--headless", "--no-config", "--size",
                          "160x40", "--keys", keys, db],
                         capture_output=True, text=True, check=True).stdout
    lines = out.split("\n")
    head = next((l for l in lines if "per execution context:" in l), None)
    if head is None or column not in head:
        fails.append("%s: no threads pane of %s: %r" %
                     (keys, column, lines[-2:]))
        return None, []
    if not any(re.search(r"thread sum (.+) \(100%\) = stored summary \1$",
                         l.strip()) for l in lines):
        fails.append("%s: the rows do not sum to the tree's value: %r" %
                     (keys, [l for l in lines if "thread sum" in l]))
    rows = []
    for l in lines:
        m = re.match(r"^ +(\S+(?: (?:ns|us|\u00b5s|ms|s))?) +\d+\.\d%  (.+)$",
                     l)
        if m and ns(m.group(1)):
            rows.append((ns(m.group(1)), m.group(2).strip()))
    return head, rows


want = expected()
head, rows = pane("T")
if head is not None:
    if not rows:
        fails.append("T: no rows")
    seen = set()
    for (v, half), label in rows:
        key = next((k for k in want if label.endswith(k)), None)
        if key is None:
            if v != 0:
                fails.append("T: host row %r has GPU time %g ns" %
                             (label, v))
            continue
        seen.add(key)
        if abs(v - want[key]) > half * (1 + 1e-9):
            fails.append("T: %r shows %g ns, SQL sums %d" %
                         (label, v, want[key]))
    for k in want:
        if k not in seen:
            fails.append("T: no row for %s (%d ns)" % (k, want[k]))
pane("HT")
# the copies' own (exclusive) time: on their queue only, not also on the
# thread that launched them
name, t = copies()
if name:
    # the search takes a pattern: the name without its brackets
    head, rows = pane("s/%s<Enter>T" % name.strip("[]"), "GPU time (ns) (E)")
    if head is not None and not head.rstrip().endswith(": " + name):
        fails.append("the threads pane is not %s's: %r" % (name, head))
    busy = [(v, half, label) for (v, half), label in rows if v]
    if len(busy) != 1 or not any(busy[0][2].endswith(k) for k in want) or \
            abs(busy[0][0] - t) > busy[0][1] * (1 + 1e-9):
        fails.append("%s: rows with time %r, SQL sums %d on its queue" %
                     (name, busy, t))
if fails:
    print("%s:\n  %s" % (db, "\n  ".join(fails)))
    sys.exit(1)
print("%s: %d rows, %d GPU lines" % (db, len(rows), len(want)))
