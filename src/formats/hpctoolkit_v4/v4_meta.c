/* v4_meta: HPCToolkit v4 meta.db -> model builder ("meta.db version 4.0"
 * in FORMATS.md).  Every structure is read through checked spans of the
 * section the spec says it lives in; every count is checked against the
 * bytes that could hold it; the context tree is walked iteratively with an
 * explicit stack and a bitmap of the bytes already decoded, which rejects
 * cycles and shared or overlapping child arrays and bounds the node count
 * by the section size.  Must not depend on curses or on the other v4
 * files. */
#include "config.h"

#include "formats/hpctoolkit_v4/v4_meta.h"

#include <stdlib.h>
#include <string.h>

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

/* ---- layout check ---------------------------------------------------- */

/* Pre-release HPCToolkit (2022 development versions) wrote meta.db files
 * whose header reads 4.0 but whose Performance Metrics and Context Tree
 * sections use an older layout ({MD} of 24 bytes, {SS} of 16, a Context Tree
 * that starts with {szRoots, pRoots} instead of entry points).  Read as 4.0,
 * their headers declare structure sizes below the 4.0 sizes, which no 4.x
 * writer can produce: expandable structures only ever grow (Reader
 * compatibility).  That is the test, made before anything else is read. */
static enum status check_layout(struct meta_reader *r, struct error *err)
{
	static const char hint[] =
		"; this is not the v4.0 layout (a pre-release HPCToolkit "
		"2022 database?), which this reader does not support";
	struct v4_region m = r->sec[SEC_METRICS];
	if (m.span.len > 0) {
		/* Performance Metrics section header, 0x1b bytes */
		if (m.span.len < 0x1b)
			return CORRUPT(m.base, "Performance Metrics: "
				       "section of %llu bytes is too small "
				       "for its 0x1b-byte header",
				       (ull)m.span.len);
		uint32_t n_metrics = span_get_u32le(m.span, 0x08);
		uint8_t sz_metric = span_get_u8(m.span, 0x0c);
		uint8_t sz_psi = span_get_u8(m.span, 0x0d);
		uint8_t sz_ss = span_get_u8(m.span, 0x0e);
		uint16_t n_scopes = span_get_u16le(m.span, 0x18);
		uint8_t sz_scope = span_get_u8(m.span, 0x1a);
		const char *what = NULL;
		unsigned got = 0, want = 0, at = 0;
		if (n_metrics && sz_metric < SZ_MD)
			what = "szMetric", got = sz_metric, want = SZ_MD,
			at = 0x0c;
		else if (n_metrics && sz_psi < SZ_PSI)
			what = "szScopeInst", got = sz_psi, want = SZ_PSI,
			at = 0x0d;
		else if (n_metrics && sz_ss < SZ_SS)
			what = "szSummary", got = sz_ss, want = SZ_SS,
			at = 0x0e;
		else if (n_scopes && sz_scope < SZ_PS)
			what = "szScope", got = sz_scope, want = SZ_PS,
			at = 0x1a;
		if (what)
			return error_set_at(err, STATUS_UNSUPPORTED, r->name,
					    m.base + at,
					    "Performance Metrics: "
					    "%s %u is smaller than the v4.0 "
					    "size %u%s",
					    what, got, want, hint);
	}
	struct v4_region c = r->sec[SEC_CONTEXT];
	if (c.span.len > 0) {
		/* Context Tree section header, 0x0b bytes */
		if (c.span.len < 0x0b)
			return CORRUPT(c.base, "Context Tree: section "
				       "of %llu bytes is too small for its "
				       "0x0b-byte header",
				       (ull)c.span.len);
		uint16_t n_entries = span_get_u16le(c.span, 0x08);
		uint8_t sz_entry = span_get_u8(c.span, 0x0a);
		if (n_entries && sz_entry < SZ_ENTRY)
			return error_set_at(err, STATUS_UNSUPPORTED, r->name,
					    c.base + 0x0a,
					    "Context Tree: "
					    "szEntryPoint %u is smaller than "
					    "the v4.0 {Entry} size %u%s",
					    (unsigned)sz_entry, SZ_ENTRY, hint);
	}
	return STATUS_OK;
}

/* ---- General Properties, Identifier Names ---------------------------- */

