/* threads_tree: the threads pane's system tree (see threads_tree.h): its
 * state over src/views/system_tree.c, the keys that open and close
 * groups, and the drawing of its rows (value, percent, indented label). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threads_tree.h"
#include "present/present_value.h"
#include "screen.h"
#include "theme.h"

#define VALUE_W 10 /* as the flat list's */

/* Recompute the visible rows, keeping the cursor on node `keep` (or at
 * its index when that node is no longer shown). */
static bool refresh_rows(struct threads_tree *tt, uint32_t keep)
{
	size_t n = systree_visible(&tt->t, tt->expanded, tt->values,
				   tt->by_value, tt->rows);
	if (n == SIZE_MAX)
		return false;
	tt->list.count = n;
	for (size_t i = 0; keep != SYSTREE_NONE && i < n; i++)
		if (tt->rows[i] == keep) {
			tt->list.cursor = i;
			return true;
		}
	if (tt->list.cursor >= n)
		tt->list.cursor = n ? n - 1 : 0;
	return true;
}

uint32_t threads_tree_selected(const struct threads_tree *tt)
{
	return tt->list.count ? tt->rows[tt->list.cursor] : SYSTREE_NONE;
}

void threads_tree_free(struct threads_tree *tt)
{
	if (!tt)
		return;
	systree_free(&tt->t);
	free(tt->values);
	free(tt->expanded);
	free(tt->rows);
	free(tt);
}

struct threads_tree *threads_tree_new(const struct model *m,
				      const double *by_profile,
				      uint32_t n_profiles,
				      enum stat_combine combine, uint32_t stat,
				      bool by_value, struct error *err)
{
	struct threads_tree *tt = calloc(1, sizeof(*tt));
	if (!tt) {
		error_set(err, STATUS_NOMEM, NULL, "out of memory");
		return NULL;
	}
	if (systree_build(m, &tt->t, err) != STATUS_OK) {
		free(tt);
		return NULL;
	}
	size_t n = tt->t.n ? tt->t.n : 1;
	tt->values = calloc(n, sizeof(*tt->values));
	tt->expanded = calloc(n, sizeof(*tt->expanded));
	tt->rows = calloc(n, sizeof(*tt->rows));
	tt->by_value = by_value;
	tt->combine = combine;
	if (!tt->values || !tt->expanded || !tt->rows) {
		threads_tree_free(tt);
		error_set(err, STATUS_NOMEM, NULL, "out of memory");
		return NULL;
	}
	/* a statistic the reader combines its own way (Cube's <cubeplaggr>
	 * aggr), else its sum, minimum or maximum */
	if (!systree_aggregate_own(m, stat, &tt->t, by_profile, n_profiles,
				   tt->values))
		systree_aggregate(&tt->t, by_profile, n_profiles, combine,
				  tt->values);
	/* open a lone group at the top, and a lone group below it... */
	uint32_t lone = SYSTREE_NONE;
	for (uint32_t i = 0; i < tt->t.n; i++)
		if (tt->t.nodes[i].parent == SYSTREE_NONE)
			lone = lone == SYSTREE_NONE ? i : SYSTREE_NONE - 1;
	while (lone < tt->t.n && tt->t.nodes[lone].first_child != SYSTREE_NONE) {
		tt->expanded[lone] = 1;
		uint32_t c = tt->t.nodes[lone].first_child;
		lone = tt->t.nodes[c].next_sibling == SYSTREE_NONE ? c
								    : SYSTREE_NONE;
	}
	if (!refresh_rows(tt, SYSTREE_NONE)) {
		threads_tree_free(tt);
		error_set(err, STATUS_NOMEM, NULL, "out of memory");
		return NULL;
	}
	return tt;
}

void threads_tree_order(struct threads_tree *tt, bool by_value)
{
	tt->by_value = by_value;
	refresh_rows(tt, threads_tree_selected(tt));
}

