/* scaling_fit_num: what the one- and multi-parameter modelers share
 * (scaling_fit_internal.h): the fitter itself, least squares as
 * numpy.linalg.lstsq calls LAPACK (dgelsd through LAPACKE, rcond =
 * eps * max(m, n) or machine precision), numpy's pairwise summation, the
 * term evaluation with numpy's array and Python's scalar semantics, and
 * Extra-P's constant model (ConstantHypothesis.compute_cost).  Must not
 * depend on curses, on ui/ or on any reader. */
#include "config.h"

#include "analysis/measure_stats.h"
#include "analysis/scaling_fit_internal.h"
#include "core/lazylib.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- numerics shared with the multi-parameter modeler --------------- */

bool fit_grow(double **p, size_t *cap, size_t n)
{
	double *np;

	if (n <= *cap)
		return true;
	np = realloc(*p, n * sizeof *np);
	if (!np)
		return false;
	*p = np;
	*cap = n;
	return true;
}

size_t fit_cache_find(struct scaling_fitter *f,
		      struct fit_cache_key *const *keys, size_t n_slots,
		      const double *coords, size_t bytes, bool *hit)
{
	size_t victim = 0;

	*hit = false;
	for (size_t i = 0; i < n_slots; i++) {
		struct fit_cache_key *k = keys[i];

		if (k && k->bytes == bytes && !memcmp(k->coords, coords, bytes)) {
			k->used = ++f->clock;
			*hit = true;
			return i;
		}
		if (!k)
			return i;
		if (k->used < keys[victim]->used)
			victim = i;
	}
	return victim;
}

void *fit_cache_new(struct scaling_fitter *f, size_t size,
		    const double *coords, size_t bytes, struct error *err)
{
	struct fit_cache_key *k = calloc(1, size);

	if (!k || !(k->coords = malloc(bytes))) {
		free(k);
		error_set(err, STATUS_NOMEM, NULL, "out of memory");
		return NULL;
	}
	memcpy(k->coords, coords, bytes);
	k->bytes = bytes;
	k->used = ++f->clock;
	return k;
}

double np_sum(const double *v, size_t n)
{
	return measure_np_sum(v, n);
}

double np_mean(const double *v, size_t n)
{
	return measure_np_sum(v, n) / (double)n;
}

/* numpy's power on an array with a scalar exponent takes fast paths
 * (fast_scalar_power: 0.5 sqrt, 1 copy, 2 square); Python's float power
 * and numpy's scalar power call pow. */
double term_pow(double x, double e, bool array)
{
	if (e == 0)
		return 1.0;
	if (array) {
		if (e == 0.5)
			return sqrt(x);
		if (e == 1.0)
			return x;
		if (e == 2.0)
			return x * x;
	}
	return pow(x, e);
}

double term_log(double x, int k, bool array)
{
	double l;

	if (k == 0)
		return 1.0;
	l = log2(x);
	if (array) {
		if (k == 1)
			return l;
		if (k == 2)
			return l * l;
	}
	return pow(l, (double)k);
}

enum status fit_lstsq(struct scaling_fitter *f, int m, int n, double *a,
		      const double *b, double rcond, double *x, int *rank,
		      struct error *err)
{
	int ldb = m > n ? m : n;
	double wq;
	int iwq = 0;
	lapack_int info, rk = 0;

