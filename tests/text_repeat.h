/* text_repeat: the long inputs of the parser tests (tests/test-cubepl.c,
 * tests/test-formula.c): a text made of one piece repeated, a middle and
 * another piece repeated, as deep nesting or a long chain of operators
 * is written.  Include after <cmocka.h>. */
#ifndef CALLSCOPE_TESTS_TEXT_REPEAT_H
#define CALLSCOPE_TESTS_TEXT_REPEAT_H

#include <stdlib.h>
#include <string.h>

/* `head` n times, `mid`, `tail` m times (heap, NUL-terminated; the test
 * fails when it cannot be allocated). */
static inline char *text_repeat(const char *head, size_t n, const char *mid,
				const char *tail, size_t m)
{
	size_t hl = strlen(head), ml = strlen(mid), tl = strlen(tail);
	char *s = malloc(hl * n + ml + tl * m + 1), *p = s;
	assert_non_null(s);
	for (size_t i = 0; i < n; i++, p += hl)
		memcpy(p, head, hl);
	memcpy(p, mid, ml);
	p += ml;
	for (size_t i = 0; i < m; i++, p += tl)
		memcpy(p, tail, tl);
	*p = '\0';
	return s;
}

#endif
