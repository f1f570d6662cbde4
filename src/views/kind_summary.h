/* kind_summary: an `nsys stats`-like summary of a trace's intervals per
 * kind (GPU kernels, memory copies, API calls, NVTX/roctx ranges...):
 * for each name of a kind, the instances, total, mean, median, minimum,
 * maximum and sample standard deviation of the durations, and its percent
 * of the kind's time; rows sorted by total.  The kind of an interval is
 * the file of its context's function and its group the function's module,
 * as the GPU readers set them ("GPU" / "kernels", "host" / "CUDA API");
 * contexts without a function are left out.  Exact: every duration is
 * read (the median needs them all), each once, from the model's interval
 * tracks (model_interval, after model_trace_prepare) -- GPU work on the
 * lines of the grouping that is not shown first (GPU_RUN_LINE_ALT: the
 * same work again) is not counted twice.  Used by `callscope stats` and
 * the viewer's summary pane.  Depends on model/ only. */
#ifndef CALLSCOPE_KIND_SUMMARY_H
#define CALLSCOPE_KIND_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"

struct kind_summary_row {
	uint32_t function; /* model function */
	const char *name;  /* the function's name, as stored (unsanitized) */
	uint64_t count;
	/* nanoseconds */
	double total, mean, median, min, max;
	double stddev;  /* sample (n - 1), 0 for one instance */
	double percent; /* of the kind's total */
};

struct kind_summary_kind {
	const char *group; /* "GPU", "host" (the module; "" when none) */
	const char *kind;  /* "kernels", "CUDA API" (the file) */
	uint64_t count;
	double total;
	struct kind_summary_row *rows; /* by total, descending */
	size_t n_rows;
};

struct kind_summary {
	/* GPU kinds first, then the others; each by total, descending */
	struct kind_summary_kind *kinds;
	size_t n_kinds;
	uint64_t intervals; /* counted (every kind) */
};

/* The summary of every interval track of `m` (reads them all:
 * model_trace_prepare).  STATUS_UNSUPPORTED when the model has no interval
 * tracks; a failed read's status otherwise.  Free with
 * kind_summary_free. */
enum status kind_summary_build(const struct model *m,
			       struct kind_summary **out, struct error *err);
void kind_summary_free(struct kind_summary *s);

/* The kind whose name (file) or short name matches `what`: "kernel"
 * matches "kernels", "api" "CUDA API" and "API calls", "copy" "memory
 * copies" (case-insensitive; a kind's name, or a word of it without a
 * final 's').  NULL when none. */
const struct kind_summary_kind *kind_summary_find(const struct kind_summary *s,
						  const char *what);


#endif
