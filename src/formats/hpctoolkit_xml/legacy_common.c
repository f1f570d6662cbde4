/* legacy_common: file-name parsing and the merged-file table shared by the
 * pre-v4 HPCToolkit readers (legacy_values, legacy_trace).  Must not depend
 * on curses, on the XML parser or on the model builder. */
#include "config.h"

#include "formats/hpctoolkit_xml/legacy_common.h"

#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/strbuf.h"

#define TABLE_HEAD 8   /* u32 type, u32 count */
#define TABLE_ENTRY 16 /* u32 rank, u32 thread, u64 offset */
#define END_MARKER 0xFFFFFFFFDEADF00Dull

typedef unsigned long long ull;

/* The decimal number in [s, e), at most UINT32_MAX - 1. */
static bool parse_u32(const char *s, const char *e, uint32_t *out)
{
	uint64_t v = 0;
	if (s == e)
		return false;
	for (const char *p = s; p < e; p++) {
		if (*p < '0' || *p > '9')
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
		if (v >= UINT32_MAX)
			return false;
	}
	*out = (uint32_t)v;
	return true;
}

bool legacy_name_parse(const char *path, uint32_t *rank, uint32_t *thread)
{
	*rank = UINT32_MAX;
	*thread = UINT32_MAX;
	if (!path)
		return false;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *end = strrchr(base, '.');
	if (!end || end == base)
		return false;
	/* walk back over GEN, PID, HOSTID, THREAD, RANK: five '-' */
	const char *dash[5];
	const char *p = end;
	for (int i = 0; i < 5; i++) {
		while (p > base && p[-1] != '-')
			p--;
		if (p == base)
			return false;
		p--;
		dash[i] = p;
	}
	/* NAME before dash[4] must not be empty */
	if (dash[4] == base)
		return false;
	uint32_t r, t;
	if (!parse_u32(dash[4] + 1, dash[3], &r) ||
	    !parse_u32(dash[3] + 1, dash[2], &t))
		return false;
	*rank = r;
	*thread = t;
	return true;
}

enum status legacy_table_read(struct blob *blob, uint32_t *type,
			      struct legacy_table_entry **out, uint32_t *n,
			      struct error *err)
{
	enum status st = STATUS_OK;
	struct legacy_table_entry *e = NULL;
	const char *name = blob_name(blob);
	uint64_t size = blob_size(blob);
	struct span s;
	uint32_t count = 0;
	*out = NULL;
	*n = 0;
	*type = 0;
	if (size < TABLE_HEAD) {
		st = error_set_at(err, STATUS_CORRUPT, name, 0,
				  "file of %llu bytes is too small for the "
				  "8-byte table header",
				  (ull)size);
		goto out;
	}
	st = blob_read(blob, 0, TABLE_HEAD, &s, err);
	if (st != STATUS_OK)
		goto out;
	uint32_t t = 0;
	(void)span_u32be(s, 0, &t);
	(void)span_u32be(s, 4, &count);
	if (t > (LEGACY_TABLE_PROCESSES | LEGACY_TABLE_THREADS)) {
		st = error_set_at(err, STATUS_UNSUPPORTED, name, 0,
				  "unknown table type %u (expected 0..3)",
				  (unsigned)t);
		goto out;
	}
	if (!span_count_fits(count, TABLE_ENTRY, size - TABLE_HEAD)) {
		st = error_set_at(err, STATUS_CORRUPT, name, 4,
				  "table count %u does not fit in a file of "
				  "%llu bytes",
				  (unsigned)count, (ull)size);
		goto out;
	}
	uint64_t table_end = TABLE_HEAD + (uint64_t)count * TABLE_ENTRY;
	uint64_t data_end = size;
	if (size >= table_end + 8) {
		st = blob_read(blob, size - 8, 8, &s, err);
		if (st != STATUS_OK)
			goto out;
		uint64_t marker = 0;
		(void)span_u64be(s, 0, &marker);
		if (marker == END_MARKER)
			data_end = size - 8;
	}
	if (count == 0)
		goto out;
	e = calloc(count, sizeof(*e));
	if (!e) {
		st = error_set(err, STATUS_NOMEM, name, "out of memory");
		goto out;
	}
	st = blob_read(blob, TABLE_HEAD, table_end - TABLE_HEAD, &s, err);
	if (st != STATUS_OK)
		goto out;
	for (uint32_t i = 0; i < count; i++) {
		uint64_t at = (uint64_t)i * TABLE_ENTRY;
		(void)span_u32be(s, at, &e[i].rank);
		(void)span_u32be(s, at + 4, &e[i].thread);
		(void)span_u64be(s, at + 8, &e[i].off);
		uint64_t lo = i ? e[i - 1].off + 1 : table_end;
		if (e[i].off < lo || e[i].off > data_end) {
			st = error_set_at(err, STATUS_CORRUPT, name,
					  TABLE_HEAD + at + 8,
					  "table entry %u: offset 0x%llx is "
					  "not in [0x%llx, 0x%llx]",
					  (unsigned)i, (ull)e[i].off, (ull)lo,
					  (ull)data_end);
			goto out;
		}
		if (i)
			e[i - 1].end = e[i].off;
	}
	e[count - 1].end = data_end;
	*out = e;
	e = NULL;
	*n = count;
	*type = t;
out:
	free(e);
	return st;
}

