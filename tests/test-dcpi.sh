#!/bin/sh
# DCPI profiles from tests/gen_dcpi.py for a program this test compiles
# (tests/dcpi-prog.c, gcc -g): per-function, per-address and per-event
# counts against the generator's answers, which come from binutils
# (readelf) and not from libelf; source lines against addr2line; both
# header editions (with and without the NT version/tstart lines); a single
# file and a database directory (two events, two epochs); the image moved
# and found through --image-path; no image; a stripped image.  Hostile
# files exit 2 with one line naming the file, never a crash.
. "${top_srcdir:-.}/tests/test-lib.sh"
gen="$top_srcdir/tests/gen_dcpi.py"
[ -x /usr/bin/python3 ] || { echo "python3 missing"; exit 1; }
command -v gcc >/dev/null && command -v readelf >/dev/null &&
	command -v addr2line >/dev/null || { echo "gcc/binutils missing"; exit 77; }
mkdir "$tmp/bin" "$tmp/moved"
gcc -g -O0 -no-pie -o "$tmp/bin/prog" "$top_srcdir/tests/dcpi-prog.c" ||
	{ echo "FAIL: cannot compile tests/dcpi-prog.c"; exit 1; }
cp "$tmp/bin/prog" "$tmp/moved/prog"
strip -o "$tmp/stripped" "$tmp/bin/prog"
# nm must know the functions the answers name (binutils agree)
nm "$tmp/bin/prog" | grep -q ' T dcpi_alpha$' || { echo "FAIL: nm"; status=1; }

