/* scaling_fit: Extra-P 4.2.5's one-parameter default modeler (basic.py,
 * abstract_base.py, hypotheses.py; ../shared/notes/extrap.md 3.2, 3.4):
 * the constant model, then the 42 one-term hypotheses with leave-one-out
 * cross-validation, constant cleaning, the contribution filter and strict
 * SMAPE selection.  Least squares is LAPACK's dgelsd as numpy.linalg.lstsq
 * calls it, so that the coefficients are Extra-P's to the bit.
 *
 * Speed: everything that depends only on the coordinates is kept per
 * coordinate vector (struct sp_cache): the term values and, computed once
 * through dgelsd against the identity, the pseudo-inverse of each
 * hypothesis's design matrix for every left-out point.  A series then
 * costs matrix-vector products: the hypotheses are ranked with these
 * approximate coefficients, and wherever a decision is closer than their
 * error bound (from the design matrix's condition number), and for the
 * chosen hypothesis, the coefficients are recomputed with dgelsd itself.
 * Must not depend on curses, on ui/ or on any reader. */
#include "config.h"

#include "analysis/scaling_fit_internal.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPSILON_CONTRIB 0.0005
/* The pseudo-inverses cost O(42 n^3) time and 672 n^2 bytes per
 * coordinate vector, a series then O(42 n^2) multiply-adds; dgelsd
 * directly costs O(42 n^2) per series with a larger constant.  Above this
 * many points the cache is not built (review finding 2: 800 points took
 * 167 s and 430 MB); see doc/PERFORMANCE.md for the crossover. */
#define SP_APPROX_MAX_N 64

const struct sp_hyp sp_hyps[SP_N_HYP] = {
#define H(i, j, k) {i, j, k, (double)(i) / (j)}
	H(0, 1, 1), H(0, 1, 2), H(1, 4, 0), H(1, 3, 0), H(1, 4, 1),
	H(1, 3, 1), H(1, 4, 2), H(1, 3, 2), H(1, 2, 0), H(1, 2, 1),
	H(1, 2, 2), H(2, 3, 0), H(3, 4, 0), H(2, 3, 1), H(3, 4, 1),
	H(4, 5, 0), H(2, 3, 2), H(3, 4, 2), H(1, 1, 0), H(1, 1, 1),
	H(1, 1, 2), H(5, 4, 0), H(5, 4, 1), H(4, 3, 0), H(4, 3, 1),
	H(3, 2, 0), H(3, 2, 1), H(3, 2, 2), H(5, 3, 0), H(7, 4, 0),
	H(2, 1, 0), H(2, 1, 1), H(2, 1, 2), H(9, 4, 0), H(7, 3, 0),
	H(5, 2, 0), H(5, 2, 1), H(5, 2, 2), H(8, 3, 0), H(11, 4, 0),
	H(3, 1, 0), H(3, 1, 1),
#undef H
};

/* ---- per coordinate vector ------------------------------------------ */

struct sp_cache {
	struct fit_cache_key key; /* first (fit_cache_new): the points' x */
	uint32_t n;
	bool log_ok;
	uint32_t n_hyp;
	uint8_t hyp[SP_N_HYP];
	bool approx; /* pinv built (else every fit by dgelsd) */
	/* [hi * n + i]: x^e and log2(x)^k with array and scalar semantics */
	double *pa, *la, *ps, *ls;
	/* [(hi * (n + 1) + e) * 2 * n + r * n + j]: row r of the
	 * pseudo-inverse without point e (e == n: all points) */
	double *pinv;
	double *tol; /* [hi]: relative error bound of the approximation,
			(double)INFINITY where it must not be used */
};

void sp_cache_free(struct sp_cache *c)
{
	if (!c)
		return;
	free(c->key.coords);
	free(c->pa);
	free(c->la);
	free(c->ps);
	free(c->ls);
	free(c->pinv);
	free(c->tol);
	free(c);
}

/* The pseudo-inverse of hypothesis `hi`'s design matrix without point `e`
 * (e < n; all points for e == n), by dgelsd against the identity, into
 * c->pinv; *worst rises to its condition number (s[0] / s[1]), or to
 * infinity where LAPACK fails or the matrix is rank deficient.  `a` and
 * `b` are scratch (2n and ldb x n doubles); *work and *iwork grow as
 * dgelsd asks.  STATUS_NOMEM is the only failure. */
