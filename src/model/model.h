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
 *    interval tracks (nested, with attributes read on demand) and counter
 *    lines (time, value).
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

/* The one definition of a frame, a node that is a call-stack frame rather
 * than a part of one: entry points, functions, GPU kernels and named
 * regions (Extra-P and Cube call paths are regions).  Not the root, loops,
 * lines, instructions or bare addresses.  The views (flat and bottom-up
 * grouping), the trace index (trace depth) and the trace pane's matching
 * all use it.  Counting NODE_REGION changes nothing for HPCToolkit data:
 * neither HPCToolkit reader makes region (or kernel) nodes. */
bool model_kind_is_frame(uint8_t kind);

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
	/* The node shares its context id (values, trace ids) with another
	 * node and has no values of its own (experiment.xml 4.0: an element
	 * written i="-N" beside the frame N).  Reports show its id as -N,
	 * so that ids stay unique. */
	NODE_TRAIT_ALIAS_ID = 1 << 1,
	/* The node's children are not in the model yet: the reader deferred
	 * them (DCPI: the images of a large database) and adds them when
	 * asked (model_load_children).  Until then the node is a row that
	 * can be expanded; its derived inclusive values come from the
	 * reader's deferred_ops.total, and equal the sums of the children
	 * it later adds. */
	NODE_TRAIT_DEFERRED = 1 << 2,
	/* With NODE_TRAIT_DEFERRED: the subtree not loaded yet is rows of
	 * this node's own procedure only (instruction or address rows, DCPI:
	 * the addresses of an image that no symbol covers), so the node's
	 * totals stand for it in the aggregated views, which need not load
	 * it (model_load_all leaves it; expanding it loads it).  Cleared
	 * with NODE_TRAIT_DEFERRED when it is loaded. */
	NODE_TRAIT_DEFERRED_LEAVES = 1 << 3,
};

struct model_function {
	uint32_t name;   /* string, 0 when anonymous */
	uint32_t module; /* string, 0 when unknown */
	uint32_t file;   /* string, 0 when unknown */
	uint32_t line;
	uint64_t offset; /* entry point offset in module */
};

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

struct model;

/* What column `column` of `m` measures: the reader's unit when it gave
 * one, else read off the name ("(sec)", "(us)", "(ns)", "Bytes", ...)
 * and the format ("%.0f": a count); UNIT_UNKNOWN when nothing says. */
enum column_unit model_column_unit(const struct model *m, uint32_t column);

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

/* One element of an identifier tuple. */
struct model_id {
	uint32_t kind_name; /* string: "RANK", "THREAD", "NODE", ... */
	uint8_t kind;       /* the raw kind */
	bool is_physical;
	uint32_t logical_id;
	uint64_t physical_id;
};

/* An execution context (thread, rank, GPU stream) or a summary profile;
 * in a parametric set (Extra-P), one measurement: a point of the parameter
 * space and a repetition there. */
struct model_profile {
	uint32_t label;      /* string: "RANK 0 THREAD 3"; "summary" */
	uint32_t first_id;   /* index into model.ids */
	uint32_t n_ids;
	bool is_summary;
	uint32_t point;      /* measurement point, MODEL_NONE when not
				parametric */
	uint32_t repetition; /* repetition at that point (0, 1, ...),
				MODEL_NONE when not parametric */
};

/* A parameter of a parametric set: "p" (processes), "n" (problem size). */
struct model_param {
	uint32_t name; /* string */
};

/* One per-profile value of a context (thread view). */
struct profile_value {
	uint32_t profile; /* index into model.profiles */
	double value;
};

/* What a reader provides for lazily read values.  Every function must be
 * bounds-safe on corrupt input: a failure is "absent" plus a note in `err`
 * where one is passed; where none is passed (summary), `take_error` tells a
 * failed read from an absent value. */
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
	/* Optional (NULL: a value read never fails but for corrupt data,
	 * which is "absent").  A summary read that fails for another reason
	 * (an I/O error of a lazily read file: a remote file whose server
	 * went away) returns false like an absent value; this moves the
	 * first such failure since the last call into `err` (NULL: drop it)
	 * and returns true, or returns false when there was none.  As
	 * trace_ops.take_error. */
	bool (*take_error)(void *impl, struct error *err);
};

