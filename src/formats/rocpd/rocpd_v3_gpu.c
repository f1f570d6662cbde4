/* rocpd_v3_gpu: the GPU work of a rocprofv3 table set: kernel
 * dispatches and memory copies under the region that launched them (a
 * dispatch's event -> stack_id, notes/rocpd.md 1.5), on their queue's
 * and stream's lines, with the dispatches' hardware counters; work whose
 * region is not known placed after the scan by time on its thread, and
 * so are the marks (instants) whose region is not known (the Marks
 * column).
 * Private to the rocpd reader; must not depend on curses or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "formats/rocpd/rocpd_v3_internal.h"

uint32_t rocpd_v3_agent_name(const struct gpu_run_map *agents, int64_t agent,
			     char *buf, size_t n)
{
	uint32_t gpu = 0;
	gpu_run_map_get(agents, (uint64_t)agent, &gpu);
	if (gpu)
		snprintf(buf, n, "GPU %u", gpu - 1);
	else
		snprintf(buf, n, "agent %" PRId64, agent);
	return gpu;
}

static bool pending_push(struct pending_list *l, const struct pending *p)
{
	if (!array_grow((void **)&l->p, &l->cap, l->n + 1, sizeof(*l->p)))
		return false;
	l->p[l->n++] = *p;
	return true;
}

bool rocpd_v3_mark(struct v3_ctx *c, int64_t pid, int64_t tid, int64_t t,
		   int64_t up)
{
	uint32_t node;
	if (up != 0 && gpu_run_idmap_get(&c->s->regions, (uint64_t)up, &node)) {
		gpu_run_add_mark(c->r, node);
		return true;
	}
	struct pending p = {.pid = pid, .tid = tid, .start = t, .end = t,
			    .mark = true};
	return gpu_run_second_pass(c->r) || !c->pend ||
	       pending_push(c->pend, &p);
}

/* Place one kernel or copy under `parent`: values, line; or count a mark
 * there. */
static bool place(struct v3_ctx *c, uint32_t parent, const struct pending *p)
{
	struct gpu_run *r = c->r;
	if (p->mark) {
		gpu_run_add_mark(r, parent);
		return true;
	}
	uint32_t node = gpu_run_child(r, parent, p->kind, p->name);
	if (node == MODEL_NONE)
		return gpu_run_second_pass(r); /* second pass: nothing to add */
	uint64_t dur = p->end > p->start ? (uint64_t)(p->end - p->start) : 0;
	uint32_t line, prof = MODEL_NONE;
	if (p->copy) {
		line = gpu_run_linef(r, c->fi, c->si, GPU_RUN_LINE_COPY,
				     (uint64_t)p->pid, 0, MODEL_NONE,
				     "%s copies", rocpd_v3_proc_label(c, p->pid));
	} else {
		uint64_t a = (uint64_t)p->pid << 32 ^ (uint64_t)p->agent;
		line = gpu_run_line(r, c->fi, c->si, GPU_RUN_LINE_QUEUE, a,
				  (uint64_t)p->queue, NULL, 0);
		if (line == MODEL_NONE && !gpu_run_second_pass(r)) {
			char label[240], plabel[240], agent[40];
			uint32_t gpu = rocpd_v3_agent_name(
			    &c->agents, p->agent, agent, sizeof(agent));
			snprintf(label, sizeof(label),
				 "%s %s queue 0x%" PRIx64,
				 rocpd_v3_proc_label(c, p->pid), agent,
				 (uint64_t)p->queue);
			snprintf(plabel, sizeof(plabel), "%s", label);
			prof = gpu_run_profile(r, "GPU", gpu ? gpu - 1 : 0,
					     "QUEUE", (uint64_t)p->queue,
					     plabel);
			line = gpu_run_line(r, c->fi, c->si, GPU_RUN_LINE_QUEUE,
					  a, (uint64_t)p->queue, label, prof);
		}
		if (line != MODEL_NONE)
			prof = gpu_run_line_at(r, line)->profile;
	}
	if (line == MODEL_NONE)
		return false;
	gpu_run_line_at(r, line)->group = TIMELINE_GROUP_QUEUE;
	/* the same work on its stream's line (the other grouping) */
	uint32_t sline = MODEL_NONE;
	if (p->has_stream) {
		sline = gpu_run_linef(r, c->fi, c->si, GPU_RUN_LINE_ALT,
				      (uint64_t)p->pid, (uint64_t)p->stream,
				      MODEL_NONE, "%s stream %" PRId64,
				      rocpd_v3_proc_label(c, p->pid), p->stream);
		if (sline == MODEL_NONE && !gpu_run_second_pass(r))
			return false;
		if (sline != MODEL_NONE)
			gpu_run_line_at(r, sline)->group = TIMELINE_GROUP_STREAM;
	}
	gpu_run_add_gpu(r, node, dur, prof);
	if (p->copy && p->bytes >= 0)
		gpu_run_add_bytes(r, node, p->bytes, dur);
	uint32_t at;
	if (!p->copy && c->n_pmc &&
	    gpu_run_map_get(&c->pmc_first, (uint64_t)p->rowid, &at))
		for (; at < c->n_pmc && c->pmc[at].dispatch == p->rowid; at++)
			gpu_run_add_counter(r, node, c->pmc[at].counter,
					    c->pmc[at].value);
	gpu_run_time_seen(r, (uint64_t)p->start, (uint64_t)p->end);
	uint64_t end = (uint64_t)(p->end > p->start ? p->end : p->start);
	/* a stream line holds kernels and copies: the event says which */
	if (sline != MODEL_NONE &&
	    !gpu_run_line_add(r, sline, (uint64_t)p->start, end, node,
			      (uint64_t)p->rowid |
				      (p->copy ? ROCPD_V3_COPY_EVENT : 0),
			      p->link))
		return false;
	return gpu_run_line_add(r, line, (uint64_t)p->start, end, node,
				(uint64_t)p->rowid, p->link);
}