static enum status read_general(struct meta_reader *r, struct error *err)
{
	struct v4_region g = r->sec[SEC_GENERAL];
	if (g.span.len == 0)
		return STATUS_OK;
	/* General Properties section: pTitle, pDescription (0x10 bytes) */
	if (g.span.len < 0x10)
		return CORRUPT(g.base, "General Properties: section "
			       "too small for its 0x10-byte header");
	const char *title = NULL, *desc = NULL;
	size_t len;
	uint64_t p_title = span_get_u64le(g.span, 0), p_desc = span_get_u64le(g.span, 8);
	/* "The strings ... are fully contained within the General
	 * Properties section, including the terminating NUL byte." */
	if (p_title && !v4_region_cstr(g, p_title, &title, &len))
		return CORRUPT(g.base, "General Properties: pTitle "
			       "0x%llx is not a string inside the section",
			       (ull)p_title);
	if (p_desc && !v4_region_cstr(g, p_desc, &desc, &len))
		return CORRUPT(g.base + 8, "General Properties: "
			       "pDescription 0x%llx is not a string inside "
			       "the section",
			       (ull)p_desc);
	model_builder_set_title(r->b, title, desc);
	return STATUS_OK;
}

static enum status read_id_names(struct meta_reader *r, struct v4_meta *out,
				 struct error *err)
{
	struct v4_region s = r->sec[SEC_ID_NAMES];
	if (s.span.len == 0)
		return STATUS_OK;
	/* Hierarchical Identifier Names section: ppNames, nKinds (0x09) */
	if (s.span.len < 0x09)
		return CORRUPT(s.base, "Identifier Names: section too "
			       "small for its 0x09-byte header");
	uint64_t pp = span_get_u64le(s.span, 0);
	uint8_t n = span_get_u8(s.span, 8);
	struct span names;
	if (!v4_region_array(s, pp, n, 8, &names))
		return CORRUPT(s.base, "Identifier Names: ppNames "
			       "0x%llx [%u] lies outside the section",
			       (ull)pp, (unsigned)n);
	if (n == 0)
		return STATUS_OK;
	out->kind_names = calloc(n, sizeof(*out->kind_names));
	if (!out->kind_names)
		return NOMEM();
	out->n_kinds = n;
	for (uint32_t k = 0; k < n; k++) {
		uint64_t p = span_get_u64le(names, 8 * (uint64_t)k);
		const char *str;
		size_t len;
		/* the names are fully contained within the section */
		if (!v4_region_cstr(s, p, &str, &len))
			return CORRUPT(pp + 8 * (uint64_t)k,
				       "Identifier Names: ppNames[%u] "
				       "0x%llx is not a string inside the "
				       "section",
				       (unsigned)k, (ull)p);
		out->kind_names[k] = model_builder_intern(r->b, str, len);
	}
	return STATUS_OK;
}

/* ---- Performance Metrics --------------------------------------------- */

/* Index of the {PS} at `p`: it must be one of the elements of *pScopes.
 * With no scopes, szScope is unchecked and may be 0: nothing matches. */
static bool scope_index(uint64_t p_scopes, uint32_t n_scopes, uint32_t stride,
			uint64_t p, uint32_t *idx)
{
	if (n_scopes == 0 || stride == 0 || p < p_scopes || (p - p_scopes) % stride != 0 ||
	    (p - p_scopes) / stride >= n_scopes)
		return false;
	*idx = (uint32_t)((p - p_scopes) / stride);
	return true;
}

