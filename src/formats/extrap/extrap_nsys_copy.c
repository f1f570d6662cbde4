/* extrap_nsys_copy: the copies' and memsets' values of one Nsight
 * Systems export as Extra-P v4.3.0-beta2 computes them (see
 * extrap_nsys.c, whose run it shares through extrap_nsys_run.h, and
 * doc/extrap.md): the API time less the GPU time when blocking, the GPU
 * time less the overlap with the kernel segments, the bytes, the overlap
 * per kernel or copy, and the copy-copy overlap that Extra-P aggregates
 * over the whole file.  Must not depend on curses, on ui/ or on another
 * format. */
#include "config.h"

#include "core/array.h"
#include "formats/extrap/extrap_nsys_run.h"

#include <stdlib.h>
#include <string.h>

/* The copies [lo, hi) with an id, by id (then table order). */
static struct cid_ref *by_id(const struct nsys_db *db, size_t lo, size_t hi,
			     size_t *n)
{
	struct cid_ref *v = malloc((hi - lo + 1) * sizeof(*v));
	*n = 0;
	for (size_t i = lo; v && i < hi; i++)
		if (db->acts[i].cid.has)
			v[(*n)++] = (struct cid_ref){db->acts[i].cid.v, i};
	if (v)
		qsort(v, *n, sizeof(*v), extrap_nsys_cmp_cid);
	return v;
}

/* Row `w` of copy `a` (its kind and pageable), joined with the
 * callpaths (blocking per callpath). */
static void join_act(struct run *r, const struct nsys_act *a, struct row w)
{
	w.kind = a->name;
	w.page = a->pageable;
	w.blocking = 2; /* resolved per callpath */
	extrap_nsys_join_cps(r, a->cid, w, false);
}

/* Row `w` joined with the copies of id `cid` (LEFT JOIN; `ids` from
 * by_id), then with the callpaths. */
static void join_acts(struct run *r, const struct cid_ref *ids, size_t n,
		      struct nsys_int cid, struct row w)
{
	size_t lo = 0, hi = n;
	while (cid.has && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ids[mid].cid < cid.v)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; cid.has && lo < n && ids[lo].cid == cid.v; lo++)
		join_act(r, &r->db->acts[ids[lo].i], w);
}

struct pair {
	size_t a, b; /* acts indexes: b starts or ends inside a */
};

/* Every pair of copies of different ids where the second starts or ends
 * inside the first, and which comes first in SQL's order (the first
 * copy in table order with a pair, its first partner): *first. */
static bool copy_pairs(struct run *r, struct pair **out, size_t *n,
		       size_t *first)
{
	const struct nsys_db *db = r->db;
	size_t lo = db->n_kernels, hi = lo + db->n_copies, cap = 0;
	size_t *idx = malloc((db->n_copies + 1) * sizeof(*idx));
	struct nsys_ivx x;
	*out = NULL;
	*n = 0;
	*first = SIZE_MAX;
	for (size_t i = lo; idx && i < hi; i++)
		idx[i - lo] = i;
	bool ok = idx && extrap_nsys_ivx_init(&x, db->acts, idx, db->n_copies);
	free(idx);
	if (!ok)
		return false;
	for (size_t i = lo; ok && i < hi; i++) {
		const struct nsys_act *a = &db->acts[i];
		if (!a->cid.has)
			continue;
		ok = extrap_nsys_ivx_find(&x, a->start, a->end,
					  NSYS_STARTS_OR_ENDS_IN, &r->found);
		for (size_t k = 0; ok && k < r->found.n; k++) {
			const struct nsys_act *b = &db->acts[r->found.i[k]];
			if (!b->cid.has || b->cid.v == a->cid.v)
				continue;
			if (!array_grow((void **)out, &cap, *n + 1,
					sizeof(**out))) {
				ok = false;
				break;
			}
			(*out)[*n] = (struct pair){i, r->found.i[k]};
			if (*first == SIZE_MAX ||
			    ((*out)[*first].a == i &&
			     (*out)[*first].b > r->found.i[k]))
				*first = *n;
			(*n)++;
		}
	}
	extrap_nsys_ivx_free(&x);
	return ok;
}

/* The copy-copy overlap: one aggregate over the pairs, each once per
 * side, joined with the kernel segments; SQLite's bare columns take the
 * first row (the first pair's first side): its id gets the sum, of halves
 * of the pairs' times when that row meets no segment, else of halves of
 * the time outside each segment. */
