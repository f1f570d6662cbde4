/* v4_meta: HPCToolkit v4 meta.db -> model builder ("meta.db version 4.0"
 * in FORMATS.md).  Every structure is read through checked spans of the
 * section the spec says it lives in; every count is checked against the
 * bytes that could hold it; the context tree is walked iteratively with an
 * explicit stack and a bitmap of the bytes already decoded, which rejects
 * cycles and shared or overlapping child arrays and bounds the node count
 * by the section size (v4_meta_tree.c).  Must not depend on curses or on
 * the other v4 files. */
#include "config.h"

#include "formats/hpctoolkit_v4/v4_meta.h"
#include "core/array.h"

#include <stdlib.h>
#include <string.h>

#include "formats/hpctoolkit_v4/v4_meta_internal.h"

/* ---- layout check ---------------------------------------------------- */

/* Pre-release HPCToolkit (2022 development versions) wrote meta.db files
 * whose header reads 4.0 but whose Performance Metrics and Context Tree
 * sections use an older layout ({MD} of 24 bytes, {SS} of 16, a Context Tree
 * that starts with {szRoots, pRoots} instead of entry points).  Read as 4.0,
 * their headers declare structure sizes below the 4.0 sizes, which no 4.x
 * writer can produce: expandable structures only ever grow (Reader
 * compatibility).  That is the test, made before anything else is read. */
/* A section shorter than its fixed header. */
static enum status too_small(struct meta_reader *r, struct v4_region s,
			     const char *section, unsigned header,
			     struct error *err)
{
	return CORRUPT(s.base, "%s: section of %llu bytes is too small for "
		       "its 0x%02x-byte header",
		       section, (ull)s.span.len, header);
}

