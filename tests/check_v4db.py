#!/usr/bin/env python3
"""Checks a database written by gen-v4db against the v4 format spec and its
answers file, using only the standard library (struct): headers, versions,
footers, section bounds and alignment, sorted sparse blocks, the context tree,
cct.db/profile.db agreement, propagation identities in the answers, trace
order and probes, and the hot path.  Independent of callscope's reader.

usage: check_v4db.py [--strict] DBDIR ANSWERS.json
--strict also requires the fixture to cover the edge cases: a hot path of
depth >= 2 and every probe case (tiny databases cannot).
"""
import json
import struct
import sys

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        if len(failures) > 50:
            report()
    return cond


def report():
    for f in failures[:50]:
        print("FAIL:", f)
    print("%d failure(s)" % len(failures))
    sys.exit(1)


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def u(fmt, b, off):
    return struct.unpack_from("<" + fmt, b, off)


def cstr(b, off, lo=0, hi=None):
    hi = len(b) if hi is None else hi
    end = b.index(b"\0", off)
    check(lo <= off and end < hi, "string at %#x outside [%#x,%#x)" % (off, lo, hi))
    return b[off:end].decode()


def open_db(path, fmt, footer, nsec):
    b = open(path, "rb").read()
    check(b[:10] == b"HPCTOOLKIT", path + ": magic")
    check(b[10:14] == fmt, path + ": format")
    check(b[14] == 4 and b[15] == 0, path + ": version")
    check(b[-8:] == footer, path + ": footer")
    secs = []
    for i in range(nsec):
        sz, p = u("QQ", b, 16 + 16 * i)
        check(p % 8 == 0, "%s: section %d pointer %#x unaligned" % (path, i, p))
        check(p >= 16 + 16 * nsec and p + sz <= len(b) - 8, "%s: section %d out of bounds" % (path, i))
        secs.append((p, sz))
    # sections must not overlap
    s = sorted(secs)
    for (p1, s1), (p2, _) in zip(s, s[1:]):
        check(p1 + s1 <= p2, "%s: sections overlap at %#x" % (path, p2))
    return b, secs


