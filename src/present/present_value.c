/* present_value: a metric value in its column's own format (see the
 * header).  A database's format string is data: it is used only when it
 * holds exactly one floating-point conversion. */
#include "config.h"

#include "present/present_value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

bool present_format_is_safe(const char *fmt)
{
	int conversions = 0;
	for (const char *p = fmt; *p; p++) {
		if (*p != '%')
			continue;
		p++;
		if (*p == '%')
			continue;
		while (*p && strchr("#0- +'", *p))
			p++;
		for (int i = 0; i < 3 && *p >= '0' && *p <= '9'; i++)
			p++;
		if (*p == '.') {
			p++;
			for (int i = 0; i < 2 && *p >= '0' && *p <= '9'; i++)
				p++;
		}
		if (!*p || !strchr("eEfFgGaA", *p))
			return false;
		conversions++;
	}
	return conversions == 1;
}

char *present_value_raw(const struct model *m, uint32_t column, double v)
{
	const char *fmt = m->columns[column].format;
	if (!fmt || !present_format_is_safe(fmt))
		fmt = "%.2e";
	char *out = NULL;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (asprintf(&out, fmt, v) < 0)
		out = NULL;
#pragma GCC diagnostic pop
	return out;
}
