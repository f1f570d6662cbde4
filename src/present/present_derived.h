/* present_derived: the columns a viewer shows (struct column_set) and the
 * derived columns typed with `:derive NAME = FORMULA`, evaluated the same
 * way for the tree pane, `:export` and any other output: a column index
 * below the model's n_columns is a model column, n_columns + i is derived
 * column i, whose formula's leaves are model column indexes.  No curses
 * here. */
#ifndef CALLSCOPE_PRESENT_DERIVED_H
#define CALLSCOPE_PRESENT_DERIVED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct model;
struct view;
struct formula;

/* A derived column typed with :derive NAME = FORMULA; its leaves are model
 * column indexes. */
struct derived_column {
	char *name;
	char *text;
	struct formula *expr;
};

/* The columns shown and how (read-only for panes: they change them through
 * the services). */
struct column_set {
	const uint32_t *columns; /* shown model columns, in order */
	size_t n_columns;
	const struct derived_column *derived; /* column n_columns + i */
	size_t n_derived;
	/* per model column: the percentages' base, computed on first use
	 * (a hidden column's total may need a pass over every value: Cube
	 * metrics stored exclusive) and kept, the model being immutable:
	 * has_total 0 not yet asked, 1 known, 2 none.  A cache the panes
	 * fill through pane_column_total(), never write otherwise. */
	double *totals;
	uint8_t *has_total;
	uint32_t sort_column;
	bool sort_ascending;
	bool show_bars;
	double threshold; /* hot path threshold, percent */
};

/* The value of column `column` (model column, or model n_columns + i for
 * derived[i]) at row `node` of `v`.  False when absent: a model column
 * without a value, a derived column none of whose leaves has a value, an
 * index beyond both. */
bool present_column_value(struct view *v, const struct derived_column *derived,
			  size_t n_derived, uint32_t column, uint32_t node,
			  double *out);

/* Derived formulas by column name.  A formula names a model column as
 * $N (column N as the column chooser numbers them, counting from 1: a
 * number that means another column in another database) or as
 * $"TITLE" (the column's title, "CPUTIME (sec) (I)", with \" and \\
 * inside the quotes), which `:derive` saves so that a formula made on one
 * database means the same in every other that has those columns, and
 * nothing where they are missing. */

/* `text` with every $"TITLE" replaced by $N, as formula_parse reads it.
 * Heap string; NULL when a title, or a $N, is no column of `m` (*missing
 * then names it, a heap string) or when out of memory (*missing NULL). */
char *present_derived_numbered(const struct model *m, const char *text,
			       char **missing);

/* `text` with every $N of a column of `m` replaced by $"TITLE", a title
 * that model_find_column finds again (a $N beyond the columns stays as it
 * is).  Heap string, NULL when out of memory. */
char *present_derived_named(const struct model *m, const char *text);

#endif
