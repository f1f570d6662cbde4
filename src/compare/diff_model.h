/* diff_model: the merged tree of two runs (diff.h) as a model of its
 * own, so that every view (top-down, flat), the report's writers
 * (present_rows) and the viewer's panes show it unchanged.  Its node i is
 * merged node i (context id i), named as in the base run where the node
 * is there, else as in the new run; per metric and scope both runs have,
 * five columns: base, new, delta (new - base), delta% (of the base
 * run's total: the base's root inclusive value) and ratio (new / base,
 * absent unless both runs have the node and the base value is not 0).
 * A value a run does not have is absent, never 0: delta counts it as 0
 * when the other run has one; two values that differ by rounding only
 * (by at most 1e-12 of the larger) have a delta of 0.  In the aggregated views (flat) the ratio
 * is the ratio of the sums.  No curses here. */
#ifndef CALLSCOPE_DIFF_MODEL_H
#define CALLSCOPE_DIFF_MODEL_H

#include "compare/diff.h"

enum diff_role {
	DIFF_ROLE_BASE,
	DIFF_ROLE_NEW,
	DIFF_ROLE_DELTA,
	DIFF_ROLE_PERCENT,
	DIFF_ROLE_RATIO,
	DIFF_N_ROLES
};

/* "base", "new", "delta", "delta%", "ratio". */
const char *diff_role_name(enum diff_role role);

/* The model of `d`, which it takes (freed with the model, also on
 * failure); `d`'s runs must still be open (their names are copied) and
 * may be freed afterwards.  `path` names it in messages.  With `mark`
 * (the viewer), a named node's name begins with "[+] " when it is new and
 * "[-] " when it is gone: a marker that needs no colour.  The columns
 * visible by default are the first metric's inclusive base, new, delta
 * and delta% (its exclusive ones where the runs have no inclusive
 * values); every column is there for the batch output and the column
 * chooser.  NULL with `err` on failure. */
struct model *diff_model_new(struct diff *d, const char *path, bool mark,
			     struct error *err);

/* The markers `mark` puts before a new and a gone node's name. */
#define DIFF_MARK_NEW  "[+] "
#define DIFF_MARK_GONE "[-] "

/* The column of metric k, scope and role in a model diff_model_new made
 * from `d`, or MODEL_NONE when the runs do not both have that scope. */
uint32_t diff_model_column(const struct diff *d, size_t k,
			   enum diff_scope scope, enum diff_role role);

/* What column `c` of that model is: false when it is none of them. */
bool diff_model_column_of(const struct diff *d, uint32_t c, size_t *k,
			  enum diff_scope *scope, enum diff_role *role);

/* The value of role `role` (as the model's column shows it) at merged
 * node `node`: false when absent. */
bool diff_role_value(const struct diff *d, uint32_t node, size_t k,
		     enum diff_scope scope, enum diff_role role, double *out);

#endif
