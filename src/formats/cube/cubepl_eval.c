/* cubepl_eval: runs a CubePL tree (see cubepl.h).  Numbers are doubles;
 * strings are borrowed from the tree or the host; booleans are 1 and 0.
 * CubeLib's rules where C's differ: 0 / x is 0 (also 0 / 0), x / 0 is
 * +-DBL_MAX (CubeDivideEvaluation); an undefined variable or element
 * reads 0; a string where a number is wanted reads as its number (0 when
 * none).  Variables live in an environment of slots (name -> array of
 * values, grown on assignment up to the environment's bound); a run counts
 * the nodes it evaluates and stops at max_steps (a while loop that does
 * not end is an error, not a hang; so is a =~ match that reaches
 * cubepl_regex.c's bounds, and a match counts the steps it says it took).
 * Depends on libc only. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/array.h"
#include "formats/cube/cubepl_internal.h"

struct run {
	struct cubepl_env *env;
	const struct cubepl_host *h;
	uint64_t steps, max_steps;
	const char *err;
	double args[2]; /* arg1, arg2 */
	struct cpl_regex_scratch *scratch; /* for =~, made on first use */
};

/* ---- environment -------------------------------------------------------- */

struct cubepl_env *cubepl_env_new(size_t max_elems)
{
	struct cubepl_env *env = calloc(1, sizeof(*env));
	if (env)
		env->max_elems = max_elems;
	return env;
}

void cubepl_env_free(struct cubepl_env *env)
{
	if (!env)
		return;
	for (size_t i = 0; i < env->n; i++) {
		free(env->vars[i].name);
		free(env->vars[i].v);
	}
	free(env->vars);
	free(env);
}

uint32_t cpl_env_slot(struct cubepl_env *env, const char *name, size_t len)
{
	for (size_t i = 0; i < env->n; i++)
		if (strlen(env->vars[i].name) == len &&
		    memcmp(env->vars[i].name, name, len) == 0)
			return (uint32_t)i;
	if (env->n >= UINT32_MAX - 1)
		return UINT32_MAX;
	if (!array_grow((void **)&env->vars, &env->cap, env->n + 1,
			sizeof(*env->vars)))
		return UINT32_MAX;
	char *copy = strndup(name, len);
	if (!copy)
		return UINT32_MAX;
	env->vars[env->n] = (struct cpl_var){.name = copy};
	return (uint32_t)env->n++;
}

static bool store(struct run *r, uint32_t slot, double idx,
		  struct cubepl_value val)
{
	struct cpl_var *v = &r->env->vars[slot];
	if (!(idx >= 0) || idx >= (double)r->env->max_elems) {
		r->err = "a variable index out of range";
		return false;
	}
	size_t i = (size_t)idx;
	if (!array_grow((void **)&v->v, &v->cap, i + 1, sizeof(*v->v))) {
		r->err = "out of memory";
		return false;
	}
	for (; v->n <= i; v->n++)
		v->v[v->n] = (struct cubepl_value){0, NULL};
	v->v[i] = val;
	v->defined = true;
	return true;
}

static struct cubepl_value load(const struct run *r, uint32_t slot, double idx)
{
	const struct cpl_var *v = &r->env->vars[slot];
	if (idx >= 0 && idx < (double)v->n)
		return v->v[(size_t)idx];
	return (struct cubepl_value){0, NULL};
}

/* ---- evaluation --------------------------------------------------------- */

static bool eval(struct run *r, const struct cpl_node *n,
		 struct cubepl_value *out);

static double num_of(struct cubepl_value v)
{
	return v.str ? strtod(v.str, NULL) : v.num;
}

static const char *str_of(struct cubepl_value v, char *buf, size_t size)
{
	if (v.str)
		return v.str;
	snprintf(buf, size, "%.17g", v.num);
	return buf;
}

static bool eval_num(struct run *r, const struct cpl_node *n, double *out)
{
	struct cubepl_value v;
	if (!eval(r, n, &v))
		return false;
	*out = num_of(v);
	return true;
}

