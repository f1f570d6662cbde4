/* model_measures: the measurements of parametric sets (Extra-P) and the
 * performance models stored with them.  The statistics of a point's
 * repetitions are computed in analysis/measure_stats.c; the builder
 * collects (node, measured metric, point) triples in call order and
 * finish sorts them once into one array searched by bisection (16 + 48
 * bytes per triple, nothing per absent one).  A builder that asks for it
 * (model_builder_keep_measure_order) also keeps, beside the sorted array,
 * each series' call order as a permutation (4 bytes per triple): the
 * order in which Extra-P's modeler sees the points of a text or JSON
 * file.  Stored model sets are kept the same way, keyed by (set, node,
 * measured).  Must not depend on
 * curses, on ui/ or on any reader. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"
#include "model/scaling.h"

#include "core/array.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A triple's key, compared a, b, c; `seq` orders repeated calls (the
 * last one wins).  Measurements: (node, measured, point); stored models:
 * (set, node, measured). */
struct key3 {
	uint32_t a, b, c, seq;
};

struct model_measures {
	uint32_t *measured; /* measured index -> column */
	uint32_t n_measured;
	struct key3 *keys; /* sorted, unique after finish */
	struct model_measure *values;
	size_t n;
	bool keep_order; /* the builder asked for the call order */
	uint32_t *order; /* [first + k]: the index of a series' k-th
			    triple in call order (series = the sorted run
			    of one (node, measured)); NULL: point order */
	char **set_names;
	uint32_t n_sets;
	struct key3 *skeys; /* sorted, unique after finish */
	struct scaling_model *models;
	size_t n_models;
};

/* The builder's side (struct model_builder keeps the capacities). */
static struct model_measures *measures_of(struct model_builder *b)
{
	if (!b->m->priv->measures) {
		b->m->priv->measures = calloc(1, sizeof(*b->m->priv->measures));
		if (!b->m->priv->measures)
			b->failed = true;
	}
	return b->m->priv->measures;
}

double model_measure_get(const struct model_measure *m, enum measure_kind kind)
{
	if (!m)
		return (double)NAN;
	switch (kind) {
	case MEASURE_MEAN:
		return m->mean;
	case MEASURE_MEDIAN:
		return m->median;
	case MEASURE_MINIMUM:
		return m->minimum;
	case MEASURE_MAXIMUM:
		return m->maximum;
	}
	return (double)NAN;
}

static const char *const measure_names[] = {
	[MEASURE_MEAN] = "mean",
	[MEASURE_MEDIAN] = "median",
	[MEASURE_MINIMUM] = "minimum",
	[MEASURE_MAXIMUM] = "maximum",
};

const char *model_measure_name(enum measure_kind kind)
{
	return (unsigned)kind < sizeof(measure_names) / sizeof(*measure_names)
		       ? measure_names[kind]
		       : "";
}

bool model_measure_parse(const char *name, enum measure_kind *out)
{
	for (unsigned k = 0; k < sizeof(measure_names) / sizeof(*measure_names);
	     k++)
		if (!strcmp(name, measure_names[k])) {
			*out = (enum measure_kind)k;
			return true;
		}
	if (!strcmp(name, "min") || !strcmp(name, "max")) {
		*out = name[1] == 'i' ? MEASURE_MINIMUM : MEASURE_MAXIMUM;
		return true;
	}
	return false;
}

uint32_t model_n_measured(const struct model *m)
{
	return m && m->priv->measures ? m->priv->measures->n_measured : 0;
}

uint32_t model_measured_column(const struct model *m, uint32_t measured)
{
	if (!m || !m->priv->measures ||
	    measured >= m->priv->measures->n_measured)
		return MODEL_NONE;
	return m->priv->measures->measured[measured];
}

static int cmp_key3(const struct key3 *x, const struct key3 *y)
{
	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	if (x->c != y->c)
		return x->c < y->c ? -1 : 1;
	return 0;
}

static bool key3_below(const void *elem, const void *key)
{
	return cmp_key3(elem, key) < 0;
}

static int by_key3(const void *x, const void *y)
{
	return cmp_key3(x, y);
}

/* The index of key (a, b, c) among the n sorted, unique keys; n when
 * absent. */
