/* v4_meta_internal: what the two halves of the meta.db reader share: the
 * section numbers and v4.0 structure sizes, the reader's state, the error
 * macros, and the entry points of v4_meta_tree.c (the Load Module, Source
 * File and Function tables, and the Context Tree).  Must not depend on
 * curses or on another format. */
#ifndef CALLSCOPE_V4_META_INTERNAL_H
#define CALLSCOPE_V4_META_INTERNAL_H

#include "formats/hpctoolkit_v4/v4_meta.h"

enum {
	SEC_GENERAL,
	SEC_ID_NAMES,
	SEC_METRICS,
	SEC_CONTEXT,
	SEC_STRINGS,
	SEC_MODULES,
	SEC_FILES,
	SEC_FUNCTIONS,
};

/* v4.0 sizes of the expandable structures (Reader compatibility: a later
 * minor version may only make them larger). */
#define SZ_MD 0x20
#define SZ_PSI 0x10
#define SZ_SS 0x18
#define SZ_PS 0x10
#define SZ_ENTRY 0x20
#define SZ_CTX_HEAD 0x20
#define SZ_LMS 0x10
#define SZ_SFS 0x10
#define SZ_FS 0x28

#define CTX_HAS_FUNCTION 0x1
#define CTX_HAS_SRCLOC 0x2
#define CTX_HAS_POINT 0x4

/* An array of Load Module, Source File or Function Specifications, with the
 * model handle of each element filled on first use. */
struct table {
	uint64_t ptr;     /* absolute offset of element 0 */
	uint32_t n;
	uint32_t stride;  /* the declared size */
	uint32_t *handle; /* per element: string/function handle or NONE */
};

struct frame {
	uint64_t cur;    /* absolute offset of the next {Ctx} */
	uint64_t end;    /* absolute end of the child array */
	uint32_t parent; /* model node of the parent */
};

struct meta_reader {
	const char *name;
	struct span all;
	struct v4_region sec[V4_MAX_SECTIONS];
	struct model_builder *b;
	struct table modules, files, functions;
	uint64_t *visited; /* one bit per 8-byte word of the Context section */
	uint64_t n_words;
	struct frame *stack;
	size_t depth, stack_cap;
	uint64_t n_ctx, max_ctx; /* contexts decoded, and the section's cap */
};

#define CORRUPT(off, ...)                                                  \
	error_set_at(err, STATUS_CORRUPT, r->name, (off), __VA_ARGS__)
#define NOMEM() error_set(err, STATUS_NOMEM, r->name, "out of memory")

typedef unsigned long long ull; /* for printing u64 values portably */

/* Section `sec` in *s: STATUS_OK with an empty span when the file has
 * none, else corrupt ("WHAT: section too small for its 0xNN-byte header")
 * when shorter than the `header` bytes it begins with. */
enum status v4_meta_section(struct meta_reader *r, uint32_t sec,
			    unsigned header, const char *what,
			    struct v4_region *s, struct error *err);

/* Read the table of section `sec` ({LMS}, {SFS} or {FS} elements of at
 * least `min_size` bytes) into *t; `what` names the section in errors. */
enum status v4_meta_read_table(struct meta_reader *r, uint32_t sec,
			       uint32_t min_size, const char *what,
			       struct table *t, struct error *err);

/* Decode the Context Tree into the builder. */
enum status v4_meta_read_tree(struct meta_reader *r, struct error *err);

#endif
