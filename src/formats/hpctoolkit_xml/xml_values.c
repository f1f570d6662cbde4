/* xml_values: the inline metric values of an experiment.xml as one sorted
 * table.  Keys are (context id << 32 | metric id); the values live in a
 * parallel array so that a binary search touches only keys.  Must not
 * depend on expat, on the model or on curses. */
#include "config.h"

#include "formats/hpctoolkit_xml/xml_values.h"

#include <stdlib.h>
#include <string.h>

#include "core/array.h"

struct entry {
	uint64_t key;
	double value;
	size_t order; /* insertion order: the last duplicate wins */
};

struct xml_values {
	struct entry *entries;
	size_t n, cap;
	uint64_t *keys;    /* sealed: sorted, unique */
	double *values;
	size_t n_sealed;
	uint64_t *metrics; /* sealed: distinct metric ids, sorted */
	size_t n_metrics;
};

struct xml_values *xml_values_new(void)
{
	return calloc(1, sizeof(struct xml_values));
}

bool xml_values_add(struct xml_values *v, uint32_t ctx, uint32_t metric,
		    double value)
{
	if (!array_grow((void **)&v->entries, &v->cap, v->n + 1,
			sizeof(*v->entries)))
		return false;
	v->entries[v->n] = (struct entry){
		.key = (uint64_t)ctx << 32 | metric,
		.value = value,
		.order = v->n,
	};
	v->n++;
	return true;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

bool xml_values_seal(struct xml_values *v)
{
	if (!v || v->keys || v->n == 0)
		return true;
	qsort(v->entries, v->n, sizeof(*v->entries), cmp_entry);
	v->keys = malloc(v->n * sizeof(*v->keys));
	v->values = malloc(v->n * sizeof(*v->values));
	v->metrics = malloc(v->n * sizeof(*v->metrics));
	if (!v->keys || !v->values || !v->metrics) {
		FREE_AND_NULL(v->keys);
		FREE_AND_NULL(v->values);
		FREE_AND_NULL(v->metrics);
		return false;
	}
	size_t k = 0;
	for (size_t i = 0; i < v->n; i++) {
		if (k > 0 && v->keys[k - 1] == v->entries[i].key) {
			v->values[k - 1] = v->entries[i].value;
			continue;
		}
		v->keys[k] = v->entries[i].key;
		v->values[k] = v->entries[i].value;
		v->metrics[k] = (uint32_t)v->entries[i].key;
		k++;
	}
	v->n_sealed = k;
	qsort(v->metrics, k, sizeof(*v->metrics), array_cmp_u64);
	size_t m = 0;
	for (size_t i = 0; i < k; i++)
		if (m == 0 || v->metrics[m - 1] != v->metrics[i])
			v->metrics[m++] = v->metrics[i];
	v->n_metrics = m;
	FREE_AND_NULL(v->entries);
	v->n = 0;
	v->cap = 0;
	return true;
}

size_t xml_values_count(const struct xml_values *v)
{
	return v ? v->n_sealed + v->n : 0;
}

static size_t lower_bound(const uint64_t *a, size_t n, uint64_t key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool xml_values_get(const struct xml_values *v, uint32_t ctx, uint32_t metric,
		    double *out)
{
	if (!v || !v->keys)
		return false;
	uint64_t key = (uint64_t)ctx << 32 | metric;
	size_t i = lower_bound(v->keys, v->n_sealed, key);
	if (i == v->n_sealed || v->keys[i] != key)
		return false;
	*out = v->values[i];
	return true;
}

void xml_values_each(const struct xml_values *v, uint32_t metric,
		     void (*emit)(void *ctx, uint32_t ctx_id, double value),
		     void *arg)
{
	if (!v || !v->keys)
		return;
	for (size_t i = 0; i < v->n_sealed; i++)
		if ((uint32_t)v->keys[i] == metric)
			emit(arg, (uint32_t)(v->keys[i] >> 32), v->values[i]);
}

bool xml_values_has_metric(const struct xml_values *v, uint32_t metric)
{
	if (!v || !v->metrics)
		return false;
	size_t i = lower_bound(v->metrics, v->n_metrics, metric);
	return i < v->n_metrics && v->metrics[i] == metric;
}

void xml_values_free(struct xml_values *v)
{
	if (!v)
		return;
	free(v->entries);
	free(v->keys);
	free(v->values);
	free(v->metrics);
	free(v);
}
