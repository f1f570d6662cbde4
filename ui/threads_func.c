/* threads_func: the threads pane's rows and sums line for a code column
 * (see threads_func.h).  The text of a row is read when the row is drawn
 * (one model_value_text per visible row), so a pane over many contexts
 * costs what is on screen. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threads_func.h"
#include "screen.h"
#include "present/present_value.h"

#define VALUE_W 10 /* as pane_threads.c's rows */

bool threads_func_shown(const struct model *m, uint32_t column)
{
	return model_column_is_code(m, column);
}

/* The text of `column` at `node` over `profile` (UINT32_MAX: every one):
 * malloc'd, or a static fallback in *fallback. */
static char *text_of(const struct model *m, uint32_t node, uint32_t column,
		     uint32_t profile, const char **fallback)
{
	char *text = NULL;
	struct error err = {0};
	*fallback = "-";
	if (model_value_text(m, node, column, profile, &text, &err) !=
	    STATUS_OK)
		*fallback = "?";
	error_clear(&err);
	return text;
}

int threads_func_label_width(const struct model *m, int w)
{
	int widest = 1, most = (w - VALUE_W - 3) / 3;
	for (uint32_t p = 0; p < model_n_profiles(m); p++) {
		int lw = screen_text_width(
			model_str(m, model_profiles(m)[p].label));
		if (!model_profiles(m)[p].is_summary && lw > widest)
			widest = lw;
	}
	return widest < most ? widest : most > 1 ? most : 1;
}

void threads_func_draw_row(const struct model *m, uint32_t node,
			   uint32_t column, uint32_t profile, double value,
			   int label_w, int y, int x, int w, attr_t a)
{
	char v[64];
	present_value_fit(m, column, value, VALUE_W, v, sizeof(v));
	screen_text_right(y, x, VALUE_W, a, value != 0 ? v : "");
	int lx = VALUE_W + 2;
	if (w <= lx)
		return;
	screen_text(y, x + lx, w - lx < label_w ? w - lx : label_w, a,
		    model_str(m, model_profiles(m)[profile].label), false);
	int fx = lx + label_w + 2;
	if (w <= fx)
		return;
	const char *fallback;
	char *text = text_of(m, node, column, profile, &fallback);
	screen_text(y, x + fx, w - fx, a, text ? text : fallback, false);
	free(text);
}

char *threads_func_sums_line(const struct model *m, uint32_t node,
			     uint32_t column)
{
	double v = 0;
	char code[64] = "(none)";
	if (model_value(m, node, column, &v))
		present_value_fit(m, column, v, 40, code, sizeof(code));
	const char *fallback;
	char *text = text_of(m, node, column, UINT32_MAX, &fallback);
	char *out = NULL;
	if (asprintf(&out, " ranking codes, not summed; all contexts: %s = %s",
		     code, text ? text : fallback) < 0)
		out = NULL;
	free(text);
	return out;
}
