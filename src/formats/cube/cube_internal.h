/* cube_internal: what the parts of the Cube reader share: the lazy value
 * provider's state (cube_values.c reads it, the tree and metric builders
 * fill it), the opener's state during open_path (cube.c), and each part's
 * entry points (cube_tree.c: call tree, regions, nodes and locations;
 * cube_metrics.c: statistics and columns).  Must not depend on curses or
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
};

static inline bool is_minmax(const struct cube_metric *m)
{
	return m->dtype == CUBE_DT_MINDOUBLE || m->dtype == CUBE_DT_MAXDOUBLE;
}

static inline bool is_scalar(const struct cube_metric *m)
{
	return m->dtype <= CUBE_DT_NDOUBLES && m->elem_size > 0;
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

/* cube_tree.c: the tree arrays and id index of the provider, then the
 * model's functions (regions), call nodes and profiles (locations). */
enum status cube_build_tree(struct opener *o);
enum status cube_build_regions(struct opener *o);
enum status cube_build_nodes(struct opener *o);
enum status cube_build_profiles(struct opener *o);

/* cube_metrics.c: statistics and columns of every metric (two per scalar
 * metric, derived ones over multi-value metrics' components). */
enum status cube_build_metrics(struct opener *o);

/* cube.c: a warning "PATH: message" on the model. */
void cube_warn(struct opener *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
