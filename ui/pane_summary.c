/* pane_summary: the viewer's `nsys stats`-like summary of a GPU trace per
 * kind (`#`): for each kind (GPU kernels, memory copies and sets, API
 * calls, NVTX/roctx ranges, OS runtime calls) a title with its instances
 * and time, then one line per name with its percent of the kind's time,
 * total, instances, mean, median, minimum, maximum and standard deviation,
 * sorted by total -- the figures `callscope stats` prints, from the same
 * engine (src/views/kind_summary.c), built once when the pane opens.
 * Times in units ("373.3 ms"); columns that do not fit (at 80 columns: the
 * minimum, maximum and deviation) are left out, and the header says so. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pane.h"
#include "pane_list.h"
#include "screen.h"
#include "theme.h"
#include "present/present_value.h"
#include "views/kind_summary.h"

/* One line of the pane: a kind's title, its column header, or a row. */
struct summary_line {
	uint32_t kind;
	uint32_t row; /* UINT32_MAX: the title, UINT32_MAX - 1: the header */
};
#define LINE_TITLE UINT32_MAX
#define LINE_HEADER (UINT32_MAX - 1)

struct summary_pane {
	struct list_cursor list;
	struct kind_summary *s;
	struct summary_line *lines;
};

/* The columns after the percent, in the order they are dropped last to
 * first when the terminal is narrow. */
enum { N_COLS = 7, PCT_W = 7, COL_W = 11, NAME_MIN = 24 };
static const char *const col_title[N_COLS] = {
	"Total", "Instances", "Mean", "Median", "Min", "Max", "StdDev"};

/* How many of the columns fit beside a name of NAME_MIN columns. */
static int columns_fitting(int w)
{
	int n = (w - PCT_W - NAME_MIN) / COL_W;
	return n < 1 ? 1 : n > N_COLS ? N_COLS : n;
}

static void draw_line(struct pane_env *env, struct summary_pane *p, int y,
		      struct rect r, size_t idx, int ncols)
{
	const struct summary_line *ln = &p->lines[idx];
	const struct kind_summary_kind *k = &p->s->kinds[ln->kind];
	bool cur = idx == p->list.cursor;
	attr_t sel = theme_attr(THEME_ROLE_SELECTED);
	char buf[320];
	if (ln->row == LINE_TITLE) {
		char total[32];
		present_duration_ns(k->total, total, sizeof(total));
		snprintf(buf, sizeof(buf), "%s%s%s: %" PRIu64 " instance%s, %s",
			 k->group, *k->group ? " " : "", k->kind, k->count,
			 k->count == 1 ? "" : "s", total);
		screen_text(y, r.x, r.w, cur ? sel : theme_attr(THEME_ROLE_TITLE),
			    buf, true);
		return;
	}
	int x = r.x;
	if (ln->row == LINE_HEADER) {
		attr_t a = cur ? sel : theme_attr(THEME_ROLE_COLUMN_HEADER);
		screen_text_right(y, x, PCT_W, a, "Time %");
		x += PCT_W;
		for (int c = 0; c < ncols; c++, x += COL_W)
			screen_text_right(y, x, COL_W, a, col_title[c]);
		screen_text(y, x, r.x + r.w - x, a, "  Name", true);
		return;
	}
	const struct kind_summary_row *row = &k->rows[ln->row];
	snprintf(buf, sizeof(buf), "%5.1f%%", row->percent);
	screen_text_right(y, x, PCT_W,
			  cur ? sel : theme_attr(THEME_ROLE_PERCENT), buf);
	x += PCT_W;
	const double ns[N_COLS] = {row->total, 0,	   row->mean,
				   row->median, row->min, row->max,
				   row->stddev};
	for (int c = 0; c < ncols; c++) {
		if (c == 1)
			snprintf(buf, sizeof(buf), "%" PRIu64, row->count);
		else
			present_duration_ns(ns[c], buf, sizeof(buf));
		screen_text_right(y, x, COL_W,
				  cur ? sel : theme_attr(THEME_ROLE_VALUE), buf);
		x += COL_W;
	}
	screen_text(y, x, 2, cur ? sel : A_NORMAL, "  ", true);
	x += 2;
	if (x < r.x + r.w)
		screen_text(y, x, r.x + r.w - x,
			    cur ? sel : theme_attr(THEME_ROLE_TREE), row->name,
			    true);
}

