/* app: the viewer's main loop, layout (title, tabs, panes, detail strip,
 * status line), line prompts (search, filter, command line), the generic
 * action handler, ":" commands and the headless key-script driver. */
#include "config.h"

#include "app.h"

#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "cli/cli.h"
#include "net/http.h"
#include "keys.h"
#include "core/sanitize.h"

#define INCREMENTAL_SEARCH_MAX_NODES 500000u

void app_message(struct app *app, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = NULL; /* formatted first: an argument may be the old one */
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	free(app->message);
	app->message = text;
	app->message_error = error;
}

void app_error(struct app *app, struct error *err)
{
	char *text = error_format(err);
	app_message(app, true, "%s", text ? text : "error");
	free(text);
	error_clear(err);
}

struct view *app_view(struct app *app)
{
	return app->views[app->current];
}

struct outline *app_outline(struct app *app)
{
	return app->outlines[app->current];
}

struct tree_cursor *app_cursor(struct app *app)
{
	return &app->cursors[app->current];
}

uint32_t app_selected_model_node(struct app *app)
{
	struct view_node vn;
	if (!view_node_get(app_view(app), app_cursor(app)->node, &vn))
		return MODEL_NONE;
	return vn.model_node;
}

void app_push_pane(struct app *app, struct pane *pane)
{
	if (!pane)
		return;
	if (app->n_panes >= sizeof(app->panes) / sizeof(app->panes[0])) {
		pane->ops->free(pane);
		return;
	}
	app->panes[app->n_panes++] = pane;
}

static void pop_pane(struct app *app)
{
	if (app->n_panes <= 1)
		return;
	struct pane *p = app->panes[--app->n_panes];
	p->ops->free(p);
}

bool app_column_total(const struct app *app, uint32_t c, double *out)
{
	if (c >= app->model->n_columns || !app->has_total)
		return false;
	if (app->has_total[c] == 0)
		app->has_total[c] =
			model_column_total(app->model, c, &app->totals[c]) ? 1
									    : 2;
	if (app->has_total[c] != 1)
		return false;
	*out = app->totals[c];
	return true;
}

char *app_column_title(const struct app *app, uint32_t c)
{
	if (c < app->model->n_columns)
		return cli_column_title(app->model, c);
	size_t d = c - app->model->n_columns;
	if (d < app->n_derived)
		return strdup(app->derived[d].name);
	return strdup("?");
}

/* ---- views ---------------------------------------------------------- */

/* ---- background build of the aggregated views ----------------------
 *
 * The bottom-up and flat views need one pass over the whole tree before
 * they can show their first level.  Rather than making the first switch to
 * them wait for it, a thread builds both (their first level sorted by the
 * current column) right after the first frame, while the user reads it.
 * The thread only reads the immutable model and the reader's mapped
 * summary values; the main thread does not touch these two views until it
 * has joined the thread (at the first switch, or at exit). */

#define PREBUILD_ROWS 128 /* rows of the first screen whose children are
			    prepared */

struct prebuild {
	pthread_t thread;
	const struct model *model;
	uint32_t column;
	uint32_t *columns; /* shown columns: their values are computed too */
	size_t n_columns;
	struct view *views[2]; /* bottom-up, flat */
	bool joined;
};

static void *prebuild_main(void *arg)
{
	struct prebuild *pb = arg;
	for (int i = 0; i < 2; i++) {
		struct error err = {0};
		enum view_kind k = i == 0 ? VIEW_BOTTOM_UP : VIEW_FLAT;
		if (view_new(pb->model, k, &pb->views[i], &err) != STATUS_OK) {
			error_clear(&err);
			continue;
		}
		uint32_t *kids = NULL;
		size_t n = 0;
		/* builds the first level and its values for the sort column;
		 * then what the first screen of the view will ask for: the
		 * other shown columns' values and whether the first rows have
		 * children (in bottom-up, their callers) */
		struct view *v = pb->views[i];
		view_children(v, view_root(v), pb->column, false, &kids, &n,
			      &err);
		for (size_t c = 0; c < pb->n_columns && n > 0; c++) {
			double value;
			view_value(v, kids[0], pb->columns[c], &value);
		}
		for (size_t r = 0; r < n && r < PREBUILD_ROWS; r++) {
			uint32_t *sub = NULL;
			size_t nsub = 0;
			view_children(v, kids[r], pb->column, false, &sub, &nsub,
				      &err);
			free(sub);
			error_clear(&err);
		}
		free(kids);
		error_clear(&err);
	}
	return NULL;
}

static void prebuild_start(struct app *app)
{
	struct prebuild *pb = calloc(1, sizeof(*pb));
	if (!pb)
		return;
	pb->model = app->model;
	pb->column = app->sort_column;
	pb->columns = malloc((app->n_columns ? app->n_columns : 1) *
			     sizeof(*pb->columns));
	if (!pb->columns) {
		free(pb);
		return;
	}
	memcpy(pb->columns, app->columns, app->n_columns * sizeof(*pb->columns));
	pb->n_columns = app->n_columns;
	if (pthread_create(&pb->thread, NULL, prebuild_main, pb) != 0) {
		free(pb->columns);
		free(pb);
		return;
	}
	app->prebuild = pb;
}

/* Take the views of a finished background build. */
static void prebuild_take(struct app *app)
{
	struct prebuild *pb = app->prebuild;
	pb->joined = true;
	for (int i = 0; i < 2; i++) {
		enum view_kind k = i == 0 ? VIEW_BOTTOM_UP : VIEW_FLAT;
		if (!app->views[k])
			app->views[k] = pb->views[i];
		else
			view_free(pb->views[i]);
	}
}

/* Wait for the background build and take its views (no-op when none). */
static void prebuild_join(struct app *app)
{
	if (!app->prebuild || app->prebuild->joined)
		return;
	pthread_join(app->prebuild->thread, NULL);
	prebuild_take(app);
}

