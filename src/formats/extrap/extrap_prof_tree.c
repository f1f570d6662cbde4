/* extrap_prof_tree: one point of an Extra-Prof set as Extra-P's reader
 * (extra_prof.py, v4.3.0-beta2) makes it.  The call trees of the point's
 * k files are merged by name under each parent into one tree whose nodes
 * hold k durations, visits and bytes (a node met twice under one parent
 * adds; a list of values, one per thread, adds its mean); kernels and
 * launches are named "GPU " / "LAUNCH " and their demangled name, copies
 * and memsets "GPU " and theirs, and template arguments are removed from
 * any name with '<' and '>'.  The measurements, in preorder: time is the
 * node's duration less its children's (those that are not kernels, async
 * copies or memsets, or overlaps), in seconds, unless the children's sum
 * exceeds the node's, when the node keeps its own and its subtree is not
 * measured at this point (Extra-P drops the children); visits; bytes when
 * one is not 0; GPU metrics, one value per occurrence; additional metrics
 * (energy) exclusive as time is.  See doc/extrap.md. */
#include "config.h"

#include "analysis/measure_stats.h"
#include "formats/extrap/extrap_prof.h"
#include "formats/extrap/extrap_set_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The callpaths' text of one point, at most (a deep tree's is its depth
 * squared). */
#define PROF_MAX_TEXT ((size_t)64 << 20)

enum { T_LAUNCH = 1, T_KERNEL, T_MEMCPY, T_MEMSET, T_OVERLAP = 7 };
enum { F_ASYNC = 1, F_OVERLAP = 2 };

struct gval {
	uint32_t metric, seq;
	double v;
};

struct pnode {
	char *name;
	size_t len;
	uint32_t parent, first, last, next; /* children in order met */
	uint32_t cp;
	bool noexcl; /* not subtracted from its parent */
	uint32_t first_add;
	double *v; /* duration, visits, bytes: k each */
	struct gval *gpu;
	uint32_t n_gpu, gpu_cap;
};

/* An additional metric's k values at a node. */
struct aent {
	uint32_t node, metric, next;
	double *v;
};

struct prof_tree {
	struct extrap_set *s;
	uint32_t point, k;
	struct pnode *n;
	uint32_t n_nodes, cap;
	struct xmap map;
	struct aent *a;
	uint32_t n_a, a_cap;
	struct xmap amap;
	const uint32_t *gpu, *add;
	uint32_t n_gpu, n_add;
	size_t text;
	const char *file;
	struct error *err;
	double *scratch; /* 2k */
};

struct prof_tree *prof_tree_new(struct extrap_set *s, uint32_t point,
				uint32_t k)
{
	struct prof_tree *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->s = s;
	t->point = point;
	t->k = k;
	t->scratch = calloc(2 * (size_t)k, sizeof(double));
	t->n = calloc(64, sizeof(*t->n));
	t->cap = 64;
	if (!t->scratch || !t->n) {
		prof_tree_free(t);
		return NULL;
	}
	t->n_nodes = 1; /* the root */
	t->n[0] = (struct pnode){.parent = MODEL_NONE, .first = MODEL_NONE,
				 .last = MODEL_NONE, .next = MODEL_NONE,
				 .cp = MODEL_NONE, .first_add = MODEL_NONE};
	return t;
}

void prof_tree_free(struct prof_tree *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->n_nodes; i++) {
		free(t->n[i].name);
		free(t->n[i].v);
		free(t->n[i].gpu);
	}
	for (uint32_t i = 0; i < t->n_a; i++)
		free(t->a[i].v);
	free(t->a);
	free(t->amap.slots);
	free(t->map.slots);
	free(t->n);
	free(t->scratch);
	free(t);
}

void prof_tree_file_metrics(struct prof_tree *t, const uint32_t *gpu,
			    uint32_t n_gpu, const uint32_t *add,
			    uint32_t n_add)
{
	t->gpu = gpu;
	t->n_gpu = n_gpu;
	t->add = add;
	t->n_add = n_add;
}

static enum status bad(struct prof_tree *t, const char *what)
{
	return error_set(t->err, STATUS_CORRUPT, t->file,
			 "not an Extra-Prof call tree: %s", what);
}

static enum status nomem(struct prof_tree *t)
{
	return error_set(t->err, STATUS_NOMEM, t->file, "out of memory");
}

/* ---- finding and making nodes ---- */

