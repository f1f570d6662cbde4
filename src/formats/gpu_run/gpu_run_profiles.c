/* gpu_run_profiles: a GPU run's values per execution context (the
 * threads pane's list): a kernel's or copy's GPU time and calls per queue
 * it ran on, any other value on the node's thread, and the inclusive
 * values the engine derives summed the same way over a subtree.  The
 * pieces sum to the node's value (a kernel's time is the queue's, not also
 * its launching thread's).  Depends on the run (gpu_run_internal.h)
 * only. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "formats/gpu_run/gpu_run.h"
#include "formats/gpu_run/gpu_run_internal.h"

/* Values per profile, sorted by profile (insertion: a run has a few
 * threads and queues); per entry the last node that added to it, + 1. */
struct per_profile {
	struct profile_value *v;
	uint32_t *node;
	size_t n, cap;
};

/* The entry of `profile`: its index, or where it goes (*found false). */
static size_t pp_find(const struct per_profile *pp, uint32_t profile,
		      bool *found)
{
	size_t lo = 0, hi = pp->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pp->v[mid].profile < profile)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < pp->n && pp->v[lo].profile == profile;
	return lo;
}

/* Adds v to `profile`'s entry for node `node`. */
static bool pp_add(struct per_profile *pp, uint32_t profile, double v,
		   uint32_t node)
{
	bool found;
	size_t at = pp_find(pp, profile, &found);
	if (found) {
		pp->v[at].value += v;
		pp->node[at] = node + 1;
		return true;
	}
	void **const arrays[] = {(void **)&pp->v, (void **)&pp->node};
	const size_t sizes[] = {sizeof(*pp->v), sizeof(*pp->node)};
	if (!array_grow_each(&pp->cap, pp->n + 1, 2, arrays, sizes))
		return false;
	memmove(pp->v + at + 1, pp->v + at, (pp->n - at) * sizeof(*pp->v));
	memmove(pp->node + at + 1, pp->node + at,
		(pp->n - at) * sizeof(*pp->node));
	pp->v[at] = (struct profile_value){profile, v};
	pp->node[at] = node + 1;
	pp->n++;
	return true;
}

/* Whether node `node` already added to `profile` (a queue profile on
 * several lines, one per grouping, counts once). */
static bool pp_taken(const struct per_profile *pp, uint32_t profile,
		     uint32_t node)
{
	bool found;
	size_t at = pp_find(pp, profile, &found);
	return found && pp->node[at] == node + 1;
}

/* Node n's exclusive value of `prop` added per profile. */
static bool add_node(const struct gpu_run *r, uint32_t n, uint32_t prop,
		     struct per_profile *pp)
{
	double v;
	if (!gpu_run_node_value(r, n, prop, &v))
		return true;
	double rest = v;
	if (prop == STAT_GPU || prop == STAT_CALLS)
		for (uint32_t i = 0; i < r->n_lines; i++) {
			const struct gpu_run_line *l = &r->lines[i];
			uint32_t slot;
			if (l->kind != GPU_RUN_LINE_QUEUE ||
			    l->profile == MODEL_NONE ||
			    !gpu_run_map_get(&r->queue_split,
					     (uint64_t)n << 32 | l->profile,
					     &slot) ||
			    pp_taken(pp, l->profile, n))
				continue;
			double q = prop == STAT_GPU ? r->split_gpu[slot]
						    : r->split_calls[slot];
			if (!pp_add(pp, l->profile, q, n))
				return false;
			rest -= q;
		}
	/* what no queue took: the node's thread's (all of it but for GPU
	 * work; a rounding residue of the queues' sum is not a value) */
	if (rest != 0 && fabs(rest) > 1e-9 * fabs(v) &&
	    r->profile[n] != MODEL_NONE)
		return pp_add(pp, r->profile[n], rest, n);
	return true;
}

enum status gpu_run_per_profile(void *impl, uint32_t ctx_id, uint32_t prop_id,
				struct profile_value **out, size_t *n,
				struct error *err)
{
	struct gpu_run *r = impl;
	struct per_profile pp = {0};
	bool incl = prop_id & GPU_RUN_PROP_INCL, ok = true;
	uint32_t prop = prop_id & ~GPU_RUN_PROP_INCL;
	*out = NULL;
	*n = 0;
	if (ctx_id >= r->n_nodes)
		return STATUS_OK;
	if (!incl)
		ok = add_node(r, ctx_id, prop, &pp);
	else {
		/* the subtree: a child's index is larger than its parent's */
		uint8_t *in = calloc(r->n_nodes - ctx_id, 1);
		ok = in != NULL;
		for (uint32_t k = ctx_id; ok && k < r->n_nodes; k++) {
			uint32_t p = r->parent[k];
			in[k - ctx_id] = k == ctx_id ||
					 (p != MODEL_NONE && p >= ctx_id &&
					  p < k && in[p - ctx_id]);
			if (in[k - ctx_id])
				ok = add_node(r, k, prop, &pp);
		}
		free(in);
	}
	free(pp.node);
	if (!ok) {
		free(pp.v);
		return error_set(err, STATUS_NOMEM, r->path, "out of memory");
	}
	*out = pp.v;
	*n = pp.n;
	return STATUS_OK;
}