static bool ensure_view(struct app *app, enum view_kind k)
{
	struct error err = {0};
	if (app->outlines[k])
		return true;
	if (k != VIEW_TOP_DOWN)
		prebuild_join(app);
	if (!app->views[k] &&
	    view_new(app->model, k, &app->views[k], &err) != STATUS_OK) {
		app_error(app, &err);
		return false;
	}
	if (outline_new(app->views[k], app->sort_column, app->sort_ascending,
			&app->outlines[k], &err) != STATUS_OK) {
		app_error(app, &err);
		return false;
	}
	uint32_t root = view_root(app->views[k]);
	if (outline_expand(app->outlines[k], root, &err) != STATUS_OK)
		app_error(app, &err);
	app->cursors[k].node = root;
	app->cursors[k].top = 0;
	/* top-down opens one level deeper: the entry points' children */
	if (k == VIEW_TOP_DOWN) {
		size_t n = outline_count(app->outlines[k]);
		for (size_t i = 1; i < n && i < 64; i++) {
			struct outline_row row;
			if (outline_row_get(app->outlines[k], i, &row) &&
			    row.depth == 1 && row.has_children)
				outline_expand(app->outlines[k], row.node, &err);
			n = outline_count(app->outlines[k]);
		}
	}
	error_clear(&err);
	return true;
}

static void switch_view(struct app *app, enum view_kind k)
{
	if (!ensure_view(app, k))
		return;
	app->current = k;
	struct outline *o = app_outline(app);
	struct error err = {0};
	if (outline_sort_column(o) != app->sort_column ||
	    outline_sort_ascending(o) != app->sort_ascending) {
		if (outline_set_sort(o, app->sort_column, app->sort_ascending,
				     &err) != STATUS_OK)
			app_error(app, &err);
	}
	tree_ensure_visible(app);
}

static void set_sort(struct app *app, uint32_t column, bool ascending)
{
	struct error err = {0};
	app->sort_column = column;
	app->sort_ascending = ascending;
	uint32_t sortable = column < app->model->n_columns ? column : MODEL_NONE;
	if (outline_set_sort(app_outline(app), sortable, ascending, &err) !=
	    STATUS_OK)
		app_error(app, &err);
	tree_ensure_visible(app);
}

/* ---- drawing -------------------------------------------------------- */

static void fill_line(int y, attr_t a)
{
	move(y, 0);
	attrset(a);
	for (int i = 0; i < COLS; i++)
		addch(' ');
	attrset(A_NORMAL);
}

static void draw_title(struct app *app, int y)
{
	attr_t a = theme_attr(THEME_ROLE_TITLE);
	fill_line(y, a);
	uint32_t threads = app->n_threads;
	char *text = NULL;
	if (asprintf(&text, "callscope%s  %s  %s (%s)  %u contexts, %u "
			    "threads, %u columns%s",
		     app->demo ? " [demo]" : "",
		     app->model->title ? app->model->title : "", app->db_path,
		     app->model->format, app->model->n_nodes - 1, threads,
		     app->model->n_columns,
		     app->model->n_timelines ? ", trace" : "") < 0)
		text = NULL;
	screen_text(y, 0, COLS, a, text ? text : "callscope", false);
	free(text);
}

static void draw_tabs(struct app *app, int y)
{
	static const char *const names[] = {"Top-down", "Bottom-up", "Flat",
					    "Threads"};
	fill_line(y, theme_attr(THEME_ROLE_TABS));
	int x = 0;
	const char *top = app->panes[app->n_panes - 1]->ops->name;
	for (int i = 0; i < 4 && x < COLS; i++) {
		bool active = i < 3 ? (strcmp(top, "tree") == 0 &&
				       !app->trace_focus &&
				       app->current == (enum view_kind)i)
				    : strcmp(top, "threads") == 0;
		char *t = NULL;
		if (asprintf(&t, " %d %s ", i + 1, names[i]) < 0)
			continue;
		if (i == 3) {
			free(t);
			if (asprintf(&t, " T %s ", names[i]) < 0)
				continue;
		}
		x += screen_text(y, x, COLS - x,
				 theme_attr(active ? THEME_ROLE_TAB_ACTIVE
						   : THEME_ROLE_TABS),
				 t, false);
		free(t);
		x += screen_text(y, x, COLS - x, theme_attr(THEME_ROLE_TABS),
				 " ", false);
	}
	if (app->trace_shown && x < COLS)
		x += screen_text(y, x, COLS - x,
				 theme_attr(app->trace_focus
						    ? THEME_ROLE_TAB_ACTIVE
						    : THEME_ROLE_TABS),
				 " t Trace ", false) +
		     screen_text(y, x, COLS - x, theme_attr(THEME_ROLE_TABS),
				 " ", false);
	const char *other = NULL;
	if (strcmp(top, "source") == 0)
		other = " Source ";
	else if (strcmp(top, "help") == 0)
		other = " Help ";
	else if (strcmp(top, "columns") == 0)
		other = " Columns ";
	if (other && x < COLS)
		screen_text(y, x, COLS - x, theme_attr(THEME_ROLE_TAB_ACTIVE),
			    other, false);
}

/* the call path of the selected row: its view ancestors' labels */
/* Bytes of ancestor labels the path of the selection collects: far more
 * than a screen line shows (its end), however deep the tree. */
#define PATH_BYTES_MAX 16384

/* The labels from the top to the selection joined by " > ", only the
 * nearest ancestors (about PATH_BYTES_MAX bytes) in a deep tree. */
static char *selected_path(struct app *app)
{
	struct view *v = app_view(app);
	uint32_t node = app_cursor(app)->node;
	char **labels = NULL, *out = NULL;
	size_t n = 0, cap = 0, bytes = 0;
	struct view_node vn;
	while (bytes < PATH_BYTES_MAX && view_node_get(v, node, &vn) &&
	       vn.parent != MODEL_NONE) {
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			char **p = realloc(labels, ncap * sizeof(*labels));
			if (!p)
				goto out;
			labels = p;
			cap = ncap;
		}
		labels[n] = view_node_label(v, node);
		bytes += (labels[n] ? strlen(labels[n]) : 1) + 3;
		n++;
		node = vn.parent;
	}
	out = malloc(bytes + 1);
	if (!out)
		goto out;
	size_t len = 0;
	for (size_t i = n; i-- > 0;) {
		const char *l = labels[i] ? labels[i] : "?";
		len += (size_t)sprintf(out + len, "%s%s", len ? " > " : "", l);
	}
	out[len] = '\0';
out:
	for (size_t i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	return out;
}

