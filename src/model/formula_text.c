/* formula_text: the infix text form of formulas, as users type derived
 * metrics ("$2 / $1 * 100", "sqrt($3) ^ 2") and as callscope shows them.
 * The parser is recursive descent with an explicit depth bound and an input
 * length bound, so hostile text cannot exhaust the stack; the printer emits
 * the fewest parentheses that keep the tree's shape.  Depends on libc and
 * on formula.c only: no model, no reader, no curses. */
#include "config.h"

#include "model/formula.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deepest nesting of parentheses, function calls, unary minus and operator
 * chains the parser accepts (and the printer walks). */
#define FORMULA_MAX_DEPTH 256
/* Longest text accepted, in bytes. */
#define FORMULA_MAX_TEXT 65536
/* Most arguments of one function call. */
#define FORMULA_MAX_ARGS 4096

struct parser {
	const char *text;
	size_t pos;
	unsigned depth;
	struct error *err;
	enum status status;
};

static void skip_space(struct parser *p)
{
	while (p->text[p->pos] == ' ' || p->text[p->pos] == '\t' ||
	       p->text[p->pos] == '\n' || p->text[p->pos] == '\r')
		p->pos++;
}

/* Record the first error only; later ones are consequences. */
static struct formula *fail(struct parser *p, size_t pos, const char *what)
{
	if (p->status == STATUS_OK)
		p->status = error_set(p->err, STATUS_USAGE, NULL,
				      "at column %zu: %s", pos + 1, what);
	return NULL;
}

static struct formula *nomem(struct parser *p)
{
	if (p->status == STATUS_OK)
		p->status = error_set(p->err, STATUS_NOMEM, NULL,
				      "out of memory");
	return NULL;
}

bool formula_number_value(const char *s, size_t len, double *out)
{
	const char *dp = localeconv()->decimal_point;
	size_t dplen = dp && *dp ? strlen(dp) : 0;
	if (dplen > 8)
		dplen = 0;
	char *copy = malloc(len * (dplen ? dplen : 1) + 1);
	if (!copy)
		return false;
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '.' && dplen) {
			memcpy(copy + n, dp, dplen);
			n += dplen;
		} else {
			copy[n++] = s[i];
		}
	}
	copy[n] = '\0';
	char *end = NULL;
	*out = strtod(copy, &end);
	bool ok = end == copy + n && isfinite(*out);
	free(copy);
	return ok;
}

size_t formula_number_length(const char *s, size_t len)
{
	size_t i = 0, digits = 0;
	while (i < len && isdigit((unsigned char)s[i])) {
		i++;
		digits++;
	}
	if (i < len && s[i] == '.') {
		i++;
		while (i < len && isdigit((unsigned char)s[i])) {
			i++;
			digits++;
		}
	}
	if (digits == 0)
		return 0;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;
		if (j < len && (s[j] == '+' || s[j] == '-'))
			j++;
		if (j < len && isdigit((unsigned char)s[j])) {
			while (j < len && isdigit((unsigned char)s[j]))
				j++;
			i = j;
		}
	}
	return i;
}

static struct formula *parse_expr(struct parser *p);
static struct formula *parse_unary(struct parser *p);

static bool enter(struct parser *p)
{
	if (++p->depth > FORMULA_MAX_DEPTH) {
		fail(p, p->pos, "nesting deeper than 256 levels");
		return false;
	}
	return true;
}

static struct formula *binary(struct parser *p, enum formula_op op,
			      struct formula *a, struct formula *b)
{
	struct formula **args = malloc(2 * sizeof(*args));
	if (!args) {
		formula_free(a);
		formula_free(b);
		return nomem(p);
	}
	args[0] = a;
	args[1] = b;
	struct formula *f = formula_node(op, args, 2);
	return f ? f : nomem(p);
}

