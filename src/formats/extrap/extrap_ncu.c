/* extrap_ncu: the Nsight Compute reports (.ncu-rep) beside an Nsight
 * set's exports, as far as Extra-P's Nsight reader uses them: the string
 * table and, per profile result, its metrics' numeric values
 * (extrap_nsys.h).  The file is protocol buffers without a schema that
 * callscope could compile (NVIDIA's .proto files are not published with
 * a licence we can take, and no Debian library decodes schemaless
 * protobuf), so this is a small wire-format decoder (varint, 64-bit,
 * length-delimited, 32-bit fields) over core/span.h's checked spans,
 * reading only the fields below, as decoded from the corpus (doc/extrap.md,
 * "Nsight Systems sets"):
 *   "NVR\0", u32le n + file header (n bytes, skipped);
 *   blocks: u32le n + block header (1 sources, 2 results, 4 string table
 *   {1 string, repeated}, 5 payload size), then the payload: sources then
 *   results, each u32le n + message;
 *   result: 13 metric result {1 name id, 2 value {1 string, 2 float,
 *   3 double, 4 uint32, 5 uint64}}, repeated.
 * Every length is checked against the bytes left before it is used; an
 * error names the byte offset.  Must not depend on curses, on ui/ or on
 * another format. */
#include "config.h"

#include "formats/extrap/extrap_nsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/span.h"
#include "core/array.h"
#include "core/path.h"

/* The largest report read (it is read whole). */
#define NCU_MAX_BYTES ((uint64_t)1 << 30)

struct dec {
	const char *path;
	struct error *err;
	struct span all;
};

struct field {
	uint32_t num;
	int wire;
	uint64_t v;	 /* varint, fixed32, fixed64 */
	struct span sub; /* length-delimited */
	uint64_t at;	 /* offset in the file of the sub-span */
};

static enum status bad(struct dec *d, uint64_t at, const char *what)
{
	return error_set_at(d->err, STATUS_CORRUPT, d->path, at,
			    "not an Nsight Compute report: %s", what);
}

static bool varint(struct span s, uint64_t *off, uint64_t *out)
{
	uint64_t v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		uint8_t b;
		if (!span_u8(s, (*off)++, &b))
			return false;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*out = v;
			return true;
		}
	}
	return false;
}

/* The next field of message `s` at *off (base: the message's offset in
 * the file, for errors); false at the end, *st on a bad field. */
static bool next_field(struct dec *d, struct span s, uint64_t base,
		       uint64_t *off, struct field *f, enum status *st)
{
	if (*off >= s.len)
		return false;
	uint64_t key, at = *off;
	if (!varint(s, off, &key) || (key >> 3) == 0 ||
	    (key >> 3) > UINT32_MAX) {
		*st = bad(d, base + at, "bad field key");
		return false;
	}
	f->num = (uint32_t)(key >> 3);
	f->wire = (int)(key & 7);
	bool ok = true;
	switch (f->wire) {
	case 0:
		ok = varint(s, off, &f->v);
		break;
	case 1:
		ok = span_u64le(s, *off, &f->v);
		*off += 8;
		break;
	case 5: {
		uint32_t v32 = 0;
		ok = span_u32le(s, *off, &v32);
		f->v = v32;
		*off += 4;
		break;
	}
	case 2: {
		uint64_t n = 0;
		ok = varint(s, off, &n) && span_sub(s, *off, n, &f->sub);
		f->at = base + *off;
		if (ok)
			*off += n;
		break;
	}
	default:
		ok = false;
	}
	if (!ok) {
		*st = bad(d, base + at, "truncated or unknown field");
		return false;
	}
	return true;
}

static bool push_string(struct ncu_report *r, size_t *cap, struct span s)
{
	if (!array_grow((void **)&r->strings, cap, r->n_strings + 1,
			sizeof(*r->strings)))
		return false;
	char *c = malloc(s.len + 1);
	if (!c)
		return false;
	memcpy(c, s.data, s.len);
	c[s.len] = '\0';
	r->strings[r->n_strings++] = c;
	return true;
}

/* The numeric value of a metric value message, false for a string or
 * none. */
static bool metric_value(struct dec *d, struct span s, uint64_t base,
			 double *out, enum status *st)
{
	uint64_t off = 0;
	struct field f;
	bool got = false;
	while (next_field(d, s, base, &off, &f, st)) {
		if (f.num == 3 && f.wire == 1) {
			memcpy(out, &f.v, sizeof(*out));
			got = true;
		} else if (f.num == 2 && f.wire == 5) {
			uint32_t v32 = (uint32_t)f.v;
			float x;
			memcpy(&x, &v32, sizeof(x));
			*out = x;
			got = true;
		} else if ((f.num == 4 || f.num == 5) && f.wire == 0) {
			*out = f.num == 4 ? (double)(uint32_t)f.v : (double)f.v;
			got = true;
		}
	}
	return got;
}

static bool ignored(const char *name)
{
	return strncmp(name, "device__attribute", 17) == 0 ||
	       strncmp(name, "nvlink__", 8) == 0;
}

