/* rocpd_v3: rocprofv3 / rocprof-sys "rocpd" databases (schema 3, the SQL
 * of rocprofiler-sdk-rocpd: rocpd_tables.sql), one or several per-process
 * table sets (`rocpd_<table>_<uuid>`) per file.  Reads the tables, never
 * the shipped views (doc/rocpd.md says why), joins in C on the table set
 * (ids are per process), and follows the explicit links: a dispatch's
 * event -> stack_id = the launching API region's id -> parent_stack_id =
 * the enclosing API call or roctx range (notes/rocpd.md 1.5), with time
 * nesting on the launching thread where a link does not resolve.  This
 * file: the order of the reads of a set, its process and thread nodes,
 * its host regions and instants; what a set says of itself is
 * rocpd_v3_meta.c, its GPU work rocpd_v3_gpu.c.  Must not depend on
 * curses or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/rocpd/rocpd_v3_internal.h"
#include "formats/rocpd/rocpd_v3_counters.h"

/* The process node of `pid` (made on first sight, labelled with what
 * rocpd_info_process / rocpd_info_node say). */
uint32_t rocpd_v3_process_node(struct v3_ctx *c, int64_t pid)
{
	uint32_t node;
	if (gpu_run_map_get(&c->s->procs, (uint64_t)pid, &node))
		return node;
	char label[96];
	snprintf(label, sizeof(label), "pid %" PRId64, pid);
	node = gpu_run_child(c->r, 0, NODE_ENTRY, gpu_run_intern(c->r, label));
	if (node != MODEL_NONE)
		gpu_run_map_put(&c->s->procs, (uint64_t)pid, node);
	return node;
}

const char *rocpd_v3_proc_label(struct v3_ctx *c, int64_t pid)
{
	uint32_t node;
	if (!gpu_run_map_get(&c->s->procs, (uint64_t)pid, &node))
		return "";
	return gpu_run_node_name(c->r, node);
}

uint32_t rocpd_v3_thread_node(struct v3_ctx *c, int64_t pid, int64_t tid)
{
	uint64_t key = (uint64_t)pid << 32 ^ (uint64_t)tid;
	uint32_t node;
	if (gpu_run_map_get(&c->s->threads, key, &node))
		return node;
	uint32_t proc = rocpd_v3_process_node(c, pid);
	if (proc == MODEL_NONE || gpu_run_second_pass(c->r))
		return MODEL_NONE;
	char name[64], label[200];
	snprintf(name, sizeof(name), "thread %" PRId64 "%s", tid,
		 tid == pid ? " (main)" : "");
	node = gpu_run_child(c->r, proc, NODE_ENTRY, gpu_run_intern(c->r, name));
	if (node == MODEL_NONE)
		return node;
	snprintf(label, sizeof(label), "%s tid %" PRId64, rocpd_v3_proc_label(c, pid),
		 tid);
	uint32_t prof = gpu_run_profile(c->r, "PROCESS", (uint64_t)pid,
				      "THREAD", (uint64_t)tid, label);
	gpu_run_set_node_profile(c->r, node, prof);
	gpu_run_map_put(&c->s->threads, key, node);
	gpu_run_map_put(&c->s->thread_profiles, key, prof);
	return node;
}

uint32_t rocpd_v3_host_line(struct v3_ctx *c, int64_t pid, int64_t tid)
{
	uint32_t line = gpu_run_line(c->r, c->fi, c->si, GPU_RUN_LINE_HOST,
				     (uint64_t)pid, (uint64_t)tid, NULL, 0);
	if (line != MODEL_NONE || gpu_run_second_pass(c->r))
		return line;
	uint32_t prof = MODEL_NONE;
	gpu_run_map_get(&c->s->thread_profiles,
			(uint64_t)pid << 32 ^ (uint64_t)tid, &prof);
	return gpu_run_linef(c->r, c->fi, c->si, GPU_RUN_LINE_HOST,
			     (uint64_t)pid, (uint64_t)tid, prof,
			     "%s tid %" PRId64, rocpd_v3_proc_label(c, pid), tid);
}

/* A string of the set's string table, through the cache. */
uint32_t rocpd_v3_set_string(struct v3_ctx *c, int64_t id)
{
	return gpu_run_string(c->r, c->f, c->s, "rocpd_string", "string", id);
}

/* A roctxMark region (column 8 its operation's name `op`, linked to
 * region `up`): an instant on its thread's line, named by its message,
 * out of the tree; counted in the Marks column (rocpd_v3_mark); false
 * when out of memory. */