def read_meta(path):
    b, secs = open_db(path, b"meta", b"_meta.db", 8)
    (pg, sg), (pn, sn), (pm, sm), (pc, sc), (ps, ss), (plm, slm), (pf, sf), (pfn, sfn) = secs
    title = cstr(b, u("Q", b, pg)[0], pg, pg + sg)
    names_p, n_kinds = u("QB", b, pn)
    kinds = [cstr(b, u("Q", b, names_p + 8 * i)[0], pn, pn + sn) for i in range(n_kinds)]
    p_md, n_m, sz_m, sz_psi, sz_ss, p_sc, n_sc, sz_sc = u("QIBBBxQHB", b, pm)
    check(sz_m == 32 and sz_psi == 16 and sz_ss == 24 and sz_sc == 16, "metric struct sizes")
    check(p_md % 8 == 0 and p_sc % 8 == 0, "metric arrays aligned")
    scopes = {}
    for i in range(n_sc):
        o = p_sc + i * sz_sc
        check(pm <= o and o + sz_sc <= pm + sm, "scope inside section")
        pname, typ, pidx = u("QBB", b, o)
        scopes[o] = (cstr(b, pname, pm, pm + sm), typ, pidx)
    metrics = []
    prop = {}
    stat = {}
    for i in range(n_m):
        o = p_md + i * sz_m
        pname, p_psi, p_ss, n_psi, n_ss = u("QQQHH", b, o)
        name = cstr(b, pname, pm, pm + sm)
        metrics.append(name)
        for k in range(n_psi):
            psc, pid = u("QH", b, p_psi + k * sz_psi)
            check(pid not in prop, "propMetricId %d unique" % pid)
            prop[pid] = (name, scopes[psc][0])
        for k in range(n_ss):
            psc, pform, comb, sid = u("QQBxH", b, p_ss + k * sz_ss)
            check(sid not in stat, "statMetricId %d unique" % sid)
            stat[sid] = "%s|%s|%s|%s" % (name, scopes[psc][0], cstr(b, pform, pm, pm + sm),
                                         ["sum", "min", "max"][comb])
    fn_scope = [v for v in scopes.values() if v[0] == "function"][0]
    check(fn_scope[1] == 3 and fn_scope[2] < 16, "function scope is transitive")

    def table(p, sec_p, sec_s, size):
        arr, n, sz = u("QIH", b, p)
        check(sz == size, "table entry size %d" % sz)
        check(arr % 8 == 0 and sec_p <= arr and arr + n * sz <= sec_p + sec_s, "table inside section")
        return arr, n, sz

    m_arr, m_n, _ = table(plm, plm, slm, 16)
    modules = {m_arr + 16 * i: cstr(b, u("Q", b, m_arr + 16 * i + 8)[0], ps, ps + ss) for i in range(m_n)}
    f_arr, f_n, _ = table(pf, pf, sf, 16)
    files = {f_arr + 16 * i: cstr(b, u("Q", b, f_arr + 16 * i + 8)[0], ps, ps + ss) for i in range(f_n)}
    fn_arr, fn_n, _ = table(pfn, pfn, sfn, 40)
    funcs = {}
    for i in range(fn_n):
        o = fn_arr + 40 * i
        pname, pmod, off, pfile, line, _ = u("QQQQII", b, o)
        check(pmod in modules and pfile in files, "function %d module/file pointers" % i)
        funcs[o] = cstr(b, pname, ps, ps + ss)

    ctxs = {}
    p_ent, n_ent, sz_ent = u("QHB", b, pc)
    check(sz_ent == 32 and p_ent % 8 == 0, "entry array")
    work = []
    for i in range(n_ent):
        o = p_ent + i * sz_ent
        szc, pch, cid, ep, ppn = u("QQIHxxQ", b, o)
        name = cstr(b, ppn, ps, ps + ss)
        check(name == ["unknown entry", "main thread", "application thread"][ep], "entry name")
        ctxs[cid] = dict(parent=0, depth=0, lexical="entry", relation=None, name=name)
        work.append((pch, szc, cid, 1))
    seen = 0
    while work:
        p, sz, parent, depth = work.pop()
        check(sz == 0 or (p % 8 == 0 and pc <= p and p + sz <= pc + sc), "children array inside section")
        check((sz == 0) == (p == 0), "pChildren 0 iff no children")
        o = p
        while o < p + sz:
            seen += 1
            check(seen <= 100000000, "iteration cap")
            szc, pch, cid, fl, rel, lt, nfw, prop_bits = u("QQIBBBBH", b, o)
            check(cid > 0 and cid not in ctxs, "ctx id %d unique and > 0" % cid)
            check(bool(prop_bits & (1 << fn_scope[2])) == (rel == 0), "ctx %d propagation bit" % cid)
            words = [u("Q", b, o + 32 + 8 * k)[0] for k in range(nfw)]
            k = 0
            info = dict(parent=parent, depth=depth, relation=["lexical", "call", "inlined_call"][rel],
                        lexical=["function", "loop", "line", "instruction"][lt])
            info["file"] = info["line"] = info["module"] = None
            if fl & 1:
                info["name"] = funcs[words[k]]
                k += 1
            if fl & 2:
                info["file"] = files[words[k]]
                info["line"] = words[k + 1] & 0xffffffff
                k += 2
            if fl & 4:
                info["module"] = modules[words[k]]
                info["offset"] = words[k + 1]
                k += 2
            check(k == nfw, "ctx %d flex words" % cid)
            if lt in (1, 2):
                info["name"] = "%s:%d" % (info["file"], info["line"])
            elif lt == 3:
                info["name"] = "%s@%#x" % (info["module"], info["offset"])
            ctxs[cid] = info
            if szc:
                work.append((pch, szc, cid, depth + 1))
            else:
                check(pch == 0, "leaf pChildren 0")
            o += 32 + 8 * nfw
        check(o == p + sz, "children array size")
    return dict(title=title, kinds=kinds, metrics=metrics, prop=prop, stat=stat, ctxs=ctxs)


