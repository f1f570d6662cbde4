/* scaling_fit_internal: what the one-parameter modeler (scaling_fit.c) and
 * the multi-parameter modeler (scaling_fit_multi.c) share: the fitter,
 * least squares as numpy.linalg.lstsq does it (LAPACK dgelsd), numpy's
 * pairwise mean, and Extra-P's term evaluation with numpy's array and
 * scalar semantics (which differ in the last bit: an array raised to 0.5
 * is sqrt, a Python float raised to 0.5 is pow).  Private to the fitter. */
#ifndef CALLSCOPE_SCALING_FIT_INTERNAL_H
#define CALLSCOPE_SCALING_FIT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/scaling.h"
#include "analysis/scaling_fit.h"

/* The 42 one-parameter hypotheses (the notes say 43; basic.py lists 42), x^(num/den) * log2(x)^lg, in Extra-P's
 * order (basic.py). */
#define SP_N_HYP 42
struct sp_hyp {
	int8_t num, den, lg;
	double e; /* num / den, 0 for a pure log */
};
extern const struct sp_hyp sp_hyps[SP_N_HYP];

/* A one-parameter model as the multi-parameter modeler needs it. */
struct sp_result {
	int hyp; /* index into sp_hyps, -1 for a constant */
	double c0, c1;
};

struct sp_cache;
struct mp_cache;

/* What a cache entry (struct sp_cache, struct mp_cache: their first
 * member) was built for and when it was last used: the fitter keeps a few entries of each kind
 * and replaces the least recently used (fit_cache_find). */
struct fit_cache_key {
	double *coords; /* the points' coordinates, `bytes` of them */
	size_t bytes;
	uint64_t used; /* the fitter's clock at the last use */
};

struct scaling_fitter {
	uint32_t n_params;
	bool direct; /* no approximate route */
	/* dgelsd workspace */
	double *work, *a, *b, *s;
	int *iwork;
	size_t work_cap, a_cap, b_cap, s_cap, iwork_cap;
	/* the last workspace query: shape m x n, its answers */
	int q_m, q_n, q_iwq;
	double q_wq;
	/* caches per coordinate vector, least recently used replaced */
	struct sp_cache *sp[8];
	struct mp_cache *mp[4];
	uint64_t clock;
	/* scratch */
	double *tmp;
	size_t tmp_cap;
};

/* Whether dgelsd can take v: finite and its square too (1e150 <
 * sqrt(DBL_MAX)); a NaN is not. */
#define FIT_MAX_ABS 1e150
static inline bool fit_usable(double v)
{
	return v >= -FIT_MAX_ABS && v <= FIT_MAX_ABS;
}

/* Least squares of A (m x n, column major, lda m; overwritten) against b
 * (m; copied) into x (n), as numpy.linalg.lstsq(A, b, rcond): rcond < 0
 * for machine precision, otherwise as given; *rank set.  Where A or b
 * holds a value that is not fit_usable, x is all NaN and *rank 0 (dgelsd
 * is not called).  STATUS_NOMEM,
 * STATUS_CORRUPT when dgelsd fails. */
enum status fit_lstsq(struct scaling_fitter *f, int m, int n, double *a,
		      const double *b, double rcond, double *x, int *rank,
		      struct error *err);

/* numpy.mean of n values (pairwise summation). */
double np_mean(const double *v, size_t n);
/* numpy.sum (pairwise) */
double np_sum(const double *v, size_t n);

/* x^e and log2(x)^k as numpy evaluates them on an array (array = true)
 * or Python on a float (array = false). */
double term_pow(double x, double e, bool array);
double term_log(double x, int k, bool array);

/* Among `n_slots` cache entries (keys[i]: their keys, NULL for an empty
 * slot) the one built for `coords` (`bytes`): its index with *hit, its
 * use stamped; else the slot a new entry goes in (the first empty one,
 * else the least recently used) and *hit false. */
size_t fit_cache_find(struct scaling_fitter *f,
		      struct fit_cache_key *const *keys, size_t n_slots,
		      const double *coords, size_t bytes, bool *hit);

/* A new cache entry of `size` bytes, zeroed but for its key (its first
 * member): a copy of `coords` (`bytes`), its use stamped; NULL after
 * setting *err when out of memory.  Free it with the entry's own free
 * (which frees key.coords). */
void *fit_cache_new(struct scaling_fitter *f, size_t size,
		    const double *coords, size_t bytes, struct error *err);

/* Grow *p to hold n doubles. */
bool fit_grow(double **p, size_t *cap, size_t n);

/* The one-parameter modeler on (x[i], y[i]); `exact_costs` asks for the
 * leave-one-out fit numbers of the chosen hypothesis bit for bit (else
 * only its coefficients are exact).  Fills *res and, when model is not
 * NULL, the model (kind SINGLE or CONSTANT, one factor on param 0). */
enum status sp_model(struct scaling_fitter *f, const double *x,
		     const double *y, uint32_t n, bool exact_costs,
		     struct sp_result *res, struct scaling_model *model,
		     unsigned *warnings, struct error *err);

/* The constant model of y with Extra-P's ConstantHypothesis numbers. */
void constant_model(const double *y, uint32_t n, struct scaling_model *model);

/* The multi-parameter modeler (scaling_fit_multi.c). */
enum status mp_model(struct scaling_fitter *f, const double *coords,
		     const double *values, uint32_t n_points,
		     struct scaling_model *out, unsigned *warnings,
		     struct error *err);

void sp_cache_free(struct sp_cache *c);
void mp_cache_free(struct mp_cache *c);

#endif
