/* pane_listing: dcpilist's listing of the selected procedure in the
 * viewer (DCPI profiles): every instruction, disassembled from the
 * program's image, with its samples and percent per event, the source
 * line above each run of instructions from it, and the hottest
 * instruction marked; the hot-path key jumps to it.  The listing is built
 * once when the pane opens (src/views/proc_listing.c), for that
 * procedure only.  Each event's number column is as wide as its widest
 * value (at most 11), and at narrow widths the instruction bytes are
 * shortened, then dropped, before an instruction is cut
 * (proc_listing_fit).  Source files named by DWARF are read only when they
 * are regular files (never a FIFO or a device that would block). */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "pane.h"
#include "pane_list.h"
#include "core/path.h"
#include "present/present_value.h"
#include "screen.h"
#include "theme.h"
#include "views/proc_listing.h"

/* One line of the pane: a source line header or an instruction. */
struct listing_line {
	size_t row;     /* instruction row */
	bool is_source; /* the header above a run of rows from one line */
};

/* A source file read for the headers' text (a few per listing). */
#define SOURCE_FILES 4
#define SOURCE_MAX (16u << 20)
struct source_file {
	char *path;   /* as the rows name it */
	char *text;   /* NULL when unreadable */
	char **lines; /* into text */
	size_t n_lines;
};

struct listing_pane {
	struct list_cursor list;
	struct source_file files[SOURCE_FILES];
	size_t n_files;
	struct proc_listing *l;
	struct listing_line *lines;
	size_t n_lines;
	size_t hottest_line;
	int *num_w; /* per event: the width of its number column */
};

static void read_source(struct source_file *f)
{
	/* a path from the binary's DWARF: open without blocking, and read
	 * only a regular file */
	int fd = open(f->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat sb;
	if (fd < 0)
		return;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return;
	}
	FILE *fp = fdopen(fd, "rb");
	if (!fp) {
		close(fd);
		return;
	}
	char *text = NULL;
	size_t len = 0;
	enum status st = file_read_all(fp, SOURCE_MAX, &text, &len);
	fclose(fp);
	if (st != STATUS_OK)
		return;
	size_t n = 1;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	f->lines = calloc(n, sizeof(*f->lines));
	if (!f->lines) {
		free(text);
		return;
	}
	f->text = text;
	for (char *p = text; p && f->n_lines < n;) {
		f->lines[f->n_lines++] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = '\0';
	}
}

/* Line `line` of source file `path` (read on first use; NULL when the file
 * is unreadable, the line is past its end, or SOURCE_FILES files are
 * already kept). */
static const char *source_text(struct listing_pane *s, const char *path,
			       uint32_t line)
{
	struct source_file *f = NULL;
	for (size_t i = 0; i < s->n_files && !f; i++)
		if (strcmp(s->files[i].path, path) == 0)
			f = &s->files[i];
	if (!f && s->n_files < SOURCE_FILES) {
		f = &s->files[s->n_files];
		f->path = strdup(path);
		if (!f->path)
			return NULL;
		s->n_files++;
		read_source(f);
	}
	if (!f || line == 0 || line > f->n_lines)
		return NULL;
	return f->lines[line - 1];
}

/* Source headers wherever the line changes, as `callscope listing`. */
static bool layout(struct listing_pane *s)
{
	const struct proc_listing *l = s->l;
	s->lines = calloc(2 * l->n_rows + 1, sizeof(*s->lines));
	if (!s->lines)
		return false;
	const char *last_file = NULL;
	uint32_t last_line = 0;
	for (size_t i = 0; i < l->n_rows; i++) {
		const struct proc_listing_row *r = &l->rows[i];
		if (r->file && r->line &&
		    (r->line != last_line || !last_file ||
		     strcmp(r->file, last_file) != 0)) {
			s->lines[s->n_lines++] =
				(struct listing_line){i, true};
			last_line = r->line;
			last_file = r->file;
		}
		if (l->has_hottest && i == l->hottest)
			s->hottest_line = s->n_lines;
		s->lines[s->n_lines++] = (struct listing_line){i, false};
	}
	return true;
}

/* The widest number of an event column (present_value_fit at NUM_MAX). */
/* The hottest row's marker column, " > ". */
#define MARK_W 3

#define NUM_MAX 11

/* Width of event column c's " samples pct%" cell (a space before it). */
static int cell_w(const struct listing_pane *s, size_t c)
{
	return s->num_w[c] + 8;
}

/* Each event's number width: its widest value as the cells write it, and
 * its title up to NUM_MAX. */
