/* v4_profile: profile.db v4.0 ("profile.db version 4.0" in FORMATS.md):
 * profile infos, hierarchical identifier tuples and the summary profile's
 * Profile-Major Sparse Value Block.  Those two sections and that block are
 * mapped (blob_map_range: a remote profile.db is not fetched whole); summary
 * lookups are two binary searches through checked spans.  Must not depend on curses or
 * on the other v4 files. */
#include "config.h"

#include "formats/hpctoolkit_v4/v4_profile.h"

#include <stdlib.h>
#include <string.h>

#define SZ_PI_MIN 0x2c  /* through `flags` (the spec table ends at 0x30) */
#define SZ_PSVB_VAL 0x0a /* {Val}: u16 metricId, f64 value */
#define SZ_PSVB_IDX 0x0c /* {Idx}: u32 ctxId, u64 startIndex */
#define SZ_ID 0x10       /* {Id} */
#define PI_IS_SUMMARY 0x1

struct v4_profile {
	struct v4_file file;
	uint32_t n_profiles;
	/* the canonical summary profile's block */
	struct span values;  /* nValues {Val} */
	struct span indices; /* nCtxs {Idx} */
	uint64_t n_values;
	uint32_t n_ctxs;
	uint64_t indices_at; /* file offset of `indices` */
};

typedef unsigned long long ull; /* for printing u64 values portably */

#define CORRUPT(off, ...)                                                  \
	error_set_at(err, STATUS_CORRUPT, p->file.name, (off), __VA_ARGS__)

/* `n` items of `size` bytes at `ptr`, valid until close: *inside false
 * (and nothing read) when they do not lie inside the file.  Only these
 * bytes are read (a remote profile.db is not fetched whole). */
static enum status map_array(struct v4_profile *p, uint64_t ptr, uint64_t n,
			     uint64_t size, struct span *out, bool *inside,
			     struct error *err)
{
	static const uint8_t none[1];
	*out = (struct span){.data = none, .len = 0};
	*inside = n == 0 ||
		  (span_count_fits(n, size, p->file.size) &&
		   ptr <= p->file.size && n * size <= p->file.size - ptr);
	if (!*inside || n == 0)
		return STATUS_OK;
	return blob_map_range(p->file.blob, ptr, n * size, out, err);
}

/* Profile-Major Sparse Value Block of the summary profile: both arrays
 * must lie inside the file ("pValues and pCtxIndices point outside the
 * sections"), so that every later lookup stays in bounds. */
static enum status read_summary_block(struct v4_profile *p, struct span pi,
				      uint64_t at, struct error *err)
{
	bool inside;
	p->n_values = span_get_u64le(pi, 0x00);
	uint64_t p_values = span_get_u64le(pi, 0x08);
	p->n_ctxs = span_get_u32le(pi, 0x10);
	uint64_t p_idx = span_get_u64le(pi, 0x18);
	enum status st = map_array(p, p_values, p->n_values, SZ_PSVB_VAL,
				   &p->values, &inside, err);
	if (st != STATUS_OK)
		return st;
	if (!inside)
		return CORRUPT(at, "summary profile: pValues "
			       "0x%llx [%llu x 10] lies outside the file",
			       (ull)p_values, (ull)p->n_values);
	st = map_array(p, p_idx, p->n_ctxs, SZ_PSVB_IDX, &p->indices, &inside,
		       err);
	if (st != STATUS_OK)
		return st;
	if (!inside)
		return CORRUPT(at + 0x10, "summary profile: "
			       "pCtxIndices 0x%llx [%u x 12] lies outside "
			       "the file",
			       (ull)p_idx, p->n_ctxs);
	p->indices_at = p_idx;
	return STATUS_OK;
}

