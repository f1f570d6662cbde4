#!/bin/sh
# The DCPI listing pane keeps the instruction whole at narrow widths
# (critique b6: at 80 columns it kept about 24 columns of instruction bytes
# and cut the instruction, `> 4011e0:  48 89 c1   mov r...`).  Headless,
# on a generated profile of tests/dcpi-prog.c: at 80, 90, 100 and 200
# columns every instruction of main that `callscope listing --format json`
# gives appears on its address's row, its text whole at the end of the
# line, its samples in the first column (digit groups removed); the bytes
# are whole when the widest instruction leaves room for them (200), cut
# to whole bytes and an ellipsis in between, left out otherwise (80), never
# a cut instruction.
. "${top_srcdir:-.}/tests/test-lib.sh"
command -v gcc >/dev/null || { echo "gcc missing"; exit 77; }
[ -x "$py" ] || py=python3
export XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache" LANG=C
gcc -g -O0 -no-pie -o "$tmp/prog" "$top_srcdir/tests/dcpi-prog.c" ||
	{ echo "FAIL: cannot compile tests/dcpi-prog.c"; exit 1; }
"$py" "$top_srcdir/tests/gen_dcpi.py" "$tmp/prog" "$tmp/p" --seed 8 \
	--layout db --samples 300 --answers "$tmp/a.json" >/dev/null || exit 1
"$cs" listing "$tmp/p" main --format json >"$tmp/l.json" || exit 1
for w in 80 90 100 200; do
	# g: from the first instruction, tall enough for all of them
	"$cs" --headless --no-config --size "${w}x80" --keys '/^main$<Enter>ig' \
		"$tmp/p" >"$tmp/s$w" 2>"$tmp/err" ||
		{ echo "FAIL: ${w}: $(cat "$tmp/err")"; status=1; continue; }
	"$py" - "$tmp/l.json" "$tmp/s$w" "$w" <<'PY' || status=1
import json, re, sys
d = json.load(open(sys.argv[1]))
screen = open(sys.argv[2], encoding="utf-8").read().split("\n")
width = int(sys.argv[3])
insns = d["instructions"]
widest = max(len(i["text"]) for i in insns)
bad = []
head = [l for l in screen if "address" in l and "instruction" in l]
if len(head) != 1:
    bad.append("no listing header")
shown = cut = whole = 0
for i in insns:
    addr = i["address"][2:]
    rows = [l.rstrip() for l in screen
            if re.search(r"(^| |>) ?%s: " % addr, l)]
    if len(rows) != 1:
        bad.append("%s: %d rows" % (addr, len(rows)))
        continue
    row = rows[0]
    if not row.endswith("%s: " % addr + i["text"]) and \
            not row.endswith(" " + i["text"]):
        bad.append("%s: instruction %r not whole in %r" % (addr, i["text"], row))
    after = row.split("%s: " % addr, 1)[1]
    if after == i["text"]:
        pass  # no bytes column
    elif after.startswith(i["bytes"] + " "):
        whole += 1
    else:
        b = after[:len(after) - len(i["text"])].rstrip()
        if not b.endswith("~") or not i["bytes"].startswith(b[:-1]) or \
                (len(b) > 1 and i["bytes"][len(b) - 1] != " "):
            bad.append("%s: bytes %r are not whole bytes of %r" % (addr, b, i["bytes"]))
        cut += 1
    v = i["values"][0]
    first = row.split()[0]
    if v > 0 and first.replace(",", "") != "%d" % v:
        bad.append("%s: samples %r, listing says %d" % (addr, first, v))
    shown += 1
if shown != len(insns):
    bad.append("%d of %d instructions shown" % (shown, len(insns)))
# at 200 columns there is room for every byte; at 80 none (the widest
# instruction takes what the two event columns leave)
if width == 200 and whole != len(insns):
    bad.append("200: bytes whole on %d of %d rows" % (whole, len(insns)))
if width == 90 and not cut:
    bad.append("90: no row with its bytes shortened")
if width == 80 and (whole or cut):
    bad.append("80: bytes shown beside a %d-column instruction" % widest)
for b in bad:
    print("FAIL: %d columns: %s" % (width, b))
sys.exit(1 if bad else 0)
PY
done
exit $status
