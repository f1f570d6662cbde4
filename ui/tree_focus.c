/* tree_focus: the tree pane over part of the system (see tree_focus.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree_focus.h"
#include "actions.h"
#include "views/system_focus.h"

/* Whether every leaf of `f` (a column's formula over statistics) has
 * per-thread values: a Cube metric's own column (model_column.own), a
 * parent less its sub-metrics, is one. */
static bool leaves_per_profile(const struct model *m, const struct formula *f)
{
	if (!f)
		return false;
	if (f->op == FORMULA_LEAF)
		return f->leaf < model_n_stats(m) &&
		       model_stats(m)[f->leaf].prop_id != MODEL_NONE;
	for (size_t i = 0; i < f->nargs; i++)
		if (!leaves_per_profile(m, f->args[i]))
			return false;
	return true;
}

const char *tree_focus_blank(const struct pane_env *env, uint32_t col)
{
	const struct model *m = env->model;
	if (env->view_kind != VIEW_TOP_DOWN)
		return "the top-down view only (a row of this view stands for "
		       "several contexts)";
	if (col >= model_n_columns(m))
		return "a derived column";
	if (!model_has_per_profile(m) ||
	    !leaves_per_profile(m, model_columns(m)[col].expr))
		return "no per-thread values for this metric";
	if (model_column_is_code(m, col) && env->sys_focus &&
	    system_focus_count(env->sys_focus) > 1)
		return "a ranking code, which has no value over several "
		       "contexts";
	return NULL;
}

struct focus_leaf {
	struct pane_env *env;
	uint32_t node;
	enum status st;
	struct error *err;
};

/* A statistic's value over the focused part of the system (a formula
 * column's leaf: each statistic is combined over the contexts first, then
 * the formula, as Cube computes a metric's own value of a system node). */
static bool focus_leaf(void *ctx, uint32_t leaf, double *out)
{
	struct focus_leaf *fl = ctx;
	bool present = false;
	if (fl->st != STATUS_OK)
		return false;
	fl->st = system_focus_value(fl->env->sys_focus, fl->node, leaf, out,
				    &present, fl->err);
	return fl->st == STATUS_OK && present;
}

static enum status focus_column(struct pane_env *env, uint32_t col,
				uint32_t node, double *out, bool *present,
				struct error *err)
{
	struct focus_leaf fl = {
		.env = env, .node = node, .st = STATUS_OK, .err = err};
	*present = formula_eval(model_columns(env->model)[col].expr,
				focus_leaf, &fl, out);
	return fl.st;
}

bool tree_focus_value(struct pane_env *env, uint32_t col, uint32_t node,
		      double *out)
{
	if (tree_focus_blank(env, col))
		return false;
	struct view_node vn;
	if (!view_node_get(env->view, node, &vn) ||
	    vn.model_node == MODEL_NONE)
		return false;
	bool present = false;
	struct error err = {0};
	enum status st = focus_column(env, col, vn.model_node, out, &present,
				      &err);
	if (st != STATUS_OK) {
		pane_error(env, &err);
		return false;
	}
	return present;
}

bool tree_focus_total(struct pane_env *env, uint32_t col, double *out)
{
	if (tree_focus_blank(env, col))
		return false;
	/* an exclusive column's percentages are of its inclusive pair's
	 * root value, as without a focus */
	const struct model_column *mc = &model_columns(env->model)[col];
	if (mc->kind == COLUMN_EXCLUSIVE && mc->pair != MODEL_NONE &&
	    !tree_focus_blank(env, mc->pair))
		col = mc->pair;
	bool present = false;
	struct error err = {0};
	enum status st = focus_column(env, col, 0, out, &present, &err);
	error_clear(&err);
	return st == STATUS_OK && present && *out != 0;
}

char *tree_focus_words(const struct pane_env *env)
{
	char key[24];
	if (!keymap_first_key(env->keymap, ACTION_SYSTEM_ALL, key, sizeof(key)))
		snprintf(key, sizeof(key), "system");
	char *s = NULL;
	size_t n = system_focus_count(env->sys_focus);
	if (asprintf(&s, "system: %s, %zu context%s%s; %s: all",
		     system_focus_label(env->sys_focus), n, n == 1 ? "" : "s",
		     env->view_kind == VIEW_TOP_DOWN ? ""
						     : ", top-down view only",
		     key) < 0)
		s = NULL;
	return s;
}

struct reaction tree_focus_clear(struct pane_env *env)
{
	if (!env->sys_focus) {
		pane_message(env, false, "the tree shows every context already");
		return REACTION(HANDLED_YES);
	}
	env->svc->system_focus(env->hub, NULL);
	env->sys_focus = NULL;
	pane_message(env, false, "every context again");
	return REACTION(HANDLED_REDRAW);
}
