/* legacy_common: file-name parsing and the merged-file table shared by the
 * pre-v4 HPCToolkit readers (legacy_values, legacy_trace).  Must not depend
 * on curses, on the XML parser or on the model builder. */
#include "config.h"

#include "formats/hpctoolkit_xml/legacy_common.h"

#include <stdlib.h>
#include <string.h>

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

enum status legacy_blobs_open(const char *const *paths, uint32_t n_paths,
			      const char *what, struct blob ***out,
			      struct error *err)
{
	*out = NULL;
	if (!paths || n_paths == 0)
		return error_set(err, STATUS_USAGE, NULL, "no %s files given",
				 what);
	struct blob **blobs = calloc(n_paths, sizeof(*blobs));
	if (!blobs)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	for (uint32_t n = 0; n < n_paths; n++) {
		enum status st = blob_open_file(paths[n], &blobs[n], err);
		if (st != STATUS_OK) {
			for (uint32_t i = 0; i < n; i++)
				blob_close(blobs[i]);
			free(blobs);
			return st;
		}
	}
	*out = blobs;
	return STATUS_OK;
}
