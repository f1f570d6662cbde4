/* extrap_nsys: the values Extra-P v4.3.0-beta2 derives from one Nsight
 * Systems export (extrap_nsys.h), computed in C from the tables that
 * extrap_nsys_load.c read: the two concurrency sweeps
 * (extrap_nsys_sweep.c: kernels and memsets with their thread roofs; all
 * GPU activities), then per API callpath the kernel, synchronization and
 * allocation values here, the copy and memset values in
 * extrap_nsys_copy.c, each grouped as Extra-P's queries group them (one
 * value per group), and the callpaths without correlation id.  Extra-P's
 * defects are reproduced on purpose, because its output is the reference
 * (kernel rows once per GPU row, overlaps G^2 times, API durations
 * counted once more per call without an activity ending inside it, the
 * copy-copy overlap one aggregate over the file); each is listed in
 * doc/extrap.md ("Nsight Systems sets").  Times are integer nanoseconds,
 * in checked 64-bit arithmetic, until the value is emitted in seconds.
 * Must not depend on curses, on ui/ or on another format. */
#include "config.h"

#include "core/array.h"
#include "formats/extrap/extrap_nsys_run.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- per correlation id ---------------------------------------------- */

int extrap_nsys_cmp_sums(const void *a, const void *b)
{
	const struct sums *x = a, *y = b;
	return x->cid < y->cid ? -1 : x->cid > y->cid;
}

/* SUM(v) of the entries with `cid` (sorted by cid). */
struct nsys_int extrap_nsys_sums_at(struct run *r, const struct sums *s,
				    size_t n, int64_t cid)
{
	size_t lo = extrap_nsys_lower_bound(s, n, sizeof(*s),
					    offsetof(struct sums, cid), cid);
	struct nsys_int acc = none;
	for (; lo < n && s[lo].cid == cid; lo++)
		sum_in(r, &acc, s[lo].v);
	return acc;
}

int extrap_nsys_cmp_cid(const void *a, const void *b)
{
	const struct cid_ref *x = a, *y = b;
	if (x->cid != y->cid)
		return x->cid < y->cid ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The callpath rows with a correlation id, sorted by it (stable). */
static bool index_cps(struct run *r)
{
	const struct nsys_db *db = r->db;
	r->by_cid = malloc((db->n_cps + 1) * sizeof(*r->by_cid));
	if (!r->by_cid)
		return false;
	for (size_t i = 0; i < db->n_cps; i++)
		if (db->cps[i].cid.has)
			r->by_cid[r->n_by_cid++] =
			    (struct cid_ref){db->cps[i].cid.v, i};
	qsort(r->by_cid, r->n_by_cid, sizeof(*r->by_cid), extrap_nsys_cmp_cid);
	return true;
}

/* The callpath rows with correlation id `cid`: [*lo, return). */
static size_t cps_of(const struct run *r, struct nsys_int cid, size_t *lo)
{
	*lo = 0;
	if (!cid.has)
		return 0;
	size_t a = 0, b = r->n_by_cid;
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (r->by_cid[mid].cid < cid.v)
			a = mid + 1;
		else
			b = mid;
	}
	*lo = a;
	while (b < r->n_by_cid && r->by_cid[b].cid == cid.v)
		b++;
	return b < a ? a : b;
}

/* ---- callpaths out ----------------------------------------------------- */

/* Emit the concatenation of the NULL-terminated strings. */
void extrap_nsys_put(struct run *r, int metric, int64_t v, bool ns,
		     bool partial, ...)
{
	if (r->nomem)
		return;
	va_list ap;
	size_t len = 0;
	va_start(ap, partial);
	for (const char *p; (p = va_arg(ap, const char *));) {
		size_t l = strlen(p);
		if (len + l + 1 > r->buf_cap) {
			size_t nc = r->buf_cap ? r->buf_cap : 256;
			while (nc < len + l + 1)
				nc *= 2;
			char *g = realloc(r->buf, nc);
			if (!g) {
				r->nomem = true;
				va_end(ap);
				return;
			}
			r->buf = g;
			r->buf_cap = nc;
		}
		memcpy(r->buf + len, p, l);
		len += l;
	}
	va_end(ap);
	double x = ns ? (double)v / 1e9 : (double)v;
	if (!r->emit(r->ctx, r->buf, len, metric, x, partial))
		r->nomem = true;
}

static void row_add(struct run *r, struct row w)
{
	if (!array_grow((void **)&r->rows, &r->cap_rows, r->n_rows + 1,
			sizeof(*r->rows))) {
		r->nomem = true;
		return;
	}
	r->rows[r->n_rows++] = w;
}

