/* tree_focus: the tree pane over part of the system (see tree_focus.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree_focus.h"
#include "actions.h"
#include "views/system_focus.h"

const char *tree_focus_blank(const struct pane_env *env, uint32_t col)
{
	const struct model *m = env->model;
	if (env->view_kind != VIEW_TOP_DOWN)
		return "the top-down view only (a row of this view stands for "
		       "several contexts)";
	if (col >= model_n_columns(m))
		return "a derived column";
	uint32_t stat = model_column_stat(m, col);
	if (stat == MODEL_NONE)
		return "a column of several statistics";
	if (!model_has_per_profile(m) || model_stats(m)[stat].prop_id == MODEL_NONE)
		return "no per-thread values for this metric";
	return NULL;
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
	enum status st = system_focus_value(
		env->sys_focus, vn.model_node,
		model_column_stat(env->model, col), out, &present, &err);
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
	enum status st = system_focus_value(
		env->sys_focus, 0, model_column_stat(env->model, col), out,
		&present, &err);
	error_clear(&err);
	return st == STATUS_OK && present && *out != 0;
}

char *tree_focus_words(const struct pane_env *env)
{
	char *keys = keymap_keys_of(env->keymap, ACTION_SYSTEM_ALL);
	char *s = NULL;
	size_t n = system_focus_count(env->sys_focus);
	if (asprintf(&s, "system: %s, %zu context%s%s; %.*s: all",
		     system_focus_label(env->sys_focus), n, n == 1 ? "" : "s",
		     env->view_kind == VIEW_TOP_DOWN ? ""
						     : ", top-down view only",
		     keys && *keys ? (int)strcspn(keys, " ") : 6,
		     keys && *keys ? keys : "system-all") < 0)
		s = NULL;
	free(keys);
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
