/* trace_view: the trace pane's engine, its state and life cycle: the
 * lines in the order they are shown (identifier tuples), the GPU lines'
 * grouping, the per-line bounds read on first use, the label prefix the
 * lines share, and the accessors.  The rest of the engine is in the
 * trace_view_*.c files (trace_view_internal.h lists them and what they
 * share); trace_match.c and trace_share_list.c hold what works on a
 * model's contexts without a view.  Depends on the model and trace_index
 * only. */
#include "config.h"

#include "views/trace_view.h"
#include "views/trace_view_internal.h"
#include "views/trace_shares.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool tv_group_shown(const struct trace_view *v, uint32_t tl)
{
	uint8_t g = model_timelines(v->m)[tl].group;
	return g == TIMELINE_GROUP_NONE || g == v->group;
}

const struct trace_bounds *tv_bounds_of(struct trace_view *v, uint32_t tl)
{
	if (tl >= model_n_timelines(v->m))
		return NULL;
	if (v->bounds_state[tl] == BOUNDS_UNKNOWN)
		v->bounds_state[tl] = trace_bounds_read(v->m, tl, &v->bounds[tl])
					      ? BOUNDS_OK
					      : BOUNDS_EMPTY;
	return v->bounds_state[tl] == BOUNDS_OK ? &v->bounds[tl] : NULL;
}

/* The running count of counter lines of lines[0..n) (n + 1 entries),
 * or NULL when out of memory. */
uint32_t *tv_count_counters(const struct model *m, const uint32_t *lines,
			    uint32_t n)
{
	uint32_t *c = calloc((size_t)n + 1, sizeof(*c));
	if (!c)
		return NULL;
	for (uint32_t i = 0; i < n; i++)
		c[i + 1] = c[i] + (model_timelines(m)[lines[i]].kind ==
				   TIMELINE_COUNTER);
	return c;
}

uint32_t trace_view_counters_in(const struct trace_view *v, uint32_t lo,
				uint32_t hi)
{
	if (hi > v->n_lines)
		hi = v->n_lines;
	return lo < hi ? v->counters[hi] - v->counters[lo] : 0;
}

bool tv_is_counter(const struct model *m, uint32_t tl)
{
	return tl < model_n_timelines(m) &&
	       model_timelines(m)[tl].kind == TIMELINE_COUNTER;
}

bool tv_take_read_error(const struct trace_view *v, struct error *err)
{
	struct error local = {.status = STATUS_OK};
	if (!model_trace_take_error(v->m, err ? err : &local))
		return false;
	error_clear(&local);
	return true;
}

/* Identifier tuple order (hpctraceviewer's): element by element, the
 * kind's name then the logical id, a shorter tuple first, then the
 * model's order. */
struct tuple_key {
	const struct model *m;
	uint32_t tl;
};

static int by_tuple(const void *a, const void *b)
{
	const struct model *m = ((const struct tuple_key *)a)->m;
	uint32_t x = ((const struct tuple_key *)a)->tl;
	uint32_t y = ((const struct tuple_key *)b)->tl;
	const struct model_profile *p = &model_profiles(m)[model_timelines(m)[x].profile];
	const struct model_profile *q = &model_profiles(m)[model_timelines(m)[y].profile];
	for (uint32_t i = 0; i < p->n_ids && i < q->n_ids; i++) {
		const struct model_id *u = &model_ids(m)[p->first_id + i];
		const struct model_id *w = &model_ids(m)[q->first_id + i];
		int c = strcmp(model_str(m, u->kind_name),
			       model_str(m, w->kind_name));
		if (c)
			return c;
		if (u->logical_id != w->logical_id)
			return u->logical_id < w->logical_id ? -1 : 1;
	}
	if (p->n_ids != q->n_ids)
		return p->n_ids < q->n_ids ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The order lines are shown in: by identifier tuple when every
 * timeline has one (HPCToolkit: ranks and threads, which the database
 * stores in no order), else the model's order (GPU runs, whose readers
 * already put host threads, queues and counters in order).  False when
 * out of memory. */
