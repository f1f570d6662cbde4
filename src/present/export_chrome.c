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

#include "present/export_stacks.h"
#include "present/export_trace.h"
#include "present/present_write.h"

struct chrome {
	const struct model *m;
	FILE *out;
	uint64_t origin;
	bool first;
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
	const struct model_timeline *tl = &model_timelines(c->m)[line];
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
	const struct model_timeline *tl = &model_timelines(c->m)[line];
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
	const struct model_timeline *tl = &model_timelines(c->m)[line];
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

/* A sample line's frames as begin/end pairs (export_trace). */
struct chrome_line {
	struct chrome *c;
	uint32_t line;
};

static bool chrome_open(void *ctx, uint64_t t, uint32_t ctx_id)
{
	struct chrome_line *cl = ctx;
	event_head(cl->c, "B", cl->line, t);
	if (!put_ctx_name(cl->c, ctx_id))
		return false;
	fputc('}', cl->c->out);
	return true;
}

static bool chrome_close(void *ctx, uint64_t t)
{
	struct chrome_line *cl = ctx;
	event_head(cl->c, "E", cl->line, t);
	fputc('}', cl->c->out);
	return !ferror(cl->c->out);
}

static bool put_samples(struct chrome *c, uint32_t line)
{
	static const struct export_trace_ops ops = {chrome_open,
						    chrome_close};
	struct chrome_line cl = {c, line};
	return export_trace_line(c->m, line, &ops, &cl) && !ferror(c->out);
}

enum status export_chrome_trace(const struct model *m, FILE *out,
				struct error *err)
{
	if (model_n_timelines(m) == 0)
		return error_set(err, STATUS_NOT_FOUND, model_path(m),
				 "no trace lines to export");
	struct chrome c = {.m = m, .out = out, .origin = model_time_min(m),
			   .first = true};
	bool ok = true;
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"exporter\":"
	      "\"callscope " PACKAGE_VERSION "\",\"origin_ns\":",
	      out);
	fprintf(out, "\"%" PRIu64 "\",\"database\":", model_time_min(m));
	ok = put_string(out, model_path(m));
	fputs("},\"traceEvents\":[", out);
	uint8_t group = export_trace_group(m);
	for (uint32_t line = 0; ok && line < model_n_timelines(m); line++) {
		if (!export_trace_shown(m, line, group))
			continue;
		ok = put_metadata(&c, line);
		if (!ok)
			break;
		switch (model_timelines(m)[line].kind) {
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
	if (!ok) {
		struct error terr = {0};
		if (model_trace_take_error(m, &terr)) {
			if (err)
				*err = terr;
			else
				error_clear(&terr);
			return err ? err->status : STATUS_IO;
		}
		return error_set(err, STATUS_IO, model_path(m),
				 "cannot read or write a trace line");
	}
	return STATUS_OK;
}
