/* scaling: evaluation, copy and Extra-P 4.2.5's exact text of performance
 * models (see scaling.h and ../shared/notes/extrap.md section 3.5).  The
 * text is what Extra-P's Function.to_string prints: numbers as Python's
 * str(float) (the shortest decimal that reads back to the same double,
 * scientific below 1e-4 and from 1e16 on), terms joined by " + ", the
 * constant left out when it is exactly 0 and a coefficient when it is
 * exactly 1, factors "x^(3/2)" and "log2(x)^(1)" joined by " * ".  Must not
 * depend on curses, on ui/ or on any reader. */
#include "config.h"

#include "model/scaling.h"
#include "core/strbuf.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double scaling_eval(const struct scaling_model *model, const double *coords)
{
	double v = model->constant;

	for (uint32_t t = 0; t < model->n_terms; t++) {
		const struct scaling_term *term = &model->terms[t];
		double f = term->coefficient;

		for (uint32_t k = 0; k < term->n_factors; k++) {
			const struct scaling_factor *fa = &term->factors[k];
			double x = coords[fa->param];

			if (fa->exponent != 0)
				f *= pow(x, fa->exponent);
			if (fa->log_exponent != 0)
				f *= pow(log2(x), fa->log_exponent);
		}
		v += f;
	}
	return v;
}

/* ---- Python's repr of a float --------------------------------------- */

/* Python's str(v) into buf (at least 32 bytes). */
static void py_repr(double v, char *buf, size_t size)
{
	char tmp[40], digits[24];
	int prec, exp10, nd = 0;
	const char *p;
	char *o = buf;

	if (isnan(v)) {
		snprintf(buf, size, "nan");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, size, v < 0 ? "-inf" : "inf");
		return;
	}
	if (v == 0) {
		snprintf(buf, size, signbit(v) ? "-0.0" : "0.0");
		return;
	}
	/* Any decimal of at most 15 digits survives a round trip through
	 * the nearest double (DBL_DIG), so when the 15-digit rounding reads
	 * back to v, it is the shortest with its trailing zeros dropped
	 * (below); otherwise 16 or 17 digits, correctly rounded, are the
	 * closest of their length.  Subnormals have fewer digits: all
	 * lengths are tried. */
	for (prec = fabs(v) < DBL_MIN ? 1 : 15; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*e", prec - 1, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	/* tmp is "-d.ddde+XX": take the digits and the exponent */
	p = tmp;
	if (*p == '-')
		*o++ = *p++;
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			digits[nd++] = *p;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	exp10 = atoi(p + 1);
	if (exp10 < -4 || exp10 >= 16) {
		*o++ = digits[0];
		if (nd > 1) {
			*o++ = '.';
			memcpy(o, digits + 1, (size_t)nd - 1);
			o += nd - 1;
		}
		snprintf(o, size - (size_t)(o - buf), "e%c%02d",
			 exp10 < 0 ? '-' : '+', abs(exp10));
		return;
	}
	if (exp10 < 0) {
		*o++ = '0';
		*o++ = '.';
		for (int i = 0; i < -exp10 - 1; i++)
			*o++ = '0';
		memcpy(o, digits, (size_t)nd);
		o += nd;
	} else {
		for (int i = 0; i <= exp10; i++)
			*o++ = i < nd ? digits[i] : '0';
		*o++ = '.';
		if (nd > exp10 + 1) {
			memcpy(o, digits + exp10 + 1, (size_t)(nd - exp10 - 1));
			o += nd - exp10 - 1;
		} else {
			*o++ = '0';
		}
	}
	*o = '\0';
}

/* ---- the model as text (core/strbuf) ------------------------------ */

static void sb_num(struct strbuf *b, double v)
{
	char num[48];

	py_repr(v, num, sizeof num);
	strbuf_add(b, num);
}

/* An exponent as Extra-P prints it: a reduced fraction ("3/2", "2"), or a
 * float ("2.0") when only the float is known. */
static void sb_exponent(struct strbuf *b, const struct scaling_factor *f,
			bool is_log)
{
	char num[48];

	if (is_log) {
		/* log exponents are integers in fitted models */
		if (f->log_exponent_int &&
		    f->log_exponent == floor(f->log_exponent) &&
		    fabs(f->log_exponent) < 1e9)
			snprintf(num, sizeof num, "%d", (int)f->log_exponent);
		else
			py_repr(f->log_exponent, num, sizeof num);
	} else if (f->exponent_den == 0) {
		py_repr(f->exponent, num, sizeof num);
	} else if (f->exponent_den == 1) {
		snprintf(num, sizeof num, "%d", (int)f->exponent_num);
	} else {
		snprintf(num, sizeof num, "%d/%d", (int)f->exponent_num,
			 (int)f->exponent_den);
	}
	strbuf_add(b, num);
}

/* One factor's power, " * " before it unless it is the term's first:
 * "NAME^(E)", or with `log` "log2(NAME)^(E)". */
static void sb_power(struct strbuf *b, bool *first, const char *name,
		     const struct scaling_factor *f, bool is_log)
{
	strbuf_add(b, *first ? "" : " * ");
	strbuf_add(b, is_log ? "log2(" : "");
	strbuf_add(b, name);
	strbuf_add(b, is_log ? ")^(" : "^(");
	sb_exponent(b, f, is_log);
	strbuf_add(b, ")");
	*first = false;
}

char *scaling_text(const struct scaling_model *model,
		   const char *const *names, uint32_t n_names)
{
	struct strbuf b = {0};
	bool first = true;

	if (model->n_terms == 0 || model->constant != 0) {
		sb_num(&b, model->constant);
		first = false;
	}
	for (uint32_t t = 0; t < model->n_terms; t++) {
		const struct scaling_term *term = &model->terms[t];
		bool first_factor = true;

		if (!first)
			strbuf_add(&b, " + ");
		first = false;
		if (term->coefficient != 1) {
			sb_num(&b, term->coefficient);
			first_factor = false;
		}
		for (uint32_t k = 0; k < term->n_factors; k++) {
			const struct scaling_factor *f = &term->factors[k];
			const char *name = f->param < n_names && names[f->param]
						   ? names[f->param]
						   : "?";

			if (f->exponent != 0)
				sb_power(&b, &first_factor, name, f, false);
			if (f->log_exponent != 0)
				sb_power(&b, &first_factor, name, f, true);
		}
		if (first_factor) /* a term without factors: its coefficient */
			sb_num(&b, term->coefficient);
	}
	if (b.failed) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

enum status scaling_model_copy(struct scaling_model *to,
			       const struct scaling_model *from,
			       struct error *err)
{
	*to = *from;
	to->terms = NULL;
	if (from->n_terms == 0)
		return STATUS_OK;
	to->terms = malloc(from->n_terms * sizeof *to->terms);
	if (!to->terms) {
		to->n_terms = 0;
		scaling_model_clear(to);
		return error_set(err, STATUS_NOMEM, NULL,
				 "out of memory copying a model");
	}
	memcpy(to->terms, from->terms, from->n_terms * sizeof *to->terms);
	return STATUS_OK;
}

void scaling_model_clear(struct scaling_model *model)
{
	free(model->terms);
	memset(model, 0, sizeof *model);
	model->kind = SCALING_CONSTANT;
}