static void draw_detail(struct app *app, int y, int h)
{
	attr_t a = theme_attr(THEME_ROLE_DETAIL);
	attr_t l = theme_attr(THEME_ROLE_DETAIL_LABEL);
	for (int i = 0; i < h; i++)
		fill_line(y + i, a);
	struct view_node vn;
	if (!view_node_get(app_view(app), app_cursor(app)->node, &vn))
		return;
	const struct model *m = app->model;
	char *label = view_node_label(app_view(app), app_cursor(app)->node);
	int row = y;
	/* the whole name, wrapped over as many lines as it needs (up to
	 * h - 1, keeping one for the path) */
	const char *text = label ? label : "";
	int width = COLS - 6;
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
	if (row < y + h - 1 && vn.model_node < m->n_nodes) {
		const struct model_node *n = &m->nodes[vn.model_node];
		const char *file = model_str(m, n->file);
		uint32_t line = n->line;
		const char *module = model_str(m, n->module);
		if (n->function < m->n_functions) {
			const struct model_function *f = &m->functions[n->function];
			if (!*file) {
				file = model_str(m, f->file);
				line = f->line;
			}
			if (!*module)
				module = model_str(m, f->module);
		}
		char *where = NULL;
		if (asprintf(&where, "%s%s%.0u%s%s", *file ? file : "(no source)",
			     line ? ":" : "", line, *module ? "   in " : "",
			     module) < 0)
			where = NULL;
		screen_text(row, 0, 6, l, "Where ", true);
		screen_text(row, 6, COLS - 6, a, where ? where : "", false);
		free(where);
		row++;
	}
	if (row < y + h) {
		char *path = selected_path(app);
		screen_text(row, 0, 6, l, "Path ", true);
		/* keep the end of a long path: elide at the left */
		if (path)
			screen_text_tail(row, 6, COLS - 6, a, path);
		free(path);
	}
}

static void draw_status(struct app *app, int y)
{
	attr_t a = theme_attr(THEME_ROLE_STATUS);
	fill_line(y, a);
	if (app->prompt != PROMPT_NONE) {
		const char *label =
			app->prompt == PROMPT_SEARCH ? "/"
			: app->prompt == PROMPT_FILTER
				? "filter (!x hides x): "
			: app->prompt == PROMPT_TRACE_FILTER
				? "trace lines (e.g. RANK 0-7 THREAD 0): "
				: ":";
		int x = screen_text(y, 0, COLS, a, label, false);
		x += screen_text(y, x, COLS - x - 1, a,
				 app->prompt_buf ? app->prompt_buf : "", false);
		if (!app->caps.headless) {
			move(y, x < COLS ? x : COLS - 1);
			curs_set(1);
		}
		return;
	}
	curs_set(0);
	if (*cli_cancel_flag()) { /* reads stopped by Ctrl-C stay stopped */
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
		screen_text(y, 0, COLS,
			    app->message_error ? theme_attr(THEME_ROLE_ERROR) : a,
			    app->message, false);
		return;
	}
	static const char *const hints[][2] = {
		{"q", "quit"},   {"?", "help"},    {"/", "search"},
		{"H", "hot path"}, {"v", "view"},  {"s", "sort"},
		{"T", "threads"}, {"o", "source"}, {"c", "columns"},
		{":", "command"},
	};
	int x = 0;
	for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]) && x < COLS;
	     i++) {
		x += screen_text(y, x, COLS - x, theme_attr(THEME_ROLE_STATUS_KEY),
				 hints[i][0], false);
		x += screen_text(y, x, COLS - x, a, " ", false);
		x += screen_text(y, x, COLS - x, a, hints[i][1], false);
		x += screen_text(y, x, COLS - x, a, "  ", false);
	}
}

static void draw(struct app *app)
{
	erase();
	int h = LINES, y = 0;
	bool title = h >= 8, tabs = h >= 12, detail = h >= 16;
	int detail_h = detail ? (h >= 30 ? 4 : 3) : 0;
	if (title)
		draw_title(app, y++);
	if (tabs)
		draw_tabs(app, y++);
	struct rect r = {y, 0, h - y - 1 - detail_h, COLS};
	struct pane *top = app->panes[app->n_panes - 1];
	bool tree = strcmp(top->ops->name, "tree") == 0;
	if (tree && app->trace_shown && app->trace) {
		/* the tree above, the trace below (or all of it) */
		struct rect tr = {y, 0, h - y - 1, COLS};
		if (!app->trace_full) {
			tr.h = (h - y - 1 - detail_h) * app->trace_percent / 100;
			if (tr.h < 3)
				tr.h = 3;
			r.h -= tr.h;
			tr.y = r.y + r.h + detail_h;
			if (r.h < 1) {
				tr.y = r.y;
				tr.h += r.h + detail_h;
				r.h = 0;
				detail = false;
			}
		} else {
			r.h = 0;
			detail = false;
		}
		app->trace->ops->draw(app, app->trace, tr);
		app->trace_rect = tr;
	} else {
		app->trace_rect.h = 0;
	}
	if (r.h > 0)
		top->ops->draw(app, top, r);
	if (detail && tree)
		draw_detail(app, r.y + r.h, detail_h);
	else if (detail)
		for (int i = 0; i < detail_h; i++)
			fill_line(r.y + r.h + i, A_NORMAL);
	draw_status(app, h - 1);
	refresh();
}

/* ---- prompts -------------------------------------------------------- */

static void prompt_open(struct app *app, enum prompt_kind k)
{
	app->prompt = k;
	app->prompt_len = 0;
	if (!app->prompt_buf) {
		app->prompt_cap = 64;
		app->prompt_buf = malloc(app->prompt_cap);
	}
	if (app->prompt_buf)
		app->prompt_buf[0] = '\0';
	app->prompt_origin = app_cursor(app)->node;
	free(app->message);
	app->message = NULL;
}

static void search_update(struct app *app, bool final)
{
	struct outline *o = app_outline(app);
	struct error err = {0};
	const char *pattern = app->prompt_buf ? app->prompt_buf : "";
	if (!final && app->model->n_nodes > INCREMENTAL_SEARCH_MAX_NODES)
		return;
	if (outline_search_set(o, pattern, &err) != STATUS_OK) {
		app_error(app, &err);
		return;
	}
	if (!*pattern)
		return;
	uint32_t match;
	if (outline_search_next(o, app->prompt_origin, true, &match, &err) ==
	    STATUS_OK) {
		tree_select(app, match);
		if (final)
			app_message(app, false, "/%s: %zu matches (n/N)",
				    pattern, outline_search_count(o));
	} else {
		if (final)
			app_message(app, true, "/%s: no match", pattern);
		error_clear(&err);
	}
}

