/* frame: one frame of the viewer: the title, the tab bar (from the pane
 * registry, each tab with the live key of the action that opens it), the
 * panes where the layout puts them, the detail strip of the selection and
 * the status line, whose key hints come from the live bindings. */
#include "config.h"

#include "hub.h"

#include <stdlib.h>
#include <string.h>

#include "net/session.h"
#include "core/path.h"
#include "core/sanitize.h"
#include "present/present_path.h"
#include "open.h"
#include "keys.h"
#include "extrap.h"
#include "model_columns.h"

static void fill_line(int y, attr_t a)
{
	move(y, 0);
	attrset(a);
	for (int i = 0; i < COLS; i++)
		addch(' ');
	attrset(A_NORMAL);
}

static void fill_part(int y, int w, attr_t a)
{
	move(y, 0);
	attrset(a);
	for (int i = 0; i < w; i++)
		addch(' ');
	attrset(A_NORMAL);
}

/* The title line showing the database as PATH (compared runs: PATH is
 * "BASE -> NEW" and stands for the title); with PREFIX, only what comes
 * before the path */
static char *title_text(struct app *app, const char *path, bool prefix)
{
	char *text = NULL;
	const char *demo = app->demo ? " [demo]" : "";
	const char *title = model_title(app->model) ? model_title(app->model) : "";
	const char *sep = "  ";
	if (app->diff || !*title) /* no empty title between two gaps */
		title = sep = "";
	int r = prefix ? asprintf(&text, "callscope%s  %s%s", demo, title, sep)
		       : asprintf(&text,
				  "callscope%s  %s%s%s (%s)  %u contexts, %u "
				  "threads, %u columns%s",
				  demo, title, sep, path,
				  model_format(app->model),
				  model_n_nodes(app->model) - 1, app->n_threads,
				  model_n_columns(app->model),
				  model_n_timelines(app->model) ? ", trace" : "");
	return r < 0 ? NULL : text;
}

/* PATH in ROOM columns: whole, else its last two parts
 * ("…/blast.p64.r1/profile.cubex"), else its last: the database's name,
 * not the start of a long path. */
static char *short_path(const char *path, int room)
{
	char *shown = strdup(path);
	for (int parts = 2; parts >= 1 && shown &&
			    screen_text_width(shown) > room;
	     parts--) {
		/* the start of the last `parts` parts (a trailing / kept) */
		size_t end = strlen(path);
		while (end > 1 && path[end - 1] == '/')
			end--;
		size_t start = end;
		for (int k = 0; k < parts && start > 0; k++) {
			if (k > 0)
				start--;
			while (start > 0 && path[start - 1] != '/')
				start--;
		}
		char *tail = NULL;
		if (start > 0 && asprintf(&tail, "%s%s",
					  screen_glyphs()->ellipsis,
					  path + start - 1) >= 0) {
			free(shown);
			shown = tail;
		}
	}
	return shown;
}

/* MESSAGE for the status line: one that starts with a path ("PATH: the
 * database has no ...", as errors name their file) and does not fit has
 * the path shortened to its last parts, so that what is said shows. */
static char *fit_message(const char *message)
{
	const char *colon = strstr(message, ": ");
	if (screen_text_width(message) <= COLS || !colon ||
	    !memchr(message, '/', (size_t)(colon - message)))
		return NULL;
	char *path = strndup(message, (size_t)(colon - message));
	int room = COLS - screen_text_width(colon);
	char *shown = path ? short_path(path, room < 1 ? 1 : room) : NULL;
	char *text = NULL;
	if (shown && asprintf(&text, "%s%s", shown, colon) < 0)
		text = NULL;
	free(path);
	free(shown);
	return text;
}

/* The title: the database's path shortened to its room (compared runs:
 * both runs', "BASE -> NEW", each in half of it). */
static void draw_title(struct app *app, int y)
{
	attr_t a = theme_attr(THEME_ROLE_TITLE);
	fill_line(y, a);
	const char *path = app->db_path ? app->db_path : "";
	char *head = title_text(app, path, true);
	int room = COLS - (head ? screen_text_width(head) : 0);
	free(head);
	char *shown = NULL;
	if (app->diff && app->base_path && app->new_path) {
		char *b = short_path(app->base_path, (room - 4) / 2);
		char *n = short_path(app->new_path, (room - 4) / 2);
		if (b && n && asprintf(&shown, "%s -> %s", b, n) < 0)
			shown = NULL;
		free(b);
		free(n);
	} else {
		shown = short_path(path, room);
	}
	char *text = title_text(app, shown ? shown : path, false);
	free(shown);
	screen_text(y, 0, COLS, a, text ? text : "callscope", false);
	free(text);
}


