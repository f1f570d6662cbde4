/* extrap3_io: checked reads of an Extra-P 3 file for extrap3.c: a cursor
 * over the mapped file in the file's byte order (fields decoded byte by
 * byte, strings as u32 length + bytes, counts checked against the bytes
 * left), the first failure kept as an error naming the byte offset; and
 * id -> index tables.  Must not depend on curses, on ui/ or on another
 * format. */
#ifndef CALLSCOPE_EXTRAP3_IO_H
#define CALLSCOPE_EXTRAP3_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/span.h"
#include "core/status.h"

struct cur {
	struct span s;
	uint64_t off;
	bool le;
	const char *path;
	struct error *err;
	bool failed;
};

/* An id table: id -> index, a sorted array searched by bisection. */
struct idmap {
	int64_t *id;
	uint32_t *val;
	size_t n, cap;
};

/* Record `what` at the cursor's offset as the error (the first failure
 * only); returns false. */
bool x3_fail(struct cur *c, const char *what);
/* 8-byte fields in the file's order; false (and x3_fail) when truncated. */
bool x3_u64(struct cur *c, uint64_t *out);
bool x3_i64(struct cur *c, int64_t *out);
bool x3_f64(struct cur *c, double *out);
/* A u32-length string inside the file (not NUL-terminated); "" at the
 * very end of the file (Extra-P's end of records). */
bool x3_str(struct cur *c, const char **s, size_t *len);
/* Whether the `len` bytes at `s` are `lit`. */
bool x3_str_is(const char *s, size_t len, const char *lit);
/* An int64 count of items of at least `min` bytes each, no more than the
 * bytes left could hold. */
bool x3_count(struct cur *c, uint64_t min, uint64_t *out);
/* Set / find id's index; put is false when out of memory. */
bool x3_idmap_put(struct idmap *m, int64_t id, uint32_t val);
bool x3_idmap_get(const struct idmap *m, int64_t id, uint32_t *val);

#endif
