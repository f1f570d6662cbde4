/* cli_rows: how one row of a view (a node with its metric values) is
 * written as text, CSV or JSON, shared by `report` and `hotpath`.  Must not
 * depend on curses or on ui/. */
#ifndef CALLSCOPE_CLI_ROWS_H
#define CALLSCOPE_CLI_ROWS_H

#include <jansson.h>
#include <stdio.h>

#include "cli/cli.h"
#include "views/view.h"

struct cli_rows {
	struct view *view;
	const struct model *model;
	const uint32_t *columns;
	size_t n_columns;
	enum cli_format format;
	FILE *out;
	double *totals;     /* per selected column, for percentages */
	bool *has_total;
	uint32_t base_depth; /* depth printed as 0 in text indentation */
};

/* Prepare totals; false when out of memory. */
bool cli_rows_init(struct cli_rows *r, struct view *view,
		   const uint32_t *columns, size_t n_columns,
		   enum cli_format format, FILE *out);
void cli_rows_fini(struct cli_rows *r);

/* The "columns" array of the JSON output. */
json_t *cli_rows_columns_json(const struct cli_rows *r);

/* One node as a JSON object ({"id", "parent", "depth", "kind", "name",
 * "file", "line", "module", "values"}). */
json_t *cli_rows_node_json(const struct cli_rows *r, uint32_t node);

/* Header line for text and CSV. */
void cli_rows_header(const struct cli_rows *r);

/* One text or CSV row. */
void cli_rows_print(const struct cli_rows *r, uint32_t node);

#endif
