/* cmd_report: `callscope report DB [--view V] [--metric NAME]... [--depth N]
 * [--min-percent P] [--format text|csv|json] [--at P=V,...]`: the tree of
 * a view with its metric columns, children sorted by the first column,
 * streamed in pre-order so that a full report of millions of contexts is
 * never held in memory.  With --at, for a parametric set (Extra-P), one
 * more column per measured metric: the performance model of the row's
 * call path (scaling_view, fitted as the rows are written, a background
 * thread fitting ahead) evaluated at the given parameter values; in text
 * and CSV these columns come first, in JSON they are each node's
 * "model_values".  Must not depend on curses or on ui/. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "present/present_rows.h"
#include "present/present_write.h"
#include "model/scaling.h"
#include "views/scaling_view.h"

#define AT_WIDTH 14

/* --at: the parameter values, and once the set is open, its models. */
struct at {
	const char *arg; /* "p=1024,n=64", NULL without --at */
	double *coords;  /* one per parameter of the set */
	char **titles;   /* per measured metric */
	struct scaling_view *models;
	uint32_t n_measured;
};

static int at_fail(const struct model *m, const char *what, const char *name)
{
	fputs("callscope report: ", stderr);
	present_put_text(stderr, model_path(m));
	fputs(": --at: ", stderr);
	fputs(what, stderr);
	if (name) {
		fputs(" '", stderr);
		present_put_text(stderr, name);
		fputc('\'', stderr);
	}
	fputc('\n', stderr);
	return CLI_EXIT_DATA;
}

/* Parse at->arg against the set's parameters and make the models. */
static int at_open(struct at *at, const struct model *m)
{
	struct scaling_view_options opt = {.measure = MEASURE_MEAN,
					   .stored_set = MODEL_NONE,
					   .background = true};
	struct error err = {0};
	char *copy, *save = NULL;
	bool *given;
	int rc = CLI_EXIT_OK;

	if (model_n_params(m) == 0 || model_n_measured(m) == 0)
		return at_fail(m, "not a parametric measurement set", NULL);
	at->coords = calloc(model_n_params(m), sizeof *at->coords);
	given = calloc(model_n_params(m), sizeof *given);
	copy = strdup(at->arg);
	if (!at->coords || !given || !copy) {
		free(given);
		free(copy);
		return at_fail(m, "out of memory", NULL);
	}
	for (char *tok = strtok_r(copy, ",", &save); tok && rc == CLI_EXIT_OK;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end;
		uint32_t p;
		double val;

		if (!eq) {
			rc = at_fail(m, "expected NAME=VALUE, not", tok);
			break;
		}
		*eq = '\0';
		p = model_find_param(m, tok);
		if (p == MODEL_NONE) {
			rc = at_fail(m, "unknown parameter", tok);
			break;
		}
		val = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || isnan(val)) {
			rc = at_fail(m, "not a number:", eq + 1);
			break;
		}
		at->coords[p] = val;
		given[p] = true;
	}
	for (uint32_t p = 0; p < model_n_params(m) && rc == CLI_EXIT_OK; p++)
		if (!given[p])
			rc = at_fail(m, "no value for parameter",
				     model_str(m, model_params(m)[p].name));
	free(given);
	free(copy);
	if (rc != CLI_EXIT_OK)
		return rc;
	at->n_measured = model_n_measured(m);
	at->models = scaling_view_new(m, &opt, &err);
	if (!at->models) {
		char *line = error_format(&err);

		rc = at_fail(m, line ? line : "cannot model", NULL);
		free(line);
		error_clear(&err);
	}
	return rc;
}

static void at_close(struct at *at)
{
	scaling_view_free(at->models);
	free(at->coords);
	for (uint32_t k = 0; at->titles && k < at->n_measured; k++)
		free(at->titles[k]);
	free(at->titles);
}

/* The model of measured metric k for the row's call path at the point,
 * or NaN where there is none. */
static double at_value(struct at *at, const struct view_node *vn, uint32_t k)
{
	struct error err = {0};
	const struct scaling_model *sm =
		scaling_view_model(at->models, vn->model_node, k, &err);

	error_clear(&err);
	return sm ? scaling_eval(sm, at->coords) : (double)NAN;
}

