/* kind_summary: per-kind summaries of a trace's intervals (see the
 * header).  Two passes over the intervals of the counted tracks: the
 * first counts the intervals of each function, the second puts each
 * duration in its function's slice of one array; each slice is then
 * sorted (the median, the minimum and the maximum) and summed in order
 * (the mean, then the deviation from it in a second pass: no sums of
 * squares).  8 bytes per interval while it runs. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "views/kind_summary.h"

/* Whether track `line` is counted: an interval track of no GPU grouping,
 * or of the grouping shown first (`first`). */
static bool counted(const struct model *m, uint32_t line, uint8_t first)
{
	const struct model_timeline *t = &model_timelines(m)[line];
	return t->kind == TIMELINE_INTERVALS &&
	       (t->group == TIMELINE_GROUP_NONE || t->group == first);
}

/* The function of the interval's context, MODEL_NONE when none; a cache
 * of the last context asked (a track's intervals repeat a few). */
struct fn_cache {
	uint32_t ctx, fn;
	bool valid;
};

static uint32_t function_of(const struct model *m, struct fn_cache *c,
			    uint32_t ctx)
{
	if (c->valid && c->ctx == ctx)
		return c->fn;
	uint32_t node = model_node_of_ctx(m, ctx);
	uint32_t fn = node < model_n_nodes(m) ? model_nodes(m)[node].function : MODEL_NONE;
	if (fn >= model_n_functions(m))
		fn = MODEL_NONE;
	*c = (struct fn_cache){ctx, fn, true};
	return fn;
}

/* One walk over every counted interval: count[fn]++ (fill NULL), or the
 * duration into dur[at[fn]++]. */
static enum status walk(const struct model *m, uint8_t first, uint64_t *count,
			uint64_t *dur, uint64_t *at, struct error *err)
{
	struct fn_cache c = {0};
	for (uint32_t l = 0; l < model_n_timelines(m); l++) {
		if (!counted(m, l, first))
			continue;
		for (uint64_t i = 0; i < model_timelines(m)[l].count; i++) {
			struct trace_interval iv;
			if (!model_interval(m, l, i, &iv)) {
				if (model_trace_take_error(m, err))
					return err->status;
				continue;
			}
			uint32_t fn = function_of(m, &c, iv.ctx_id);
			if (fn == MODEL_NONE || iv.end < iv.begin)
				continue;
			if (dur)
				dur[at[fn]++] = iv.end - iv.begin;
			else
				count[fn]++;
		}
	}
	return STATUS_OK;
}

static int u64_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return a < b ? -1 : a > b;
}

