/* v4_meta_tree: the Context Tree of a v4 meta.db and the tables it points
 * into (Load Modules, Source Files, Functions), decoded in one iterative
 * pass with an explicit stack and a visited-bytes bitmap, so every byte of
 * the section is decoded at most once (no cycles, no shared subtrees, no
 * quadratic work).  Must not depend on curses or on another format. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "formats/hpctoolkit_v4/v4_meta_internal.h"

/* ---- Load Modules, Source Files, Functions --------------------------- */

enum status v4_meta_section(struct meta_reader *r, uint32_t sec,
			    unsigned header, const char *what,
			    struct v4_region *s, struct error *err)
{
	*s = r->sec[sec];
	if (s->span.len == 0 || s->span.len >= header)
		return STATUS_OK;
	return CORRUPT(s->base, "%s: section too small for its 0x%02x-byte "
		       "header",
		       what, header);
}

enum status v4_meta_read_table(struct meta_reader *r, uint32_t sec,
			       uint32_t min_size, const char *what,
			       struct table *t, struct error *err)
{
	struct v4_region s;
	/* {Modules,Files,Functions} section header: p, n (u32), sz (u16) */
	enum status st = v4_meta_section(r, sec, 0x0e, what, &s, err);
	if (st != STATUS_OK || s.span.len == 0)
		return st;
	t->ptr = span_get_u64le(s.span, 0);
	t->n = span_get_u32le(s.span, 8);
	t->stride = span_get_u16le(s.span, 0x0c);
	struct span arr;
	if (t->n && t->stride < min_size)
		return CORRUPT(s.base + 0x0c, "%s: element size %u "
			       "is smaller than the v4.0 size %u",
			       what, t->stride, min_size);
	/* "The array ... is completely within the ... section." */
	if (!v4_region_array(s, t->ptr, t->n, t->stride, &arr))
		return CORRUPT(s.base, "%s: array 0x%llx [%u x %u] "
			       "lies outside the section",
			       what, (ull)t->ptr, t->n, t->stride);
	if (t->n == 0)
		return STATUS_OK;
	t->handle = malloc((size_t)t->n * sizeof(*t->handle));
	if (!t->handle)
		return NOMEM();
	memset(t->handle, 0xff, (size_t)t->n * sizeof(*t->handle));
	return STATUS_OK;
}

static bool table_index(const struct table *t, uint64_t p, uint32_t *idx)
{
	if (!t->handle || p < t->ptr || (p - t->ptr) % t->stride != 0 ||
	    (p - t->ptr) / t->stride >= t->n)
		return false;
	*idx = (uint32_t)((p - t->ptr) / t->stride);
	return true;
}

/* String handle of the path of the [LMS] or [SFS] at `p` (0 for p == 0). */
static enum status path_handle(struct meta_reader *r, struct table *t,
			       uint32_t sec, const char *what, uint64_t p,
			       uint64_t where, uint32_t *out,
			       struct error *err)
{
	uint32_t idx;
	*out = 0;
	if (p == 0)
		return STATUS_OK;
	if (!table_index(t, p, &idx))
		return CORRUPT(where, "pointer 0x%llx is not an "
			       "element of the %s section",
			       (ull)p, what);
	if (t->handle[idx] != MODEL_NONE) {
		*out = t->handle[idx];
		return STATUS_OK;
	}
	struct span el;
	(void)v4_region_sub(r->sec[sec], p, t->stride, &el);
	uint64_t p_path = span_get_u64le(el, 0x08);
	const char *str;
	size_t len;
	/* "The string pointed to by pPath is completely within the Common
	 * String Table section" */
	if (!v4_region_cstr(r->sec[SEC_STRINGS], p_path, &str, &len))
		return CORRUPT(p + 8, "%s: pPath 0x%llx is not a "
			       "string inside the Common String Table",
			       what, (ull)p_path);
	t->handle[idx] = model_builder_intern(r->b, str, len);
	*out = t->handle[idx];
	return STATUS_OK;
}