static void prompt_commit(struct app *app)
{
	enum prompt_kind k = app->prompt;
	app->prompt = PROMPT_NONE;
	char *text = strdup(app->prompt_buf ? app->prompt_buf : "");
	if (!text)
		return;
	struct error err = {0};
	switch (k) {
	case PROMPT_SEARCH:
		search_update(app, true);
		break;
	case PROMPT_FILTER: {
		enum outline_filter mode = OUTLINE_FILTER_ONLY;
		const char *pattern = text;
		if (*pattern == '!') {
			mode = OUTLINE_FILTER_HIDE;
			pattern++;
		}
		if (!*pattern)
			mode = OUTLINE_FILTER_OFF;
		if (outline_set_filter(app_outline(app), pattern, mode, &err) !=
		    STATUS_OK)
			app_error(app, &err);
		else if (mode == OUTLINE_FILTER_OFF)
			app_message(app, false, "filter off");
		else
			app_message(app, false, "filter: %s rows matching %s "
						"(f then Enter clears)",
				    mode == OUTLINE_FILTER_HIDE ? "hiding"
								: "showing only",
				    pattern);
		tree_ensure_visible(app);
		break;
	}
	case PROMPT_COMMAND:
		app_command(app, text);
		break;
	case PROMPT_TRACE_FILTER:
		if (app->trace)
			pane_trace_filter(app, app->trace, text);
		break;
	case PROMPT_NONE:
		break;
	}
	free(text);
}

static void prompt_key(struct app *app, int key, bool is_char, wint_t wc)
{
	if (!is_char && (key == KEY_ENTER)) {
		prompt_commit(app);
		return;
	}
	if (is_char && (wc == '\n' || wc == '\r')) {
		prompt_commit(app);
		return;
	}
	if (is_char && wc == 27) {
		if (app->prompt == PROMPT_SEARCH)
			tree_select(app, app->prompt_origin);
		app->prompt = PROMPT_NONE;
		return;
	}
	if ((!is_char && key == KEY_BACKSPACE) ||
	    (is_char && (wc == 127 || wc == 8))) {
		while (app->prompt_len > 0) {
			app->prompt_len--;
			if ((app->prompt_buf[app->prompt_len] & 0xc0) != 0x80)
				break;
		}
		app->prompt_buf[app->prompt_len] = '\0';
	} else if (is_char && wc == 21) { /* C-u */
		app->prompt_len = 0;
		app->prompt_buf[0] = '\0';
	} else if (is_char && wc >= 32 && wc != 127) {
		char mb[MB_LEN_MAX + 1];
		mbstate_t st;
		memset(&st, 0, sizeof(st));
		size_t n = wcrtomb(mb, (wchar_t)wc, &st);
		if (n == (size_t)-1 || app->prompt_len + n > 4096)
			return;
		if (app->prompt_len + n + 1 > app->prompt_cap) {
			size_t ncap = (app->prompt_len + n + 1) * 2;
			char *p = realloc(app->prompt_buf, ncap);
			if (!p)
				return;
			app->prompt_buf = p;
			app->prompt_cap = ncap;
		}
		memcpy(app->prompt_buf + app->prompt_len, mb, n);
		app->prompt_len += n;
		app->prompt_buf[app->prompt_len] = '\0';
	} else {
		return;
	}
	if (app->prompt == PROMPT_SEARCH)
		search_update(app, false);
}

/* ---- commands ------------------------------------------------------- */

static void expand_to_depth(struct app *app, uint32_t depth)
{
	struct outline *o = app_outline(app);
	struct error err = {0};
	for (size_t i = 0; i < outline_count(o); i++) {
		struct outline_row row;
		if (!outline_row_get(o, i, &row))
			break;
		if (row.depth < depth && row.has_children && !row.expanded &&
		    outline_expand(o, row.node, &err) != STATUS_OK) {
			app_error(app, &err);
			return;
		}
		if (row.depth >= depth && row.expanded)
			outline_collapse(o, row.node);
	}
	app_message(app, false, "expanded to depth %u", depth);
}

static bool add_derived(struct app *app, const char *name, const char *text,
			bool save)
{
	struct error err = {0};
	struct formula *f = NULL;
	if (formula_parse(text, &f, &err) != STATUS_OK) {
		app_error(app, &err);
		return false;
	}
	/* a name defined again replaces its column */
	size_t at = 0;
	while (at < app->n_derived && strcmp(app->derived[at].name, name) != 0)
		at++;
	if (at == app->n_derived) {
		struct derived_column *d = realloc(
			app->derived, (app->n_derived + 1) * sizeof(*d));
		if (!d) {
			formula_free(f);
			return false;
		}
		app->derived = d;
		d[at] = (struct derived_column){strdup(name), NULL, NULL};
		app->n_derived++;
	}
	free(app->derived[at].text);
	formula_free(app->derived[at].expr);
	app->derived[at].text = strdup(text);
	app->derived[at].expr = f;
	if (save && !app->config_path) {
		app_message(app, false, "derived column %s added (not saved: "
					"no configuration file is in use)",
			    name);
	} else if (save) {
		char *line = NULL;
		if (asprintf(&line, "derive \"%s\" = %s", name, text) >= 0 &&
		    config_append_line(app->config_path, line, &err) ==
			    STATUS_OK)
			app_message(app, false, "derived column %s added and "
						"saved to %s",
				    name, app->config_path);
		else
			app_error(app, &err);
		free(line);
	}
	return true;
}

