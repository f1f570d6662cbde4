/* cube_inclusive: the inclusive values of the metrics whose exclusive
 * values are what is stored or computed (stored EXCLUSIVE,
 * PREDERIVED_EXCLUSIVE): a node's inclusive value is its subtree's
 * exclusive values combined (sum; min / max for MIN/MAXDOUBLE, over the
 * rows that hold data; a PREDERIVED_EXCLUSIVE metric's own "plus", node
 * first, then each child's inclusive value).
 *
 * Per location: one pre-order walk of the subtree with a stack of
 * per-location accumulators along the current path (depth x locations
 * doubles); the result of every node whose subtree has at least `k` nodes
 * is kept, k chosen once per file so that the kept rows of one metric fit
 * in CUBE_INCL_CACHE_BYTES (k >= CUBE_INCL_MIN_K).  A later walk takes a
 * kept node's row instead of its subtree, so after the first request of
 * the root (which reads every row once, as before) any node answers by
 * reading fewer than k rows.  Totals over locations: one reverse pass
 * over all nodes the first time, kept per metric (n doubles).  Called
 * with v->lock held.  Must not depend on curses or on another format. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "formats/cube/cube_internal.h"

#define CUBE_INCL_CACHE_BYTES (64ull << 20)
#define CUBE_INCL_MIN_K 8

struct incl_metric {
	double *rows;   /* n_slots x n_loc */
	uint8_t *state; /* per slot: 0 not computed, 1 data, 2 no data */
	double *total;  /* per position (NULL until the pass) */
	uint8_t *has_total;
};

struct cube_incl {
	uint32_t k;
	uint32_t *slot; /* per position: kept slot, or UINT32_MAX */
	uint32_t n_slots;
	struct incl_metric *m; /* per metric */
};

/* (acc, *has) combined with (x, x_has), L values; a
 * PREDERIVED_EXCLUSIVE metric's own "plus" (cube_derived_op) makes
 * plus(acc, x): the node's own values first, then each child's inclusive
 * ones in order (CubeLib's CubePreDerivedExclusiveMetric; a failed run
 * is the metric's error). */
static void merge(struct cube_values *v, uint32_t mi, double *acc,
		  bool *has, const double *x, bool x_has, uint32_t L)
{
	const struct cube_metric *m = &v->metrics[mi];
	if (!x_has)
		return;
	if (!*has) {
		memcpy(acc, x, L * sizeof(*acc));
	} else if (m->own_aggr) {
		for (uint32_t j = 0; j < L; j++)
			if (!cube_derived_op(v, mi, CUBE_AGG_PLUS, acc[j], x[j],
					     &acc[j]))
				break;
	} else if (!is_minmax(m)) {
		for (uint32_t j = 0; j < L; j++)
			acc[j] += x[j];
	} else {
		for (uint32_t j = 0; j < L; j++)
			acc[j] = cube_combine(m, acc[j], x[j]);
	}
	*has = true;
}

/* k and the slots: nodes with subtree >= k, the fewest that fit. */
static struct cube_incl *incl_state(struct cube_values *v)
{
	if (v->incl)
		return v->incl;
	struct cube_incl *c = calloc(1, sizeof(*c));
	uint64_t hist[33] = {0};
	if (!c)
		return NULL;
	for (uint32_t p = 0; p < v->n; p++) {
		unsigned b = 0;
		while (b < 32 && (v->subtree[p] >> (b + 1)) != 0)
			b++;
		hist[b]++;
	}
	uint64_t row = (uint64_t)(v->n_loc ? v->n_loc : 1) * sizeof(double);
	uint64_t fit = CUBE_INCL_CACHE_BYTES / row, above = 0;
	unsigned b = 33;
	while (b > 0 && above + hist[b - 1] <= fit &&
	       (1ull << (b - 1)) >= CUBE_INCL_MIN_K) {
		b--;
		above += hist[b];
	}
	c->k = b >= 32 ? UINT32_MAX : 1u << b;
	c->slot = malloc(((size_t)v->n + 1) * sizeof(uint32_t));
	c->m = calloc(v->n_metrics ? v->n_metrics : 1, sizeof(*c->m));
	if (!c->slot || !c->m) {
		free(c->slot);
		free(c->m);
		free(c);
		return NULL;
	}
	for (uint32_t p = 0; p < v->n; p++)
		c->slot[p] = v->subtree[p] >= c->k ? c->n_slots++ : UINT32_MAX;
	v->incl = c;
	return c;
}

static bool kept(const struct cube_incl *c, const struct incl_metric *im,
		 uint32_t p)
{
	return c->slot[p] != UINT32_MAX && im->state &&
	       im->state[c->slot[p]] != 0;
}

struct walk {
	double *rows;   /* cap x L */
	uint32_t *pos;
	bool *has;
	size_t sp, cap;
};

static bool walk_push(struct walk *w, uint32_t L)
{
	if (w->sp < w->cap)
		return true;
	size_t cap = w->cap ? 2 * w->cap : 16;
	double *r = realloc(w->rows, cap * L * sizeof(double) + sizeof(double));
	if (r)
		w->rows = r;
	uint32_t *p = realloc(w->pos, cap * sizeof(*p));
	if (p)
		w->pos = p;
	bool *h = realloc(w->has, cap * sizeof(*h));
	if (h)
		w->has = h;
	if (!r || !p || !h)
		return false;
	w->cap = cap;
	return true;
}

