#!/bin/sh
# The Marks column's independent check at scale (issue 29): a generated
# Nsight export grown by 20,000 nested NVTX ranges and 100,000 marks on
# one thread (at ranges' begins and ends, inside, between), checked by
# tests/check_marks.py, whose scans and sweep are O(n log n): the check
# must end within its time limit (the correlated-subquery SQL it
# replaced took minutes on such a file), and callscope's counts agree.
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -x "$py" ] || exit 77
"$py" "$top_srcdir/tests/gen_nsight.py" "$tmp/nsys" --kernels 50 --ranks 1 \
	--no-answers >/dev/null || exit 1
big="$tmp/big.sqlite"
cp "$tmp/nsys/rank0.sqlite" "$big"
"$py" - "$big" <<'PY' || exit 1
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
g = db.execute("SELECT globalTid FROM NVTX_EVENTS WHERE eventType = 34 "
               "ORDER BY rowid LIMIT 1").fetchone()[0]
t0 = db.execute('SELECT max(max(start), max(COALESCE("end", 0))) '
                "FROM NVTX_EVENTS").fetchone()[0] + 1000
ranges, marks = [], []
for k in range(10000):
    b = t0 + 100 * k
    ranges.append((b, b + 90, 59, "outer %d" % (k % 7), g))
    ranges.append((b + 10, b + 50, 59, "inner %d" % (k % 5), g))
    # a range's begin, inside the inner, the inner's end, the outer's
    # end, between ranges; and five more inside (100,000 in all)
    for d in (0, 10, 20, 50, 90, 95, 30, 40, 60, 70):
        marks.append((b + d, 34, "m", g))
db.executemany("INSERT INTO NVTX_EVENTS (start, end, eventType, text, "
               "globalTid) VALUES (?,?,?,?,?)", ranges)
db.executemany("INSERT INTO NVTX_EVENTS (start, end, eventType, text, "
               "globalTid) VALUES (?, NULL, ?, ?, ?)", marks)
db.commit()
PY
n=$("$py" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 34").fetchone()[0])' "$big")
[ "$n" -ge 100000 ] || fail "the grown file has $n marks"
timeout 120 "$py" "$top_srcdir/tests/check_marks.py" "$cs" "$big" ||
	fail "check_marks.py over $n marks failed or did not end in 120 s"
exit $status