/* An empty set for `n_blobs` blobs and `n_parts` parts. */
static enum status files_alloc(struct legacy_files *f, uint32_t n_blobs,
			       uint32_t n_parts, const char *name,
			       struct error *err)
{
	f->name = name;
	f->blobs = calloc(n_blobs, sizeof(*f->blobs));
	f->parts = calloc(n_parts ? n_parts : 1, sizeof(*f->parts));
	if (!f->blobs || !f->parts) {
		FREE_AND_NULL(f->blobs);
		FREE_AND_NULL(f->parts);
		return error_set(err, STATUS_NOMEM, name, "out of memory");
	}
	return STATUS_OK;
}

/* One part per blob stored apart, rank and thread from its name. */
static void files_apart(struct legacy_files *f)
{
	for (uint32_t i = 0; i < f->n_blobs; i++) {
		struct legacy_part *p = &f->parts[i];
		p->blob = i;
		p->off = 0;
		p->end = blob_size(f->blobs[i]);
		(void)legacy_name_parse(blob_name(f->blobs[i]), &p->rank,
					&p->thread);
	}
	f->n_parts = f->n_blobs;
}

/* Files apart from paths, opened all or none. */
static enum status files_open_paths(const char *const *paths,
				    uint32_t n_paths, struct legacy_files *out,
				    struct error *err)
{
	enum status st = files_alloc(out, n_paths, n_paths, NULL, err);
	for (uint32_t i = 0; st == STATUS_OK && i < n_paths; i++) {
		st = blob_open_file(paths[i], &out->blobs[i], err);
		if (st == STATUS_OK)
			out->n_blobs++;
	}
	if (st == STATUS_OK)
		files_apart(out);
	else
		legacy_files_close(out);
	return st;
}

/* Files apart from blobs, taken. */
static enum status files_take(struct blob **blobs, uint32_t n_blobs,
			      struct legacy_files *out, struct error *err)
{
	enum status st = files_alloc(out, n_blobs, n_blobs, NULL, err);
	for (uint32_t i = 0; i < n_blobs; i++) {
		if (st == STATUS_OK)
			out->blobs[out->n_blobs++] = blobs[i];
		else
			blob_close(blobs[i]);
	}
	if (st == STATUS_OK)
		files_apart(out);
	return st;
}

/* The parts of a merged file, taken. */
static enum status files_take_merged(struct blob *blob,
				     struct legacy_files *out,
				     struct error *err)
{
	struct legacy_table_entry *tab = NULL;
	uint32_t n = 0, type = 0;
	enum status st = legacy_table_read(blob, &type, &tab, &n, err);
	if (st == STATUS_OK)
		st = files_alloc(out, 1, n, blob_name(blob), err);
	if (st != STATUS_OK) {
		free(tab);
		blob_close(blob);
		return st;
	}
	out->blobs[out->n_blobs++] = blob;
	for (uint32_t i = 0; i < n; i++)
		out->parts[i] = (struct legacy_part){
			.blob = 0,
			.off = tab[i].off,
			.end = tab[i].end,
			.rank = tab[i].rank,
			.thread = tab[i].thread,
		};
	out->n_parts = n;
	free(tab);
	return STATUS_OK;
}