/* Model function index of the [FS] at `p`, added on first use. */
static enum status function_index(struct meta_reader *r, uint64_t p,
				  uint64_t where, uint32_t *out,
				  struct error *err)
{
	uint32_t idx;
	enum status st;
	/* "pFunction points within the Function section" */
	if (!table_index(&r->functions, p, &idx))
		return CORRUPT(where, "Context Tree: pFunction "
			       "0x%llx is not an element of the Functions "
			       "section",
			       (ull)p);
	if (r->functions.handle[idx] != MODEL_NONE) {
		*out = r->functions.handle[idx];
		return STATUS_OK;
	}
	struct span fs;
	(void)v4_region_sub(r->sec[SEC_FUNCTIONS], p, r->functions.stride,
			    &fs);
	/* Function Specification: pName, pModule, offset, pFile, line */
	uint64_t p_name = span_get_u64le(fs, 0x00);
	struct model_function fn = {
		.offset = span_get_u64le(fs, 0x10),
		.line = span_get_u32le(fs, 0x20),
	};
	if (p_name) {
		const char *str;
		size_t len;
		if (!v4_region_cstr(r->sec[SEC_STRINGS], p_name, &str, &len))
			return CORRUPT(p, "Functions: pName 0x%llx "
				       "is not a string inside the Common "
				       "String Table",
				       (ull)p_name);
		fn.name = model_builder_intern(r->b, str, len);
	}
	st = path_handle(r, &r->modules, SEC_MODULES, "Load Modules",
			 span_get_u64le(fs, 0x08), p + 0x08, &fn.module, err);
	if (st == STATUS_OK)
		st = path_handle(r, &r->files, SEC_FILES, "Source Files",
				 span_get_u64le(fs, 0x18), p + 0x18, &fn.file, err);
	if (st != STATUS_OK)
		return st;
	r->functions.handle[idx] = model_builder_add_function(r->b, &fn);
	if (r->functions.handle[idx] == MODEL_NONE)
		return NOMEM();
	*out = r->functions.handle[idx];
	return STATUS_OK;
}

/* ---- Context Tree ---------------------------------------------------- */

/* Mark the bytes [at, at+size) of the Context section as decoded; false
 * when any of them was decoded before.  `at` is 8-aligned (A 8). */
static bool mark_visited(struct meta_reader *r, uint64_t at, uint64_t size)
{
	uint64_t first = (at >> 3) - (r->sec[SEC_CONTEXT].base >> 3);
	uint64_t last = first + (size + 7) / 8;
	if (last > r->n_words)
		return false;
	for (uint64_t w = first; w < last; w++) {
		uint64_t bit = 1ull << (w & 63);
		if (r->visited[w >> 6] & bit)
			return false;
		r->visited[w >> 6] |= bit;
	}
	return true;
}

static bool is_visited(const struct meta_reader *r, uint64_t at)
{
	uint64_t w = (at >> 3) - (r->sec[SEC_CONTEXT].base >> 3);
	return w >= r->n_words || (r->visited[w >> 6] >> (w & 63)) & 1;
}

/* Push the child array {szChildren, pChildren} of the context at `owner`
 * (model node `parent`). */
static enum status push_children(struct meta_reader *r, uint64_t owner,
				 uint64_t sz, uint64_t p, uint32_t parent,
				 struct error *err)
{
	struct v4_region c = r->sec[SEC_CONTEXT];
	struct span arr;
	/* "pChildren is 0 if there are no child Contexts ... szChildren
	 * [is] 0 in these cases" */
	if (sz == 0)
		return STATUS_OK;
	/* "The arrays pointed to by pRoots and pChildren are completely
	 * within the Context Tree section"; {Ctx} is A 8. */
	if (p % 8 != 0 || !v4_region_sub(c, p, sz, &arr))
		return CORRUPT(owner, "Context Tree: child array "
			       "0x%llx (+%llu bytes) is misaligned or lies "
			       "outside the section",
			       (ull)p, (ull)sz);
	if (is_visited(r, p))
		return CORRUPT(owner, "Context Tree: child array at "
			       "0x%llx overlaps its parent or bytes already "
			       "read (a cycle or a shared subtree)",
			       (ull)p);
	if (!array_grow((void **)&r->stack, &r->stack_cap, r->depth + 1,
			sizeof(*r->stack)))
		return NOMEM();
	r->stack[r->depth++] = (struct frame){
		.cur = p,
		.end = p + sz,
		.parent = parent,
	};
	return STATUS_OK;
}

static uint8_t map_kind(uint8_t lexical, uint8_t flags)
{
	switch (lexical) {
	case 0:
		return NODE_FUNCTION;
	case 1:
		return NODE_LOOP;
	case 2:
		return NODE_LINE;
	case 3:
		return NODE_INSTRUCTION;
	default:
		/* Reader compatibility: synthesize a fallback from the
		 * fields present. */
		if (flags & CTX_HAS_FUNCTION)
			return NODE_FUNCTION;
		if (flags & CTX_HAS_POINT)
			return NODE_INSTRUCTION;
		if (flags & CTX_HAS_SRCLOC)
			return NODE_LINE;
		return NODE_FUNCTION;
	}
}

