/* extrap3_model: the functions of an Extra-P 3 file's Model records
 * (extrap3_experiment_reader.py: deserialize_Model, deserialize_Function
 * and the terms), read through the checked cursor of extrap3_io.c into
 * struct scaling_model: SingleParameterFunction (a constant and compound
 * terms of parameter 0), MultiParameterFunction (terms of compound terms
 * per named parameter, factors kept in parameter order), the interval
 * functions read and dropped; polynomial exponents are floats in the file
 * (exponent_den 0).  Must not depend on curses, on ui/ or on another
 * format. */
#include "config.h"

#include "formats/extrap/extrap3_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool x3_nomem(struct x3 *x)
{
	if (!x->c.failed)
		error_set(x->c.err, STATUS_NOMEM, x->c.path, "out of memory");
	x->c.failed = true;
	return false;
}

/* CompoundTerm: coefficient, then SimpleTerms (type, exponent) into one
 * factor (`keep`: a model's term, whose types must be known). */
bool x3_compound(struct x3 *x, double *coef, struct scaling_factor *f,
		 bool keep)
{
	uint64_t n;
	memset(f, 0, sizeof(*f));
	f->exponent_den = 1; /* 0/1 until a polynomial term says */
	if (!x3_f64(&x->c, coef) || !x3_count(&x->c, 20, &n))
		return false;
	for (uint64_t i = 0; i < n; i++) {
		const char *s, *type;
		size_t sl, tl;
		double e;
		if (!x3_str(&x->c, &s, &sl))
			return false;
		if (!x3_str_is(s, sl, "SimpleTerm"))
			return x3_fail(&x->c, "a CompoundTerm part that is not a "
					   "SimpleTerm");
		if (!x3_str(&x->c, &type, &tl) || !x3_f64(&x->c, &e))
			return false;
		if (x3_str_is(type, tl, "polynomial")) {
			f->exponent = e;
			f->exponent_num = 0;
			f->exponent_den = 0; /* a float in the file */
		} else if (x3_str_is(type, tl, "logarithm")) {
			f->log_exponent = e;
		} else if (keep) {
			return x3_fail(&x->c, "a SimpleTerm neither polynomial "
					   "nor logarithm");
		}
	}
	return true;
}

static bool add_term(struct x3 *x, struct scaling_model *m,
		     const struct scaling_term *t)
{
	struct scaling_term *g = realloc(m->terms,
					 (m->n_terms + 1) * sizeof(*g));
	if (!g)
		return x3_nomem(x);
	m->terms = g;
	m->terms[m->n_terms++] = *t;
	return true;
}

