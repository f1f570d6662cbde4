#!/usr/bin/python3
"""Write a small Cube4 .cubex with derived (CubePL) metrics over stored
ones, and the values the reader must give, computed here in Python from
the stored values (not by interpreting CubePL): each derived metric below
is written twice, as CubePL for the file and as a Python function for the
answers (tests/check_cube_derived.py compares).

gen_cube_derived.py OUT.cubex ANSWERS.json [--seed N] [--hostile KIND]
    [--cubelib-aggr] [--own-aggr] [--nodes N]

Stored: time (INCLUSIVE DOUBLE), visits (EXCLUSIVE UINT64), bytes
(EXCLUSIVE DOUBLE, sparse).  Derived: every kind (PREDERIVED_EXCLUSIVE,
PREDERIVED_INCLUSIVE, POSTDERIVED), an init block that classifies call
paths by region paradigm (as Score-P's remapping.spec does), variables,
while / if / elseif / else, regex and string tests, min / max / sqrt /
abs / ^, and / not, metric::x(i|e), metric::fixed::x(),
metric::call::x(id, e), reserved variables.  --hostile KIND adds one
metric "bad" that cannot be computed (see HOSTILE): the file must still
open, "bad" stay blank with a warning, the other values stay right.
--cubelib-aggr writes what CubeLib writes unquoted (`<cubepl
rowwise=false>` on "weighted") and a metric "custom" with its own
aggregation (<cubeplaggr cubeplaggrtype=plus|minus|aggr>).  --own-aggr
adds the metrics of OWN_AGGR: each kind of own aggregation on both
prederived kinds, computed here as CubeLib applies them (plus folds a
node's children, minus makes a PREDERIVED_INCLUSIVE metric's exclusive
value, aggr folds the locations from 0), and OWN_POST: POSTDERIVED
metrics with their own aggr (the expression per location, folded by aggr
from 0); the answers then hold their flat and bottom-up rows (call paths'
totals folded by aggr from 0) and the system-first focus on the group and
on each location (locations folded by aggr from 0).  --hostile with a kind of
HOSTILE_AGG gives "bad" an own aggregation that cannot be run.
"""
import argparse
import io
import json
import math
import random
import struct
import sys
import tarfile

DBL_MAX = sys.float_info.max

HOSTILE = {
    "syntax": ("POSTDERIVED", "metric::time( + ", ""),
    "unknown-func": ("POSTDERIVED", "foo(1) + metric::time()", ""),
    "deep": ("POSTDERIVED", "(" * 5000 + "1" + ")" * 5000, ""),
    "chain": ("POSTDERIVED", "1" + "+1" * 100000, ""),
    "unary": ("POSTDERIVED", "-" * 100000 + "1", ""),
    "loop": ("PREDERIVED_EXCLUSIVE", "metric::time()",
             "{ ${x} = 0; while (1 == 1) { ${x} = ${x} + 1; }; return 0; }"),
    "self": ("POSTDERIVED", "metric::bad() + 1", ""),
    "regex": ("POSTDERIVED", "${cube::region::name}[0] =~ /(/", ""),
    # took glibc's regcomp 57 s (issue 29); PCRE2 backtracks past its
    # match limit: an error
    "regex-backtrack": ("POSTDERIVED",
                        '"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab" =~ '
                        "/(((a*)*)*){1,2000}/", ""),
    "string": ("POSTDERIVED", '"abc', ""),
    "reserved": ("POSTDERIVED", "${cube::nosuch}[0]", ""),
    "empty": ("POSTDERIVED", "   ", ""),
    "index": ("PREDERIVED_EXCLUSIVE", "1",
              "{ ${x}[1e300] = 1; return 0; }"),
    "comment": ("POSTDERIVED", "1 /* never closed", ""),
    "runtime": ("PREDERIVED_EXCLUSIVE",
                "{ ${x} = 0; while (1) { ${x} = ${x} + 1; }; return 1; }", ""),
    "runtime-ref": ("POSTDERIVED", "metric::looping() + 1", ""),
    # loops only on data: fails when its values are asked
    "datadep": ("POSTDERIVED", "{ ${x} = 0; while (metric::visits() > 0) "
                "{ ${x} = ${x} + 1; }; return 1; }", ""),
}