static bool export_rows(struct app *app, bool json, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		app_message(app, true, "%s: %s", path, strerror(errno));
		return false;
	}
	struct outline *o = app_outline(app);
	size_t total = app->n_columns + app->n_derived;
	if (json)
		fputs("{\"view\":\"", f), fputs(view_kind_name(app->current), f),
			fputs("\",\"rows\":[\n", f);
	else {
		fputs("depth,name", f);
		for (size_t i = 0; i < total; i++) {
			uint32_t c = i < app->n_columns
					     ? app->columns[i]
					     : app->model->n_columns +
						       (uint32_t)(i - app->n_columns);
			char *t = app_column_title(app, c);
			fputc(',', f);
			cli_put_csv(f, t ? t : "");
			free(t);
		}
		fputc('\n', f);
	}
	size_t n = outline_count(o);
	for (size_t r = 0; r < n; r++) {
		struct outline_row row;
		if (!outline_row_get(o, r, &row))
			break;
		char *label = view_node_label(app_view(app), row.node);
		char *safe = sanitize_text(label ? label : "",
					   json ? SANITIZE_UTF8 : SANITIZE_TERMINAL);
		free(label);
		if (json) {
			fprintf(f, "%s{\"depth\":%u,\"name\":", r ? ",\n" : "",
				row.depth);
			json_t *name = json_string(safe ? safe : "");
			if (!name || !cli_put_json(f, name, JSON_ENCODE_ANY))
				fputs("null", f);
			json_decref(name);
			fputs(",\"values\":[", f);
		} else {
			fprintf(f, "%u,", row.depth);
			cli_put_csv(f, safe ? safe : "");
		}
		free(safe);
		for (size_t i = 0; i < total; i++) {
			uint32_t c = i < app->n_columns
					     ? app->columns[i]
					     : app->model->n_columns +
						       (uint32_t)(i - app->n_columns);
			double v;
			bool have = false;
			if (c < app->model->n_columns)
				have = view_value(app_view(app), row.node, c, &v);
			if (json)
				fprintf(f, i ? "," : "");
			else
				fputc(',', f);
			if (have)
				fprintf(f, "%.17g", v);
			else if (json)
				fputs("null", f);
		}
		fputs(json ? "]}" : "\n", f);
	}
	if (json)
		fputs("\n]}\n", f);
	bool ok = fclose(f) == 0;
	if (ok)
		app_message(app, false, "exported %zu rows to %s", n, path);
	else
		app_message(app, true, "%s: %s", path, strerror(errno));
	return ok;
}

void app_command(struct app *app, const char *line)
{
	while (*line == ' ')
		line++;
	char *copy = strdup(line);
	if (!copy)
		return;
	char *arg = copy;
	char *cmd = strsep(&arg, " ");
	while (arg && *arg == ' ')
		arg++;
	struct error err = {0};
	if (!*cmd) {
		;
	} else if (strcmp(cmd, "q") == 0 || strcmp(cmd, "quit") == 0) {
		app->quit = true;
	} else if (strcmp(cmd, "threshold") == 0 && arg) {
		char *end;
		double v = strtod(arg, &end);
		if (end == arg || *end || !(v >= 0 && v <= 100))
			app_message(app, true, ":threshold takes a percentage "
					       "0-100");
		else {
			app->threshold = v;
			app_message(app, false, "hot path threshold %g%%", v);
		}
	} else if (strcmp(cmd, "depth") == 0 && arg) {
		char *end;
		unsigned long d = strtoul(arg, &end, 10);
		if (end == arg || *end || d > 1000)
			app_message(app, true, ":depth takes a depth 0-1000");
		else
			expand_to_depth(app, (uint32_t)d);
	} else if ((strcmp(cmd, "metric") == 0 || strcmp(cmd, "sort") == 0) &&
		   arg) {
		uint32_t c = model_find_column(app->model, arg);
		if (c == MODEL_NONE) {
			app_message(app, true, "no column '%s' (c lists them)",
				    arg);
		} else {
			bool shown = false;
			for (size_t i = 0; i < app->n_columns; i++)
				shown |= app->columns[i] == c;
			if (!shown) {
				uint32_t *p = realloc(app->columns,
						      (app->n_columns + 1) *
							      sizeof(*p));
				if (p) {
					memmove(p + 1, p,
						app->n_columns * sizeof(*p));
					p[0] = c;
					app->columns = p;
					app->n_columns++;
				}
			}
			set_sort(app, c, false);
		}
	} else if (strcmp(cmd, "view") == 0 && arg) {
		enum view_kind k;
		if (view_kind_parse(arg, &k))
			switch_view(app, k);
		else
			app_message(app, true, "views: top-down, bottom-up, "
					       "flat");
	} else if (strcmp(cmd, "derive") == 0 && arg) {
		char *eq = strchr(arg, '=');
		if (!eq) {
			app_message(app, true, ":derive NAME = FORMULA "
					       "($1 is column 1, see c)");
		} else {
			*eq = '\0';
			char *name = arg, *formula = eq + 1;
			size_t nl = strlen(name);
			while (nl && name[nl - 1] == ' ')
				name[--nl] = '\0';
			while (*formula == ' ')
				formula++;
			if (!*name || !*formula)
				app_message(app, true,
					    ":derive NAME = FORMULA");
			else
				add_derived(app, name, formula, true);
		}
	} else if (strcmp(cmd, "export") == 0 && arg) {
		char *kind = strsep(&arg, " ");
		while (arg && *arg == ' ')
			arg++;
		if (!arg || !*arg ||
		    (strcmp(kind, "csv") != 0 && strcmp(kind, "json") != 0))
			app_message(app, true, ":export csv|json FILE");
		else
			export_rows(app, strcmp(kind, "json") == 0, arg);
	} else if (strcmp(cmd, "theme") == 0 && arg) {
		const char *dirs[] = {CALLSCOPE_THEME_DIR, CALLSCOPE_SRC_THEME_DIR,
				      NULL};
		if (config_load_theme(&app->config, arg, dirs, &err) !=
		    STATUS_OK) {
			app_error(app, &err);
		} else {
			theme_apply(&app->config, &app->caps);
			app_message(app, false, "theme %s", arg);
		}
	} else if (strcmp(cmd, "help") == 0) {
		app_push_pane(app, pane_help_new());
	} else {
		app_message(app, true, "unknown command :%s (metric, sort, "
				       "threshold, depth, derive, export, "
				       "theme, view, quit)",
			    cmd);
	}
	error_clear(&err);
	free(copy);
}

/* ---- actions -------------------------------------------------------- */

/* Showing, focusing and sizing the trace pane (the pane itself handles
 * its navigation keys). */