/* The hardware counters of the set's dispatches (first pass): per
 * dispatch and counter name, the sum of its values (one row per counter
 * instance), read once and looked up by place().  A set without the
 * counter tables, or whose query fails to prepare (another layout of
 * them), has none. */
enum status rocpd_v3_read_pmc(struct v3_ctx *c, struct error *err)
{
	char *pe = rocpd_v3_tname(c->s, "rocpd_pmc_event"),
	     *pi = rocpd_v3_tname(c->s, "rocpd_info_pmc"),
	     *kd = rocpd_v3_tname(c->s, "rocpd_kernel_dispatch"), *raw = NULL, *sql = NULL;
	sqlite3_stmt *st = NULL;
	enum status s = STATUS_OK;
	bool have = pe && pi && kd && (raw = rocpd_v3_rawname(c->s, "rocpd_info_pmc")) &&
		    gpu_run_has_table(c->f, raw);
	if (have && asprintf(&sql,
			     "SELECT k.id, p.name, SUM(v.value) FROM %s v "
			     "JOIN %s p ON p.id = v.pmc_id JOIN %s k ON "
			     "k.event_id = v.event_id GROUP BY k.id, p.name "
			     "ORDER BY k.id, p.name",
			     pe, pi, kd) < 0)
		sql = NULL;
	if (have && sql &&
	    sqlite3_prepare_v2(c->f->db, sql, -1, &st, NULL) == SQLITE_OK) {
		size_t cap = 0;
		int rc;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t id;
			const char *name = gpu_run_col_text(st, 1);
			if (!gpu_run_col_int(st, 0, &id) || !*name ||
			    sqlite3_column_type(st, 2) == SQLITE_NULL)
				continue;
			uint32_t k = gpu_run_counter(c->r, name);
			if (k == MODEL_NONE)
				continue;
			if (!array_grow((void **)&c->pmc, &cap, c->n_pmc + 1,
					sizeof(*c->pmc))) {
				s = error_set(err, STATUS_NOMEM, c->f->path,
					      "out of memory");
				break;
			}
			if ((c->n_pmc == 0 || c->pmc[c->n_pmc - 1].dispatch != id) &&
			    !gpu_run_map_put(&c->pmc_first, (uint64_t)id,
					     (uint32_t)c->n_pmc)) {
				s = error_set(err, STATUS_NOMEM, c->f->path,
					      "out of memory");
				break;
			}
			c->pmc[c->n_pmc++] = (struct pmc_entry){
				id, k, sqlite3_column_double(st, 2)};
			if (c->n_pmc >= UINT32_MAX)
				break;
		}
		if (s == STATUS_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
			s = gpu_run_step_error(c->f, rc, err);
	}
	sqlite3_finalize(st);
	free(sql);
	free(raw);
	free(pe);
	free(pi);
	free(kd);
	return s;
}

/* What the rows of rocpd_v3_read_gpu share. */
struct gpu_rows {
	struct v3_ctx *c;
	bool copy;
	struct pending_list *pend;
};

