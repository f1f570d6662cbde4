/* present_write: safe text, CSV and JSON writers shared by the batch
 * commands and the viewer's exports.  No curses here. */
#include "config.h"

#include "present/present_write.h"

#include <math.h>
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

bool present_put_json(FILE *out, const json_t *j, size_t flags)
{
	char *text = json_dumps(j, flags);
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
