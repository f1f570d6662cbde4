/* config_words: the words of a configuration line: tokens (blanks,
 * quotes, comments), the raw rest of a line (a formula), the names an
 * option, keymap or theme may have, colours and attributes.  Must not
 * depend on curses or on ui/. */
#include "config.h"

#include "config/config_internal.h"
#include "core/array.h"

#include <stdlib.h>
#include <string.h>

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' ||
	       ch == '\f';
}

/* Option, keymap and derived-column names: [A-Za-z0-9_.-], not empty,
 * at most CONFIG_NAME_MAX bytes. */
bool config_valid_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > CONFIG_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' ||
		      ch == '.'))
			return false;
	}
	return true;
}

/* Theme names are file names without ".theme": a valid name that does not
 * start with '.' (so never "..", never a path). */
bool config_valid_theme_name(const char *s)
{
	return s && config_valid_name(s) && s[0] != '.';
}

/* The quoted part at `p` (at its opening quote): just past the closing
 * quote, or NULL when there is none.  With `tok`, the content is appended
 * at tok[*n], with \" and \\ unescaped inside "...". */
static const char *scan_quoted(const char *p, char *tok, size_t *n)
{
	char q = *p++;
	while (*p && *p != q) {
		if (q == '"' && *p == '\\' && (p[1] == '"' || p[1] == '\\'))
			p++;
		if (tok)
			tok[(*n)++] = *p;
		p++;
	}
	return *p == q ? p + 1 : NULL;
}

enum lex config_lex_token(const char **pos, bool split_eq, char **out)
{
	const char *p = *pos;
	while (is_blank(*p))
		p++;
	if (*p == '\0' || *p == '#') {
		*pos = p;
		return LEX_END;
	}
	char *tok = malloc(strlen(p) + 1);
	if (!tok)
		return LEX_NOMEM;
	size_t n = 0;
	if (split_eq && *p == '=') {
		tok[n++] = *p++;
	} else {
		while (*p && !is_blank(*p) && *p != '#' &&
		       !(split_eq && *p == '=')) {
			char q = *p;
			if (q != '"' && q != '\'') {
				tok[n++] = *p++;
				continue;
			}
			const char *end = scan_quoted(p, tok, &n);
			if (!end) {
				free(tok);
				*pos = p + strlen(p);
				return LEX_UNTERMINATED;
			}
			p = end;
		}
	}
	tok[n] = '\0';
	*pos = p;
	*out = tok;
	return LEX_TOKEN;
}

void config_tokens_free(struct tokens *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i]);
	FREE_AND_NULL(t->v);
	t->n = 0;
}

enum lex config_lex_all(const char **pos, bool split_eq, struct tokens *t)
{
	for (;;) {
		char *tok = NULL;
		enum lex l = config_lex_token(pos, split_eq, &tok);
		if (l != LEX_TOKEN)
			return l;
		char **v = config_grow(t->v, t->n, sizeof(*t->v));
		if (!v) {
			free(tok);
			return LEX_NOMEM;
		}
		t->v = v;
		t->v[t->n++] = tok;
	}
}

/* The tokens v[from..n) joined by single spaces (a heap string, "" when
 * there are none), or NULL when out of memory. */
char *config_tokens_join(const struct tokens *t, size_t from)
{
	size_t len = 1;
	for (size_t i = from; i < t->n; i++)
		len += strlen(t->v[i]) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	size_t n = 0;
	for (size_t i = from; i < t->n; i++) {
		if (i > from)
			s[n++] = ' ';
		size_t k = strlen(t->v[i]);
		memcpy(s + n, t->v[i], k);
		n += k;
	}
	s[n] = '\0';
	return s;
}

/* The raw rest of a line: up to a `#` outside quotes, blanks trimmed.
 * Returns LEX_TOKEN with a heap string, LEX_UNTERMINATED or LEX_NOMEM. */
enum lex config_lex_raw_rest(const char *p, char **out)
{
	while (is_blank(*p))
		p++;
	const char *end = p;
	while (*end && *end != '#') {
		if (*end != '"' && *end != '\'') {
			end++;
			continue;
		}
		end = scan_quoted(end, NULL, NULL);
		if (!end)
			return LEX_UNTERMINATED;
	}
	while (end > p && is_blank(end[-1]))
		end--;
	char *s = strndup(p, (size_t)(end - p));
	if (!s)
		return LEX_NOMEM;
	*out = s;
	return LEX_TOKEN;
}

/* ---- colours ---------------------------------------------------------- */

static const char *const basic_colors[8] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

static const struct {
	const char *name;
	unsigned bit;
} attr_names[] = {
	{.name = "normal", .bit = 0},
	{.name = "bold", .bit = CONFIG_ATTR_BOLD},
	{.name = "reverse", .bit = CONFIG_ATTR_REVERSE},
	{.name = "underline", .bit = CONFIG_ATTR_UNDERLINE},
	{.name = "dim", .bit = CONFIG_ATTR_DIM},
	{.name = "standout", .bit = CONFIG_ATTR_STANDOUT},
	{.name = "italic", .bit = CONFIG_ATTR_ITALIC},
	{.name = "blink", .bit = CONFIG_ATTR_BLINK},
};

/* 0-255 written as 1-3 decimal digits. */
static bool parse_color_number(const char *s, int *out)
{
	size_t n = strlen(s);
	if (n == 0 || n > 3)
		return false;
	int v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v > 255)
		return false;
	*out = v;
	return true;
}

bool config_parse_color(const char *s, struct config_color_value *out)
{
	int index;
	if (strcmp(s, "default") == 0) {
		*out = (struct config_color_value){.kind = CONFIG_COLOR_DEFAULT};
		return true;
	}
	const char *base = s;
	int offset = 0;
	if (strncmp(s, "bright-", 7) == 0) {
		base = s + 7;
		offset = 8;
	}
	for (int i = 0; i < 8; i++) {
		if (strcmp(base, basic_colors[i]) == 0) {
			*out = (struct config_color_value){
				.kind = CONFIG_COLOR_INDEX,
				.index = i + offset,
			};
			return true;
		}
	}
	if (strncmp(s, "color", 5) == 0)
		s += 5;
	if (!parse_color_number(s, &index))
		return false;
	*out = (struct config_color_value){.kind = CONFIG_COLOR_INDEX,
					   .index = index};
	return true;
}

bool config_parse_attr(const char *s, unsigned *bits)
{
	for (size_t i = 0; i < sizeof(attr_names) / sizeof(attr_names[0]);
	     i++) {
		if (strcmp(s, attr_names[i].name) == 0) {
			*bits |= attr_names[i].bit;
			return true;
		}
	}
	return false;
}
