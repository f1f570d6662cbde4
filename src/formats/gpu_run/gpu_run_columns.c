/* gpu_run_columns: the statistics and metric columns of a GPU run's
 * model -- GPU time, calls and bytes stored where they happen (the engine
 * derives the inclusive sums), API time inclusive and exclusive, the
 * per-interval summaries (mean, min, max, standard deviation, bandwidth)
 * that the flat view combines per name, the marks per context (runs with
 * marks only), and one hidden column pair per
 * hardware counter.  Depends on the run (gpu_run.h) and the model only. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/gpu_run/gpu_run.h"
#include "formats/gpu_run/gpu_run_internal.h"

static enum status add_stat(struct model_builder *b, const char *metric,
			    uint32_t id, bool excl_only, uint32_t *out,
			    struct error *err, const char *path)
{
	struct model_stat s = {
		.metric = model_builder_intern(b, metric, strlen(metric)),
		.scope = model_builder_intern(b, excl_only ? "function"
							   : "execution",
					      excl_only ? 8 : 9),
		.formula = model_builder_intern(b, "$$", 2),
		.combine = id == STAT_DUR_MIN	? COMBINE_MIN
			   : id == STAT_DUR_MAX ? COMBINE_MAX
						: COMBINE_SUM,
		.stat_id = id,
		.prop_id = id,
		.flags = excl_only ? STAT_EXCLUSIVE_ONLY : 0,
	};
	*out = model_builder_add_stat(b, &s);
	if (*out == MODEL_NONE)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	return STATUS_OK;
}

/* The inclusive statistic the engine derives from exclusive `stat`
 * (stat_id `id`), with per-profile values (gpu_run_per_profile's
 * GPU_RUN_PROP_INCL); MODEL_NONE when out of memory. */
static uint32_t add_incl(struct model_builder *b, uint32_t stat, uint32_t id)
{
	uint32_t incl = model_builder_add_inclusive_stat(b, stat);
	if (incl != MODEL_NONE &&
	    !model_builder_set_stat_prop_id(b, incl, GPU_RUN_PROP_INCL | id))
		return MODEL_NONE;
	return incl;
}

static enum status add_column(struct model_builder *b, const char *name,
			      uint32_t stat, enum column_kind kind,
			      const char *format, const char *desc,
			      bool visible, const char *path,
			      struct error *err)
{
	struct model_leaf_column c = {
		.name = name,
		.variant = "Sum",
		.description = desc,
		.format = format,
		.stat = stat,
		.kind = (uint8_t)kind,
		.render = RENDER_NUMBER | RENDER_PERCENT,
		.visible = visible,
	};
	if (model_builder_add_leaf_column(b, &c) == MODEL_NONE)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	return STATUS_OK;
}

/* A column over statistics that the aggregated views combine
 * (combine_leaves): `text` is a formula whose $N is model statistic N - 1;
 * exclusive, hidden by default. */
static enum status add_combined_column(struct gpu_run *r, const char *name,
				       const char *variant, const char *text,
				       const char *format, const char *desc,
				       struct error *err)
{
	struct formula *f = NULL;
	enum status st = formula_parse(text, &f, err);
	if (st != STATUS_OK)
		return st;
	struct model_column c = {
		.name = strdup(name),
		.variant = strdup(variant),
		.description = strdup(desc),
		.format = strdup(format),
		.kind = COLUMN_EXCLUSIVE,
		.render = RENDER_NUMBER,
		.visible = false,
		.pair = MODEL_NONE,
		.parent = MODEL_NONE,
		.expr = f,
		.combine_leaves = true,
	};
	if (!c.name || !c.variant || !c.format || !c.description ||
	    model_builder_add_column(r->b, &c) == MODEL_NONE) {
		model_column_release(&c);
		return error_set(err, STATUS_NOMEM, r->path, "out of memory");
	}
	return STATUS_OK;
}

/* Per-interval summaries of a row: the mean, minimum, maximum and sample
 * standard deviation (n - 1, as Nsight Systems' reports) of the
 * durations of the intervals it stands for, and the bandwidth of copies
 * of known size.  The flat view combines the statistics over a kernel's
 * or call's contexts, then evaluates these (model.h combine_leaves). */
static enum status add_summary_columns(struct gpu_run *r, const uint32_t *s,
				       struct error *err)
{
	char text[N_GPU_RUN_STATS][160];
	static const char *const desc =
		"over the intervals of the context: kernels, copies, API "
		"calls, ranges";
	uint32_t n = s[STAT_DUR_N] + 1, sum = s[STAT_DUR_SUM] + 1,
		 sq = s[STAT_DUR_SQ] + 1;
	snprintf(text[0], sizeof(text[0]), "$%u / $%u", sum, n);
	snprintf(text[1], sizeof(text[1]), "$%u", s[STAT_DUR_MIN] + 1);
	snprintf(text[2], sizeof(text[2]), "$%u", s[STAT_DUR_MAX] + 1);
	snprintf(text[3], sizeof(text[3]),
		 "sqrt(max(0, ($%u - $%u * $%u / $%u) / ($%u - 1)))", sq, sum,
		 sum, n, n);
	snprintf(text[4], sizeof(text[4]), "$%u / $%u", s[STAT_BYTES] + 1,
		 s[STAT_SIZED_NS] + 1);
	static const char *const variant[4] = {"Mean", "Min", "Max",
					       "Stddev"};
	enum status st = STATUS_OK;
	for (int i = 0; i < 4 && st == STATUS_OK; i++)
		st = add_combined_column(r, "Duration (ns)", variant[i],
					 text[i], "%.3e", desc, err);
	if (st == STATUS_OK)
		st = add_combined_column(
			r, "Bandwidth (GB/s)", "", text[4], "%.3f",
			"bytes per ns of the copies whose size is known", err);
	return st;
}

