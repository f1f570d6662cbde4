/* cmd_trace: `callscope trace DB [--lines LIST] (--at T [--span D] |
 * --from T --to T --columns W) [--depth D] [--gpu-lines queue|stream|all]
 * [--format text|json]`: what the trace pane shows, as data.  `--at` gives, per line, the last sample at or before T
 * and its call path; a window gives W cells per line, each the context
 * active at the start of its slice.  Context 0 is idle or "no sample yet"
 * (before the line's first sample) in both forms; `--at` gives time null
 * for the latter.  A counter line (TIMELINE_COUNTER) gives values, not
 * contexts: `--at` the value in force at T (the last at or before it) with
 * its time and the line's unit, a window per cell the value in force at
 * the cell's start ("-", JSON null, before the first value); its JSON
 * objects say "kind": "counter".  An interval line with instants (marks)
 * adds, with `--at`, "instant": the first instant in [T, T + --span)
 * (exactly T without --span) with its time, name, the context and depth
 * of the interval it lies in and its path, or null; and "instants": how
 * many lie in that span; a window adds "instants": per cell the name of
 * the first instant in the cell's span, or null.  GPU lines come by queue
 * (Nsight: by context) and by stream; `--gpu-lines queue|stream|all`
 * says which are printed (default: the grouping the model lists first,
 * as the trace pane shows it), numbered as in the model either way.
 * `--stats`: cmd_trace_stats.c.  Times are nanoseconds as in the file,
 * or +N[ns|us|ms|s] relative to the start of the trace.  Must not depend
 * on curses or on ui/. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_trace_stats.h"
#include "present/present_path.h"
#include "core/sanitize.h"
#include "views/trace_index.h"

/* At most this many cells in one window (lines x columns). */
#define TRACE_MAX_CELLS 50000000ull

struct trace_options {
	const char *const *dbs; /* one or more, opened as one run */
	size_t n_dbs;
	const char *lines, *at, *from, *to, *span, *gpu_lines;
	uint64_t span_ns; /* --span: instants in [at, at + span) */
	uint32_t columns, depth;
	bool stats; /* --stats: the window's shares (trace_shares) */
	enum present_format format;
};

/* The nanoseconds of one `unit` (s, ms, us, ns or none); false for any
 * other. */
static bool unit_scale(const char *unit, double *scale)
{
	*scale = strcmp(unit, "s") == 0    ? 1e9
		 : strcmp(unit, "ms") == 0 ? 1e6
		 : strcmp(unit, "us") == 0 ? 1e3
					   : 1;
	return *scale != 1 || !*unit || strcmp(unit, "ns") == 0;
}

static bool parse_time(const struct model *m, const char *opt,
		       const char *arg, uint64_t *out)
{
	char *end;
	errno = 0;
	if (arg[0] == '+') {
		double v = strtod(arg + 1, &end);
		double scale;
		if (!unit_scale(end, &scale))
			goto bad;
		if (errno || end == arg + 1 || !isfinite(v) || v < 0 ||
		    v * scale > 1.8e19)
			goto bad;
		*out = m->time_min + (uint64_t)(v * scale);
		return true;
	}
	if (arg[0] == '-')
		goto bad;
	unsigned long long v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end)
		goto bad;
	*out = v;
	return true;
bad:
	fprintf(stderr, "callscope trace: %s expects nanoseconds or "
			"+N[ns|us|ms|s], not '", opt);
	present_put_text(stderr, arg);
	fputs("'\n", stderr);
	return false;
}

/* --span: N[ns|us|ms|s], nanoseconds without a unit. */
static bool parse_span(const char *arg, uint64_t *out)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	double scale;
	if (!unit_scale(end, &scale))
		goto bad;
	if (errno || end == arg || !isfinite(v) || v < 0 || arg[0] == '-' ||
	    v * scale > 1.8e19)
		goto bad;
	*out = (uint64_t)(v * scale);
	return true;