def read_profile(path, meta):
    b, secs = open_db(path, b"prof", b"_prof.db", 2)
    (ppi, spi), (ptu, stu) = secs
    pp, n, sz = u("QIB", b, ppi)
    check(sz == 48, "szProfile is 48")
    check(pp % 8 == 0 and ppi <= pp and pp + n * sz <= ppi + spi, "profile array inside section")
    profiles = []
    for i in range(n):
        o = pp + i * sz
        n_val, p_val, n_ctx, p_idx, p_tup, flags = u("QQIxxxxQQI", b, o)
        check((flags & 1) == (1 if i == 0 else 0), "isSummary only on profile 0")
        check((p_tup == 0) == (i == 0), "pIdTuple 0 only for the summary")
        check(p_val < p_idx or (n_val == 0 and p_val == p_idx), "pValues < pCtxIndices")
        check(p_val % 2 == 0 and p_idx % 4 == 0, "value block alignment")
        check(p_idx + 12 * n_ctx <= len(b) - 8 and p_val + 10 * n_val <= p_idx, "value block bounds")
        tup = None
        if p_tup:
            check(p_tup % 8 == 0 and ptu <= p_tup < ptu + stu, "id tuple inside section")
            n_ids, = u("H", b, p_tup)
            tup = [u("BxHIQ", b, p_tup + 8 + 16 * k) for k in range(n_ids)]
            check([meta["kinds"][t[0]] for t in tup] == ["NODE", "RANK", "THREAD"], "tuple kinds")
        vals = [u("Hd", b, p_val + 10 * k) for k in range(n_val)]
        idx = [u("IQ", b, p_idx + 12 * k) for k in range(n_ctx)]
        check(all(a[0] < c[0] for a, c in zip(idx, idx[1:])), "profile %d ctx ids sorted" % i)
        data = {}
        for k, (cid, start) in enumerate(idx):
            end = idx[k + 1][1] if k + 1 < len(idx) else n_val
            check(start < end, "profile %d ctx %d non-empty" % (i, cid))
            mv = vals[start:end]
            check(all(a[0] < c[0] for a, c in zip(mv, mv[1:])), "metric ids sorted")
            check(all(v != 0.0 for _, v in mv), "only non-zero values")
            data[cid] = dict(mv)
        profiles.append(dict(tuple=tup, data=data))
    return profiles


def read_cct(path):
    b, secs = open_db(path, b"ctxt", b"__ctx.db", 1)
    (pci, sci), = secs
    pc, n, sz = u("QIB", b, pci)
    check(sz == 32 and pc % 8 == 0 and pci <= pc and pc + n * sz <= pci + sci, "ctx info array")
    out = {}
    for cid in range(n):
        n_val, p_val, n_m, p_mi = u("QQHxxxxxxQ", b, pc + cid * sz)
        if n_val == 0:
            check(n_m == 0, "empty block")
            continue
        check(p_val % 4 == 0 and p_mi % 2 == 0 and p_val < p_mi, "cct block alignment")
        check(p_mi + 10 * n_m <= len(b) - 8 and p_val + 12 * n_val <= p_mi, "cct block bounds")
        vals = [u("Id", b, p_val + 12 * k) for k in range(n_val)]
        mi = [u("HQ", b, p_mi + 10 * k) for k in range(n_m)]
        check(all(a[0] < c[0] for a, c in zip(mi, mi[1:])), "cct metric ids sorted")
        d = {}
        for k, (mid, start) in enumerate(mi):
            end = mi[k + 1][1] if k + 1 < len(mi) else n_val
            pv = vals[start:end]
            check(len(pv) > 0, "cct metric non-empty")
            check(all(a[0] < c[0] for a, c in zip(pv, pv[1:])), "cct prof indexes sorted")
            for prof, v in pv:
                check(v != 0.0, "cct non-zero")
                d[(prof, mid)] = v
        out[cid] = d
    return out


