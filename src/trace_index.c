/* trace_index: binary searches over lazily read trace samples.  Depends on
 * the model only. */
#include "trace_index.h"

static bool read_sample(const struct model *m, uint32_t line, uint64_t i,
			struct trace_sample *s)
{
	return m->trace_ops && m->trace_ops->sample &&
	       m->trace_ops->sample(m->trace_impl, line, i, s);
}

/* Last index in [lo, hi) whose time <= t, searching only that range;
 * returns hi when none (the caller passes a range known to hold the
 * answer or nothing). */
static bool search(const struct model *m, uint32_t line, uint64_t lo,
		   uint64_t hi, uint64_t t, uint64_t *index)
{
	/* invariant: samples before lo are <= t (or lo is the start), samples
	 * at or after hi are > t */
	uint64_t first = lo;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		struct trace_sample s;
		if (!read_sample(m, line, mid, &s))
			return false;
		if (s.time <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == first)
		return false;
	*index = lo - 1;
	return true;
}

bool trace_sample_at(const struct model *m, uint32_t line, uint64_t t,
		     struct trace_sample *out, uint64_t *index)
{
	if (!m || line >= m->n_timelines ||
	    m->timelines[line].kind != TIMELINE_SAMPLES)
		return false;
	uint64_t i;
	if (!search(m, line, 0, m->timelines[line].count, t, &i))
		return false;
	if (!read_sample(m, line, i, out))
		return false;
	if (index)
		*index = i;
	return true;
}

uint32_t trace_ctx_at_depth(const struct model *m, uint32_t ctx_id,
			    uint32_t depth)
{
	if (ctx_id == 0)
		return 0;
	uint32_t node = model_node_of_ctx(m, ctx_id);
	if (node == MODEL_NONE)
		return 0;
	/* count the frames above (and including) node */
	uint32_t frames = 0, innermost = MODEL_NONE;
	for (uint32_t n = node; n != MODEL_NONE && n != 0;
	     n = m->nodes[n].parent) {
		uint8_t k = m->nodes[n].kind;
		if (k == NODE_ENTRY || k == NODE_FUNCTION || k == NODE_KERNEL) {
			if (innermost == MODEL_NONE)
				innermost = n;
			frames++;
		}
	}
	if (frames == 0)
		return ctx_id;
	if (depth >= frames - 1)
		return m->nodes[innermost].ctx_id;
	/* frame number `depth` from the outermost = (frames-1-depth)-th
	 * frame from the innermost */
	uint32_t skip = frames - 1 - depth;
	for (uint32_t n = innermost; n != MODEL_NONE && n != 0;
	     n = m->nodes[n].parent) {
		uint8_t k = m->nodes[n].kind;
		if (k == NODE_ENTRY || k == NODE_FUNCTION || k == NODE_KERNEL) {
			if (skip == 0)
				return m->nodes[n].ctx_id;
			skip--;
		}
	}
	return ctx_id;
}

uint64_t trace_cell_time(uint64_t from, uint64_t to, uint32_t columns,
			 uint32_t k)
{
	if (columns == 0 || to <= from)
		return from;
	unsigned __int128 span = (unsigned __int128)(to - from) * k / columns;
	return from + (uint64_t)span;
}

/* Like search() over [lo, count), for a `t` expected near `lo`: gallop
 * forward (lo, lo+1, lo+3, lo+7, ...) until a sample is later than `t`,
 * then binary-search the last step.  Touches O(log distance) samples, all
 * close to the previous answer, instead of O(log count) spread over the
 * whole line: a window of cells reads only the pages it draws. */
static bool search_near(const struct model *m, uint32_t line, uint64_t lo,
			uint64_t count, uint64_t t, uint64_t *index)
{
	uint64_t base = lo, step = 1, hi = lo;
	while (hi < count) {
		struct trace_sample s;
		if (!read_sample(m, line, hi, &s))
			return false;
		if (s.time > t)
			break;
		base = hi + 1;
		hi = step > count - hi ? count : hi + step;
		step *= 2;
	}
	if (hi > count)
		hi = count;
	uint64_t i;
	if (search(m, line, base, hi, t, &i)) {
		*index = i;
		return true;
	}
	if (base > lo) {
		*index = base - 1;
		return true;
	}
	return false;
}

void trace_cells(const struct model *m, uint32_t line, uint64_t from,
		 uint64_t to, uint32_t columns, uint32_t depth,
		 uint32_t *cells)
{
	uint64_t count = line < m->n_timelines ? m->timelines[line].count : 0;
	uint64_t lo = 0;
	bool have = false;
	for (uint32_t k = 0; k < columns; k++) {
		uint64_t t = trace_cell_time(from, to, columns, k);
		uint64_t i = 0;
		struct trace_sample s;
		cells[k] = 0;
		/* cell times increase, so the answer is at or after the
		 * previous one: the first cell binary-searches the line, the
		 * others gallop from the previous answer */
		bool found = have ? search_near(m, line, lo, count, t, &i)
				  : search(m, line, 0, count, t, &i);
		if (!found) {
			if (!have)
				continue;
			i = lo;
		}
		if (!read_sample(m, line, i, &s))
			continue;
		have = true;
		lo = i;
		cells[k] = depth == UINT32_MAX
				   ? s.ctx_id
				   : trace_ctx_at_depth(m, s.ctx_id, depth);
	}
}
