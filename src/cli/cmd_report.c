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

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_rows.h"
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

static const char *measured_name(const struct model *m, uint32_t measured)
{
	uint32_t col = model_measured_column(m, measured);
	uint32_t stat = col == MODEL_NONE ? MODEL_NONE
					  : model_column_stat(m, col);

	if (stat == MODEL_NONE)
		return col == MODEL_NONE ? "" : m->columns[col].name;
	return model_str(m, m->stats[stat].metric);
}

static int at_fail(const struct model *m, const char *what, const char *name)
{
	fputs("callscope report: ", stderr);
	cli_put_text(stderr, m->path);
	fputs(": --at: ", stderr);
	fputs(what, stderr);
	if (name) {
		fputs(" '", stderr);
		cli_put_text(stderr, name);
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

	if (m->n_params == 0 || model_n_measured(m) == 0)
		return at_fail(m, "not a parametric measurement set", NULL);
	at->coords = calloc(m->n_params, sizeof *at->coords);
	given = calloc(m->n_params, sizeof *given);
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
	for (uint32_t p = 0; p < m->n_params && rc == CLI_EXIT_OK; p++)
		if (!given[p])
			rc = at_fail(m, "no value for parameter",
				     model_str(m, m->params[p].name));
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
		size_t len = strlen(measured_name(m, k)) + strlen(at->arg) + 2;

		at->titles[k] = malloc(len);
		if (!at->titles[k])
			return false;
		snprintf(at->titles[k], len, "%s@%s", measured_name(m, k),
			 at->arg);
	}
	return true;
}

static int at_width(const struct at *at, uint32_t k)
{
	int w = (int)strlen(at->titles[k]);

	return w > AT_WIDTH ? w : AT_WIDTH;
}

static void at_header(const struct at *at, enum cli_format format)
{
	for (uint32_t k = 0; k < at->n_measured; k++) {
		if (format == CLI_FORMAT_CSV) {
			cli_put_csv(stdout, at->titles[k]);
			fputc(',', stdout);
		} else {
			printf("%*s", at_width(at, k) - (int)strlen(at->titles[k]),
			       "");
			cli_put_text(stdout, at->titles[k]);
			fputs("  ", stdout);
		}
	}
}

/* The row's model columns: text and CSV before the row, JSON into it. */
static void at_row(struct at *at, const struct view *v, uint32_t node,
		   enum cli_format format, json_t *j)
{
	struct view_node vn;
	json_t *vals = format == CLI_FORMAT_JSON ? json_array() : NULL;

