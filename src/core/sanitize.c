/* sanitize: visible escapes for control characters and repair of invalid
 * UTF-8 in strings that came from input.  Depends only on libc. */
#include "config.h"

#include "core/sanitize.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t sanitize_utf8_len(const unsigned char *s, size_t avail)
{
	if (avail == 0)
		return 0;
	unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	size_t n;
	uint32_t cp;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (avail < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* The output buffer for input *s (NULL read as "", its length into
 * *len) of which each byte may grow to `worst` bytes, with room for the
 * NUL: sized once, so that the loops below never grow it; NULL when the
 * size overflows or memory is out. */
static char *worst_case_buffer(const char **s, size_t *len, size_t worst)
{
	if (!*s)
		*s = "";
	*len = strlen(*s);
	if (*len > (SIZE_MAX - 1) / worst)
		return NULL;
	return malloc(*len * worst + 1);
}

char *sanitize_json(const char *json)
{
	size_t len;
	/* worst case: every byte a DEL written as the 6-byte \u007f */
	char *out = worst_case_buffer(&json, &len, 6);
	if (!out)
		return NULL;
	const unsigned char *p = (const unsigned char *)json;
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		/* outside strings a JSON text is printable ASCII, so these
		 * bytes are inside strings, where \u escapes mean the same */
		if (p[i] == 0x7f) {
			memcpy(out + o, "\\u007f", 6);
			o += 6;
		} else if (p[i] == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 &&
			   p[i + 1] < 0xa0) {
			o += (size_t)sprintf(out + o, "\\u%04x", p[i + 1]);
			i++;
		} else {
			out[o++] = (char)p[i];
		}
	}
	out[o] = '\0';
	return out;
}

char *sanitize_text(const char *s, enum sanitize_mode mode)
{
	size_t len;
	/* worst case: every byte becomes a 3-byte U+FFFD or a 4-byte \xNN,
	 * every 2-byte C1 a 7-byte \u{NN} */
	char *out = worst_case_buffer(&s, &len, 4);
	if (!out)
		return NULL;
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		size_t n = sanitize_utf8_len(p + i, len - i);
		if (n == 0) {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
			continue;
		}
		if (mode == SANITIZE_TERMINAL && n == 1 &&
		    (p[i] < 0x20 || p[i] == 0x7f)) {
			o += (size_t)sprintf(out + o, "\\x%02x", p[i]);
		} else if (mode == SANITIZE_TERMINAL && n == 2 &&
			   p[i] == 0xc2 && p[i + 1] < 0xa0) {
			o += (size_t)sprintf(out + o, "\\u{%02x}", p[i + 1]);
		} else {
			memcpy(out + o, p + i, n);
			o += n;
		}
		i += n;
	}
	out[o] = '\0';
	return out;
}
