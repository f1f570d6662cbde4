/* present_rows: how the rows of a view (a node with its columns' values)
 * are written as text, CSV or JSON: `report`, `hotpath` and the viewer's
 * `:export` all write through it, so that they cannot drift apart.  The
 * columns may include derived columns (present_derived.h).  The report's
 * walk (pre-order, children sorted by the first column, cut at a depth
 * and a share of the total) is streamed: a report of millions of rows is
 * never held in memory.  No curses here. */
#ifndef CALLSCOPE_PRESENT_ROWS_H
#define CALLSCOPE_PRESENT_ROWS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/status.h"
#include "present/present_derived.h"
#include "views/view.h"

enum present_format {
	PRESENT_FORMAT_TEXT,
	PRESENT_FORMAT_CSV,
	PRESENT_FORMAT_JSON,
};

struct present_rows {
	struct view *view;
	const struct model *model;
	const uint32_t *columns; /* model columns, or n_columns + derived i */
	size_t n_columns;
	const struct derived_column *derived;
	size_t n_derived;
	enum present_format format;
	FILE *out;
	double *totals; /* per selected column, for percentages */
	bool *has_total;
	uint32_t base_depth; /* depth printed as 0 in text indentation */
	/* text: per selected column, the width of its values and of their
	 * percentages' numbers (at least 10 and 6; present_rows_measure
	 * widens them to the widest cell) */
	int *value_width;
	int *percent_width;
};

/* Prepare totals; false when out of memory.  `derived` (n_derived) are
 * the derived columns `columns` may name (NULL, 0: none). */
bool present_rows_init(struct present_rows *r, struct view *view,
		       const uint32_t *columns, size_t n_columns,
		       const struct derived_column *derived, size_t n_derived,
		       enum present_format format, FILE *out);
void present_rows_fini(struct present_rows *r);

/* The value of selected column `i` at row `node`; false when absent. */
bool present_rows_value(const struct present_rows *r, size_t i, uint32_t node,
			double *out);

/* The "columns" array of the JSON output. */
json_t *present_rows_columns_json(const struct present_rows *r);

/* One node as a JSON object ({"id", "parent", "depth", "kind", "name",
 * "file", "line", "module", "values"}). */
json_t *present_rows_node_json(const struct present_rows *r, uint32_t node);

/* Text: widen the columns to fit row `node`'s cells (call for every row
 * before the header, so that the columns line up however wide a value
 * is). */
void present_rows_measure(const struct present_rows *r, uint32_t node);

/* Header line for text and CSV. */
void present_rows_header(const struct present_rows *r);

/* One text or CSV row. */
void present_rows_print(const struct present_rows *r, uint32_t node);

/* The JSON document's start: {"format":FORMAT,"view":VIEW,"columns":[...],
 * "nodes":[ -- each node then goes through present_rows_json_node, and
 * present_rows_json_close ends it. */
void present_rows_json_open(const struct present_rows *r, const char *format);
/* One node of the document (`first`: the first one); `j` is the node's
 * object (present_rows_node_json, maybe with more members). */
void present_rows_json_node(const struct present_rows *r, const json_t *j,
			    bool first);
void present_rows_json_close(const struct present_rows *r);

/* One row in the writer's format: a text or CSV line, or a JSON node. */
void present_rows_put(const struct present_rows *r, uint32_t node, bool first);

/* The report's walk. */
struct present_walk {
	uint32_t depth;     /* deepest row written; UINT32_MAX: all */
	double min_percent; /* children under this share of the first
			       column's total are cut */
	/* called for each row before it is written: in text and CSV it may
	 * write columns of its own before the row's; in JSON `j` is the
	 * node's object, to which it may add members (NULL otherwise) */
	void (*row)(void *ctx, uint32_t node, json_t *j);
	void *ctx;
	/* visit the same rows but only measure them (present_rows_measure):
	 * no output, no row hook */
	bool measure;
};

/* Write the rows of the view from its root in pre-order, children sorted
 * by the first column (descending), as `w` asks.  STATUS_OK, or why the
 * walk stopped (in `err`). */
enum status present_rows_walk(struct present_rows *r,
			      const struct present_walk *w, struct error *err);

#endif
