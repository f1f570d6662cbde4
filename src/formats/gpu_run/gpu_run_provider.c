/* gpu_run_provider: what a GPU run's model asks after the open -- the
 * values of its contexts (value_ops: the per-node sums, the hardware
 * counters; the per-thread and per-queue values are gpu_run_profiles.c's) and its timelines
 * (trace_ops: a file's interval lines read by a second pass when first
 * needed -- the files side by side on the cores when every timeline is
 * wanted (trace_prepare), each file by one thread, the others waiting
 * for it -- or mapped from the run's index; the launch links resolved once
 * per file; counter values; an interval's attributes through the
 * layout).  The run is freed with the trace provider.  Depends on the run
 * (gpu_run.h) only. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "formats/gpu_run/gpu_run.h"
#include "formats/gpu_run/gpu_run_internal.h"

/* Each fixed statistic's array in struct gpu_run and the bit of
 * `present` that says a node has it (gpu_run_internal.h). */
static const struct {
	size_t array; /* offsetof a `double *` member */
	uint8_t bit;
} fixed_stats[] = {
	[STAT_GPU] = {offsetof(struct gpu_run, gpu), 1},
	[STAT_CALLS] = {offsetof(struct gpu_run, calls), 2},
	[STAT_BYTES] = {offsetof(struct gpu_run, bytes), 4},
	[STAT_API_INCL] = {offsetof(struct gpu_run, api_incl), 8},
	[STAT_API_EXCL] = {offsetof(struct gpu_run, api_excl), 8},
	[STAT_DUR_N] = {offsetof(struct gpu_run, dur_n), 16},
	[STAT_DUR_SUM] = {offsetof(struct gpu_run, dur_sum), 16},
	[STAT_DUR_MIN] = {offsetof(struct gpu_run, dur_min), 16},
	[STAT_DUR_MAX] = {offsetof(struct gpu_run, dur_max), 16},
	[STAT_DUR_SQ] = {offsetof(struct gpu_run, dur_sq), 16},
	[STAT_SIZED_NS] = {offsetof(struct gpu_run, sized_ns), 32},
	[STAT_MARKS] = {offsetof(struct gpu_run, marks), 64},
};

bool gpu_run_node_value(const struct gpu_run *r, uint32_t n, uint32_t stat,
			double *out)
{
	if (n >= r->n_nodes)
		return false;
	if (stat < sizeof(fixed_stats) / sizeof(fixed_stats[0])) {
		const double *a = *(double *const *)((const char *)r +
						     fixed_stats[stat].array);
		*out = a[n];
		/* the root and an entry have no exclusive API time */
		if (stat == STAT_API_EXCL &&
		    (n == 0 || GPU_RUN_KIND_PLAIN(r->kind[n]) == NODE_ENTRY))
			return false;
		return r->present[n] & fixed_stats[stat].bit;
	}
	if (stat == STAT_CALLS_INCL) {
		*out = r->calls_incl ? r->calls_incl[n] : (double)NAN;
		return !isnan(*out);
	}
	if (stat < GPU_RUN_COUNTER_STAT ||
	    stat - GPU_RUN_COUNTER_STAT >= r->n_counters)
		return false;
	*out = r->counter[stat - GPU_RUN_COUNTER_STAT][n];
	return !isnan(*out);
}

static bool values_summary(void *impl, uint32_t ctx_id, uint32_t stat_id,
			   double *out)
{
	return gpu_run_node_value(impl, ctx_id, stat_id, out);
}

static enum status values_summary_all(void *impl, uint32_t stat_id,
				      void (*emit)(void *ctx, uint32_t ctx_id,
						   double value),
				      void *ctx, struct error *err)
{
	(void)err;
	const struct gpu_run *r = impl;
	double v;
	for (uint32_t n = 0; n < r->n_nodes; n++)
		if (gpu_run_node_value(r, n, stat_id, &v))
			emit(ctx, n, v);
	return STATUS_OK;
}

void gpu_run_set_release(struct gpu_run_set *set)
{
	free(set->suffix);
	gpu_run_map_free(&set->strings);
	gpu_run_idmap_free(&set->regions);
	gpu_run_map_free(&set->kernels);
	gpu_run_map_free(&set->threads);
	gpu_run_map_free(&set->procs);
	gpu_run_map_free(&set->thread_profiles);
	sqlite3_finalize(set->string_stmt);
	set->string_stmt = NULL;
}