/* The name and kind of dispatch or copy row `st` into `p`. */
static void gpu_row_name(struct v3_ctx *c, sqlite3_stmt *st,
			 struct pending *p)
{
	struct gpu_run *r = c->r;
	int64_t kid, size;
	if (p->copy) {
		p->kind = GPU_RUN_KIND(NODE_FUNCTION, GPU_RUN_GROUP_COPY);
		p->name = gpu_run_col_int(st, 8, &kid)
				  ? rocpd_v3_set_string(c, kid)
				  : gpu_run_intern(r, "MEMORY_COPY");
		if (gpu_run_col_int(st, 9, &size) && size >= 0)
			p->bytes = (double)size;
		return;
	}
	p->kind = GPU_RUN_KIND(NODE_KERNEL, GPU_RUN_GROUP_KERNEL);
	p->name = MODEL_NONE;
	if (gpu_run_col_int(st, 8, &kid) &&
	    !gpu_run_map_get(&c->s->kernels, (uint64_t)kid, &p->name)) {
		char buf[48];
		snprintf(buf, sizeof(buf), "<kernel %" PRId64 ">", kid);
		p->name = gpu_run_intern(r, buf);
	}
	if (p->name == MODEL_NONE)
		p->name = gpu_run_intern(r, "<kernel>");
}

/* One dispatch or copy: placed under its launching region, or pending;
 * false when out of memory. */
static bool gpu_row(void *ctx, sqlite3_stmt *st)
{
	struct gpu_rows *g = ctx;
	struct v3_ctx *c = g->c;
	struct gpu_run *r = c->r;
	struct pending p = {
		.copy = g->copy, .bytes = -1, .link = GPU_RUN_NO_LINK};
	int64_t stack;
	if (!gpu_run_col_int(st, 0, &p.rowid) ||
	    !gpu_run_col_int(st, 1, &p.pid) ||
	    !gpu_run_col_int(st, 3, &p.start) ||
	    !gpu_run_col_int(st, 4, &p.end) || p.start < 0 || p.end < p.start) {
		gpu_run_skip_row(r);
		return true;
	}
	if (!gpu_run_col_int(st, 2, &p.tid))
		p.tid = -1;
	gpu_run_col_int(st, 6, &p.agent);
	gpu_run_col_int(st, 7, &p.queue);
	p.has_stream = gpu_run_col_int(st, 10, &p.stream);
	gpu_row_name(c, st, &p);
	uint32_t parent;
	if (gpu_run_col_int(st, 5, &stack) && stack != 0 &&
	    gpu_run_idmap_get(&c->s->regions, (uint64_t)stack, &parent)) {
		p.link = (uint64_t)stack;
		return place(c, parent, &p) || gpu_run_second_pass(r);
	}
	return pending_push(g->pend, &p);
}

/* Kernel dispatches (copy false) or memory copies (true). */
enum status rocpd_v3_read_gpu(struct v3_ctx *c, bool copy,
			    struct pending_list *pend, struct error *err)
{
	char *tab = rocpd_v3_tname(c->s, copy ? "rocpd_memory_copy"
				     : "rocpd_kernel_dispatch");
	char *ev = rocpd_v3_tname(c->s, "rocpd_event");
	char *sql = NULL;
	enum status s = STATUS_OK;
	if (!tab || !ev ||
	    asprintf(&sql,
		     copy ? "SELECT k.id, k.pid, k.tid, k.start, k.\"end\", "
			    "e.stack_id, 0, 0, k.name_id, k.size, %s FROM %s k "
			    "LEFT JOIN %s e ON e.id = k.event_id"
			  : "SELECT k.id, k.pid, k.tid, k.start, k.\"end\", "
			    "e.stack_id, k.agent_id, k.queue_id, k.kernel_id, "
			    "NULL, %s FROM %s k LEFT JOIN %s e ON e.id = "
			    "k.event_id",
		     c->s->opt & (copy ? V3_COPY_STREAM : V3_DISPATCH_STREAM)
			     ? "k.stream_id"
			     : "NULL",
		     tab, ev) < 0) {
		s = error_set(err, STATUS_NOMEM, c->f->path, "out of memory");
		goto out;
	}
	struct gpu_rows g = {.c = c, .copy = copy, .pend = pend};
	s = gpu_run_each_row(c->f, sql, gpu_row, &g, err);
out:
	free(sql);
	free(tab);
	free(ev);
	return s;
}

/* The regions of one thread that pending GPU work was launched on,
 * sorted and linked (gpu_run_iv_sort_link). */
struct thread_regions {
	int64_t pid, tid;
	struct gpu_run_iv *iv;
	uint64_t n, cap;
};

/* One thread_regions per (pid, tid) of the pending work, none read yet;
 * false when out of memory. */
static bool pending_threads(const struct pending_list *pl,
			    struct thread_regions **out, size_t *n)
{
	size_t cap = 0;
	for (size_t i = 0; i < pl->n; i++) {
		size_t k = 0;
		while (k < *n && ((*out)[k].pid != pl->p[i].pid ||
				  (*out)[k].tid != pl->p[i].tid))
			k++;
		if (k < *n)
			continue;
		if (!array_grow((void **)out, &cap, *n + 1, sizeof(**out)))
			return false;
		(*out)[(*n)++] = (struct thread_regions){pl->p[i].pid,
							 pl->p[i].tid, NULL,
							 0, 0};
	}
	return true;
}

