/* scaling_fit_multi: Extra-P 4.2.5's multi-parameter default modeler
 * (multi_parameter_modeler.py; ../shared/notes/extrap.md 3.3): per
 * parameter, the longest lines through the point grid averaged into one
 * series ("auto" point selection, kept per coordinate set since it depends
 * only on the points), a one-parameter model of each, then the candidate
 * combinations of the non-constant parameters' terms fitted over all
 * points with in-sample costs, strict SMAPE selection.  The candidates are
 * few and fitted with dgelsd directly, as numpy.linalg.lstsq does.  Must
 * not depend on curses, on ui/ or on any reader. */
#include "config.h"

#include "analysis/scaling_fit_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPSILON_CONTRIB 0.0005
#define MAX_CAND_TERMS 3
/* the full sum of the non-constant parameters' terms has one term per
 * parameter: a candidate has up to SCALING_MAX_PARAMS terms (the
 * combinations of 3 parameters have up to MAX_CAND_TERMS), and a term is a
 * set of parameters as bits of a uint8_t */
#define CAND_TERMS (SCALING_MAX_PARAMS > MAX_CAND_TERMS ? SCALING_MAX_PARAMS \
							: MAX_CAND_TERMS)
_Static_assert(SCALING_MAX_PARAMS <= 8, "a term is a uint8_t of parameters");

/* The selected series of one parameter: groups of points by that
 * parameter's value. */
struct mp_series {
	uint32_t n_groups;
	double *x;         /* [n_groups] */
	uint32_t *start;   /* [n_groups + 1] into member */
	uint32_t *member;  /* point indices */
};

struct mp_cache {
	/* first (fit_cache_new): the points' coordinates */
	struct fit_cache_key key;
	uint32_t n, np;
	struct mp_series ser[SCALING_MAX_PARAMS];
};

void mp_cache_free(struct mp_cache *c)
{
	if (!c)
		return;
	for (uint32_t p = 0; p < c->np; p++) {
		free(c->ser[p].x);
		free(c->ser[p].start);
		free(c->ser[p].member);
	}
	free(c->key.coords);
	free(c);
}

static bool eq_except(const struct mp_cache *c, uint32_t i, uint32_t j,
		      uint32_t p)
{
	for (uint32_t q = 0; q < c->np; q++)
		if (q != p && c->key.coords[(size_t)i * c->np + q] !=
				      c->key.coords[(size_t)j * c->np + q])
			return false;
	return true;
}

/* find_best_measurement_points for parameter p. */
static bool select_points(struct mp_cache *c, uint32_t p)
{
	uint32_t n = c->n, n_g = 0, n_g2 = 0, max = 0, k = 0;
	uint32_t *grp = malloc(n * sizeof *grp);     /* point -> group */
	uint32_t *rep = malloc(n * sizeof *rep);     /* group -> a point */
	uint32_t *size = calloc(n, sizeof *size);
	uint32_t *grp2 = malloc(n * sizeof *grp2);   /* point -> group2 */
	double *val2 = malloc(n * sizeof *val2);     /* group2 -> x_p */
	uint32_t *cnt2 = calloc(n + 1, sizeof *cnt2);
	bool *keep = calloc(n, sizeof *keep);
	struct mp_series *s = &c->ser[p];
	bool ok = false;

	if (!grp || !rep || !size || !grp2 || !val2 || !cnt2 || !keep)
		goto out;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t g;

		for (g = 0; g < n_g; g++)
			if (eq_except(c, i, rep[g], p))
				break;
		if (g == n_g)
			rep[n_g++] = i;
		grp[i] = g;
		size[g]++;
	}
	for (uint32_t g = 0; g < n_g; g++)
		if (size[g] > max)
			max = size[g];
	/* the longest groups, regrouped by x_p in order of appearance */
	for (uint32_t g = 0; g < n_g; g++) {
		if (size[g] != max)
			continue;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t h;
			double x = c->key.coords[(size_t)i * c->np + p];

			if (grp[i] != g)
				continue;
			for (h = 0; h < n_g2; h++)
				if (val2[h] == x)
					break;
			if (h == n_g2)
				val2[n_g2++] = x;
			grp2[i] = h;
			keep[i] = true;
		}
	}
	/* keep only points whose other coordinates occur in the first
	 * x_p group */
	for (uint32_t i = 0; i < n; i++) {
		bool common = false;

		if (!keep[i] || grp2[i] == 0)
			continue;
		for (uint32_t j = 0; j < n && !common; j++)
			if (keep[j] && grp2[j] == 0 && eq_except(c, i, j, p))
				common = true;
		keep[i] = common;
	}
	for (uint32_t i = 0; i < n; i++)
		if (keep[i])
			cnt2[grp2[i]]++;
	s->x = malloc((n_g2 ? n_g2 : 1) * sizeof *s->x);
	s->start = malloc((n_g2 + 1) * sizeof *s->start);
	s->member = malloc(n * sizeof *s->member);
	if (!s->x || !s->start || !s->member)
		goto out;
	s->n_groups = 0;
	for (uint32_t h = 0; h < n_g2; h++) {
		if (!cnt2[h])
			continue;
		s->x[s->n_groups] = val2[h];
		s->start[s->n_groups] = k;
		for (uint32_t i = 0; i < n; i++)
			if (keep[i] && grp2[i] == h)
				s->member[k++] = i;
		s->n_groups++;
	}
	s->start[s->n_groups] = k;
	ok = true;
