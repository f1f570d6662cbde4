/* cube_internal: what the parts of the Cube reader share: the lazy value
 * provider's state (cube_values.c reads it, the tree and metric builders
 * fill it), the opener's state during open_path (cube.c), and each part's
 * entry points (cube_tree.c: call tree, regions, nodes and locations;
 * cube_metrics.c: statistics and columns; cube_values.c: any metric's
 * values per location and in total; cube_inclusive.c: inclusive values of
 * exclusive ones, kept; cube_derived*.c: CubePL metrics).  Must not depend on curses or
 * on another format. */
#ifndef CALLSCOPE_CUBE_INTERNAL_H
#define CALLSCOPE_CUBE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "formats/cube/cube_anchor.h"
#include "formats/cube/cube_data.h"
#include "formats/cube/cube_tar.h"
#include "model/model.h"

enum { KIND_INCL = 0, KIND_EXCL = 1 };

struct mvals {
	uint32_t metric; /* index into anchor metrics */
	bool has_data;   /* N.index and N.data exist */
	bool loaded, failed;
	struct cube_data d;
	uint32_t *row_of_tree;
	double *row_total;  /* per row: over locations */
	uint8_t *row_state; /* 0 unread, 1 present, 2 absent */
};

struct cube_values {
	pthread_mutex_t lock;
	char *name;
	struct cube_container c;
	uint32_t n; /* call nodes, in document (pre-)order: positions */
	uint32_t *parent, *first_child, *next_sibling, *subtree, *id;
	uint32_t *pos_of_id; /* dense: id -> position, or NULL */
	uint32_t id_len;
	uint64_t *sorted_ids; /* id << 32 | position, when not dense */
	uint32_t *wide_rank;  /* position -> INCLUSIVE tree index (lazy) */
	struct cube_metric *metrics;
	uint32_t n_metrics;
	struct mvals *mv;
	uint32_t n_loc;
	uint8_t *rowbuf;
	double *acc, *tmp;
	uint64_t negatives; /* UINT64 cells read as negative */
	struct error first_error;
	struct cube_incl *incl; /* cube_inclusive.c: cached inclusive
				 * values of exclusive metrics (lazy) */
	struct cube_pl *pl;     /* cube_derived.c: CubePL state, NULL when
				 * the file has no derived metric */
	struct cube_sfv *sf;    /* cube_scalefn_values.c: SCALE_FUNC
				 * metrics' names and kept codes, or NULL */
};

/* A position standing for the synthetic root (every root together). */
#define CUBE_POS_ALL UINT32_MAX

/* Whether the engine derives metric m's inclusive values from its
 * exclusive ones (stored EXCLUSIVE, PREDERIVED_EXCLUSIVE without its own
 * aggregation: with one, its inclusive values are no subtree sums). */
static inline bool cube_excl_only(const struct cube_metric *m)
{
	return m->mtype == CUBE_MT_EXCLUSIVE ||
	       (m->mtype == CUBE_MT_DERIVED && m->derived == CUBE_DV_PRE_EXCL &&
		!m->own_aggr);
}

static inline bool is_minmax(const struct cube_metric *m)
{
	return m->dtype == CUBE_DT_MINDOUBLE || m->dtype == CUBE_DT_MAXDOUBLE;
}

/* Two values of metric m combined: min / max for MIN/MAXDOUBLE, else the
 * sum. */
static inline double cube_combine(const struct cube_metric *m, double a,
				  double b)
{
	if (m->dtype == CUBE_DT_MINDOUBLE)
		return b < a ? b : a;
	if (m->dtype == CUBE_DT_MAXDOUBLE)
		return b > a ? b : a;
	return a + b;
}

/* A SCALE_FUNC metric: a scaling function per cell, shown as its ranking
 * code (cube_scalefn_values.c). */
static inline bool cube_is_scalefn(const struct cube_metric *m)
{
	return m->dtype == CUBE_DT_SCALE_FUNC && !m->is_component &&
	       m->mtype != CUBE_MT_DERIVED;
}

static inline bool is_scalar(const struct cube_metric *m)
{
	return (m->dtype <= CUBE_DT_NDOUBLES ||
		(m->is_component && m->dtype == CUBE_DT_HISTOGRAM)) &&
	       m->elem_size > 0;
}

struct opener {
	const char *path;
	struct model_builder *b;
	struct cube_anchor a;
	struct cube_values *v;
	uint32_t *region_of_id; /* dense region id -> index, or NULL */
	uint32_t region_len;
	struct error *err;
};

/* cube_values.c: the provider handed to the model (impl: a struct
 * cube_values), and its release (also on a failed open). */
extern const struct value_ops cube_value_ops;
void cube_values_close(void *impl);

/* cube_values.c, for the parts below: the position of call node `id`
 * (UINT32_MAX when none); metric mi's per-location values at `pos` of
 * `kind` into out[n_loc] (pos CUBE_POS_ALL: the roots together,
 * inclusive); its total over locations.  false: absent (out zeroed).
 * Called with v->lock held. */
uint32_t cube_pos_of_id(const struct cube_values *v, uint32_t id);
bool cube_cells(struct cube_values *v, uint32_t mi, uint32_t pos,
		uint32_t kind, double *out);
