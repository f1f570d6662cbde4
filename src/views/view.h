/* view: the derived trees the batch CLI and the UI browse over a model --
 * top-down (the calling-context tree itself), bottom-up (callers of each
 * function) and flat (module -> file -> function -> loop -> line) -- with
 * sorting by any column and the hot path.  A view keeps its own state
 * beside the immutable model and builds what it needs lazily; it never
 * modifies the model.  Semantics are documented in doc/views.md.  Must not
 * depend on curses, on ui/ or on any reader. */
#ifndef CALLSCOPE_VIEW_H
#define CALLSCOPE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "core/status.h"

enum view_kind { VIEW_TOP_DOWN, VIEW_BOTTOM_UP, VIEW_FLAT };

/* Row kinds of the flat view's grouping rows, beside the enum node_kind
 * values every other row carries in struct view_node.kind. */
enum view_row_kind {
	VIEW_ROW_MODULE = 64, /* flat: a load module */
	VIEW_ROW_FILE = 65,   /* flat: a source file inside a module */
};

/* A derived tree over an immutable model.  Row nodes are identified by a
 * uint32_t that is valid for the life of the view. */
struct view;

/* One row of a view. */
struct view_node {
	uint32_t parent;     /* row id, MODEL_NONE for the root */
	uint32_t depth;      /* 0 for the root */
	uint8_t kind;        /* enum node_kind, or enum view_row_kind */
	uint32_t model_node; /* representative model node: the name, file,
				line and module come from it */
	uint32_t id;         /* output id: top-down: the database context
				id; others: the view's own id (see
				doc/views.md) */
};

/* Create a view of kind `kind` over `m`, which must outlive it.  Cheap for
 * every kind: the aggregations are built at the first request that needs
 * them.  STATUS_USAGE for an unknown kind, STATUS_NOMEM. */
enum status view_new(const struct model *m, enum view_kind kind,
		     struct view **out, struct error *err);

void view_free(struct view *v);

/* "top-down", "bottom-up", "flat" ("" for an unknown kind). */
const char *view_kind_name(enum view_kind k);

/* Parse a view kind name as view_kind_name prints it; also accepts "td",
 * "bu", "callers", "cct".  False when unknown. */
bool view_kind_parse(const char *name, enum view_kind *out);

enum view_kind view_kind_of(const struct view *v);
const struct model *view_model(const struct view *v);

/* Row id of the root (always 0). */
uint32_t view_root(const struct view *v);

/* Children of `node` sorted by column `column`: descending, or ascending
 * when `ascending`; rows without a value come last either way; ties by
 * label, then by output id, then by row id.  `column` MODEL_NONE sorts by
 * label only.  *out is malloc'd (caller frees; NULL when there are no
 * children).  Builds what it needs: the first request on a bottom-up or
 * flat view makes one pass over the model, and bottom-up computes the
 * callers of a row when its children are first asked for.  STATUS_USAGE
 * for an unknown node or column, STATUS_NOMEM. */
enum status view_children(struct view *v, uint32_t node, uint32_t column,
			  bool ascending, uint32_t **out, size_t *n,
			  struct error *err);

/* Value of column `column` at row `node` (cached for aggregated rows).
 * False when absent or out of memory. */
bool view_value(struct view *v, uint32_t node, uint32_t column,
		double *out);

/* The row `node`; false when it does not exist (yet). */
bool view_node_get(const struct view *v, uint32_t node,
		   struct view_node *out);

/* Display name of a row as a heap string (NULL when out of memory): the
 * model's node label, or for flat module and file rows the path
 * ("<unknown module>", "<unknown file>" when empty).  Not sanitized. */
char *view_node_label(const struct view *v, uint32_t node);

/* The label as narrow displays show it (the tree pane, the flame graph):
 * lines, loops, instructions and addresses with file and module paths
 * cut to their last component ("loop at solver.cpp:120"), the flat view's
 * module and file rows by their base name (the detail line has the
 * path), any other row as view_node_label.  Heap string (NULL when out of
 * memory), not sanitized. */
char *view_node_short_label(const struct view *v, uint32_t node);

/* Hot path from `start`: repeatedly take the child with the largest value
 * of `column` (ties: lower output id, then lower row id) while that value
 * is >= threshold_pct / 100 * the current row's value (an absent current
 * value counts as 0); stop at a leaf, when no child has a value, or when
 * the best child is below the threshold (it is not included).  Threshold 0
 * follows the largest child down to a leaf.  *path = [start, ..., hot
 * row], malloc'd (caller frees).  STATUS_USAGE for an unknown node or
 * column or a threshold outside [0, 100]. */
enum status view_hotpath(struct view *v, uint32_t start, uint32_t column,
			 double threshold_pct, uint32_t **path, size_t *n,
			 struct error *err);

/* Why a hot path stops at `node`, for the message that says so: leaf
 * (no children), best (the child view_hotpath would take, MODEL_NONE when
 * no child has a value of `column`), best_v (its value) and node_v (the
 * node's own value, 0 when absent).  The path went on when best_v >=
 * threshold / 100 * node_v.  STATUS_USAGE for an unknown node or column. */
struct view_hot_stop {
	bool leaf;
	uint32_t best;
	double best_v;
	double node_v;
};
enum status view_hotpath_stop(struct view *v, uint32_t node, uint32_t column,
			      struct view_hot_stop *out, struct error *err);

/* Whether column `column`'s values add up over contexts: its standard
 * formula is linear in statistics that are sums (a Sum, a difference of
 * sums), so that a tree's values split into parts that add up to the
 * total (a flame graph's widths, an export's samples).  False for a
 * mean, a minimum, a maximum, a ratio or a standard deviation. */
bool view_column_adds_up(const struct model *m, uint32_t column);

/* Whether column `column` is a time summed over contexts (a Sum whose
 * metric name says time: "time", "CPUTIME", "WALLCLOCK", a "(sec)", "(us)"
 * unit ...).  See doc/views.md, "Default sort column". */
bool view_column_is_time(const struct model *m, uint32_t column);

/* The column a view of kind `kind` opens sorted by, among the `n_shown`
 * columns shown (in their order): the first inclusive time column, else
 * the first time column (climbing to its taxonomy parents while they are
 * shown sums), else shown[0]; for the bottom-up view the
 * exclusive pair of an inclusive pick when it is shown.  MODEL_NONE when
 * nothing is shown. */
uint32_t view_default_column(const struct model *m, enum view_kind kind,
			     const uint32_t *shown, size_t n_shown);

#endif
