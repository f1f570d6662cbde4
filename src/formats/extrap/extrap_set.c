/* extrap_set: the collection every Extra-P reader fills and the build of
 * the common model from it (see extrap_set.h).  Names, points and cells
 * are found through small open-addressing hash tables, so a reader's cost
 * is linear in its input; the build sorts the points once and walks each
 * callpath's "->" segments through a (parent, name) table.  Must not
 * depend on curses, on ui/ or on another format. */
#include "config.h"

#include "formats/extrap/extrap_set.h"
#include "formats/extrap/extrap_set_internal.h"

#include "core/array.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a hash table of indexes into the caller's items ---------------- */

static uint32_t hash_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (uint32_t)h;
}

static uint64_t hash_bytes(const void *p, size_t len, uint64_t h)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < len; i++) {
		h ^= s[i];
		h *= 1099511628211ull;
	}
	return h;
}

uint32_t extrap_hash(const void *p, size_t len, uint64_t seed)
{
	return hash_mix(hash_bytes(p, len, 1469598103934665603ull ^ seed));
}

uint32_t xmap_find(const struct xmap *m, uint32_t h,
			  bool (*eq)(const void *ctx, uint32_t index),
			  const void *ctx)
{
	if (!m->cap)
		return MODEL_NONE;
	for (uint32_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		uint64_t s = m->slots[i];
		if (!s)
			return MODEL_NONE;
		if ((uint32_t)(s >> 32) == h &&
		    eq(ctx, (uint32_t)s - 1))
			return (uint32_t)s - 1;
	}
}

bool xmap_put(struct xmap *m, uint32_t h, uint32_t index)
{
	if ((uint64_t)(m->n + 1) * 2 > m->cap) {
		uint32_t ncap = m->cap ? m->cap * 2 : 64;
		if (ncap < m->cap)
			return false;
		uint64_t *ns = calloc(ncap, sizeof(*ns));
		if (!ns)
			return false;
		for (uint32_t i = 0; i < m->cap; i++) {
			uint64_t s = m->slots[i];
			if (!s)
				continue;
			uint32_t j = (uint32_t)(s >> 32) & (ncap - 1);
			while (ns[j])
				j = (j + 1) & (ncap - 1);
			ns[j] = s;
		}
		free(m->slots);
		m->slots = ns;
		m->cap = ncap;
	}
	uint32_t j = h & (m->cap - 1);
	while (m->slots[j])
		j = (j + 1) & (m->cap - 1);
	m->slots[j] = (uint64_t)h << 32 | ((uint64_t)index + 1);
	m->n++;
	return true;
}

/* ---- the collection --------------------------------------------------- */

struct extrap_set *extrap_set_new(void)
{
	return calloc(1, sizeof(struct extrap_set));
}

static void names_free(struct names *n)
{
	array_free_each(n->v, n->n);
	free(n->len);
	free(n->map.slots);
}

void extrap_set_free(struct extrap_set *s)
{
	if (!s)
		return;
	names_free(&s->params);
	names_free(&s->cps);
	names_free(&s->metrics);
	names_free(&s->sets);
	free(s->coords);
	free(s->point_map.slots);
	for (uint32_t i = 0; i < s->n_cells; i++)
		free(s->cells[i].v);
	free(s->cells);
	free(s->cell_map.slots);
	for (size_t i = 0; i < s->n_models; i++)
		free(s->models[i].model.terms);
	free(s->models);
	array_free_each(s->warnings, s->n_warnings);
	free(s->partial);
	free(s);
}

void extrap_set_warn(struct extrap_set *s, const char *text)
{
	char *copy = strdup(text);
	char **g = copy ? realloc(s->warnings,
				  (s->n_warnings + 1) * sizeof(*g))
			: NULL;
	if (!g) {
		free(copy);
		s->nomem = true;
		return;
	}
	s->warnings = g;
	s->warnings[s->n_warnings++] = copy;
}

void extrap_set_may_lack_points(struct extrap_set *s, uint32_t cp)
{
	if (cp >= s->cps.n)
		return;
	if (cp >= s->partial_cap) {
		uint32_t ncap = s->partial_cap ? s->partial_cap : 64;
		while (ncap <= cp)
			ncap *= 2;
		bool *g = realloc(s->partial, (size_t)ncap * sizeof(*g));
		if (!g) {
			s->nomem = true;
			return;
		}
		memset(g + s->partial_cap, 0,
		       (size_t)(ncap - s->partial_cap) * sizeof(*g));
		s->partial = g;
		s->partial_cap = ncap;
	}
	s->partial[cp] = true;
}

void extrap_set_merge_incomplete(struct extrap_set *s)
{
	s->merge_incomplete = true;
}

