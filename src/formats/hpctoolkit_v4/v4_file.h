/* v4_file: the part every HPCToolkit v4 *.db file shares: the common file
 * header (magic, format identifier, version), the section table and the
 * 8-byte footer ("Common properties for all formats" in FORMATS.md).
 *
 * The header and footer are read through blob_read windows, so opening a
 * large file costs only those bytes.  Must not depend on curses, on the
 * model or on any particular v4 file's contents. */
#ifndef CALLSCOPE_V4_FILE_H
#define CALLSCOPE_V4_FILE_H

#include <stdint.h>

#include "io/blob.h"
#include "core/span.h"
#include "core/status.h"

enum v4_format {
	V4_FORMAT_META,    /* meta.db:    "meta", footer "_meta.db" */
	V4_FORMAT_PROFILE, /* profile.db: "prof", footer "_prof.db" */
	V4_FORMAT_CCT,     /* cct.db:     "ctxt", footer "__ctx.db" */
	V4_FORMAT_TRACE,   /* trace.db:   "trce", footer "trace.db" */
};

/* Sections of meta.db, in header order (the largest table of any format). */
#define V4_MAX_SECTIONS 8

struct v4_section {
	uint64_t off;  /* absolute offset of the section */
	uint64_t size; /* its size; 0 for an absent section */
};

struct v4_file {
	struct blob *blob; /* owned */
	const char *name;  /* blob_name(blob), used in every message */
	uint64_t size;     /* file size */
	uint8_t major, minor;
	uint32_t n_sections;
	struct v4_section sections[V4_MAX_SECTIONS];
};

/* Number of sections the v4.0 header of `format` lists. */
uint32_t v4_file_section_count(enum v4_format format);

/* Check the header, version, section table and footer of `blob` as a file
 * of `format`.  Takes ownership of `blob` in every case: on failure it is
 * closed and *f zeroed.  STATUS_NOT_DATABASE for a bad magic,
 * STATUS_UNSUPPORTED for a major version other than 4, STATUS_CORRUPT for
 * everything else that does not validate.  Unknown minor versions are
 * accepted. */
enum status v4_file_open_blob(struct blob *blob, enum v4_format format,
			      struct v4_file *f, struct error *err);

/* v4_file_open_blob() on the local file `path`.  A missing file is
 * STATUS_NOT_FOUND. */
enum status v4_file_open_path(const char *path, enum v4_format format,
			      struct v4_file *f, struct error *err);

/* The whole file as one span (for files read entirely at open). */
enum status v4_file_map(struct v4_file *f, struct span *out,
			struct error *err);

/* A span together with the absolute file offset of its first byte, so
 * that the absolute pointers v4 files store (`Ty*`, `char*`) can be
 * resolved against it with a bounds check. */
struct v4_region {
	struct span span;
	uint64_t base;
};

/* Section `index` of the mapped file `all` (an empty region when the
 * section is absent). */
struct v4_region v4_file_region(const struct v4_file *f, struct span all,
				uint32_t index);

/* The n bytes at absolute offset `ptr`, when they lie inside `r`. */
static inline bool v4_region_sub(struct v4_region r, uint64_t ptr, uint64_t n,
				 struct span *out)
{
	return ptr >= r.base && span_sub(r.span, ptr - r.base, n, out);
}

/* The NUL-terminated string at absolute offset `ptr`, terminator inside
 * `r`. */
static inline bool v4_region_cstr(struct v4_region r, uint64_t ptr,
				  const char **out, size_t *len)
{
	return ptr >= r.base && span_cstr(r.span, ptr - r.base, out, len);
}

/* `n` items of `size` bytes at `ptr` inside `r` (count checked before the
 * multiplication).  An empty array is valid whatever its pointer (writers
 * store 0 for it). */
static inline bool v4_region_array(struct v4_region r, uint64_t ptr,
				   uint64_t n, uint64_t size, struct span *out)
{
	if (n == 0 || size == 0) {
		out->data = r.span.data;
		out->len = 0;
		return true;
	}
	return span_count_fits(n, size, r.span.len) &&
	       v4_region_sub(r, ptr, n * size, out);
}

/* Section `index` alone, valid until the file is closed (an empty region
 * when the section is absent): readers of large files (profile.db) read
 * their sections this way, so that a remote file is not fetched whole. */
enum status v4_file_map_region(struct v4_file *f, uint32_t index,
			       struct v4_region *out, struct error *err);

/* Close the blob and zero the struct; safe on a zeroed struct. */
void v4_file_close(struct v4_file *f);

#endif
