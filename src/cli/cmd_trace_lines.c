/* cmd_trace_lines: what `callscope trace` prints per line: the --at
 * form (the sample, interval or counter value in force, its call path,
 * the instant in the span) and the window form (cells of contexts or
 * values, instants per cell), as text or one JSON object per line (see
 * cmd_trace.c for the shapes).  Must not depend on curses or on ui/. */
#include "config.h"

#include "cli/cmd_trace_lines.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "present/present_path.h"
#include "present/present_write.h"
#include "views/trace_index.h"

/* Names from the outermost context (below the synthetic root) to ctx. */
static json_t *path_json(const struct model *m, uint32_t ctx_id)
{
	json_t *arr = json_array();
	uint32_t node = ctx_id ? model_node_of_ctx(m, ctx_id) : MODEL_NONE;
	size_t n = 0;
	char **parts = node == MODEL_NONE ? NULL
					  : present_node_parts(m, node,
							       PRESENT_PATH_LABELS,
							       &n);
	for (size_t i = 0; arr && i < n; i++)
		json_array_append_new(arr, present_json_text(parts[i]));
	present_path_free(parts, n);
	return arr;
}

static void put_path_text(const struct model *m, uint32_t ctx_id)
{
	uint32_t node = ctx_id ? model_node_of_ctx(m, ctx_id) : MODEL_NONE;
	char *path = node == MODEL_NONE
			     ? NULL
			     : present_node_path(m, node, " > ",
						 PRESENT_PATH_LABELS);
	if (path)
		present_put_text(stdout, path);
	free(path);
}

/* A number of the --at form: null when there is none. */
static json_t *int_or_null(bool found, uint64_t v)
{
	return found ? json_integer((json_int_t)v) : json_null();
}

/* The text form's "LINE  LABEL" that starts each line. */
static void put_line_head(const struct model *m, uint32_t line)
{
	printf("%5u  ", line);
	present_put_text(stdout, model_str(m, model_timelines(m)[line].label));
}

static json_t *line_json(const struct model *m, uint32_t line)
{
	const struct model_timeline *tl = &model_timelines(m)[line];
	return json_pack("{s:I, s:o, s:o}", "line", (json_int_t)line,
			 "profile",
			 tl->profile == MODEL_NONE ? json_null()
						   : json_integer(tl->profile),
			 "label", present_json_text(model_str(m, tl->label)));
}

/* The first instant of an interval line in [t, t + span) (exactly t
 * without --span), where it lies: the interval active at its time (its
 * context and depth; 0 when none) and the number of instants in the
 * span. */
struct at_instant {
	bool found;
	uint64_t time, count;
	uint32_t name, ctx, depth;
};

/* The context of line `line` at `depth` (UINT32_MAX: the innermost), as
 * the window form's cells and the viewer show it: a GPU line's kernels
 * and copies are their own context at every depth (trace_cells), not
 * their launching thread. */
static uint32_t ctx_at_depth(const struct model *m, uint32_t line,
			     uint32_t ctx, uint32_t depth)
{
	if (depth == UINT32_MAX || trace_line_own_context(m, line))
		return ctx;
	return trace_ctx_at_depth(m, ctx, depth);
}

static bool at_instant(const struct model *m, uint32_t line, uint64_t t,
		       const struct trace_options *o, struct at_instant *out,
		       struct error *err)
{
	uint64_t first, end = o->span_ns && t <= UINT64_MAX - o->span_ns
				      ? t + o->span_ns
				      : o->span_ns ? UINT64_MAX : t;
	struct trace_instant ti;
	struct trace_interval iv;
	*out = (struct at_instant){0};
	if (model_timelines(m)[line].n_instants == 0)
		return true;
	out->count = trace_instants_in(m, line, t, end, &first);
	if (out->count && model_instant(m, line, first, &ti)) {
		out->found = true;
		out->time = ti.time;
		out->name = ti.name;
		if (trace_interval_active(m, line, ti.time, &iv, NULL)) {
			out->ctx = ctx_at_depth(m, line, iv.ctx_id, o->depth);
			out->depth = iv.depth + 1;
		}
	}
	return !model_trace_take_error(m, err);
}

/* {"time", "name", "ctx", "depth", "path"}: the path of the interval it
 * lies in, then its name; null when there is none. */
static json_t *instant_json(const struct model *m,
			    const struct at_instant *in)
{
	if (!in->found)
		return json_null();
	json_t *path = path_json(m, in->ctx);
	json_array_append_new(path, present_json_text(model_str(m, in->name)));
	return json_pack("{s:I, s:o, s:I, s:I, s:o}", "time",
			 (json_int_t)in->time, "name",
			 present_json_text(model_str(m, in->name)), "ctx",
			 (json_int_t)in->ctx, "depth", (json_int_t)in->depth,
			 "path", path);
}