/* Region `id` [start, end] at `node` into the regions of its thread, when
 * it is one of `tls`; false when out of memory. */
static bool region_push(struct thread_regions *tls, size_t n, int64_t pid,
			int64_t tid, struct gpu_run_iv iv)
{
	for (size_t k = 0; k < n; k++) {
		struct thread_regions *t = &tls[k];
		if (t->pid != pid || t->tid != tid)
			continue;
		if (t->n == t->cap) {
			uint64_t cap = t->cap ? t->cap * 2 : 64;
			struct gpu_run_iv *g = realloc(t->iv, cap * sizeof(*g));
			if (!g)
				return false;
			t->iv = g;
			t->cap = cap;
		}
		t->iv[t->n++] = iv;
	}
	return true;
}

/* The set's regions on the threads of `tls`, sorted and linked. */
static enum status read_thread_regions(struct v3_ctx *c,
				       struct thread_regions *tls, size_t n,
				       struct error *err)
{
	char *reg = rocpd_v3_tname(c->s, "rocpd_region"), *sql = NULL;
	sqlite3_stmt *st = NULL;
	if (!reg || asprintf(&sql,
			     "SELECT id, pid, tid, start, \"end\" FROM %s",
			     reg) < 0) {
		free(reg);
		return error_set(err, STATUS_NOMEM, c->f->path,
				 "out of memory");
	}
	free(reg);
	enum status s = gpu_run_prepare(c->f, sql, &st, err);
	free(sql);
	if (s != STATUS_OK)
		return s;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id, pid, tid, start, end;
		uint32_t node;
		if (!gpu_run_col_int(st, 0, &id) || !gpu_run_col_int(st, 1, &pid) ||
		    !gpu_run_col_int(st, 2, &tid) ||
		    !gpu_run_col_int(st, 3, &start) ||
		    !gpu_run_col_int(st, 4, &end) || end < start ||
		    !gpu_run_idmap_get(&c->s->regions, (uint64_t)id, &node))
			continue;
		if (!region_push(tls, n, pid, tid,
				 (struct gpu_run_iv){
					 .begin = (uint64_t)start,
					 .end = (uint64_t)end,
					 .event = (uint64_t)id,
					 .ctx = node,
				 })) {
			s = error_set(err, STATUS_NOMEM, c->f->path,
				      "out of memory");
			break;
		}
	}
	if (s == STATUS_OK && rc != SQLITE_DONE)
		s = gpu_run_step_error(c->f, rc, err);
	sqlite3_finalize(st);
	for (size_t k = 0; s == STATUS_OK && k < n; k++)
		gpu_run_iv_sort_link(tls[k].iv, tls[k].n);
	return s;
}

/* Place pending GPU work and marks by time: the innermost region of its
 * thread running at its start (half-open), else the thread, else the
 * process. */
enum status rocpd_v3_resolve_pending(struct v3_ctx *c, struct pending_list *pl,
				     struct error *err)
{
	struct gpu_run *r = c->r;
	if (pl->n == 0)
		return STATUS_OK;
	uint64_t work = 0;
	for (size_t i = 0; i < pl->n; i++)
		work += !pl->p[i].mark;
	gpu_run_add_unlinked(r, work);
	struct thread_regions *tls = NULL;
	size_t n_tls = 0;
	enum status s = pending_threads(pl, &tls, &n_tls)
				? read_thread_regions(c, tls, n_tls, err)
				: error_set(err, STATUS_NOMEM, c->f->path,
					    "out of memory");
	for (size_t i = 0; s == STATUS_OK && i < pl->n; i++) {
		struct pending *p = &pl->p[i];
		uint32_t parent = MODEL_NONE;
		for (size_t k = 0; k < n_tls && parent == MODEL_NONE; k++) {
			if (tls[k].pid != p->pid || tls[k].tid != p->tid)
				continue;
			uint64_t a = gpu_run_iv_active(tls[k].iv, tls[k].n,
						       (uint64_t)p->start);
			if (a != UINT64_MAX)
				parent = tls[k].iv[a].ctx;
		}
		if (parent == MODEL_NONE && p->tid >= 0)
			parent = rocpd_v3_thread_node(c, p->pid, p->tid);
		if (parent == MODEL_NONE)
			parent = rocpd_v3_process_node(c, p->pid);
		if (parent != MODEL_NONE && !place(c, parent, p) &&
		    !gpu_run_second_pass(r))
			s = error_set(err, STATUS_NOMEM, c->f->path,
				      "out of memory");
	}
	for (size_t k = 0; k < n_tls; k++)
		free(tls[k].iv);
	free(tls);
	return s;
}
