/* trace_legend: the trace pane's legend line and its statistics and
 * summary views. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pane.h"
#include "screen.h"
#include "theme.h"
#include "trace_pane.h"
#include "views/trace_index.h"
#include "views/trace_view.h"

/* Summary: per time column, the share of each function over every line
 * of the window in the column's span (trace_view_column_shares: time
 * weighted, never the rows drawn), stacked from the bottom, most first;
 * a column of no time repeats the one before it. */
void trace_draw_summary(struct pane_env *env, struct trace_pane *t, int y, int x,
			 int screen_rows)
{
	uint32_t per = t->per;
	uint32_t h = (uint32_t)screen_rows * per;
	uint32_t nc = t->n_colors ? t->n_colors : 26;
	uint32_t *col = calloc(h ? h : 1, sizeof(*col));
	if (!col)
		return;
	for (uint32_t k = 0; k < t->cols; k++) {
		struct trace_share *s = NULL;
		size_t n = 0;
		struct error err = {0};
		if (trace_view_column_shares(t->view, t->cols, k, nc, &s, &n,
					     NULL, NULL, &err) != STATUS_OK ||
		    trace_shares_merge_names(env->model, s, &n, &err) !=
			    STATUS_OK) {
			free(s);
			pane_error(env, &err);
			error_clear(&err);
			break;
		}
		uint64_t total = 0;
		for (size_t i = 0; i < n; i++)
			total += s[i].cells;
		uint32_t filled = 0;
		uint64_t acc = 0;
		if (total)
			memset(col, 0, h * sizeof(*col));
		for (size_t i = 0; i < n && total; i++) {
			acc += s[i].cells;
			/* rounded: each edge within half a row of its place */
			uint32_t upto = (uint32_t)(((unsigned __int128)acc * h *
							    2 +
						    total) /
						   (2 * (unsigned __int128)total));
			uint32_t c = trace_pane_color(t, env->model, s[i].ctx);
			for (; filled < upto && filled < h; filled++)
				col[h - 1 - filled] = c;
		}
		free(s);
		for (int r = 0; r < screen_rows; r++)
			trace_draw_cell(t, y + r, x + (int)k, col[r * per],
				  col[r * per + per - 1], false, false);
	}
	free(col);
}

uint32_t trace_pane_color(const struct trace_pane *t, const struct model *m,
			  uint32_t ctx)
{
	if (ctx == 0)
		return 0;
	uint32_t nc = t->n_colors ? t->n_colors : 26;
	uint32_t h = trace_view_name_hash(m, ctx);
	for (uint32_t i = 0; i < t->n_map; i++)
		if (t->map_hash[i] == h)
			return t->map_color[i];
	return 1 + h % nc;
}

/* The window's shares over every line (trace_view_shares), merged by
 * name as the colours are, and the "sampled from N of M lines" note
 * ("" when every line counted); false with nothing (the error shown when
 * `show`). */
static bool window_shares(struct pane_env *env, struct trace_pane *t,
			  struct trace_share **s, size_t *n, uint64_t *total,
			  char *note, size_t size, bool show)
{
	struct error err = {0};
	uint32_t nc = t->n_colors ? t->n_colors : 26, counted = 0, lines = 0;
	*s = NULL;
	*n = 0;
	if (trace_view_shares(t->view, nc, s, n, &counted, &lines, &err) !=
		    STATUS_OK ||
	    trace_shares_merge_names(env->model, *s, n, &err) != STATUS_OK) {
		free(*s);
		*s = NULL;
		if (show)
			pane_error(env, &err);
		error_clear(&err);
		return false;
	}
	*total = 0;
	for (size_t i = 0; i < *n; i++) {
		*total += (*s)[i].cells;
		(*s)[i].color = trace_pane_color(t, env->model, (*s)[i].ctx);
	}
	uint32_t points = trace_view_share_points(t->view);
	if (counted < lines && points)
		snprintf(note, size, "sampled from %u of %u lines at %u times",
			 counted, lines, points);
	else if (counted < lines)
		snprintf(note, size, "sampled from %u of %u lines", counted,
			 lines);
	else if (points)
		snprintf(note, size, "sampled at %u times per long line",
			 points);
	else
		*note = 0;
	return true;
}

