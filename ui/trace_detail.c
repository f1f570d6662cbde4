/* trace_detail: the trace pane's lines about the cursor: where it is
 * (time, line, context), the call path, the interval's details and
 * links, the instant in its cell, or a counter's value and range. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pane.h"
#include "screen.h"
#include "theme.h"
#include "trace_pane.h"
#include "present/present_path.h"
#include "views/trace_index.h"
#include "views/trace_view.h"

/* "outer > ... > ctx", as `callscope trace --at` prints it */
static char *ctx_path(const struct model *m, uint32_t ctx)
{
	uint32_t node = ctx ? model_node_of_ctx(m, ctx) : MODEL_NONE;
	if (node == MODEL_NONE)
		return strdup(ctx ? "(unknown context)" : "(idle)");
	return present_node_path(m, node, " > ", PRESENT_PATH_LABELS);
}

#define LAUNCHES_COUNTED 1000 /* launches of one call counted for the details */

/* "Interval 1.23 ms; launched by NAME on LINE" (GPU work) or "; launched
 * NAME on LINE and 2 more" (an API call) or "; message partner NAME on
 * LINE" (a call sending or receiving an MPI message), then the event's attributes:
 * what the interval at the cursor is, made once per interval (the
 * attributes are one row lookup of the reader). */
static const char *interval_details(struct pane_env *env, struct trace_pane *t,
				    uint32_t line, uint64_t index,
				    const struct trace_interval *iv)
{
	const struct model *m = env->model;
	if (t->det_text && t->det_line == line && t->det_index == index)
		return t->det_text;
	free(t->det_text);
	t->det_text = NULL;
	char dur[40], *out = NULL;
	trace_format_duration(iv->end - iv->begin, env->caps->utf8, dur,
			      sizeof(dur));
	uint32_t tl, n = 0, xl;
	uint64_t ti, xi;
	struct trace_interval other;
	bool by_call = model_interval_linked(m, line, index, MODEL_LINK_CALL,
					     &tl, &ti);
	bool launched = !by_call &&
			model_interval_linked(m, line, index, 0, &tl, &ti);
	bool linked =
		(by_call || launched) && model_interval(m, tl, ti, &other);
	while (launched && n < LAUNCHES_COUNTED &&
	       model_interval_linked(m, line, index, n + 1, &xl, &xi))
		n++;
	char *label = linked ? trace_ctx_label(m, other.ctx_id) : NULL;
	char extra[48] = "";
	if (n)
		snprintf(extra, sizeof(extra), " and %u%s more", n,
			 n == LAUNCHES_COUNTED ? "+" : "");
	const char *noun = model_trace_link_noun(m);
	char *lead = NULL; /* "; message partner " (MPI, OTF2) */
	if (noun && asprintf(&lead, "; %s partner ", noun) < 0)
		lead = NULL;
	if (asprintf(&out, "Interval %s%s%s%s%s%s", dur,
		     !linked ? "" : lead ? lead : by_call ? "; launched by "
						       : "; launched ",
		     linked ? (label ? label : "?") : "",
		     linked ? " on " : "",
		     linked ? model_str(m, model_timelines(m)[tl].label) : "",
		     extra) < 0)
		out = NULL;
	free(lead);
	free(label);
	struct model_kv *kv = NULL;
	size_t nkv = 0;
	struct error err = {0};
	if (out && model_event_detail(m, line, iv->event, &kv, &nkv, &err) ==
			   STATUS_OK)
		for (size_t i = 0; i < nkv && out; i++) {
			char *next = NULL;
			/* an attribute without a value says nothing
			 * (critique b8: "args=" on .rpd API calls) */
			if (!kv[i].text || !*kv[i].text)
				continue;
			if (asprintf(&next, "%s  %s=%s", out, kv[i].key,
				     kv[i].text) < 0)
				next = NULL;
			free(out);
			out = next;
		}
	free(kv);
	error_clear(&err);
	t->det_text = out;
	t->det_line = line;
	t->det_index = index;
	return out;
}

/* "line P of N LABEL": the cursor's line as the pane numbers its rows
 * (position P among the N lines the header's "lines A-B of N" counts, in
 * the order drawn), not the reader's timeline index, which nothing on
 * screen shows (critique leftover: "line 102" on the third row).
 * Malloc'd. */
static char *cursor_line_text(struct pane_env *env, struct trace_pane *t,
			      uint32_t tl)
{
	const struct model *m = env->model;
	char *out = NULL;
	if (asprintf(&out, "line %u of %u %s", trace_view_cursor_line(t->view),
		     trace_view_line_count(t->view),
		     tl != MODEL_NONE
			     ? model_str(m, model_timelines(m)[tl].label)
			     : "") < 0)
		out = NULL;
	return out;
}