out:
	free(grp);
	free(rep);
	free(size);
	free(grp2);
	free(val2);
	free(cnt2);
	free(keep);
	return ok;
}

static struct mp_cache *mp_cache_get(struct scaling_fitter *f,
				     const double *coords, uint32_t n,
				     struct error *err)
{
	struct fit_cache_key *keys[sizeof f->mp / sizeof f->mp[0]];
	size_t slots = sizeof keys / sizeof keys[0], slot;
	size_t sz = (size_t)n * f->n_params * sizeof *coords;
	struct mp_cache *c;
	bool hit;

	for (size_t i = 0; i < slots; i++)
		keys[i] = f->mp[i] ? &f->mp[i]->key : NULL;
	slot = fit_cache_find(f, keys, slots, coords, sz, &hit);
	if (hit)
		return f->mp[slot];
	c = fit_cache_new(f, sizeof *c, coords, sz, err);
	if (!c)
		return NULL;
	c->n = n;
	c->np = f->n_params;
	for (uint32_t p = 0; p < c->np; p++)
		if (!select_points(c, p)) {
			mp_cache_free(c);
			error_set(err, STATUS_NOMEM, NULL, "out of memory");
			return NULL;
		}
	mp_cache_free(f->mp[slot]);
	f->mp[slot] = c;
	return c;
}

/* ---- candidate functions -------------------------------------------- */

/* A candidate: terms, each a set of the non-constant parameters (bits
 * over the indices of `pairs`). */
struct cand {
	uint32_t n_terms;
	uint8_t term[CAND_TERMS];
};

struct pair {
	uint32_t param;
	int hyp;
};

struct hypo {
	double c[CAND_TERMS + 1]; /* constant, then terms */
	double rss, rrss, smape, re, ar2;
};

/* The compound terms of the pairs at every point, with scalar (Python)
 * and array (numpy) semantics: val[(k * 2 + array) * n + i]. */
struct terms {
	const double *val;
	uint32_t n;
};

/* The value of a term at point i: MultiParameterTerm.evaluate with
 * coefficient `coef` (coef * t_1 * t_2 ..., in parameter order). */
static double term_value(const struct terms *tv, uint8_t set, double coef,
			 uint32_t i, bool array)
{
	double v = coef;

	for (uint32_t k = 0; k < 8; k++)
		if (set & (1u << k))
			v *= tv->val[(size_t)(k * 2 + array) * tv->n + i];
	return v;
}

static void mp_cost(const struct terms *tv, const struct cand *cd,
		    struct hypo *hy, const double *y, uint32_t n)
{
	double smape = 0, re = 0;

