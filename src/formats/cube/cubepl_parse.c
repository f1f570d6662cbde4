/* cubepl_parse: CubePL source into a tree (see cubepl.h for the
 * language).  Recursive descent with CubeLib's precedences
 * (CubePL1Parser.yy, lowest first): and / or / xor; not; the comparisons;
 * + -; * /; ^ (left-associative); unary minus, which binds tightest
 * (-2^2 is 4, as in CubeLib); then the primaries.  Nesting is capped at
 * CUBEPL_MAX_NESTING, so hostile source cannot exhaust the stack; every
 * error is one line with the offset where it was found.  Depends on libc
 * only (cubepl_regex.c compiles the /regex/ of =~). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "formats/cube/cubepl_internal.h"

struct parser {
	struct cpl_lexer lx;
	struct cpl_token tok; /* the current token */
	const struct cubepl_host *h;
	struct cubepl_env *env;
	struct cubepl_program *prog;
	unsigned depth;
	bool failed;
	char *msg;
	size_t msg_size;
};

static void fail(struct parser *p, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct parser *p, size_t off, const char *fmt, ...)
{
	if (p->failed)
		return;
	p->failed = true;
	char what[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(p->msg, p->msg_size, "offset %zu: %s", off, what);
}

static void advance(struct parser *p)
{
	p->tok = cpl_lex_next(&p->lx);
	if (p->tok.kind == TK_ERROR)
		fail(p, p->tok.off, "%s", p->lx.err);
}

static bool is_punct(const struct parser *p, char c)
{
	return p->tok.kind == TK_PUNCT && p->tok.text[0] == c;
}

static bool is_op2(const struct parser *p, const char *s)
{
	return p->tok.kind == TK_OP2 && memcmp(p->tok.text, s, 2) == 0;
}

static bool is_word(const struct parser *p, const char *w)
{
	return p->tok.kind == TK_WORD && p->tok.len == strlen(w) &&
	       memcmp(p->tok.text, w, p->tok.len) == 0;
}

static bool expect(struct parser *p, char c)
{
	if (p->failed)
		return false;
	if (!is_punct(p, c)) {
		fail(p, p->tok.off, "'%c' expected", c);
		return false;
	}
	advance(p);
	return !p->failed;
}

static struct cpl_node *node(struct parser *p, enum cpl_op op)
{
	struct cpl_node *n = calloc(1, sizeof(*n));
	if (!n)
		fail(p, p->tok.off, "out of memory");
	else
		n->op = (uint8_t)op;
	return n;
}

/* n's height from its operands'; NULL (n freed) past the limit, so that
 * a long chain (1+1+1...) cannot make the evaluator recurse too deep. */
static struct cpl_node *fix(struct parser *p, struct cpl_node *n)
{
	if (!n)
		return NULL;
	uint32_t h = 0;
	if (n->a && n->a->height > h)
		h = n->a->height;
	if (n->b && n->b->height > h)
		h = n->b->height;
	for (size_t i = 0; i < n->n; i++)
		if (n->list[i] && n->list[i]->height > h)
			h = n->list[i]->height;
	n->height = h + 1;
	if (n->height > CUBEPL_MAX_HEIGHT) {
		fail(p, p->tok.off, "an expression more than %d deep",
		     CUBEPL_MAX_HEIGHT);
		cpl_node_free(n);
		return NULL;
	}
	return n;
}

static struct cpl_node *binary(struct parser *p, enum cpl_op op,
			       struct cpl_node *a, struct cpl_node *b)
{
	if (!a || !b || p->failed) {
		cpl_node_free(a);
		cpl_node_free(b);
		return NULL;
	}
	struct cpl_node *n = node(p, op);
	if (!n) {
		cpl_node_free(a);
		cpl_node_free(b);
		return NULL;
	}
	n->a = a;
	n->b = b;
	return fix(p, n);
}

/* Append `x` to n->list (taken over). */
static bool push(struct parser *p, struct cpl_node *n, struct cpl_node *x)
{
	struct cpl_node **l = x ? realloc(n->list, (n->n + 1) * sizeof(*l))
				: NULL;
	if (!l) {
		cpl_node_free(x);
		if (x)
			fail(p, p->tok.off, "out of memory");
		return false;
	}
	n->list = l;
	n->list[n->n++] = x;
	return true;
}

static bool enter(struct parser *p)
{
	if (++p->depth > CUBEPL_MAX_NESTING) {
		fail(p, p->tok.off, "nested more than %d deep",
		     CUBEPL_MAX_NESTING);
		return false;
	}
	return !p->failed;
}

static struct cpl_node *expr(struct parser *p);
static struct cpl_node *block(struct parser *p, bool lambda);

/* ---- primaries ---------------------------------------------------------- */

static const struct {
	const char *name;
	uint8_t fn;
} funcs[] = {
	{"sqrt", F_SQRT},   {"sin", F_SIN},   {"cos", F_COS},
	{"tan", F_TAN},     {"asin", F_ASIN}, {"acos", F_ACOS},
	{"atan", F_ATAN},   {"exp", F_EXP},   {"log", F_LOG},
	{"abs", F_ABS},     {"sgn", F_SGN},   {"pos", F_POS},
	{"neg", F_NEG},     {"floor", F_FLOOR}, {"ceil", F_CEIL},
	{"random", F_RANDOM},
};

/* ${name} [ '[' expr ']' ]: a reserved or user variable (the current
 * token is the TK_VAR). */
static struct cpl_node *variable(struct parser *p)
{
	struct cpl_token t = p->tok;
	struct cpl_node *n = node(p, N_VAR);
	if (!n)
		return NULL;
	bool res = (t.len > 6 && memcmp(t.text, "cube::", 6) == 0) ||
		   (t.len > 13 && memcmp(t.text, "calculation::", 13) == 0);
	if (res) {
		n->op = N_RES;
		n->slot = cpl_reserved_of(t.text, t.len);
		if (n->slot == UINT32_MAX) {
			fail(p, t.off, "unknown reserved variable ${%.*s}",
			     (int)(t.len > 60 ? 60 : t.len), t.text);
			cpl_node_free(n);
			return NULL;
		}
	} else {
		n->slot = cpl_env_slot(p->env, t.text, t.len);
		if (n->slot == UINT32_MAX)
			fail(p, t.off, "out of memory");
	}
	advance(p);
	if (is_punct(p, '[')) {
		advance(p);
		n->a = expr(p);
		expect(p, ']');
	}
	if (p->failed) {
		cpl_node_free(n);
		return NULL;
	}
	return fix(p, n);
}

/* i, e or * */
static bool flavour(struct parser *p, uint8_t *out)
{
	if (is_word(p, "i"))
		*out = CUBEPL_INCL;
	else if (is_word(p, "e"))
		*out = CUBEPL_EXCL;
	else if (is_punct(p, '*'))
		*out = CUBEPL_SAME;
	else {
		fail(p, p->tok.off, "i, e or * expected");
		return false;
	}
	advance(p);
	return !p->failed;
}

static void note_metric(struct parser *p, int32_t m, const struct cpl_token *t)
{
	struct cubepl_program *g = p->prog;
	if (m < 0) {
		if (!g->unknown)
			g->unknown = strndup(t->text, t->len);
		return;
	}
	for (size_t i = 0; i < g->n_metrics; i++)
		if (g->metrics[i] == m)
			return;
	if (!array_grow((void **)&g->metrics, &g->cap_metrics,
			g->n_metrics + 1, sizeof(*g->metrics))) {
		fail(p, t->off, "out of memory");
		return;
	}
	g->metrics[g->n_metrics++] = m;
}

/* metric::[fixed::|call::]NAME(args), cube::metric::set|get::NAME(...) */
static struct cpl_node *metric_ref(struct parser *p)
{
	struct cpl_token t = p->tok;
	struct cpl_node *n = node(p, t.set_or_get ? N_NOP : N_METRIC);
	if (!n)
		return NULL;
	n->ref_kind = t.ref_kind;
	n->metric = p->h->resolve(p->h->ud, t.text, t.len);
	if (!t.set_or_get)
		note_metric(p, n->metric, &t);
	advance(p);
	expect(p, '(');
	if (t.set_or_get) {
		/* attributes of the GUI's metric tree: read, not applied */
		while (!p->failed && !is_punct(p, ')')) {
			if (p->tok.kind != TK_STR && !is_punct(p, ',')) {
				fail(p, p->tok.off, "a string expected");
				break;
			}
			advance(p);
		}
	} else {
		if (t.ref_kind == CUBEPL_REF_CALL) {
			n->a = expr(p);
			if (is_punct(p, ','))
				advance(p);
		}
		for (int k = 0; k < 2 && !p->failed && !is_punct(p, ')'); k++) {
			if (k && !expect(p, ','))
				break;
			flavour(p, &n->flav[k]);
		}
	}
	expect(p, ')');
	if (p->failed) {
		cpl_node_free(n);
		return NULL;
	}
	return fix(p, n);
}

/* sizeof(${x}), defined(${x}) */
static struct cpl_node *var_query(struct parser *p, enum cpl_op op)
{
	advance(p);
	if (!expect(p, '('))
		return NULL;
	if (p->tok.kind != TK_VAR) {
		fail(p, p->tok.off, "${variable} expected");
		return NULL;
	}
	struct cpl_node *n = node(p, op);
	if (n)
		n->slot = cpl_env_slot(p->env, p->tok.text, p->tok.len);
	advance(p);
	expect(p, ')');
	if (p->failed || !n || n->slot == UINT32_MAX) {
		cpl_node_free(n);
		return NULL;
	}
	return n;
}

/* f(x), min(x, y), max(x, y), true, false, arg1, arg2, sizeof,
 * defined */
static struct cpl_node *word(struct parser *p)
{
	struct cpl_token t = p->tok;
	if (is_word(p, "true") || is_word(p, "false")) {
		struct cpl_node *n = node(p, N_NUM);
		if (n)
			n->num = is_word(p, "true");
		advance(p);
		return n;
	}
	if (is_word(p, "arg1") || is_word(p, "arg2")) {
		struct cpl_node *n = node(p, N_ARG);
		if (n)
			n->slot = t.text[3] == '2';
		advance(p);
		return n;
	}
	if (is_word(p, "sizeof"))
		return var_query(p, N_SIZEOF);
	if (is_word(p, "defined"))
		return var_query(p, N_DEFINED);
	bool two = is_word(p, "min") || is_word(p, "max");
	int fn = -1;
	for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
		if (is_word(p, funcs[i].name))
			fn = funcs[i].fn;
	if (!two && fn < 0) {
		fail(p, t.off, "unknown function or keyword \"%.*s\"",
		     (int)(t.len > 60 ? 60 : t.len), t.text);
		return NULL;
	}
	advance(p);
	if (!expect(p, '('))
		return NULL;
	struct cpl_node *a = expr(p), *b = NULL;
	if (two && expect(p, ','))
		b = expr(p);
	expect(p, ')');
	if (two)
		return binary(p, t.text[1] == 'i' ? N_MIN : N_MAX, a, b);
	struct cpl_node *n = p->failed ? NULL : node(p, N_FUNC1);
	if (!n) {
		cpl_node_free(a);
		return NULL;
	}
	n->fn = (uint8_t)fn;
	n->a = a;
	return fix(p, n);
}

static struct cpl_node *primary(struct parser *p)
{
	struct cpl_node *n = NULL;
	switch (p->tok.kind) {
	case TK_NUM:
		if ((n = node(p, N_NUM)))
			n->num = p->tok.num;
		advance(p);
		return n;
	case TK_STR:
		if ((n = node(p, N_STR)) &&
		    !(n->str = strndup(p->tok.text, p->tok.len)))
			fail(p, p->tok.off, "out of memory");
		advance(p);
		return n;
	case TK_VAR:
		return variable(p);
	case TK_METRIC:
		return metric_ref(p);
	case TK_WORD:
		return word(p);
	case TK_PUNCT:
		if (is_punct(p, '(') || is_punct(p, '|')) {
			char close = is_punct(p, '(') ? ')' : '|';
			advance(p);
			n = expr(p);
			expect(p, close);
			if (close == '|' && n && !p->failed) {
				struct cpl_node *abs = node(p, N_FUNC1);
				if (abs) {
					abs->fn = F_ABS;
					abs->a = n;
				}
				n = abs ? fix(p, abs) : n;
			}
			return n;
		}
		if (is_punct(p, '{'))
			return block(p, true);
		break;
	default:
		break;
	}
	if (p->tok.kind == TK_EOF)
		fail(p, p->tok.off, "unexpected end");
	else
		fail(p, p->tok.off, "unexpected \"%.*s\"",
		     (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.text);
	return NULL;
}

/* ---- operators ---------------------------------------------------------- */

static struct cpl_node *unary(struct parser *p)
{
	if (!enter(p))
		return NULL;
	struct cpl_node *n;
	if (is_punct(p, '-') || is_punct(p, '+')) {
		bool neg = is_punct(p, '-');
		advance(p);
		n = unary(p);
		if (neg && n) {
			struct cpl_node *x = node(p, N_NEG);
			if (x)
				x->a = n;
			else
				cpl_node_free(n);
			n = x;
		}
	} else {
		n = primary(p);
	}
	p->depth--;
	return fix(p, n);
}

/* An operator of an arithmetic level: its punctuation and its node. */
struct level_op {
	char punct;
	enum cpl_op op;
};

/* One left-associative level: operands from `next`, joined by the `n`
 * operators of `ops`. */
static struct cpl_node *level(struct parser *p,
			      struct cpl_node *(*next)(struct parser *),
			      const struct level_op *ops, size_t n_ops)
{
	struct cpl_node *n = next(p);
	while (n && !p->failed) {
		size_t k = 0;
		while (k < n_ops && !is_punct(p, ops[k].punct))
			k++;
		if (k == n_ops)
			break;
		advance(p);
		n = binary(p, ops[k].op, n, next(p));
	}
	return n;
}

static struct cpl_node *power(struct parser *p)
{
	static const struct level_op ops[] = {{'^', N_POW}};
	return level(p, unary, ops, 1);
}

static struct cpl_node *product(struct parser *p)
{
	static const struct level_op ops[] = {{'*', N_MUL}, {'/', N_DIV}};
	return level(p, power, ops, 2);
}

static struct cpl_node *sum(struct parser *p)
{
	static const struct level_op ops[] = {{'+', N_ADD}, {'-', N_SUB}};
	return level(p, product, ops, 2);
}

static struct cpl_node *match(struct parser *p, struct cpl_node *a)
{
	struct cpl_token re;
	if (!cpl_lex_regex(&p->lx, &re)) {
		fail(p, p->lx.pos, "a /regular expression/ expected");
		cpl_node_free(a);
		return NULL;
	}
	const char *why = NULL;
	struct cpl_regex *rx = cpl_regex_compile(re.text, re.len, &why);
	struct cpl_node *n = rx ? node(p, N_MATCH) : NULL;
	if (!n) {
		cpl_regex_free(rx);
		cpl_node_free(a);
		fail(p, re.off, "%s", why ? why : "out of memory");
		return NULL;
	}
	n->re = rx;
	n->a = a;
	advance(p);
	return fix(p, n);
}

static struct cpl_node *comparison(struct parser *p)
{
	static const struct {
		const char *op;
		uint8_t node;
	} ops[] = {
		{"==", N_EQ}, {"!=", N_NE}, {"<=", N_LE}, {">=", N_GE},
		{"<", N_LT},  {">", N_GT},  {"eq", N_SEQ}, {"seq", N_SSEQ},
	};
	struct cpl_node *n = sum(p);
	while (n && !p->failed) {
		if (is_op2(p, "=~")) {
			n = match(p, n);
			continue;
		}
		int op = -1;
		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			size_t l = strlen(ops[i].op);
			if ((p->tok.kind == TK_OP2 || p->tok.kind == TK_PUNCT ||
			     p->tok.kind == TK_WORD) &&
			    p->tok.len == l && memcmp(p->tok.text, ops[i].op, l) == 0)
				op = ops[i].node;
		}
		if (op < 0)
			break;
		advance(p);
		n = binary(p, (enum cpl_op)op, n, sum(p));
	}
	return n;
}

static struct cpl_node *negation(struct parser *p)
{
	if (!is_word(p, "not"))
		return comparison(p);
	if (!enter(p))
		return NULL;
	advance(p);
	struct cpl_node *a = negation(p), *n = NULL;
	if (a && (n = node(p, N_NOT)))
		n->a = a;
	else
		cpl_node_free(a);
	p->depth--;
	return fix(p, n);
}

static struct cpl_node *expr(struct parser *p)
{
	if (!enter(p))
		return NULL;
	struct cpl_node *n = negation(p);
	while (n && !p->failed) {
		enum cpl_op op = is_word(p, "and") ? N_AND
				 : is_word(p, "or") ? N_OR
				 : is_word(p, "xor") ? N_XOR
						     : N_NOP;
		if (op == N_NOP)
			break;
		advance(p);
		n = binary(p, op, n, negation(p));
	}
	p->depth--;
	return p->failed ? (cpl_node_free(n), NULL) : n;
}

/* ---- statements --------------------------------------------------------- */

/* '(' expr ')' block */
static bool cond_body(struct parser *p, struct cpl_node *n)
{
	advance(p);
	if (!expect(p, '('))
		return false;
	struct cpl_node *c = expr(p);
	if (!expect(p, ')')) {
		cpl_node_free(c);
		return false;
	}
	if (!push(p, n, c))
		return false;
	return push(p, n, block(p, false));
}

static struct cpl_node *if_stmt(struct parser *p)
{
	struct cpl_node *n = node(p, N_IF);
	bool ok = n && cond_body(p, n);
	while (ok && is_word(p, "elseif"))
		ok = cond_body(p, n);
	if (ok && is_word(p, "else")) {
		advance(p);
		ok = push(p, n, block(p, false));
	}
	if (!ok) {
		cpl_node_free(n);
		return NULL;
	}
	return fix(p, n);
}

static struct cpl_node *assignment(struct parser *p)
{
	struct cpl_node *lhs = variable(p);
	if (!lhs)
		return NULL;
	if (lhs->op == N_RES) {
		fail(p, p->tok.off, "reserved variables cannot be assigned");
		cpl_node_free(lhs);
		return NULL;
	}
	if (!is_punct(p, '=')) {
		/* a variable as an expression statement: no effect */
		return lhs;
	}
	advance(p);
	lhs->op = N_ASSIGN;
	lhs->b = expr(p);
	if (!lhs->b) {
		cpl_node_free(lhs);
		return NULL;
	}
	return fix(p, lhs);
}

static struct cpl_node *statement(struct parser *p)
{
	if (is_word(p, "if"))
		return if_stmt(p);
	if (is_word(p, "while")) {
		struct cpl_node *n = node(p, N_WHILE);
		if (n && cond_body(p, n) && n->n == 2) {
			n->a = n->list[0];
			n->b = n->list[1];
			n->n = 0;
			free(n->list);
			n->list = NULL;
			return fix(p, n);
		}
		cpl_node_free(n);
		return NULL;
	}
	if (is_word(p, "global")) {
		advance(p);
		expect(p, '(');
		if (!p->failed && p->tok.kind == TK_WORD &&
		    cpl_env_slot(p->env, p->tok.text, p->tok.len) != UINT32_MAX)
			advance(p);
		else
			fail(p, p->tok.off, "a variable name expected");
		expect(p, ')');
		return p->failed ? NULL : node(p, N_NOP);
	}
	if (is_punct(p, '{'))
		return block(p, false);
	if (p->tok.kind == TK_VAR)
		return assignment(p);
	return expr(p);
}

/* '{' statements [return expr] '}' (a lambda returns its value) */
static struct cpl_node *block(struct parser *p, bool lambda)
{
	if (!enter(p) || !expect(p, '{'))
		return NULL;
	struct cpl_node *n = node(p, N_BLOCK);
	while (n && !p->failed && !is_punct(p, '}')) {
		if (is_punct(p, ';')) {
			advance(p);
			continue;
		}
		if (p->tok.kind == TK_EOF) {
			fail(p, p->tok.off, "'}' expected");
			break;
		}
		if (is_word(p, "return")) {
			if (!lambda || n->a) {
				fail(p, p->tok.off, "return outside a lambda's end");
				break;
			}
			advance(p);
			n->a = expr(p);
			continue;
		}
		if (n->a) {
			fail(p, p->tok.off, "statements after return");
			break;
		}
		push(p, n, statement(p));
	}
	expect(p, '}');
	p->depth--;
	if (p->failed) {
		cpl_node_free(n);
		return NULL;
	}
	return fix(p, n);
}

/* ---- programs ----------------------------------------------------------- */

void cpl_node_free(struct cpl_node *n)
{
	if (!n)
		return;
	cpl_node_free(n->a);
	cpl_node_free(n->b);
	for (size_t i = 0; i < n->n; i++)
		cpl_node_free(n->list[i]);
	free(n->list);
	free(n->str);
	cpl_regex_free(n->re);
	free(n);
}

void cubepl_program_free(struct cubepl_program *g)
{
	if (!g)
		return;
	cpl_node_free(g->root);
	free(g->metrics);
	free(g->unknown);
	free(g);
}

bool cubepl_parse(const char *src, size_t len, const struct cubepl_host *h,
		  struct cubepl_env *env, struct cubepl_program **out,
		  char *msg, size_t msg_size)
{
	*out = NULL;
	struct parser p = {.lx = {.src = src, .len = len},
			   .h = h,
			   .env = env,
			   .msg = msg,
			   .msg_size = msg_size};
	if (msg_size)
		msg[0] = '\0';
	if (len > CUBEPL_MAX_SOURCE) {
		snprintf(msg, msg_size, "longer than %u bytes",
			 (unsigned)CUBEPL_MAX_SOURCE);
		return false;
	}
	p.prog = calloc(1, sizeof(*p.prog));
	if (!p.prog) {
		snprintf(msg, msg_size, "out of memory");
		return false;
	}
	advance(&p);
	if (!p.failed && p.tok.kind == TK_EOF)
		fail(&p, 0, "an empty expression");
	struct cpl_node *root = p.failed ? NULL : expr(&p);
	while (!p.failed && is_punct(&p, ';'))
		advance(&p);
	if (!p.failed && p.tok.kind != TK_EOF)
		fail(&p, p.tok.off, "unexpected \"%.*s\" after the expression",
		     (int)(p.tok.len > 40 ? 40 : p.tok.len), p.tok.text);
	if (p.failed) {
		cpl_node_free(root);
		cubepl_program_free(p.prog);
		return false;
	}
	p.prog->root = root;
	*out = p.prog;
	return true;
}

const int32_t *cubepl_program_metrics(const struct cubepl_program *g,
				      size_t *n)
{
	*n = g->n_metrics;
	return g->metrics;
}

const char *cubepl_program_unknown_metric(const struct cubepl_program *g)
{
	return g->unknown;
}