struct child_key {
	const struct prof_tree *t;
	uint32_t parent;
	const char *name;
	size_t len;
};

static bool child_eq(const void *ctx, uint32_t i)
{
	const struct child_key *k = ctx;
	const struct pnode *n = &k->t->n[i];
	return n->parent == k->parent && n->len == k->len &&
	       memcmp(n->name, k->name, k->len) == 0;
}

/* The set's callpath of a new node: its parent's and its name. */
static enum status node_callpath(struct prof_tree *t, struct pnode *n)
{
	size_t pl = 0;
	const char *pp = n->parent == 0 ? NULL
			 : extrap_set_callpath_name(t->s, t->n[n->parent].cp,
						    &pl);
	size_t need = (pp ? pl + 2 : 0) + n->len;
	t->text += need;
	if (t->text > PROF_MAX_TEXT)
		return error_set(t->err, STATUS_CORRUPT, t->file,
				 "the callpaths of the call tree exceed %u MiB",
				 (unsigned)(PROF_MAX_TEXT >> 20));
	char *buf = malloc(need + 1);
	if (!buf)
		return nomem(t);
	size_t len = 0;
	if (pp) {
		memcpy(buf, pp, pl);
		memcpy(buf + pl, "->", 2);
		len = pl + 2;
	}
	memcpy(buf + len, n->name, n->len);
	n->cp = extrap_set_callpath(t->s, buf, need);
	free(buf);
	return n->cp == MODEL_NONE ? nomem(t) : STATUS_OK;
}

/* The child `name` of `parent` (taken when made), made with the flags of
 * its first occurrence as Extra-P tags it. */
static enum status child_of(struct prof_tree *t, uint32_t parent, char *name,
			    unsigned type, unsigned flags, uint32_t *out)
{
	size_t len = strlen(name);
	struct child_key key = {t, parent, name, len};
	uint32_t h = extrap_hash(name, len, parent);
	uint32_t i = xmap_find(&t->map, h, child_eq, &key);
	if (i != MODEL_NONE) {
		free(name);
		*out = i;
		return STATUS_OK;
	}
	if (t->n_nodes == t->cap) {
		struct pnode *g = t->cap < UINT32_MAX / 2
					  ? realloc(t->n, 2 * (size_t)t->cap *
							      sizeof(*g))
					  : NULL;
		if (!g) {
			free(name);
			return nomem(t);
		}
		t->n = g;
		t->cap *= 2;
	}
	i = t->n_nodes;
	struct pnode *n = &t->n[i];
	*n = (struct pnode){.name = name, .len = len, .parent = parent,
			    .first = MODEL_NONE, .last = MODEL_NONE,
			    .next = MODEL_NONE, .first_add = MODEL_NONE};
	t->n_nodes++;
	if (flags & F_OVERLAP)
		n->noexcl = type != T_OVERLAP;
	else
		n->noexcl = type == T_KERNEL ||
			    ((type == T_MEMCPY || type == T_MEMSET) &&
			     (flags & F_ASYNC));
	if (!(n->v = calloc(3 * (size_t)t->k, sizeof(double))) ||
	    !xmap_put(&t->map, h, i))
		return nomem(t);
	enum status st = node_callpath(t, n);
	if (st != STATUS_OK)
		return st;
	if (flags & F_OVERLAP)
		extrap_set_may_lack_points(t->s, n->cp);
	struct pnode *p = &t->n[parent];
	if (p->last == MODEL_NONE)
		p->first = i;
	else
		t->n[p->last].next = i;
	p->last = i;
	*out = i;
	return STATUS_OK;
}

/* ---- values ---- */

static bool number(const msgpack_object *o, double *out)
{
	switch (o->type) {
	case MSGPACK_OBJECT_POSITIVE_INTEGER:
		*out = (double)o->via.u64;
		return true;
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:
		*out = (double)o->via.i64;
		return true;
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64:
		*out = o->via.f64;
		return true;
	case MSGPACK_OBJECT_BOOLEAN:
		*out = o->via.boolean ? 1 : 0;
		return true;
	default:
		return false;
	}
}