static enum status sp_pinv_one(struct sp_cache *c, uint32_t hi, uint32_t e,
			       double *a, double *b, double **work,
			       int **iwork, double *worst, struct error *err)
{
	uint32_t n = c->n;
	int m, rank, lw;
	double wq, s[2];
	int iwq;
	double *p = c->pinv + ((size_t)hi * (n + 1) + e) * 2 * n;

	m = e < n ? (int)n - 1 : (int)n;
	for (uint32_t i = 0, j = 0; i < n; i++) {
		size_t k = (size_t)hi * n + i;

		if (i == e)
			continue;
		a[j] = 1.0;
		a[(size_t)m + j] = c->pa[k] * c->la[k];
		j++;
	}
	int mm = m, lb = mm > 2 ? mm : 2;

	memset(b, 0, (size_t)lb * (size_t)mm * sizeof *b);
	for (int j = 0; j < mm; j++)
		b[(size_t)j * (size_t)lb + (size_t)j] = 1.0;
	double rcond = DBL_EPSILON * (mm > 2 ? mm : 2);
	lapack_int rk = 0;

	if (LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, mm, 2, mm, a, mm, b, lb, s,
				rcond, &rk, &wq, -1, &iwq) != 0) {
		*worst = (double)INFINITY;
		return STATUS_OK;
	}
	lw = (int)wq + 1;
	*work = realloc(*work, (size_t)lw * sizeof **work);
	*iwork = realloc(*iwork, ((size_t)iwq + 1) * sizeof **iwork);
	if (!*work || !*iwork)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	if (LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, mm, 2, mm, a, mm, b, lb, s,
				rcond, &rk, *work, lw, *iwork) != 0) {
		*worst = (double)INFINITY;
		return STATUS_OK;
	}
	rank = (int)rk;
	if (rank < 2 || !(s[1] > 0))
		*worst = (double)INFINITY;
	else if (s[0] / s[1] > *worst)
		*worst = s[0] / s[1];
	for (int j = 0; j < mm; j++) {
		p[j] = b[(size_t)j * (size_t)lb];
		p[n + (size_t)j] = b[(size_t)j * (size_t)lb + 1];
	}
	return STATUS_OK;
}

static enum status sp_cache_build(struct scaling_fitter *f,
				  struct sp_cache *c, struct error *err)
{
	uint32_t n = c->n;
	size_t ldb = n > 2 ? n : 2;
	double *a = NULL, *b = NULL;
	double *work = NULL;
	int *iwork = NULL;
	enum status st = STATUS_OK;

	c->approx = !f->direct && n <= SP_APPROX_MAX_N;
	c->log_ok = true;
	for (uint32_t i = 0; i < n; i++)
		if (c->key.coords[i] < 1.0)
			c->log_ok = false;
	c->n_hyp = 0;
	for (int h = 0; h < SP_N_HYP; h++)
		if (c->log_ok || sp_hyps[h].lg == 0)
			c->hyp[c->n_hyp++] = (uint8_t)h;
	size_t nv = (size_t)c->n_hyp * n;
	c->pa = malloc(nv * sizeof *c->pa);
	c->la = malloc(nv * sizeof *c->la);
	c->ps = malloc(nv * sizeof *c->ps);
	c->ls = malloc(nv * sizeof *c->ls);
	c->tol = malloc(c->n_hyp * sizeof *c->tol);
	if (c->approx) {
		c->pinv = malloc((size_t)c->n_hyp * (n + 1) * 2 * n *
				 sizeof *c->pinv);
		a = malloc(2 * (size_t)n * sizeof *a);
		b = malloc(ldb * n * sizeof *b);
	}
	if (!c->pa || !c->la || !c->ps || !c->ls || !c->tol ||
	    (c->approx && (!c->pinv || !a || !b))) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	for (uint32_t hi = 0; hi < c->n_hyp; hi++) {
		const struct sp_hyp *h = &sp_hyps[c->hyp[hi]];
		double worst = 1;

		for (uint32_t i = 0; i < n; i++) {
			size_t k = (size_t)hi * n + i;

			c->pa[k] = term_pow(c->key.coords[i], h->e, true);
			c->la[k] = term_log(c->key.coords[i], h->lg, true);
			c->ps[k] = term_pow(c->key.coords[i], h->e, false);
			c->ls[k] = term_log(c->key.coords[i], h->lg, false);
		}
		if (!c->approx) {
			c->tol[hi] = (double)INFINITY;
			continue;
		}
		/* no pseudo-inverse of a matrix with a NaN, an inf or a
		 * value too large for dgelsd (LAPACK would print on stderr):
		 * the hypothesis takes the exact route, where fit_lstsq gives
		 * it NaN coefficients */
		for (uint32_t i = 0; i < n; i++)
			if (!fit_usable(c->pa[(size_t)hi * n + i] *
					c->la[(size_t)hi * n + i]))
				worst = (double)INFINITY;
		for (uint32_t e = 0; worst < (double)INFINITY && e <= n; e++) {
			st = sp_pinv_one(c, hi, e, a, b, &work, &iwork, &worst,
					 err);
			if (st != STATUS_OK)
				goto out;
		}
		/* the approximate route differs from dgelsd by about
		 * cond * eps relative; keep a wide margin, and do not use it
		 * at all where the matrix is (nearly) rank deficient */
		c->tol[hi] = worst > 1e10 ? (double)INFINITY : 1e-9 + 1e-13 * worst;
	}
out:
	free(a);
	free(b);
	free(work);
	free(iwork);
	return st;
}