static size_t key3_find(const struct key3 *keys, size_t n, uint32_t a,
			uint32_t b, uint32_t c)
{
	struct key3 k = {a, b, c, 0};
	const struct key3 *hit = bsearch(&k, keys, n, sizeof(*keys), by_key3);
	return hit ? (size_t)(hit - keys) : n;
}

/* A key's three parts into those of *a, *b, *c that are not NULL. */
static void key3_get(const struct key3 *k, uint32_t *a, uint32_t *b,
		     uint32_t *c)
{
	if (a)
		*a = k->a;
	if (b)
		*b = k->b;
	if (c)
		*c = k->c;
}

const struct model_measure *model_measure_at(const struct model *m,
					     uint32_t node, uint32_t measured,
					     uint32_t point)
{
	if (!m || !m->priv->measures || !m->priv->measures->n)
		return NULL;
	const struct model_measures *s = m->priv->measures;
	size_t i = key3_find(s->keys, s->n, node, measured, point);
	return i < s->n ? &s->values[i] : NULL;
}

size_t model_n_measures(const struct model *m)
{
	return m && m->priv->measures ? m->priv->measures->n : 0;
}

const struct model_measure *model_measure_by_index(const struct model *m,
						   size_t i, uint32_t *node,
						   uint32_t *measured,
						   uint32_t *point)
{
	if (!m || !m->priv->measures || i >= m->priv->measures->n)
		return NULL;
	key3_get(&m->priv->measures->keys[i], node, measured, point);
	return &m->priv->measures->values[i];
}

size_t model_measure_series(const struct model *m, uint32_t node,
			    uint32_t measured, size_t *first)
{
	*first = 0;
	if (!m || !m->priv->measures)
		return 0;
	const struct model_measures *s = m->priv->measures;
	struct key3 k = {node, measured, 0, 0};
	/* the first triple not below (node, measured, 0) */
	size_t lo = array_lower_bound(s->keys, s->n, sizeof(*s->keys),
				      key3_below, &k);
	size_t end = lo;
	while (end < s->n && s->keys[end].a == node &&
	       s->keys[end].b == measured)
		end++;
	*first = lo;
	return end - lo;
}

size_t model_measure_in_order(const struct model *m, size_t first, size_t k)
{
	const struct model_measures *s = m ? m->priv->measures : NULL;
	if (!s || first + k >= s->n)
		return first + k;
	return s->order ? s->order[first + k] : first + k;
}

uint32_t model_n_stored_sets(const struct model *m)
{
	return m && m->priv->measures ? m->priv->measures->n_sets : 0;
}

const char *model_stored_set_name(const struct model *m, uint32_t set)
{
	if (!m || !m->priv->measures || set >= m->priv->measures->n_sets)
		return NULL;
	return m->priv->measures->set_names[set];
}

uint32_t model_stored_set_find(const struct model *m, const char *arg)
{
	uint32_t n = model_n_stored_sets(m);
	char *end;
	unsigned long i;

	for (uint32_t s = 0; s < n; s++)
		if (!strcmp(model_stored_set_name(m, s), arg))
			return s;
	if (*arg < '0' || *arg > '9')
		return MODEL_NONE;
	i = strtoul(arg, &end, 10);
	return !*end && i < n ? (uint32_t)i : MODEL_NONE;
}

const struct scaling_model *model_stored_model(const struct model *m,
					       uint32_t set, uint32_t node,
					       uint32_t measured)
{
	if (!m || !m->priv->measures || !m->priv->measures->n_models)
		return NULL;
	const struct model_measures *s = m->priv->measures;
	size_t i = key3_find(s->skeys, s->n_models, set, node, measured);
	return i < s->n_models ? &s->models[i] : NULL;
}

size_t model_n_stored_models(const struct model *m)
{
	return m && m->priv->measures ? m->priv->measures->n_models : 0;
}

const struct scaling_model *model_stored_model_by_index(const struct model *m,
							size_t i, uint32_t *set,
							uint32_t *node,
							uint32_t *measured)
{
	if (!m || !m->priv->measures || i >= m->priv->measures->n_models)
		return NULL;
	key3_get(&m->priv->measures->skeys[i], set, node, measured);
	return &m->priv->measures->models[i];
}

/* ---- builder -------------------------------------------------------- */

