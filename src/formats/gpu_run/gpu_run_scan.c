/* gpu_run_scan: the first pass over a run's files, side by side.
 *
 * A run is one SQLite file per process (16 on a node, thousands on a
 * machine), each read by its own connection.  The first pass over a file
 * only adds to what the run holds (nodes found or made, values summed,
 * lines counted), so each file is read into a run of its own -- a shard:
 * its own builder, strings, nodes and maps -- by a pool of threads (one
 * per core, at most 16; $CALLSCOPE_SCAN_THREADS for tests; none when
 * SQLite was built without threads or no thread starts), at most two per
 * thread ahead of the merge, and the shards are merged into the run in
 * file order as they finish.  Merging
 * replays a shard's nodes, profiles and lines through the same functions
 * a pass file after file uses (gpu_run_child, gpu_run_line...), in the
 * shard's order, so node ids, functions, profiles and lines come out as
 * that pass makes them; values are sums (integers in doubles: exact), the
 * minimum and maximum combine.  The file's table sets, whose maps hold
 * the shard's handles, are moved into the run with their values renamed.
 * A failed file stops the pool; the first failure in file order is the
 * one reported, as without threads.  A file's connection is open only
 * while the file is read: opened for its scan, closed once merged (run_new
 * checked every file and closed it), so that a run of thousands of files
 * holds neither their schemas and caches nor their descriptors.  A scan
 * run in the background (gpu_run_sketch.c) can be cancelled: asked
 * before each file and, through SQLite's progress handler, every few
 * thousand steps of its statements, it stops with "cancelled"; after
 * each file merged it hands the run so far to the partial model's
 * fill-in (gpu_run.filled), which copies what it needs (gpu_run_replay,
 * which merges without taking anything from the run it reads). */
#include "config.h"

#include "formats/gpu_run/gpu_run.h"
#include "formats/gpu_run/gpu_run_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- merging a shard ------------------------------------------------------- */

/* Rename the values of map `m` through `to` (n entries); false when a
 * value has no new name. */
static bool rename_map(struct gpu_run_map *m, const uint32_t *to, uint32_t n)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->slot[i].used) {
			uint32_t *v = &m->slot[i].val;
			if (*v >= n || to[*v] == MODEL_NONE)
				return false;
			*v = to[*v];
		}
	return true;
}

static void merge_values(struct gpu_run *r, uint32_t to,
			 const struct gpu_run *s, uint32_t from)
{
	uint8_t had = r->present[to], got = s->present[from];
	r->gpu[to] += s->gpu[from];
	r->calls[to] += s->calls[from];
	r->bytes[to] += s->bytes[from];
	r->api_incl[to] += s->api_incl[from];
	r->api_excl[to] += s->api_excl[from];
	r->dur_n[to] += s->dur_n[from];
	r->dur_sum[to] += s->dur_sum[from];
	r->dur_sq[to] += s->dur_sq[from];
	r->sized_ns[to] += s->sized_ns[from];
	r->marks[to] += s->marks[from];
	r->calls_in[to] += s->calls_in[from];
	if (got & 16) {
		if (!(had & 16) || s->dur_min[from] < r->dur_min[to])
			r->dur_min[to] = s->dur_min[from];
		if (!(had & 16) || s->dur_max[from] > r->dur_max[to])
			r->dur_max[to] = s->dur_max[from];
	}
	r->present[to] = had | got;
}

/* The shard's string, profile and node handles renamed into the run's. */
struct renames {
	const struct model *sm; /* the shard's model so far */
	uint32_t *str, *prof, *node;
	/* strings renamed when first needed (0: not yet), not all in the
	 * shard's order: a replay, whose run's string order is its own */
	bool lazy;
};

/* String `h` of the shard renamed into the run's. */
static uint32_t str_of(struct gpu_run *r, struct renames *rn, uint32_t h)
{
	if (rn->lazy && h && !rn->str[h])
		rn->str[h] = gpu_run_intern(r, model_str(rn->sm, h));
	return rn->str[h];
}

/* The shard's strings (in its order, unless lazy; handle 0 is "" in
 * both) and profiles into the run. */
