/* model_column: summary statistics (model.stats: what the database
 * stores per context, or what the engine derives from it) and the metric
 * columns over them (model.columns: a column is a formula whose leaves are
 * statistic indexes), with their units and lookups.  Must not depend on
 * curses or on ui/. */
#ifndef CALLSCOPE_MODEL_COLUMN_H
#define CALLSCOPE_MODEL_COLUMN_H

#include <stdbool.h>
#include <stdint.h>

#include "model/formula.h"
#include "model/model_node.h"

struct model;

enum stat_combine { COMBINE_SUM, COMBINE_MIN, COMBINE_MAX };

enum stat_flag {
	/* Set by a reader: the database stores only this statistic's
	 * exclusive (self) values (DCPI, rocpd, Cube metrics stored
	 * exclusive).  The reader does not sum subtrees itself: it asks the
	 * engine for the inclusive statistic with
	 * model_builder_add_inclusive_stat. */
	STAT_EXCLUSIVE_ONLY = 1 << 0,
	/* Set by the builder: the inclusive values of statistic `source`
	 * (STAT_EXCLUSIVE_ONLY), derived by the engine: at each node the
	 * combination (`combine`: sum, min or max) of the source's values
	 * over the node's subtree, absent where the whole subtree is. */
	STAT_DERIVED_INCLUSIVE = 1 << 1,
	/* Set by a reader: a profile's values at several contexts combine
	 * by `combine` too, not by a sum: a minimum over call paths is a
	 * minimum (Cube's MINDOUBLE and MAXDOUBLE data types).  Without it
	 * a profile's value over several contexts is their sum (HPCToolkit:
	 * a thread's time in two contexts adds up), and the aggregated views
	 * compute a row's statistic from those per-profile sums
	 * (doc/views.md, "Rows of several contexts").  A derived inclusive
	 * statistic combines this way by definition. */
	STAT_CONTEXTS_COMBINE = 1 << 2,
	/* Set by a reader: the statistic has the same value at every context
	 * that has one (experiment.xml 2.x ":num-src": hpcprof counts every
	 * thread, N, not the threads with a value), so a row of several
	 * contexts has that value too. */
	STAT_CONSTANT = 1 << 3,
	/* Set by a reader: the statistic's values at several contexts
	 * neither add up nor combine (Cube's POSTDERIVED metrics: an
	 * expression over sums, such as a ratio, whose sum over call paths
	 * is no value of it), so a row of several contexts (flat, bottom-up)
	 * has none, unless the reader computes it (value_ops
	 * combine_contexts), and the column does not add up (exports
	 * refuse it). */
	STAT_NO_AGGREGATE = 1 << 4,
};

/* A summary statistic the database stores per context (v4: a {SS}, keyed
 * by statMetricId; its per-profile inputs are keyed by propMetricId), or
 * one the engine derives from another (flags). */
struct model_stat {
	uint32_t metric;  /* string: canonical metric name "CPUTIME (sec)" */
	uint32_t scope;   /* string: propagation scope "execution" */
	uint32_t formula; /* string: unary formula "$$", "1", "($$^2)" */
	uint8_t combine;  /* enum stat_combine */
	uint32_t stat_id; /* reader's key for summary values */
	uint32_t prop_id; /* reader's key for per-profile values, MODEL_NONE */
	uint8_t flags;    /* enum stat_flag bits, 0 for a stored statistic */
	uint32_t source;  /* STAT_DERIVED_INCLUSIVE: the statistic derived
			     from; else unused */
};

enum column_kind { COLUMN_INCLUSIVE, COLUMN_EXCLUSIVE };

enum column_render {
	RENDER_NUMBER = 1 << 0,
	RENDER_PERCENT = 1 << 1,
	RENDER_COLORBAR = 1 << 2,
	RENDER_HIDDEN = 1 << 3,
	/* The values are codes, not quantities (Cube's SCALE_FUNC: the
	 * ranking code of a scaling function, value_ops value_text giving
	 * the function): written in the column's format, with no unit, no
	 * percent share and no bar; a row or group of several contexts has
	 * no value.  Asked through model_column_is_code, by the batch
	 * report and the viewer alike. */
	RENDER_CODE = 1 << 4,
};