static enum status add_profile(struct v4_profile *p,
			       const struct v4_meta *meta,
			       struct model_builder *b, struct v4_region tuples,
			       uint64_t at, uint64_t p_tuple, bool summary,
			       struct model_id **ids, uint32_t *ids_cap,
			       struct error *err)
{
	uint32_t n = 0;
	if (p_tuple) {
		struct span hit, arr;
		/* "pIdTuple points within the Identifier Tuple section" */
		if (p_tuple % 8 != 0 || !v4_region_sub(tuples, p_tuple, 8, &hit))
			return CORRUPT(at + 0x20, "{PI} pIdTuple "
				       "0x%llx is not inside the Identifier "
				       "Tuple section",
				       (ull)p_tuple);
		n = span_get_u16le(hit, 0);
		if (!v4_region_array(tuples, p_tuple + 8, n, SZ_ID, &arr))
			return CORRUPT(p_tuple, "identifier tuple "
				       "of %u ids overruns the Identifier "
				       "Tuple section",
				       n);
		if (n > *ids_cap) {
			struct model_id *ni =
				realloc(*ids, (size_t)n * sizeof(**ids));
			if (!ni)
				return error_set(err, STATUS_NOMEM,
						 p->file.name,
						 "out of memory");
			*ids = ni;
			*ids_cap = n;
		}
		for (uint32_t i = 0; i < n; i++) {
			struct span id;
			(void)span_sub(arr, (uint64_t)i * SZ_ID, SZ_ID, &id);
			uint8_t kind = 0;
			(void)span_u8(id, 0, &kind);
			(*ids)[i] = (struct model_id){
				.kind = kind,
				/* names of kinds come from meta.db; an
				 * unknown kind is labelled by number */
				.kind_name = kind < meta->n_kinds
						     ? meta->kind_names[kind]
						     : 0,
				.is_physical = span_get_u16le(id, 2) & 1,
				.logical_id = span_get_u32le(id, 4),
				.physical_id = span_get_u64le(id, 8),
			};
		}
	}
	if (model_builder_add_profile(b, summary, *ids, n, NULL) == MODEL_NONE)
		return error_set(err, STATUS_NOMEM, p->file.name,
				 "out of memory");
	return STATUS_OK;
}