static bool merge_strings(struct gpu_run *r, struct renames *rn)
{
	const struct model *sm = rn->sm;
	for (uint32_t h = 1; !rn->lazy && h < model_n_strings(sm); h++)
		if ((rn->str[h] = gpu_run_intern(r, model_str(sm, h))) ==
		    MODEL_NONE)
			return false;
	for (uint32_t p = 0; p < model_n_profiles(sm); p++) {
		const struct model_profile *pr = &model_profiles(sm)[p];
		struct model_id ids[8];
		uint32_t n_ids = pr->n_ids < 8 ? pr->n_ids : 8;
		for (uint32_t k = 0; k < n_ids; k++) {
			ids[k] = model_ids(sm)[pr->first_id + k];
			ids[k].kind_name = str_of(r, rn, ids[k].kind_name);
			ids[k].name = ids[k].name ? str_of(r, rn, ids[k].name) : 0;
		}
		const struct model *rm = model_builder_peek(r->b);
		rn->prof[p] = model_builder_add_profile(
			r->b, false, ids, n_ids,
			model_str(rm, str_of(r, rn, pr->label)));
		if (rn->prof[p] == MODEL_NONE)
			return false;
	}
	return true;
}

/* The shard's nodes (a parent always comes before its children) with
 * their values, counters (by name) and GPU time per queue. */
static bool merge_nodes(struct gpu_run *r, const struct gpu_run *s,
			struct renames *rn)
{
	uint32_t *node = rn->node;
	for (uint32_t i = 1; i < s->n_nodes; i++) {
		uint32_t to = gpu_run_child(r, node[s->parent[i]], s->kind[i],
					    str_of(r, rn, s->name[i]));
		if (to == MODEL_NONE)
			return false;
		node[i] = to;
		/* as a pass file after file: a thread's profile is the one its
		 * latest file gave it (the readers set it each time they meet
		 * the thread); other contexts keep what they had, and new
		 * ones inherited it from their parent */
		if (s->profile[i] != MODEL_NONE &&
		    (r->profile[to] == MODEL_NONE ||
		     GPU_RUN_KIND_PLAIN(s->kind[i]) == NODE_ENTRY))
			r->profile[to] = rn->prof[s->profile[i]];
		merge_values(r, to, s, i);
	}
	for (uint32_t k = 0; k < s->n_counters; k++) {
		uint32_t to = gpu_run_counter(
			r, model_str(rn->sm, s->counter_name[k]));
		if (to == MODEL_NONE)
			return false;
		for (uint32_t i = 1; i < s->n_nodes; i++)
			gpu_run_add_counter(r, node[i], to, s->counter[k][i]);
	}
	const struct gpu_run_map *q = &s->queue_split;
	for (size_t i = 0; i < q->cap; i++)
		if (q->slot[i].used) {
			uint32_t n = (uint32_t)(q->slot[i].key >> 32),
				 p = (uint32_t)q->slot[i].key;
			uint32_t slot = q->slot[i].val;
			if (n < s->n_nodes && p < model_n_profiles(rn->sm) &&
			    slot < s->n_split)
				gpu_run_split_add(r, node[n], rn->prof[p],
						  s->split_gpu[slot],
						  s->split_calls[slot]);
		}
	return true;
}

/* File `fi`'s table sets moved into the run, their maps renamed. */
static bool merge_sets(struct gpu_run *r, struct gpu_run *s, uint32_t fi,
		       const struct renames *rn)
{
	struct gpu_run_file *f = &r->files[fi], *sf = &s->files[fi];
	uint32_t n_str = model_n_strings(rn->sm), n_prof = model_n_profiles(rn->sm);
	for (size_t k = 0; k < sf->n_sets; k++) {
		struct gpu_run_set *set = &sf->sets[k];
		if (!rename_map(&set->strings, rn->str, n_str) ||
		    !rename_map(&set->kernels, rn->str, n_str) ||
		    !rename_map(&set->threads, rn->node, s->n_nodes) ||
		    !rename_map(&set->procs, rn->node, s->n_nodes) ||
		    !rename_map(&set->thread_profiles, rn->prof, n_prof))
			return false;
	}
	f->sets = sf->sets;
	f->n_sets = sf->n_sets;
	sf->sets = NULL;
	sf->n_sets = 0;
	return true;
}

/* The shard's lines into the run's (found or made, counts summed). */
static bool merge_lines(struct gpu_run *r, struct gpu_run *s,
			const struct renames *rn)
{
	for (uint32_t i = 0; i < s->n_lines; i++) {
		struct gpu_run_line *l = &s->lines[i];
		const struct model *rm = model_builder_peek(r->b);
		uint32_t to = gpu_run_line(
			r, l->file, l->set, l->kind, l->a, l->b,
			model_str(rm, rn->str[l->label]),
			l->profile == MODEL_NONE ? MODEL_NONE
						 : rn->prof[l->profile]);
		if (to == MODEL_NONE)
			return false;
		struct gpu_run_line *t = &r->lines[to];
		t->count += l->count;
		t->n_inst += l->n_inst;
		t->group = l->group;
		if (l->first < t->first)
			t->first = l->first;
		if (l->last > t->last)
			t->last = l->last;
		if (l->unit)
			t->unit = rn->str[l->unit];
		if (!t->times && l->times) {
			t->times = l->times;
			t->values = l->values;
			l->times = NULL;
			l->values = NULL;
		}
	}
	return true;
}