static struct formula *parse_call(struct parser *p, size_t start, size_t len)
{
	const struct formula_function *fn =
		formula_function_named(p->text + start, len, '_');
	if (!fn)
		return fail(p, start, "unknown function (expected sum, avg, "
			    "min, max, prod, sqrt, log, pow, floor or ceil)");
	skip_space(p);
	if (p->text[p->pos] != '(')
		return fail(p, p->pos, "expected '(' after the function name");
	p->pos++;
	struct formula **args = NULL;
	size_t n = 0, cap = 0;
	skip_space(p);
	if (p->text[p->pos] == ')') {
		fail(p, p->pos, "expected an argument");
		goto fail;
	}
	for (;;) {
		if (n == FORMULA_MAX_ARGS) {
			fail(p, p->pos, "too many arguments");
			goto fail;
		}
		struct formula *a = parse_expr(p);
		if (!a)
			goto fail;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 4;
			struct formula **na = realloc(args,
						      ncap * sizeof(*na));
			if (!na) {
				formula_free(a);
				nomem(p);
				goto fail;
			}
			args = na;
			cap = ncap;
		}
		args[n++] = a;
		skip_space(p);
		if (p->text[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->text[p->pos] == ')') {
			p->pos++;
			break;
		}
		fail(p, p->pos, "expected ',' or ')'");
		goto fail;
	}
	if (n < fn->min_args || (fn->max_args && n > fn->max_args)) {
		fail(p, start, fn->max_args == 1 ? "this function takes one "
			       "argument" : fn->max_args == 2 && fn->min_args
			       == 2 ? "this function takes two arguments" :
			       "this function takes one or two arguments");
		goto fail;
	}
	struct formula *f = formula_node(fn->op, args, n);
	return f ? f : nomem(p);
fail:
	for (size_t i = 0; i < n; i++)
		formula_free(args[i]);
	free(args);
	return NULL;
}

static struct formula *parse_primary(struct parser *p)
{
	skip_space(p);
	size_t start = p->pos;
	const char *s = p->text + start;
	size_t len = formula_number_length(s, strlen(s));
	if (len) {
		double v;
		p->pos += len;
		if (!formula_number_value(s, len, &v))
			return fail(p, start, "number out of range");
		struct formula *f = formula_number(v);
		return f ? f : nomem(p);
	}
	if (*s == '$') {
		size_t i = 1;
		uint64_t n = 0;
		while (isdigit((unsigned char)s[i])) {
			n = n * 10 + (uint64_t)(s[i] - '0');
			if (n > UINT32_MAX)
				return fail(p, start, "column number too large");
			i++;
		}
		if (i == 1)
			return fail(p, start + 1, "expected a column number "
				    "after '$'");
		if (n == 0)
			return fail(p, start, "columns are numbered from $1");
		p->pos += i;
		struct formula *f = formula_leaf((uint32_t)(n - 1));
		return f ? f : nomem(p);
	}
	if (isalpha((unsigned char)*s)) {
		size_t i = 0;
		while (isalnum((unsigned char)s[i]) || s[i] == '_')
			i++;
		p->pos += i;
		return parse_call(p, start, i);
	}
	if (*s == '(') {
		p->pos++;
		struct formula *f = parse_expr(p);
		if (!f)
			return NULL;
		skip_space(p);
		if (p->text[p->pos] != ')') {
			formula_free(f);
			return fail(p, p->pos, "expected ')'");
		}
		p->pos++;
		return f;
	}
	if (*s == '\0')
		return fail(p, start, "unexpected end (expected a number, $N, "
			    "a function or '(')");
	return fail(p, start, "expected a number, $N, a function or '('");
}

/* power := primary ['^' unary]: right associative, binds tighter than
 * unary minus on its left (-2^2 is -4) but accepts one on its right. */
static struct formula *parse_power(struct parser *p)
{
	struct formula *a = parse_primary(p);
	if (!a)
		return NULL;
	skip_space(p);
	if (p->text[p->pos] != '^')
		return a;
	p->pos++;
	struct formula *b = parse_unary(p);
	if (!b) {
		formula_free(a);
		return NULL;
	}
	return binary(p, FORMULA_POW, a, b);
}

static struct formula *parse_unary(struct parser *p)
{
	if (!enter(p))
		return NULL;
	struct formula *f = NULL;
	skip_space(p);
	if (p->text[p->pos] == '-') {
		p->pos++;
		struct formula *a = parse_unary(p);
		if (a) {
			struct formula **args = malloc(sizeof(*args));
			if (!args) {
				formula_free(a);
				nomem(p);
			} else {
				args[0] = a;
				f = formula_node(FORMULA_NEG, args, 1);
				if (!f)
					nomem(p);
			}
		}
	} else {
		f = parse_power(p);
	}
	p->depth--;
	return f;
}

/* Extend the operator chain `f` (built by the caller's loop) with `b`:
 * a - b - c becomes one n-ary node, so that long flat chains do not nest.
 * A change of operator wraps the chain in a new node, which counts as one
 * more level against the depth bound.  Frees both on failure. */