/* The first key bound to `a` in "generic", or NULL; into buf. */
static const char *first_key(struct app *app, enum action a, char *buf,
			     size_t n)
{
	return keymap_first_key(app->keymap, a, buf, n) ? buf : NULL;
}

static int draw_tab(int y, int x, bool active, const char *key,
		    const char *title)
{
	char *t = NULL;
	if (asprintf(&t, " %s%s%s ", key ? key : "", key ? " " : "", title) <
	    0)
		return 0;
	int w = screen_text(y, x, COLS - x,
			    theme_attr(active ? THEME_ROLE_TAB_ACTIVE
					      : THEME_ROLE_TABS),
			    t, false);
	free(t);
	return w + screen_text(y, x + w, COLS - x - w,
			       theme_attr(THEME_ROLE_TABS), " ", false);
}

static void draw_tabs(struct app *app, int y)
{
	static const struct {
		enum action a;
		const char *title;
	} views[] = {{ACTION_VIEW_TOP_DOWN, "Top-down"},
		     {ACTION_VIEW_BOTTOM_UP, "Bottom-up"},
		     {ACTION_VIEW_FLAT, "Flat"}};
	fill_line(y, theme_attr(THEME_ROLE_TABS));
	int x = 0;
	const struct pane *top = app_top(app);
	struct pane *split = layout_split_shown(&app->layout);
	bool split_keys = split && app->layout.focus && app->n_stack == 1;
	char key[24];
	for (int i = 0; i < 3 && x < COLS; i++)
		x += draw_tab(y, x,
			      (top->ops->flags & PANE_BASE) && !split_keys &&
				      app->current == (enum view_kind)i,
			      first_key(app, views[i].a, key, sizeof(key)),
			      views[i].title);
	const struct pane_ops *other = NULL;
	for (size_t i = 0; pane_registry[i] && x < COLS; i++) {
		const struct pane_ops *ops = pane_registry[i];
		bool open = ops == top->ops || (split && ops == split->ops);
		if ((ops->flags & PANE_TAB) ||
		    ((ops->flags & PANE_TAB_OPEN) && open))
			x += draw_tab(y, x,
				      ops == top->ops ||
					      (split && ops == split->ops &&
					       split_keys),
				      first_key(app, ops->open, key,
						sizeof(key)),
				      ops->title);
		else if (open && !(ops->flags & PANE_BASE))
			other = ops;
	}
	if (other && x < COLS)
		draw_tab(y, x, true, NULL, other->title);
}

/* Bytes of ancestor labels the path of the selection collects: far more
 * than a screen line shows (its end), however deep the tree. */
#define PATH_BYTES_MAX 16384

/* The labels from the top to the selection joined by " > ", only the
 * nearest ancestors (about PATH_BYTES_MAX bytes) in a deep tree. */
static char *selected_path(struct app *app)
{
	return present_view_path(app_view(app), app_cursor(app)->node, " > ",
				 PATH_BYTES_MAX);
}

/* The note after a v4 copied file's path: whether the copy is in the
 * database's directory (as the source pane looks for it). */
static const char *copy_note(const struct app *app, const char *file)
{
	char *dir = database_files_dir(app->model, app->db_path);
	bool there = dir && path_dir_has_file(dir, file);
	free(dir);
	return there ? "   (copied into the database's src/)"
		     : "   (copied into the database's src/, not there now)";
}

/* "FILE:LINE   in MODULE" (a copied source: its note after) in WIDTH
 * columns: when it does not fit, the module's last part and the file's
 * last parts (in the room the note leaves out), so that the file name
 * and line show, not the start of a long directory
 * ("/home/johnmc/hpctoolkit-tutorial-examples/ex…"). */
static char *where_text(struct app *app, const char *file, uint32_t line,
			const char *module, bool copied, int width)
{
	const char *f = *file ? file + (copied ? 3 : 0) : "(no source)";
	const char *note = copied ? copy_note(app, file) : "";
	char *text = NULL;
	if (asprintf(&text, "%s%s%.0u%s%s%s", f, line ? ":" : "", line,
		     *module ? "   in " : "", module, note) < 0)
		return NULL;
	if (screen_text_width(text) <= width || !*file)
		return text;
	free(text);
	char *mod = *module ? short_path(module, 1) : strdup("");
	char *tail = NULL;
	if (!mod || asprintf(&tail, "%s%.0u%s%s", line ? ":" : "", line,
			     *module ? "   in " : "", mod) < 0) {
		free(mod);
		return NULL;
	}
	/* the note, last, is what is cut */
	int room = width - screen_text_width(tail);
	char *fs = short_path(f, room < 1 ? 1 : room);
	if (!fs || asprintf(&text, "%s%s%s", fs, tail, note) < 0)
		text = NULL;
	free(fs);
	free(mod);
	free(tail);
	return text;
}

