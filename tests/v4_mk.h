/* v4_mk: byte-level builders of small HPCToolkit v4 files for the v4
 * tests, written from the FORMATS.md tables independently of the reader.
 * Header-only, test code. */
#ifndef CALLSCOPE_TESTS_V4_MK_H
#define CALLSCOPE_TESTS_V4_MK_H

#include <stdint.h>
#include <string.h>

struct mk {
	uint8_t buf[8192];
	size_t len;
};

static inline void mk_p8(struct mk *m, size_t off, uint8_t v)
{
	m->buf[off] = v;
}

static inline void mk_p16(struct mk *m, size_t off, uint16_t v)
{
	for (int i = 0; i < 2; i++)
		m->buf[off + i] = (uint8_t)(v >> (8 * i));
}

static inline void mk_p32(struct mk *m, size_t off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		m->buf[off + i] = (uint8_t)(v >> (8 * i));
}

static inline void mk_p64(struct mk *m, size_t off, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		m->buf[off + i] = (uint8_t)(v >> (8 * i));
}

static inline void mk_f64(struct mk *m, size_t off, double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof(v));
	mk_p64(m, off, v);
}

/* Reserve n zeroed bytes at the next multiple of `align`. */
static inline size_t mk_alloc(struct mk *m, size_t n, size_t align)
{
	while (m->len % align)
		m->buf[m->len++] = 0;
	size_t off = m->len;
	memset(m->buf + off, 0, n);
	m->len += n;
	return off;
}

static inline size_t mk_str(struct mk *m, const char *s)
{
	size_t off = mk_alloc(m, strlen(s) + 1, 1);
	memcpy(m->buf + off, s, strlen(s) + 1);
	return off;
}

/* Common file header with `n` sections (filled by mk_section). */
static inline void mk_header(struct mk *m, const char *format, uint8_t major,
			     uint8_t minor, unsigned n)
{
	m->len = 0;
	mk_alloc(m, 0x10 + 16 * n, 8);
	memcpy(m->buf, "HPCTOOLKIT", 10);
	memcpy(m->buf + 10, format, 4);
	m->buf[14] = major;
	m->buf[15] = minor;
}

/* Section `i` (0-based) spans [start, m->len). */
static inline void mk_section(struct mk *m, unsigned i, size_t start)
{
	mk_p64(m, 0x10 + 16 * i, m->len - start);
	mk_p64(m, 0x18 + 16 * i, start);
}

static inline void mk_footer(struct mk *m, const char *footer)
{
	size_t off = mk_alloc(m, 8, 8);
	memcpy(m->buf + off, footer, 8);
}

#endif