static bool copy_copy(struct run *r, const struct pair *p, size_t n,
		      size_t first, struct sums *out)
{
	const struct nsys_act *acts = r->db->acts;
	bool first_null = false;
	struct nsys_int halves = none, outside = none;
	for (size_t i = 0; i < n; i++) {
		const struct nsys_act *a = &acts[p[i].a], *b = &acts[p[i].b];
		int64_t s = max64(a->start, b->start),
			e = min64(a->end, b->end), d = sub(r, e, s);
		size_t hits = 0;
		for (size_t k = extrap_nsys_seg_from(r->kc, r->n_kc, s);
		     k < r->n_kc && r->kc[k].start <= e; k++) {
			const struct nsys_seg *g = &r->kc[k];
			if (!meets3(s, e, g->start, g->end))
				continue;
			hits++;
			int64_t x =
			    sub(r, min64(g->end, e), max64(g->start, s));
			/* once per side */
			for (int side = 0; side < 2; side++) {
				sum_in(r, &outside, val(sub(r, d, x) / 2));
				sum_in(r, &halves, val(d / 2));
			}
		}
		for (int side = 0; side < 2 && !hits; side++)
			sum_in(r, &halves, val(d / 2));
		if (i == first)
			first_null = hits == 0;
	}
	if (first >= n)
		return false;
	*out = (struct sums){acts[p[first].a].cid.v,
			     first_null ? halves : outside};
	return true;
}

/* The groups of copies or memsets out: the API time (less the GPU time
 * when blocking), the GPU time less the overlap, its bytes, the overlap,
 * and the overlap per other activity. */
static void emit_copy_groups(struct run *r)
{
	size_t ng = extrap_nsys_group_rows(r);
	for (size_t i = 0; i < ng; i++) {
		const struct row *w = &r->rows[i];
		if (!w->cp || !w->kind)
			continue;
		const char *bl = w->blocking == 1 ? "BLOCKING " : "";
		if (truthy(w->dur))
			extrap_nsys_put(r, 0,
					w->blocking == 1
					    ? sub(r, w->dur.v, or0(w->gpu))
					    : w->dur.v,
					true, false, w->cp, NULL);
		if (w->name) {
			extrap_nsys_put(r, 0, or0(w->ovl), true, true, w->cp,
					"->", bl, w->kind, "->OVERLAP->",
					w->name, NULL);
			continue;
		}
		extrap_nsys_put(r, 0, sub(r, or0(w->gpu), or0(w->ovl)), true,
				false, w->cp, "->", bl, w->kind, NULL);
		if (w->bytes.has)
			extrap_nsys_put(r, 1, w->bytes.v, false, false, w->cp,
					"->", bl, w->kind, NULL);
		if (w->ovl.has)
			extrap_nsys_put(r, 0, w->ovl.v, true, false, w->cp,
					"->", bl, w->kind, "->OVERLAP", NULL);
	}
}

/* Copies, per (callpath, overlap name, copy kind, blocking). */
void extrap_nsys_copies(struct run *r)
{
	const struct nsys_db *db = r->db;
	size_t lo = db->n_kernels, hi = lo + db->n_copies;
	struct sums *ov = malloc((db->n_copies + 2) * sizeof(*ov));
	if (!ov) {
		r->nomem = true;
		return;
	}
	size_t n_ov = 0;
	for (size_t i = lo; i < hi; i++) {
		const struct nsys_act *m = &db->acts[i];
		struct nsys_int acc = none;
		for (size_t k = extrap_nsys_seg_from(r->kc, r->n_kc, m->start);
		     k < r->n_kc && r->kc[k].start <= m->end; k++)
			if (meets3(r->kc[k].start, r->kc[k].end, m->start,
				   m->end))
				sum_in(
				    r, &acc,
				    val(sub(r, min64(m->end, r->kc[k].end),
					    max64(m->start, r->kc[k].start))));
		if (m->cid.has && acc.has)
			ov[n_ov++] = (struct sums){m->cid.v, acc};
	}
	struct pair *pairs = NULL;
	size_t n_pairs = 0, first = SIZE_MAX, n_ids = 0;
	struct cid_ref *ids = by_id(db, lo, hi, &n_ids);
	size_t *kidx = malloc((db->n_kernels + 1) * sizeof(*kidx));
	struct nsys_ivx kx = {0};
	for (size_t k = 0; kidx && k < db->n_kernels; k++)
		kidx[k] = k;
	if (!ids || !kidx || !copy_pairs(r, &pairs, &n_pairs, &first) ||
	    !extrap_nsys_ivx_init(&kx, db->acts, kidx, db->n_kernels)) {
		r->nomem = true;
		goto out;
	}
	if (copy_copy(r, pairs, n_pairs, first, &ov[n_ov]))
		n_ov++;
	qsort(ov, n_ov, sizeof(*ov), extrap_nsys_cmp_sums);
	r->n_rows = 0;
	for (size_t i = lo; i < hi; i++) {
		const struct nsys_act *m = &db->acts[i];
		struct nsys_int o =
		    m->cid.has ? extrap_nsys_sums_at(r, ov, n_ov, m->cid.v)
			       : none;
		if (m->cid.has)
			join_act(
			    r, m,
			    (struct row){.gpu = val(sub(r, m->end, m->start)),
					 .bytes = m->bytes,
					 .ovl = o});
	}
	/* the kernels and the other copies overlapping each copy */
	for (size_t i = lo; i < hi; i++) {
		const struct nsys_act *m = &db->acts[i];
		if (!extrap_nsys_ivx_find(&kx, m->start, m->end, NSYS_MEETS,
					  &r->found)) {
			r->nomem = true;
			goto out;
		}
		for (size_t k = 0; k < r->found.n; k++) {
			const struct nsys_act *g = &db->acts[r->found.i[k]];
			join_acts(
			    r, ids, n_ids, m->cid,
			    (struct row){
				.name = g->name,
				.ovl = val(sub(r, min64(m->end, g->end),
					       max64(m->start, g->start)))});
		}
	}
	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < n_pairs; i++) {
			const struct nsys_act *a = &db->acts[pairs[i].a],
					      *b = &db->acts[pairs[i].b],
					      *me = side ? b : a;
			join_acts(
			    r, ids, n_ids, me->cid,
			    (struct row){
				.name = me->name,
				.ovl = val(sub(r, min64(a->end, b->end),
					       max64(a->start, b->start)))});
		}
	emit_copy_groups(r);