/* The marks column pair (inclusive, exclusive: the engine derives the
 * inclusive sums), in runs that have marks only. */
static enum status add_marks_columns(struct gpu_run *r, struct error *err)
{
	bool any = false;
	for (uint32_t n = 0; n < r->n_nodes && !any; n++)
		any = r->present[n] & 64;
	if (!any)
		return STATUS_OK;
	uint32_t s, incl;
	enum status st = add_stat(r->b, "Marks", STAT_MARKS, true, &s, err,
				  r->path);
	if (st != STATUS_OK)
		return st;
	incl = add_incl(r->b, s, STAT_MARKS);
	if (incl == MODEL_NONE)
		return error_set(err, STATUS_NOMEM, r->path, "out of memory");
	static const char *const desc =
		"instants (NVTX and roctx marks) in the context: on their "
		"thread, in the innermost range or call holding their time";
	st = add_column(r->b, "Marks", incl, COLUMN_INCLUSIVE, "%.0f", desc,
			true, r->path, err);
	if (st == STATUS_OK)
		st = add_column(r->b, "Marks", s, COLUMN_EXCLUSIVE, "%.0f",
				desc, true, r->path, err);
	return st;
}

enum status gpu_run_add_columns(struct gpu_run *r, struct error *err)
{
	struct model_builder *b = r->b;
	uint32_t s[N_GPU_RUN_STATS], incl;
	enum status st = STATUS_OK;
	static const char *const metric[N_GPU_RUN_STATS] = {
		"GPU time (ns)",      "Calls",
		"Bytes",	      "API time (ns)",
		"API time (ns)",      "Intervals",
		"Duration (ns)",      "Duration min (ns)",
		"Duration max (ns)",  "Duration squared (ns^2)",
		"Sized copy time (ns)"};
	for (int i = 0; i < N_GPU_RUN_STATS && st == STATUS_OK; i++)
		st = add_stat(b, metric[i], (uint32_t)i,
			      i != STAT_API_INCL, &s[i], err, r->path);
	if (st != STATUS_OK)
		return st;
	/* GPU time, calls and bytes are stored where they happen (kernels,
	 * copies, calls): the engine derives the inclusive values */
	static const struct {
		int stat;
		const char *desc;
		bool visible;
	} derived[] = {
		{STAT_GPU, "kernel and copy time on the GPU", true},
		{STAT_CALLS, "API calls, ranges, dispatches and copies", true},
		{STAT_BYTES, "bytes copied (where the size is known)", true},
	};
	for (size_t i = 0; i < 3 && st == STATUS_OK; i++) {
		int k = derived[i].stat;
		/* a partial model's inclusive Calls: stored (a sketched count
		 * lies under its process, nowhere exclusive) */
		if (k == STAT_CALLS && r->partial)
			st = add_stat(b, "Calls", STAT_CALLS_INCL, false, &incl,
				      err, r->path);
		else
			incl = add_incl(b, s[k], (uint32_t)k);
		if (st != STATUS_OK)
			return st;
		if (incl == MODEL_NONE)
			return error_set(err, STATUS_NOMEM, r->path,
					 "out of memory");
		const char *fmt = k == STAT_GPU ? "%.3e" : "%.0f";
		st = add_column(b, metric[k], incl, COLUMN_INCLUSIVE, fmt,
				derived[i].desc, derived[i].visible, r->path,
				err);
		if (st == STATUS_OK)
			st = add_column(b, metric[k], s[k], COLUMN_EXCLUSIVE,
					fmt, derived[i].desc,
					derived[i].visible, r->path, err);
	}
	if (st == STATUS_OK)
		st = add_column(b, "API time (ns)", s[STAT_API_INCL],
				COLUMN_INCLUSIVE, "%.3e",
				"host time in ranges and API calls", true,
				r->path, err);
	if (st == STATUS_OK)
		st = add_column(b, "API time (ns)", s[STAT_API_EXCL],
				COLUMN_EXCLUSIVE, "%.3e",
				"host time in ranges and API calls", true,
				r->path, err);
	if (st == STATUS_OK)
		st = add_summary_columns(r, s, err);
	if (st == STATUS_OK)
		st = add_marks_columns(r, err);
	/* hardware counters: summed over the dispatches, hidden by default
	 * (there may be dozens; the columns pane shows them) */
	for (uint32_t k = 0; k < r->n_counters && st == STATUS_OK; k++) {
		const char *name = model_str(model_builder_peek(b),
					     r->counter_name[k]);
		char *copy = strdup(name);
		uint32_t stat;
		st = copy ? add_stat(b, copy, GPU_RUN_COUNTER_STAT + k, true,
				     &stat, err, r->path)
			  : error_set(err, STATUS_NOMEM, r->path,
				      "out of memory");
		incl = st == STATUS_OK ? add_incl(b, stat, GPU_RUN_COUNTER_STAT + k)
				       : MODEL_NONE;
		if (st == STATUS_OK && incl == MODEL_NONE)
			st = error_set(err, STATUS_NOMEM, r->path,
				       "out of memory");
		static const char *const desc =
			"hardware counter, summed over the dispatches";
		if (st == STATUS_OK)
			st = add_column(b, copy, incl, COLUMN_INCLUSIVE, "%.4g",
					desc, false, r->path, err);
		if (st == STATUS_OK)
			st = add_column(b, copy, stat, COLUMN_EXCLUSIVE, "%.4g",
					desc, false, r->path, err);
		free(copy);
	}
	return st;
}