# hostile own aggregations (<cubeplaggr>) on a metric "bad":
# (type, <cubepl>, {cubeplaggrtype: expression})
HOSTILE_AGG = {
    "aggr-syntax": ("PREDERIVED_INCLUSIVE", "metric::time()",
                    {"plus": "max(arg1, "}),
    "aggr-word": ("PREDERIVED_EXCLUSIVE", "metric::time()",
                  {"aggr": "foo + arg1"}),
    "aggr-loop": ("PREDERIVED_EXCLUSIVE", "metric::visits()",
                  {"aggr": "{ while (1) { ${y} = 1; }; return arg1; }"}),
    # loops only on some operands: fails when a value is asked
    "aggr-datadep": ("PREDERIVED_INCLUSIVE", "metric::time()",
                     {"minus": "{ while (arg2 > 0) { ${y} = 1; }; "
                      "return arg1; }"}),
}

# --own-aggr: metrics with their own aggregation, applied as CubeLib
# does; (uniq, type, <cubepl>, python own value (c, l, val),
# {cubeplaggrtype: (expression, python (a, b))})
OWN_AGGR = [
    ("agg_incl", "PREDERIVED_INCLUSIVE", "metric::time()",
     lambda c, l, val: val("time", "I", c, l),
     {"plus": ("max(arg1, arg2)", max),
      "minus": ("arg1 - arg2 / 2", lambda a, b: a - b / 2),
      "aggr": ("max(arg1, arg2)", max)}),
    ("agg_excl", "PREDERIVED_EXCLUSIVE", "metric::visits() - 3",
     lambda c, l, val: val("visits", "E", c, l) - 3,
     {"plus": ("arg1 + 2 * arg2", lambda a, b: a + 2 * b),
      "aggr": ("min(arg1, arg2)", min)}),
    ("agg_minus", "PREDERIVED_INCLUSIVE", "metric::visits(i) * 1.5",
     lambda c, l, val: val("visits", "I", c, l) * 1.5,
     {"minus": ("|arg1 - arg2| + 1", lambda a, b: abs(a - b) + 1)}),
    ("agg_div", "PREDERIVED_INCLUSIVE", "metric::time()",
     lambda c, l, val: val("time", "I", c, l),
     {"minus": ("arg1 / arg2", None),  # CubeLib's division, below
      "aggr": ("max(arg1, arg2)", max)}),
    # a metric reference reads 0 there (a warning); an untyped one is
    # not applied (a warning)
    ("agg_ref", "PREDERIVED_EXCLUSIVE", "metric::bytes()",
     lambda c, l, val: val("bytes", "E", c, l),
     {"plus": ("arg1 + arg2 + metric::nosuch()", lambda a, b: a + b),
      "times": ("arg1 * arg2", None)}),
]

# --own-aggr: POSTDERIVED metrics with their own aggr (CubeLib's
# PostDerivedMetric::get_sev_native: the expression per location, those
# folded by aggr from 0): (uniq, <cubepl>, python f(get), aggr
# expression, python aggr (a, b))
OWN_POST = [
    ("agg_post", "metric::time() / metric::visits() + metric::agg_incl()",
     lambda get, div: div(get("time"), get("visits")) + get("agg_incl"),
     "max(arg1, arg2)", max),
    # not commutative: location order and the fold from 0 show
    ("agg_post2", "metric::visits() - 2", lambda get, div: get("visits") - 2,
     "arg1 / 2 + arg2", lambda a, b: a / 2 + b),
]

REGIONS = [  # name, paradigm, role
    ("main", "compiler", "function"),
    ("MPI_Send", "mpi", "point2point"),
    ("MPI_Recv", "mpi", "point2point"),
    ("compute", "compiler", "function"),
    ("MPI_Allreduce", "mpi", "all2all"),
    ("io", "posix", "file io"),
]


