/* cmd_hotpath: `callscope hotpath DB [--metric NAME] [--threshold PCT]
 * [--format text|json]`: the hot path from the root of the top-down tree,
 * following the child with the largest value while it holds at least the
 * threshold percent of its parent.  Must not depend on curses or on ui/. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "present/present_rows.h"

/* The columns printed, the one followed first: --metric names one column
 * (the metric's inclusive one unless the name says otherwise); without
 * it, the visible columns with the one the viewer opens sorted by first.
 * False with the exit status in *rc. */
static bool choose_columns(const struct model *m, char *metric,
			   uint32_t **cols, size_t *ncols, int *rc)
{
	*rc = CLI_EXIT_USAGE;
	uint32_t col = metric ? model_find_column(m, metric) : MODEL_NONE;
	if (col != MODEL_NONE) {
		*rc = CLI_EXIT_DATA;
		if (!(*cols = malloc(sizeof(**cols))))
			return false;
		(*cols)[0] = col;
		*ncols = 1;
	} else if (!cli_select_columns("hotpath", m, metric ? &metric : NULL,
				       metric ? 1 : 0, cols, ncols)) {
		return false;
	} else if (!metric && *ncols > 1) {
		/* follow the column the viewer opens sorted by
		 * (view_default_column: a time where there is one), listed
		 * first, so that H on screen and this command agree */
		uint32_t d = view_default_column(m, VIEW_TOP_DOWN, *cols,
						 *ncols);
		for (size_t i = 1; i < *ncols && d != MODEL_NONE; i++)
			if ((*cols)[i] == d) {
				memmove(*cols + 1, *cols, i * sizeof(**cols));
				(*cols)[0] = d;
				break;
			}
	}
	if (*ncols == 0) {
		cli_put_db_problem("hotpath", m, "the database has no metric");
		*rc = CLI_EXIT_DATA;
		return false;
	}
	return true;
}

static void put_path(struct present_rows *rows, enum present_format format,
		     const uint32_t *path, size_t npath, double threshold)
{
	if (format == PRESENT_FORMAT_JSON) {
		json_t *nodes = json_array();
		for (size_t i = 0; i < npath; i++)
			json_array_append_new(
				nodes, present_rows_node_json(rows, path[i]));
		json_t *doc = json_pack("{s:o, s:f, s:o}", "columns",
					present_rows_columns_json(rows),
					"threshold", threshold, "nodes", nodes);
		cli_put_json(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
		return;
	}
	for (size_t i = 0; i < npath; i++)
		present_rows_measure(rows, path[i]);
	present_rows_header(rows);
	for (size_t i = 0; i < npath; i++)
		present_rows_print(rows, path[i]);
}

int cmd_hotpath(struct session *s, int argc, char **argv);
int cmd_hotpath(struct session *s, int argc, char **argv)
{
	static const struct option own[] = {
		{"metric", required_argument, NULL, 'm'},
		{"threshold", required_argument, NULL, 't'},
		{NULL, 0, NULL, 0},
	};
	struct cli_args a = {.cmd = "hotpath", .options = own,
			     .shortopts = "m:t:", .formats = CLI_TEXT_JSON,
			     .expected = "a database", .min_operands = 1};
	char *metric = NULL;
	double threshold = 50.0;
	int c;
	while ((c = cli_args_next(&a, argc, argv)) > 0) {
		if (c == 'm') {
			metric = optarg;
			continue;
		}
		/* -t */
		if (!cli_parse_double("hotpath", "--threshold", optarg,
				      &threshold))
			return CLI_EXIT_USAGE;
		if (threshold > 100) {
			fprintf(stderr, "callscope hotpath: --threshold is a "
					"percentage (0-100)\n");
			return CLI_EXIT_USAGE;
		}
	}
	if (c == CLI_ARGS_EXIT)
		return a.exit_code;
	struct model *m = cli_open_all(s, (const char *const *)a.operands,
				       (size_t)a.n_operands);
	struct view *v = NULL;
	uint32_t *cols = NULL, *path = NULL;
	size_t ncols = 0, npath = 0;
	struct present_rows rows = {0};
	struct error err = {0};
	int rc = CLI_EXIT_DATA;
	if (!m)
		return CLI_EXIT_DATA;
	if (!choose_columns(m, metric, &cols, &ncols, &rc))
		goto out;
	rc = CLI_EXIT_DATA;
	if (view_new(m, VIEW_TOP_DOWN, &v, &err) != STATUS_OK ||
	    view_hotpath(v, view_root(v), cols[0], threshold, &path, &npath,
			 &err) != STATUS_OK) {
		cli_put_error(&err, "error");
		goto out;
	}
	if (!present_rows_init(&rows, v, cols, ncols, NULL, 0, a.format,
			       stdout))
		goto out;
	put_path(&rows, a.format, path, npath, threshold);
	rc = cli_value_error(m) ? CLI_EXIT_DATA : CLI_EXIT_OK;
out:
	present_rows_fini(&rows);
	free(path);
	free(cols);
	view_free(v);
	model_free(m);
	error_clear(&err);
	return rc;
}