void gpu_run_file_finalize(struct gpu_run_file *f)
{
	for (size_t s = 0; s < f->n_sets; s++) {
		sqlite3_finalize(f->sets[s].string_stmt);
		f->sets[s].string_stmt = NULL;
	}
}

void gpu_run_file_close(struct gpu_run_file *f)
{
	gpu_run_file_finalize(f);
	sqlite3_close(f->db);
	f->db = NULL;
}

void gpu_run_free(struct gpu_run *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_files; i++) {
		struct gpu_run_file *f = &r->files[i];
		for (size_t s = 0; s < f->n_sets; s++)
			gpu_run_set_release(&f->sets[s]);
		free(f->sets);
		if (f->db)
			sqlite3_close(f->db);
		free(f->path);
	}
	free(r->parent);
	free(r->name);
	free(r->kind);
	free(r->profile);
	free(r->node_next);
	free(r->gpu);
	free(r->calls);
	free(r->bytes);
	free(r->api_incl);
	free(r->api_excl);
	free(r->dur_n);
	free(r->dur_sum);
	free(r->dur_min);
	free(r->dur_max);
	free(r->dur_sq);
	free(r->sized_ns);
	free(r->marks);
	free(r->calls_in);
	free(r->calls_incl);
	free(r->present);
	for (uint32_t k = 0; k < r->n_counters; k++)
		free(r->counter[k]);
	free(r->counter);
	free(r->counter_name);
	gpu_run_map_free(&r->node_keys);
	gpu_run_map_free(&r->texts);
	gpu_run_map_free(&r->functions);
	gpu_run_map_free(&r->queue_split);
	free(r->split_gpu);
	free(r->split_calls);
	for (uint32_t i = 0; i < r->n_lines; i++) {
		const struct gpu_run_line *l = &r->lines[i];
		if (l->file >= r->n_files || !r->files[l->file].iv_map) {
			free(l->iv);
			free(l->inst);
		}
		free(l->times);
		free(l->values);
	}
	for (size_t i = 0; i < r->n_files; i++)
		if (r->files[i].iv_map)
			munmap(r->files[i].iv_map, r->files[i].iv_map_len);
	free(r->files);
	free(r->file_host);
	free(r->file_shift);
	free(r->lines);
	free(r->line_next);
	free(r->index_base);
	gpu_run_map_free(&r->line_keys);
	error_clear(&r->lazy_err);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->file_read);
	free(r->path);
	free(r);
}

/* The value and trace providers share the run: the trace's close frees
 * it (the model closes values first, then the trace). */
static void values_close(void *impl)
{
	(void)impl;
}

static bool values_take_error(void *impl, struct error *err)
{
	(void)impl, (void)err;
	return false;
}

const struct value_ops gpu_run_value_ops = {
	.summary = values_summary,
	.per_profile = gpu_run_per_profile,
	.close = values_close,
	.summary_all = values_summary_all,
	.take_error = values_take_error,
};

static bool line_has_intervals(const struct gpu_run_line *l)
{
	return l->kind != GPU_RUN_LINE_COUNTER && l->iv;
}

static struct gpu_run_iv *iv_at(struct gpu_run *r, uint64_t pos)
{
	uint64_t line = pos >> 32, index = pos & 0xffffffffu;
	if (pos == GPU_RUN_NO_LINK || line >= r->n_lines ||
	    !line_has_intervals(&r->lines[line]) ||
	    index >= r->lines[line].filled)
		return NULL;
	return &r->lines[line].iv[index];
}

/* File `fi`'s intervals without links (a failed read, out of memory). */
static void clear_links(struct gpu_run *r, uint32_t fi)
{
	for (uint32_t i = 0; i < r->n_lines; i++) {
		struct gpu_run_line *l = &r->lines[i];
		if (l->file != fi || !line_has_intervals(l))
			continue;
		for (uint64_t k = 0; k < l->filled; k++)
			l->iv[k].link = l->iv[k].next = GPU_RUN_NO_LINK;
	}
}

/* Turn the link keys of file `fi`'s sorted lines into positions: each
 * GPU interval points at its launching host interval, which heads the
 * chain (`next`) of the GPU work it launched, first line and begin
 * first.  Keys are per table set.  Out of memory leaves the file without
 * links (they are a convenience, never a value). */
