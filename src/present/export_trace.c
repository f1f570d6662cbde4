/* export_trace: trace lines as nested open/close events (see the
 * header).  No curses here. */
#include "config.h"

#include "present/export_trace.h"

#include <stdlib.h>

#include "core/array.h"
#include "views/trace_index.h"

struct open_frames {
	uint32_t *ctx;
	uint64_t *end; /* intervals: when each open one ends */
	size_t n, cap, cap_end;
};

static bool push(struct open_frames *o, uint32_t ctx, uint64_t end)
{
	if (!array_grow((void **)&o->ctx, &o->cap, o->n + 1, sizeof *o->ctx) ||
	    !array_grow((void **)&o->end, &o->cap_end, o->n + 1,
			sizeof *o->end))
		return false;
	o->ctx[o->n] = ctx;
	o->end[o->n] = end;
	o->n++;
	return true;
}

static bool intervals(const struct model *m, uint32_t line,
		      const struct export_trace_ops *ops, void *ctx,
		      struct open_frames *o)
{
	const struct model_timeline *tl = &model_timelines(m)[line];
	for (uint64_t i = 0; i < tl->count; i++) {
		struct trace_interval iv;
		if (!model_interval(m, line, i, &iv))
			return false;
		while (o->n && o->end[o->n - 1] <= iv.begin) {
			if (!ops->close(ctx, o->end[o->n - 1]))
				return false;
			o->n--;
		}
		uint64_t end = iv.end > iv.begin ? iv.end : iv.begin;
		if (o->n && end > o->end[o->n - 1])
			end = o->end[o->n - 1]; /* overlapping: cut to nest */
		if (!push(o, iv.ctx_id, end) ||
		    !ops->open(ctx, iv.begin, iv.ctx_id))
			return false;
	}
	for (; o->n; o->n--)
		if (!ops->close(ctx, o->end[o->n - 1]))
			return false;
	return true;
}

/* One sample of context `c` at `t`: leave the frames it is not in, enter
 * those it is in that are not open. */
static bool sample(const struct model *m, uint64_t t, uint32_t c,
		   const struct export_trace_ops *ops, void *ctx,
		   struct open_frames *o)
{
	uint32_t depth = c ? trace_ctx_frames(m, c) : 0;
	size_t same = 0;
	while (same < o->n && same < depth &&
	       o->ctx[same] == trace_ctx_at_depth(m, c, (uint32_t)same))
		same++;
	for (; o->n > same; o->n--)
		if (!ops->close(ctx, t))
			return false;
	for (uint32_t d = (uint32_t)same; d < depth; d++) {
		uint32_t frame = trace_ctx_at_depth(m, c, d);
		if (!push(o, frame, 0) || !ops->open(ctx, t, frame))
			return false;
	}
	return true;
}

static bool samples(const struct model *m, uint32_t line,
		    const struct export_trace_ops *ops, void *ctx,
		    struct open_frames *o)
{
	const struct model_timeline *tl = &model_timelines(m)[line];
	uint64_t t = model_time_min(m);
	for (uint64_t i = 0; i < tl->count; i++) {
		uint32_t c;
		if (!trace_element_read(m, line, i, &t, &c) ||
		    !sample(m, t, c, ops, ctx, o))
			return false;
	}
	/* the last sample's frames last until the end of the trace */
	uint64_t end = model_time_max(m) > t ? model_time_max(m) : t;
	for (; o->n; o->n--)
		if (!ops->close(ctx, end))
			return false;
	return true;
}

bool export_trace_line(const struct model *m, uint32_t line,
		       const struct export_trace_ops *ops, void *ctx)
{
	struct open_frames o = {0};
	bool ok = true;
	if (line < model_n_timelines(m)) {
		if (model_timelines(m)[line].kind == TIMELINE_INTERVALS)
			ok = intervals(m, line, ops, ctx, &o);
		else if (model_timelines(m)[line].kind == TIMELINE_SAMPLES)
			ok = samples(m, line, ops, ctx, &o);
	}
	free(o.ctx);
	free(o.end);
	return ok;
}

uint8_t export_trace_group(const struct model *m)
{
	uint8_t group = TIMELINE_GROUP_NONE;
	for (uint32_t l = 0; l < model_n_timelines(m) && !group; l++)
		group = model_timelines(m)[l].group;
	return group;
}

bool export_trace_shown(const struct model *m, uint32_t line, uint8_t group)
{
	uint8_t mine = model_timelines(m)[line].group;
	return mine == TIMELINE_GROUP_NONE || mine == group;
}
