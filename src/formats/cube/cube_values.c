/* cube_values: the lazy value provider of a Cube profile: a metric's
 * index is read the first time one of its values is asked, each row (one
 * call node, every location) when needed; summaries, per-location values
 * and the INCLUSIVE tree order of exclusive-stored metrics (see cube.c for
 * what the values mean); cube_cells / cube_total, any metric's values per
 * location and in total, which route derived metrics to cube_derived*.c
 * and the inclusive values of exclusive ones to cube_inclusive.c.  Must not depend on curses or on another format. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cube/cube_internal.h"
#include "core/array.h"

typedef unsigned long long ull;

/* UINT64 values above this are small negative counts written as uint64
 * (pycubexr values.py zeroes them "to match CubeLib"): read as int64. */
#define UINT64_NEGATIVE_FROM 0xFFFFFFFFFFFFFBFFull

/* ---- helpers ---------------------------------------------------------- */

static uint32_t pos_of_ctx(const struct cube_values *v, uint32_t ctx_id)
{
	if (ctx_id == 0)
		return UINT32_MAX;
	uint32_t id = ctx_id - 1;
	if (v->pos_of_id)
		return id < v->id_len ? v->pos_of_id[id] : UINT32_MAX;
	return array_pairs_find(v->sorted_ids, v->n, id, UINT32_MAX);
}

static uint64_t rdn(const uint8_t *p, unsigned n, bool swap)
{
	uint64_t x = 0;
	for (unsigned i = 0; i < n; i++)
		x = x << 8 | p[swap ? i : n - 1 - i];
	return x;
}

/* Value of location j in a raw row (the file's byte order). */
static double cell(struct cube_values *v, const struct cube_metric *m,
		   const struct cube_data *d, const uint8_t *row, uint32_t j)
{
	const uint8_t *p = row + (size_t)j * m->elem_size + m->comp_off;
	bool s = d->swap;
	switch ((enum cube_dtype)m->dtype) {
	case CUBE_DT_INT8:
		return (double)(int8_t)p[0];
	case CUBE_DT_UINT8:
		return (double)p[0];
	case CUBE_DT_INT16:
		return (double)(int16_t)rdn(p, 2, s);
	case CUBE_DT_UINT16:
		return (double)rdn(p, 2, s);
	case CUBE_DT_INT32:
		return (double)(int32_t)rdn(p, 4, s);
	case CUBE_DT_UINT32:
		return (double)rdn(p, 4, s);
	case CUBE_DT_INT64:
		return (double)(int64_t)rdn(p, 8, s);
	case CUBE_DT_UINT64: {
		uint64_t x = rdn(p, 8, s);
		if (x > UINT64_NEGATIVE_FROM) {
			v->negatives++;
			return (double)(int64_t)x;
		}
		return (double)x;
	}
	case CUBE_DT_HISTOGRAM: { /* the count component: bins' sum */
		double sum = 0;
		for (uint32_t b = 0; 16 + 8 * (b + 1) <= m->elem_size; b++) {
			uint64_t x = rdn(p + 8 * b, 8, s);
			double dv;
			memcpy(&dv, &x, sizeof(dv));
			sum += dv;
		}
		return sum;
	}
	default: { /* DOUBLE, MIN/MAXDOUBLE, COMPLEX (re), NDOUBLES (first) */
		uint64_t x = rdn(p, 8, s);
		double dv;
		memcpy(&dv, &x, sizeof(dv));
		return dv;
	}
	}
}

static void note_error(struct cube_values *v, struct error *e)
{
	if (v->first_error.status == STATUS_OK) {
		v->first_error = *e;
		memset(e, 0, sizeof(*e));
	} else {
		error_clear(e);
	}
}

void cube_note_error(struct cube_values *v, struct error *e)
{
	note_error(v, e);
}

static uint32_t tree_index(struct cube_values *v, const struct cube_metric *m,
			   uint32_t pos);

