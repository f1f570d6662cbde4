/* pane_help: the help screen, generated from the action table with the
 * keys currently bound, grouped by the pane each action works in (the
 * tree, any pane, the trace, the plot, the models: actions.def), then the
 * ":" commands and the panes. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pane.h"
#include "screen.h"
#include "theme.h"
#include "pane_list.h"

static const char *const commands[][2] = {
	{":set NAME = VALUE", "an option: threshold (0-100), show-bars (yes/no), "
			      "severity (value/growth), measure"},
	{":set measure NAME", "models fitted on the mean, median, minimum or "
			       "maximum of the repetitions (R cycles)"},
	{":set models stored N|NAME", "a model set stored in the file "
				      "(.extra-p); :set models fitted: back"},
	{":set at NAME=VALUE ...", "the models' evaluation point"},
	{":bind KEYMAP KEY ACTION", "bind a key (keymaps: below; actions: above)"},
	{":color ROLE FG BG [ATTR]", "the look of a drawing role"},
	{":source FILE", "read a configuration file"},
	{":metric NAME", "show the metric's column and sort by it"},
	{":sort NAME", "sort by a column (c lists them)"},
	{":sort severity", "a parametric set's tree by the models' severity "
			   "(value or growth at the evaluation point; s "
			   "after the last column)"},
	{":threshold PCT", "the same as :set threshold = PCT (default 50)"},
	{":depth N", "expand the tree to depth N"},
	{":derive NAME = FORMULA", "add a column: $1 is column 1 (c), + - * / ^, "
				   "sum avg min max sqrt log"},
	{":export csv|json FILE", "write the visible rows"},
	{":theme NAME", "default, light, mono, high-contrast"},
	{":view NAME", "top-down, bottom-up, flat"},
	{":quit", "quit"},
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* The groups of the action table, in the help's order. */
static const char *const groups[][2] = {
	{"tree", "Tree   Esc or q closes this help"},
	{"", "Any pane"},
	{"threads", "Threads pane (T)"},
	{"trace", "Trace timeline, when it has the keys (trace-focus)"},
	{"plot", "Model plot, when it has the keys (trace-focus)"},
	{"models", "Models (parametric databases; tree and plot)"},
	{"flame", "Flame graph (x)"},
};
#define N_GROUPS (sizeof(groups) / sizeof(groups[0]))

/* The action lines: for each group a title (-1 - group) then its actions,
 * a blank line (0) between groups.  Built once: the table is static. */
static int action_lines[ACTION_COUNT + 2 * N_GROUPS];
static size_t n_action_lines;

static void build_lines(void)
{
	if (n_action_lines)
		return;
	for (size_t g = 0; g < N_GROUPS; g++) {
		if (g)
			action_lines[n_action_lines++] = 0;
		action_lines[n_action_lines++] = -1 - (int)g;
		for (int a = 1; a < ACTION_COUNT; a++)
			if (strcmp(action_pane((enum action)a),
				   groups[g][0]) == 0)
				action_lines[n_action_lines++] = a;
	}
}

static void help_draw(struct pane_env *env, struct pane *pane, struct rect r)
{
	struct list_cursor *l = pane->state;
	size_t n_panes = 0;
	while (pane_registry[n_panes])
		n_panes++;
	build_lines();
	size_t cmds_at = n_action_lines + 1;
	size_t panes_at = cmds_at + 1 + N_COMMANDS + 1;
	l->count = panes_at + 1 + n_panes;
	list_fit(l, r.h);
	attr_t k = theme_attr(THEME_ROLE_HELP_KEY);
	attr_t t = theme_attr(THEME_ROLE_HELP_TEXT);
	for (int i = 0; i < r.h; i++) {
		size_t line = l->top + (size_t)i;
		int y = r.y + i;
		if (line < n_action_lines && action_lines[line] > 0) {
			enum action a = (enum action)action_lines[line];
			char *keys = keymap_keys_of(env->keymap, a);
			screen_text(y, r.x + 1, 16, k, keys && *keys ? keys : "-",
				    true);
			screen_text(y, r.x + 18, 18, t, action_name(a), true);
			screen_text(y, r.x + 37, r.w - 37, t, action_help(a),
				    false);
			free(keys);
		} else if (line < n_action_lines && action_lines[line] < 0) {
			size_t g = (size_t)(-1 - action_lines[line]);
			screen_text(y, r.x + 1, r.w - 1, k, groups[g][1],
				    false);
		} else if (line < cmds_at) {
			continue;
		} else if (line == cmds_at) {
			screen_text(y, r.x + 1, r.w - 1, k, "Commands (:)",
				    false);
		} else if (line - cmds_at - 1 < N_COMMANDS) {
			size_t c = line - cmds_at - 1;
			screen_text(y, r.x + 1, 26, k, commands[c][0], true);
			screen_text(y, r.x + 28, r.w - 28, t, commands[c][1],
				    false);
		} else if (line == panes_at) {
			screen_text(y, r.x + 1, r.w - 1, k,
				    "Panes (their names are the keymaps of "
				    ":bind, besides generic)",
				    false);
		} else if (line > panes_at && line - panes_at - 1 < n_panes) {
			const struct pane_ops *ops =
				pane_registry[line - panes_at - 1];
			char *keys = keymap_keys_of(env->keymap, ops->open);
			screen_text(y, r.x + 1, 16, k,
				    keys && *keys ? keys : "-", true);
			screen_text(y, r.x + 18, 18, t, ops->name, true);
			screen_text(y, r.x + 37, r.w - 37, t, ops->title,
				    false);
			free(keys);
		}
	}
}

static struct reaction help_action(struct pane_env *env, struct pane *pane,
			    enum action a)
{
	(void)env;
	if (list_move(pane->state, a))
		return REACTION(HANDLED_REDRAW);
	if (a == ACTION_TOGGLE)
		return REACTION(HANDLED_CLOSE | HANDLED_REDRAW);
	return pane_close_keys(pane, a);
}

static struct pane *help_new(struct pane_env *env)
{
	(void)env;
	return list_pane_new(&pane_help_ops);
}

const struct pane_ops pane_help_ops = {
	.name = "help",
	.title = "Help",
	.open = ACTION_HELP,
	.new = help_new,
	.draw = help_draw,
	.action = help_action,
	.free = list_pane_free,
};