	hy->rss = hy->rrss = 0;
	for (uint32_t i = 0; i < n; i++) {
		double pred = hy->c[0], d, abssum;

		for (uint32_t t = 0; t < cd->n_terms; t++)
			pred += term_value(tv, cd->term[t], hy->c[t + 1], i,
					   false);
		d = pred - y[i];
		abssum = fabs(y[i]) + fabs(pred);
		re += fabs(d) / y[i];
		hy->rss += d * d;
		hy->rrss += (d / y[i]) * (d / y[i]);
		if (abssum != 0)
			smape += fabs(d) / abssum * 2;
	}
	hy->re = re / n;
	hy->smape = smape / n * 100;
}

static void mp_ar2(struct hypo *hy, const struct cand *cd, double tss,
		   uint32_t n)
{
	uint32_t counter = 0;
	double adj = 1.0 - hy->rss / tss;

	for (uint32_t t = 0; t < cd->n_terms; t++)
		counter += (uint32_t)__builtin_popcount(cd->term[t]);
	hy->ar2 = 1.0 - (1.0 - adj) * ((double)n - 1.0) /
				(double)((int64_t)n - counter - 1);
}

static enum status mp_coef(struct scaling_fitter *f, const struct terms *tv,
			   const struct cand *cd, struct hypo *hy,
			   const double *y, uint32_t n, struct error *err)
{
	uint32_t cols = cd->n_terms + 1;
	int rank = 0;
	enum status st;

	for (int attempt = 0; attempt < 2; attempt++) {
		if (!fit_grow(&f->a, &f->a_cap, (size_t)n * cols))
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
		for (uint32_t i = 0; i < n; i++) {
			f->a[i] = 1.0;
			for (uint32_t t = 0; t < cd->n_terms; t++)
				f->a[(size_t)(t + 1) * n + i] = term_value(
					tv, cd->term[t], 1.0, i, false);
		}
		st = fit_lstsq(f, (int)n, (int)cols, f->a, y,
			       attempt ? -1.0 : 0.0, hy->c, &rank, err);
		if (st != STATUS_OK || rank >= (int)cols)
			return st;
	}
	return STATUS_OK;
}

static bool contributes(const struct terms *tv, const struct cand *cd,
			const struct hypo *hy, const double *y, uint32_t n)
{
	for (uint32_t t = 0; t < cd->n_terms; t++) {
		double mx = -(double)INFINITY;

		if (hy->c[t + 1] == 0)
			return false;
		for (uint32_t i = 0; i < n; i++) {
			double v = fabs(term_value(tv, cd->term[t],
						   hy->c[t + 1], i, true) /
					y[i]);

			if (isnan(v)) {
				mx = (double)NAN;
				break;
			}
			if (v > mx)
				mx = v;
		}
		if (mx < EPSILON_CONTRIB)
			return false;
	}
	return true;
}

/* The candidates of multi_parameter_modeler.py, in order. */
static uint32_t candidates(uint32_t k, struct cand *out)
{
	uint8_t all = (uint8_t)((1u << k) - 1);
	uint32_t n = 0;

	out[n].n_terms = 1;
	out[n++].term[0] = all;
	out[n].n_terms = k;
	for (uint32_t i = 0; i < k; i++)
		out[n].term[i] = (uint8_t)(1u << i);
	n++;
	if (k == 2) {
		out[n++] = (struct cand){2, {1, all}};
		out[n++] = (struct cand){2, {2, all}};
	} else if (k == 3) {
		static const uint8_t t3[][3] = {
			{7, 1, 0}, {7, 2, 0}, {7, 4, 0}, {7, 3, 0}, {7, 6, 0},
			{7, 5, 0}, {7, 3, 4}, {7, 6, 1}, {7, 5, 2}, {7, 1, 2},
			{7, 1, 4}, {7, 2, 4}, {3, 4, 0}, {3, 4, 2}, {3, 4, 1},
			{5, 2, 0}, {5, 2, 1}, {5, 2, 4}, {6, 1, 0}, {6, 1, 2},
			{6, 1, 4},
		};
		for (size_t i = 0; i < sizeof t3 / sizeof t3[0]; i++) {
			out[n].n_terms = t3[i][2] ? 3 : 2;
			memcpy(out[n].term, t3[i], 3);
			n++;
		}
	}
	return n;
}