static bool region_mark(struct v3_ctx *c, sqlite3_stmt *st, const char *op,
			uint32_t thread, int64_t up, int64_t pid, int64_t tid,
			int64_t start, int64_t id)
{
	struct gpu_run *r = c->r;
	if (thread != MODEL_NONE && !rocpd_v3_mark(c, pid, tid, start, up))
		return false;
	const char *msg = (const char *)sqlite3_column_text(st, 7);
	uint32_t name = gpu_run_intern(r, msg && *msg ? msg : op);
	uint32_t line = thread != MODEL_NONE || gpu_run_second_pass(r)
				? rocpd_v3_host_line(c, pid, tid)
				: MODEL_NONE;
	if (line != MODEL_NONE && name != MODEL_NONE)
		gpu_run_instant_add(r, line, (uint64_t)start, name,
				    (uint64_t)id);
	return true;
}

/* One row of read_regions' query: a mark, or a region under the region
 * it links to (else its thread) with its interval; false when out of
 * memory. */
static bool region_row(void *ctx, sqlite3_stmt *st)
{
	struct v3_ctx *c = ctx;
	struct gpu_run *r = c->r;
	int64_t id, pid, tid, start, end, name_id, up;
	if (!gpu_run_col_int(st, 0, &id) || !gpu_run_col_int(st, 1, &pid) ||
	    !gpu_run_col_int(st, 2, &tid) || !gpu_run_col_int(st, 3, &start) ||
	    !gpu_run_col_int(st, 4, &end) || start < 0 || end < start) {
		gpu_run_skip_row(r);
		return true;
	}
	uint32_t parent = MODEL_NONE,
		 thread = rocpd_v3_thread_node(c, pid, tid);
	if (!gpu_run_col_int(st, 6, &up))
		up = 0;
	const char *op = (const char *)sqlite3_column_text(st, 8);
	if (op && strncmp(op, "roctxMark", 9) == 0)
		return region_mark(c, st, op, thread, up, pid, tid, start, id);
	bool linked = up != 0 &&
		      gpu_run_idmap_get(&c->s->regions, (uint64_t)up, &parent);
	if (!linked)
		parent = thread;
	if (parent == MODEL_NONE)
		return true;
	const char *msg = (const char *)sqlite3_column_text(st, 7);
	uint32_t name;
	uint8_t kind = GPU_RUN_KIND(NODE_FUNCTION, GPU_RUN_GROUP_API);
	if (msg && *msg) {
		name = gpu_run_intern(r, msg);
		kind = GPU_RUN_KIND(NODE_REGION, GPU_RUN_GROUP_RANGE);
	} else {
		name = gpu_run_col_int(st, 5, &name_id)
			       ? rocpd_v3_set_string(c, name_id)
			       : gpu_run_intern(r, "<unnamed>");
	}
	uint32_t node = gpu_run_child(r, parent, kind, name);
	if (node == MODEL_NONE)
		return gpu_run_second_pass(r);
	if (!gpu_run_idmap_put(&c->s->regions, (uint64_t)id, node))
		return false;
	return gpu_run_host_interval(r, node, linked ? parent : MODEL_NONE,
				     rocpd_v3_host_line(c, pid, tid), start,
				     end, (uint64_t)id, (uint64_t)id) ||
	       gpu_run_second_pass(r);
}

/* Host regions (API calls, roctx ranges), in id order: a parent's id (the
 * enclosing correlation id) is smaller than its children's. */
static enum status read_regions(struct v3_ctx *c, struct error *err)
{
	char *reg = rocpd_v3_tname(c->s, "rocpd_region"), *ev = rocpd_v3_tname(c->s, "rocpd_event");
	char *str = rocpd_v3_tname(c->s, "rocpd_string");
	char *sql = NULL;
	enum status s = STATUS_OK;
	/* column 8: the operation's name of a zero-length region, to tell
	 * a roctxMark (an instant) from a zero-length API call */
	if (!reg || !ev || !str ||
	    asprintf(&sql,
		     "SELECT r.id, r.pid, r.tid, r.start, r.\"end\", "
		     "r.name_id, e.parent_stack_id, CASE WHEN "
		     "e.extdata <> '{}' AND " /* most rows: json_valid costs */
		     "json_valid(e.extdata) THEN json_extract(e.extdata, "
		     "'$.message') END, CASE WHEN r.start = r.\"end\" THEN "
		     "(SELECT string FROM %s WHERE id = r.name_id) END "
		     "FROM %s r LEFT JOIN %s e ON e.id = "
		     "r.event_id ORDER BY r.id",
		     str, reg, ev) < 0) {
		s = error_set(err, STATUS_NOMEM, c->f->path, "out of memory");
		goto out;
	}
	s = gpu_run_each_row(c->f, sql, region_row, c, err);
out:
	free(sql);
	free(reg);
	free(ev);
	free(str);
	return s;
}

