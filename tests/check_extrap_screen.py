#!/usr/bin/env python3
"""The screen tells the truth about Extra-P models (issue 26).

Usage: check_extrap_screen.py CALLSCOPE CORPUS_DATA EXPECTED_DIR

For each input and each terminal size (80x24, 120x40, 200x50), the
viewer is run headless with its screen printed after every key: `!`
(which opens the tree down to the worst call path), `g`, then `j` until
the tree's end.  The cursor's row is followed from screen to screen (one
row down per `j`, less the rows the tree scrolled by), and its call path
is named by the detail lines (Name, Path) alone.  Every model cell and
value@point cell of that row is then compared with the model of the same
call path and metric in `callscope model --format json` (its own
process; the terms and coefficients at full precision), evaluated here
at the evaluation point the screen's status line names:

- Value@at: the model's value at the point, as the screen's "%.4g"
  (fewer digits when 10 columns are too few), the last digit allowed one
  unit off (the C and Python evaluations round differently at .5);
- the model cell: every whole term shown is a term of the model (same
  exponents, the coefficient within half a unit of the column's last
  digit), in order of growth; a cell that is not cut shows every term
  (a constant of 0 left out) and reads back as an expression equal to
  the model at the point within the shown precision; the first term,
  the fastest-growing, is shown whole at every size (80 columns too);
- the detail line: Extra-P's exact model text, or a short form as above.

Also: `!` names the worst call path (the largest model value at the
point, computed here) whatever key came before (critique b5) and `!!`
the second; the model column starts on the time metric (b7); the plot's
legend holds the worst call path's model and its y labels are apart and
decreasing (b11); a Cube set's columns say E (exclusive) and hold the
exclusive means that Extra-P itself read (EXPECTED_DIR).
"""
import gzip
import json
import math
import os
import re
import subprocess
import sys

SIZES = [(80, 24), (120, 40), (200, 50)]
failures = []



def shown_as(name, shown):
    """True when SHOWN is NAME whole, cut at its end ("abc\u2026") or cut
    in the middle ("ab\u2026yz"), as the tree pane draws a long name."""
    shown = shown.rstrip()
    if "\u2026" not in shown:
        return name.startswith(shown)
    head, _, tail = shown.partition("\u2026")
    return (name.startswith(head) and name.endswith(tail.rstrip())
            and len(head) + len(tail.rstrip()) <= len(name))

def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def run(cs, args):
    env = dict(os.environ)
    return subprocess.run([cs] + args, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, check=True,
                          universal_newlines=True).stdout


def screens(cs, path, size, keys):
    """The screens after each key: a list of (key, lines)."""
    out = run(cs, ["--headless", "--no-config", "--size", "%dx%d" % size,
                   "--dump-each", "--keys", keys, path])
    result, key, lines = [], None, []
    for line in out.split("\n"):
        m = re.match(r"^--- (.*)$", line)
        if m:
            if key is not None:
                result.append((key, lines))
            key, lines = m.group(1), []
        else:
            lines.append(line)
    if key is not None:
        result.append((key, lines[:size[1]]))
    return result


# ---- models from the batch JSON --------------------------------------

def load_models(cs, path):
    doc = json.loads(run(cs, ["model", "--format", "json", path]))
    models = {}
    for m in doc["models"]:
        models[(m["callpath"], m["metric"])] = m
    return doc["parameters"], models


def json_terms(m):
    """[(coefficient, {param: (exp, log)})], the constant as a term
    without factors."""
    terms = [(m["constant"], {})]
    for t in m["terms"]:
        f = {}
        for x in t["factors"]:
            if x["exponent"] != 0 or x["log_exponent"] != 0:
                f[x["parameter"]] = (x["exponent"], x["log_exponent"])
        terms.append((t["coefficient"], f))
    return terms


def term_value(c, f, at):
    v = c
    for p, (e, lg) in f.items():
        x = at[p]
        if e:
            v *= x ** e
        if lg:
            v *= math.log2(x) ** lg
    return v


def model_value(m, at):
    return sum(term_value(c, f, at) for c, f in json_terms(m))


def growth(f):
    return (sum(e for e, _ in f.values()), sum(lg for _, lg in f.values()))


# ---- the short form, read independently ----------------------------

NUM = r"(?:nan|inf|\d+(?:\.\d*)?(?:e-?\d+)?)"


