/* export_chrome: every trace line of a model as the Trace Event JSON that
 * Perfetto and chrome://tracing load (the "JSON Object Format": a
 * "traceEvents" array).  Each line is a thread of one process, named by
 * its label and kept in the model's order (GPU work once: the grouping by
 * queue or by stream that the trace pane shows first): an interval track's intervals
 * are complete events ("X", nested by their times as the track nests
 * them) and its instants thread-scoped instant events ("i"); a sample
 * line (HPCToolkit: a call path sampled over time) becomes the frames of
 * its call paths, each frame a begin/end pair ("B"/"E") from the sample
 * that enters it to the first that leaves it, as the trace pane draws
 * them at every depth; a counter line is a counter track ("C").  Times
 * are microseconds from the model's first time, written exactly to the
 * nanosecond; the first time itself is in "otherData".  Streamed: a line
 * is read element by element and nothing is kept but the open frames of
 * a sample line.  No curses here. */
#include "config.h"

#include "present/export.h"

#include <inttypes.h>
#include <stdlib.h>

#include "core/array.h"
#include "present/export_stacks.h"
#include "present/present_write.h"
#include "views/trace_index.h"

struct chrome {
	const struct model *m;
	FILE *out;
	uint64_t origin;
	bool first;
	uint32_t *open; /* a sample line's open frames (context ids) */
	size_t n_open, cap_open;
};

/* The start of one event object: {"ph":PH,"pid":1,"tid":LINE,"ts":T */
static void event_head(struct chrome *c, const char *ph, uint32_t line,
		       uint64_t t)
{
	uint64_t rel = t > c->origin ? t - c->origin : 0;
	fprintf(c->out, "%s{\"ph\":\"%s\",\"pid\":1,\"tid\":%" PRIu32
			",\"ts\":%" PRIu64 ".%03u",
		c->first ? "\n" : ",\n", ph, line, rel / 1000,
		(unsigned)(rel % 1000));
	c->first = false;
}

static bool put_string(FILE *out, const char *s)
{
	json_t *j = present_json_text(s ? s : "");
	bool ok = j && present_put_json(out, j, JSON_ENCODE_ANY);
	json_decref(j);
	return ok;
}

/* ,"name":NAME of context `ctx` (its node's frame name). */
static bool put_ctx_name(struct chrome *c, uint32_t ctx)
{
	uint32_t node = model_node_of_ctx(c->m, ctx);
	char *name = node == MODEL_NONE ? NULL : export_frame_name(c->m, node);
	fputs(",\"name\":", c->out);
	bool ok = put_string(c->out, name ? name : "<unknown context>");
	free(name);
	return ok;
}

static bool put_metadata(struct chrome *c, uint32_t line)
{
	const struct model_timeline *tl = &c->m->timelines[line];
	event_head(c, "M", line, c->origin);
	fputs(",\"name\":\"thread_name\",\"args\":{\"name\":", c->out);
	if (!put_string(c->out, model_str(c->m, tl->label)))
		return false;
	fputs("}}", c->out);
	event_head(c, "M", line, c->origin);
	fprintf(c->out, ",\"name\":\"thread_sort_index\",\"args\":"
			"{\"sort_index\":%" PRIu32 "}}",
		line);
	return true;
}

static bool put_intervals(struct chrome *c, uint32_t line)
{
	const struct model_timeline *tl = &c->m->timelines[line];
	for (uint64_t i = 0; i < tl->count; i++) {
		struct trace_interval iv;
		if (!model_interval(c->m, line, i, &iv))
			return false;
		uint64_t dur = iv.end > iv.begin ? iv.end - iv.begin : 0;
		event_head(c, "X", line, iv.begin);
		fprintf(c->out, ",\"dur\":%" PRIu64 ".%03u", dur / 1000,
			(unsigned)(dur % 1000));
		if (!put_ctx_name(c, iv.ctx_id))
			return false;
		fprintf(c->out, ",\"args\":{\"depth\":%" PRIu32 "}}", iv.depth);
	}
	for (uint64_t i = 0; i < tl->n_instants; i++) {
		struct trace_instant in;
		if (!model_instant(c->m, line, i, &in))
			return false;
		event_head(c, "i", line, in.time);
		fputs(",\"s\":\"t\",\"name\":", c->out);
		if (!put_string(c->out, model_str(c->m, in.name)))
			return false;
		fputc('}', c->out);
	}
	return !ferror(c->out);
}