#define ROCPD_SAMPLE_EVENT (1ull << 62)

/* One row of read_samples' query: an instant on its track's thread's
 * line, counted in the Marks column at the region its event links to
 * (column 6: parent_stack_id, as rocprofv3 writes a zero-length call or
 * roctxMark), else by time (rocpd_v3_mark); false when out of memory. */
static bool sample_row(void *ctx, sqlite3_stmt *st)
{
	struct v3_ctx *c = ctx;
	struct gpu_run *r = c->r;
	int64_t pid, tid, t, name_id, rowid;
	if (!gpu_run_col_int(st, 0, &pid) || !gpu_run_col_int(st, 1, &tid) ||
	    !gpu_run_col_int(st, 2, &t) || t < 0 ||
	    !gpu_run_col_int(st, 5, &rowid) || rowid < 0) {
		gpu_run_skip_row(r);
		return true;
	}
	const char *msg = (const char *)sqlite3_column_text(st, 4);
	uint32_t name;
	if (msg && *msg)
		name = gpu_run_intern(r, msg);
	else if (gpu_run_col_int(st, 3, &name_id))
		name = rocpd_v3_set_string(c, name_id);
	else
		name = gpu_run_intern(r, "<instant>");
	int64_t up;
	if (!gpu_run_col_int(st, 6, &up))
		up = 0;
	if (!gpu_run_second_pass(r) &&
	    rocpd_v3_thread_node(c, pid, tid) == MODEL_NONE)
		return true;
	if (!rocpd_v3_mark(c, pid, tid, t, up))
		return false;
	uint32_t line = rocpd_v3_host_line(c, pid, tid);
	if (line == MODEL_NONE || name == MODEL_NONE)
		return true;
	/* the sample's id, marked as not a region's: the order of instants
	 * at one time (after roctxMark regions), and no attributes (v3
	 * details of a host line are a region's) */
	return gpu_run_instant_add(r, line, (uint64_t)t, name,
				   ROCPD_SAMPLE_EVENT | (uint64_t)rowid) ||
	       gpu_run_second_pass(r);
}

/* Instants of rocpd_sample (roctxMark and other zero-length events,
 * notes/rocpd.md 1.2): on the line of their track's thread, named by the
 * event's message, else the track's name (a category), at `timestamp`;
 * several at one time in id order.  A sample whose event is also a
 * region's is not an instant: rocprof-sys writes each CPU sample as a
 * region per stack frame plus a sample of the same event, and the
 * regions (the sampled call stack over the sampling period) show it
 * (roc-optiq tells them apart the same way).  A set without the tables
 * has none. */
static enum status read_samples(struct v3_ctx *c, struct error *err)
{
	static const char *const sample[] = {"track_id", "timestamp",
					     "event_id", NULL};
	static const char *const track[] = {"id", "pid", "tid", "name_id",
					    NULL};
	if (!rocpd_v3_has_columns(c, "rocpd_sample", sample) ||
	    !rocpd_v3_has_columns(c, "rocpd_track", track))
		return STATUS_OK;
	char *sa = rocpd_v3_tname(c->s, "rocpd_sample");
	char *tr = rocpd_v3_tname(c->s, "rocpd_track");
	char *ev = rocpd_v3_tname(c->s, "rocpd_event");
	static const char *const region[] = {"event_id", NULL};
	char *rg = rocpd_v3_has_columns(c, "rocpd_region", region)
			   ? rocpd_v3_tname(c->s, "rocpd_region")
			   : NULL;
	char *sql = NULL, *not_region = NULL;
	enum status s = STATUS_OK;
	if (rg && asprintf(&not_region,
			   " WHERE s.event_id IS NULL OR s.event_id NOT IN "
			   "(SELECT event_id FROM %s WHERE event_id IS NOT "
			   "NULL)",
			   rg) < 0)
		not_region = NULL;
	if (!sa || !tr || !ev || (rg && !not_region) ||
	    asprintf(&sql,
		     "SELECT t.pid, t.tid, s.timestamp, t.name_id, CASE WHEN "
		     "e.extdata <> '{}' AND json_valid(e.extdata) THEN json_extract(e.extdata, "
		     "'$.message') END, s.id, e.parent_stack_id FROM %s s JOIN "
		     "%s t ON t.id = "
		     "s.track_id LEFT JOIN %s e ON e.id = s.event_id%s",
		     sa, tr, ev, not_region ? not_region : "") < 0) {
		s = error_set(err, STATUS_NOMEM, c->f->path, "out of memory");
		goto out;
	}
	s = gpu_run_each_row(c->f, sql, sample_row, c, err);
out:
	free(sql);
	free(not_region);
	free(rg);
	free(sa);
	free(tr);
	free(ev);
	return s;
}

