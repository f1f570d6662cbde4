/* model_unit: what a column's values measure (enum column_unit), the
 * reader's word when it gave one (Cube's unit of measurement), else read
 * off the metric's name ("CPUTIME (sec)", "GPU time (ns)", "Bytes") and
 * its printf format ("%.0f": a count).  One answer for the views (which
 * column is a time, for the default sort) and the presentation layer
 * (how a value is written); whether a column is a code (RENDER_CODE).
 * Pure: no allocation. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

/* a case-insensitive substring, as names write units "(SEC)" or "(sec)" */
static bool has_text(const char *s, const char *part)
{
	size_t n = strlen(s), w = strlen(part);
	for (size_t i = 0; i + w <= n; i++)
		if (strncasecmp(s + i, part, w) == 0)
			return true;
	return false;
}

enum column_unit model_column_unit(const struct model *m, uint32_t column)
{
	static const struct {
		const char *tag;
		enum column_unit unit;
	} tags[] = {
		{"(sec)", UNIT_SECONDS},	{"(s)", UNIT_SECONDS},
		{"(seconds)", UNIT_SECONDS},	{"(ms)", UNIT_MILLISECONDS},
		{"(msec)", UNIT_MILLISECONDS},	{"(us)", UNIT_MICROSECONDS},
		{"(usec)", UNIT_MICROSECONDS},	{"(ns)", UNIT_NANOSECONDS},
		{"(nsec)", UNIT_NANOSECONDS},	{"(bytes)", UNIT_BYTES},
		{"(B)", UNIT_BYTES},
	};
	if (!m || column >= m->n_columns)
		return UNIT_UNKNOWN;
	const struct model_column *c = &m->columns[column];
	if (c->unit != UNIT_UNKNOWN)
		return (enum column_unit)c->unit;
	const char *name = c->name ? c->name : "";
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (has_text(name, tags[i].tag))
			return tags[i].unit;
	if (strcmp(name, "Bytes") == 0)
		return UNIT_BYTES;
	if (c->format && strcmp(c->format, "%.0f") == 0)
		return UNIT_COUNT;
	return UNIT_UNKNOWN;
}

bool model_column_is_code(const struct model *m, uint32_t column)
{
	return m && column < m->n_columns &&
	       (m->columns[column].render & RENDER_CODE);
}

bool model_unit_is_time(enum column_unit u)
{
	return u == UNIT_SECONDS || u == UNIT_MILLISECONDS ||
	       u == UNIT_MICROSECONDS || u == UNIT_NANOSECONDS;
}
