/* cube: the reader of Score-P / Scalasca Cube4 profiles: a .cubex file
 * (a tar, read in place) or a directory holding anchor.xml and the
 * N.index / N.data files.  Bidding, the model (call tree, regions as
 * functions, locations as profiles, two columns per metric), and the lazy
 * value provider: a metric's index is read the first time one of its
 * values is asked, each row (one call node, every location) when needed.
 *
 * Values (doc/cube.md): metric-inclusive as stored (a parent metric holds
 * its children, as the Cube GUI shows a collapsed metric).  Call tree: a
 * metric stored INCLUSIVE gives the inclusive value per row and the
 * exclusive one as the row minus its children's rows; one stored
 * EXCLUSIVE gives the exclusive value per row, flagged STAT_EXCLUSIVE_ONLY:
 * the engine derives the inclusive one (one pass over the tree when first
 * needed); the reader gives its per-location values (the subtree's rows).  Sums over locations, min/max for MIN/MAXDOUBLE,
 * where an all-zero row counts as no data (pycubexr).  Depends on core/,
 * model/, io/ and formats/reader.h. */
#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/cube/cube_anchor.h"
#include "formats/cube/cube_components.h"
#include "formats/cube/cube_data.h"
#include "formats/cube/cube_tar.h"
#include "formats/reader.h"

typedef unsigned long long ull;

/* An exclusive-stored metric whose data is larger than this is not shown
 * by default: its inclusive column needs every row (doc/cube.md). */
#define CUBE_VISIBLE_PASS_BYTES (64ull << 20)

/* UINT64 values above this are small negative counts written as uint64
 * (pycubexr values.py zeroes them "to match CubeLib"): read as int64. */
#define UINT64_NEGATIVE_FROM 0xFFFFFFFFFFFFFBFFull

enum { KIND_INCL = 0, KIND_EXCL = 1 };

struct mvals {
	uint32_t metric; /* index into anchor metrics */
	bool has_data;   /* N.index and N.data exist */
	bool loaded, failed;
	struct cube_data d;
	uint32_t *row_of_tree;
	double *row_total;  /* per row: over locations */
	uint8_t *row_state; /* 0 unread, 1 present, 2 absent */
};

struct cube_values {
	pthread_mutex_t lock;
	char *name;
	struct cube_container c;
	uint32_t n; /* call nodes, in document (pre-)order: positions */
	uint32_t *parent, *first_child, *next_sibling, *subtree, *id;
	uint32_t *pos_of_id; /* dense: id -> position, or NULL */
	uint32_t id_len;
	uint64_t *sorted_ids; /* id << 32 | position, when not dense */
	uint32_t *wide_rank;  /* position -> INCLUSIVE tree index (lazy) */
	struct cube_metric *metrics;
	uint32_t n_metrics;
	struct mvals *mv;
	uint32_t n_loc;
	uint8_t *rowbuf;
	double *acc, *tmp;
	uint64_t negatives; /* UINT64 cells read as negative */
	struct error first_error;
};

/* ---- helpers ---------------------------------------------------------- */