void extrap_set_values_exclusive(struct extrap_set *s)
{
	s->exclusive = true;
}

void extrap_set_keep_file_order(struct extrap_set *s)
{
	s->file_order = true;
}

bool extrap_set_nomem(const struct extrap_set *s)
{
	return s->nomem;
}

struct name_key {
	const struct names *n;
	const char *s;
	size_t len;
};

static bool name_eq(const void *ctx, uint32_t i)
{
	const struct name_key *k = ctx;
	return k->n->len[i] == k->len && memcmp(k->n->v[i], k->s, k->len) == 0;
}

uint32_t extrap_names_find(const struct names *n, const char *s, size_t len)
{
	struct name_key k = {n, s, len};
	return xmap_find(&n->map, hash_mix(hash_bytes(s, len, 1469598103934665603ull)),
			 name_eq, &k);
}

static uint32_t names_add(struct extrap_set *set, struct names *n,
			  const char *s, size_t len, bool *added)
{
	*added = false;
	uint32_t i = extrap_names_find(n, s, len);
	if (i != MODEL_NONE)
		return i;
	char *copy = malloc(len + 1);
	if (!copy)
		goto nomem;
	memcpy(copy, s, len);
	copy[len] = '\0';
	uint32_t cap = n->cap;
	if (!array_grow_u32((void **)&n->v, &n->cap, (uint64_t)n->n + 1,
			    sizeof(*n->v))) {
		free(copy);
		goto nomem;
	}
	size_t *l = n->cap != cap ? realloc(n->len, n->cap * sizeof(*l))
				  : n->len;
	if (!l) {
		free(copy);
		goto nomem;
	}
	n->len = l;
	n->v[n->n] = copy;
	n->len[n->n] = len;
	if (!xmap_put(&n->map,
		      hash_mix(hash_bytes(s, len, 1469598103934665603ull)),
		      n->n)) {
		free(copy);
		goto nomem;
	}
	*added = true;
	return n->n++;
nomem:
	set->nomem = true;
	return MODEL_NONE;
}

uint32_t extrap_set_n_params(const struct extrap_set *s)
{
	return s->params.n;
}

uint32_t extrap_set_param(struct extrap_set *s, const char *name, size_t len)
{
	if (s->n_points)
		return MODEL_NONE;
	bool added;
	uint32_t i = names_add(s, &s->params, name, len, &added);
	return added ? i : MODEL_NONE;
}

uint32_t extrap_set_find_param(const struct extrap_set *s, const char *name,
			       size_t len)
{
	return extrap_names_find(&s->params, name, len);
}

uint32_t extrap_set_callpath(struct extrap_set *s, const char *name,
			     size_t len)
{
	bool added;
	return names_add(s, &s->cps, name, len, &added);
}

const char *extrap_set_callpath_name(const struct extrap_set *s, uint32_t cp,
				     size_t *len)
{
	if (cp >= s->cps.n)
		return NULL;
	*len = s->cps.len[cp];
	return s->cps.v[cp];
}

uint32_t extrap_set_metric(struct extrap_set *s, const char *name, size_t len)
{
	bool added;
	return names_add(s, &s->metrics, name, len, &added);
}

struct point_key {
	const struct extrap_set *s;
	const double *c;
};

static bool point_eq(const void *ctx, uint32_t i)
{
	const struct point_key *k = ctx;
	uint32_t np = k->s->params.n;
	for (uint32_t j = 0; j < np; j++)
		if (k->s->coords[(size_t)i * np + j] != k->c[j])
			return false;
	return true;
}

static uint32_t point_hash(const double *c, uint32_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (uint32_t j = 0; j < n; j++) {
		double v = c[j] == 0 ? 0 : c[j]; /* -0 == 0 */
		h = hash_bytes(&v, sizeof(v), h);
	}
	return hash_mix(h);
}

uint32_t extrap_set_point(struct extrap_set *s, const double *coords)
{
	uint32_t np = s->params.n;
	if (np == 0)
		return MODEL_NONE;
	for (uint32_t j = 0; j < np; j++)
		if (isnan(coords[j]))
			return MODEL_NONE;
	uint32_t h = point_hash(coords, np);
	struct point_key k = {s, coords};
	uint32_t i = xmap_find(&s->point_map, h, point_eq, &k);
	if (i != MODEL_NONE)
		return i;
	if (!array_grow_u32((void **)&s->coords, &s->points_cap,
			    ((uint64_t)s->n_points + 1) * np,
			    sizeof(double)) ||
	    !xmap_put(&s->point_map, h, s->n_points)) {
		s->nomem = true;
		return MODEL_NONE;
	}
	memcpy(s->coords + (size_t)s->n_points * np, coords,
	       np * sizeof(double));
	return s->n_points++;
}

