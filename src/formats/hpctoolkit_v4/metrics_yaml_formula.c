/* metrics_yaml_formula: formulas of a METRICS.yaml file into formula
 * trees: inputs (aliases to `inputs:` entries), numbers, infix sequences
 * (`[4*, [*a, -, *b]]`, "2 * 3") and function maps (`{sqrt: [a]}`), every
 * node counted against the file's node budget and every nesting against
 * FORMULA_MAX_DEPTH; also the canonical text a stat's formula is matched
 * by, copies, and comparison.  Must not depend on curses or on another
 * format. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "formats/hpctoolkit_v4/metrics_yaml_internal.h"
#include "model/formula_pair.h"

/* "$$" -> "$1", parsed and printed back: whitespace and extraneous
 * parentheses go ("($$^2)" and "$$ ^ 2" compare equal).  Text the formula
 * parser does not read is compared with its whitespace removed. */
char *my_canonical_formula(const char *text)
{
	size_t len = strlen(text);
	char *t = malloc(len + 1);
	if (!t)
		return NULL;
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '$' && text[i + 1] == '$') {
			t[n++] = '$';
			t[n++] = '1';
			i++;
		} else {
			t[n++] = text[i];
		}
	}
	t[n] = '\0';
	struct formula *f = NULL;
	struct error err = {0};
	if (formula_parse(t, &f, &err) == STATUS_OK) {
		char *s = formula_to_string(f, NULL, NULL);
		formula_free(f);
		if (s) {
			free(t);
			return s;
		}
	}
	error_clear(&err);
	n = 0;
	for (size_t i = 0; t[i]; i++)
		if (!isspace((unsigned char)t[i]))
			t[n++] = t[i];
	t[n] = '\0';
	return t;
}

static struct formula *node_new(struct ctx *c, const yaml_node_t *at,
				struct formula *f)
{
	if (!f) {
		my_nomem(c);
		return NULL;
	}
	if (++c->formula_nodes > FORMULA_NODE_BUDGET) {
		formula_free(f);
		my_fail(c, STATUS_LIMIT, at,
			"formulas too large (alias "
			"expansion over %d nodes)",
			FORMULA_NODE_BUDGET);
		return NULL;
	}
	return f;
}

struct formula *my_make_node(struct ctx *c, const yaml_node_t *at,
			     enum formula_op op, struct formula **args,
			     size_t nargs)
{
	return node_new(c, at, formula_node(op, args, nargs));
}

static struct formula *make_pair(struct ctx *c, const yaml_node_t *at,
				 enum formula_op op, struct formula *a,
				 struct formula *b)
{
	return node_new(c, at, formula_pair(op, a, b));
}

/* One token of an infix sequence: an operator or an operand. */
struct token {
	char op;                 /* '+', '-', '*', '/', '^', or 0 */
	struct formula *operand; /* when op == 0 */
	const yaml_node_t *at;
};

struct tokens {
	struct token *t;
	size_t n, cap, pos;
	unsigned depth;
};

static bool tokens_push(struct ctx *c, struct tokens *ts, struct token tok)
{
	if (!array_grow((void **)&ts->t, &ts->cap, ts->n + 1, sizeof(*ts->t))) {
		formula_free(tok.operand);
		return my_nomem(c);
	}
	ts->t[ts->n++] = tok;
	return true;
}

static void tokens_free(struct tokens *ts)
{
	for (size_t i = 0; i < ts->n; i++)
		formula_free(ts->t[i].operand);
	free(ts->t);
}


/* Split a scalar such as "4*" or "2 * 3.5" into tokens. */
static bool tokenize_scalar(struct ctx *c, const yaml_node_t *n,
			    struct tokens *ts)
{
	const char *s = (const char *)n->data.scalar.value;
	size_t len = n->data.scalar.length;
	for (size_t i = 0; i < len;) {
		if (!my_step(c, n))
			return false;
		if (isspace((unsigned char)s[i])) {
			i++;
			continue;
		}
		if (strchr("+-*/^", s[i]) && s[i]) {
			if (!tokens_push(c, ts, (struct token){.op = s[i],
								.at = n}))
				return false;
			i++;
			continue;
		}
		size_t k = formula_number_length(s + i, len - i);
		double v;
		if (k == 0)
			return my_fail(c, STATUS_CORRUPT, n,
				       "formula: unexpected "
				       "'%.*s' (expected a number or one of "
				       "+ - * / ^)",
				       (int)(len - i > 20 ? 20 : len - i),
				       s + i);
		if (!formula_number_value(s + i, k, &v))
			return my_fail(c, STATUS_CORRUPT, n,
				       "formula: bad number "
				       "'%.*s'",
				       (int)k, s + i);
		struct formula *f = node_new(c, n, formula_number(v));
		if (!f || !tokens_push(c, ts, (struct token){.operand = f,
							       .at = n}))
			return false;
		i += k;
	}
	return true;
}