/* Whether the set's table `base` exists with every column of `cols`. */
bool rocpd_v3_has_columns(struct v3_ctx *c, const char *base,
			const char *const *cols)
{
	char *raw = rocpd_v3_rawname(c->s, base);
	bool ok = raw && gpu_run_has_table(c->f, raw);
	for (size_t i = 0; ok && cols[i]; i++)
		ok = gpu_run_has_column(c->f, raw, cols[i]);
	free(raw);
	return ok;
}

/* Copies in flight and allocated memory (rocpd_v3_counters.c), from the
 * tables that have the columns they need. */
static enum status counter_lines(struct v3_ctx *c, struct error *err)
{
	static const char *const copy[] = {"pid", "dst_agent_id", "start",
					   "end", "size", NULL};
	static const char *const alloc[] = {"pid", "agent_id", "type",
					    "level", "start", "size",
					    "address", NULL};
	char *ct = c->s->has_copy && rocpd_v3_has_columns(c, "rocpd_memory_copy", copy)
			   ? rocpd_v3_tname(c->s, "rocpd_memory_copy")
			   : NULL;
	char *at = rocpd_v3_has_columns(c, "rocpd_memory_allocate", alloc)
			   ? rocpd_v3_tname(c->s, "rocpd_memory_allocate")
			   : NULL;
	struct rocpd_v3_counter_ctx cc = {
		.f = c->f,
		.s = c->s,
		.fi = c->fi,
		.si = c->si,
		.agents = &c->agents,
		.copy_table = ct,
		.alloc_table = at,
	};
	enum status st = rocpd_v3_counter_lines(c->r, &cc, err);
	free(ct);
	free(at);
	return st;
}

static enum status rocpd_v3_read(struct gpu_run *r, uint32_t fi, struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	enum status s = STATUS_OK;
	if (!gpu_run_second_pass(r)) {
		s = rocpd_v3_find_sets(f, err);
		for (size_t i = 0; i < f->n_sets && s == STATUS_OK; i++)
			s = rocpd_v3_check_set(f, &f->sets[i], err);
		if (s != STATUS_OK)
			return s;
	}
	for (uint32_t si = 0; si < f->n_sets && s == STATUS_OK; si++) {
		struct pending_list pend = {0};
		struct v3_ctx c = {.r = r, .f = f, .fi = fi, .si = si,
				   .s = &f->sets[si], .pend = &pend};
		if (!gpu_run_second_pass(r))
			s = rocpd_v3_read_meta(&c, err);
		rocpd_v3_read_agents(&c);
		if (s == STATUS_OK)
			s = read_regions(&c, err);
		if (s == STATUS_OK)
			s = read_samples(&c, err);
		if (s == STATUS_OK && c.s->has_pmc && !gpu_run_second_pass(r))
			s = rocpd_v3_read_pmc(&c, err);
		if (s == STATUS_OK)
			s = rocpd_v3_read_gpu(&c, false, &pend, err);
		if (s == STATUS_OK && c.s->has_copy)
			s = rocpd_v3_read_gpu(&c, true, &pend, err);
		if (s == STATUS_OK)
			s = rocpd_v3_resolve_pending(&c, &pend, err);
		if (s == STATUS_OK && !gpu_run_second_pass(r))
			s = counter_lines(&c, err);
		free(pend.p);
		free(c.pmc);
		gpu_run_map_free(&c.pmc_first);
		gpu_run_map_free(&c.agents);
		gpu_run_map_free(&c.hosts);
		/* region ids are needed again only by a second pass, which
		 * reads the regions again */
		gpu_run_idmap_free(&c.s->regions);
	}
	return s;
}