uint32_t extrap_set_n_points(const struct extrap_set *s)
{
	return s->n_points;
}

struct cell_key {
	const struct extrap_set *s;
	uint32_t cp, metric, point;
};

static bool cell_eq(const void *ctx, uint32_t i)
{
	const struct cell_key *k = ctx;
	const struct cell *c = &k->s->cells[i];
	return c->cp == k->cp && c->metric == k->metric && c->point == k->point;
}

static uint32_t cell_hash(uint32_t cp, uint32_t metric, uint32_t point)
{
	return hash_mix(((uint64_t)cp * 0x9e3779b97f4a7c15ull) ^
			((uint64_t)metric << 40) ^ ((uint64_t)point << 20) ^
			point);
}

static uint32_t cell_find(const struct extrap_set *s, uint32_t cp,
			  uint32_t metric, uint32_t point)
{
	if (cp >= s->cps.n || metric >= s->metrics.n || point >= s->n_points)
		return MODEL_NONE;
	struct cell_key k = {s, cp, metric, point};
	return xmap_find(&s->cell_map, cell_hash(cp, metric, point), cell_eq,
			 &k);
}

static struct cell *cell_get(struct extrap_set *s, uint32_t cp,
			     uint32_t metric, uint32_t point)
{
	if (cp >= s->cps.n || metric >= s->metrics.n || point >= s->n_points)
		return NULL;
	uint32_t i = cell_find(s, cp, metric, point);
	if (i != MODEL_NONE)
		return &s->cells[i];
	if (!array_grow_u32((void **)&s->cells, &s->cells_cap,
			    (uint64_t)s->n_cells + 1, sizeof(*s->cells)) ||
	    !xmap_put(&s->cell_map, cell_hash(cp, metric, point),
		      s->n_cells)) {
		s->nomem = true;
		return NULL;
	}
	s->cells[s->n_cells] = (struct cell){.cp = cp, .metric = metric,
					     .point = point};
	return &s->cells[s->n_cells++];
}

bool extrap_set_add_values(struct extrap_set *s, uint32_t callpath,
			   uint32_t metric, uint32_t point,
			   const double *values, size_t n)
{
	struct cell *c = cell_get(s, callpath, metric, point);
	if (!c)
		return false;
	if ((uint64_t)c->n + n > UINT32_MAX - 1 ||
	    !array_grow_u32((void **)&c->v, &c->cap, (uint64_t)c->n + n,
			    sizeof(double))) {
		s->nomem = true;
		return false;
	}
	if (n)
		memcpy(c->v + c->n, values, n * sizeof(double));
	c->n += (uint32_t)n;
	return true;
}

bool extrap_set_add_row(struct extrap_set *s, uint32_t callpath,
			uint32_t metric, uint32_t point, const double *values,
			size_t n)
{
	if (!extrap_set_add_values(s, callpath, metric, point, values, n))
		return false;
	s->cells[cell_find(s, callpath, metric, point)].rows++;
	return true;
}

size_t extrap_set_n_values(const struct extrap_set *s, uint32_t callpath,
			   uint32_t metric, uint32_t point)
{
	uint32_t i = cell_find(s, callpath, metric, point);
	return i == MODEL_NONE ? 0 : s->cells[i].n;
}

bool extrap_set_put_measure(struct extrap_set *s, uint32_t callpath,
			    uint32_t metric, uint32_t point,
			    const struct model_measure *m)
{
	struct cell *c = cell_get(s, callpath, metric, point);
	if (!c)
		return false;
	c->stored = true;
	c->m = *m;
	return true;
}

uint32_t extrap_set_model_set(struct extrap_set *s, const char *name)
{
	bool added;
	/* sets may share a name: keep each one */
	uint32_t i = extrap_names_find(&s->sets, name, strlen(name));
	if (i != MODEL_NONE) {
		char *alt = NULL;
		if (asprintf(&alt, "%s #%u", name, (unsigned)s->sets.n) < 0) {
			s->nomem = true;
			return MODEL_NONE;
		}
		i = names_add(s, &s->sets, alt, strlen(alt), &added);
		free(alt);
		return i;
	}
	return names_add(s, &s->sets, name, strlen(name), &added);
}

bool extrap_set_put_model(struct extrap_set *s, uint32_t set,
			  uint32_t callpath, uint32_t metric,
			  struct scaling_model *model)
{
	struct scaling_model taken = *model;
	model->terms = NULL;
	model->n_terms = 0;
	if (set >= s->sets.n || callpath >= s->cps.n ||
	    metric >= s->metrics.n ||
	    !array_grow((void **)&s->models, &s->models_cap, s->n_models + 1,
			sizeof(*s->models))) {
		free(taken.terms);
		if (set < s->sets.n && callpath < s->cps.n &&
		    metric < s->metrics.n)
			s->nomem = true;
		return false;
	}
	s->models[s->n_models++] = (struct smodel){set, callpath, metric,
						    taken};
	return true;
}

