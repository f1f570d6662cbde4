/* extrap_nsys_copy: the copies' and memsets' values of one Nsight
 * Systems export as Extra-P v4.3.0-beta2 computes them (see
 * extrap_nsys.c, whose run it shares through extrap_nsys_run.h, and
 * doc/extrap.md): the API time less the GPU time when blocking, the GPU
 * time less the overlap with the kernel segments, the bytes, the overlap
 * per kernel or copy, and the copy-copy overlap that Extra-P aggregates
 * over the whole file.  Must not depend on curses, on ui/ or on another
 * format. */
#include "config.h"

#include "formats/extrap/extrap_nsys_run.h"

#include <stdlib.h>
#include <string.h>

/* Row `w` joined with the copies or memsets [lo, hi) of correlation id
 * `cid` (LEFT JOIN: their kind and pageable), then with the callpaths
 * (blocking per callpath). */
static void join_acts(struct run *r, size_t lo, size_t hi, struct nsys_int cid,
		      struct row w)
{
	for (size_t i = lo; cid.has && i < hi; i++) {
		const struct nsys_act *a = &r->db->acts[i];
		if (!a->cid.has || a->cid.v != cid.v)
			continue;
		struct row x = w;
		x.kind = a->type == 1 ? a->name : "GPU MEMSET";
		x.page = a->pageable;
		x.blocking = 2; /* resolved per callpath */
		extrap_nsys_join_cps(r, cid, x, false);
	}
}

/* The copy-copy overlap: one aggregate over every pair of copies where
 * one starts or ends inside the other, each pair once per side, joined
 * with the kernel segments; SQLite's bare columns take the first row:
 * its id gets the sum, of halves of the pairs' times when that row meets
 * no segment, else of halves of the time outside each segment. */
static bool copy_copy(struct run *r, struct sums *out)
{
	const struct nsys_db *db = r->db;
	const struct nsys_act *c = db->acts + db->n_kernels;
	size_t n = db->n_copies;
	bool first = true, first_null = false;
	struct nsys_int halves = none, outside = none;
	int64_t first_cid = 0;
	bool first_has = false;
	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++) {
				const struct nsys_act *a = &c[i], *b = &c[j];
				if (!a->cid.has || !b->cid.has ||
				    a->cid.v == b->cid.v ||
				    !(in(b->start, a->start, a->end) ||
				      in(b->end, a->start, a->end)))
					continue;
				int64_t s = max64(a->start, b->start),
					e = min64(a->end, b->end),
					d = sub(r, e, s);
				const struct nsys_act *me = side ? b : a;
				size_t hits = 0;
				for (size_t k = extrap_nsys_seg_from(
					 r->kc, r->n_kc, s);
				     k < r->n_kc && r->kc[k].start <= e; k++) {
					const struct nsys_seg *g = &r->kc[k];
					if (!meets3(s, e, g->start, g->end))
						continue;
					hits++;
					int64_t x = sub(r, min64(g->end, e),
							max64(g->start, s));
					sum_in(r, &outside,
					       val(sub(r, d, x) / 2));
					sum_in(r, &halves, val(d / 2));
				}
				if (!hits)
					sum_in(r, &halves, val(d / 2));
				if (first) {
					first = false;
					first_null = hits == 0;
					first_cid = me->cid.v;
					first_has = true;
				}
			}
	if (!first_has)
		return false;
	*out = (struct sums){first_cid, first_null ? halves : outside};
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
	if (copy_copy(r, &ov[n_ov]))
		n_ov++;
	qsort(ov, n_ov, sizeof(*ov), extrap_nsys_cmp_sums);
	r->n_rows = 0;
	for (size_t i = lo; i < hi; i++) {
		const struct nsys_act *m = &db->acts[i];
		struct nsys_int o =
		    m->cid.has ? extrap_nsys_sums_at(r, ov, n_ov, m->cid.v)
			       : none;
		join_acts(r, i, i + 1, m->cid,
			  (struct row){.gpu = val(sub(r, m->end, m->start)),
				       .bytes = m->bytes,
				       .ovl = o});
	}
	free(ov);
	/* the kernels and the other copies overlapping each copy */
	for (size_t i = lo; i < hi; i++) {
		const struct nsys_act *m = &db->acts[i];
		for (size_t k = 0; k < db->n_kernels; k++) {
			const struct nsys_act *g = &db->acts[k];
			if (meets3(g->start, g->end, m->start, m->end))
				join_acts(r, lo, hi, m->cid,
					  (struct row){
					      .name = g->name,
					      .ovl = val(sub(
						  r, min64(m->end, g->end),
						  max64(m->start, g->start)))});
		}
	}
	for (int side = 0; side < 2; side++)
		for (size_t i = lo; i < hi; i++)
			for (size_t j = lo; j < hi; j++) {
				const struct nsys_act *a = &db->acts[i],
						      *b = &db->acts[j];
				if (!a->cid.has || !b->cid.has ||
				    a->cid.v == b->cid.v ||
				    !(in(b->start, a->start, a->end) ||
				      in(b->end, a->start, a->end)))
					continue;
				const struct nsys_act *me = side ? b : a;
				join_acts(r, lo, hi, me->cid,
					  (struct row){
					      .name = me->name,
					      .ovl = val(sub(
						  r, min64(a->end, b->end),
						  max64(a->start, b->start)))});
			}
	emit_copy_groups(r);
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
	for (size_t i = lo; i < hi; i++) {
		const struct nsys_act *a = &db->acts[i];
		for (size_t k = 0; k < db->n_acts && a->cid.has; k++) {
			const struct nsys_act *g = &db->acts[k];
			if (g->type == 1 || !g->cid.has ||
			    g->cid.v == a->cid.v ||
			    !meets3(g->start, g->end, a->start, a->end))
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
	emit_copy_groups(r);
}