uint32_t model_builder_add_measured(struct model_builder *b, uint32_t column)
{
	if (!b || b->failed || column >= b->m->n_columns)
		return MODEL_NONE;
	struct model_measures *s = measures_of(b);
	if (!s || s->n_measured == MODEL_NONE - 1)
		return MODEL_NONE;
	if (!array_grow_u32((void **)&s->measured, &b->measured_cap,
			    (uint64_t)s->n_measured + 1,
			    sizeof(*s->measured))) {
		b->failed = true;
		return MODEL_NONE;
	}
	s->measured[s->n_measured] = column;
	return s->n_measured++;
}

void model_builder_keep_measure_order(struct model_builder *b)
{
	struct model_measures *s = b && !b->failed ? measures_of(b) : NULL;
	if (s)
		s->keep_order = true;
}

/* Room for one more of the n keys and their values (`vsize` bytes each),
 * which share the capacity *cap (grown geometrically: a realloc per call
 * copied the arrays each time under ASan); false when out of memory or
 * at UINT32_MAX keys. */
static bool grow_keyed(struct key3 **keys, void **values, size_t vsize,
		       size_t *cap, size_t n)
{
	void **const arrays[] = {(void **)keys, values};
	const size_t sizes[] = {sizeof(**keys), vsize};
	return n < UINT32_MAX && array_grow_each(cap, n + 1, 2, arrays, sizes);
}

bool model_builder_set_measure(struct model_builder *b, uint32_t node,
			       uint32_t measured, uint32_t point,
			       const struct model_measure *value)
{
	if (!b || b->failed || !value || node >= b->m->n_nodes ||
	    point >= b->m->n_points || !b->m->priv->measures ||
	    measured >= b->m->priv->measures->n_measured)
		return false;
	struct model_measures *s = b->m->priv->measures;
	if (!grow_keyed(&s->keys, (void **)&s->values, sizeof(*s->values),
			&b->measures_cap, s->n)) {
		b->failed = true;
		return false;
	}
	s->keys[s->n] = (struct key3){node, measured, point, (uint32_t)s->n};
	s->values[s->n] = *value;
	s->n++;
	return true;
}

/* Free a stored model's terms without scaling.c (scaling_model_clear is
 * another module's). */
static void stored_clear(struct scaling_model *model)
{
	FREE_AND_NULL(model->terms);
	model->n_terms = 0;
}

uint32_t model_builder_add_stored_set(struct model_builder *b,
				      const char *name)
{
	if (!b || b->failed || !name)
		return MODEL_NONE;
	struct model_measures *s = measures_of(b);
	if (!s || s->n_sets == MODEL_NONE - 1)
		return MODEL_NONE;
	char *copy = strdup(name);
	char **grown = copy ? realloc(s->set_names,
				      (s->n_sets + 1) * sizeof(*grown))
			    : NULL;
	if (!grown) {
		free(copy);
		b->failed = true;
		return MODEL_NONE;
	}
	s->set_names = grown;
	s->set_names[s->n_sets] = copy;
	return s->n_sets++;
}

bool model_builder_set_stored_model(struct model_builder *b, uint32_t set,
				    uint32_t node, uint32_t measured,
				    struct scaling_model *model)
{
	if (!model)
		return false;
	struct scaling_model taken = *model;
	*model = (struct scaling_model){.kind = SCALING_CONSTANT};
	if (!b || b->failed || !b->m->priv->measures ||
	    set >= b->m->priv->measures->n_sets || node >= b->m->n_nodes ||
	    measured >= b->m->priv->measures->n_measured) {
		stored_clear(&taken);
		return false;
	}
	struct model_measures *s = b->m->priv->measures;
	if (!grow_keyed(&s->skeys, (void **)&s->models, sizeof(*s->models),
			&b->models_cap, s->n_models)) {
		stored_clear(&taken);
		b->failed = true;
		return false;
	}
	s->skeys[s->n_models] = (struct key3){set, node, measured,
					      (uint32_t)s->n_models};
	s->models[s->n_models] = taken;
	s->n_models++;
	return true;
}

/* ---- finish and free ------------------------------------------------ */

/* A key and where its value was before sorting. */
struct ksort {
	struct key3 k;
	size_t i;
};

static int cmp_ksort(const void *a, const void *b)
{
	const struct ksort *x = a, *y = b;
	int c = cmp_key3(&x->k, &y->k);
	if (c)
		return c;
	return x->k.seq < y->k.seq ? -1 : x->k.seq > y->k.seq;
}

