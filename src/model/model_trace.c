/* model_trace: the model's accessors for timelines that are not sample
 * lines: nested intervals with attributes read on demand (rocpd, Nsight
 * kernels, copies, API calls, NVTX ranges) and their instants (marks),
 * counter lines of (time,
 * value) pairs, and the builder call that declares a counter line.  Every
 * element is asked of the reader's trace_ops when needed; nothing here
 * reads a whole line.  Must not depend on curses, on ui/ or on any
 * reader. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"
#include "core/check.h"

#include <stdlib.h>
#include <string.h>

enum status model_kv_pack(const struct model_kv *kv, size_t n,
			  struct model_kv **out, struct error *err)
{
	*out = NULL;
	if (n == 0)
		return STATUS_OK;
	if (!kv)
		return error_set(err, STATUS_USAGE, NULL, "no attributes");
	size_t bytes = n * sizeof(*kv);
	if (bytes / sizeof(*kv) != n)
		goto nomem;
	for (size_t i = 0; i < n; i++) {
		if (!kv[i].key)
			return error_set(err, STATUS_USAGE, NULL,
					 "attribute %zu has no key", i);
		size_t k = strlen(kv[i].key) + 1;
		size_t t = (kv[i].text ? strlen(kv[i].text) : 0) + 1;
		if (k > SIZE_MAX - bytes || t > SIZE_MAX - bytes - k)
			goto nomem;
		bytes += k + t;
	}
	struct model_kv *block = malloc(bytes);
	if (!block)
		goto nomem;
	char *p = (char *)(block + n);
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(kv[i].key) + 1;
		const char *text = kv[i].text ? kv[i].text : "";
		size_t t = strlen(text) + 1;
		block[i] = (struct model_kv){
			.key = memcpy(p, kv[i].key, k),
			.text = memcpy(p + k, text, t),
			.number = kv[i].number,
			.is_number = kv[i].is_number,
		};
		p += k + t;
	}
	*out = block;
	return STATUS_OK;
nomem:
	return error_set(err, STATUS_NOMEM, NULL, "out of memory");
}

static bool line_is(const struct model *m, uint32_t line, uint8_t kind)
{
	return m && m->priv->trace_ops && line < m->n_timelines &&
	       m->timelines[line].kind == kind;
}

uint32_t model_trace_prepare(const struct model *m,
			     bool (*progress)(void *ctx, uint32_t done,
					      uint32_t total),
			     void *ctx)
{
	if (!m || !m->priv->trace_ops || !m->priv->trace_ops->prepare)
		return 0;
	return m->priv->trace_ops->prepare(m->priv->trace_impl, progress, ctx);
}

bool model_sample(const struct model *m, uint32_t line, uint64_t index,
		  struct trace_sample *out)
{
	return line_is(m, line, TIMELINE_SAMPLES) &&
	       index < m->timelines[line].count && m->priv->trace_ops->sample &&
	       m->priv->trace_ops->sample(m->priv->trace_impl, line, index,
					  out);
}

bool model_interval(const struct model *m, uint32_t line, uint64_t index,
		    struct trace_interval *out)
{
	return line_is(m, line, TIMELINE_INTERVALS) &&
	       index < m->timelines[line].count &&
	       m->priv->trace_ops->interval &&
	       m->priv->trace_ops->interval(m->priv->trace_impl, line, index,
					    out);
}

bool model_interval_near(const struct model *m, uint32_t line, uint64_t t,
			 uint64_t span, uint32_t *ctx_id)
{
	const struct trace_ops *o = m ? m->priv->trace_ops : NULL;
	return o && o->near && span && line < m->n_timelines &&
	       m->timelines[line].kind == TIMELINE_INTERVALS &&
	       o->near(m->priv->trace_impl, line, t, span, ctx_id);
}

bool model_counter_near(const struct model *m, uint32_t line, uint64_t t,
			uint64_t span, double *value, uint64_t *index)
{
	const struct trace_ops *o = m ? m->priv->trace_ops : NULL;
	return o && o->counter_near && span && line < m->n_timelines &&
	       m->timelines[line].kind == TIMELINE_COUNTER &&
	       o->counter_near(m->priv->trace_impl, line, t, span, value,
			       index);
}

const char *model_trace_link_noun(const struct model *m)
{
	return m->priv->trace_ops ? m->priv->trace_ops->link_noun : NULL;
}

bool model_interval_linked(const struct model *m, uint32_t line,
			   uint64_t index, uint32_t nth, uint32_t *to_line,
			   uint64_t *to_index)
{
	uint32_t tl;
	uint64_t ti;
	if (!line_is(m, line, TIMELINE_INTERVALS) ||
	    index >= m->timelines[line].count || !m->priv->trace_ops->linked ||
	    !m->priv->trace_ops->linked(m->priv->trace_impl, line, index, nth,
					&tl, &ti) ||
	    !line_is(m, tl, TIMELINE_INTERVALS) || ti >= m->timelines[tl].count)
		return false;
	*to_line = tl;
	*to_index = ti;
	return true;
}

enum status model_event_detail(const struct model *m, uint32_t line,
			       uint64_t event, struct model_kv **out,
			       size_t *n, struct error *err)
{
	*out = NULL;
	*n = 0;
	if (!m || line >= m->n_timelines ||
	    m->timelines[line].kind != TIMELINE_INTERVALS)
		return error_set(err, STATUS_USAGE, m ? m->path : NULL,
				 "line %u is not an interval track",
				 (unsigned)line);
	if (event == MODEL_EVENT_NONE)
		return STATUS_OK;
	if (!m->priv->trace_ops || !m->priv->trace_ops->event_detail)
		return error_set(err, STATUS_UNSUPPORTED, m->path,
				 "the database has no event attributes");
	enum status st = m->priv->trace_ops->event_detail(
	    m->priv->trace_impl, line, event, out, n, err);
	if (st != STATUS_OK) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return st;
}

bool model_counter(const struct model *m, uint32_t line, uint64_t index,
		   uint64_t *time, double *value)
{
	return line_is(m, line, TIMELINE_COUNTER) &&
	       index < m->timelines[line].count &&
	       m->priv->trace_ops->counter &&
	       m->priv->trace_ops->counter(m->priv->trace_impl, line, index,
					   time, value);
}

bool model_counter_at(const struct model *m, uint32_t line, uint64_t t,
		      uint64_t *index)
{
	if (!line_is(m, line, TIMELINE_COUNTER))
		return false;
	/* first value later than t; the answer is the one before it */
	uint64_t lo = 0, hi = m->timelines[line].count;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2, time;
		double v;
		if (!model_counter(m, line, mid, &time, &v))
			return false;
		if (time <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	CHECK(lo == hi && lo <= m->timelines[line].count);
	if (lo == 0)
		return false;
	*index = lo - 1;
	return true;
}

bool model_instant(const struct model *m, uint32_t line, uint64_t index,
		   struct trace_instant *out)
{
	return line_is(m, line, TIMELINE_INTERVALS) &&
	       index < m->timelines[line].n_instants &&
	       m->priv->trace_ops->instant &&
	       m->priv->trace_ops->instant(m->priv->trace_impl, line, index,
					   out);
}

bool model_instant_from(const struct model *m, uint32_t line, uint64_t t,
			uint64_t *index)
{
	if (!line_is(m, line, TIMELINE_INTERVALS) ||
	    m->timelines[line].n_instants == 0)
		return false;
	uint64_t lo = 0, hi = m->timelines[line].n_instants;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		struct trace_instant in;
		if (!model_instant(m, line, mid, &in))
			return false;
		if (in.time < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	CHECK(lo == hi && lo <= m->timelines[line].n_instants);
	if (lo == m->timelines[line].n_instants)
		return false;
	*index = lo;
	return true;
}