# check REPORT.json ANSWERS.json LABEL MODE: MODE "sym" (symbols and
# lines expected) or "nosym" (every address a [prog @ 0xADDR] row)
check() {
	/usr/bin/python3 - "$1" "$2" "$3" "$4" "$5" <<'PY'
import json, os, subprocess, sys
rep = json.load(open(sys.argv[1])); ans = json.load(open(sys.argv[2]))
label, mode, elf = sys.argv[3], sys.argv[4], sys.argv[5]
cols = [(c["metric"], c["kind"]) for c in rep["columns"]]
bad = n = 0
def fail(msg):
    global bad
    bad += 1
    if bad < 8:
        print("FAIL %s: %s" % (label, msg))
def vals(node, kind):
    return {m: (node["values"][i] or 0) for i, (m, k) in enumerate(cols) if k == kind}
nodes = {x["id"]: x for x in rep["nodes"]}
funcs, unknown, addrs, lines, inl = {}, {}, {}, {}, {}
for x in rep["nodes"]:
    if x["kind"] == "function" and nodes[x["parent"]]["kind"] == "function":
        continue  # an inlined call: checked below with addr2line -i
    if x["kind"] == "function":
        if x["name"].startswith("["):
            unknown[x["name"]] = vals(x, "exclusive")
        else:
            funcs[x["name"]] = vals(x, "inclusive")
    elif x["kind"] == "address":
        a = x["name"].rsplit("@0x", 1)[1]
        addrs[a] = vals(x, "exclusive")
        p = nodes[x["parent"]]
        if p["kind"] == "line":
            lines[a] = (p["file"], p["line"])
        chain = []
        while p["kind"] != "entry":
            if p["kind"] == "function":
                chain.append(p["name"])
            p = nodes[p["parent"]]
        inl[a] = chain[:-1]  # innermost first, without the symbol's function
root = rep["nodes"][0]
for ev, tot in ans["totals"].items():
    n += 1
    if vals(root, "inclusive").get(ev) != tot:
        fail("root %s %s != %s" % (ev, vals(root, "inclusive").get(ev), tot))
if mode == "sym":
    for fn, per in ans["functions"].items():
        for ev, c in per.items():
            n += 1
            if funcs.get(fn, {}).get(ev) != c:
                fail("function %s %s: %s != %s" % (fn, ev, funcs.get(fn, {}).get(ev), c))
    for fn in funcs:
        if fn not in ans["functions"]:
            fail("function %s not expected" % fn)
    want_unknown = ans["unknown"]
    for a, per in ans["addresses"].items():
        if a in want_unknown:
            continue
        for ev, c in per.items():
            n += 1
            if addrs.get(a, {}).get(ev) != c:
                fail("address %s %s: %s != %s" % (a, ev, addrs.get(a, {}).get(ev), c))
    # source lines: addr2line (binutils) on every symbolized address
    keys = sorted(k for k in ans["addresses"] if k not in want_unknown)
    out = subprocess.run(["addr2line", "-e", elf] + ["0x" + k for k in keys],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    # inlined calls: addr2line -f -i prints each frame, innermost first
    out_i = subprocess.run(["addr2line", "-f", "-i", "-a", "-e", elf] + ["0x" + k for k in keys],
                           capture_output=True, text=True, check=True).stdout.split("\n")
    frames, cur = {}, None
    for ln in filter(None, out_i):
        if ln.startswith("0x"):
            cur = "%x" % int(ln, 16); frames[cur] = []; fn_next = True
        elif cur is not None and fn_next:
            frames[cur].append(ln); fn_next = False
        else:
            fn_next = True
    n_inl = 0
    for k in keys:
        want = frames.get(k, [])[:-1]
        n += 1
        n_inl += bool(want)
        if inl.get(k, []) != want:
            fail("inlined calls at %s: %s != %s" % (k, inl.get(k), want))
    print("%s: %d addresses in inlined code" % (label, n_inl))
    for k, line in zip(keys, out):
        f, _, l = line.partition(":")
        l = l.split()[0] if l else "0"
        if f.startswith("??") or l in ("?", "0"):
            continue
        n += 1
        got = lines.get(k)
        if got is None or not f.endswith(got[0]) or str(got[1]) != l:
            fail("line of %s: %s != %s:%s" % (k, got, f, l))
else:
    want_unknown = ans["addresses"]
if len(unknown) != len(want_unknown):
    fail("%d [image @ addr] rows, expected %d" % (len(unknown), len(want_unknown)))
for a, per in want_unknown.items():
    name = "[%s @ 0x%s]" % (os.path.basename(elf), a)
    for ev, c in per.items():
        n += 1
        if unknown.get(name, {}).get(ev) != c:
            fail("%s %s: %s != %s" % (name, ev, unknown.get(name, {}).get(ev), c))
print("%s: %d values, %d mismatches" % (label, n, bad))
sys.exit(1 if bad else 0)
PY
}

# run LABEL MODE ELF GEN-OPTIONS... -- CALLSCOPE-OPTIONS...
# same_nodes A B: two JSON reports hold the same rows (names, kinds,
# files, lines, values, parents) whatever their ids: a deferred database
# numbers the rows inside an image in the order images are loaded
same_nodes() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
def norm(path):
    d = json.load(open(path))
    nodes = d.pop("nodes")
    by = {n["id"]: n for n in nodes}
    memo = {}
    def key(i):
        if i is None:
            return ""
        if i not in memo:
            n = by[i]
            memo[i] = key(n.get("parent")) + "/" + json.dumps(
                [n.get("kind"), n.get("name"), n.get("file"), n.get("line")])
        return memo[i]
    rows = []
    for n in nodes:
        n = dict(n)
        n["id"], n["parent"] = key(n["id"]), key(n.get("parent"))
        rows.append(n)
    d["nodes"] = sorted(rows, key=lambda n: n["id"])
    return d
sys.exit(0 if norm(sys.argv[1]) == norm(sys.argv[2]) else 1)
PY
}