/* Open or close the subtree of `i` entirely. */
static void set_subtree(struct threads_tree *tt, uint32_t i, uint8_t open)
{
	/* preorder: the subtree of i is i and the nodes after it until the
	 * level comes back to i's */
	uint32_t lv = tt->t.nodes[i].level;
	tt->expanded[i] = open;
	for (uint32_t k = i + 1; k < tt->t.n && tt->t.nodes[k].level > lv; k++)
		tt->expanded[k] = open;
}

bool threads_tree_action(struct threads_tree *tt, enum action a)
{
	if (list_move(&tt->list, a))
		return true;
	uint32_t i = threads_tree_selected(tt);
	if (i == SYSTREE_NONE)
		return a == ACTION_TOGGLE || a == ACTION_EXPAND ||
		       a == ACTION_COLLAPSE || a == ACTION_EXPAND_ALL ||
		       a == ACTION_COLLAPSE_ALL;
	const struct systree_node *nd = &tt->t.nodes[i];
	bool group = nd->first_child != SYSTREE_NONE;
	switch (a) {
	case ACTION_TOGGLE:
		if (group)
			tt->expanded[i] = !tt->expanded[i];
		break;
	case ACTION_EXPAND:
		if (group)
			tt->expanded[i] = 1;
		break;
	case ACTION_COLLAPSE:
		if (group && tt->expanded[i])
			tt->expanded[i] = 0;
		else if (nd->parent != SYSTREE_NONE)
			i = nd->parent;
		break;
	case ACTION_EXPAND_ALL:
		set_subtree(tt, i, 1);
		break;
	case ACTION_COLLAPSE_ALL:
		set_subtree(tt, i, 0);
		break;
	case ACTION_PARENT:
		if (nd->parent != SYSTREE_NONE)
			i = nd->parent;
		break;
	default:
		return false;
	}
	refresh_rows(tt, i);
	return true;
}

/* One row's label: indent, expand mark, the node's name. */
static void draw_label(const struct model *m, const struct threads_tree *tt,
		       uint32_t i, int y, int x, int w, attr_t a)
{
	const struct systree_node *nd = &tt->t.nodes[i];
	const struct screen_glyphs *g = screen_glyphs();
	int indent = 2 * (int)nd->level;
	if (indent > w / 2)
		indent = w / 2;
	const char *mark = nd->first_child == SYSTREE_NONE ? g->leaf
			   : tt->expanded[i]		   ? g->expanded
							   : g->collapsed;
	char *label = systree_label(m, &tt->t, i);
	char *text = NULL;
	if (nd->first_child != SYSTREE_NONE) {
		if (asprintf(&text, "%s %s (%u)", mark, label ? label : "?",
			     (unsigned)nd->n_leaves) < 0)
			text = NULL;
	} else if (asprintf(&text, "%s %s", mark, label ? label : "?") < 0) {
		text = NULL;
	}
	screen_text(y, x + indent, w - indent, a, text ? text : "", false);
	free(text);
	free(label);
}

void threads_tree_draw(const struct model *m, struct threads_tree *tt,
		       uint32_t column, double total, struct rect r, int y,
		       int rows)
{
	list_fit(&tt->list, rows);
	struct present_kind kind = present_column_kind(m, column);
	/* codes: no share, and a group's is none (NaN from the reader) */
	bool code = model_column_is_code(m, column);
	for (int k = 0; k < rows; k++) {
		size_t idx = tt->list.top + (size_t)k;
		if (idx >= tt->list.count)
			break;
		uint32_t i = tt->rows[idx];
		attr_t a = idx == tt->list.cursor
				   ? theme_attr(THEME_ROLE_SELECTED)
				   : A_NORMAL;
		screen_text(y + k, r.x, r.w, a, "", true);
		char v[64], pct[16];
		present_number_fit(kind, tt->values[i], VALUE_W, PRESENT_DIGITS,
				   v, sizeof(v));
		present_share_text(tt->values[i], total, pct, sizeof(pct));
		if (code)
			pct[0] = '\0';
		if (code && isnan(tt->values[i]))
			v[0] = '\0';
		screen_text_right(y + k, r.x, VALUE_W, a, v);
		screen_text_right(y + k, r.x + 11, 7, a, pct);
		draw_label(m, tt, i, y + k, r.x + 20, r.w - 20, a);
	}
}