static struct formula *build(struct ctx *c, yaml_node_t *n, unsigned depth);
static struct formula *tok_unary(struct ctx *c, struct tokens *ts);
static struct formula *tok_expr(struct ctx *c, struct tokens *ts);

static const yaml_node_t *tok_at(const struct tokens *ts)
{
	if (ts->pos < ts->n)
		return ts->t[ts->pos].at;
	return ts->n ? ts->t[ts->n - 1].at : NULL;
}

static char tok_op(const struct tokens *ts)
{
	return ts->pos < ts->n ? ts->t[ts->pos].op : 0;
}

static struct formula *tok_primary(struct ctx *c, struct tokens *ts)
{
	if (ts->pos >= ts->n || ts->t[ts->pos].op) {
		my_fail(c, STATUS_CORRUPT, tok_at(ts),
			"formula: expected an "
			"operand%s",
			ts->pos >= ts->n ? " at the end" : "");
		return NULL;
	}
	struct formula *f = ts->t[ts->pos].operand;
	ts->t[ts->pos++].operand = NULL;
	return f;
}

static struct formula *tok_power(struct ctx *c, struct tokens *ts)
{
	struct formula *a = tok_primary(c, ts);
	if (!a || tok_op(ts) != '^')
		return a;
	const yaml_node_t *at = tok_at(ts);
	ts->pos++;
	struct formula *b = tok_unary(c, ts);
	if (!b) {
		formula_free(a);
		return NULL;
	}
	return make_pair(c, at, FORMULA_POW, a, b);
}

static struct formula *tok_unary(struct ctx *c, struct tokens *ts)
{
	if (++ts->depth > FORMULA_MAX_DEPTH) {
		my_fail(c, STATUS_LIMIT, tok_at(ts),
			"formula nested deeper "
			"than %d levels",
			FORMULA_MAX_DEPTH);
		return NULL;
	}
	struct formula *f;
	if (tok_op(ts) == '-') {
		const yaml_node_t *at = tok_at(ts);
		ts->pos++;
		f = tok_unary(c, ts);
		if (f) {
			struct formula **args = malloc(sizeof(*args));
			if (!args) {
				formula_free(f);
				my_nomem(c);
				f = NULL;
			} else {
				args[0] = f;
				f = my_make_node(c, at, FORMULA_NEG, args, 1);
			}
		}
	} else {
		f = tok_power(c, ts);
	}
	ts->depth--;
	return f;
}

/* Append `b` to the chain `f` of operator `op` (one n-ary node), or wrap
 * `f` in a new node when the operator changes. */
static struct formula *tok_chain(struct ctx *c, const yaml_node_t *at,
				 struct formula *f, bool own,
				 enum formula_op op, struct formula *b,
				 unsigned *extra, unsigned depth)
{
	if (own && f->op == op) {
		if (formula_append(f, b))
			return f;
		formula_free(f);
		formula_free(b);
		my_nomem(c);
		return NULL;
	}
	if (depth + ++*extra > FORMULA_MAX_DEPTH) {
		formula_free(f);
		formula_free(b);
		my_fail(c, STATUS_LIMIT, at,
			"formula nested deeper than %d "
			"levels",
			FORMULA_MAX_DEPTH);
		return NULL;
	}
	return make_pair(c, at, op, f, b);
}

/* One precedence level: operands read by `operand`, joined by the
 * operators `op_a` (formula fa) and `op_b` (fb), left to right. */
static struct formula *tok_level(struct ctx *c, struct tokens *ts,
				 struct formula *(*operand)(struct ctx *,
							    struct tokens *),
				 char op_a, enum formula_op fa, char op_b,
				 enum formula_op fb)
{
	struct formula *f = operand(c, ts);
	bool own = false;
	unsigned extra = 0;
	while (f && (tok_op(ts) == op_a || tok_op(ts) == op_b)) {
		const yaml_node_t *at = tok_at(ts);
		char op = tok_op(ts);
		ts->pos++;
		struct formula *b = operand(c, ts);
		if (!b) {
			formula_free(f);
			return NULL;
		}
		f = tok_chain(c, at, f, own, op == op_a ? fa : fb, b, &extra,
			      ts->depth);
		own = true;
	}
	return f;
}

