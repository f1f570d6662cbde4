/* formula_pair: a two-argument formula node (a - b, a / b, a ^ b, max(a,
 * b)) made from its two arguments, the one job that the readers building
 * formulas (Cube's derived statistics and own values, METRICS.yaml's
 * infix text) each wrote out.  Builds on formula.h alone; must not depend
 * on curses or on any reader. */
#ifndef CALLSCOPE_FORMULA_PAIR_H
#define CALLSCOPE_FORMULA_PAIR_H

#include "model/formula.h"

/* The node `op`(a, b), taking ownership of `a` and `b`.  NULL when either
 * is NULL (a constructor that ran out of memory) or when out of memory;
 * both arguments are freed then. */
struct formula *formula_pair(enum formula_op op, struct formula *a,
			     struct formula *b);

#endif