static double func1(enum cpl_func fn, double x)
{
	switch (fn) {
	case F_SQRT: return sqrt(x);
	case F_SIN: return sin(x);
	case F_COS: return cos(x);
	case F_TAN: return tan(x);
	case F_ASIN: return asin(x);
	case F_ACOS: return acos(x);
	case F_ATAN: return atan(x);
	case F_EXP: return exp(x);
	case F_LOG: return log(x);
	case F_ABS: return fabs(x);
	case F_SGN: return x > 0 ? 1 : x < 0 ? -1 : 0;
	case F_POS: return x > 0 ? x : 0;
	case F_NEG: return x < 0 ? x : 0;
	case F_FLOOR: return floor(x);
	case F_CEIL: return ceil(x);
	case F_RANDOM: return 0; /* deterministic: a viewer is no RNG */
	}
	return 0;
}

static double arith(enum cpl_op op, double a, double b)
{
	switch (op) {
	case N_ADD: return a + b;
	case N_SUB: return a - b;
	case N_MUL: return a * b;
	case N_DIV:
		if (a == 0)
			return 0;
		if (b == 0)
			return a > 0 ? DBL_MAX : -DBL_MAX;
		return a / b;
	case N_POW: return pow(a, b);
	case N_MIN: return a < b ? a : b;
	case N_MAX: return a > b ? a : b;
	case N_EQ: return a == b;
	case N_NE: return a != b;
	case N_LT: return a < b;
	case N_GT: return a > b;
	case N_LE: return a <= b;
	case N_GE: return a >= b;
	case N_AND: return a != 0 && b != 0;
	case N_OR: return a != 0 || b != 0;
	case N_XOR: return (a != 0) != (b != 0);
	default: return 0;
	}
}

static bool eval_strings(struct run *r, const struct cpl_node *n,
			 double *out)
{
	struct cubepl_value a, b = {0, NULL};
	char ba[32], bb[32];
	if (!eval(r, n->a, &a))
		return false;
	if (n->op == N_MATCH) {
		uint64_t cost = 1;
		int m = cpl_regex_match(n->re, str_of(a, ba, sizeof(ba)),
					&r->scratch, &cost, &r->err);
		*out = m == 1;
		r->steps += cost - 1; /* the node counted one */
		if (m >= 0 && r->steps > r->max_steps) {
			r->err = "step limit reached (a loop that does not end?)";
			return false;
		}
		return m >= 0;
	}
	if (!eval(r, n->b, &b))
		return false;
	const char *sa = str_of(a, ba, sizeof(ba)), *sb = str_of(b, bb, sizeof(bb));
	*out = n->op == N_SEQ ? strcmp(sa, sb) == 0 : strcasecmp(sa, sb) == 0;
	return true;
}

static bool eval_metric(struct run *r, const struct cpl_node *n, double *out)
{
	double id = 0;
	if (n->metric < 0) {
		*out = 0; /* CubeLib: an unknown metric reads 0 */
		return true;
	}
	if (n->a && !eval_num(r, n->a, &id))
		return false;
	const char *msg = NULL;
	if (!r->h->metric(r->h->ud, n->metric, (enum cubepl_ref_kind)n->ref_kind,
			  (enum cubepl_flavour)n->flav[0],
			  (enum cubepl_flavour)n->flav[1], id, out, &msg)) {
		r->err = msg ? msg : "a metric has no value";
		return false;
	}
	return true;
}

static bool eval_if(struct run *r, const struct cpl_node *n)
{
	size_t i = 0;
	for (; i + 1 < n->n; i += 2) {
		double c;
		if (!eval_num(r, n->list[i], &c))
			return false;
		if (c != 0) {
			struct cubepl_value ignored;
			return eval(r, n->list[i + 1], &ignored);
		}
	}
	struct cubepl_value ignored;
	return i < n->n ? eval(r, n->list[i], &ignored) : true;
}