/* The renames of shard `s` into `r` started (*rn: its tables, the
 * shard's strings, profiles and nodes merged); renames_free after,
 * whatever it returns. */
static bool renames_start(struct gpu_run *r, const struct gpu_run *s,
			  bool lazy, struct renames *rn)
{
	const struct model *sm = model_builder_peek(s->b);
	*rn = (struct renames){
		.sm = sm,
		.str = calloc(model_n_strings(sm) + 1, sizeof(*rn->str)),
		.prof = calloc(model_n_profiles(sm) + 1, sizeof(*rn->prof)),
		.node = calloc(s->n_nodes + 1, sizeof(*rn->node)),
		.lazy = lazy,
	};
	return rn->str && rn->prof && rn->node && merge_strings(r, rn) &&
	       merge_nodes(r, s, rn);
}

static void renames_free(struct renames *rn)
{
	free(rn->str);
	free(rn->prof);
	free(rn->node);
}

/* A shard file's host name (a string handle, MODEL_NONE for none) in
 * the run's strings (0 when out of the shard's). */
static uint32_t host_of(struct gpu_run *r, struct renames *rn, uint32_t host)
{
	if (host == MODEL_NONE)
		return MODEL_NONE;
	return host < model_n_strings(rn->sm) ? str_of(r, rn, host) : 0;
}

/* The run's time range widened to the shard's. */
static void merge_times(struct gpu_run *r, const struct gpu_run *s)
{
	if (s->time_min < r->time_min)
		r->time_min = s->time_min;
	if (s->time_max > r->time_max)
		r->time_max = s->time_max;
}

/* Merge shard `s`, which read file `fi`, into `r`. */
static bool merge(struct gpu_run *r, struct gpu_run *s, uint32_t fi)
{
	struct renames rn;
	bool ok = renames_start(r, s, false, &rn) && merge_sets(r, s, fi, &rn) &&
		  merge_lines(r, s, &rn);
	r->file_host[fi] = ok ? host_of(r, &rn, s->file_host[fi]) : 0;
	if (ok) {
		merge_times(r, s);
		r->skipped_rows += s->skipped_rows;
		r->unlinked += s->unlinked;
		if (!r->unattributed && s->unattributed)
			r->unattributed = rn.node[s->unattributed];
	}
	renames_free(&rn);
	return ok;
}

bool gpu_run_replay(struct gpu_run *r, const struct gpu_run *s, size_t at,
		    size_t n)
{
	struct renames rn;
	/* lazy: the strings of the nodes only */
	bool ok = renames_start(r, s, true, &rn);
	for (size_t k = 0; ok && k < n && k < s->n_files && at + k < r->n_files;
	     k++)
		r->file_host[at + k] = host_of(r, &rn, s->file_host[k]);
	if (ok)
		merge_times(r, s);
	renames_free(&rn);
	return ok;
}

/* ---- the pool ---------------------------------------------------------------- */

struct shard {
	struct gpu_run *run; /* made by the worker that reads the file */
	enum status st;
	struct error err;
	bool done;
};

struct pool {
	struct gpu_run *r;
	struct shard *shards;
	size_t next;   /* the next file a worker takes */
	size_t merged; /* files merged so far */
	size_t ahead;  /* how far workers may read ahead of the merge */
	bool stop;     /* a file failed: take no more */
	pthread_mutex_t lock;
	pthread_cond_t changed;
};

/* SQLite's progress handler during a scan that may be cancelled: non-zero
 * interrupts the statement. */
static int stop_handler(void *arg)
{
	struct gpu_run *r = arg;
	return r->cancelled(r->cancel_ctx) ? 1 : 0;
}

/* The first pass over file `i` of `r`, its connection opened first (run_new
 * closes each file's once it knows the file's layout: 1,000 files open at
 * once held 350 MB of SQLite schemas and caches). */