/* A number, or numpy's mean of a list of numbers (NaN for none). */
static bool mean_of(const msgpack_object *o, double *out)
{
	if (o->type != MSGPACK_OBJECT_ARRAY)
		return number(o, out);
	uint32_t n = o->via.array.size;
	if (n == 0) {
		*out = NAN;
		return true;
	}
	double *v = malloc(n * sizeof(*v));
	bool ok = v != NULL;
	for (uint32_t i = 0; ok && i < n; i++)
		ok = number(&o->via.array.ptr[i], &v[i]);
	if (ok)
		*out = measure_np_sum(v, n) / (double)n;
	free(v);
	return ok;
}

struct akey {
	const struct prof_tree *t;
	uint32_t node, metric;
};

static bool aent_eq(const void *ctx, uint32_t i)
{
	const struct akey *k = ctx;
	return k->t->a[i].node == k->node && k->t->a[i].metric == k->metric;
}

/* The additional metric's k values at node (made zeros when `make`), or
 * NULL. */
static double *add_values(struct prof_tree *t, uint32_t node, uint32_t metric,
			  bool make)
{
	uint64_t key[2] = {node, metric};
	uint32_t h = extrap_hash(key, sizeof(key), 7);
	struct akey k = {t, node, metric};
	uint32_t i = xmap_find(&t->amap, h, aent_eq, &k);
	if (i != MODEL_NONE || !make)
		return i == MODEL_NONE ? NULL : t->a[i].v;
	if (t->n_a == t->a_cap) {
		uint32_t nc = t->a_cap ? 2 * t->a_cap : 64;
		struct aent *g = nc > t->a_cap
					 ? realloc(t->a, (size_t)nc * sizeof(*g))
					 : NULL;
		if (!g)
			return NULL;
		t->a = g;
		t->a_cap = nc;
	}
	double *v = calloc(t->k, sizeof(double));
	if (!v || !xmap_put(&t->amap, h, t->n_a)) {
		free(v);
		return NULL;
	}
	/* appended to the node's list: its metrics in the order met */
	t->a[t->n_a] = (struct aent){node, metric, MODEL_NONE, v};
	uint32_t *link = &t->n[node].first_add;
	while (*link != MODEL_NONE)
		link = &t->a[*link].next;
	*link = t->n_a++;
	return v;
}

static enum status add_gpu(struct prof_tree *t, struct pnode *n,
			   uint32_t metric, double v)
{
	if (n->n_gpu == n->gpu_cap) {
		uint32_t nc = n->gpu_cap ? 2 * n->gpu_cap : 8;
		struct gval *g = nc > n->gpu_cap
					 ? realloc(n->gpu, nc * sizeof(*g))
					 : NULL;
		if (!g)
			return nomem(t);
		n->gpu = g;
		n->gpu_cap = nc;
	}
	n->gpu[n->n_gpu] = (struct gval){metric, n->n_gpu, v};
	n->n_gpu++;
	return STATUS_OK;
}

/* Fields 7 (GPU metrics) and 8 (additional metrics) of a node. */
static enum status node_metrics(struct prof_tree *t, uint32_t id,
				const msgpack_object *e, uint32_t n_e,
				uint32_t i)
{
	if (t->n_gpu && n_e >= 8) {
		const msgpack_object *g = &e[7];
		if (g->type != MSGPACK_OBJECT_ARRAY)
			return bad(t, "GPU metric values that are not a list");
		for (uint32_t j = 0; j < g->via.array.size && j < t->n_gpu;
		     j++) {
			double v;
			if (!number(&g->via.array.ptr[j], &v))
				return bad(t, "a GPU metric value that is not "
					      "a number");
			enum status st = add_gpu(t, &t->n[id], t->gpu[j], v);
			if (st != STATUS_OK)
				return st;
		}
	}
	if (t->n_add && n_e >= 9) {
		const msgpack_object *a = &e[8];
		if (a->type != MSGPACK_OBJECT_ARRAY)
			return bad(t, "metric values that are not a list");
		for (uint32_t j = 0; j < a->via.array.size && j < t->n_add;
		     j++) {
			double v;
			if (!mean_of(&a->via.array.ptr[j], &v))
				return bad(t, "a metric value that is not a "
					      "number or a list of numbers");
			double *av = add_values(t, id, t->add[j], true);
			if (!av)
				return nomem(t);
			av[i] += v;
		}
	}
	return STATUS_OK;
}

/* ---- reading a file's tree ---- */

/* Template arguments out of a name, as Extra-P's
 * _remove_template_from_function_name: every <...> (nested) goes. */
