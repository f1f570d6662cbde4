/* tree_compare: signs, colours, marks and the regression key of the tree
 * pane on compared runs (tree_compare.h). */
#include "config.h"

#include "tree_compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/runset.h"
#include "present/present_value.h"
#include "screen.h"
#include "theme.h"

bool tree_compare_plus(const struct pane_env *env, uint32_t c, double v)
{
	return env->diff && v > 0 && diff_view_signed(env->diff, c);
}

attr_t tree_compare_attr(const struct pane_env *env, uint32_t c, double v,
			 attr_t normal)
{
	if (!env->diff)
		return normal;
	switch (diff_view_sense(env->diff, c, v)) {
	case DIFF_SENSE_WORSE:
		return theme_attr(THEME_ROLE_DELTA_WORSE);
	case DIFF_SENSE_BETTER:
		return theme_attr(THEME_ROLE_DELTA_BETTER);
	default:
		return normal;
	}
}

const char *tree_compare_variant(const struct pane_env *env, uint32_t c)
{
	size_t k;
	enum diff_scope scope;
	enum diff_role role;
	if (!env->diff || !diff_model_column_of(env->diff, c, &k, &scope, &role))
		return NULL;
	return diff_role_name(role);
}

/* `text` cut to `room` cells in its middle: its first and last code
 * points around an ellipsis, the start one longer. */
static char *cut_middle(const char *text, int room)
{
	const char *ell = screen_glyphs()->ellipsis;
	size_t len = strlen(text);
	int ell_w = screen_text_width(ell);
	int head = (room - ell_w + 1) / 2, tail = room - ell_w - head;
	while (head >= 0 && tail >= 0) {
		size_t a = 0, b = len;
		for (int i = 0; i < head && a < len; i++)
			do
				a++;
			while (a < len && ((unsigned char)text[a] & 0xc0) == 0x80);
		for (int i = 0; i < tail && b > a; i++)
			do
				b--;
			while (b > a && ((unsigned char)text[b] & 0xc0) == 0x80);
		char *out = NULL;
		if (asprintf(&out, "%.*s%s%s", (int)a, text, ell, text + b) < 0)
			return NULL;
		if (screen_text_width(out) <= room)
			return out;
		free(out); /* wide characters: one fewer on the longer side */
		if (head > tail)
			head--;
		else
			tail--;
	}
	return strdup(ell);
}

char *tree_compare_set_title(const struct pane_env *env, uint32_t c,
			     int room)
{
	enum runset_column_kind kind =
	    env->diff ? RUNSET_COLUMN_NONE : runset_model_column(env->model, c);
	const char *v = kind != RUNSET_COLUMN_NONE ? model_columns(env->model)[c].variant
						   : NULL;
	if (!v)
		return NULL;
	if (room >= 3 && screen_text_width(v) > room)
		return cut_middle(v, room);
	return strdup(v);
}

char *tree_compare_label(const struct pane_env *env, uint32_t node,
			 char *label)
{
	const char *mark = env->diff && env->view_kind == VIEW_TOP_DOWN
				   ? diff_view_mark(env->diff, node)
				   : NULL;
	if (!mark || !label || strncmp(label, mark, strlen(mark)) == 0)
		return label;
	char *out = NULL;
	if (asprintf(&out, "%s%s", mark, label) < 0)
		return label;
	free(label);
	return out;
}

void tree_regressions_free(struct tree_regressions *r)
{
	free(r->at);
	*r = (struct tree_regressions){0};
}

struct reaction tree_compare_next(struct pane_env *env,
				  struct tree_regressions *r)
{
	if (!env->diff) {
		pane_message(env, true,
			     "regressions: no runs compared (callscope BASE "
			     "NEW --compare, or :compare PATH)");
		return REACTION(HANDLED_REDRAW);
	}
	if (!r->ranked &&
	    !diff_view_regressions(env->diff, 0, &r->at, &r->n)) {
		pane_message(env, true, "regressions: out of memory");
		return REACTION(HANDLED_REDRAW);
	}
	r->ranked = true;
	if (r->n == 0) {
		pane_message(env, false, "no regression: nothing grew");
		return REACTION(HANDLED_REDRAW);
	}
	/* on the one it selected last: the next; elsewhere the biggest */
	uint32_t sel = env->view_kind == VIEW_TOP_DOWN
			       ? pane_selected_model_node(env)
			       : MODEL_NONE;
	bool on_last = sel != MODEL_NONE && sel + 1 == r->last;
	size_t i = 0;
	while (on_last && i < r->n && r->at[i].node != sel)
		i++;
	i = on_last && i + 1 < r->n ? i + 1 : 0;
	bool again = on_last && i == 0;
	r->last = r->at[i].node + 1;
	char grew[64];
	present_value_fit(env->model, diff_view_delta_column(env->diff),
			  r->at[i].growth, 20, grew, sizeof(grew));
	pane_message(env, false,
		     "regression %zu of %zu: +%s in the node itself%s", i + 1,
		     r->n, grew, again ? " (the biggest again)" : "");
	if (env->view_kind == VIEW_TOP_DOWN) {
		pane_select(env, r->at[i].node);
		return REACTION(HANDLED_REDRAW);
	}
	return (struct reaction){HANDLED_REDRAW, ACTION_VIEW_TOP_DOWN,
				 r->at[i].node};
}