static enum status read_result(struct dec *d, struct ncu_report *r,
			       struct span s, uint64_t base)
{
	struct ncu_result res = {0};
	size_t cap = 0;
	uint64_t off = 0;
	struct field f;
	enum status st = STATUS_OK;
	while (st == STATUS_OK && next_field(d, s, base, &off, &f, &st)) {
		if (f.num != 13 || f.wire != 2)
			continue;
		uint64_t o2 = 0, id = UINT64_MAX;
		struct field g;
		double v = 0;
		bool num = false;
		while (st == STATUS_OK &&
		       next_field(d, f.sub, f.at, &o2, &g, &st)) {
			if (g.num == 1 && g.wire == 0)
				id = g.v;
			else if (g.num == 2 && g.wire == 2)
				num = metric_value(d, g.sub, g.at, &v, &st);
		}
		if (st != STATUS_OK)
			break;
		if (id >= r->n_strings) {
			st = bad(d, f.at,
				 "a metric name outside the string "
				 "table");
			break;
		}
		if (!num || ignored(r->strings[id]))
			continue;
		if (res.n == cap) {
			size_t nc = cap ? cap * 2 : 64;
			uint32_t *gn = realloc(res.name, nc * sizeof(*gn));
			if (gn)
				res.name = gn;
			double *gv =
			    gn ? realloc(res.value, nc * sizeof(*gv)) : NULL;
			if (!gv) {
				st = error_set(d->err, STATUS_NOMEM, d->path,
					       "out of memory");
				break;
			}
			res.value = gv;
			cap = nc;
		}
		res.name[res.n] = (uint32_t)id;
		res.value[res.n++] = v;
	}
	struct ncu_result *g =
	    st == STATUS_OK
		? realloc(r->results, (r->n_results + 1) * sizeof(*g))
		: NULL;
	if (!g) {
		free(res.name);
		free(res.value);
		return st != STATUS_OK ? st
				       : error_set(d->err, STATUS_NOMEM,
						   d->path, "out of memory");
	}
	r->results = g;
	r->results[r->n_results++] = res;
	return STATUS_OK;
}

static enum status decode(struct dec *d, struct ncu_report *r)
{
	struct span s = d->all;
	uint32_t n = 0;
	if (s.len < 4 || memcmp(s.data, "NVR\0", 4) != 0)
		return bad(d, 0, "no NVR magic");
	if (!span_u32le(s, 4, &n) || !span_has(s, 8, n))
		return bad(d, 4, "truncated file header");
	uint64_t off = 8 + (uint64_t)n;
	size_t str_cap = 0;
	enum status st = STATUS_OK;
	while (off < s.len && st == STATUS_OK) {
		struct span h;
		uint64_t at = off;
		if (!span_u32le(s, off, &n) || !span_sub(s, off + 4, n, &h))
			return bad(d, at, "truncated block header");
		off += 4 + (uint64_t)n;
		uint64_t ho = 0, n_src = 0, n_res = 0, pay = 0;
		struct field f;
		while (st == STATUS_OK &&
		       next_field(d, h, at + 4, &ho, &f, &st)) {
			if (f.num == 1 && f.wire == 0)
				n_src = f.v;
			else if (f.num == 2 && f.wire == 0)
				n_res = f.v;
			else if (f.num == 5 && f.wire == 0)
				pay = f.v;
			else if (f.num == 4 && f.wire == 2) {
				uint64_t so = 0;
				struct field g;
				while (st == STATUS_OK &&
				       next_field(d, f.sub, f.at, &so, &g, &st))
					if (g.num == 1 && g.wire == 2 &&
					    !push_string(r, &str_cap, g.sub))
						st = error_set(
						    d->err, STATUS_NOMEM,
						    d->path, "out of memory");
			}
		}
		if (st != STATUS_OK)
			break;
		struct span p;
		if (!span_sub(s, off, pay, &p))
			return bad(d, off, "truncated block payload");
		/* every message takes at least its 4-byte length */
		if (!span_count_fits(n_src, 4, p.len) ||
		    !span_count_fits(n_res, 4, p.len - n_src * 4))
			return bad(d, off,
				   "more messages than the payload "
				   "holds");
		uint64_t po = 0;
		for (uint64_t i = 0; i < n_src + n_res && st == STATUS_OK;
		     i++) {
			struct span m;
			if (!span_u32le(p, po, &n) ||
			    !span_sub(p, po + 4, n, &m))
				return bad(d, off + po, "truncated message");
			if (i >= n_src)
				st = read_result(d, r, m, off + po + 4);
			po += 4 + (uint64_t)n;
		}
		off += pay;
	}
	return st;
}

enum status extrap_ncu_read(const char *path, struct ncu_report *r,
			    struct error *err)
{
	memset(r, 0, sizeof(*r));
	FILE *f = fopen(path, "rb");
	if (!f)
		return error_set(err, STATUS_IO, path, "cannot open");
	char *buf = NULL;
	size_t len = 0;
	enum status st = file_read_all(f, NCU_MAX_BYTES, &buf, &len);
	if (st != STATUS_OK)
		error_set(err, st, path, "%s",
			  st == STATUS_LIMIT   ? "larger than 1 GiB"
			  : st == STATUS_NOMEM ? "out of memory"
					       : "read error");
	fclose(f);
	if (st == STATUS_OK)
		st = extrap_ncu_parse((const uint8_t *)buf, len, path, r, err);
	free(buf);
	return st;
}

enum status extrap_ncu_parse(const uint8_t *data, size_t len, const char *path,
			     struct ncu_report *r, struct error *err)
{
	memset(r, 0, sizeof(*r));
	struct dec d = {
	    .path = path, .err = err, .all = {.data = data, .len = len}};
	enum status st = decode(&d, r);
	if (st != STATUS_OK)
		extrap_ncu_free(r);
	return st;
}

void extrap_ncu_free(struct ncu_report *r)
{
	array_free_each(r->strings, r->n_strings);
	for (size_t i = 0; i < r->n_results; i++) {
		free(r->results[i].name);
		free(r->results[i].value);
	}
	free(r->results);
	memset(r, 0, sizeof(*r));
}
