/* model: the one in-memory picture of a performance database, whatever
 * format it came from (HPCToolkit v4 and older layouts, rocpd, DCPI,
 * Extra-P).
 *
 * A reader fills a model through the builder functions at the end of this
 * header, then the model is immutable.  It holds:
 *  - a calling-context tree of compact nodes (node 0 is the synthetic root,
 *    the "global context"; its children are the entry points or, for formats
 *    without entries, the top functions);
 *  - interned strings (names, file and module paths);
 *  - functions (for grouping in bottom-up and flat views);
 *  - summary statistics stored in the database and the metric columns built
 *    over them (a column is a formula over statistics);
 *  - execution contexts ("profiles": threads, ranks, GPU streams) labelled by
 *    identifier tuples;
 *  - timelines: sample lines (context id over time) and, for later formats,
 *    interval tracks.
 * Metric values, per-profile values and trace samples are NOT loaded: the
 * model keeps the reader's provider (ops + impl) and asks it when a view
 * needs a value.  Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_MODEL_H
#define CALLSCOPE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/formula.h"
#include "core/status.h"

#define MODEL_NONE UINT32_MAX /* "no node / no index" */

enum node_kind {
	NODE_ROOT,        /* synthetic root (global context) */
	NODE_ENTRY,       /* entry point: "main thread", "application thread" */
	NODE_FUNCTION,    /* function-like construct */
	NODE_LOOP,        /* loop header at file:line */
	NODE_LINE,        /* source line */
	NODE_INSTRUCTION, /* single instruction module@offset */
	NODE_KERNEL,      /* GPU kernel (rocpd, Nsight) */
	NODE_REGION,      /* named region (Extra-P, Cube call paths) */
	NODE_ADDRESS,     /* bare address (DCPI) */
};

enum node_relation {
	RELATION_NONE,         /* root and entry points */
	RELATION_LEXICAL,      /* enclosed by the parent, no call */
	RELATION_CALL,         /* called from the parent (a call site) */
	RELATION_INLINED_CALL, /* inlined call from the parent */
};

/* One calling context.  56 bytes; 3 million of them fit in 170 MB. */
struct model_node {
	uint32_t parent;       /* MODEL_NONE for the root */
	uint32_t first_child;  /* MODEL_NONE when a leaf */
	uint32_t next_sibling; /* MODEL_NONE when last */
	uint32_t ctx_id;       /* the database's own context id; 0 for root */
	uint32_t name;         /* string: entry/function/region name, or 0 */
	uint32_t function;     /* index into model.functions, or MODEL_NONE */
	uint32_t file;         /* string: source file path, or 0 */
	uint32_t line;         /* source line, 0 when unknown */
	uint32_t module;       /* string: load module path, or 0 */
	uint32_t depth;        /* 0 for the root */
	uint64_t offset;       /* byte offset in `module` (instructions) */
	uint8_t kind;          /* enum node_kind */
	uint8_t relation;      /* enum node_relation */
	uint16_t flags;        /* reader-specific (v4: propagation bitmask) */
	uint8_t traits;        /* enum node_trait bits, 0 when none */
};

/* Model-level properties of a node's values, set by readers. */
enum node_trait {
	/* The node's exclusive values are already inside the exclusive
	 * values of its nearest enclosing non-inlined function (legacy
	 * experiment.xml: an inlined procedure frame `Pr a="1"`, whose
	 * statements hpcprof also counts in the enclosing `PF`).  Views
	 * that add exclusive values over several contexts (flat view
	 * module and file rows) skip such nodes. */
	NODE_TRAIT_EXCL_IN_FRAME = 1 << 0,
};

struct model_function {
	uint32_t name;   /* string, 0 when anonymous */
	uint32_t module; /* string, 0 when unknown */
	uint32_t file;   /* string, 0 when unknown */
	uint32_t line;
	uint64_t offset; /* entry point offset in module */
};

enum stat_combine { COMBINE_SUM, COMBINE_MIN, COMBINE_MAX };

/* A summary statistic the database stores per context (v4: a {SS}, keyed
 * by statMetricId; its per-profile inputs are keyed by propMetricId). */
struct model_stat {
	uint32_t metric;  /* string: canonical metric name "CPUTIME (sec)" */
	uint32_t scope;   /* string: propagation scope "execution" */
	uint32_t formula; /* string: unary formula "$$", "1", "($$^2)" */
	uint8_t combine;  /* enum stat_combine */
	uint32_t stat_id; /* reader's key for summary values */
	uint32_t prop_id; /* reader's key for per-profile values, MODEL_NONE */
};