static struct formula *chain(struct parser *p, struct formula *f, bool own,
			     enum formula_op op, struct formula *b,
			     unsigned *extra)
{
	if (own && f->op == op) {
		if (formula_append(f, b))
			return f;
		formula_free(f);
		formula_free(b);
		return nomem(p);
	}
	if (p->depth + ++*extra > FORMULA_MAX_DEPTH) {
		formula_free(f);
		formula_free(b);
		return fail(p, p->pos, "nesting deeper than 256 levels");
	}
	return binary(p, op, f, b);
}

/* One level of left-associative operators: operands read by `operand`,
 * joined by ops[0] as op[0] and ops[1] as op[1] (a chain of the same
 * n-ary operator grows one node: chain). */
static struct formula *parse_level(struct parser *p,
				   struct formula *(*operand)(struct parser *),
				   const char ops[2],
				   const enum formula_op op[2])
{
	struct formula *f = operand(p);
	bool own = false;
	unsigned extra = 0;
	while (f) {
		skip_space(p);
		char c = p->text[p->pos];
		if (c == '\0' || (c != ops[0] && c != ops[1]))
			break;
		p->pos++;
		struct formula *b = operand(p);
		if (!b) {
			formula_free(f);
			return NULL;
		}
		f = chain(p, f, own, c == ops[0] ? op[0] : op[1], b, &extra);
		own = true;
	}
	return f;
}

static struct formula *parse_term(struct parser *p)
{
	static const enum formula_op op[2] = {FORMULA_MUL, FORMULA_DIV};
	return parse_level(p, parse_unary, "*/", op);
}

static struct formula *parse_expr(struct parser *p)
{
	static const enum formula_op op[2] = {FORMULA_ADD, FORMULA_SUB};
	if (!enter(p))
		return NULL;
	struct formula *f = parse_level(p, parse_term, "+-", op);
	p->depth--;
	return f;
}

enum status formula_parse(const char *text, struct formula **out,
			  struct error *err)
{
	*out = NULL;
	if (!text)
		return error_set(err, STATUS_USAGE, NULL, "no formula");
	size_t len = strnlen(text, FORMULA_MAX_TEXT + 1);
	if (len > FORMULA_MAX_TEXT)
		return error_set(err, STATUS_USAGE, NULL,
				 "formula longer than %d characters",
				 FORMULA_MAX_TEXT);
	struct parser p = {.text = text, .err = err, .status = STATUS_OK};
	skip_space(&p);
	if (text[p.pos] == '\0')
		return error_set(err, STATUS_USAGE, NULL, "empty formula");
	struct formula *f = parse_expr(&p);
	if (f) {
		skip_space(&p);
		if (text[p.pos] != '\0') {
			formula_free(f);
			f = fail(&p, p.pos, text[p.pos] == ')'
				 ? "unbalanced ')'"
				 : "expected an operator or the end");
		}
	}
	if (!f)
		return p.status == STATUS_OK ? error_set(err, STATUS_USAGE,
							 NULL, "invalid formula")
					     : p.status;
	*out = f;
	return STATUS_OK;
}

/* ---- printing ------------------------------------------------------- */

enum prec {
	PREC_ADD = 1,
	PREC_MUL = 2,
	PREC_NEG = 3,
	PREC_POW = 4,
	PREC_ATOM = 5,
};

struct printer {
	struct strbuf out;
	formula_leaf_name_fn name;
	void *ctx;
};

static void put_str(struct printer *pr, const char *s)
{
	strbuf_add(&pr->out, s);
}

static enum prec prec_of(const struct formula *f)
{
	switch (f->op) {
	case FORMULA_NUMBER:
		return signbit(f->number) ? PREC_NEG : PREC_ATOM;
	case FORMULA_ADD:
	case FORMULA_SUB:
		return f->nargs >= 2 ? PREC_ADD : PREC_ATOM;
	case FORMULA_MUL:
	case FORMULA_DIV:
		return f->nargs >= 2 ? PREC_MUL : PREC_ATOM;
	case FORMULA_POW:
		return f->nargs >= 2 ? PREC_POW : PREC_ATOM;
	case FORMULA_NEG:
		return PREC_NEG;
	default:
		return PREC_ATOM;
	}
}

/* Shortest "%g" text that reads back as the same double, with '.' as the
 * decimal point whatever the locale. */
