/* legacy_trace: trace lines of pre-v4 HPCToolkit databases.  An hpctrace
 * file is a header (magic "HPCRUN-trace______", version "01.00" or "01.01",
 * endianness 'b'; 01.01 adds a u64 flags word) and big-endian records
 * {u64 time, u32 context id} (01.01 with flag bit 0, "data-centric", adds a
 * u32 metric id).  experiment.mt is a table (legacy_common) followed by one
 * such file per line.  At open the headers and extents are checked and the
 * first and last records read; other samples are read one at a time with
 * blob_read.  See doc/hpctoolkit-legacy-binaries.md.  Must not depend on
 * curses, on the XML parser or on the model builder. */
#include "config.h"

#include "formats/hpctoolkit_xml/legacy_trace.h"

#include <stdlib.h>
#include <string.h>

#include "io/blob.h"
#include "formats/hpctoolkit_xml/legacy_common.h"
#include "core/span.h"

#define HEADER_V100 LEGACY_HEAD_LEN /* magic, version, endianness */
#define HEADER_V101 32 /* the same and u64 flags */
#define FLAG_DATA_CENTRIC 1ull
#define RECORD 12             /* u64 time, u32 context id */
#define RECORD_DATA_CENTRIC 16 /* the same and u32 metric id */

typedef unsigned long long ull;

static const struct legacy_kind hpctrace = {
	.what = "hpctrace",
	.merged = "mt",
	.magic = "HPCRUN-trace______",
	.versions = {"01.00", "01.01"},
	.header = HEADER_V100,
};

struct lt_source {
	uint64_t data;    /* absolute offset of record 0 */
	uint32_t record;  /* bytes per record */
	bool v101;        /* version 01.01 (default unit ns) */
	uint64_t first, last; /* raw times of the first and last record */
};

struct legacy_trace {
	struct legacy_files files; /* line i is part i */
	struct lt_source *src;
	struct legacy_trace_line *lines;
	uint32_t n_lines;
	uint64_t unit_override; /* ns per stored unit; 0 = by version */
	struct legacy_failure failure;
};

/* The blob of line i. */
static struct blob *line_blob(const struct legacy_trace *t, uint32_t i)
{
	return t->files.blobs[t->files.parts[i].blob];
}

static uint64_t ns_per_unit(const struct legacy_trace *t,
			    const struct lt_source *s)
{
	if (t->unit_override)
		return t->unit_override;
	return s->v101 ? 1 : 1000;
}

/* raw * mult, or false on overflow */
static bool to_ns(uint64_t raw, uint64_t mult, uint64_t *out)
{
	if (mult && raw > UINT64_MAX / mult)
		return false;
	*out = raw * mult;
	return true;
}

/* Fill t_min/t_max of line i from the raw times and the current unit. */
static bool line_times(struct legacy_trace *t, uint32_t i)
{
	const struct lt_source *s = &t->src[i];
	struct legacy_trace_line *l = &t->lines[i];
	uint64_t mult = ns_per_unit(t, s);
	if (l->n_samples == 0) {
		l->t_min = l->t_max = 0;
		return true;
	}
	return to_ns(s->first, mult, &l->t_min) &&
	       to_ns(s->last, mult, &l->t_max);
}

/* Check the hpctrace header of part `i` and fill line `i`. */
static enum status check_line(struct legacy_trace *t, uint32_t i,
			      struct error *err)
{
	const struct legacy_part *part = &t->files.parts[i];
	struct blob *blob = line_blob(t, i);
	const char *name = blob_name(blob);
	uint64_t off = part->off, end = part->end;
	struct lt_source *src = &t->src[i];
	struct legacy_trace_line *l = &t->lines[i];
	struct span s;
	uint32_t version = 0;
	enum status st = legacy_files_check_head(&t->files, i, &s, &version,
						 err);
	if (st != STATUS_OK)
		return st;
	src->v101 = version == 1;
	src->record = RECORD;
	if (src->v101) {
		if (end - off < HEADER_V101)
			return error_set_at(err, STATUS_CORRUPT, name,
					    off + HEADER_V100,
					    "hpctrace 01.01 of %llu bytes is "
					    "shorter than its %d-byte header",
					    (ull)(end - off), HEADER_V101);
		st = blob_read(blob, off + HEADER_V100, 8, &s, err);
		if (st != STATUS_OK)
			return st;
		uint64_t flags = 0;
		(void)span_u64be(s, 0, &flags);
		if (flags & ~FLAG_DATA_CENTRIC)
			return error_set_at(err, STATUS_UNSUPPORTED, name,
					    off + HEADER_V100,
					    "unknown hpctrace flags 0x%llx",
					    (ull)flags);
		if (flags & FLAG_DATA_CENTRIC)
			src->record = RECORD_DATA_CENTRIC;
	}
	src->data = off + (src->v101 ? HEADER_V101 : HEADER_V100);
	/* a partial record at the end (an interrupted write) is ignored */
	l->n_samples = (end - src->data) / src->record;
	l->rank = part->rank;
	l->thread = part->thread;
	if (l->n_samples) {
		uint64_t last = src->data + (l->n_samples - 1) * src->record;
		st = blob_read(blob, src->data, 8, &s, err);
		if (st != STATUS_OK)
			return st;
		(void)span_u64be(s, 0, &src->first);
		st = blob_read(blob, last, 8, &s, err);
		if (st != STATUS_OK)
			return st;
		(void)span_u64be(s, 0, &src->last);
		if (src->last < src->first)
			return error_set_at(err, STATUS_CORRUPT, name, last,
					    "last sample time %llu is before "
					    "the first, %llu",
					    (ull)src->last, (ull)src->first);
	}
	if (!line_times(t, i))
		return error_set_at(err, STATUS_CORRUPT, name, src->data,
				    "sample time %llu overflows in "
				    "nanoseconds",
				    (ull)src->last);
	return STATUS_OK;
}

