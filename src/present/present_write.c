/* present_write: safe text, CSV and JSON writers shared by the batch
 * commands and the viewer's exports; numbers in them as the shortest text
 * that reads back as the same double, in the C locale's notation.  No
 * curses here. */
#include "config.h"

#include "present/present_write.h"

#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/sanitize.h"
#include "present/present_write_number.h"

void present_put_text(FILE *out, const char *s)
{
	char *safe = sanitize_text(s, SANITIZE_TERMINAL);
	fputs(safe ? safe : "?", out);
	free(safe);
}

void present_put_csv(FILE *out, const char *s)
{
	char *safe = sanitize_text(s, SANITIZE_TERMINAL);
	const char *p = safe ? safe : "?";
	if (strpbrk(p, ",\"\n\r") == NULL && *p != ' ') {
		fputs(p, out);
	} else {
		fputc('"', out);
		for (; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	}
	free(safe);
}

/* The C locale for numbers (the viewer runs under the user's LC_ALL,
 * where printf may write a decimal comma); (locale_t)0 when unavailable. */
static locale_t c_numeric;
static pthread_once_t c_numeric_once = PTHREAD_ONCE_INIT;

static void c_numeric_init(void)
{
	c_numeric = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

/* snprintf's "%.*g" of `v` for the smallest precision from `digits` to 17
 * that strtod reads back as `v`, in the C locale. */
static size_t number_text_printf(double v, int digits, char *buf, size_t size)
{
	pthread_once(&c_numeric_once, c_numeric_init);
	locale_t old = c_numeric ? uselocale(c_numeric) : (locale_t)0;
	int n = 0;
	for (; digits <= 17; digits++) {
		n = snprintf(buf, size, "%.*g", digits, v);
		if (!isfinite(v) || (n > 0 && (size_t)n < size &&
				     strtod(buf, NULL) == v))
			break;
	}
	if (c_numeric)
		uselocale(old);
	if (n < 0) {
		buf[0] = '\0';
		return 0;
	}
	return (size_t)n < size ? (size_t)n : size - 1;
}

size_t present_number_text(double v, char *buf, size_t size)
{
	if (!buf || size == 0)
		return 0;
	char fast[32];
	size_t n;
	if (present_number_fast(v, 15, fast, &n) && n < size) {
		memcpy(buf, fast, n + 1);
		return n;
	}
	return number_text_printf(v, 15, buf, size);
}

void present_put_number(FILE *out, double v)
{
	char buf[32];
	present_number_text(v, buf, sizeof(buf));
	fputs(buf, out);
}

/* %g text of `n` bytes in `buf` (of `size`) as jansson writes a real:
 * ".0" after an integral value, the exponent without '+' and leading
 * zeros (1e20, 1e-5). */
static size_t json_real_form(char *buf, size_t n, size_t size)
{
	if (!memchr(buf, '.', n) && !memchr(buf, 'e', n) && n + 3 <= size) {
		memcpy(buf + n, ".0", 3);
		n += 2;
	}
	char *e = memchr(buf, 'e', n);
	if (e) {
		char *start = e + 1, *end = e + 2;
		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start) {
			memmove(start, end, strlen(end) + 1);
			n -= (size_t)(end - start);
		}
	}
	return n;
}

/* A real in json_real_form from present_number_text. */
static size_t json_real_text(double v, char *buf, size_t size)
{
	return json_real_form(buf, present_number_text(v, buf, size), size);
}

size_t present_json_real_text(double v, char *buf, size_t size)
{
	if (!buf || size < 40 || !isfinite(v)) {
		if (buf && size)
			buf[0] = '\0';
		return 0;
	}
	size_t n = json_real_text(v, buf, size);
	if (!memchr(buf, 'e', n))
		return n; /* never longer than jansson's %.17g then */
	/* 1.23456789012345e15 is longer than jansson's 1234567890123450.0:
	 * present_put_json keeps the shorter */
	char j17[40];
	size_t n17;
	if (!present_number_fast(v, 17, j17, &n17))
		n17 = number_text_printf(v, 17, j17, sizeof(j17));
	n17 = json_real_form(j17, n17, sizeof(j17));
	if (n17 < n) {
		memcpy(buf, j17, n17 + 1);
		n = n17;
	}
	return n;
}

/* Rewrites, in place, every real number outside the strings of JSON text
 * (jansson's %.17g) in json_real_text's form, never longer. */
static void shorten_reals(char *text)
{
	char *w = text;
	const char *r = text;
	bool in_string = false;
	while (*r) {
		if (in_string) {
			if (*r == '\\' && r[1]) {
				*w++ = *r++;
			} else if (*r == '"') {
				in_string = false;
			}
			*w++ = *r++;
			continue;
		}
		if (*r == '"') {
			in_string = true;
			*w++ = *r++;
			continue;
		}
		if (*r != '-' && !isdigit((unsigned char)*r)) {
			*w++ = *r++;
			continue;
		}
		size_t len = strspn(r, "0123456789+-.eE");
		char tok[40], out[40];
		bool real = memchr(r, '.', len) || memchr(r, 'e', len) ||
			    memchr(r, 'E', len);
		size_t n = 0;
		if (real && len < sizeof(tok)) {
			memcpy(tok, r, len);
			tok[len] = '\0';
			pthread_once(&c_numeric_once, c_numeric_init);
			locale_t old = c_numeric ? uselocale(c_numeric)
						 : (locale_t)0;
			char *end = NULL;
			double v = strtod(tok, &end);
			if (c_numeric)
				uselocale(old);
			if (end == tok + len && isfinite(v))
				n = json_real_text(v, out, sizeof(out));
		}
		if (n > 0 && n <= len) {
			memcpy(w, out, n);
			w += n;
		} else {
			memmove(w, r, len);
			w += len;
		}
		r += len;
	}
	*w = '\0';
}

bool present_put_json(FILE *out, const json_t *j, size_t flags)
{
	char *text = json_dumps(j, flags);
	if (text)
		shorten_reals(text);
	char *safe = text ? sanitize_json(text) : NULL;
	if (safe)
		fputs(safe, out);
	free(safe);
	free(text);
	return safe != NULL;
}

/* Whether `s` is printable ASCII without '"' and '\\': a JSON string
 * as it is. */
static bool json_plain(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p > 0x7e || *p == '"' || *p == '\\')
			return false;
	return true;
}

