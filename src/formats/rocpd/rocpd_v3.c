/* rocpd_v3: rocprofv3 / rocprof-sys "rocpd" databases (schema 3, the SQL
 * of rocprofiler-sdk-rocpd: rocpd_tables.sql), one or several per-process
 * table sets (`rocpd_<table>_<uuid>`) per file.  Reads the tables, never
 * the shipped views (doc/rocpd.md says why), joins in C on the table set
 * (ids are per process), and follows the explicit links: a dispatch's
 * event -> stack_id = the launching API region's id -> parent_stack_id =
 * the enclosing API call or roctx range (notes/rocpd.md 1.5), with time
 * nesting on the launching thread where a link does not resolve.  Must
 * not depend on curses or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/rocpd/rocpd_layouts.h"
#include "formats/rocpd/rocpd_v3_counters.h"

/* Rank from a process environment (JSON object). */
static bool env_rank(const char *env, long long *rank)
{
	static const char *const vars[] = {
		"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
		"PALS_RANKID", "MV2_COMM_WORLD_RANK", NULL};
	json_t *j = json_loads(env, JSON_REJECT_DUPLICATES, NULL);
	bool found = false;
	for (size_t i = 0; j && json_is_object(j) && vars[i] && !found; i++) {
		json_t *v = json_object_get(j, vars[i]);
		char *end;
		if (json_is_string(v)) {
			*rank = strtoll(json_string_value(v), &end, 10);
			found = end != json_string_value(v) && !*end;
		} else if (json_is_integer(v)) {
			*rank = json_integer_value(v);
			found = true;
		}
	}
	json_decref(j);
	return found;
}

struct v3_ctx {
	struct gpu_run *r;
	struct gpu_run_file *f;
	uint32_t fi, si;
	struct gpu_run_set *s;
	struct gpu_run_map agents; /* agent id -> GPU index + 1 */
	struct gpu_run_map hosts;  /* pid -> string handle of the host label */
	/* first pass, a set with counters: each dispatch's counter sums,
	 * ordered by dispatch id; dispatch id -> its first entry */
	struct pmc_entry {
		int64_t dispatch;
		uint32_t counter;
		double value;
	} *pmc;
	size_t n_pmc;
	struct gpu_run_map pmc_first;
};

/* The process node of `pid` (made on first sight, labelled with what
 * rocpd_info_process / rocpd_info_node say). */
static uint32_t process_node(struct v3_ctx *c, int64_t pid)
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

static const char *proc_label(struct v3_ctx *c, int64_t pid)
{
	uint32_t node;
	if (!gpu_run_map_get(&c->s->procs, (uint64_t)pid, &node))
		return "";
	return gpu_run_node_name(c->r, node);
}

static uint32_t thread_node(struct v3_ctx *c, int64_t pid, int64_t tid)
{
	uint64_t key = (uint64_t)pid << 32 ^ (uint64_t)tid;
	uint32_t node;
	if (gpu_run_map_get(&c->s->threads, key, &node))
		return node;
	uint32_t proc = process_node(c, pid);
	if (proc == MODEL_NONE || gpu_run_second_pass(c->r))
		return MODEL_NONE;
	char name[64], label[200];
	snprintf(name, sizeof(name), "thread %" PRId64 "%s", tid,
		 tid == pid ? " (main)" : "");
	node = gpu_run_child(c->r, proc, NODE_ENTRY, gpu_run_intern(c->r, name));
	if (node == MODEL_NONE)
		return node;
	snprintf(label, sizeof(label), "%s tid %" PRId64, proc_label(c, pid),
		 tid);
	uint32_t prof = gpu_run_profile(c->r, "PROCESS", (uint64_t)pid,
				      "THREAD", (uint64_t)tid, label);
	gpu_run_set_node_profile(c->r, node, prof);
	gpu_run_map_put(&c->s->threads, key, node);
	gpu_run_map_put(&c->s->thread_profiles, key, prof);
	return node;
}