enum status v4_profile_open(struct v4_file *f, const struct v4_meta *meta,
			    struct model_builder *b, struct v4_profile **out,
			    struct error *err)
{
	enum status st = STATUS_OK;
	struct model_id *ids = NULL;
	uint32_t ids_cap = 0;
	struct v4_region infos, tuples;
	*out = NULL;
	struct v4_profile *p = calloc(1, sizeof(*p));
	if (!p) {
		v4_file_close(f);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	p->file = *f;
	memset(f, 0, sizeof(*f));
	/* the two sections and the summary block only: the other profiles'
	 * values are never read */
	st = v4_file_map_region(&p->file, 0, &infos, err);
	if (st == STATUS_OK)
		st = v4_file_map_region(&p->file, 1, &tuples, err);
	if (st != STATUS_OK)
		goto out;
	/* Profile Info section header: pProfiles, nProfiles, szProfile */
	if (infos.span.len < 0x0d) {
		st = CORRUPT(p->file.sections[0].off, "Profile "
			     "Info section too small for its 0x0d-byte "
			     "header");
		goto out;
	}
	uint64_t p_profiles = span_get_u64le(infos.span, 0);
	uint32_t n_profiles = span_get_u32le(infos.span, 8);
	uint8_t sz_profile = 0;
	(void)span_u8(infos.span, 0x0c, &sz_profile);
	struct span arr;
	/* "the first [profile] is always the canonical summary profile" */
	if (n_profiles == 0) {
		st = CORRUPT(infos.base + 8, "Profile Info: no "
			     "profiles (the summary profile is required)");
		goto out;
	}
	if (sz_profile < SZ_PI_MIN) {
		st = CORRUPT(infos.base + 0x0c, "Profile Info: "
			     "szProfile %u is smaller than the v4.0 {PI} "
			     "(at least %u bytes)",
			     (unsigned)sz_profile, SZ_PI_MIN);
		goto out;
	}
	/* "The array pointed to by pProfiles is fully contained within the
	 * Profile Info section"; stride szProfile */
	if (!v4_region_array(infos, p_profiles, n_profiles, sz_profile,
			     &arr)) {
		st = CORRUPT(infos.base, "Profile Info: pProfiles "
			     "0x%llx [%u x %u] lies outside the section",
			     (ull)p_profiles, n_profiles,
			     (unsigned)sz_profile);
		goto out;
	}
	p->n_profiles = n_profiles;
	for (uint32_t i = 0; i < n_profiles; i++) {
		uint64_t at = p_profiles + (uint64_t)i * sz_profile;
		struct span pi;
		(void)span_sub(arr, (uint64_t)i * sz_profile, sz_profile, &pi);
		bool summary = span_get_u32le(pi, 0x28) & PI_IS_SUMMARY;
		uint64_t p_tuple = span_get_u64le(pi, 0x20);
		if (i == 0) {
			if (!summary || p_tuple != 0) {
				st = CORRUPT(at, "Profile Info: "
					     "profile 0 is not the canonical "
					     "summary profile (isSummary 1, "
					     "pIdTuple 0)");
				goto out;
			}
			st = read_summary_block(p, pi, at, err);
			if (st != STATUS_OK)
				goto out;
		}
		st = add_profile(p, meta, b, tuples, at, p_tuple, summary,
				 &ids, &ids_cap, err);
		if (st != STATUS_OK)
			goto out;
	}
	*out = p;
	p = NULL;
out:
	free(ids);
	v4_profile_close(p);
	return st;
}

uint32_t v4_profile_count(const struct v4_profile *p)
{
	return p->n_profiles;
}

/* The value of `stat_id` in the {Val} run [start, end) of one context,
 * sorted by metricId: binary search.  False when absent or when the run is
 * inconsistent. */
static bool run_find(const struct v4_profile *p, uint64_t start, uint64_t end,
		     uint32_t stat_id, double *out)
{
	if (start > end || end > p->n_values)
		return false;
	uint64_t lo = span_lower_bound_le(p->values, start, end, SZ_PSVB_VAL,
					  2, stat_id);
	uint16_t metric;
	if (lo >= end || !span_u16le(p->values, lo * SZ_PSVB_VAL, &metric) ||
	    metric != stat_id)
		return false;
	return span_f64le(p->values, lo * SZ_PSVB_VAL + 2, out);
}

bool v4_profile_summary(const struct v4_profile *p, uint32_t ctx_id,
			uint32_t stat_id, double *out)
{
	/* {Idx} sorted by ctxId: binary search */
	uint64_t lo = span_lower_bound_le(p->indices, 0, p->n_ctxs,
					  SZ_PSVB_IDX, 4, ctx_id);
	uint32_t found;
	if (lo >= p->n_ctxs ||
	    !span_u32le(p->indices, lo * SZ_PSVB_IDX, &found) ||
	    found != ctx_id)
		return false;
	/* its {Val} run: [startIndex, next startIndex or nValues) */
	uint64_t start = span_get_u64le(p->indices, lo * SZ_PSVB_IDX + 4);
	uint64_t end = lo + 1 < p->n_ctxs
			       ? span_get_u64le(p->indices, (lo + 1) * SZ_PSVB_IDX + 4)
			       : p->n_values;
	return run_find(p, start, end, stat_id, out);
}

enum status v4_profile_summary_all(const struct v4_profile *p,
				   uint32_t stat_id,
				   void (*emit)(void *ctx, uint32_t ctx_id,
						double value),
				   void *ctx, struct error *err)
{
	/* metricId is a u16: a larger id is never found */
	if (stat_id > UINT16_MAX || p->n_ctxs == 0)
		return STATUS_OK;
	uint32_t prev = 0;
	uint64_t next_start = span_get_u64le(p->indices, 4);
	/* what the walk has read so far and not yet given back: a pass over
	 * millions of contexts must not leave the whole block resident */
	uint64_t idx_kept = 0, val_kept = 0;
	for (uint64_t i = 0; i < p->n_ctxs; i++) {
		if ((i & 0xffff) == 0xffff) {
			struct span done;
			if (span_sub(p->indices, idx_kept * SZ_PSVB_IDX,
				     (i - idx_kept) * SZ_PSVB_IDX, &done))
				blob_release(p->file.blob, done);
			idx_kept = i;
			if (next_start > val_kept && next_start <= p->n_values &&
			    span_sub(p->values, val_kept * SZ_PSVB_VAL,
				     (next_start - val_kept) * SZ_PSVB_VAL,
				     &done)) {
				blob_release(p->file.blob, done);
				val_kept = next_start;
			}
		}
		uint32_t ctx_id = span_get_u32le(p->indices, i * SZ_PSVB_IDX);
		uint64_t start = next_start;
		next_start = i + 1 < p->n_ctxs
				     ? span_get_u64le(p->indices,
					    (i + 1) * SZ_PSVB_IDX + 4)
				     : p->n_values;
		/* "*pCtxIndices [is] sorted by ctxId": only then does the
		 * binary search of v4_profile_summary find what this walk
		 * finds (the first {Idx} of a repeated ctxId) */
		if (i > 0 && ctx_id < prev)
			return error_set_at(err, STATUS_UNSUPPORTED,
					    p->file.name,
					    p->indices_at + i * SZ_PSVB_IDX,
					    "summary profile: ctxId %u after "
					    "%u: the context indices are not "
					    "sorted",
					    ctx_id, prev);
		if (i > 0 && ctx_id == prev)
			continue;
		prev = ctx_id;
		double v;
		if (run_find(p, start, next_start, stat_id, &v))
			emit(ctx, ctx_id, v);
	}
	return STATUS_OK;
}

void v4_profile_close(struct v4_profile *p)
{
	if (!p)
		return;
	v4_file_close(&p->file);
	free(p);
}