static struct sp_cache *sp_cache_get(struct scaling_fitter *f,
				     const double *x, uint32_t n,
				     struct error *err)
{
	struct fit_cache_key *keys[sizeof f->sp / sizeof f->sp[0]];
	size_t slots = sizeof keys / sizeof keys[0], slot;
	struct sp_cache *c;
	bool hit;

	for (size_t i = 0; i < slots; i++)
		keys[i] = f->sp[i] ? &f->sp[i]->key : NULL;
	slot = fit_cache_find(f, keys, slots, x, n * sizeof *x, &hit);
	if (hit)
		return f->sp[slot];
	c = fit_cache_new(f, sizeof *c, x, n * sizeof *x, err);
	if (!c)
		return NULL;
	c->n = n;
	if (sp_cache_build(f, c, err) != STATUS_OK) {
		sp_cache_free(c);
		return NULL;
	}
	sp_cache_free(f->sp[slot]);
	f->sp[slot] = c;
	return c;
}

/* ---- one hypothesis on one series ----------------------------------- */

struct hres {
	bool done, exact, invalid, clean_unsure;
	double c0, c1; /* full fit */
	double rss, rrss, nrss, smape, re, ar2, contrib;
};

/* What a series needs besides y: per left-out point, the mean and the
 * minimum of the others. */
struct series {
	const double *y;
	uint32_t n;
	double tss, maxabs;
	double *mean_wo, *min_wo, *ytrain;
};

static enum status coef(struct scaling_fitter *f, const struct sp_cache *c,
			uint32_t hi, uint32_t e, const struct series *s,
			bool exact, double *c0, double *c1, struct error *err)
{
	uint32_t n = c->n, m = 0;
	double *ytr = s->ytrain;

	for (uint32_t i = 0; i < n; i++)
		if (i != e)
			ytr[m++] = s->y[i];
	if (!exact) {
		const double *p = c->pinv + ((size_t)hi * (n + 1) + e) * 2 * n;
		double a0 = 0, a1 = 0;

		for (uint32_t j = 0; j < m; j++) {
			a0 += p[j] * ytr[j];
			a1 += p[n + j] * ytr[j];
		}
		*c0 = a0;
		*c1 = a1;
		return STATUS_OK;
	}
	double x[2];
	enum status st;

	if (!fit_grow(&f->a, &f->a_cap, 2 * (size_t)m))
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	for (uint32_t i = 0, j = 0; i < n; i++) {
		size_t k = (size_t)hi * n + i;

		if (i == e)
			continue;
		f->a[j] = 1.0;
		f->a[m + j] = c->pa[k] * c->la[k];
		j++;
	}
	st = fit_lstsq(f, (int)m, 2, f->a, ytr, 0, x, NULL, err);
	*c0 = x[0];
	*c1 = x[1];
	return st;
}

static enum status eval_hyp(struct scaling_fitter *f, const struct sp_cache *c,
			    uint32_t hi, const struct series *s, bool exact,
			    struct hres *r, struct error *err)
{
	uint32_t n = c->n;
	double tol = exact ? 0 : c->tol[hi];
	enum status st;