struct trace_sample {
	uint64_t time;   /* nanoseconds as stored in the file */
	uint32_t ctx_id; /* database context id; 0 = idle */
};

#define MODEL_EVENT_NONE UINT64_MAX /* an interval without attributes */
#define MODEL_LINK_CALL UINT32_MAX /* trace_ops.linked: the launching call */

/* One interval of an interval track (a GPU queue, a host thread's API
 * calls, NVTX ranges).  Intervals of a track are sorted by begin and
 * properly nested: one at depth d + 1 lies inside the last one at depth d
 * that begins before it. */
struct trace_interval {
	uint64_t begin, end; /* nanoseconds, end exclusive */
	uint32_t ctx_id;     /* context (kernel, API call, copy) */
	uint32_t depth;      /* nesting depth in the track, 0 outermost */
	uint64_t event;      /* the reader's key for trace_ops.event_detail
				(a dispatch or row id), MODEL_EVENT_NONE when
				the interval has no attributes */
	uint64_t up;         /* 1 + the index of the interval this one lies
				in: the latest-begun interval of the track
				still running at this one's begin (its parent
				when nested; the earlier one of an overlap, as
				GPU queues with firmware timestamp errors
				have); 0 for none.  The trace index follows
				these links from an interval that ended to
				the one active at a time */
};

/* One instant of an interval track: a mark with a time and no duration
 * (a roctxMark or rocpd_sample row, an .rpd instant UserMarker, an NVTX
 * mark).  A track's instants are kept apart from its intervals, sorted
 * by time, so that they never change what is active at a time (the
 * intervals' nesting and depth), and searched by bisection. */
struct trace_instant {
	uint64_t time;  /* nanoseconds */
	uint64_t event; /* the reader's key for trace_ops.event_detail, or
			   MODEL_EVENT_NONE */
	uint32_t name;  /* string handle: the mark's text */
};

/* One attribute of an interval's event: a kernel's grid, its registers,
 * the bytes of a copy, an API call's arguments.  An array of them is one
 * heap block holding the array and every string (model_kv_pack): the
 * caller frees the array, and only the array, with free(). */
struct model_kv {
	const char *key;  /* "grid", "registers", "bytes", "arg0" */
	const char *text; /* the value as shown: "256x1x1", "64"; never NULL */
	double number;    /* the value as a number, when is_number */
	bool is_number;
};

enum timeline_kind {
	TIMELINE_SAMPLES,   /* context id over time (trace_ops.sample) */
	TIMELINE_INTERVALS, /* nested intervals (trace_ops.interval) */
	TIMELINE_COUNTER,   /* (time, value) samples (trace_ops.counter):
			       power, memory use, a hardware counter's rate;
			       drawn as a track at its place among
			       the lines */
};

/* GPU lines come in two groupings that show one at a time (a key in the
 * trace pane, `trace --gpu-lines`): by queue (rocpd; Nsight: by context)
 * or by stream.  A line of neither grouping is always shown.  The group
 * of the first grouped line in the model's order is shown first. */
enum timeline_group {
	TIMELINE_GROUP_NONE,
	TIMELINE_GROUP_QUEUE,
	TIMELINE_GROUP_STREAM,
};