/* jansson's escape of byte `c` of a string, then sanitize_json's (DEL);
 * false for a byte written as it is. */
static bool json_escape(FILE *out, unsigned char c)
{
	char letter = 0;
	switch (c) {
	case '"': letter = '"'; break;
	case '\\': letter = '\\'; break;
	case '\b': letter = 'b'; break;
	case '\f': letter = 'f'; break;
	case '\n': letter = 'n'; break;
	case '\r': letter = 'r'; break;
	case '\t': letter = 't'; break;
	default: break;
	}
	if (letter) {
		fputc('\\', out);
		fputc(letter, out);
		return true;
	}
	if (c < 0x20 || c == 0x7f) {
		fprintf(out, c == 0x7f ? "\\u%04x" : "\\u%04X", c);
		return true;
	}
	return false;
}

void present_put_json_string(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	if (json_plain(s)) {
		fputc('"', out);
		fputs(s, out);
		fputc('"', out);
		return;
	}
	char *fixed = sanitize_text(s, SANITIZE_UTF8);
	if (!fixed) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)fixed; *p; p++) {
		if (json_escape(out, *p))
			continue;
		if (*p == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0) {
			fprintf(out, "\\u%04x", p[1]);
			p++;
			continue;
		}
		fputc(*p, out);
	}
	fputc('"', out);
	free(fixed);
}

json_t *present_json_text(const char *s)
{
	if (!s)
		return json_null();
	/* jansson refuses invalid UTF-8: repair it first */
	char *fixed = sanitize_text(s, SANITIZE_UTF8);
	json_t *j = fixed ? json_string(fixed) : NULL;
	free(fixed);
	return j ? j : json_null();
}

json_t *present_json_number(double v)
{
	if (isnan(v))
		return json_string("nan");
	if (isinf(v))
		return json_string(v > 0 ? "inf" : "-inf");
	return json_real(v);
}

void present_format_bytes(char *buf, size_t len, double v)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	size_t u = 0;
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
}
