/* pane_core: the pane services over struct pane_env, the registry look-ups
 * and the request flow (pane_run).  No curses here: the unit test
 * tests/test-panes.c drives it with a fake pane and a fake host. */
#include "config.h"

#include "pane.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/present_column.h"

void pane_message(struct pane_env *env, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = NULL;
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	env->svc->message(env->hub, error, text ? text : "out of memory");
	free(text);
}

void pane_error(struct pane_env *env, struct error *err)
{
	char *text = error_format(err);
	env->svc->message(env->hub, true, text ? text : "error");
	free(text);
	error_clear(err);
}

void pane_select(struct pane_env *env, uint32_t node)
{
	env->svc->select(env->hub, node);
}

void pane_open(struct pane_env *env, struct pane *pane)
{
	if (pane)
		env->svc->open(env->hub, pane);
}

uint32_t pane_selected_model_node(const struct pane_env *env)
{
	struct view_node vn;
	if (!env->view || !view_node_get(env->view, env->cursor->node, &vn))
		return MODEL_NONE;
	return vn.model_node;
}

bool pane_column_total(const struct pane_env *env, uint32_t c, double *out)
{
	const struct column_set *cs = env->cols;
	if (c >= model_n_columns(env->model) || !cs->has_total)
		return false;
	if (cs->has_total[c] == 0)
		cs->has_total[c] = model_column_total(env->model, c,
						      &cs->totals[c])
					   ? 1
					   : 2;
	if (cs->has_total[c] != 1)
		return false;
	*out = cs->totals[c];
	return true;
}

char *pane_column_title(const struct pane_env *env, uint32_t c)
{
	if (c < model_n_columns(env->model))
		return present_column_title(env->model, c);
	size_t d = c - model_n_columns(env->model);
	if (d < env->cols->n_derived)
		return strdup(env->cols->derived[d].name);
	return strdup("?");
}

struct pane *pane_wrap(const struct pane_ops *ops, void *state)
{
	struct pane *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->ops = ops;
	p->state = state;
	return p;
}

struct pane *pane_alloc(const struct pane_ops *ops, size_t state_size)
{
	void *state = calloc(1, state_size ? state_size : 1);
	struct pane *p = state ? pane_wrap(ops, state) : NULL;
	if (!p)
		free(state);
	return p;
}

struct reaction pane_close_keys(const struct pane *pane, enum action a)
{
	if (a == ACTION_QUIT || (a != ACTION_NONE && a == pane->ops->open))
		return REACTION(HANDLED_CLOSE | HANDLED_REDRAW);
	return REACTION(HANDLED_NO);
}

const struct pane_ops *pane_find_by_action(const struct pane_ops *const *reg,
					   enum action a)
{
	for (size_t i = 0; a != ACTION_NONE && reg[i]; i++)
		if (reg[i]->open == a)
			return reg[i];
	return NULL;
}

const struct pane_ops *pane_find_by_flags(const struct pane_ops *const *reg,
					  unsigned flags)
{
	for (size_t i = 0; reg[i]; i++)
		if ((reg[i]->flags & flags) == flags)
			return reg[i];
	return NULL;
}

bool pane_registry_keymaps(const struct pane_ops *const *reg,
			   struct keymap *km)
{
	for (size_t i = 0; reg[i]; i++)
		if (!keymap_add_map(km, reg[i]->name))
			return false;
	return true;
}

unsigned pane_follow(const struct pane_host *host, struct reaction r)
{
	unsigned flags = r.flags;
	for (int step = 0; step < PANE_RUN_MAX_STEPS && r.then != ACTION_NONE;
	     step++) {
		uint32_t select = r.select;
		r = host->generic(host->hub, r.then);
		flags |= r.flags;
		if (select != MODEL_NONE) {
			host->select(host->hub, select);
			flags |= HANDLED_REDRAW;
		}
	}
	return flags;
}

unsigned pane_run(const struct pane_host *host, struct pane_env *env,
		  struct pane *p, enum action a)
{
	struct reaction r = REACTION(HANDLED_NO);
	if (p)
		r = p->ops->action(env, p, a);
	if (r.flags == HANDLED_NO && r.then == ACTION_NONE)
		r = host->generic(host->hub, a);
	return pane_follow(host, r);
}