def parse_power(s, i):
    m = re.match(r"\^(\d+)", s[i:])
    if m:
        return float(m.group(1)), i + m.end()
    m = re.match(r"\^\((-?\d+)(?:/(\d+))?\)", s[i:])
    if m:
        v = float(m.group(1)) / (float(m.group(2)) if m.group(2) else 1)
        return v, i + m.end()
    m = re.match(r"\^\((-?[0-9.]+(?:e-?\d+)?)\)", s[i:])
    if m:
        return float(m.group(1)), i + m.end()
    if s[i:i + 1] == "^":
        return None, i  # cut inside the power
    return 1.0, i


def parse_term(s, i, params):
    """A term at s[i:]: (coefficient, factors, digits shown, end,
    partial) or None; partial when a "*" is followed by no factor (the
    cell cut inside the term)."""
    coef, digits, f = 1.0, None, {}
    m = re.match(NUM, s[i:])
    first = True
    partial = False
    if m and m.group(0):
        coef = float(m.group(0))
        mant = re.sub(r"e.*", "", m.group(0)).replace(".", "").lstrip("0")
        digits = max(len(mant), 1)
        i += m.end()
        first = False
    while True:
        if not first:
            if i < len(s) and s[i] == "*":
                i += 1
            else:
                break
        first = False
        for p in sorted(params, key=len, reverse=True):
            if s.startswith("log2(%s)" % p, i):
                i += len(p) + 6
                e, i = parse_power(s, i)
                if e is None:
                    partial = True
                    break
                old = f.get(p, (0.0, 0.0))
                f[p] = (old[0], old[1] + e)
                break
            if s.startswith(p, i) and not re.match(r"[\w(]", s[i + len(p):i + len(p) + 1]):
                i += len(p)
                e, i = parse_power(s, i)
                if e is None:
                    partial = True
                    break
                old = f.get(p, (0.0, 0.0))
                f[p] = (old[0] + e, old[1])
                break
        else:
            partial = True
        if partial:
            break
    if digits is None and not f:
        return None
    return coef, f, digits, i, partial


def parse_cell(s, params):
    """The formula at the start of s: ([(coef, factors, digits,
    complete)], cut).  A term is complete when a blank or the cell's end
    follows it; one followed by anything else ("…", or the rest of a
    number cut short) may be incomplete."""
    head = s.split("  ")[0]
    cut = "\u2026" in head
    terms, i, sign = [], 0, 1.0
    if s.startswith("-"):
        sign, i = -1.0, 1
    while True:
        t = parse_term(s, i, params)
        if t is None:
            break
        coef, f, digits, i, partial = t
        rest = s[i:]
        complete = rest[:1] in ("", " ") and not partial
        terms.append((sign * coef, f, digits, complete))
        m = re.match(r" ([-+]) (?=\S)", rest)
        if not complete or not m:
            break
        sign = -1.0 if m.group(1) == "-" else 1.0
        i += 3
    return terms, cut


def same_factors(a, b):
    if set(a) != set(b):
        return False
    return all(abs(a[p][0] - b[p][0]) < 1e-9 and abs(a[p][1] - b[p][1]) < 1e-9
               for p in a)


def close(shown, true, digits):
    """shown is true rounded to `digits` significant digits (one unit of
    the last digit of slack for rounding at .5)."""
    if true == 0:
        return shown == 0
    if math.isnan(true) or math.isinf(true):
        return math.isnan(shown) if math.isnan(true) else shown == true
    e = max(math.floor(math.log10(abs(true))),
            math.floor(math.log10(abs(shown))) if shown else -400)
    return abs(shown - true) <= 10 ** (e - digits + 1) * 1.0000001


