/* cubepl_internal: what the three parts of the CubePL interpreter share:
 * the tokens (cubepl_lex.c makes them), the tree (cubepl_parse.c builds
 * it, cubepl_eval.c runs it) and the variable slots of an environment.
 * Depends on libc only (cubepl_regex.c on PCRE2). */
#ifndef CALLSCOPE_CUBEPL_INTERNAL_H
#define CALLSCOPE_CUBEPL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/cube/cubepl.h"

enum cpl_tok {
	TK_EOF,
	TK_ERROR,
	TK_NUM,
	TK_STR,     /* "text": text is between the quotes */
	TK_VAR,     /* ${name}: text is the name */
	TK_WORD,    /* a keyword, function or other name (may hold ::) */
	TK_METRIC,  /* metric::[fixed::|call::]NAME: text is NAME */
	TK_PUNCT,   /* one of ( ) { } [ ] , ; + - * / ^ | = < > */
	TK_OP2,     /* == != <= >= =~ */
};

struct cpl_token {
	enum cpl_tok kind;
	const char *text; /* into the source */
	size_t len;
	size_t off;       /* offset in the source */
	double num;
	uint8_t ref_kind; /* TK_METRIC: enum cubepl_ref_kind */
	bool set_or_get;  /* TK_METRIC: cube::metric::set:: / get:: */
};

struct cpl_lexer {
	const char *src;
	size_t len, pos;
	const char *err; /* TK_ERROR: what */
};

/* The next token; TK_ERROR with lx->err on a bad character or an
 * unterminated string. */
struct cpl_token cpl_lex_next(struct cpl_lexer *lx);

/* A /regex/ literal at the current position (after =~): its text
 * between the slashes; false when there is none or it is unterminated. */
bool cpl_lex_regex(struct cpl_lexer *lx, struct cpl_token *out);

/* cubepl_regex.c: the /regex/ of =~, a POSIX extended regex (as
 * CubeLib's), compiled and matched by PCRE2 within these bounds: pattern
 * bytes, and per match PCRE2's backtracking steps (a match costs the run
 * one step per CPL_REGEX_TIER_WORK of them, by powers of ten), depth and
 * heap. */
#define CPL_REGEX_MAX_LEN 16384
#define CPL_REGEX_TIER_WORK 100
#define CPL_REGEX_MATCH_LIMIT 100000
#define CPL_REGEX_DEPTH_LIMIT 10000
#define CPL_REGEX_HEAP_KIB 4096
struct cpl_regex;
struct cpl_regex_scratch; /* what matches reuse (PCRE2's match data) */

/* The compiled pattern `pat` (len bytes), or NULL with *why: "bad regular
 * expression", "a regular expression too costly to compile" (a bound
 * reached) or "out of memory". */
struct cpl_regex *cpl_regex_compile(const char *pat, size_t len,
				    const char **why);
void cpl_regex_free(struct cpl_regex *re);

/* Whether `s` matches `re`: 1 or 0, and in *steps what it cost (1, 10,
 * 100 or 1000); -1 with *why when a bound is reached ("regular
 * expression too costly ...") or memory runs out.  *scratch starts NULL,
 * is made on first use and kept for the next matches; free it with
 * cpl_regex_scratch_free. */
int cpl_regex_match(const struct cpl_regex *re, const char *s,
		    struct cpl_regex_scratch **scratch, uint64_t *steps,
		    const char **why);
void cpl_regex_scratch_free(struct cpl_regex_scratch *scratch);

/* cubepl_names.c: the enum cubepl_reserved of ${name}, or UINT32_MAX. */
uint32_t cpl_reserved_of(const char *name, size_t len);

enum cpl_op {
	N_NUM, N_STR, N_NEG, N_ADD, N_SUB, N_MUL, N_DIV, N_POW, N_FUNC1,
	N_MIN, N_MAX, N_EQ, N_NE, N_LT, N_GT, N_LE, N_GE, N_SEQ, N_SSEQ,
	N_MATCH, N_AND, N_OR, N_XOR, N_NOT, N_METRIC, N_VAR, N_RES,
	N_SIZEOF, N_DEFINED, N_BLOCK, N_ASSIGN, N_IF, N_WHILE, N_NOP,
	N_ARG, /* arg1 / arg2 (slot 0 / 1): an aggregation's operands */
};

enum cpl_func {
	F_SQRT, F_SIN, F_COS, F_TAN, F_ASIN, F_ACOS, F_ATAN, F_EXP, F_LOG,
	F_ABS, F_SGN, F_POS, F_NEG, F_FLOOR, F_CEIL, F_RANDOM,
};

struct cpl_node {
	uint8_t op;       /* enum cpl_op */
	uint8_t fn;       /* N_FUNC1: enum cpl_func */
	uint8_t ref_kind; /* N_METRIC */
	uint8_t flav[2];  /* N_METRIC: enum cubepl_flavour */
	int32_t metric;   /* N_METRIC: host index, -1 unknown */
	uint32_t height;  /* 1 + the tallest operand's (bounded) */
	uint32_t slot;    /* N_VAR, N_ASSIGN, N_SIZEOF, N_DEFINED: variable;
			   * N_RES: enum cubepl_reserved */
	double num;
	char *str;        /* N_STR (owned, NUL-terminated) */
	struct cpl_regex *re; /* N_MATCH (owned) */
	struct cpl_node *a, *b; /* operands; N_METRIC a: call id; N_VAR,
				 * N_RES, N_ASSIGN a: index, N_ASSIGN b:
				 * value; N_BLOCK a: return; N_WHILE a:
				 * condition, b: body */
	struct cpl_node **list; /* N_BLOCK: statements; N_IF: cond, body,
				 * cond, body, ..., [else body] */
	size_t n;
};

struct cpl_var {
	char *name;
	struct cubepl_value *v;
	size_t n, cap;
	bool defined;
};

struct cubepl_env {
	struct cpl_var *vars;
	size_t n, cap;
	size_t max_elems; /* per variable */
};

/* The slot of variable `name` in env, entered when new; UINT32_MAX when
 * out of memory. */
uint32_t cpl_env_slot(struct cubepl_env *env, const char *name, size_t len);

struct cubepl_program {
	struct cpl_node *root;
	int32_t *metrics; /* referred to */
	size_t n_metrics, cap_metrics;
	char *unknown;    /* first unknown metric name */
};

void cpl_node_free(struct cpl_node *n);

#endif