static enum status fill_multi(struct scaling_model *out,
			      const struct pair *pairs, const struct cand *cd,
			      const struct hypo *hy, struct error *err)
{
	memset(out, 0, sizeof *out);
	out->kind = SCALING_MULTI;
	out->constant = hy->c[0];
	out->terms = calloc(cd->n_terms, sizeof *out->terms);
	if (!out->terms)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	out->n_terms = cd->n_terms;
	for (uint32_t t = 0; t < cd->n_terms; t++) {
		struct scaling_term *tm = &out->terms[t];

		tm->coefficient = hy->c[t + 1];
		for (uint32_t k = 0; k < 8; k++) {
			if (!(cd->term[t] & (1u << k)))
				continue;
			const struct sp_hyp *h = &sp_hyps[pairs[k].hyp];
			struct scaling_factor *fa = &tm->factors[tm->n_factors++];

			fa->param = pairs[k].param;
			fa->exponent = h->e;
			fa->exponent_num = h->num;
			fa->exponent_den = h->num == 0 ? 1 : h->den;
			fa->log_exponent = h->lg;
			fa->log_exponent_int = true;
		}
	}
	out->rss = hy->rss;
	out->rrss = hy->rrss;
	out->smape = hy->smape;
	out->re = hy->re;
	out->ar2 = hy->ar2;
	out->nrss = 0;
	return STATUS_OK;
}

/* The one-parameter model of each parameter (Extra-P's MultiParameter
 * modeler: per parameter, the means of the points that share its other
 * coordinates, modelled alone); `pairs` gets the parameters whose model
 * has a term, with that term's hypothesis.  `sy` is scratch of at least
 * the points' count. */
static enum status mp_single_models(struct scaling_fitter *f,
				    const struct mp_cache *c, const double *y,
				    double *sy, struct sp_result *res,
				    struct pair *pairs, uint32_t *n_pairs,
				    unsigned *warnings, struct error *err)
{
	for (uint32_t p = 0; p < f->n_params; p++) {
		const struct mp_series *s = &c->ser[p];

		for (uint32_t g = 0; g < s->n_groups; g++) {
			uint32_t a = s->start[g], b = s->start[g + 1];

			if (b - a == 1) {
				sy[g] = y[s->member[a]];
				continue;
			}
			double *tmp = malloc((b - a) * sizeof *tmp);

			if (!tmp)
				return error_set(err, STATUS_NOMEM, NULL,
						 "out of memory");
			for (uint32_t k = a; k < b; k++)
				tmp[k - a] = y[s->member[k]];
			sy[g] = np_mean(tmp, b - a);
			free(tmp);
		}
		enum status st = sp_model(f, s->x, sy, s->n_groups, false,
					  &res[p], NULL, warnings, err);
		if (st != STATUS_OK)
			return st;
		if (res[p].hyp >= 0)
			pairs[(*n_pairs)++] = (struct pair){p, res[p].hyp};
	}
	return STATUS_OK;
}

/* Two or more parameters with a term: every combination of their terms
 * (candidates), the one of least SMAPE among those whose every term
 * contributes, the first (all terms multiplied) when none does better. */
static enum status mp_best_combination(struct scaling_fitter *f,
				       const struct terms *tv,
				       const struct pair *pairs,
				       uint32_t n_pairs, const double *y,
				       uint32_t n, double tss,
				       struct scaling_model *out,
				       struct error *err)
{
	struct cand cands[32];
	uint32_t nc = candidates(n_pairs, cands), bi = 0;
	struct hypo best, hy;

