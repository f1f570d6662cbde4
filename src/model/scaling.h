/* scaling: performance models of parametric measurement sets, the
 * functions Extra-P fits ("t(p) = 4.2 + 0.03 * p^(3/2) * log2(p)"): a
 * constant plus terms, each term a coefficient times a product of factors
 * x_p^e * log2(x_p)^k over the set's parameters, with the fit numbers
 * Extra-P reports.  Evaluation and Extra-P's exact model text live here
 * (scaling.c); the fitter that makes them is analysis/scaling_fit.h.  Stored models
 * (read from .extra-p and Extra-P 3 files) use the same structure.  Must
 * not depend on curses, on ui/ or on any reader. */
#ifndef CALLSCOPE_SCALING_H
#define CALLSCOPE_SCALING_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"

/* Factors per term: one per parameter at most. */
#define SCALING_MAX_PARAMS 8

/* x_param^exponent * log2(x_param)^log_exponent. */
struct scaling_factor {
	uint32_t param;       /* index into the set's parameters */
	double exponent;      /* polynomial exponent, 0 for none */
	int32_t exponent_num; /* the same as a reduced fraction (3 / 2) */
	int32_t exponent_den; /* 0 when the exponent is known only as a
				 float (stored models: printed "x^(2.0)") */
	double log_exponent;  /* of log2(x_param), 0 for none */
	bool log_exponent_int; /* an integer (fitted models: printed
				  "log2(x)^(1)"); false when known only as
				  a float (stored models: "log2(x)^(1.0)") */
};

struct scaling_term {
	double coefficient;
	uint32_t n_factors; /* in parameter order */
	struct scaling_factor factors[SCALING_MAX_PARAMS];
};

/* What Extra-P calls the hypothesis class; it decides how the fit
 * numbers were computed (leave-one-out for SINGLE, in-sample otherwise). */
enum scaling_kind {
	SCALING_CONSTANT,
	SCALING_SINGLE, /* one parameter, one term */
	SCALING_MULTI,  /* several parameters */
};

/* One performance model with its fit numbers (NaN where unknown: a
 * stored model without them). */
struct scaling_model {
	uint8_t kind; /* enum scaling_kind */
	double constant;
	uint32_t n_terms;
	struct scaling_term *terms; /* malloc'd, NULL when n_terms is 0 */
	double rss, rrss, nrss, smape, ar2, re;
};

/* The model's value at `coords` (one per parameter of the set). */
double scaling_eval(const struct scaling_model *model, const double *coords);

/* The model as Extra-P 4.2.5 prints it ("4.2 + 0.03 * p^(3/2) *
 * log2(p)^(1)"), parameters named by `names` (n_names of them); heap
 * string, NULL when out of memory.  Not sanitized. */
char *scaling_text(const struct scaling_model *model,
		   const char *const *names, uint32_t n_names);

/* The model in short, for screens (scaling_compact.c): coefficients to
 * `digits` significant digits (1..17), the terms by growth, the fastest
 * first ("2.43e-8*s^(1/4)*log2(s)^2 + 9.41e-7"); reads back as an
 * expression with ^ as power whose value is the model's to within half a
 * unit of the last digit shown of each term.  Heap string, NULL when out
 * of memory.  Not sanitized. */
char *scaling_text_compact(const struct scaling_model *model,
			   const char *const *names, uint32_t n_names,
			   int digits);

/* Deep copy; STATUS_NOMEM leaves *to cleared. */
enum status scaling_model_copy(struct scaling_model *to,
			       const struct scaling_model *from,
			       struct error *err);

/* Free the terms; the model becomes an empty constant 0. */
void scaling_model_clear(struct scaling_model *model);

#endif
