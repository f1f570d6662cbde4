/* present_value: a metric value in its column's own format (see the
 * header).  A database's format string is data: it is used only when it
 * holds exactly one floating-point conversion. */
#include "config.h"

#include "present/present_value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_column.h"
#include "model/model_data.h"

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
	const char *fmt = model_columns(m)[column].format;
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

/* ---- fitted forms (the viewer) ---- */

struct unit_step {
	double factor; /* of the base unit (seconds, bytes, one) */
	const char *suffix;
};

static const struct unit_step time_steps[] = {
    {1e-9, "ns"}, {1e-6, "us"}, {1e-3, "ms"}, {1, "s"}};
static const struct unit_step byte_steps[] = {
    {1, "B"},	  {1e3, "KB"},	{1e6, "MB"}, {1e9, "GB"},
    {1e12, "TB"}, {1e15, "PB"}, {1e18, "EB"}};
static const struct unit_step count_steps[] = {
    {1, ""},	 {1e3, "k"},  {1e6, "M"}, {1e9, "G"},
    {1e12, "T"}, {1e15, "P"}, {1e18, "E"}};
#define N_STEPS(a) (sizeof(a) / sizeof((a)[0]))

/* X rounded to D significant digits (what "%.{D-1}e" shows) */
static double round_sig(double x, int d)
{
	char t[64];
	snprintf(t, sizeof(t), "%.*e", d - 1, x);
	return strtod(t, NULL);
}

/* "%.{D}g" with the exponent made short: 7.33e+11 -> 7.33e11 */
static void short_g(double v, int d, char *out, size_t size)
{
	char t[64];
	snprintf(t, sizeof(t), "%.*g", d, v);
	char *e = strchr(t, 'e');
	if (e) {
		char *p = e + 1, *q = e + 1;
		if (*p == '+')
			p++;
		else if (*p == '-')
			*q++ = *p++;
		while (*p == '0' && p[1])
			p++;
		memmove(q, p, strlen(p) + 1);
	}
	snprintf(out, size, "%s", t);
}

/* X (in the base unit) with D significant digits in the step of STEPS
 * that leaves 1 to 999 before the suffix: "373.3 ms", "3.932 GB".
 * Values below the first step keep it ("0.5 ns"); beyond the last,
 * the mantissa goes to scientific form ("1.2e6 s"). */
static void unit_form(double x, const struct unit_step *steps, size_t n, int d,
		      bool space, char *out, size_t size)
{
	double r = round_sig(x, d), a = fabs(r);
	if (a == 0 || !isfinite(a)) {
		/* out of a double's range once scaled: no unit form (the
		 * caller falls back to the general one) */
		if (size)
			out[0] = '\0';
		return;
	}
	size_t i = 0;
	while (i + 1 < n && a >= steps[i + 1].factor)
		i++;
	double m = r / steps[i].factor, am = fabs(m);
	const char *sep = space && *steps[i].suffix ? " " : "";
	if (am >= 1e5 || (am > 0 && am < 1e-3)) {
		char g[64];
		short_g(m, d, g, sizeof(g));
		snprintf(out, size, "%s%s%s", g, sep, steps[i].suffix);
		return;
	}
	int lead = (int)floor(log10(am)) + 1;
	if (lead > d) {
		/* 12345.6 s: all the integer digits, rounded there */
		r = round_sig(x, lead);
		m = r / steps[i].factor;
	}
	int decimals = d - lead;
	/* whole bytes or counts below 1000 have no decimals: 999, 512 B
	 * (not 999.0, 512.0 B); times keep theirs */
	if (decimals < 0 ||
	    (steps != time_steps && steps[i].factor == 1 && m == floor(m)))
		decimals = 0;
	snprintf(out, size, "%.*f%s%s", decimals, m, sep, steps[i].suffix);
}

/* an integer with comma digit groups: 732,833,917,381 */
static void grouped(double v, char *out, size_t size)
{
	char t[64], g[96];
	snprintf(t, sizeof(t), "%.0f", fabs(v));
	size_t len = strlen(t), k = 0;
	if (v < 0)
		g[k++] = '-';
	for (size_t i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			g[k++] = ',';
		g[k++] = t[i];
	}
	g[k] = '\0';
	snprintf(out, size, "%s", g);
}

/* BUF takes CAND when it fits in CAP columns */
static bool take(const char *cand, size_t cap, char *buf, size_t size,
		 size_t *len)
{
	size_t n = strlen(cand);
	if (n == 0 || n > cap || n >= size)
		return false;
	memcpy(buf, cand, n + 1);
	*len = n;
	return true;
}

static bool try_units(double x, const struct unit_step *steps, size_t n,
		      int digits, size_t cap, char *buf, size_t size,
		      size_t *len)
{
	char t[96];
	for (int pass = 0; pass < 2; pass++)
		for (int d = digits; d >= 1; d--) {
			unit_form(x, steps, n, d, pass == 0, t, sizeof(t));
			if (take(t, cap, buf, size, len))
				return true;
		}
	return false;
}