	for (uint32_t i = 0; i < nc; i++) {
		memset(&hy, 0, sizeof hy);
		enum status st = mp_coef(f, tv, &cands[i], &hy, y, n, err);
		if (st != STATUS_OK)
			return st;
		mp_cost(tv, &cands[i], &hy, y, n);
		mp_ar2(&hy, &cands[i], tss, n);
		if (i == 0) {
			best = hy;
			continue;
		}
		if (!contributes(tv, &cands[i], &hy, y, n))
			continue;
		if (hy.smape < best.smape) {
			best = hy;
			bi = i;
		}
	}
	return fill_multi(out, pairs, &cands[bi], &best, err);
}

enum status mp_model(struct scaling_fitter *f, const double *coords,
		     const double *values, uint32_t n_points,
		     struct scaling_model *out, unsigned *warnings,
		     struct error *err)
{
	uint32_t np = f->n_params, n = 0, n_pairs = 0;
	double *pc = malloc(((size_t)n_points * np + 1) * sizeof *pc);
	double *y = malloc(((size_t)n_points + 1) * sizeof *y);
	double *sy = malloc(((size_t)n_points + 1) * sizeof *sy);
	struct pair pairs[SCALING_MAX_PARAMS];
	struct sp_result res[SCALING_MAX_PARAMS];
	struct mp_cache *c;
	enum status st = STATUS_OK;
	double tss, *tval = NULL;
	struct terms tv = {0};

	if (!pc || !y || !sy) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < n_points; i++) {
		if (isnan(values[i]))
			continue;
		memcpy(pc + (size_t)n * np, coords + (size_t)i * np,
		       np * sizeof *pc);
		y[n++] = values[i];
	}
	if (n_points == 0) {
		st = error_set(err, STATUS_USAGE, NULL,
			       "no measurements to model");
		goto out;
	}
	if (n == 0) { /* all NaN: Extra-P's constant NaN */
		constant_model(values, n_points, out);
		goto out;
	}
	c = mp_cache_get(f, pc, n, err);
	if (!c) {
		st = err ? err->status : STATUS_NOMEM;
		goto out;
	}
	st = mp_single_models(f, c, y, sy, res, pairs, &n_pairs, warnings,
			      err);
	if (st != STATUS_OK)
		goto out;
	if (n < 5 && warnings)
		*warnings |= SCALING_WARN_FEW_POINTS;
	{
		double mean = np_mean(y, n);

		for (uint32_t i = 0; i < n; i++)
			sy[i] = (y[i] - mean) * (y[i] - mean);
		tss = np_sum(sy, n);
	}
	if (n_pairs == 0) {
		constant_model(y, n, out);
		goto out;
	}
	tval = malloc((size_t)n_pairs * 2 * n * sizeof *tval);
	if (!tval) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	for (uint32_t k = 0; k < n_pairs; k++) {
		const struct sp_hyp *h = &sp_hyps[pairs[k].hyp];

		for (uint32_t i = 0; i < n; i++) {
			double x = pc[(size_t)i * np + pairs[k].param];

			for (int arr = 0; arr < 2; arr++)
				tval[(size_t)(k * 2 + (uint32_t)arr) * n + i] =
					term_pow(x, h->e, arr) *
					term_log(x, h->lg, arr);
		}
	}
	tv.val = tval;
	tv.n = n;
	if (n_pairs == 1) {
		struct cand cd = {1, {1}};
		struct hypo a = {0}, b = {0};

		a.c[0] = res[pairs[0].param].c0;
		a.c[1] = res[pairs[0].param].c1;
		mp_cost(&tv, &cd, &a, y, n);
		st = mp_coef(f, &tv, &cd, &b, y, n, err);
		if (st != STATUS_OK)
			goto out;
		mp_cost(&tv, &cd, &b, y, n);
		if (b.smape < a.smape)
			a = b;
		mp_ar2(&a, &cd, tss, n);
		st = fill_multi(out, pairs, &cd, &a, err);
		goto out;
	}
	st = mp_best_combination(f, &tv, pairs, n_pairs, y, n, tss, out, err);
out:
	if (st != STATUS_OK)
		scaling_model_clear(out);
	free(pc);
	free(y);
	free(sy);
	free(tval);
	return st;
}