enum status legacy_files_open(const struct legacy_source *src,
			      const struct legacy_kind *kind,
			      struct legacy_files *out, struct error *err)
{
	*out = (struct legacy_files){.kind = kind};
	if (src->merged && !src->path && !src->blob)
		return error_set(err, STATUS_USAGE, NULL, "no %s file given",
				 kind->merged);
	if (!src->merged && ((!src->paths && !src->blobs) || src->n == 0))
		return error_set(err, STATUS_USAGE, NULL, "no %s files given",
				 kind->what);
	if (!src->merged)
		return src->blobs ? files_take(src->blobs, src->n, out, err)
				  : files_open_paths(src->paths, src->n, out,
						     err);
	struct blob *blob = src->blob;
	if (!blob) {
		enum status st = blob_open_file(src->path, &blob, err);
		if (st != STATUS_OK)
			return st;
	}
	return files_take_merged(blob, out, err);
}

/* The error for a version not in kind->versions. */
static enum status bad_version(const struct legacy_kind *k, const char *name,
			       uint64_t at, const char *ver,
			       struct error *err)
{
	struct strbuf expected = {0};
	for (uint32_t i = 0; i < 2 && k->versions[i]; i++)
		strbuf_addf(&expected, "%s\"%s\"", i ? " or " : "",
			    k->versions[i]);
	char *text = strbuf_take(&expected);
	enum status st =
		text ? error_set_at(err, STATUS_UNSUPPORTED, name, at,
				    "%s version \"%.5s\" (expected %s)",
				    k->what, ver, text)
		     : error_set(err, STATUS_NOMEM, name, "out of memory");
	free(text);
	return st;
}

enum status legacy_files_check_head(const struct legacy_files *f, uint32_t i,
				    struct span *head, uint32_t *version,
				    struct error *err)
{
	const struct legacy_kind *k = f->kind;
	const struct legacy_part *p = &f->parts[i];
	struct blob *blob = f->blobs[p->blob];
	const char *name = blob_name(blob);
	if (p->end - p->off < k->header)
		return error_set_at(err, STATUS_CORRUPT, name, p->off,
				    "%s of %llu bytes is shorter than its "
				    "%u-byte header",
				    k->what, (ull)(p->end - p->off),
				    (unsigned)k->header);
	enum status st = blob_read(blob, p->off, k->header, head, err);
	if (st != STATUS_OK)
		return st;
	if (memcmp(head->data, k->magic, LEGACY_MAGIC_LEN) != 0)
		return error_set_at(err, STATUS_NOT_DATABASE, name, p->off,
				    "bad magic (expected \"%s\")", k->magic);
	const char *ver = (const char *)head->data + LEGACY_MAGIC_LEN;
	uint32_t v = 0;
	while (v < 2 && k->versions[v] &&
	       memcmp(ver, k->versions[v], LEGACY_VERSION_LEN) != 0)
		v++;
	if (v == 2 || !k->versions[v])
		return bad_version(k, name, p->off + LEGACY_MAGIC_LEN, ver,
				   err);
	uint8_t order = head->data[LEGACY_MAGIC_LEN + LEGACY_VERSION_LEN];
	if (order != 'b')
		return error_set_at(err, STATUS_UNSUPPORTED, name,
				    p->off + LEGACY_MAGIC_LEN +
					    LEGACY_VERSION_LEN,
				    "byte order '%c' (only 'b', big-endian, "
				    "is known)",
				    order);
	*version = v;
	return STATUS_OK;
}

void legacy_files_close(struct legacy_files *f)
{
	for (uint32_t i = 0; i < f->n_blobs; i++)
		blob_close(f->blobs[i]);
	free(f->blobs);
	free(f->parts);
	*f = (struct legacy_files){.kind = f->kind};
}

void legacy_failure_keep(struct legacy_failure *kept, struct error *e)
{
	if (!kept->failed) {
		kept->error = *e;
		kept->failed = true;
	} else {
		error_clear(e);
	}
}

const struct error *legacy_failure_get(const struct legacy_failure *kept)
{
	return kept->failed ? &kept->error : NULL;
}
