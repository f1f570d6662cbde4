/* otf2_index: the index pass over every location of an archive, at open
 * (otf2_read_events): the locations are shared out to worker threads (as
 * many as the machine has cores, at most OTF2_MAX_THREADS and the number of
 * locations), each reading one location at a time through its own event
 * reader (the OTF2 library is given pthread locks for that); the call tree
 * and the run's sums are shared under the run's index lock.  While it runs,
 * the reader's progress hook hears the locations and bytes done (each
 * location's event file's share by its events read), at most four times a
 * second and once at the end.  Then the MPI messages are matched
 * (otf2_links.c).  When the index is in the cache, only the
 * local definitions are read.  Must not depend on curses or on ui/. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>
#include <otf2/OTF2_Pthread_Locks.h>

#include "core/clock.h"
#include "core/array.h"
#include "formats/otf2/otf2_pass.h"
#include "formats/reader.h"

#define OTF2_MAX_THREADS 8u

struct index {
	struct otf2_run *r;
	OTF2_Reader *rd;
	const void *cb;
	bool defs;
	size_t next;    /* the next location to read (atomic) */
	uint64_t *size; /* each location's event file, bytes */
	double began, last_report;
};

struct worker {
	struct index *x;
	struct pass p;
	pthread_t thread;
	bool started;
};

/* The size of location `ref`'s event file (0 when unknown). */
static uint64_t evt_size(const char *anchor, uint64_t ref)
{
	size_t l = strlen(anchor);
	char *path = NULL;
	struct stat sb;
	uint64_t n = 0;
	if (l > 5 && strcmp(anchor + l - 5, ".otf2") == 0 &&
	    asprintf(&path, "%.*s/%llu.evt", (int)(l - 5), anchor,
		     (unsigned long long)ref) >= 0 &&
	    stat(path, &sb) == 0)
		n = (uint64_t)sb.st_size;
	free(path);
	return n;
}

/* Hand the progress to the hook (under the index lock): at the end
 * (`last`), else at most four times a second. */
static void report_locked(struct index *x, bool last)
{
	struct otf2_run *r = x->r;
	double t = clock_now();
	if (!last && t - x->last_report < 0.25)
		return;
	x->last_report = t;
	r->progress->seconds = t - x->began;
	r->progress->done = last;
	r->options->progress(r->options->progress_ctx, r->progress);
}

/* After `n` more events of p->l: its file's share of bytes. */
static void on_events(struct pass *p, uint64_t n)
{
	struct otf2_run *r = p->r;
	struct worker *w = (struct worker *)((char *)p -
					     offsetof(struct worker, p));
	struct index *x = w->x;
	const struct otf2_location *l = p->l;
	uint64_t size = x->size[l - r->locs];
	pthread_mutex_lock(&r->index_lock);
	r->progress->rows += n;
	if (l->claimed && l->events <= l->claimed)
		r->progress->bytes_done +=
			(uint64_t)((double)size * (double)n / (double)l->claimed);
	report_locked(x, false);
	pthread_mutex_unlock(&r->index_lock);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct index *x = w->x;
	struct otf2_run *r = x->r;
	for (;;) {
		size_t i = __atomic_fetch_add(&x->next, 1, __ATOMIC_RELAXED);
		if (i >= r->n_locs ||
		    __atomic_load_n(&r->failed, __ATOMIC_RELAXED) != STATUS_OK)
			break;
		w->p.l = &r->locs[i];
		w->p.cap_msg = 0;
		bool progress = r->progress && !r->from_cache;
		if (otf2_index_location(&w->p, x->rd, x->cb, x->defs,
					!r->from_cache,
					progress ? on_events : NULL) != STATUS_OK)
			break;
		if (progress) {
			pthread_mutex_lock(&r->index_lock);
			r->progress->files_done++;
			pthread_mutex_unlock(&r->index_lock);
		}
	}
	return NULL;
}

/* How many threads read the locations. */
static size_t threads_for(const struct otf2_run *r)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = cpus > 0 ? (size_t)cpus : 1;
	if (n > OTF2_MAX_THREADS)
		n = OTF2_MAX_THREADS;
	return n < r->n_locs ? n : r->n_locs;
}