static enum status read_metrics(struct meta_reader *r, struct error *err)
{
	struct v4_region s = r->sec[SEC_METRICS];
	enum status st = STATUS_OK;
	uint32_t *scope_names = NULL;
	if (s.span.len == 0)
		return STATUS_OK;
	/* sizes and the 0x1b-byte header were checked by check_layout() */
	uint64_t p_metrics = span_get_u64le(s.span, 0x00);
	uint32_t n_metrics = span_get_u32le(s.span, 0x08);
	uint32_t sz_metric = span_get_u8(s.span, 0x0c);
	uint32_t sz_psi = span_get_u8(s.span, 0x0d);
	uint32_t sz_ss = span_get_u8(s.span, 0x0e);
	uint64_t p_scopes = span_get_u64le(s.span, 0x10);
	uint32_t n_scopes = span_get_u16le(s.span, 0x18);
	uint32_t sz_scope = span_get_u8(s.span, 0x1a);
	struct span metrics, scopes;
	/* "The arrays pointed to by pMetrics, pScopes and pSummaries are
	 * fully contained within the Performance Metrics section." */
	if (!v4_region_array(s, p_metrics, n_metrics, sz_metric, &metrics)) {
		st = CORRUPT(s.base, "Performance Metrics: pMetrics "
			     "0x%llx [%u x %u] lies outside the section",
			     (ull)p_metrics, n_metrics, sz_metric);
		goto out;
	}
	if (!v4_region_array(s, p_scopes, n_scopes, sz_scope, &scopes)) {
		st = CORRUPT(s.base + 0x10, "Performance Metrics: "
			     "pScopes 0x%llx [%u x %u] lies outside the "
			     "section",
			     (ull)p_scopes, n_scopes, sz_scope);
		goto out;
	}
	if (n_scopes) {
		scope_names = calloc(n_scopes, sizeof(*scope_names));
		if (!scope_names) {
			st = NOMEM();
			goto out;
		}
	}
	for (uint32_t k = 0; k < n_scopes; k++) {
		uint64_t p = span_get_u64le(scopes, (uint64_t)k * sz_scope);
		const char *str;
		size_t len;
		/* {PS} pScopeName: inside the section, NUL included */
		if (!v4_region_cstr(s, p, &str, &len)) {
			st = CORRUPT(p_scopes + (uint64_t)k * sz_scope,
				     "Performance Metrics: {PS} %u "
				     "pScopeName 0x%llx is not a string "
				     "inside the section",
				     k, (ull)p);
			goto out;
		}
		scope_names[k] = model_builder_intern(r->b, str, len);
	}
	for (uint32_t i = 0; i < n_metrics; i++) {
		uint64_t md_at = p_metrics + (uint64_t)i * sz_metric;
		struct span md;
		(void)span_sub(metrics, (uint64_t)i * sz_metric, sz_metric, &md);
		uint64_t p_name = span_get_u64le(md, 0x00);
		uint64_t p_psi = span_get_u64le(md, 0x08);
		uint64_t p_ss = span_get_u64le(md, 0x10);
		uint32_t n_psi = span_get_u16le(md, 0x18);
		uint32_t n_ss = span_get_u16le(md, 0x1a);
		const char *name;
		size_t len;
		struct span psis, sss;
		if (!v4_region_cstr(s, p_name, &name, &len)) {
			st = CORRUPT(md_at, "Performance Metrics: "
				     "{MD} %u pName 0x%llx is not a string "
				     "inside the section",
				     i, (ull)p_name);
			goto out;
		}
		if (!v4_region_array(s, p_psi, n_psi, sz_psi, &psis) ||
		    !v4_region_array(s, p_ss, n_ss, sz_ss, &sss)) {
			st = CORRUPT(md_at, "Performance Metrics: "
				     "{MD} %u pScopeInsts or pSummaries lies "
				     "outside the section",
				     i);
			goto out;
		}
		uint32_t metric = model_builder_intern(r->b, name, len);
		for (uint32_t j = 0; j < n_ss; j++) {
			uint64_t ss_at = p_ss + (uint64_t)j * sz_ss;
			struct span ss;
			(void)span_sub(sss, (uint64_t)j * sz_ss, sz_ss, &ss);
			uint64_t p_scope = span_get_u64le(ss, 0x00);
			uint64_t p_formula = span_get_u64le(ss, 0x08);
			uint8_t combine = span_get_u8(ss, 0x10);
			uint16_t stat_id = span_get_u16le(ss, 0x12);
			uint32_t scope;
			const char *formula;
			size_t flen;
			/* {SS} pScope is one of *pScopes */
			if (!scope_index(p_scopes, n_scopes, sz_scope, p_scope,
					 &scope)) {
				st = CORRUPT(ss_at, "Performance "
					     "Metrics: {SS} pScope 0x%llx is "
					     "not an element of *pScopes",
					     (ull)p_scope);
				goto out;
			}
			if (!v4_region_cstr(s, p_formula, &formula, &flen)) {
				st = CORRUPT(ss_at + 8, "Performance "
					     "Metrics: {SS} pFormula 0x%llx is "
					     "not a string inside the section",
					     (ull)p_formula);
				goto out;
			}
			/* combine: 0 sum, 1 min, 2 max; unknown values are
			 * ignored (Reader compatibility), and so is the
			 * statistic, which this reader cannot label. */
			if (combine > COMBINE_MAX)
				continue;
			uint32_t prop = MODEL_NONE;
			for (uint32_t k = 0; k < n_psi; k++) {
				struct span psi;
				(void)span_sub(psis, (uint64_t)k * sz_psi,
					       sz_psi, &psi);
				uint32_t psc;
				if (!scope_index(p_scopes, n_scopes, sz_scope,
						 span_get_u64le(psi, 0), &psc)) {
					st = CORRUPT(p_psi +
						     (uint64_t)k * sz_psi,
						     "Performance "
						     "Metrics: {PSI} pScope is "
						     "not an element of "
						     "*pScopes");
					goto out;
				}
				if (psc == scope) {
					prop = span_get_u16le(psi, 0x08);
					break;
				}
			}
			struct model_stat stat = {
				.metric = metric,
				.scope = scope_names[scope],
				.formula = model_builder_intern(r->b, formula,
								flen),
				.combine = combine,
				.stat_id = stat_id,
				.prop_id = prop,
			};
			model_builder_add_stat(r->b, &stat);
		}
	}
out:
	free(scope_names);
	return st;
}