static void resolve_links(struct gpu_run *r, uint32_t fi)
{
	struct gpu_run_map hosts = {0}; /* key ^ set -> slot in pos[] */
	uint64_t *pos = NULL;
	uint32_t n = 0, cap = 0;
	bool ok = true;
	for (uint32_t i = 0; i < r->n_lines; i++) {
		struct gpu_run_line *l = &r->lines[i];
		if (l->file != fi || l->kind != GPU_RUN_LINE_HOST || !l->iv)
			continue;
		for (uint64_t k = 0; k < l->filled; k++) {
			struct gpu_run_iv *iv = &l->iv[k];
			uint64_t key = iv->link;
			iv->link = GPU_RUN_NO_LINK;
			if (key == GPU_RUN_NO_LINK || !ok || k >= UINT32_MAX)
				continue;
			if (n == cap) {
				uint32_t nc = cap ? cap * 2 : 256;
				uint64_t *g =
					nc > cap ? realloc(pos, (size_t)nc *
								   sizeof(*pos))
						 : NULL;
				if (!g) {
					ok = false;
					continue;
				}
				pos = g;
				cap = nc;
			}
			pos[n] = (uint64_t)i << 32 | k;
			key ^= (uint64_t)l->set << 48;
			ok = gpu_run_map_put(&hosts, key, n++);
		}
	}
	for (uint32_t i = r->n_lines; i-- > 0;) {
		struct gpu_run_line *l = &r->lines[i];
		if (l->file != fi || l->kind == GPU_RUN_LINE_HOST || !l->iv)
			continue;
		for (uint64_t k = l->filled; k-- > 0;) {
			struct gpu_run_iv *iv = &l->iv[k];
			uint64_t key = iv->link;
			uint32_t slot;
			iv->link = iv->next = GPU_RUN_NO_LINK;
			if (!ok || key == GPU_RUN_NO_LINK || k >= UINT32_MAX)
				continue;
			key ^= (uint64_t)l->set << 48;
			if (!gpu_run_map_get(&hosts, key, &slot))
				continue;
			struct gpu_run_iv *host = iv_at(r, pos[slot]);
			if (!host)
				continue;
			iv->link = pos[slot];
			if (l->kind == GPU_RUN_LINE_ALT)
				continue; /* the same work is on a chained line */
			iv->next = host->link;
			host->link = (uint64_t)i << 32 | k;
		}
	}
	if (!ok) /* no half-made chains */
		clear_links(r, fi);
	gpu_run_map_free(&hosts);
	free(pos);
}

/* File `fi`'s connection, opened when first needed (a run opened from its
 * index reads no file until a line or a detail asks). */
static enum status ensure_open(struct gpu_run *r, uint32_t fi,
			       struct error *err)
{
	struct gpu_run_file *f = &r->files[fi];
	if (f->db)
		return STATUS_OK;
	if (f->id_hash && !gpu_run_index_unchanged(r, fi))
		return error_set(err, STATUS_CORRUPT, f->path,
				 "the file changed since the run was opened");
	return gpu_run_open_file(r->family, f, err);
}

/* The second pass proper over file `fi` (claimed by the caller, its
 * connection opened with status `st`): the file's interval lines
 * allocated, read, sorted and linked, its index file written.  Touches
 * only the file's own lines and connection (the run's maps are only read
 * now), so that files are read side by side.  False with *err set. */
static bool read_file(struct gpu_run *r, uint32_t fi, enum status st,
		      struct error *err)
{
	struct gpu_run_file *f = &r->files[fi];
	if (st != STATUS_OK)
		return false;
	if (gpu_run_index_load_file(r, fi))
		return true;
	bool ok = true;
	for (uint32_t i = 0; i < r->n_lines && ok; i++) {
		struct gpu_run_line *l = &r->lines[i];
		if (l->file != fi || l->kind == GPU_RUN_LINE_COUNTER)
			continue;
		l->filled = 0;
		l->iv = l->count && l->count <= SIZE_MAX / sizeof(*l->iv)
				? malloc(l->count * sizeof(*l->iv))
				: NULL;
		if (l->count && !l->iv)
			ok = false;
		l->inst_filled = 0;
		l->inst = l->n_inst && l->n_inst <= SIZE_MAX / sizeof(*l->inst)
				  ? malloc(l->n_inst * sizeof(*l->inst))
				  : NULL;
		if (l->n_inst && !l->inst)
			ok = false;
	}
	if (ok)
		ok = f->layout->read(r, fi, err) == STATUS_OK;
	else
		error_set(err, STATUS_NOMEM, f->path, "out of memory");
	for (uint32_t i = 0; i < r->n_lines; i++) {
		struct gpu_run_line *l = &r->lines[i];
		if (l->file != fi || l->kind == GPU_RUN_LINE_COUNTER)
			continue;
		if (ok && (l->filled != l->count ||
			   l->inst_filled != l->n_inst)) {
			error_set(err, STATUS_CORRUPT, f->path,
				  "the file changed while it was open: a line "
				  "has %" PRIu64 " intervals and %" PRIu64
				  " instants, not %" PRIu64 " and %" PRIu64,
				  l->filled, l->inst_filled, l->count,
				  l->n_inst);
			ok = false;
		}
		if (l->iv)
			gpu_run_iv_sort_link(l->iv, l->filled);
		if (l->inst)
			gpu_run_instants_sort(l->inst, l->inst_filled);
	}
	if (ok) {
		resolve_links(r, fi);
		gpu_run_index_save_file(r, fi);
	} else {
		clear_links(r, fi);
	}
	return ok;
}