/* Read every location on the worker threads (the calling one among
 * them); the first failure is the run's. */
static enum status run_workers(struct index *x)
{
	struct otf2_run *r = x->r;
	size_t n = threads_for(r);
	struct worker *w = calloc(n, sizeof(*w));
	if (!w)
		return error_set(r->err, STATUS_NOMEM, r->path, "out of memory");
	for (size_t i = 0; i < n; i++) {
		w[i].x = x;
		w[i].p = (struct pass){.r = r, .indexing = true};
	}
	for (size_t i = 1; i < n; i++)
		w[i].started = pthread_create(&w[i].thread, NULL, work,
					      &w[i]) == 0;
	work(&w[0]);
	for (size_t i = 0; i < n; i++) {
		if (w[i].started)
			pthread_join(w[i].thread, NULL);
		otf2_free_pass(&w[i].p);
	}
	free(w);
	return r->failed;
}

/* The progress's totals: the locations and their event files. */
static enum status progress_begin(struct index *x)
{
	struct otf2_run *r = x->r;
	x->size = calloc(r->n_locs, sizeof(*x->size));
	r->progress = calloc(1, sizeof(*r->progress));
	if (!x->size || !r->progress)
		return error_set(r->err, STATUS_NOMEM, r->path, "out of memory");
	r->progress->n_files = (uint32_t)r->n_locs;
	r->progress->indexing = r->cache_dir != NULL;
	r->progress->noun = "trace";
	r->progress->items = "events";
	for (size_t i = 0; i < r->n_locs; i++) {
		x->size[i] = evt_size(r->path, r->locs[i].ref);
		r->progress->bytes_total += x->size[i];
	}
	x->began = x->last_report = clock_now();
	return STATUS_OK;
}

static enum status read_all(struct index *x)
{
	struct otf2_run *r = x->r;
	bool progress = r->options && r->options->progress && !r->from_cache;
	enum status st = progress ? progress_begin(x) : STATUS_OK;
	if (st == STATUS_OK &&
	    OTF2_Pthread_Reader_SetLockingCallbacks(x->rd, NULL) !=
		    OTF2_SUCCESS)
		st = error_set(r->err, STATUS_NOMEM, r->path,
			       "cannot set up the OTF2 reader's locks");
	if (st == STATUS_OK)
		st = run_workers(x);
	if (st == STATUS_OK && !r->from_cache)
		st = otf2_tree_canonical(r);
	if (st == STATUS_OK && !r->from_cache)
		st = otf2_links_match(r);
	if (progress && r->progress) {
		pthread_mutex_lock(&r->index_lock);
		report_locked(x, true);
		pthread_mutex_unlock(&r->index_lock);
	}
	FREE_AND_NULL(r->progress);
	free(x->size);
	return st;
}

enum status otf2_read_events(struct otf2_run *r, void *reader)
{
	OTF2_Reader *rd = reader;
	for (size_t i = 0; i < r->n_locs; i++)
		if (OTF2_Reader_SelectLocation(rd, r->locs[i].ref) !=
		    OTF2_SUCCESS)
			return error_set(r->err, STATUS_CORRUPT, r->path,
					 "cannot select location %llu",
					 (unsigned long long)r->locs[i].ref);
	r->time_min = UINT64_MAX;
	r->time_max = 0;
	if (r->n_locs == 0)
		return STATUS_OK;
	r->from_cache = r->cache_dir && otf2_cache_load(r, r->cache_dir);
	bool defs = OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS;
	if (OTF2_Reader_OpenEvtFiles(rd) != OTF2_SUCCESS) {
		if (defs)
			OTF2_Reader_CloseDefFiles(rd);
		return error_set(r->err, STATUS_CORRUPT, r->path,
				 "cannot open the event files");
	}
	r->callbacks = otf2_event_callbacks();
	struct index x = {.r = r, .rd = rd, .cb = r->callbacks, .defs = defs};
	enum status st = r->callbacks ? read_all(&x)
				      : error_set(r->err, STATUS_NOMEM, r->path,
						  "out of memory");
	if (defs)
		OTF2_Reader_CloseDefFiles(rd);
	if (st == STATUS_OK && !r->from_cache && r->cache_dir)
		otf2_cache_save(r, r->cache_dir);
	return st;
}