static bool load(struct cube_values *v, struct mvals *mv)
{
	if (mv->loaded)
		return !mv->failed;
	mv->loaded = true;
	mv->failed = true;
	if (!mv->has_data)
		return false;
	const struct cube_metric *m = &v->metrics[mv->metric];
	char iname[32], dname[32];
	snprintf(iname, sizeof(iname), "%u.index", (unsigned)m->id);
	snprintf(dname, sizeof(dname), "%u.data", (unsigned)m->id);
	const struct cube_member *im = cube_container_find(&v->c, iname);
	const struct cube_member *dm = cube_container_find(&v->c, dname);
	struct error e = {0};
	if (!im || !dm)
		return false;
	if (cube_data_open(&v->c, im, dm, v->n, v->n_loc, m->elem_size,
			   &mv->d, &mv->row_of_tree, &e) != STATUS_OK) {
		note_error(v, &e);
		return false;
	}
	mv->row_total = malloc(((size_t)mv->d.n_rows + 1) * sizeof(double));
	mv->row_state = calloc((size_t)mv->d.n_rows + 1, 1);
	if (!mv->row_total || !mv->row_state)
		return false;
	/* the INCLUSIVE order is needed before the first row is asked */
	if (m->mtype == CUBE_MT_INCLUSIVE && tree_index(v, m, 0) == UINT32_MAX &&
	    v->n)
		return false;
	mv->failed = false;
	return true;
}

/* Read row `row` of metric `mv` into v->rowbuf; false when absent. */
static bool read_row(struct cube_values *v, struct mvals *mv, uint32_t row)
{
	struct error e = {0};
	bool present = false;
	if (cube_data_row(&mv->d, row, v->rowbuf, &present, &e) !=
	    STATUS_OK) {
		note_error(v, &e);
		return false;
	}
	return present;
}

/* The data row of the call node at position `pos`, or UINT32_MAX when it
 * has none. */
static uint32_t row_at(struct cube_values *v, const struct mvals *mv,
		       uint32_t pos)
{
	uint32_t t = tree_index(v, &v->metrics[mv->metric], pos);
	if (t == UINT32_MAX || t >= v->n)
		return UINT32_MAX;
	return mv->row_of_tree[t];
}

/* The total over locations of the row at position `pos`. */
static bool row_total(struct cube_values *v, struct mvals *mv, uint32_t pos,
		      double *out)
{
	const struct cube_metric *m = &v->metrics[mv->metric];
	uint32_t row = row_at(v, mv, pos);
	if (row == UINT32_MAX)
		return false;
	if (mv->row_state[row] == 0) {
		bool ok = read_row(v, mv, row);
		double acc = 0;
		bool any = false;
		if (ok) {
			bool nonzero = false;
			for (uint32_t j = 0; j < v->n_loc; j++) {
				double x = cell(v, m, &mv->d, v->rowbuf, j);
				acc = j ? cube_combine(m, acc, x) : x;
				nonzero |= x != 0;
			}
			/* an all-zero MIN/MAX row is no data (pycubexr) */
			any = nonzero || !is_minmax(m);
		}
		mv->row_total[row] = acc;
		mv->row_state[row] = ok && any ? 1 : 2;
	}
	*out = mv->row_total[row];
	return mv->row_state[row] == 1;
}

/* Per-location values of the row at `pos` into `out` (n_loc doubles);
 * false when the row is absent. */
static bool row_cells(struct cube_values *v, struct mvals *mv, uint32_t pos,
		      double *out)
{
	const struct cube_metric *m = &v->metrics[mv->metric];
	uint32_t row = row_at(v, mv, pos);
	if (row == UINT32_MAX || !read_row(v, mv, row))
		return false;
	bool any = false;
	for (uint32_t j = 0; j < v->n_loc; j++) {
		out[j] = cell(v, m, &mv->d, v->rowbuf, j);
		any |= out[j] != 0;
	}
	return any || !is_minmax(m);
}

const uint8_t *cube_raw_row(struct cube_values *v, uint32_t mi, uint32_t pos,
			    bool *swap)
{
	if (mi >= v->n_metrics || pos >= v->n || !load(v, &v->mv[mi]))
		return NULL;
	struct mvals *mv = &v->mv[mi];
	uint32_t row = row_at(v, mv, pos);
	if (row == UINT32_MAX || !read_row(v, mv, row))
		return NULL;
	*swap = mv->d.swap;
	return v->rowbuf;
}

/* CubeWideSearchEnumerator: each root, then recursively: a node's
 * children as one block, then each child's subtree the same way. */
