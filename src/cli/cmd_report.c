/* cmd_report: `callscope report DB [--view V] [--metric NAME]... [--depth N]
 * [--min-percent P] [--format text|csv|json]`: the tree of a view with its
 * metric columns, children sorted by the first column, streamed in
 * pre-order so that a full report of millions of contexts is never held
 * in memory.  Must not depend on curses or on ui/. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_rows.h"

static int parse(int argc, char **argv, struct cli_report_options *o)
{
	static const struct option longopts[] = {
		{"view", required_argument, NULL, 'v'},
		{"metric", required_argument, NULL, 'm'},
		{"depth", required_argument, NULL, 'd'},
		{"min-percent", required_argument, NULL, 'p'},
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "v:m:d:p:f:h", longopts, NULL)) !=
	       -1) {
		switch (c) {
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
	o->dbs = (const char *const *)argv + optind;
	o->n_dbs = (size_t)(argc - optind);
	return CLI_EXIT_OK;
}

/* Pre-order walk with an explicit stack of pending siblings. */
static int walk(struct cli_rows *r, const struct cli_report_options *o,
		uint32_t sort_column, double total, bool have_total)
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
			fputs(first ? "\n" : ",\n", r->out);
			cli_put_json(r->out, j, JSON_COMPACT | JSON_REAL_PRECISION(17));
			json_decref(j);
		} else {
			cli_rows_print(r, node);
		}
		first = false;
		if (o->depth != UINT32_MAX && vn.depth >= o->depth)
			continue;
		uint32_t *kids = NULL;
		size_t nk = 0;
		if (view_children(r->view, node, sort_column, false, &kids, &nk,
				  &err) != STATUS_OK) {
			char *line = error_format(&err);
			fputs("callscope: ", stderr);
			cli_put_text(stderr, line ? line : "error");
			fputc('\n', stderr);
			free(line);
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

int cli_report(const struct cli_report_options *opt)
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
	if (view_new(m, o.view, &v, &err) != STATUS_OK) {
		char *line = error_format(&err);
		fputs("callscope: ", stderr);
		cli_put_text(stderr, line ? line : "error");
		fputc('\n', stderr);
		free(line);
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
		cli_rows_header(&rows);
	}
	rc = walk(&rows, &o, sort, total, have_total);
	if (o.format == CLI_FORMAT_JSON)
		fputs("\n]}\n", stdout);
	if (rc == CLI_EXIT_OK && cli_value_error(m))
		rc = CLI_EXIT_DATA;
out:
	cli_rows_fini(&rows);
	view_free(v);
	model_free(m);
	free(cols);
	error_clear(&err);
	return rc;
}

int cmd_report(int argc, char **argv);
int cmd_report(int argc, char **argv)
{
	struct cli_report_options o = {
		.view = VIEW_TOP_DOWN,
		.depth = UINT32_MAX,
		.format = CLI_FORMAT_TEXT,
	};
	int rc = parse(argc, argv, &o);
	if (rc == CLI_EXIT_OK)
		rc = cli_report(&o);
	else if (rc < 0)
		rc = CLI_EXIT_OK;
	free(o.metrics);
	return rc;
}