static struct formula *tok_term(struct ctx *c, struct tokens *ts)
{
	return tok_level(c, ts, tok_unary, '*', FORMULA_MUL, '/', FORMULA_DIV);
}

static struct formula *tok_expr(struct ctx *c, struct tokens *ts)
{
	return tok_level(c, ts, tok_term, '+', FORMULA_ADD, '-', FORMULA_SUB);
}

/* A parenthesized infix sequence `[4*, [*a, -, *b]]`, or one scalar
 * "2 * 3" (n is then the scalar itself). */
static struct formula *build_infix(struct ctx *c, yaml_node_t *n,
				   unsigned depth)
{
	struct tokens ts = {.depth = depth};
	struct formula *f = NULL;
	if (n->type == YAML_SCALAR_NODE) {
		if (!tokenize_scalar(c, n, &ts))
			goto out;
	} else {
		for (yaml_node_item_t *i = n->data.sequence.items.start;
		     i < n->data.sequence.items.top; i++) {
			yaml_node_t *e = node_at(c, *i);
			if (!my_step(c, n))
				goto out;
			if (is_scalar(e) && !is_null(e)) {
				if (!tokenize_scalar(c, e, &ts))
					goto out;
				continue;
			}
			struct formula *g = build(c, e, depth + 1);
			if (!g || !tokens_push(c, &ts, (struct token){
						  .operand = g, .at = e}))
				goto out;
		}
	}
	if (ts.n == 0) {
		my_fail(c, STATUS_CORRUPT, n, "formula: empty expression");
		goto out;
	}
	f = tok_expr(c, &ts);
	if (f && ts.pos < ts.n) {
		formula_free(f);
		f = NULL;
		my_fail(c, STATUS_CORRUPT, tok_at(&ts),
			"formula: expected an "
			"operator between operands");
	}
out:
	tokens_free(&ts);
	return f;
}

/* The operators; the named functions are the formulas' own
 * (formula_function_named, words joined by ' ' here: "strict floor"). */
static const struct formula_function operators[] = {
	{.name = "+", .op = FORMULA_ADD, .min_args = 1},
	{.name = "-", .op = FORMULA_SUB, .min_args = 1},
	{.name = "*", .op = FORMULA_MUL, .min_args = 1},
	{.name = "/", .op = FORMULA_DIV, .min_args = 1},
	{.name = "^", .op = FORMULA_POW, .min_args = 1},
};

/* `{sqrt: [a]}`, `{+: [a, b, c]}`: a function or operator applied to the
 * elements of a sequence (or to a single non-sequence value). */
static struct formula *build_call(struct ctx *c, yaml_node_t *n,
				  unsigned depth)
{
	yaml_node_pair_t *p = n->data.mapping.pairs.start;
	if (n->data.mapping.pairs.top - p != 1) {
		my_fail(c, STATUS_CORRUPT, n,
			"formula: expected an input or a "
			"function call (a mapping with one key)");
		return NULL;
	}
	yaml_node_t *key = node_at(c, p->key), *val = node_at(c, p->value);
	const struct formula_function *fn = NULL;
	for (size_t i = 0; i < sizeof(operators) / sizeof(operators[0]); i++)
		if (scalar_is(key, operators[i].name))
			fn = &operators[i];
	if (!fn && is_scalar(key))
		fn = formula_function_named((const char *)key->data.scalar.value,
					    key->data.scalar.length, ' ');
	if (!fn) {
		my_fail(c, STATUS_CORRUPT, key,
			"formula: unknown function '%.*s'",
			is_scalar(key) ? (int)(key->data.scalar.length > 40
						   ? 40
						   : key->data.scalar.length)
				       : 1,
			is_scalar(key) ? (const char *)key->data.scalar.value
				       : "?");
		return NULL;
	}
	size_t n_args = val && val->type == YAML_SEQUENCE_NODE
		? (size_t)(val->data.sequence.items.top -
			   val->data.sequence.items.start)
		: 1;
	if (n_args < fn->min_args || (fn->max_args && n_args > fn->max_args)) {
		my_fail(c, STATUS_CORRUPT, key,
			"formula: '%.*s' takes %zu to %zu "
			"arguments, found %zu",
			(int)key->data.scalar.length,
			(const char *)key->data.scalar.value, fn->min_args,
			fn->max_args ? fn->max_args : (size_t)999, n_args);
		return NULL;
	}
	struct formula **args = calloc(n_args, sizeof(*args));
	if (!args) {
		my_nomem(c);
		return NULL;
	}
	for (size_t i = 0; i < n_args; i++) {
		yaml_node_t *a = val && val->type == YAML_SEQUENCE_NODE
			? node_at(c, val->data.sequence.items.start[i]) : val;
		args[i] = build(c, a, depth + 1);
		if (!args[i]) {
			for (size_t j = 0; j < i; j++)
				formula_free(args[j]);
			free(args);
			return NULL;
		}
	}
	if (n_args == 1 && fn->max_args == 0 && fn->op != FORMULA_SUB) {
		/* {+: [a]} is a */
		struct formula *f = args[0];
		free(args);
		return f;
	}
	return my_make_node(
	    c, n, n_args == 1 && fn->op == FORMULA_SUB ? FORMULA_NEG : fn->op,
	    args, n_args);
}