static bool build_wide(struct cube_values *v)
{
	uint32_t *rank = malloc(((size_t)v->n + 1) * sizeof(*rank));
	uint32_t *stack = malloc(((size_t)v->n + 1) * sizeof(*stack));
	if (!rank || !stack) {
		free(rank);
		free(stack);
		return false;
	}
	uint32_t next = 0;
	/* roots in order; a stack of "nodes whose children are to be
	 * emitted", processed depth-first in child order */
	for (uint32_t r = 0; r < v->n; r++) {
		if (v->parent[r] != UINT32_MAX)
			continue;
		rank[r] = next++;
		size_t sp = 0;
		stack[sp++] = r;
		while (sp) {
			uint32_t x = stack[--sp];
			uint32_t k = 0;
			for (uint32_t c = v->first_child[x]; c != UINT32_MAX;
			     c = v->next_sibling[c], k++)
				rank[c] = next++;
			/* push children in reverse so the first is first */
			size_t base = sp;
			for (uint32_t c = v->first_child[x]; c != UINT32_MAX;
			     c = v->next_sibling[c])
				stack[sp++] = c;
			for (size_t i = 0; i < (sp - base) / 2; i++) {
				uint32_t tmp = stack[base + i];
				stack[base + i] = stack[sp - 1 - i];
				stack[sp - 1 - i] = tmp;
			}
			(void)k;
		}
	}
	free(stack);
	v->wide_rank = rank;
	return true;
}

static uint32_t tree_index(struct cube_values *v, const struct cube_metric *m,
			   uint32_t pos)
{
	switch ((enum cube_mtype)m->mtype) {
	case CUBE_MT_INCLUSIVE:
		if (!v->wide_rank && !build_wide(v))
			return UINT32_MAX;
		return v->wide_rank[pos];
	case CUBE_MT_SIMPLE:
		return v->id[pos]; /* CubeMetric.cpp: tree index = cnode id */
	case CUBE_MT_EXCLUSIVE:
	case CUBE_MT_DERIVED:
		break;
	}
	return pos;
}

/* ---- value_ops ---------------------------------------------------------- */

static bool value_locked(struct cube_values *v, uint32_t pos, uint32_t stat,
			 double *out)
{
	uint32_t mi = stat / 2, kind = stat % 2;
	if (mi >= v->n_metrics || pos >= v->n)
		return false;
	struct mvals *mv = &v->mv[mi];
	const struct cube_metric *m = &v->metrics[mi];
	if (m->mtype == CUBE_MT_DERIVED)
		return cube_derived_total(v, mi, pos, kind, out);
	if (cube_is_scalefn(m))
		return cube_sf_total(v, mi, pos, kind, out);
	if (!load(v, mv))
		return false;
	if (m->mtype == CUBE_MT_INCLUSIVE) {
		double own;
		bool has = row_total(v, mv, pos, &own);
		if (kind == KIND_INCL || is_minmax(m)) {
			*out = own;
			return has;
		}
		double sum = has ? own : 0;
		bool any = has;
		for (uint32_t c = v->first_child[pos]; c != UINT32_MAX;
		     c = v->next_sibling[c]) {
			double x;
			if (row_total(v, mv, c, &x)) {
				sum -= x;
				any = true;
			}
		}
		*out = sum;
		return any;
	}
	/* exclusive-stored: the engine derives the inclusive values
	 * (STAT_EXCLUSIVE_ONLY); SIMPLE: both are the stored value */
	return row_total(v, mv, pos, out);
}

uint32_t cube_pos_of_id(const struct cube_values *v, uint32_t id)
{
	return id == UINT32_MAX ? UINT32_MAX : pos_of_ctx(v, id + 1);
}

bool cube_total(struct cube_values *v, uint32_t mi, uint32_t pos,
		uint32_t kind, double *out)
{
	*out = 0;
	if (mi >= v->n_metrics)
		return false;
	const struct cube_metric *m = &v->metrics[mi];
	if (m->mtype == CUBE_MT_DERIVED)
		return cube_derived_total(v, mi, pos, kind, out);
	if (cube_is_scalefn(m))
		return cube_sf_total(v, mi, pos, kind, out);
	if (cube_excl_only(m) && kind == KIND_INCL)
		return cube_incl_total(v, mi, pos, out);
	if (pos != CUBE_POS_ALL)
		return value_locked(v, pos, mi * 2 + kind, out);
	if (kind != KIND_INCL)
		return false;
	bool ok = false; /* the synthetic root: its roots together */
	for (uint32_t p = 0; p < v->n; p += v->subtree[p]) {
		double x;
		if (value_locked(v, p, mi * 2 + kind, &x)) {
			*out = ok ? cube_combine(m, *out, x) : x;
			ok = true;
		}
	}
	return ok;
}