static uint32_t host_line(struct v3_ctx *c, int64_t pid, int64_t tid)
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
			     "%s tid %" PRId64, proc_label(c, pid), tid);
}

/* A string of the set's string table, through the cache. */
static uint32_t set_string(struct v3_ctx *c, int64_t id)
{
	return gpu_run_string(c->r, c->f, c->s, "rocpd_string", "string", id);
}

/* One kernel symbol while the names are chosen. */
struct symbol {
	int64_t id;
	char *display, *mangled;
	bool shared; /* its display name names another mangled name too */
};

static int symbol_cmp(const void *pa, const void *pb)
{
	const struct symbol *a = pa, *b = pb;
	int d = strcmp(a->display, b->display);
	return d ? d : strcmp(a->mangled, b->mangled);
}

/* The kernel symbols of statement `st` (id, display_name, kernel_name)
 * named as the run chose: the demangled name is display_name (rocprofv3
 * writes the demangled name there, or a truncated one with
 * --truncate-kernels), else kernel_name; symbols whose display names are
 * equal but whose kernel_names differ (instantiations truncated to one
 * name) are named by kernel_name, so that they stay apart; "mangled" is
 * kernel_name, else display_name; "base" the base of display_name
 * (gpu_run_kernel_base).  Into c->s->kernels. */
static enum status kernel_names(struct v3_ctx *c, sqlite3_stmt *st,
				struct error *err)
{
	struct symbol *v = NULL;
	size_t n = 0, cap = 0;
	enum status s = STATUS_OK;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id;
		if (!gpu_run_col_int(st, 0, &id))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			struct symbol *g = realloc(v, cap * sizeof(*g));
			if (!g)
				goto nomem;
			v = g;
		}
		const char *d = gpu_run_col_text(st, 1),
			   *m = gpu_run_col_text(st, 2);
		v[n] = (struct symbol){.id = id,
				       .display = strdup(*d ? d : m),
				       .mangled = strdup(*m ? m : d)};
		n++;
		if (!v[n - 1].display || !v[n - 1].mangled)
			goto nomem;
	}
	if (rc != SQLITE_DONE) {
		s = gpu_run_step_error(c->f, rc, err);
		goto done;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), symbol_cmp);
	for (size_t i = 1; i < n; i++)
		if (strcmp(v[i].display, v[i - 1].display) == 0 &&
		    strcmp(v[i].mangled, v[i - 1].mangled) != 0)
			v[i].shared = v[i - 1].shared = true;
	for (size_t i = 0; i < n; i++) {
		const char *name = v[i].display;
		char base[512];
		switch (gpu_run_kernel_choice(c->r)) {
		case GPU_RUN_KERNEL_BASE:
			gpu_run_kernel_base(v[i].display, base, sizeof(base));
			name = base;
			break;
		case GPU_RUN_KERNEL_MANGLED:
			name = v[i].mangled;
			break;
		case GPU_RUN_KERNEL_DEMANGLED:
			if (v[i].shared)
				name = v[i].mangled;
			break;
		}
		uint32_t h = gpu_run_intern(c->r, name);
		if (h == MODEL_NONE ||
		    !gpu_run_map_put(&c->s->kernels, (uint64_t)v[i].id, h))
			goto nomem;
	}
	goto done;
nomem:
	s = error_set(err, STATUS_NOMEM, c->f->path, "out of memory");
done:
	for (size_t i = 0; i < n; i++) {
		free(v[i].display);
		free(v[i].mangled);
	}
	free(v);
	return s;
}