bad:
	fputs("callscope trace: --span expects N[ns|us|ms|s], not '", stderr);
	present_put_text(stderr, arg);
	fputs("'\n", stderr);
	return false;
}

/* "0-3,7" -> selected[i] = true.  NULL spec selects every line. */
static bool parse_lines(const struct model *m, const char *spec,
			bool *selected)
{
	if (!spec) {
		for (uint32_t i = 0; i < m->n_timelines; i++)
			selected[i] = true;
		return true;
	}
	const char *p = spec;
	while (*p) {
		char *end;
		errno = 0;
		unsigned long a = strtoul(p, &end, 10), b = a;
		if (errno || end == p || *p == '-')
			goto bad;
		p = end;
		if (*p == '-') {
			b = strtoul(p + 1, &end, 10);
			if (errno || end == p + 1 || b < a)
				goto bad;
			p = end;
		}
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
		if (b >= m->n_timelines) {
			fprintf(stderr, "callscope trace: line %lu does not "
					"exist (the trace has %u lines)\n",
				b, m->n_timelines);
			return false;
		}
		for (unsigned long i = a; i <= b && i < m->n_timelines; i++)
			selected[i] = true;
	}
	return true;
bad:
	fputs("callscope trace: --lines expects a list like 0-3,7, not '",
	      stderr);
	present_put_text(stderr, spec);
	fputs("'\n", stderr);
	return false;
}


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

/* --gpu-lines queue|stream|all. */
static bool parse_gpu_lines(const char *arg)
{
	if (strcmp(arg, "queue") == 0 || strcmp(arg, "stream") == 0 ||
	    strcmp(arg, "all") == 0)
		return true;
	fputs("callscope trace: --gpu-lines expects queue, stream or all, "
	      "not '",
	      stderr);
	present_put_text(stderr, arg);
	fputs("'\n", stderr);
	return false;
}

/* One option of the command's own into `o`; false after a usage error
 * printed. */
static bool parse_option(int c, struct trace_options *o)
{
	const char **text = c == 'l'   ? &o->lines
			    : c == 'a' ? &o->at
			    : c == 'F' ? &o->from
			    : c == 'T' ? &o->to
				       : NULL;
	if (text) {
		*text = optarg;
		return true;
	}
	switch (c) {
	case 'w':
		if (!cli_parse_u32("trace", "--columns", optarg, &o->columns))
			return false;
		if (o->columns == 0 || o->columns > 1000000) {
			fputs("callscope trace: --columns must be between 1 "
			      "and 1000000\n",
			      stderr);
			return false;
		}
		return true;
	case 'g':
		o->gpu_lines = optarg;
		return parse_gpu_lines(optarg);
	case 's':
		o->span = optarg;
		return parse_span(optarg, &o->span_ns);
	case 'd':
		return cli_parse_u32("trace", "--depth", optarg, &o->depth);
	default: /* -S */
		o->stats = true;
		return true;
	}
}

/* The options and operands into `o`: CLI_EXIT_OK, -1 after --help, or
 * the exit status of a usage error. */