/* Top of the walk's stack done: kept when its slot says so, merged into
 * its parent (or into out when it is the walk's root). */
static void walk_pop(struct cube_values *v, uint32_t mi,
		     struct incl_metric *im, struct walk *w, double *out,
		     bool *out_has)
{
	uint32_t L = v->n_loc;
	size_t i = --w->sp;
	double *row = w->rows + i * L;
	uint32_t s = v->incl->slot[w->pos[i]];
	if (s != UINT32_MAX && im->state) {
		memcpy(im->rows + (size_t)s * L, row, L * sizeof(double));
		im->state[s] = w->has[i] ? 1 : 2;
	}
	if (i > 0)
		merge(v, mi, w->rows + (i - 1) * L, &w->has[i - 1], row,
		      w->has[i], L);
	else
		merge(v, mi, out, out_has, row, w->has[i], L);
}

bool cube_incl_cells(struct cube_values *v, uint32_t mi, uint32_t pos,
		     double *out)
{
	uint32_t L = v->n_loc;
	memset(out, 0, L * sizeof(*out));
	struct cube_incl *c = incl_state(v);
	if (!c || pos >= v->n || mi >= v->n_metrics)
		return false;
	struct incl_metric *im = &c->m[mi];
	if (!im->state && c->n_slots) {
		im->rows = malloc((size_t)c->n_slots * L * sizeof(double) + 1);
		im->state = calloc(c->n_slots, 1);
		if (!im->rows || !im->state) {
			free(im->rows);
			free(im->state);
			im->rows = NULL;
			im->state = NULL; /* walk without keeping */
		}
	}
	if (kept(c, im, pos)) {
		uint32_t s = c->slot[pos];
		memcpy(out, im->rows + (size_t)s * L, L * sizeof(*out));
		return im->state[s] == 1;
	}
	struct walk w = {0};
	bool has = false, ok = true;
	uint32_t end = pos + v->subtree[pos];
	for (uint32_t p = pos; p < end && ok;) {
		while (w.sp && p >= w.pos[w.sp - 1] + v->subtree[w.pos[w.sp - 1]])
			walk_pop(v, mi, im, &w, out, &has);
		if (p != pos && kept(c, im, p)) {
			uint32_t s = c->slot[p];
			merge(v, mi, w.rows + (w.sp - 1) * L, &w.has[w.sp - 1],
			      im->rows + (size_t)s * L, im->state[s] == 1, L);
			p += v->subtree[p];
			continue;
		}
		if (!(ok = walk_push(&w, L)))
			break;
		w.pos[w.sp] = p;
		w.has[w.sp] = cube_cells(v, mi, p, KIND_EXCL, w.rows + w.sp * L);
		w.sp++;
		p++;
	}
	while (ok && w.sp)
		walk_pop(v, mi, im, &w, out, &has);
	free(w.rows);
	free(w.pos);
	free(w.has);
	return ok && has;
}

/* Subtree totals of every node, in one reverse pass. */
static bool totals(struct cube_values *v, uint32_t mi, struct incl_metric *im)
{
	const struct cube_metric *m = &v->metrics[mi];
	im->total = calloc((size_t)v->n + 1, sizeof(double));
	im->has_total = calloc((size_t)v->n + 1, 1);
	if (!im->total || !im->has_total) {
		free(im->total);
		free(im->has_total);
		im->total = NULL;
		im->has_total = NULL;
		return false;
	}
	for (uint32_t p = v->n; p-- > 0;) {
		double own;
		if (cube_total(v, mi, p, KIND_EXCL, &own)) {
			im->total[p] = im->has_total[p]
					       ? cube_combine(m, im->total[p], own)
					       : own;
			im->has_total[p] = 1;
		}
		uint32_t q = v->parent[p];
		if (q == UINT32_MAX || !im->has_total[p])
			continue;
		im->total[q] = im->has_total[q]
				       ? cube_combine(m, im->total[q], im->total[p])
				       : im->total[p];
		im->has_total[q] = 1;
	}
	return true;
}

bool cube_incl_total(struct cube_values *v, uint32_t mi, uint32_t pos,
		     double *out)
{
	struct cube_incl *c = incl_state(v);
	*out = 0;
	if (!c || mi >= v->n_metrics || (pos != CUBE_POS_ALL && pos >= v->n))
		return false;
	struct incl_metric *im = &c->m[mi];
	if (!im->total && !totals(v, mi, im))
		return false;
	if (pos != CUBE_POS_ALL) {
		*out = im->total[pos];
		return im->has_total[pos];
	}
	bool has = false;
	for (uint32_t p = 0; p < v->n; p += v->subtree[p])
		if (im->has_total[p]) {
			*out = has ? cube_combine(&v->metrics[mi], *out, im->total[p])
				   : im->total[p];
			has = true;
		}
	return has;
}

void cube_incl_free(struct cube_values *v)
{
	struct cube_incl *c = v->incl;
	if (!c)
		return;
	for (uint32_t i = 0; i < v->n_metrics; i++) {
		free(c->m[i].rows);
		free(c->m[i].state);
		free(c->m[i].total);
		free(c->m[i].has_total);
	}
	free(c->m);
	free(c->slot);
	free(c);
	v->incl = NULL;
}