def read_trace(path):
    b, secs = open_db(path, b"trce", b"trace.db", 1)
    (pt, st), = secs
    p, n, sz, tmin, tmax = u("QIBxxxQQ", b, pt)
    check(sz == 24 and p % 8 == 0 and pt <= p and p + n * sz <= pt + st, "trace header array")
    lines = []
    for i in range(n):
        prof, ps, pe = u("IxxxxQQ", b, p + i * sz)
        check(ps % 4 == 0 and ps <= pe and (pe - ps) % 12 == 0 and pe <= len(b) - 8, "trace line bounds")
        lines.append((prof, [u("QI", b, o) for o in range(ps, pe, 12)]))
    return tmin, tmax, lines


def main():
    args = sys.argv[1:]
    strict = "--strict" in args
    args = [a for a in args if a != "--strict"]
    db, answers_path = args[0], args[1]
    ans = json.load(open(answers_path))
    meta = read_meta(db + "/meta.db")
    check(meta["title"] == ans["title"], "title")
    check(meta["metrics"] == ans["metrics"], "metric names")
    ctxs = meta["ctxs"]
    actx = {int(k): v for k, v in ans["contexts"].items()}
    check(set(ctxs) == set(actx), "same context ids in meta.db and answers")
    for cid, c in ctxs.items():
        a = actx.get(cid, {})
        for key in ("parent", "depth", "lexical", "relation", "name", "file", "line", "module"):
            if key in c or key in a:
                check(c.get(key) == a.get(key), "ctx %d %s: %r vs %r" % (cid, key, c.get(key), a.get(key)))

    profiles = read_profile(db + "/profile.db", meta)
    check(len(profiles) == ans["profiles"], "profile count")
    summary = profiles[0]["data"]
    # the summary profile holds exactly the answers' summaries
    for cid, a in list(actx.items()) + [(0, {"summary": ans["global"]})]:
        got = {meta["stat"][m]: v for m, v in summary.get(cid, {}).items()}
        check(got == a["summary"], "ctx %d summary differs: %r vs %r" % (cid, got, a["summary"]))

    # per-thread profiles recompute the summaries
    threads = profiles[1:]
    for cid, vals in summary.items():
        for mid, v in vals.items():
            name, scope, formula, comb = meta["stat"][mid].split("|")
            pid = [p for p, ns in meta["prop"].items() if ns == (name, scope)][0]
            xs = [t["data"].get(cid, {}).get(pid, 0.0) for t in threads]
            xs = [x for x in xs if x != 0.0]
            want = {"sum": sum(1.0 if formula == "1" else x for x in xs),
                    "max": max(xs) if xs else 0.0}[comb]
            check(close(v, want), "ctx %d %s recomputed %r vs %r" % (cid, meta["stat"][mid], want, v))

    # cct.db is the transpose of the per-thread profiles
    import os
    if os.path.exists(db + "/cct.db"):
        cct = read_cct(db + "/cct.db")
        trans = {}
        for i, t in enumerate(threads):
            for cid, vals in t["data"].items():
                for mid, v in vals.items():
                    trans.setdefault(cid, {})[(i + 1, mid)] = v
        check(cct == trans, "cct.db differs from the transposed profile.db")

    # propagation identities, per context, in the answers
    children = {}
    for cid, a in actx.items():
        children.setdefault(a["parent"], []).append(cid)
    for m in ans["metrics"]:
        def val(cid, key, m=m):
            src = ans["global"] if cid == 0 else actx[cid]["summary"]
            return src.get("%s|%s" % (m, key), 0.0)
        for cid in actx:
            kids = children.get(cid, [])
            ex = val(cid, "point|$$|sum") + sum(val(k, "execution|$$|sum") for k in kids)
            check(close(val(cid, "execution|$$|sum"), ex), "ctx %d %s execution = point + children" % (cid, m))
            fn = val(cid, "point|$$|sum") + sum(val(k, "function|$$|sum") for k in kids
                                                 if actx[k]["relation"] == "lexical")
            check(close(val(cid, "function|$$|sum"), fn), "ctx %d %s function = point + lexical children" % (cid, m))
            check(val(cid, "execution|$$|max") <= val(cid, "execution|$$|sum") * (1 + 1e-12), "max <= sum")
            check(val(cid, "execution|1|sum") <= len(threads), "count <= threads")
        check(close(val(0, "execution|$$|sum"), sum(val(k, "execution|$$|sum") for k in children[0])),
              "global = sum of entry points")

    # hot paths and flat functions, recomputed from the answers
    m0 = ans["metrics"][0] + "|execution|$$|sum"

    def hot(thr):
        path, cur = [], 0
        curv = ans["global"].get(m0, 0.0)
        while children.get(cur):
            best = min(children[cur], key=lambda k: (-actx[k]["summary"].get(m0, 0.0), k))
            bv = actx[best]["summary"].get(m0, 0.0)
            if bv < thr * curv:
                break
            path.append(best)
            cur, curv = best, bv
        return path
    check(hot(0.5) == ans["hotpath"], "hotpath")
    check(hot(0.0) == ans["hotpath0"], "hotpath0")
    check(not strict or len(ans["hotpath"]) >= 2, "hotpath has some depth")
    fx = {}
    for cid, a in actx.items():
        if a["lexical"] == "function":
            fx[a["name"]] = fx.get(a["name"], 0.0) + a["summary"].get(ans["metrics"][0] + "|function|$$|sum", 0.0)
    top = sorted(((-v, n) for n, v in fx.items() if v != 0.0))[:10]
    got = ans["flat_functions"]
    check([n for _, n in top] == [e["name"] for e in got], "flat_functions names")
    check(all(close(-v, e["exclusive"]) for (v, _), e in zip(top, got)), "flat_functions values")

    if "trace" in ans:
        tmin, tmax, lines = read_trace(db + "/trace.db")
        t = ans["trace"]
        check(t["lines"] == len(lines), "trace line count")
        check(t["elements"] == sum(len(e) for _, e in lines), "trace element count")
        allts = [ts for _, e in lines for ts, _ in e]
        if allts:
            check(tmin == t["min"] == min(allts) and tmax == t["max"] == max(allts), "trace min/max")
        else:  # no samples: hpcprof's INT64_MAX .. INT64_MIN, no range
            check(tmin == 2**63 - 1 and tmax == 2**63 and t["min"] is None and t["max"] is None,
                  "trace min/max without samples")
        leafs = set(actx)
        for prof, els in lines:
            check(1 <= prof < len(profiles), "trace prof index")
            check(all(a[0] <= c[0] for a, c in zip(els, els[1:])), "trace sorted")
            check(not any(a[1] == 0 and c[1] == 0 for a, c in zip(els, els[1:])), "no consecutive idle")
            check(all(c == 0 or c in leafs for _, c in els), "trace ctx ids exist")
        cases = set()
        for p in t["probes"]:
            prof, els = lines[p["line"]]
            check(prof == p["prof_index"], "probe prof index")
            idx = -1
            for k, (ts, _) in enumerate(els):
                if ts <= p["t"]:
                    idx = k
            check(idx == p["index"], "probe %r index %d" % (p, idx))
            check((els[idx][1] if idx >= 0 else 0) == p["ctx"], "probe %r ctx" % p)
            cases.add(p["case"])
        for c in ("before_first", "on_first", "on_sample", "between", "on_equal", "on_last", "after_last"):
            check(not strict or c in cases, "probe case %s present" % c)
        check(not strict or any(len(e) == 0 for _, e in lines), "an empty trace line")

    if failures:
        report()
    print("ok: %d contexts, %d profiles" % (len(ctxs), len(profiles)))


if __name__ == "__main__":
    main()