static bool line_order(struct trace_view *v)
{
	const struct model *m = v->m;
	v->order = calloc(model_n_timelines(m), sizeof(*v->order));
	v->rank = calloc(model_n_timelines(m), sizeof(*v->rank));
	if (!v->order || !v->rank)
		return false;
	bool tuples = true;
	for (uint32_t i = 0; i < model_n_timelines(m); i++) {
		uint32_t p = model_timelines(m)[i].profile;
		v->order[i] = i;
		tuples &= p < model_n_profiles(m) && model_profiles(m)[p].n_ids > 0;
	}
	struct tuple_key *k =
		tuples ? malloc(model_n_timelines(m) * sizeof(*k)) : NULL;
	if (k) {
		for (uint32_t i = 0; i < model_n_timelines(m); i++)
			k[i] = (struct tuple_key){m, i};
		qsort(k, model_n_timelines(m), sizeof(*k), by_tuple);
		for (uint32_t i = 0; i < model_n_timelines(m); i++)
			v->order[i] = k[i].tl;
		free(k);
	}
	for (uint32_t i = 0; i < model_n_timelines(m); i++)
		v->rank[v->order[i]] = i;
	return true;
}

/* The depth shown first: 0, but on a GPU run (lines grouped by queue or
 * stream) the first depth below the process and thread entries (rocpd and
 * Nsight root host threads' calls in "pid N" > "thread T" entry nodes),
 * so that host lines show API calls and ranges rather than one colour per
 * process; GPU lines show their kernels at any depth
 * (trace_line_own_context).  O(nodes) once. */
static uint32_t first_depth(const struct trace_view *v)
{
	const struct model *m = v->m;
	if (!v->groups)
		return 0;
	uint32_t deepest = 0;
	for (uint32_t i = 1; i < model_n_nodes(m); i++) {
		if (model_nodes(m)[i].kind != NODE_ENTRY)
			continue;
		uint32_t d = 0;
		for (uint32_t n = i; n != 0 && n != MODEL_NONE && d < 64;
		     n = model_nodes(m)[n].parent)
			d += model_nodes(m)[n].kind == NODE_ENTRY;
		deepest = d > deepest ? d : deepest;
	}
	return deepest;
}

