/* v4_cct: cct.db v4.0 ("cct.db version 4.0" in FORMATS.md).  Values are
 * read through blob_read windows when asked for: the {CI} of the context,
 * its {Idx} array (binary search of the metric), then that metric's {Val}
 * run.  Must not depend on curses or on the other v4 files. */
#include "config.h"

#include "formats/hpctoolkit_v4/v4_cct.h"

#include <stdlib.h>
#include <string.h>

#define SZ_CI_MIN 0x20   /* {CI}: one CSVB */
#define SZ_CSVB_VAL 0x0c /* {Val}: u32 profIndex, f64 value */
#define SZ_CSVB_IDX 0x0a /* {Idx}: u16 metricId, u64 startIndex */

struct v4_cct {
	struct v4_file file;
	uint64_t p_ctxs;
	uint32_t n_ctxs;
	uint32_t sz_ctx;
	uint32_t n_profiles;
};

typedef unsigned long long ull; /* for printing u64 values portably */

#define CORRUPT(off, ...)                                                  \
	error_set_at(err, STATUS_CORRUPT, c->file.name, (off), __VA_ARGS__)

enum status v4_cct_open(struct v4_file *f, uint32_t n_profiles,
			struct v4_cct **out, struct error *err)
{
	enum status st = STATUS_OK;
	struct span hdr;
	*out = NULL;
	struct v4_cct *c = calloc(1, sizeof(*c));
	if (!c) {
		v4_file_close(f);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	c->file = *f;
	memset(f, 0, sizeof(*f));
	c->n_profiles = n_profiles;
	struct v4_section sec = c->file.sections[0];
	/* Context Info section header: pCtxs, nCtxs, szCtx (0x0d bytes) */
	if (sec.size < 0x0d) {
		st = CORRUPT(sec.off, "Context Info section too small "
			     "for its 0x0d-byte header");
		goto out;
	}
	st = blob_read(c->file.blob, sec.off, 0x0d, &hdr, err);
	if (st != STATUS_OK)
		goto out;
	c->p_ctxs = span_get_u64le(hdr, 0);
	c->n_ctxs = span_get_u32le(hdr, 8);
	uint8_t sz = 0;
	(void)span_u8(hdr, 0x0c, &sz);
	c->sz_ctx = sz;
	if (c->n_ctxs && c->sz_ctx < SZ_CI_MIN) {
		st = CORRUPT(sec.off + 0x0c, "Context Info: szCtx %u "
			     "is smaller than the v4.0 {CI} size %u",
			     c->sz_ctx, SZ_CI_MIN);
		goto out;
	}
	/* "The array pointed to by pCtxs is fully contained within the
	 * Context Info section"; stride szCtx */
	struct v4_region r = {.span = {.data = NULL, .len = sec.size},
			      .base = sec.off};
	if (c->n_ctxs &&
	    (c->p_ctxs < sec.off ||
	     !span_count_fits(c->n_ctxs, c->sz_ctx, sec.size) ||
	     !span_has(r.span, c->p_ctxs - sec.off,
		       (uint64_t)c->n_ctxs * c->sz_ctx))) {
		st = CORRUPT(sec.off, "Context Info: pCtxs 0x%llx "
			     "[%u x %u] lies outside the section",
			     (ull)c->p_ctxs, c->n_ctxs, c->sz_ctx);
		goto out;
	}
	*out = c;
	c = NULL;
out:
	v4_cct_close(c);
	return st;
}

enum status v4_cct_values(struct v4_cct *c, uint32_t ctx_id,
			  uint32_t metric_id, struct profile_value **out,
			  size_t *n, struct error *err)
{
	struct span w;
	enum status st;
	*out = NULL;
	*n = 0;
	/* "(*pCtxs)[ctxId] is associated with the context with the
	 * matching ctxId"; a context past the array has no values */
	if (ctx_id >= c->n_ctxs)
		return STATUS_OK;
	uint64_t at = c->p_ctxs + (uint64_t)ctx_id * c->sz_ctx;
	st = blob_read(c->file.blob, at, SZ_CI_MIN, &w, err);
	if (st != STATUS_OK)
		return st;
	uint64_t n_values = span_get_u64le(w, 0x00);
	uint64_t p_values = span_get_u64le(w, 0x08);
	uint32_t n_metrics = span_get_u16le(w, 0x10);
	uint64_t p_idx = span_get_u64le(w, 0x18);
	uint64_t fsize = c->file.size;
	if (n_metrics == 0)
		return STATUS_OK;
	/* Context-Major Sparse Value Block: both arrays inside the file */
	if (!span_count_fits(n_values, SZ_CSVB_VAL, fsize) || p_values > fsize ||
	    n_values * SZ_CSVB_VAL > fsize - p_values)
		return CORRUPT(at, "Context-Major Sparse Value Block "
			       "of context %u: pValues 0x%llx "
			       "[%llu x 12] lies outside the file",
			       ctx_id, (ull)p_values, (ull)n_values);
	st = blob_read(c->file.blob, p_idx,
		       (uint64_t)n_metrics * SZ_CSVB_IDX, &w, err);
	if (st != STATUS_OK)
		return st;
	/* "*pMetricIndices [is] sorted by metricId": binary search */
	uint64_t lo = span_lower_bound_le(w, 0, n_metrics, SZ_CSVB_IDX, 2,
					  metric_id);
	if (lo >= n_metrics || span_get_u16le(w, lo * SZ_CSVB_IDX) != metric_id)
		return STATUS_OK;
	uint64_t start = span_get_u64le(w, lo * SZ_CSVB_IDX + 2);
	uint64_t end = lo + 1 < n_metrics
			       ? span_get_u64le(w, (lo + 1) * SZ_CSVB_IDX + 2)
			       : n_values;
	if (start > end || end > n_values)
		return CORRUPT(p_idx + lo * SZ_CSVB_IDX, "Context-Major "
			       "Sparse Value Block of context %u: "
			       "metric %u has startIndex %llu..%llu outside "
			       "nValues %llu",
			       ctx_id, metric_id, (ull)start, (ull)end,
			       (ull)n_values);
	if (start == end)
		return STATUS_OK;
	st = blob_read(c->file.blob, p_values + start * SZ_CSVB_VAL,
		       (end - start) * SZ_CSVB_VAL, &w, err);
	if (st != STATUS_OK)
		return st;
	struct profile_value *vals = malloc((size_t)(end - start) *
					    sizeof(*vals));
	if (!vals)
		return error_set(err, STATUS_NOMEM, c->file.name,
				 "out of memory");
	for (uint64_t i = 0; i < end - start; i++) {
		vals[i].profile = span_get_u32le(w, i * SZ_CSVB_VAL);
		(void)span_f64le(w, i * SZ_CSVB_VAL + 4, &vals[i].value);
		/* profIndex: "Index of a profile listed in the profile.db" */
		if (vals[i].profile >= c->n_profiles) {
			uint32_t bad = vals[i].profile;
			free(vals);
			return CORRUPT(p_values + (start + i) * SZ_CSVB_VAL,
				       "Context-Major Sparse Value Block of "
				       "context %u: profIndex %u is not a "
				       "profile of profile.db (%u)",
				       ctx_id, bad, c->n_profiles);
		}
	}
	*out = vals;
	*n = (size_t)(end - start);
	return STATUS_OK;
}

void v4_cct_close(struct v4_cct *c)
{
	if (!c)
		return;
	v4_file_close(&c->file);
	free(c);
}