run() {
	label=$1 mode=$2 elf=$3
	shift 3
	gopts=""
	while [ "$1" != "--" ]; do gopts="$gopts $1"; shift; done
	shift
	out="$tmp/p-$label"
	# shellcheck disable=SC2086
	/usr/bin/python3 "$gen" "$tmp/bin/prog" "$out" $gopts --answers "$tmp/a.json" ||
		{ echo "FAIL: gen $label"; status=1; return; }
	if ! timeout 60 "$cs" report "$out" --format json --metric all "$@" \
		>"$tmp/r.json" 2>"$tmp/err"; then
		echo "FAIL: report $label: $(cat "$tmp/err")"; status=1; return
	fi
	check "$tmp/r.json" "$tmp/a.json" "$label" "$mode" "$elf" || status=1
	# images deferred (loaded as the report walks them): the same report
	CALLSCOPE_DCPI_DEFER_MIN=0 timeout 60 "$cs" report "$out" --format json \
		--metric all "$@" >"$tmp/rd.json" 2>"$tmp/err" &&
		same_nodes "$tmp/r.json" "$tmp/rd.json" ||
		{ echo "FAIL: report $label with deferred images differs"; status=1; }
}

run file-nt sym "$tmp/bin/prog" --seed 1 --layout file -- 
run file-plain sym "$tmp/bin/prog" --seed 2 --layout file --no-nt --
run db-nt sym "$tmp/bin/prog" --seed 3 --layout db --
run db-plain sym "$tmp/bin/prog" --seed 4 --layout db --no-nt --samples 200 --
run moved sym "$tmp/moved/prog" --seed 5 --path-recorded /nonexistent/dir/prog -- \
	--image-path "$tmp/nowhere" --image-path "$tmp/moved"
# the same directories as reader options (--option dcpi:image-path=DIR)
run moved-option sym "$tmp/moved/prog" --seed 5 --path-recorded /nonexistent/dir/prog -- \
	--option "dcpi:image-path=$tmp/nowhere" --option "dcpi:image-path=$tmp/moved"
run no-image nosym "$tmp/bin/prog" --seed 6 --path-recorded /nonexistent/dir/prog --
cp "$tmp/stripped" "$tmp/moved/stripped"
run stripped nosym "$tmp/stripped" --seed 7 --path-recorded "$tmp/stripped" --

# the viewer's batch commands work on it
"$cs" info "$tmp/p-db-nt" >"$tmp/info" 2>&1 && grep -q "^Format: *dcpi" "$tmp/info" ||
	{ echo "FAIL: info: $(cat "$tmp/info")"; status=1; }
"$cs" hotpath "$tmp/p-db-nt" >/dev/null 2>"$tmp/err" ||
	{ echo "FAIL: hotpath: $(cat "$tmp/err")"; status=1; }
"$cs" report "$tmp/p-file-nt" --view bottom-up >/dev/null 2>"$tmp/err" ||
	{ echo "FAIL: bottom-up: $(cat "$tmp/err")"; status=1; }
"$cs" info "$tmp/p-no-image" 2>&1 | grep -q "images not found" ||
	{ echo "FAIL: no warning for a missing image"; status=1; }

# deferred images (model_deferred.c) on a database of 30 images x 500
# addresses (bench/gen_dcpi_big.py, totals computed by the generator):
# info names the deferred subtrees; the image rows equal the generator's
# totals before any image is read; every batch output equals the one of
# the database read whole
big="$tmp/big"
/usr/bin/python3 "$top_srcdir/bench/gen_dcpi_big.py" "$big" 30 500 || status=1
CALLSCOPE_DCPI_DEFER_MIN=0 "$cs" info --format json "$big" 2>/dev/null |
	grep -q '"deferred_subtrees": 30' ||
	{ echo "FAIL: info does not name 30 deferred images"; status=1; }
CALLSCOPE_DCPI_DEFER_MIN=0 "$cs" report --depth 1 --format json "$big" \
	2>/dev/null >"$tmp/rows.json" || status=1
/usr/bin/python3 - "$tmp/rows.json" "$big.answers.json" <<'PY' || status=1
import json, sys
rep = json.load(open(sys.argv[1])); ans = json.load(open(sys.argv[2]))
rows = {n["name"]: n["values"][0] for n in rep["nodes"] if n["depth"] == 1}
want = {"libbench%s.so" % k: v for k, v in ans["image_totals"].items()}
root = [n["values"][0] for n in rep["nodes"] if n["depth"] == 0][0]
if rows != want or root != ans["total"]:
    print("FAIL: deferred image rows differ from the generator's totals")
    sys.exit(1)