enum status extrap_check_pairs(const struct extrap_set *s, const bool *keep,
			       const char *path, const char *after,
			       struct error *err)
{
	/* the kept cells' (callpath, metric) sorted: a run is a pair's
	 * points (cells are unique per point), O(cells log cells) whatever
	 * the number of callpaths x metrics */
	uint64_t *pair = malloc(((size_t)s->n_cells + 1) * sizeof(*pair));
	if (!pair)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	size_t n = 0;
	for (uint32_t i = 0; i < s->n_cells; i++)
		if (!keep || keep[i])
			pair[n++] = (uint64_t)s->cells[i].cp << 32 |
				    s->cells[i].metric;
	qsort(pair, n, sizeof(*pair), array_cmp_u64);
	enum status st = STATUS_OK;
	for (size_t i = 0, e; i < n && st == STATUS_OK; i = e) {
		for (e = i + 1; e < n && pair[e] == pair[i]; e++)
			;
		uint32_t cp = (uint32_t)(pair[i] >> 32);
		if (e - i == s->n_points ||
		    (cp < s->partial_cap && s->partial[cp]))
			continue;
		st = error_set(err, STATUS_CORRUPT, path,
			       "callpath \"%s\", metric \"%s\": measurements at "
			       "%u of the %u points%s",
			       s->cps.v[pair[i] >> 32],
			       s->metrics.v[(uint32_t)pair[i]], (unsigned)(e - i),
			       (unsigned)s->n_points, after);
	}
	free(pair);
	return st;
}

/* One short series for the warning: "callpath" metric (n of N). */
static void note_short(const struct extrap_set *s, char *buf, size_t cap,
		       uint32_t cp, uint32_t metric, size_t n)
{
	size_t have = strlen(buf);
	if (have + 8 >= cap)
		return;
	snprintf(buf + have, cap - have, "%s\"%s\" %s (%zu of %u)",
		 have ? "; " : "", s->cps.v[cp], s->metrics.v[metric], n,
		 (unsigned)s->n_points);
}

size_t extrap_set_allow_short(struct extrap_set *s, const char *path)
{
	uint64_t *pair = malloc(((size_t)s->n_cells + 1) * sizeof(*pair));
	if (!pair) {
		s->nomem = true;
		return 0;
	}
	for (uint32_t i = 0; i < s->n_cells; i++)
		pair[i] = (uint64_t)s->cells[i].cp << 32 | s->cells[i].metric;
	qsort(pair, s->n_cells, sizeof(*pair), array_cmp_u64);
	char first[600] = "";
	size_t n_short = 0;
	for (size_t i = 0, e; i < s->n_cells; i = e) {
		for (e = i + 1; e < s->n_cells && pair[e] == pair[i]; e++)
			;
		uint32_t cp = (uint32_t)(pair[i] >> 32);
		if (e - i == s->n_points || (cp < s->partial_cap && s->partial[cp]))
			continue;
		if (n_short++ < 3)
			note_short(s, first, sizeof(first), cp,
				   (uint32_t)pair[i], e - i);
	}
	/* marked after the count: a callpath's other metrics are kept too */
	for (size_t i = 0, e; i < s->n_cells; i = e) {
		for (e = i + 1; e < s->n_cells && pair[e] == pair[i]; e++)
			;
		if (e - i != s->n_points)
			extrap_set_may_lack_points(s, (uint32_t)(pair[i] >> 32));
	}
	free(pair);
	if (n_short) {
		char *w = NULL;
		if (asprintf(&w, "%s: %zu series measured at fewer points than "
			     "the %u of the set, modelled on the points they "
			     "have: %s%s", path, n_short, (unsigned)s->n_points,
			     first, n_short > 3 ? "; ..." : "") >= 0)
			extrap_set_warn(s, w);
		free(w);
	}
	return n_short;
}

enum status extrap_set_validate(const struct extrap_set *s, const char *path,
				struct error *err)
{
	if (s->params.n == 0)
		return error_set(err, STATUS_CORRUPT, path,
				 "the set has no parameters");
	if (s->n_points == 0)
		return error_set(err, STATUS_CORRUPT, path,
				 "the set has no measurement points");
	if (s->metrics.n == 0 || s->cps.n == 0 || s->n_cells == 0)
		return error_set(err, STATUS_CORRUPT, path,
				 "the set has no measurements");
	/* points with data per (callpath, metric) */
	return extrap_check_pairs(s, NULL, path, "", err);
}