static int parse(int argc, char **argv, struct trace_options *o)
{
	static const struct option own[] = {
		{"lines", required_argument, NULL, 'l'},
		{"at", required_argument, NULL, 'a'},
		{"from", required_argument, NULL, 'F'},
		{"to", required_argument, NULL, 'T'},
		{"columns", required_argument, NULL, 'w'},
		{"depth", required_argument, NULL, 'd'},
		{"span", required_argument, NULL, 's'},
		{"gpu-lines", required_argument, NULL, 'g'},
		{"stats", no_argument, NULL, 'S'},
		{NULL, 0, NULL, 0},
	};
	struct cli_args a = {.cmd = "trace", .options = own,
			     .shortopts = "l:a:F:T:w:d:s:g:",
			     .formats = CLI_TEXT_JSON,
			     .expected = "a database", .min_operands = 1};
	int c;
	while ((c = cli_args_next(&a, argc, argv)) > 0)
		if (!parse_option(c, o))
			return CLI_EXIT_USAGE;
	if (c == CLI_ARGS_EXIT)
		return a.exit_code == CLI_EXIT_OK ? -1 : a.exit_code;
	o->format = a.format;
	bool window = o->from || o->to || o->columns;
	if (o->stats && (o->at || o->columns || !o->from || !o->to)) {
		fputs("callscope trace: --stats goes with --from T --to T "
		      "(no --columns)\n",
		      stderr);
		return CLI_EXIT_USAGE;
	}
	if (!o->stats && ((o->at && window) || (!o->at && !window) ||
			  (window && (!o->from || !o->to || !o->columns)))) {
		fputs("callscope trace: give either --at T or --from T --to T "
		      "--columns W\n",
		      stderr);
		return CLI_EXIT_USAGE;
	}
	if (o->span && !o->at) {
		fputs("callscope trace: --span goes with --at\n", stderr);
		return CLI_EXIT_USAGE;
	}
	o->dbs = (const char *const *)a.operands;
	o->n_dbs = (size_t)a.n_operands;
	return CLI_EXIT_OK;
}