static void draw_detail(struct app *app, int y, int h, int w)
{
	attr_t a = theme_attr(THEME_ROLE_DETAIL);
	attr_t l = theme_attr(THEME_ROLE_DETAIL_LABEL);
	for (int i = 0; i < h; i++)
		fill_part(y + i, w, a);
	struct view_node vn;
	if (!view_node_get(app_view(app), app_cursor(app)->node, &vn))
		return;
	const struct model *m = app->model;
	char *raw = view_node_label(app_view(app), app_cursor(app)->node);
	char *label = raw ? present_built_paths(app->model, raw) : NULL;
	free(raw);
	int row = y;
	/* the whole name, wrapped over as many lines as it needs (up to
	 * h - 1, keeping one for the path) */
	const char *text = label ? label : "";
	int width = w - 6;
	int name_lines = (screen_text_width(text) + width - 1) / (width > 0 ? width : 1);
	if (name_lines < 1)
		name_lines = 1;
	if (name_lines > h - 1)
		name_lines = h - 1 > 0 ? h - 1 : 1;
	screen_text(row, 0, 6, l, "Name ", true);
	if (name_lines == 1) {
		screen_text(row, 6, width, a, text, false);
	} else {
		/* cut by characters: wide strings are handled by screen_text
		 * per slice of the sanitized text */
		char *safe = sanitize_text(text, SANITIZE_TERMINAL);
		size_t len = safe ? strlen(safe) : 0, pos = 0;
		for (int i = 0; i < name_lines && safe; i++) {
			size_t take = 0, cols = 0;
			while (pos + take < len && (int)cols < width) {
				size_t n = sanitize_utf8_len(
					(const unsigned char *)safe + pos + take,
					len - pos - take);
				take += n ? n : 1;
				cols++;
			}
			char save = safe[pos + take];
			safe[pos + take] = '\0';
			screen_text(row + i, 6, width, a, safe + pos, false);
			safe[pos + take] = save;
			pos += take;
		}
		free(safe);
	}
	row += name_lines;
	free(label);
	if (row < y + h - 1 && vn.model_node < model_n_nodes(m)) {
		const struct model_node *n = &model_nodes(m)[vn.model_node];
		const char *file = model_str(m, n->file);
		uint32_t line = n->line;
		const char *module = model_str(m, n->module);
		if (n->function < model_n_functions(m)) {
			const struct model_function *f = &model_functions(m)[n->function];
			if (!*file) {
				file = model_str(m, f->file);
				line = f->line;
			}
			if (!*module)
				module = model_str(m, f->module);
		}
		/* a parametric call path without a source: its model's
		 * formula in full (or as much as fits) instead */
		bool model = !*file && app->extrap &&
			     app->current == VIEW_TOP_DOWN &&
			     model_columns_detail(app->extrap, vn.model_node,
						  row, 0, w);
		char *where = NULL;
		bool copied = present_v4_copied(app->model, file);
		if (!model)
			where = where_text(app, file, line, module, copied,
					   w - 6);
		if (!model) {
			screen_text(row, 0, 6, l, "Where ", true);
			screen_text(row, 6, w - 6, a, where ? where : "", false);
		}
		free(where);
		row++;
	}
	if (row < y + h) {
		char *raw_path = selected_path(app);
		char *path = raw_path ? present_built_paths(app->model, raw_path) : NULL;
		free(raw_path);
		screen_text(row, 0, 6, l, "Path ", true);
		/* keep the end of a long path: elide at the left */
		if (path)
			screen_text_tail(row, 6, w - 6, a, path);
		free(path);
	}
}


/* The hints on the status line: an action, its word and its rank (0 the
 * most useful: the last dropped when the line is too narrow); the key is
 * the action's first live binding (an unbound action shows no hint). */
static const struct {
	enum action a;
	const char *word;
	int rank;
} hints[] = {
	{ACTION_QUIT, "quit", 0},       {ACTION_HELP, "help", 1},
	{ACTION_SEARCH, "search", 2},   {ACTION_HOT_PATH, "hot path", 4},
	{ACTION_VIEW_NEXT, "view", 3},  {ACTION_SORT, "sort", 5},
	{ACTION_THREADS, "threads", 7}, {ACTION_SOURCE, "source", 9},
	{ACTION_COLUMNS, "columns", 6}, {ACTION_COMMAND, "command", 8},
};
#define N_HINTS (sizeof(hints) / sizeof(hints[0]))

/* The hints in `cols` columns: whole "KEY word" hints two spaces apart,
 * the least useful left out until the rest fit (never a cut word).
 * keys[i] is hint i's key, "" when unbound; show[i] says whether it is
 * drawn. */