static bool measure(struct pane_env *env, struct listing_pane *s)
{
	const struct proc_listing *l = s->l;
	s->num_w = calloc(l->n_columns ? l->n_columns : 1, sizeof(*s->num_w));
	if (!s->num_w)
		return false;
	for (size_t c = 0; c < l->n_columns; c++) {
		char *t = pane_column_title(env, l->columns[c]);
		int w = t ? (int)strlen(t) : 1;
		free(t);
		w = w > NUM_MAX ? NUM_MAX : w;
		for (size_t i = 0; i < l->n_rows; i++) {
			char num[32];
			if (l->rows[i].values[c] <= 0)
				continue;
			int n = (int)present_value_fit(env->model,
						       l->columns[c],
						       l->rows[i].values[c],
						       NUM_MAX, num,
						       sizeof(num));
			w = n > w ? n : w;
		}
		s->num_w[c] = w;
	}
	return true;
}

/* The instruction part of row `row` laid out by `f` into `buf`. */
static void insn_text(const struct proc_listing_row *row,
		      const struct proc_listing_fit *f, char *buf,
		      size_t size)
{
	if (f->bytes_w == 0) {
		snprintf(buf, size, "%*" PRIx64 ": %s", f->addr_w, row->addr,
			 row->text);
		return;
	}
	size_t len = row->bytes ? strlen(row->bytes) : 0;
	size_t keep = proc_listing_bytes_keep(row->bytes, f->bytes_w);
	const char *ell = keep < len ? screen_glyphs()->ellipsis : "";
	int cols = (int)keep + (keep < len ? 1 : 0);
	snprintf(buf, size, "%*" PRIx64 ": %.*s%s%*s %s", f->addr_w, row->addr,
		 (int)keep, row->bytes ? row->bytes : "", ell,
		 f->bytes_w - cols, "", row->text);
}

static void draw_row(const struct pane_env *env, struct listing_pane *s, int y,
		     struct rect r, size_t idx, const struct proc_listing_fit *fit)
{
	const struct proc_listing *l = s->l;
	const struct listing_line *ln = &s->lines[idx];
	const struct proc_listing_row *row = &l->rows[ln->row];
	bool cur = idx == s->list.cursor;
	attr_t sel = theme_attr(THEME_ROLE_SELECTED);
	if (ln->is_source) {
		const char *src = source_text(s, row->file, row->line);
		const char *base = strrchr(row->file, '/');
		char *t = NULL;
		if (asprintf(&t, "%s:%" PRIu32 "%s%s",
			     base ? base + 1 : row->file, row->line,
			     src ? "   " : "", src ? src : "") < 0)
			t = NULL;
		for (char *p = t; p && *p; p++)
			if (*p == '\t')
				*p = ' ';
		screen_text(y, r.x, r.w, cur ? sel : theme_attr(THEME_ROLE_LINE_NUMBER),
			    t ? t : "", true);
		free(t);
		return;
	}
	int x = r.x;
	bool hot = l->has_hottest && ln->row == l->hottest;
	for (size_t c = 0; c < l->n_columns && x + cell_w(s, c) <= r.x + r.w;
	     c++) {
		double v = row->values[c];
		double pct = l->totals[c] > 0 ? 100.0 * v / l->totals[c] : 0;
		int nw = s->num_w[c];
		char cell[64];
		if (v > 0) {
			/* never a cut prefix: a shorter form when the column
			 * does not hold it (present_value_fit) */
			char num[32];
			present_value_fit(env->model, l->columns[c], v, nw, num,
					  sizeof(num));
			snprintf(cell, sizeof(cell), " %*s %5.1f%%", nw, num,
				 pct);
		} else
			snprintf(cell, sizeof(cell), " %*s %6s", nw, "", "");
		screen_text(y, x, cell_w(s, c), cur ? sel
				  : pct >= 10 ? theme_attr(THEME_ROLE_SOURCE_HOT)
					      : theme_attr(THEME_ROLE_VALUE),
			    cell, true);
		x += cell_w(s, c);
	}
	if (x >= r.x + r.w)
		return;
	screen_text(y, x, MARK_W, cur ? sel : theme_attr(THEME_ROLE_MARKER),
		    hot ? " >" : " ", true);
	x += MARK_W;
	if (x >= r.x + r.w)
		return;
	char text[512];
	insn_text(row, fit, text, sizeof(text));
	screen_text(y, x, r.x + r.w - x, cur ? sel : A_NORMAL, text, true);
}

