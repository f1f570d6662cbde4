/* pane_source: the source file of the selected context, at its line, with
 * the sort column's value beside every line that has one (summed over the
 * line contexts of that file).  The file is looked for at its recorded
 * path, in the database's src/ copy (HPCToolkit copies sources there under
 * their absolute path) and relative to the database. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/path.h"
#include "pane.h"
#include "screen.h"
#include "theme.h"
#include "present/present_value.h"
#include "open.h"
#include "pane_list.h"

#define SOURCE_MAX_BYTES (64u << 20)

struct source {
	struct list_cursor list;
	char *path;     /* the file shown */
	char *text;     /* its contents */
	char **lines;   /* pointers into text */
	size_t n_lines;
	double *values; /* per line (1-based index - 1) */
	bool *has_value;
	uint32_t column;
	uint32_t line;  /* the context's line */
	double max_value;
};

static char *resolve(const char *db, const char *file)
{
	char *p = NULL;
	if (file[0] == '/' && path_is_file(file))
		return strdup(file);
	if (asprintf(&p, "%s/src%s%s", db, file[0] == '/' ? "" : "/", file) >= 0 &&
	    path_is_file(p))
		return p;
	free(p);
	p = NULL;
	if (file[0] != '/' && (p = path_join(db, file)) &&
	    path_is_file(p))
		return p;
	free(p);
	return NULL;
}

static bool load(struct source *s, struct error *err)
{
	FILE *f = fopen(s->path, "rb");
	if (!f) {
		error_set(err, STATUS_IO, s->path, "%s", strerror(errno));
		return false;
	}
	size_t len = 0;
	enum status st = file_read_all(f, SOURCE_MAX_BYTES, &s->text, &len);
	fclose(f);
	if (st == STATUS_LIMIT)
		error_set(err, st, s->path, "larger than %u MiB",
			  SOURCE_MAX_BYTES >> 20);
	if (st != STATUS_OK)
		return false;
	size_t n = 1;
	for (size_t i = 0; i < len; i++)
		n += s->text[i] == '\n';
	s->lines = calloc(n, sizeof(*s->lines));
	if (!s->lines)
		return false;
	char *p = s->text;
	s->n_lines = 0;
	while (p && s->n_lines < n) {
		s->lines[s->n_lines++] = p;
		char *nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		p = nl + 1;
		if (!*p && p == s->text + len)
			break;
	}
	return true;
}

/* per-line values: line contexts of this file, summed by line */
static void collect(struct pane_env *env, struct source *s, uint32_t file)
{
	const struct model *m = env->model;
	s->values = calloc(s->n_lines ? s->n_lines : 1, sizeof(*s->values));
	s->has_value = calloc(s->n_lines ? s->n_lines : 1, sizeof(*s->has_value));
	if (!s->values || !s->has_value || s->column >= model_n_columns(m))
		return;
	for (uint32_t i = 1; i < model_n_nodes(m); i++) {
		const struct model_node *n = &model_nodes(m)[i];
		if (n->file != file || n->kind != NODE_LINE || n->line == 0 ||
		    n->line > s->n_lines)
			continue;
		double v;
		if (!model_value(m, i, s->column, &v))
			continue;
		s->values[n->line - 1] += v;
		s->has_value[n->line - 1] = true;
		if (s->values[n->line - 1] > s->max_value)
			s->max_value = s->values[n->line - 1];
	}
}