static void fit_hints(char keys[][24], int cols, bool show[])
{
	int width[N_HINTS], total = 0, n = 0;
	for (size_t i = 0; i < N_HINTS; i++) {
		show[i] = keys[i][0] != '\0';
		width[i] = screen_text_width(keys[i]) + 1 +
			   screen_text_width(hints[i].word);
		if (show[i]) {
			total += width[i] + (n ? 2 : 0);
			n++;
		}
	}
	while (total > cols && n > 0) {
		size_t worst = N_HINTS;
		for (size_t i = 0; i < N_HINTS; i++)
			if (show[i] && (worst == N_HINTS ||
					hints[i].rank > hints[worst].rank))
				worst = i;
		show[worst] = false;
		n--;
		total -= width[worst] + (n ? 2 : 0);
	}
}

static void draw_status(struct app *app, int y)
{
	attr_t a = theme_attr(THEME_ROLE_STATUS);
	fill_line(y, a);
	if (app->prompt != PROMPT_NONE) {
		int x = screen_text(y, 0, COLS, a, prompt_label(app), false);
		x += screen_text(y, x, COLS - x - 1, a,
				 app->prompt_buf ? app->prompt_buf : "", false);
		if (!app->caps.headless) {
			move(y, x < COLS ? x : COLS - 1);
			curs_set(1);
		}
		return;
	}
	curs_set(0);
	/* reads stopped by Ctrl-C stay stopped */
	if (app->session && app->session->cancel) {
		char *text = NULL;
		if (asprintf(&text, "%s%sC-l reads again",
			     app->message ? app->message : "Reading stopped",
			     app->message ? "  " : ": ") < 0)
			text = NULL;
		screen_text(y, 0, COLS, theme_attr(THEME_ROLE_ERROR),
			    text ? text : "C-l reads again", false);
		free(text);
		return;
	}
	if (app->message) {
		char *text = fit_message(app->message);
		screen_text(y, 0, COLS,
			    app->message_error ? theme_attr(THEME_ROLE_ERROR) : a,
			    text ? text : app->message, false);
		free(text);
		return;
	}
	char keys[N_HINTS][24];
	bool show[N_HINTS];
	for (size_t i = 0; i < N_HINTS; i++)
		if (!first_key(app, hints[i].a, keys[i], sizeof(keys[i])))
			keys[i][0] = '\0';
	fit_hints(keys, COLS, show);
	int x = 0;
	for (size_t i = 0; i < N_HINTS && x < COLS; i++) {
		if (!show[i])
			continue;
		if (x > 0)
			x += screen_text(y, x, COLS - x, a, "  ", false);
		x += screen_text(y, x, COLS - x, theme_attr(THEME_ROLE_STATUS_KEY),
				 keys[i], false);
		x += screen_text(y, x, COLS - x, a, " ", false);
		x += screen_text(y, x, COLS - x, a, hints[i].word, false);
	}
}

void frame_draw(struct app *app)
{
	/* read before drawing: a model finished while this frame draws
	 * must still get the next tick's frame (read after, it would stop
	 * the ticks with "…" on the screen) */
	bool fitting = app->extrap && extrap_fitting(app->extrap);
	app_sort_tick(app);
	erase();
	int h = LINES, y = 0;
	bool title = h >= 8, tabs = h >= 12, detail = h >= 16;
	int detail_h = detail ? (h >= 30 ? 4 : 3) : 0;
	if (title)
		draw_title(app, y++);
	if (tabs)
		draw_tabs(app, y++);
	struct pane *top = app_top(app);
	bool base = (top->ops->flags & PANE_BASE) != 0;
	struct rect area = {y, 0, h - y - 1, COLS}, stack, split, strip;
	layout_place(&app->layout, base, area, detail_h, &stack, &split,
		     &strip);
	struct pane *sp = layout_split_shown(&app->layout);
	if (base && sp && split.h > 0) {
		struct pane_env env = app_env(app, app->layout.focus);
		sp->ops->draw(&env, sp, split);
	} else {
		split.h = 0;
	}
	app->split_rect = split;
	app->stack_rect = stack;
	if (stack.h > 0) {
		struct pane_env env = app_env(app, !(sp && app->layout.focus));
		top->ops->draw(&env, top, stack);
	}
	if (strip.h > 0 && base)
		draw_detail(app, strip.y, strip.h, strip.w);
	else if (strip.h > 0)
		for (int i = 0; i < strip.h; i++)
			fill_line(strip.y + i, A_NORMAL);
	draw_status(app, h - 1);
	refresh();
	/* models still being fitted, a partial model's scan running:
	 * redraw a few times a second */
	screen_set_tick(fitting || app->later ? 250 : -1);
}