PY
for args in "report" "report --view flat" "report --view bottom-up" \
	"hotpath --threshold 1"; do
	# shellcheck disable=SC2086
	"$cs" $args "$big" >"$tmp/whole" 2>/dev/null || status=1
	# shellcheck disable=SC2086
	CALLSCOPE_DCPI_DEFER_MIN=0 "$cs" $args "$big" >"$tmp/deferred" 2>/dev/null ||
		status=1
	cmp -s "$tmp/whole" "$tmp/deferred" ||
		{ echo "FAIL: $args differs with deferred images"; status=1; }
done
for args in "report" "report --view flat" "report --view bottom-up" \
	"hotpath --threshold 1"; do
	# shellcheck disable=SC2086
	"$cs" $args --format json "$big" >"$tmp/whole" 2>/dev/null || status=1
	# shellcheck disable=SC2086
	CALLSCOPE_DCPI_DEFER_MIN=0 "$cs" $args --format json "$big" \
		>"$tmp/deferred" 2>/dev/null || status=1
	same_nodes "$tmp/whole" "$tmp/deferred" ||
		{ echo "FAIL: $args --format json differs with deferred images"; status=1; }
done

# grouped (CALLSCOPE_DCPI_GROUP_MIN=0, as above 1 M addresses): each
# image's addresses without a symbol are one deferred row "[IMAGE: no
# symbols]"; the flat and bottom-up views stop at it (no address row, and
# the group and image rows equal the generator's totals); expanded (a
# top-down report walks everything), its address rows equal the counts
# read from the files here (header, then chunks offset number count[]),
# apart from the reader
grouped() { CALLSCOPE_DCPI_DEFER_MIN=0 CALLSCOPE_DCPI_GROUP_MIN=0 "$cs" "$@"; }
for view in flat bottom-up; do
	grouped report --view $view --format json "$big" >"$tmp/g.json" \
		2>/dev/null || { echo "FAIL: grouped $view report"; status=1; }
	/usr/bin/python3 - "$tmp/g.json" "$big.answers.json" $view <<'PY' || status=1
import json, sys
rep = json.load(open(sys.argv[1])); ans = json.load(open(sys.argv[2]))
view = sys.argv[3]
want = {"[libbench%s.so: no symbols]" % k: v
        for k, v in ans["image_totals"].items()}
got = {n["name"]: n["values"][0] for n in rep["nodes"]
       if n["name"].endswith(": no symbols]")}
addr = [n for n in rep["nodes"] if n["kind"] in ("address", "instruction")]
root = [n["values"][0] for n in rep["nodes"] if n["depth"] == 0][0]
if got != want or addr or root != ans["total"]:
    print("FAIL: grouped %s view: %d groups (%d equal), %d address rows, "
          "root %s (want %s)" % (view, len(got),
          sum(got.get(k) == v for k, v in want.items()), len(addr), root,
          ans["total"]))
    sys.exit(1)
PY
done
grouped info --format json "$big" 2>/dev/null | grep -q '"deferred_subtrees": 30' ||
	{ echo "FAIL: grouped: info does not name 30 deferred images"; status=1; }
grouped report --format json "$big" >"$tmp/g.json" 2>/dev/null ||
	{ echo "FAIL: grouped top-down report"; status=1; }
/usr/bin/python3 - "$tmp/g.json" "$big" <<'PY' || status=1
import json, os, re, struct, sys
rep = json.load(open(sys.argv[1])); db = sys.argv[2]
want = {}
for root, _, files in os.walk(db):
    for name in files:
        data = open(os.path.join(root, name), "rb").read()
        head, _, body = data.partition(b"\nsamples")
        body = body[body.index(b"\n") + 1:]
        hd = dict(l.split(None, 1) for l in head.decode().split("\n"))
        lib = os.path.basename(hd["path"])
        tstart, pos = int(hd["tstart"], 16), 0
        while pos < len(body) - 8:
            off, num = struct.unpack_from("<II", body, pos)
            pos += 8
            for i in range(num):
                (c,) = struct.unpack_from("<I", body, pos + 4 * i)
                if c:
                    want[(lib, tstart + off + i)] = c
            pos += 4 * num
