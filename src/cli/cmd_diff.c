/* cmd_diff: `callscope diff BASE NEW [--match path|function] [--metric M
 * | --metric BASE=NEW]... [--view top-down|flat] [--depth N] [--format
 * text|csv|json] [--no-normalize]`: the merged tree of two runs
 * (compare/diff.h) written as `report` writes a tree, through the same
 * writers (present_rows), so that text, CSV and JSON have the report's
 * shape: per metric and scope the columns base, new, delta, delta% (of
 * the base run's total) and ratio; before each row its status (both, new,
 * gone; in JSON the node's "status", and each column's "run" or
 * "role"); children sorted by the absolute delta of the first metric
 * (inclusive where both runs have it).  Must not depend on curses or on
 * ui/. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_diff.h"
#include "core/sanitize.h"

struct diff_cmd {
	struct cli_diff cd;
	enum view_kind view;
	uint32_t depth;
	enum present_format format;
};

struct diff_parse {
	struct diff_cmd *o;
	int n_operands;
};

static int own_option(void *ctx, int c, const char *arg)
{
	struct diff_parse *p = ctx;
	struct diff_cmd *o = p->o;
	switch (c) {
	case 1:
	case 2:
		if (p->n_operands == 0)
			o->cd.base_path = arg;
		else if (p->n_operands == 1)
			o->cd.new_path = arg;
		p->n_operands++;
		break;
	case 'v':
		if (!view_kind_parse(arg, &o->view) ||
		    o->view == VIEW_BOTTOM_UP) {
			fprintf(stderr, "callscope diff: unknown --view "
					"(expected top-down or flat)\n");
			return CLI_EXIT_USAGE;
		}
		break;
	}
	return CLI_EXIT_OK;
}

static int parse(int argc, char **argv, struct diff_cmd *o)
{
	static const struct option longopts[] = {
	    {"view", required_argument, NULL, 'v'},
	    {NULL, 0, NULL, 0},
	};
	struct diff_parse p = {o, 0};
	const struct cli_diff_args a = {.cmd = "diff",
					.shorts = "v:",
					.longs = longopts,
					.own = own_option,
					.ctx = &p,
					.usage_rc = CLI_EXIT_USAGE,
					.depth = &o->depth,
					.format = &o->format};
	int rc = cli_diff_getopt(&a, argc, argv, &o->cd);
	if (rc != CLI_EXIT_OK)
		return rc;
	if (p.n_operands != 2) {
		fprintf(stderr, "callscope diff: expected two databases "
				"(callscope diff BASE NEW [options])\n");
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* The walk (cli_walk_rows): rows in pre-order, children by absolute
 * delta, each row after its status. */
struct walk {
	struct diff_cmd *o;
	struct view *v;
	uint32_t base_col, new_col;
};

/* A row's status: the merged node's in the top-down view; in the flat
 * view, from which run has a value of the first metric. */
static uint8_t row_status(const struct walk *w, uint32_t row)
{
	struct view_node vn;
	if (!view_node_get(w->v, row, &vn))
		return DIFF_BOTH;
	if (w->o->view == VIEW_TOP_DOWN) {
		const struct diff *d = w->o->cd.diff;
		return vn.model_node < d->n_nodes
			   ? d->nodes[vn.model_node].status
			   : DIFF_BOTH;
	}
	double x;
	bool hb = view_value(w->v, row, w->base_col, &x);
	bool hn = view_value(w->v, row, w->new_col, &x);
	return hb && !hn ? DIFF_GONE : hn && !hb ? DIFF_NEW : DIFF_BOTH;
}

static void put_status(void *ctx, uint32_t row, json_t *j, FILE *out,
		       enum present_format format)
{
	const char *status = diff_status_name(row_status(ctx, row));
	if (j)
		json_object_set_new(j, "status", json_string(status));
	else if (format == PRESENT_FORMAT_CSV)
		fprintf(out, "%s,", status);
	else
		fprintf(out, "%-7s", status);
}

/* The JSON document's start: the report's, with the runs, the matching,
 * and each column's "run" or "role". */
