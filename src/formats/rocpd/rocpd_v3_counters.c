/* rocpd_v3_counters: the counter lines of a rocprofv3 table set -- the
 * bytes of memory copies in flight to each agent, and the memory allocated
 * on each agent per level (REAL, VIRTUAL, SCRATCH) -- as step functions
 * (time, value), the way rocprofv3's Perfetto output draws them.
 *
 * Copies: +size at a copy's start, -size at its end (at equal times the
 * ends first: a copy is in flight during [start, end)).  Allocations
 * (rocpd_memory_allocate, in start then id order): ALLOC adds its size on
 * its agent; FREE and RECLAIM take back the size of the live allocation at
 * the same address (a FREE names no agent or size itself; one of an
 * address never allocated is ignored); REALLOC frees the old block and
 * allocates the new size at the address.  One sample per distinct time
 * (the value after every change at that time).  First pass only; the
 * lines are kept with the run (and its index).  Depends on the run
 * (formats/gpu_run/gpu_run.h) only. */
#include "config.h"

#include "core/array.h"
#include "formats/rocpd/rocpd_v3_counters.h"
#include "formats/rocpd/rocpd_v3_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One change of a counter: `key` names the line. */
struct step {
	uint64_t key, t;
	double delta;
};

struct steps {
	struct step *v;
	size_t n, cap;
};

static bool steps_push(struct steps *s, uint64_t key, uint64_t t, double d)
{
	if (!array_grow((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v)))
		return false;
	s->v[s->n++] = (struct step){key, t, d};
	return true;
}

static int step_cmp(const void *pa, const void *pb)
{
	const struct step *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return (a->delta > b->delta) - (a->delta < b->delta);
}

/* What a line key stands for: process, agent and what is counted. */
struct line_of {
	int64_t pid, agent;
	int what; /* 0: copies in flight; 1, 2, 3: REAL, VIRTUAL, SCRATCH */
};

static const char *const what_text[] = {"copies in flight", "memory (REAL)",
					"memory (VIRTUAL)",
					"memory (SCRATCH)"};

/* The label of process `pid` of the set: its node's name. */
static const char *proc_name(struct gpu_run *r, struct gpu_run_set *s,
			     int64_t pid)
{
	uint32_t node;
	if (!gpu_run_map_get(&s->procs, (uint64_t)pid, &node))
		return "";
	return gpu_run_node_name(r, node); /* "" past the nodes */
}

/* Sort the steps and add one counter line per key: the running sum. */
static enum status emit(struct gpu_run *r, struct rocpd_v3_counter_ctx *c,
			struct steps *st, const struct line_of *keys,
			struct error *err)
{
	if (st->n > 1)
		qsort(st->v, st->n, sizeof(*st->v), step_cmp);
	uint32_t line = MODEL_NONE;
	double sum = 0;
	for (size_t i = 0; i < st->n; i++) {
		const struct step *p = &st->v[i];
		if (i == 0 || p->key != st->v[i - 1].key) {
			const struct line_of *k = &keys[p->key];
			char agent[40], label[320];
			(void)rocpd_v3_agent_name(
			    c->agents, k->agent, agent, sizeof(agent));
			if (k->what)
				snprintf(label, sizeof(label), "%.200s %s %s",
					 proc_name(r, c->s, k->pid), agent,
					 what_text[k->what]);
			else
				snprintf(label, sizeof(label),
					 "%.200s %s to %s",
					 proc_name(r, c->s, k->pid),
					 what_text[0], agent);
			line = gpu_run_line(r, c->fi, c->si,
					    GPU_RUN_LINE_COUNTER,
					    (uint64_t)k->pid << 32 ^
						    (uint64_t)k->agent,
					    (uint64_t)(16 + k->what), label,
					    MODEL_NONE);
			if (line == MODEL_NONE)
				return error_set(err, STATUS_NOMEM, c->f->path,
						 "out of memory");
			gpu_run_line_at(r, line)->unit = gpu_run_intern(r, "bytes");
			sum = 0;
		}
		sum += p->delta;
		bool last_at_t = i + 1 == st->n ||
				 st->v[i + 1].key != p->key ||
				 st->v[i + 1].t != p->t;
		if (last_at_t && !gpu_run_counter_push(r, line, p->t, sum))
			return error_set(err, STATUS_NOMEM, c->f->path,
					 "out of memory");
	}
	return STATUS_OK;
}

/* The key of (pid, agent, what), added to `keys` when new. */
static uint64_t key_of(struct line_of **keys, size_t *n, int64_t pid,
		       int64_t agent, int what)
{
	for (size_t i = 0; i < *n; i++)
		if ((*keys)[i].pid == pid && (*keys)[i].agent == agent &&
		    (*keys)[i].what == what)
			return i;
	struct line_of *g = realloc(*keys, (*n + 1) * sizeof(*g));
	if (!g)
		return UINT64_MAX;
	*keys = g;
	g[*n] = (struct line_of){pid, agent, what};
	return (*n)++;
}

static int level_of(const char *level)
{
	return strcmp(level, "VIRTUAL") == 0   ? 2
	       : strcmp(level, "SCRATCH") == 0 ? 3
					       : 1;
}

/* A live allocation: its key and size, by address. */
struct block {
	uint64_t key;
	double size;
};

/* What the rows of the allocation table share: the blocks live by
 * address, the steps and the lines' keys. */