bool cube_stored_cells(struct cube_values *v, uint32_t mi, uint32_t pos,
		       uint32_t kind, double *out)
{
	uint32_t L = v->n_loc;
	memset(out, 0, L * sizeof(*out));
	if (mi >= v->n_metrics || pos >= v->n || !load(v, &v->mv[mi]))
		return false;
	struct mvals *mv = &v->mv[mi];
	const struct cube_metric *m = &v->metrics[mi];
	bool any = row_cells(v, mv, pos, out);
	if (!any)
		memset(out, 0, L * sizeof(*out));
	if (m->mtype == CUBE_MT_INCLUSIVE && kind == KIND_EXCL && !is_minmax(m))
		for (uint32_t c = v->first_child[pos]; c != UINT32_MAX;
		     c = v->next_sibling[c])
			if (row_cells(v, mv, c, v->tmp)) {
				any = true;
				for (uint32_t j = 0; j < L; j++)
					out[j] -= v->tmp[j];
			}
	return any;
}

bool cube_cells(struct cube_values *v, uint32_t mi, uint32_t pos,
		uint32_t kind, double *out)
{
	if (mi >= v->n_metrics || (pos != CUBE_POS_ALL && pos >= v->n)) {
		memset(out, 0, v->n_loc * sizeof(*out));
		return false;
	}
	const struct cube_metric *m = &v->metrics[mi];
	if (m->mtype == CUBE_MT_DERIVED)
		return cube_derived_cells(v, mi, pos, kind, out);
	if (cube_is_scalefn(m))
		return cube_sf_cells(v, mi, pos, kind, out);
	if (pos == CUBE_POS_ALL) {
		memset(out, 0, v->n_loc * sizeof(*out));
		return false; /* not asked of stored metrics */
	}
	if (cube_excl_only(m) && kind == KIND_INCL)
		return cube_incl_cells(v, mi, pos, out);
	return cube_stored_cells(v, mi, pos, kind, out);
}

static bool values_summary(void *impl, uint32_t ctx_id, uint32_t stat_id,
			   double *out)
{
	struct cube_values *v = impl;
	pthread_mutex_lock(&v->lock);
	bool ok = false;
	if (stat_id / 2 < v->n_metrics &&
	    cube_is_scalefn(&v->metrics[stat_id / 2]))
		ok = cube_sf_total(v, stat_id / 2, pos_of_ctx(v, ctx_id),
				   stat_id % 2, out);
	else if (ctx_id == 0 && stat_id % 2 == KIND_INCL &&
	    stat_id / 2 < v->n_metrics &&
	    !cube_excl_only(&v->metrics[stat_id / 2]))
		ok = cube_total(v, stat_id / 2, CUBE_POS_ALL, KIND_INCL, out);
	else
		ok = value_locked(v, pos_of_ctx(v, ctx_id), stat_id, out);
	pthread_mutex_unlock(&v->lock);
	return ok;
}

static enum status values_summary_all(void *impl, uint32_t stat_id,
				      void (*emit)(void *ctx, uint32_t ctx_id,
						   double value),
				      void *ctx, struct error *err)
{
	struct cube_values *v = impl;
	(void)err;
	double x;
	/* a scaling function's inclusive codes: one pass, children first */
	if (stat_id / 2 < v->n_metrics &&
	    cube_is_scalefn(&v->metrics[stat_id / 2])) {
		pthread_mutex_lock(&v->lock);
		cube_sf_fill(v, stat_id / 2, stat_id % 2);
		pthread_mutex_unlock(&v->lock);
	}
	/* the synthetic root, as values_summary gives it (diff's dense
	 * columns read it here: its time row was blank) */
	if (values_summary(impl, 0, stat_id, &x))
		emit(ctx, 0, x);
	for (uint32_t p = 0; p < v->n; p++) {
		pthread_mutex_lock(&v->lock);
		bool ok = value_locked(v, p, stat_id, &x);
		pthread_mutex_unlock(&v->lock);
		if (ok)
			emit(ctx, v->id[p] + 1, x);
	}
	return STATUS_OK;
}