/* The cursor on counter line `tl`: "Cursor +T (t=N)  line L LABEL
 * value=V UNIT", then since when that value is in force and the range of
 * the values drawn in the window. */
static void draw_counter_info(struct pane_env *env, struct trace_pane *t,
			      int y, int x, int w, int lines, uint32_t tl,
			      const char *rel)
{
	const struct model *m = env->model;
	uint32_t line;
	uint64_t index = 0, since = 0, time = trace_view_cursor_time(t->view);
	double v = NAN;
	bool found = trace_view_cursor_counter(t->view, &line, &index, &since,
					       &v);
	const char *unit = model_str(m, model_timelines(m)[tl].unit);
	char val[40], *text = NULL, *where = cursor_line_text(env, t, tl);
	trace_format_value(v, val, sizeof(val));
	if (asprintf(&text, "Cursor %s (t=%llu)  %s  value=%s%s%s", rel,
		     (unsigned long long)time, where ? where : "", val,
		     found && *unit ? " " : "", found ? unit : "") < 0)
		text = NULL;
	free(where);
	screen_text(y, x, w, theme_attr(THEME_ROLE_DETAIL_LABEL),
		    text ? text : "", true);
	free(text);
	text = NULL;
	for (int i = 1; i < lines; i++)
		screen_text(y + i, x, w, theme_attr(THEME_ROLE_DETAIL), "",
			    true);
	if (lines < 2)
		return;
	char at[40] = "", lo_s[40] = "", hi_s[40] = "";
	double lo = 0, hi = 0;
	uint32_t row = trace_view_line_row(t->view, t->rows,
					   trace_view_cursor_line(t->view));
	bool range = t->mode == MODE_MAIN && row < t->rows &&
		     t->grid.row_line[row] == tl &&
		     trace_counter_range(t->grid.values +
						 (size_t)row * t->cols,
					 t->cols, &lo, &hi);
	if (range) {
		trace_format_value(lo, lo_s, sizeof(lo_s));
		trace_format_value(hi, hi_s, sizeof(hi_s));
	}
	if (found)
		trace_fmt_rel(env, since, at, sizeof(at));
	if (asprintf(&text, "Counter %s%s%s%s; window %s%s%s%s%s",
		     found ? "value " : "(no value at or before the cursor)",
		     found ? val : "", found ? " since " : "", at,
		     range ? "min " : "(nothing drawn)", lo_s,
		     range ? ", max " : "", hi_s,
		     range && *unit ? " " : "") < 0)
		text = NULL;
	char *full = NULL;
	if (text && asprintf(&full, "%s%s  (%llu values)", text,
			     range ? unit : "",
			     (unsigned long long)model_timelines(m)[tl].count) < 0)
		full = NULL;
	screen_text(y + 1, x, w, theme_attr(THEME_ROLE_DETAIL),
		    full ? full : "", true);
	free(full);
	free(text);
}

/* What runs at the cursor, for the one-line readout: the frame at the
 * pane's depth (what the cell's colour stands for; a GPU line's own
 * kernel or copy), and when it is not the innermost frame, " > ... > "
 * and the innermost.  Malloc'd. */
static char *readout_context(struct pane_env *env, struct trace_pane *t,
			     uint32_t tl, uint32_t ctx)
{
	const struct model *m = env->model;
	if (ctx == 0)
		return strdup("(idle)");
	uint32_t depth = trace_view_window(t->view)->depth;
	bool own = trace_line_own_context(m, tl);
	uint32_t at = own ? ctx : trace_ctx_at_depth(m, ctx, depth);
	uint32_t inner = own ? ctx : trace_ctx_at_depth(m, ctx, UINT32_MAX);
	char *a = trace_ctx_label(m, at ? at : ctx), *out = NULL;
	if (inner && inner != at) {
		char *b = trace_ctx_label(m, inner);
		if (asprintf(&out, "%s > ... > %s", a ? a : "?",
			     b ? b : "?") < 0)
			out = NULL;
		free(b);
		free(a);
		return out;
	}
	return a;
}

/* One readout line (a short pane): where the cursor is and what runs
 * there. */
static void draw_readout(struct pane_env *env, struct trace_pane *t, int y,
			 int x, int w, uint32_t tl, uint32_t ctx,
			 const char *rel)
{
	char *what = readout_context(env, t, tl, ctx), *head = NULL;
	char *where = cursor_line_text(env, t, tl);
	if (asprintf(&head, "Cursor %s  %s: %s", rel, where ? where : "",
		     what ? what : "?") < 0)
		head = NULL;
	free(where);
	free(what);
	screen_text(y, x, w, theme_attr(THEME_ROLE_DETAIL_LABEL),
		    head ? head : "", true);
	free(head);
}

