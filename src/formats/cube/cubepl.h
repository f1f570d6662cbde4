/* cubepl: Cube's expression language (CubePL 1.x, as CubeLib's
 * CubePL1Parser.yy and its evaluators define it), the part a reader needs
 * to compute derived metrics: arithmetic (+ - * / ^, unary minus, |x|),
 * the one- and two-argument functions (sqrt, sin, ..., min, max),
 * comparisons and boolean operators (== != < > <= >= eq seq =~ /re/, and,
 * or, xor, not, true, false), metric references (metric::NAME(),
 * metric::NAME(i|e|*[, i|e|*]), metric::fixed::NAME(...),
 * metric::call::NAME(expr, i|e)), variables (${name}, ${name}[expr],
 * assignment, global(name), sizeof, defined), the reserved variables
 * (${cube::...}, ${calculation::...}), the operands arg1 and arg2 of an
 * aggregation (<cubeplaggr>), and the statements of lambda
 * blocks ({ ...; return expr; }, if / elseif / else, while).  A parse
 * gives a program or a one-line error with its offset; a run gives a
 * number or a one-line error (step limit, depth limit, a regular
 * expression too costly); nothing here
 * reads a file: metric values and reserved variables come from the
 * caller through struct cubepl_host.  cubepl_lex.c tokenizes,
 * cubepl_parse.c builds the tree, cubepl_eval.c runs it, cubepl_regex.c
 * compiles and matches the /regex/ of =~ (POSIX extended, as CubeLib's,
 * through PCRE2 with bounded cost).  Depends on libc and PCRE2. */
#ifndef CALLSCOPE_CUBEPL_H
#define CALLSCOPE_CUBEPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits: nesting of the source, steps of one run. */
#define CUBEPL_MAX_NESTING 400 /* parser levels: about 200 parentheses */
#define CUBEPL_MAX_SOURCE (1u << 20)
#define CUBEPL_MAX_HEIGHT 2000 /* of the tree (a+b+c... is one deep) */

/* Flavours of a metric reference: as computed, inclusive, exclusive. */
enum cubepl_flavour { CUBEPL_SAME, CUBEPL_INCL, CUBEPL_EXCL };

/* Kinds of metric reference. */
enum cubepl_ref_kind {
	CUBEPL_REF_CONTEXT, /* metric::x(...): the current call path */
	CUBEPL_REF_FIXED,   /* metric::fixed::x(...) */
	CUBEPL_REF_CALL,    /* metric::call::x(id, ...): call path `id` */
};

/* A value: a number, or a string (borrowed: lives as long as the
 * program or the host's tables). */
struct cubepl_value {
	double num;
	const char *str; /* NULL: a number */
};

/* The reserved variables (${cube::...}, ${calculation::...}). */
enum cubepl_reserved {
	CUBEPL_R_NUM_METRICS, CUBEPL_R_NUM_ROOT_METRICS, CUBEPL_R_NUM_REGIONS,
	CUBEPL_R_NUM_CALLPATHS, CUBEPL_R_NUM_ROOT_CALLPATHS,
	CUBEPL_R_NUM_LOCATIONS, CUBEPL_R_NUM_LOCATION_GROUPS,
	CUBEPL_R_NUM_STNS, CUBEPL_R_NUM_ROOT_STNS, CUBEPL_R_NUM_MIRRORS,
	CUBEPL_R_FILENAME,
	CUBEPL_R_METRIC_UNIQ, CUBEPL_R_METRIC_DISP, CUBEPL_R_METRIC_URL,
	CUBEPL_R_METRIC_DESCR, CUBEPL_R_METRIC_DTYPE, CUBEPL_R_METRIC_UOM,
	CUBEPL_R_METRIC_EXPR, CUBEPL_R_METRIC_INIT, CUBEPL_R_METRIC_NCHILD,
	CUBEPL_R_METRIC_PARENT,
	CUBEPL_R_REGION_NAME, CUBEPL_R_REGION_MANGLED, CUBEPL_R_REGION_PARADIGM,
	CUBEPL_R_REGION_ROLE, CUBEPL_R_REGION_URL, CUBEPL_R_REGION_DESCR,
	CUBEPL_R_REGION_MOD, CUBEPL_R_REGION_BEGIN, CUBEPL_R_REGION_END,
	CUBEPL_R_CALL_MOD, CUBEPL_R_CALL_LINE, CUBEPL_R_CALL_NCHILD,
	CUBEPL_R_CALL_PARENT, CUBEPL_R_CALL_CALLEE,
	CUBEPL_R_LOC_NAME, CUBEPL_R_LOC_TYPE, CUBEPL_R_LOC_RANK,
	CUBEPL_R_LOC_PARENT, CUBEPL_R_LOC_VOID,
	CUBEPL_R_LG_NAME, CUBEPL_R_LG_TYPE, CUBEPL_R_LG_RANK,
	CUBEPL_R_LG_PARENT, CUBEPL_R_LG_VOID, CUBEPL_R_LG_NLOC,
	CUBEPL_R_STN_NAME, CUBEPL_R_STN_CLASS, CUBEPL_R_STN_PARENT,
	CUBEPL_R_STN_NCHILD, CUBEPL_R_STN_NGROUPS,
	/* the calculation's own ids (not arrays) */
	CUBEPL_R_CALC_METRIC, CUBEPL_R_CALC_CALLPATH, CUBEPL_R_CALC_REGION,
	CUBEPL_R_CALC_SYSRES, CUBEPL_R_CALC_SYSRES_KIND,
	CUBEPL_R_COUNT
};