static void listing_draw(struct pane_env *env, struct pane *pane,
			 struct rect r)
{
	struct listing_pane *s = pane->state;
	const struct proc_listing *l = s->l;
	if (r.h < 3)
		return;
	char *head = NULL;
	if (asprintf(&head, " Procedure %s in %s   (H: hottest; Esc closes)",
		     l->procedure ? l->procedure : "?", l->image) < 0)
		head = NULL;
	screen_text(r.y, r.x, r.w, theme_attr(THEME_ROLE_TITLE),
		    head ? head : "", true);
	free(head);
	/* the events' titles, then the instruction part's */
	int x = r.x;
	for (size_t c = 0; c < l->n_columns && x + cell_w(s, c) <= r.x + r.w;
	     c++) {
		char *t = pane_column_title(env, l->columns[c]);
		char cell[64];
		snprintf(cell, sizeof(cell), " %*.*s %6s", s->num_w[c],
			 s->num_w[c], t ? t : "?", "%");
		free(t);
		screen_text(r.y + 1, x, cell_w(s, c),
			    theme_attr(THEME_ROLE_COLUMN_HEADER), cell, true);
		x += cell_w(s, c);
	}
	struct proc_listing_fit fit;
	proc_listing_fit(l, r.x + r.w - x - MARK_W, &fit);
	if (x < r.x + r.w) {
		char ihead[128];
		if (fit.bytes_w > 0)
			snprintf(ihead, sizeof(ihead), "   %-*s %-*s %s",
				 fit.addr_w + 1, "address", fit.bytes_w,
				 "bytes", "instruction");
		else
			snprintf(ihead, sizeof(ihead), "   %-*s %s",
				 fit.addr_w + 1, "address", "instruction");
		screen_text(r.y + 1, x, r.x + r.w - x,
			    theme_attr(THEME_ROLE_COLUMN_HEADER), ihead, true);
	}
	list_fit(&s->list, r.h - 2);
	for (int i = 2; i < r.h; i++) {
		size_t idx = s->list.top + (size_t)(i - 2);
		if (idx >= s->n_lines)
			break;
		draw_row(env, s, r.y + i, r, idx, &fit);
	}
}

static struct reaction listing_action(struct pane_env *env,
				      struct pane *pane, enum action a)
{
	struct listing_pane *s = pane->state;
	if (list_move(&s->list, a))
		return REACTION(HANDLED_REDRAW);
	if (a == ACTION_HOT_PATH) {
		if (!s->l->has_hottest) {
			pane_message(env, false, "listing: no samples in this "
						 "procedure");
			return REACTION(HANDLED_YES);
		}
		list_show(&s->list, s->hottest_line);
		return REACTION(HANDLED_REDRAW);
	}
	return pane_close_keys(pane, a);
}

static void listing_pane_free(struct pane *pane)
{
	struct listing_pane *s = pane ? pane->state : NULL;
	if (s) {
		proc_listing_free(s->l);
		free(s->lines);
		free(s->num_w);
		for (size_t i = 0; i < s->n_files; i++) {
			free(s->files[i].path);
			free(s->files[i].text);
			free(s->files[i].lines);
		}
		free(s);
	}
	free(pane);
}

static struct pane *listing_new(struct pane_env *env)
{
	const struct model *m = env->model;
	if (strcmp(model_format(m), "dcpi") != 0) {
		pane_message(env, true, "listing: instruction listings are "
					"for DCPI profiles");
		return NULL;
	}
	uint32_t fn = proc_listing_procedure_of(m, pane_selected_model_node(env));
	if (fn == MODEL_NONE) {
		pane_message(env, true, "listing: select a procedure (or a "
					"line or address in one)");
		return NULL;
	}
	struct pane *p = pane_alloc(&pane_listing_ops,
				    sizeof(struct listing_pane));
	if (!p)
		return NULL;
	struct listing_pane *s = p->state;
	struct error err = {0};
	if (proc_listing_build(m, fn, &s->l, &err) != STATUS_OK) {
		pane_error(env, &err);
		listing_pane_free(p);
		return NULL;
	}
	if (!layout(s) || !measure(env, s)) {
		listing_pane_free(p);
		return NULL;
	}
	s->list.count = s->n_lines;
	/* open on the hottest instruction */
	list_show(&s->list, s->hottest_line);
	return p;
}

const struct pane_ops pane_listing_ops = {
	.name = "listing",
	.title = "Listing",
	.open = ACTION_LISTING,
	.flags = PANE_CLEARS,
	.new = listing_new,
	.draw = listing_draw,
	.action = listing_action,
	.free = listing_pane_free,
};