/* The instant in the cursor's cell, on row y: its name, time and how
 * many the cell holds.  False when there is none. */
static bool draw_instant(struct pane_env *env, struct trace_pane *t, int y,
			 int x, int w)
{
	uint64_t count = 0, index;
	uint32_t line;
	struct trace_instant in;
	if (!trace_view_cursor_instant(t->view, t->cols, &line, &index,
				       &count, &in))
		return false;
	char at[40], more[48] = "", *text = NULL;
	trace_fmt_rel(env, in.time, at, sizeof(at));
	if (count > 1)
		snprintf(more, sizeof(more), "  (%llu in the cell)",
			 (unsigned long long)count);
	if (asprintf(&text, "Instant %s at %s (t=%llu)%s",
		     model_str(env->model, in.name), at,
		     (unsigned long long)in.time, more) < 0)
		text = NULL;
	screen_text(y, x, w, theme_attr(THEME_ROLE_DETAIL), text ? text : "",
		    true);
	free(text);
	return true;
}

/* Call path `p` in full, wrapped over rows y + 1 .. y + lines - 1. */
static void draw_path(const char *p, int y, int x, int w, int lines)
{
	for (int i = 1; i < lines; i++) {
		screen_text(y + i, x, w, theme_attr(THEME_ROLE_DETAIL), "",
			    true);
		if (!*p)
			continue;
		screen_text(y + i, x, w, theme_attr(THEME_ROLE_DETAIL),
			    i == 1 ? "Path " : "     ", false);
		size_t len = strlen(p), take = 0;
		int cols = 0;
		while (take < len && cols < w - 5) {
			take++;
			while (take < len && (p[take] & 0xc0) == 0x80)
				take++;
			cols++;
		}
		char *piece = strndup(p, take);
		screen_text(y + i, x + 5, w - 5, theme_attr(THEME_ROLE_DETAIL),
			    piece ? piece : "", false);
		free(piece);
		p += take;
	}
}

void trace_draw_cursor_info(struct pane_env *env, struct trace_pane *t, int y,
			    int x, int w, int lines)
{
	const struct model *m = env->model;
	uint32_t line = trace_view_cursor_line(t->view);
	uint32_t tl = trace_view_line(t->view, line);
	uint64_t time = trace_view_cursor_time(t->view);
	char rel[40], *head = NULL;
	trace_fmt_rel(env, time, rel, sizeof(rel));
	if (tl != MODEL_NONE && model_timelines(m)[tl].kind == TIMELINE_COUNTER) {
		draw_counter_info(env, t, y, x, w, lines, tl, rel);
		return;
	}
	struct trace_sample s = {0};
	bool found = tl != MODEL_NONE &&
		     trace_sample_at(m, tl, time, &s, NULL);
	if (lines == 1) {
		draw_readout(env, t, y, x, w, tl, found ? s.ctx_id : 0, rel);
		return;
	}
	char *where = cursor_line_text(env, t, tl);
	if (asprintf(&head, "Cursor %s (t=%llu)  %s  ctx=%u", rel,
		     (unsigned long long)time, where ? where : "",
		     found ? s.ctx_id : 0) < 0)
		head = NULL;
	free(where);
	screen_text(y, x, w, theme_attr(THEME_ROLE_DETAIL_LABEL),
		    head ? head : "", true);
	free(head);
	if (lines < 2)
		return;
	/* an interval track: idle where no interval runs; its last line
	 * tells what the interval at the cursor is */
	bool intervals = tl != MODEL_NONE &&
			 model_timelines(m)[tl].kind == TIMELINE_INTERVALS;
	char *path;
	if (found && (s.ctx_id || !intervals)) {
		/* v4 copied sources by the path they were built from, as
		 * the tree's detail lines show them */
		char *raw = ctx_path(m, s.ctx_id);
		path = raw ? present_built_paths(m, raw) : NULL;
		free(raw);
	}
	else if (intervals)
		path = strdup("(idle: no interval at the cursor)");
	else
		path = strdup("(no sample at or before the cursor)");
	uint32_t il;
	uint64_t ii;
	struct trace_interval iv;
	const char *details = NULL;
	if (intervals && lines >= 3 &&
	    trace_view_cursor_interval(t->view, &il, &ii, &iv))
		details = interval_details(env, t, il, ii, &iv);
	/* an instant in the cursor's cell, on the last line */
	if (intervals && lines >= 3 &&
	    draw_instant(env, t, y + lines - 1, x, w)) {
		lines--;
		if (lines < 3)
			details = NULL;
	}
	if (details) {
		lines--;
		screen_text(y + lines, x, w, theme_attr(THEME_ROLE_DETAIL),
			    details, true);
	}
	draw_path(path ? path : "", y, x, w, lines);
	free(path);
}
