/* strbuf: a growing NUL-terminated string whose allocation failure is
 * sticky (git's strbuf, without the die): append freely, then take the
 * result once, NULL when any append ran out of memory.  libc only. */
#ifndef CALLSCOPE_CORE_STRBUF_H
#define CALLSCOPE_CORE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *s;	/* NULL until the first append */
	size_t len, cap;
	bool failed;	/* an append ran out of memory: `s` is incomplete */
};

/* Append the N bytes at P (which need not be terminated). */
void strbuf_addn(struct strbuf *b, const char *p, size_t n);

/* Append the string S. */
void strbuf_add(struct strbuf *b, const char *s);

/* Append the text printed from FMT (a sprintf into a computed buffer,
 * without the computing). */
void strbuf_addf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The string (the caller frees; "" when nothing was appended), or NULL
 * when an append failed (the buffer is freed then).  `b` is empty after. */
char *strbuf_take(struct strbuf *b);

#endif
