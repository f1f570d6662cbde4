/* otf2_tree: the call tree the OTF2 reader builds from Enter events (a call
 * path is the region and its caller's path; found through a hash of the
 * pair), the clock's conversion of ticks to nanoseconds, and the one
 * binary search of the reader's sorted arrays; the tree renumbered after the
 * index pass in the order a pass over one location after the other gives
 * (the threads' order must not show).  Must not
 * depend on curses or on ui/. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "formats/otf2/otf2_internal.h"
#include "core/array.h"

uint64_t otf2_ns(const struct otf2_run *r, uint64_t ticks)
{
	uint64_t d = ticks > r->offset ? ticks - r->offset : 0;
	uint64_t q = d / r->resolution, rem = d % r->resolution;
	if (q > UINT64_MAX / 1000000000u - 1)
		return UINT64_MAX;
	if (r->resolution > UINT64_MAX / 1000000000u)
		return q * 1000000000u +
		       (uint64_t)((double)rem * 1e9 / (double)r->resolution);
	return q * 1000000000u + rem * 1000000000u / r->resolution;
}

size_t otf2_lower_bound(const void *base, size_t n, size_t size,
			uint64_t (*key)(const void *e), uint64_t want)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key((const char *)base + mid * size) < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint32_t slot_of(uint64_t key, uint32_t n_slots)
{
	return (uint32_t)((key * 0x9E3779B97F4A7C15u) >> 32) & (n_slots - 1);
}

static uint64_t key_of(uint32_t parent, uint32_t region)
{
	return ((uint64_t)(parent + 1u) << 32) | region;
}

static bool rehash(struct otf2_tree *t)
{
	uint32_t n = t->n_slots ? t->n_slots * 2 : 1024;
	uint64_t *s = calloc(n, sizeof(*s));
	if (!s)
		return false;
	for (uint32_t i = 0; i < t->n; i++) {
		uint64_t k = key_of(t->parent[i], t->region[i]);
		uint32_t j = slot_of(k, n);
		while (s[j])
			j = (j + 1) & (n - 1);
		s[j] = i + 1u;
	}
	free(t->slots);
	t->slots = s;
	t->n_slots = n;
	return true;
}

/* Room for one more node in the tree and the run's totals. */
static bool grow(struct otf2_run *r)
{
	struct otf2_tree *t = &r->tree;
	void **const arrays[] = {(void **)&t->parent, (void **)&t->region,
				 (void **)&t->depth, (void **)&r->excl,
				 (void **)&r->visits};
	const size_t sizes[] = {sizeof(*t->parent), sizeof(*t->region),
				sizeof(*t->depth), sizeof(*r->excl),
				sizeof(*r->visits)};
	size_t cap = t->cap;
	if (t->cap >= UINT32_MAX / 2 ||
	    !array_grow_each(&cap, (size_t)t->cap + 1, 5, arrays, sizes))
		return false;
	t->cap = (uint32_t)cap;
	return true;
}

uint32_t otf2_tree_child(struct otf2_run *r, uint32_t parent, uint32_t region,
			 bool add)
{
	struct otf2_tree *t = &r->tree;
	if (add && (uint64_t)(t->n + 1) * 2 > t->n_slots && !rehash(t))
		return UINT32_MAX;
	if (t->n_slots == 0)
		return UINT32_MAX;
	uint64_t k = key_of(parent, region);
	uint32_t j = slot_of(k, t->n_slots);
	for (; t->slots[j]; j = (j + 1) & (t->n_slots - 1)) {
		uint32_t i = (uint32_t)t->slots[j] - 1u;
		if (t->parent[i] == parent && t->region[i] == region)
			return i;
	}
	if (!add || t->n >= OTF2_MAX_DEF_ID * 4u ||
	    (t->n == t->cap && !grow(r)))
		return UINT32_MAX;
	uint32_t i = t->n++;
	t->parent[i] = parent;
	t->region[i] = region;
	t->depth[i] = parent == UINT32_MAX ? 1 : t->depth[parent] + 1;
	r->excl[i] = 0;
	r->visits[i] = 0;
	t->slots[j] = i + 1u;
	return i;
}