static int cmp_str_null(const char *a, const char *b)
{
	if (!a || !b)
		return a ? 1 : b ? -1 : 0;
	return strcmp(a, b);
}

/* GROUP BY's key and order: callpath, name, kind, blocking (NULL first) */
static int cmp_row(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	int c = cmp_str_null(a->cp, b->cp);
	if (!c)
		c = cmp_str_null(a->name, b->name);
	if (!c)
		c = cmp_str_null(a->kind, b->kind);
	if (!c)
		c = a->blocking - b->blocking;
	return c;
}

/* The rows grouped: each group's sums into g[0..return). */
size_t extrap_nsys_group_rows(struct run *r)
{
	if (r->n_rows)
		qsort(r->rows, r->n_rows, sizeof(*r->rows), cmp_row);
	size_t k = 0;
	for (size_t i = 0; i < r->n_rows;) {
		struct row g = r->rows[i];
		size_t j = i + 1;
		for (; j < r->n_rows && cmp_row(&r->rows[j], &g) == 0; j++) {
			sum_in(r, &g.dur, r->rows[j].dur);
			sum_in(r, &g.gpu, r->rows[j].gpu);
			sum_in(r, &g.bytes, r->rows[j].bytes);
			sum_in(r, &g.ovl, r->rows[j].ovl);
		}
		r->rows[k++] = g;
		i = j;
	}
	return k;
}

static int blocking_of(bool has_pageable, bool pageable, const char *cp)
{
	/* pageable OR NOT (callpath GLOB '*Async_*'), NULL-aware */
	bool sync_call = !strstr(cp, "Async_");
	if (has_pageable)
		return pageable || sync_call;
	return sync_call ? 1 : -1;
}

/* Each row `w` joined with the callpath rows of correlation id `cid`
 * (INNER JOIN; LEFT JOIN adds one row with no callpath). */
void extrap_nsys_join_cps(struct run *r, struct nsys_int cid, struct row w,
			  bool left)
{
	size_t lo, hi = cps_of(r, cid, &lo);
	if (lo == hi && left)
		row_add(r, w);
	for (size_t i = lo; i < hi; i++) {
		const struct nsys_cp *c = &r->db->cps[r->by_cid[i].i];
		struct row x = w;
		x.cp = c->callpath;
		x.dur = c->dur;
		if (w.blocking == 2)
			x.blocking =
			    x.cp ? blocking_of(w.page >= 0, w.page == 1, x.cp)
				 : 0;
		row_add(r, x);
	}
}

/* ---- kernels ------------------------------------------------------------- */

static bool is_alloc_name(const char *n)
{
	return n && (strncmp(n, "cudaFree", 8) == 0 ||
		     strncmp(n, "cudaMalloc", 10) == 0 ||
		     strncmp(n, "cudaHostAlloc", 13) == 0);
}

static int64_t roof_of(const struct nsys_act *k, int64_t max_threads)
{
	return k->threads < max_threads ? k->threads : max_threads;
}

/* Per (callpath, kernel): the API durations, the kernel time less the
 * overlap, the overlap: segment time x (segment roof - kernel roof) /
 * segment roof over the kernel segments inside the kernel; every kernel
 * row once per GPU row. */
static void kernels(struct run *r)
{
	const struct nsys_db *db = r->db;
	size_t nk = db->n_kernels * db->n_gpus;
	struct sums *ov = malloc((nk + 1) * sizeof(*ov));
	if (!ov) {
		r->nomem = true;
		return;
	}
	size_t n_ov = 0;
	for (size_t i = 0; i < db->n_kernels; i++) {
		const struct nsys_act *k = &db->acts[i];
		if (!k->cid.has)
			continue;
		for (size_t g = 0; g < db->n_gpus; g++) {
			int64_t roof = roof_of(k, db->max_threads[g]);
			struct nsys_int acc = none;
			for (size_t s =
				 extrap_nsys_seg_from(r->kc, r->n_kc, k->start);
			     s < r->n_kc && r->kc[s].start <= k->end; s++) {
				const struct nsys_seg *c = &r->kc[s];
				if (!in(c->start, k->start, k->end) ||
				    !in(c->end, k->start, k->end) ||
				    c->roof == 0)
					continue;
				int64_t d = sub(r, c->end, c->start);
				int64_t x = mul(r, d, sub(r, c->roof, roof));
				/* SQL's integer division; INT64_MIN / -1 left
				 */
				sum_in(r, &acc,
				       val(c->roof == -1 ? sub(r, 0, x)
							 : x / c->roof));
			}
			ov[n_ov++] = (struct sums){k->cid.v, acc};
		}
	}
	qsort(ov, n_ov, sizeof(*ov), extrap_nsys_cmp_sums);
	r->n_rows = 0;
	for (size_t i = 0; i < db->n_kernels; i++) {
		const struct nsys_act *k = &db->acts[i];
		if (!k->name || is_alloc_name(k->name))
			continue;
		struct nsys_int o =
		    k->cid.has ? extrap_nsys_sums_at(r, ov, n_ov, k->cid.v)
			       : none;
		for (size_t g = 0; g < db->n_gpus; g++)
			extrap_nsys_join_cps(
			    r, k->cid,
			    (struct row){.name = k->name,
					 .gpu = val(sub(r, k->end, k->start)),
					 .ovl = o},
			    true);
	}
	free(ov);
	size_t n = extrap_nsys_group_rows(r);
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &r->rows[i];
		if (!w->cp)
			continue;
		if (truthy(w->dur))
			extrap_nsys_put(r, 0, w->dur.v, true, false, w->cp,
					"->", w->name, NULL);
		extrap_nsys_put(r, 0, sub(r, or0(w->gpu), or0(w->ovl)), true,
				false, w->cp, "->", w->name, "->GPU ", w->name,
				NULL);
		if (w->ovl.has)
			extrap_nsys_put(r, 0, w->ovl.v, true, false, w->cp,
					"->", w->name, "->GPU ", w->name,
					"->OVERLAP", NULL);
	}
}

