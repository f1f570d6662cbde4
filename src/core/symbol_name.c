/* symbol_name: the short form of a C or C++ symbol (see the header).
 * Works backwards from the end: trailing " const", the parameter list,
 * template arguments, then the identifier before them. */
#include "config.h"

#include "core/symbol_name.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The identifier ending at `end` in s[0, end) (its start). */
static size_t ident_start(const char *s, size_t end)
{
	size_t b = end;
	while (b > 0 && (s[b - 1] == '_' || s[b - 1] == '~' ||
			 (s[b - 1] >= '0' && s[b - 1] <= '9') ||
			 (s[b - 1] >= 'a' && s[b - 1] <= 'z') ||
			 (s[b - 1] >= 'A' && s[b - 1] <= 'Z')))
		b--;
	return b;
}

/* Where the bracketed group ending at s[end - 1] (`close`) opens, or
 * SIZE_MAX when it does not. */
static size_t group_open(const char *s, size_t end, char open, char close)
{
	int depth = 0;
	for (size_t i = end; i-- > 0;) {
		if (s[i] == close)
			depth++;
		else if (s[i] == open && --depth == 0)
			return i;
	}
	return SIZE_MAX;
}

void symbol_base_name(const char *name, char *out, size_t size)
{
	size_t end = strlen(name);
	/* trailing qualifiers of a member function: " const" */
	while (end > 0 && name[end - 1] == ' ')
		end--;
	if (end >= 6 && memcmp(name + end - 6, " const", 6) == 0)
		end -= 6;
	if (end > 0 && name[end - 1] == ')') {
		size_t o = group_open(name, end, '(', ')');
		if (o != SIZE_MAX)
			end = o;
	}
	while (end > 0 && name[end - 1] == ' ')
		end--;
	if (end > 0 && name[end - 1] == '>') {
		size_t o = group_open(name, end, '<', '>');
		if (o != SIZE_MAX)
			end = o;
	}
	size_t b = ident_start(name, end);
	if (b == end) { /* not a C++ name: as it is */
		snprintf(out, size, "%s", name);
		return;
	}
	snprintf(out, size, "%.*s", (int)(end - b), name + b);
}