/* Sort the n keys and their values (`vsize` bytes each) by key; of equal
 * keys the last call's (largest seq) is kept and the others' values go
 * to `drop` (when not NULL).  The number kept, or SIZE_MAX when out of
 * memory (nothing changed then). */
static size_t sort_unique(struct key3 *keys, void *values, size_t vsize,
			  size_t n, void (*drop)(void *value))
{
	if (n == 0)
		return 0;
	struct ksort *t = malloc(n * sizeof(*t));
	char *old = malloc(n * vsize);
	if (!t || !old) {
		free(t);
		free(old);
		return SIZE_MAX;
	}
	memcpy(old, values, n * vsize);
	for (size_t i = 0; i < n; i++)
		t[i] = (struct ksort){keys[i], i};
	qsort(t, n, sizeof(*t), cmp_ksort);
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		char *v = old + t[i].i * vsize;
		if (i + 1 < n && cmp_key3(&t[i].k, &t[i + 1].k) == 0) {
			if (drop)
				drop(v);
			continue;
		}
		keys[w] = t[i].k;
		memcpy((char *)values + w * vsize, v, vsize);
		w++;
	}
	free(t);
	free(old);
	return w;
}

/* A series' triples by call order: (seq, index) pairs sorted by seq. */
struct oseq {
	uint32_t seq, index;
};

static int cmp_oseq(const void *a, const void *b)
{
	const struct oseq *x = a, *y = b;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* s->order from the sorted, unique keys: per series the indices of its
 * triples ordered by their (surviving, i.e. last) call's seq.  O(n log n);
 * nothing when every series is already in point order. */
static bool order_series(struct model_measures *s)
{
	bool sorted = true;
	for (size_t i = 1; i < s->n && sorted; i++)
		if (s->keys[i].a == s->keys[i - 1].a &&
		    s->keys[i].b == s->keys[i - 1].b &&
		    s->keys[i].seq < s->keys[i - 1].seq)
			sorted = false;
	if (sorted)
		return true; /* call order = point order: no permutation */
	struct oseq *t = malloc(s->n * sizeof(*t));
	s->order = malloc(s->n * sizeof(*s->order));
	if (!t || !s->order) {
		free(t);
		FREE_AND_NULL(s->order);
		return false;
	}
	for (size_t lo = 0, hi; lo < s->n; lo = hi) {
		hi = lo + 1;
		while (hi < s->n && s->keys[hi].a == s->keys[lo].a &&
		       s->keys[hi].b == s->keys[lo].b)
			hi++;
		for (size_t i = lo; i < hi; i++)
			t[i] = (struct oseq){s->keys[i].seq, (uint32_t)i};
		qsort(t + lo, hi - lo, sizeof(*t), cmp_oseq);
		for (size_t i = lo; i < hi; i++)
			s->order[i] = t[i].index;
	}
	free(t);
	return true;
}

static void drop_stored(void *model)
{
	stored_clear(model);
}

static bool finish_measures(struct model_measures *s)
{
	size_t w = sort_unique(s->keys, s->values, sizeof(*s->values), s->n,
			       NULL);
	if (w == SIZE_MAX)
		return false;
	if (w == 0)
		return true;
	s->n = w;
	if (s->keep_order && !order_series(s))
		return false;
	/* give back the builder's slack */
	struct key3 *k = realloc(s->keys, w * sizeof(*k));
	if (k)
		s->keys = k;
	struct model_measure *v = realloc(s->values, w * sizeof(*v));
	if (v)
		s->values = v;
	return true;
}

static bool finish_models(struct model_measures *s)
{
	size_t w = sort_unique(s->skeys, s->models, sizeof(*s->models),
			       s->n_models, drop_stored);
	if (w == SIZE_MAX)
		return false;
	s->n_models = w;
	return true;
}

bool model_measures_finish(struct model *m)
{
	if (!m->priv->measures)
		return true;
	return finish_measures(m->priv->measures) &&
	       finish_models(m->priv->measures);
}

void model_measures_free(struct model *m)
{
	struct model_measures *s = m->priv->measures;
	if (!s)
		return;
	free(s->measured);
	free(s->keys);
	free(s->values);
	free(s->order);
	array_free_each(s->set_names, s->n_sets);
	for (size_t i = 0; i < s->n_models; i++)
		stored_clear(&s->models[i]);
	free(s->skeys);
	free(s->models);
	free(s);
	m->priv->measures = NULL;
}