static uint32_t pos_of_ctx(const struct cube_values *v, uint32_t ctx_id)
{
	if (ctx_id == 0)
		return UINT32_MAX;
	uint32_t id = ctx_id - 1;
	if (v->pos_of_id)
		return id < v->id_len ? v->pos_of_id[id] : UINT32_MAX;
	size_t lo = 0, hi = v->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t k = (uint32_t)(v->sorted_ids[mid] >> 32);
		if (k == id)
			return (uint32_t)v->sorted_ids[mid];
		if (k < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return UINT32_MAX;
}

static bool is_minmax(const struct cube_metric *m)
{
	return m->dtype == CUBE_DT_MINDOUBLE || m->dtype == CUBE_DT_MAXDOUBLE;
}

static bool is_scalar(const struct cube_metric *m)
{
	return m->dtype <= CUBE_DT_NDOUBLES && m->elem_size > 0;
}

static double combine(const struct cube_metric *m, double a, double b)
{
	if (m->dtype == CUBE_DT_MINDOUBLE)
		return b < a ? b : a;
	if (m->dtype == CUBE_DT_MAXDOUBLE)
		return b > a ? b : a;
	return a + b;
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

/* The total over locations of the row at position `pos`. */
static bool row_total(struct cube_values *v, struct mvals *mv, uint32_t pos,
		      double *out)
{
	const struct cube_metric *m = &v->metrics[mv->metric];
	uint32_t t = tree_index(v, m, pos);
	if (t == UINT32_MAX || t >= v->n)
		return false;
	uint32_t row = mv->row_of_tree[t];
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
				acc = j ? combine(m, acc, x) : x;
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
	uint32_t t = tree_index(v, m, pos);
	if (t == UINT32_MAX || t >= v->n)
		return false;
	uint32_t row = mv->row_of_tree[t];
	if (row == UINT32_MAX || !read_row(v, mv, row))
		return false;
	bool any = false;
	for (uint32_t j = 0; j < v->n_loc; j++) {
		out[j] = cell(v, m, &mv->d, v->rowbuf, j);
		any |= out[j] != 0;
	}
	return any || !is_minmax(m);
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
	if (!load(v, mv))
		return false;
	const struct cube_metric *m = &v->metrics[mv->metric];
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

static bool values_summary(void *impl, uint32_t ctx_id, uint32_t stat_id,
			   double *out)
{
	struct cube_values *v = impl;
	pthread_mutex_lock(&v->lock);
	bool ok = false;
	if (ctx_id == 0 && stat_id % 2 == KIND_INCL &&
	    stat_id / 2 < v->n_metrics &&
	    v->metrics[stat_id / 2].mtype != CUBE_MT_EXCLUSIVE) {
		/* the synthetic root: its roots together */
		const struct cube_metric *m = &v->metrics[stat_id / 2];
		for (uint32_t p = 0; p < v->n; p += v->subtree[p]) {
			double x;
			if (value_locked(v, p, stat_id, &x)) {
				*out = ok ? combine(m, *out, x) : x;
				ok = true;
			}
		}
	} else {
		ok = value_locked(v, pos_of_ctx(v, ctx_id), stat_id, out);
	}
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
	for (uint32_t p = 0; p < v->n; p++) {
		double x;
		pthread_mutex_lock(&v->lock);
		bool ok = value_locked(v, p, stat_id, &x);
		pthread_mutex_unlock(&v->lock);
		if (ok)
			emit(ctx, v->id[p] + 1, x);
	}
	return STATUS_OK;
}

/* Per-location values of one call node (thread pane). */
static enum status per_location(struct cube_values *v, uint32_t pos,
				uint32_t stat, struct profile_value **out,
				size_t *n, struct error *err)
{
	uint32_t mi = stat / 2, kind = stat % 2;
	if (mi >= v->n_metrics || pos >= v->n)
		return STATUS_OK;
	struct mvals *mv = &v->mv[mi];
	if (!load(v, mv))
		return STATUS_OK;
	const struct cube_metric *m = &v->metrics[mv->metric];
	uint32_t L = v->n_loc;
	double *acc = v->acc, *tmp = v->tmp;
	bool any = false;
	if (m->mtype == CUBE_MT_INCLUSIVE || m->mtype == CUBE_MT_SIMPLE ||
	    kind == KIND_EXCL) {
		any = row_cells(v, mv, pos, acc);
		if (!any)
			memset(acc, 0, L * sizeof(*acc));
		if (m->mtype == CUBE_MT_INCLUSIVE && kind == KIND_EXCL &&
		    !is_minmax(m))
			for (uint32_t c = v->first_child[pos]; c != UINT32_MAX;
			     c = v->next_sibling[c])
				if (row_cells(v, mv, c, tmp)) {
					any = true;
					for (uint32_t j = 0; j < L; j++)
						acc[j] -= tmp[j];
				}
	} else {
		/* exclusive-stored, inclusive asked: the subtree's rows,
		 * positions pos .. pos + subtree - 1 */
		uint8_t *seen = calloc(L ? L : 1, 1);
		if (!seen)
			return error_set(err, STATUS_NOMEM, v->name,
					 "out of memory");
		memset(acc, 0, L * sizeof(*acc));
		for (uint32_t p = pos; p < pos + v->subtree[pos]; p++) {
			if (!row_cells(v, mv, p, tmp))
				continue;
			any = true;
			for (uint32_t j = 0; j < L; j++) {
				acc[j] = seen[j] ? combine(m, acc[j], tmp[j])
						 : tmp[j];
				seen[j] = 1;
			}
		}
		free(seen);
	}
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

static void cube_values_close(void *impl)
{
	struct cube_values *v = impl;
	if (!v)
		return;
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
	bool had = v->first_error.status != STATUS_OK;
	if (had && err) {
		error_clear(err);
		*err = v->first_error;
	} else if (had) {
		error_clear(&v->first_error);
	}
	memset(&v->first_error, 0, sizeof(v->first_error));
	pthread_mutex_unlock(&v->lock);
	return had;
}

static const struct value_ops cube_value_ops = {
	.summary = values_summary,
	.per_profile = values_per_profile,
	.close = cube_values_close,
	.summary_all = values_summary_all,
	.take_error = values_take_error,
};

/* ---- open --------------------------------------------------------------- */

struct opener {
	const char *path;
	struct model_builder *b;
	struct cube_anchor a;
	struct cube_values *v;
	uint32_t *region_of_id; /* dense region id -> index, or NULL */
	uint32_t region_len;
	struct error *err;
};

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

static uint32_t region_index(const struct opener *o, uint32_t id)
{
	if (o->region_of_id)
		return id < o->region_len ? o->region_of_id[id] : MODEL_NONE;
	for (uint32_t i = 0; i < o->a.n_regions; i++)
		if (o->a.regions[i].id == id)
			return i;
	return MODEL_NONE;
}

/* Tree arrays and the id index of the values provider. */
static enum status cube_build_tree(struct opener *o)
{
	struct cube_values *v = o->v;
	uint32_t n = o->a.n_cnodes;
	v->n = n;
	size_t sz = ((size_t)n + 1) * sizeof(uint32_t);
	v->parent = malloc(sz);
	v->first_child = malloc(sz);
	v->next_sibling = malloc(sz);
	v->subtree = malloc(sz);
	v->id = malloc(sz);
	uint32_t *last = malloc(sz);
	if (!v->parent || !v->first_child || !v->next_sibling ||
	    !v->subtree || !v->id || !last) {
		free(last);
		return error_set(o->err, STATUS_NOMEM, o->path,
				 "out of memory");
	}
	uint32_t max_id = 0;
	for (uint32_t p = 0; p < n; p++) {
		const struct cube_cnode *c = &o->a.cnodes[p];
		v->parent[p] = c->parent == MODEL_NONE ? UINT32_MAX : c->parent;
		v->first_child[p] = v->next_sibling[p] = UINT32_MAX;
		last[p] = UINT32_MAX;
		v->subtree[p] = 1;
		v->id[p] = c->id;
		if (c->id > max_id)
			max_id = c->id;
		uint32_t q = v->parent[p];
		if (q != UINT32_MAX) {
			if (last[q] == UINT32_MAX)
				v->first_child[q] = p;
			else
				v->next_sibling[last[q]] = p;
			last[q] = p;
		}
	}
	free(last);
	for (uint32_t p = n; p-- > 0;)
		if (v->parent[p] != UINT32_MAX)
			v->subtree[v->parent[p]] += v->subtree[p];
	if (n && (uint64_t)max_id < (uint64_t)n * 4 + 1024) {
		v->id_len = max_id + 1;
		v->pos_of_id = malloc((size_t)v->id_len * sizeof(uint32_t));
		if (!v->pos_of_id)
			return error_set(o->err, STATUS_NOMEM, o->path,
					 "out of memory");
		memset(v->pos_of_id, 0xff, (size_t)v->id_len * sizeof(uint32_t));
		for (uint32_t p = 0; p < n; p++) {
			if (v->pos_of_id[v->id[p]] != UINT32_MAX)
				return error_set(o->err, STATUS_CORRUPT, o->path,
						 "anchor.xml: two call nodes with "
						 "id %u", (unsigned)v->id[p]);
			v->pos_of_id[v->id[p]] = p;
		}
	} else if (n) {
		v->sorted_ids = malloc((size_t)n * sizeof(uint64_t));
		if (!v->sorted_ids)
			return error_set(o->err, STATUS_NOMEM, o->path,
					 "out of memory");
		for (uint32_t p = 0; p < n; p++)
			v->sorted_ids[p] = (uint64_t)v->id[p] << 32 | p;
		if (n > 1)
			qsort(v->sorted_ids, n, sizeof(uint64_t), cmp_u64);
		for (uint32_t p = 1; p < n; p++)
			if (v->sorted_ids[p] >> 32 == v->sorted_ids[p - 1] >> 32)
				return error_set(o->err, STATUS_CORRUPT, o->path,
						 "anchor.xml: two call nodes with "
						 "id %u",
						 (unsigned)(v->sorted_ids[p] >> 32));
	}
	return STATUS_OK;
}

static enum status cube_build_regions(struct opener *o)
{
	uint32_t max_id = 0;
	for (uint32_t i = 0; i < o->a.n_regions; i++)
		if (o->a.regions[i].id > max_id)
			max_id = o->a.regions[i].id;
	if (o->a.n_regions &&
	    (uint64_t)max_id < (uint64_t)o->a.n_regions * 4 + 1024) {
		o->region_len = max_id + 1;
		o->region_of_id = malloc((size_t)o->region_len * sizeof(uint32_t));
		if (!o->region_of_id)
			return error_set(o->err, STATUS_NOMEM, o->path,
					 "out of memory");
		memset(o->region_of_id, 0xff,
		       (size_t)o->region_len * sizeof(uint32_t));
		for (uint32_t i = 0; i < o->a.n_regions; i++)
			o->region_of_id[o->a.regions[i].id] = i;
	}
	return STATUS_OK;
}

static enum status cube_build_nodes(struct opener *o)
{
	struct cube_anchor *a = &o->a;
	const struct model *m = model_builder_peek(o->b);
	for (uint32_t p = 0; p < a->n_cnodes; p++) {
		const struct cube_cnode *c = &a->cnodes[p];
		uint32_t ri = region_index(o, c->callee);
		if (ri == MODEL_NONE)
			return error_set(o->err, STATUS_CORRUPT, o->path,
					 "anchor.xml: call node %u calls region "
					 "%u, which is not defined",
					 (unsigned)c->id, (unsigned)c->callee);
		struct cube_region *r = &a->regions[ri];
		if (r->function == MODEL_NONE) {
			struct model_function f = {
				.name = r->name,
				.module = r->mod,
				.file = r->mod,
				.line = r->begin,
			};
			r->function = model_builder_add_function(o->b, &f);
			if (r->function == MODEL_NONE)
				return error_set(o->err, STATUS_NOMEM, o->path,
						 "out of memory");
		}
		uint32_t name = r->name;
		if (c->params) {
			char *s = NULL;
			m = model_builder_peek(o->b);
			if (asprintf(&s, "%s [%s]", model_str(m, r->name),
				     model_str(m, c->params)) < 0)
				return error_set(o->err, STATUS_NOMEM, o->path,
						 "out of memory");
			name = model_builder_intern(o->b, s, strlen(s));
			free(s);
		}
		struct model_node nd = {
			.ctx_id = c->id + 1,
			.name = name,
			.function = r->function,
			.file = c->mod ? c->mod : r->mod,
			.line = c->line ? c->line : r->begin,
			.module = r->mod,
			.kind = NODE_REGION,
			.relation = c->parent == MODEL_NONE ? RELATION_NONE
							    : RELATION_CALL,
		};
		uint32_t parent = c->parent == MODEL_NONE ? 0 : c->parent + 1;
		uint32_t got = model_builder_add_node(o->b, parent, &nd);
		if (got != p + 1)
			return error_set(o->err, STATUS_NOMEM, o->path,
					 "out of memory");
	}
	return STATUS_OK;
}

static enum status cube_build_profiles(struct opener *o)
{
	const struct model *m = model_builder_peek(o->b);
	for (uint32_t j = 0; j < o->a.n_locations; j++) {
		const struct cube_location *l = &o->a.locations[j];
		struct model_id ids[2] = {
			{.kind_name = model_builder_intern(o->b, "RANK", 4),
			 .kind = 1,
			 .logical_id = (uint32_t)l->group_rank,
			 .physical_id = l->group_rank},
			{.kind_name = model_builder_intern(o->b, "THREAD", 6),
			 .kind = 2,
			 .logical_id = (uint32_t)l->rank,
			 .physical_id = l->rank},
		};
		char *label = NULL;
		m = model_builder_peek(o->b);
		const char *g = model_str(m, l->group_name);
		if (asprintf(&label, "%s%s%s", g, *g ? ": " : "",
			     model_str(m, l->name)) < 0)
			return error_set(o->err, STATUS_NOMEM, o->path,
					 "out of memory");
		uint32_t got = model_builder_add_profile(o->b, false, ids, 2,
							 label);
		free(label);
		if (got == MODEL_NONE)
			return error_set(o->err, STATUS_NOMEM, o->path,
					 "out of memory");
	}
	return STATUS_OK;
}

static void cube_warn(struct opener *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void cube_warn(struct opener *o, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	char *line = NULL;
	if (asprintf(&line, "%s: %s", o->path, msg) >= 0)
		model_builder_add_warning(o->b, line);
	free(line);
}

/* Add column *c (its strings and formula taken over, freed when it cannot
 * be added) as *out; STATUS_NOMEM when a string is missing or the builder
 * fails. */
static enum status push_column(struct opener *o, struct model_column *c,
			       uint32_t *out)
{
	*out = MODEL_NONE;
	if (c->name && c->variant && c->format && c->expr &&
	    (*out = model_builder_add_column(o->b, c)) != MODEL_NONE)
		return STATUS_OK;
	free(c->name);
	free(c->variant);
	free(c->description);
	free(c->format);
	formula_free(c->expr);
	return error_set(o->err, STATUS_NOMEM, o->path, "out of memory");
}

/* The column unit of a Cube unit of measurement ("sec", "bytes", "occ"). */
static uint8_t cube_unit(const char *uom, bool integer)
{
	static const struct {
		const char *uom;
		enum column_unit unit;
	} known[] = {
		{"sec", UNIT_SECONDS},	     {"s", UNIT_SECONDS},
		{"msec", UNIT_MILLISECONDS}, {"ms", UNIT_MILLISECONDS},
		{"usec", UNIT_MICROSECONDS}, {"us", UNIT_MICROSECONDS},
		{"nsec", UNIT_NANOSECONDS},  {"ns", UNIT_NANOSECONDS},
		{"bytes", UNIT_BYTES},	     {"byte", UNIT_BYTES},
		{"B", UNIT_BYTES},	     {"occ", UNIT_COUNT},
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(uom, known[i].uom) == 0)
			return (uint8_t)(known[i].unit == UNIT_COUNT && !integer
						 ? UNIT_NUMBER
						 : known[i].unit);
	return integer ? UNIT_COUNT : UNIT_UNKNOWN;
}

static enum status add_column(struct opener *o, uint32_t mi, uint32_t kind,
			      uint32_t stat, bool visible, uint32_t parent,
			      uint32_t *out)
{
	const struct model *m = model_builder_peek(o->b);
	const struct cube_metric *cm = &o->v->metrics[mi];
	bool integer = cm->dtype >= CUBE_DT_INT8 && cm->dtype <= CUBE_DT_UINT64;
	char *descr = NULL;
	const char *uom = model_str(m, cm->uom);
	if (asprintf(&descr, "%s%s%s%s: %s (Cube %s, %s)",
		     model_str(m, cm->disp), *uom ? " [" : "", uom,
		     *uom ? "]" : "", model_str(m, cm->descr),
		     cm->mtype == CUBE_MT_INCLUSIVE ? "stored inclusive"
		     : cm->mtype == CUBE_MT_SIMPLE  ? "simple"
						    : "stored exclusive",
		     model_str(m, cm->dtype_text)) < 0)
		descr = NULL;
	struct model_column c = {
		.name = strdup(model_str(m, cm->uniq)),
		.variant = strdup(""),
		.description = descr,
		.format = strdup(integer ? "%.0f" : "%.4g"),
		.unit = cube_unit(uom, integer),
		.kind = kind == KIND_INCL ? COLUMN_INCLUSIVE : COLUMN_EXCLUSIVE,
		.render = is_minmax(cm) ? RENDER_NUMBER
					: RENDER_NUMBER | RENDER_PERCENT,
		.visible = visible,
		.pair = MODEL_NONE,
		.parent = parent,
		.expr = formula_leaf(stat),
	};
	return push_column(o, &c, out);
}

/* A derived column of a multi-value metric: `expr` over its components'
 * statistics (taken over), named "UNIQ/what". */
static enum status add_formula_column(struct opener *o, uint32_t mi,
				      const char *what, const char *descr,
				      uint32_t kind, struct formula *expr)
{
	const struct model *m = model_builder_peek(o->b);
	const struct cube_metric *cm = &o->v->metrics[mi];
	struct model_column c = {
		.variant = strdup(""),
		.format = strdup("%.4g"),
		.kind = kind == KIND_INCL ? COLUMN_INCLUSIVE : COLUMN_EXCLUSIVE,
		.render = RENDER_NUMBER,
		.visible = true,
		.pair = MODEL_NONE,
		.parent = MODEL_NONE,
		.expr = expr,
	};
	if (asprintf(&c.name, "%s/%s", model_str(m, cm->uniq), what) < 0)
		c.name = NULL;
	if (asprintf(&c.description, "%s: %s (Cube %s)",
		     model_str(m, cm->disp), descr,
		     model_str(m, cm->dtype_text)) < 0)
		c.description = NULL;
	uint32_t col;
	return push_column(o, &c, &col);
}

static struct formula *f2(enum formula_op op, struct formula *a,
			  struct formula *b)
{
	struct formula **args = malloc(2 * sizeof(*args));
	if (!args || !a || !b) {
		free(args);
		formula_free(a);
		formula_free(b);
		return NULL;
	}
	args[0] = a;
	args[1] = b;
	return formula_node(op, args, 2);
}

/* TAU_ATOMIC: mean = sum / n, standard deviation = sqrt(max(0, sum2 / n -
 * mean^2)) (CubeTauAtomicValue's calcAvg, calcDeviation); RATE: rate =
 * main / time.  stat[c] is component c's statistic of this kind. */
static enum status add_component_formulas(struct opener *o,
					  const struct cube_components *cs,
					  uint32_t kind, const uint32_t *stat)
{
	if (cs->dtype == CUBE_DT_RATE)
		return add_formula_column(
			o, cs->metric, "rate", "main value per time", kind,
			f2(FORMULA_DIV, formula_leaf(stat[0]),
			   formula_leaf(stat[1])));
	/* n, min, max, sum, sum2 */
	struct formula *mean = f2(FORMULA_DIV, formula_leaf(stat[3]),
				  formula_leaf(stat[0]));
	enum status st = add_formula_column(o, cs->metric, "mean",
					    "mean (sum / n)", kind, mean);
	if (st != STATUS_OK)
		return st;
	struct formula *var = f2(
		FORMULA_SUB,
		f2(FORMULA_DIV, formula_leaf(stat[4]), formula_leaf(stat[0])),
		f2(FORMULA_POW,
		   f2(FORMULA_DIV, formula_leaf(stat[3]),
		      formula_leaf(stat[0])),
		   formula_number(2)));
	struct formula *dev = NULL;
	struct formula **a1 = malloc(sizeof(*a1));
	if (a1 && var) {
		a1[0] = f2(FORMULA_MAX, var, formula_number(0));
		dev = a1[0] ? formula_node(FORMULA_SQRT, a1, 1) : NULL;
		if (!a1[0])
			free(a1);
	} else {
		free(a1);
		formula_free(var);
	}
	return add_formula_column(o, cs->metric, "stddev",
				  "standard deviation", kind, dev);
}

static enum status cube_build_metrics(struct opener *o)
{
	struct cube_values *v = o->v;
	struct cube_anchor *a = &o->a;
	struct cube_components *sets = NULL;
	uint32_t n_sets = 0;
	v->n_metrics = a->n_metrics;
	v->metrics = a->metrics;
	a->metrics = NULL;
	enum status st = cube_components_expand(&v->metrics, &v->n_metrics,
						o->b, &sets, &n_sets, o->err);
	if (st != STATUS_OK)
		return st;
	v->mv = calloc(v->n_metrics ? v->n_metrics : 1, sizeof(*v->mv));
	uint32_t *col_incl = malloc(((size_t)v->n_metrics + 1) * sizeof(uint32_t));
	uint32_t *col_excl = malloc(((size_t)v->n_metrics + 1) * sizeof(uint32_t));
	uint32_t *stats = malloc(((size_t)v->n_metrics + 1) * 2 *
				 sizeof(uint32_t));
	if (!v->mv || !col_incl || !col_excl || !stats) {
		st = error_set(o->err, STATUS_NOMEM, o->path, "out of memory");
		goto out;
	}
	uint32_t max_elem = 8;
	for (uint32_t i = 0; i < v->n_metrics && st == STATUS_OK; i++) {
		const struct cube_metric *cm = &v->metrics[i];
		const struct model *m = model_builder_peek(o->b);
		const char *uniq = model_str(m, cm->uniq);
		col_incl[i] = col_excl[i] = MODEL_NONE;
		stats[2 * i] = stats[2 * i + 1] = MODEL_NONE;
		v->mv[i].metric = i;
		char iname[32], dname[32];
		snprintf(iname, sizeof(iname), "%u.index", (unsigned)cm->id);
		snprintf(dname, sizeof(dname), "%u.data", (unsigned)cm->id);
		const struct cube_member *im = cube_container_find(&v->c, iname);
		const struct cube_member *dm = cube_container_find(&v->c, dname);
		v->mv[i].has_data = im && dm;
		if (im && dm && is_scalar(cm) && cm->mtype != CUBE_MT_DERIVED) {
			/* headers and sizes now, the entries when needed */
			struct cube_data hd;
			st = cube_data_open(&v->c, im, dm, v->n, v->n_loc,
					    cm->elem_size, &hd, NULL, o->err);
			if (st != STATUS_OK)
				break;
		}
		if (cm->mtype == CUBE_MT_DERIVED) {
			cube_warn(o,
				  "metric %s is derived (CubePL): not computed",
				  uniq);
			continue;
		}
		if (!cm->known_dtype)
			cube_warn(o,
				  "metric %s: unknown data type \"%s\", read "
				  "as DOUBLE (as CubeLib does)",
				  uniq, model_str(m, cm->dtype_text));
		if (cube_has_components(cm))
			continue; /* its components follow */
		if (!is_scalar(cm)) {
			cube_warn(o,
				  "metric %s: data type %s has several values "
				  "per cell and is not shown",
				  uniq, model_str(m, cm->dtype_text));
			continue;
		}
		if (cm->elem_size > max_elem)
			max_elem = cm->elem_size;
		uint8_t comb = cm->dtype == CUBE_DT_MINDOUBLE   ? COMBINE_MIN
			       : cm->dtype == CUBE_DT_MAXDOUBLE ? COMBINE_MAX
								: COMBINE_SUM;
		/* an exclusive-stored metric's inclusive column needs every
		 * row: not shown by default when that is a large read */
		uint64_t pass = (uint64_t)v->n * v->n_loc * cm->elem_size;
		bool visible = v->mv[i].has_data &&
			       (cm->mtype != CUBE_MT_EXCLUSIVE ||
				pass <= CUBE_VISIBLE_PASS_BYTES);
		/* the exclusive statistic first: an exclusive-stored metric's
		 * inclusive one is derived from it by the engine */
		uint32_t stat[2] = {MODEL_NONE, MODEL_NONE};
		for (int k = 1; k >= 0; k--) {
			uint32_t kind = (uint32_t)k;
			struct model_stat s = {
				.metric = cm->uniq,
				.scope = model_builder_intern(
					o->b, kind ? "exclusive" : "inclusive",
					9),
				.formula = model_builder_intern(o->b, "$$", 2),
				.combine = comb,
				.stat_id = i * 2 + kind,
				.prop_id = i * 2 + kind,
			};
			/* a minimum or maximum is one over call paths too */
			if (comb != COMBINE_SUM)
				s.flags = STAT_CONTEXTS_COMBINE;
			if (cm->mtype == CUBE_MT_EXCLUSIVE && kind == KIND_EXCL)
				s.flags |= STAT_EXCLUSIVE_ONLY;
			if (cm->mtype == CUBE_MT_EXCLUSIVE && kind == KIND_INCL) {
				stat[kind] = model_builder_add_inclusive_stat(
					o->b, stat[KIND_EXCL]);
				if (stat[kind] != MODEL_NONE)
					model_builder_set_stat_prop_id(
						o->b, stat[kind], i * 2 + kind);
			} else {
				stat[kind] = model_builder_add_stat(o->b, &s);
			}
			if (stat[kind] == MODEL_NONE) {
				st = error_set(o->err, STATUS_NOMEM, o->path,
					       "out of memory");
				break;
			}
		}
		for (uint32_t kind = 0; kind < 2 && st == STATUS_OK; kind++) {
			uint32_t pm = cm->parent;
			uint32_t parent = pm == MODEL_NONE ? MODEL_NONE
				: kind ? col_excl[pm] : col_incl[pm];
			st = add_column(o, i, kind, stat[kind], visible, parent,
					kind ? &col_excl[i] : &col_incl[i]);
		}
		stats[2 * i] = stat[KIND_INCL];
		stats[2 * i + 1] = stat[KIND_EXCL];
	}
	/* the derived columns of multi-value metrics, over their components */
	for (uint32_t k = 0; k < n_sets && st == STATUS_OK; k++) {
		for (uint32_t kind = 0; kind < 2 && st == STATUS_OK; kind++) {
			uint32_t sc[8];
			bool all = sets[k].n <= 8;
			for (uint32_t c = 0; all && c < sets[k].n; c++) {
				sc[c] = stats[2 * (sets[k].first + c) + kind];
				all = sc[c] != MODEL_NONE;
			}
			if (all)
				st = add_component_formulas(o, &sets[k], kind,
							    sc);
		}
	}
	if (st != STATUS_OK)
		goto out;
	size_t row = (size_t)v->n_loc * max_elem;
	v->rowbuf = malloc(row ? row : 1);
	v->acc = malloc(((size_t)v->n_loc + 1) * sizeof(double));
	v->tmp = malloc(((size_t)v->n_loc + 1) * sizeof(double));
	if (!v->rowbuf || !v->acc || !v->tmp)
		st = error_set(o->err, STATUS_NOMEM, o->path, "out of memory");
out:
	free(col_incl);
	free(col_excl);
	free(stats);
	free(sets);
	return st;
}

static enum status open_path(const char *path, struct model **out,
			     struct error *err)
{
	struct opener o = {.path = path, .err = err};
	enum status st;
	struct stat sb;
	*out = NULL;
	bool is_dir = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
	o.v = calloc(1, sizeof(*o.v));
	if (!o.v)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	pthread_mutex_init(&o.v->lock, NULL);
	o.v->name = strdup(path);
	st = cube_container_open(path, is_dir, &o.v->c, err);
	if (st != STATUS_OK) {
		cube_values_close(o.v);
		return st;
	}
	o.b = model_builder_new("cube", path);
	if (!o.b || !o.v->name) {
		cube_values_close(o.v);
		model_builder_free(o.b);
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	}
	model_builder_set_ctx_id_base(o.b, 1);
	st = cube_anchor_read(&o.v->c, o.b, &o.a, err);
	if (st == STATUS_OK && o.a.n_cnodes == 0)
		st = error_set(err, STATUS_CORRUPT, path,
			       "anchor.xml has no call nodes");
	o.v->n_loc = o.a.n_locations;
	if (st == STATUS_OK && o.a.n_locations == 0)
		st = error_set(err, STATUS_CORRUPT, path,
			       "anchor.xml has no locations (system tree)");
	if (st == STATUS_OK)
		st = cube_build_tree(&o);
	if (st == STATUS_OK)
		st = cube_build_regions(&o);
	if (st == STATUS_OK)
		st = cube_build_nodes(&o);
	if (st == STATUS_OK)
		st = cube_build_profiles(&o);
	if (st == STATUS_OK)
		st = cube_build_metrics(&o);
	if (st != STATUS_OK) {
		cube_values_close(o.v);
		model_builder_free(o.b);
		free(o.region_of_id);
		cube_anchor_free(&o.a);
		return st;
	}
	char *title = NULL;
	if (asprintf(&title, "Cube %s%s%s", o.a.version,
		     o.a.title ? " profile by " : "",
		     o.a.title ? o.a.title : "") < 0)
		title = NULL;
	model_builder_set_title(o.b, title, o.a.attrs);
	free(title);
	if (o.v->c.checksum_bug)
		cube_warn(&o,
			  "%u tar headers have a checksum 32 below the correct "
			  "one (the Cube 4.8 writer's bug): accepted",
			  (unsigned)o.v->c.checksum_bug);
	if (o.a.location_ids_doc_order)
		cube_warn(&o,
			  "location Ids are not 0..%u: data columns taken in "
			  "document order",
			  (unsigned)(o.a.n_locations - 1));
	model_builder_set_values(o.b, &cube_value_ops, o.v);
	free(o.region_of_id);
	cube_anchor_free(&o.a);
	*out = model_builder_finish(o.b, err);
	return *out ? STATUS_OK : STATUS_NOMEM;
}

static enum status cube_open(const struct reader_input *in,
			     struct model **out, struct error *err)
{
	return open_path(in->paths[0], out, err);
}

static bool member_like(const char *n)
{
	if (strcmp(n, "anchor.xml") == 0 || strcmp(n, "remapping.spec") == 0)
		return true;
	size_t i = 0;
	while (n[i] >= '0' && n[i] <= '9')
		i++;
	return i > 0 &&
	       (strcmp(n + i, ".index") == 0 || strcmp(n + i, ".data") == 0);
}

/* Archive members (anchor.xml: 90; N.index / N.data only: 60, the list
 * may be a prefix); a tar header whose first member is a Cube member
 * (libarchive refuses the Cube 4.8 files, so they have no member list):
 * 85; a directory with anchor.xml: 90; a .cubex name: 50. */
static int cube_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (p->is_dir)
		return reader_probe_has(p, "anchor.xml") ? 90 : 0;
	if (!p->is_file)
		return 0;
	if (p->is_archive) {
		bool data = false;
		for (size_t i = 0; i < p->n_members; i++) {
			if (strcmp(p->members[i], "anchor.xml") == 0)
				return 90;
			data |= member_like(p->members[i]);
		}
		if (data)
			return 60;
	}
	if (p->head_len >= 512 && memcmp(p->head + 257, "ustar", 5) == 0) {
		char name[101];
		memcpy(name, p->head, 100);
		name[100] = '\0';
		if (member_like(name))
			return 85;
	}
	const char *base = reader_probe_base(p);
	size_t l = strlen(base);
	if (l > 6 && strcmp(base + l - 6, ".cubex") == 0)
		return 50;
	return 0;
}

const struct reader reader_cube = {
	.name = "cube",
	.description = "Score-P / Scalasca Cube4 profile (.cubex, or a "
		       "directory with anchor.xml)",
	.caps = READER_CAP_TREE | READER_CAP_PER_PROFILE,
	.bid = cube_bid,
	.open = cube_open,
};