/* What the caller supplies. */
struct cubepl_host {
	void *ud;
	/* The index of metric `name` (a uniq name), or -1 (then the
	 * reference reads 0, as CubeLib does). */
	int32_t (*resolve)(void *ud, const char *name, size_t len);
	/* The value of metric `metric` for a reference of `kind`; `call`
	 * and `sys` are the flavours given (CUBEPL_SAME when omitted);
	 * `id` is the call path id of a CUBEPL_REF_CALL.  false: the run
	 * stops with the error the host left in *msg (a static string). */
	bool (*metric)(void *ud, int32_t metric, enum cubepl_ref_kind kind,
		       enum cubepl_flavour call, enum cubepl_flavour sys,
		       double id, double *out, const char **msg);
	/* Element `idx` of reserved variable `r` (for the CALC ones, idx
	 * is 0); false: 0. */
	bool (*reserved)(void *ud, enum cubepl_reserved r, double idx,
			 struct cubepl_value *out);
};

/* The variables: shared by every program run in it (CubeLib's global
 * and per-metric memory in one: derived metrics read what their init
 * blocks wrote). */
struct cubepl_env;

/* A variable may hold up to max_elems elements (its largest index + 1);
 * assigning past that is an error (bounds memory: 16 bytes each). */
struct cubepl_env *cubepl_env_new(size_t max_elems);
void cubepl_env_free(struct cubepl_env *env);

struct cubepl_program;

/* Parse `src` (`len` bytes) into *out (names of variables are entered in
 * `env`).  false: *out is NULL and `msg` (msg_size bytes) says what and
 * where ("offset N: ..."). */
bool cubepl_parse(const char *src, size_t len, const struct cubepl_host *h,
		  struct cubepl_env *env, struct cubepl_program **out,
		  char *msg, size_t msg_size);

void cubepl_program_free(struct cubepl_program *p);

/* Metric indexes the program refers to (for cycle checks): *n of them,
 * the array owned by the program. */
const int32_t *cubepl_program_metrics(const struct cubepl_program *p,
				      size_t *n);

/* Names of metrics referred to but unknown (the first), or NULL. */
const char *cubepl_program_unknown_metric(const struct cubepl_program *p);

/* Run `p` in `env` with the host's values; `max_steps` bounds the work
 * (nodes evaluated).  false: `msg` says why. */
bool cubepl_run(const struct cubepl_program *p, struct cubepl_env *env,
		const struct cubepl_host *h, uint64_t max_steps, double *out,
		char *msg, size_t msg_size);

/* The same with the operands of a metric's own aggregation
 * (<cubeplaggr>): the keywords arg1 and arg2 read them (CubeLib's
 * CubePL1Scanner.lpp; in cubepl_run they read 0). */
bool cubepl_run_args(const struct cubepl_program *p, struct cubepl_env *env,
		     const struct cubepl_host *h, uint64_t max_steps,
		     double arg1, double arg2, double *out, char *msg,
		     size_t msg_size);

#endif
