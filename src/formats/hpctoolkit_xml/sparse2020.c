/* sparse2020: profile.db, cct.db and trace.db of the 2020 HPCToolkit
 * sparse layout (shared/specs/hpctoolkit-2020-sparse-FORMATS.md; the files
 * say version 1.0 where the text says 4.0).  All big-endian.  At open: the
 * three headers, the Profile Info and Identifier Tuple sections, every
 * profile's Sparse Value Block extent and the Trace Headers, checked.
 * Values are read lazily: a binary search over a profile's (context id,
 * index) pairs, then a scan of that context's (value, metric id) pairs, all
 * through small blob_read windows.  cct.db is checked but not read for
 * values (see doc/hpctoolkit-legacy-binaries.md).  Must not depend on
 * curses, on the XML parser or on the model builder. */
#include "config.h"

#include "formats/hpctoolkit_xml/sparse2020.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/path.h"
#include "io/blob.h"
#include "formats/hpctoolkit_xml/legacy_common.h"
#include "core/span.h"

#define PROF_MAGIC "HPCPROF-profdb__"
#define CCT_MAGIC "HPCPROF-cctdb___"
#define TRACE_MAGIC "HPCPROF-tracedb_"
#define MAGIC_LEN 16
#define VERSION_MAJOR 1
#define PROF_HEADER 56  /* through the Identifier Tuple section offset */
#define CCT_HEADER 40   /* through the Context Info section offset */
#define TRACE_HEADER 40 /* through the Trace Header section offset */
#define PROF_INFO 52
#define ID_ELEM 18    /* u16 kind, u64 physical, u64 logical */
#define VAL_PAIR 10   /* f64 value, u16 metric id */
#define CTX_PAIR 12   /* u32 context id, u64 index */
#define TRACE_HDR 22  /* u32 prof_info_idx, u16 type, u64 ptr, u64 end */
#define SAMPLE 12     /* u64 time (ns), u32 context id */
#define KIND_RANK 2
#define KIND_THREAD 3
#define KIND_MASK 0x3fff  /* the upper two bits say how to interpret */
#define INTERP_SHIFT 14   /* 0: both values valid, else logical only */

typedef unsigned long long ull;

struct sp_profile {
	uint32_t first_id, n_ids;
	uint64_t n_vals;  /* (value, metric id) pairs */
	uint32_t n_ctxs;  /* (context id, index) pairs, end marker excluded */
	uint64_t block;   /* absolute offset of the Sparse Value Block */
};

struct sp_line {
	uint32_t profile;
	uint64_t data;
	struct legacy_trace_line line;
};

struct sparse2020 {
	struct blob *prof, *cct, *trace;
	struct sp_profile *profiles;
	uint32_t n_profiles;
	struct model_id *ids;
	uint32_t n_ids;
	struct sp_line *lines;
	uint32_t n_lines;
	struct legacy_failure failure;
};

/* Magic and major version 1 of a file whose header is `need` bytes. */
static enum status check_magic(struct blob *b, const char *magic,
			       uint64_t need, struct span *head,
			       struct error *err)
{
	const char *name = blob_name(b);
	if (blob_size(b) < need)
		return error_set_at(err, STATUS_CORRUPT, name, 0,
				    "file of %llu bytes is shorter than its "
				    "%llu-byte header",
				    (ull)blob_size(b), (ull)need);
	enum status st = blob_map_all(b, head, err);
	if (st != STATUS_OK)
		return st;
	if (memcmp(head->data, magic, MAGIC_LEN) != 0)
		return error_set_at(err, STATUS_NOT_DATABASE, name, 0,
				    "bad magic (expected \"%s\")", magic);
	if (head->data[16] != VERSION_MAJOR)
		return error_set_at(err, STATUS_UNSUPPORTED, name, 16,
				    "version %u.%u (only 1.x is known)",
				    head->data[16], head->data[17]);
	return STATUS_OK;
}

/* A section [ptr, ptr+size) inside the file. */
static bool section_ok(struct span f, uint64_t ptr, uint64_t size)
{
	return span_has(f, ptr, size);
}