size_t present_number_fit(struct present_kind k, double v, int width,
			  int digits, char *buf, size_t size)
{
	if (!buf || size == 0)
		return 0;
	buf[0] = '\0';
	if (width < 1)
		return 0;
	size_t cap = (size_t)width, len = 0;
	if (digits < 1)
		digits = 1;
	if (digits > 17)
		digits = 17;
	char t[96];
	if (isnan(v))
		return take("nan", cap, buf, size, &len) ? len
		       : take("#", cap, buf, size, &len) ? len
							 : 0;
	if (isinf(v))
		return take(v < 0 ? "-inf" : "inf", cap, buf, size, &len) ? len
		       : take("#", cap, buf, size, &len) ? len
							 : 0;
	if (v == 0)
		return take("0", cap, buf, size, &len) ? len : 0;
	double scale = k.scale > 0 && isfinite(k.scale) ? k.scale : 1;
	switch (k.unit) {
	case PRESENT_TIME:
		if (try_units(v * scale, time_steps, N_STEPS(time_steps),
			      digits, cap, buf, size, &len))
			return len;
		break;
	case PRESENT_BYTES:
		if (try_units(v * scale, byte_steps, N_STEPS(byte_steps),
			      digits, cap, buf, size, &len))
			return len;
		break;
	case PRESENT_COUNT:
		if (v == floor(v) && fabs(v) < 1e18) {
			grouped(v, t, sizeof(t));
			if (k.count_form == PRESENT_COUNT_GROUPED &&
			    take(t, cap, buf, size, &len))
				return len;
			snprintf(t, sizeof(t), "%.0f", v);
			if (k.count_form != PRESENT_COUNT_SI &&
			    take(t, cap, buf, size, &len))
				return len;
			if (try_units(v, count_steps, N_STEPS(count_steps),
				      digits, cap, buf, size, &len))
				return len;
		}
		break;
	case PRESENT_PLAIN:
		if (k.format && present_format_is_safe(k.format)) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
			int n = snprintf(t, sizeof(t), k.format, v);
#pragma GCC diagnostic pop
			/* a longer output was cut by snprintf: not taken */
			if (n > 0 && (size_t)n < sizeof(t) &&
			    take(t, cap, buf, size, &len))
				return len;
		}
		break;
	}
	/* the shortest general forms, in the column's own unit; a plain
	 * column may show a few more digits than the unit forms */
	int most = k.unit == PRESENT_PLAIN ? (digits > 6 ? digits : 6) : digits;
	for (int d = most; d >= 1; d--) {
		short_g(v, d, t, sizeof(t));
		if (take(t, cap, buf, size, &len))
			return len;
	}
	return take("#", cap, buf, size, &len) ? len : 0;
}

struct present_kind present_column_kind(const struct model *m, uint32_t column)
{
	struct present_kind k = {
	    .unit = PRESENT_PLAIN, .scale = 1, .format = "%.2e"};
	if (!m || column >= model_n_columns(m))
		return k;
	const struct model_column *c = &model_columns(m)[column];
	k.format =
	    c->format && present_format_is_safe(c->format) ? c->format : "%.2e";
	/* a code (a SCALE_FUNC ranking code) has no unit: its format */
	if (model_column_is_code(m, column))
		return k;
	const char *variant = c->variant ? c->variant : "";
	/* a coefficient of variation has no unit whatever its metric's */
	if (strcmp(variant, "CfVar") == 0 || strcmp(variant, "CV") == 0)
		return k;
	static const double time_scale[] = {[UNIT_SECONDS] = 1,
					    [UNIT_MILLISECONDS] = 1e-3,
					    [UNIT_MICROSECONDS] = 1e-6,
					    [UNIT_NANOSECONDS] = 1e-9};
	enum column_unit u = model_column_unit(m, column);
	switch (u) {
	case UNIT_COUNT:
		k.unit = PRESENT_COUNT;
		break;
	case UNIT_SECONDS:
	case UNIT_MILLISECONDS:
	case UNIT_MICROSECONDS:
	case UNIT_NANOSECONDS:
		k.unit = PRESENT_TIME;
		k.scale = time_scale[u];
		break;
	case UNIT_BYTES:
		k.unit = PRESENT_BYTES;
		break;
	case UNIT_NUMBER:
	case UNIT_UNKNOWN:
		break;
	}
	return k;
}

size_t present_duration_ns(double ns, char *buf, size_t size)
{
	struct present_kind k = {.unit = PRESENT_TIME, .scale = 1e-9};
	int width = size > 1 && size - 1 < 64 ? (int)(size - 1) : 63;
	return present_number_fit(k, ns, width, PRESENT_DIGITS, buf, size);
}

size_t present_value_fit(const struct model *m, uint32_t column, double v,
			 int width, char *buf, size_t size)
{
	return present_number_fit(present_column_kind(m, column), v, width,
				  PRESENT_DIGITS, buf, size);
}

bool present_share(double v, double total, double *pct)
{
	if (!isfinite(v) || !isfinite(total) || total == 0)
		return false;
	double p = v / total * 100.0;
	if (!isfinite(p))
		return false;
	*pct = p;
	return true;
}

size_t present_share_text(double v, double total, char *buf, size_t size)
{
	double pct;
	int n = present_share(v, total, &pct)
			? snprintf(buf, size, "%5.1f%%", pct)
			: snprintf(buf, size, "%6s", "");
	if (n < 0)
		return 0;
	return (size_t)n < size ? (size_t)n : size ? size - 1 : 0;
}