static enum status read_file(struct gpu_run *r, size_t i, struct error *err)
{
	struct gpu_run_file *f = &r->files[i];
	if (!f->db) {
		enum status st = gpu_run_open_file(r->family, f, err);
		if (st != STATUS_OK)
			return st;
	}
	if (!r->cancelled)
		return f->layout->read(r, (uint32_t)i, err);
	/* test-only: CALLSCOPE_TEST_SCAN_DELAY_MS slows each file's scan
	 * (tests of what the viewer shows meanwhile); cancellable */
	const char *delay = getenv("CALLSCOPE_TEST_SCAN_DELAY_MS");
	long ms = delay ? strtol(delay, NULL, 10) : 0;
	for (; ms > 0 && !r->cancelled(r->cancel_ctx); ms -= 10)
		usleep(10000);
	if (r->cancelled(r->cancel_ctx))
		return error_set(err, STATUS_IO, f->path, "cancelled");
	sqlite3_progress_handler(f->db, 4096, stop_handler, r);
	enum status st = f->layout->read(r, (uint32_t)i, err);
	sqlite3_progress_handler(f->db, 0, NULL, NULL);
	if (st != STATUS_OK && r->cancelled(r->cancel_ctx)) {
		error_clear(err);
		st = error_set(err, STATUS_IO, f->path, "cancelled");
	}
	return st;
}

/* A shard for file `i` of `r`, holding the file's connection. */
static struct gpu_run *shard_new(struct gpu_run *r, size_t i)
{
	struct gpu_run *s = gpu_run_blank(r->family, r->path, r->n_files);
	struct gpu_run_file *f = &r->files[i];
	if (!s || !(s->files[i].path = strdup(f->path))) {
		gpu_run_discard(s);
		return NULL;
	}
	s->kernel_names = r->kernel_names;
	s->cancelled = r->cancelled;
	s->cancel_ctx = r->cancel_ctx;
	s->files[i].db = f->db;
	s->files[i].layout = f->layout;
	s->files[i].noun = f->noun;
	f->db = NULL;
	return s;
}

/* Shard `i` done with: its connection back to the run, then freed. */
static void shard_free(struct gpu_run *r, struct shard *sh, size_t i)
{
	if (sh->run) {
		r->files[i].db = sh->run->files[i].db;
		sh->run->files[i].db = NULL;
		gpu_run_discard(sh->run);
		sh->run = NULL;
	}
	error_clear(&sh->err);
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->stop && p->next < p->r->n_files &&
		       p->next >= p->merged + p->ahead)
			pthread_cond_wait(&p->changed, &p->lock);
		if (p->stop || p->next >= p->r->n_files)
			break;
		size_t i = p->next++;
		struct shard *sh = &p->shards[i];
		/* the file's entry is the merging thread's again only once
		 * the shard is done */
		struct gpu_run *s = shard_new(p->r, i);
		sh->run = s; /* its row count is read for the progress */
		pthread_mutex_unlock(&p->lock);
		if (s)
			sh->st = read_file(s, i, &sh->err);
		else
			sh->st = error_set(&sh->err, STATUS_NOMEM,
					   p->r->files[i].path,
					   "out of memory");
		pthread_mutex_lock(&p->lock);
		sh->done = true;
		if (sh->st != STATUS_OK)
			p->stop = true;
		pthread_cond_broadcast(&p->changed);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

unsigned gpu_run_workers_for(size_t n_files)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	const char *env = getenv("CALLSCOPE_SCAN_THREADS");
	if (env && *env)
		cores = strtol(env, NULL, 10);
	if (cores < 1 || !sqlite3_threadsafe())
		cores = 1;
	if (cores > 16)
		cores = 16;
	return (unsigned)((size_t)cores < n_files ? (size_t)cores : n_files);
}

