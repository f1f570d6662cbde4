/* gpu_run_open: opening a GPU run: its files' connections and layouts,
 * the run from its index or from a first pass over the files (with the
 * progress of that pass; or, when the caller can show a partial model and
 * there is no index, the run's sketch, gpu_run_sketch.c), the hosts'
 * clocks, then the model (columns, lines, warnings, title, providers).
 * Part of the gpu_run library (see gpu_run.h); must not depend on curses
 * or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/gpu_run/gpu_run.h"
#include "formats/gpu_run/gpu_run_internal.h"
#include "io/sqlite_ro.h"


/* A file may change only when someone can write it: immutable=1 when we
 * cannot and there is no WAL beside it. */
static bool cannot_change(const char *path)
{
	char *wal = NULL;
	bool r = access(path, W_OK) != 0;
	if (r && asprintf(&wal, "%s-wal", path) >= 0) {
		r = access(wal, F_OK) != 0;
		free(wal);
	}
	return r;
}

enum status gpu_run_open_file(const struct gpu_run_family *fam,
			       struct gpu_run_file *f, struct error *err)
{
	enum status st = sqlite_ro_open(f->path, cannot_change(f->path),
					&f->db, err);
	if (st != STATUS_OK)
		return st;
	f->noun = fam->noun;
	f->layout = fam->layout_of(f);
	if (!f->layout)
		return error_set(err, STATUS_UNSUPPORTED, f->path,
				 "not a %s: its tables are not a layout "
				 "callscope reads",
				 fam->noun);
	return STATUS_OK;
}

/* Hand the scan's progress to the hook: at the end (`last`), else at most
 * four times a second. */
void gpu_run_report(struct gpu_run *r, bool last)
{
	if (!r->options || !r->options->progress)
		return;
	double t = clock_now();
	if (!last && t - r->last_report < 0.25)
		return;
	r->last_report = t;
	r->progress.seconds = t - r->scan_began;
	r->progress.done = last;
	r->options->progress(r->options->progress_ctx, &r->progress);
}

void gpu_run_row_seen(struct gpu_run *r)
{
	/* a shard's count is read by the thread that merges (gpu_run_scan.c) */
	uint64_t rows = __atomic_add_fetch(&r->progress.rows, 1,
					   __ATOMIC_RELAXED);
	if ((rows & 0xffff) == 0)
		gpu_run_report(r, false);
}

enum status gpu_run_new_run(const struct gpu_run_family *family,
			    const char *shown, char **paths, size_t n,
			    bool lazy, struct gpu_run **out, struct error *err)
{
	enum status st = STATUS_OK;
	struct gpu_run *r = gpu_run_blank(family, shown, n);
	*out = NULL;
	if (!r)
		return error_set(err, STATUS_NOMEM, shown, "out of memory");
	for (size_t i = 0; i < n && st == STATUS_OK; i++) {
		r->files[i].path = strdup(paths[i]);
		if (!r->files[i].path) {
			st = error_set(err, STATUS_NOMEM, shown,
				       "out of memory");
			break;
		}
		if (!lazy)
			st = gpu_run_open_file(family, &r->files[i], err);
		/* checked: opened again by its scan (gpu_run_scan.c), so that
		 * 1,000 files are not open at once */
		if (!lazy && st == STATUS_OK) {
			sqlite3_close(r->files[i].db);
			r->files[i].db = NULL;
		}
	}
	if (st != STATUS_OK) {
		gpu_run_discard(r);
		return st;
	}
	*out = r;
	return STATUS_OK;
}

/* The run of `paths` after its first pass: from its index when it has a
 * usable one, else read from the files (and the index written). */
/* The scan's fill-in hook (gpu_run.filled), for run_scanned. */
struct fill_hook {
	void (*filled)(void *ctx, struct gpu_run *r, size_t done);
	void *ctx;
};

static enum status run_scanned(const struct gpu_run_family *family,
			       const char *shown, char **paths, size_t n,
			       const struct reader_options *options,
			       enum gpu_run_kernel_names kn, bool index_only,
			       const struct fill_hook *hook,
			       struct gpu_run **out, struct error *err)
{
	*out = NULL;
	struct gpu_run *r;
	const char *index_dir = options ? options->cache_dir : NULL;
	enum status st;
	bool named = false;
	if (index_dir) {
		/* from the index: the files are opened only when needed */
		st = gpu_run_new_run(family, shown, paths, n, true, &r, err);
		if (st != STATUS_OK)
			return st;
		r->kernel_names = (uint8_t)kn;
		named = gpu_run_index_name(r, index_dir);
		if (named && gpu_run_index_load(r)) {
			*out = r;
			return STATUS_OK;
		}
		gpu_run_discard(r);
	}
	if (index_only)
		return STATUS_OK;
	st = gpu_run_new_run(family, shown, paths, n, false, &r, err);
	if (st != STATUS_OK)
		return st;
	r->kernel_names = (uint8_t)kn;
	if (named)
		named = gpu_run_index_name(r, index_dir);
	r->options = options;
	r->cancelled = options ? options->cancelled : NULL;
	r->cancel_ctx = options ? options->progress_ctx : NULL;
	r->progress.indexing = named;
	if (hook) {
		r->filled = hook->filled;
		r->filled_ctx = hook->ctx;
	}
	st = gpu_run_scan(r, err);
	r->filled = NULL;
	r->options = NULL;
	if (st != STATUS_OK) {
		gpu_run_discard(r);
		return st;
	}
	if (named)
		gpu_run_index_save(r);
	*out = r;
	return STATUS_OK;
}

