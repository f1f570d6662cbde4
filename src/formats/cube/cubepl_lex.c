/* cubepl_lex: the tokens of CubePL (CubeLib's CubePL1Scanner.ll): numbers,
 * "strings", ${variables}, words (keywords, function names, names with
 * ::), metric references (metric::NAME, metric::fixed::NAME,
 * metric::call::NAME, cube::metric::set::NAME / get::NAME), the one- and
 * two-character operators, and /regex/ literals when the parser asks for
 * one; // and C comments are skipped.  Every read is bounded by the source
 * length (cubepl_regex.c compiles and bounds a /regex/).  Depends on
 * libc only. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "formats/cube/cubepl_internal.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static bool is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Skip blanks and comments; false on an unterminated comment. */
static bool skip(struct cpl_lexer *lx)
{
	for (;;) {
		while (lx->pos < lx->len && is_space(lx->src[lx->pos]))
			lx->pos++;
		if (lx->len - lx->pos < 2 || lx->src[lx->pos] != '/')
			return true;
		char c = lx->src[lx->pos + 1];
		if (c == '/') {
			while (lx->pos < lx->len && lx->src[lx->pos] != '\n')
				lx->pos++;
		} else if (c == '*') {
			size_t p = lx->pos + 2;
			while (p + 1 < lx->len &&
			       !(lx->src[p] == '*' && lx->src[p + 1] == '/'))
				p++;
			if (p + 1 >= lx->len)
				return false;
			lx->pos = p + 2;
		} else {
			return true;
		}
	}
}

static bool has_prefix(const struct cpl_lexer *lx, const char *s)
{
	size_t n = strlen(s);
	return lx->len - lx->pos >= n && memcmp(lx->src + lx->pos, s, n) == 0;
}

/* A metric name: up to a blank or one of ( ) , ; { } */
static size_t name_len(const struct cpl_lexer *lx, size_t p)
{
	size_t s = p;
	while (p < lx->len && !is_space(lx->src[p]) && !strchr("(),;{}", lx->src[p]))
		p++;
	return p - s;
}

static struct cpl_token metric_token(struct cpl_lexer *lx,
				     struct cpl_token t)
{
	static const struct {
		const char *prefix;
		uint8_t kind;
		bool set_or_get;
	} forms[] = {
		{"metric::fixed::", CUBEPL_REF_FIXED, false},
		{"metric::call::", CUBEPL_REF_CALL, false},
		{"metric::", CUBEPL_REF_CONTEXT, false},
		{"cube::metric::set::", CUBEPL_REF_CONTEXT, true},
		{"cube::metric::get::", CUBEPL_REF_CONTEXT, true},
	};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		if (!has_prefix(lx, forms[i].prefix))
			continue;
		size_t p = lx->pos + strlen(forms[i].prefix);
		size_t n = name_len(lx, p);
		t.kind = TK_METRIC;
		t.text = lx->src + p;
		t.len = n;
		t.ref_kind = forms[i].kind;
		t.set_or_get = forms[i].set_or_get;
		lx->pos = p + n;
		if (n == 0) {
			t.kind = TK_ERROR;
			lx->err = "a metric reference without a name";
		}
		return t;
	}
	t.kind = TK_EOF; /* not a metric reference */
	return t;
}

static struct cpl_token number(struct cpl_lexer *lx, struct cpl_token t)
{
	size_t p = lx->pos;
	while (p < lx->len && is_digit(lx->src[p]))
		p++;
	if (p < lx->len && lx->src[p] == '.')
		for (p++; p < lx->len && is_digit(lx->src[p]); p++)
			;
	if (p < lx->len && (lx->src[p] == 'e' || lx->src[p] == 'E')) {
		size_t q = p + 1;
		if (q < lx->len && (lx->src[q] == '+' || lx->src[q] == '-'))
			q++;
		if (q < lx->len && is_digit(lx->src[q])) {
			while (q < lx->len && is_digit(lx->src[q]))
				q++;
			p = q;
		}
	}
	char buf[64];
	size_t n = p - lx->pos;
	t.kind = TK_NUM;
	t.text = lx->src + lx->pos;
	t.len = n;
	if (n >= sizeof(buf)) {
		t.kind = TK_ERROR;
		lx->err = "a number of more than 63 characters";
		return t;
	}
	memcpy(buf, t.text, n);
	buf[n] = '\0';
	t.num = strtod(buf, NULL);
	lx->pos = p;
	return t;
}