void trace_map_colors(struct pane_env *env, struct trace_pane *t)
{
	struct trace_share *s = NULL;
	size_t n = 0;
	uint64_t total = 0;
	char note[64];
	uint32_t nc = t->n_colors ? t->n_colors : 26;
	uint32_t cap = sizeof(t->map_hash) / sizeof(t->map_hash[0]);
	t->n_map = 0;
	if (!window_shares(env, t, &s, &n, &total, note, sizeof(note), false))
		return;
	for (size_t i = 0; i < n && t->n_map < nc && t->n_map < cap; i++) {
		if (!s[i].ctx)
			continue; /* idle has no colour */
		uint32_t h = trace_view_name_hash(env->model, s[i].ctx), c;
		bool taken = true;
		/* the hash's colour, else the next free one */
		for (uint32_t k = 0; k < nc && taken; k++) {
			c = 1 + (h + k) % nc;
			taken = false;
			for (uint32_t j = 0; j < t->n_map && !taken; j++)
				taken = t->map_color[j] == c;
		}
		t->map_hash[t->n_map] = h;
		t->map_color[t->n_map++] = c;
	}
	free(s);
}

void trace_draw_stats(struct pane_env *env, struct trace_pane *t, int y,
		      int x, int w, int screen_rows)
{
	struct trace_share *s = NULL;
	size_t n = 0;
	uint64_t total = 0;
	char note[64], *head = NULL;
	if (!window_shares(env, t, &s, &n, &total, note, sizeof(note), true))
		return;
	if (asprintf(&head, "        share  line time  function (%s%s, this "
			    "depth)",
		     *note ? note : "every line of the window",
		     *note ? " of the window" : "") < 0)
		head = NULL;
	screen_text(y, x, w, theme_attr(THEME_ROLE_COLUMN_HEADER),
		    head ? head : "", true);
	free(head);
	for (int r = 1; r < screen_rows && (size_t)(r - 1) < n; r++) {
		const struct trace_share *e = &s[r - 1];
		trace_draw_cell(t, y + r, x + 1, e->color, e->color, false,
				false);
		trace_draw_cell(t, y + r, x + 2, e->color, e->color, false,
				false);
		char *label = trace_ctx_label(env->model, e->ctx);
		char *line = NULL, dur[32];
		trace_format_duration(e->cells, env->caps->utf8, dur,
				      sizeof(dur));
		if (asprintf(&line, "%6.2f%% %10s  %s",
			     total ? 100.0 * (double)e->cells / (double)total
				   : 0.0,
			     dur, label ? label : "?") < 0)
			line = NULL;
		screen_text(y + r, x + 5, w - 5, A_NORMAL, line ? line : "",
			    false);
		free(line);
		free(label);
	}
	free(s);
}

/* The legend: each frame's colour and share of the window over every
 * line, most first, as many as fit. */
void trace_draw_legend(struct pane_env *env, struct trace_pane *t, int y,
		       int x, int w)
{
	struct trace_share *s = NULL;
	size_t n = 0;
	uint64_t total = 0;
	char note[64];
	screen_text(y, x, w, A_NORMAL, "", true);
	if (t->mode == MODE_STATS ||
	    !window_shares(env, t, &s, &n, &total, note, sizeof(note), false))
		return;
	int cx = x;
	char lead[96] = "";
	/* the depth view draws every depth: say which one the legend is of */
	if (t->mode == MODE_DEPTH)
		snprintf(lead, sizeof(lead), "depth %u: ",
			 trace_view_window(t->view)->depth);
	if (*note)
		snprintf(lead + strlen(lead), sizeof(lead) - strlen(lead),
			 "%s: ", note);
	if (*lead)
		cx += screen_text(y, cx, w, theme_attr(THEME_ROLE_DIM), lead,
				  false);
	for (size_t i = 0; i < n && cx < x + w - 8; i++) {
		trace_draw_cell(t, y, cx, s[i].color, s[i].color, false,
				false);
		char *label = trace_ctx_label(env->model, s[i].ctx);
		char *text = NULL;
		if (asprintf(&text, " %s %.1f%%  ", label ? label : "?",
			     total ? 100.0 * (double)s[i].cells / (double)total
				   : 0.0) < 0)
			text = NULL;
		cx += 1 + screen_text(y, cx + 1, x + w - cx - 1, A_NORMAL,
				      text ? text : "", false);
		free(text);
		free(label);
	}
	free(s);
}
