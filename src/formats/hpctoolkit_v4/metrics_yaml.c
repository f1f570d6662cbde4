/* metrics_yaml: reads an HPCToolkit METRICS.yaml taxonomy (the
 * metrics/default.yaml of a v4 database; ../shared/specs/
 * hpctoolkit-METRICS.yaml) into metric columns over the statistics a
 * reader already added to a model builder.
 *
 * The file is loaded with libyaml's document API, which turns every alias
 * into a reference to its anchored node, so the loaded document is a graph
 * no larger than the file; a hostile file can make that graph cyclic
 * (`&a [*a]`) or exponentially wide when unfolded (alias bombs).  Every
 * walk here therefore carries a depth bound, and all walks share one step
 * budget and one formula-node budget.  The whole taxonomy is built in
 * memory first; columns are added to the builder only when the file was
 * read without error, so a bad file adds nothing.  Must not depend on
 * curses or on a particular reader. */
#include "config.h"

#include "formats/hpctoolkit_v4/metrics_yaml.h"

#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "io/blob.h"

/* Largest METRICS.yaml read (the largest real one is ~90 KiB). */
#define METRICS_YAML_MAX_SIZE (32u << 20)
/* Deepest formula, as in formula_text.c. */
#define FORMULA_MAX_DEPTH 256
/* Deepest metric taxonomy (real ones are 4 deep). */
#define TAXONOMY_MAX_DEPTH 64
/* Most metrics (roots and children, as unfolded) in one file. */
#define TAXONOMY_MAX_METRICS 200000
/* Most variants of one metric. */
#define VARIANTS_MAX 1024
/* Deepest chain of merge keys (`<<: *x` inside *x ...). */
#define MERGE_MAX_DEPTH 16
/* Formula nodes built over the whole file. */
#define FORMULA_NODE_BUDGET 2000000
/* Node visits over the whole file, through aliases included. */
#define STEP_BUDGET 50000000

enum { KIND_INCL, KIND_EXCL, KIND_COUNT };

enum variant_rule {
	RULE_NONE,     /* no formula: a grouping header */
	RULE_FORMULAS, /* inclusive:/exclusive: formulas */
	RULE_FIRST,    /* formula: first */
	RULE_SUM,      /* formula: sum */
};

struct variant {
	char *name;
	unsigned render;
	char *format;      /* NULL: the metric's, else "%.2e" */
	enum variant_rule rule;
	yaml_node_t *child_variant; /* scalar, sequence or NULL */
	bool skip;         /* refers to statistics the database lacks */
	struct formula *expr[KIND_COUNT];
	struct formula *standard[KIND_COUNT]; /* NULL: same as expr */
	uint32_t column[KIND_COUNT];
};

struct metric {
	char *name;
	char *description;
	char *format;
	bool visible;
	struct variant *variants;
	size_t n_variants;
	struct metric *children;
	size_t n_children;
};

struct ctx {
	const struct model *m;
	const char *name;
	yaml_document_t doc;
	struct error *err;
	enum status status;
	/* per document node (index - 1): is it an `inputs:` entry, and
	 * which stat it names (MODEL_NONE when the database lacks it) */
	bool *is_input;
	uint32_t *input_stat;
	size_t n_nodes;
	char **stat_formula; /* canonical formula text of each stat */
	uint64_t steps;
	uint64_t formula_nodes;
	size_t n_metrics;
	bool missing; /* the formula being built names a missing stat */
	struct model_column *pending;
	size_t n_pending, cap_pending;
	uint32_t base; /* index the first pending column will get */
};

static size_t line_of(const yaml_node_t *n)
{
	return n ? n->start_mark.line + 1 : 0;
}

/* Record the first error, naming the line of `at`. */
static bool my_fail(struct ctx *c, enum status st, const yaml_node_t *at,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static bool my_fail(struct ctx *c, enum status st, const yaml_node_t *at,
		    const char *fmt, ...)
{
	if (c->status != STATUS_OK)
		return false;
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	int r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0) {
		c->status = error_set(c->err, STATUS_NOMEM, c->name,
				      "out of memory");
		return false;
	}
	if (at)
		c->status = error_set(c->err, st, c->name, "%s (line %zu)",
				      msg, line_of(at));
	else
		c->status = error_set(c->err, st, c->name, "%s", msg);
	free(msg);
	return false;
}

static bool my_nomem(struct ctx *c)
{
	return my_fail(c, STATUS_NOMEM, NULL, "out of memory");
}

static bool my_step(struct ctx *c, const yaml_node_t *at)
{
	if (c->status != STATUS_OK)
		return false;
	if (++c->steps > STEP_BUDGET)
		return my_fail(c, STATUS_LIMIT, at, "too much alias expansion");
	return true;
}

static yaml_node_t *node_at(struct ctx *c, int index)
{
	return yaml_document_get_node(&c->doc, index);
}

static size_t index_of(struct ctx *c, const yaml_node_t *n)
{
	return (size_t)(n - c->doc.nodes.start);
}

static bool is_scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE;
}

