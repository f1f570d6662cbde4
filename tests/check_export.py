#!/usr/bin/python3
"""check_export.py CALLSCOPE [--answers ANSWERS.json DB] [DB...]

Checks `callscope export` against what other code says of the same
database, reading every export with Python's json and plain parsing:
  folded      the stacks' values, read back through the factor the note on
              stderr gives, add up to the root's inclusive value of the flat
              report (less the negative self values the note says were left
              out), and each function's (region's, kernel's) stacks that end
              in it add up to the flat report's exclusive value of it; with
              --answers, to the generator's own flat_functions (gen-v4db);
  speedscope  the document has the file format's fields (profiles of type
              "sampled" with as many weights as samples, positive integer
              weights adding up to endValue, frame indexes inside
              shared.frames), and its first profile's weights per leaf frame
              name are the folded stacks' values; its "evented" profiles
              (one per trace line) open and close frames in nested order at
              times that never go back, within startValue and endValue, and
              open as many frames as the Trace Event export has complete
              or begin events on the line of that name;
  chrome-trace (databases with trace lines) the JSON has a traceEvents
              array; every thread named; as many complete events ("X") as
              `callscope info` counts intervals on each interval line, and
              counter events on each counter line; begin/end pairs
              balanced per thread on sample lines.
  pprof       (when protoc is installed: Google's own decoder, `protoc
              --decode` with src/present/profile.proto) the gzipped profile
              has one sample type per metric, every location id and string
              index inside its table, and its first sample type's values per
              innermost function name are the folded stacks' values.
Exits 1 on the first database that fails, printing why."""
import collections
import gzip
import json
import os
import re
import shutil
import subprocess
import sys

PROTO_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                         'src', 'present')


