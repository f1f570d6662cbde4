/* diff_key: the normalisation of frame names and paths for comparing
 * runs (rules in diff_key.h and doc/compare.md). */
#include "config.h"

#include "compare/diff_key.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_hex(char c)
{
	return isxdigit((unsigned char)c) != 0;
}

static bool is_word(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Length of the run of decimal digits at `s`. */
static size_t digits(const char *s)
{
	size_t n = 0;
	while (is_digit(s[n]))
		n++;
	return n;
}

/* Whether the text before `p` (within [start, p)) ends with `word`. */
static bool ends_with(const char *start, const char *p, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(p - start) >= n && memcmp(p - n, word, n) == 0;
}

char *diff_key_name(const char *name)
{
	if (!name)
		name = "";
	size_t len = strlen(name);
	/* every rule replaces text by text no longer than it but for
	 * "0x?" (3 bytes for at least 3) and "N" (1 for at least 1) */
	char *out = malloc(len + 1);
	if (!out)
		return NULL;
	const char *p = name;
	char *o = out;
	while (*p) {
		/* 0x<hex digits>, not inside a word */
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
		    is_hex(p[2]) && (p == name || !is_word(p[-1]))) {
			p += 2;
			while (is_hex(*p))
				p++;
			memcpy(o, "0x?", 3);
			o += 3;
			continue;
		}
		/* #<digits>: {lambda()#3}, {unnamed type#2} */
		if (p[0] == '#' && is_digit(p[1])) {
			p += 1 + digits(p + 1);
			*o++ = '#';
			*o++ = 'N';
			continue;
		}
		/* clang: $_<digits>, 'lambda<digits>' */
		if (p[0] == '$' && p[1] == '_' && is_digit(p[2])) {
			p += 2 + digits(p + 2);
			memcpy(o, "$_N", 3);
			o += 3;
			continue;
		}
		if (is_digit(p[0]) && ends_with(name, p, "'lambda")) {
			p += digits(p);
			*o++ = 'N';
			continue;
		}
		/* .<digits> after a word (a clone or outlined part's
		 * number), ending the name or before another '.', '(' or
		 * ' ' */
		if (p[0] == '.' && is_digit(p[1]) && p > name &&
		    (is_word(p[-1])) && !is_digit(p[-1])) {
			size_t n = digits(p + 1);
			char next = p[1 + n];
			if (next == '\0' || next == '.' || next == '(' ||
			    next == ' ') {
				p += 1 + n;
				*o++ = '.';
				*o++ = 'N';
				continue;
			}
		}
		*o++ = *p++;
	}
	*o = '\0';
	return out;
}

char *diff_key_entry(const char *name)
{
	static const char *const words[] = {"pid ", "tid ", "thread ",
					    "process "};
	char *s = diff_key_name(name);
	if (!s)
		return NULL;
	char *o = s;
	for (const char *p = s; *p;) {
		bool done = false;
		for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
			size_t n = strlen(words[w]);
			if ((p == s || !is_word(p[-1])) &&
			    strncmp(p, words[w], n) == 0 && is_digit(p[n])) {
				memmove(o, p, n);
				o += n;
				p += n + digits(p + n);
				*o++ = 'N';
				done = true;
				break;
			}
		}
		if (!done)
			*o++ = *p++;
	}
	*o = '\0';
	return s;
}

const char *diff_key_base(const char *path)
{
	if (!path)
		return "";
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}