def check_formula(where, text, m, params, at, col_digits, need_whole):
    """Compare the cell's formula with the JSON model m."""
    terms, cut = parse_cell(text, params)
    if not terms:
        fail("%s: no formula in %r" % (where, text))
        return
    want = json_terms(m)
    nonzero = [(c, f) for c, f in want if f or c != 0 or len(want) == 1]
    by_growth = sorted(nonzero, key=lambda t: growth(t[1]), reverse=True)
    digits = col_digits or max(d or 1 for _, _, d, _ in terms)
    shown = []
    for k, (c, f, d, complete) in enumerate(terms):
        if not complete and not f:
            continue  # cut inside its first number: nothing to compare
        match = [w for w in nonzero if same_factors(w[1], f)]
        if not complete:
            # cut inside the term (its last factor's power may be cut
            # too): a term over at least these parameters, with this
            # coefficient
            match = [w for w in nonzero
                     if set(f) <= set(w[1]) and close(c, w[0], digits)]
        if not match:
            fail("%s: term %d of %r is not a term of %s" %
                 (where, k + 1, text, m["model"]))
            continue
        wc, wf = match[0]
        if not close(c, wc, digits):
            if complete or k == 0:
                fail("%s: term %d of %r: coefficient %r, model %r "
                     "(%d digits)" % (where, k + 1, text, c, wc, digits))
            continue
        shown.append((wc, wf))
    # the order: by growth, the fastest first
    if terms and by_growth and terms[0][3] and \
            not same_factors(terms[0][1], by_growth[0][1]):
        fail("%s: %r does not start with the fastest-growing term of %s" %
             (where, text, m["model"]))
    gs = [growth(f) for _, f, _, ok in terms if ok]
    if gs != sorted(gs, reverse=True):
        fail("%s: %r: terms not in order of growth" % (where, text))
    if need_whole and not terms[0][3] and \
            (len(by_growth[0][1]) <= 1 or need_whole == "always"):
        fail("%s: the growing term is not shown whole: %r" % (where, text))
    if not cut:
        if len(shown) != len(nonzero):
            fail("%s: %r shows %d terms, the model %s has %d" %
                 (where, text, len(shown), m["model"], len(nonzero)))
        got = sum(term_value(c, f, at) for c, f, _, _ in terms)
        true = model_value(m, at)
        mag = sum(abs(term_value(c, f, at)) for c, f in nonzero)
        if abs(got - true) > 0.5 * 10 ** (1 - digits) * mag * 1.000001 + 1e-300:
            fail("%s: %r reads back as %r at %r, the model %r" %
                 (where, text, got, at, true))
    return True


def fmt_value(v, width=10):
    """The value cell as model_columns.c prints it."""
    if not math.isfinite(v):
        return "-"
    for d in (4, 3, 2):
        s = "%.*g" % (d, v)
        if len(s) <= width:
            return s
    return s


# ---- a screen's parts -----------------------------------------------

def layout(lines):
    """(header row, first tree row, status row, detail rows) or None."""
    head = next((i for i, l in enumerate(lines) if "Value@at" in l), None)
    status = next((i for i, l in enumerate(lines) if l.startswith("Models at ")), None)
    if head is None or status is None:
        return None
    return head, head + 1, status


def eval_point(line, params):
    at = {}
    for p in params:
        m = re.search(r"(?:^|\s|at )%s=([0-9.e+-]+)" % re.escape(p), line)
        if not m:
            return None
        at[p] = float(m.group(1))
    return at


def detail(lines, status):
    """Name (joined over its lines), Model text, Path text."""
    name, model, path = "", None, None
    mode = None
    for l in lines[status + 1:]:
        if l.startswith("Name  "):
            name, mode = l[6:], "name"
        elif l.startswith("Model "):
            model, mode = l[6:], None
        elif l.startswith("Path  "):
            path, mode = l[6:], None
        elif mode == "name" and l.startswith("      "):
            name += l[6:]
        else:
            mode = None
    return name, model, path


def identify(name, path, callpaths):
    """The call paths the detail lines name."""
    if path is None:
        return []
    path = path.rstrip()
    elided = path.startswith("\u2026")
    text = path[1:] if elided else path
    out = []
    for cp in callpaths:
        joined = cp.replace("->", " > ")
        if (joined.endswith(text) if elided else joined == text) and \
                cp.split("->")[-1] == name:
            out.append(cp)
    return out


def metric_of(header):
    m = re.search(r"Model of ([^,]+),", header)
    return m.group(1) if m else None


def row_name(row):
    """The row's name: the text after the tree's guide glyph."""
    m = re.search(r"[\u25b8\u25be\u2500] (?:\s*)(\S.*)$", row)
    return m.group(1) if m else None