static enum status open_profiles(struct sparse2020 *s, struct error *err)
{
	struct span f;
	const char *name = blob_name(s->prof);
	enum status st = check_magic(s->prof, PROF_MAGIC, PROF_HEADER, &f, err);
	if (st != STATUS_OK)
		return st;
	uint32_t n = 0;
	uint16_t n_sec = 0;
	uint64_t pi_size = 0, pi_ptr = 0, idt_size = 0, idt_ptr = 0;
	(void)span_u32be(f, 18, &n);
	(void)span_u16be(f, 22, &n_sec);
	(void)span_u64be(f, 24, &pi_size);
	(void)span_u64be(f, 32, &pi_ptr);
	(void)span_u64be(f, 40, &idt_size);
	(void)span_u64be(f, 48, &idt_ptr);
	if (n_sec < 2)
		return error_set_at(err, STATUS_CORRUPT, name, 22,
				    "%u sections (Profile Info and Identifier "
				    "Tuple expected)",
				    (unsigned)n_sec);
	if (!section_ok(f, pi_ptr, pi_size))
		return error_set_at(err, STATUS_CORRUPT, name, 24,
				    "Profile Info section [0x%llx +%llu] lies "
				    "outside the file",
				    (ull)pi_ptr, (ull)pi_size);
	if (!section_ok(f, idt_ptr, idt_size))
		return error_set_at(err, STATUS_CORRUPT, name, 40,
				    "Identifier Tuple section [0x%llx +%llu] "
				    "lies outside the file",
				    (ull)idt_ptr, (ull)idt_size);
	if (!span_count_fits(n, PROF_INFO, pi_size))
		return error_set_at(err, STATUS_CORRUPT, name, 18,
				    "%u profiles do not fit in the %llu-byte "
				    "Profile Info section",
				    (unsigned)n, (ull)pi_size);
	if (n == 0)
		return STATUS_OK;
	s->profiles = calloc(n, sizeof(*s->profiles));
	/* each tuple takes at least 2 + 18 * len bytes of the section */
	uint64_t max_ids = idt_size / ID_ELEM;
	s->ids = calloc(max_ids ? max_ids : 1, sizeof(*s->ids));
	if (!s->profiles || !s->ids)
		return error_set(err, STATUS_NOMEM, name, "out of memory");
	struct span idt;
	(void)span_sub(f, idt_ptr, idt_size, &idt);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t at = pi_ptr + (uint64_t)i * PROF_INFO;
		struct sp_profile *p = &s->profiles[i];
		uint64_t tup = 0;
		(void)span_u64be(f, at, &tup);
		(void)span_u64be(f, at + 32, &p->n_vals);
		(void)span_u32be(f, at + 40, &p->n_ctxs);
		(void)span_u64be(f, at + 44, &p->block);
		/* Identifier Tuple pointer: into the Identifier Tuple
		 * section */
		uint16_t len = 0;
		if (tup < idt_ptr || !span_u16be(idt, tup - idt_ptr, &len) ||
		    !span_has(idt, tup - idt_ptr + 2,
			      (uint64_t)len * ID_ELEM)) {
			return error_set_at(err, STATUS_CORRUPT, name, at,
					    "profile %u: identifier tuple at "
					    "0x%llx lies outside its section",
					    (unsigned)i, (ull)tup);
		}
		if (s->n_ids + (uint64_t)len > max_ids)
			return error_set_at(err, STATUS_CORRUPT, name, at,
					    "profile %u: identifier tuples "
					    "hold more elements than their "
					    "section",
					    (unsigned)i);
		p->first_id = s->n_ids;
		p->n_ids = len;
		for (uint16_t k = 0; k < len; k++) {
			uint64_t e = tup - idt_ptr + 2 + (uint64_t)k * ID_ELEM;
			uint16_t kind = 0;
			uint64_t phys = 0, logical = 0;
			(void)span_u16be(idt, e, &kind);
			(void)span_u64be(idt, e + 2, &phys);
			(void)span_u64be(idt, e + 10, &logical);
			uint16_t k14 = kind & KIND_MASK;
			s->ids[s->n_ids++] = (struct model_id){
				.kind = k14 > UINT8_MAX ? UINT8_MAX
							: (uint8_t)k14,
				.is_physical = (kind >> INTERP_SHIFT) == 0,
				.logical_id = logical > UINT32_MAX
						      ? UINT32_MAX
						      : (uint32_t)logical,
				.physical_id = phys,
			};
		}
		/* Profile Sparse Value Block: num_vals * 10 +
		 * (num_nzctxs + 1) * 12 bytes at prof_off */
		if (!span_count_fits(p->n_vals, VAL_PAIR, f.len) ||
		    !span_has(f, p->block, p->n_vals * VAL_PAIR) ||
		    !span_has(f, p->block + p->n_vals * VAL_PAIR,
			      ((uint64_t)p->n_ctxs + 1) * CTX_PAIR)) {
			return error_set_at(err, STATUS_CORRUPT, name, at + 32,
					    "profile %u: %llu values and %u "
					    "contexts at 0x%llx do not fit in "
					    "the file",
					    (unsigned)i, (ull)p->n_vals,
					    (unsigned)p->n_ctxs,
					    (ull)p->block);
		}
		s->n_profiles++;
	}
	return STATUS_OK;
}