static uint8_t map_relation(uint8_t relation)
{
	switch (relation) {
	case 0:
		return RELATION_LEXICAL;
	case 1:
		return RELATION_CALL;
	case 2:
		return RELATION_INLINED_CALL;
	default:
		/* every non-zero relation defined so far is a call */
		return RELATION_CALL;
	}
}

/* Decode the {Ctx} at the top frame's cursor and add it. */
static enum status read_ctx(struct meta_reader *r, struct error *err)
{
	struct v4_region c = r->sec[SEC_CONTEXT];
	struct frame *fr = &r->stack[r->depth - 1];
	uint64_t at = fr->cur;
	uint32_t parent = fr->parent;
	struct span ctx;
	enum status st;
	/* {Ctx}: 0x20-byte head, then nFlexWords 8-byte words */
	if (fr->end - at < SZ_CTX_HEAD)
		return CORRUPT(at, "Context Tree: child array ends "
			       "inside a {Ctx} header");
	(void)v4_region_sub(c, at, SZ_CTX_HEAD, &ctx);
	uint8_t n_flex = span_get_u8(ctx, 0x17);
	uint64_t size = SZ_CTX_HEAD + 8 * (uint64_t)n_flex;
	if (fr->end - at < size)
		return CORRUPT(at, "Context Tree: {Ctx} of %llu "
			       "bytes (nFlexWords %u) overruns its child "
			       "array",
			       (ull)size, (unsigned)n_flex);
	/* node cap: a {Ctx} takes at least 0x20 bytes of the section (the
	 * visited bitmap already implies it; checked for its own sake) */
	if (++r->n_ctx > r->max_ctx)
		return CORRUPT(at, "Context Tree: more than %llu contexts in "
			       "a section of %llu bytes",
			       (ull)r->max_ctx, (ull)c.span.len);
	if (!mark_visited(r, at, size))
		return CORRUPT(at, "Context Tree: {Ctx} at 0x%llx "
			       "overlaps bytes already read (a cycle or a "
			       "shared subtree)",
			       (ull)at);
	fr->cur = at + size;
	(void)v4_region_sub(c, at, size, &ctx);
	uint64_t sz_children = span_get_u64le(ctx, 0x00);
	uint64_t p_children = span_get_u64le(ctx, 0x08);
	uint32_t ctx_id = span_get_u32le(ctx, 0x10);
	uint8_t flags = span_get_u8(ctx, 0x14);
	uint8_t relation = span_get_u8(ctx, 0x15);
	uint8_t lexical = span_get_u8(ctx, 0x16);
	uint16_t propagation = span_get_u16le(ctx, 0x18);
	/* "ctxId is always larger than 0" */
	if (ctx_id == 0)
		return CORRUPT(at + 0x10, "Context Tree: {Ctx} has "
			       "ctxId 0 (reserved for the global context)");
	/* flex: sub-fields packed in order; an u64 takes the next full
	 * word, the one u32 (line) the next free half word, which here is
	 * always the start of a fresh word. */
	uint32_t w = 0;
	uint32_t need = ((flags & CTX_HAS_FUNCTION) ? 1 : 0) +
			((flags & CTX_HAS_SRCLOC) ? 2 : 0) +
			((flags & CTX_HAS_POINT) ? 2 : 0);
	if (need > n_flex)
		return CORRUPT(at + 0x14, "Context Tree: {Ctx} flags "
			       "0x%x need %u flex words, nFlexWords is %u",
			       (unsigned)flags, need, (unsigned)n_flex);
	struct model_node node = {
		.ctx_id = ctx_id,
		.function = MODEL_NONE,
		.kind = map_kind(lexical, flags),
		.relation = map_relation(relation),
		.flags = propagation,
	};
	if (flags & CTX_HAS_FUNCTION) {
		st = function_index(r, span_get_u64le(ctx, 0x20 + 8 * w), at + 0x20,
				    &node.function, err);
		if (st != STATUS_OK)
			return st;
		w++;
		if (node.kind == NODE_FUNCTION)
			node.name = model_functions(model_builder_peek(
					    r->b))[node.function].name;
	}
	if (flags & CTX_HAS_SRCLOC) {
		st = path_handle(r, &r->files, SEC_FILES, "Source Files",
				 span_get_u64le(ctx, 0x20 + 8 * w), at + 0x20 + 8 * w,
				 &node.file, err);
		if (st != STATUS_OK)
			return st;
		node.line = span_get_u32le(ctx, 0x20 + 8 * (w + 1));
		w += 2;
	}
	if (flags & CTX_HAS_POINT) {
		st = path_handle(r, &r->modules, SEC_MODULES, "Load Modules",
				 span_get_u64le(ctx, 0x20 + 8 * w), at + 0x20 + 8 * w,
				 &node.module, err);
		if (st != STATUS_OK)
			return st;
		node.offset = span_get_u64le(ctx, 0x20 + 8 * (w + 1));
		w += 2;
	}
	uint32_t idx = model_builder_add_node(r->b, parent, &node);
	if (idx == MODEL_NONE)
		return NOMEM();
	return push_children(r, at, sz_children, p_children, idx, err);
}