static bool scalar_is(const yaml_node_t *n, const char *s)
{
	size_t len = strlen(s);
	return is_scalar(n) && n->data.scalar.length == len &&
	       memcmp(n->data.scalar.value, s, len) == 0;
}

/* A null value: absent, `~`, `null` or an empty plain scalar. */
static bool is_null(const yaml_node_t *n)
{
	if (!n)
		return true;
	if (n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return n->data.scalar.length == 0 || scalar_is(n, "~") ||
	       scalar_is(n, "null") || scalar_is(n, "Null") ||
	       scalar_is(n, "NULL");
}

static const char *type_name(const yaml_node_t *n)
{
	if (!n)
		return "nothing";
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a sequence";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "nothing";
	}
}

/* The text of scalar `n`, the value of `key` in mapping `map` (cut at an
 * embedded NUL), or NULL with an error. */
static char *my_scalar_dup(struct ctx *c, const yaml_node_t *n, const char *key,
			   const yaml_node_t *map)
{
	if (!n) {
		my_fail(c, STATUS_CORRUPT, map, "'%s': missing", key);
		return NULL;
	}
	if (!is_scalar(n)) {
		my_fail(c, STATUS_CORRUPT, n,
			"'%s': expected a string, found %s", key, type_name(n));
		return NULL;
	}
	char *s = strndup((const char *)n->data.scalar.value,
			  n->data.scalar.length);
	if (!s)
		my_nomem(c);
	return s;
}

/* The value of `key` in mapping `map`, following merge keys (`<<: *x`,
 * `<<: [*x, *y]`); explicit keys win over merged ones.  NULL when absent. */
static yaml_node_t *map_get_depth(struct ctx *c, yaml_node_t *map,
				  const char *key, unsigned depth)
{
	if (!map || map->type != YAML_MAPPING_NODE || depth > MERGE_MAX_DEPTH)
		return NULL;
	yaml_node_t *merge = NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		if (!my_step(c, map))
			return NULL;
		yaml_node_t *k = node_at(c, p->key);
		if (scalar_is(k, key))
			return node_at(c, p->value);
		if (scalar_is(k, "<<"))
			merge = node_at(c, p->value);
	}
	if (!merge)
		return NULL;
	if (merge->type == YAML_MAPPING_NODE)
		return map_get_depth(c, merge, key, depth + 1);
	if (merge->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *i = merge->data.sequence.items.start;
		     i < merge->data.sequence.items.top; i++) {
			yaml_node_t *v = map_get_depth(c, node_at(c, *i), key,
						       depth + 1);
			if (v || c->status != STATUS_OK)
				return v;
		}
	}
	return NULL;
}

static yaml_node_t *my_map_get(struct ctx *c, yaml_node_t *map, const char *key)
{
	return map_get_depth(c, map, key, 0);
}

static bool my_expect_type(struct ctx *c, const yaml_node_t *n,
			   yaml_node_type_t type, const char *what)
{
	if (n && n->type == type)
		return true;
	return my_fail(c, STATUS_CORRUPT, n, "'%s': expected %s, found %s",
		       what,
		       type == YAML_MAPPING_NODE    ? "a mapping"
		       : type == YAML_SEQUENCE_NODE ? "a sequence"
						    : "a string",
		       type_name(n));
}

/* ---- formulas ------------------------------------------------------- */

/* "$$" -> "$1", parsed and printed back: whitespace and extraneous
 * parentheses go ("($$^2)" and "$$ ^ 2" compare equal).  Text the formula
 * parser does not read is compared with its whitespace removed. */
static char *my_canonical_formula(const char *text)
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

static struct formula *my_make_node(struct ctx *c, const yaml_node_t *at,
				    enum formula_op op, struct formula **args,
				    size_t nargs)
{
	return node_new(c, at, formula_node(op, args, nargs));
}