def check_tree(cs, path, size, params, models):
    where0 = "%s %dx%d" % (os.path.basename(path), size[0], size[1])
    scr = screens(cs, path, size, "!g" + "j" * 60)
    callpaths = sorted({cp for cp, _ in models})
    checked = skipped = 0
    cursor = None
    prev_rows = None
    prev_detail = None
    metric_seen = []
    for n, (key, lines) in enumerate(scr):
        lay = layout(lines)
        if lay is None:
            continue
        head, first, status = lay
        rows = lines[first:status]
        header = lines[head]
        metric = metric_of(header)
        metric_seen[:] = [metric]
        at = eval_point(lines[status], params)
        name, model_line, pline = detail(lines, status)
        if key == "g":
            prev_detail = (name, pline)
            cursor = next((i for i, r in enumerate(rows)
                           if r.rstrip().endswith("<program root>")), None)
            prev_rows = rows
            continue
        if key != "j" or cursor is None:
            prev_rows = rows
            continue
        # the tree scrolled by `shift` rows
        shift = next((s for s in range(len(rows))
                      if prev_rows[s:] == rows[:len(rows) - s]), 0)
        if rows == prev_rows and (name, pline) == prev_detail:
            continue  # the end of the tree: j moved nothing
        prev_detail = (name, pline)
        cursor = cursor + 1 - shift
        prev_rows = rows
        if not 0 <= cursor < len(rows):
            fail("%s: lost the cursor" % where0)
            return
        row = rows[cursor]
        rn = row_name(row)
        if rn is None or not shown_as(name, rn):
            fail("%s: the cursor's row %r is not %r" % (where0, row, name))
            return
        cps = identify(name, pline, callpaths)
        ms = {json.dumps(models.get((cp, metric)), sort_keys=True) for cp in cps}
        if len(ms) != 1:
            skipped += 1
            continue
        m = models.get((cps[0], metric))
        where = "%s %s" % (where0, cps[0])
        value_cell = row[2:12].strip()
        if m is None:
            if value_cell:
                fail("%s: no model, but the value cell says %r" % (where, value_cell))
            continue
        checked += 1
        true = model_value(m, at)
        want = fmt_value(true)
        try:
            ok = value_cell == want or close(float(value_cell), true,
                                             len(re.sub(r"e.*|[-.]", "", want).lstrip("0")) or 1)
        except ValueError:
            ok = False
        if not ok:
            fail("%s: Value@at %r, the model gives %r (%s)" % (where, value_cell, true, want))
        # the formula column: 4 digits when 40 wide or more
        cell = row[13:]
        check_formula(where, cell, m, params, at, None, True)
        if model_line is not None:
            if model_line.rstrip() != m["model"]:
                check_formula(where + " (detail line)", model_line, m, params, at, None, True)
    with_model = len({cp for cp, me in models if me == metric_seen[0]}) \
        if metric_seen else 0
    if checked < min(10, with_model):
        fail("%s: only %d rows checked (%d not identified)" % (where0, checked, skipped))
    print("%s: %d rows checked, %d not identified" % (where0, checked, skipped))


def worst(models, metric, at, k):
    vals = sorted(((model_value(m, at), cp) for (cp, me), m in models.items()
                   if me == metric and math.isfinite(model_value(m, at))),
                  reverse=True)
    return vals[k]


def check_worst(cs, path, params, models):
    base = os.path.basename(path)
    for keys, k in (("!", 0), ("H!", 0), ("jjj!", 0), ("sH!", 0),
                    ("s!", 0), ("!!", 1), ("!!!", 2), ("!jj!", 0)):
        lines = screens(cs, path, (80, 24), keys)[-1][1]
        lay = layout(lines)
        at = eval_point(lines[lay[2]], params)
        metric = metric_of(lines[lay[0]])
        v, cp = worst(models, metric, at, k)
        msg = lines[-1]
        m = re.search(r"worst-scaling call path #(\d+): (\S+) at", msg)
        if not m or int(m.group(1)) != k + 1 or \
                m.group(2) != "%.4g" % v:
            fail("%s --keys %r: %r, want #%d: %.4g (%s)" %
                 (base, keys, msg, k + 1, v, cp))
        name, _, _ = detail(lines, lay[2])
        if name != cp.split("->")[-1]:
            fail("%s --keys %r: selected %r, want %r" % (base, keys, name, cp))


def check_plot(cs, path, size, params, models):
    where = "%s %dx%d plot" % (os.path.basename(path), size[0], size[1])
    lines = screens(cs, path, size, "!P")[-1][1]
    lay = layout(lines)
    at = eval_point(lines[lay[2]], params)
    metric = metric_of(lines[lay[0]])
    v, cp = worst(models, metric, at, 0)
    legend = next((l for l in lines if l.startswith("\u25cf ")), None)
    if legend is None:
        fail("%s: no legend" % where)
        return
    # the legend names the worst call path (ties: any of them)
    name, _, _ = detail(lines, lay[2])
    tied = [c for (c, me), mm in models.items() if me == metric and
            c.split("->")[-1] == name and model_value(mm, at) == v]
    if not tied:
        fail("%s: the plot shows %r, not the worst %s" % (where, name, cp))
        return
    m = models[(tied[0], metric)]
    text = legend[2:]
    if text.startswith(name + ": "):
        formula = text[len(name) + 2:]
    else:
        formula = text.split("  ")[0]
    if formula.rstrip() != m["model"]:
        check_formula(where + " legend", formula, m, params, at, None, True)
    # the y labels: one per row, numbers, decreasing downwards
    labels = []
    for i, l in enumerate(lines):
        mm = re.match(r"^ *(\S+)\u2524", l)
        if mm:
            labels.append((i, mm.group(1)))
    if len(labels) < 2:
        fail("%s: %d y labels" % (where, len(labels)))
    for i, lab in labels:
        if not re.match(r"^(0|[1-9]\d*)(\.\d+)?(e-?[1-9]\d*)?$", lab):
            fail("%s: y label %r is not a number as the axis writes one" % (where, lab))
    vals = [float(lab) for _, lab in labels if re.match(r"^[0-9.e-]+$", lab)]
    if vals != sorted(vals, reverse=True) or len(set(vals)) != len(vals):
        fail("%s: y labels not decreasing: %r" % (where, labels))