/* A function after its prefix; `m` NULL: read and dropped (intervals). */
static bool rd_function(struct x3 *x, struct scaling_model *m)
{
	const char *p;
	size_t pl;
	struct scaling_model tmp = {0};
	if (!m)
		m = &tmp;
	bool ok = x3_str(&x->c, &p, &pl);
	uint32_t np = extrap_set_n_params(x->s);
	if (!ok) {
	} else if (x3_str_is(p, pl, "SingleParameterFunction") ||
		   x3_str_is(p, pl, "MultiParameterFunction")) {
		bool multi = p[0] == 'M';
		uint64_t n;
		m->kind = multi ? SCALING_MULTI : SCALING_SINGLE;
		ok = x3_f64(&x->c, &m->constant) && x3_count(&x->c, 16, &n);
		for (uint64_t i = 0; ok && i < n; i++) {
			struct scaling_term t = {0};
			if (!multi) {
				const char *s;
				size_t sl;
				ok = x3_str(&x->c, &s, &sl);
				if (ok && !x3_str_is(s, sl, "CompoundTerm"))
					ok = x3_fail(&x->c, "a term that is not a "
							 "CompoundTerm");
				t.n_factors = 1;
				ok = ok && x3_compound(x, &t.coefficient,
						       &t.factors[0], true) &&
				     add_term(x, m, &t);
				continue;
			}
			uint64_t k;
			ok = x3_f64(&x->c, &t.coefficient) &&
			     x3_count(&x->c, 16, &k);
			for (uint64_t j = 0; ok && j < k; j++) {
				const char *pn, *s;
				size_t pnl, sl;
				double c;
				struct scaling_factor f;
				ok = x3_str(&x->c, &pn, &pnl) &&
				     x3_str(&x->c, &s, &sl);
				uint32_t pi = ok ? extrap_set_find_param(
							   x->s, pn, pnl)
						 : MODEL_NONE;
				if (ok && (pi == MODEL_NONE ||
					   !x3_str_is(s, sl, "CompoundTerm") ||
					   t.n_factors >= np ||
					   t.n_factors >= SCALING_MAX_PARAMS))
					ok = x3_fail(&x->c, "a term of an unknown "
							 "parameter");
				ok = ok && x3_compound(x, &c, &f, true);
				if (!ok)
					break;
				f.param = pi;
				t.coefficient *= c;
				/* factors in parameter order, one each */
				uint32_t at = t.n_factors;
				while (at && t.factors[at - 1].param > pi) {
					t.factors[at] = t.factors[at - 1];
					at--;
				}
				if (at && t.factors[at - 1].param == pi)
					ok = x3_fail(&x->c, "a term with two "
							 "factors of one "
							 "parameter");
				t.factors[at] = f;
				t.n_factors++;
			}
			ok = ok && add_term(x, m, &t);
		}
		if (ok && m->n_terms == 0)
			m->kind = SCALING_CONSTANT;
	} else if (x3_str_is(p, pl, "SimpleTerm")) {
		const char *type;
		size_t tl;
		double e;
		ok = x3_str(&x->c, &type, &tl) && x3_f64(&x->c, &e);
	} else if (x3_str_is(p, pl, "CompoundTerm")) {
		double c;
		struct scaling_factor f;
		ok = x3_compound(x, &c, &f, false);
	} else if (!x3_str_is(p, pl, "Function")) {
		ok = x3_fail(&x->c, "an unknown function type");
	}
	free(tmp.terms);
	return ok;
}

bool x3_model(struct x3 *x)
{
	int64_t metric, callpath, gen;
	uint32_t cp;
	struct scaling_model m = {.kind = SCALING_CONSTANT};
	m.rrss = m.nrss = m.re = (double)NAN;
	if (!x3_i64(&x->c, &metric) || !x3_i64(&x->c, &callpath) ||
	    !x3_i64(&x->c, &gen))
		return false;
	if (!x3_idmap_get(&x->callpaths, callpath, &cp) || metric < 0 ||
	    (uint64_t)metric >= x->n_metrics || gen < 0 ||
	    (uint64_t)gen >= x->n_gens)
		return x3_fail(&x->c, "a Model of an unknown metric, callpath or "
				   "generator");
	bool ok = rd_function(x, &m);
	for (int i = 0; ok && i < 6; i++) /* three intervals of two */
		ok = rd_function(x, NULL);
	ok = ok && x3_f64(&x->c, &m.rss) && x3_f64(&x->c, &m.ar2) &&
	     x3_f64(&x->c, &m.smape) && (!x->sparse || x3_f64(&x->c, &m.re));
	uint64_t n, k;
	int64_t id;
	double d;
	const char *s;
	size_t sl;
	ok = ok && x3_count(&x->c, 8, &n);
	for (uint64_t i = 0; ok && i < n; i++)
		ok = x3_i64(&x->c, &id);
	ok = ok && x3_count(&x->c, 12, &n);
	for (uint64_t i = 0; ok && i < n; i++) {
		ok = x3_str(&x->c, &s, &sl) && x3_count(&x->c, 16, &k);
		for (uint64_t j = 0; ok && j < 2 * k; j++)
			ok = x3_f64(&x->c, &d);
	}
	if (ok && x->n_models == x->models_cap) {
		size_t ncap = x->models_cap ? x->models_cap * 2 : 64;
		struct x3model *g = realloc(x->models, ncap * sizeof(*g));
		if (!g) {
			ok = x3_nomem(x);
		} else {
			x->models = g;
			x->models_cap = ncap;
		}
	}
	if (!ok) {
		free(m.terms);
		return false;
	}
	x->models[x->n_models++] = (struct x3model){(uint32_t)gen, cp,
						    (uint32_t)metric, m};
	return true;
}