static json_t *line_json(const struct model *m, uint32_t line)
{
	const struct model_timeline *tl = &m->timelines[line];
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
	if (m->timelines[line].n_instants == 0)
		return true;
	out->count = trace_instants_in(m, line, t, end, &first);
	if (out->count && model_instant(m, line, first, &ti)) {
		out->found = true;
		out->time = ti.time;
		out->name = ti.name;
		if (trace_interval_active(m, line, ti.time, &iv, NULL)) {
			out->ctx = o->depth == UINT32_MAX
					   ? iv.ctx_id
					   : trace_ctx_at_depth(m, iv.ctx_id,
								o->depth);
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
		ctx = o->depth == UINT32_MAX
			      ? iv.ctx_id
			      : trace_ctx_at_depth(m, iv.ctx_id, o->depth);
	struct at_instant in = {0};
	if (!at_instant(m, line, t, o, &in, err))
		return false;
	if (o->format == PRESENT_FORMAT_JSON) {
		json_t *j = line_json(m, line);
		json_object_set_new(j, "time",
				    found ? json_integer((json_int_t)iv.begin)
					  : json_null());
		json_object_set_new(j, "begin",
				    found ? json_integer((json_int_t)iv.begin)
					  : json_null());
		json_object_set_new(j, "end",
				    found ? json_integer((json_int_t)iv.end)
					  : json_null());
		json_object_set_new(j, "depth",
				    found ? json_integer(iv.depth)
					  : json_null());
		json_object_set_new(j, "ctx",
				    found ? json_integer(ctx) : json_null());
		json_object_set_new(j, "path", path_json(m, ctx));
		if (m->timelines[line].n_instants) {
			json_object_set_new(j, "instant", instant_json(m, &in));
			json_object_set_new(j, "instants",
					    json_integer((json_int_t)in.count));
		}
		json_array_append_new(lines, j);
		return true;
	}
	printf("%5u  ", line);
	present_put_text(stdout, model_str(m, m->timelines[line].label));
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
	const char *unit = model_str(m, m->timelines[line].unit);
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
	const char *unit = model_str(m, m->timelines[line].unit);
	if (o->format == PRESENT_FORMAT_JSON) {
		json_t *j = line_json(m, line);
		json_object_set_new(j, "kind", json_string("counter"));
		json_object_set_new(j, "time",
				    found ? json_integer((json_int_t)time)
					  : json_null());
		json_object_set_new(j, "value",
				    found ? value_json(v) : json_null());
		json_object_set_new(j, "unit", present_json_text(unit));
		json_array_append_new(lines, j);
		return true;
	}
	printf("%5u  ", line);
	present_put_text(stdout, model_str(m, m->timelines[line].label));
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
static bool at_line(const struct model *m, uint32_t line, uint64_t t,
		    const struct trace_options *o, json_t *lines,
		    struct error *err)
{
	if (m->timelines[line].kind == TIMELINE_COUNTER)
		return at_counter_line(m, line, t, o, lines, err);
	struct trace_sample s;
	bool found = trace_sample_at(m, line, t, &s, NULL);
	if (model_trace_take_error(m, err))
		return false;
	if (m->timelines[line].kind == TIMELINE_INTERVALS)
		return at_interval_line(m, line, t, o, lines, err);
	/* no sample yet (before the line's first sample): context 0, as
	 * in the window form's cells, and no time */
	uint32_t ctx = 0;
	if (found)
		ctx = o->depth == UINT32_MAX
			      ? s.ctx_id
			      : trace_ctx_at_depth(m, s.ctx_id, o->depth);
	if (o->format == PRESENT_FORMAT_JSON) {
		json_t *j = line_json(m, line);
		json_object_set_new(j, "time",
				    found ? json_integer((json_int_t)s.time)
					  : json_null());
		json_object_set_new(j, "ctx", json_integer(ctx));
		json_object_set_new(j, "path", path_json(m, ctx));
		json_array_append_new(lines, j);
		return true;
	}
	printf("%5u  ", line);
	present_put_text(stdout, model_str(m, m->timelines[line].label));
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
			present_json_text(model_str(m, m->timelines[line].unit)));
		json_object_set_new(j, "cells", arr);
		json_array_append_new(lines, j);
	} else {
		printf("%5u  ", line);
		present_put_text(stdout, model_str(m, m->timelines[line].label));
		const char *unit = model_str(m, m->timelines[line].unit);
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

static bool window_line(const struct model *m, uint32_t line, uint64_t from,
			uint64_t to, const struct trace_options *o,
			json_t *lines, struct error *err)
{
	if (m->timelines[line].kind == TIMELINE_COUNTER)
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
	if (m->timelines[line].n_instants) {
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
		printf("%5u  ", line);
		present_put_text(stdout, model_str(m, m->timelines[line].label));
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

/* GPU lines by queue or by stream (model_timeline.group): keep the
 * grouping asked for (NULL: the model's first, as the trace pane shows
 * it; "all": both).  False, with one line, when the model has no GPU
 * lines of that grouping. */
static bool select_gpu_lines(const struct model *m, const char *which,
			     bool *selected)
{
	uint8_t want = TIMELINE_GROUP_NONE;
	bool any = false;
	if (which && strcmp(which, "all") == 0)
		return true;
	if (which)
		want = strcmp(which, "stream") == 0 ? TIMELINE_GROUP_STREAM
						    : TIMELINE_GROUP_QUEUE;
	for (uint32_t i = 0; i < m->n_timelines && !which; i++)
		if (m->timelines[i].group != TIMELINE_GROUP_NONE) {
			want = m->timelines[i].group;
			break;
		}
	for (uint32_t i = 0; i < m->n_timelines; i++)
		any |= m->timelines[i].group == want;
	if (which && !any) {
		fputs("callscope trace: ", stderr);
		present_put_text(stderr, m->path);
		fprintf(stderr, ": no GPU lines by %s\n", which);
		return false;
	}
	for (uint32_t i = 0; i < m->n_timelines; i++)
		if (m->timelines[i].group != TIMELINE_GROUP_NONE &&
		    m->timelines[i].group != want)
			selected[i] = false;
	return true;
}

/* --at, --from and --to in nanoseconds; false after a usage error
 * printed. */
static bool parse_times(const struct model *m, const struct trace_options *o,
			uint64_t *at, uint64_t *from, uint64_t *to)
{
	if ((o->at && !parse_time(m, "--at", o->at, at)) ||
	    (o->from && !parse_time(m, "--from", o->from, from)) ||
	    (o->to && !parse_time(m, "--to", o->to, to)))
		return false;
	if (!o->at && *to < *from) {
		fputs("callscope trace: --to must not be before --from\n",
		      stderr);
		return false;
	}
	return true;
}

/* A window's output is bounded: lines x columns at most TRACE_MAX_CELLS;
 * false after a usage error printed. */
static bool window_fits(const struct model *m, const bool *selected,
			const struct trace_options *o)
{
	uint64_t n_selected = 0;
	for (uint32_t i = 0; i < m->n_timelines; i++)
		n_selected += selected[i];
	if (n_selected * o->columns <= TRACE_MAX_CELLS)
		return true;
	fprintf(stderr, "callscope trace: %llu lines x %u columns is more "
			"than %llu cells; select fewer --lines or --columns\n",
		(unsigned long long)n_selected, o->columns,
		(unsigned long long)TRACE_MAX_CELLS);
	return false;
}

/* The selected lines at `at` or over [from, to); JSON is streamed one
 * line object at a time, so that memory holds one line's cells whatever
 * the number of lines.  An exit status. */
static int put_lines(const struct model *m, const bool *selected,
		     uint64_t at, uint64_t from, uint64_t to,
		     const struct trace_options *o)
{
	json_t *lines = json_array();
	bool json = o->format == PRESENT_FORMAT_JSON, first = true;
	int rc = CLI_EXIT_OK;
	if (!lines)
		return CLI_EXIT_DATA;
	if (json)
		fputs("{\"lines\":[", stdout);
	for (uint32_t i = 0; i < m->n_timelines; i++) {
		if (!selected[i])
			continue;
		struct error err = {.status = STATUS_OK};
		if (o->at ? !at_line(m, i, at, o, lines, &err)
			  : !window_line(m, i, from, to, o, lines, &err)) {
			if (err.status != STATUS_OK)
				cli_put_cmd_error("trace", &err, "read error");
			rc = CLI_EXIT_DATA;
			break;
		}
		if (json && json_array_size(lines) > 0) {
			if (!first)
				fputc(',', stdout);
			present_put_json(stdout, json_array_get(lines, 0),
					 JSON_COMPACT);
			json_array_clear(lines);
			first = false;
		}
	}
	if (json)
		fputs("]}\n", stdout);
	json_decref(lines);
	return rc;
}

int cmd_trace(struct session *s, int argc, char **argv);
int cmd_trace(struct session *s, int argc, char **argv)
{
	struct trace_options o = {.depth = UINT32_MAX};
	struct model *m = NULL;
	bool *selected = NULL;
	uint64_t at = 0, from = 0, to = 0;
	int rc = parse(argc, argv, &o);
	if (rc != CLI_EXIT_OK)
		return rc < 0 ? CLI_EXIT_OK : rc;
	m = cli_open_all(s, o.dbs, o.n_dbs);
	if (!m)
		return CLI_EXIT_DATA;
	rc = CLI_EXIT_DATA;
	if (m->n_timelines == 0) {
		cli_put_db_problem("trace", m, "the database has no trace");
		goto out;
	}
	rc = CLI_EXIT_USAGE;
	if (!parse_times(m, &o, &at, &from, &to))
		goto out;
	rc = CLI_EXIT_DATA;
	if (!(selected = calloc(m->n_timelines, sizeof(*selected))))
		goto out;
	if (!parse_lines(m, o.lines, selected)) {
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (!select_gpu_lines(m, o.gpu_lines, selected))
		goto out;
	if (!o.stats && !o.at && !window_fits(m, selected, &o)) {
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	/* every line: their files read up front, with progress */
	if (!o.lines)
		cli_trace_prepare(m);
	rc = o.stats ? cmd_trace_stats(m, selected, from, to,
				       o.depth == UINT32_MAX ? 0 : o.depth,
				       o.format)
		     : put_lines(m, selected, at, from, to, &o);
out:
	free(selected);
	model_free(m);
	return rc;
}
