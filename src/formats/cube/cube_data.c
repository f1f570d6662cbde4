/* cube_data: N.index / N.data of one metric (see cube_data.h).  Index
 * (CubeTypes.h, CubeIndexHeader.cpp): "CUBEX.INDEX", endianness u32 (1 in
 * the writer's order), version u16, format u8 (1 sparse: count u32 and
 * count tree indexes u32; 3 dense: nothing).  Data: "CUBEX.DATA" then rows
 * x locations x value; or "ZCUBEX.DATA", n u64, n x {start_uncompressed,
 * start_compressed (from the table's end), size_compressed} u64, then the
 * zlib streams, each one row.  Depends on core/, io/ and cube_tar. */
#include "config.h"

#include "formats/cube/cube_data.h"

#include <stdlib.h>
#include <string.h>
#define ZLIB_CONST /* next_in points at read-only input */
#include <zlib.h>

typedef unsigned long long ull;

#define INDEX_MAGIC "CUBEX.INDEX"
#define DATA_MAGIC "CUBEX.DATA"
#define ZDATA_MAGIC "ZCUBEX.DATA"

static uint32_t rd32(const uint8_t *p, bool swap)
{
	return swap ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
			      (uint32_t)p[2] << 8 | p[3]
		    : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
			      (uint32_t)p[1] << 8 | p[0];
}

static uint64_t rd64(const uint8_t *p, bool swap)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[swap ? i : 7 - i];
	return v;
}

/* A sparse index (format 1): count u32, then count tree indexes, each
 * row's, into map (tree index -> row); with `headers_only` the count
 * alone. */
static enum status read_sparse(const struct cube_container *c,
			       const struct cube_member *index,
			       uint32_t n_tree, bool headers_only,
			       struct cube_data *out, uint32_t *map,
			       struct error *err)
{
	struct span s;
	enum status st = cube_member_read(c, index, 18, 4, &s, err);
	if (st != STATUS_OK)
		return st;
	uint32_t count = rd32(s.data, out->swap);
	if (!span_count_fits(count, 4, index->size - 22))
		return error_set(err, STATUS_CORRUPT, c->name,
				 "%s: %u indexes do not fit in %llu "
				 "bytes", index->name, (unsigned)count,
				 (ull)(index->size - 22));
	if (headers_only) {
		out->n_rows = count;
		return STATUS_OK;
	}
	st = cube_member_read(c, index, 22, (uint64_t)count * 4, &s, err);
	if (st != STATUS_OK)
		return st;
	for (uint32_t r = 0; r < count; r++) {
		uint32_t t = rd32(s.data + (size_t)r * 4, out->swap);
		if (t >= n_tree || map[t] != UINT32_MAX)
			return error_set_at(
				err, STATUS_CORRUPT, c->name,
				index->offset + 22 + (uint64_t)r * 4,
				"%s: entry %u: tree index %u %s",
				index->name, (unsigned)r, (unsigned)t,
				t >= n_tree ? "is not a call node"
					    : "appears twice");
		map[t] = r;
	}
	out->n_rows = count;
	return STATUS_OK;
}

/* The data member's header: plain rows (checked to fit) or the row table
 * of a compressed one. */
static enum status read_data_header(const struct cube_container *c,
				    const struct cube_member *data,
				    struct cube_data *out, struct error *err)
{
	struct span s;
	enum status st = cube_member_read(
		c, data, 0, data->size < 19 ? data->size : 19, &s, err);
	if (st != STATUS_OK)
		return st;
	if (s.len >= 10 && memcmp(s.data, DATA_MAGIC, 10) == 0) {
		/* CubeLib reads rows by position and ignores trailing bytes */
		if (out->n_rows &&
		    !span_count_fits(out->n_rows, out->row_bytes,
				     data->size - 10))
			return error_set(err, STATUS_CORRUPT, c->name,
					 "%s: %u rows of %llu bytes do not fit "
					 "in %llu bytes (truncated?)",
					 data->name, (unsigned)out->n_rows,
					 (ull)out->row_bytes, (ull)data->size);
		return STATUS_OK;
	}
	if (s.len >= 19 && memcmp(s.data, ZDATA_MAGIC, 11) == 0) {
		out->compressed = true;
		out->n_table = rd64(s.data + 11, out->swap);
		if (!span_count_fits(out->n_table, 24, data->size - 19))
			return error_set(err, STATUS_CORRUPT, c->name,
					 "%s: a row table of %llu entries does "
					 "not fit in %llu bytes",
					 data->name, (ull)out->n_table,
					 (ull)data->size);
		out->streams = 19 + out->n_table * 24;
		return STATUS_OK;
	}
	return error_set(err, STATUS_CORRUPT, c->name,
			 "%s: not Cube data (no CUBEX.DATA or "
			 "ZCUBEX.DATA header)", data->name);
}

