/* system_tree: the system tree from the identifier tuples, its group
 * values and its visible rows (see system_tree.h).  Built in one sort of
 * the profiles by tuple and one pass keeping the current group path; the
 * groups' values in one pass from the last node to the first (children
 * come after their parent); the rows by a depth-first walk whose sibling
 * order comes from one global sort. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/system_tree.h"
#include "model/model_values.h"

struct prof_key {
	const struct model *m;
	uint32_t profile;
};

static int cmp_id(const struct model *m, const struct model_id *u,
		  const struct model_id *w)
{
	int c = strcmp(model_str(m, u->kind_name), model_str(m, w->kind_name));
	if (c)
		return c;
	if (u->kind != w->kind)
		return u->kind < w->kind ? -1 : 1;
	return u->logical_id < w->logical_id ? -1 : u->logical_id > w->logical_id;
}

static int by_tuple(const void *a, const void *b)
{
	const struct prof_key *x = a, *y = b;
	const struct model *m = x->m;
	const struct model_profile *p = &model_profiles(m)[x->profile];
	const struct model_profile *q = &model_profiles(m)[y->profile];
	for (uint32_t i = 0; i < p->n_ids && i < q->n_ids; i++) {
		int c = cmp_id(m, &model_ids(m)[p->first_id + i],
			       &model_ids(m)[q->first_id + i]);
		if (c)
			return c;
	}
	if (p->n_ids != q->n_ids)
		return p->n_ids < q->n_ids ? -1 : 1;
	return x->profile < y->profile ? -1 : x->profile > y->profile;
}

/* Append a node under `parent` (SYSTREE_NONE: the top); `last` holds each
 * node's last child so far (and last[n] the top's). */
static uint32_t append(struct systree *t, uint32_t *last, uint32_t top_slot,
		       uint32_t parent, uint32_t profile, uint32_t id)
{
	uint32_t i = t->n++;
	uint32_t level = parent == SYSTREE_NONE ? 0 : t->nodes[parent].level + 1;
	t->nodes[i] = (struct systree_node){
		.parent = parent,
		.first_child = SYSTREE_NONE,
		.next_sibling = SYSTREE_NONE,
		.profile = profile,
		.level = level,
		.id = id,
		.n_leaves = 0,
	};
	last[i] = SYSTREE_NONE;
	uint32_t slot = parent == SYSTREE_NONE ? top_slot : parent;
	if (last[slot] == SYSTREE_NONE) {
		if (parent != SYSTREE_NONE)
			t->nodes[parent].first_child = i;
	} else {
		t->nodes[last[slot]].next_sibling = i;
	}
	last[slot] = i;
	return i;
}

/* Place the profiles of `keys` (sorted) under their groups. */
static void place(struct systree *t, const struct prof_key *keys, uint32_t nk,
		  uint32_t *last, uint32_t top_slot, uint32_t *path)
{
	const struct model *m = keys ? keys[0].m : NULL;
	uint32_t depth = 0; /* groups on the current path */
	for (uint32_t k = 0; k < nk; k++) {
		const struct model_profile *p = &model_profiles(m)[keys[k].profile];
		uint32_t ng = p->n_ids ? p->n_ids - 1 : 0;
		uint32_t same = 0;
		while (same < depth && same < ng &&
		       cmp_id(m, &model_ids(m)[t->nodes[path[same]].id],
			      &model_ids(m)[p->first_id + same]) == 0)
			same++;
		depth = same;
		for (; depth < ng; depth++)
			path[depth] = append(t, last, top_slot,
					     depth ? path[depth - 1]
						   : SYSTREE_NONE,
					     SYSTREE_NONE, p->first_id + depth);
		append(t, last, top_slot, depth ? path[depth - 1] : SYSTREE_NONE,
		       keys[k].profile, SYSTREE_NONE);
		for (uint32_t d = 0; d < depth; d++)
			t->nodes[path[d]].n_leaves++;
	}
}