enum column_kind { COLUMN_INCLUSIVE, COLUMN_EXCLUSIVE };

enum column_render {
	RENDER_NUMBER = 1 << 0,
	RENDER_PERCENT = 1 << 1,
	RENDER_COLORBAR = 1 << 2,
	RENDER_HIDDEN = 1 << 3,
};

/* A metric column: a formula whose leaves are indexes into model.stats. */
struct model_column {
	char *name;         /* metric name as shown: "CPUTIME (sec)" */
	char *variant;      /* "Sum", "Mean", "" */
	char *description;  /* may be NULL */
	char *format;       /* printf format for one double, e.g. "%.2e" */
	uint8_t kind;       /* enum column_kind */
	unsigned render;    /* enum column_render bits */
	bool visible;       /* shown by default */
	uint32_t pair;      /* the column of the same metric+variant with the
			       other kind (incl <-> excl), or MODEL_NONE */
	uint32_t parent;    /* taxonomy parent column, or MODEL_NONE */
	struct formula *expr; /* owned; leaves are stat indexes.  The
				 METRICS.yaml "custom" formula when given,
				 used by the top-down view */
	struct formula *expr_standard; /* owned, or NULL when the same as
					  `expr`: the "standard" formula over
					  non-custom scopes, used by the
					  bottom-up and flat views */
};

/* One element of an identifier tuple. */
struct model_id {
	uint32_t kind_name; /* string: "RANK", "THREAD", "NODE", ... */
	uint8_t kind;       /* the raw kind */
	bool is_physical;
	uint32_t logical_id;
	uint64_t physical_id;
};

/* An execution context (thread, rank, GPU stream) or a summary profile. */
struct model_profile {
	uint32_t label;    /* string: "RANK 0 THREAD 3"; "summary" */
	uint32_t first_id; /* index into model.ids */
	uint32_t n_ids;
	bool is_summary;
};

/* One per-profile value of a context (thread view). */
struct profile_value {
	uint32_t profile; /* index into model.profiles */
	double value;
};

/* What a reader provides for lazily read values.  Every function must be
 * bounds-safe on corrupt input: a failure is "absent" plus a note in `err`
 * where one is passed. */
struct value_ops {
	/* Summary value of statistic `stat_id` at context `ctx_id`. */
	bool (*summary)(void *impl, uint32_t ctx_id, uint32_t stat_id,
			double *out);
	/* All non-zero per-profile values of propagated metric `prop_id` at
	 * context `ctx_id`, sorted by profile.  *out is malloc'd (caller
	 * frees).  NULL when the format has no per-profile values. */
	enum status (*per_profile)(void *impl, uint32_t ctx_id,
				   uint32_t prop_id, struct profile_value **out,
				   size_t *n, struct error *err);
	void (*close)(void *impl);
	/* Optional (NULL when the format cannot do better than `summary`):
	 * every summary value of statistic `stat_id` in one sequential pass.
	 * Calls emit(ctx, ctx_id, value) at most once per context id, for
	 * exactly the contexts where `summary` returns true and with the
	 * value it returns, preferably in increasing ctx_id order.
	 * STATUS_UNSUPPORTED when it cannot promise that for this database:
	 * the caller forgets what was emitted and asks `summary` per
	 * context.  Any other error is a failure. */
	enum status (*summary_all)(void *impl, uint32_t stat_id,
				   void (*emit)(void *ctx, uint32_t ctx_id,
						double value),
				   void *ctx, struct error *err);
};

struct trace_sample {
	uint64_t time;   /* nanoseconds as stored in the file */
	uint32_t ctx_id; /* database context id; 0 = idle */
};

struct trace_interval {
	uint64_t begin, end;
	uint32_t ctx_id; /* context (kernel, API call, copy) */
};

enum timeline_kind { TIMELINE_SAMPLES, TIMELINE_INTERVALS };

/* One trace line (thread, rank, stream) or interval track. */
struct model_timeline {
	uint32_t profile;  /* index into model.profiles, or MODEL_NONE */
	uint32_t label;    /* string: label shown for the line */
	uint8_t kind;      /* enum timeline_kind */
	uint64_t count;    /* samples (or intervals) in the line */
};

/* What a reader provides for lazily read timelines.  Samples in a line are
 * sorted by time; the engine binary-searches them through `sample`. */