/* ---- synchronizations and allocation calls -------------------------- */

struct call_ref {
	const struct nsys_call *c;
};

static int cmp_call(const void *a, const void *b)
{
	const struct nsys_call *x = ((const struct call_ref *)a)->c,
			       *y = ((const struct call_ref *)b)->c;
	if (x->cid.v != y->cid.v)
		return x->cid.v < y->cid.v ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The GPU activities *ending* inside call `c` (another correlation id):
 * one row each with its overlap, or one name-less row. */
static void ending_inside(struct run *r, const struct nsys_call *c,
			  const char *kind)
{
	bool any = false;
	if (!extrap_nsys_ivx_find(&r->all, c->start, c->end, NSYS_ENDS_IN,
				  &r->found)) {
		r->nomem = true;
		return;
	}
	for (size_t k = 0; k < r->found.n; k++) {
		const struct nsys_act *a = &r->db->acts[r->found.i[k]];
		if (!a->cid.has || a->cid.v == c->cid.v)
			continue;
		any = true;
		extrap_nsys_join_cps(
		    r, c->cid,
		    (struct row){.name = a->name,
				 .kind = kind,
				 .ovl = val(sub(r, min64(c->end, a->end),
						max64(c->start, a->start)))},
		    false);
	}
	if (!any)
		extrap_nsys_join_cps(r, c->cid, (struct row){.kind = kind},
				     false);
}

/* Sum over the activity segments with an end inside [s, e] of their time
 * inside it. */
static struct nsys_int oa_overlap(struct run *r, int64_t s, int64_t e)
{
	struct nsys_int acc = none;
	for (size_t i = extrap_nsys_seg_from(r->oa, r->n_oa, s);
	     i < r->n_oa && r->oa[i].start <= e; i++)
		if (in(r->oa[i].start, s, e) || in(r->oa[i].end, s, e))
			sum_in(r, &acc,
			       val(sub(r, min64(e, r->oa[i].end),
				       max64(s, r->oa[i].start))));
	return acc;
}

/* Synchronizations (sync = true), per (callpath, overlap name, sync
 * type), or cudaMalloc / cudaFree / cudaHostAlloc calls, per (callpath,
 * overlap name). */
static void calls(struct run *r, bool sync)
{
	const struct nsys_db *db = r->db;
	const struct nsys_call *v = sync ? db->syncs : db->calls;
	size_t n = sync ? db->n_syncs : db->n_calls, m = 0;
	struct call_ref *ref = malloc((n + 1) * sizeof(*ref));
	if (!ref) {
		r->nomem = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (v[i].cid.has)
			ref[m++].c = &v[i];
	qsort(ref, m, sizeof(*ref), cmp_call);
	r->n_rows = 0;
	for (size_t i = 0, j; i < m; i = j) {
		/* one row per correlation id: the last call's duration and
		 * type, the overlap of each call with the id's summed */
		struct nsys_int ov = none;
		for (j = i; j < m && ref[j].c->cid.v == ref[i].c->cid.v; j++)
			if (sync)
				sum_in(r, &ov,
				       oa_overlap(r, ref[j].c->start,
						  ref[j].c->end));
		const struct nsys_call *last = ref[j - 1].c;
		struct nsys_int tot = none;
		for (size_t k = i; k < j && ov.has; k++)
			sum_in(r, &tot, ov);
		extrap_nsys_join_cps(
		    r, last->cid,
		    (struct row){.kind = sync ? last->type : NULL,
				 .gpu = val(sub(r, last->end, last->start)),
				 .ovl = tot},
		    false);
	}
	for (size_t i = 0; i < m; i++) {
		const struct nsys_call *c = ref[i].c;
		/* allocations on the host do not wait for the GPU */
		if (!sync && c->name && strcasestr(c->name, "host"))
			continue;
		ending_inside(r, c, sync ? c->type : NULL);
	}
	free(ref);
	size_t ng = extrap_nsys_group_rows(r);
	for (size_t i = 0; i < ng; i++) {
		const struct row *w = &r->rows[i];
		if (!w->cp || (sync && !w->kind))
			continue;
		const char *t = sync ? "->" : "", *k = sync ? w->kind : "";
		if (w->name) {
			extrap_nsys_put(r, 0, or0(w->ovl), true, true, w->cp, t,
					k, "->OVERLAP->", w->name, NULL);
			continue;
		}
		if (truthy(w->dur))
			extrap_nsys_put(r, 0,
					sync ? sub(r, w->dur.v, or0(w->ovl))
					     : w->dur.v,
					true, false, w->cp, t, k, NULL);
		if (!sync)
			continue;
		if (w->gpu.has)
			extrap_nsys_put(r, 0, w->gpu.v, true, false, w->cp, t,
					k, "->WAIT", NULL);
		if (w->ovl.has)
			extrap_nsys_put(r, 0, w->ovl.v, true, false, w->cp, t,
					k, "->OVERLAP", NULL);
	}
}

/* ---- copies and memsets ------------------------------------------------ */

enum status extrap_nsys_values(const struct nsys_db *db, nsys_emit_fn emit,
			       void *ctx, struct error *err)
{
	struct run r = {.db = db, .emit = emit, .ctx = ctx, .err = err};
	struct nsys_base *b = NULL;
	size_t nb = db->n_kernels * db->n_gpus + db->n_acts + 1;
	b = malloc(nb * sizeof(*b));
	if (!index_cps(&r) || !b) {
		r.nomem = true;
		goto out;
	}
	/* the kernel segments: every kernel once per GPU row, with its
	 * thread roof there, and the memsets with none */
	size_t n = 0;
	for (size_t i = 0; i < db->n_kernels; i++)
		for (size_t g = 0; g < db->n_gpus; g++)
			b[n++] = (struct nsys_base){
			    db->acts[i].cid, db->acts[i].start, db->acts[i].end,
			    roof_of(&db->acts[i], db->max_threads[g])};
	for (size_t i = db->n_kernels + db->n_copies; i < db->n_acts; i++)
		b[n++] = (struct nsys_base){db->acts[i].cid, db->acts[i].start,
					    db->acts[i].end, 0};
	if (!extrap_nsys_sweep(b, n, &r.kc, &r.n_kc, &r.overflow)) {
		r.nomem = true;
		goto out;
	}
	/* the activity segments: kernels, extrap_nsys_copies, memsets once each
	 */
	for (size_t i = 0; i < db->n_acts; i++)
		b[i] = (struct nsys_base){db->acts[i].cid, db->acts[i].start,
					  db->acts[i].end, 0};
	if (!extrap_nsys_sweep(b, db->n_acts, &r.oa, &r.n_oa, &r.overflow)) {
		r.nomem = true;
		goto out;
	}
	size_t *idx = malloc((db->n_acts + 1) * sizeof(*idx));
	for (size_t i = 0; idx && i < db->n_acts; i++)
		idx[i] = i;
	bool ix =
	    idx && extrap_nsys_ivx_init(&r.all, db->acts, idx, db->n_acts);
	free(idx);
	if (!ix) {
		r.nomem = true;
		goto out;
	}
	calls(&r, true);
	kernels(&r);
	extrap_nsys_copies(&r);
	extrap_nsys_memsets(&r);
	calls(&r, false);
	/* callpaths without a correlation id (NVTX ranges): their time */
	for (size_t i = 0; i < db->n_cps; i++)
		if (!db->cps[i].cid.has && db->cps[i].callpath &&
		    truthy(db->cps[i].dur))
			extrap_nsys_put(&r, 0, db->cps[i].dur.v, true, false,
					db->cps[i].callpath, NULL);
out:
	free(b);
	free(r.by_cid);
	free(r.kc);
	free(r.oa);
	extrap_nsys_ivx_free(&r.all);
	free(r.found.i);
	free(r.rows);
	free(r.buf);
	if (r.nomem)
		return error_set(err, STATUS_NOMEM, db->path, "out of memory");
	if (r.overflow)
		return error_set(err, STATUS_CORRUPT, db->path,
				 "a sum of times or sizes exceeds 64 bits");
	return STATUS_OK;
}