/* "text" or ${name}: up to the closing character, on one line or not. */
static struct cpl_token delimited(struct cpl_lexer *lx, struct cpl_token t,
				  size_t open, char close, enum cpl_tok kind)
{
	size_t p = lx->pos + open;
	while (p < lx->len && lx->src[p] != close)
		p++;
	if (p >= lx->len) {
		t.kind = TK_ERROR;
		lx->err = close == '"' ? "an unterminated string"
				       : "an unterminated ${variable}";
		lx->pos = lx->len;
		return t;
	}
	t.kind = kind;
	t.text = lx->src + lx->pos + open;
	t.len = p - (lx->pos + open);
	lx->pos = p + 1;
	if (kind == TK_VAR && t.len == 0) {
		t.kind = TK_ERROR;
		lx->err = "an empty ${}";
	}
	return t;
}

struct cpl_token cpl_lex_next(struct cpl_lexer *lx)
{
	struct cpl_token t = {.kind = TK_EOF};
	if (!skip(lx)) {
		t.kind = TK_ERROR;
		t.off = lx->pos;
		lx->err = "an unterminated comment";
		return t;
	}
	t.off = lx->pos;
	t.text = lx->src + lx->pos;
	if (lx->pos >= lx->len)
		return t;
	char c = lx->src[lx->pos];
	if (c == 'm' || c == 'c') {
		struct cpl_token m = metric_token(lx, t);
		if (m.kind != TK_EOF)
			return m;
	}
	if (is_digit(c) || (c == '.' && lx->pos + 1 < lx->len &&
			    is_digit(lx->src[lx->pos + 1])))
		return number(lx, t);
	if (c == '"')
		return delimited(lx, t, 1, '"', TK_STR);
	if (c == '$' && lx->pos + 1 < lx->len && lx->src[lx->pos + 1] == '{')
		return delimited(lx, t, 2, '}', TK_VAR);
	if (is_word(c)) {
		size_t p = lx->pos;
		while (p < lx->len) {
			if (is_word(lx->src[p]))
				p++;
			else if (lx->len - p >= 3 && lx->src[p] == ':' &&
				 lx->src[p + 1] == ':' &&
				 (is_word(lx->src[p + 2]) || lx->src[p + 2] == '#'))
				p += 3;
			else
				break;
		}
		t.kind = TK_WORD;
		t.len = p - lx->pos;
		lx->pos = p;
		return t;
	}
	static const char *const two[] = {"==", "!=", "<=", ">=", "=~"};
	for (size_t i = 0; i < sizeof(two) / sizeof(two[0]); i++)
		if (has_prefix(lx, two[i])) {
			t.kind = TK_OP2;
			t.len = 2;
			lx->pos += 2;
			return t;
		}
	if (strchr("(){}[],;+-*/^|=<>", c)) {
		t.kind = TK_PUNCT;
		t.len = 1;
		lx->pos++;
		return t;
	}
	t.kind = TK_ERROR;
	t.len = 1;
	lx->err = "an unexpected character";
	return t;
}

bool cpl_lex_regex(struct cpl_lexer *lx, struct cpl_token *out)
{
	if (!skip(lx) || lx->pos >= lx->len || lx->src[lx->pos] != '/')
		return false;
	size_t p = lx->pos + 1;
	while (p < lx->len && lx->src[p] != '/') {
		if (lx->src[p] == '\\' && p + 1 < lx->len)
			p++;
		p++;
	}
	if (p >= lx->len)
		return false;
	*out = (struct cpl_token){.kind = TK_STR,
				  .text = lx->src + lx->pos + 1,
				  .len = p - lx->pos - 1,
				  .off = lx->pos};
	lx->pos = p + 1;
	return true;
}