	memset(r, 0, sizeof *r);
	for (uint32_t e = 0; e < n; e++) {
		double c0, c1, mn = s->min_wo[e], q, p, y = s->y[e], d, abssum;
		size_t k = (size_t)hi * n + e;

		st = coef(f, c, hi, e, s, exact, &c0, &c1, err);
		if (st != STATUS_OK)
			return st;
		q = mn == 0 ? fabs(c0 - mn) : fabs(c0 / mn);
		if (!exact && fabs(q - EPSILON_CONTRIB) <=
				      10 * tol * s->maxabs /
					      (mn == 0 ? 1 : fabs(mn)))
			r->clean_unsure = true;
		if (q < EPSILON_CONTRIB)
			c0 = 0;
		p = c0 + c1 * c->ps[k] * c->ls[k];
		d = p - y;
		r->rss += d * d;
		r->nrss += sqrt(r->rss) / s->mean_wo[e] / (double)n;
		if (y != 0) {
			double rd = d / y;

			r->re += fabs(rd) / (double)n;
			r->rrss += rd * rd;
		}
		abssum = fabs(y) + fabs(p);
		if (abssum != 0)
			r->smape += (fabs(d) / abssum * 2) / (double)n * 100;
	}
	st = coef(f, c, hi, n, s, exact, &r->c0, &r->c1, err);
	if (st != STATUS_OK)
		return st;
	{
		double adj = 1.0 - r->rss / s->tss;
		double dof = (double)n - 1 - 1;

		r->ar2 = 1.0 - (1.0 - adj) * ((double)n - 1.0) / dof;
	}
	r->invalid = isnan(r->rss) || isinf(r->rss);
	r->contrib = -(double)INFINITY;
	for (uint32_t i = 0; i < n; i++) {
		size_t k = (size_t)hi * n + i;
		double v = fabs(r->c1 * c->pa[k] * c->la[k] / s->y[i]);

		if (isnan(v)) {
			r->contrib = (double)NAN;
			break;
		}
		if (v > r->contrib)
			r->contrib = v;
	}
	r->done = true;
	r->exact = exact;
	return STATUS_OK;
}

enum { DEC_REJECT, DEC_ACCEPT, DEC_UNSURE };

/* compare_hypotheses of abstract_base.py, with the error bounds of
 * approximate values. */
static int decide(const struct hres *r, double tol_r, double best_smape,
		  double tol_b)
{
	if (!r->exact && tol_r == (double)INFINITY)
		return DEC_UNSURE;
	if (r->invalid)
		return r->exact ? DEC_REJECT : DEC_UNSURE;
	if (!r->exact && r->clean_unsure)
		return DEC_UNSURE;
	if (r->c1 == 0)
		return r->exact ? DEC_REJECT : DEC_UNSURE;
	if (!r->exact && !isnan(r->contrib) &&
	    fabs(r->contrib - EPSILON_CONTRIB) <= 10 * tol_r)
		return DEC_UNSURE;
	if (r->contrib < EPSILON_CONTRIB)
		return DEC_REJECT;
	double margin = 200 * (tol_r + tol_b) +
			1e-12 * fmax(fabs(r->smape), fabs(best_smape));
	if ((tol_r > 0 || tol_b > 0) && fabs(r->smape - best_smape) <= margin)
		return DEC_UNSURE;
	return r->smape < best_smape ? DEC_ACCEPT : DEC_REJECT;
}

static void fill_single(struct scaling_model *model, const struct sp_hyp *h,
			const struct hres *r)
{
	struct scaling_factor *fa = &model->terms[0].factors[0];

	model->kind = SCALING_SINGLE;
	model->constant = r->c0;
	model->n_terms = 1;
	model->terms[0].coefficient = r->c1;
	model->terms[0].n_factors = 1;
	memset(fa, 0, sizeof *fa);
	fa->param = 0;
	fa->exponent = h->e;
	fa->exponent_num = h->num;
	fa->exponent_den = h->num == 0 ? 1 : h->den;
	fa->log_exponent = h->lg;
	fa->log_exponent_int = true;
	model->rss = r->rss;
	model->rrss = r->rrss;
	model->nrss = r->nrss;
	model->smape = r->smape;
	model->ar2 = r->ar2;
	model->re = r->re;
}