/* A failed second pass's error kept for take_error (the first one only);
 * called with r->lock held. */
static void keep_error(struct gpu_run *r, struct error *err)
{
	if (!r->lazy_failed) {
		r->lazy_failed = true;
		r->lazy_err = *err;
		memset(err, 0, sizeof(*err));
	}
	error_clear(err);
}

/* The second pass over file `fi`: every interval line of the file, read
 * once by whichever thread asks first (the others wait for it).  Called
 * without r->lock.  A failure's error goes to *failed when not NULL (the
 * pool keeps them in file order), else to the run's lazy error. */
static bool load_file(struct gpu_run *r, uint32_t fi, struct error *failed)
{
	struct gpu_run_file *f = &r->files[fi];
	pthread_mutex_lock(&r->lock);
	while (f->loading)
		pthread_cond_wait(&r->file_read, &r->lock);
	if (f->loaded) {
		bool ok = !r->lazy_failed;
		pthread_mutex_unlock(&r->lock);
		return ok;
	}
	f->loading = true;
	if (!r->second_pass) /* stays true: read by the readers, unlocked */
		r->second_pass = true;
	struct error err = {0};
	enum status st = ensure_open(r, fi, &err);
	pthread_mutex_unlock(&r->lock);
	bool ok = read_file(r, fi, st, &err);
	pthread_mutex_lock(&r->lock);
	/* read: closed again, so that a run of 1,000 files does not hold
	 * 1,000 open (a detail opens it again) */
	sqlite3_close(f->db);
	f->db = NULL;
	if (!ok && failed)
		*failed = err;
	else if (!ok)
		keep_error(r, &err);
	f->loading = false;
	__atomic_store_n(&f->loaded, true, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&r->file_read);
	pthread_mutex_unlock(&r->lock);
	return ok;
}

/* Line `line` of intervals (of instants when `instants`) that has an
 * entry `index`, its file read first when it is not yet; NULL when there
 * is no such line or entry, or when the read did not reach it. */
static struct gpu_run_line *line_read(struct gpu_run *r, uint32_t line,
				      uint64_t index, bool instants)
{
	if (line >= r->n_lines)
		return NULL;
	struct gpu_run_line *l = &r->lines[line];
	if (l->kind == GPU_RUN_LINE_COUNTER ||
	    index >= (instants ? l->n_inst : l->count))
		return NULL;
	if (!__atomic_load_n(&r->files[l->file].loaded, __ATOMIC_ACQUIRE))
		load_file(r, l->file, NULL);
	bool read = instants ? l->inst && index < l->inst_filled
			     : l->iv && index < l->filled;
	return read ? l : NULL;
}

static bool trace_interval(void *impl, uint32_t line, uint64_t index,
			   struct trace_interval *out)
{
	struct gpu_run *r = impl;
	struct gpu_run_line *l = line_read(r, line, index, false);
	if (!l)
		return false;
	const struct gpu_run_iv *iv = &l->iv[index];
	/* intervals mapped from the run's index are checked here, where they
	 * are read (the enclosing links below, the launch links in iv_at) */
	if (iv->ctx >= r->n_nodes || iv->end < iv->begin)
		return false;
	uint32_t depth = 0;
	uint64_t at = index;
	for (uint32_t up = iv->up; up && up - 1 < at && depth < 4096;
	     depth++) {
		at = up - 1;
		up = l->iv[at].up;
	}
	int64_t shift = r->file_shift[l->file];
	*out = (struct trace_interval){
		.begin = (uint64_t)((int64_t)iv->begin + shift),
		.end = (uint64_t)((int64_t)iv->end + shift),
		.ctx_id = iv->ctx,
		.depth = depth,
		.event = iv->event,
		.up = iv->up && iv->up - 1 < index ? iv->up : 0,
	};
	return true;
}

