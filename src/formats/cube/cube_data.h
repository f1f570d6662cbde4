/* cube_data: one stored metric's N.index and N.data members, read
 * lazily: the index when the metric is first needed, each row (one call
 * node's values for every location) when asked, inflating it when the
 * data is ZCUBEX (one zlib stream per row).  Layout: pycubexr
 * docs/cube_file_format.md and CubeLib CubeIndexHeader / ROZRowsSupplier
 * (doc/cube.md).  Depends on core/ and io/ (through cube_tar). */
#ifndef CALLSCOPE_CUBE_DATA_H
#define CALLSCOPE_CUBE_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "formats/cube/cube_tar.h"

struct cube_data {
	const struct cube_container *c;
	const struct cube_member *index, *data;
	bool swap;          /* the file's byte order is not little-endian */
	bool compressed;    /* ZCUBEX.DATA */
	uint32_t n_rows;    /* rows the index lists */
	uint32_t n_loc;
	uint32_t elem_size;
	uint64_t row_bytes; /* n_loc * elem_size */
	uint64_t n_table;   /* compressed: entries of the row table */
	uint64_t streams;   /* compressed: where the zlib streams start */
	void *z;            /* inflate state, made on first use */
};

/* Read the index of member `index` (tree indexes < n_tree) and check the
 * data member's header and size against it.  *row_of_tree (malloc'd,
 * n_tree entries) gets, per tree index, the row holding it or
 * UINT32_MAX.  A dense index lists every tree index in order.  With
 * row_of_tree NULL, only the headers and sizes are checked (at open: the
 * entries are read when the metric is first needed). */
enum status cube_data_open(const struct cube_container *c,
			   const struct cube_member *index,
			   const struct cube_member *data, uint32_t n_tree,
			   uint32_t n_loc, uint32_t elem_size,
			   struct cube_data *out, uint32_t **row_of_tree,
			   struct error *err);

/* Row `row` (< n_rows) into `buf` (row_bytes), in the file's byte order.
 * *present false when the row holds no data (a compressed row of size 0,
 * a row past a short table). */
enum status cube_data_row(struct cube_data *d, uint32_t row, uint8_t *buf,
			  bool *present, struct error *err);

void cube_data_close(struct cube_data *d);

#endif
