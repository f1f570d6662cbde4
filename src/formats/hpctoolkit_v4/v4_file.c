/* v4_file: common header, section table and footer of HPCToolkit v4 *.db
 * files (FORMATS.md, "Common file structure").  Only the header and the
 * footer are read at open, through blob_read windows.  Must not depend on
 * curses, on the model or on any particular v4 file's contents. */
#include "config.h"

#include "formats/hpctoolkit_v4/v4_file.h"

#include <string.h>

struct format_info {
	const char *id;     /* u8[4] `format` */
	const char *footer; /* the 8-byte footer */
	uint32_t n_sections;
};

static const struct format_info formats[] = {
	[V4_FORMAT_META] = {.id = "meta", .footer = "_meta.db", .n_sections = 8},
	[V4_FORMAT_PROFILE] = {.id = "prof", .footer = "_prof.db",
			       .n_sections = 2},
	[V4_FORMAT_CCT] = {.id = "ctxt", .footer = "__ctx.db", .n_sections = 1},
	[V4_FORMAT_TRACE] = {.id = "trce", .footer = "trace.db",
			     .n_sections = 1},
};

#define V4_HEADER_FIXED 0x10 /* magic, format, majorVersion, minorVersion */
#define V4_FOOTER_SIZE 8

uint32_t v4_file_section_count(enum v4_format format)
{
	return formats[format].n_sections;
}

static bool printable(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return false;
	return true;
}

/* Common file structure: `magic` reads HPCTOOLKIT. */
static enum status check_magic(struct v4_file *f, struct error *err)
{
	struct span w;
	if (f->size == 0)
		return error_set(err, STATUS_CORRUPT, f->name,
				 "file is empty (expected the HPCToolkit "
				 "file header)");
	if (f->size < 10)
		return error_set_at(err, STATUS_NOT_DATABASE, f->name, 0,
				    "file of %llu bytes is too small for the "
				    "HPCTOOLKIT magic",
				    (unsigned long long)f->size);
	enum status st = blob_read(f->blob, 0, 10, &w, err);
	if (st != STATUS_OK)
		return st;
	if (memcmp(w.data, "HPCTOOLKIT", 10) != 0)
		return error_set_at(err, STATUS_NOT_DATABASE, f->name, 0,
				    "bad magic: the file does not start with "
				    "HPCTOOLKIT");
	return STATUS_OK;
}

/* The header's fixed part: the format identifier and the version. */
static enum status check_format(struct v4_file *f,
				const struct format_info *fi,
				struct error *err)
{
	struct span w;
	if (f->size < V4_HEADER_FIXED)
		return error_set_at(err, STATUS_CORRUPT, f->name, 0,
				    "file of %llu bytes is truncated inside "
				    "the common file header",
				    (unsigned long long)f->size);
	enum status st = blob_read(f->blob, 0, V4_HEADER_FIXED, &w, err);
	if (st != STATUS_OK)
		return st;
	/* Common file structure: `format` identifies the specific format */
	if (memcmp(w.data + 10, fi->id, 4) != 0) {
		if (printable(w.data + 10, 4))
			return error_set_at(err, STATUS_CORRUPT, f->name, 10,
					    "format identifier '%.4s', "
					    "expected '%s'",
					    (const char *)w.data + 10, fi->id);
		return error_set_at(err, STATUS_CORRUPT, f->name, 10,
				    "unreadable format identifier, "
				    "expected '%s'", fi->id);
	}
	/* Common file structure: `majorVersion`, currently 4 (Reader
	 * compatibility: only minor versions are forward compatible) */
	f->major = w.data[14];
	f->minor = w.data[15];
	if (f->major != 4)
		return error_set_at(err, STATUS_UNSUPPORTED, f->name, 14,
				    "version %u.%u; this reader reads major "
				    "version 4",
				    (unsigned)f->major, (unsigned)f->minor);
	return STATUS_OK;
}

/* The section table (`header_size` bytes of header), each section inside
 * the body (before the footer at `foot`). */