/* The threads of the set (rocpd_info_thread), named as the regions'
 * pass names them; none when the table is absent. */
static enum status sketch_threads(struct v3_ctx *c, struct error *err)
{
	char *t = rocpd_v3_tname(c->s, "rocpd_info_thread"),
	     *raw = rocpd_v3_rawname(c->s, "rocpd_info_thread"), *sql = NULL;
	sqlite3_stmt *st = NULL;
	enum status s = STATUS_OK;
	if (!t || !raw ||
	    (gpu_run_has_table(c->f, raw) &&
	     asprintf(&sql, "SELECT pid, tid FROM %s ORDER BY id", t) < 0))
		s = error_set(err, STATUS_NOMEM, c->f->path, "out of memory");
	else if (sql)
		s = gpu_run_prepare(c->f, sql, &st, err);
	int rc = SQLITE_DONE;
	while (s == STATUS_OK && st && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t pid, tid;
		if (gpu_run_col_int(st, 0, &pid) && gpu_run_col_int(st, 1, &tid) &&
		    rocpd_v3_thread_node(c, pid, tid) == MODEL_NONE)
			s = error_set(err, STATUS_NOMEM, c->f->path,
				      "out of memory");
	}
	if (s == STATUS_OK && rc != SQLITE_DONE)
		s = gpu_run_step_error(c->f, rc, err);
	sqlite3_finalize(st);
	free(sql);
	free(t);
	free(raw);
	return s;
}

/* The set's kernel dispatches, counted (the table's b-tree count, not a
 * scan), under its process when it has one, and its kernels' names under
 * that process. */
static enum status sketch_kernels(struct v3_ctx *c, struct error *err)
{
	uint32_t proc = MODEL_NONE;
	if (c->s->procs.n == 1)
		for (size_t i = 0; i < c->s->procs.cap; i++)
			if (c->s->procs.slot[i].used)
				proc = c->s->procs.slot[i].val;
	if (proc == MODEL_NONE)
		return STATUS_OK;
	char *kd = rocpd_v3_tname(c->s, "rocpd_kernel_dispatch"), *sql = NULL;
	sqlite3_stmt *st = NULL;
	enum status s = STATUS_OK;
	if (!kd || asprintf(&sql, "SELECT count(*) FROM %s", kd) < 0)
		s = error_set(err, STATUS_NOMEM, c->f->path, "out of memory");
	else
		s = gpu_run_prepare(c->f, sql, &st, err);
	int64_t n;
	int rc = s == STATUS_OK ? sqlite3_step(st) : SQLITE_DONE;
	if (rc == SQLITE_ROW && gpu_run_col_int(st, 0, &n) && n > 0)
		gpu_run_add_calls(c->r, proc, (uint64_t)n);
	else if (s == STATUS_OK && rc != SQLITE_ROW)
		s = gpu_run_step_error(c->f, rc, err);
	sqlite3_finalize(st);
	free(sql);
	free(kd);
	for (size_t i = 0; s == STATUS_OK && i < c->s->kernels.cap; i++)
		if (c->s->kernels.slot[i].used &&
		    gpu_run_child(c->r, proc,
				  GPU_RUN_KIND(NODE_KERNEL, GPU_RUN_GROUP_KERNEL),
				  c->s->kernels.slot[i].val) == MODEL_NONE)
			s = error_set(err, STATUS_NOMEM, c->f->path,
				      "out of memory");
	return s;
}

/* The sketch of a file (gpu_run_layout.sketch): its processes, threads,
 * kernel names and dispatch counts, from small queries. */
static enum status rocpd_v3_sketch(struct gpu_run *r, uint32_t fi,
				   struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	enum status s = rocpd_v3_find_sets(f, err);
	for (size_t i = 0; i < f->n_sets && s == STATUS_OK; i++)
		s = rocpd_v3_check_set(f, &f->sets[i], err);
	for (uint32_t si = 0; si < f->n_sets && s == STATUS_OK; si++) {
		struct v3_ctx c = {.r = r, .f = f, .fi = fi, .si = si,
				   .s = &f->sets[si]};
		s = rocpd_v3_read_meta(&c, err);
		if (s == STATUS_OK)
			s = sketch_threads(&c, err);
		if (s == STATUS_OK)
			s = sketch_kernels(&c, err);
	}
	return s;
}

const struct gpu_run_layout rocpd_layout_v3 = {
	.read = rocpd_v3_read,
	.detail = rocpd_v3_detail,
	.sketch = rocpd_v3_sketch,
};
