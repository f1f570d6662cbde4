/* cube_anchor_parse: the anchor.xml parser's private types (the element
 * and field codes, the element stack's frames, the process groups seen and
 * the parser state), shared by cube_anchor.c only.  Depends on
 * cube_anchor.h; expat's parser is named by its struct (expat.h stays in the
 * .c file). */
#ifndef CALLSCOPE_CUBE_ANCHOR_PARSE_H
#define CALLSCOPE_CUBE_ANCHOR_PARSE_H

#include "formats/cube/cube_anchor.h"
#include "formats/cube/cube_quote.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum elem {
	E_OTHER,
	E_CUBE,
	E_ATTR,
	E_METRIC,
	E_REGION,
	E_CNODE,
	E_PARAMETER,
	E_STN,      /* systemtreenode, machine, node */
	E_GROUP,    /* locationgroup, process */
	E_LOCATION, /* location, thread */
	E_TEXT,     /* an element whose text we keep */
};

enum field {
	F_NONE,
	F_NAME,
	F_UNIQ,
	F_DISP,
	F_DTYPE,
	F_UOM,
	F_DESCR,
	F_RANK,
	F_TYPE,
	F_CUBEPL,  /* a derived metric's expression */
	F_CUBEPL_INIT,
	F_CUBEPL_AGGR, /* <cubeplaggr>, its cubeplaggrtype read at start */
	F_CUBEPL_PLUS = F_CUBEPL_AGGR, /* the four kinds of it, in the */
	F_CUBEPL_MINUS,                /* order of cube_metric.cubepl */
	F_CUBEPL_AGGR_AGGR,
	F_CUBEPL_AGGR_UNTYPED,
	F_MANGLED, /* region attributes CubePL reads */
	F_PARADIGM,
	F_ROLE,
	F_CLASS,   /* a system tree node's class */
};

struct frame {
	uint8_t elem;
	uint8_t field;
	uint32_t obj; /* index of the metric, region, cnode, group, location */
};

struct group {
	uint32_t name, type;
	uint64_t rank;
	uint32_t stn; /* the enclosing system tree node, MODEL_NONE */
};

struct parser {
	struct XML_ParserStruct *xp; /* XML_Parser */
	struct cube_quote quote;     /* CubeLib's unquoted attributes */
	const char *name;
	struct model_builder *b;
	struct cube_anchor *a;
	struct error *err;
	enum status st;
	struct frame *stack;
	size_t depth, cap;
	bool seen_root;
	char *text;
	size_t text_len, text_cap;
	bool collecting;
	uint32_t caps[4]; /* metrics, regions, cnodes, locations */
	struct group *groups;
	uint32_t n_groups, groups_cap, stns_cap;
	uint32_t *loc_group; /* per location (document order) */
	char *attrs;
	size_t attrs_len;
};

#endif