/* The synthetic root's inclusive values of stored metric MI per location
 * into ACC: its roots' combined, as its summary (cube_total). */
static bool root_cells(struct cube_values *v, uint32_t mi, double *acc)
{
	uint32_t L = v->n_loc;
	double *one = malloc(((size_t)L + 1) * sizeof(*one));
	memset(acc, 0, L * sizeof(*acc));
	if (!one)
		return false;
	bool any = false;
	for (uint32_t p = 0; p < v->n; p += v->subtree[p]) {
		if (!cube_cells(v, mi, p, KIND_INCL, one))
			continue;
		for (uint32_t j = 0; j < L; j++)
			acc[j] = any ? cube_combine(&v->metrics[mi], acc[j],
						    one[j])
				     : one[j];
		any = true;
	}
	free(one);
	return any;
}

/* Per-location values of one call node (thread pane); at the synthetic
 * root (pos CUBE_POS_ALL) the inclusive ones of its roots together. */
static enum status per_location(struct cube_values *v, uint32_t pos,
				uint32_t stat, struct profile_value **out,
				size_t *n, struct error *err)
{
	uint32_t mi = stat / 2, kind = stat % 2;
	/* a scaling function's root is the sum of every row's functions */
	bool sf = mi < v->n_metrics && cube_is_scalefn(&v->metrics[mi]);
	bool root = pos == CUBE_POS_ALL && kind == KIND_INCL &&
		    mi < v->n_metrics &&
		    v->metrics[mi].mtype != CUBE_MT_DERIVED && !sf;
	if (mi >= v->n_metrics || (pos >= v->n && !root && !sf))
		return STATUS_OK;
	uint32_t L = v->n_loc;
	double *acc = v->acc;
	bool any = root ? root_cells(v, mi, acc)
			: cube_cells(v, mi, pos, kind, acc);
	if (v->first_error.status != STATUS_OK) {
		enum status st = v->first_error.status;
		*err = v->first_error;
		memset(&v->first_error, 0, sizeof(v->first_error));
		return st;
	}
	if (!any)
		return STATUS_OK;
	size_t k = 0;
	for (uint32_t j = 0; j < L; j++)
		k += acc[j] != 0;
	if (!k)
		return STATUS_OK;
	struct profile_value *pv = malloc(k * sizeof(*pv));
	if (!pv)
		return error_set(err, STATUS_NOMEM, v->name, "out of memory");
	k = 0;
	for (uint32_t j = 0; j < L; j++)
		if (acc[j] != 0)
			pv[k++] = (struct profile_value){j, acc[j]};
	*out = pv;
	*n = k;
	return STATUS_OK;
}

static enum status values_per_profile(void *impl, uint32_t ctx_id,
				      uint32_t prop_id,
				      struct profile_value **out, size_t *n,
				      struct error *err)
{
	struct cube_values *v = impl;
	*out = NULL;
	*n = 0;
	pthread_mutex_lock(&v->lock);
	enum status st = per_location(v, pos_of_ctx(v, ctx_id), prop_id, out,
				      n, err);
	pthread_mutex_unlock(&v->lock);
	return st;
}

void cube_values_close(void *impl)
{
	struct cube_values *v = impl;
	if (!v)
		return;
	cube_derived_free(v);
	cube_incl_free(v);
	cube_sf_values_free(v);
	for (uint32_t i = 0; i < v->n_metrics; i++) {
		struct mvals *mv = &v->mv[i];
		cube_data_close(&mv->d);
		free(mv->row_of_tree);
		free(mv->row_total);
		free(mv->row_state);
	}
	free(v->mv);
	free(v->metrics);
	free(v->parent);
	free(v->first_child);
	free(v->next_sibling);
	free(v->subtree);
	free(v->id);
	free(v->pos_of_id);
	free(v->sorted_ids);
	free(v->wide_rank);
	free(v->rowbuf);
	free(v->acc);
	free(v->tmp);
	error_clear(&v->first_error);
	cube_container_close(&v->c);
	pthread_mutex_destroy(&v->lock);
	free(v->name);
	free(v);
}

/* A row or index that failed to read (corrupt zlib block, ...) gives an
 * absent value; the first such failure is kept for the caller. */
static bool values_take_error(void *impl, struct error *err)
{
	struct cube_values *v = impl;
	pthread_mutex_lock(&v->lock);
	bool had = error_take(&v->first_error, err);
	pthread_mutex_unlock(&v->lock);
	return had;
}