enum status cube_data_open(const struct cube_container *c,
			   const struct cube_member *index,
			   const struct cube_member *data, uint32_t n_tree,
			   uint32_t n_loc, uint32_t elem_size,
			   struct cube_data *out, uint32_t **row_of_tree,
			   struct error *err)
{
	memset(out, 0, sizeof(*out));
	if (row_of_tree)
		*row_of_tree = NULL;
	out->c = c;
	out->index = index;
	out->data = data;
	out->n_loc = n_loc;
	out->elem_size = elem_size;
	out->row_bytes = (uint64_t)n_loc * elem_size;
	struct span s;
	enum status st = cube_member_read(c, index, 0, 18 < index->size ? 18 : index->size, &s, err);
	if (st != STATUS_OK)
		return st;
	if (s.len < 18 || memcmp(s.data, INDEX_MAGIC, 11) != 0)
		return error_set(err, STATUS_CORRUPT, c->name,
				 "%s: not a Cube index (no CUBEX.INDEX "
				 "header)", index->name);
	uint32_t endian = rd32(s.data + 11, false);
	if (endian == 1)
		out->swap = false;
	else if (endian == 0x01000000)
		out->swap = true;
	else
		return error_set(err, STATUS_CORRUPT, c->name,
				 "%s: endianness mark 0x%08x is neither 1 nor "
				 "0x01000000", index->name, (unsigned)endian);
	uint8_t format = s.data[17];
	uint32_t *map = malloc(((size_t)(row_of_tree ? n_tree : 0) + 1) *
			       sizeof(*map));
	if (!map)
		return error_set(err, STATUS_NOMEM, c->name, "out of memory");
	memset(map, 0xff, ((size_t)(row_of_tree ? n_tree : 0) + 1) *
				  sizeof(*map));
	if (format == 3) { /* dense: every tree index, in order */
		for (uint32_t i = 0; row_of_tree && i < n_tree; i++)
			map[i] = i;
		out->n_rows = n_tree;
	} else if (format == 1) {
		st = read_sparse(c, index, n_tree, !row_of_tree, out, map,
				 err);
	} else {
		st = error_set(err, STATUS_UNSUPPORTED, c->name,
			       "%s: index format %u is not supported (1 "
			       "sparse and 3 dense are)",
			       index->name, (unsigned)format);
	}
	if (st == STATUS_OK)
		st = read_data_header(c, data, out, err);
	if (st != STATUS_OK) {
		free(map);
		return st;
	}
	if (row_of_tree)
		*row_of_tree = map;
	else
		free(map);
	return STATUS_OK;
}

enum status cube_data_row(struct cube_data *d, uint32_t row, uint8_t *buf,
			  bool *present, struct error *err)
{
	struct span s;
	enum status st;
	*present = false;
	if (row >= d->n_rows)
		return STATUS_OK;
	if (!d->compressed) {
		st = cube_member_read(d->c, d->data,
				      10 + (uint64_t)row * d->row_bytes,
				      d->row_bytes, &s, err);
		if (st != STATUS_OK)
			return st;
		memcpy(buf, s.data, d->row_bytes);
		*present = true;
		return STATUS_OK;
	}
	if (row >= d->n_table)
		return STATUS_OK;
	st = cube_member_read(d->c, d->data, 19 + (uint64_t)row * 24, 24, &s,
			      err);
	if (st != STATUS_OK)
		return st;
	uint64_t start = rd64(s.data + 8, d->swap);
	uint64_t size = rd64(s.data + 16, d->swap);
	if (size == 0)
		return STATUS_OK; /* pycubexr data_parser.py: skipped */
	uint64_t avail = d->data->size - d->streams;
	if (avail < start || size > avail - start)
		return error_set_at(err, STATUS_CORRUPT, d->c->name,
				    d->data->offset + 19 + (uint64_t)row * 24,
				    "%s: row %u: compressed block of %llu "
				    "bytes at %llu runs past the member",
				    d->data->name, (unsigned)row, (ull)size,
				    (ull)start);
	if (size > UINT32_MAX || d->row_bytes > UINT32_MAX)
		return error_set(err, STATUS_LIMIT, d->c->name,
				 "%s: row %u: block of %llu bytes",
				 d->data->name, (unsigned)row, (ull)size);
	st = cube_member_read(d->c, d->data, d->streams + start, size, &s,
			      err);
	if (st != STATUS_OK)
		return st;
	z_stream *z = d->z;
	if (!z) {
		z = calloc(1, sizeof(*z));
		if (!z || inflateInit(z) != Z_OK) {
			free(z);
			return error_set(err, STATUS_NOMEM, d->c->name,
					 "out of memory (zlib)");
		}
		d->z = z;
	} else if (inflateReset(z) != Z_OK) {
		return error_set(err, STATUS_NOMEM, d->c->name, "zlib reset");
	}
	z->next_in = (const Bytef *)s.data;
	z->avail_in = (uInt)size;
	z->next_out = buf;
	z->avail_out = (uInt)d->row_bytes;
	int zr = inflate(z, Z_FINISH);
	if (zr != Z_STREAM_END || z->avail_out != 0)
		return error_set_at(err, STATUS_CORRUPT, d->c->name,
				    d->data->offset + d->streams + start,
				    "%s: row %u: the compressed block %s",
				    d->data->name, (unsigned)row,
				    zr == Z_STREAM_END
					    ? "inflates to fewer bytes than a row"
				    : zr == Z_BUF_ERROR && z->avail_out == 0
					    ? "inflates to more bytes than a row"
					    : "is not valid zlib data");
	*present = true;
	return STATUS_OK;
}

void cube_data_close(struct cube_data *d)
{
	if (!d)
		return;
	if (d->z) {
		inflateEnd(d->z);
		free(d->z);
	}
	d->z = NULL;
}