static enum status read_sections(struct v4_file *f,
				 const struct format_info *fi,
				 uint64_t header_size, uint64_t foot,
				 struct error *err)
{
	struct span w;
	enum status st = blob_read(f->blob, 0, header_size, &w, err);
	if (st != STATUS_OK)
		return st;
	for (uint32_t i = 0; i < fi->n_sections; i++) {
		uint64_t at = V4_HEADER_FIXED + 16 * (uint64_t)i;
		struct v4_section *s = &f->sections[i];
		(void)span_u64le(w, at, &s->size);
		(void)span_u64le(w, at + 8, &s->off);
		/* Common file structure: {sz,p}Section: a contiguous region
		 * of the file; it cannot cover the header's fixed part or
		 * the footer. */
		if (s->size == 0)
			continue;
		if (s->off < V4_HEADER_FIXED || s->off > foot ||
		    s->size > foot - s->off)
			return error_set_at(err, STATUS_CORRUPT, f->name, at,
					    "section %u [0x%llx, +0x%llx) lies "
					    "outside the file body (size "
					    "0x%llx)",
					    (unsigned)i + 1,
					    (unsigned long long)s->off,
					    (unsigned long long)s->size,
					    (unsigned long long)f->size);
	}
	return STATUS_OK;
}

enum status v4_file_open_blob(struct blob *blob, enum v4_format format,
			      struct v4_file *f, struct error *err)
{
	const struct format_info *fi = &formats[format];
	enum status st = STATUS_OK;
	struct span w;
	memset(f, 0, sizeof(*f));
	f->blob = blob;
	f->name = blob_name(blob);
	f->size = blob_size(blob);
	f->n_sections = fi->n_sections;
	uint64_t header_size = V4_HEADER_FIXED + 16 * (uint64_t)fi->n_sections;
	st = check_magic(f, err);
	if (st == STATUS_OK)
		st = check_format(f, fi, err);
	if (st != STATUS_OK)
		goto out;
	/* The section table and the footer must both fit. */
	if (f->size < header_size + V4_FOOTER_SIZE) {
		st = error_set_at(err, STATUS_CORRUPT, f->name, 0,
				  "file of %llu bytes is too small for the "
				  "%llu-byte %s header and the footer",
				  (unsigned long long)f->size,
				  (unsigned long long)header_size, fi->id);
		goto out;
	}
	/* Footer: the last 8 bytes name the format ("_meta.db", ...) */
	uint64_t foot = f->size - V4_FOOTER_SIZE;
	st = blob_read(blob, foot, V4_FOOTER_SIZE, &w, err);
	if (st != STATUS_OK)
		goto out;
	if (memcmp(w.data, fi->footer, V4_FOOTER_SIZE) != 0) {
		st = error_set_at(err, STATUS_CORRUPT, f->name, foot,
				  "footer is not '%s' (file truncated?)",
				  fi->footer);
		goto out;
	}
	st = read_sections(f, fi, header_size, foot, err);
out:
	if (st != STATUS_OK)
		v4_file_close(f);
	return st;
}

enum status v4_file_open_path(const char *path, enum v4_format format,
			      struct v4_file *f, struct error *err)
{
	struct blob *blob = NULL;
	memset(f, 0, sizeof(*f));
	enum status st = blob_open_file(path, &blob, err);
	if (st != STATUS_OK)
		return st;
	return v4_file_open_blob(blob, format, f, err);
}

enum status v4_file_map(struct v4_file *f, struct span *out,
			struct error *err)
{
	return blob_map_all(f->blob, out, err);
}

enum status v4_file_map_region(struct v4_file *f, uint32_t index,
			       struct v4_region *out, struct error *err)
{
	static const uint8_t none[1];
	*out = (struct v4_region){.span = {.data = none, .len = 0}, .base = 0};
	if (index >= f->n_sections)
		return STATUS_OK;
	enum status st = blob_map_range(f->blob, f->sections[index].off,
					f->sections[index].size, &out->span,
					err);
	if (st == STATUS_OK)
		out->base = f->sections[index].off;
	return st;
}

struct v4_region v4_file_region(const struct v4_file *f, struct span all,
				uint32_t index)
{
	struct v4_region r = {.span = {.data = NULL, .len = 0}, .base = 0};
	if (index < f->n_sections &&
	    span_sub(all, f->sections[index].off, f->sections[index].size,
		     &r.span))
		r.base = f->sections[index].off;
	else
		r.span.len = 0;
	return r;
}

void v4_file_close(struct v4_file *f)
{
	if (!f)
		return;
	blob_close(f->blob);
	memset(f, 0, sizeof(*f));
}