enum status sp_model(struct scaling_fitter *f, const double *x,
		     const double *y, uint32_t n, bool exact_costs,
		     struct sp_result *res, struct scaling_model *model,
		     unsigned *warnings, struct error *err)
{
	struct scaling_model cm;
	struct sp_cache *c;
	struct series s = {.y = y, .n = n};
	struct hres hr[SP_N_HYP], *best = NULL;
	double tol_best = 0;
	int best_hi = -1;
	bool all_exact = false;
	enum status st = STATUS_OK;

	res->hyp = -1;
	res->c1 = 0;
	if (n < 5 && warnings)
		*warnings |= SCALING_WARN_FEW_POINTS;
	constant_model(y, n, &cm);
	res->c0 = cm.constant;
	if (model) {
		scaling_model_clear(model);
		*model = cm;
	}
	if (cm.rss == 0 || n < 2)
		return STATUS_OK;
	c = sp_cache_get(f, x, n, err);
	if (!c)
		return err ? err->status : STATUS_NOMEM;
	if (!c->log_ok && warnings)
		*warnings |= SCALING_WARN_LOG_DROPPED;
	if (!fit_grow(&f->tmp, &f->tmp_cap, 3 * (size_t)n))
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	s.mean_wo = f->tmp;
	s.min_wo = f->tmp + n;
	s.ytrain = f->tmp + 2 * (size_t)n;
	s.tss = cm.rss;
	s.maxabs = 0;
	all_exact = f->direct;
	for (uint32_t i = 0; i < n; i++) {
		if (!isfinite(y[i]) || y[i] == 0)
			all_exact = true;
		s.maxabs = fmax(s.maxabs, fabs(y[i]));
	}
	for (uint32_t e = 0; e < n; e++) {
		uint32_t m = 0;
		double mn = (double)INFINITY;

		for (uint32_t i = 0; i < n; i++)
			if (i != e) {
				s.ytrain[m++] = y[i];
				if (y[i] < mn)
					mn = y[i];
			}
		s.mean_wo[e] = np_mean(s.ytrain, m);
		s.min_wo[e] = mn;
	}
	for (uint32_t hi = 0; hi < c->n_hyp; hi++) {
		struct hres *r = &hr[hi];
		double tol = all_exact ? (double)INFINITY : c->tol[hi];
		int dec;

		st = eval_hyp(f, c, hi, &s, tol == (double)INFINITY, r, err);
		if (st != STATUS_OK)
			return st;
		dec = decide(r, r->exact ? 0 : tol,
			     best ? best->smape : cm.smape, tol_best);
		if (dec == DEC_UNSURE) {
			st = eval_hyp(f, c, hi, &s, true, r, err);
			if (st == STATUS_OK && best && !best->exact)
				st = eval_hyp(f, c, (uint32_t)best_hi, &s, true,
					      best, err);
			if (st != STATUS_OK)
				return st;
			tol_best = 0;
			dec = decide(r, 0, best ? best->smape : cm.smape, 0);
		}
		if (dec == DEC_ACCEPT) {
			best = r;
			best_hi = (int)hi;
			tol_best = r->exact ? 0 : tol;
		}
	}
	if (!best)
		return STATUS_OK;
	if (!best->exact) {
		if (exact_costs) {
			st = eval_hyp(f, c, (uint32_t)best_hi, &s, true, best,
				      err);
		} else {
			st = coef(f, c, (uint32_t)best_hi, n, &s, true,
				  &best->c0, &best->c1, err);
		}
		if (st != STATUS_OK)
			return st;
	}
	res->hyp = c->hyp[best_hi];
	res->c0 = best->c0;
	res->c1 = best->c1;
	if (model) {
		model->terms = calloc(1, sizeof *model->terms);
		if (!model->terms)
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
		fill_single(model, &sp_hyps[res->hyp], best);
	}
	return STATUS_OK;
}

/* ---- the entry point -------------------------------------------------- */

enum status scaling_fit(struct scaling_fitter *f, const double *coords,
			const double *values, uint32_t n_points,
			struct scaling_model *out, unsigned *warnings,
			struct error *err)
{
	struct sp_result res;
	double *x = NULL, *y = NULL;
	uint32_t n = 0;
	enum status st;

	memset(out, 0, sizeof *out);
	if (f->n_params > 1)
		return mp_model(f, coords, values, n_points, out, warnings,
				err);
	x = malloc((n_points ? n_points : 1) * sizeof *x);
	y = malloc((n_points ? n_points : 1) * sizeof *y);
	if (!x || !y) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < n_points; i++) {
		if (isnan(values[i]))
			continue;
		x[n] = coords[i];
		y[n] = values[i];
		n++;
	}
	if (n_points == 0) {
		st = error_set(err, STATUS_USAGE, NULL,
			       "no measurements to model");
		goto out;
	}
	if (n == 0) { /* all NaN: Extra-P's constant NaN */
		constant_model(values, n_points, out);
		st = STATUS_OK;
		goto out;
	}
	st = sp_model(f, x, y, n, true, &res, out, warnings, err);
	if (st != STATUS_OK)
		scaling_model_clear(out);
out:
	free(x);
	free(y);
	return st;
}