/* A prederived metric with its own aggregation: the profiles' values
 * folded by its aggr from 0, as its totals are (cube_derived_values.c);
 * the system tree's groups so take CubeLib's values. */
static bool values_combine_profiles(void *impl, uint32_t stat_id,
				    const double *vals, size_t n, double *out)
{
	struct cube_values *v = impl;
	uint32_t mi = stat_id / 2;
	if (mi < v->n_metrics && cube_is_scalefn(&v->metrics[mi])) {
		/* ranking codes: the code of a group of locations is that of
		 * the sum of their functions, which codes cannot give */
		*out = n == 1 ? vals[0] : (double)NAN;
		return true;
	}
	if (mi >= v->n_metrics || !v->metrics[mi].own_aggr)
		return false;
	pthread_mutex_lock(&v->lock);
	double acc = 0;
	for (size_t j = 0; j < n; j++)
		if (!cube_derived_op(v, mi, CUBE_AGG_AGGR, acc, vals[j], &acc))
			break;
	pthread_mutex_unlock(&v->lock);
	*out = acc;
	return true;
}

/* A row of several call paths (flat, bottom-up; doc/cube.md, "A metric's
 * own aggregation"): a prederived metric with its own aggregation folds
 * their totals by its aggr from 0 (CubeLib's
 * BuildInTypeMetric::get_sev_native of a list of call paths, no system
 * resource); a POSTDERIVED one runs its expression over them
 * (cube_derived_rows).  Other metrics: false (they add up). */
static bool values_combine_contexts(void *impl, uint32_t stat_id,
				    const uint32_t *ctx_ids, const double *vals,
				    size_t n, double *out, bool *present)
{
	struct cube_values *v = impl;
	uint32_t mi = stat_id / 2, kind = stat_id % 2;
	if (mi >= v->n_metrics)
		return false;
	const struct cube_metric *m = &v->metrics[mi];
	bool post = m->mtype == CUBE_MT_DERIVED && m->derived == CUBE_DV_POST;
	if (!m->own_aggr && !post)
		return false;
	*present = false;
	if (!n)
		return true;
	uint32_t *pos = malloc(n * sizeof(*pos));
	if (!pos)
		return true;
	pthread_mutex_lock(&v->lock);
	uint32_t k = 0;
	for (size_t i = 0; i < n; i++)
		if ((pos[k] = pos_of_ctx(v, ctx_ids[i])) < v->n)
			k++;
	double acc = 0;
	bool ok = k > 0;
	if (post)
		ok = ok && cube_derived_rows(v, mi, kind, pos, k, &acc);
	for (size_t i = 0; !post && ok && i < n; i++)
		ok = cube_derived_op(v, mi, CUBE_AGG_AGGR, acc, vals[i], &acc);
	pthread_mutex_unlock(&v->lock);
	free(pos);
	*out = acc;
	*present = ok;
	return true;
}

/* A SCALE_FUNC metric's function as text (value_ops value_text). */
static enum status values_value_text(void *impl, uint32_t ctx_id,
				     uint32_t stat_id, uint32_t profile,
				     char **out, struct error *err)
{
	struct cube_values *v = impl;
	uint32_t mi = stat_id / 2;
	*out = NULL;
	if (mi >= v->n_metrics || !cube_is_scalefn(&v->metrics[mi]))
		return STATUS_OK;
	pthread_mutex_lock(&v->lock);
	enum status st = cube_sf_text_at(v, mi, pos_of_ctx(v, ctx_id),
					 stat_id % 2, profile, out);
	if (st == STATUS_NOMEM)
		error_set(err, st, v->name, "out of memory");
	else if (v->first_error.status != STATUS_OK) {
		free(*out);
		*out = NULL;
		st = v->first_error.status;
		error_take(&v->first_error, err);
	}
	pthread_mutex_unlock(&v->lock);
	return st;
}

const struct value_ops cube_value_ops = {
	.summary = values_summary,
	.per_profile = values_per_profile,
	.close = cube_values_close,
	.summary_all = values_summary_all,
	.take_error = values_take_error,
	.combine_profiles = values_combine_profiles,
	.combine_contexts = values_combine_contexts, /* cubeaggr */
	.value_text = values_value_text,
};
