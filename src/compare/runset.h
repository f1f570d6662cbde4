/* runset: N runs as one set (`callscope compare RUN...`).  The merged
 * tree of every run (the union, matched by path of frames as `diff`
 * matches two: compare/diff.h's diff_union), and per merged node, metric
 * and run the run's value (the sum of its own values over the nodes
 * matched there; absent, never 0, where the run has no such node), then
 * the statistics across the runs that have a value (runset_stats.h).
 * Runs are added one at a time and each is freed once matched, so a set
 * of a hundred large runs holds one run and the union at a time (with
 * --match function, each run's flat function rows under the root, the
 * values the flat view's, as diff_build's function mode); the
 * first run is kept to the end: its metrics name the set's (each other
 * run's paired with it, by name and unit: diff_pair_metric, values in
 * the first run's unit).  The scope compared is the inclusive one where
 * the first run has it (else the exclusive one), or the one asked for;
 * a run without it is an error.  Runs may carry parameters (coordinates:
 * `--param ranks=16`, or Extra-P's directory names "name.p16.r1"), which
 * make the set an Extra-P measurement set (runset_extrap).  The set as a
 * model (runset_model_new) shows per metric one column per run ("run N",
 * or the run's short label: short_titles), then
 * min, median, mean, max, stddev, cv, runs, outlier run and outlier z.
 * See doc/compare.md.  No curses here. */
#ifndef CALLSCOPE_RUNSET_H
#define CALLSCOPE_RUNSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/diff.h"
#include "compare/runset_stats.h"

struct runset_options {
	enum diff_match match;	   /* path, or flat by function */
	bool normalize;		   /* names normalised (diff_key.h) */
	const char *const *metrics; /* --metric specs; none: the default */
	size_t n_metrics;
	int scope; /* -1: inclusive where the first run has it; else
		      enum diff_scope */
	const char *const *param_names; /* the runs' parameters */
	uint32_t n_params;
};

struct runset_run {
	char *path, *format, *title;
	double *coords; /* n_params coordinates, NULL without parameters */
	uint32_t n_nodes;
};

struct runset {
	uint32_t n_runs, n_added;
	struct runset_run *runs;
	char **param_names;
	uint32_t n_params;
	size_t n_metrics;
	char **metric_specs;   /* per metric: how the first run names it */
	enum diff_scope *scope; /* per metric */
	struct diff_metric *pairs; /* per metric, of the run being added */
	struct model *first;   /* the first run, kept for pairing */
	struct diff_union *u;
	uint32_t n_nodes;
	double *values;	     /* [(node * n_metrics + k) * n_runs + run], NaN
				absent */
	double *stats;	     /* [(node * n_metrics + k) * RUNSET_N_STATS + s] */
	struct model_builder *b; /* the merged tree's names, node i = i */
	enum diff_match match;
	bool normalize;
	bool short_titles; /* the run columns' variants (and the runs'
			      profile labels) are the runs' short labels
			      (runset_label.h: "p16"), not "run N": set by
			      the viewer, whose columns are 9 wide */
};

/* An empty set for `n_runs` runs; NULL with `err` when out of memory. */
struct runset *runset_new(uint32_t n_runs, const struct runset_options *o,
			  struct error *err);
void runset_free(struct runset *rs);

/* Add the next run: `m` (every deferred subtree loaded) is taken (freed
 * here but for the first), `path` names it, `coords` its n_params
 * coordinates (NULL without parameters).  STATUS_USAGE with `err` when
 * its metrics cannot be paired with the first run's (why in `err`),
 * STATUS_NOMEM, a value provider's error. */
enum status runset_add(struct runset *rs, struct model *m, const char *path,
		       const double *coords, struct error *err);

/* After the last run: the statistics.  STATUS_NOMEM. */
enum status runset_finish(struct runset *rs, struct error *err);

/* Run `run`'s value of metric k at merged node `node`; false when the
 * run has none there. */
bool runset_value(const struct runset *rs, uint32_t node, size_t k,
		  uint32_t run, double *out);
/* Statistic `s` of metric k at `node`; false when it has none. */
bool runset_stat(const struct runset *rs, uint32_t node, size_t k,
		 enum runset_stat s, double *out);

/* The set as a model (takes `rs`, freed with the model, also on
 * failure): its node i is merged node i, named as in the first run that
 * has it; column (k * (n_runs + RUNSET_N_STATS) + j) is run j's value
 * for j < n_runs, then statistic j - n_runs.  NULL with `err`. */
struct model *runset_model_new(struct runset *rs, const char *path,
			       struct error *err);
uint32_t runset_column(const struct runset *rs, size_t k, uint32_t j);

/* What column `c` of model `m` is when `m` is a set made by
 * runset_model_new or runset_extrap (its columns read statistics of scope
 * "compare", each metric's block ending in the statistics' columns in
 * their order): a run's column, a statistic's, or neither (any other
 * model; a model column of an Extra-P set). */
enum runset_column_kind {
	RUNSET_COLUMN_NONE,
	RUNSET_COLUMN_RUN,
	RUNSET_COLUMN_STAT
};
enum runset_column_kind runset_model_column(const struct model *m,
					    uint32_t c);

/* The set as an Extra-P measurement set (runs with parameters; takes
 * `rs` as runset_model_new does, with the same columns): its parameters,
 * one point per distinct coordinate tuple, each run a profile and a
 * repetition at its point, per metric one measured metric whose
 * measurement at a node and point is Extra-P's statistics over that
 * point's runs (measure_stats_of), which `callscope model` fits.  A
 * node some run lacks has no measurement (Extra-P needs every point of a
 * series).  STATUS_USAGE without parameters or with one point; NULL with
 * `err`. */
struct model *runset_extrap(struct runset *rs, const char *path,
			    struct error *err);

#endif
