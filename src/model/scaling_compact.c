/* scaling_compact: a performance model in short, for screens (the viewer's
 * model cells and the plot's legend, issue 26): coefficients to a few
 * significant digits, the shorter of the fixed and the scientific form
 * ("0.0123", "2.43e-8"), the terms in order of growth, the fastest first
 * (highest sum of polynomial exponents over the parameters, then highest
 * sum of log exponents; the constant is a term of growth 0, so shrinking
 * terms of strong scaling come after it), "*" between factors without
 * blanks, integer exponents bare ("s^2", "log2(s)^2"), others in
 * parentheses ("s^(1/4)", "s^(-1/2)"):
 *
 *     2.43e-8*s^(1/4)*log2(s)^2 + 9.41e-7
 *
 * The text reads back as an expression (with ^ as power) whose value is
 * the model's to within the rounding of the coefficients: at most half a
 * unit of the last digit shown of each term.  Extra-P's exact text stays
 * in scaling_text (scaling.c).  Must not depend on curses, on ui/ or on
 * any reader. */
#include "config.h"

#include "model/scaling.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- numbers ------------------------------------------------------- */

/* "1.50e-05" -> "1.5e-5", "2.43e+08" -> "2.43e8": the mantissa's trailing
 * zeros and the exponent's sign and leading zeros dropped, in place. */
static void tidy_exponent(char *s)
{
	char *e = strchr(s, 'e');
	if (!e)
		return;
	char exp[16];
	const char *d = e + 1;
	bool neg = *d == '-';
	if (*d == '+' || *d == '-')
		d++;
	while (*d == '0' && d[1])
		d++;
	snprintf(exp, sizeof(exp), "e%s%s", neg ? "-" : "", d);
	char *m = e; /* the mantissa's end */
	if (memchr(s, '.', (size_t)(e - s))) {
		while (m[-1] == '0')
			m--;
		if (m[-1] == '.')
			m--;
	}
	memmove(m, exp, strlen(exp) + 1);
}

/* |v| to `digits` significant digits, the shorter of %g and %e. */
static void compact_num(double v, int digits, char *buf, size_t size)
{
	if (isnan(v)) {
		snprintf(buf, size, "nan");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, size, "inf");
		return;
	}
	char g[48], e[48];
	snprintf(g, sizeof(g), "%.*g", digits, v);
	snprintf(e, sizeof(e), "%.*e", digits - 1, v);
	tidy_exponent(g);
	tidy_exponent(e);
	snprintf(buf, size, "%s", strlen(e) < strlen(g) ? e : g);
}

/* ---- exponents ----------------------------------------------------- */

/* An exponent as a fraction n/d (d >= 1): the factor's own when known,
 * else a fraction with a denominator up to 12 equal to the float; false
 * when there is none. */
static bool as_fraction(double v, int32_t num, int32_t den, bool known,
			long *n, long *d)
{
	if (known && den > 0) {
		*n = num;
		*d = den;
		return true;
	}
	if (!isfinite(v) || fabs(v) > 1e6)
		return false;
	for (long q = 1; q <= 12; q++) {
		double p = round(v * (double)q);
		if (fabs(p / (double)q - v) <= 1e-9 * (fabs(v) > 1 ? fabs(v) : 1)) {
			*n = (long)p;
			*d = q;
			return true;
		}
	}
	return false;
}

/* "^2", "^(1/4)", "^(-1)", "^(2.718)"; nothing for an exponent of 1. */
static void power_text(double v, int32_t num, int32_t den, bool known,
		       char *buf, size_t size)
{
	long n, d;
	if (as_fraction(v, num, den, known, &n, &d)) {
		if (d == 1 && n == 1)
			buf[0] = '\0';
		else if (d == 1 && n > 0)
			snprintf(buf, size, "^%ld", n);
		else if (d == 1)
			snprintf(buf, size, "^(%ld)", n);
		else
			snprintf(buf, size, "^(%ld/%ld)", n, d);
		return;
	}
	char g[32];
	snprintf(g, sizeof(g), "%.6g", v);
	tidy_exponent(g);
	snprintf(buf, size, "^(%s)", g);
}