static void untemplate(char *s)
{
	char *w = s;
	int depth = 0;
	for (char *r = s; *r; r++) {
		if (*r == '<')
			depth++;
		else if (*r == '>' && depth > 0)
			depth--;
		else if (depth == 0)
			*w++ = *r;
	}
	*w = '\0';
}

/* The node's name as Extra-P names it (malloc'd). */
static char *node_name(const msgpack_object *o, unsigned type)
{
	char *raw = strndup(o->via.str.ptr, o->via.str.size);
	if (!raw)
		return NULL;
	if (strlen(raw) != o->via.str.size) {
		free(raw); /* a NUL inside: made visible, never cut */
		return NULL;
	}
	const char *pre = type == T_LAUNCH ? "LAUNCH "
			  : type == T_KERNEL || type == T_MEMCPY ||
				  type == T_MEMSET
			      ? "GPU "
			      : "";
	char *base = raw, *dm = NULL;
	bool kernel = type == T_LAUNCH || type == T_KERNEL;
	if (kernel && (dm = extrap_demangle(raw)))
		base = dm;
	size_t n = strlen(pre) + 2 * strlen(base) + 1;
	char *out = malloc(n);
	if (out) {
		strcpy(out, pre);
		char *w = out + strlen(pre);
		for (const char *r = base; *r; r++) {
			/* a kernel's "->" (operator->) is no separator */
			if (kernel && r[0] == '-' && r[1] == '>') {
				*w++ = '-';
				*w++ = ' ';
				continue;
			}
			*w++ = *r;
		}
		*w = '\0';
		if (strchr(out, '<') && strchr(out, '>'))
			untemplate(out);
	}
	free(dm);
	free(raw);
	return out;
}

static enum status read_node(struct prof_tree *t, uint32_t parent,
			     const msgpack_object *o, uint32_t i)
{
	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size < 7)
		return bad(t, "a node that is not a list of 7 fields or more");
	const msgpack_object *e = o->via.array.ptr;
	uint32_t n_e = o->via.array.size;
	if (e[0].type != MSGPACK_OBJECT_STR ||
	    e[1].type != MSGPACK_OBJECT_ARRAY ||
	    e[2].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    e[3].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
		return bad(t, "a node whose name, children, type or flags "
			      "are of the wrong kind");
	if (e[2].via.u64 > 8 || e[3].via.u64 > 3)
		return bad(t, "a node of an unknown type or flags");
	unsigned type = (unsigned)e[2].via.u64, flags = (unsigned)e[3].via.u64;
	char *name = node_name(&e[0], type);
	if (!name)
		return e[0].via.str.size > 0 &&
				       memchr(e[0].via.str.ptr, '\0',
					      e[0].via.str.size)
			   ? bad(t, "a name with a NUL byte")
			   : nomem(t);
	uint32_t id = 0;
	enum status st = child_of(t, parent, name, type, flags, &id);
	if (st == STATUS_OK)
		st = node_metrics(t, id, e, n_e, i);
	if (st != STATUS_OK)
		return st;
	double d, v, b;
	bool listed = e[4].type == MSGPACK_OBJECT_ARRAY;
	if (!(listed ? mean_of(&e[4], &d) && mean_of(&e[5], &v) &&
			       mean_of(&e[6], &b)
		     : number(&e[4], &d) && number(&e[5], &v) &&
			       number(&e[6], &b)))
		return bad(t, "a duration, visits or bytes that is not a "
			      "number or a list of numbers");
	double *nv = t->n[id].v;
	nv[i] += d;
	nv[t->k + i] += v;
	nv[2 * t->k + i] += b;
	const msgpack_object *c = e[1].via.array.ptr;
	for (uint32_t j = 0; j < e[1].via.array.size && st == STATUS_OK; j++)
		st = read_node(t, id, &c[j], i);
	return st;
}

enum status prof_tree_read(struct prof_tree *t, const msgpack_object *root,
			   uint32_t i, const char *file, struct error *err)
{
	t->file = file;
	t->err = err;
	if (root->type != MSGPACK_OBJECT_ARRAY || root->via.array.size < 7 ||
	    root->via.array.ptr[0].type != MSGPACK_OBJECT_STR ||
	    root->via.array.ptr[0].via.str.size != 0 ||
	    root->via.array.ptr[1].type != MSGPACK_OBJECT_ARRAY)
		return bad(t, "the root is not a node named \"\"");
	const msgpack_object *c = root->via.array.ptr[1].via.array.ptr;
	enum status st = STATUS_OK;
	for (uint32_t j = 0;
	     j < root->via.array.ptr[1].via.array.size && st == STATUS_OK; j++)
		st = read_node(t, 0, &c[j], i);
	return st;
}

