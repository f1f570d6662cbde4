#!/usr/bin/python3
"""Score-P's own CubePL on a real profile: the corpus file time.p4 carries
remapping.spec, the metric tree with 105 derived metrics (PREDERIVED_
EXCLUSIVE and POSTDERIVED, one init block classifying every call path by
region name, paradigm and role with regexes, string tests, while and if /
elseif / else) that Score-P's remapper applies.  This writes a copy of the
file whose anchor.xml has those derived metrics added (flat, in document
order), opens it, and requires: no derived metric left uncomputed; and,
per call path, `execution` (exclusive) = time's exclusive value (every
call path is execution; omp_idle_threads, absent here, reads 0), `mpi` =
time's exclusive value where the callee's paradigm is "mpi", else 0,
`omp_time` likewise for "openmp"; time from ../shared/expected/cube
(pycubexr), paradigms from anchor.xml.

check_cube_remap.py CALLSCOPE SHARED TMPDIR
"""
import io
import json
import math
import os
import re
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_cube_corpus import load_ref, scalar  # noqa: E402

REL = "cube/pycubexr/data/time.p4.n2000.x1.r0/profile.cubex"


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main():
    cs, shared, tmp = sys.argv[1:4]
    src = os.path.join(shared, "corpus", REL)
    with tarfile.open(src) as t:
        members = [(m.name, t.extractfile(m).read()) for m in t.getmembers()]
    files = dict(members)
    # not XML: its CubePL holds bare "<" (CubeLib's own scanner reads
    # it), so each metric's part is cut out up to the next <metric or
    # </metric>
    spec = files["remapping.spec"].decode()
    anchor = files["anchor.xml"].decode()
    next_id = 1 + max(int(x) for x in
                      re.findall(r'<metric id="(\d+)"', anchor))
    added, names = [], []
    tags = list(re.finditer(r"<metric\b([^>]*)>", spec))
    for t in tags:
        typ = (re.search(r'type="([^"]*)"', t.group(1)) or [None, ""])[1]
        if "DERIVED" not in typ:
            continue
        rest = spec[t.end():]
        part = rest[:re.search(r"<metric\b|</metric>", rest).start()]

        def text(tag):
            m = re.search(rf"<{tag}>(.*?)</{tag}>", part, re.S)
            return m.group(1) if m else ""
        uniq = text("uniq_name").strip()
        body = f"<cubepl>{esc(text('cubepl'))}</cubepl>"
        if text("cubeplinit").strip():
            body += f"<cubeplinit>{esc(text('cubeplinit'))}</cubeplinit>"
        added.append(f'<metric id="{next_id}" type="{typ}"><disp_name>'
                     f'{esc(text("disp_name"))}</disp_name><uniq_name>'
                     f'{uniq}</uniq_name><dtype>FLOAT</dtype><uom>sec</uom>'
                     f'<descr>remapped</descr>{body}</metric>\n')
        names.append(uniq)
        next_id += 1
    anchor = anchor.replace("</metrics>", "".join(added) + "</metrics>", 1)
    out = os.path.join(tmp, "remapped.cubex")
    with tarfile.open(out, "w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in members:
            if name == "anchor.xml":
                data = anchor.encode()
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
    r = subprocess.run([cs, "report", out, "--format", "json", "--metric",
                        "all"], capture_output=True, text=True, timeout=300)
    fails = 0
    if r.returncode != 0:
        print(f"FAIL: report exit {r.returncode}: {r.stderr[:500]}")
        return 1
    bad = [x for x in r.stderr.splitlines() if "not computed" in x]
    for x in bad:
        print(f"FAIL: {x}")
    fails += len(bad)
    rep = json.loads(r.stdout)
    cols = {(c["metric"], c["kind"][0].upper()): i
            for i, c in enumerate(rep["columns"])}
    missing = [n for n in names if (n, "E") not in cols]
    if missing:
        print(f"FAIL: no columns for {missing[:5]}")
        fails += 1
    ref = load_ref(shared, REL)
    regions = {x["id"]: x for x in ref["regions"]}
    pos = {c["id"]: i for i, c in enumerate(ref["cnodes"])}
    t_excl = ref["values"]["time"]["total"]["excl"]
    checked = 0
    for node in rep["nodes"]:
        if node["id"] is None:
            continue
        c = ref["cnodes"][pos[node["id"]]]
        par = regions[c["region"]]["paradigm"]
        te = scalar(t_excl[pos[node["id"]]])
        for m, want in (("execution", te),
                        ("mpi", te if par == "mpi" else 0.0),
                        ("omp_time", te if par == "openmp" else 0.0)):
            got = node["values"][cols[(m, "E")]]
            got = 0.0 if got is None else got
            checked += 1
            if not math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12):
                print(f"FAIL: cnode {node['id']} {m} (E): {got!r} != "
                      f"{want!r} ({par})")
                fails += 1
    print(f"remapping.spec on time.p4: {len(names)} derived metrics, "
          f"{checked} values checked, {fails} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