/* One trace line (thread, rank, stream), interval track or counter. */
struct model_timeline {
	uint32_t profile;  /* index into model.profiles, or MODEL_NONE */
	uint32_t label;    /* string: label shown for the line */
	uint8_t kind;      /* enum timeline_kind */
	uint64_t count;    /* samples, intervals or counter values */
	uint32_t unit;     /* string: a counter's unit ("W", "bytes"), or 0 */
	uint64_t n_instants; /* an interval track's instants
				(trace_ops.instant), 0 for none */
	uint8_t group;       /* enum timeline_group */
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
	/* Optional (NULL: no counter lines): value `index` (< count) of
	 * counter line `line`, sorted by time: its time (ns) and value.
	 * False for a bad index or a failed read (as `sample`). */
	bool (*counter)(void *impl, uint32_t line, uint64_t index,
			uint64_t *time, double *value);
	/* Optional (NULL: no attributes): the attributes of event `event`
	 * (trace_interval.event) of interval track `line`, read when asked
	 * (an interval under the cursor).  *out is one heap block made by
	 * model_kv_pack that the caller frees; *out NULL and *n 0 when the
	 * event has none.  STATUS_CORRUPT, STATUS_IO, STATUS_NOMEM with
	 * `err` set on failure. */
	enum status (*event_detail)(void *impl, uint32_t line, uint64_t event,
				    struct model_kv **out, size_t *n,
				    struct error *err);
	/* Optional (NULL: intervals have no links): the interval linked to
	 * interval `index` of interval track `line`, as the file records it
	 * (a correlation id, an explicit link): with `nth` MODEL_LINK_CALL,
	 * the API call that launched GPU work `index` (a kernel, a copy);
	 * with `nth` 0, 1, ..., the nth kernel or copy that API call `index`
	 * launched.  Sets the linked interval's track and index; false when
	 * there is none (GPU work launched nothing, a call has no launcher).
	 * Costs O(nth) once the tracks are read. */
	bool (*linked)(void *impl, uint32_t line, uint64_t index, uint32_t nth,
		       uint32_t *to_line, uint64_t *to_index);
	/* Optional (NULL: no instants): instant `index` (< the line's
	 * n_instants) of interval track `line`, sorted by (time, event).
	 * False for a bad index or a failed read (as `interval`). */
	bool (*instant)(void *impl, uint32_t line, uint64_t index,
			struct trace_instant *out);
	/* Optional (NULL: nothing to read up front): read now what the
	 * lines will need (a GPU run: each file's intervals, the first time
	 * they are shown), calling `progress` (may be NULL) before the first
	 * step and after each with the steps done and in all; when it
	 * returns false, stop there
	 * (what was read stays; the rest is read when asked).  Returns the
	 * number of steps there were to do (0: everything was read). */
	uint32_t (*prepare)(void *impl,
			    bool (*progress)(void *ctx, uint32_t done,
					     uint32_t total),
			    void *ctx);
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

	/* Parameter space (Extra-P): an Extra-P set is profiles x call
	 * paths, a profile being one repetition at one point.  Point p's
	 * coordinates are point_coords[p * n_params .. + n_params), real
	 * numbers; point p's profiles, by repetition then profile index, are
	 * point_profiles[point_first[p] .. point_first[p + 1]) (built at
	 * finish).  All NULL / 0 when the database is not parametric. */
	struct model_param *params;
	uint32_t n_params;
	double *point_coords;
	uint32_t n_points;
	uint32_t *point_first;
	uint32_t *point_profiles;
	/* Measurements and stored performance models of a parametric set
	 * (model_measures.c; opaque), NULL when there are none. */
	struct model_measures *measures;

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

	/* Inclusive values of STAT_DERIVED_INCLUSIVE statistics, computed
	 * by one pass over the tree the first time one of a statistic's
	 * values is asked for, then kept (model_inclusive.c); NULL when the
	 * model has no derived statistic. */
	struct model_inclusive *inclusive;

	/* Deferred subtrees (model_deferred.c): the reader's loader, the
	 * builder kept to append with (NULL when nothing was deferred), and
	 * how many nodes are still NODE_TRAIT_DEFERRED, and how many of those
	 * are NODE_TRAIT_DEFERRED_LEAVES too. */
	const struct deferred_ops *deferred_ops;
	void *deferred_impl;
	struct model_builder *grower;
	uint32_t n_deferred;
	uint32_t n_deferred_leaves;

	/* Set by model_set_origin: run at model_free, after the providers
	 * are closed (a temporary extraction removed, ...). */
	void (*release)(void *arg);
	void *release_arg;
};

/* ---- deferred subtrees (model_deferred.c) ----------------------------
 *
 * The one way a model changes after finish: it grows.  Loading a deferred
 * node appends its subtree at the end of the node array (the indices, links,
 * values and derived sums of the nodes already there never change; the
 * loaded node gains its first child), so every view and outline keyed by
 * node index stays valid.  It must be called while no other thread reads
 * the model: the viewer does not build views in the background for a model
 * with deferred nodes, and the aggregated views (flat, bottom-up) load
 * everything before they are made, but NODE_TRAIT_DEFERRED_LEAVES nodes
 * (their totals stand for their rows; such a node loads when expanded, so
 * a view made earlier does not see its rows). */