/* ---- terms in order of growth -------------------------------------- */

struct grown {
	double poly, log; /* the sums of the exponents */
	uint32_t index;	  /* the term's, or n_terms for the constant */
};

static void growth_of(const struct scaling_term *t, struct grown *g)
{
	g->poly = g->log = 0;
	for (uint32_t k = 0; k < t->n_factors && k < SCALING_MAX_PARAMS; k++) {
		g->poly += t->factors[k].exponent;
		g->log += t->factors[k].log_exponent;
	}
}

static int by_growth(const void *a, const void *b)
{
	const struct grown *x = a, *y = b;
	if (x->poly != y->poly)
		return x->poly > y->poly ? -1 : 1;
	if (x->log != y->log)
		return x->log > y->log ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* One term's factors ("s^(1/4)*log2(s)^2"); false when it has none. */
static bool add_factors(struct strbuf *b, const struct scaling_term *t,
			const char *const *names, uint32_t n_names)
{
	bool any = false;
	char pow[48];
	for (uint32_t k = 0; k < t->n_factors && k < SCALING_MAX_PARAMS; k++) {
		const struct scaling_factor *f = &t->factors[k];
		const char *name = f->param < n_names && names[f->param]
					   ? names[f->param]
					   : "?";
		if (f->exponent != 0) {
			strbuf_add(b, any ? "*" : "");
			strbuf_add(b, name);
			power_text(f->exponent, f->exponent_num,
				   f->exponent_den, f->exponent_den > 0, pow,
				   sizeof(pow));
			strbuf_add(b, pow);
			any = true;
		}
		if (f->log_exponent != 0) {
			strbuf_add(b, any ? "*log2(" : "log2(");
			strbuf_add(b, name);
			strbuf_add(b, ")");
			power_text(f->log_exponent, 0, 0, false, pow,
				   sizeof(pow));
			strbuf_add(b, pow);
			any = true;
		}
	}
	return any;
}

char *scaling_text_compact(const struct scaling_model *model,
			   const char *const *names, uint32_t n_names,
			   int digits)
{
	if (digits < 1)
		digits = 1;
	if (digits > 17)
		digits = 17;
	uint32_t n = model->terms ? model->n_terms : 0;
	struct grown *order = malloc((n + 1) * sizeof(*order));
	if (!order)
		return NULL;
	for (uint32_t t = 0; t < n; t++) {
		growth_of(&model->terms[t], &order[t]);
		order[t].index = t;
	}
	order[n] = (struct grown){0, 0, n};
	qsort(order, n + 1, sizeof(*order), by_growth);
	struct strbuf b = {0};
	bool first = true;
	char num[64];
	for (uint32_t i = 0; i <= n; i++) {
		uint32_t t = order[i].index;
		const struct scaling_term *term = t < n ? &model->terms[t] : NULL;
		double c = term ? term->coefficient : model->constant;
		/* Extra-P leaves out a constant of exactly 0 beside terms */
		if (!term && c == 0 && n > 0)
			continue;
		bool neg = signbit(c) && !isnan(c);
		if (first)
			strbuf_add(&b, neg ? "-" : "");
		else
			strbuf_add(&b, neg ? " - " : " + ");
		first = false;
		/* a coefficient of 1 is left out before its factors */
		struct strbuf f = {0};
		bool factors = term && add_factors(&f, term, names, n_names);
		if (f.failed)
			b.failed = true;
		if (!factors || fabs(c) != 1) {
			compact_num(fabs(c), digits, num, sizeof(num));
			strbuf_add(&b, num);
			if (factors)
				strbuf_add(&b, "*");
		}
		if (factors)
			strbuf_add(&b, f.s);
		free(f.s);
	}
	free(order);
	if (b.failed) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
