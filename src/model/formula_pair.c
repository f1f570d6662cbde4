/* formula_pair: a two-argument formula node from its arguments (see
 * formula_pair.h); only formula.c's constructors below it. */
#include "config.h"

#include <stdlib.h>

#include "model/formula_pair.h"

struct formula *formula_pair(enum formula_op op, struct formula *a,
			     struct formula *b)
{
	struct formula **args = a && b ? malloc(2 * sizeof(*args)) : NULL;
	if (!args) {
		formula_free(a);
		formula_free(b);
		return NULL;
	}
	args[0] = a;
	args[1] = b;
	return formula_node(op, args, 2);
}