/* The earliest and latest time of file `fi` as stored, over its lines;
 * false when it has none. */
static bool file_span(const struct gpu_run *r, uint32_t fi, uint64_t *first,
		      uint64_t *last)
{
	*first = UINT64_MAX;
	*last = 0;
	for (uint32_t i = 0; i < r->n_lines; i++) {
		const struct gpu_run_line *l = &r->lines[i];
		uint64_t a = l->first, b = l->last;
		if (l->file != fi)
			continue;
		if (l->kind == GPU_RUN_LINE_COUNTER && l->count && l->times) {
			a = l->times[0];
			b = l->times[l->count - 1];
		}
		if (a <= b) {
			*first = a < *first ? a : *first;
			*last = b > *last ? b : *last;
		}
	}
	return *first <= *last;
}

/* Files of several hosts: their clocks are independent.  Say so, or
 * (`align`) shift each host's times so that its first event is at the
 * run's start, and the run's time range with them. */
static void align_clocks(struct gpu_run *r, bool align)
{
	uint32_t hosts = 0;
	for (uint32_t i = 0; i < r->n_files; i++) {
		uint32_t h = r->file_host[i];
		bool seen = false;
		for (uint32_t j = 0; j < i && !seen; j++)
			seen = r->file_host[j] == h;
		hosts += h && h != MODEL_NONE && !seen;
	}
	if (hosts < 2)
		return;
	char msg[240];
	if (!align) {
		snprintf(msg, sizeof(msg),
			 "the run's files come from %u hosts whose clocks are "
			 "independent: times are shown as stored "
			 "(--align-clocks starts every host at the run's "
			 "first event)",
			 hosts);
		model_builder_add_warning(r->b, msg);
		return;
	}
	uint64_t run_first = UINT64_MAX, a, b;
	for (uint32_t i = 0; i < r->n_files; i++)
		if (file_span(r, i, &a, &b) && a < run_first)
			run_first = a;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint32_t i = 0; i < r->n_files; i++) {
		uint32_t h = r->file_host[i];
		uint64_t host_first = UINT64_MAX;
		for (uint32_t j = 0; h && h != MODEL_NONE && j < r->n_files; j++)
			if (r->file_host[j] == h && file_span(r, j, &a, &b) &&
			    a < host_first)
				host_first = a;
		if (host_first != UINT64_MAX && run_first != UINT64_MAX)
			r->file_shift[i] =
				-(int64_t)(host_first - run_first);
		if (file_span(r, i, &a, &b)) {
			a = (uint64_t)((int64_t)a + r->file_shift[i]);
			b = (uint64_t)((int64_t)b + r->file_shift[i]);
			lo = a < lo ? a : lo;
			hi = b > hi ? b : hi;
		}
	}
	if (lo <= hi) {
		r->time_min = lo;
		r->time_max = hi;
	}
	snprintf(msg, sizeof(msg),
		 "the times of %u hosts were shifted so that each host's "
		 "first event is at the run's start (--align-clocks)",
		 hosts);
	model_builder_add_warning(r->b, msg);
}

static enum status open_run(const struct gpu_run_family *family,
			    const char *shown, char **paths, size_t n,
			    const struct reader_options *options,
			    const struct fill_hook *hook, struct model **out,
			    struct error *err)
{
	*out = NULL;
	struct gpu_run *r = NULL;
	struct gpu_run_settings set = {0};
	bool later = options && options->later;
	enum status st =
		reader_options_apply(family->reader, options, &set, err);
	if (later)
		*options->later = NULL;
	/* a caller that can show a partial model: the run's index, else its
	 * sketch while the files are scanned in the background */
	if (st == STATUS_OK && later) {
		st = run_scanned(family, shown, paths, n, options,
				 set.kernel_names, true, NULL, &r, err);
		if (st == STATUS_OK && !r) {
			st = gpu_run_open_sketch(family, shown, paths, n, options,
						 &set, out, err);
			if (st != STATUS_OK || *out)
				return st;
		}
	}
	if (st == STATUS_OK && !r)
		st = run_scanned(family, shown, paths, n, options,
				 set.kernel_names, false, hook, &r, err);
	if (st != STATUS_OK)
		return st;
	if (!r)
		return error_set(err, STATUS_NOMEM, shown, "out of memory");
	return gpu_run_finish(r, n, set.align_clocks, out, err);
}