by = {n["id"]: n for n in rep["nodes"]}
got = {}
for n in rep["nodes"]:
    if n["kind"] != "address":
        continue
    g = by[n["parent"]]["name"]
    m = re.fullmatch(r"\[(.*): no symbols\]", g)
    a = re.fullmatch(r".*/(.*)@0x([0-9a-f]+)", n["name"])
    if not m or not a or a.group(1) != m.group(1):
        print("FAIL: grouped: address row %s under %s" % (n["name"], g))
        sys.exit(1)
    got[(a.group(1), int(a.group(2), 16))] = n["values"][1]
if got != want or not want:
    print("FAIL: grouped address rows: %d, %d from the files, %d equal" %
          (len(got), len(want), sum(got.get(k) == v for k, v in want.items())))
    sys.exit(1)
PY
# grouped with symbols (the addresses no symbol covers), no image and a
# stripped one, two events and two epochs: the same numbers as ungrouped, the group row the sum of the rows
# that were "[prog @ 0xADDR]" and its address rows those rows' values
for g in "sym $tmp/bin/prog" "noimg /nonexistent/dir/prog" "strip $tmp/stripped"; do
	set -- $g
	/usr/bin/python3 "$gen" "$tmp/bin/prog" "$tmp/g-$1" --seed 9 --layout db \
		--path-recorded "$2" --answers "$tmp/ga.json" >/dev/null || status=1
	"$cs" report "$tmp/g-$1" --format json --metric all >"$tmp/u.json" 2>/dev/null ||
		status=1
	grouped report "$tmp/g-$1" --format json --metric all >"$tmp/g.json" 2>/dev/null ||
		status=1
	/usr/bin/python3 - "$tmp/u.json" "$tmp/g.json" "$1" <<'PY' || status=1
import json, re, sys
u = json.load(open(sys.argv[1])); g = json.load(open(sys.argv[2]))
label = sys.argv[3]
def rows(rep):
    by = {n["id"]: n for n in rep["nodes"]}
    def path(n):
        p = []
        while n is not None:
            p.append(n["name"])
            n = by.get(n["parent"])
        return "/".join(reversed(p))
    return by, {path(n): n["values"] for n in rep["nodes"]}
ub, ur = rows(u)
gb, gr = rows(g)
# the ungrouped unsymbolized rows, by image row path and address
uns, rest_u = {}, {}
for p, v in ur.items():
    m = re.fullmatch(r"(.*)/\[([^]/]*) @ 0x([0-9a-f]+)\]", p)
    if m:
        uns[(m.group(1), int(m.group(3), 16))] = v
    else:
        rest_u[p] = v
gaddr, rest_g, groups = {}, {}, {}
for p, v in gr.items():
    m = re.fullmatch(r"(.*)/\[[^]/]*: no symbols\]/.*@0x([0-9a-f]+)", p)
    if m:
        gaddr[(m.group(1), int(m.group(2), 16))] = v
        continue
    m = re.fullmatch(r"(.*)/\[[^]/]*: no symbols\]", p)
    if m:
        groups[m.group(1)] = v
    else:
        rest_g[p] = v
ok = rest_u == rest_g and gaddr == uns
# with symbols the functions stay as they were (the few addresses that no
# symbol covers are grouped); without, every address is grouped
ok = ok and bool(uns) and len(groups) == 1
if label == "sym":
    ok = ok and any(p.endswith("/dcpi_alpha") for p in rest_g)
for img, v in groups.items():
    # inclusive columns: the sum of the rows; exclusive: none
    cols = [c["kind"] for c in g["columns"]]
    for k, kind in enumerate(cols):
        s = sum(x[k] or 0 for (i, _), x in uns.items() if i == img)
        if kind == "inclusive" and v[k] != s:
            ok = False
        if kind == "exclusive" and v[k] is not None:
            ok = False
