/* trace_line_filter: the trace view's line filter: KIND RANGES pairs
 * matched against each line's identifier tuple ("RANK 0-7 THREAD 0"),
 * empty lines hidden on request, the GPU lines' grouping applied.
 * Depends on the model only. */
#include "config.h"

#include "views/trace_view.h"
#include "views/trace_view_internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "0-7,9" contains id? */
static bool in_ranges(const char *ranges, uint32_t id, bool *ok)
{
	const char *p = ranges;
	bool hit = false;
	*ok = true;
	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;
		if (end == p || *p == '-' || *p == '+') {
			*ok = false;
			return false;
		}
		p = end;
		if (*p == '-') {
			b = strtoul(p + 1, &end, 10);
			if (end == p + 1 || b < a) {
				*ok = false;
				return false;
			}
			p = end;
		}
		if (*p == ',')
			p++;
		else if (*p) {
			*ok = false;
			return false;
		}
		hit |= id >= a && id <= b;
	}
	return hit;
}

static bool tuple_matches(const struct model *m, uint32_t profile,
			  char **pairs, size_t n_pairs)
{
	if (profile >= model_n_profiles(m))
		return n_pairs == 0;
	const struct model_profile *p = &model_profiles(m)[profile];
	for (size_t i = 0; i < n_pairs; i++) {
		bool hit = false, ok;
		for (uint32_t j = 0; j < p->n_ids && !hit; j++) {
			const struct model_id *id = &model_ids(m)[p->first_id + j];
			if (strcasecmp(model_str(m, id->kind_name),
				       pairs[2 * i]) == 0)
				hit = in_ranges(pairs[2 * i + 1],
						id->logical_id, &ok);
		}
		if (!hit)
			return false;
	}
	return true;
}

enum status trace_view_set_filter(struct trace_view *v, const char *pattern,
				  bool hide_empty, struct error *err)
{
	enum status st = STATUS_OK;
	char *copy = strdup(pattern ? pattern : "");
	char **words = NULL;
	uint32_t *lines = NULL, *counters = NULL;
	size_t n_words = 0;
	if (!copy)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	words = calloc(strlen(copy) / 2 + 2, sizeof(*words));
	lines = calloc(model_n_timelines(v->m), sizeof(*lines));
	if (!words || !lines) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	char *save = NULL;
	for (char *w = strtok_r(copy, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save))
		words[n_words++] = w;
	bool ok = n_words % 2 == 0;
	for (size_t i = 1; ok && i < n_words; i += 2)
		(void)in_ranges(words[i], 0, &ok);
	if (!ok) {
		st = error_set(err, STATUS_USAGE, NULL,
			       "line filter: KIND RANGES pairs, e.g. "
			       "'RANK 0-7 THREAD 0'");
		goto out;
	}
	uint32_t n = 0;
	for (uint32_t o = 0; o < model_n_timelines(v->m); o++) {
		uint32_t tl = v->order[o];
		if (hide_empty && model_timelines(v->m)[tl].count == 0 &&
		    model_timelines(v->m)[tl].n_instants == 0)
			continue;
		if (!tv_group_shown(v, tl))
			continue;
		if (!tuple_matches(v->m, model_timelines(v->m)[tl].profile, words,
				   n_words / 2))
			continue;
		lines[n++] = tl;
	}
	if (n == 0) {
		st = error_set(err, STATUS_NOT_FOUND, NULL,
			       "line filter: no line matches");
		goto out;
	}
	counters = tv_count_counters(v->m, lines, n);
	char *kept = pattern && *pattern ? strdup(pattern) : NULL;
	if (!counters || (pattern && *pattern && !kept)) {
		free(kept);
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	if (kept != v->pattern) {
		free(v->pattern);
		v->pattern = kept;
	}
	v->hide_empty = hide_empty;
	uint32_t keep = v->cursor_line < v->n_lines ? v->lines[v->cursor_line]
						    : 0;
	free(v->lines);
	v->lines = lines;
	lines = NULL;
	v->n_lines = n;
	free(v->counters);
	v->counters = counters;
	counters = NULL;
	v->stamp++;
	v->cursor_line = 0;
	for (uint32_t i = 0; i < n; i++)
		if (v->rank[v->lines[i]] <= v->rank[keep])
			v->cursor_line = i;
	/* the undo stack's line ranges were over the old list */
	v->n_undo = v->n_redo = 0;
	v->win.line_lo = 0;
	v->win.line_hi = n;
out:
	free(counters);
	free(lines);
	free(words);
	free(copy);
	return st;
}