/* Whether node `node` has children, loaded or deferred. */
bool model_node_has_children(const struct model *m, uint32_t node);

/* Load the children of `node` when it is deferred (a no-op otherwise).
 * Errors (a file changed since open, out of memory) leave the model as it
 * was. */
enum status model_load_children(const struct model *m, uint32_t node,
				struct error *err);

/* Load every deferred node that the aggregated views need (O(database):
 * the flat and bottom-up views, a search or report over everything): all
 * but those marked NODE_TRAIT_DEFERRED_LEAVES, whose totals stand for
 * their rows (they load when expanded). */
enum status model_load_all(const struct model *m, struct error *err);

/* How many deferred nodes model_load_all would load (n_deferred less the
 * NODE_TRAIT_DEFERRED_LEAVES ones). */
uint32_t model_deferred_pending(const struct model *m);

/* The same, calling `progress` (NULL: none) after each load with the
 * number of deferred nodes left to load (model_deferred_pending); when it
 * returns false the loading stops there (STATUS_LIMIT, "stopped"; what
 * was loaded stays). */
enum status model_load_all_progress(const struct model *m,
				    bool (*progress)(void *ctx, uint32_t left),
				    void *ctx, struct error *err);

/* The first failed trace read since the last call (see trace_ops
 * take_error), moved into `err`: true when there was one. */
bool model_trace_take_error(const struct model *m, struct error *err);

/* The first failed value read since the last call (see value_ops
 * take_error: a value that came back absent because its read failed; then
 * a failed pass of a derived inclusive statistic), moved into `err` (NULL:
 * dropped): true when there was one.  Callers that
 * show values may ask after drawing them; absent values stay absent. */
bool model_take_value_error(const struct model *m, struct error *err);

/* ---- interval tracks and counter lines (model_trace.c) -------------- */

/* Copy `n` attributes (keys and texts, NULL texts as "") into one heap
 * block: *out is the array, its strings stored after it, freed with one
 * free().  *out NULL for n 0.  STATUS_NOMEM (or STATUS_USAGE for a NULL
 * key) leaves *out NULL. */
enum status model_kv_pack(const struct model_kv *kv, size_t n,
			  struct model_kv **out, struct error *err);

/* Read up front what the timelines need (trace_ops.prepare; nothing when
 * the reader has no such step): `progress` (may be NULL) is called after
 * each step with the steps done and in all, and stops the reading when
 * it returns false.  Returns the number of steps there were (0: none). */
uint32_t model_trace_prepare(const struct model *m,
			     bool (*progress)(void *ctx, uint32_t done,
					      uint32_t total),
			     void *ctx);

/* Interval `index` of interval track `line`; false when `line` is not an
 * interval track, `index` >= its count, or the read fails. */
bool model_interval(const struct model *m, uint32_t line, uint64_t index,
		    struct trace_interval *out);

/* The interval linked to interval `index` of interval track `line`
 * (trace_ops.linked: with `nth` MODEL_LINK_CALL GPU work's launching API
 * call, else an API call's `nth` launched kernel or copy) into *to_line,
 * *to_index; false when there is
 * none, when the format records no links, or when what the reader gives
 * is not an interval of an interval track. */
bool model_interval_linked(const struct model *m, uint32_t line,
			   uint64_t index, uint32_t nth, uint32_t *to_line,
			   uint64_t *to_index);

/* The attributes of `event` on interval track `line` (trace_ops
 * event_detail; ownership as there).  *out NULL, *n 0 and STATUS_OK for
 * MODEL_EVENT_NONE; STATUS_USAGE when `line` is not an interval track;
 * STATUS_UNSUPPORTED when the format has no attributes. */
enum status model_event_detail(const struct model *m, uint32_t line,
			       uint64_t event, struct model_kv **out,
			       size_t *n, struct error *err);

/* Instant `index` of interval track `line`; false when the line has no
 * such instant or the read fails. */
bool model_instant(const struct model *m, uint32_t line, uint64_t index,
		   struct trace_instant *out);

/* The first instant of interval track `line` whose time is >= t (by
 * bisection: O(log n_instants) reads); false when there is none. */