static struct formula *make_pair(struct ctx *c, const yaml_node_t *at,
				 enum formula_op op, struct formula *a,
				 struct formula *b)
{
	struct formula **args = malloc(2 * sizeof(*args));
	if (!args) {
		formula_free(a);
		formula_free(b);
		my_nomem(c);
		return NULL;
	}
	args[0] = a;
	args[1] = b;
	return my_make_node(c, at, op, args, 2);
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
	if (ts->n == ts->cap) {
		size_t ncap = ts->cap ? ts->cap * 2 : 8;
		struct token *nt = realloc(ts->t, ncap * sizeof(*nt));
		if (!nt) {
			formula_free(tok.operand);
			return my_nomem(c);
		}
		ts->t = nt;
		ts->cap = ncap;
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
		size_t n = f->nargs;
		if ((n & (n - 1)) == 0) {
			struct formula **na = realloc(f->args,
						      2 * n * sizeof(*na));
			if (!na) {
				formula_free(f);
				formula_free(b);
				my_nomem(c);
				return NULL;
			}
			f->args = na;
		}
		f->args[f->nargs++] = b;
		return f;
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

static struct formula *tok_term(struct ctx *c, struct tokens *ts)
{
	struct formula *f = tok_unary(c, ts);
	bool own = false;
	unsigned extra = 0;
	while (f && (tok_op(ts) == '*' || tok_op(ts) == '/')) {
		const yaml_node_t *at = tok_at(ts);
		char op = tok_op(ts);
		ts->pos++;
		struct formula *b = tok_unary(c, ts);
		if (!b) {
			formula_free(f);
			return NULL;
		}
		f = tok_chain(c, at, f, own, op == '*' ? FORMULA_MUL
			      : FORMULA_DIV, b, &extra, ts->depth);
		own = true;
	}
	return f;
}

static struct formula *tok_expr(struct ctx *c, struct tokens *ts)
{
	struct formula *f = tok_term(c, ts);
	bool own = false;
	unsigned extra = 0;
	while (f && (tok_op(ts) == '+' || tok_op(ts) == '-')) {
		const yaml_node_t *at = tok_at(ts);
		char op = tok_op(ts);
		ts->pos++;
		struct formula *b = tok_term(c, ts);
		if (!b) {
			formula_free(f);
			return NULL;
		}
		f = tok_chain(c, at, f, own, op == '+' ? FORMULA_ADD
			      : FORMULA_SUB, b, &extra, ts->depth);
		own = true;
	}
	return f;
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

struct function_def {
	const char *name;
	enum formula_op op;
	size_t min_args, max_args; /* max 0: any number */
};

static const struct function_def functions[] = {
	{.name = "+", .op = FORMULA_ADD, .min_args = 1},
	{.name = "-", .op = FORMULA_SUB, .min_args = 1},
	{.name = "*", .op = FORMULA_MUL, .min_args = 1},
	{.name = "/", .op = FORMULA_DIV, .min_args = 1},
	{.name = "^", .op = FORMULA_POW, .min_args = 1},
	{.name = "sum", .op = FORMULA_SUM, .min_args = 1},
	{.name = "prod", .op = FORMULA_PROD, .min_args = 1},
	{.name = "avg", .op = FORMULA_AVG, .min_args = 1},
	{.name = "min", .op = FORMULA_MIN, .min_args = 1},
	{.name = "max", .op = FORMULA_MAX, .min_args = 1},
	{.name = "pow", .op = FORMULA_POW, .min_args = 2, .max_args = 2},
	{.name = "sqrt", .op = FORMULA_SQRT, .min_args = 1, .max_args = 1},
	{.name = "log", .op = FORMULA_LOG, .min_args = 1, .max_args = 2},
	{.name = "floor", .op = FORMULA_FLOOR, .min_args = 1, .max_args = 1},
	{.name = "ceil", .op = FORMULA_CEIL, .min_args = 1, .max_args = 1},
	{.name = "strict floor", .op = FORMULA_STRICT_FLOOR, .min_args = 1,
	 .max_args = 1},
	{.name = "strict ceil", .op = FORMULA_STRICT_CEIL, .min_args = 1,
	 .max_args = 1},
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
	const struct function_def *fn = NULL;
	for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
		if (scalar_is(key, functions[i].name))
			fn = &functions[i];
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
			"formula: '%s' takes %zu to %zu "
			"arguments, found %zu",
			fn->name, fn->min_args,
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
static bool my_build_top(struct ctx *c, yaml_node_t *n, struct formula **out,
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

static struct formula *my_clone(struct ctx *c, const struct formula *f,
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

static bool my_same_formula(const struct formula *a, const struct formula *b)
{
	char *x = formula_to_string(a, NULL, NULL);
	char *y = formula_to_string(b, NULL, NULL);
	bool same = x && y && strcmp(x, y) == 0;
	free(x);
	free(y);
	return same;
}

/* ---- inputs --------------------------------------------------------- */

static bool read_inputs(struct ctx *c, yaml_node_t *inputs)
{
	if (is_null(inputs))
		return true;
	if (!my_expect_type(c, inputs, YAML_SEQUENCE_NODE, "inputs"))
		return false;
	const struct model *m = c->m;
	for (yaml_node_item_t *i = inputs->data.sequence.items.start;
	     i < inputs->data.sequence.items.top; i++) {
		yaml_node_t *in = node_at(c, *i);
		char *metric = NULL, *scope = NULL, *formula = NULL;
		char *combine = NULL, *canon = NULL;
		if (!my_step(c, inputs) ||
		    !my_expect_type(c, in, YAML_MAPPING_NODE, "inputs"))
			return false;
		yaml_node_t *v;
		metric =
		    my_scalar_dup(c, my_map_get(c, in, "metric"), "metric", in);
		scope = metric ? my_scalar_dup(c, my_map_get(c, in, "scope"),
					       "scope", in)
			       : NULL;
		if (!scope)
			goto next;
		v = my_map_get(c, in, "formula");
		formula = is_null(v) ? strdup("$$")
				     : my_scalar_dup(c, v, "formula", in);
		v = my_map_get(c, in, "combine");
		combine = is_null(v) ? strdup("sum")
				     : my_scalar_dup(c, v, "combine", in);
		if (!formula || !combine) {
			my_nomem(c);
			goto next;
		}
		int comb = strcmp(combine, "sum") == 0   ? COMBINE_SUM
			   : strcmp(combine, "min") == 0 ? COMBINE_MIN
			   : strcmp(combine, "max") == 0 ? COMBINE_MAX
							 : -1;
		if (comb < 0) {
			my_fail(c, STATUS_CORRUPT, v,
				"'combine': expected sum, "
				"min or max");
			goto next;
		}
		canon = my_canonical_formula(formula);
		if (!canon) {
			my_nomem(c);
			goto next;
		}
		uint32_t found = MODEL_NONE;
		for (uint32_t s = 0; s < m->n_stats && found == MODEL_NONE;
		     s++) {
			const struct model_stat *st = &m->stats[s];
			if (st->combine == comb &&
			    strcmp(model_str(m, st->metric), metric) == 0 &&
			    strcmp(model_str(m, st->scope), scope) == 0 &&
			    strcmp(c->stat_formula[s], canon) == 0)
				found = s;
		}
		size_t idx = index_of(c, in);
		c->is_input[idx] = true;
		c->input_stat[idx] = found;
next:
		free(metric);
		free(scope);
		free(formula);
		free(combine);
		free(canon);
		if (c->status != STATUS_OK)
			return false;
	}
	return true;
}

/* ---- taxonomy ------------------------------------------------------- */

/* "[prefix]%[#0- +']*[width][.precision](eEfFgGaA)[suffix]" with %% for a
 * literal percent sign: one double conversion, nothing printf could
 * misuse (no %n, %s, *, length modifiers), bounded width and precision. */
static bool format_is_safe(const char *f)
{
	size_t conversions = 0;
	if (strlen(f) > 128)
		return false;
	for (size_t i = 0; f[i];) {
		if (f[i] != '%') {
			i++;
			continue;
		}
		if (f[i + 1] == '%') {
			i += 2;
			continue;
		}
		if (conversions++)
			return false;
		i++;
		while (f[i] && strchr("#0- +'", f[i]))
			i++;
		unsigned width = 0, digits = 0;
		while (isdigit((unsigned char)f[i]) && digits++ < 3)
			width = width * 10 + (unsigned)(f[i++] - '0');
		if (isdigit((unsigned char)f[i]) || width > 200)
			return false;
		if (f[i] == '.') {
			i++;
			unsigned prec = 0;
			digits = 0;
			while (isdigit((unsigned char)f[i]) && digits++ < 2)
				prec = prec * 10 + (unsigned)(f[i++] - '0');
			if (isdigit((unsigned char)f[i]) || prec > 60)
				return false;
		}
		if (!f[i] || !strchr("eEfFgGaA", f[i]))
			return false;
		i++;
	}
	return conversions == 1;
}

static bool read_format(struct ctx *c, yaml_node_t *n, char **out)
{
	*out = NULL;
	if (is_null(n))
		return true;
	*out = my_scalar_dup(c, n, "format", NULL);
	if (!*out)
		return false;
	if (!format_is_safe(*out))
		return my_fail(c, STATUS_CORRUPT, n,
			       "'format': expected one "
			       "printf conversion of a double such as %%.2e");
	return true;
}

static bool render_word(struct ctx *c, yaml_node_t *n, unsigned *render)
{
	if (!my_expect_type(c, n, YAML_SCALAR_NODE, "render"))
		return false;
	if (scalar_is(n, "number"))
		*render |= RENDER_NUMBER;
	else if (scalar_is(n, "percent") || scalar_is(n, "percentage"))
		*render |= RENDER_PERCENT;
	else if (scalar_is(n, "colorbar"))
		*render |= RENDER_COLORBAR;
	else if (scalar_is(n, "hidden"))
		*render |= RENDER_HIDDEN;
	/* other words: presentations of later versions, ignored */
	return true;
}

static bool read_render(struct ctx *c, yaml_node_t *n, unsigned *render)
{
	*render = 0;
	if (is_null(n)) {
		*render = RENDER_NUMBER | RENDER_PERCENT;
		return true;
	}
	if (n->type != YAML_SEQUENCE_NODE)
		return render_word(c, n, render);
	for (yaml_node_item_t *i = n->data.sequence.items.start;
	     i < n->data.sequence.items.top; i++)
		if (!my_step(c, n) || !render_word(c, node_at(c, *i), render))
			return false;
	return true;
}

static bool read_bool(struct ctx *c, yaml_node_t *n, const char *key,
		      bool *out)
{
	if (is_null(n))
		return true;
	if (scalar_is(n, "true") || scalar_is(n, "True") ||
	    scalar_is(n, "TRUE") || scalar_is(n, "yes")) {
		*out = true;
		return true;
	}
	if (scalar_is(n, "false") || scalar_is(n, "False") ||
	    scalar_is(n, "FALSE") || scalar_is(n, "no")) {
		*out = false;
		return true;
	}
	return my_fail(c, STATUS_CORRUPT, n, "'%s': expected true or false",
		       key);
}

/* One kind (inclusive: or exclusive:) of a variant's formula map. */
static bool read_kind(struct ctx *c, yaml_node_t *n, struct variant *v,
		      int kind)
{
	if (is_null(n))
		return true;
	yaml_node_t *custom = NULL, *standard = NULL;
	size_t idx = index_of(c, n);
	bool input = idx < c->n_nodes && c->is_input[idx];
	if (!input && n->type == YAML_MAPPING_NODE) {
		custom = my_map_get(c, n, "custom");
		standard = my_map_get(c, n, "standard");
	}
	if (!custom && !standard)
		custom = n; /* the formula itself, both custom and standard */
	struct formula *fc = NULL, *fs = NULL;
	bool mc = false, ms = false;
	if (!is_null(custom) && !my_build_top(c, custom, &fc, &mc))
		return false;
	if (!is_null(standard) && !my_build_top(c, standard, &fs, &ms)) {
		formula_free(fc);
		return false;
	}
	if (!fc) {
		/* no custom formula, or it needs a missing statistic */
		fc = fs;
		fs = NULL;
	}
	if (!fc) {
		/* every formula given names a statistic the database lacks */
		v->skip = true;
		(void)ms;
		return true;
	}
	if (fs && my_same_formula(fc, fs)) {
		formula_free(fs);
		fs = NULL;
	}
	v->expr[kind] = fc;
	v->standard[kind] = fs;
	return true;
}

static bool read_variant(struct ctx *c, yaml_node_t *key, yaml_node_t *val,
			 struct variant *v)
{
	v->column[KIND_INCL] = v->column[KIND_EXCL] = MODEL_NONE;
	v->name =
	    is_null(key) ? strdup("") : my_scalar_dup(c, key, "variants", NULL);
	if (!v->name)
		return c->status == STATUS_OK ? my_nomem(c) : false;
	if (!my_expect_type(c, val, YAML_MAPPING_NODE, v->name))
		return false;
	if (!read_render(c, my_map_get(c, val, "render"), &v->render) ||
	    !read_format(c, my_map_get(c, val, "format"), &v->format))
		return false;
	v->child_variant = my_map_get(c, val, "child variant");
	if (v->child_variant && !is_null(v->child_variant) &&
	    v->child_variant->type == YAML_MAPPING_NODE)
		return my_fail(c, STATUS_CORRUPT, v->child_variant,
			       "'child "
			       "variant': expected a string or a sequence");
	yaml_node_t *f = my_map_get(c, val, "formula");
	if (c->status != STATUS_OK)
		return false;
	if (is_null(f)) {
		v->rule = RULE_NONE;
		return true;
	}
	if (f->type == YAML_SCALAR_NODE) {
		if (scalar_is(f, "first"))
			v->rule = RULE_FIRST;
		else if (scalar_is(f, "sum"))
			v->rule = RULE_SUM;
		else
			return my_fail(c, STATUS_CORRUPT, f,
				       "'formula': expected "
				       "first, sum or a mapping");
		return true;
	}
	if (!my_expect_type(c, f, YAML_MAPPING_NODE, "formula"))
		return false;
	v->rule = RULE_FORMULAS;
	return read_kind(c, my_map_get(c, f, "inclusive"), v, KIND_INCL) &&
	       read_kind(c, my_map_get(c, f, "exclusive"), v, KIND_EXCL);
}

static void my_metric_release(struct metric *m)
{
	for (size_t i = 0; i < m->n_variants; i++) {
		struct variant *v = &m->variants[i];
		free(v->name);
		free(v->format);
		for (int k = 0; k < KIND_COUNT; k++) {
			formula_free(v->expr[k]);
			formula_free(v->standard[k]);
		}
	}
	free(m->variants);
	for (size_t i = 0; i < m->n_children; i++)
		my_metric_release(&m->children[i]);
	free(m->children);
	free(m->name);
	free(m->description);
	free(m->format);
}

static bool read_metric(struct ctx *c, yaml_node_t *n, struct metric *out,
			unsigned depth);

static bool read_metric_list(struct ctx *c, yaml_node_t *list,
			     const char *what, struct metric **out,
			     size_t *n_out, unsigned depth)
{
	*out = NULL;
	*n_out = 0;
	if (is_null(list))
		return true;
	if (!my_expect_type(c, list, YAML_SEQUENCE_NODE, what))
		return false;
	if (depth > TAXONOMY_MAX_DEPTH)
		return my_fail(c, STATUS_LIMIT, list,
			       "taxonomy deeper than %d "
			       "levels",
			       TAXONOMY_MAX_DEPTH);
	size_t n = (size_t)(list->data.sequence.items.top -
			    list->data.sequence.items.start);
	if (n == 0)
		return true;
	if (n > TAXONOMY_MAX_METRICS || c->n_metrics + n >
	    TAXONOMY_MAX_METRICS)
		return my_fail(c, STATUS_LIMIT, list, "more than %d metrics",
			       TAXONOMY_MAX_METRICS);
	c->n_metrics += n;
	*out = calloc(n, sizeof(**out));
	if (!*out)
		return my_nomem(c);
	for (size_t i = 0; i < n; i++) {
		(*n_out)++;
		if (!read_metric(c, node_at(c, list->data.sequence.items
					    .start[i]), &(*out)[i], depth))
			return false;
	}
	return true;
}

static bool read_metric(struct ctx *c, yaml_node_t *n, struct metric *out,
			unsigned depth)
{
	out->visible = true;
	if (!my_step(c, n) ||
	    !my_expect_type(c, n, YAML_MAPPING_NODE, "metric"))
		return false;
	out->name = my_scalar_dup(c, my_map_get(c, n, "name"), "name", n);
	if (!out->name)
		return false;
	yaml_node_t *d = my_map_get(c, n, "description");
	if (is_null(d))
		d = my_map_get(c, n, "short description");
	if (!is_null(d) &&
	    !(out->description = my_scalar_dup(c, d, "description", n)))
		return false;
	if (!read_bool(c, my_map_get(c, n, "visible by default"),
		       "visible by default", &out->visible) ||
	    !read_format(c, my_map_get(c, n, "format"), &out->format))
		return false;
	yaml_node_t *vars = my_map_get(c, n, "variants");
	if (!is_null(vars)) {
		if (!my_expect_type(c, vars, YAML_MAPPING_NODE, "variants"))
			return false;
		/* explicit keys; merged ones (`<<:`) when not given */
		yaml_node_pair_t *ps = vars->data.mapping.pairs.start;
		size_t np = (size_t)(vars->data.mapping.pairs.top - ps);
		if (np > VARIANTS_MAX)
			return my_fail(c, STATUS_LIMIT, vars,
				       "more than %d "
				       "variants",
				       VARIANTS_MAX);
		out->variants = calloc(np ? np : 1, sizeof(*out->variants));
		if (!out->variants)
			return my_nomem(c);
		for (size_t i = 0; i < np; i++) {
			yaml_node_t *k = node_at(c, ps[i].key);
			if (scalar_is(k, "<<"))
				return my_fail(c, STATUS_CORRUPT, k,
					       "merge keys "
					       "are not supported in "
					       "'variants'");
			if (!read_variant(c, k, node_at(c, ps[i].value),
					  &out->variants[out->n_variants++]))
				return false;
		}
	}
	return read_metric_list(c, my_map_get(c, n, "children"), "children",
				&out->children, &out->n_children, depth + 1);
}

/* ---- first / sum: formulas from the children ------------------------ */

static const char *child_variant_name(struct ctx *c, const struct variant *v,
				      size_t child)
{
	yaml_node_t *cv = v->child_variant;
	if (is_null(cv))
		return v->name;
	if (cv->type == YAML_SEQUENCE_NODE) {
		size_t n = (size_t)(cv->data.sequence.items.top -
				    cv->data.sequence.items.start);
		if (child >= n)
			return NULL;
		cv = node_at(c, cv->data.sequence.items.start[child]);
	}
	return is_scalar(cv) ? (const char *)cv->data.scalar.value : NULL;
}

static const struct variant *find_variant(const struct metric *m,
					  const char *name)
{
	for (size_t i = 0; name && i < m->n_variants; i++)
		if (!m->variants[i].skip && strcmp(m->variants[i].name,
						   name) == 0)
			return &m->variants[i];
	return NULL;
}

/* Post-order: children first, so that a `sum` of sums works. */
static bool resolve(struct ctx *c, struct metric *m, unsigned depth)
{
	if (depth > TAXONOMY_MAX_DEPTH)
		return my_fail(c, STATUS_LIMIT, NULL, "taxonomy too deep");
	for (size_t i = 0; i < m->n_children; i++)
		if (!resolve(c, &m->children[i], depth + 1))
			return false;
	for (size_t i = 0; i < m->n_variants; i++) {
		struct variant *v = &m->variants[i];
		if (v->rule != RULE_FIRST && v->rule != RULE_SUM)
			continue;
		size_t n = v->rule == RULE_FIRST ? (m->n_children ? 1 : 0)
						 : m->n_children;
		for (int k = 0; k < KIND_COUNT; k++) {
			struct formula **e = calloc(n ? n : 1, sizeof(*e));
			struct formula **s = calloc(n ? n : 1, sizeof(*s));
			size_t got = 0;
			bool ok = e && s;
			if (!ok)
				my_nomem(c);
			for (size_t j = 0; ok && j < n; j++) {
				const struct variant *cv = find_variant(
					&m->children[j],
					child_variant_name(c, v, j));
				if (!cv || !cv->expr[k])
					continue;
				const struct formula *cs = cv->standard[k]
					? cv->standard[k] : cv->expr[k];
				e[got] = my_clone(c, cv->expr[k], 0);
				s[got] = e[got] ? my_clone(c, cs, 0) : NULL;
				if (!s[got]) {
					formula_free(e[got]);
					ok = false;
					break;
				}
				got++;
			}
			if (ok && got == 1) {
				v->expr[k] = e[0];
				v->standard[k] = s[0];
				free(e);
				free(s);
			} else if (ok && got > 1) {
				v->expr[k] =
				    my_make_node(c, NULL, FORMULA_ADD, e, got);
				v->standard[k] =
				    my_make_node(c, NULL, FORMULA_ADD, s, got);
				ok = v->expr[k] && v->standard[k];
			} else {
				for (size_t j = 0; j < got; j++) {
					formula_free(e[j]);
					formula_free(s[j]);
				}
				free(e);
				free(s);
			}
			if (!ok)
				return false;
			if (v->standard[k] &&
			    my_same_formula(v->expr[k], v->standard[k])) {
				formula_free(v->standard[k]);
				v->standard[k] = NULL;
			}
		}
		if (!v->expr[KIND_INCL] && !v->expr[KIND_EXCL])
			v->skip = true;
	}
	return true;
}

/* ---- columns -------------------------------------------------------- */

static uint32_t parent_column(const struct metric *parent,
			      const struct variant *v, int kind)
{
	if (!parent)
		return MODEL_NONE;
	for (size_t i = 0; i < parent->n_variants; i++)
		if (strcmp(parent->variants[i].name, v->name) == 0 &&
		    parent->variants[i].column[kind] != MODEL_NONE)
			return parent->variants[i].column[kind];
	for (size_t i = 0; i < parent->n_variants; i++)
		if (parent->variants[i].column[kind] != MODEL_NONE)
			return parent->variants[i].column[kind];
	return MODEL_NONE;
}

static bool push_column(struct ctx *c, const struct metric *m,
			const struct metric *parent, struct variant *v,
			int kind)
{
	if (c->n_pending == c->cap_pending) {
		size_t ncap = c->cap_pending ? c->cap_pending * 2 : 16;
		struct model_column *np = realloc(c->pending,
						  ncap * sizeof(*np));
		if (!np)
			return my_nomem(c);
		c->pending = np;
		c->cap_pending = ncap;
	}
	const char *format = v->format ? v->format
			     : m->format ? m->format : "%.2e";
	struct model_column col = {
		.name = strdup(m->name),
		.variant = strdup(v->name),
		.description = m->description ? strdup(m->description) : NULL,
		.format = strdup(format),
		.kind = (uint8_t)(kind == KIND_INCL ? COLUMN_INCLUSIVE
						    : COLUMN_EXCLUSIVE),
		.render = v->render,
		.visible = m->visible,
		.pair = MODEL_NONE,
		.parent = parent_column(parent, v, kind),
		.expr = v->expr[kind],
		.expr_standard = v->standard[kind],
	};
	v->expr[kind] = v->standard[kind] = NULL;
	v->column[kind] = c->base + (uint32_t)c->n_pending;
	c->pending[c->n_pending++] = col;
	if (!col.name || !col.variant || !col.format ||
	    (m->description && !col.description))
		return my_nomem(c);
	return true;
}

/* Pre-order: a metric's columns, variants in file order, inclusive before
 * exclusive, then its children's. */
static bool emit(struct ctx *c, struct metric *m, const struct metric *parent,
		 unsigned depth)
{
	if (depth > TAXONOMY_MAX_DEPTH)
		return my_fail(c, STATUS_LIMIT, NULL, "taxonomy too deep");
	if (c->n_pending + 2 * m->n_variants > UINT32_MAX / 2 - c->base)
		return my_fail(c, STATUS_LIMIT, NULL, "too many columns");
	for (size_t i = 0; i < m->n_variants; i++) {
		struct variant *v = &m->variants[i];
		if (v->skip)
			continue;
		for (int k = 0; k < KIND_COUNT; k++) {
			/* a formula-less variant is a header for children */
			bool header = v->rule == RULE_NONE && m->n_children;
			if ((v->expr[k] || header) &&
			    !push_column(c, m, parent, v, k))
				return false;
		}
	}
	for (size_t i = 0; i < m->n_children; i++)
		if (!emit(c, &m->children[i], m, depth + 1))
			return false;
	return true;
}

static void pending_free(struct ctx *c)
{
	for (size_t i = 0; i < c->n_pending; i++) {
		struct model_column *col = &c->pending[i];
		free(col->name);
		free(col->variant);
		free(col->description);
		free(col->format);
		formula_free(col->expr);
		formula_free(col->expr_standard);
	}
	free(c->pending);
	c->pending = NULL;
	c->n_pending = 0;
}

static bool my_read_document(struct ctx *c, struct metric **roots,
			     size_t *n_roots)
{
	yaml_node_t *root = yaml_document_get_root_node(&c->doc);
	if (!root)
		return my_fail(c, STATUS_CORRUPT, NULL, "empty file");
	if (!my_expect_type(c, root, YAML_MAPPING_NODE, "top level"))
		return false;
	yaml_node_t *version = my_map_get(c, root, "version");
	if (!is_null(version) && !scalar_is(version, "0")) {
		if (is_scalar(version))
			return my_fail(
			    c, STATUS_UNSUPPORTED, version,
			    "unsupported"
			    " METRICS.yaml version %.*s (expected 0)",
			    (int)(version->data.scalar.length > 20
				      ? 20
				      : version->data.scalar.length),
			    (const char *)version->data.scalar.value);
		return my_fail(c, STATUS_CORRUPT, version,
			       "'version': expected "
			       "a number");
	}
	if (!read_inputs(c, my_map_get(c, root, "inputs")))
		return false;
	yaml_node_t *list = my_map_get(c, root, "roots");
	if (c->status != STATUS_OK)
		return false;
	if (is_null(list))
		return my_fail(c, STATUS_CORRUPT, root, "no 'roots' list");
	return read_metric_list(c, list, "roots", roots, n_roots, 0);
}

enum status metrics_yaml_add_columns_mem(struct model_builder *b,
					 const char *name, const void *data,
					 size_t len, uint32_t *n_columns,
					 struct error *err)
{
	*n_columns = 0;
	struct ctx c = {
		.m = model_builder_peek(b),
		.name = name ? name : "METRICS.yaml",
		.err = err,
		.status = STATUS_OK,
	};
	yaml_parser_t parser;
	bool have_parser = false, have_doc = false;
	struct metric *roots = NULL;
	size_t n_roots = 0;
	if (!c.m)
		return error_set(err, STATUS_NOMEM, name, "out of memory");
	if (len > METRICS_YAML_MAX_SIZE) {
		my_fail(&c, STATUS_LIMIT, NULL, "file larger than %u MiB",
			METRICS_YAML_MAX_SIZE >> 20);
		goto out;
	}
	if (len == 0) {
		my_fail(&c, STATUS_CORRUPT, NULL, "empty file");
		goto out;
	}
	c.stat_formula = calloc(c.m->n_stats ? c.m->n_stats : 1,
				sizeof(*c.stat_formula));
	if (!c.stat_formula) {
		my_nomem(&c);
		goto out;
	}
	for (uint32_t s = 0; s < c.m->n_stats; s++)
		if (!(c.stat_formula[s] = my_canonical_formula(
			  model_str(c.m, c.m->stats[s].formula)))) {
			my_nomem(&c);
			goto out;
		}
	if (!yaml_parser_initialize(&parser)) {
		my_nomem(&c);
		goto out;
	}
	have_parser = true;
	yaml_parser_set_input_string(&parser, data, len);
	if (!yaml_parser_load(&parser, &c.doc)) {
		if (parser.error == YAML_MEMORY_ERROR)
			my_nomem(&c);
		else
			my_fail(&c, STATUS_CORRUPT, NULL,
				"not YAML: %s%s%s "
				"(line %zu)",
				parser.problem ? parser.problem
					       : "syntax error",
				parser.context ? " " : "",
				parser.context ? parser.context : "",
				parser.problem_mark.line + 1);
		goto out;
	}
	have_doc = true;
	c.n_nodes = (size_t)(c.doc.nodes.top - c.doc.nodes.start);
	c.is_input = calloc(c.n_nodes ? c.n_nodes : 1, sizeof(*c.is_input));
	c.input_stat = calloc(c.n_nodes ? c.n_nodes : 1,
			      sizeof(*c.input_stat));
	if (!c.is_input || !c.input_stat) {
		my_nomem(&c);
		goto out;
	}
	if (!my_read_document(&c, &roots, &n_roots))
		goto out;
	c.base = c.m->n_columns;
	for (size_t i = 0; i < n_roots; i++)
		if (!resolve(&c, &roots[i], 0))
			goto out;
	for (size_t i = 0; i < n_roots; i++)
		if (!emit(&c, &roots[i], NULL, 0))
			goto out;
	bool any = false;
	for (size_t i = 0; i < c.n_pending && !any; i++)
		any = c.pending[i].expr != NULL;
	if (!any)
		goto out;
	for (size_t i = 0; i < c.n_pending; i++) {
		uint32_t idx = model_builder_add_column(b, &c.pending[i]);
		memset(&c.pending[i], 0, sizeof(c.pending[i]));
		if (idx != c.base + i) {
			my_nomem(&c);
			goto out;
		}
		(*n_columns)++;
	}
out:
	pending_free(&c);
	for (size_t i = 0; i < n_roots; i++)
		my_metric_release(&roots[i]);
	free(roots);
	if (have_doc)
		yaml_document_delete(&c.doc);
	if (have_parser)
		yaml_parser_delete(&parser);
	for (uint32_t s = 0; c.stat_formula && s < c.m->n_stats; s++)
		free(c.stat_formula[s]);
	free(c.stat_formula);
	free(c.is_input);
	free(c.input_stat);
	return c.status;
}

enum status metrics_yaml_add_columns(struct model_builder *b,
				     const char *path, uint32_t *n_columns,
				     struct error *err)
{
	*n_columns = 0;
	struct blob *blob = NULL;
	struct span all;
	enum status st = blob_open_file(path, &blob, err);
	if (st != STATUS_OK)
		return st;
	if (blob_size(blob) > METRICS_YAML_MAX_SIZE) {
		st = error_set(err, STATUS_LIMIT, path, "file larger than %u "
			       "MiB", METRICS_YAML_MAX_SIZE >> 20);
		goto out;
	}
	st = blob_map_all(blob, &all, err);
	if (st == STATUS_OK)
		st = metrics_yaml_add_columns_mem(b, path, all.data,
						  (size_t)all.len, n_columns,
						  err);
out:
	blob_close(blob);
	return st;
}