static bool trace_instant(void *impl, uint32_t line, uint64_t index,
			  struct trace_instant *out)
{
	struct gpu_run *r = impl;
	struct gpu_run_line *l = line_read(r, line, index, true);
	if (!l)
		return false;
	const struct gpu_run_instant *in = &l->inst[index];
	/* instants mapped from the run's index are checked where read */
	if (in->name >= r->n_strings)
		return false;
	*out = (struct trace_instant){
		.time = (uint64_t)((int64_t)in->t + r->file_shift[l->file]),
		.event = in->event,
		.name = in->name,
	};
	return true;
}

static bool trace_linked(void *impl, uint32_t line, uint64_t index,
			 uint32_t nth, uint32_t *to_line, uint64_t *to_index)
{
	struct gpu_run *r = impl;
	struct trace_interval first;
	/* reads the file's lines when they are not read yet */
	if (!trace_interval(impl, line, index, &first))
		return false;
	const struct gpu_run_line *l = &r->lines[line];
	uint64_t p = l->iv[index].link;
	if ((l->kind == GPU_RUN_LINE_HOST) == (nth == MODEL_LINK_CALL))
		return false;
	if (l->kind == GPU_RUN_LINE_HOST) {
		for (uint32_t k = 0; k < nth && p != GPU_RUN_NO_LINK; k++) {
			const struct gpu_run_iv *iv = iv_at(r, p);
			p = iv ? iv->next : GPU_RUN_NO_LINK;
		}
	}
	if (!iv_at(r, p))
		return false;
	*to_line = (uint32_t)(p >> 32);
	*to_index = p & 0xffffffffu;
	return true;
}

static bool trace_counter(void *impl, uint32_t line, uint64_t index,
			  uint64_t *time, double *value)
{
	struct gpu_run *r = impl;
	if (line >= r->n_lines || r->lines[line].kind != GPU_RUN_LINE_COUNTER ||
	    index >= r->lines[line].count)
		return false;
	const struct gpu_run_line *l = &r->lines[line];
	*time = (uint64_t)((int64_t)l->times[index] + r->file_shift[l->file]);
	*value = l->values[index];
	return true;
}

static bool trace_take_error(void *impl, struct error *err)
{
	struct gpu_run *r = impl;
	pthread_mutex_lock(&r->lock);
	/* lazy_failed stays set: only the first failure is kept */
	bool had = error_take(&r->lazy_err, err);
	pthread_mutex_unlock(&r->lock);
	return had;
}

static enum status trace_event_detail(void *impl, uint32_t line,
				      uint64_t event, struct model_kv **out,
				      size_t *n, struct error *err)
{
	struct gpu_run *r = impl;
	*out = NULL;
	*n = 0;
	if (line >= r->n_lines)
		return error_set(err, STATUS_USAGE, r->path, "no such line");
	const struct gpu_run_line *l = &r->lines[line];
	pthread_mutex_lock(&r->lock);
	while (r->files[l->file].loading) /* the connection is the pass's */
		pthread_cond_wait(&r->file_read, &r->lock);
	enum status st = ensure_open(r, l->file, err);
	if (st == STATUS_OK)
		st = r->files[l->file].layout->detail(r, l, event, out, n,
						      err);
	pthread_mutex_unlock(&r->lock);
	return st;
}

static void trace_close(void *impl)
{
	gpu_run_free(impl);
}

/* The files whose second pass is still to do, in file order: those with
 * interval lines (counter lines are kept from the first pass) not read
 * yet.  Their number in *n; NULL when out of memory or none. */
static uint32_t *files_to_load(struct gpu_run *r, uint32_t *n)
{
	*n = 0;
	bool *has_lines = calloc(r->n_files ? r->n_files : 1, 1);
	uint32_t *todo = calloc(r->n_files ? r->n_files : 1, sizeof(*todo));
	if (has_lines && todo) {
		for (uint32_t i = 0; i < r->n_lines; i++)
			if (r->lines[i].kind != GPU_RUN_LINE_COUNTER &&
			    r->lines[i].file < r->n_files)
				has_lines[r->lines[i].file] = true;
		for (uint32_t fi = 0; fi < r->n_files; fi++)
			if (has_lines[fi] &&
			    !__atomic_load_n(&r->files[fi].loaded,
					     __ATOMIC_ACQUIRE))
				todo[(*n)++] = fi;
	}
	free(has_lines);
	if (!*n) {
		free(todo);
		return NULL;
	}
	return todo;
}