static void summary_draw(struct pane_env *env, struct pane *pane,
			 struct rect r)
{
	struct summary_pane *p = pane->state;
	if (r.h < 2)
		return;
	int ncols = columns_fitting(r.w);
	char head[200], hidden[80] = "";
	for (int c = ncols; c < N_COLS; c++) {
		size_t at = strlen(hidden);
		snprintf(hidden + at, sizeof(hidden) - at, "%s%s",
			 c > ncols ? " " : "", col_title[c]);
	}
	if (*hidden)
		snprintf(head, sizeof(head),
			 " Summary per kind, by total  [%s: wider terminal]",
			 hidden);
	else
		snprintf(head, sizeof(head),
			 " Summary per kind, %" PRIu64 " intervals, by total  "
			 "(Esc closes)",
			 p->s->intervals);
	screen_text(r.y, r.x, r.w, theme_attr(THEME_ROLE_TITLE), head, true);
	list_fit(&p->list, r.h - 1);
	for (int i = 1; i < r.h; i++) {
		size_t idx = p->list.top + (size_t)(i - 1);
		if (idx >= p->list.count) {
			screen_text(r.y + i, r.x, r.w, A_NORMAL, "", true);
			continue;
		}
		draw_line(env, p, r.y + i, r, idx, ncols);
	}
}

static struct reaction summary_action(struct pane_env *env,
				      struct pane *pane, enum action a)
{
	struct summary_pane *p = pane->state;
	(void)env;
	if (list_move(&p->list, a))
		return REACTION(HANDLED_REDRAW);
	return pane_close_keys(pane, a);
}

static void summary_pane_free(struct pane *pane)
{
	struct summary_pane *p = pane ? pane->state : NULL;
	if (p) {
		kind_summary_free(p->s);
		free(p->lines);
		free(p);
	}
	free(pane);
}

static struct pane *summary_new(struct pane_env *env)
{
	struct pane *pane = pane_alloc(&pane_summary_ops,
				       sizeof(struct summary_pane));
	if (!pane)
		return NULL;
	struct summary_pane *p = pane->state;
	struct error err = {0};
	if (kind_summary_build(env->model, &p->s, &err) != STATUS_OK) {
		pane_error(env, &err);
		summary_pane_free(pane);
		return NULL;
	}
	size_t n = 0;
	for (size_t k = 0; k < p->s->n_kinds; k++)
		n += 2 + p->s->kinds[k].n_rows;
	p->lines = calloc(n ? n : 1, sizeof(*p->lines));
	if (!p->lines) {
		summary_pane_free(pane);
		return NULL;
	}
	for (size_t k = 0; k < p->s->n_kinds; k++) {
		p->lines[p->list.count++] =
			(struct summary_line){(uint32_t)k, LINE_TITLE};
		p->lines[p->list.count++] =
			(struct summary_line){(uint32_t)k, LINE_HEADER};
		for (size_t i = 0; i < p->s->kinds[k].n_rows; i++)
			p->lines[p->list.count++] =
				(struct summary_line){(uint32_t)k, (uint32_t)i};
	}
	if (p->s->n_kinds == 0)
		pane_message(env, false, "summary: the trace has no named "
					 "intervals");
	return pane;
}

const struct pane_ops pane_summary_ops = {
	.name = "summary",
	.title = "Summary",
	.open = ACTION_GPU_SUMMARY,
	.flags = PANE_CLEARS,
	.new = summary_new,
	.draw = summary_draw,
	.action = summary_action,
	.free = summary_pane_free,
};
