/* gpu_run_nest: host intervals nested by time containment, for the
 * layouts whose files do not link a call to the call it is in (Nsight's
 * NVTX ranges, CUDA and OS runtime calls; .rpd API calls and roctx
 * ranges): the stack of a thread's enclosing intervals while its
 * intervals are walked in (start, end descending) order, and what one
 * host interval adds to the run; the context of a mark among them.  Part of the gpu_run library (see
 * gpu_run.h); must not depend on curses or on ui/. */
#include "config.h"

#include <stdlib.h>

#include "core/array.h"
#include "formats/gpu_run/gpu_run.h"

uint32_t gpu_run_nest_parent(struct gpu_run_nest *n, int64_t start,
			     int64_t end, uint32_t outer)
{
	while (n->depth > 0 && !(start >= n->v[n->depth - 1].start &&
				 end <= n->v[n->depth - 1].end))
		n->depth--;
	return n->depth ? n->v[n->depth - 1].node : outer;
}

uint32_t gpu_run_nest_at(struct gpu_run_nest *n, int64_t t, uint32_t outer)
{
	(void)gpu_run_nest_parent(n, t, t, outer);
	/* the frames left hold t closed; skip those that end at t */
	for (size_t d = n->depth; d > 0; d--)
		if (t < n->v[d - 1].end)
			return n->v[d - 1].node;
	return outer;
}

bool gpu_run_nest_push(struct gpu_run_nest *n, int64_t start, int64_t end,
		       uint32_t node)
{
	if (!array_grow((void **)&n->v, &n->cap, n->depth + 1, sizeof(*n->v)))
		return false;
	n->v[n->depth++] = (struct gpu_run_nest_frame){start, end, node};
	return true;
}

void gpu_run_nest_free(struct gpu_run_nest *n)
{
	free(n->v);
	*n = (struct gpu_run_nest){0};
}

bool gpu_run_host_interval(struct gpu_run *r, uint32_t node,
			   uint32_t parent_region, uint32_t line,
			   int64_t start, int64_t end, uint64_t event,
			   uint64_t link)
{
	gpu_run_add_api(r, node, parent_region, (uint64_t)(end - start));
	gpu_run_time_seen(r, (uint64_t)start, (uint64_t)end);
	return line != MODEL_NONE &&
	       gpu_run_line_add(r, line, (uint64_t)start, (uint64_t)end, node,
				event, link);
}