/* ---- Load Modules, Source Files, Functions --------------------------- */

static enum status read_table(struct meta_reader *r, uint32_t sec,
			      uint32_t min_size, const char *what,
			      struct table *t, struct error *err)
{
	struct v4_region s = r->sec[sec];
	if (s.span.len == 0)
		return STATUS_OK;
	/* {Modules,Files,Functions} section header: p, n (u32), sz (u16) */
	if (s.span.len < 0x0e)
		return CORRUPT(s.base, "%s: section too small for "
			       "its 0x0e-byte header",
			       what);
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
	if (r->depth == r->stack_cap) {
		size_t ncap = r->stack_cap ? r->stack_cap * 2 : 64;
		struct frame *ns = realloc(r->stack, ncap * sizeof(*ns));
		if (!ns)
			return NOMEM();
		r->stack = ns;
		r->stack_cap = ncap;
	}
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
			node.name = model_builder_peek(r->b)
					    ->functions[node.function]
					    .name;
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

static enum status read_tree(struct meta_reader *r, struct error *err)
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

enum status v4_meta_read(struct v4_file *f, struct model_builder *b,
			 struct v4_meta *out, struct error *err)
{
	struct meta_reader rd = {.name = f->name, .b = b};
	struct meta_reader *r = &rd;
	enum status st;
	memset(out, 0, sizeof(*out));
	st = v4_file_map(f, &r->all, err);
	if (st != STATUS_OK)
		goto out;
	for (uint32_t i = 0; i < V4_MAX_SECTIONS; i++)
		r->sec[i] = v4_file_region(f, r->all, i);
	st = check_layout(r, err);
	if (st == STATUS_OK)
		st = read_general(r, err);
	if (st == STATUS_OK)
		st = read_id_names(r, out, err);
	if (st == STATUS_OK)
		st = read_metrics(r, err);
	if (st == STATUS_OK)
		st = read_table(r, SEC_MODULES, SZ_LMS, "Load Modules",
				&r->modules, err);
	if (st == STATUS_OK)
		st = read_table(r, SEC_FILES, SZ_SFS, "Source Files",
				&r->files, err);
	if (st == STATUS_OK)
		st = read_table(r, SEC_FUNCTIONS, SZ_FS, "Functions",
				&r->functions, err);
	if (st == STATUS_OK)
		st = read_tree(r, err);
out:
	free(r->modules.handle);
	free(r->files.handle);
	free(r->functions.handle);
	free(r->visited);
	free(r->stack);
	if (st != STATUS_OK)
		v4_meta_free(out);
	return st;
}

void v4_meta_free(struct v4_meta *meta)
{
	if (!meta)
		return;
	free(meta->kind_names);
	meta->kind_names = NULL;
	meta->n_kinds = 0;
}