/* A formula: an input (alias to an `inputs:` entry), a scalar, an infix
 * sequence or a function map. */
static struct formula *build(struct ctx *c, yaml_node_t *n, unsigned depth)
{
	if (!my_step(c, n))
		return NULL;
	if (depth > FORMULA_MAX_DEPTH) {
		my_fail(c, STATUS_LIMIT, n,
			"formula nested deeper than %d levels",
			FORMULA_MAX_DEPTH);
		return NULL;
	}
	if (!n || is_null(n)) {
		my_fail(c, STATUS_CORRUPT, n, "formula: expected a value");
		return NULL;
	}
	size_t idx = index_of(c, n);
	if (idx < c->n_nodes && c->is_input[idx]) {
		uint32_t stat = c->input_stat[idx];
		if (stat == MODEL_NONE)
			c->missing = true;
		return node_new(c, n, formula_leaf(stat == MODEL_NONE ? 0
						   : stat));
	}
	switch (n->type) {
	case YAML_SCALAR_NODE:
	case YAML_SEQUENCE_NODE:
		return build_infix(c, n, depth);
	case YAML_MAPPING_NODE:
		return build_call(c, n, depth);
	default:
		my_fail(c, STATUS_CORRUPT, n, "formula: unexpected node");
		return NULL;
	}
}

/* Build a formula; *missing tells whether it names a statistic the
 * database lacks (the formula is then dropped).  False on error. */
bool my_build_top(struct ctx *c, yaml_node_t *n, struct formula **out,
		  bool *missing)
{
	c->missing = false;
	*out = build(c, n, 0);
	if (!*out)
		return false;
	*missing = c->missing;
	if (*missing) {
		formula_free(*out);
		*out = NULL;
	}
	return true;
}

struct formula *my_clone(struct ctx *c, const struct formula *f,
			 unsigned depth)
{
	if (c->status != STATUS_OK)
		return NULL;
	if (depth > FORMULA_MAX_DEPTH * 2) {
		my_fail(c, STATUS_LIMIT, NULL,
			"formula nested deeper than %d "
			"levels",
			FORMULA_MAX_DEPTH * 2);
		return NULL;
	}
	if (f->op == FORMULA_NUMBER)
		return node_new(c, NULL, formula_number(f->number));
	if (f->op == FORMULA_LEAF)
		return node_new(c, NULL, formula_leaf(f->leaf));
	struct formula **args = calloc(f->nargs ? f->nargs : 1,
				       sizeof(*args));
	if (!args) {
		my_nomem(c);
		return NULL;
	}
	for (size_t i = 0; i < f->nargs; i++) {
		args[i] = my_clone(c, f->args[i], depth + 1);
		if (!args[i]) {
			for (size_t j = 0; j < i; j++)
				formula_free(args[j]);
			free(args);
			return NULL;
		}
	}
	return my_make_node(c, NULL, f->op, args, f->nargs);
}

bool my_same_formula(const struct formula *a, const struct formula *b)
{
	char *x = formula_to_string(a, NULL, NULL);
	char *y = formula_to_string(b, NULL, NULL);
	bool same = x && y && strcmp(x, y) == 0;
	free(x);
	free(y);
	return same;
}