/* ---- the measurements ---- */

static int cmp_gval(const void *a, const void *b)
{
	const struct gval *x = a, *y = b;
	if (x->metric != y->metric)
		return x->metric < y->metric ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The children's sum (those subtracted) of values at offset `off` of
 * each child's v, or of additional metric `metric` (made zeros where
 * absent, as Extra-P's defaultdict does) when off is SIZE_MAX. */
static bool child_sum(struct prof_tree *t, uint32_t id, size_t off,
		      uint32_t metric, double *sum)
{
	memset(sum, 0, t->k * sizeof(*sum));
	for (uint32_t c = t->n[id].first; c != MODEL_NONE; c = t->n[c].next) {
		if (t->n[c].noexcl)
			continue;
		const double *v = off != SIZE_MAX
					  ? t->n[c].v + off
					  : add_values(t, c, metric, true);
		if (!v)
			return false;
		for (uint32_t i = 0; i < t->k; i++)
			sum[i] += v[i];
	}
	return true;
}

/* The values less the children's, unless the children's sum exceeds
 * theirs (then the values themselves, *over set), into out. */
static void exclusive(const double *v, const double *cs, uint32_t k,
		      double *out, bool *over)
{
	*over = measure_np_sum(cs, k) > measure_np_sum(v, k);
	for (uint32_t i = 0; i < k; i++)
		out[i] = *over ? v[i] : v[i] - cs[i];
}

static enum status measure_node(struct prof_tree *t, uint32_t id, bool *over)
{
	struct pnode *n = &t->n[id];
	uint32_t k = t->k, cp = n->cp, pt = t->point;
	double *cs = t->scratch, *out = t->scratch + k;
	child_sum(t, id, 0, 0, cs);
	exclusive(n->v, cs, k, out, over);
	for (uint32_t i = 0; i < k; i++)
		out[i] /= 1e9;
	bool ok = extrap_set_add_values(t->s, cp, PROF_TIME, pt, out, k) &&
		  extrap_set_add_values(t->s, cp, PROF_VISITS, pt, n->v + k, k);
	bool any = false;
	for (uint32_t i = 0; i < k; i++)
		any |= n->v[2 * k + i] != 0; /* NaN too */
	if (ok && any)
		ok = extrap_set_add_values(t->s, cp, PROF_BYTES, pt,
					   n->v + 2 * k, k);
	if (ok && n->n_gpu) {
		qsort(n->gpu, n->n_gpu, sizeof(*n->gpu), cmp_gval);
		double *v = malloc(n->n_gpu * sizeof(*v));
		ok = v != NULL;
		for (uint32_t a = 0, b; ok && a < n->n_gpu; a = b) {
			for (b = a; b < n->n_gpu &&
				    n->gpu[b].metric == n->gpu[a].metric;
			     b++)
				v[b - a] = n->gpu[b].v;
			ok = extrap_set_add_values(t->s, cp, n->gpu[a].metric,
						   pt, v, b - a);
		}
		free(v);
	}
	for (uint32_t a = n->first_add; ok && a != MODEL_NONE;
	     a = t->a[a].next) {
		bool o;
		ok = child_sum(t, id, SIZE_MAX, t->a[a].metric, cs);
		if (ok) {
			exclusive(t->a[a].v, cs, k, out, &o);
			ok = extrap_set_add_values(t->s, cp, t->a[a].metric,
						   pt, out, k);
		}
	}
	return ok ? STATUS_OK : nomem(t);
}

/* Node `id` and, unless its children's time exceeds its own, its
 * subtree, in preorder. */
static enum status measure_tree(struct prof_tree *t, uint32_t id)
{
	bool over = false;
	enum status st = id == 0 ? STATUS_OK : measure_node(t, id, &over);
	if (over)
		return st; /* Extra-P drops the children at this point */
	for (uint32_t c = t->n[id].first; c != MODEL_NONE && st == STATUS_OK;
	     c = t->n[c].next)
		st = measure_tree(t, c);
	return st;
}

enum status prof_tree_measure(struct prof_tree *t, const char *path,
			      struct error *err)
{
	t->file = path;
	t->err = err;
	return measure_tree(t, 0);
}