static void json_open(void *ctx, struct present_rows *r)
{
	struct diff_cmd *o = ctx;
	const struct diff *d = o->cd.diff;
	json_t *cols = present_rows_columns_json(r);
	for (size_t i = 0; cols && i < r->n_columns; i++) {
		json_t *c = json_array_get(cols, i);
		size_t k;
		enum diff_scope scope;
		enum diff_role role;
		if (!diff_model_column_of(d, r->columns[i], &k, &scope, &role))
			continue;
		if (role == DIFF_ROLE_BASE || role == DIFF_ROLE_NEW)
			json_object_set_new(c, "run",
					    json_string(diff_role_name(role)));
		else
			json_object_set_new(c, "role",
					    json_string(diff_role_name(role)));
		if (role == DIFF_ROLE_PERCENT)
			json_object_set_new(c, "percent_of",
					    json_string("base total"));
		if (role == DIFF_ROLE_PERCENT && d->has_total[k])
			json_object_set_new(c, "base_total",
					    present_json_number(d->base_total[k]));
	}
	json_t *head =
	    json_pack("{s:s, s:s, s:{s:o, s:o}, s:{s:o, s:o}, s:s, s:b}",
		      "format", "diff", "view", view_kind_name(o->view), "base",
		      "path", present_json_text(o->cd.base_path), "format",
		      present_json_text(o->cd.base_format), "new", "path",
		      present_json_text(o->cd.new_path), "format",
		      present_json_text(o->cd.new_format), "match",
		      o->cd.opt.match == DIFF_MATCH_PATH ? "path" : "function",
		      "normalize", o->cd.opt.normalize);
	cli_json_open_tree(head, cols, "diff", r->out);
}

/* The text's lines before the header: the runs, the matching. */
static void put_preamble(void *ctx)
{
	const struct diff_cmd *o = ctx;
	fputs("Base: ", stdout);
	present_put_text(stdout, o->cd.base_path);
	fputs("\nNew:  ", stdout);
	present_put_text(stdout, o->cd.new_path);
	printf("\nMatch: %s%s; delta%% is of the base run's total; "
	       "sorted by |delta|\n",
	       o->cd.opt.match == DIFF_MATCH_PATH ? "call path" : "function",
	       o->cd.opt.normalize ? ", names normalised" : "");
}

static int run(struct session *s, struct diff_cmd *o)
{
	struct present_rows rows = {0};
	struct view *v = NULL;
	uint32_t *cols = NULL;
	int rc = cli_diff_open(s, "diff", &o->cd);
	if (rc != CLI_EXIT_OK)
		return rc;
	const struct model *m = o->cd.model;
	const struct diff *d = o->cd.diff;
	rc = CLI_EXIT_DATA;
	if (!cli_tree_rows(&rows, m, o->view, o->format, &v, &cols))
		goto out;
	enum diff_scope scope = diff_has_scope(d, 0, DIFF_INCLUSIVE)
				    ? DIFF_INCLUSIVE
				    : DIFF_EXCLUSIVE;
	struct walk wk = {o, v, diff_model_column(d, 0, scope, DIFF_ROLE_BASE),
			  diff_model_column(d, 0, scope, DIFF_ROLE_NEW)};
	struct cli_walk w = {&rows,
			     v,
			     diff_model_column(d, 0, scope, DIFF_ROLE_DELTA),
			     o->depth,
			     false,
			     put_status,
			     &wk};
	if (w.sort_col == MODEL_NONE) {
		fprintf(stderr, "callscope diff: the runs share no scope of "
				"the metric (inclusive or exclusive)\n");
		goto out;
	}
	const struct cli_tree_head head = {"Status ", "status,", put_preamble,
					   json_open, o};
	rc = cli_walk_tree(&w, &head) ? CLI_EXIT_OK : CLI_EXIT_DATA;
out:
	present_rows_fini(&rows);
	view_free(v);
	free(cols);
	cli_diff_close(&o->cd);
	return rc;
}

int cmd_diff(struct session *s, int argc, char **argv);
int cmd_diff(struct session *s, int argc, char **argv)
{
	struct diff_cmd o = {
	    .cd = {.opt = {.match = DIFF_MATCH_PATH, .normalize = true}},
	    .view = VIEW_TOP_DOWN,
	    .depth = UINT32_MAX,
	    .format = PRESENT_FORMAT_TEXT,
	};
	int rc = parse(argc, argv, &o);
	if (rc == CLI_EXIT_OK)
		rc = run(s, &o);
	else if (rc < 0)
		rc = CLI_EXIT_OK;
	free(o.cd.metrics);
	return rc;
}