	if (!view_node_get(v, node, &vn))
		return;
	for (uint32_t k = 0; k < at->n_measured; k++) {
		double x = vn.model_node == MODEL_NONE ? (double)NAN
						       : at_value(at, &vn, k);

		if (vals)
			json_array_append_new(vals, isnan(x) ? json_null()
							     : json_real(x));
		else if (format == CLI_FORMAT_CSV && !isnan(x))
			printf("%.17g,", x);
		else if (format == CLI_FORMAT_CSV)
			fputc(',', stdout);
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

static int parse(int argc, char **argv, struct cli_report_options *o,
		 struct at *at)
{
	static const struct option longopts[] = {
		{"view", required_argument, NULL, 'v'},
		{"metric", required_argument, NULL, 'm'},
		{"depth", required_argument, NULL, 'd'},
		{"min-percent", required_argument, NULL, 'p'},
		{"format", required_argument, NULL, 'f'},
		{"at", required_argument, NULL, 'a'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "v:m:d:p:f:a:h", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'a':
			at->arg = optarg;
			break;
		case 'v':
			if (!view_kind_parse(optarg, &o->view)) {
				fprintf(stderr, "callscope report: unknown "
						"--view (expected top-down, "
						"bottom-up or flat)\n");
				return CLI_EXIT_USAGE;
			}
			break;
		case 'm': {
			char **p = realloc(o->metrics, (o->n_metrics + 1) *
							       sizeof(*p));
			if (!p)
				return CLI_EXIT_USAGE;
			o->metrics = p;
			o->metrics[o->n_metrics++] = optarg;
			break;
		}
		case 'd':
			if (!cli_parse_u32("report", "--depth", optarg,
					   &o->depth))
				return CLI_EXIT_USAGE;
			break;
		case 'p':
			if (!cli_parse_double("report", "--min-percent",
					      optarg, &o->min_percent))
				return CLI_EXIT_USAGE;
			break;
		case 'f':
			if (!cli_parse_format("report", optarg, 7, &o->format))
				return CLI_EXIT_USAGE;
			break;
		default:
			return cli_option_other(c, -1);
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "callscope report: expected a database "
				"(callscope report DB... [options])\n");
		return CLI_EXIT_USAGE;
	}
	if (at->arg && o->view != VIEW_TOP_DOWN) {
		fprintf(stderr, "callscope report: --at needs the top-down "
				"view (the models are per call path)\n");
		return CLI_EXIT_USAGE;
	}
	o->dbs = (const char *const *)argv + optind;
	o->n_dbs = (size_t)(argc - optind);
	return CLI_EXIT_OK;
}

/* Pre-order walk with an explicit stack of pending siblings. */
static int walk(struct cli_rows *r, const struct cli_report_options *o,
		uint32_t sort_column, double total, bool have_total,
		struct at *at)
{
	uint32_t *stack = NULL;
	size_t n = 0, cap = 0;
	int rc = CLI_EXIT_OK;
	bool first = true;
	struct error err = {0};
	uint32_t root = view_root(r->view);
	double threshold = have_total ? total * o->min_percent / 100.0 : 0;
	stack = malloc(sizeof(*stack));
	if (!stack)
		return CLI_EXIT_DATA;
	cap = 1;
	stack[n++] = root;
	while (n > 0) {
		uint32_t node = stack[--n];
		struct view_node vn;
		if (!view_node_get(r->view, node, &vn))
			continue;
		if (r->format == CLI_FORMAT_JSON) {
			json_t *j = cli_rows_node_json(r, node);
			if (at)
				at_row(at, r->view, node, r->format, j);
			fputs(first ? "\n" : ",\n", r->out);
			cli_put_json(r->out, j, JSON_COMPACT | JSON_REAL_PRECISION(17));
			json_decref(j);
		} else {
			if (at)
				at_row(at, r->view, node, r->format, NULL);
			cli_rows_print(r, node);
		}
		first = false;
		if (o->depth != UINT32_MAX && vn.depth >= o->depth)
			continue;
		uint32_t *kids = NULL;
		size_t nk = 0;
		if (view_children(r->view, node, sort_column, false, &kids, &nk,
				  &err) != STATUS_OK) {
			cli_put_error(&err, "error");
			rc = CLI_EXIT_DATA;
			break;
		}
		/* children are sorted descending: cut at the threshold */
		size_t keep = nk;
		if (o->min_percent > 0 && have_total) {
			for (keep = 0; keep < nk; keep++) {
				double v;
				if (!view_value(r->view, kids[keep],
						sort_column, &v) ||
				    v < threshold)
					break;
			}
		}
		if (n + keep > cap) {
			size_t ncap = (n + keep) * 2;
			uint32_t *p = realloc(stack, ncap * sizeof(*p));
			if (!p) {
				free(kids);
				rc = CLI_EXIT_DATA;
				break;
			}
			stack = p;
			cap = ncap;
		}
		for (size_t i = keep; i-- > 0;)
			stack[n++] = kids[i];
		free(kids);
	}
	free(stack);
	error_clear(&err);
	return rc;
}

static int report_run(const struct cli_report_options *opt, struct at *at)
{
	struct cli_report_options o = *opt;
	struct model *m = NULL;
	struct view *v = NULL;
	uint32_t *cols = NULL;
	size_t ncols = 0;
	struct cli_rows rows = {0};
	struct error err = {0};
	int rc = CLI_EXIT_OK;
	m = cli_open_all(o.dbs, o.n_dbs);
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
	if (!cli_rows_init(&rows, v, cols, ncols, o.format, stdout)) {
		rc = CLI_EXIT_DATA;
		goto out;
	}
	uint32_t sort = ncols ? cols[0] : MODEL_NONE;
	double total = 0;
	bool have_total = ncols && rows.has_total[0];
	if (have_total)
		total = rows.totals[0];
	if (o.format == CLI_FORMAT_JSON) {
		json_t *cj = cli_rows_columns_json(&rows);
		fputs("{\"format\":", stdout);
		json_t *fj = json_string(m->format);
		cli_put_json(stdout, fj, JSON_ENCODE_ANY);
		json_decref(fj);
		printf(",\"view\":\"%s\",\"columns\":",
		       view_kind_name(o.view));
		if (!cj || !cli_put_json(stdout, cj, JSON_COMPACT))
			fputs("[]", stdout);
		fputs(",\"nodes\":[", stdout);
		json_decref(cj);
	} else {
		if (at)
			at_header(at, o.format);
		cli_rows_header(&rows);
	}
	rc = walk(&rows, &o, sort, total, have_total, at);
	if (o.format == CLI_FORMAT_JSON)
		fputs("\n]}\n", stdout);
	if (rc == CLI_EXIT_OK && cli_value_error(m))
		rc = CLI_EXIT_DATA;
out:
	if (at)
		at_close(at);
	cli_rows_fini(&rows);
	view_free(v);
	model_free(m);
	free(cols);
	error_clear(&err);
	return rc;
}

int cli_report(const struct cli_report_options *opt)
{
	return report_run(opt, NULL);
}

int cmd_report(int argc, char **argv);
int cmd_report(int argc, char **argv)
{
	struct cli_report_options o = {
		.view = VIEW_TOP_DOWN,
		.depth = UINT32_MAX,
		.format = CLI_FORMAT_TEXT,
	};
	struct at at = {0};
	int rc = parse(argc, argv, &o, &at);
	if (rc == CLI_EXIT_OK)
		rc = report_run(&o, at.arg ? &at : NULL);
	else if (rc < 0)
		rc = CLI_EXIT_OK;
	free(o.metrics);
	return rc;
}