enum status systree_build(const struct model *m, struct systree *out,
			  struct error *err)
{
	*out = (struct systree){0};
	uint32_t nk = 0, max_ids = 0;
	size_t bound = 0; /* nodes at most: a leaf and its groups */
	for (uint32_t i = 0; i < model_n_profiles(m); i++)
		if (!model_profiles(m)[i].is_summary) {
			nk++;
			uint32_t n = model_profiles(m)[i].n_ids;
			bound += n ? n : 1;
			if (n > max_ids)
				max_ids = n;
		}
	if (nk == 0)
		return STATUS_OK;
	if (bound >= UINT32_MAX)
		return error_set(err, STATUS_NOMEM, NULL, "system tree too large");
	struct prof_key *keys = malloc(nk * sizeof(*keys));
	uint32_t *last = malloc((bound + 1) * sizeof(*last));
	uint32_t *path = malloc((max_ids + 1) * sizeof(*path));
	out->nodes = malloc(bound * sizeof(*out->nodes));
	if (!keys || !last || !path || !out->nodes) {
		free(keys);
		free(last);
		free(path);
		systree_free(out);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	nk = 0;
	for (uint32_t i = 0; i < model_n_profiles(m); i++)
		if (!model_profiles(m)[i].is_summary)
			keys[nk++] = (struct prof_key){m, i};
	qsort(keys, nk, sizeof(*keys), by_tuple);
	uint32_t top_slot = (uint32_t)bound;
	last[top_slot] = SYSTREE_NONE;
	place(out, keys, nk, last, top_slot, path);
	out->n_leaves = nk;
	out->n_groups = out->n - nk;
	for (uint32_t i = 0; i < out->n; i++)
		if (out->nodes[i].profile != SYSTREE_NONE)
			out->nodes[i].n_leaves = 1;
	free(keys);
	free(last);
	free(path);
	return STATUS_OK;
}

void systree_free(struct systree *t)
{
	free(t->nodes);
	*t = (struct systree){0};
}

void systree_aggregate(const struct systree *t, const double *by_profile,
		       uint32_t n_profiles, enum stat_combine combine,
		       double *out)
{
	for (uint32_t i = t->n; i-- > 0;) {
		const struct systree_node *nd = &t->nodes[i];
		if (nd->first_child == SYSTREE_NONE) {
			out[i] = nd->profile < n_profiles ? by_profile[nd->profile]
							  : 0;
			continue;
		}
		uint32_t c = nd->first_child;
		double v = out[c];
		for (c = t->nodes[c].next_sibling; c != SYSTREE_NONE;
		     c = t->nodes[c].next_sibling) {
			double w = out[c];
			if (combine == COMBINE_MIN)
				v = w < v ? w : v;
			else if (combine == COMBINE_MAX)
				v = w > v ? w : v;
			else
				v += w;
		}
		out[i] = v;
	}
}

bool systree_aggregate_own(const struct model *m, uint32_t stat,
			   const struct systree *t, const double *by_profile,
			   uint32_t n_profiles, double *out)
{
	double probe;
	if (!model_combine_profiles(m, stat, NULL, 0, &probe))
		return false;
	double *vals = malloc(((size_t)t->n + 1) * sizeof(*vals));
	if (!vals)
		return false;
	for (uint32_t i = 0; i < t->n; i++) {
		const struct systree_node *nd = &t->nodes[i];
		size_t k = 0;
		/* preorder: the subtree is the run of deeper nodes after i */
		for (uint32_t j = i; j < t->n &&
				     (j == i || t->nodes[j].level > nd->level);
		     j++) {
			uint32_t p = t->nodes[j].profile;
			if (t->nodes[j].first_child == SYSTREE_NONE)
				vals[k++] = p < n_profiles ? by_profile[p] : 0;
		}
		if (nd->first_child == SYSTREE_NONE)
			out[i] = k ? vals[0] : 0;
		else
			model_combine_profiles(m, stat, vals, k, &out[i]);
	}
	free(vals);
	return true;
}

char *systree_label(const struct model *m, const struct systree *t,
		    uint32_t i)
{
	const struct systree_node *nd = &t->nodes[i];
	if (nd->profile != SYSTREE_NONE)
		return strdup(model_str(m, model_profiles(m)[nd->profile].label));
	const struct model_id *id = &model_ids(m)[nd->id];
	const char *name = model_str(m, id->name);
	if (name[strspn(name, " \t\n\r")])
		return strdup(name);
	const char *kn = model_str(m, id->kind_name);
	char *s = NULL;
	int r = *kn ? asprintf(&s, "%s %" PRIu32, kn, id->logical_id)
		    : asprintf(&s, "KIND%u %" PRIu32, (unsigned)id->kind,
			       id->logical_id);
	return r < 0 ? NULL : s;
}

struct by_val {
	double v;
	uint32_t i;
};

static int by_value_desc(const void *a, const void *b)
{
	const struct by_val *x = a, *y = b;
	/* a group without a value (NaN: a reader's combination that has
	 * none, Cube's SCALE_FUNC codes) after those with one */
	bool xn = isnan(x->v), yn = isnan(y->v);
	if (xn != yn)
		return xn ? 1 : -1;
	if (!xn && x->v != y->v)
		return x->v < y->v ? 1 : -1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The sibling order: next[i] after i, first[i] i's first child (first[n]
 * the top's first); by value when `values`, else tuple order. */
static bool sibling_order(const struct systree *t, const double *values,
			  uint32_t *first, uint32_t *next)
{
	uint32_t n = t->n;
	uint32_t *tail = malloc((n + 1) * sizeof(*tail));
	struct by_val *o = values ? malloc(n * sizeof(*o)) : NULL;
	if (!tail || (values && !o)) {
		free(tail);
		free(o);
		return false;
	}
	for (uint32_t i = 0; i <= n; i++)
		first[i] = tail[i] = SYSTREE_NONE;
	for (uint32_t k = 0; k < n; k++) {
		if (o)
			o[k] = (struct by_val){values[k], k};
	}
	if (o)
		qsort(o, n, sizeof(*o), by_value_desc);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = o ? o[k].i : k;
		uint32_t p = t->nodes[i].parent;
		uint32_t slot = p == SYSTREE_NONE ? n : p;
		next[i] = SYSTREE_NONE;
		if (tail[slot] == SYSTREE_NONE)
			first[slot] = i;
		else
			next[tail[slot]] = i;
		tail[slot] = i;
	}
	free(tail);
	free(o);
	return true;
}

size_t systree_visible(const struct systree *t, const uint8_t *expanded,
		       const double *values, bool by_value, uint32_t *rows)
{
	uint32_t n = t->n;
	if (n == 0)
		return 0;
	uint32_t *first = malloc((n + 1) * sizeof(*first));
	uint32_t *next = malloc(n * sizeof(*next));
	uint32_t *stack = malloc(n * sizeof(*stack));
	size_t count = SIZE_MAX;
	if (first && next && stack &&
	    sibling_order(t, by_value ? values : NULL, first, next)) {
		/* depth first: a node, then (expanded) its children, then
		 * its next sibling; the stack holds the siblings to come */
		size_t sp = 0;
		count = 0;
		uint32_t i = first[n];
		while (i != SYSTREE_NONE) {
			rows[count++] = i;
			uint32_t after = next[i];
			if (expanded && expanded[i] && first[i] != SYSTREE_NONE) {
				if (after != SYSTREE_NONE)
					stack[sp++] = after;
				i = first[i];
				continue;
			}
			i = after;
			if (i == SYSTREE_NONE && sp > 0)
				i = stack[--sp];
		}
	}
	free(first);
	free(next);
	free(stack);
	return count;
}

uint32_t systree_leaf_of(const struct systree *t, uint32_t profile)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (t->nodes[i].profile == profile)
			return i;
	return SYSTREE_NONE;
}