static bool put_counter(struct chrome *c, uint32_t line)
{
	const struct model_timeline *tl = &c->m->timelines[line];
	for (uint64_t i = 0; i < tl->count; i++) {
		uint64_t t;
		double v;
		if (!model_counter(c->m, line, i, &t, &v))
			return false;
		event_head(c, "C", line, t);
		fputs(",\"name\":", c->out);
		if (!put_string(c->out, model_str(c->m, tl->label)))
			return false;
		fputs(",\"args\":{\"value\":", c->out);
		present_put_number(c->out, v);
		fputs("}}", c->out);
	}
	return !ferror(c->out);
}

/* Close the open frames of a sample line down to `keep` at time `t`. */
static void close_to(struct chrome *c, uint32_t line, size_t keep, uint64_t t)
{
	while (c->n_open > keep) {
		c->n_open--;
		event_head(c, "E", line, t);
		fputc('}', c->out);
	}
}

/* A sample of context `ctx` at `t`: leave the frames it is not in, enter
 * those it is in that are not open. */
static bool put_sample(struct chrome *c, uint32_t line, uint64_t t,
		       uint32_t ctx)
{
	uint32_t depth = ctx ? trace_ctx_frames(c->m, ctx) : 0;
	size_t same = 0;
	while (same < c->n_open && same < depth &&
	       c->open[same] == trace_ctx_at_depth(c->m, ctx, (uint32_t)same))
		same++;
	close_to(c, line, same, t);
	if (!array_grow((void **)&c->open, &c->cap_open, depth,
			sizeof *c->open))
		return false;
	for (uint32_t d = (uint32_t)same; d < depth; d++) {
		uint32_t frame = trace_ctx_at_depth(c->m, ctx, d);
		c->open[c->n_open++] = frame;
		event_head(c, "B", line, t);
		if (!put_ctx_name(c, frame))
			return false;
		fputc('}', c->out);
	}
	return true;
}

static bool put_samples(struct chrome *c, uint32_t line)
{
	const struct model_timeline *tl = &c->m->timelines[line];
	uint64_t t = c->origin;
	c->n_open = 0;
	for (uint64_t i = 0; i < tl->count; i++) {
		uint32_t ctx;
		if (!trace_element_read(c->m, line, i, &t, &ctx) ||
		    !put_sample(c, line, t, ctx))
			return false;
	}
	/* the last sample's frames last until the end of the trace */
	close_to(c, line, 0, c->m->time_max > t ? c->m->time_max : t);
	return !ferror(c->out);
}

enum status export_chrome_trace(const struct model *m, FILE *out,
				struct error *err)
{
	if (m->n_timelines == 0)
		return error_set(err, STATUS_NOT_FOUND, m->path,
				 "no trace lines to export");
	struct chrome c = {.m = m, .out = out, .origin = m->time_min,
			   .first = true};
	bool ok = true;
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"exporter\":"
	      "\"callscope " PACKAGE_VERSION "\",\"origin_ns\":",
	      out);
	fprintf(out, "\"%" PRIu64 "\",\"database\":", m->time_min);
	ok = put_string(out, m->path);
	fputs("},\"traceEvents\":[", out);
	/* GPU lines: the grouping the trace pane shows first (by queue or
	 * by stream, the same work twice) */
	uint8_t group = TIMELINE_GROUP_NONE;
	for (uint32_t line = 0; line < m->n_timelines && !group; line++)
		group = m->timelines[line].group;
	for (uint32_t line = 0; ok && line < m->n_timelines; line++) {
		if (m->timelines[line].group != TIMELINE_GROUP_NONE &&
		    m->timelines[line].group != group)
			continue;
		ok = put_metadata(&c, line);
		if (!ok)
			break;
		switch (m->timelines[line].kind) {
		case TIMELINE_INTERVALS:
			ok = put_intervals(&c, line);
			break;
		case TIMELINE_SAMPLES:
			ok = put_samples(&c, line);
			break;
		case TIMELINE_COUNTER:
			ok = put_counter(&c, line);
			break;
		default:
			break;
		}
	}
	fputs("\n]}\n", out);
	free(c.open);
	if (!ok) {
		struct error terr = {0};
		if (model_trace_take_error(m, &terr)) {
			if (err)
				*err = terr;
			else
				error_clear(&terr);
			return err ? err->status : STATUS_IO;
		}
		return error_set(err, STATUS_IO, m->path,
				 "cannot read or write a trace line");
	}
	return STATUS_OK;
}
