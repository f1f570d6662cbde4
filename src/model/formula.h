/* formula: arithmetic expressions over summary statistics and columns.
 *
 * Used for METRICS.yaml variant formulas (leaves are summary statistics of
 * the model), for derived metrics typed by the user ($2 / $1 * 100, leaves
 * are columns), and for legacy experiment.xml formulas.  A formula is an
 * immutable tree; evaluation asks a callback for each leaf value.
 * Must not depend on curses, on the model or on any reader. */
#ifndef CALLSCOPE_FORMULA_H
#define CALLSCOPE_FORMULA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

enum formula_op {
	FORMULA_NUMBER,   /* constant `number` */
	FORMULA_LEAF,     /* value of leaf `leaf` (a stat or a column index) */
	FORMULA_NEG,      /* -args[0] */
	FORMULA_ADD,      /* args[0] + args[1] + ... */
	FORMULA_SUB,      /* args[0] - args[1] */
	FORMULA_MUL,      /* args[0] * args[1] * ... */
	FORMULA_DIV,      /* args[0] / args[1] */
	FORMULA_POW,      /* args[0] ^ args[1] */
	FORMULA_SUM,      /* sum(args...) */
	FORMULA_PROD,     /* prod(args...) */
	FORMULA_AVG,      /* avg(args...) */
	FORMULA_MIN,      /* min(args...) */
	FORMULA_MAX,      /* max(args...) */
	FORMULA_SQRT,     /* sqrt(a) */
	FORMULA_LOG,      /* log(a) natural, or log(a, base) */
	FORMULA_FLOOR,    /* floor(a) */
	FORMULA_CEIL,     /* ceil(a) */
	FORMULA_STRICT_FLOOR, /* largest integer < a */
	FORMULA_STRICT_CEIL,  /* smallest integer > a */
};

struct formula {
	enum formula_op op;
	double number;         /* FORMULA_NUMBER */
	uint32_t leaf;         /* FORMULA_LEAF */
	size_t nargs;
	struct formula **args; /* owned */
};

/* Leaf lookup for evaluation: store the value of `leaf` in *out and return
 * true, or return false when the leaf has no value. */
typedef bool (*formula_leaf_fn)(void *ctx, uint32_t leaf, double *out);

/* Evaluate.  Returns false when no leaf had a value (the result is "absent",
 * shown as empty / null); leaves without a value count as 0 otherwise.
 * Division by zero gives 0 rather than inf/nan, as hpcviewer shows it. */
bool formula_eval(const struct formula *f, formula_leaf_fn leaf, void *ctx,
		  double *out);

/* Constructors; each returns NULL when out of memory.  formula_node takes
 * ownership of `args` (an array of `nargs` formulas allocated with malloc). */
struct formula *formula_number(double value);
struct formula *formula_leaf(uint32_t leaf);
struct formula *formula_node(enum formula_op op, struct formula **args,
			     size_t nargs);

/* Append `b` as the last argument of the n-ary node `f`, made by
 * formula_node with a power-of-two number of arguments and grown only by
 * this function (its argument array doubles at powers of two), so that a
 * long chain a - b - c - ... stays one node; false when out of memory
 * (neither freed). */
bool formula_append(struct formula *f, struct formula *b);

/* True when `f` is a single leaf; its index is stored in *leaf. */
bool formula_is_leaf(const struct formula *f, uint32_t *leaf);

/* Parse infix text: numbers, $N leaves (column N, 1-based as the user types
 * it, stored as N-1), + - * / ^, parentheses, unary minus, and the functions
 * sum avg min max prod sqrt log pow floor ceil.  On error returns
 * STATUS_USAGE with a message naming the position. */
enum status formula_parse(const char *text, struct formula **out,
			  struct error *err);

/* Render as infix text with leaves printed by `leaf_name` (or as $N+1 when
 * NULL).  Returns a heap string or NULL. */
typedef const char *(*formula_leaf_name_fn)(void *ctx, uint32_t leaf);
char *formula_to_string(const struct formula *f, formula_leaf_name_fn name,
			void *ctx);

/* Length of the decimal number (digits, optional fraction, optional
 * exponent) at the start of the `len` bytes at `s`; 0 when they do not start
 * with a number.  Shared by the formula and METRICS.yaml parsers. */
size_t formula_number_length(const char *s, size_t len);

/* The value of the decimal text [s, s+len) written in the C locale's
 * notation, whatever the process locale is; false when it is not one
 * finite number. */
bool formula_number_value(const char *s, size_t len, double *out);

/* The named functions of formulas (sum avg min max prod sqrt log pow
 * floor ceil strict_floor strict_ceil), one table for both syntaxes that
 * write them: the text of formula_parse joins a name's words with '_'
 * ("strict_floor"), HPCToolkit's METRICS.yaml with ' ' ("strict floor"). */
struct formula_function {
	const char *name; /* words joined by '_' */
	enum formula_op op;
	size_t min_args, max_args; /* max 0: any number */
};

/* The function named by the `len` bytes at `name`, whose words are joined
 * by `space` ('_' or ' '), or NULL. */
const struct formula_function *formula_function_named(const char *name,
						      size_t len, char space);

/* The function whose operation is `op`, or NULL (+ - * / ^ are not
 * named functions). */
const struct formula_function *formula_function_of(enum formula_op op);

void formula_free(struct formula *f);

#endif
