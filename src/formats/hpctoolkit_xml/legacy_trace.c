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

#define MAGIC "HPCRUN-trace______"
#define MAGIC_LEN 18
#define VERSION_LEN 5
#define HEADER_V100 24 /* magic, version, endianness */
#define HEADER_V101 32 /* the same and u64 flags */
#define FLAG_DATA_CENTRIC 1ull
#define RECORD 12             /* u64 time, u32 context id */
#define RECORD_DATA_CENTRIC 16 /* the same and u32 metric id */

typedef unsigned long long ull;

struct lt_source {
	uint32_t blob;    /* index into blobs */
	uint64_t data;    /* absolute offset of record 0 */
	uint32_t record;  /* bytes per record */
	bool v101;        /* version 01.01 (default unit ns) */
	uint64_t first, last; /* raw times of the first and last record */
};

struct legacy_trace {
	struct blob **blobs;
	uint32_t n_blobs;
	struct lt_source *src;
	struct legacy_trace_line *lines;
	uint32_t n_lines;
	uint64_t unit_override; /* ns per stored unit; 0 = by version */
	struct error error;
	bool failed;
};

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

/* Check the hpctrace header at [off, end) of blob `bi` and fill line `i`. */
static enum status check_line(struct legacy_trace *t, uint32_t bi,
			      uint64_t off, uint64_t end, uint32_t i,
			      struct error *err)
{
	struct blob *blob = t->blobs[bi];
	const char *name = blob_name(blob);
	struct lt_source *src = &t->src[i];
	struct legacy_trace_line *l = &t->lines[i];
	struct span s;
	enum status st;
	if (end - off < HEADER_V100)
		return error_set_at(err, STATUS_CORRUPT, name, off,
				    "hpctrace of %llu bytes is shorter than "
				    "its %d-byte header",
				    (ull)(end - off), HEADER_V100);
	st = blob_read(blob, off, HEADER_V100, &s, err);
	if (st != STATUS_OK)
		return st;
	if (memcmp(s.data, MAGIC, MAGIC_LEN) != 0)
		return error_set_at(err, STATUS_NOT_DATABASE, name, off,
				    "bad magic (expected \"" MAGIC "\")");
	const char *ver = (const char *)s.data + MAGIC_LEN;
	uint64_t header = 0;
	if (memcmp(ver, "01.00", VERSION_LEN) == 0) {
		header = HEADER_V100;
	} else if (memcmp(ver, "01.01", VERSION_LEN) == 0) {
		header = HEADER_V101;
		src->v101 = true;
	} else {
		return error_set_at(err, STATUS_UNSUPPORTED, name,
				    off + MAGIC_LEN,
				    "hpctrace version \"%.5s\" (expected "
				    "\"01.00\" or \"01.01\")",
				    ver);
	}
	if (s.data[MAGIC_LEN + VERSION_LEN] != 'b')
		return error_set_at(err, STATUS_UNSUPPORTED, name,
				    off + MAGIC_LEN + VERSION_LEN,
				    "byte order '%c' (only 'b', big-endian, "
				    "is known)",
				    s.data[MAGIC_LEN + VERSION_LEN]);
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
	src->blob = bi;
	src->data = off + header;
	/* a partial record at the end (an interrupted write) is ignored */
	l->n_samples = (end - src->data) / src->record;
	(void)legacy_name_parse(name, &l->rank, &l->thread);
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

static struct legacy_trace *trace_new(uint32_t n_blobs, uint32_t n_lines)
{
	struct legacy_trace *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->blobs = calloc(n_blobs ? n_blobs : 1, sizeof(*t->blobs));
	t->src = calloc(n_lines ? n_lines : 1, sizeof(*t->src));
	t->lines = calloc(n_lines ? n_lines : 1, sizeof(*t->lines));
	if (!t->blobs || !t->src || !t->lines) {
		legacy_trace_close(t);
		return NULL;
	}
	return t;
}

enum status legacy_trace_open_hpctrace_blobs(struct blob **blobs,
					     uint32_t n_blobs,
					     struct legacy_trace **out,
					     struct error *err)
{
	enum status st = STATUS_OK;
	struct legacy_trace *t = NULL;
	*out = NULL;
	if (!blobs || n_blobs == 0)
		return error_set(err, STATUS_USAGE, NULL,
				 "no hpctrace files given");
	t = trace_new(n_blobs, n_blobs);
	if (!t) {
		for (uint32_t i = 0; i < n_blobs; i++)
			blob_close(blobs[i]);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	for (uint32_t i = 0; i < n_blobs; i++)
		t->blobs[t->n_blobs++] = blobs[i];
	for (uint32_t i = 0; i < n_blobs; i++) {
		st = check_line(t, i, 0, blob_size(blobs[i]), i, err);
		if (st != STATUS_OK)
			goto out;
		t->n_lines++;
	}
	*out = t;
	t = NULL;
out:
	legacy_trace_close(t);
	return st;
}

enum status legacy_trace_open_hpctrace(const char *const *paths,
				       uint32_t n_paths,
				       struct legacy_trace **out,
				       struct error *err)
{
	struct blob **blobs = NULL;
	*out = NULL;
	enum status st =
		legacy_blobs_open(paths, n_paths, "hpctrace", &blobs, err);
	if (st == STATUS_OK)
		st = legacy_trace_open_hpctrace_blobs(blobs, n_paths, out, err);
	free(blobs);
	return st;
}

enum status legacy_trace_open_mt_blob(struct blob *blob,
				      struct legacy_trace **out,
				      struct error *err)
{
	enum status st = STATUS_OK;
	struct legacy_trace *t = NULL;
	struct legacy_table_entry *tab = NULL;
	uint32_t n = 0, type = 0;
	*out = NULL;
	if (!blob)
		return error_set(err, STATUS_USAGE, NULL, "no mt file given");
	st = legacy_table_read(blob, &type, &tab, &n, err);
	if (st != STATUS_OK)
		goto out;
	t = trace_new(1, n);
	if (!t) {
		st = error_set(err, STATUS_NOMEM, blob_name(blob),
			       "out of memory");
		goto out;
	}
	t->blobs[t->n_blobs++] = blob;
	blob = NULL;
	for (uint32_t i = 0; i < n; i++) {
		st = check_line(t, 0, tab[i].off, tab[i].end, i, err);
		if (st != STATUS_OK)
			goto out;
		t->lines[i].rank = tab[i].rank;
		t->lines[i].thread = tab[i].thread;
		t->n_lines++;
	}
	*out = t;
	t = NULL;
out:
	free(tab);
	blob_close(blob);
	legacy_trace_close(t);
	return st;
}

enum status legacy_trace_open_mt(const char *path, struct legacy_trace **out,
				 struct error *err)
{
	struct blob *b = NULL;
	*out = NULL;
	if (!path)
		return error_set(err, STATUS_USAGE, NULL, "no mt file given");
	enum status st = blob_open_file(path, &b, err);
	if (st != STATUS_OK)
		return st;
	return legacy_trace_open_mt_blob(b, out, err);
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
					 blob_name(t->blobs[t->src[i].blob]),
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

static void keep_error(struct legacy_trace *t, struct error *e)
{
	if (!t->failed) {
		t->error = *e;
		t->failed = true;
	} else {
		error_clear(e);
	}
}

bool legacy_trace_sample(struct legacy_trace *t, uint32_t line, uint64_t index,
			 struct trace_sample *out)
{
	if (!t || line >= t->n_lines || index >= t->lines[line].n_samples)
		return false;
	const struct lt_source *s = &t->src[line];
	struct blob *blob = t->blobs[s->blob];
	struct span w;
	struct error e = {0};
	if (blob_read(blob, s->data + index * s->record, RECORD, &w, &e) !=
	    STATUS_OK) {
		keep_error(t, &e);
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
		keep_error(t, &e);
		return false;
	}
	out->time = ns;
	out->ctx_id = ctx;
	return true;
}

const struct error *legacy_trace_error(const struct legacy_trace *t)
{
	return t && t->failed ? &t->error : NULL;
}

void legacy_trace_close(struct legacy_trace *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->n_blobs; i++)
		blob_close(t->blobs[i]);
	free(t->blobs);
	free(t->src);
	free(t->lines);
	error_clear(&t->error);
	free(t);
}
