/* tree_compare: the tree pane's side of compared runs (pane_env.diff set:
 * `callscope BASE NEW --compare`, `:compare PATH`).  A delta or delta%
 * above 0 is signed '+' (below 0 its '-' is there): a mark that survives
 * monochrome terminals and NO_COLOR; delta, delta% and ratio values take
 * the theme roles delta-worse and delta-better; a node one run only has
 * is marked "[+] " (new) or "[-] " (gone) before its label whatever its
 * kind (a line or an address is labelled without its name, which the
 * model marks); the next-regression key walks the nodes that grew
 * most in themselves (compare/diff_view.h), worst first; and a run set's
 * columns (`callscope RUN... --compare`, three runs and more) are headed
 * by the run's short label or the statistic ("p16 I", "median I"). */
#ifndef CALLSCOPE_UI_TREE_COMPARE_H
#define CALLSCOPE_UI_TREE_COMPARE_H

#include <curses.h>

#include "pane.h"
#include "compare/diff_view.h"

/* Whether value `v` of column `c` is written with a leading '+'. */
bool tree_compare_plus(const struct pane_env *env, uint32_t c, double v);

/* The attribute of value `v` of column `c`: `normal` unless it is a
 * delta, delta% or ratio that is worse or better. */
attr_t tree_compare_attr(const struct pane_env *env, uint32_t c, double v,
			 attr_t normal);

/* The variant column `c`'s header shows: its role ("base", "new",
 * "delta", "delta%", "ratio": the model's "delta% of base total" cut to
 * fit would read "delta…", as the delta does), NULL when none. */
const char *tree_compare_variant(const struct pane_env *env, uint32_t c);

/* The header text of column `c` of a run set (compare/runset.h's
 * runset_model_column; NULL for any other column), without its kind and
 * mark: the variant alone, as the set has one metric name throughout --
 * a run's label ("p16") or a statistic's name ("median") -- cut in its
 * middle to `room` cells when wider, so that labels sharing a start stay
 * apart ("lo…-t", "lo…ct"; "out…un", "out… z").  Heap. */
char *tree_compare_set_title(const struct pane_env *env, uint32_t c,
			     int room);

/* `label` (heap, taken) of top-down model node `node`, with its mark
 * before it when one run only has the node and it lacks it; heap. */
char *tree_compare_label(const struct pane_env *env, uint32_t node,
			 char *label);

/* The nodes that regressed, ranked when the key is first pressed. */
struct tree_regressions {
	struct diff_regression *at;
	size_t n;
	bool ranked;
	uint32_t last; /* the node the key selected last (+ 1; 0: none) */
};

/* The next-regression key: the biggest regression, or, pressed again
 * (the selection still where the key left it), the next (after the last,
 * the biggest again). */
struct reaction tree_compare_next(struct pane_env *env,
				  struct tree_regressions *r);

void tree_regressions_free(struct tree_regressions *r);

#endif