def check_start_metric(cs, path, expected):
    lines = screens(cs, path, (120, 40), "")[-1][1]
    lay = layout(lines)
    header = lines[lay[0]]
    if metric_of(header) != "time":
        fail("%s: the model column starts as %r, not time" %
             (os.path.basename(path), metric_of(header)))
    if not re.search(r"time [IE]\u25bc", header):
        fail("%s: the tree is not sorted by time: %r" % (os.path.basename(path), header))
    # Extra-P's GUI would show its first metric: say which that is
    if expected and os.path.exists(expected):
        opener = gzip.open if expected.endswith(".gz") else open
        with opener(expected, "rt") as fh:
            first = json.load(fh)["metrics"][0]
        print("%s: Extra-P's first metric is %r; we start on time" %
              (os.path.basename(path), first))


def check_cubeset(cs, path, expected):
    """Columns labelled E, values = Extra-P's exclusive means at the last
    point."""
    doc = json.load(open(expected))
    last = max(tuple(c) for c in doc["coordinates"])
    want = {}
    for ms in doc["measurements"]:
        for p in ms["points"]:
            if tuple(p["coordinate"]) == last:
                want[(ms["callpath"], ms["metric"])] = p["mean"]
    info = run(cs, ["info", path])
    if not re.search(r"\btime \(E\)", info):
        fail("cube set: info does not call time exclusive: %s" % info)
    lines = screens(cs, path, (160, 30), "")[-1][1]
    lay = layout(lines)
    header = lines[lay[0]]
    m = re.search(r"time E\u25bc?", header)
    if not m:
        fail("cube set: no 'time E' column: %r" % header)
        return
    end = m.end()
    seen = 0
    for row in lines[lay[1]:lay[2]]:
        rn = row_name(row)
        if rn is None or rn.startswith("<"):
            continue
        cps = [cp for (cp, me) in want if me == "time" and cp.split("->")[-1] == rn]
        if len(cps) != 1:
            continue
        cell = row[:end].split()[-1] if row[:end].split() else ""
        unit = {"s": 1, "ms": 1e-3, "us": 1e-6, "\u00b5s": 1e-6, "ns": 1e-9}
        parts = row[:end].split()
        if len(parts) >= 2 and parts[-1] in unit:
            shown, digits = float(parts[-2]) * unit[parts[-1]], 3
        else:
            shown = float(cell)
            digits = len(re.sub(r"e.*|[-.]", "", cell).lstrip("0")) or 1
        if not close(shown, want[(cps[0], "time")], digits):
            fail("cube set %s: time E %r, Extra-P %r" %
                 (cps[0], cell, want[(cps[0], "time")]))
        seen += 1
    if seen < 4:
        fail("cube set: %d rows compared with Extra-P" % seen)


def main():
    cs, data, expected = sys.argv[1:4]
    inputs = [
        ("comparison/lulesh-cpu_demangled.extra-p",
         "comparison__lulesh-cpu_demangled.extra-p.json.gz"),
        ("cubeset/multi_parameter", "cubeset__multi_parameter.json"),
        ("text/two_parameter_1.txt", None),
        ("input/exp_only_mean_median.extra-p", None),
    ]
    for rel, exp in inputs:
        path = os.path.join(data, rel)
        params, models = load_models(cs, path)
        for size in SIZES:
            check_tree(cs, path, size, params, models)
            check_plot(cs, path, size, params, models)
        if len([k for k in models if k[1] == "time"]) >= 3:
            check_worst(cs, path, params, models)
        if rel.startswith("comparison") or rel.startswith("cubeset"):
            check_start_metric(cs, path, os.path.join(expected, exp))
    check_cubeset(cs, os.path.join(data, "cubeset/multi_parameter"),
                  os.path.join(expected, "cubeset__multi_parameter.json"))
    if failures:
        print("%d failures" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