/* The columns' titles ("time@p=1024,n=64") and widths. */
static bool at_titles(struct at *at, const struct model *m)
{
	at->titles = calloc(at->n_measured + 1, sizeof *at->titles);
	if (!at->titles)
		return false;
	for (uint32_t k = 0; k < at->n_measured; k++) {
		size_t len = strlen(present_measured_name(m, k)) + strlen(at->arg) + 2;

		at->titles[k] = malloc(len);
		if (!at->titles[k])
			return false;
		snprintf(at->titles[k], len, "%s@%s", present_measured_name(m, k),
			 at->arg);
	}
	return true;
}

static int at_width(const struct at *at, uint32_t k)
{
	int w = (int)strlen(at->titles[k]);

	return w > AT_WIDTH ? w : AT_WIDTH;
}

static void at_header(const struct at *at, enum present_format format)
{
	for (uint32_t k = 0; k < at->n_measured; k++) {
		if (format == PRESENT_FORMAT_CSV) {
			present_put_csv(stdout, at->titles[k]);
			fputc(',', stdout);
		} else {
			printf("%*s", at_width(at, k) - (int)strlen(at->titles[k]),
			       "");
			present_put_text(stdout, at->titles[k]);
			fputs("  ", stdout);
		}
	}
}

/* The row's model columns (a present_walk row hook): text and CSV before
 * the row, JSON into it. */
struct at_rows {
	struct at *at;
	struct view *view;
	enum present_format format;
};

static void at_row(void *ctx, uint32_t node, json_t *j)
{
	struct at_rows *ar = ctx;
	struct at *at = ar->at;
	enum present_format format = ar->format;
	struct view_node vn;
	json_t *vals = format == PRESENT_FORMAT_JSON ? json_array() : NULL;

	if (!view_node_get(ar->view, node, &vn)) {
		json_decref(vals);
		return;
	}
	for (uint32_t k = 0; k < at->n_measured; k++) {
		double x = vn.model_node == MODEL_NONE ? (double)NAN
						       : at_value(at, &vn, k);

		if (vals)
			json_array_append_new(vals, isnan(x) ? json_null()
							     : present_json_number(x));
		else if (format == PRESENT_FORMAT_CSV) {
			if (!isnan(x))
				present_put_number(stdout, x);
			fputc(',', stdout);
		}
		else if (isnan(x))
			printf("%*s  ", at_width(at, k), "");
		else
			printf("%*.6g  ", at_width(at, k), x);
	}
	if (vals && json_is_object(j))
		json_object_set_new(j, "model_values", vals);
	else
		json_decref(vals);
}

/* One option of the command's own into `o` and `at`; false after a
 * usage error printed. */
static bool parse_option(int c, struct cli_report_options *o, struct at *at)
{
	switch (c) {
	case 'a':
		at->arg = optarg;
		return true;
	case 'v':
		if (view_kind_parse(optarg, &o->view))
			return true;
		fprintf(stderr, "callscope report: unknown --view (expected "
				"top-down, bottom-up or flat)\n");
		return false;
	case 'm': {
		char **p = realloc(o->metrics,
				   (o->n_metrics + 1) * sizeof(*p));
		if (!p)
			return false;
		o->metrics = p;
		o->metrics[o->n_metrics++] = optarg;
		return true;
	}
	case 'd':
		return cli_parse_u32("report", "--depth", optarg, &o->depth);
	default: /* -p */
		return cli_parse_double("report", "--min-percent", optarg,
					&o->min_percent);
	}
}

/* The options and operands into `o`: CLI_EXIT_OK, -1 after --help, or
 * the exit status of a usage error. */
