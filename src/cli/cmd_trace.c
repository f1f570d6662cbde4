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
 * `--stats`: cmd_trace_stats.c; what is printed per line:
 * cmd_trace_lines.c.  Times are nanoseconds as in the file,
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
#include "cli/cmd_trace_lines.h"
#include "cli/cmd_trace_stats.h"

/* At most this many cells in one window (lines x columns). */
#define TRACE_MAX_CELLS 50000000ull

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
		*out = model_time_min(m) + (uint64_t)(v * scale);
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
	return cli_put_bad_value("trace", opt,
				 "nanoseconds or +N[ns|us|ms|s]", arg);
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
	return cli_put_bad_value("trace", "--span", "N[ns|us|ms|s]", arg);
}

/* "0-3,7" -> selected[i] = true.  NULL spec selects every line. */
static bool parse_lines(const struct model *m, const char *spec,
			bool *selected)
{
	if (!spec) {
		for (uint32_t i = 0; i < model_n_timelines(m); i++)
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
		if (b >= model_n_timelines(m)) {
			fprintf(stderr, "callscope trace: line %lu does not "
					"exist (the trace has %u lines)\n",
				b, model_n_timelines(m));
			return false;
		}
		for (unsigned long i = a; i <= b && i < model_n_timelines(m); i++)
			selected[i] = true;
	}
	return true;
bad:
	return cli_put_bad_value("trace", "--lines", "a list like 0-3,7",
				 spec);
}



/* --gpu-lines queue|stream|all. */
static bool parse_gpu_lines(const char *arg)
{
	if (strcmp(arg, "queue") == 0 || strcmp(arg, "stream") == 0 ||
	    strcmp(arg, "all") == 0)
		return true;
	return cli_put_bad_value("trace", "--gpu-lines",
				 "queue, stream or all", arg);
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
	for (uint32_t i = 0; i < model_n_timelines(m) && !which; i++)
		if (model_timelines(m)[i].group != TIMELINE_GROUP_NONE) {
			want = model_timelines(m)[i].group;
			break;
		}
	for (uint32_t i = 0; i < model_n_timelines(m); i++)
		any |= model_timelines(m)[i].group == want;
	if (which && !any) {
		fputs("callscope trace: ", stderr);
		present_put_text(stderr, model_path(m));
		fprintf(stderr, ": no GPU lines by %s\n", which);
		return false;
	}
	for (uint32_t i = 0; i < model_n_timelines(m); i++)
		if (model_timelines(m)[i].group != TIMELINE_GROUP_NONE &&
		    model_timelines(m)[i].group != want)
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
	for (uint32_t i = 0; i < model_n_timelines(m); i++)
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
	/* the text window: a legend of the context ids its cells print */
	struct trace_legend legend = {0};
	struct trace_options opts = *o;
	if (!json && !o->at)
		opts.legend = &legend;
	o = &opts;
	if (json)
		fputs("{\"lines\":[", stdout);
	for (uint32_t i = 0; i < model_n_timelines(m); i++) {
		if (!selected[i])
			continue;
		struct error err = {.status = STATUS_OK};
		if (o->at ? !trace_at_line(m, i, at, o, lines, &err)
			  : !trace_window_line(m, i, from, to, o, lines, &err)) {
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
	else if (rc == CLI_EXIT_OK && o->legend)
		trace_legend_put(m, o->legend);
	trace_legend_free(&legend);
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
	if (model_n_timelines(m) == 0) {
		cli_put_db_problem("trace", m, "the database has no trace");
		goto out;
	}
	rc = CLI_EXIT_USAGE;
	if (!parse_times(m, &o, &at, &from, &to))
		goto out;
	rc = CLI_EXIT_DATA;
	if (!(selected = calloc(model_n_timelines(m), sizeof(*selected))))
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