/* What a column's values measure, where the reader knows it (Cube's
 * unit of measurement).  UNIT_UNKNOWN: the presentation layer reads the
 * name ("CPUTIME (sec)", "GPU time (ns)", "Bytes") and the format. */
enum column_unit {
	UNIT_UNKNOWN = 0,
	UNIT_NUMBER,  /* a plain number (a ratio, a mean of mixed things) */
	UNIT_COUNT,   /* events, visits, instructions */
	UNIT_SECONDS,
	UNIT_MILLISECONDS,
	UNIT_MICROSECONDS,
	UNIT_NANOSECONDS,
	UNIT_BYTES,
};

/* What column `column` of `m` measures: the reader's unit when it gave
 * one, else read off the name ("(sec)", "(us)", "(ns)", "Bytes", ...)
 * and the format ("%.0f": a count); UNIT_UNKNOWN when nothing says. */
enum column_unit model_column_unit(const struct model *m, uint32_t column);

/* Whether column `column`'s values are codes, not quantities
 * (RENDER_CODE): no unit, share or bar, and no value over several
 * contexts. */
bool model_column_is_code(const struct model *m, uint32_t column);

/* Whether `u` is one of the time units. */
bool model_unit_is_time(enum column_unit u);

/* A metric column: a formula whose leaves are indexes into model.stats. */
struct model_column {
	char *name;         /* metric name as shown: "CPUTIME (sec)" */
	char *variant;      /* "Sum", "Mean", "" */
	char *description;  /* may be NULL */
	char *format;       /* printf format for one double, e.g. "%.2e" */
	uint8_t kind;       /* enum column_kind */
	unsigned render;    /* enum column_render bits */
	uint8_t unit;       /* enum column_unit */
	bool visible;       /* shown by default */
	uint32_t pair;      /* the column of the same metric+variant with the
			       other kind (incl <-> excl), or MODEL_NONE */
	uint32_t parent;    /* taxonomy parent column, or MODEL_NONE */
	/* Cube's metric tree: the column of this metric's values less its
	 * sub-metrics' (what the Cube GUI shows for an expanded metric; the
	 * column itself is what it shows collapsed), of the same kind and
	 * after it; or MODEL_NONE.  Set only by model_builder_set_column_own
	 * (a model made by hand without it has 0 here: no column after it,
	 * so none). */
	uint32_t own;
	struct formula *expr; /* owned; leaves are stat indexes.  The
				 METRICS.yaml "custom" formula when given,
				 used by the top-down view */
	struct formula *expr_standard; /* owned, or NULL when the same as
					  `expr`: the "standard" formula over
					  non-custom scopes, used by the
					  bottom-up and flat views */
	/* How the aggregated views (flat, bottom-up) give a row that stands
	 * for several contexts a value.  false (every format but the GPU
	 * traces): the sum of the standard formula's values at the
	 * contexts.  true: each statistic the standard formula reads is
	 * combined over the contexts by its own `combine` (a sum, a
	 * minimum, a maximum) and the formula is evaluated once over those,
	 * so that a mean (total / calls), a minimum, a maximum or a
	 * standard deviation (from a sum of squares) of a group is what its
	 * name says (rocpd, Nsight: per-kernel-name summaries). */
	bool combine_leaves;
};

/* The stat index a column reads directly, or MODEL_NONE when the column is
 * a formula over several statistics. */
uint32_t model_column_stat(const struct model *m, uint32_t column);

/* Find a column by "NAME", "NAME:VARIANT", "NAME (I)"/"NAME (E)", or by
 * 0-based index as text.  MODEL_NONE when none matches. */
uint32_t model_find_column(const struct model *m, const char *spec);

/* Percentages of column `column` are relative to this value (the root's
 * inclusive value of the same metric and variant); false when unknown or 0.
 */
bool model_column_total(const struct model *m, uint32_t column,
			double *out);

#endif
