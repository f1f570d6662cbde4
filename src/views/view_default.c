/* view_default: the column a view opens sorted by.  A profile is read by
 * time first: the first shown column that is a time summed over contexts
 * (Cube's "time" before its "visits", HPCToolkit's CPUTIME / REALTIME /
 * WALLCLOCK or any "(sec)" metric), or the top of its metric taxonomy
 * while that is shown and a sum, else the first shown column.  The
 * bottom-up view opens on that metric's exclusive column when it is shown,
 * so that its first rows are the functions that spend the time themselves
 * (perf report --no-children), not their callers.  Semantics in
 * doc/views.md ("Default sort column").  Must not depend on curses, on ui/
 * or on any reader. */
#include "config.h"

#include "views/view_internal.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Whether `name` contains `word` (lower case) ignoring case. */
static bool has_word(const char *name, const char *word)
{
	size_t n = strlen(name), w = strlen(word);
	for (size_t i = 0; i + w <= n; i++)
		if (strncasecmp(name + i, word, w) == 0)
			return true;
	return false;
}

bool view_column_is_time(const struct model *m, uint32_t column)
{
	if (column >= model_n_columns(m) || !model_columns(m)[column].expr)
		return false;
	const struct model_column *c = &model_columns(m)[column];
	const char *name = c->name ? c->name : "";
	/* a total: not a mean, a minimum or a maximum of a time */
	if (c->variant && *c->variant && strcasecmp(c->variant, "Sum") != 0)
		return false;
	if (view_column_rule(m, column) != VIEW_RULE_SUM)
		return false;
	return has_word(name, "time") || has_word(name, "wallclock") ||
	       model_unit_is_time(model_column_unit(m, column));
}

static bool shown_has(const uint32_t *shown, size_t n, uint32_t column)
{
	for (size_t i = 0; i < n; i++)
		if (shown[i] == column)
			return true;
	return false;
}

uint32_t view_default_column(const struct model *m, enum view_kind kind,
			     const uint32_t *shown, size_t n_shown)
{
	uint32_t pick = MODEL_NONE;
	if (!m || !shown || n_shown == 0)
		return MODEL_NONE;
	for (size_t i = 0; i < n_shown && pick == MODEL_NONE; i++)
		if (shown[i] < model_n_columns(m) &&
		    model_columns(m)[shown[i]].kind == COLUMN_INCLUSIVE &&
		    view_column_is_time(m, shown[i]))
			pick = shown[i];
	for (size_t i = 0; i < n_shown && pick == MODEL_NONE; i++)
		if (view_column_is_time(m, shown[i]))
			pick = shown[i];
	/* a time's taxonomy parent, when shown and a sum too, is the
	 * larger total (v4's "GPU" over "Synchronization" over "GSYNC:STR
	 * (sec)") */
	for (uint32_t up = 0; pick != MODEL_NONE && up < 64; up++) {
		uint32_t p = model_columns(m)[pick].parent;
		if (p >= model_n_columns(m) || !shown_has(shown, n_shown, p) ||
		    model_columns(m)[p].kind != model_columns(m)[pick].kind ||
		    view_column_rule(m, p) != VIEW_RULE_SUM)
			break;
		pick = p;
	}
	if (pick == MODEL_NONE)
		pick = shown[0];
	if (kind != VIEW_BOTTOM_UP || pick >= model_n_columns(m) ||
	    model_columns(m)[pick].kind != COLUMN_INCLUSIVE)
		return pick;
	uint32_t excl = model_columns(m)[pick].pair;
	return excl != MODEL_NONE && shown_has(shown, n_shown, excl) ? excl
								    : pick;
}