static bool eval_stmt(struct run *r, const struct cpl_node *n,
		      struct cubepl_value *out)
{
	*out = (struct cubepl_value){0, NULL};
	switch ((enum cpl_op)n->op) {
	case N_BLOCK:
		for (size_t i = 0; i < n->n; i++)
			if (!eval(r, n->list[i], out))
				return false;
		*out = (struct cubepl_value){0, NULL};
		return n->a ? eval(r, n->a, out) : true;
	case N_ASSIGN: {
		double idx = 0;
		struct cubepl_value v;
		if ((n->a && !eval_num(r, n->a, &idx)) || !eval(r, n->b, &v))
			return false;
		return store(r, n->slot, idx, v);
	}
	case N_IF:
		return eval_if(r, n);
	case N_WHILE:
		for (;;) {
			double c;
			struct cubepl_value ignored;
			if (!eval_num(r, n->a, &c))
				return false;
			if (c == 0)
				return true;
			if (!eval(r, n->b, &ignored))
				return false;
		}
	default:
		return true;
	}
}

static bool eval(struct run *r, const struct cpl_node *n,
		 struct cubepl_value *out)
{
	if (++r->steps > r->max_steps) {
		r->err = "step limit reached (a loop that does not end?)";
		return false;
	}
	double a = 0, b = 0, x;
	*out = (struct cubepl_value){0, NULL};
	switch ((enum cpl_op)n->op) {
	case N_NUM:
		out->num = n->num;
		return true;
	case N_STR:
		out->str = n->str;
		return true;
	case N_NEG:
	case N_FUNC1:
	case N_NOT:
		if (!eval_num(r, n->a, &a))
			return false;
		out->num = n->op == N_NEG   ? -a
			   : n->op == N_NOT ? a == 0
					    : func1((enum cpl_func)n->fn, a);
		return true;
	case N_SEQ:
	case N_SSEQ:
	case N_MATCH:
		if (!eval_strings(r, n, &x))
			return false;
		out->num = x;
		return true;
	case N_METRIC:
		return eval_metric(r, n, &out->num);
	case N_VAR:
	case N_RES:
		if (n->a && !eval_num(r, n->a, &a))
			return false;
		if (n->op == N_VAR) {
			*out = load(r, n->slot, a);
		} else if (!r->h->reserved(r->h->ud, (enum cubepl_reserved)n->slot,
					   a, out)) {
			*out = (struct cubepl_value){0, NULL};
		}
		return true;
	case N_ARG:
		out->num = r->args[n->slot & 1];
		return true;
	case N_SIZEOF:
		out->num = (double)r->env->vars[n->slot].n;
		return true;
	case N_DEFINED:
		out->num = r->env->vars[n->slot].defined;
		return true;
	case N_BLOCK:
	case N_ASSIGN:
	case N_IF:
	case N_WHILE:
	case N_NOP:
		return eval_stmt(r, n, out);
	default:
		break;
	}
	/* binary numeric operators */
	if (!eval_num(r, n->a, &a))
		return false;
	if ((n->op == N_AND && a == 0) || (n->op == N_OR && a != 0)) {
		out->num = n->op == N_OR;
		return true;
	}
	if (n->op == N_DIV && a == 0)
		return true; /* 0 / x: 0, x not evaluated (CubeLib) */
	if (!eval_num(r, n->b, &b))
		return false;
	out->num = arith((enum cpl_op)n->op, a, b);
	return true;
}

bool cubepl_run_args(const struct cubepl_program *p, struct cubepl_env *env,
		     const struct cubepl_host *h, uint64_t max_steps,
		     double arg1, double arg2, double *out, char *msg,
		     size_t msg_size)
{
	struct run r = {.env = env,
			.h = h,
			.max_steps = max_steps,
			.args = {arg1, arg2}};
	struct cubepl_value v;
	if (msg_size)
		msg[0] = '\0';
	bool ok = p && p->root && eval(&r, p->root, &v);
	cpl_regex_scratch_free(r.scratch);
	if (!ok) {
		snprintf(msg, msg_size, "%s", r.err ? r.err : "no program");
		return false;
	}
	*out = num_of(v);
	return true;
}

bool cubepl_run(const struct cubepl_program *p, struct cubepl_env *env,
		const struct cubepl_host *h, uint64_t max_steps, double *out,
		char *msg, size_t msg_size)
{
	return cubepl_run_args(p, env, h, max_steps, 0, 0, out, msg, msg_size);
}
