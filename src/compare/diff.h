/* diff: the merged tree of two runs, the union of both, built from two
 * read-only models (never changed): each node of either run is matched
 * to a node of the merged tree by its path of frames (DIFF_MATCH_PATH:
 * the parent's match and the frame's key) or, flat, by its function
 * (DIFF_MATCH_FUNCTION: the function rows of each run's flat view, like
 * `perf diff`).  A frame's key is its class (entry, function or region,
 * kernel, loop, line, instruction), its normalised name (diff_key.h) and
 * its load module's last path component -- a module missing on one side
 * matches any; loops and lines by their file's last component and line;
 * instructions and bare addresses by their module only, the offset
 * differing between builds.  Siblings with one key are one merged node.
 * When one run has entry points under its root ("main thread") and the
 * other none (an HPCToolkit database against a Cube profile), those
 * entries are left out of the paths (their values too: the root's hold
 * them), so that the frames below them match.
 *
 * Values: for each metric pair (diff_metric: the inclusive and exclusive
 * columns of one metric in each run), each merged node holds per run the
 * sum of the run's own values over the nodes matched to it.  Summing the
 * runs' own inclusive values (not the subtree sums of exclusive ones) is
 * exact: the nodes matched to a merged node head disjoint subtrees that
 * all map into its subtree, so a parent never shows less than its
 * children, and with identical trees each side's inclusive values come
 * back unchanged -- whereas subtree sums of exclusive values would count
 * twice what HPCToolkit's function-scope exclusive values already hold
 * (a function's lines).  A node present in one run only has no value in
 * the other (DIFF_NEW, DIFF_GONE), never a zero.  See doc/compare.md. */
#ifndef CALLSCOPE_DIFF_H
#define CALLSCOPE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"

enum diff_match { DIFF_MATCH_PATH, DIFF_MATCH_FUNCTION };
enum diff_run { DIFF_BASE = 0, DIFF_NEW_RUN = 1 };
enum diff_scope { DIFF_INCLUSIVE = 0, DIFF_EXCLUSIVE = 1 };
enum diff_status { DIFF_BOTH, DIFF_NEW, DIFF_GONE };

/* One metric compared: its columns in each run (MODEL_NONE where the run
 * lacks that scope; a scope is compared when both runs have it) and the
 * factor that turns the new run's values into the base's unit
 * (seconds vs nanoseconds). */
struct diff_metric {
	uint32_t col[2][2]; /* [run][scope] */
	double scale_new;
};

/* Pair the metric named `base_spec` in `base` with `new_spec` in `nw`
 * (model_find_column's forms: "NAME", "NAME (I)", "NAME:VARIANT", an
 * index): the column found and its other-scope pair in each run, units
 * checked (a time in any unit pairs with a time, a count with a count).
 * False with the reason in `why` (a heap string, NULL when out of memory)
 * when the pair cannot be compared. */
bool diff_pair_metric(const struct model *base, const char *base_spec,
		      const struct model *nw, const char *new_spec,
		      struct diff_metric *out, char **why);

/* The default pair: the column `base` opens sorted by (view_default_column:
 * its first inclusive time) when `nw` has it, else the first visible
 * column of `base` whose metric and variant `nw` has too (by name), else
 * the first such column.  False with `why` when the runs share no
 * metric. */
bool diff_pair_default(const struct model *base, const struct model *nw,
		       struct diff_metric *out, char **why);

struct diff_node {
	uint32_t parent; /* MODEL_NONE for the root (node 0) */
	uint32_t rep[2]; /* per run: the first node matched (a model node;
			    in function mode the flat view's model node),
			    MODEL_NONE when none */
	uint32_t name, module, file; /* normalised strings (diff_str) */
	uint32_t line;
	uint8_t cls;	/* the frame's class (a char: 'e', 'f', ...) */
	uint8_t status; /* enum diff_status */
};