static enum status read_meta(struct v3_ctx *c, struct error *err)
{
	char *proc = rocpd_v3_tname(c->s, "rocpd_info_process");
	char *node = rocpd_v3_tname(c->s, "rocpd_info_node");
	char *rproc = rocpd_v3_rawname(c->s, "rocpd_info_process");
	char *rnode = rocpd_v3_rawname(c->s, "rocpd_info_node");
	char *agent = rocpd_v3_tname(c->s, "rocpd_info_agent");
	char *ragent = rocpd_v3_rawname(c->s, "rocpd_info_agent");
	char *sym = rocpd_v3_tname(c->s, "rocpd_info_kernel_symbol");
	char *sql = NULL;
	sqlite3_stmt *st = NULL;
	enum status s = STATUS_OK;
	int rc;
	if (!proc || !node || !rproc || !rnode || !agent || !ragent || !sym) {
		s = error_set(err, STATUS_NOMEM, c->f->path, "out of memory");
		goto out;
	}
	if (gpu_run_has_table(c->f, rproc) &&
	    gpu_run_has_column(c->f, rproc, "pid")) {
		bool nodes = gpu_run_has_table(c->f, rnode) &&
			     gpu_run_has_column(c->f, rnode, "hostname") &&
			     gpu_run_has_column(c->f, rproc, "nid");
		bool env = gpu_run_has_column(c->f, rproc, "environment");
		if (asprintf(&sql,
			     "SELECT p.pid, %s, %s FROM %s p %s%s%s",
			     nodes ? "n.hostname" : "NULL",
			     env ? "p.environment" : "NULL", proc,
			     nodes ? "LEFT JOIN " : "", nodes ? node : "",
			     nodes ? " n ON n.id = p.nid" : "") < 0) {
			s = error_set(err, STATUS_NOMEM, c->f->path,
				      "out of memory");
			goto out;
		}
		if ((s = gpu_run_prepare(c->f, sql, &st, err)) != STATUS_OK)
			goto out;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t pid;
			long long rank = 0;
			if (!gpu_run_col_int(st, 0, &pid))
				continue;
			const char *host = gpu_run_col_text(st, 1);
			gpu_run_file_host(c->r, c->fi, host);
			char label[160];
			int k = snprintf(label, sizeof(label), "%.80s%spid %" PRId64,
					 host, *host ? " " : "", pid);
			if (env_rank(gpu_run_col_text(st, 2), &rank) && k > 0 &&
			    (size_t)k < sizeof(label))
				snprintf(label + k, sizeof(label) - (size_t)k,
					 " rank %lld", rank);
			uint32_t n = gpu_run_child(c->r, 0, NODE_ENTRY,
						 gpu_run_intern(c->r, label));
			if (n == MODEL_NONE ||
			    !gpu_run_map_put(&c->s->procs, (uint64_t)pid, n)) {
				s = error_set(err, STATUS_NOMEM, c->f->path,
					      "out of memory");
				goto out;
			}
		}
		if (rc != SQLITE_DONE) {
			s = gpu_run_step_error(c->f, rc, err);
			goto out;
		}
		sqlite3_finalize(st);
		st = NULL;
		free(sql);
		sql = NULL;
	}
	/* kernel names (reader_options.kernel_names, kernel_names()) */
	if (asprintf(&sql,
		     "SELECT id, display_name, kernel_name FROM %s", sym) < 0) {
		s = error_set(err, STATUS_NOMEM, c->f->path, "out of memory");
		goto out;
	}
	if ((s = gpu_run_prepare(c->f, sql, &st, err)) != STATUS_OK)
		goto out;
	s = kernel_names(c, st, err);
out:
	sqlite3_finalize(st);
	free(sql);
	free(proc);
	free(node);
	free(rproc);
	free(rnode);
	free(agent);
	free(ragent);
	free(sym);
	return s;
}