def make_tree(rnd, n):
    # two roots: 0 and the first of the second half
    parent = [-1]
    second = n // 2
    for i in range(1, n):
        if i == second:
            parent.append(-1)
        else:
            lo = second if i > second else 0
            parent.append(rnd.randrange(max(lo, i - 4), i))
    return parent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("answers")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hostile", choices=sorted(HOSTILE) +
                    sorted(HOSTILE_AGG))
    ap.add_argument("--cubelib-aggr", action="store_true")
    ap.add_argument("--own-aggr", action="store_true")
    ap.add_argument("--nodes", type=int, default=14)  # call paths
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    n, L = a.nodes, 3
    parent = make_tree(rnd, n)
    kids = [[c for c in range(n) if parent[c] == p] for p in range(n)]
    roots = [c for c in range(n) if parent[c] < 0]
    callee = [0 if parent[c] < 0 else rnd.randrange(len(REGIONS))
              for c in range(n)]

    def subtree(c):
        out = [c]
        for k in kids[c]:
            out += subtree(k)
        return out

    # stored values per location
    t_ex = [[round(rnd.uniform(0.5, 9), 3) for _ in range(L)]
            for _ in range(n)]
    vis = [[rnd.randrange(1, 6) for _ in range(L)] for _ in range(n)]
    byt = [[float(rnd.randrange(0, 4000)) if c % 3 else 0.0
            for _ in range(L)] for c in range(n)]
    byt_rows = [c for c in range(n) if c % 3]

    def incl_of(ex):
        return [[math.fsum(ex[x][l] for x in subtree(c)) for l in range(L)]
                for c in range(n)]

    t_in = incl_of(t_ex)
    stored = {"time": (t_in, t_ex), "visits": (incl_of(vis), vis),
              "bytes": (incl_of(byt), byt)}

    def val(m, kind, c, l):  # kind "I" / "E"
        return stored[m][0 if kind == "I" else 1][c][l]

    def div(x, y):  # CubeLib's division
        if x == 0:
            return 0.0
        if y == 0:
            return DBL_MAX if x > 0 else -DBL_MAX
        return x / y

    def region(c):
        return REGIONS[callee[c]]

    # derived: (uniq, type, parent uniq or None, cubepl, init, python)
    # python(c, l, kind) for PRE kinds: the own flavour's value;
    # POST: f(get) where get(metric, kind) gives the value in scope.
    mpi_init = """{
      global(mpi);
      ${i} = 0;
      while ( ${i} < ${cube::#callpaths} )
      {
        ${r} = ${cube::callpath::calleeid}[${i}];
        if ( ${cube::region::paradigm}[${r}] eq "mpi" )
        {
          ${mpi}[${i}] = 1;
        }
        else
        {
          ${mpi}[${i}] = 0;
        };
        ${i} = ${i} + 1;
      };
      return 0;
    }"""
    derived = [
        ("mpi", "PREDERIVED_EXCLUSIVE", "time",
         "${mpi}[${calculation::callpath::id}] * metric::time(e)", mpi_init,
         lambda c, l, k: (region(c)[1] == "mpi") * val("time", "E", c, l)),
        ("weighted", "PREDERIVED_INCLUSIVE", None,
         """{ if ( metric::visits(i) > 3 ) { ${w} = 2; }
              elseif ( metric::visits(i) == 3 ) { ${w} = 1.5; }
              else { ${w} = 1; };
              return ${w} * metric::time() + metric::bytes(i) / 1000; }""",
         "",
         lambda c, l, k: (2 if val("visits", "I", c, l) > 3 else
                          1.5 if val("visits", "I", c, l) == 3 else 1) *
         val("time", "I", c, l) + val("bytes", "I", c, l) / 1000),
        ("shape", "PREDERIVED_EXCLUSIVE", None,
         "-2^2 * (${cube::region::name}[${calculation::region::id}] =~ "
         "/^MPI_(Send|Recv)$/) + max(metric::visits(), 2) + "
         "sqrt(abs(metric::bytes() - 10)) + min(1, 0.5) * "
         "(metric::visits(e) >= 2 and not (metric::bytes() == 0)) + "
         "10 * (${cube::region::role}[${calculation::region::id}] seq "
         "\"POINT2POINT\") + |0 - 3| // a comment\n",
         "",
         lambda c, l, k: 4 * (region(c)[0] in ("MPI_Send", "MPI_Recv")) +
         max(val("visits", "E", c, l), 2) +
         math.sqrt(abs(val("bytes", "E", c, l) - 10)) +
         0.5 * (val("visits", "E", c, l) >= 2 and
                val("bytes", "E", c, l) != 0) +
         10 * (region(c)[2] == "point2point") + 3),
        ("parentvisits", "PREDERIVED_EXCLUSIVE", None,
         "metric::call::time(0, e) * 0 + metric::call::visits("
         "${cube::callpath::parent::id}[${calculation::callpath::id}], e)",
         "",
         lambda c, l, k: val("visits", "E", parent[c], l)
         if parent[c] >= 0 else 0.0),
        ("unknownref", "PREDERIVED_EXCLUSIVE", None,
         "metric::nosuch() + 1", "", lambda c, l, k: 1.0),
        ("comp", "POSTDERIVED", None, "metric::time() - metric::mpi()", "",
         lambda get: get("time") - get("mpi")),
        ("per_visit", "POSTDERIVED", "comp",
         "metric::time() / metric::visits()", "",
         lambda get: div(get("time"), get("visits"))),
        ("share", "POSTDERIVED", None,
         "metric::time(i) / metric::fixed::time()", "",
         lambda get: div(get("time", "I"), get("fixed_time"))),
    ]
    # own aggregations: uniq -> {cubeplaggrtype: (expression, python)}
    aggs = {}
    if a.own_aggr:
        for uniq, typ, src, f, ag in OWN_AGGR:
            derived.append((uniq, typ, None, src, "",
                            lambda c, l, k, f=f: f(c, l, val)))
            aggs[uniq] = dict(ag)
        aggs["agg_div"]["minus"] = ("arg1 / arg2", div)
        for uniq, src, f, e, py in OWN_POST:
            derived.append((uniq, "POSTDERIVED", None, src, "",
                            lambda get, f=f: f(get, div)))
            aggs[uniq] = {"aggr": (e, py)}
    bad = None
    if a.hostile in HOSTILE_AGG:
        typ, src, ag = HOSTILE_AGG[a.hostile]
        bad = ("bad", typ, None, src, "", None)
        derived.append(bad)
        aggs["bad"] = {t: (e, None) for t, e in ag.items()}
    elif a.hostile:
        typ, src, init = HOSTILE[a.hostile]
        bad = ("bad", typ, None, src, init, None)
        derived.append(bad)
        if a.hostile == "runtime-ref":
            derived.append(("looping", "PREDERIVED_EXCLUSIVE", None,
                            HOSTILE["runtime"][1], "", None))

    if a.cubelib_aggr:  # its own aggregation, written unquoted
        derived.append(("custom", "PREDERIVED_INCLUSIVE", None,
                        "metric::time()", "",
                        lambda c, l, k: val("time", "I", c, l)))
        aggs["custom"] = {"plus": ("max(arg1, arg2)", max),
                          "minus": ("arg1 - arg2 / 2", lambda x, y: x - y / 2),
                          "aggr": ("min(arg1, arg2)", min)}

    # ---- expected values ---------------------------------------------
    cells = {}   # (metric, kind, c) -> [per location]
    kinds = {d[0]: d[1] for d in derived}
    for m in ("time", "visits", "bytes"):
        for k in "IE":
            for c in range(n):
                cells[(m, k, c)] = [val(m, k, c, l) for l in range(L)]
    pre = [d for d in derived if d[1].startswith("PRE") and d[5]]
    def op(uniq, t):  # an own operator, CubeLib's default without one
        dflt = (lambda x, y: x - y) if t == "minus" else (lambda x, y: x + y)
        return aggs.get(uniq, {}).get(t, (None, dflt))[1]

    def fold_first(f, xs):  # the first value, then f(fold, next)
        acc = xs[0]
        for x in xs[1:]:
            acc = f(acc, x)
        return acc

    for uniq, typ, _, _, _, f in pre:
        own = "E" if typ == "PREDERIVED_EXCLUSIVE" else "I"
        ownv = [[f(c, l, own) for l in range(L)] for c in range(n)]
        plus, minus = op(uniq, "plus"), op(uniq, "minus")
        if uniq in aggs and own == "E":
            # own values first, then plus(that, each child's inclusive)
            inc = [None] * n
            for c in reversed(range(n)):  # children after their parent
                row = list(ownv[c])
                for k in kids[c]:
                    row = [plus(x, y) for x, y in zip(row, inc[k])]
                inc[c] = row
            exc = ownv
        elif uniq in aggs:
            # minus(own, the children's folded by plus; 0 without any)
            inc = ownv
            exc = [[minus(ownv[c][l], fold_first(
                plus, [ownv[k][l] for k in kids[c]]) if kids[c] else 0.0)
                for l in range(L)] for c in range(n)]
        elif own == "E":
            inc = incl_of(ownv)
            exc = ownv
        else:
            inc = ownv
            exc = [[ownv[c][l] - math.fsum(ownv[x][l] for x in kids[c])
                    for l in range(L)] for c in range(n)]
        for c in range(n):
            cells[(uniq, "I", c)] = inc[c]
            cells[(uniq, "E", c)] = exc[c]

    def fold(m, xs):
        """Metric M's values XS folded into one: with its own aggr from
        0 (aggr(acc, next)), else their sum."""
        if m in aggs:
            acc = 0.0
            for x in xs:
                acc = op(m, "aggr")(acc, x)
            return acc
        return math.fsum(xs)

    def total(m, k, c):
        return fold(m, cells[(m, k, c)])  # over the locations

    fixed = {m: math.fsum(total(m, "I", r) for r in roots)
             for m in ("time", "visits", "bytes")}
    totals = {}
    root_totals = {}
    for uniq, typ, _, _, _, f in derived:
        if not f:
            continue
        if typ.startswith("PRE"):
            for c in range(n):
                for k in "IE":
                    totals[(uniq, k, c)] = total(uniq, k, c)
            if uniq in aggs:  # roots folded by plus, then over locations
                cells[(uniq, "I", "root")] = [
                    fold_first(op(uniq, "plus"),
                               [cells[(uniq, "I", r)][l] for r in roots])
                    for l in range(L)]
                root_totals[uniq] = total(uniq, "I", "root")
                del cells[(uniq, "I", "root")]
                continue
            root_totals[uniq] = math.fsum(total(uniq, "I", r)
                                          for r in roots)
            continue
    for uniq, typ, _, _, _, f in derived:  # POST, in order
        if not f or not typ.startswith("POST"):
            continue
        for c in range(n):
            for k in "IE":
                def get_l(m, kk=None, l=0, c=c, k=k):
                    if m == "fixed_time":
                        return fixed["time"]
                    return cells[(m, kk or k, c)][l]
                cells[(uniq, k, c)] = [f(lambda m, kk=None, l=l:
                                         get_l(m, kk, l))
                                       for l in range(L)]

                def get_t(m, kk=None, c=c, k=k):
                    if m == "fixed_time":
                        return fixed["time"]
                    return totals.get((m, kk or k, c), None) \
                        if (m, kk or k, c) in totals else total(m, kk or k, c)
                totals[(uniq, k, c)] = total(uniq, k, c) \
                    if uniq in aggs else f(get_t)

        def get_r(m, kk=None):
            if m == "fixed_time":
                return fixed["time"]
            if m in root_totals:
                return root_totals[m]
            return fixed[m]
        if uniq not in aggs:
            root_totals[uniq] = f(get_r)
            continue
        # its own aggr: the expression per location on the locations'
        # values at the synthetic root (the roots' folded by plus for a
        # prederived metric with its own plus, else summed), then folded
        for m in [d[0] for d in derived if d[5]] + ["time", "visits",
                                                     "bytes"]:
            if (m, "I", roots[0]) in cells and (m, "I", "root") not in cells:
                plus = op(m, "plus") if m in aggs and \
                    kinds.get(m, "").startswith("PRE") else \
                    (lambda x, y: x + y)
                cells[(m, "I", "root")] = [
                    fold_first(plus, [cells[(m, "I", r)][l] for r in roots])
                    for l in range(L)]
        cells[(uniq, "I", "root")] = [
            f(lambda m, kk=None, l=l: fixed["time"] if m == "fixed_time"
              else cells[(m, "I", "root")][l]) for l in range(L)]
        root_totals[uniq] = total(uniq, "I", "root")
    for key in [x for x in cells if x[2] == "root"]:
        del cells[key]

    # ---- rows of several call paths, the system focus -------------------
    # A flat or bottom-up row folds its call paths' totals: by the
    # metric's own aggr from 0 (CubeLib's BuildInTypeMetric::get_sev_native
    # over a list of call paths, no system resource), else their sum (a
    # POSTDERIVED metric: post_row).  Inclusive rows count a call path
    # only where no caller above it runs the same region.
    def fold_rows(m, k, cs):
        if not cs:
            return None
        return fold(m, [totals[(m, k, c)] for c in cs])

    rname = [region(c)[0] for c in range(n)]

    def chain(c):
        out = []
        while c >= 0:
            out.append(rname[c])
            c = parent[c]
        return out

    outer = [rname[c] not in chain(c)[1:] for c in range(n)]
    row_metrics = [d[0] for d in derived if d[5] and d[1].startswith("PRE")]

    # a POSTDERIVED metric's row: its expression over the referred
    # metrics' values over the row's call paths (CubeLib's
    # PostDerivedMetric::get_sev_native of a list of call paths): their
    # totals folded as a row folds them; with its own aggr, per location
    # (a metric's values there over the call paths: the first's, then its
    # own plus, or +, with the next's), then folded by aggr from 0
    post_f = {d[0]: d[5] for d in derived if d[5] and d[1] == "POSTDERIVED"}

    def post_row(m, k, cs):
        if not cs:
            return None
        f = post_f[m]

        def get(x, kk=None):
            kk = kk or k
            if x == "fixed_time":
                return fixed["time"]
            if x in post_f:
                return post_row(x, kk, cs)
            return fold(x, [total(x, kk, c) for c in cs])
        if m not in aggs:
            return f(get)

        def get_l(x, kk=None, l=0):
            kk = kk or k
            if x == "fixed_time":
                return fixed["time"]
            ys = [cells[(x, kk, c)][l] for c in cs]
            if x in aggs and x not in post_f:
                return fold_first(op(x, "plus"), ys)
            return math.fsum(ys)
        acc = 0.0
        for l in range(L):
            acc = op(m, "aggr")(acc, f(lambda x, kk=None, l=l:
                                         get_l(x, kk, l)))
        return acc

    def row_values(cs, top=outer):
        out = {}
        for m in row_metrics:
            out[f"{m} I"] = fold_rows(m, "I", [c for c in cs if top[c]])
            out[f"{m} E"] = fold_rows(m, "E", cs)
        for m in post_f:
            out[f"{m} I"] = post_row(m, "I", [c for c in cs if top[c]])
            out[f"{m} E"] = post_row(m, "E", cs)
        return out
    # the module (and file) row: inclusive over the call paths outermost
    # in it, the roots
    flat = {"gen.c": row_values(list(range(n)),
                                [parent[c] < 0 for c in range(n)])}
    for f in set(rname):
        flat[f] = row_values([c for c in range(n) if rname[c] == f])
    bottom_up = {}
    for c in range(n):
        ch = chain(c)
        for d in range(1, len(ch) + 1):
            key = " <- ".join(ch[:d])
            if key not in bottom_up:
                bottom_up[key] = row_values(
                    [x for x in range(n) if chain(x)[:d] == ch[:d]])
    # the system-first focus (z) on a set of locations: their values
    # folded by the own aggr from 0 (a group of the system tree,
    # CubeLib's get_system_tree_sevs_native), else summed; blank when all
    # are 0
    focus = {}
    for key, locs in (("all", range(L)),) + tuple(
            (str(l), [l]) for l in range(L)):
        fv = focus[key] = {}
        for m in [d[0] for d in derived if d[5] and d[0] in aggs] + ["time"]:
            for k in "IE":
                for c in range(n):
                    xs = [cells[(m, k, c)][l] for l in locs]
                    if not any(xs):
                        v = None
                    elif m in aggs:
                        v = 0.0
                        for x in xs:
                            v = op(m, "aggr")(v, x)
                    else:
                        v = math.fsum(xs)
                    fv[f"{m} {k} {c}"] = v

    # ---- the file -------------------------------------------------------
    w = io.StringIO()
    w.write('<?xml version="1.0" encoding="UTF-8"?>\n<cube version="4.4">\n'
            '<attr key="Creator" value="gen_cube_derived.py"/>\n<metrics>\n')
    ids = {"time": 0, "visits": 1, "bytes": 2}
    stored_def = [("time", "INCLUSIVE", "DOUBLE"),
                  ("visits", "EXCLUSIVE", "UINT64"),
                  ("bytes", "EXCLUSIVE", "DOUBLE")]

    def esc(s):
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

    def metric_xml(uniq, typ, dtype, body, children):
        mid = ids.setdefault(uniq, len(ids))
        w.write(f'<metric id="{mid}" type="{typ}"><disp_name>{uniq}'
                f'</disp_name><uniq_name>{uniq}</uniq_name><dtype>{dtype}'
                f'</dtype><uom>sec</uom><descr>{uniq}</descr>{body}\n')
        for ch in children:
            ch()
        w.write('</metric>\n')

    def derived_xml(d):
        uniq, typ, _, src, init, _ = d
        # as CubeLib's Metric::writeXML writes them: attribute values
        # without quotes
        rowwise = " rowwise=false" if a.cubelib_aggr and \
            uniq == "weighted" else ""
        body = f"<cubepl{rowwise}>{esc(src)}</cubepl>"
        for t, (e, _) in aggs.get(uniq, {}).items():
            # CubeLib writes the type unquoted; the others quoted
            q = "" if uniq == "custom" else '"'
            body += (f"<cubeplaggr cubeplaggrtype={q}{t}{q}>{esc(e)}"
                     "</cubeplaggr>")
        if init:
            body += f"<cubeplinit>{esc(init)}</cubeplinit>"
        kids_m = [x for x in derived if x[2] == uniq]
        metric_xml(uniq, typ, "DOUBLE", body,
                   [lambda x=x: derived_xml(x) for x in kids_m])

    for uniq, typ, dtype in stored_def:
        kids_m = [x for x in derived if x[2] == uniq]
        metric_xml(uniq, typ, dtype, "",
                   [lambda x=x: derived_xml(x) for x in kids_m])
    for d in derived:
        if d[2] is None:
            derived_xml(d)
    w.write('</metrics>\n<program>\n')
    for r, (name, par, role) in enumerate(REGIONS):
        w.write(f'<region id="{r}" mod="gen.c" begin="{r + 1}" end="0">'
                f'<name>{name}</name><mangled_name>{name}</mangled_name>'
                f'<paradigm>{par}</paradigm><role>{role}</role></region>\n')

    def cnode(c):
        w.write(f'<cnode id="{c}" calleeId="{callee[c]}">\n')
        for k in kids[c]:
            cnode(k)
        w.write('</cnode>\n')
    for r in roots:
        cnode(r)
    w.write('</program>\n<system>\n<systemtreenode Id="0"><name>m</name>'
            '<class>machine</class>\n<locationgroup Id="0"><name>p0</name>'
            '<rank>0</rank><type>process</type>\n')
    for l in range(L):
        w.write(f'<location Id="{l}"><name>t{l}</name><rank>{l}</rank>'
                '<type>thread</type></location>\n')
    w.write('</locationgroup>\n</systemtreenode>\n</system>\n</cube>\n')

    # wide order for the INCLUSIVE metric, document order for the others
    doc = []
    for r in roots:
        doc += subtree(r)
    pos = {c: i for i, c in enumerate(doc)}
    wide = []
    for r in roots:
        wide.append(r)
        st = [r]
        while st:
            x = st.pop()
            wide.extend(kids[x])
            st.extend(reversed(kids[x]))

    def member(rows, fmt):
        tis = sorted(rows)
        idx = (b"CUBEX.INDEX" + struct.pack("<IHB", 1, 0, 1) +
               struct.pack("<I", len(tis)) +
               b"".join(struct.pack("<I", t) for t in tis))
        data = b"CUBEX.DATA" + b"".join(
            struct.pack("<" + fmt * L, *rows[t]) for t in tis)
        return idx, data

    members = []
    tin = {wide.index(c): t_in[c] for c in range(n)}
    members += zip(("0.index", "0.data"), member(tin, "d"))
    members += zip(("1.index", "1.data"),
                   member({pos[c]: vis[c] for c in range(n)}, "Q"))
    members += zip(("2.index", "2.data"),
                   member({pos[c]: byt[c] for c in byt_rows}, "d"))
    members.append(("anchor.xml", w.getvalue().encode()))
    with tarfile.open(a.out, "w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in members:
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))

    out = {"cells": {f"{m} {k} {c}": v for (m, k, c), v in cells.items()
                     if m in kinds and (kinds[m] or "") and
                     (m != "bad")},
           "totals": {f"{m} {k} {c}": v for (m, k, c), v in totals.items()},
           "root": root_totals,
           "roots": roots,
           "derived": [d[0] for d in derived if d[5]],
           "post": [d[0] for d in derived if d[5] and d[1] == "POSTDERIVED"],
           "bad": bool(bad),
           "flat": flat, "bottom_up": bottom_up, "focus": focus,
           "parent": parent, "name": rname,
           "first_root": max(roots, key=lambda r: total("time", "I", r))}
    with open(a.answers, "w") as f:
        json.dump(out, f, indent=0)


if __name__ == "__main__":
    main()