static enum status open_cct(struct sparse2020 *s, struct error *err)
{
	struct span f;
	const char *name = blob_name(s->cct);
	enum status st = check_magic(s->cct, CCT_MAGIC, CCT_HEADER, &f, err);
	if (st != STATUS_OK)
		return st;
	uint32_t n = 0;
	uint64_t ci_size = 0, ci_ptr = 0;
	(void)span_u32be(f, 18, &n);
	(void)span_u64be(f, 24, &ci_size);
	(void)span_u64be(f, 32, &ci_ptr);
	if (!section_ok(f, ci_ptr, ci_size) ||
	    !span_count_fits(n, 22, ci_size))
		return error_set_at(err, STATUS_CORRUPT, name, 24,
				    "Context Info section [0x%llx +%llu] does "
				    "not hold %u contexts inside the file",
				    (ull)ci_ptr, (ull)ci_size, (unsigned)n);
	return STATUS_OK;
}

/* The rank and thread of a profile from its tuple. */
static void tuple_rank_thread(const struct sparse2020 *s, uint32_t p,
			      uint32_t *rank, uint32_t *thread)
{
	*rank = *thread = UINT32_MAX;
	const struct sp_profile *pr = &s->profiles[p];
	for (uint32_t k = 0; k < pr->n_ids; k++) {
		const struct model_id *id = &s->ids[pr->first_id + k];
		if (id->kind == KIND_RANK)
			*rank = id->logical_id;
		else if (id->kind == KIND_THREAD)
			*thread = id->logical_id;
	}
}

static enum status open_trace(struct sparse2020 *s, struct error *err)
{
	struct span f;
	const char *name = blob_name(s->trace);
	enum status st =
		check_magic(s->trace, TRACE_MAGIC, TRACE_HEADER, &f, err);
	if (st != STATUS_OK)
		return st;
	uint32_t n = 0;
	uint64_t hdr_size = 0, hdr_ptr = 0;
	(void)span_u32be(f, 18, &n);
	(void)span_u64be(f, 24, &hdr_size);
	(void)span_u64be(f, 32, &hdr_ptr);
	if (!section_ok(f, hdr_ptr, hdr_size) ||
	    !span_count_fits(n, TRACE_HDR, hdr_size))
		return error_set_at(err, STATUS_CORRUPT, name, 24,
				    "Trace Header section [0x%llx +%llu] does "
				    "not hold %u trace headers inside the "
				    "file",
				    (ull)hdr_ptr, (ull)hdr_size, (unsigned)n);
	if (n == 0)
		return STATUS_OK;
	s->lines = calloc(n, sizeof(*s->lines));
	if (!s->lines)
		return error_set(err, STATUS_NOMEM, name, "out of memory");
	for (uint32_t i = 0; i < n; i++) {
		uint64_t at = hdr_ptr + (uint64_t)i * TRACE_HDR;
		struct sp_line *l = &s->lines[i];
		uint64_t end = 0;
		(void)span_u32be(f, at, &l->profile);
		(void)span_u64be(f, at + 6, &l->data);
		(void)span_u64be(f, at + 14, &end);
		if (l->profile >= s->n_profiles)
			return error_set_at(err, STATUS_CORRUPT, name, at,
					    "trace %u: profile %u of %u",
					    (unsigned)i, (unsigned)l->profile,
					    (unsigned)s->n_profiles);
		/* an empty line may point anywhere (the corpus sample's
		 * points past the end of the file) */
		if (end < l->data ||
		    (end > l->data && !section_ok(f, l->data, end - l->data)))
			return error_set_at(err, STATUS_CORRUPT, name, at + 6,
					    "trace %u: line [0x%llx, 0x%llx) "
					    "lies outside the file",
					    (unsigned)i, (ull)l->data,
					    (ull)end);
		/* a partial sample at the end is ignored */
		l->line.n_samples = (end - l->data) / SAMPLE;
		tuple_rank_thread(s, l->profile, &l->line.rank,
				  &l->line.thread);
		if (l->line.n_samples) {
			uint64_t last = l->data + (l->line.n_samples - 1) *
							  SAMPLE;
			(void)span_u64be(f, l->data, &l->line.t_min);
			(void)span_u64be(f, last, &l->line.t_max);
			if (l->line.t_max < l->line.t_min)
				return error_set_at(
					err, STATUS_CORRUPT, name, last,
					"trace %u: last sample time %llu is "
					"before the first, %llu",
					(unsigned)i, (ull)l->line.t_max,
					(ull)l->line.t_min);
		}
		s->n_lines++;
	}
	return STATUS_OK;
}

