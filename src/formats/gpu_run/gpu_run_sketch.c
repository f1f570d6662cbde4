/* gpu_run_sketch: the partial model of a GPU run opened for the first
 * time, shown while the run is scanned.  A full first pass over a run of
 * millions of rows takes seconds (the 10 M-dispatch run: 5-9 s); each
 * file's sketch (gpu_run_layout.sketch: its processes, threads, kernel
 * names and the count of its dispatches, from small queries on small
 * tables and a b-tree count) takes milliseconds.  Each file's sketch is
 * a run of its own, replayed into the sketch of the run (gpu_run_replay)
 * and made a model as a scanned run is (gpu_run_finish); the whole
 * open -- gpu_run_open again, without `later` -- runs in the background
 * (formats/open_later.h) on copies of the paths and options, and its
 * model is a distinct object the caller swaps in when it is done.
 * Meanwhile, as the scan merges files in file order, each fill-in
 * builds a partial model of the files merged so far (exact) and the
 * others' sketches, offered to the caller (open_later_offer).  Part
 * of the gpu_run library (see gpu_run.h); must not depend on curses or
 * on ui/. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/gpu_run/gpu_run.h"
#include "formats/gpu_run/gpu_run_internal.h"
#include "formats/open_later.h"

/* What the background open needs, copied: the caller's paths and
 * options are gone once the partial model is returned. */
struct later_ctx {
	const struct gpu_run_family *family;
	char *shown;
	char **paths;
	size_t n;
	struct reader_option *list; /* pointing into owned */
	char **owned;               /* 3 strings per option */
	size_t n_list;
	char *cache_dir;
	/* file i's sketch: a run of its own, read only once the first
	 * partial model is made (by the job's thread) */
	struct gpu_run **sk;
	uint8_t kernel_names;
	bool align;
	void *job; /* for open_later_offer */
};

static void later_ctx_free(void *arg)
{
	struct later_ctx *c = arg;
	if (!c)
		return;
	for (size_t i = 0; c->paths && i < c->n; i++)
		free(c->paths[i]);
	free(c->paths);
	for (size_t i = 0; c->owned && i < 3 * c->n_list; i++)
		free(c->owned[i]);
	free(c->owned);
	free(c->list);
	for (size_t i = 0; c->sk && i < c->n; i++)
		gpu_run_discard(c->sk[i]);
	free(c->sk);
	free(c->shown);
	free(c->cache_dir);
	free(c);
}

static char *dup_or_null(const char *s, bool *ok)
{
	char *d = s ? strdup(s) : NULL;
	*ok = *ok && (!s || d);
	return d;
}

static struct later_ctx *later_ctx_new(const struct gpu_run_family *family,
				       const char *shown, char **paths,
				       size_t n,
				       const struct reader_options *o)
{
	struct later_ctx *c = calloc(1, sizeof(*c));
	bool ok = c != NULL;
	if (!ok)
		return NULL;
	c->family = family;
	c->n = n;
	c->shown = dup_or_null(shown, &ok);
	c->cache_dir = dup_or_null(o->cache_dir, &ok);
	c->paths = calloc(n ? n : 1, sizeof(*c->paths));
	c->sk = calloc(n ? n : 1, sizeof(*c->sk));
	ok = ok && c->paths && c->sk;
	for (size_t i = 0; ok && i < n; i++)
		c->paths[i] = dup_or_null(paths[i], &ok);
	if (ok && o->n) {
		c->list = calloc(o->n, sizeof(*c->list));
		c->owned = calloc(3 * o->n, sizeof(*c->owned));
		ok = c->list && c->owned;
		c->n_list = ok ? o->n : 0;
	}
	for (size_t i = 0; ok && i < c->n_list; i++) {
		char **w = &c->owned[3 * i];
		c->list[i].reader = w[0] = dup_or_null(o->list[i].reader, &ok);
		c->list[i].key = w[1] = dup_or_null(o->list[i].key, &ok);
		c->list[i].value = w[2] = dup_or_null(o->list[i].value, &ok);
	}
	if (!ok) {
		later_ctx_free(c);
		return NULL;
	}
	return c;
}

/* The scan's fill-in (gpu_run.filled): files 0..done-1 merged, a
 * partial model of them (exact: their nodes and values as the scan
 * made them) and of the other files' sketches, offered to the viewer.
 * Costs a model build of the run's nodes (no lines, no files read); a
 * failure only skips the offer. */
static void fill(void *arg, struct gpu_run *exact, size_t done)
{
	struct later_ctx *c = arg;
	struct gpu_run *m = NULL;
	struct model *model = NULL;
	struct error err = {0};
	if (done >= c->n || gpu_run_new_run(c->family, c->shown, c->paths, c->n,
					    true, &m, &err) != STATUS_OK) {
		error_clear(&err);
		return; /* the complete model comes next */
	}
	m->kernel_names = c->kernel_names;
	m->exact_files = (uint32_t)done;
	bool ok = gpu_run_replay(m, exact, 0, done);
	for (size_t i = done; ok && i < c->n; i++)
		ok = gpu_run_replay(m, c->sk[i], i, 1);
	if (!ok)
		gpu_run_discard(m);
	else if (gpu_run_finish(m, c->n, c->align, &model, &err) == STATUS_OK)
		open_later_offer(c->job, model, (unsigned)done);
	error_clear(&err);
}

