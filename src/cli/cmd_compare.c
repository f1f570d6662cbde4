/* cmd_compare: `callscope compare RUN... [--param NAME=VALUE[,...]]...
 * [--metric M]... [--scope inclusive|exclusive] [--depth N] [--format
 * text|csv|json] [--match path|function] [--no-normalize] [--model
 * [--measure KIND]]`: N runs as one set (compare/runset.h): one merged
 * tree (or with --match function one row per function), per metric one column per
 * run and the statistics across runs (min, median, mean, max, stddev,
 * cv, runs, outlier run, outlier z), written as `report` writes a tree
 * (present_rows), children sorted by the first metric's median.  A
 * --param names the coordinates of the run after it; without any, runs
 * named as Extra-P's directories ("name.p16.n64.r1") take theirs from
 * the name (formats/reader.h: the extrap format's parser).  With --model the set is an Extra-P
 * measurement set (each run a repetition at its point) whose models are
 * printed as `callscope model` prints them.  Each row begins with how
 * many runs have the node ("2/3"; JSON: "absent", the run numbers that
 * do not); a per-run table (path, format, title, the file's modification
 * time, parameters) heads the text and is "runs" in JSON.  Must not
 * depend on curses or on ui/. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cli_diff.h"
#include "compare/runset.h"
#include "core/sanitize.h"
#include "core/array.h"
#include "formats/reader.h"

int cmd_model_of(struct model *m, const char *metric,
		 enum measure_kind measure, enum present_format format);

struct cmp_run {
	const char *path;
	char *params; /* the --param texts before it, joined by ',' */
};

struct compare_cmd {
	struct cli_diff cd;
	struct cmp_run *runs;
	size_t n_runs;
	char *pending;
	uint32_t depth;
	enum present_format format;
	int scope;
	bool model;
	enum measure_kind measure;
	char **names; /* parameters */
	uint32_t n_params;
	double *coords; /* [run * n_params + i] */
	struct runset *rs;
};

static int add_run(struct compare_cmd *o, const char *path)
{
	struct cmp_run *p = realloc(o->runs, (o->n_runs + 1) * sizeof(*p));
	if (!p)
		return CLI_EXIT_DATA;
	o->runs = p;
	p[o->n_runs].path = path;
	p[o->n_runs++].params = o->pending;
	o->pending = NULL;
	return CLI_EXIT_OK;
}

static int own_option(void *ctx, int c, const char *arg)
{
	struct compare_cmd *o = ctx;
	char *s = NULL;
	switch (c) {
	case 1:
	case 2:
		return add_run(o, arg);
	case 'p':
		if (asprintf(&s, "%s%s%s", o->pending ? o->pending : "",
			     o->pending ? "," : "", arg) < 0)
			return CLI_EXIT_DATA;
		free(o->pending);
		o->pending = s;
		break;
	case 's':
		if (strcmp(arg, "inclusive") && strcmp(arg, "exclusive")) {
			fputs("callscope compare: --scope must be inclusive "
			      "or exclusive\n",
			      stderr);
			return CLI_EXIT_USAGE;
		}
		o->scope = arg[0] == 'i' ? DIFF_INCLUSIVE : DIFF_EXCLUSIVE;
		break;
	case 'x':
		o->model = true;
		break;
	case 'e':
		if (!model_measure_parse(arg, &o->measure)) {
			fputs("callscope compare: --measure must be mean, "
			      "median, minimum or maximum\n",
			      stderr);
			return CLI_EXIT_USAGE;
		}
		break;
	}
	return CLI_EXIT_OK;
}