enum status sparse2020_open_blobs(struct blob *prof, struct blob *cct,
				  struct blob *trace, struct sparse2020 **out,
				  struct error *err)
{
	enum status st = STATUS_OK;
	struct sparse2020 *s = NULL;
	*out = NULL;
	if (!prof || !cct) {
		st = error_set(err, STATUS_USAGE, NULL,
			       "profile.db and cct.db are both needed");
		goto out;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		st = error_set(err, STATUS_NOMEM, blob_name(prof),
			       "out of memory");
		goto out;
	}
	s->prof = prof;
	s->cct = cct;
	s->trace = trace;
	prof = cct = trace = NULL;
	st = open_profiles(s, err);
	if (st != STATUS_OK)
		goto out;
	st = open_cct(s, err);
	if (st != STATUS_OK)
		goto out;
	if (s->trace) {
		st = open_trace(s, err);
		if (st != STATUS_OK)
			goto out;
	}
	*out = s;
	s = NULL;
out:
	blob_close(prof);
	blob_close(cct);
	blob_close(trace);
	sparse2020_close(s);
	return st;
}

/* Open DIR/NAME; a missing file is *out NULL and STATUS_OK when
 * `optional`. */
static enum status open_in(const char *dir, const char *name, bool optional,
			   struct blob **out, struct error *err)
{
	*out = NULL;
	char *path = path_join(dir, name);
	if (!path)
		return error_set(err, STATUS_NOMEM, dir, "out of memory");
	struct error e = {0};
	enum status st = blob_open_file(path, out, &e);
	free(path);
	if (st == STATUS_NOT_FOUND && optional) {
		error_clear(&e);
		return STATUS_OK;
	}
	if (st != STATUS_OK) {
		if (err) {
			error_clear(err);
			*err = e;
		} else {
			error_clear(&e);
		}
	}
	return st;
}

enum status sparse2020_open(const char *dir, struct sparse2020 **out,
			    struct error *err)
{
	struct blob *prof = NULL, *cct = NULL, *trace = NULL;
	enum status st;
	*out = NULL;
	if (!dir)
		return error_set(err, STATUS_USAGE, NULL, "no directory given");
	st = open_in(dir, "profile.db", false, &prof, err);
	if (st == STATUS_OK)
		st = open_in(dir, "cct.db", false, &cct, err);
	if (st == STATUS_OK)
		st = open_in(dir, "trace.db", true, &trace, err);
	if (st != STATUS_OK) {
		blob_close(prof);
		blob_close(cct);
		return st;
	}
	return sparse2020_open_blobs(prof, cct, trace, out, err);
}

uint32_t sparse2020_n_profiles(const struct sparse2020 *s)
{
	return s ? s->n_profiles : 0;
}

void sparse2020_profile_ids(const struct sparse2020 *s, uint32_t p,
			    const struct model_id **ids, uint32_t *n,
			    bool *is_summary)
{
	*ids = NULL;
	*n = 0;
	*is_summary = false;
	if (!s || p >= s->n_profiles)
		return;
	*ids = s->profiles[p].n_ids ? &s->ids[s->profiles[p].first_id] : NULL;
	*n = s->profiles[p].n_ids;
	/* "index 0 is always a summary profile" */
	*is_summary = p == 0;
}

/* Value of (ctx, metric) in profile p: 1 found, 0 absent, -1 error (kept
 * on `s`). */