/* The row of the n sorted durations d. */
static void row_of(struct kind_summary_row *r, const uint64_t *d, uint64_t n)
{
	double total = 0;
	for (uint64_t i = 0; i < n; i++)
		total += (double)d[i];
	r->count = n;
	r->total = total;
	r->mean = total / (double)n;
	r->min = (double)d[0];
	r->max = (double)d[n - 1];
	r->median = n % 2 ? (double)d[n / 2]
			  : ((double)d[n / 2 - 1] + (double)d[n / 2]) / 2;
	double sq = 0;
	for (uint64_t i = 0; n > 1 && i < n; i++) {
		double x = (double)d[i] - r->mean;
		sq += x * x;
	}
	r->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct kind_summary_row *a = pa, *b = pb;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int kind_cmp(const void *pa, const void *pb)
{
	const struct kind_summary_kind *a = pa, *b = pb;
	bool ga = strcmp(a->group, "GPU") == 0, gb = strcmp(b->group, "GPU") == 0;
	if (ga != gb)
		return ga ? -1 : 1;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return strcmp(a->kind, b->kind);
}

/* The kind of function `fn` in s (added when new); NULL when out of
 * memory. */
static struct kind_summary_kind *kind_of(const struct model *m,
					 struct kind_summary *s, uint32_t fn)
{
	const struct model_function *f = &model_functions(m)[fn];
	const char *group = f->module ? model_str(m, f->module) : "";
	const char *kind = f->file ? model_str(m, f->file) : "other";
	for (size_t k = 0; k < s->n_kinds; k++)
		if (strcmp(s->kinds[k].group, group) == 0 &&
		    strcmp(s->kinds[k].kind, kind) == 0)
			return &s->kinds[k];
	struct kind_summary_kind *g =
		realloc(s->kinds, (s->n_kinds + 1) * sizeof(*g));
	if (!g)
		return NULL;
	s->kinds = g;
	g = &s->kinds[s->n_kinds++];
	*g = (struct kind_summary_kind){.group = group, .kind = kind};
	return g;
}

enum status kind_summary_build(const struct model *m,
			       struct kind_summary **out, struct error *err)
{
	*out = NULL;
	uint8_t first = TIMELINE_GROUP_NONE;
	bool any = false;
	for (uint32_t l = 0; l < model_n_timelines(m); l++) {
		const struct model_timeline *t = &model_timelines(m)[l];
		if (t->kind != TIMELINE_INTERVALS)
			continue;
		any = true;
		if (first == TIMELINE_GROUP_NONE)
			first = t->group;
	}
	if (!any)
		return error_set(err, STATUS_UNSUPPORTED, model_path(m),
				 "no intervals to summarize (the summary is "
				 "for GPU traces: Nsight, rocpd)");
	model_trace_prepare(m, NULL, NULL);
	uint32_t nf = model_n_functions(m);
	uint64_t *count = calloc(nf ? nf : 1, sizeof(*count));
	uint64_t *at = calloc(nf ? nf : 1, sizeof(*at));
	uint64_t *dur = NULL;
	struct kind_summary *s = calloc(1, sizeof(*s));
	enum status st = STATUS_OK;
	if (!count || !at || !s) {
		st = error_set(err, STATUS_NOMEM, model_path(m), "out of memory");
		goto out;
	}
	if ((st = walk(m, first, count, NULL, NULL, err)) != STATUS_OK)
		goto out;
	uint64_t n = 0;
	for (uint32_t f = 0; f < nf; f++) {
		at[f] = n;
		n += count[f];
	}
	s->intervals = n;
	dur = malloc((n ? n : 1) * sizeof(*dur));
	if (!dur) {
		st = error_set(err, STATUS_NOMEM, model_path(m), "out of memory");
		goto out;
	}
	if ((st = walk(m, first, count, dur, at, err)) != STATUS_OK)
		goto out;
	/* at[f] is now the end of f's slice; rows per kind */
	for (uint32_t f = 0; f < nf; f++) {
		if (!count[f])
			continue;
		uint64_t *d = dur + at[f] - count[f];
		qsort(d, count[f], sizeof(*d), u64_cmp);
		struct kind_summary_kind *k = kind_of(m, s, f);
		struct kind_summary_row *rows =
			k ? realloc(k->rows, (k->n_rows + 1) * sizeof(*rows))
			  : NULL;
		if (!rows) {
			st = error_set(err, STATUS_NOMEM, model_path(m),
				       "out of memory");
			goto out;
		}
		k->rows = rows;
		struct kind_summary_row *r = &rows[k->n_rows++];
		*r = (struct kind_summary_row){
			.function = f,
			.name = model_str(m, model_functions(m)[f].name)};
		row_of(r, d, count[f]);
		k->count += r->count;
		k->total += r->total;
	}
	for (size_t i = 0; i < s->n_kinds; i++) {
		struct kind_summary_kind *k = &s->kinds[i];
		for (size_t j = 0; j < k->n_rows; j++)
			k->rows[j].percent = k->total > 0
						     ? 100 * k->rows[j].total /
							       k->total
						     : 0;
		qsort(k->rows, k->n_rows, sizeof(*k->rows), row_cmp);
	}
	qsort(s->kinds, s->n_kinds, sizeof(*s->kinds), kind_cmp);
out:
	free(count);
	free(at);
	free(dur);
	if (st != STATUS_OK) {
		kind_summary_free(s);
		return st;
	}
	*out = s;
	return STATUS_OK;
}

void kind_summary_free(struct kind_summary *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_kinds; i++)
		free(s->kinds[i].rows);
	free(s->kinds);
	free(s);
}

/* Whether `word` (a word of a kind's name) is `what`, or its plural:
 * `what` + "s", or "copy" -> "copies" (case-insensitive). */
static bool word_is(const char *word, size_t len, const char *what)
{
	size_t w = strlen(what);
	if (w == 0)
		return false;
	size_t stem = w; /* the part of `what` that must be equal */
	if (len == w + 1 && tolower((unsigned char)word[w]) == 's')
		;
	else if (len == w + 2 && tolower((unsigned char)what[w - 1]) == 'y' &&
		 strncasecmp(word + w - 1, "ies", 3) == 0)
		stem = w - 1;
	else if (len != w)
		return false;
	for (size_t i = 0; i < stem; i++)
		if (tolower((unsigned char)word[i]) !=
		    tolower((unsigned char)what[i]))
			return false;
	return true;
}

const struct kind_summary_kind *kind_summary_find(const struct kind_summary *s,
						  const char *what)
{
	if (!s || !what || !*what)
		return NULL;
	for (size_t i = 0; i < s->n_kinds; i++)
		if (strcasecmp(s->kinds[i].kind, what) == 0)
			return &s->kinds[i];
	for (size_t i = 0; i < s->n_kinds; i++) {
		const char *p = s->kinds[i].kind;
		while (*p) {
			while (*p == ' ')
				p++;
			size_t len = strcspn(p, " ");
			if (len && word_is(p, len, what))
				return &s->kinds[i];
			p += len;
		}
	}
	return NULL;
}