static int parse(int argc, char **argv, struct compare_cmd *o)
{
	static const struct option longopts[] = {
	    {"param", required_argument, NULL, 'p'},
	    {"scope", required_argument, NULL, 's'},
	    {"model", no_argument, NULL, 'x'},
	    {"measure", required_argument, NULL, 'e'},
	    {NULL, 0, NULL, 0},
	};
	const struct cli_diff_args a = {.cmd = "compare",
					.shorts = "p:s:xe:",
					.longs = longopts,
					.own = own_option,
					.ctx = o,
					.usage_rc = CLI_EXIT_USAGE,
					.depth = &o->depth,
					.format = &o->format};
	int rc = cli_diff_getopt(&a, argc, argv, &o->cd);
	if (rc != CLI_EXIT_OK)
		return rc;
	if (o->pending) {
		fputs("callscope compare: --param names the run after it; "
		      "none follows the last\n",
		      stderr);
		return CLI_EXIT_USAGE;
	}
	if (o->n_runs < 1) {
		fputs("callscope compare: expected one or more runs "
		      "(callscope compare RUN... [options])\n",
		      stderr);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* ---- parameters ------------------------------------------------------- */

static uint32_t param_index(const struct compare_cmd *o, const char *name,
			    size_t len)
{
	for (uint32_t i = 0; i < o->n_params; i++)
		if (strlen(o->names[i]) == len &&
		    strncmp(o->names[i], name, len) == 0)
			return i;
	return MODEL_NONE;
}

static bool param_fail(const struct cmp_run *r, const char *what)
{
	fputs("callscope compare: ", stderr);
	present_put_text(stderr, r->path);
	fprintf(stderr, ": %s\n", what);
	return false;
}

/* Run r's "NAME=VALUE,..." into its coordinates; the first run with
 * parameters declares them (`declare`). */
static bool run_params(struct compare_cmd *o, size_t r, bool declare)
{
	const char *p = o->runs[r].params;
	uint32_t seen = 0;
	while (p && *p) {
		size_t len = strcspn(p, ",");
		const char *eq = memchr(p, '=', len);
		char *end = NULL;
		double v = eq ? strtod(eq + 1, &end) : (double)NAN;
		if (!eq || eq == p || end != p + len || isnan(v))
			return param_fail(&o->runs[r],
					  "--param expects NAME=NUMBER");
		uint32_t i = param_index(o, p, (size_t)(eq - p));
		if (i == MODEL_NONE && declare) {
			char **nn = realloc(o->names,
					    (o->n_params + 1) * sizeof(*nn));
			if (!nn || !(nn[o->n_params] =
					 strndup(p, (size_t)(eq - p))))
				return false;
			o->names = nn;
			i = o->n_params++;
		}
		if (i == MODEL_NONE || i >= 32 || (seen & (1u << i)))
			return param_fail(&o->runs[r],
					  "a parameter the first run with "
					  "--param does not have, or one "
					  "given twice");
		seen |= 1u << i;
		o->coords[r * 32 + i] = v;
		p += len + (p[len] == ',');
	}
	if (seen != (o->n_params >= 32 ? UINT32_MAX
				       : (1u << o->n_params) - 1))
		return param_fail(&o->runs[r],
				  "a run without every parameter (a --param "
				  "before each run)");
	return true;
}

/* The parameters in run r's name (Extra-P's naming: formats/reader.h),
 * which must be the first run's. */
static bool dir_params(struct compare_cmd *o, size_t r)
{
	char *path = strdup(o->runs[r].path), **names = NULL;
	double *values = NULL;
	uint32_t n = 0;
	size_t len = path ? strlen(path) : 0;
	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
	const char *base = path ? strrchr(path, '/') : NULL;
	bool ok = path &&
		  reader_point_params(base ? base + 1 : path, &names, &values,
				      &n) &&
		  n <= 32 && (r == 0 || n == o->n_params);
	for (uint32_t i = 0; ok && i < n; i++) {
		if (r == 0) {
			char **nn = realloc(o->names, (i + 1) * sizeof(*nn));
			ok = nn && (nn[i] = strdup(names[i]));
			if (nn)
				o->names = nn;
			o->n_params = ok ? i + 1 : o->n_params;
		} else {
			ok = strcmp(o->names[i], names[i]) == 0;
		}
		if (ok)
			o->coords[r * 32 + i] = values[i];
	}
	reader_point_params_free(names, values, n);
	free(path);
	return ok;
}

/* Every run's coordinates: from --param, else from the directory names
 * when every run's has the same parameters, else none. */
static bool resolve_params(struct compare_cmd *o)
{
	bool any = false;
	o->coords = calloc(o->n_runs * 32, sizeof(double));
	if (!o->coords)
		return false;
	for (size_t r = 0; r < o->n_runs; r++)
		any = any || o->runs[r].params;
	for (size_t r = 0; any && o->n_params == 0 && r < o->n_runs; r++)
		if (o->runs[r].params && !run_params(o, r, true))
			return false;
	for (size_t r = 0; any && r < o->n_runs; r++)
		if (!run_params(o, r, false))
			return false;
	if (any)
		return true;
	bool named = true;
	for (size_t r = 0; named && r < o->n_runs; r++)
		named = dir_params(o, r);
	if (!named) {
		for (uint32_t i = 0; i < o->n_params; i++)
			free(o->names[i]);
		o->n_params = 0;
	}
	return true;
}

/* ---- the set ---------------------------------------------------------- */

/* Open every run and add it to the set. */
static int build(struct session *s, struct compare_cmd *o)
{
	struct runset_options ro = {
	    .match = o->cd.opt.match,
	    .normalize = o->cd.opt.normalize,
	    .metrics = (const char *const *)o->cd.metrics,
	    .n_metrics = o->cd.n_metrics,
	    .scope = o->scope,
	    .param_names = (const char *const *)o->names,
	    .n_params = o->n_params,
	};
	struct error err = {0};
	o->rs = runset_new((uint32_t)o->n_runs, &ro, &err);
	if (!o->rs) {
		cli_put_error(&err, "out of memory");
		return CLI_EXIT_DATA;
	}
	for (size_t r = 0; r < o->n_runs; r++) {
		struct model *m = cli_open(s, o->runs[r].path);
		if (!m || !cli_load_all(m)) {
			model_free(m);
			return CLI_EXIT_DATA;
		}
		if (runset_add(o->rs, m, o->runs[r].path,
			       o->n_params ? &o->coords[r * 32] : NULL,
			       &err) != STATUS_OK) {
			cli_put_error(&err, "cannot compare");
			return CLI_EXIT_DATA;
		}
	}
	return CLI_EXIT_OK;
}

/* The file's modification time (UTC, ISO 8601) into buf; false when it
 * has none (a URL). */
static bool modified(const char *path, char *buf, size_t len)
{
	struct stat st;
	struct tm tm;
	return stat(path, &st) == 0 && gmtime_r(&st.st_mtime, &tm) &&
	       strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) > 0;
}

static json_t *runs_json(const struct runset *rs)
{
	json_t *arr = json_array();
	for (uint32_t r = 0; arr && r < rs->n_added; r++) {
		const struct runset_run *run = &rs->runs[r];
		char date[32];
		json_t *params = json_object();
		for (uint32_t i = 0; run->coords && i < rs->n_params; i++) {
			/* the name as a JSON text (valid UTF-8) */
			json_t *name = present_json_text(rs->param_names[i]);
			if (json_is_string(name))
				json_object_set_new(
				    params, json_string_value(name),
				    present_json_number(run->coords[i]));
			json_decref(name);
		}
		json_t *j = json_pack(
		    "{s:I, s:o, s:o, s:o, s:o, s:o, s:I}", "run",
		    (json_int_t)r + 1, "path", present_json_text(run->path),
		    "format", present_json_text(run->format), "title",
		    run->title ? present_json_text(run->title) : json_null(),
		    "modified",
		    modified(run->path, date, sizeof(date)) ? json_string(date)
							    : json_null(),
		    "parameters", params, "contexts",
		    (json_int_t)run->n_nodes);
		json_array_append_new(arr, j);
	}
	return arr;
}

static void runs_text(const struct runset *rs)
{
	printf("Runs: %u, matched by %s%s; statistics over the runs "
	       "that have a value; outlier: the run farthest from the "
	       "median, in modified z-score units\n",
	       rs->n_added,
	       rs->match == DIFF_MATCH_PATH ? "call path" : "function",
	       rs->normalize ? ", names normalised" : "");
	for (uint32_t r = 0; r < rs->n_added; r++) {
		const struct runset_run *run = &rs->runs[r];
		char date[32];
		printf("  run %-3u ", r + 1);
		present_put_text(stdout, run->format);
		printf("  %s ", modified(run->path, date, sizeof(date))
				    ? date
				    : "-");
		for (uint32_t i = 0; run->coords && i < rs->n_params; i++) {
			fputc(' ', stdout);
			present_put_text(stdout, rs->param_names[i]);
			printf("=%g", run->coords[i]);
		}
		fputs("  ", stdout);
		present_put_text(stdout, run->path);
		fputc('\n', stdout);
	}
}

/* ---- the tree --------------------------------------------------------- */

struct rows_ctx {
	const struct runset *rs;
	struct view *v;
};

/* Before each row: how many runs have the node (the first metric), and
 * in JSON which do not. */
static void put_present(void *ctx, uint32_t row, json_t *j, FILE *out,
			enum present_format format)
{
	const struct rows_ctx *c = ctx;
	const struct runset *rs = c->rs;
	struct view_node vn;
	uint32_t have = 0;
	json_t *absent = j ? json_array() : NULL;
	bool ok = view_node_get(c->v, row, &vn);
	for (uint32_t r = 0; ok && r < rs->n_added; r++) {
		double x;
		if (runset_value(rs, vn.model_node, 0, r, &x))
			have++;
		else if (absent)
			json_array_append_new(absent,
					      json_integer((json_int_t)r + 1));
	}
	if (j) {
		json_object_set_new(j, "absent", absent);
		return;
	}
	char buf[32];
	snprintf(buf, sizeof(buf), "%u/%u", have, rs->n_added);
	fprintf(out, format == PRESENT_FORMAT_CSV ? "%s," : "%-8s", buf);
}

/* The JSON document's start: the report's, with the runs and each
 * column's "run" or "statistic". */
static void json_open(void *ctx, struct present_rows *r)
{
	const struct compare_cmd *o = ctx;
	const struct runset *rs = o->rs;
	json_t *cols = present_rows_columns_json(r);
	for (size_t i = 0; cols && i < r->n_columns; i++) {
		json_t *c = json_array_get(cols, i);
		uint32_t j = r->columns[i] % (rs->n_runs + RUNSET_N_STATS);
		if (j < rs->n_runs)
			json_object_set_new(c, "run", json_integer(j + 1));
		else
			json_object_set_new(
			    c, "statistic",
			    json_string(runset_stat_name(
				(enum runset_stat)(j - rs->n_runs))));
	}
	json_t *head = json_pack(
	    "{s:s, s:s, s:s, s:b, s:s, s:s, s:o}", "format", "compare", "view",
	    "top-down", "match",
	    rs->match == DIFF_MATCH_PATH ? "path" : "function", "normalize",
	    rs->normalize, "stddev",
	    "population (ddof 0)", "outlier",
	    "the run farthest from the median; z = |x - median| / (1.4826 "
	    "MAD), or / (1.2533 mean absolute deviation) when the MAD is 0",
	    "runs", runs_json(rs));
	json_t *params = json_array();
	for (uint32_t i = 0; i < rs->n_params; i++)
		json_array_append_new(params,
				      present_json_text(rs->param_names[i]));
	json_object_set_new(head, "parameters", params);
	cli_json_open_tree(head, cols, "compare", r->out);
}

/* The text's lines before the header: the runs, the order. */
static void put_preamble(void *ctx)
{
	const struct compare_cmd *o = ctx;
	runs_text(o->rs);
	puts("Sorted by |median| of the first metric; each row begins "
	     "with how many runs have it");
}

static int write_tree(struct compare_cmd *o, const struct model *m)
{
	struct present_rows rows = {0};
	struct view *v = NULL;
	int rc = CLI_EXIT_DATA;
	uint32_t *cols = NULL;
	if (!cli_tree_rows(&rows, m, VIEW_TOP_DOWN, o->format, &v, &cols))
		goto out;
	struct rows_ctx rc_ = {o->rs, v};
	struct cli_walk w = {
	    &rows,	   v, runset_column(o->rs, 0, o->rs->n_runs + RUNSET_MEDIAN),
	    o->depth, false, put_present, &rc_};
	const struct cli_tree_head head = {"Runs    ", "runs,", put_preamble,
					   json_open, o};
	rc = cli_walk_tree(&w, &head) ? CLI_EXIT_OK : CLI_EXIT_DATA;
out:
	present_rows_fini(&rows);
	view_free(v);
	free(cols);
	return rc;
}

static int run(struct session *s, struct compare_cmd *o)
{
	struct error err = {0};
	int rc = resolve_params(o) ? build(s, o) : CLI_EXIT_USAGE;
	if (rc != CLI_EXIT_OK)
		return rc;
	if (o->model) {
		struct model *m = runset_extrap(o->rs, "compare", &err);
		o->rs = NULL;
		if (!m) {
			cli_put_error(&err, "cannot make a measurement set");
			return CLI_EXIT_DATA;
		}
		return cmd_model_of(m, NULL, o->measure, o->format);
	}
	if (runset_finish(o->rs, &err) != STATUS_OK) {
		cli_put_error(&err, "out of memory");
		return CLI_EXIT_DATA;
	}
	struct runset *rs = o->rs;
	struct model *m = runset_model_new(rs, "compare", &err);
	if (!m) {
		o->rs = NULL;
		cli_put_error(&err, "cannot compare");
		return CLI_EXIT_DATA;
	}
	rc = write_tree(o, m);
	model_free(m); /* frees the set */
	o->rs = NULL;
	return rc;
}

static void compare_cmd_free(struct compare_cmd *o)
{
	runset_free(o->rs);
	for (size_t r = 0; r < o->n_runs; r++)
		free(o->runs[r].params);
	free(o->runs);
	free(o->pending);
	array_free_each(o->names, o->n_params);
	free(o->coords);
	free(o->cd.metrics);
}

#define COMPARE_CMD_INIT                                                   \
	{                                                                  \
		.cd = {.opt = {.match = DIFF_MATCH_PATH, .normalize = true}}, \
		.depth = UINT32_MAX, .format = PRESENT_FORMAT_TEXT,          \
		.scope = -1, .measure = MEASURE_MEAN,                        \
	}

/* Whether the runs' coordinates make at least two points. */
static bool several_points(const struct compare_cmd *o)
{
	for (size_t r = 1; o->n_params && r < o->n_runs; r++)
		if (memcmp(&o->coords[r * 32], &o->coords[0],
			   o->n_params * sizeof(double)) != 0)
			return true;
	return false;
}

struct model *cli_compare_open(struct session *s, char *const *paths,
			       size_t n)
{
	struct compare_cmd o = COMPARE_CMD_INIT;
	struct model *m = NULL;
	struct error err = {0};
	for (size_t i = 0; i < n; i++)
		if (add_run(&o, paths[i]) != CLI_EXIT_OK)
			goto out;
	if (!resolve_params(&o) || build(s, &o) != CLI_EXIT_OK)
		goto out;
	o.rs->short_titles = true; /* the viewer's columns: "p16", "p32" */
	if (several_points(&o)) { /* a measurement set: models, the plot */
		m = runset_extrap(o.rs, "compare", &err);
		o.rs = NULL;
	} else if (runset_finish(o.rs, &err) == STATUS_OK) {
		m = runset_model_new(o.rs, "compare", &err);
		o.rs = NULL;
	}
	if (!m)
		cli_put_error(&err, "cannot compare");
out:
	error_clear(&err);
	compare_cmd_free(&o);
	return m;
}

int cmd_compare(struct session *s, int argc, char **argv);
int cmd_compare(struct session *s, int argc, char **argv)
{
	struct compare_cmd o = COMPARE_CMD_INIT;
	int rc = parse(argc, argv, &o);
	if (rc == CLI_EXIT_OK)
		rc = run(s, &o);
	else if (rc < 0)
		rc = CLI_EXIT_OK;
	compare_cmd_free(&o);
	return rc;
}
