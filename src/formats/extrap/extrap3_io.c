/* extrap3_io: the checked reads behind extrap3.c (see extrap3_io.h):
 * every read tests the span first (core/span.h), integers and doubles are
 * decoded byte by byte for the file's byte order.  Must not depend on
 * curses, on ui/ or on another format. */
#include "config.h"

#include "formats/extrap/extrap3_io.h"
#include "core/array.h"

#include <stdlib.h>
#include <string.h>

bool x3_fail(struct cur *c, const char *what)
{
	if (!c->failed)
		error_set_at(c->err, STATUS_CORRUPT, c->path, c->off,
			     "Extra-P 3 experiment: %s", what);
	c->failed = true;
	return false;
}

bool x3_u64(struct cur *c, uint64_t *out)
{
	uint8_t b[8];
	if (!span_has(c->s, c->off, 8))
		return x3_fail(c, "truncated (an 8-byte field)");
	memcpy(b, c->s.data + c->off, 8);
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)b[c->le ? i : 7 - i] << (8 * i);
	c->off += 8;
	*out = v;
	return true;
}

bool x3_i64(struct cur *c, int64_t *out)
{
	uint64_t v;
	if (!x3_u64(c, &v))
		return false;
	memcpy(out, &v, sizeof(v));
	return true;
}

bool x3_f64(struct cur *c, double *out)
{
	uint64_t v;
	if (!x3_u64(c, &v))
		return false;
	memcpy(out, &v, sizeof(v));
	return true;
}

/* A string; at the very end of the file "" (Extra-P's end of records). */
bool x3_str(struct cur *c, const char **s, size_t *len)
{
	*s = "";
	*len = 0;
	if (c->off == c->s.len)
		return true;
	if (!span_has(c->s, c->off, 4))
		return x3_fail(c, "truncated (a string length)");
	const uint8_t *p = c->s.data + c->off;
	uint32_t n = c->le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 |
				     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
			   : (uint32_t)p[3] | (uint32_t)p[2] << 8 |
				     (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
	if (!span_has(c->s, c->off + 4, n))
		return x3_fail(c, "a string longer than the rest of the file");
	*s = (const char *)c->s.data + c->off + 4;
	*len = n;
	c->off += 4 + (uint64_t)n;
	return true;
}

bool x3_str_is(const char *s, size_t len, const char *lit)
{
	return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

/* A count of items of at least `min` bytes each, checked against the
 * bytes left. */
bool x3_count(struct cur *c, uint64_t min, uint64_t *out)
{
	int64_t n;
	if (!x3_i64(c, &n))
		return false;
	if (n < 0 || (uint64_t)n > (c->s.len - c->off) / (min ? min : 1))
		return x3_fail(c, "a count larger than the rest of the file");
	*out = (uint64_t)n;
	return true;
}


static bool id_below(const void *elem, const void *key)
{
	return *(const int64_t *)elem < *(const int64_t *)key;
}

bool x3_idmap_put(struct idmap *m, int64_t id, uint32_t val)
{
	size_t lo = array_lower_bound(m->id, m->n, sizeof(*m->id), id_below,
				      &id);
	if (lo < m->n && m->id[lo] == id) {
		m->val[lo] = val;
		return true;
	}
	void **const arrays[] = {(void **)&m->id, (void **)&m->val};
	const size_t sizes[] = {sizeof(*m->id), sizeof(*m->val)};
	if (!array_grow_each(&m->cap, m->n + 1, 2, arrays, sizes))
		return false;
	memmove(m->id + lo + 1, m->id + lo, (m->n - lo) * sizeof(*m->id));
	memmove(m->val + lo + 1, m->val + lo, (m->n - lo) * sizeof(*m->val));
	m->id[lo] = id;
	m->val[lo] = val;
	m->n++;
	return true;
}

bool x3_idmap_get(const struct idmap *m, int64_t id, uint32_t *val)
{
	size_t i =
	    array_lower_bound(m->id, m->n, sizeof(*m->id), id_below, &id);
	if (i == m->n || m->id[i] != id)
		return false;
	*val = m->val[i];
	return true;
}