/* An interval line at t: the interval active then (the innermost of
 * nested ones), with its begin, end, depth and context path. */
static bool at_interval_line(const struct model *m, uint32_t line, uint64_t t,
			     const struct trace_options *o, json_t *lines,
			     struct error *err)
{
	struct trace_interval iv;
	bool found = trace_interval_active(m, line, t, &iv, NULL);
	if (model_trace_take_error(m, err))
		return false;
	uint32_t ctx = 0;
	if (found)
		ctx = ctx_at_depth(m, line, iv.ctx_id, o->depth);
	struct at_instant in = {0};
	if (!at_instant(m, line, t, o, &in, err))
		return false;
	if (o->format == PRESENT_FORMAT_JSON) {
		json_t *j = line_json(m, line);
		json_object_set_new(j, "time", int_or_null(found, iv.begin));
		json_object_set_new(j, "begin", int_or_null(found, iv.begin));
		json_object_set_new(j, "end", int_or_null(found, iv.end));
		json_object_set_new(j, "depth", int_or_null(found, iv.depth));
		json_object_set_new(j, "ctx", int_or_null(found, ctx));
		json_object_set_new(j, "path", path_json(m, ctx));
		if (model_timelines(m)[line].n_instants) {
			json_object_set_new(j, "instant", instant_json(m, &in));
			json_object_set_new(j, "instants",
					    json_integer((json_int_t)in.count));
		}
		json_array_append_new(lines, j);
		return true;
	}
	put_line_head(m, line);
	if (!found) {
		fputs("  (idle)\n", stdout);
	} else {
		printf("  begin=%" PRIu64 "  end=%" PRIu64
		       "  depth=%u  ctx=%u  ",
		       iv.begin, iv.end, iv.depth, ctx);
		put_path_text(m, ctx);
		fputc('\n', stdout);
	}
	if (in.found) {
		printf("       instant t=%" PRIu64 "  depth=%u  ctx=%u  ",
		       in.time, in.depth, in.ctx);
		put_path_text(m, in.ctx);
		fputs(in.ctx ? " > " : "", stdout);
		present_put_text(stdout, model_str(m, in.name));
		if (in.count > 1)
			printf("  (%" PRIu64 " in the span)", in.count);
		fputc('\n', stdout);
	}
	return true;
}