static int parse(int argc, char **argv, struct cli_report_options *o,
		 struct at *at)
{
	static const struct option own[] = {
		{"view", required_argument, NULL, 'v'},
		{"metric", required_argument, NULL, 'm'},
		{"depth", required_argument, NULL, 'd'},
		{"min-percent", required_argument, NULL, 'p'},
		{"at", required_argument, NULL, 'a'},
		{NULL, 0, NULL, 0},
	};
	struct cli_args a = {
		.cmd = "report", .options = own, .shortopts = "v:m:d:p:a:",
		.formats = CLI_TEXT_CSV_JSON,
		.expected = "a database (callscope report DB... [options])",
		.min_operands = 1};
	int c;
	while ((c = cli_args_next(&a, argc, argv)) > 0)
		if (!parse_option(c, o, at))
			return CLI_EXIT_USAGE;
	if (c == CLI_ARGS_EXIT)
		return a.exit_code == CLI_EXIT_OK ? -1 : a.exit_code;
	o->format = a.format;
	if (at->arg && o->view != VIEW_TOP_DOWN) {
		fprintf(stderr, "callscope report: --at needs the top-down "
				"view (the models are per call path)\n");
		return CLI_EXIT_USAGE;
	}
	o->dbs = (const char *const *)a.operands;
	o->n_dbs = (size_t)a.n_operands;
	return CLI_EXIT_OK;
}

static int report_run(struct session *s, const struct cli_report_options *opt,
		      struct at *at)
{
	struct cli_report_options o = *opt;
	struct model *m = NULL;
	struct view *v = NULL;
	uint32_t *cols = NULL;
	size_t ncols = 0;
	struct present_rows rows = {0};
	struct error err = {0};
	int rc = CLI_EXIT_OK;
	m = cli_open_all(s, o.dbs, o.n_dbs);
	if (!m) {
		rc = CLI_EXIT_DATA;
		goto out;
	}
	if (!cli_select_columns("report", m, o.metrics, o.n_metrics, &cols,
				&ncols)) {
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	/* the aggregated views read every deferred subtree: with progress */
	if (o.view != VIEW_TOP_DOWN && !cli_load_all(m)) {
		rc = CLI_EXIT_DATA;
		goto out;
	}
	if (view_new(m, o.view, &v, &err) != STATUS_OK) {
		cli_put_error(&err, "error");
		rc = CLI_EXIT_DATA;
		goto out;
	}
	if (at && (rc = at_open(at, m)) != CLI_EXIT_OK)
		goto out;
	if (at && !at_titles(at, m)) {
		rc = CLI_EXIT_DATA;
		goto out;
	}
	if (!present_rows_init(&rows, v, cols, ncols, NULL, 0, o.format,
			       stdout)) {
		rc = CLI_EXIT_DATA;
		goto out;
	}
	struct at_rows ar = {at, v, o.format};
	struct present_walk w = {.depth = o.depth,
				 .min_percent = o.min_percent,
				 .row = at ? at_row : NULL,
				 .ctx = &ar};
	/* text: a first walk finds the widest cell of each column, so
	 * that wide values do not shift the columns */
	struct present_walk measure = w;
	measure.measure = true;
	if (o.format == PRESENT_FORMAT_TEXT &&
	    present_rows_walk(&rows, &measure, &err) != STATUS_OK) {
		cli_put_error(&err, "error");
		rc = CLI_EXIT_DATA;
		goto out;
	}
	if (o.format == PRESENT_FORMAT_JSON) {
		present_rows_json_open(&rows, model_format(m));
	} else {
		if (at)
			at_header(at, o.format);
		present_rows_header(&rows);
	}
	if (present_rows_walk(&rows, &w, &err) != STATUS_OK) {
		cli_put_error(&err, "error");
		rc = CLI_EXIT_DATA;
	}
	if (o.format == PRESENT_FORMAT_JSON)
		present_rows_json_close(&rows);
	if (rc == CLI_EXIT_OK && cli_value_error(m))
		rc = CLI_EXIT_DATA;
out:
	if (at)
		at_close(at);
	present_rows_fini(&rows);
	view_free(v);
	model_free(m);
	free(cols);
	error_clear(&err);
	return rc;
}

int cli_report(struct session *s, const struct cli_report_options *opt)
{
	return report_run(s, opt, NULL);
}

int cmd_report(struct session *s, int argc, char **argv);
int cmd_report(struct session *s, int argc, char **argv)
{
	struct cli_report_options o = {
		.view = VIEW_TOP_DOWN,
		.depth = UINT32_MAX,
		.format = PRESENT_FORMAT_TEXT,
	};
	struct at at = {0};
	int rc = parse(argc, argv, &o, &at);
	if (rc == CLI_EXIT_OK)
		rc = report_run(s, &o, at.arg ? &at : NULL);
	else if (rc < 0)
		rc = CLI_EXIT_OK;
	free(o.metrics);
	return rc;
}
