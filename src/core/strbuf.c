/* strbuf: a growing string with a sticky failure (see the header). */
#include "config.h"

#include "core/strbuf.h"
#include "core/check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_addn(struct strbuf *b, const char *p, size_t n)
{
	CHECK(p != NULL || n == 0);
	if (b->failed)
		return;
	/* a buffer is empty and unallocated, or NUL-terminated inside */
	CHECK(b->s ? b->len < b->cap && b->s[b->len] == '\0'
		   : b->len == 0 && b->cap == 0);
	if (n > (size_t)-1 / 2 - b->len - 1) {
		b->failed = true;
		return;
	}
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (b->len + n + 1 > cap)
			cap *= 2;
		char *g = realloc(b->s, cap);
		if (!g) {
			b->failed = true;
			return;
		}
		b->s = g;
		b->cap = cap;
	}
	if (n) /* p may be NULL then, and memcpy's must not be */
		memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void strbuf_add(struct strbuf *b, const char *s)
{
	strbuf_addn(b, s, strlen(s));
}

void strbuf_addf(struct strbuf *b, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = true;
		return;
	}
	strbuf_addn(b, s, (size_t)n);
	free(s);
}

char *strbuf_take(struct strbuf *b)
{
	if (!b->failed && !b->s)
		strbuf_addn(b, "", 0);
	char *out = b->failed ? NULL : b->s;
	if (b->failed)
		free(b->s);
	*b = (struct strbuf){0};
	return out;
}
