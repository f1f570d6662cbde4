/* extrap3_internal: what extrap3.c (the records) and extrap3_model.c
 * (the Model records' functions) share: the reader's state.  Must not
 * depend on curses, on ui/ or on another format. */
#ifndef CALLSCOPE_EXTRAP3_INTERNAL_H
#define CALLSCOPE_EXTRAP3_INTERNAL_H

#include "formats/extrap/extrap3_io.h"
#include "formats/extrap/extrap_set.h"
#include "model/scaling.h"

struct x3model {
	uint32_t gen, cp, metric;
	struct scaling_model m;
};

struct x3 {
	struct cur c;
	struct extrap_set *s;
	struct idmap regions;   /* id -> index into names */
	char **names;           /* region names (with " #N") */
	size_t n_names, names_cap;
	char **bases;           /* names seen, and their " #N" count */
	uint32_t *base_count;
	size_t n_bases;
	char **cpnames;         /* set callpath -> its name */
	size_t n_cpnames, cpnames_cap;
	struct idmap callpaths; /* id -> set callpath */
	struct idmap coords;    /* id -> set point */
	uint32_t n_metrics;     /* metrics by position */
	char **gen_name;        /* generators by position */
	uint32_t n_gens;
	struct x3model *models; /* models, given to the set at the end */
	size_t n_models, models_cap;
	bool sparse;
	double *cbuf;
};

/* Note "out of memory" as the error (the first failure only); false. */
bool x3_nomem(struct x3 *x);
/* A CompoundTerm after its prefix: coefficient and simple terms into one
 * factor (`keep`: a model's term, whose types must be known). */
bool x3_compound(struct x3 *x, double *coef, struct scaling_factor *f,
		 bool keep);
/* A Model record after its prefix, kept in x->models. */
bool x3_model(struct x3 *x);

#endif
