/* metrics_yaml_internal: what the four parts of the METRICS.yaml reader
 * share: the bounds every walk obeys, the taxonomy as read (metrics and
 * their variants), the reader's state, the small questions asked of a
 * libyaml node, and each part's entry points (metrics_yaml_node.c: errors,
 * budgets and mapping look-ups; metrics_yaml_formula.c: formulas;
 * metrics_yaml_taxonomy.c: inputs, metrics and variants; metrics_yaml.c:
 * first/sum resolution and the columns).  The my_ prefix stands for
 * "metrics yaml".  Must not depend on curses or on another format. */
#ifndef CALLSCOPE_METRICS_YAML_INTERNAL_H
#define CALLSCOPE_METRICS_YAML_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <yaml.h>

#include "core/status.h"
#include "model/model.h"

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

static inline size_t line_of(const yaml_node_t *n)
{
	return n ? n->start_mark.line + 1 : 0;
}

static inline yaml_node_t *node_at(struct ctx *c, int index)
{
	return yaml_document_get_node(&c->doc, index);
}

static inline size_t index_of(struct ctx *c, const yaml_node_t *n)
{
	return (size_t)(n - c->doc.nodes.start);
}

static inline bool is_scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE;
}

static inline bool scalar_is(const yaml_node_t *n, const char *s)
{
	size_t len = strlen(s);
	return is_scalar(n) && n->data.scalar.length == len &&
	       memcmp(n->data.scalar.value, s, len) == 0;
}

/* A null value: absent, `~`, `null` or an empty plain scalar. */
static inline bool is_null(const yaml_node_t *n)
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

/* ---- metrics_yaml_node.c ----------------------------------------------- */

/* Record the first error, naming the line of `at`; false. */
bool my_fail(struct ctx *c, enum status st, const yaml_node_t *at,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Record "out of memory"; false. */
bool my_nomem(struct ctx *c);
/* Count one node visit against the step budget; false when spent. */
bool my_step(struct ctx *c, const yaml_node_t *at);
/* The text of scalar `n`, the value of `key` in mapping `map` (cut at an
 * embedded NUL), or NULL with an error. */
char *my_scalar_dup(struct ctx *c, const yaml_node_t *n, const char *key,
		    const yaml_node_t *map);
/* The value of `key` in mapping `map`, following merge keys; NULL when
 * absent. */
yaml_node_t *my_map_get(struct ctx *c, yaml_node_t *map, const char *key);
/* True when `n` is of `type`, else an error naming `what`. */
bool my_expect_type(struct ctx *c, const yaml_node_t *n,
		    yaml_node_type_t type, const char *what);

/* ---- metrics_yaml_formula.c -------------------------------------------- */

/* The canonical text of a stat's formula ("$$" read as "$1", printed
 * back); NULL when out of memory. */
char *my_canonical_formula(const char *text);
/* A formula node, counted against the node budget. */
struct formula *my_make_node(struct ctx *c, const yaml_node_t *at,
			     enum formula_op op, struct formula **args,
			     size_t nargs);
/* Build a formula; *missing tells whether it names a statistic the
 * database lacks (the formula is then dropped).  False on error. */
bool my_build_top(struct ctx *c, yaml_node_t *n, struct formula **out,
		  bool *missing);
/* A copy of `f`, counted against the node budget. */
struct formula *my_clone(struct ctx *c, const struct formula *f,
			 unsigned depth);
/* Do `a` and `b` print the same? */
bool my_same_formula(const struct formula *a, const struct formula *b);

/* ---- metrics_yaml_taxonomy.c ------------------------------------------- */

/* The `inputs:` and the `roots:` of the loaded document. */
bool my_read_document(struct ctx *c, struct metric **roots,
		      size_t *n_roots);
/* Free what `m` holds (not `m`). */
void my_metric_release(struct metric *m);

#endif