/* The second pass's pool: workers take the files in file order, each
 * file read whole by one worker; the errors are kept per file and handed
 * to the run in file order at the end, so that the run is the one a
 * pass file after file leaves. */
struct pass_pool {
	struct gpu_run *r;
	const uint32_t *todo;
	struct error *errs; /* per entry of todo */
	uint32_t total, next, done;
	bool stop;
	pthread_mutex_t lock;
	pthread_cond_t changed;
};

static void *pass_worker(void *arg)
{
	struct pass_pool *p = arg;
	pthread_mutex_lock(&p->lock);
	while (!p->stop && p->next < p->total) {
		uint32_t k = p->next++;
		pthread_mutex_unlock(&p->lock);
		load_file(p->r, p->todo[k], &p->errs[k]);
		pthread_mutex_lock(&p->lock);
		p->done++;
		pthread_cond_broadcast(&p->changed);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Run the pool over p->todo with up to `want` workers, the progress
 * reported from this thread (a file done at a time); false when no
 * worker could start (nothing done). */
static bool pass_run(struct pass_pool *p, unsigned want,
		     bool (*progress)(void *ctx, uint32_t done,
				      uint32_t total),
		     void *ctx)
{
	pthread_t threads[16];
	unsigned started = 0;
	while (started < want && started < 16 &&
	       pthread_create(&threads[started], NULL, pass_worker, p) == 0)
		started++;
	if (!started)
		return false;
	pthread_mutex_lock(&p->lock);
	for (uint32_t shown = 0;;) {
		while (p->done == shown && p->done < p->total && !p->stop)
			pthread_cond_wait(&p->changed, &p->lock);
		if (p->done == shown || p->stop)
			break; /* all done, or stopped: the workers finish */
		shown = p->done;
		pthread_mutex_unlock(&p->lock);
		bool go = !progress || progress(ctx, shown, p->total);
		pthread_mutex_lock(&p->lock);
		if (!go)
			p->stop = true;
	}
	pthread_mutex_unlock(&p->lock);
	for (unsigned t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	return true;
}

/* Every file's second pass that is still to do (the trace pane shows
 * lines of every file at once): side by side on the cores, file after
 * file on one core or when no thread starts. */
static uint32_t trace_prepare(void *impl,
			      bool (*progress)(void *ctx, uint32_t done,
					       uint32_t total),
			      void *ctx)
{
	struct gpu_run *r = impl;
	uint32_t total = 0;
	uint32_t *todo = files_to_load(r, &total);
	if (!todo)
		return 0; /* none, or read when asked */
	if (progress && !progress(ctx, 0, total)) {
		free(todo);
		return total;
	}
	struct pass_pool p = {.r = r, .todo = todo, .total = total};
	unsigned want = gpu_run_workers_for(total);
	p.errs = want > 1 ? calloc(total, sizeof(*p.errs)) : NULL;
	bool pooled = false;
	if (p.errs) {
		pthread_mutex_init(&p.lock, NULL);
		pthread_cond_init(&p.changed, NULL);
		pooled = pass_run(&p, want, progress, ctx);
		pthread_mutex_destroy(&p.lock);
		pthread_cond_destroy(&p.changed);
		pthread_mutex_lock(&r->lock);
		for (uint32_t k = 0; k < total; k++)
			if (p.errs[k].status != STATUS_OK)
				keep_error(r, &p.errs[k]);
		pthread_mutex_unlock(&r->lock);
		free(p.errs);
	}
	for (uint32_t k = 0; !pooled && k < total; k++) {
		load_file(r, todo[k], NULL);
		if (progress && !progress(ctx, k + 1, total))
			break;
	}
	free(todo);
	return total;
}

const struct trace_ops gpu_run_trace_ops = {
	.prepare = trace_prepare,
	.interval = trace_interval,
	.close = trace_close,
	.take_error = trace_take_error,
	.counter = trace_counter,
	.event_detail = trace_event_detail,
	.linked = trace_linked,
	.instant = trace_instant,
};

