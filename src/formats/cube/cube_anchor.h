/* cube_anchor: the anchor.xml of a Cube4 file (metric tree, regions, the
 * call-node tree, the system tree, parameters and attributes) read with
 * expat in one streaming pass (no entities, no external anything), into
 * plain tables the reader turns into the model.  Strings are interned in
 * the model builder as they are read.  Format: pycubexr
 * docs/cube_file_format.md and CubeLib's Cube4Parser (see doc/cube.md).
 * Depends on core/, model/ and io/ (through cube_tar). */
#ifndef CALLSCOPE_CUBE_ANCHOR_H
#define CALLSCOPE_CUBE_ANCHOR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "formats/cube/cube_tar.h"
#include "model/model.h"

/* Limits that bound memory by the file (each element costs bytes). */
#define CUBE_MAX_DEPTH 100000      /* element nesting */
#define CUBE_MAX_TEXT (1u << 20)   /* one element's text */
#define CUBE_MAX_ANCHOR (1ull << 34) /* inflated anchor.xml: 16 GiB */

enum cube_dtype {
	CUBE_DT_DOUBLE,
	CUBE_DT_INT8,
	CUBE_DT_UINT8,
	CUBE_DT_INT16,
	CUBE_DT_UINT16,
	CUBE_DT_INT32,
	CUBE_DT_UINT32,
	CUBE_DT_INT64,
	CUBE_DT_UINT64,
	CUBE_DT_MINDOUBLE,
	CUBE_DT_MAXDOUBLE,
	CUBE_DT_COMPLEX,    /* re, im: shown as re */
	CUBE_DT_NDOUBLES,   /* n doubles: shown as the first */
	CUBE_DT_TAU_ATOMIC, /* shown as components (cube_components.c) */
	CUBE_DT_RATE,       /* shown as components */
	CUBE_DT_HISTOGRAM,  /* shown as components; as a component: the
			     * sum of the bins */
	CUBE_DT_SCALE_FUNC, /* scaling functions: their ranking codes
			     * (cube_scalefn.h) */
};

enum cube_mtype {
	CUBE_MT_EXCLUSIVE, /* also a missing or unknown type */
	CUBE_MT_INCLUSIVE,
	CUBE_MT_SIMPLE,
	CUBE_MT_DERIVED, /* PREDERIVED_*, POSTDERIVED, DERIVED: CubePL only */
};

/* Kinds of derived metric (CubeMetric.cpp; cube_derived.c computes
 * them). */
enum cube_derived {
	CUBE_DV_NONE,
	CUBE_DV_PRE_EXCL, /* PREDERIVED_EXCLUSIVE */
	CUBE_DV_PRE_INCL, /* PREDERIVED_INCLUSIVE */
	CUBE_DV_POST,     /* POSTDERIVED (and DERIVED) */
};

struct cube_metric {
	uint32_t id;        /* the file's id: N.index, N.data */
	uint32_t parent;    /* index into metrics, MODEL_NONE for a root */
	uint32_t uniq;      /* string handles */
	uint32_t disp;
	uint32_t uom;
	uint32_t descr;
	uint32_t dtype_text;
	uint8_t dtype;      /* enum cube_dtype */
	uint8_t mtype;      /* enum cube_mtype */
	uint8_t derived;    /* enum cube_derived */
	uint32_t cubepl[6]; /* string handles (0: none): <cubepl>,
			     * <cubeplinit>, then <cubeplaggr> by its
			     * cubeplaggrtype: plus, minus, aggr, and
			     * one without a known type */
	bool known_dtype;   /* false: unknown text, read as DOUBLE */
	bool own_aggr;      /* a derived metric whose <cubeplaggr> are
			     * applied (cube_derived.c) */
	uint32_t elem_size; /* bytes per value */
	/* a component of a multi-value metric (cube_components.c): the
	 * field read at this offset of each cell, typed `dtype` */
	bool is_component;
	uint16_t comp_off;
};

struct cube_region {
	uint32_t id;
	uint32_t name, mod; /* string handles */
	uint32_t mangled, paradigm, role; /* string handles, 0 when absent */
	uint32_t begin;     /* line, 0 when unknown */
	uint32_t function;  /* model function, MODEL_NONE until made */
};

/* Call nodes in document order (pre-order). */
struct cube_cnode {
	uint32_t id;
	uint32_t parent;  /* position, MODEL_NONE for a root */
	uint32_t callee;  /* region id */
	uint32_t line;    /* 0 when unknown */
	uint32_t mod;     /* string handle of the call site's file */
	uint32_t params;  /* string handle: "key=value, ..." or 0 */
};

struct cube_location {
	uint32_t id;        /* the file's Id: the data column */
	uint32_t name;      /* string handles */
	uint32_t group_name;
	uint32_t type;      /* "thread", "gpu", ... */
	uint32_t group_type; /* "process", ... */
	uint64_t rank, group_rank;
	uint32_t stn;       /* the group's system tree node, MODEL_NONE */
};

/* A system tree node (machine, rack, node, ...; Cube 3's <machine> and
 * <node>): its number in document order, its name and class (string handles, 0 when
 * absent), its parent node (an earlier index; MODEL_NONE at the top). */
struct cube_stn {
	uint32_t id, name, cls, parent;
};

struct cube_anchor {
	char *version; /* <cube version=...> */
	char *title;   /* "Creator, Cube Version" attributes */
	char *attrs;   /* every top-level attr "key=value; ..." */
	struct cube_metric *metrics;
	uint32_t n_metrics;
	struct cube_region *regions;
	uint32_t n_regions;
	struct cube_cnode *cnodes;
	uint32_t n_cnodes;
	struct cube_location *locations; /* in column order (by Id) */
	uint32_t n_locations;
	bool location_ids_doc_order; /* Ids were not 0..n-1: document order */
	struct cube_stn *stns; /* in document order */
	uint32_t n_stns;
};

/* Parse member anchor.xml of `c` (plain or gzip/zlib-compressed) into
 * `out`, interning strings in `b`. */
enum status cube_anchor_read(const struct cube_container *c,
			     struct model_builder *b, struct cube_anchor *out,
			     struct error *err);

void cube_anchor_free(struct cube_anchor *a);

#endif