static const char *entry_default_name(uint16_t entry_point)
{
	switch (entry_point) {
	case 1:
		return "main thread";
	case 2:
		return "application thread";
	default:
		return "unknown entry";
	}
}

enum status v4_meta_read_tree(struct meta_reader *r, struct error *err)
{
	struct v4_region c = r->sec[SEC_CONTEXT];
	enum status st;
	if (c.span.len == 0)
		return STATUS_OK;
	/* Context Tree header (size checked by check_layout()) */
	uint64_t p_entries = span_get_u64le(c.span, 0x00);
	uint32_t n_entries = span_get_u16le(c.span, 0x08);
	uint32_t sz_entry = span_get_u8(c.span, 0x0a);
	struct span entries;
	if (!v4_region_array(c, p_entries, n_entries, sz_entry, &entries) ||
	    (n_entries && p_entries % 8 != 0))
		return CORRUPT(c.base, "Context Tree: pEntryPoints "
			       "0x%llx [%u x %u] is misaligned or lies "
			       "outside the section",
			       (ull)p_entries, n_entries, sz_entry);
	r->max_ctx = c.span.len / SZ_CTX_HEAD;
	r->n_words = c.span.len / 8 + 2;
	r->visited = calloc((size_t)(r->n_words / 64 + 1), sizeof(uint64_t));
	if (!r->visited)
		return NOMEM();
	if (n_entries &&
	    !mark_visited(r, p_entries, (uint64_t)n_entries * sz_entry))
		return CORRUPT(c.base, "Context Tree: entry point "
			       "array overlaps the section header");
	for (uint32_t i = 0; i < n_entries; i++) {
		uint64_t at = p_entries + (uint64_t)i * sz_entry;
		struct span e;
		(void)span_sub(entries, (uint64_t)i * sz_entry, sz_entry, &e);
		uint64_t sz_children = span_get_u64le(e, 0x00);
		uint64_t p_children = span_get_u64le(e, 0x08);
		uint32_t ctx_id = span_get_u32le(e, 0x10);
		uint16_t entry_point = span_get_u16le(e, 0x14);
		uint64_t p_pretty = span_get_u64le(e, 0x18);
		const char *name = entry_default_name(entry_point);
		size_t len = strlen(name);
		/* "pPrettyName is completely within the Common String
		 * Table section"; fall back to the canonical name */
		if (p_pretty &&
		    !v4_region_cstr(r->sec[SEC_STRINGS], p_pretty, &name, &len))
			return CORRUPT(at + 0x18, "Context Tree: "
				       "{Entry} pPrettyName 0x%llx is not a "
				       "string inside the Common String Table",
				       (ull)p_pretty);
		if (ctx_id == 0)
			return CORRUPT(at + 0x10, "Context Tree: "
				       "{Entry} has ctxId 0 (reserved for the "
				       "global context)");
		struct model_node node = {
			.ctx_id = ctx_id,
			.name = model_builder_intern(r->b, name, len),
			.function = MODEL_NONE,
			.kind = NODE_ENTRY,
			.relation = RELATION_NONE,
		};
		uint32_t idx = model_builder_add_node(r->b, 0, &node);
		if (idx == MODEL_NONE)
			return NOMEM();
		st = push_children(r, at, sz_children, p_children, idx, err);
		if (st != STATUS_OK)
			return st;
		while (r->depth > 0) {
			struct frame *fr = &r->stack[r->depth - 1];
			if (fr->cur == fr->end) {
				r->depth--;
				continue;
			}
			st = read_ctx(r, err);
			if (st != STATUS_OK)
				return st;
		}
	}
	return STATUS_OK;
}