bool cube_total(struct cube_values *v, uint32_t mi, uint32_t pos,
		uint32_t kind, double *out);
/* The exclusive values of a stored metric (no derived ones). */
bool cube_stored_cells(struct cube_values *v, uint32_t mi, uint32_t pos,
		       uint32_t kind, double *out);

/* cube_values.c: the raw row (every location's cell, the file's byte
 * order, *swap when big-endian) of stored metric mi at position pos, read
 * into v->rowbuf; NULL when absent or when the read failed (noted).  And
 * a failure noted as the first one (else dropped; `e` emptied). */
const uint8_t *cube_raw_row(struct cube_values *v, uint32_t mi, uint32_t pos,
			    bool *swap);
void cube_note_error(struct cube_values *v, struct error *e);

/* cube_scalefn_values.c: a SCALE_FUNC metric's values: its name kept for
 * errors (at open); the ranking code of its function at (pos, kind) over
 * every location (pos CUBE_POS_ALL: the synthetic root, inclusive), per
 * location into out[n_loc], and the function's text over location `loc`
 * (UINT32_MAX: all; *out NULL when absent).  false: absent or a damaged
 * cell (noted in v->first_error). */
enum status cube_sf_setup(struct cube_values *v, uint32_t mi,
			  const char *name);
bool cube_sf_total(struct cube_values *v, uint32_t mi, uint32_t pos,
		   uint32_t kind, double *out);
bool cube_sf_cells(struct cube_values *v, uint32_t mi, uint32_t pos,
		   uint32_t kind, double *out);
enum status cube_sf_text_at(struct cube_values *v, uint32_t mi, uint32_t pos,
			    uint32_t kind, uint32_t loc, char **out);
/* Every position's code of (mi, kind) computed in one pass over the rows
 * (children before parents) and kept, for summary_all; false when out of
 * memory or a cell is damaged (then the codes are computed one by one). */
bool cube_sf_fill(struct cube_values *v, uint32_t mi, uint32_t kind);
void cube_sf_values_free(struct cube_values *v);

/* cube_inclusive.c: the inclusive values of a metric whose exclusive
 * ones cube_cells gives (cube_excl_only), per location and in total; the
 * nodes with large subtrees are cached, so a second request of any node
 * reads at most a bounded number of rows. */
bool cube_incl_cells(struct cube_values *v, uint32_t mi, uint32_t pos,
		     double *out);
bool cube_incl_total(struct cube_values *v, uint32_t mi, uint32_t pos,
		     double *out);
void cube_incl_free(struct cube_values *v);

/* cube_derived.c: derived metrics: at open, their programs parsed and
 * init blocks run (warnings for those that cannot be computed: the
 * reason); then their values. */
enum status cube_derived_setup(struct opener *o);
bool cube_derived_usable(const struct cube_values *v, uint32_t mi,
			 const char **why);
bool cube_derived_cells(struct cube_values *v, uint32_t mi, uint32_t pos,
			uint32_t kind, double *out);
bool cube_derived_total(struct cube_values *v, uint32_t mi, uint32_t pos,
			uint32_t kind, double *out);
void cube_derived_free(struct cube_values *v);

/* A prederived metric's own operators (<cubeplaggr> by cubeplaggrtype). */
enum cube_agg { CUBE_AGG_PLUS, CUBE_AGG_MINUS, CUBE_AGG_AGGR };

/* Operator k of metric mi on (a, b): its expression, or CubeLib's
 * default (+, -, +).  false: the run failed (recorded as the metric's
 * failure, see cube_pl_fail). */
bool cube_derived_op(struct cube_values *v, uint32_t mi, enum cube_agg k,
		     double a, double b, double *out);

/* cubeaggr (issue #29): POSTDERIVED metric mi's value of flavour `kind`
 * over the call paths at positions pos[0..n) together (a flat or
 * bottom-up row): its expression over the referred metrics' values over
 * them, per location and folded by its own aggr when it has one
 * (CubeLib's PostDerivedMetric::get_sev_native of a list of call
 * paths).  False: no value (a failed run is the metric's failure). */
bool cube_derived_rows(struct cube_values *v, uint32_t mi, uint32_t kind,
		       const uint32_t *pos, uint32_t n, double *out);

/* cube_tree.c: the tree arrays and id index of the provider, then the
 * model's functions (regions), call nodes and profiles (locations). */
enum status cube_build_tree(struct opener *o);
enum status cube_build_regions(struct opener *o);
enum status cube_build_nodes(struct opener *o);
enum status cube_build_profiles(struct opener *o);

/* cube_metrics.c: statistics and columns of every metric (two per scalar
 * metric, derived ones over multi-value metrics' components). */
enum status cube_build_metrics(struct opener *o);

/* cube_metric_tree.c: per metric with sub-metrics and kind, the hidden
 * column of its values less its sub-metrics' (the Cube GUI's expanded
 * metric), linked as its column's `own`.  incl[i], excl[i]: metric i's
 * columns, stats[2i], stats[2i + 1]: its inclusive and exclusive
 * statistics (MODEL_NONE: none). */
enum status cube_metric_tree_columns(struct opener *o, const uint32_t *incl,
				     const uint32_t *excl,
				     const uint32_t *stats);

/* cube.c: a warning "PATH: message" on the model. */
void cube_warn(struct opener *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