static unsigned trace_layout_action(struct app *app, enum action a)
{
	if (!app->trace && !(app->trace = pane_trace_new(app)))
		return HANDLED_REDRAW;
	while (app->n_panes > 1)
		pop_pane(app);
	switch (a) {
	case ACTION_TRACE:
		app->trace_shown = !app->trace_shown;
		app->trace_focus = app->trace_shown;
		if (!app->trace_shown)
			app->trace_full = false;
		break;
	case ACTION_TRACE_FOCUS:
		app->trace_focus = app->trace_shown && !app->trace_focus;
		break;
	case ACTION_TRACE_FULL:
		app->trace_shown = app->trace_focus = true;
		app->trace_full = !app->trace_full;
		break;
	case ACTION_TRACE_GROW:
	case ACTION_TRACE_SHRINK:
		app->trace_shown = true;
		app->trace_full = false;
		app->trace_percent += a == ACTION_TRACE_GROW ? 10 : -10;
		if (app->trace_percent < 20)
			app->trace_percent = 20;
		if (app->trace_percent > 90)
			app->trace_percent = 90;
		break;
	default: /* ACTION_TRACE_FILTER */
		app->trace_shown = app->trace_focus = true;
		prompt_open(app, PROMPT_TRACE_FILTER);
		break;
	}
	tree_ensure_visible(app);
	return HANDLED_REDRAW;
}

static unsigned generic_action(struct app *app, enum action a)
{
	switch (a) {
	case ACTION_QUIT:
		return HANDLED_QUIT;
	case ACTION_BACK:
		if (app->n_panes > 1) {
			pop_pane(app);
		} else if (outline_filter_mode(app_outline(app)) !=
			   OUTLINE_FILTER_OFF) {
			struct error err = {0};
			outline_set_filter(app_outline(app), NULL,
					   OUTLINE_FILTER_OFF, &err);
			error_clear(&err);
			app_message(app, false, "filter off");
		}
		return HANDLED_REDRAW;
	case ACTION_REFRESH:
		*cli_cancel_flag() = 0; /* stopped reads read again */
		clearok(curscr, TRUE);
		return HANDLED_REDRAW;
	case ACTION_HELP:
		app_push_pane(app, pane_help_new());
		return HANDLED_REDRAW;
	case ACTION_COMMAND:
		prompt_open(app, PROMPT_COMMAND);
		return HANDLED_REDRAW;
	case ACTION_SEARCH:
		while (app->n_panes > 1)
			pop_pane(app);
		prompt_open(app, PROMPT_SEARCH);
		return HANDLED_REDRAW;
	case ACTION_FILTER:
		while (app->n_panes > 1)
			pop_pane(app);
		prompt_open(app, PROMPT_FILTER);
		return HANDLED_REDRAW;
	case ACTION_VIEW_NEXT:
	case ACTION_VIEW_TOP_DOWN:
	case ACTION_VIEW_BOTTOM_UP:
	case ACTION_VIEW_FLAT:
		while (app->n_panes > 1)
			pop_pane(app);
		switch_view(app, a == ACTION_VIEW_NEXT ? (app->current + 1) % 3
				 : a == ACTION_VIEW_TOP_DOWN ? VIEW_TOP_DOWN
				 : a == ACTION_VIEW_BOTTOM_UP ? VIEW_BOTTOM_UP
							      : VIEW_FLAT);
		return HANDLED_REDRAW;
	case ACTION_SORT: {
		size_t total = app->n_columns;
		if (total == 0)
			return HANDLED_YES;
		size_t i = 0;
		while (i < total && app->columns[i] != app->sort_column)
			i++;
		i = i >= total ? 0 : (i + 1) % total;
		set_sort(app, app->columns[i], false);
		char *t = app_column_title(app, app->columns[i]);
		app_message(app, false, "sorted by %s", t ? t : "?");
		free(t);
		return HANDLED_REDRAW;
	}
	case ACTION_SORT_REVERSE:
		set_sort(app, app->sort_column, !app->sort_ascending);
		app_message(app, false, "sorted %s",
			    app->sort_ascending ? "ascending" : "descending");
		return HANDLED_REDRAW;
	case ACTION_COLUMNS:
		app_push_pane(app, pane_columns_new(app));
		return HANDLED_REDRAW;
	case ACTION_BARS:
		app->show_bars = !app->show_bars;
		return HANDLED_REDRAW;
	case ACTION_THREADS:
		while (app->n_panes > 1)
			pop_pane(app);
		app_push_pane(app, pane_threads_new(app));
		return HANDLED_REDRAW;
	case ACTION_SOURCE:
		while (app->n_panes > 1)
			pop_pane(app);
		app_push_pane(app, pane_source_new(app));
		return HANDLED_REDRAW;
	case ACTION_TRACE:
	case ACTION_TRACE_FOCUS:
	case ACTION_TRACE_FULL:
	case ACTION_TRACE_GROW:
	case ACTION_TRACE_SHRINK:
	case ACTION_TRACE_FILTER:
		return trace_layout_action(app, a);
	default:
		return HANDLED_YES;
	}
}

static void handle_key(struct app *app, int key, bool is_char, wint_t wc)
{
	if (app->prompt != PROMPT_NONE) {
		prompt_key(app, key, is_char, wc);
		return;
	}
	struct pane *top = app->panes[app->n_panes - 1];
	if (!is_char && key == KEY_MOUSE) {
		MEVENT ev;
		if (getmouse(&ev) != OK)
			return;
		struct rect r = app->tree_rect;
		struct rect tr = app->trace_rect;
		if (app->trace && tr.h > 0 && ev.y >= tr.y && ev.y < tr.y + tr.h) {
			/* over the trace: the wheel zooms in time, a click
			 * moves the cursor there */
			if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
				enum action za = ev.bstate & BUTTON4_PRESSED
							 ? ACTION_TRACE_ZOOM_IN
							 : ACTION_TRACE_ZOOM_OUT;
				app->trace->ops->action(app, app->trace, za);
			} else if (app->trace->ops->click) {
				app->trace->ops->click(
					app, app->trace, ev.y - tr.y, ev.x - tr.x,
					(ev.bstate & BUTTON1_DOUBLE_CLICKED) != 0);
			}
			return;
		}
		if (ev.bstate & BUTTON4_PRESSED)
			key = KEY_UP, is_char = false;
		else if (ev.bstate & BUTTON5_PRESSED)
			key = KEY_DOWN, is_char = false;
		else {
			if (top->ops->click && ev.y >= r.y && ev.y < r.y + r.h)
				top->ops->click(app, top, ev.y - r.y, ev.x,
						(ev.bstate & BUTTON1_DOUBLE_CLICKED) != 0);
			return;
		}
	}
	int code = is_char ? (int)wc : key;
	/* the trace pane has the keys when it is shown and focused */
	if (top == app->panes[0] && app->trace_shown && app->trace_focus &&
	    app->trace)
		top = app->trace;
	enum action a = keymap_lookup(app->keymap, top->ops->name, code);
	if (a == ACTION_NONE)
		return;
	free(app->message);
	app->message = NULL;
	unsigned r = top->ops->action(app, top, a);
	if (r == HANDLED_NO && top != app->panes[0] && top != app->trace &&
	    (a == ACTION_PARENT || a == ACTION_HOT_PATH || a == ACTION_ZOOM))
		r = HANDLED_YES; /* tree-only actions do nothing in overlays */
	if (r == HANDLED_NO)
		r = generic_action(app, a);
	if (r & HANDLED_CLOSE)
		pop_pane(app);
	if (r & HANDLED_QUIT)
		app->quit = true;
}