bool model_instant_from(const struct model *m, uint32_t line, uint64_t t,
			uint64_t *index);

/* Value `index` of counter line `line`; false when `line` is not a counter
 * line, `index` >= its count, or the read fails. */
bool model_counter(const struct model *m, uint32_t line, uint64_t index,
		   uint64_t *time, double *value);

/* The counter value in force at time `t`: the index of the last value of
 * counter line `line` whose time is <= t, by binary search (O(log count)
 * reads).  False when there is none (t before the first value, an empty or
 * unknown line, a failed read). */
bool model_counter_at(const struct model *m, uint32_t line, uint64_t t,
		      uint64_t *index);

/* ---- parameter space (model_params.c) ------------------------------ */

/* The parameter named `name`, or MODEL_NONE. */
uint32_t model_find_param(const struct model *m, const char *name);

/* The n_params coordinates of point `point`, or NULL for an invalid
 * point. */
const double *model_point_coords(const struct model *m, uint32_t point);

/* The profiles measured at `point` (the repetitions, ordered by repetition
 * then profile index) into *profiles (inside the model; NULL when none);
 * returns their number, 0 for an invalid point.  O(1). */
uint32_t model_point_profiles(const struct model *m, uint32_t point,
			      const uint32_t **profiles);

/* The points of a plot along parameter `param` through point `through`:
 * every point whose other coordinates equal `through`'s, ordered by their
 * `param` coordinate (ties by point index), into *points (malloc'd, caller
 * frees; NULL when *n is 0).  With model_point_profiles and
 * model_per_profile, a per-profile series.  O(n_points x n_params).
 * STATUS_USAGE for an invalid parameter or point, STATUS_NOMEM. */
enum status model_param_series(const struct model *m, uint32_t param,
			       uint32_t through, uint32_t **points, size_t *n,
			       struct error *err);

/* ---- measurements of parametric sets (model_measures.c) ------------ */

/* What a parametric set (Extra-P) holds per call path, metric and point:
 * the statistics of the repetitions measured there, as Extra-P's
 * Measurement computes them (numpy: mean by pairwise summation, median,
 * min, max, population standard deviation), or as a file stores them
 * (.extra-p, Extra-P 3: aggregates only). */
struct model_measure {
	double mean, median, minimum, maximum, std;
	uint32_t repetitions; /* values behind the statistics (files for a
				 Cube set); 0 when stored without a count */
};

enum measure_kind {
	MEASURE_MEAN,
	MEASURE_MEDIAN,
	MEASURE_MINIMUM,
	MEASURE_MAXIMUM,
};

/* The statistic `kind` of a measurement. */
double model_measure_get(const struct model_measure *m, enum measure_kind kind);

/* The statistic's name ("mean", "median", "minimum", "maximum"; "" for
 * an invalid kind), and the kind named `name` (those, or "min", "max"):
 * false when `name` names none. */
const char *model_measure_name(enum measure_kind kind);
bool model_measure_parse(const char *name, enum measure_kind *out);

/* The metrics of a parametric set that carry measurements ("measured
 * metrics"), each shown as one model column: their number (0 when the
 * model is not parametric) and the column of measured metric `measured`
 * (MODEL_NONE when invalid). */
uint32_t model_n_measured(const struct model *m);
uint32_t model_measured_column(const struct model *m, uint32_t measured);

/* The measurement of node `node` for measured metric `measured` at point
 * `point`, or NULL when there is none (a call path without data there, a
 * node that is only a prefix of call paths).  O(log n) or better. */
const struct model_measure *model_measure_at(const struct model *m,
					     uint32_t node, uint32_t measured,
					     uint32_t point);

/* The measurements in order, for a walk that must not search each
 * (node, measured, point) (cost O(measurements), not nodes x metrics x
 * points): their number, and measurement `i` (0 <= i < that number),
 * ordered by node, then measured metric, then point, with its key in
 * *node, *measured and *point (each may be NULL); NULL for an invalid i. */
size_t model_n_measures(const struct model *m);
const struct model_measure *model_measure_by_index(const struct model *m,
						   size_t i, uint32_t *node,
						   uint32_t *measured,
						   uint32_t *point);