if not ok:
    print("FAIL: grouped %s: %d address rows (%d ungrouped), %d groups, "
          "other rows equal: %s" % (label, len(gaddr), len(uns), len(groups),
          rest_u == rest_g))
    sys.exit(1)
PY
done

# listings (Capstone): instruction addresses as objdump decodes them, each
# instruction's samples the sum of the generator's addresses inside it
/usr/bin/python3 "$gen" "$tmp/bin/prog" "$tmp/p-listing" --seed 8 --layout db \
	--samples 300 --answers "$tmp/a.json" || status=1
for fn in dcpi_alpha dcpi_beta main; do
	if ! "$cs" listing "$tmp/p-listing" $fn --format json >"$tmp/l.json" 2>"$tmp/err"; then
		echo "FAIL: listing $fn: $(cat "$tmp/err")"; status=1; continue
	fi
	/usr/bin/python3 - "$tmp/l.json" "$tmp/a.json" "$tmp/bin/prog" $fn <<'PY' || status=1
import json, re, subprocess, sys
lst = json.load(open(sys.argv[1])); ans = json.load(open(sys.argv[2]))
elf, fn = sys.argv[3], sys.argv[4]
start = int(lst["entry"], 16); end = start + lst["size"]
dis = subprocess.run(["objdump", "-d", "-w", "--start-address=%#x" % start,
                      "--stop-address=%#x" % end, elf],
                     capture_output=True, text=True, check=True).stdout
want = [int(m.group(1), 16) for m in re.finditer(r"^\s+([0-9a-f]+):\t", dis, re.M)]
got = [int(i["address"], 16) for i in lst["instructions"]]
bad = 0
if got != want:
    print("FAIL listing %s: addresses differ from objdump" % fn); bad += 1
evs = [c.split(" (")[0] for c in lst["columns"]]
bounds = got + [end]
for k, ins in enumerate(lst["instructions"]):
    for e, ev in enumerate(evs):
        exp = sum(per.get(ev, 0) for a, per in ans["addresses"].items()
                  if bounds[k] <= int(a, 16) < bounds[k + 1])
        if ins["values"][e] != exp:
            bad += 1
            print("FAIL listing %s %s %s: %s != %s" % (fn, ins["address"], ev, ins["values"][e], exp))
for e, ev in enumerate(evs):
    if lst["totals"][e] != ans["functions"].get(fn, {}).get(ev, 0):
        bad += 1; print("FAIL listing %s total %s" % (fn, ev))
print("listing %s: %d instructions, %d mismatches" % (fn, len(got), bad))
sys.exit(1 if bad else 0)
PY
done
# without the image there are no procedures, only [prog @ 0xADDR] rows
"$cs" listing "$tmp/p-no-image" main >/dev/null 2>"$tmp/err" &&
	{ echo "FAIL: listing without the image"; status=1; }
grep -q "no procedure main" "$tmp/err" ||
	{ echo "FAIL: listing without the image: $(cat "$tmp/err")"; status=1; }

# hostile files: exit 2, one line on stderr naming the file
/usr/bin/python3 "$gen" "$tmp/bin/prog" "$tmp/hostile" --hostile || status=1
n=0
for f in "$tmp"/hostile/*; do
	n=$((n + 1))
	# read whole, and only scanned (images deferred): the same checks
	for defer in "" 0; do
		CALLSCOPE_DCPI_DEFER_MIN=$defer timeout 20 "$cs" report "$f" \
			>/dev/null 2>"$tmp/err"
		rc=$?
		lines=$(wc -l <"$tmp/err")
		if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q "$(basename "$f")" "$tmp/err"; then
			echo "FAIL: hostile $(basename "$f") (defer '$defer'): exit $rc, $lines lines: $(cat "$tmp/err")"
			status=1
		fi
	done
done
echo "hostile: $n files"
exit $status