enum status trace_view_new(const struct model *m, struct trace_view **out,
			   struct error *err)
{
	*out = NULL;
	if (!m || model_n_timelines(m) == 0)
		return error_set(err, STATUS_UNSUPPORTED, m ? model_path(m) : NULL,
				 "the database has no trace");
	struct trace_view *v = calloc(1, sizeof(*v));
	if (!v)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	v->m = m;
	v->lines = calloc(model_n_timelines(m), sizeof(*v->lines));
	v->bounds = calloc(model_n_timelines(m), sizeof(*v->bounds));
	v->bounds_state = calloc(model_n_timelines(m), 1);
	if (!v->lines || !v->bounds || !v->bounds_state) {
		trace_view_free(v);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	/* GPU lines: the grouping of the first grouped line shows first */
	for (uint32_t i = 0; i < model_n_timelines(m); i++) {
		uint8_t g = model_timelines(m)[i].group;
		if (g != TIMELINE_GROUP_NONE && g <= TIMELINE_GROUP_STREAM) {
			if (!v->groups)
				v->first_group = g;
			v->groups |= (uint8_t)(1u << g);
		}
	}
	v->group = v->first_group;
	if (!line_order(v)) {
		trace_view_free(v);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	for (uint32_t i = 0; i < model_n_timelines(m); i++)
		if (tv_group_shown(v, v->order[i]))
			v->lines[v->n_lines++] = v->order[i];
	if (!(v->counters = tv_count_counters(m, v->lines, v->n_lines))) {
		trace_view_free(v);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	v->t_min = model_time_min(m);
	v->t_end = model_time_max(m) > model_time_min(m) ? model_time_max(m) + 1
					     : model_time_min(m) + MIN_WIDTH;
	if (v->t_end < v->t_min) /* time_max == UINT64_MAX */
		v->t_end = UINT64_MAX;
	v->win = (struct trace_window){.from = v->t_min,
				       .to = v->t_end,
				       .line_lo = 0,
				       .line_hi = v->n_lines};
	v->win.depth = first_depth(v);
	v->cursor_time = v->t_min;
	v->budget = TRACE_SHARES_BUDGET;
	*out = v;
	return STATUS_OK;
}

void trace_view_free(struct trace_view *v)
{
	if (!v)
		return;
	free(v->lines);
	free(v->order);
	free(v->rank);
	free(v->counters);
	free(v->bounds);
	free(v->bounds_state);
	free(v->pattern);
	trace_shares_free(&v->whole.sh);
	trace_shares_free(&v->by_column.sh);
	free(v);
}

enum timeline_group trace_view_gpu_lines(const struct trace_view *v)
{
	return (enum timeline_group)v->group;
}

bool trace_view_has_gpu_lines(const struct trace_view *v,
			      enum timeline_group g)
{
	return g != TIMELINE_GROUP_NONE && g <= TIMELINE_GROUP_STREAM &&
	       (v->groups & (1u << g));
}

enum status trace_view_set_gpu_lines(struct trace_view *v,
				     enum timeline_group g, struct error *err)
{
	if (!trace_view_has_gpu_lines(v, g))
		return error_set(err, STATUS_NOT_FOUND, NULL,
				 "no GPU lines by %s",
				 g == TIMELINE_GROUP_STREAM ? "stream" : "queue");
	if (g == v->group)
		return STATUS_OK;
	uint8_t old = v->group;
	uint32_t at = v->cursor_line < v->n_lines ? v->lines[v->cursor_line]
						  : MODEL_NONE;
	v->group = (uint8_t)g;
	enum status st = trace_view_set_filter(v, v->pattern, v->hide_empty,
					       err);
	if (st != STATUS_OK) {
		v->group = old;
		return st;
	}
	/* from a GPU line to the first line of the other grouping */
	if (at != MODEL_NONE &&
	    model_timelines(v->m)[at].group != TIMELINE_GROUP_NONE)
		for (uint32_t i = 0; i < v->n_lines; i++)
			if (model_timelines(v->m)[v->lines[i]].group == g) {
				v->cursor_line = i;
				break;
			}
	return STATUS_OK;
}

const struct trace_window *trace_view_window(const struct trace_view *v)
{
	return &v->win;
}

uint32_t trace_view_line_count(const struct trace_view *v)
{
	return v->n_lines;
}

uint32_t trace_view_line(const struct trace_view *v, uint32_t i)
{
	return i < v->n_lines ? v->lines[i] : MODEL_NONE;
}

uint64_t trace_view_cursor_time(const struct trace_view *v)
{
	return v->cursor_time;
}

uint32_t trace_view_cursor_line(const struct trace_view *v)
{
	return v->cursor_line;
}

size_t trace_view_label_prefix(struct trace_view *v)
{
	if (v->prefix_valid && v->prefix_stamp == v->stamp)
		return v->prefix;
	const struct model *m = v->m;
	const char *first = v->n_lines ? model_str(m, model_timelines(m)[v->lines[0]].label)
				       : "";
	size_t common = strlen(first);
	for (uint32_t i = 1; i < v->n_lines && common; i++) {
		const char *l = model_str(m, model_timelines(m)[v->lines[i]].label);
		size_t k = 0;
		while (k < common && l[k] == first[k])
			k++;
		common = k;
	}
	/* whole words only, and never a value without its key: back to the
	 * start of the word where the lines differ, then before a number */
	size_t cut = v->n_lines > 1 ? common : 0;
	while (cut > 0 && first[cut - 1] != ' ')
		cut--;
	while (cut > 0 && first[cut] >= '0' && first[cut] <= '9') {
		cut--;
		while (cut > 0 && first[cut - 1] != ' ')
			cut--;
	}
	v->prefix = cut;
	v->prefix_stamp = v->stamp;
	v->prefix_valid = true;
	return cut;
}

uint32_t trace_view_max_depth(const struct trace_view *v)
{
	return v->max_depth;
}

void trace_format_duration(uint64_t ns, bool utf8, char *buf, size_t size)
{
	static const struct {
		double scale;
		const char *unit, *ascii;
	} units[] = {
		{1e9, "s", "s"},
		{1e6, "ms", "ms"},
		{1e3, "\xc2\xb5s", "us"},
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if ((double)ns >= units[i].scale) {
			snprintf(buf, size, "%.4g %s",
				 (double)ns / units[i].scale,
				 utf8 ? units[i].unit : units[i].ascii);
			return;
		}
	}
	snprintf(buf, size, "%llu ns", (unsigned long long)ns);
}