static uint64_t file_bytes(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

/* Hand the run so far (files 0..done-1 merged) to the partial model's
 * fill-in (gpu_run.filled), at most a tenth of the merging thread's
 * time: one due sooner waits for the next merge or wait_for's next
 * wake-up (a run of 1,000 small files merges a file every few ms, and
 * each fill-in replays every file). */
static void fill_in(struct gpu_run *r, size_t done)
{
	if (!r->filled)
		return;
	double t = clock_now();
	if (t < r->fill_next) {
		r->fill_due = done;
		return;
	}
	r->filled(r->filled_ctx, r, done);
	double end = clock_now();
	r->fill_next = end + 9 * (end - t);
	r->fill_due = 0;
}

/* One file after the other, in this thread. */
static enum status scan_serial(struct gpu_run *r, struct error *err)
{
	enum status st = STATUS_OK;
	for (size_t i = 0; i < r->n_files && st == STATUS_OK; i++) {
		st = read_file(r, i, err);
		gpu_run_file_close(&r->files[i]); /* scanned, merged */
		r->progress.bytes_done += file_bytes(r->files[i].path);
		r->progress.files_done++;
		gpu_run_report(r, i + 1 == r->n_files || st != STATUS_OK);
		if (st == STATUS_OK)
			fill_in(r, i + 1);
	}
	return st;
}

/* Wait until shard `i` is done, reporting the rows read meanwhile (the
 * merged files' and the shards' in flight) at most four times a second. */
static void wait_for(struct pool *p, size_t i, uint64_t merged_rows)
{
	pthread_mutex_lock(&p->lock);
	while (!p->shards[i].done) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 250000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->changed, &p->lock, &until);
		uint64_t rows = merged_rows;
		for (size_t k = i; k < p->next; k++)
			if (p->shards[k].run)
				rows += __atomic_load_n(
					&p->shards[k].run->progress.rows,
					__ATOMIC_RELAXED);
		p->r->progress.rows = rows;
		gpu_run_report(p->r, false);
		if (p->r->fill_due && clock_now() >= p->r->fill_next) {
			pthread_mutex_unlock(&p->lock);
			fill_in(p->r, p->r->fill_due);
			pthread_mutex_lock(&p->lock);
		}
	}
	pthread_mutex_unlock(&p->lock);
}

enum status gpu_run_scan(struct gpu_run *r, struct error *err)
{
	r->progress.n_files = (uint32_t)r->n_files;
	r->scan_began = r->last_report = clock_now();
	for (size_t i = 0; i < r->n_files; i++)
		r->progress.bytes_total += file_bytes(r->files[i].path);
	/* what is to be read, before the first file is */
	r->last_report -= 1.0;
	gpu_run_report(r, false);
	unsigned n_workers = gpu_run_workers_for(r->n_files);
	if (n_workers < 2)
		return scan_serial(r, err);
	struct pool p = {.r = r, .ahead = 2 * (size_t)n_workers};
	p.shards = calloc(r->n_files, sizeof(*p.shards));
	pthread_t *threads = calloc(n_workers, sizeof(*threads));
	unsigned started = 0;
	if (p.shards && threads) {
		pthread_mutex_init(&p.lock, NULL);
		pthread_cond_init(&p.changed, NULL);
		while (started < n_workers &&
		       pthread_create(&threads[started], NULL, worker, &p) == 0)
			started++;
	}
	if (started == 0) { /* no thread: the serial pass */
		if (p.shards) {
			pthread_mutex_destroy(&p.lock);
			pthread_cond_destroy(&p.changed);
		}
		free(p.shards);
		free(threads);
		return scan_serial(r, err);
	}
	enum status st = STATUS_OK;
	uint64_t merged_rows = 0;
	for (size_t i = 0; i < r->n_files && st == STATUS_OK; i++) {
		struct shard *sh = &p.shards[i];
		wait_for(&p, i, merged_rows);
		if (sh->st != STATUS_OK) {
			st = sh->st;
			*err = sh->err;
			memset(&sh->err, 0, sizeof(sh->err));
		} else if (!merge(r, sh->run, (uint32_t)i)) {
			st = error_set(err, STATUS_NOMEM, r->path,
				       "out of memory");
		}
		merged_rows += sh->run ? sh->run->progress.rows : 0;
		r->progress.bytes_done += file_bytes(r->files[i].path);
		r->progress.files_done++;
		pthread_mutex_lock(&p.lock);
		shard_free(r, sh, i);
		gpu_run_file_close(&r->files[i]); /* scanned, merged */
		p.merged = i + 1;
		if (st != STATUS_OK)
			p.stop = true;
		pthread_cond_broadcast(&p.changed);
		pthread_mutex_unlock(&p.lock);
		gpu_run_report(r, i + 1 == r->n_files || st != STATUS_OK);
		if (st == STATUS_OK)
			fill_in(r, i + 1);
	}
	for (unsigned k = 0; k < started; k++)
		pthread_join(threads[k], NULL);
	/* shards read ahead of a failure: their connections go back to the
	 * run, which closes them */
	for (size_t i = 0; i < r->n_files; i++)
		shard_free(r, &p.shards[i], i);
	pthread_mutex_destroy(&p.lock);
	pthread_cond_destroy(&p.changed);
	free(p.shards);
	free(threads);
	return st;
}