struct trace_ops {
	/* Sample `index` (< count) of sample line `line`. */
	bool (*sample)(void *impl, uint32_t line, uint64_t index,
		       struct trace_sample *out);
	/* Interval `index` of interval track `line` (sorted by begin). */
	bool (*interval)(void *impl, uint32_t line, uint64_t index,
			 struct trace_interval *out);
	void (*close)(void *impl);
	/* Optional (NULL: reads never fail but for a bad index).  A sample
	 * or interval read that fails for another reason (an I/O error of a
	 * lazily read file: a remote file whose server went away) returns
	 * false like an absent element; this moves the first such failure
	 * since the last call into `err` and returns true, or returns false
	 * when there was none. */
	bool (*take_error)(void *impl, struct error *err);
};

struct model {
	char *format;      /* reader name: "hpctoolkit-v4" */
	char *path;        /* what was opened */
	char *local_path;  /* where its files are, when `path` names an
			    * archive or URL (model_set_origin); else NULL */
	char *title;       /* database title, may be NULL */
	char *description; /* may be NULL */

	/* Strings: string handle h is the NUL-terminated text at
	 * strings + string_offsets[h]; handle 0 is "". */
	char *strings;
	uint32_t *string_offsets;
	uint32_t n_strings;

	struct model_node *nodes; /* nodes[0] is the root */
	uint32_t n_nodes;
	uint32_t max_depth;

	struct model_function *functions;
	uint32_t n_functions;

	struct model_stat *stats;
	uint32_t n_stats;
	struct model_column *columns;
	uint32_t n_columns;

	struct model_profile *profiles;
	uint32_t n_profiles;
	struct model_id *ids;
	uint32_t n_ids;

	struct model_timeline *timelines;
	uint32_t n_timelines;
	uint64_t time_min, time_max; /* over all timelines, ns */

	const struct value_ops *value_ops;
	void *value_impl;
	const struct trace_ops *trace_ops;
	void *trace_impl;

	/* Problems the reader worked around (a METRICS.yaml it could not
	 * use, ...): one line each, naming the file. */
	char **warnings;
	uint32_t n_warnings;

	/* context id -> node index (see model_node_of_ctx) */
	uint32_t *ctx_index;      /* dense table, or NULL */
	uint32_t ctx_index_len;
	uint64_t *ctx_sorted;     /* (ctx_id << 32 | node) sorted, or NULL */
	bool ctx_unique;          /* no two nodes share a context id */
	/* What a context id is shown as (the top-down view's output ids):
	 * ctx_id - ctx_id_base.  A format whose own ids start at 0 (Cube
	 * cnode ids) stores id + 1, because context id 0 is the synthetic
	 * root, and sets 1; the root then has no id to show (MODEL_NONE).
	 * 0 for most formats. */
	uint32_t ctx_id_base;

	/* Set by model_set_origin: run at model_free, after the providers
	 * are closed (a temporary extraction removed, ...). */
	void (*release)(void *arg);
	void *release_arg;
};

/* The first failed trace read since the last call (see trace_ops
 * take_error), moved into `err`: true when there was one. */
bool model_trace_take_error(const struct model *m, struct error *err);

/* The text of string handle `h` ("" for 0 or an invalid handle). */
const char *model_str(const struct model *m, uint32_t h);

/* The node whose database context id is `ctx_id`, or MODEL_NONE. */
uint32_t model_node_of_ctx(const struct model *m, uint32_t ctx_id);

/* Value of column `column` at node `node`.  False when absent. */
bool model_value(const struct model *m, uint32_t node, uint32_t column,
		 double *out);

/* Value of column `column` at node `node` through its standard formula
 * (expr_standard, or expr when there is none): what the bottom-up and flat
 * views aggregate.  False when absent. */
bool model_value_standard(const struct model *m, uint32_t node,
			  uint32_t column, double *out);

/* Value of statistic index `stat` at node `node`.  False when absent. */
bool model_stat_value(const struct model *m, uint32_t node, uint32_t stat,
		      double *out);

/* Statistic index `stat` at every node at once: values[i] and present[i]
 * (arrays of n_nodes; `present` may be NULL) are what model_stat_value
 * gives at node i, with values[i] 0 where absent.  One sequential pass over
 * the provider's summary values when it has summary_all, else one summary
 * lookup per node.  STATUS_USAGE for an unknown statistic (everything
 * absent), STATUS_NOMEM, or the provider's error. */
enum status model_stat_dense(const struct model *m, uint32_t stat,
			     double *values, uint8_t *present,
			     struct error *err);