static int lookup(struct sparse2020 *s, uint32_t p, uint32_t ctx,
		  uint32_t metric, double *out)
{
	const struct sp_profile *pr = &s->profiles[p];
	struct blob *b = s->prof;
	struct error e = {0};
	struct span w;
	uint64_t pairs = pr->block + pr->n_vals * VAL_PAIR;
	/* binary search the (context id, index) pairs, sorted by id */
	uint32_t lo = 0, hi = pr->n_ctxs;
	uint64_t idx = 0, next = 0;
	bool found = false;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (blob_read(b, pairs + (uint64_t)mid * CTX_PAIR,
			      2 * CTX_PAIR, &w, &e) != STATUS_OK)
			goto fail;
		uint32_t id = 0;
		(void)span_u32be(w, 0, &id);
		if (id == ctx) {
			(void)span_u64be(w, 4, &idx);
			(void)span_u64be(w, CTX_PAIR + 4, &next);
			found = true;
			break;
		}
		if (id < ctx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!found)
		return 0;
	if (idx > next || next > pr->n_vals) {
		error_set_at(&e, STATUS_CORRUPT, blob_name(b), pairs,
			     "profile %u, context %u: value range [%llu, "
			     "%llu) is outside the %llu values",
			     (unsigned)p, (unsigned)ctx, (ull)idx, (ull)next,
			     (ull)pr->n_vals);
		goto fail;
	}
	if (next == idx)
		return 0;
	if (blob_read(b, pr->block + idx * VAL_PAIR, (next - idx) * VAL_PAIR,
		      &w, &e) != STATUS_OK)
		goto fail;
	for (uint64_t k = 0; k < next - idx; k++) {
		uint16_t mid = 0;
		(void)span_u16be(w, k * VAL_PAIR + 8, &mid);
		if (mid == metric) {
			double v = 0;
			(void)span_f64be(w, k * VAL_PAIR, &v);
			if (v == 0)
				return 0;
			*out = v;
			return 1;
		}
	}
	return 0;
fail:
	legacy_failure_keep(&s->failure, &e);
	return -1;
}

bool sparse2020_summary_value(struct sparse2020 *s, uint32_t ctx_id,
			      uint32_t metric_id, double *out)
{
	if (!s || s->n_profiles == 0 || metric_id > UINT16_MAX)
		return false;
	return lookup(s, 0, ctx_id, metric_id, out) == 1;
}

enum status sparse2020_profile_values(struct sparse2020 *s, uint32_t ctx_id,
				      uint32_t metric_id,
				      struct profile_value **out, size_t *n,
				      struct error *err)
{
	*out = NULL;
	*n = 0;
	if (!s)
		return error_set(err, STATUS_USAGE, NULL, "no database");
	if (s->n_profiles < 2 || metric_id > UINT16_MAX)
		return STATUS_OK;
	struct profile_value *v = NULL;
	size_t count = 0;
	for (uint32_t p = 1; p < s->n_profiles; p++) {
		double x = 0;
		int r = lookup(s, p, ctx_id, metric_id, &x);
		if (r < 0) {
			free(v);
			const struct error *e = &s->failure.error;
			return error_set(err, e->status, e->file, "%s",
					 e->message ? e->message
						    : "read error");
		}
		if (r == 0)
			continue;
		if (!v) {
			v = calloc(s->n_profiles - 1, sizeof(*v));
			if (!v)
				return error_set(err, STATUS_NOMEM,
						 blob_name(s->prof),
						 "out of memory");
		}
		v[count++] = (struct profile_value){.profile = p, .value = x};
	}
	*out = v;
	*n = count;
	return STATUS_OK;
}

uint32_t sparse2020_n_trace_lines(const struct sparse2020 *s)
{
	return s ? s->n_lines : 0;
}

const struct legacy_trace_line *sparse2020_trace_line(const struct sparse2020 *s,
						      uint32_t line)
{
	if (!s || line >= s->n_lines)
		return NULL;
	return &s->lines[line].line;
}

uint32_t sparse2020_trace_line_profile(const struct sparse2020 *s,
				       uint32_t line)
{
	if (!s || line >= s->n_lines)
		return UINT32_MAX;
	return s->lines[line].profile;
}

bool sparse2020_trace_sample(struct sparse2020 *s, uint32_t line,
			     uint64_t index, struct trace_sample *out)
{
	if (!s || line >= s->n_lines || index >= s->lines[line].line.n_samples)
		return false;
	struct span w;
	struct error e = {0};
	if (blob_read(s->trace, s->lines[line].data + index * SAMPLE, SAMPLE,
		      &w, &e) != STATUS_OK) {
		legacy_failure_keep(&s->failure, &e);
		return false;
	}
	(void)span_u64be(w, 0, &out->time);
	(void)span_u32be(w, 8, &out->ctx_id);
	return true;
}

const struct error *sparse2020_error(const struct sparse2020 *s)
{
	return s ? legacy_failure_get(&s->failure) : NULL;
}

void sparse2020_close(struct sparse2020 *s)
{
	if (!s)
		return;
	blob_close(s->prof);
	blob_close(s->cct);
	blob_close(s->trace);
	free(s->profiles);
	free(s->ids);
	free(s->lines);
	error_clear(&s->failure.error);
	free(s);
}