out:
	free(ov);
	free(pairs);
	free(ids);
	free(kidx);
	extrap_nsys_ivx_free(&kx);
}

/* Memsets, per (callpath, overlap name, blocking): as extrap_nsys_copies, the
 * overlap over the kernel segments meeting the memset but not sharing its start
 * or its end (unless more than one thing runs), the names those of the
 * kernels and memsets overlapping it. */
void extrap_nsys_memsets(struct run *r)
{
	const struct nsys_db *db = r->db;
	size_t lo = db->n_kernels + db->n_copies, hi = lo + db->n_memsets;
	struct sums *ov = malloc((db->n_memsets + 1) * sizeof(*ov));
	/* the memsets with an id, by id */
	struct cid_ref *ref = malloc((db->n_memsets + 1) * sizeof(*ref));
	if (!ov || !ref) {
		free(ov);
		free(ref);
		r->nomem = true;
		return;
	}
	size_t n_ov = 0, m = 0;
	for (size_t i = lo; i < hi; i++) {
		const struct nsys_act *a = &db->acts[i];
		struct nsys_int acc = none;
		for (size_t k = extrap_nsys_seg_from(r->kc, r->n_kc, a->start);
		     k < r->n_kc && r->kc[k].start <= a->end; k++) {
			const struct nsys_seg *g = &r->kc[k];
			if (meets3(g->start, g->end, a->start, a->end) &&
			    ((g->start != a->start && g->end != a->end) ||
			     g->conc > 1))
				sum_in(r, &acc,
				       val(sub(r, min64(a->end, g->end),
					       max64(a->start, g->start))));
		}
		if (a->cid.has && acc.has)
			ov[n_ov++] = (struct sums){a->cid.v, acc};
		if (a->cid.has)
			ref[m++] = (struct cid_ref){a->cid.v, i};
	}
	qsort(ov, n_ov, sizeof(*ov), extrap_nsys_cmp_sums);
	qsort(ref, m, sizeof(*ref), extrap_nsys_cmp_cid);
	r->n_rows = 0;
	for (size_t i = 0, j; i < m; i = j) {
		for (j = i; j < m && ref[j].cid == ref[i].cid; j++)
			;
		const struct nsys_act *last = &db->acts[ref[j - 1].i];
		struct nsys_int o = extrap_nsys_sums_at(r, ov, n_ov,
							last->cid.v),
				tot = none;
		for (size_t k = i; k < j && o.has; k++)
			sum_in(r, &tot, o);
		extrap_nsys_join_cps(
		    r, last->cid,
		    (struct row){.kind = "GPU MEMSET",
				 .page = last->pageable,
				 .blocking = 2,
				 .gpu = val(sub(r, last->end, last->start)),
				 .bytes = last->bytes,
				 .ovl = tot},
		    false);
	}
	free(ov);
	free(ref);
	/* the kernels and memsets overlapping each memset */
	size_t *idx = malloc((db->n_acts + 1) * sizeof(*idx)), n_idx = 0;
	struct nsys_ivx x = {0};
	for (size_t k = 0; idx && k < db->n_acts; k++)
		if (db->acts[k].type != 1)
			idx[n_idx++] = k;
	bool ok = idx && extrap_nsys_ivx_init(&x, db->acts, idx, n_idx);
	free(idx);
	for (size_t i = lo; ok && i < hi; i++) {
		const struct nsys_act *a = &db->acts[i];
		if (!a->cid.has)
			continue;
		ok = extrap_nsys_ivx_find(&x, a->start, a->end, NSYS_MEETS,
					  &r->found);
		for (size_t k = 0; ok && k < r->found.n; k++) {
			const struct nsys_act *g = &db->acts[r->found.i[k]];
			if (!g->cid.has || g->cid.v == a->cid.v)
				continue;
			extrap_nsys_join_cps(
			    r, a->cid,
			    (struct row){
				.name = g->name,
				.kind = "GPU MEMSET",
				.page = -1,
				.blocking = 2,
				.ovl = val(sub(r, min64(a->end, g->end),
					       max64(a->start, g->start)))},
			    false);
		}
	}
	extrap_nsys_ivx_free(&x);
	if (!ok) {
		r->nomem = true;
		return;
	}
	emit_copy_groups(r);
}