/* Column `column` at every node at once, through its standard formula
 * (as model_value_standard) when `standard`, else its own formula (as
 * model_value): values[i] and present[i] as in model_stat_dense.  Reads
 * each statistic the formula uses with model_stat_dense (9 bytes per node
 * per statistic while it runs, when the formula is more than one leaf).
 * STATUS_USAGE for an unknown column, STATUS_NOMEM, or the provider's
 * error. */
enum status model_column_dense(const struct model *m, uint32_t column,
			       bool standard, double *values, uint8_t *present,
			       struct error *err);

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

/* Display name of a node into a heap string: entry and function names,
 * "loop at FILE:LINE", "FILE:LINE", "MODULE@0xOFFSET", "<unknown
 * function>".  Not sanitized: pass through sanitize before printing. */
char *model_node_label(const struct model *m, uint32_t node);

/* The same with file and module paths cut to their last component
 * ("loop at solver.cpp:120", "libm.so@0x1f0"), for narrow displays.  Heap
 * string; not sanitized. */
char *model_node_short_label(const struct model *m, uint32_t node);

/* Per-profile values (thread view).  STATUS_UNSUPPORTED when the database
 * has none. */
enum status model_per_profile(const struct model *m, uint32_t node,
			      uint32_t stat, struct profile_value **out,
			      size_t *n, struct error *err);

void model_free(struct model *m);

/* The one change allowed to a finished model, made by a container (an
 * archive, a URL) that opened the database inside it through another reader,
 * before the model is handed out: the path shown becomes `shown` (the archive
 * or URL the user gave, not the extracted or cached copy; the reader's path
 * is kept as `local_path`), `warning` (NULL
 * for none) is appended to the warnings, and `release(arg)` (NULL for none)
 * runs at model_free after the providers are closed.  A model has at most
 * one release hook.  STATUS_NOMEM leaves the model as it was. */
enum status model_set_origin(struct model *m, const char *shown,
			     const char *warning, void (*release)(void *arg),
			     void *arg, struct error *err);

/* ---- builder: used by readers only --------------------------------- */

struct model_builder;

struct model_builder *model_builder_new(const char *format, const char *path);

/* Intern `len` bytes (no NUL needed).  Returns the handle, 0 for "" and
 * MODEL_NONE when out of memory. */
uint32_t model_builder_intern(struct model_builder *b, const char *s,
			      size_t len);

/* Record a problem the reader worked around (copied). */
void model_builder_add_warning(struct model_builder *b, const char *text);

void model_builder_set_title(struct model_builder *b, const char *title,
			     const char *description);

/* Set model.ctx_id_base (see there). */
void model_builder_set_ctx_id_base(struct model_builder *b, uint32_t base);

/* Add a node under `parent` (0 = root), appended after its last child.
 * `node` supplies every field but parent/first_child/next_sibling/depth.
 * Returns the new node's index or MODEL_NONE when out of memory or when
 * parent is invalid. */
uint32_t model_builder_add_node(struct model_builder *b, uint32_t parent,
				const struct model_node *node);

uint32_t model_builder_add_function(struct model_builder *b,
				    const struct model_function *fn);

uint32_t model_builder_add_stat(struct model_builder *b,
				const struct model_stat *stat);

/* Takes ownership of the column's strings and formula. */
uint32_t model_builder_add_column(struct model_builder *b,
				  struct model_column *column);

/* Add a profile with its identifier tuple (copied).  The label is built
 * from the tuple when `label` is NULL. */
uint32_t model_builder_add_profile(struct model_builder *b, bool is_summary,
				   const struct model_id *ids, uint32_t n_ids,
				   const char *label);

uint32_t model_builder_add_timeline(struct model_builder *b,
				    const struct model_timeline *tl);

/* The time range of all timelines; an inverted range (min > max, as
 * written for traces without samples) is stored as 0..0. */
void model_builder_set_time_range(struct model_builder *b, uint64_t min,
				  uint64_t max);

void model_builder_set_values(struct model_builder *b,
			      const struct value_ops *ops, void *impl);
void model_builder_set_trace(struct model_builder *b,
			     const struct trace_ops *ops, void *impl);

/* Access to what was built so far (readers resolving columns against the
 * stats they added). */
const struct model *model_builder_peek(const struct model_builder *b);

/* Finish: fills pairs and indexes, returns the immutable model.  On failure
 * (out of memory) returns NULL with `err` set.  The builder is freed in both
 * cases, and on failure the providers' close functions are called. */
struct model *model_builder_finish(struct model_builder *b,
				   struct error *err);

/* Abandon a builder (reader error path); calls the providers' close. */
void model_builder_free(struct model_builder *b);

#endif