struct diff {
	const struct model *run[2]; /* NULL after diff_forget_runs */
	enum diff_match match;
	struct diff_node *nodes;
	uint32_t n_nodes;
	struct diff_metric *metrics;
	size_t n_metrics;
	/* values[((node * n_metrics + k) * 2 + scope) * 2 + run], the new
	 * run's already scaled; present: the same index, bit per value */
	double *values;
	uint8_t *present;
	/* per metric: the base run's total (its root's inclusive value),
	 * the base of every percentage; has_total false when unknown or 0 */
	double *base_total;
	bool *has_total;
	/* normalised strings */
	char **strs;
	uint32_t n_strs;
};

struct diff_options {
	enum diff_match match;
	bool normalize; /* false: names compared as they are, offsets kept */
};

/* Build the merged tree of `base` and `nw` (which must have every
 * deferred subtree loaded: model_load_all) for `metrics`.  STATUS_NOMEM,
 * or a value provider's error. */
enum status diff_build(const struct model *base, const struct model *nw,
		       const struct diff_metric *metrics, size_t n_metrics,
		       const struct diff_options *opt, struct diff **out,
		       struct error *err);

void diff_free(struct diff *d);

/* After the build the diff needs its runs only for diff_node_label: this
 * forgets them (they may then be freed). */
void diff_forget_runs(struct diff *d);

/* The value of metric `k`, scope, run at merged node `node`; false when
 * that run has none there. */
bool diff_value(const struct diff *d, uint32_t node, size_t k,
		enum diff_scope scope, enum diff_run run, double *out);

/* Whether metric k has scope `scope` in both runs. */
bool diff_has_scope(const struct diff *d, size_t k, enum diff_scope scope);

/* Normalised string `h` ("" for 0). */
const char *diff_str(const struct diff *d, uint32_t h);

const char *diff_status_name(uint8_t status);

/* ---- more than two runs (compare/runset.h) ---------------------------
 * The merged tree of any number of runs, matched by path as diff_build
 * matches two (--match path): each run added in turn maps its nodes to
 * the union's, new ones appended (a node's parent before it).  Nodes and
 * names only, no values; a node's rep[0] is the first run's node that
 * made it (rep[1] is unused). */
struct diff_union;

/* NULL when out of memory. */
struct diff_union *diff_union_new(bool normalize);
void diff_union_free(struct diff_union *u);

/* Whether `m` has entry points ("main thread") under its root. */
bool diff_run_has_entries(const struct model *m);

/* Column `column`'s value at every node of `m` that has one (read in one
 * pass, model_column_dense) as add(ctx, node, value); with `skip` not at
 * the entry points under the root (left out of the paths, as diff_build
 * does when the other run has none).  STATUS_NOMEM, or the model's read
 * error. */
enum status diff_column_each(const struct model *m, uint32_t column,
			     bool skip,
			     void (*add)(void *ctx, uint32_t node, double v),
			     void *ctx, struct error *err);

/* Match every node of `m` (every deferred subtree loaded) into the
 * union: (*map)[n] is the union node of model node n (a heap array of
 * m->n_nodes); with `skip_entries` the entry points under the root are
 * left out of the paths and map to the root, as diff_build does when
 * the other run has none.  STATUS_NOMEM, STATUS_CORRUPT. */
enum status diff_union_add(struct diff_union *u, const struct model *m,
			   bool skip_entries, uint32_t **map,
			   struct error *err);

/* Function mode (--match function): the union node, under the root, of
 * each flat function row's model node `nodes[i]` of `m` ((*map)[i], a
 * heap array of n), matched by function key as diff_build matches them
 * (the caller walks the flat view and adds its values).  STATUS_NOMEM. */
enum status diff_union_add_functions(struct diff_union *u,
				     const struct model *m,
				     const uint32_t *nodes, size_t n,
				     uint32_t **map, struct error *err);

/* The union's nodes so far and their number. */
const struct diff_node *diff_union_nodes(const struct diff_union *u,
					 uint32_t *n);

#endif
