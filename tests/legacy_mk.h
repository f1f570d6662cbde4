/* legacy_mk: byte-level builders of small pre-v4 HPCToolkit binaries
 * (metric-db, mdb, hpctrace, mt, the 2020 sparse profile.db / cct.db /
 * trace.db) for the legacy tests, written from the layout tables in
 * doc/hpctoolkit-legacy-binaries.md independently of the readers.  All
 * big-endian.  Header-only, test code. */
#ifndef CALLSCOPE_TESTS_LEGACY_MK_H
#define CALLSCOPE_TESTS_LEGACY_MK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/blob.h"

struct lmk {
	uint8_t *buf;
	size_t len, cap;
};

static inline void lmk_reserve(struct lmk *m, size_t n)
{
	if (m->len + n <= m->cap)
		return;
	size_t cap = m->cap ? m->cap : 256;
	while (cap < m->len + n)
		cap *= 2;
	m->buf = realloc(m->buf, cap);
	if (!m->buf)
		abort();
	m->cap = cap;
}

static inline void lmk_bytes(struct lmk *m, const void *p, size_t n)
{
	lmk_reserve(m, n);
	memcpy(m->buf + m->len, p, n);
	m->len += n;
}

static inline void lmk_str(struct lmk *m, const char *s)
{
	lmk_bytes(m, s, strlen(s));
}

static inline void lmk_put(struct lmk *m, size_t off, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		m->buf[off + (size_t)i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

static inline void lmk_be(struct lmk *m, uint64_t v, int n)
{
	lmk_reserve(m, (size_t)n);
	m->len += (size_t)n;
	lmk_put(m, m->len - (size_t)n, v, n);
}

static inline void lmk_u16(struct lmk *m, uint16_t v) { lmk_be(m, v, 2); }
static inline void lmk_u32(struct lmk *m, uint32_t v) { lmk_be(m, v, 4); }
static inline void lmk_u64(struct lmk *m, uint64_t v) { lmk_be(m, v, 8); }

static inline void lmk_f64(struct lmk *m, double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof(v));
	lmk_u64(m, v);
}

static inline void lmk_free(struct lmk *m)
{
	free(m->buf);
	memset(m, 0, sizeof(*m));
}

/* A memory blob named `name` over m's bytes (which must outlive it). */
static inline struct blob *lmk_blob(const struct lmk *m, const char *name)
{
	struct blob *b = NULL;
	if (blob_open_memory(m->buf, m->len, name, &b, NULL) != STATUS_OK)
		abort();
	return b;
}

static inline void lmk_write(const struct lmk *m, const char *path)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(m->buf, 1, m->len, f) != m->len || fclose(f) != 0)
		abort();
}

/* The value the metric-db fixtures hold for (profile, context id, metric):
 * every third cell is zero (absent). */
static inline double lmk_value(uint32_t p, uint32_t ctx, uint32_t m)
{
	if ((ctx + m + p) % 3 == 0)
		return 0;
	return (double)(p + 1) * 1000 + ctx * 10 + m + 0.25;
}

/* A metric-db file: header, then rows for context ids 1..nodes. */
static inline void lmk_metricdb(struct lmk *m, uint32_t p, uint32_t nodes,
				uint32_t metrics)
{
	lmk_str(m, "HPCPROF-metricdb__00.10b");
	lmk_u32(m, nodes);
	lmk_u32(m, metrics);
	for (uint32_t c = 1; c <= nodes; c++)
		for (uint32_t k = 0; k < metrics; k++)
			lmk_f64(m, lmk_value(p, c, k));
}

/* Merged-file table: type, count, then count zeroed entries; returns the
 * offset of entry 0 for lmk_table_set. */
static inline size_t lmk_table(struct lmk *m, uint32_t type, uint32_t n)
{
	lmk_u32(m, type);
	lmk_u32(m, n);
	size_t at = m->len;
	for (uint32_t i = 0; i < n; i++) {
		lmk_u64(m, 0);
		lmk_u64(m, 0);
	}
	return at;
}

static inline void lmk_table_set(struct lmk *m, size_t at, uint32_t i,
				 uint32_t rank, uint32_t thread, uint64_t off)
{
	lmk_put(m, at + 16 * i, rank, 4);
	lmk_put(m, at + 16 * i + 4, thread, 4);
	lmk_put(m, at + 16 * i + 8, off, 8);
}

static inline void lmk_end_marker(struct lmk *m)
{
	lmk_u64(m, 0xFFFFFFFFDEADF00Dull);
}

/* An hpctrace header; `flags` only for version "01.01". */
static inline void lmk_hpctrace(struct lmk *m, const char *version,
				uint64_t flags)
{
	lmk_str(m, "HPCRUN-trace______");
	lmk_str(m, version);
	lmk_str(m, "b");
	if (!strcmp(version, "01.01"))
		lmk_u64(m, flags);
}

static inline void lmk_sample(struct lmk *m, uint64_t time, uint32_t ctx)
{
	lmk_u64(m, time);
	lmk_u32(m, ctx);
}

#endif
