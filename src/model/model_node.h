/* model_node: the calling-context tree of a model: node kinds, relations
 * and traits, the 56-byte node with first-child/next-sibling links
 * (model.nodes, node 0 the synthetic root), functions (model.functions),
 * interned strings (model_str), the context id -> node lookup and node
 * labels.  Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_MODEL_NODE_H
#define CALLSCOPE_MODEL_NODE_H

#include <stdbool.h>
#include <stdint.h>

struct model;

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

/* The text of string handle `h` ("" for 0 or an invalid handle). */
const char *model_str(const struct model *m, uint32_t h);

/* The node whose database context id is `ctx_id`, or MODEL_NONE. */
uint32_t model_node_of_ctx(const struct model *m, uint32_t ctx_id);

/* Display name of a node into a heap string: entry and function names,
 * "loop at FILE:LINE", "FILE:LINE", "MODULE@0xOFFSET", "<unknown
 * function>".  Not sanitized: pass through sanitize before printing. */
char *model_node_label(const struct model *m, uint32_t node);

/* The same with file and module paths cut to their last component
 * ("loop at solver.cpp:120", "libm.so@0x1f0"), for narrow displays.  Heap
 * string; not sanitized. */
char *model_node_short_label(const struct model *m, uint32_t node);

#endif