	/* LAPACK's XERBLA prints on stderr (and dgelsd fails) when the
	 * matrix holds a NaN or an inf, and so it does for finite values
	 * whose squares overflow (dlalsd's scaling underflows to 0): such a
	 * hypothesis is given NaN coefficients, so NaN costs, and is
	 * discarded as Extra-P discards a hypothesis whose RSS is NaN or
	 * inf */
	for (size_t i = 0; i < (size_t)m * (size_t)n; i++)
		if (!fit_usable(a[i]))
			goto nonfinite;
	for (int i = 0; i < m; i++)
		if (!fit_usable(b[i]))
			goto nonfinite;
	if (!fit_grow(&f->b, &f->b_cap, (size_t)ldb) ||
	    !fit_grow(&f->s, &f->s_cap, (size_t)(m < n ? m : n) + 1))
		return error_set(err, STATUS_NOMEM, NULL,
				 "out of memory fitting a model");
	memset(f->b, 0, (size_t)ldb * sizeof *f->b);
	memcpy(f->b, b, (size_t)m * sizeof *b);
	if (rcond >= 0)
		rcond = DBL_EPSILON * (double)(m > n ? m : n);
	/* the workspace query depends only on the shape: asked once per
	 * shape (a series of n points asks 42 (n + 1) times for one) */
	if (m == f->q_m && n == f->q_n) {
		wq = f->q_wq;
		iwq = f->q_iwq;
	} else {
		info = LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, m, n, 1, a, m,
					   f->b, ldb, f->s, rcond, &rk, &wq,
					   -1, &iwq);
		if (info != 0)
			return error_set(err, STATUS_CORRUPT, NULL,
					 "least squares failed (dgelsd %d)",
					 (int)info);
		f->q_m = m;
		f->q_n = n;
		f->q_wq = wq;
		f->q_iwq = iwq;
	}
	if (!fit_grow(&f->work, &f->work_cap, (size_t)wq + 1))
		return error_set(err, STATUS_NOMEM, NULL,
				 "out of memory fitting a model");
	if ((size_t)iwq + 1 > f->iwork_cap) {
		int *ni = realloc(f->iwork, ((size_t)iwq + 1) * sizeof *ni);

		if (!ni)
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory fitting a model");
		f->iwork = ni;
		f->iwork_cap = (size_t)iwq + 1;
	}
	info = LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, m, n, 1, a, m, f->b, ldb,
				   f->s, rcond, &rk, f->work,
				   (lapack_int)f->work_cap, f->iwork);
	if (info != 0)
		return error_set(err, STATUS_CORRUPT, NULL,
				 "least squares failed (dgelsd %d)", (int)info);
	memcpy(x, f->b, (size_t)n * sizeof *x);
	if (rank)
		*rank = (int)rk;
	return STATUS_OK;
nonfinite:
	for (int i = 0; i < n; i++)
		x[i] = (double)NAN;
	if (rank)
		*rank = 0;
	return STATUS_OK;
}

/* ---- the fitter ------------------------------------------------------ */

struct scaling_fitter *scaling_fitter_new(uint32_t n_params,
					  struct error *err)
{
	struct scaling_fitter *f;

	if (n_params == 0 || n_params > SCALING_MAX_PARAMS) {
		error_set(err, STATUS_USAGE, NULL,
			  "a model needs 1 to %d parameters, not %u",
			  SCALING_MAX_PARAMS, n_params);
		return NULL;
	}
	/* LAPACKE is opened here, so that its absence is this error */
	if (lazylib_require(LAZYLIB_LAPACKE, err) != STATUS_OK)
		return NULL;
	f = calloc(1, sizeof *f);
	if (!f) {
		error_set(err, STATUS_NOMEM, NULL, "out of memory");
		return NULL;
	}
	f->n_params = n_params;
	return f;
}

void scaling_fitter_set_direct(struct scaling_fitter *f, bool direct)
{
	f->direct = direct;
}

void scaling_fitter_free(struct scaling_fitter *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < sizeof f->sp / sizeof f->sp[0]; i++)
		sp_cache_free(f->sp[i]);
	for (size_t i = 0; i < sizeof f->mp / sizeof f->mp[0]; i++)
		mp_cache_free(f->mp[i]);
	free(f->work);
	free(f->a);
	free(f->b);
	free(f->s);
	free(f->iwork);
	free(f->tmp);
	free(f);
}

/* ---- the constant model (ConstantHypothesis.compute_cost) ------------ */

void constant_model(const double *y, uint32_t n, struct scaling_model *model)
{
	double c = np_mean(y, n), rss = 0, rrss = 0, re = 0, smape = 0;

	for (uint32_t i = 0; i < n; i++) {
		double d = c - y[i], abssum;

		rss += d * d;
		if (y[i] != 0) {
			double rd = d / y[i];

			rrss += rd * rd;
			re = fabs(d) / y[i];
		}
		abssum = fabs(y[i]) + fabs(c);
		if (abssum != 0)
			smape += fabs(d) / abssum * 2;
	}
	memset(model, 0, sizeof *model);
	model->kind = SCALING_CONSTANT;
	model->constant = c;
	model->rss = rss;
	model->rrss = rrss;
	model->re = re;
	model->ar2 = 1;
	model->smape = n ? smape / n * 100 : 0;
	model->nrss = c != 0 ? sqrt(rss) / c : (double)NAN;
}

