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

size_t present_number_text(double v, char *buf, size_t size)
{
	if (!buf || size == 0)
		return 0;
	pthread_once(&c_numeric_once, c_numeric_init);
	locale_t old = c_numeric ? uselocale(c_numeric) : (locale_t)0;
	int n = 0;
	for (int digits = 15; digits <= 17; digits++) {
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

void present_put_number(FILE *out, double v)
{
	char buf[32];
	present_number_text(v, buf, sizeof(buf));
	fputs(buf, out);
}

/* A real as jansson writes it, from present_number_text: ".0" after an
 * integral value, the exponent without '+' and leading zeros (1e20,
 * 1e-5). */
static size_t json_real_text(double v, char *buf, size_t size)
{
	size_t n = present_number_text(v, buf, size);
	if (!strpbrk(buf, ".e") && n + 3 <= size) {
		memcpy(buf + n, ".0", 3);
		n += 2;
	}
	char *e = strchr(buf, 'e');
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