/* ---- input ---------------------------------------------------------- */

struct script {
	const char *p;
};

/* Next key of a headless script: a literal character, or <Name> for a
 * named key (<Enter>, <Down>, <C-l>, <Resize:80x20>).  False at the end. */
static bool script_next(struct script *s, int *key, bool *is_char, wint_t *wc)
{
	while (s->p && *s->p) {
		if (*s->p == '<') {
			const char *end = strchr(s->p, '>');
			if (end && end - s->p > 1 && end - s->p < 32) {
				char name[32];
				memcpy(name, s->p + 1, (size_t)(end - s->p - 1));
				name[end - s->p - 1] = '\0';
				s->p = end + 1;
				int cols, rows, ms;
				if (sscanf(name, "Sleep:%d", &ms) == 1 && ms >= 0 &&
				    ms <= 60000) {
					struct timespec ts = {ms / 1000,
							      (long)(ms % 1000) * 1000000L};
					nanosleep(&ts, NULL);
					continue;
				}
				if (sscanf(name, "Resize:%dx%d", &cols, &rows) == 2) {
					resizeterm(rows, cols);
					*key = KEY_RESIZE;
					*is_char = false;
					return true;
				}
				int k = keys_parse(name);
				if (k < 0)
					continue;
				*is_char = k < KEY_MIN;
				*key = k;
				*wc = (wint_t)k;
				return true;
			}
		}
		mbstate_t st;
		memset(&st, 0, sizeof(st));
		wchar_t w;
		size_t n = mbrtowc(&w, s->p, strlen(s->p), &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			s->p++;
			continue;
		}
		s->p += n;
		*is_char = true;
		*wc = (wint_t)w;
		*key = (int)w;
		return true;
	}
	return false;
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void key_label(int key, bool is_char, wint_t wc, char *buf, size_t n)
{
	if (is_char && wc > 32 && wc < 127)
		snprintf(buf, n, "%c", (char)wc);
	else
		keys_name(is_char ? (int)wc : key, buf, n);
}

/* ---- frames that wait on the network ------------------------------- */

/* A file read in parts (a remote trace.db) makes a frame wait for its
 * blocks: after 0.3 s a note on the bottom line says what is read and
 * that Ctrl-C stops it.  Stopped reads stay stopped (they fail at once,
 * "cancelled"; the status line says C-l reads again) until C-l, so the
 * next key does not wait again on a server that hangs. */
static pthread_t ui_thread;
/* When the key being handled arrived (now_us()). */
static double frame_start_us;

static void on_read_progress(void *ctx, const struct open_progress *p)
{
	(void)ctx;
	if (!pthread_equal(pthread_self(), ui_thread))
		return; /* the background build: not ours to draw */
	if (p->done) {
		screen_note(0, NULL);
		return;
	}
	/* timed from the key, not the request: a frame may be made of many
	 * short reads */
	double seconds = (now_us() - frame_start_us) / 1e6;
	if (seconds < 0.3)
		return;
	char now[32], total[32], text[512];
	cli_format_bytes(now, sizeof(now), (double)p->now);
	cli_format_bytes(total, sizeof(total), (double)p->total);
	snprintf(text, sizeof(text),
		 "Reading %s from the server: %s of %s, %.0f s   Ctrl-C stops",
		 p->name ? p->name : "a file", now, total, seconds);
	screen_note(theme_attr(THEME_ROLE_STATUS), text);
}

static void watch_reads(bool on)
{
	ui_thread = pthread_self();
	cli_set_background_progress(on ? on_read_progress : NULL, NULL);
	screen_set_interrupt_flag(on ? cli_cancel_flag() : NULL);
}

static void loop(struct app *app, const struct ui_options *opt)
{
	struct script script = {opt->keys};
	frame_start_us = now_us();
	draw(app);
	if (opt->dump && opt->dump_each) {
		fputs("--- start\n", opt->dump);
		screen_dump(opt->dump);
	}
	while (!app->quit) {
		int key = 0;
		bool is_char = false;
		wint_t wc = 0;
		if (opt->headless) {
			if (!script_next(&script, &key, &is_char, &wc))
				break;
		} else {
			int r = screen_get_key(&wc);
			if (r == ERR)
				break; /* the terminal is gone */
			is_char = r == OK;
			key = (int)wc;
		}
		double t0 = now_us();
		frame_start_us = t0;
		if (!is_char && key == KEY_RESIZE) {
			tree_ensure_visible(app);
		} else {
			handle_key(app, key, is_char, wc);
		}
		if (app->quit)
			break;
		draw(app);
		double t1 = now_us();
		if (opt->timing) {
			char name[32];
			key_label(key, is_char, wc, name, sizeof(name));
			fprintf(opt->timing, "%s %.0f\n", name, t1 - t0);
		}
		if (opt->dump && opt->dump_each) {
			char name[32];
			key_label(key, is_char, wc, name, sizeof(name));
			fprintf(opt->dump, "--- %s\n", name);
			screen_dump(opt->dump);
		}
	}
	if (opt->dump && !opt->dump_each)
		screen_dump(opt->dump);
}

/* ---- set-up --------------------------------------------------------- */

static void load_config(struct app *app, const struct ui_options *opt)
{
	struct error err = {0};
	config_init(&app->config);
	config_parse_text(&app->config, config_default_theme,
			  strlen(config_default_theme), "(default theme)", &err);
	error_clear(&err);
	if (!opt->no_config) {
		char *path = opt->config_path ? strdup(opt->config_path)
					      : config_default_path();
		if (path && config_load_file(&app->config, path, &err) != STATUS_OK) {
			app_error(app, &err);
		}
		app->config_path_owned = path;
		app->config_path = path;
	}
	if (app->config.theme) {
		const char *dirs[] = {CALLSCOPE_THEME_DIR, CALLSCOPE_SRC_THEME_DIR,
				      NULL};
		char *name = strdup(app->config.theme);
		if (name && config_load_theme(&app->config, name, dirs, &err) !=
				    STATUS_OK)
			app_error(app, &err);
		free(name);
	}
	for (size_t i = 0; i < app->config.n_bindings; i++) {
		const struct config_binding *b = &app->config.bindings[i];
		const char *problem = keymap_bind(app->keymap, b->keymap, b->key,
						  b->action);
		if (problem)
			app_message(app, true, "%s:%u: bind: %s", b->file,
				    b->line, problem);
	}
	for (size_t i = 0; i < app->config.n_options; i++) {
		const struct config_option *o = &app->config.options[i];
		if (strcmp(o->name, "threshold") == 0) {
			char *end;
			double v = strtod(o->value, &end);
			if (end != o->value && !*end && v >= 0 && v <= 100)
				app->threshold = v;
			else
				app_message(app, true, "%s:%u: threshold takes "
						       "0-100", o->file, o->line);
		} else if (strcmp(o->name, "show-bars") == 0) {
			app->show_bars = strcmp(o->value, "yes") == 0 ||
					 strcmp(o->value, "true") == 0;
		} else {
			app_message(app, true, "%s:%u: unknown option %s",
				    o->file, o->line, o->name);
		}
	}
	for (size_t i = 0; i < app->config.n_derived; i++)
		add_derived(app, app->config.derived[i].name,
			    app->config.derived[i].formula, false);
	if (app->config.n_warnings && !app->message)
		app_message(app, true, "%s%s", app->config.warnings[0],
			    app->config.n_warnings > 1 ? " (and more)" : "");
}

int app_run(struct model *model, const char *path, bool demo,
	    const struct ui_options *opt)
{
	struct app app;
	memset(&app, 0, sizeof(app));
	app.model = model;
	app.db_path = strdup(path);
	app.demo = demo;
	app.threshold = 50.0;
	app.trace_percent = 50;
	app.keymap = keymap_new();
	int rc = 0;
	if (!app.db_path || !app.keymap) {
		rc = 2;
		goto out;
	}
	/* columns: those visible by default, sorted by the first */
	app.columns = calloc(model->n_columns ? model->n_columns : 1,
			     sizeof(*app.columns));
	if (!app.columns) {
		rc = 2;
		goto out;
	}
	for (uint32_t c = 0; c < model->n_columns; c++)
		if (model->columns[c].visible && model->columns[c].expr)
			app.columns[app.n_columns++] = c;
	/* what every frame would otherwise look up again */
	app.totals = calloc(model->n_columns ? model->n_columns : 1,
			    sizeof(*app.totals));
	app.has_total = calloc(model->n_columns ? model->n_columns : 1,
			       sizeof(*app.has_total));
	if (!app.totals || !app.has_total) {
		rc = 2;
		goto out;
	}
	for (uint32_t i = 0; i < model->n_profiles; i++)
		app.n_threads += !model->profiles[i].is_summary;
	app.sort_column = app.n_columns ? app.columns[0] : MODEL_NONE;
	load_config(&app, opt);
	/* the database's warnings went to stderr before the screen hid
	 * them: the first one also on the status line (a database without
	 * values must not look like one whose values are all small) */
	if (model->n_warnings && !app.message)
		app_message(&app, true, "%s%s", model->warnings[0],
			    model->n_warnings > 1 ? " (and more)" : "");
	if (!screen_start(opt->headless, opt->cols, opt->rows, &app.caps)) {
		rc = 1;
		goto out;
	}
	theme_apply(&app.config, &app.caps);
	app_push_pane(&app, pane_tree_new());
	if (app.n_panes == 0 || !ensure_view(&app, VIEW_TOP_DOWN)) {
		screen_stop();
		fputs("callscope: cannot build the view\n", stderr);
		rc = 2;
		goto out;
	}
	if (demo && !app.message)
		app_message(&app, false, "This is the demo database (%s); "
					 "give a database path to open "
					 "yours.  ? for help, q to quit",
			    path);
	if (!opt->no_prebuild)
		prebuild_start(&app);
	/* only a database opened by URL reads from a server after the open:
	 * elsewhere Ctrl-C keeps quitting at once */
	bool remote = !opt->headless && path && http_is_url(path);
	if (remote)
		watch_reads(true);
	loop(&app, opt);
	watch_reads(false);
	screen_stop();
	/* Quitting while the background build still runs: the terminal is
	 * restored and every stream flushed; waiting for the build only to
	 * free memory the process is about to give back would make `q` slow
	 * on a huge database. */
	if (app.prebuild && !app.prebuild->joined &&
	    pthread_tryjoin_np(app.prebuild->thread, NULL) != 0) {
		pthread_detach(app.prebuild->thread);
		fflush(NULL);
		_exit(rc);
	}
	if (app.prebuild && !app.prebuild->joined)
		prebuild_take(&app); /* the tryjoin above joined it */
out:
	while (app.n_panes > 0) {
		struct pane *p = app.panes[--app.n_panes];
		p->ops->free(p);
	}
	if (app.trace)
		app.trace->ops->free(app.trace);
	prebuild_join(&app);
	if (app.prebuild)
		free(app.prebuild->columns);
	free(app.prebuild);
	for (int k = 0; k < 3; k++) {
		outline_free(app.outlines[k]);
		view_free(app.views[k]);
	}
	for (size_t i = 0; i < app.n_derived; i++) {
		free(app.derived[i].name);
		free(app.derived[i].text);
		formula_free(app.derived[i].expr);
	}
	free(app.derived);
	free(app.columns);
	free(app.totals);
	free(app.has_total);
	free(app.message);
	free(app.prompt_buf);
	free(app.db_path);
	free(app.config_path_owned);
	keymap_free(app.keymap);
	config_free(&app.config);
	model_free(model);
	return rc;
}