static enum status check_layout(struct meta_reader *r, struct error *err)
{
	static const char hint[] =
		"; this is not the v4.0 layout (a pre-release HPCToolkit "
		"2022 database?), which this reader does not support";
	struct v4_region m = r->sec[SEC_METRICS];
	if (m.span.len > 0) {
		/* Performance Metrics section header, 0x1b bytes */
		if (m.span.len < 0x1b)
			return too_small(r, m, "Performance Metrics", 0x1b,
					 err);
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
			return too_small(r, c, "Context Tree", 0x0b, err);
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
	struct v4_region g;
	/* General Properties section: pTitle, pDescription (0x10 bytes) */
	enum status st = v4_meta_section(r, SEC_GENERAL, 0x10,
					 "General Properties", &g, err);
	if (st != STATUS_OK || g.span.len == 0)
		return st;
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
	struct v4_region s;
	/* Hierarchical Identifier Names section: ppNames, nKinds (0x09) */
	enum status st = v4_meta_section(r, SEC_ID_NAMES, 0x09,
					 "Identifier Names", &s, err);
	if (st != STATUS_OK || s.span.len == 0)
		return st;
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

/* The Performance Metrics section as read_metrics walks it. */
struct pm {
	struct v4_region s;
	uint64_t p_scopes;
	uint32_t n_scopes, sz_scope, sz_psi, sz_ss;
	uint32_t *scope_names; /* per {PS}: its interned name */
};

/* Intern the name of every {PS} of *pScopes (`scopes`). */
static enum status read_scope_names(struct meta_reader *r, struct pm *pm,
				    struct span scopes, struct error *err)
{
	if (pm->n_scopes) {
		pm->scope_names = calloc(pm->n_scopes,
					 sizeof(*pm->scope_names));
		if (!pm->scope_names)
			return NOMEM();
	}
	for (uint32_t k = 0; k < pm->n_scopes; k++) {
		uint64_t p = span_get_u64le(scopes, (uint64_t)k * pm->sz_scope);
		const char *str;
		size_t len;
		/* {PS} pScopeName: inside the section, NUL included */
		if (!v4_region_cstr(pm->s, p, &str, &len))
			return CORRUPT(pm->p_scopes +
					       (uint64_t)k * pm->sz_scope,
				       "Performance Metrics: {PS} %u "
				       "pScopeName 0x%llx is not a string "
				       "inside the section",
				       k, (ull)p);
		pm->scope_names[k] = model_builder_intern(r->b, str, len);
	}
	return STATUS_OK;
}

/* The propMetricId of scope `scope` among a metric's {PSI} (`psis`, at
 * p_psi), or MODEL_NONE. */
static enum status prop_of(struct meta_reader *r, const struct pm *pm,
			   struct span psis, uint64_t p_psi, uint32_t n_psi,
			   uint32_t scope, uint32_t *prop, struct error *err)
{
	*prop = MODEL_NONE;
	for (uint32_t k = 0; k < n_psi; k++) {
		struct span psi;
		(void)span_sub(psis, (uint64_t)k * pm->sz_psi, pm->sz_psi,
			       &psi);
		uint32_t psc;
		if (!scope_index(pm->p_scopes, pm->n_scopes, pm->sz_scope,
				 span_get_u64le(psi, 0), &psc))
			return CORRUPT(p_psi + (uint64_t)k * pm->sz_psi,
				       "Performance "
				       "Metrics: {PSI} pScope is "
				       "not an element of "
				       "*pScopes");
		if (psc == scope) {
			*prop = span_get_u16le(psi, 0x08);
			break;
		}
	}
	return STATUS_OK;
}

/* One {SS} of metric `metric` (at ss_at) as a statistic. */
static enum status read_summary(struct meta_reader *r, const struct pm *pm,
				uint32_t metric, struct span ss, uint64_t ss_at,
				struct span psis, uint64_t p_psi,
				uint32_t n_psi, struct error *err)
{
	uint64_t p_scope = span_get_u64le(ss, 0x00);
	uint64_t p_formula = span_get_u64le(ss, 0x08);
	uint8_t combine = span_get_u8(ss, 0x10);
	uint16_t stat_id = span_get_u16le(ss, 0x12);
	uint32_t scope;
	const char *formula;
	size_t flen;
	/* {SS} pScope is one of *pScopes */
	if (!scope_index(pm->p_scopes, pm->n_scopes, pm->sz_scope, p_scope,
			 &scope))
		return CORRUPT(ss_at, "Performance "
			       "Metrics: {SS} pScope 0x%llx is "
			       "not an element of *pScopes",
			       (ull)p_scope);
	if (!v4_region_cstr(pm->s, p_formula, &formula, &flen))
		return CORRUPT(ss_at + 8, "Performance "
			       "Metrics: {SS} pFormula 0x%llx is "
			       "not a string inside the section",
			       (ull)p_formula);
	/* combine: 0 sum, 1 min, 2 max; unknown values are ignored (Reader
	 * compatibility), and so is the statistic, which this reader cannot
	 * label. */
	if (combine > COMBINE_MAX)
		return STATUS_OK;
	uint32_t prop;
	enum status st = prop_of(r, pm, psis, p_psi, n_psi, scope, &prop, err);
	if (st != STATUS_OK)
		return st;
	struct model_stat stat = {
		.metric = metric,
		.scope = pm->scope_names[scope],
		.formula = model_builder_intern(r->b, formula, flen),
		.combine = combine,
		.stat_id = stat_id,
		.prop_id = prop,
	};
	model_builder_add_stat(r->b, &stat);
	return STATUS_OK;
}

/* {MD} `i` (at md_at) and its summary statistics. */
static enum status read_metric(struct meta_reader *r, const struct pm *pm,
			       uint32_t i, struct span md, uint64_t md_at,
			       struct error *err)
{
	uint64_t p_name = span_get_u64le(md, 0x00);
	uint64_t p_psi = span_get_u64le(md, 0x08);
	uint64_t p_ss = span_get_u64le(md, 0x10);
	uint32_t n_psi = span_get_u16le(md, 0x18);
	uint32_t n_ss = span_get_u16le(md, 0x1a);
	const char *name;
	size_t len;
	struct span psis, sss;
	if (!v4_region_cstr(pm->s, p_name, &name, &len))
		return CORRUPT(md_at, "Performance Metrics: "
			       "{MD} %u pName 0x%llx is not a string "
			       "inside the section",
			       i, (ull)p_name);
	if (!v4_region_array(pm->s, p_psi, n_psi, pm->sz_psi, &psis) ||
	    !v4_region_array(pm->s, p_ss, n_ss, pm->sz_ss, &sss))
		return CORRUPT(md_at, "Performance Metrics: "
			       "{MD} %u pScopeInsts or pSummaries lies "
			       "outside the section",
			       i);
	uint32_t metric = model_builder_intern(r->b, name, len);
	for (uint32_t j = 0; j < n_ss; j++) {
		struct span ss = {0};
		(void)span_sub(sss, (uint64_t)j * pm->sz_ss, pm->sz_ss, &ss);
		enum status st = read_summary(r, pm, metric, ss,
					      p_ss + (uint64_t)j * pm->sz_ss,
					      psis, p_psi, n_psi, err);
		if (st != STATUS_OK)
			return st;
	}
	return STATUS_OK;
}

static enum status read_metrics(struct meta_reader *r, struct error *err)
{
	struct pm pm = {.s = r->sec[SEC_METRICS]};
	struct v4_region s = pm.s;
	enum status st = STATUS_OK;
	if (s.span.len == 0)
		return STATUS_OK;
	/* sizes and the 0x1b-byte header were checked by check_layout() */
	uint64_t p_metrics = span_get_u64le(s.span, 0x00);
	uint32_t n_metrics = span_get_u32le(s.span, 0x08);
	uint32_t sz_metric = span_get_u8(s.span, 0x0c);
	pm.sz_psi = span_get_u8(s.span, 0x0d);
	pm.sz_ss = span_get_u8(s.span, 0x0e);
	pm.p_scopes = span_get_u64le(s.span, 0x10);
	pm.n_scopes = span_get_u16le(s.span, 0x18);
	pm.sz_scope = span_get_u8(s.span, 0x1a);
	struct span metrics, scopes;
	/* "The arrays pointed to by pMetrics, pScopes and pSummaries are
	 * fully contained within the Performance Metrics section." */
	if (!v4_region_array(s, p_metrics, n_metrics, sz_metric, &metrics))
		return CORRUPT(s.base, "Performance Metrics: pMetrics "
			       "0x%llx [%u x %u] lies outside the section",
			       (ull)p_metrics, n_metrics, sz_metric);
	if (!v4_region_array(s, pm.p_scopes, pm.n_scopes, pm.sz_scope,
			     &scopes))
		return CORRUPT(s.base + 0x10, "Performance Metrics: "
			       "pScopes 0x%llx [%u x %u] lies outside the "
			       "section",
			       (ull)pm.p_scopes, pm.n_scopes, pm.sz_scope);
	st = read_scope_names(r, &pm, scopes, err);
	for (uint32_t i = 0; i < n_metrics && st == STATUS_OK; i++) {
		struct span md = {0};
		(void)span_sub(metrics, (uint64_t)i * sz_metric, sz_metric, &md);
		st = read_metric(r, &pm, i, md,
				 p_metrics + (uint64_t)i * sz_metric, err);
	}
	free(pm.scope_names);
	return st;
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
		st = v4_meta_read_table(r, SEC_MODULES, SZ_LMS,
					"Load Modules", &r->modules, err);
	if (st == STATUS_OK)
		st = v4_meta_read_table(r, SEC_FILES, SZ_SFS,
					"Source Files", &r->files, err);
	if (st == STATUS_OK)
		st = v4_meta_read_table(r, SEC_FUNCTIONS, SZ_FS,
					"Functions", &r->functions, err);
	if (st == STATUS_OK)
		st = v4_meta_read_tree(r, err);
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
	FREE_AND_NULL(meta->kind_names);
	meta->n_kinds = 0;
}
