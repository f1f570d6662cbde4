/* cmd_hotpath: `callscope hotpath DB [--metric NAME] [--threshold PCT]
 * [--format text|json]`: the hot path from the root of the top-down tree,
 * following the child with the largest value while it holds at least the
 * threshold percent of its parent.  Must not depend on curses or on ui/. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "present/present_rows.h"

int cmd_hotpath(struct session *s, int argc, char **argv);
int cmd_hotpath(struct session *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"metric", required_argument, NULL, 'm'},
		{"threshold", required_argument, NULL, 't'},
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char *metric = NULL;
	double threshold = 50.0;
	enum present_format format = PRESENT_FORMAT_TEXT;
	struct model *m = NULL;
	struct view *v = NULL;
	uint32_t *cols = NULL, *path = NULL;
	size_t ncols = 0, npath = 0;
	struct present_rows rows = {0};
	struct error err = {0};
	int rc = CLI_EXIT_OK, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:t:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			metric = optarg;
			break;
		case 't':
			if (!cli_parse_double("hotpath", "--threshold", optarg,
					      &threshold) ||
			    threshold > 100) {
				if (threshold > 100)
					fprintf(stderr, "callscope hotpath: "
							"--threshold is a "
							"percentage (0-100)\n");
				return CLI_EXIT_USAGE;
			}
			break;
		case 'f':
			if (!cli_parse_format("hotpath", optarg, 5, &format))
				return CLI_EXIT_USAGE;
			break;
		case 'h':
			cli_usage(stdout);
			return CLI_EXIT_OK;
		default:
			fprintf(stderr, "Try 'callscope --help'.\n");
			return CLI_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "callscope hotpath: expected a database\n");
		return CLI_EXIT_USAGE;
	}
	m = cli_open_all(s, (const char *const *)argv + optind,
			 (size_t)(argc - optind));
	if (!m)
		return CLI_EXIT_DATA;
	if (metric) {
		/* --metric names one column: the metric's inclusive one
		 * unless the name says otherwise */
		uint32_t col = model_find_column(m, metric);
		if (col == MODEL_NONE) {
			if (!cli_select_columns("hotpath", m, &metric, 1, &cols,
						&ncols)) {
				rc = CLI_EXIT_USAGE;
				goto out;
			}
		} else {
			cols = malloc(sizeof(*cols));
			if (!cols) {
				rc = CLI_EXIT_DATA;
				goto out;
			}
			cols[0] = col;
			ncols = 1;
		}
	} else if (!cli_select_columns("hotpath", m, NULL, 0, &cols, &ncols)) {
		rc = CLI_EXIT_USAGE;
		goto out;
	} else if (ncols > 1) {
		/* no --metric: follow the column the viewer opens sorted by
		 * (view_default_column: a time where there is one), listed
		 * first, so that H on screen and this command agree */
		uint32_t d = view_default_column(m, VIEW_TOP_DOWN, cols, ncols);
		for (size_t i = 1; i < ncols && d != MODEL_NONE; i++)
			if (cols[i] == d) {
				memmove(cols + 1, cols, i * sizeof(*cols));
				cols[0] = d;
				break;
			}
	}
	if (ncols == 0) {
		fputs("callscope hotpath: ", stderr);
		present_put_text(stderr, m->path);
		fputs(": the database has no metric\n", stderr);
		rc = CLI_EXIT_DATA;
		goto out;
	}
	if (view_new(m, VIEW_TOP_DOWN, &v, &err) != STATUS_OK ||
	    view_hotpath(v, view_root(v), cols[0], threshold, &path, &npath,
			 &err) != STATUS_OK) {
		cli_put_error(&err, "error");
		rc = CLI_EXIT_DATA;
		goto out;
	}
	if (!present_rows_init(&rows, v, cols, ncols, NULL, 0, format, stdout)) {
		rc = CLI_EXIT_DATA;
		goto out;
	}
	if (format == PRESENT_FORMAT_JSON) {
		json_t *nodes = json_array();
		for (size_t i = 0; i < npath; i++)
			json_array_append_new(nodes,
					      present_rows_node_json(&rows, path[i]));
		json_t *doc = json_pack("{s:o, s:f, s:o}", "columns",
					present_rows_columns_json(&rows),
					"threshold", threshold, "nodes", nodes);
		present_put_json(stdout, doc, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
		fputc('\n', stdout);
		json_decref(doc);
	} else {
		for (size_t i = 0; i < npath; i++)
			present_rows_measure(&rows, path[i]);
		present_rows_header(&rows);
		for (size_t i = 0; i < npath; i++)
			present_rows_print(&rows, path[i]);
	}
	if (rc == CLI_EXIT_OK && cli_value_error(m))
		rc = CLI_EXIT_DATA;
out:
	present_rows_fini(&rows);
	free(path);
	free(cols);
	view_free(v);
	model_free(m);
	error_clear(&err);
	return rc;
}