/* GPU indexes of agents (for line labels); absent table: none. */
static void read_agents(struct v3_ctx *c)
{
	char *t = rocpd_v3_tname(c->s, "rocpd_info_agent"),
	     *raw = rocpd_v3_rawname(c->s, "rocpd_info_agent"), *sql = NULL;
	sqlite3_stmt *st = NULL;
	if (t && raw && gpu_run_has_table(c->f, raw) &&
	    gpu_run_has_column(c->f, raw, "type_index") &&
	    asprintf(&sql, "SELECT id, type_index FROM %s WHERE type = 'GPU'",
		     t) >= 0 &&
	    sqlite3_prepare_v2(c->f->db, sql, -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			int64_t id, idx;
			if (gpu_run_col_int(st, 0, &id) &&
			    gpu_run_col_int(st, 1, &idx) && idx >= 0)
				gpu_run_map_put(&c->agents, (uint64_t)id,
					      (uint32_t)idx + 1);
		}
	}
	sqlite3_finalize(st);
	free(sql);
	free(t);
	free(raw);
}

/* GPU work whose launching region is not known: placed after the scan,
 * by time on its thread. */
struct pending {
	int64_t pid, tid, start, end, rowid, agent, queue, stream;
	bool has_stream;
	uint32_t name;
	uint8_t kind;
	bool copy;
	double bytes;
	uint64_t link; /* the launching region's id (trace link), or none */
};

struct pending_list {
	struct pending *p;
	size_t n, cap;
};

static bool pending_push(struct pending_list *l, const struct pending *p)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct pending *n = realloc(l->p, cap * sizeof(*n));
		if (!n)
			return false;
		l->p = n;
		l->cap = cap;
	}
	l->p[l->n++] = *p;
	return true;
}