static json_t *value_json(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static void put_value_text(const struct model *m, uint32_t line, double v)
{
	char buf[40];
	trace_format_value(v, buf, sizeof(buf));
	fputs(buf, stdout);
	const char *unit = model_str(m, model_timelines(m)[line].unit);
	if (*unit && !isnan(v)) {
		fputc(' ', stdout);
		present_put_text(stdout, unit);
	}
}

/* A counter line at t: the value in force (the last at or before t), its
 * time and the unit. */
static bool at_counter_line(const struct model *m, uint32_t line, uint64_t t,
			    const struct trace_options *o, json_t *lines,
			    struct error *err)
{
	double v = NAN;
	uint64_t index, time = 0;
	bool found = model_counter_at(m, line, t, &index) &&
		     model_counter(m, line, index, &time, &v);
	if (model_trace_take_error(m, err))
		return false;
	const char *unit = model_str(m, model_timelines(m)[line].unit);
	if (o->format == PRESENT_FORMAT_JSON) {
		json_t *j = line_json(m, line);
		json_object_set_new(j, "kind", json_string("counter"));
		json_object_set_new(j, "time", int_or_null(found, time));
		json_object_set_new(j, "value",
				    found ? value_json(v) : json_null());
		json_object_set_new(j, "unit", present_json_text(unit));
		json_array_append_new(lines, j);
		return true;
	}
	put_line_head(m, line);
	if (!found) {
		fputs("  t=-  value=-  (before the first value)\n", stdout);
		return true;
	}
	printf("  t=%" PRIu64 "  value=", time);
	put_value_text(m, line, v);
	fputc('\n', stdout);
	return true;
}

/* False when a trace read failed (`err` says why: a remote trace.db whose
 * server went away). */
bool trace_at_line(const struct model *m, uint32_t line, uint64_t t,
		   const struct trace_options *o, json_t *lines,
		   struct error *err)
{
	if (model_timelines(m)[line].kind == TIMELINE_COUNTER)
		return at_counter_line(m, line, t, o, lines, err);
	struct trace_sample s;
	bool found = trace_sample_at(m, line, t, &s, NULL);
	if (model_trace_take_error(m, err))
		return false;
	if (model_timelines(m)[line].kind == TIMELINE_INTERVALS)
		return at_interval_line(m, line, t, o, lines, err);
	/* no sample yet (before the line's first sample): context 0, as
	 * in the window form's cells, and no time */
	uint32_t ctx = 0;
	if (found)
		ctx = ctx_at_depth(m, line, s.ctx_id, o->depth);
	if (o->format == PRESENT_FORMAT_JSON) {
		json_t *j = line_json(m, line);
		json_object_set_new(j, "time", int_or_null(found, s.time));
		json_object_set_new(j, "ctx", json_integer(ctx));
		json_object_set_new(j, "path", path_json(m, ctx));
		json_array_append_new(lines, j);
		return true;
	}
	put_line_head(m, line);
	if (!found) {
		fputs("  t=-  ctx=0  (before the first sample)\n", stdout);
		return true;
	}
	printf("  t=%" PRIu64 "  ctx=%u  ", s.time, ctx);
	if (ctx == 0)
		fputs("(idle)", stdout);
	else
		put_path_text(m, ctx);
	fputc('\n', stdout);
	return true;
}

/* A counter line over a window: per cell the value in force at its start,
 * where other lines give a context. */
static bool window_counter_line(const struct model *m, uint32_t line,
				uint64_t from, uint64_t to,
				const struct trace_options *o, json_t *lines,
				struct error *err)
{
	double *values = calloc(o->columns, sizeof(*values));
	if (!values)
		return false;
	trace_counter_cells(m, line, from, to, o->columns, values, NULL);
	if (model_trace_take_error(m, err)) {
		free(values);
		return false;
	}
	if (o->format == PRESENT_FORMAT_JSON) {
		json_t *j = line_json(m, line);
		json_t *arr = json_array();
		for (uint32_t k = 0; k < o->columns; k++)
			json_array_append_new(arr, value_json(values[k]));
		json_object_set_new(j, "kind", json_string("counter"));
		json_object_set_new(
			j, "unit",
			present_json_text(model_str(m, model_timelines(m)[line].unit)));
		json_object_set_new(j, "cells", arr);
		json_array_append_new(lines, j);
	} else {
		put_line_head(m, line);
		const char *unit = model_str(m, model_timelines(m)[line].unit);
		if (*unit) {
			fputs(" (", stdout);
			present_put_text(stdout, unit);
			fputc(')', stdout);
		}
		fputs(": ", stdout);
		for (uint32_t k = 0; k < o->columns; k++) {
			char buf[40];
			trace_format_value(values[k], buf, sizeof(buf));
			printf("%s%s", k ? " " : "", buf);
		}
		fputc('\n', stdout);
	}
	free(values);
	return true;
}

bool trace_window_line(const struct model *m, uint32_t line, uint64_t from,
		       uint64_t to, const struct trace_options *o,
		       json_t *lines, struct error *err)
{
	if (model_timelines(m)[line].kind == TIMELINE_COUNTER)
		return window_counter_line(m, line, from, to, o, lines, err);
	uint32_t *cells = calloc(o->columns, sizeof(*cells));
	if (!cells)
		return false;
	trace_cells(m, line, from, to, o->columns, o->depth, cells);
	if (model_trace_take_error(m, err)) {
		free(cells);
		return false;
	}
	uint64_t *inst = NULL;
	if (model_timelines(m)[line].n_instants) {
		inst = malloc(o->columns * sizeof(*inst));
		if (!inst) {
			free(cells);
			return false;
		}
		trace_instant_cells(m, line, from, to, o->columns, inst);
		if (model_trace_take_error(m, err)) {
			free(cells);
			free(inst);
			return false;
		}
	}
	struct trace_instant ti;
	if (o->format == PRESENT_FORMAT_JSON) {
		json_t *j = line_json(m, line);
		json_t *arr = json_array();
		for (uint32_t k = 0; k < o->columns; k++)
			json_array_append_new(arr, json_integer(cells[k]));
		json_object_set_new(j, "cells", arr);
		if (inst) {
			/* per cell the first instant in its span: its name */
			arr = json_array();
			for (uint32_t k = 0; k < o->columns; k++)
				json_array_append_new(
					arr,
					inst[k] != UINT64_MAX &&
							model_instant(m, line,
								      inst[k],
								      &ti)
						? present_json_text(
							  model_str(m, ti.name))
						: json_null());
			json_object_set_new(j, "instants", arr);
		}
		json_array_append_new(lines, j);
	} else {
		if (o->legend &&
		    !trace_legend_add(o->legend, cells, o->columns)) {
			free(cells);
			free(inst);
			return false;
		}
		put_line_head(m, line);
		fputs(": ", stdout);
		for (uint32_t k = 0; k < o->columns; k++)
			printf("%s%u", k ? " " : "", cells[k]);
		fputc('\n', stdout);
		bool any = false;
		for (uint32_t k = 0; inst && k < o->columns; k++) {
			if (inst[k] == UINT64_MAX ||
			    !model_instant(m, line, inst[k], &ti))
				continue;
			fputs(any ? ", " : "       instants: ", stdout);
			printf("%u@", k);
			present_put_text(stdout, model_str(m, ti.name));
			any = true;
		}
		if (any)
			fputc('\n', stdout);
	}
	free(cells);
	free(inst);
	return true;
}