bool otf2_tree_first_seen(struct otf2_run *r, size_t loc,
			  const uint32_t *nodes, size_t n)
{
	if (r->cap_first < r->tree.n) {
		uint32_t cap = r->tree.cap;
		uint64_t *f = realloc(r->first, (size_t)cap * sizeof(*f));
		if (!f)
			return false;
		for (uint32_t i = r->cap_first; i < cap; i++)
			f[i] = UINT64_MAX;
		r->first = f;
		r->cap_first = cap;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t key = ((uint64_t)loc << 40) | i;
		if (key < r->first[nodes[i]])
			r->first[nodes[i]] = key;
	}
	return true;
}

/* Orders node numbers by their first appearance (`key`: r->first); the
 * key is qsort_r's argument, never a file-scope pointer (two archives are
 * indexed side by side). */
static int by_first(const void *a, const void *b, void *key)
{
	const uint64_t *first = key;
	uint64_t x = first[*(const uint32_t *)a],
		 y = first[*(const uint32_t *)b];
	return (x > y) - (x < y);
}

static int by_cell(const void *a, const void *b)
{
	uint32_t x = ((const struct otf2_cell *)a)->node,
		 y = ((const struct otf2_cell *)b)->node;
	return (x > y) - (x < y);
}

/* Renumber the values kept per node: v[to[i]] = old v[i]. */
static bool permute(void *base, size_t size, const uint32_t *to, uint32_t n)
{
	if (!n)
		return true;
	char *old = malloc((size_t)n * size);
	if (!old)
		return false;
	memcpy(old, base, (size_t)n * size);
	for (uint32_t i = 0; i < n; i++)
		memcpy((char *)base + (size_t)to[i] * size,
		       old + (size_t)i * size, size);
	free(old);
	return true;
}

enum status otf2_tree_canonical(struct otf2_run *r)
{
	struct otf2_tree *t = &r->tree;
	uint32_t n = t->n, *order = malloc(((size_t)n + 1) * sizeof(*order)),
		 *to = malloc(((size_t)n + 1) * sizeof(*to));
	bool ok = order && to && r->cap_first >= n;
	for (uint32_t i = 0; ok && i < n; i++)
		order[i] = i;
	if (ok && n) /* qsort's base may not be NULL */
		qsort_r(order, n, sizeof(*order), by_first, r->first);
	for (uint32_t i = 0; ok && i < n; i++)
		to[order[i]] = i;
	for (uint32_t i = 0; ok && i < n; i++)
		if (t->parent[i] != UINT32_MAX)
			t->parent[i] = to[t->parent[i]];
	size_t k = r->n_mcolumns;
	if (ok && k && r->mvals && r->cap_mvals < n) {
		double *v = realloc(r->mvals, (size_t)n * k * sizeof(*v));
		ok = v != NULL;
		if (v) {
			memset(v + (size_t)r->cap_mvals * k, 0,
			       (size_t)(n - r->cap_mvals) * k * sizeof(*v));
			r->mvals = v;
			r->cap_mvals = n;
		}
	}
	ok = ok && permute(t->parent, sizeof(*t->parent), to, n) &&
	     permute(t->region, sizeof(*t->region), to, n) &&
	     permute(t->depth, sizeof(*t->depth), to, n) &&
	     permute(r->excl, sizeof(*r->excl), to, n) &&
	     permute(r->visits, sizeof(*r->visits), to, n) &&
	     (!k || !r->mvals ||
	      permute(r->mvals, k * sizeof(*r->mvals), to, n));
	for (size_t i = 0; ok && i < r->n_locs; i++) {
		struct otf2_location *l = &r->locs[i];
		for (size_t j = 0; j < l->n_cells; j++)
			l->cells[j].node = to[l->cells[j].node];
		if (l->n_cells)
			qsort(l->cells, l->n_cells, sizeof(*l->cells), by_cell);
		for (size_t j = 0; j < l->n_snaps; j++)
			l->snaps[j].node = to[l->snaps[j].node];
		for (size_t j = 0; j < l->n_grid; j++)
			if (l->grid[j].ctx)
				l->grid[j].ctx = to[l->grid[j].ctx - 1] + 1u;
	}
	free(order);
	free(to);
	FREE_AND_NULL(t->slots);
	t->n_slots = 0;
	while (ok && (uint64_t)(n + 1) * 2 > t->n_slots)
		ok = rehash(t);
	if (!ok)
		return error_set(r->err, STATUS_NOMEM, r->path, "out of memory");
	return STATUS_OK;
}