/* The measurements of one series (node, measured metric): their number
 * (0 when there are none) and, in *first, the index (for
 * model_measure_by_index) of the first, in point order.  O(log n). */
size_t model_measure_series(const struct model *m, uint32_t node,
			    uint32_t measured, size_t *first);

/* The index (for model_measure_by_index) of the k-th measurement of the
 * series starting at `first` (k < its count) in the order Extra-P's
 * modeler sees them: the order of the builder's model_builder_set_measure
 * calls when it asked for that (model_builder_keep_measure_order: text
 * and JSON files, whose measurements Extra-P keeps in file order), else
 * point order (first + k).  O(1). */
size_t model_measure_in_order(const struct model *m, size_t first, size_t k);

/* Performance models stored in the file (.extra-p, Extra-P 3: named model
 * sets, shown as stored, not refitted): their number, a set's name, and
 * the model of (node, measured metric) in set `set`, or NULL. */
struct scaling_model;
uint32_t model_n_stored_sets(const struct model *m);
const char *model_stored_set_name(const struct model *m, uint32_t set);
const struct scaling_model *model_stored_model(const struct model *m,
					       uint32_t set, uint32_t node,
					       uint32_t measured);
/* The stored set named `arg`, else the one of index `arg` (decimal
 * digits); MODEL_NONE when there is none. */
uint32_t model_stored_set_find(const struct model *m, const char *arg);

/* The stored models in order (set, then node, then measured metric), as
 * model_measure_by_index walks the measurements: their number and model
 * `i` with its key; NULL for an invalid i. */
size_t model_n_stored_models(const struct model *m);
const struct scaling_model *model_stored_model_by_index(const struct model *m,
							size_t i, uint32_t *set,
							uint32_t *node,
							uint32_t *measured);

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

/* Value of statistic index `stat` at node `node`.  False when absent.  A
 * STAT_DERIVED_INCLUSIVE statistic's first value costs one pass over the
 * source's values (model_stat_dense) and over the tree (children before
 * parents, no recursion), 9 bytes per node kept until model_free; every
 * later value is a lookup.  A failed pass leaves the statistic absent, is
 * not retried, and is reported by model_take_value_error. */
bool model_stat_value(const struct model *m, uint32_t node, uint32_t stat,
		      double *out);

/* Statistic index `stat` at every node at once: values[i] and present[i]
 * (arrays of n_nodes; `present` may be NULL) are what model_stat_value
 * gives at node i, with values[i] 0 where absent.  One sequential pass over
 * the provider's summary values when it has summary_all, else one summary
 * lookup per node.  STATUS_USAGE for an unknown statistic (everything
 * absent), STATUS_NOMEM, or the provider's error.  A derived inclusive
 * statistic is copied from its kept pass (see model_stat_value; a failed
 * pass gives everything absent and STATUS_OK). */
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

/* Declare the inclusive counterpart of statistic `exclusive`, which must
 * be flagged STAT_EXCLUSIVE_ONLY: a new statistic with the same metric,
 * formula and combine and the scope "inclusive", flagged
 * STAT_DERIVED_INCLUSIVE (stat_id and
 * prop_id MODEL_NONE: the reader has no values for it), whose values the
 * engine derives.  Build the inclusive column over it.  Returns its index,
 * or MODEL_NONE for an invalid source or when out of memory. */
uint32_t model_builder_add_inclusive_stat(struct model_builder *b,
					  uint32_t exclusive);

/* Give statistic `stat` (a derived inclusive one, whose prop_id is
 * MODEL_NONE) the reader's key for per-profile values: a format that
 * stores only exclusive values may still compute per-profile inclusive
 * ones (Cube: the subtree's rows).  False for an invalid statistic. */
bool model_builder_set_stat_prop_id(struct model_builder *b, uint32_t stat,
				    uint32_t prop_id);

/* Takes ownership of the column's strings and formula. */
uint32_t model_builder_add_column(struct model_builder *b,
				  struct model_column *column);

/* Add a profile with its identifier tuple (copied).  The label is built
 * from the tuple when `label` is NULL. */
uint32_t model_builder_add_profile(struct model_builder *b, bool is_summary,
				   const struct model_id *ids, uint32_t n_ids,
				   const char *label);

