/* hotpath: the message after the hot-path key (H) in the tree.  The path
 * (view_hotpath) takes the largest child while it holds at least the
 * threshold's share of its parent (the message's "has N%" is that share:
 * of the row where the path stopped, not of the total); it says how far it
 * went and, from view_hotpath_stop, why it stopped: a leaf, no child
 * with a value, the largest child's share below the threshold (with the
 * largest `:threshold` that would go on: H again at that threshold
 * continues below), or rows the filter hides. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hotpath.h"

/* `share` percent rounded, as the percent column rounds it, to one
 * decimal, or to as many more (up to 4) as it takes to read below the
 * threshold THR: "49.998%" beside a column's "50.0%", not "49.9%". */
static int share_decimals(double share, double thr)
{
	int d = 1;
	char buf[64];
	for (; d < 4; d++) {
		snprintf(buf, sizeof(buf), "%.*f", d, share);
		if (strtod(buf, NULL) < thr)
			break;
	}
	return d;
}

void hotpath_say(struct pane_env *env, uint32_t start, uint32_t stop)
{
	struct view_node a_vn, l_vn;
	struct view_hot_stop hs;
	struct error err = {0};
	double thr = env->cols->threshold;
	if (!view_node_get(env->view, start, &a_vn) ||
	    !view_node_get(env->view, stop, &l_vn))
		return;
	unsigned levels = l_vn.depth > a_vn.depth ? l_vn.depth - a_vn.depth : 0;
	char went[48];
	if (levels == 0)
		snprintf(went, sizeof(went), "hot path stops here");
	else
		snprintf(went, sizeof(went), "hot path: %u level%s down",
			 levels, levels == 1 ? "" : "s");
	if (view_hotpath_stop(env->view, stop, env->cols->sort_column, &hs,
			      &err) != STATUS_OK) {
		pane_error(env, &err);
		return;
	}
	if (hs.leaf) {
		pane_message(env, false, "%s: %s", went,
			     levels ? "a leaf" : "a leaf, nothing below it");
		return;
	}
	if (hs.best == MODEL_NONE) {
		pane_message(env, false, "%s: no child has a value in the "
					 "sort column", went);
		return;
	}
	if (!(hs.node_v > 0) || hs.best_v >= thr / 100.0 * hs.node_v) {
		/* the path went on in the view: the filter hides the rest */
		pane_message(env, false, "%s: the filter hides the rows below",
			     went);
		return;
	}
	double share = hs.best_v > 0 ? 100.0 * hs.best_v / hs.node_v : 0;
	/* the largest whole threshold that takes the largest child (the
	 * path compares best_v >= threshold / 100 * node_v) */
	double go_on = floor(share);
	while (go_on > 0 && hs.best_v < go_on / 100.0 * hs.node_v)
		go_on -= 1;
	pane_message(env, false,
		     "%s; largest child has %.*f%% < %g%%; :threshold %g "
		     "goes on", went, share_decimals(share, thr), share, thr,
		     go_on);
}
