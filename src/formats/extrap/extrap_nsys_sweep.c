/* extrap_nsys_sweep: Extra-P's concurrency views (EXTRAP_CONCURRENT_KERNELS,
 * EXTRAP_OVERLAP_ACTIVITIES) computed in C, for extrap_nsys.c: the time
 * line cut at every start and end of the activities, with Extra-P's
 * counts, including what SQLite's choice of row for the views'
 * non-aggregated columns makes of them (see extrap_nsys.h and
 * doc/extrap.md).  The views stored in a file are never evaluated.  Must
 * not depend on curses, on ui/ or on another format. */
#include "config.h"

#include "formats/extrap/extrap_nsys.h"
#include "core/array.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct event {
	int64_t t;
	struct nsys_int cid;
	size_t idx; /* starts 0..n-1, then ends n..2n-1: SQL's UNION ALL */
};

static int cmp_event(const void *a, const void *b)
{
	const struct event *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	/* GROUP BY's order: NULL first */
	if (x->cid.has != y->cid.has)
		return x->cid.has ? 1 : -1;
	if (x->cid.has && x->cid.v != y->cid.v)
		return x->cid.v < y->cid.v ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

struct tr {
	int64_t t, roof;
};

static int cmp_tr(const void *a, const void *b)
{
	const struct tr *x = a, *y = b;
	return x->t < y->t ? -1 : x->t > y->t;
}

/* How many of the sorted pairs have t < x (or <= x when `incl`). */
static size_t count_below(const struct tr *k, size_t n, int64_t x, bool incl)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (k[mid].t < x || (incl && k[mid].t == x))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Extra-P's concurrency view over `b`: at each event time, per
 * correlation id, COUNT = events x bases covering it (BETWEEN, inclusive)
 * and SUM(roof) = events x their roofs; per time the last id's count and
 * roof (SQLite's bare columns), the ids' end counts and event roofs (the
 * last event's of each id) summed; a segment runs to the next time where
 * count - ends > 0, its roof less the event roofs when something ended.
 * O(n log n). */
bool extrap_nsys_sweep(const struct nsys_base *b, size_t n,
		       struct nsys_seg **out, size_t *n_out, bool *overflow)
{
	*out = NULL;
	*n_out = 0;
	if (n == 0)
		return true;
	struct event *ev = malloc(2 * n * sizeof(*ev));
	struct tr *ps = malloc(n * sizeof(*ps)), *pe = malloc(n * sizeof(*pe));
	int64_t *rs = malloc((n + 1) * sizeof(*rs)),
		*re = malloc((n + 1) * sizeof(*re));
	struct nsys_seg *seg = malloc(2 * n * sizeof(*seg));
	size_t nv = 0, k = 0;
	if (!ev || !ps || !pe || !rs || !re || !seg) {
		FREE_AND_NULL(seg);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		ev[i] = (struct event){b[i].start, b[i].cid, i};
		ev[n + i] = (struct event){b[i].end, b[i].cid, n + i};
		/* a base ending before it starts covers nothing */
		if (b[i].start <= b[i].end) {
			ps[nv] = (struct tr){b[i].start, b[i].roof};
			pe[nv] = (struct tr){b[i].end, b[i].roof};
			nv++;
		}
	}
	qsort(ev, 2 * n, sizeof(*ev), cmp_event);
	qsort(ps, nv, sizeof(*ps), cmp_tr);
	qsort(pe, nv, sizeof(*pe), cmp_tr);
	rs[0] = re[0] = 0;
	for (size_t i = 0; i < nv; i++) {
		rs[i + 1] = extrap_nsys_add(overflow, rs[i], ps[i].roof);
		re[i + 1] = extrap_nsys_add(overflow, re[i], pe[i].roof);
	}
	int64_t prev_t = 0, prev_conc = 0, prev_roof = 0;
	bool have_prev = false;
	for (size_t i = 0; i < 2 * n;) {
		int64_t t = ev[i].t;
		/* covering: started at or before t, not ended before t */
		size_t a = count_below(ps, nv, t, true),
		       z = count_below(pe, nv, t, false);
		int64_t cover = (int64_t)a - (int64_t)z,
			croof = extrap_nsys_sub(overflow, rs[a], re[z]);
		int64_t conc = 0, roof = 0, eroof = 0, ends = 0;
		while (i < 2 * n && ev[i].t == t) {
			size_t g = i, ne = 0;
			while (i < 2 * n && ev[i].t == t &&
			       ev[i].cid.has == ev[g].cid.has &&
			       (!ev[g].cid.has || ev[i].cid.v == ev[g].cid.v)) {
				ne++;
				i++;
			}
			const struct event *last = &ev[i - 1];
			conc = extrap_nsys_mul(overflow, (int64_t)ne, cover);
			roof = extrap_nsys_mul(overflow, (int64_t)ne, croof);
			eroof = extrap_nsys_add(overflow, eroof,
						b[last->idx % n].roof);
			ends += last->idx >= n;
		}
		if (have_prev && prev_conc > 0)
			seg[k++] =
			    (struct nsys_seg){prev_t, t, prev_conc, prev_roof};
		prev_t = t;
		prev_conc = extrap_nsys_sub(overflow, conc, ends);
		prev_roof =
		    ends > 0 ? extrap_nsys_sub(overflow, roof, eroof) : roof;
		have_prev = true;
	}
out:
	free(ev);
	free(ps);
	free(pe);
	free(rs);
	free(re);
	*out = seg;
	*n_out = k;
	return seg != NULL;
}

size_t extrap_nsys_lower_bound(const void *base, size_t n, size_t size,
			       size_t field, int64_t v)
{
	const unsigned char *p = (const unsigned char *)base + field;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t x;
		memcpy(&x, p + mid * size, sizeof(x));
		if (x < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t extrap_nsys_seg_from(const struct nsys_seg *s, size_t n, int64_t a)
{
	return extrap_nsys_lower_bound(s, n, sizeof(*s),
				       offsetof(struct nsys_seg, end), a);
}

/* ---- which activities meet an interval ------------------------------- */

static int cmp_key(const void *a, const void *b)
{
	const struct nsys_key *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

bool extrap_nsys_ivx_init(struct nsys_ivx *x, const struct nsys_act *acts,
			  const size_t *idx, size_t n)
{
	memset(x, 0, sizeof(*x));
	x->by_start = malloc((n + 1) * sizeof(*x->by_start));
	x->by_end = malloc((n + 1) * sizeof(*x->by_end));
	x->max_end = malloc((n + 1) * sizeof(*x->max_end));
	if (!x->by_start || !x->by_end || !x->max_end) {
		extrap_nsys_ivx_free(x);
		return false;
	}
	x->acts = acts;
	x->n = n;
	for (size_t k = 0; k < n; k++) {
		x->by_start[k] = (struct nsys_key){acts[idx[k]].start, idx[k]};
		x->by_end[k] = (struct nsys_key){acts[idx[k]].end, idx[k]};
	}
	qsort(x->by_start, n, sizeof(*x->by_start), cmp_key);
	qsort(x->by_end, n, sizeof(*x->by_end), cmp_key);
	for (size_t k = 0; k < n; k++) {
		int64_t e = acts[x->by_start[k].i].end;
		x->max_end[k] =
		    k && x->max_end[k - 1] > e ? x->max_end[k - 1] : e;
	}
	return true;
}

void extrap_nsys_ivx_free(struct nsys_ivx *x)
{
	free(x->by_start);
	free(x->by_end);
	free(x->max_end);
	memset(x, 0, sizeof(*x));
}

/* The first key >= t. */
static size_t key_from(const struct nsys_key *k, size_t n, int64_t t)
{
	return extrap_nsys_lower_bound(k, n, sizeof(*k),
				       offsetof(struct nsys_key, t), t);
}

static bool in_(int64_t v, int64_t a, int64_t b)
{
	return a <= v && v <= b;
}

bool extrap_nsys_ivx_find(const struct nsys_ivx *x, int64_t s, int64_t e,
			  enum nsys_meet how, struct nsys_found *f)
{
	f->n = 0;
	const struct nsys_act *a = x->acts;
	for (int pass = 0; pass < 3; pass++) {
		if (pass == 0 && how == NSYS_ENDS_IN)
			continue;
		if (pass == 2 && how != NSYS_MEETS)
			break;
		if (pass < 2) {
			const struct nsys_key *k =
			    pass == 0 ? x->by_start : x->by_end;
			for (size_t j = key_from(k, x->n, s);
			     j < x->n && k[j].t <= e; j++) {
				/* an end inside whose start is too: once */
				if (pass == 1 && how != NSYS_ENDS_IN &&
				    in_(a[k[j].i].start, s, e))
					continue;
				if (!extrap_nsys_found_add(f, k[j].i))
					return false;
			}
			continue;
		}
		/* around [s, e]: started before s, ending after e; walk back
		 * while an earlier one may still end after e */
		for (size_t j = key_from(x->by_start, x->n, s); j-- > 0;) {
			if (x->max_end[j] <= e)
				break;
			const struct nsys_act *g = &a[x->by_start[j].i];
			if (g->end > e && g->start < s && !in_(g->end, s, e) &&
			    !extrap_nsys_found_add(f, x->by_start[j].i))
				return false;
		}
	}
	return true;
}

bool extrap_nsys_found_add(struct nsys_found *f, size_t i)
{
	if (!array_grow((void **)&f->i, &f->cap, f->n + 1, sizeof(*f->i)))
		return false;
	f->i[f->n++] = i;
	return true;
}
