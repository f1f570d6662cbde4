/* cube_derived: the state of a Cube file's derived (CubePL) metrics,
 * shared by cube_derived.c (at open: the reserved variables' tables, the
 * programs parsed, init blocks run, cycles and failures found) and
 * cube_derived_values.c (their values, per location and in total, with
 * the totals kept).  Must not depend on curses or on another format. */
#ifndef CALLSCOPE_CUBE_DERIVED_H
#define CALLSCOPE_CUBE_DERIVED_H

#include <stdbool.h>
#include <stdint.h>

#include "formats/cube/cube_internal.h"
#include "formats/cube/cubepl.h"

/* Steps one evaluation of an expression may take. */
#define CUBE_PL_EVAL_STEPS 1000000ull

struct dmetric {
	struct cubepl_program *expr, *init;
	struct cubepl_program *agg[3]; /* enum cube_agg: the <cubeplaggr>
					* applied, or NULL */
	bool usable;
	char *why;  /* why not usable (malloc'd), or NULL */
	bool busy;  /* being computed: a reference back is a cycle */
	bool failed; /* a run failed: no more values (v->first_error) */
	double *tot[2];      /* per position (+1: the synthetic root) */
	uint8_t *tstate[2];  /* 0 unknown, 1 value, 2 no value */
};

struct cube_pl {
	struct cubepl_env *env;
	struct dmetric *dm; /* per metric */
	/* reserved variables */
	char *filename;
	uint32_t n_regions, n_root_cnodes, n_root_metrics;
	char **reg_str[5];    /* name, mangled, paradigm, role, mod */
	uint32_t *reg_line[2]; /* begin, end */
	uint32_t *reg_of_id, reg_id_len; /* region id -> index */
	uint32_t *reg_id;     /* per region index */
	uint32_t *callee;     /* per position: region id */
	uint32_t *line;       /* per position */
	char **loc_str[2];    /* per location: name, type */
	uint64_t *loc_rank;
	char **met_str[7];    /* uniq, disp, uom, descr, dtype, expr, init */
	uint32_t *met_nchild;
};

/* The host callbacks' state of one evaluation. */
struct dctx {
	struct cube_values *v;
	uint32_t mi, pos, kind;
	int64_t loc; /* -1: totals over locations */
	/* a row of several call paths (cube_derived_rows): their positions,
	 * metric references read over all of them; NULL: pos alone */
	const uint32_t *list;
	uint32_t n_list;
	struct {
		uint32_t mi, kind, pos;
		double *row;
	} rows[8];
	uint32_t n_rows;
};

/* The host (resolve, metric, reserved) over a struct dctx. */
void cube_pl_host(struct dctx *d, struct cubepl_host *h);

/* Record a failed run of metric mi (the first one reaches the caller
 * through value_ops.take_error). */
void cube_pl_fail(struct cube_values *v, uint32_t mi, const char *msg);

#endif