static void source_draw(struct pane_env *env, struct pane *pane, struct rect r)
{
	struct source *s = pane->state;
	if (r.h < 2)
		return;
	char *title = pane_column_title(env, s->column);
	char *head = NULL;
	if (asprintf(&head, " %s   (values: %s; Esc closes)", s->path,
		     title ? title : "?") < 0)
		head = NULL;
	screen_text(r.y, r.x, r.w, theme_attr(THEME_ROLE_COLUMN_HEADER),
		    head ? head : "", true);
	free(head);
	free(title);
	list_fit(&s->list, r.h - 1);
	for (int i = 1; i < r.h; i++) {
		size_t idx = s->list.top + (size_t)(i - 1);
		if (idx >= s->n_lines)
			break;
		int y = r.y + i;
		bool cur = idx == s->list.cursor;
		bool target = idx + 1 == s->line;
		attr_t a = cur ? theme_attr(THEME_ROLE_SELECTED) : A_NORMAL;
		char num[24];
		snprintf(num, sizeof(num), "%6zu", idx + 1);
		screen_text(y, r.x, 7, cur ? a : theme_attr(THEME_ROLE_LINE_NUMBER),
			    num, true);
		if (s->has_value && s->has_value[idx]) {
			char v[32];
			present_value_fit(env->model, s->column,
					  s->values[idx], 9, v, sizeof(v));
			bool hot = s->max_value > 0 &&
				   s->values[idx] >= 0.1 * s->max_value;
			screen_text_right(y, r.x + 7, 10,
					  cur ? a
					  : hot ? theme_attr(THEME_ROLE_SOURCE_HOT)
						: theme_attr(THEME_ROLE_VALUE),
					  v);
		}
		/* tabs to spaces (8 columns) before sanitizing */
		const char *src = s->lines[idx];
		size_t tabs = 0;
		for (const char *p = src; *p; p++)
			tabs += *p == '\t';
		char *exp = malloc(strlen(src) + tabs * 8 + 1);
		if (exp) {
			size_t o = 0, col = 0;
			for (const char *p = src; *p; p++) {
				if (*p == '\t') {
					do {
						exp[o++] = ' ';
						col++;
					} while (col % 8);
				} else {
					exp[o++] = *p;
					col++;
				}
			}
			exp[o] = '\0';
		}
		screen_text(y, r.x + 19, r.w - 19,
			    cur ? a : target ? theme_attr(THEME_ROLE_SOURCE_HOT)
					     : A_NORMAL,
			    exp ? exp : "", cur);
		if (target && !cur)
			screen_text(y, r.x + 18, 1, theme_attr(THEME_ROLE_MARKER),
				    ">", false);
		free(exp);
	}
}

static struct reaction source_action(struct pane_env *env, struct pane *pane,
			      enum action a)
{
	(void)env;
	struct source *s = pane->state;
	if (list_move(&s->list, a))
		return REACTION(HANDLED_REDRAW);
	return pane_close_keys(pane, a);
}

static void source_free(struct pane *pane)
{
	struct source *s = pane->state;
	if (s) {
		free(s->path);
		free(s->text);
		free(s->lines);
		free(s->values);
		free(s->has_value);
		free(s);
	}
	free(pane);
}

static struct pane *source_new(struct pane_env *env)
{
	const struct model *m = env->model;
	uint32_t node = pane_selected_model_node(env);
	if (node == MODEL_NONE)
		return NULL;
	const struct model_node *n = &model_nodes(m)[node];
	uint32_t file = n->file, line = n->line;
	if (!file && n->function < model_n_functions(m)) {
		file = model_functions(m)[n->function].file;
		line = model_functions(m)[n->function].line;
	}
	/* a function context without a location: its first child's */
	if (!file && n->first_child != MODEL_NONE) {
		file = model_nodes(m)[n->first_child].file;
		line = model_nodes(m)[n->first_child].line;
	}
	if (!file) {
		pane_message(env, true, "source: no source file is known for "
				       "this context");
		return NULL;
	}
	/* the database's directory: where its files are (an archive's
	 * extraction, a URL's cached copy), without a file name such as
	 * meta.db or experiment.xml */
	char *dir = database_files_dir(m, env->db_path);
	char *path = dir ? resolve(dir, model_str(m, file)) : NULL;
	free(dir);
	if (!path) {
		pane_message(env, true, "source: %s not found (nor in the "
				       "database's src/)",
			    model_str(m, file));
		return NULL;
	}
	struct pane *p = pane_alloc(&pane_source_ops, sizeof(struct source));
	if (!p) {
		free(path);
		return NULL;
	}
	struct source *s = p->state;
	struct error err = {0};
	s->path = path;
	if (!load(s, &err)) {
		pane_error(env, &err);
		source_free(p);
		return NULL;
	}
	s->column = env->cols->sort_column;
	s->line = line;
	collect(env, s, file);
	s->list.count = s->n_lines;
	list_show(&s->list, line > 0 && line <= s->n_lines ? line - 1 : 0);
	return p;
}

const struct pane_ops pane_source_ops = {
	.name = "source",
	.title = "Source",
	.open = ACTION_SOURCE,
	.flags = PANE_CLEARS,
	.new = source_new,
	.draw = source_draw,
	.action = source_action,
	.free = source_free,
};