/* The job's work: the whole open, reporting and cancelled through the
 * job's hooks, offering partial models as files are merged (fill). */
static enum status later_work(void *arg, const struct reader_options *jo,
			      struct model **out, struct error *err)
{
	struct later_ctx *c = arg;
	c->job = jo->progress_ctx;
	struct reader_options o = {
		.list = c->list,
		.n = c->n_list,
		.cache_dir = c->cache_dir,
		.progress = jo->progress,
		.progress_ctx = jo->progress_ctx,
		.cancelled = jo->cancelled,
	};
	return gpu_run_open_filling(c->family, c->shown, c->paths, c->n, &o,
				    fill, c, out, err);
}

/* File i's sketch once replayed: from now on only read by
 * gpu_run_replay (its nodes, values, strings, profiles), so its table
 * sets, lookup maps and spare node capacity go. */
static void shard_compact(struct gpu_run *s)
{
	struct gpu_run_file *f = &s->files[0];
	for (size_t k = 0; k < f->n_sets; k++)
		gpu_run_set_release(&f->sets[k]);
	free(f->sets);
	f->sets = NULL;
	f->n_sets = 0;
	gpu_run_map_free(&s->node_keys);
	gpu_run_map_free(&s->texts);
	gpu_run_map_free(&s->functions);
	gpu_run_map_free(&s->line_keys);
	gpu_run_nodes_fit(s);
}

/* Sketch file `i` of `r` into a run of its own, of that one file (*out:
 * kept for the fill-ins, then replayed into `r`; a run of every file
 * each took 135 KB a file with 1,000 files): its connection opened, the
 * layout's sketch, the connection closed (its string statements
 * first). */
static enum status sketch_file(struct gpu_run *r, size_t i,
			       struct gpu_run **out, struct error *err)
{
	struct gpu_run *s = gpu_run_blank(r->family, r->path, 1);
	struct gpu_run_file *f = s ? &s->files[0] : NULL;
	*out = s;
	if (!s || !(f->path = strdup(r->files[i].path)))
		return error_set(err, STATUS_NOMEM, r->path, "out of memory");
	s->kernel_names = r->kernel_names;
	enum status st = gpu_run_open_file(r->family, f, err);
	if (st == STATUS_OK)
		st = f->layout->sketch(s, 0, err);
	gpu_run_file_close(f);
	if (st == STATUS_OK && !gpu_run_replay(r, s, i, 1))
		st = error_set(err, STATUS_NOMEM, r->path, "out of memory");
	shard_compact(s);
	return st;
}

/* A run smaller than this is opened whole: its scan takes well under a
 * second (the 10 M-dispatch run scans about 400 MB a second a core). */
#define SKETCH_MIN_BYTES (128u << 20)

/* Whether the run of `paths` is worth a sketch: big enough, or the scan
 * slowed for a test (CALLSCOPE_TEST_SCAN_DELAY_MS, gpu_run_scan.c). */
static bool worth_sketching(char **paths, size_t n)
{
	const char *delay = getenv("CALLSCOPE_TEST_SCAN_DELAY_MS");
	if (delay && *delay)
		return true;
	uint64_t bytes = 0;
	struct stat sb;
	for (size_t i = 0; i < n && bytes < SKETCH_MIN_BYTES; i++)
		if (stat(paths[i], &sb) == 0)
			bytes += (uint64_t)sb.st_size;
	return bytes >= SKETCH_MIN_BYTES;
}

enum status gpu_run_open_sketch(const struct gpu_run_family *family,
				const char *shown, char **paths, size_t n,
				const struct reader_options *options,
				const struct gpu_run_settings *set,
				struct model **out, struct error *err)
{
	struct gpu_run *r = NULL;
	*out = NULL;
	if (!worth_sketching(paths, n))
		return STATUS_OK;
	enum status st = gpu_run_new_run(family, shown, paths, n, false, &r,
					 err);
	if (st != STATUS_OK)
		return st;
	bool all = true;
	for (size_t i = 0; i < n; i++)
		all = all && r->files[i].layout && r->files[i].layout->sketch;
	if (!all) {
		gpu_run_discard(r);
		return STATUS_OK;
	}
	r->kernel_names = (uint8_t)set->kernel_names;
	struct later_ctx *c = later_ctx_new(family, shown, paths, n, options);
	if (!c)
		st = error_set(err, STATUS_NOMEM, shown, "out of memory");
	for (size_t i = 0; i < n && st == STATUS_OK; i++)
		st = sketch_file(r, i, &c->sk[i], err);
	if (c) {
		c->kernel_names = r->kernel_names;
		c->align = set->align_clocks;
	}
	if (st != STATUS_OK)
		later_ctx_free(c);
	if (st == STATUS_OK) {
		st = open_later_start(later_work, c, later_ctx_free,
				      options->later, err);
		if (st != STATUS_OK)
			later_ctx_free(c);
	}
	if (st != STATUS_OK) {
		gpu_run_discard(r);
		return st;
	}
	st = gpu_run_finish(r, n, set->align_clocks, out, err);
	if (st != STATUS_OK) {
		open_later_free(*options->later);
		*options->later = NULL;
	}
	return st;
}