enum status legacy_trace_open(const struct legacy_source *from,
			      struct legacy_trace **out, struct error *err)
{
	struct legacy_files files;
	*out = NULL;
	enum status st = legacy_files_open(from, &hpctrace, &files, err);
	if (st != STATUS_OK)
		return st;
	uint32_t n = files.n_parts;
	struct legacy_trace *t = calloc(1, sizeof(*t));
	if (t) {
		t->files = files;
		t->src = calloc(n ? n : 1, sizeof(*t->src));
		t->lines = calloc(n ? n : 1, sizeof(*t->lines));
	}
	if (!t || !t->src || !t->lines) {
		st = error_set(err, STATUS_NOMEM, files.name, "out of memory");
		if (!t)
			legacy_files_close(&files);
		goto out;
	}
	for (; t->n_lines < n; t->n_lines++) {
		st = check_line(t, t->n_lines, err);
		if (st != STATUS_OK)
			goto out;
	}
	*out = t;
	t = NULL;
out:
	legacy_trace_close(t);
	return st;
}

enum status legacy_trace_open_hpctrace_blobs(struct blob **blobs,
					     uint32_t n_blobs,
					     struct legacy_trace **out,
					     struct error *err)
{
	struct legacy_source from = {.blobs = blobs, .n = n_blobs};
	return legacy_trace_open(&from, out, err);
}

enum status legacy_trace_open_hpctrace(const char *const *paths,
				       uint32_t n_paths,
				       struct legacy_trace **out,
				       struct error *err)
{
	struct legacy_source from = {.paths = paths, .n = n_paths};
	return legacy_trace_open(&from, out, err);
}

enum status legacy_trace_open_mt_blob(struct blob *blob,
				      struct legacy_trace **out,
				      struct error *err)
{
	struct legacy_source from = {.merged = true, .blob = blob};
	return legacy_trace_open(&from, out, err);
}

enum status legacy_trace_open_mt(const char *path, struct legacy_trace **out,
				 struct error *err)
{
	struct legacy_source from = {.merged = true, .path = path};
	return legacy_trace_open(&from, out, err);
}

enum status legacy_trace_set_time_unit(struct legacy_trace *t,
				       uint64_t units_per_second,
				       struct error *err)
{
	if (!t || units_per_second == 0 ||
	    1000000000ull % units_per_second != 0)
		return error_set(err, STATUS_USAGE, NULL,
				 "time unit 1/%llu s does not divide a "
				 "second into whole nanoseconds",
				 (ull)units_per_second);
	uint64_t old = t->unit_override;
	t->unit_override = 1000000000ull / units_per_second;
	for (uint32_t i = 0; i < t->n_lines; i++) {
		if (!line_times(t, i)) {
			t->unit_override = old;
			for (uint32_t j = 0; j <= i; j++)
				(void)line_times(t, j);
			return error_set(err, STATUS_CORRUPT,
					 blob_name(line_blob(t, i)),
					 "sample time %llu overflows in "
					 "nanoseconds at 1/%llu s",
					 (ull)t->src[i].last,
					 (ull)units_per_second);
		}
	}
	return STATUS_OK;
}

uint32_t legacy_trace_n_lines(const struct legacy_trace *t)
{
	return t ? t->n_lines : 0;
}

const struct legacy_trace_line *legacy_trace_line(const struct legacy_trace *t,
						  uint32_t line)
{
	if (!t || line >= t->n_lines)
		return NULL;
	return &t->lines[line];
}

bool legacy_trace_sample(struct legacy_trace *t, uint32_t line, uint64_t index,
			 struct trace_sample *out)
{
	if (!t || line >= t->n_lines || index >= t->lines[line].n_samples)
		return false;
	const struct lt_source *s = &t->src[line];
	struct blob *blob = line_blob(t, line);
	struct span w;
	struct error e = {0};
	if (blob_read(blob, s->data + index * s->record, RECORD, &w, &e) !=
	    STATUS_OK) {
		legacy_failure_keep(&t->failure, &e);
		return false;
	}
	uint64_t raw = 0, ns = 0;
	uint32_t ctx = 0;
	(void)span_u64be(w, 0, &raw);
	(void)span_u32be(w, 8, &ctx);
	if (!to_ns(raw, ns_per_unit(t, s), &ns)) {
		error_set_at(&e, STATUS_CORRUPT, blob_name(blob),
			     s->data + index * s->record,
			     "sample time %llu overflows in nanoseconds",
			     (ull)raw);
		legacy_failure_keep(&t->failure, &e);
		return false;
	}
	out->time = ns;
	out->ctx_id = ctx;
	return true;
}

const struct error *legacy_trace_error(const struct legacy_trace *t)
{
	return t ? legacy_failure_get(&t->failure) : NULL;
}

void legacy_trace_close(struct legacy_trace *t)
{
	if (!t)
		return;
	legacy_files_close(&t->files);
	free(t->src);
	free(t->lines);
	error_clear(&t->failure.error);
	free(t);
}