/* Declare a parameter (name copied); every parameter must be declared
 * before the first point.  Returns its index, or MODEL_NONE when out of
 * memory, when points were already added, or when `name` is NULL or
 * already declared. */
uint32_t model_builder_add_param(struct model_builder *b, const char *name);

/* Add a measurement point: `coords` (copied) holds one real value per
 * declared parameter (not NaN), `n` must be n_params (> 0).  Returns its
 * index or MODEL_NONE. */
uint32_t model_builder_add_point(struct model_builder *b,
				 const double *coords, uint32_t n);

/* Make profile `profile` repetition `repetition` (< MODEL_NONE) at point
 * `point`.  False for an invalid profile or point. */
bool model_builder_set_profile_point(struct model_builder *b,
				     uint32_t profile, uint32_t point,
				     uint32_t repetition);

/* Declare column `column` a measured metric; returns its measured index
 * (0, 1, ... in call order) or MODEL_NONE. */
uint32_t model_builder_add_measured(struct model_builder *b, uint32_t column);

/* Keep each series' measurements in the order of the
 * model_builder_set_measure calls (model_measure_in_order) besides point
 * order; a repeated triple takes its last call's place.  Costs 4 bytes
 * per measurement, nothing when the calls come in point order. */
void model_builder_keep_measure_order(struct model_builder *b);

/* Set the measurement of (node, measured, point) (copied; a second call
 * for the same triple replaces the first).  False for an invalid index or
 * when out of memory. */
bool model_builder_set_measure(struct model_builder *b, uint32_t node,
			       uint32_t measured, uint32_t point,
			       const struct model_measure *value);

/* Declare a stored model set named `name` (copied); returns its index or
 * MODEL_NONE.  Then give it models: model_builder_set_stored_model takes
 * ownership of *model's terms (leaving *model cleared), also on failure. */
uint32_t model_builder_add_stored_set(struct model_builder *b,
				      const char *name);
bool model_builder_set_stored_model(struct model_builder *b, uint32_t set,
				    uint32_t node, uint32_t measured,
				    struct scaling_model *model);

uint32_t model_builder_add_timeline(struct model_builder *b,
				    const struct model_timeline *tl);

/* Declare a counter line of `count` (time, value) pairs, read through
 * trace_ops.counter: `profile` (MODEL_NONE for none), the label shown and
 * the unit (NULL for none).  Returns its line index or MODEL_NONE. */
uint32_t model_builder_add_counter(struct model_builder *b, uint32_t profile,
				   const char *label, const char *unit,
				   uint64_t count);

/* The time range of all timelines; call it after adding them.  Without
 * samples (every timeline empty) or with an inverted range (min > max)
 * there is no range: it is stored as 0..0. */
void model_builder_set_time_range(struct model_builder *b, uint64_t min,
				  uint64_t max);

void model_builder_set_values(struct model_builder *b,
			      const struct value_ops *ops, void *impl);
void model_builder_set_trace(struct model_builder *b,
			     const struct trace_ops *ops, void *impl);

/* What a reader that defers subtrees provides (NODE_TRAIT_DEFERRED). */
struct deferred_ops {
	/* Add the whole subtree under deferred node `node` through `b`
	 * (model_builder_add_node with `node` or a node added here as the
	 * parent; strings, functions); afterwards the reader's value
	 * provider answers for the new nodes, whose context ids are their
	 * indices or otherwise unique.  On failure the model is put back as
	 * it was (the node stays deferred). */
	enum status (*load)(void *impl, struct model_builder *b,
			    uint32_t node, struct error *err);
	/* The combination (the statistic's combine) of exclusive-only
	 * statistic `stat_id`'s values over the subtree not loaded yet under
	 * `node`; false when the whole subtree has none. */
	bool (*total)(void *impl, uint32_t node, uint32_t stat_id,
		      double *out);
	/* NULL when the value provider owns `impl` (closed after it). */
	void (*close)(void *impl);
};

/* Before finish: nodes added with NODE_TRAIT_DEFERRED are loaded through
 * `ops`; the model then keeps its builder to grow with. */
void model_builder_set_deferred(struct model_builder *b,
				const struct deferred_ops *ops, void *impl);

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