/* A partial model's inclusive Calls (r->calls_incl): its calls and
 * sketched counts summed up the tree (a parent comes before its
 * children); NaN where nothing below is known.  None in a run that has
 * no sketched count (r->partial false). */
static enum status partial_calls(struct gpu_run *r, struct error *err)
{
	for (uint32_t nd = 0; nd < r->n_nodes && !r->partial; nd++)
		r->partial = r->present[nd] & 128;
	if (!r->partial)
		return STATUS_OK;
	double *v = malloc((r->n_nodes ? r->n_nodes : 1) * sizeof(*v));
	if (!v)
		return error_set(err, STATUS_NOMEM, r->path, "out of memory");
	for (uint32_t nd = 0; nd < r->n_nodes; nd++) {
		uint8_t p = r->present[nd];
		v[nd] = (p & 2 ? r->calls[nd] : 0) +
			(p & 128 ? r->calls_in[nd] : 0);
		if (!(p & (2 | 128)))
			v[nd] = NAN;
	}
	for (uint32_t nd = r->n_nodes; nd-- > 1;) {
		uint32_t p = r->parent[nd];
		if (p == MODEL_NONE || isnan(v[nd]))
			continue;
		v[p] = isnan(v[p]) ? v[nd] : v[p] + v[nd];
	}
	free(r->calls_incl);
	r->calls_incl = v;
	return STATUS_OK;
}

enum status gpu_run_open(const struct gpu_run_family *family,
			 const char *shown, char **paths, size_t n,
			 const struct reader_options *options,
			 struct model **out, struct error *err)
{
	return open_run(family, shown, paths, n, options, NULL, out, err);
}

enum status gpu_run_open_filling(const struct gpu_run_family *family,
				 const char *shown, char **paths, size_t n,
				 const struct reader_options *options,
				 void (*filled)(void *ctx, struct gpu_run *r,
						size_t done),
				 void *filled_ctx, struct model **out,
				 struct error *err)
{
	struct fill_hook hook = {.filled = filled, .ctx = filled_ctx};
	return open_run(family, shown, paths, n, options, &hook, out, err);
}

enum status gpu_run_finish(struct gpu_run *r, size_t n, bool align,
			   struct model **out, struct error *err)
{
	const struct gpu_run_family *family = r->family;
	enum status st;
	*out = NULL;
	/* API time of threads, processes and the root: their top regions */
	for (uint32_t nd = r->n_nodes; nd-- > 1;) {
		uint32_t p = r->parent[nd];
		if (p != MODEL_NONE &&
		    (p == 0 || GPU_RUN_KIND_PLAIN(r->kind[p]) == NODE_ENTRY) &&
		    (r->present[nd] & 8)) {
			r->api_incl[p] += r->api_incl[nd];
			r->present[p] |= 8;
		}
	}
	align_clocks(r, align);
	st = partial_calls(r, err);
	if (st == STATUS_OK)
		st = gpu_run_add_columns(r, err);
	if (st == STATUS_OK)
		st = gpu_run_add_lines(r, err);
	if (st != STATUS_OK)
		goto out;
	if (r->time_min > r->time_max)
		r->time_min = r->time_max = 0;
	model_builder_set_time_range(r->b, r->time_min, r->time_max);
	if (r->skipped_rows) {
		char msg[160];
		snprintf(msg, sizeof(msg),
			 "%" PRIu64 " rows without integer start and end "
			 "times were left out",
			 r->skipped_rows);
		model_builder_add_warning(r->b, msg);
	}
	if (r->unlinked) {
		char msg[200];
		snprintf(msg, sizeof(msg),
			 "%" PRIu64 " kernels or copies have no link to the "
			 "API call that launched them: %s",
			 r->unlinked, family->unlinked_where);
		model_builder_add_warning(r->b, msg);
	}
	char title[128];
	int at = snprintf(title, sizeof(title), "%zu %s file%s", n,
			  family->noun, n == 1 ? "" : "s");
	/* a partial model says so above every view */
	if (r->partial && at > 0 && (size_t)at < sizeof(title) && r->exact_files)
		snprintf(title + at, sizeof(title) - (size_t)at,
			 " (partial: %u exact)", r->exact_files);
	else if (r->partial && at > 0 && (size_t)at < sizeof(title))
		snprintf(title + at, sizeof(title) - (size_t)at, " (partial)");
	model_builder_set_title(r->b, title, NULL);
	model_builder_set_values(r->b, &gpu_run_value_ops, r);
	model_builder_set_trace(r->b, &gpu_run_trace_ops, r);
	struct model_builder *b = r->b;
	r->n_strings = model_n_strings(model_builder_peek(b));
	r->b = NULL;
	/* the SQLite string statements are no longer needed */
	for (size_t i = 0; i < r->n_files; i++)
		gpu_run_file_finalize(&r->files[i]);
	*out = model_builder_finish(b, err);
	if (!*out)
		return STATUS_NOMEM; /* finish closed the providers */
	return STATUS_OK;
out:
	if (r->b)
		model_builder_free(r->b);
	r->b = NULL;
	gpu_run_free(r);
	return st;
}