def run(cs, *args):
    p = subprocess.run([cs, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def fail(db, what):
    print(f"FAIL: {db}: {what}")
    sys.exit(1)


def folded(cs, db):
    rc, out, err = run(cs, 'export', db, '--to', 'folded')
    if rc != 0:
        fail(db, f"export folded exit {rc}: {err.strip()}")
    m = re.search(r'folded stacks of (.*) \(I\): its values x (\S+), ', err)
    if not m:
        fail(db, f"no note of the units on stderr: {err!r}")
    title, factor = m.group(1), float(m.group(2))
    neg = re.search(r'left out: (\S+) in all', err)
    neg = -float(neg.group(1)) if neg else 0.0
    leaf = collections.Counter()
    n = 0
    for line in out.splitlines():
        stack, v = line.rsplit(' ', 1)
        if int(v) <= 0 or not stack:
            fail(db, f"bad folded line {line!r}")
        leaf[stack.split(';')[-1]] += int(v)
        n += 1
    return title, factor, neg, leaf, n


def check_stacks(cs, db, answers):
    title, factor, neg, leaf, n = folded(cs, db)
    rc, out, err = run(cs, 'report', db, '--view', 'flat', '--format',
                       'json', '--metric', title)
    if rc != 0:
        fail(db, f"report exit {rc}: {err.strip()}")
    flat = json.loads(out)
    cols = [c['name'] for c in flat['columns']]
    inc = cols.index(title + ' (I)')
    exc = cols.index(title + ' (E)') if title + ' (E)' in cols else None
    root = (flat['nodes'][0]['values'][inc] or 0) * factor
    tol = n + abs(neg) * factor  # one unit of rounding a stack
    total = sum(leaf.values())
    if abs(total - root) > tol + 1e-9 * abs(root):
        fail(db, f"stacks add up to {total}, the root holds {root}")
    want = collections.Counter()
    if exc is not None:
        for nd in flat['nodes']:
            if nd['kind'] in ('function', 'region', 'kernel'):
                want[nd['name'].replace(';', ':')] += \
                    (nd['values'][exc] or 0) * factor
    if answers:
        want = collections.Counter()
        for f in answers['flat_functions']:
            want[f['name']] += f['exclusive'] * factor
    for name, v in want.items():
        if abs(leaf.get(name, 0) - v) > tol + 1e-9 * abs(v):
            fail(db, f"{name}: stacks ending in it hold {leaf.get(name, 0)}"
                 f", its exclusive value is {v}")
    return leaf, len(want)


def check_speedscope(cs, db, leaf):
    rc, out, err = run(cs, 'export', db, '--to', 'speedscope')
    if rc != 0:
        fail(db, f"export speedscope exit {rc}: {err.strip()}")
    d = json.loads(out)
    if d.get('$schema') != \
            'https://www.speedscope.app/file-format-schema.json':
        fail(db, "speedscope: no $schema")
    frames = d['shared']['frames']
    if not all(isinstance(f.get('name'), str) for f in frames):
        fail(db, "speedscope: a frame without a name")
    for p in d['profiles']:
        if p['type'] == 'evented':
            continue
        if p['type'] != 'sampled' or p['unit'] not in (
                'none', 'nanoseconds', 'bytes'):
            fail(db, f"speedscope: profile {p['name']}: type/unit")
        if len(p['samples']) != len(p['weights']):
            fail(db, "speedscope: samples and weights differ in number")
        if any(not isinstance(w, int) or w <= 0 for w in p['weights']):
            fail(db, "speedscope: a weight that is not a positive integer")
        if sum(p['weights']) != p['endValue'] or p['startValue'] != 0:
            fail(db, "speedscope: weights do not add up to endValue")
        for s in p['samples']:
            if not s or any(i < 0 or i >= len(frames) for i in s):
                fail(db, "speedscope: a frame index out of range")
    evented = {}
    for p in d['profiles']:
        if p['type'] != 'evented':
            continue
        stack, last, opens = [], p['startValue'], 0
        for ev in p['events']:
            if ev['at'] < last or ev['at'] > p['endValue']:
                fail(db, f"speedscope: {p['name']}: an event out of order")
            last = ev['at']
            if not 0 <= ev['frame'] < len(frames):
                fail(db, "speedscope: an event's frame out of range")
            if ev['type'] == 'O':
                stack.append(ev['frame'])
                opens += 1
            elif ev['type'] != 'C' or not stack or \
                    stack.pop() != ev['frame']:
                fail(db, f"speedscope: {p['name']}: a close out of order")
        if stack:
            fail(db, f"speedscope: {p['name']}: frames left open")
        evented[p['name']] = opens
    d['profiles'] = [p for p in d['profiles'] if p['type'] == 'sampled']
    first = d['profiles'][0]
    by_leaf = collections.Counter()
    for s, w in zip(first['samples'], first['weights']):
        by_leaf[frames[s[-1]]['name'].replace(';', ':')] += w
    folded_leaf = collections.Counter(
        {k: v for k, v in leaf.items() if v})
    if by_leaf != folded_leaf:
        diff = set(by_leaf.items()) ^ set(folded_leaf.items())
        fail(db, f"speedscope and folded differ: {sorted(diff)[:4]}")
    return evented


def check_chrome(cs, db):
    rc, out, err = run(cs, 'info', db, '--format', 'json')
    info = json.loads(out)
    trace = info.get('trace')
    rc, out, err = run(cs, 'export', db, '--to', 'chrome-trace')
    if not trace or not trace.get('lines'):
        if rc != 2 or 'no trace lines' not in err:
            fail(db, f"chrome-trace without trace lines: exit {rc}")
        return 0, {}
    if rc != 0:
        fail(db, f"export chrome-trace exit {rc}: {err.strip()}")
    d = json.loads(out)
    events = d['traceEvents']
    per = collections.defaultdict(collections.Counter)
    names = {}
    open_ = collections.defaultdict(list)
    last = collections.defaultdict(float)
    for e in events:
        tid = e['tid']
        per[tid][e['ph']] += 1
        if e['ph'] == 'M' and e['name'] == 'thread_name':
            names[tid] = e['args']['name']
        if e['ph'] in ('B', 'E'):
            if e['ts'] < last[tid]:
                fail(db, f"thread {tid}: time goes back")
            last[tid] = e['ts']
            if e['ph'] == 'B':
                open_[tid].append(e['name'])
            elif not open_[tid]:
                fail(db, f"thread {tid}: an end without a begin")
            else:
                open_[tid].pop()
    if any(open_.values()):
        fail(db, "a begin without an end")
    opened = {names[t]: per[t]['X'] + per[t]['B'] for t in names}
    shown = 0
    groups = [ln.get('group') for ln in trace['line_list']
              if ln.get('group')]
    for ln in trace['line_list']:
        if ln.get('group') and ln['group'] != groups[0]:
            if ln['line'] in per:
                fail(db, f"line {ln['line']}: the other GPU grouping too")
            continue
        tid = ln['line']
        shown += 1
        if names.get(tid) != ln['label']:
            fail(db, f"line {tid}: named {names.get(tid)!r}, "
                 f"not {ln['label']!r}")
        c = per[tid]
        if c['X'] and c['X'] != ln['samples']:
            fail(db, f"line {tid}: {c['X']} complete events, info counts "
                 f"{ln['samples']}")
        if c['C'] and c['C'] != ln['samples']:
            fail(db, f"line {tid}: {c['C']} counter events, info counts "
                 f"{ln['samples']}")
    return shown, opened


def unquote(text):
    """A protoc text-format string (C escapes, octal bytes) as str."""
    out = bytearray()
    i = 0
    simple = {'n': 10, 't': 9, 'r': 13, '"': 34, "'": 39, '\\': 92}
    while i < len(text):
        c = text[i]
        if c != '\\':
            out += c.encode('utf-8')
            i += 1
        elif text[i + 1] in simple:
            out.append(simple[text[i + 1]])
            i += 2
        else:
            out.append(int(text[i + 1:i + 4], 8))
            i += 4
    return out.decode('utf-8')


def parse_text(lines):
    """protoc's text format as nested dicts of lists."""
    stack = [collections.defaultdict(list)]
    for line in lines:
        line = line.strip()
        if line.endswith('{'):
            child = collections.defaultdict(list)
            stack[-1][line[:-1].strip()].append(child)
            stack.append(child)
        elif line == '}':
            stack.pop()
        elif line:
            key, value = line.split(':', 1)
            value = value.strip()
            if value.startswith('"'):
                value = unquote(value[1:-1])
            elif value in ('true', 'false'):
                value = value == 'true'
            else:
                value = int(value)
            stack[-1][key].append(value)
    return stack[0]


def check_pprof(cs, db, leaf, tmp):
    if not shutil.which('protoc'):
        return False
    path = tmp + '.pb.gz'
    rc, out, err = run(cs, 'export', db, '--to', 'pprof', '-o', path)
    if rc != 0:
        fail(db, f"export pprof exit {rc}: {err.strip()}")
    raw = gzip.open(path).read()
    os.unlink(path)
    p = subprocess.run(['protoc', '--decode=perftools.profiles.Profile',
                        '-I', PROTO_DIR,
                        os.path.join(PROTO_DIR, 'profile.proto')],
                       input=raw, capture_output=True)
    if p.returncode != 0:
        fail(db, f"protoc cannot decode the profile: {p.stderr!r}")
    prof = parse_text(p.stdout.decode('ascii').splitlines())
    strings = prof['string_table']
    if not strings or strings[0] != '':
        fail(db, "pprof: string_table[0] is not ''")
    types = prof['sample_type']
    if len(types) < 1 or any(t['type'][0] >= len(strings) for t in types):
        fail(db, "pprof: bad sample types")
    funcs = {f['id'][0]: strings[f['name'][0]] if f.get('name') else ''
             for f in prof['function']}
    locs = {}
    for loc in prof['location']:
        fid = loc['line'][0]['function_id'][0]
        if fid not in funcs:
            fail(db, "pprof: a line names no function")
        locs[loc['id'][0]] = funcs[fid]
    by_leaf = collections.Counter()
    for smp in prof['sample']:
        ids = smp['location_id']
        if not ids or any(i not in locs for i in ids):
            fail(db, "pprof: a sample names an unknown location")
        vals = smp['value']
        if len(vals) != len(types):
            fail(db, "pprof: a sample's values differ from its types")
        by_leaf[locs[ids[0]].replace(';', ':')] += vals[0]
    folded_leaf = collections.Counter({k: v for k, v in leaf.items() if v})
    if +by_leaf != folded_leaf:
        diff = set(by_leaf.items()) ^ set(folded_leaf.items())
        fail(db, f"pprof and folded differ: {sorted(diff)[:4]}")
    return True


def main():
    cs = sys.argv[1]
    tmp = os.path.join(os.environ.get('TMPDIR', '/tmp'),
                       f"check_export.{os.getpid()}")
    args = sys.argv[2:]
    while args:
        answers = None
        if args[0] == '--answers':
            answers = json.load(open(args[1]))
            args = args[2:]
        db = args.pop(0)
        leaf, n_fn = check_stacks(cs, db, answers)
        evented = check_speedscope(cs, db, leaf)
        pprof = check_pprof(cs, db, leaf, tmp)
        lines, opened = check_chrome(cs, db)
        evented = {k: v for k, v in evented.items() if v}
        opened = {k: v for k, v in opened.items() if v}
        if evented != opened:
            fail(db, f"speedscope's evented profiles and the Trace Event "
                 f"export differ: {sorted(set(evented.items()) ^ set(opened.items()))[:4]}")
        print(f"ok {db}: {len(leaf)} leaf frames, {n_fn} functions "
              f"checked, {lines} trace lines"
              + ("" if pprof else ", pprof not checked (no protoc)"))


main()