/* Place one kernel or copy under `parent`: values, line. */
static bool place(struct v3_ctx *c, uint32_t parent, const struct pending *p)
{
	struct gpu_run *r = c->r;
	uint32_t node = gpu_run_child(r, parent, p->kind, p->name);
	if (node == MODEL_NONE)
		return gpu_run_second_pass(r); /* second pass: nothing to add */
	uint64_t dur = p->end > p->start ? (uint64_t)(p->end - p->start) : 0;
	uint32_t line, prof = MODEL_NONE;
	if (p->copy) {
		line = gpu_run_linef(r, c->fi, c->si, GPU_RUN_LINE_COPY,
				     (uint64_t)p->pid, 0, MODEL_NONE,
				     "%s copies", proc_label(c, p->pid));
	} else {
		uint64_t a = (uint64_t)p->pid << 32 ^ (uint64_t)p->agent;
		line = gpu_run_line(r, c->fi, c->si, GPU_RUN_LINE_QUEUE, a,
				  (uint64_t)p->queue, NULL, 0);
		if (line == MODEL_NONE && !gpu_run_second_pass(r)) {
			char label[240], plabel[240];
			uint32_t gpu = 0;
			gpu_run_map_get(&c->agents, (uint64_t)p->agent, &gpu);
			char agent[40];
			if (gpu)
				snprintf(agent, sizeof(agent), "GPU %u",
					 gpu - 1);
			else
				snprintf(agent, sizeof(agent),
					 "agent %" PRId64, p->agent);
			snprintf(label, sizeof(label),
				 "%s %s queue 0x%" PRIx64,
				 proc_label(c, p->pid), agent,
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
				      proc_label(c, p->pid), p->stream);
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

/* Host regions (API calls, roctx ranges), in id order: a parent's id (the
 * enclosing correlation id) is smaller than its children's. */
static enum status read_regions(struct v3_ctx *c, struct error *err)
{
	char *reg = rocpd_v3_tname(c->s, "rocpd_region"), *ev = rocpd_v3_tname(c->s, "rocpd_event");
	char *str = rocpd_v3_tname(c->s, "rocpd_string");
	char *sql = NULL;
	sqlite3_stmt *st = NULL;
	enum status s = STATUS_OK;
	int rc;
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
	if ((s = gpu_run_prepare(c->f, sql, &st, err)) != STATUS_OK)
		goto out;
	struct gpu_run *r = c->r;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id, pid, tid, start, end, name_id, up;
		if (!gpu_run_col_int(st, 0, &id) || !gpu_run_col_int(st, 1, &pid) ||
		    !gpu_run_col_int(st, 2, &tid) ||
		    !gpu_run_col_int(st, 3, &start) ||
		    !gpu_run_col_int(st, 4, &end) || start < 0 || end < start) {
			gpu_run_skip_row(r);
			continue;
		}
		uint32_t parent = MODEL_NONE, thread = thread_node(c, pid, tid);
		const char *op = (const char *)sqlite3_column_text(st, 8);
		if (op && strncmp(op, "roctxMark", 9) == 0) {
			/* a mark: an instant on its thread's line, named by
			 * its message, out of the tree */
			const char *msg = (const char *)sqlite3_column_text(st, 7);
			uint32_t name = gpu_run_intern(r, msg && *msg ? msg : op);
			uint32_t line = thread != MODEL_NONE || gpu_run_second_pass(r)
						? host_line(c, pid, tid)
						: MODEL_NONE;
			if (line != MODEL_NONE && name != MODEL_NONE)
				gpu_run_instant_add(r, line, (uint64_t)start,
						    name, (uint64_t)id);
			continue;
		}
		bool linked = gpu_run_col_int(st, 6, &up) && up != 0 &&
			      gpu_run_idmap_get(&c->s->regions, (uint64_t)up,
					    &parent);
		if (!linked)
			parent = thread;
		if (parent == MODEL_NONE)
			continue;
		const char *msg = (const char *)sqlite3_column_text(st, 7);
		uint32_t name;
		uint8_t kind = GPU_RUN_KIND(NODE_FUNCTION, GPU_RUN_GROUP_API);
		if (msg && *msg) {
			name = gpu_run_intern(r, msg);
			kind = GPU_RUN_KIND(NODE_REGION, GPU_RUN_GROUP_RANGE);
		} else {
			name = gpu_run_col_int(st, 5, &name_id)
				       ? set_string(c, name_id)
				       : gpu_run_intern(r, "<unnamed>");
		}
		uint32_t node = gpu_run_child(r, parent, kind, name);
		if (node == MODEL_NONE) {
			if (gpu_run_second_pass(r))
				continue;
			s = error_set(err, STATUS_NOMEM, c->f->path,
				      "out of memory");
			goto out;
		}
		if (!gpu_run_idmap_put(&c->s->regions, (uint64_t)id, node)) {
			s = error_set(err, STATUS_NOMEM, c->f->path,
				      "out of memory");
			goto out;
		}
		gpu_run_add_api(r, node, linked ? parent : MODEL_NONE,
			      (uint64_t)(end - start));
		gpu_run_time_seen(r, (uint64_t)start, (uint64_t)end);
		uint32_t line = host_line(c, pid, tid);
		if (line == MODEL_NONE ||
		    !gpu_run_line_add(r, line, (uint64_t)start, (uint64_t)end,
				    node, (uint64_t)id, (uint64_t)id)) {
			if (gpu_run_second_pass(r))
				continue;
			s = error_set(err, STATUS_NOMEM, c->f->path,
				      "out of memory");
			goto out;
		}
	}
	if (rc != SQLITE_DONE)
		s = gpu_run_step_error(c->f, rc, err);
out:
	sqlite3_finalize(st);
	free(sql);
	free(reg);
	free(ev);
	free(str);
	return s;
}

static bool has_columns(struct v3_ctx *c, const char *base,
			const char *const *cols);

#define ROCPD_SAMPLE_EVENT (1ull << 62)

/* Instants of rocpd_sample (roctxMark and other zero-length events,
 * notes/rocpd.md 1.2): on the line of their track's thread, named by the
 * event's message, else the track's name (a category), at `timestamp`;
 * several at one time in id order.  A set without the tables has none. */
static enum status read_samples(struct v3_ctx *c, struct error *err)
{
	static const char *const sample[] = {"track_id", "timestamp",
					     "event_id", NULL};
	static const char *const track[] = {"id", "pid", "tid", "name_id",
					    NULL};
	if (!has_columns(c, "rocpd_sample", sample) ||
	    !has_columns(c, "rocpd_track", track))
		return STATUS_OK;
	char *sa = rocpd_v3_tname(c->s, "rocpd_sample");
	char *tr = rocpd_v3_tname(c->s, "rocpd_track");
	char *ev = rocpd_v3_tname(c->s, "rocpd_event");
	char *sql = NULL;
	sqlite3_stmt *st = NULL;
	enum status s = STATUS_OK;
	struct gpu_run *r = c->r;
	int rc;
	if (!sa || !tr || !ev ||
	    asprintf(&sql,
		     "SELECT t.pid, t.tid, s.timestamp, t.name_id, CASE WHEN "
		     "e.extdata <> '{}' AND json_valid(e.extdata) THEN json_extract(e.extdata, "
		     "'$.message') END, s.id FROM %s s JOIN %s t ON t.id = "
		     "s.track_id LEFT JOIN %s e ON e.id = s.event_id",
		     sa, tr, ev) < 0) {
		s = error_set(err, STATUS_NOMEM, c->f->path, "out of memory");
		goto out;
	}
	if ((s = gpu_run_prepare(c->f, sql, &st, err)) != STATUS_OK)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t pid, tid, t, name_id, rowid;
		if (!gpu_run_col_int(st, 0, &pid) ||
		    !gpu_run_col_int(st, 1, &tid) ||
		    !gpu_run_col_int(st, 2, &t) || t < 0 ||
		    !gpu_run_col_int(st, 5, &rowid) || rowid < 0) {
			gpu_run_skip_row(r);
			continue;
		}
		const char *msg = (const char *)sqlite3_column_text(st, 4);
		uint32_t name;
		if (msg && *msg)
			name = gpu_run_intern(r, msg);
		else if (gpu_run_col_int(st, 3, &name_id))
			name = set_string(c, name_id);
		else
			name = gpu_run_intern(r, "<instant>");
		if (!gpu_run_second_pass(r) && thread_node(c, pid, tid) == MODEL_NONE)
			continue;
		uint32_t line = host_line(c, pid, tid);
		if (line == MODEL_NONE || name == MODEL_NONE)
			continue;
		/* the sample's id, marked as not a region's: the order of
		 * instants at one time (after roctxMark regions), and no
		 * attributes (v3 details of a host line are a region's) */
		if (!gpu_run_instant_add(r, line, (uint64_t)t, name,
					 ROCPD_SAMPLE_EVENT |
						 (uint64_t)rowid) &&
		    !gpu_run_second_pass(r)) {
			s = error_set(err, STATUS_NOMEM, c->f->path,
				      "out of memory");
			goto out;
		}
	}
	if (rc != SQLITE_DONE)
		s = gpu_run_step_error(c->f, rc, err);
out:
	sqlite3_finalize(st);
	free(sql);
	free(sa);
	free(tr);
	free(ev);
	return s;
}

/* Kernel dispatches (copy false) or memory copies (true). */
/* The hardware counters of the set's dispatches (first pass): per
 * dispatch and counter name, the sum of its values (one row per counter
 * instance), read once and looked up by place().  A set without the
 * counter tables, or whose query fails to prepare (another layout of
 * them), has none. */
static enum status read_pmc(struct v3_ctx *c, struct error *err)
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
			if (c->n_pmc == cap) {
				size_t nc = cap ? cap * 2 : 256;
				struct pmc_entry *g =
					realloc(c->pmc, nc * sizeof(*g));
				if (!g) {
					s = error_set(err, STATUS_NOMEM,
						      c->f->path,
						      "out of memory");
					break;
				}
				c->pmc = g;
				cap = nc;
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

static enum status read_gpu(struct v3_ctx *c, bool copy,
			    struct pending_list *pend, struct error *err)
{
	char *tab = rocpd_v3_tname(c->s, copy ? "rocpd_memory_copy"
				     : "rocpd_kernel_dispatch");
	char *ev = rocpd_v3_tname(c->s, "rocpd_event");
	char *sql = NULL;
	sqlite3_stmt *st = NULL;
	enum status s = STATUS_OK;
	int rc;
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
	if ((s = gpu_run_prepare(c->f, sql, &st, err)) != STATUS_OK)
		goto out;
	struct gpu_run *r = c->r;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pending p = {
			.copy = copy, .bytes = -1, .link = GPU_RUN_NO_LINK};
		int64_t stack, kid, size;
		if (!gpu_run_col_int(st, 0, &p.rowid) ||
		    !gpu_run_col_int(st, 1, &p.pid) ||
		    !gpu_run_col_int(st, 3, &p.start) ||
		    !gpu_run_col_int(st, 4, &p.end) || p.start < 0 ||
		    p.end < p.start) {
			gpu_run_skip_row(r);
			continue;
		}
		if (!gpu_run_col_int(st, 2, &p.tid))
			p.tid = -1;
		gpu_run_col_int(st, 6, &p.agent);
		gpu_run_col_int(st, 7, &p.queue);
		p.has_stream = gpu_run_col_int(st, 10, &p.stream);
		if (copy) {
			p.kind = GPU_RUN_KIND(NODE_FUNCTION, GPU_RUN_GROUP_COPY);
			p.name = gpu_run_col_int(st, 8, &kid)
					 ? set_string(c, kid)
					 : gpu_run_intern(r, "MEMORY_COPY");
			if (gpu_run_col_int(st, 9, &size) && size >= 0)
				p.bytes = (double)size;
		} else {
			p.kind = GPU_RUN_KIND(NODE_KERNEL, GPU_RUN_GROUP_KERNEL);
			p.name = MODEL_NONE;
			if (gpu_run_col_int(st, 8, &kid) &&
			    !gpu_run_map_get(&c->s->kernels, (uint64_t)kid,
					   &p.name)) {
				char buf[48];
				snprintf(buf, sizeof(buf),
					 "<kernel %" PRId64 ">", kid);
				p.name = gpu_run_intern(r, buf);
			}
			if (p.name == MODEL_NONE)
				p.name = gpu_run_intern(r, "<kernel>");
		}
		uint32_t parent;
		if (gpu_run_col_int(st, 5, &stack) && stack != 0 &&
		    gpu_run_idmap_get(&c->s->regions, (uint64_t)stack, &parent)) {
			p.link = (uint64_t)stack;
			if (!place(c, parent, &p) && !gpu_run_second_pass(r)) {
				s = error_set(err, STATUS_NOMEM, c->f->path,
					      "out of memory");
				goto out;
			}
		} else if (!pending_push(pend, &p)) {
			s = error_set(err, STATUS_NOMEM, c->f->path,
				      "out of memory");
			goto out;
		}
	}
	if (rc != SQLITE_DONE)
		s = gpu_run_step_error(c->f, rc, err);
out:
	sqlite3_finalize(st);
	free(sql);
	free(tab);
	free(ev);
	return s;
}

/* Place pending GPU work by time: the innermost region of its thread
 * running at its start, else the thread, else the process. */
static enum status resolve_pending(struct v3_ctx *c, struct pending_list *pl,
				   struct error *err)
{
	struct gpu_run *r = c->r;
	if (pl->n == 0)
		return STATUS_OK;
	gpu_run_add_unlinked(r, pl->n);
	/* the regions of the threads concerned, one sorted array each */
	struct tl {
		int64_t pid, tid;
		struct gpu_run_iv *iv;
		uint64_t n, cap;
	} *tls = NULL;
	size_t n_tls = 0;
	enum status s = STATUS_OK;
	for (size_t i = 0; i < pl->n; i++) {
		size_t k = 0;
		while (k < n_tls && (tls[k].pid != pl->p[i].pid ||
				     tls[k].tid != pl->p[i].tid))
			k++;
		if (k == n_tls) {
			struct tl *g = realloc(tls, (n_tls + 1) * sizeof(*g));
			if (!g) {
				s = error_set(err, STATUS_NOMEM, c->f->path,
					      "out of memory");
				goto out;
			}
			tls = g;
			tls[n_tls++] = (struct tl){pl->p[i].pid, pl->p[i].tid,
						   NULL, 0, 0};
		}
	}
	char *reg = rocpd_v3_tname(c->s, "rocpd_region"), *sql = NULL;
	sqlite3_stmt *st = NULL;
	if (!reg || asprintf(&sql,
			     "SELECT id, pid, tid, start, \"end\" FROM %s",
			     reg) < 0) {
		free(reg);
		s = error_set(err, STATUS_NOMEM, c->f->path, "out of memory");
		goto out;
	}
	free(reg);
	s = gpu_run_prepare(c->f, sql, &st, err);
	free(sql);
	if (s != STATUS_OK)
		goto out;
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
		for (size_t k = 0; k < n_tls; k++) {
			struct tl *t = &tls[k];
			if (t->pid != pid || t->tid != tid)
				continue;
			if (t->n == t->cap) {
				uint64_t cap = t->cap ? t->cap * 2 : 64;
				struct gpu_run_iv *g =
					realloc(t->iv, cap * sizeof(*g));
				if (!g) {
					sqlite3_finalize(st);
					s = error_set(err, STATUS_NOMEM,
						      c->f->path,
						      "out of memory");
					goto out;
				}
				t->iv = g;
				t->cap = cap;
			}
			t->iv[t->n++] = (struct gpu_run_iv){
				.begin = (uint64_t)start,
				.end = (uint64_t)end,
				.event = (uint64_t)id,
				.ctx = node,
			};
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		s = gpu_run_step_error(c->f, rc, err);
		goto out;
	}
	for (size_t k = 0; k < n_tls; k++)
		gpu_run_iv_sort_link(tls[k].iv, tls[k].n);
	for (size_t i = 0; i < pl->n; i++) {
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
			parent = thread_node(c, p->pid, p->tid);
		if (parent == MODEL_NONE)
			parent = process_node(c, p->pid);
		if (parent == MODEL_NONE)
			continue;
		if (!place(c, parent, p) && !gpu_run_second_pass(r)) {
			s = error_set(err, STATUS_NOMEM, c->f->path,
				      "out of memory");
			goto out;
		}
	}
out:
	for (size_t k = 0; k < n_tls; k++)
		free(tls[k].iv);
	free(tls);
	return s;
}

/* Whether the set's table `base` exists with every column of `cols`. */
static bool has_columns(struct v3_ctx *c, const char *base,
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
	char *ct = c->s->has_copy && has_columns(c, "rocpd_memory_copy", copy)
			   ? rocpd_v3_tname(c->s, "rocpd_memory_copy")
			   : NULL;
	char *at = has_columns(c, "rocpd_memory_allocate", alloc)
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
		struct v3_ctx c = {.r = r, .f = f, .fi = fi, .si = si,
				   .s = &f->sets[si]};
		struct pending_list pend = {0};
		if (!gpu_run_second_pass(r))
			s = read_meta(&c, err);
		read_agents(&c);
		if (s == STATUS_OK)
			s = read_regions(&c, err);
		if (s == STATUS_OK)
			s = read_samples(&c, err);
		if (s == STATUS_OK && c.s->has_pmc && !gpu_run_second_pass(r))
			s = read_pmc(&c, err);
		if (s == STATUS_OK)
			s = read_gpu(&c, false, &pend, err);
		if (s == STATUS_OK && c.s->has_copy)
			s = read_gpu(&c, true, &pend, err);
		if (s == STATUS_OK)
			s = resolve_pending(&c, &pend, err);
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

const struct gpu_run_layout rocpd_layout_v3 = {
	.read = rocpd_v3_read,
	.detail = rocpd_v3_detail,
};