struct allocations {
	struct steps *st;
	struct line_of **keys;
	size_t *n_keys;
	struct gpu_run_map live; /* address -> block */
	struct block *blocks;
	size_t n_blocks, cap;
};

/* One allocation, reallocation or free; false when out of memory. */
static bool allocation_row(void *ctx, sqlite3_stmt *q)
{
	struct allocations *a = ctx;
	int64_t pid, agent = -1, t, size = 0, address;
	if (!gpu_run_col_int(q, 0, &pid) || !gpu_run_col_int(q, 4, &t) ||
	    t < 0 || !gpu_run_col_int(q, 6, &address))
		return true;
	gpu_run_col_int(q, 1, &agent);
	gpu_run_col_int(q, 5, &size);
	const char *type = gpu_run_col_text(q, 2);
	bool alloc = strcmp(type, "ALLOC") == 0,
	     realloc_ = strcmp(type, "REALLOC") == 0,
	     free_ = strcmp(type, "FREE") == 0 || strcmp(type, "RECLAIM") == 0;
	uint32_t b;
	bool known = gpu_run_map_get(&a->live, (uint64_t)address, &b) &&
		     a->blocks[b].size > 0;
	if ((free_ || realloc_) && known) {
		bool ok = steps_push(a->st, a->blocks[b].key, (uint64_t)t,
				     -a->blocks[b].size);
		a->blocks[b].size = 0;
		if (!ok)
			return false;
	}
	if (!(alloc || realloc_) || size <= 0)
		return true;
	if (realloc_ && known && agent < 0)
		agent = a->keys[0][a->blocks[b].key].agent;
	uint64_t key = key_of(a->keys, a->n_keys, pid, agent,
			      level_of(gpu_run_col_text(q, 3)));
	if (!array_grow((void **)&a->blocks, &a->cap, a->n_blocks + 1,
			sizeof(*a->blocks)))
		return false;
	a->blocks[a->n_blocks] = (struct block){key, (double)size};
	return key != UINT64_MAX && a->n_blocks < UINT32_MAX &&
	       gpu_run_map_put(&a->live, (uint64_t)address,
			       (uint32_t)a->n_blocks++) &&
	       steps_push(a->st, key, (uint64_t)t, (double)size);
}

static enum status read_allocations(struct rocpd_v3_counter_ctx *c,
				    struct steps *st, struct line_of **keys,
				    size_t *n_keys, struct error *err)
{
	char *sql = NULL;
	if (asprintf(&sql,
		     "SELECT pid, agent_id, type, level, start, size, "
		     "address FROM %s ORDER BY start, id",
		     c->alloc_table) < 0)
		return error_set(err, STATUS_NOMEM, c->f->path,
				 "out of memory");
	struct allocations a = {.st = st, .keys = keys, .n_keys = n_keys};
	enum status e = gpu_run_each_row(c->f, sql, allocation_row, &a, err);
	free(sql);
	gpu_run_map_free(&a.live);
	free(a.blocks);
	return e;
}

/* What the rows of the copy table share. */
struct copies {
	struct steps *st;
	struct line_of **keys;
	size_t *n_keys;
};

/* One copy: its bytes in flight from its start to its end; false when
 * out of memory. */
static bool copy_row(void *ctx, sqlite3_stmt *q)
{
	struct copies *cp = ctx;
	int64_t pid, agent = -1, t0, t1, size;
	if (!gpu_run_col_int(q, 0, &pid) || !gpu_run_col_int(q, 2, &t0) ||
	    !gpu_run_col_int(q, 3, &t1) || t0 < 0 || t1 <= t0 ||
	    !gpu_run_col_int(q, 4, &size) || size <= 0)
		return true;
	gpu_run_col_int(q, 1, &agent);
	uint64_t key = key_of(cp->keys, cp->n_keys, pid, agent, 0);
	return key != UINT64_MAX &&
	       steps_push(cp->st, key, (uint64_t)t0, (double)size) &&
	       steps_push(cp->st, key, (uint64_t)t1, -(double)size);
}

static enum status read_copies(struct rocpd_v3_counter_ctx *c,
			       struct steps *st, struct line_of **keys,
			       size_t *n_keys, struct error *err)
{
	char *sql = NULL;
	if (asprintf(&sql,
		     "SELECT pid, dst_agent_id, start, \"end\", size FROM %s",
		     c->copy_table) < 0)
		return error_set(err, STATUS_NOMEM, c->f->path,
				 "out of memory");
	struct copies cp = {.st = st, .keys = keys, .n_keys = n_keys};
	enum status e = gpu_run_each_row(c->f, sql, copy_row, &cp, err);
	free(sql);
	return e;
}

enum status rocpd_v3_counter_lines(struct gpu_run *r,
				   struct rocpd_v3_counter_ctx *c,
				   struct error *err)
{
	if (gpu_run_second_pass(r))
		return STATUS_OK;
	struct steps copies = {0}, allocs = {0};
	struct line_of *keys = NULL;
	size_t n_keys = 0;
	enum status e = STATUS_OK;
	if (c->copy_table)
		e = read_copies(c, &copies, &keys, &n_keys, err);
	if (e == STATUS_OK && c->alloc_table)
		e = read_allocations(c, &allocs, &keys, &n_keys, err);
	if (e == STATUS_OK)
		e = emit(r, c, &copies, keys, err);
	if (e == STATUS_OK)
		e = emit(r, c, &allocs, keys, err);
	free(copies.v);
	free(allocs.v);
	free(keys);
	return e;
}
