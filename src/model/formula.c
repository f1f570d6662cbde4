/* formula: construction (n-ary chains grown by formula_append),
 * evaluation and release of expression trees, and the table of the named
 * functions both formula syntaxes share.  Parsing and printing live in
 * formula_text.c.  Depends on libc, libm and core/check.h only. */
#include "config.h"

#include "model/formula.h"
#include "core/check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct formula_function functions[] = {
	{.name = "sum", .op = FORMULA_SUM, .min_args = 1, .max_args = 0},
	{.name = "avg", .op = FORMULA_AVG, .min_args = 1, .max_args = 0},
	{.name = "min", .op = FORMULA_MIN, .min_args = 1, .max_args = 0},
	{.name = "max", .op = FORMULA_MAX, .min_args = 1, .max_args = 0},
	{.name = "prod", .op = FORMULA_PROD, .min_args = 1, .max_args = 0},
	{.name = "sqrt", .op = FORMULA_SQRT, .min_args = 1, .max_args = 1},
	{.name = "log", .op = FORMULA_LOG, .min_args = 1, .max_args = 2},
	{.name = "pow", .op = FORMULA_POW, .min_args = 2, .max_args = 2},
	{.name = "floor", .op = FORMULA_FLOOR, .min_args = 1, .max_args = 1},
	{.name = "ceil", .op = FORMULA_CEIL, .min_args = 1, .max_args = 1},
	{.name = "strict_floor", .op = FORMULA_STRICT_FLOOR, .min_args = 1,
	 .max_args = 1},
	{.name = "strict_ceil", .op = FORMULA_STRICT_CEIL, .min_args = 1,
	 .max_args = 1},
};

const struct formula_function *formula_function_named(const char *name,
						      size_t len, char space)
{
	for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++) {
		const char *f = functions[i].name;
		size_t k = 0;
		while (k < len && f[k] && (f[k] == '_' ? space : f[k]) == name[k])
			k++;
		if (k == len && !f[k])
			return &functions[i];
	}
	return NULL;
}

const struct formula_function *formula_function_of(enum formula_op op)
{
	for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
		if (functions[i].op == op)
			return &functions[i];
	return NULL;
}

static struct formula *formula_alloc(enum formula_op op)
{
	struct formula *f = calloc(1, sizeof(*f));
	if (f)
		f->op = op;
	return f;
}

struct formula *formula_number(double value)
{
	struct formula *f = formula_alloc(FORMULA_NUMBER);
	if (f)
		f->number = value;
	return f;
}

struct formula *formula_leaf(uint32_t leaf)
{
	struct formula *f = formula_alloc(FORMULA_LEAF);
	if (f)
		f->leaf = leaf;
	return f;
}

struct formula *formula_node(enum formula_op op, struct formula **args,
			     size_t nargs)
{
	struct formula *f = formula_alloc(op);
	if (!f) {
		for (size_t i = 0; i < nargs; i++)
			formula_free(args[i]);
		free(args);
		return NULL;
	}
	f->args = args;
	f->nargs = nargs;
	return f;
}

bool formula_append(struct formula *f, struct formula *b)
{
	size_t n = f->nargs;
	CHECK(n > 0 && f->args != NULL); /* made by formula_node */
	if ((n & (n - 1)) == 0) {
		/* capacity doubles at powers of two */
		struct formula **na = realloc(f->args, 2 * n * sizeof(*na));
		if (!na)
			return false;
		f->args = na;
	}
	f->args[f->nargs++] = b;
	return true;
}

bool formula_is_leaf(const struct formula *f, uint32_t *leaf)
{
	if (!f || f->op != FORMULA_LEAF)
		return false;
	*leaf = f->leaf;
	return true;
}

void formula_free(struct formula *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nargs; i++)
		formula_free(f->args[i]);
	free(f->args);
	free(f);
}

/* Recursive evaluation; `any` records whether some leaf had a value.
 * Formulas come from METRICS.yaml files and user input, whose depth the
 * parsers bound (FORMULA_MAX_DEPTH in formula_text.c and metrics_yaml.c). */
static double eval(const struct formula *f, formula_leaf_fn leaf, void *ctx,
		   bool *any)
{
	double a, b, r;
	switch (f->op) {
	case FORMULA_NUMBER:
		return f->number;
	case FORMULA_LEAF:
		if (leaf && leaf(ctx, f->leaf, &r)) {
			*any = true;
			return r;
		}
		return 0;
	default:
		break;
	}
	if (f->nargs == 0)
		return 0;
	a = eval(f->args[0], leaf, ctx, any);
	switch (f->op) {
	case FORMULA_NEG:
		return -a;
	case FORMULA_SQRT:
		return a < 0 ? 0 : sqrt(a);
	case FORMULA_FLOOR:
		return floor(a);
	case FORMULA_CEIL:
		return ceil(a);
	case FORMULA_STRICT_FLOOR:
		r = floor(a);
		return r == a ? a - 1 : r;
	case FORMULA_STRICT_CEIL:
		r = ceil(a);
		return r == a ? a + 1 : r;
	case FORMULA_LOG:
		if (a <= 0)
			return 0;
		if (f->nargs > 1) {
			b = eval(f->args[1], leaf, ctx, any);
			if (b <= 0 || b == 1)
				return 0;
			return log(a) / log(b);
		}
		return log(a);
	default:
		break;
	}
	r = a;
	for (size_t i = 1; i < f->nargs; i++) {
		b = eval(f->args[i], leaf, ctx, any);
		switch (f->op) {
		case FORMULA_ADD:
		case FORMULA_SUM:
		case FORMULA_AVG:
			r += b;
			break;
		case FORMULA_SUB:
			r -= b;
			break;
		case FORMULA_MUL:
		case FORMULA_PROD:
			r *= b;
			break;
		case FORMULA_DIV:
			r = b == 0 ? 0 : r / b;
			break;
		case FORMULA_POW:
			r = pow(r, b);
			break;
		case FORMULA_MIN:
			r = b < r ? b : r;
			break;
		case FORMULA_MAX:
			r = b > r ? b : r;
			break;
		default:
			break;
		}
	}
	if (f->op == FORMULA_AVG)
		r /= (double)f->nargs;
	if (!isfinite(r))
		r = 0;
	return r;
}

bool formula_eval(const struct formula *f, formula_leaf_fn leaf, void *ctx,
		  double *out)
{
	if (!f)
		return false;
	bool any = false;
	double v = eval(f, leaf, ctx, &any);
	if (!any && f->op != FORMULA_NUMBER)
		return false;
	*out = v;
	return true;
}