static void put_number(struct printer *pr, double v)
{
	char tmp[64];
	if (!isfinite(v)) {
		put_str(pr, isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
		return;
	}
	for (int digits = 6; digits <= 17; digits++) {
		snprintf(tmp, sizeof(tmp), "%.*g", digits, v);
		const char *dp = localeconv()->decimal_point;
		char *at = dp && *dp ? strstr(tmp, dp) : NULL;
		if (at && strcmp(dp, ".") != 0) {
			size_t dplen = strlen(dp);
			*at = '.';
			memmove(at + 1, at + dplen, strlen(at + dplen) + 1);
		}
		double back;
		const char *t = tmp[0] == '-' ? tmp + 1 : tmp;
		if (formula_number_value(t, strlen(t), &back) &&
		    (tmp[0] == '-' ? -back : back) == v)
			break;
	}
	put_str(pr, tmp);
}

static void print(struct printer *pr, const struct formula *f,
		  unsigned depth);

static void print_operand(struct printer *pr, const struct formula *f,
			  bool paren, unsigned depth)
{
	if (paren)
		put_str(pr, "(");
	print(pr, f, depth + 1);
	if (paren)
		put_str(pr, ")");
}

static const char *infix_text(enum formula_op op)
{
	switch (op) {
	case FORMULA_ADD:
		return " + ";
	case FORMULA_SUB:
		return " - ";
	case FORMULA_MUL:
		return " * ";
	case FORMULA_DIV:
		return " / ";
	default:
		return " ^ ";
	}
}

static void print(struct printer *pr, const struct formula *f,
		  unsigned depth)
{
	if (pr->out.failed)
		return;
	if (depth > FORMULA_MAX_DEPTH * 4) {
		/* built by code, not parsed: still refuse to recurse forever */
		pr->out.failed = true;
		return;
	}
	char tmp[32];
	enum prec p = prec_of(f);
	switch (f->op) {
	case FORMULA_NUMBER:
		put_number(pr, f->number);
		return;
	case FORMULA_LEAF: {
		const char *n = pr->name ? pr->name(pr->ctx, f->leaf) : NULL;
		if (n) {
			put_str(pr, n);
		} else {
			snprintf(tmp, sizeof(tmp), "$%llu",
				 (unsigned long long)f->leaf + 1);
			put_str(pr, tmp);
		}
		return;
	}
	case FORMULA_NEG:
		put_str(pr, "-");
		if (f->nargs)
			print_operand(pr, f->args[0],
				      prec_of(f->args[0]) < PREC_NEG, depth);
		return;
	case FORMULA_POW:
		if (f->nargs >= 2) {
			/* a ^ b ^ c reads as a ^ (b ^ c): an n-ary (left
			 * folded) power needs "((a ^ b) ^ c)" */
			for (size_t i = 2; i < f->nargs; i++)
				put_str(pr, "(");
			print_operand(pr, f->args[0],
				      prec_of(f->args[0]) <= p, depth);
			for (size_t i = 1; i < f->nargs; i++) {
				put_str(pr, " ^ ");
				print_operand(pr, f->args[i],
					      prec_of(f->args[i]) < PREC_NEG,
					      depth);
				if (i + 1 < f->nargs)
					put_str(pr, ")");
			}
			return;
		}
		break;
	case FORMULA_ADD:
	case FORMULA_SUB:
	case FORMULA_MUL:
	case FORMULA_DIV:
		if (f->nargs >= 2) {
			for (size_t i = 0; i < f->nargs; i++) {
				enum prec q = prec_of(f->args[i]);
				if (i)
					put_str(pr, infix_text(f->op));
				print_operand(pr, f->args[i],
					      i == 0 ? q < p : q <= p, depth);
			}
			return;
		}
		break;
	default:
		break;
	}
	const struct formula_function *fn = formula_function_of(f->op);
	if (f->nargs == 0) {
		/* evaluates to 0 */
		put_str(pr, "0");
		return;
	}
	if (!fn || f->op == FORMULA_POW) {
		/* a one-argument + - * / ^ is its argument */
		print_operand(pr, f->args[0], true, depth);
		return;
	}
	put_str(pr, fn->name);
	put_str(pr, "(");
	for (size_t i = 0; i < f->nargs; i++) {
		if (i)
			put_str(pr, ", ");
		print_operand(pr, f->args[i], false, depth);
	}
	put_str(pr, ")");
}

char *formula_to_string(const struct formula *f, formula_leaf_name_fn name,
			void *ctx)
{
	if (!f)
		return NULL;
	struct printer pr = {.name = name, .ctx = ctx};
	print(&pr, f, 0);
	return strbuf_take(&pr.out);
}
