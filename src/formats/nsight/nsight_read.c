/* nsight_read: the tables of an Nsight Systems SQLite export read into a
 * gpu_run (notes/formats-dcpi-cube-nsys.md C.2-C.4; NVIDIA's "exported
 * data" page).  Host side: NVTX push/pop and start/end ranges
 * (NVTX_EVENTS eventType 59, 60) and marks (34, instants), CUDA runtime and driver calls
 * (CUPTI_ACTIVITY_KIND_RUNTIME eventClass 0 and 1 only: class 67 rows
 * duplicate a call to carry its backtrace, C.4.1) and OS runtime calls
 * (OSRT_API), nested per thread (globalTid) by time containment.  GPU
 * side: kernels (by shortName), copies and memsets under the API call of
 * the same process and correlationId, on one line per (process, device,
 * stream).  Tables are lazy (NVIDIA: not every table is present), so each
 * is optional and its columns are probed by name; StringIds is required.
 * Must not depend on curses or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/nsight/nsight_read.h"

/* present tables and columns (gpu_run_set.opt) */
enum {
	OPT_KERNEL = 1u << 0,
	OPT_MEMCPY = 1u << 1,
	OPT_MEMSET = 1u << 2,
	OPT_RUNTIME = 1u << 3,
	OPT_NVTX = 1u << 4,
	OPT_OSRT = 1u << 5,
	OPT_NVTX_TEXT = 1u << 6,
	OPT_NVTX_TEXTID = 1u << 7,
	OPT_PROCESSES = 1u << 8,
	OPT_THREADNAMES = 1u << 9,
	OPT_KERNEL_PID = 1u << 10,
	OPT_MEMCPY_PID = 1u << 11,
	OPT_MEMSET_PID = 1u << 12,
	OPT_KERNEL_CTX = 1u << 13, /* contextId: the lines by context */
	OPT_MEMCPY_CTX = 1u << 14,
	OPT_MEMSET_CTX = 1u << 15,
	OPT_KERNEL_DEMANGLED = 1u << 16, /* demangledName */
	OPT_KERNEL_MANGLED = 1u << 17,   /* mangledName */
};

/* Where an interval's row is: event = rowid << 3 | source. */
enum source {
	SRC_KERNEL,
	SRC_MEMCPY,
	SRC_MEMSET,
	SRC_NVTX,
	SRC_RUNTIME,
	SRC_OSRT,
};

static const char *const table_of[] = {
    [SRC_KERNEL] = "CUPTI_ACTIVITY_KIND_KERNEL",
    [SRC_MEMCPY] = "CUPTI_ACTIVITY_KIND_MEMCPY",
    [SRC_MEMSET] = "CUPTI_ACTIVITY_KIND_MEMSET",
    [SRC_NVTX] = "NVTX_EVENTS",
    [SRC_RUNTIME] = "CUPTI_ACTIVITY_KIND_RUNTIME",
    [SRC_OSRT] = "OSRT_API",
};

#define NOMEM(f) error_set(err, STATUS_NOMEM, (f)->path, "out of memory")

/* globalTid / globalPid: the pid in bits 24..47, the tid in bits 0..23
 * (NVIDIA's serialized GlobalId, as pipit and Extra-P decode it). */
static int64_t gid_pid(int64_t g)
{
	return (int64_t)(((uint64_t)g >> 24) & 0xFFFFFF);
}

static int64_t gid_tid(int64_t g)
{
	return (int64_t)((uint64_t)g & 0xFFFFFF);
}

/* CUDA_MEMCPY_KIND (CUPTI's CUpti_ActivityMemcpyKind): no ENUM_ table in
 * the corpus, so built in. */
static const char *copy_kind_name(int64_t k)
{
	static const char *const names[] = {"unknown", "HtoD", "DtoH", "HtoA",
					    "AtoH",    "AtoA", "AtoD", "DtoA",
					    "DtoD",    "HtoH", "PtoP"};
	return k >= 0 && k < (int64_t)(sizeof(names) / sizeof(*names))
		   ? names[k]
		   : "other";
}

static uint32_t string_of(struct gpu_run *r, struct gpu_run_file *f,
			  struct gpu_run_set *s, int64_t id)
{
	return gpu_run_string(r, f, s, "StringIds", "value", id);
}

static bool optional(struct gpu_run_file *f, const char *table,
		     const char *const *cols, enum status *st,
		     struct error *err)
{
	if (!gpu_run_has_table(f, table))
		return false;
	*st = gpu_run_need_columns(f, table, cols, NULL, err);
	return *st == STATUS_OK;
}

static enum status check(struct gpu_run_file *f, struct gpu_run_set *s,
			 struct error *err)
{
	static const char *const strings[] = {"id", "value", NULL};
	static const char *const gpu[] = {
	    "start", "end", "deviceId", "streamId", "correlationId", NULL};
	static const char *const kernel[] = {"shortName", NULL};
	static const char *const memcpy_[] = {"bytes", "copyKind", NULL};
	static const char *const memset_[] = {"bytes", NULL};
	static const char *const runtime[] = {
	    "start",	     "end",    "eventClass", "globalTid",
	    "correlationId", "nameId", NULL};
	static const char *const nvtx[] = {"start", "end", "eventType",
					   "globalTid", NULL};
	static const char *const osrt[] = {"start", "end", "globalTid",
					   "nameId", NULL};
	enum status st =
	    gpu_run_need_columns(f, "StringIds", strings,
				 " (not an Nsight Systems SQLite export)", err);
	if (st != STATUS_OK)
		return st;
	uint32_t o = 0;
	if (optional(f, table_of[SRC_KERNEL], gpu, &st, err) &&
	    (st = gpu_run_need_columns(f, table_of[SRC_KERNEL], kernel, NULL,
				       err)) == STATUS_OK)
		o |= OPT_KERNEL;
	if (st == STATUS_OK &&
	    optional(f, table_of[SRC_MEMCPY], gpu, &st, err) &&
	    (st = gpu_run_need_columns(f, table_of[SRC_MEMCPY], memcpy_, NULL,
				       err)) == STATUS_OK)
		o |= OPT_MEMCPY;
	if (st == STATUS_OK &&
	    optional(f, table_of[SRC_MEMSET], gpu, &st, err) &&
	    (st = gpu_run_need_columns(f, table_of[SRC_MEMSET], memset_, NULL,
				       err)) == STATUS_OK)
		o |= OPT_MEMSET;
	if (st == STATUS_OK &&
	    optional(f, table_of[SRC_RUNTIME], runtime, &st, err))
		o |= OPT_RUNTIME;
	if (st == STATUS_OK && optional(f, table_of[SRC_NVTX], nvtx, &st, err))
		o |= OPT_NVTX;
	if (st == STATUS_OK && optional(f, table_of[SRC_OSRT], osrt, &st, err))
		o |= OPT_OSRT;
	if (st != STATUS_OK)
		return st;
	if (!(o & (OPT_KERNEL | OPT_MEMCPY | OPT_MEMSET | OPT_RUNTIME |
		   OPT_NVTX | OPT_OSRT)))
		return error_set(err, STATUS_UNSUPPORTED, f->path,
				 "unknown Nsight Systems export layout: no "
				 "table of kernels, copies, API calls, NVTX "
				 "ranges or OS runtime calls (%s is missing)",
				 table_of[SRC_KERNEL]);
	if (gpu_run_has_column(f, "NVTX_EVENTS", "text"))
		o |= OPT_NVTX_TEXT;
	if (gpu_run_has_column(f, "NVTX_EVENTS", "textId"))
		o |= OPT_NVTX_TEXTID;
	if (gpu_run_has_column(f, "PROCESSES", "pid") &&
	    gpu_run_has_column(f, "PROCESSES", "name"))
		o |= OPT_PROCESSES;
	if (gpu_run_has_column(f, "ThreadNames", "nameId") &&
	    gpu_run_has_column(f, "ThreadNames", "globalTid"))
		o |= OPT_THREADNAMES;
	if (gpu_run_has_column(f, table_of[SRC_KERNEL], "globalPid"))
		o |= OPT_KERNEL_PID;
	if (gpu_run_has_column(f, table_of[SRC_MEMCPY], "globalPid"))
		o |= OPT_MEMCPY_PID;
	if (gpu_run_has_column(f, table_of[SRC_MEMSET], "globalPid"))
		o |= OPT_MEMSET_PID;
	if (gpu_run_has_column(f, table_of[SRC_KERNEL], "contextId"))
		o |= OPT_KERNEL_CTX;
	if (gpu_run_has_column(f, table_of[SRC_MEMCPY], "contextId"))
		o |= OPT_MEMCPY_CTX;
	if (gpu_run_has_column(f, table_of[SRC_MEMSET], "contextId"))
		o |= OPT_MEMSET_CTX;
	if (gpu_run_has_column(f, table_of[SRC_KERNEL], "demangledName"))
		o |= OPT_KERNEL_DEMANGLED;
	if (gpu_run_has_column(f, table_of[SRC_KERNEL], "mangledName"))
		o |= OPT_KERNEL_MANGLED;
	s->opt = o;
	return STATUS_OK;
}

/* A one-row text query with one integer parameter ("" when none). */
static void query_text(struct gpu_run_file *f, const char *sql, int64_t arg,
		       char *buf, size_t size)
{
	sqlite3_stmt *st = NULL;
	buf[0] = '\0';
	if (sqlite3_prepare_v2(f->db, sql, -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, arg);
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(buf, size, "%s", gpu_run_col_text(st, 0));
	sqlite3_finalize(st);
}

static uint32_t process_node(struct gpu_run *r, uint32_t fi,
			     struct gpu_run_set *s, int64_t pid)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	uint32_t node;
	if (gpu_run_map_get(&s->procs, (uint64_t)pid, &node))
		return node;
	if (gpu_run_second_pass(r))
		return MODEL_NONE;
	char pname[128] = "", name[400];
	if (s->opt & OPT_PROCESSES)
		query_text(f,
			   "SELECT name FROM PROCESSES WHERE pid = ?1 AND "
			   "name IS NOT NULL LIMIT 1",
			   pid, pname, sizeof(pname));
	const char *base = strrchr(f->path, '/');
	base = base ? base + 1 : f->path;
	snprintf(name, sizeof(name), "pid %" PRId64 "%s%s%s%s%s", pid,
		 pname[0] ? " " : "", pname, gpu_run_n_files(r) > 1 ? " [" : "",
		 gpu_run_n_files(r) > 1 ? base : "", gpu_run_n_files(r) > 1 ? "]" : "");
	node = gpu_run_child(r, 0, NODE_ENTRY, gpu_run_intern(r, name));
	if (node == MODEL_NONE ||
	    !gpu_run_map_put(&s->procs, (uint64_t)pid, node))
		return MODEL_NONE;
	return node;
}

static uint32_t thread_node(struct gpu_run *r, uint32_t fi,
			    struct gpu_run_set *s, int64_t gtid)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	uint32_t node;
	if (gpu_run_map_get(&s->threads, (uint64_t)gtid, &node))
		return node;
	if (gpu_run_second_pass(r))
		return MODEL_NONE;
	int64_t pid = gid_pid(gtid), tid = gid_tid(gtid);
	uint32_t proc = process_node(r, fi, s, pid);
	if (proc == MODEL_NONE)
		return MODEL_NONE;
	char tname[128] = "", name[200], label[96];
	if (s->opt & OPT_THREADNAMES)
		query_text(f,
			   "SELECT s.value FROM ThreadNames t JOIN StringIds "
			   "s ON s.id = t.nameId WHERE t.globalTid = ?1 "
			   "ORDER BY t.priority DESC LIMIT 1",
			   gtid, tname, sizeof(tname));
	snprintf(name, sizeof(name), "thread %" PRId64 "%s%s%s", tid,
		 tid == pid ? " (main)" : "", tname[0] ? " " : "", tname);
	node = gpu_run_child(r, proc, NODE_ENTRY, gpu_run_intern(r, name));
	if (node == MODEL_NONE)
		return node;
	snprintf(label, sizeof(label), "pid %" PRId64 " tid %" PRId64, pid,
		 tid);
	gpu_run_set_node_profile(r, node, gpu_run_profile(r, "PROCESS", (uint64_t)pid,
					   "THREAD", (uint64_t)tid, label));
	if (!gpu_run_map_put(&s->threads, (uint64_t)gtid, node))
		return MODEL_NONE;
	return node;
}

/* ---- host: NVTX ranges, CUDA API calls, OS runtime calls ---------------- */

struct host_row {
	int64_t gtid, start, end, rowid, corr;
	uint32_t name;
	uint8_t src;
};

static int host_cmp(const void *pa, const void *pb)
{
	const struct host_row *a = pa, *b = pb;
	if (a->gtid != b->gtid)
		return a->gtid < b->gtid ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	return a->rowid < b->rowid ? -1 : a->rowid > b->rowid;
}

struct rows {
	struct host_row *v;
	size_t n, cap;
};

/* Merge the sorted rows v[lo, mid) and v[mid, hi) in place through tmp
 * (room for mid - lo rows). */
static void merge_rows(struct host_row *v, size_t lo, size_t mid, size_t hi,
		       struct host_row *tmp)
{
	memcpy(tmp, v + lo, (mid - lo) * sizeof(*v));
	size_t a = 0, na = mid - lo, b = mid, w = lo;
	while (a < na && b < hi)
		v[w++] = host_cmp(&v[b], &tmp[a]) < 0 ? v[b++] : tmp[a++];
	memcpy(v + w, tmp + a, (na - a) * sizeof(*v));
}

/* Sort v[lo, hi) by host_cmp: the tables it came from are each in time
 * order on a thread, so a thread's rows are a few sorted runs, merged
 * here; more than a few (rows out of order) go to qsort. */
static void sort_runs(struct host_row *v, size_t lo, size_t hi,
		      struct host_row *tmp)
{
	enum { MAX_RUNS = 32 };
	size_t at[MAX_RUNS + 1], n = 0;
	at[n++] = lo;
	for (size_t i = lo + 1; i < hi; i++)
		if (host_cmp(&v[i - 1], &v[i]) > 0) {
			if (n == MAX_RUNS) {
				qsort(v + lo, hi - lo, sizeof(*v), host_cmp);
				return;
			}
			at[n++] = i;
		}
	at[n] = hi;
	while (n > 1) {
		size_t k = 0;
		for (size_t i = 0; i < n; i += 2) {
			if (i + 1 < n)
				merge_rows(v, at[i], at[i + 1], at[i + 2], tmp);
			at[k++] = at[i];
		}
		at[k] = hi;
		n = k;
	}
}

/* A thread's rows while sort_host_rows puts threads apart. */
struct thread_slot {
	int64_t gtid;
	size_t n, at; /* its rows; where the next goes */
};

static int slot_cmp(const void *pa, const void *pb)
{
	const struct thread_slot *a = pa, *b = pb;
	return a->gtid < b->gtid ? -1 : a->gtid > b->gtid;
}

/* Sort the rows by host_cmp: threads apart first (a stable pass by
 * thread), then each thread's runs merged.  False when out of memory
 * (the rows are then as they were). */
static bool sort_host_rows(struct rows *rs)
{
	struct gpu_run_map of = {0}; /* thread -> its slot */
	struct thread_slot *sl = NULL;
	size_t n_sl = 0, cap = 0;
	struct host_row *out = malloc(rs->n * sizeof(*out));
	bool ok = out != NULL;
	for (size_t i = 0; ok && i < rs->n; i++) {
		uint32_t k;
		if (!gpu_run_map_get(&of, (uint64_t)rs->v[i].gtid, &k)) {
			if (n_sl == cap) {
				cap = cap ? cap * 2 : 16;
				struct thread_slot *g =
					realloc(sl, cap * sizeof(*g));
				if (!g) {
					ok = false;
					break;
				}
				sl = g;
			}
			k = (uint32_t)n_sl;
			sl[n_sl++] = (struct thread_slot){rs->v[i].gtid, 0, 0};
			ok = gpu_run_map_put(&of, (uint64_t)rs->v[i].gtid, k);
		}
		sl[k].n++;
	}
	/* slots in thread order (a file may name millions of threads), then
	 * their rows' places */
	if (ok && n_sl > 1) {
		qsort(sl, n_sl, sizeof(*sl), slot_cmp);
		for (size_t i = 0; ok && i < n_sl; i++)
			ok = gpu_run_map_put(&of, (uint64_t)sl[i].gtid,
					     (uint32_t)i);
	}
	if (ok) {
		size_t at = 0;
		for (size_t i = 0; i < n_sl; i++) {
			sl[i].at = at;
			at += sl[i].n;
		}
		for (size_t i = 0; i < rs->n; i++) {
			uint32_t k = 0;
			gpu_run_map_get(&of, (uint64_t)rs->v[i].gtid, &k);
			out[sl[k].at++] = rs->v[i];
		}
		/* rs->v is the scratch space of the merges now */
		for (size_t i = 0, lo = 0; i < n_sl; i++) {
			sort_runs(out, lo, sl[i].at, rs->v);
			lo = sl[i].at;
		}
		free(rs->v);
		rs->v = out;
		rs->cap = rs->n;
		out = NULL;
	}
	free(out);
	free(sl);
	gpu_run_map_free(&of);
	return ok;
}

static bool rows_push(struct rows *rs, const struct host_row *h)
{
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 1024;
		struct host_row *g = realloc(rs->v, cap * sizeof(*g));
		if (!g)
			return false;
		rs->v = g;
		rs->cap = cap;
	}
	rs->v[rs->n++] = *h;
	return true;
}

/* Rows of one host table: columns rowid, start, end, globalTid, name
 * (string id, or text in column 5 for NVTX), correlation id. */
static enum status read_host_table(struct gpu_run *r, uint32_t fi, uint8_t src,
				   struct rows *rs, struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	struct gpu_run_set *s = &f->sets[0];
	const char *sql = NULL;
	char nvtx_sql[400];
	switch (src) {
	case SRC_RUNTIME:
		sql = "SELECT rowid, start, \"end\", globalTid, nameId, NULL, "
		      "correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE "
		      "eventClass IN (0, 1)";
		break;
	case SRC_OSRT:
		sql = "SELECT rowid, start, \"end\", globalTid, nameId, NULL, "
		      "NULL FROM OSRT_API";
		break;
	default:
		snprintf(nvtx_sql, sizeof(nvtx_sql),
			 "SELECT rowid, start, \"end\", globalTid, %s, %s, "
			 "NULL FROM NVTX_EVENTS WHERE eventType IN (59, 60) "
			 "AND \"end\" IS NOT NULL",
			 s->opt & OPT_NVTX_TEXTID ? "textId" : "NULL",
			 s->opt & OPT_NVTX_TEXT ? "text" : "NULL");
		sql = nvtx_sql;
		break;
	}
	sqlite3_stmt *st = NULL;
	enum status e = gpu_run_prepare(f, sql, &st, err);
	if (e != STATUS_OK)
		return e;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct host_row h = {.src = src, .name = MODEL_NONE};
		int64_t id;
		if (!gpu_run_col_int(st, 0, &h.rowid) ||
		    !gpu_run_col_int(st, 1, &h.start) ||
		    !gpu_run_col_int(st, 2, &h.end) || h.start < 0 ||
		    h.end < h.start || h.rowid < 0) {
			gpu_run_skip_row(r);
			continue;
		}
		if (!gpu_run_col_int(st, 3, &h.gtid))
			h.gtid = 0;
		if (!gpu_run_col_int(st, 6, &h.corr))
			h.corr = -1;
		if (sqlite3_column_type(st, 5) == SQLITE_TEXT)
			h.name = gpu_run_intern(r, gpu_run_col_text(st, 5));
		else if (gpu_run_col_int(st, 4, &id))
			h.name = string_of(r, f, s, id);
		if (h.name == MODEL_NONE)
			h.name = gpu_run_intern(r, "<unnamed>");
		if (!rows_push(rs, &h)) {
			e = NOMEM(f);
			break;
		}
	}
	if (e == STATUS_OK && rc != SQLITE_DONE)
		e = gpu_run_step_error(f, rc, err);
	sqlite3_finalize(st);
	return e;
}

static uint64_t corr_key(int64_t pid, int64_t corr)
{
	return (uint64_t)pid << 40 ^ ((uint64_t)corr & 0xFFFFFFFFFFull);
}

static enum status read_host(struct gpu_run *r, uint32_t fi, struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	struct gpu_run_set *s = &f->sets[0];
	struct rows rs = {0};
	enum status e = STATUS_OK;
	if (s->opt & OPT_NVTX)
		e = read_host_table(r, fi, SRC_NVTX, &rs, err);
	if (e == STATUS_OK && (s->opt & OPT_RUNTIME))
		e = read_host_table(r, fi, SRC_RUNTIME, &rs, err);
	if (e == STATUS_OK && (s->opt & OPT_OSRT))
		e = read_host_table(r, fi, SRC_OSRT, &rs, err);
	if (e != STATUS_OK || rs.n == 0) {
		free(rs.v);
		return e;
	}
	if (rs.n > 1 && !sort_host_rows(&rs))
		qsort(rs.v, rs.n, sizeof(*rs.v), host_cmp);
	size_t *stack = malloc(rs.n * sizeof(*stack));
	uint32_t *nodes = malloc(rs.n * sizeof(*nodes));
	if (!stack || !nodes) {
		e = NOMEM(f);
		goto out;
	}
	size_t depth = 0;
	uint32_t thread = MODEL_NONE, line = MODEL_NONE;
	for (size_t i = 0; i < rs.n; i++) {
		struct host_row *h = &rs.v[i];
		if (i == 0 || h->gtid != rs.v[i - 1].gtid) {
			depth = 0;
			thread = thread_node(r, fi, s, h->gtid);
			line = thread == MODEL_NONE
				   ? MODEL_NONE
				   : gpu_run_linef(r, fi, 0, GPU_RUN_LINE_HOST,
						   (uint64_t)h->gtid, 0,
						   gpu_run_node_profile(r, thread),
						   "pid %" PRId64
						   " tid %" PRId64,
						   gid_pid(h->gtid),
						   gid_tid(h->gtid));
		}
		while (depth > 0 &&
		       !(h->start >= rs.v[stack[depth - 1]].start &&
			 h->end <= rs.v[stack[depth - 1]].end))
			depth--;
		nodes[i] = MODEL_NONE;
		uint32_t parent = depth ? nodes[stack[depth - 1]] : thread;
		if (parent == MODEL_NONE)
			continue;
		uint8_t kind =
		    h->src == SRC_NVTX
			? GPU_RUN_KIND(NODE_REGION, GPU_RUN_GROUP_RANGE)
		    : h->src == SRC_RUNTIME
			? GPU_RUN_KIND(NODE_FUNCTION, GPU_RUN_GROUP_API)
			: GPU_RUN_KIND(NODE_FUNCTION, GPU_RUN_GROUP_OS);
		uint32_t node = gpu_run_child(r, parent, kind, h->name);
		if (node == MODEL_NONE) {
			if (gpu_run_second_pass(r))
				continue;
			e = NOMEM(f);
			goto out;
		}
		nodes[i] = node;
		stack[depth++] = i;
		if (h->src == SRC_RUNTIME && h->corr >= 0 &&
		    !gpu_run_idmap_put(&s->regions,
				     corr_key(gid_pid(h->gtid), h->corr),
				     node)) {
			e = NOMEM(f);
			goto out;
		}
		gpu_run_add_api(r, node, parent == thread ? MODEL_NONE : parent,
				(uint64_t)(h->end - h->start));
		gpu_run_time_seen(r, (uint64_t)h->start, (uint64_t)h->end);
		if (line != MODEL_NONE)
			gpu_run_line_add(
				r, line, (uint64_t)h->start, (uint64_t)h->end,
				node, (uint64_t)h->rowid << 3 | h->src,
				h->src == SRC_RUNTIME && h->corr >= 0
					? corr_key(gid_pid(h->gtid), h->corr)
					: GPU_RUN_NO_LINK);
	}
out:
	free(stack);
	free(nodes);
	free(rs.v);
	return e;
}

/* NVTX marks (eventType 34, NvtxMark: a time and no end, notes C.2):
 * instants on their thread's line, named as ranges are; out of the tree
 * and of the nesting. */
static enum status read_marks(struct gpu_run *r, uint32_t fi,
			      struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	struct gpu_run_set *s = &f->sets[0];
	char sql[300];
	snprintf(sql, sizeof(sql),
		 "SELECT rowid, start, globalTid, %s, %s FROM NVTX_EVENTS "
		 "WHERE eventType = 34",
		 s->opt & OPT_NVTX_TEXTID ? "textId" : "NULL",
		 s->opt & OPT_NVTX_TEXT ? "text" : "NULL");
	sqlite3_stmt *st = NULL;
	enum status e = gpu_run_prepare(f, sql, &st, err);
	if (e != STATUS_OK)
		return e;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t rowid, t, gtid, id;
		if (!gpu_run_col_int(st, 0, &rowid) ||
		    !gpu_run_col_int(st, 1, &t) || t < 0 || rowid < 0) {
			gpu_run_skip_row(r);
			continue;
		}
		if (!gpu_run_col_int(st, 2, &gtid))
			gtid = 0;
		uint32_t name = MODEL_NONE;
		if (sqlite3_column_type(st, 4) == SQLITE_TEXT)
			name = gpu_run_intern(r, gpu_run_col_text(st, 4));
		else if (gpu_run_col_int(st, 3, &id))
			name = string_of(r, f, s, id);
		if (name == MODEL_NONE)
			name = gpu_run_intern(r, "<unnamed>");
		uint32_t thread = thread_node(r, fi, s, gtid);
		if (thread == MODEL_NONE || name == MODEL_NONE)
			continue;
		uint32_t line = gpu_run_linef(r, fi, 0, GPU_RUN_LINE_HOST,
					      (uint64_t)gtid, 0,
					      gpu_run_node_profile(r, thread),
					      "pid %" PRId64 " tid %" PRId64,
					      gid_pid(gtid), gid_tid(gtid));
		if (line == MODEL_NONE ||
		    (!gpu_run_instant_add(r, line, (uint64_t)t, name,
					  (uint64_t)rowid << 3 | SRC_NVTX) &&
		     !gpu_run_second_pass(r))) {
			if (gpu_run_second_pass(r))
				continue;
			e = NOMEM(f);
			break;
		}
	}
	if (e == STATUS_OK && rc != SQLITE_DONE)
		e = gpu_run_step_error(f, rc, err);
	sqlite3_finalize(st);
	return e;
}

/* ---- GPU: kernels, copies, memsets --------------------------------------- */

/* The column (an expression of StringIds ids) naming a kernel, as the run
 * chose (reader_options.kernel_names): `nsys stats` names kernels by
 * demangledName by default, shortName with --base, mangledName with
 * --mangled; an export without the column falls back to the next one
 * (mangled -> demangled -> short; the C-linkage kernels' mangledName is
 * NULL). */
static const char *kernel_name_column(const struct gpu_run *r,
				      const struct gpu_run_set *s)
{
	bool dem = s->opt & OPT_KERNEL_DEMANGLED,
	     man = s->opt & OPT_KERNEL_MANGLED;
	switch (gpu_run_kernel_choice(r)) {
	case GPU_RUN_KERNEL_BASE:
		return "shortName";
	case GPU_RUN_KERNEL_MANGLED:
		return man && dem ? "coalesce(mangledName, demangledName, "
				    "shortName)"
		       : man	  ? "coalesce(mangledName, shortName)"
		       : dem	  ? "coalesce(demangledName, shortName)"
				  : "shortName";
	case GPU_RUN_KERNEL_DEMANGLED:
		break;
	}
	return dem ? "coalesce(demangledName, shortName)" : "shortName";
}

static enum status read_gpu_table(struct gpu_run *r, uint32_t fi, uint8_t src,
				  struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	struct gpu_run_set *s = &f->sets[0];
	char sql[480];
	bool has_pid = s->opt & (src == SRC_KERNEL   ? OPT_KERNEL_PID
				 : src == SRC_MEMCPY ? OPT_MEMCPY_PID
						     : OPT_MEMSET_PID);
	bool has_ctx = s->opt & (src == SRC_KERNEL   ? OPT_KERNEL_CTX
				 : src == SRC_MEMCPY ? OPT_MEMCPY_CTX
						     : OPT_MEMSET_CTX);
	snprintf(sql, sizeof(sql),
		 "SELECT rowid, start, \"end\", deviceId, streamId, "
		 "correlationId, %s, %s, %s, %s FROM %s",
		 has_pid ? "globalPid" : "NULL",
		 src == SRC_KERNEL   ? kernel_name_column(r, s)
		 : src == SRC_MEMCPY ? "copyKind"
				     : "NULL",
		 src == SRC_KERNEL ? "NULL" : "bytes",
		 has_ctx ? "contextId" : "NULL", table_of[src]);
	sqlite3_stmt *st = NULL;
	enum status e = gpu_run_prepare(f, sql, &st, err);
	if (e != STATUS_OK)
		return e;
	uint32_t memset_name = gpu_run_intern(r, "[memset]");
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t rowid, start, end, dev, stream, corr, gpid, v, bytes;
		if (!gpu_run_col_int(st, 0, &rowid) ||
		    !gpu_run_col_int(st, 1, &start) ||
		    !gpu_run_col_int(st, 2, &end) || start < 0 || end < start ||
		    rowid < 0) {
			gpu_run_skip_row(r);
			continue;
		}
		if (!gpu_run_col_int(st, 3, &dev))
			dev = -1;
		if (!gpu_run_col_int(st, 4, &stream))
			stream = -1;
		bool has_corr = gpu_run_col_int(st, 5, &corr);
		bool known_pid = gpu_run_col_int(st, 6, &gpid);
		int64_t pid = known_pid ? gid_pid(gpid) : 0;
		uint32_t name;
		uint8_t kind =
		    GPU_RUN_KIND(NODE_FUNCTION, src == SRC_MEMCPY
						    ? GPU_RUN_GROUP_COPY
						    : GPU_RUN_GROUP_MEMSET);
		if (src == SRC_KERNEL) {
			kind = GPU_RUN_KIND(NODE_KERNEL, GPU_RUN_GROUP_KERNEL);
			name = gpu_run_col_int(st, 7, &v)
				   ? string_of(r, f, s, v)
				   : MODEL_NONE;
			if (name == MODEL_NONE)
				name = gpu_run_intern(r, "<kernel>");
		} else if (src == SRC_MEMCPY) {
			char buf[48];
			snprintf(buf, sizeof(buf), "[memcpy %s]",
				 copy_kind_name(
				     gpu_run_col_int(st, 7, &v) ? v : -1));
			name = gpu_run_intern(r, buf);
		} else {
			name = memset_name;
		}
		uint32_t parent;
		uint64_t link = GPU_RUN_NO_LINK;
		if (has_corr && known_pid &&
		    gpu_run_idmap_get(&s->regions, corr_key(pid, corr),
				    &parent)) {
			link = corr_key(pid, corr);
		} else {
			gpu_run_add_unlinked(r, 1);
			uint32_t proc = known_pid ? process_node(r, fi, s, pid)
						  : MODEL_NONE;
			if (proc == MODEL_NONE) {
				parent = gpu_run_unattributed(
				    r, "<GPU work without a process>");
			} else {
				parent = gpu_run_child(
				    r, proc, NODE_ENTRY,
				    gpu_run_intern(r, "<GPU work without a "
						      "launching API "
						      "call>"));
			}
		}
		uint32_t node = parent == MODEL_NONE || parent == 0
				    ? MODEL_NONE
				    : gpu_run_child(r, parent, kind, name);
		if (node == MODEL_NONE) {
			if (gpu_run_second_pass(r))
				continue;
			e = NOMEM(f);
			break;
		}
		uint64_t a = (uint64_t)pid << 32 ^ (uint32_t)dev;
		uint32_t line = gpu_run_line(r, fi, 0, GPU_RUN_LINE_QUEUE, a,
					     (uint64_t)stream, NULL, 0);
		if (line == MODEL_NONE && !gpu_run_second_pass(r)) {
			char label[96];
			snprintf(label, sizeof(label),
				 "pid %" PRId64 " GPU %" PRId64
				 " stream %" PRId64,
				 pid, dev, stream);
			uint32_t prof =
			    gpu_run_profile(r, "GPU", (uint64_t)dev, "STREAM",
					    (uint64_t)stream, label);
			line = gpu_run_line(r, fi, 0, GPU_RUN_LINE_QUEUE, a,
					    (uint64_t)stream, label, prof);
		}
		if (line == MODEL_NONE)
			continue;
		gpu_run_line_at(r, line)->group = TIMELINE_GROUP_STREAM;
		/* the same work on its context's line (the other grouping) */
		int64_t context;
		if (gpu_run_col_int(st, 9, &context)) {
			uint32_t cl = gpu_run_linef(
			    r, fi, 0, GPU_RUN_LINE_ALT, a, (uint64_t)context,
			    MODEL_NONE,
			    "pid %" PRId64 " GPU %" PRId64 " context %" PRId64,
			    pid, dev, context);
			if (cl != MODEL_NONE) {
				gpu_run_line_at(r, cl)->group = TIMELINE_GROUP_QUEUE;
				gpu_run_line_add(r, cl, (uint64_t)start,
						 (uint64_t)end, node,
						 (uint64_t)rowid << 3 | src,
						 link);
			}
		}
		gpu_run_add_gpu(r, node, (uint64_t)(end - start),
				gpu_run_line_at(r, line)->profile);
		if (src != SRC_KERNEL && gpu_run_col_int(st, 8, &bytes) &&
		    bytes >= 0)
			gpu_run_add_bytes(r, node, (double)bytes,
					  (uint64_t)(end - start));
		gpu_run_time_seen(r, (uint64_t)start, (uint64_t)end);
		gpu_run_line_add(r, line, (uint64_t)start, (uint64_t)end, node,
				 (uint64_t)rowid << 3 | src, link);
	}
	if (e == STATUS_OK && rc != SQLITE_DONE)
		e = gpu_run_step_error(f, rc, err);
	sqlite3_finalize(st);
	return e;
}

static enum status nsight_read(struct gpu_run *r, uint32_t fi,
			       struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	enum status e = STATUS_OK;
	if (!gpu_run_second_pass(r)) {
		f->sets = calloc(1, sizeof(*f->sets));
		if (!f->sets || !(f->sets[0].suffix = strdup("")))
			return NOMEM(f);
		f->n_sets = 1;
		if ((e = check(f, &f->sets[0], err)) != STATUS_OK)
			return e;
	}
	uint32_t o = f->sets[0].opt;
	e = read_host(r, fi, err);
	if (e == STATUS_OK && (o & OPT_NVTX))
		e = read_marks(r, fi, err);
	if (e == STATUS_OK && (o & OPT_KERNEL))
		e = read_gpu_table(r, fi, SRC_KERNEL, err);
	if (e == STATUS_OK && (o & OPT_MEMCPY))
		e = read_gpu_table(r, fi, SRC_MEMCPY, err);
	if (e == STATUS_OK && (o & OPT_MEMSET))
		e = read_gpu_table(r, fi, SRC_MEMSET, err);
	gpu_run_idmap_free(&f->sets[0].regions);
	return e;
}

/* ---- attributes --------------------------------------------------------- */

/* The name of value `v` of Nsight enumeration `table` (ENUM_NSYS_EVENT_TYPE
 * ...): from the export's own ENUM_ table (id, name) when it has one,
 * else from `builtin` (`n` names by value, NULL for none); NULL when
 * neither knows it. */
static const char *enum_name(struct gpu_run_file *f, const char *table,
			     int64_t v, const char *const *builtin, size_t n,
			     char *buf, size_t size)
{
	if (gpu_run_has_table(f, table) &&
	    gpu_run_has_column(f, table, "name")) {
		char sql[160];
		snprintf(sql, sizeof(sql),
			 "SELECT name FROM %s WHERE id = ?1", table);
		query_text(f, sql, v, buf, size);
		if (buf[0])
			return buf;
	}
	return v >= 0 && (size_t)v < n && builtin[v] ? builtin[v] : NULL;
}

/* NVTX event types (ENUM_NSYS_EVENT_TYPE) named as NVIDIA names them. */
static const char *nvtx_type_name(struct gpu_run_file *f, int64_t v,
				  char *buf, size_t size)
{
	static const char *const names[] = {
	    [33] = "NvtxCategory",	  [34] = "NvtxMark",
	    [59] = "NvtxPushPopRange",	  [60] = "NvtxStartEndRange",
	    [70] = "NvtxtPushPopRange",	  [71] = "NvtxtStartEndRange",
	    [75] = "NvtxDomainCreate"};
	return enum_name(f, "ENUM_NSYS_EVENT_TYPE", v, names,
			 sizeof(names) / sizeof(*names), buf, size);
}

/* CUDA API event classes (ENUM_NSYS_EVENT_CLASS; notes C.4.1). */
static const char *event_class_name(struct gpu_run_file *f, int64_t v,
				    char *buf, size_t size)
{
	static const char *const names[] = {[0] = "CUDA runtime",
					    [1] = "CUDA driver"};
	return enum_name(f, "ENUM_NSYS_EVENT_CLASS", v, names,
			 sizeof(names) / sizeof(*names), buf, size);
}

/* CUpti_ActivityMemoryKind (ENUM_CUDA_MEM_KIND). */
static const char *mem_kind_name(struct gpu_run_file *f, int64_t v,
				 char *buf, size_t size)
{
	static const char *const names[] = {
	    "unknown", "pageable", "pinned", "device", "array",
	    "managed", "device static", "managed static"};
	return enum_name(f, "ENUM_CUDA_MEM_KIND", v, names,
			 sizeof(names) / sizeof(*names), buf, size);
}

/* An NVTX domain by its id: the text of the domain's NvtxDomainCreate
 * row (eventType 75); domain 0 is the default one. */
static const char *nvtx_domain_name(struct gpu_run_file *f, int64_t v,
				    char *buf, size_t size)
{
	if (v == 0)
		return "default";
	query_text(f,
		   "SELECT coalesce(text, (SELECT value FROM StringIds WHERE "
		   "id = textId)) FROM NVTX_EVENTS WHERE eventType = 75 AND "
		   "domainId = ?1 LIMIT 1",
		   v, buf, size);
	return buf[0] ? buf : NULL;
}

static enum status nsight_detail(struct gpu_run *r,
				 const struct gpu_run_line *l, uint64_t event,
				 struct model_kv **out, size_t *n,
				 struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, l->file);
	if (event == MODEL_EVENT_NONE)
		return STATUS_OK;
	unsigned src = (unsigned)(event & 7);
	int64_t rowid = (int64_t)(event >> 3);
	const char *sql = NULL;
	static const char *const kernel_keys[] = {"grid",
						  "block",
						  "registers per thread",
						  "static shared memory",
						  "dynamic shared memory",
						  "name",
						  "device",
						  "context",
						  "stream",
						  "correlation id"};
	static const char *const memcpy_keys[] = {
	    "bytes",  "copy kind", "source kind", "destination kind",
	    "device", "context",   "stream",	  "correlation id"};
	static const char *const memset_keys[] = {
	    "bytes",   "value",	 "memory kind",	  "device",
	    "context", "stream", "correlation id"};
	static const char *const runtime_keys[] = {
	    "correlation id", "return value", "event class"};
	static const char *const osrt_keys[] = {"return value",
						"nesting level"};
	static const char *const nvtx_keys[] = {"event type", "category",
						"domain", "range id"};
	const char *const *keys = NULL;
	size_t nk = 0;
	switch (src) {
	case SRC_KERNEL:
		sql = "SELECT gridX || 'x' || gridY || 'x' || gridZ, "
		      "blockX || 'x' || blockY || 'x' || blockZ, "
		      "registersPerThread, staticSharedMemory, "
		      "dynamicSharedMemory, (SELECT value FROM StringIds "
		      "WHERE id = demangledName), deviceId, contextId, "
		      "streamId, correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL "
		      "WHERE rowid = ?1";
		keys = kernel_keys;
		nk = 10;
		break;
	case SRC_MEMCPY:
		sql = "SELECT bytes, copyKind, srcKind, dstKind, deviceId, "
		      "contextId, streamId, correlationId, \"end\" - start "
		      "FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE rowid = ?1";
		keys = memcpy_keys;
		nk = 8;
		break;
	case SRC_MEMSET:
		sql = "SELECT bytes, value, memKind, deviceId, contextId, "
		      "streamId, correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET "
		      "WHERE rowid = ?1";
		keys = memset_keys;
		nk = 7;
		break;
	case SRC_RUNTIME:
		sql = "SELECT correlationId, returnValue, eventClass FROM "
		      "CUPTI_ACTIVITY_KIND_RUNTIME WHERE rowid = ?1";
		keys = runtime_keys;
		nk = 3;
		break;
	case SRC_OSRT:
		sql = "SELECT returnValue, nestingLevel FROM OSRT_API WHERE "
		      "rowid = ?1";
		keys = osrt_keys;
		nk = 2;
		break;
	case SRC_NVTX:
		sql = "SELECT eventType, category, domainId, rangeId FROM "
		      "NVTX_EVENTS WHERE rowid = ?1";
		keys = nvtx_keys;
		nk = 4;
		break;
	default:
		return STATUS_OK;
	}
	struct model_kv kv[12];
	char text[12][200];
	size_t k = 0;
	sqlite3_stmt *st = NULL;
	/* a column an older export lacks: no details rather than an error */
	if (sqlite3_prepare_v2(f->db, sql, -1, &st, NULL) != SQLITE_OK)
		return STATUS_OK;
	sqlite3_bind_int64(st, 1, rowid);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		for (size_t c = 0; c < nk; c++) {
			if (sqlite3_column_type(st, (int)c) == SQLITE_NULL)
				continue;
			const char *v = gpu_run_col_text(st, (int)c);
			int64_t x;
			char nb[120];
			const char *named = NULL;
			if (src == SRC_MEMCPY && c == 1 &&
			    gpu_run_col_int(st, 1, &x))
				v = copy_kind_name(x);
			else if (gpu_run_col_int(st, (int)c, &x))
				named = src == SRC_NVTX && c == 0
					    ? nvtx_type_name(f, x, nb,
							     sizeof(nb))
					: src == SRC_NVTX && c == 2
					    ? nvtx_domain_name(f, x, nb,
							       sizeof(nb))
					: src == SRC_RUNTIME && c == 2
					    ? event_class_name(f, x, nb,
							       sizeof(nb))
					: (src == SRC_MEMCPY &&
					   (c == 2 || c == 3)) ||
						  (src == SRC_MEMSET && c == 2)
					    ? mem_kind_name(f, x, nb,
							    sizeof(nb))
					    : NULL;
			/* an enumeration's value named, its number kept */
			if (named)
				snprintf(text[k], sizeof(text[k]), "%.150s (%s)",
					 named, v);
			else
				snprintf(text[k], sizeof(text[k]), "%s", v);
			kv[k] =
			    (struct model_kv){.key = keys[c], .text = text[k]};
			if (src != SRC_MEMCPY || c != 1) {
				int64_t num;
				if (gpu_run_col_int(st, (int)c, &num)) {
					kv[k].number = (double)num;
					kv[k].is_number = true;
				}
			}
			k++;
		}
		int64_t bytes, ns;
		if (src == SRC_MEMCPY && gpu_run_col_int(st, 0, &bytes) &&
		    gpu_run_col_int(st, 8, &ns) && ns > 0) {
			snprintf(text[k], sizeof(text[k]), "%.3f GB/s",
				 (double)bytes / (double)ns);
			kv[k] = (struct model_kv){.key = "bandwidth",
						  .text = text[k],
						  .number = (double)bytes /
							    (double)ns,
						  .is_number = true};
			k++;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return gpu_run_step_error(f, rc, err);
	if (k == 0)
		return STATUS_OK;
	enum status e = model_kv_pack(kv, k, out, err);
	if (e == STATUS_OK)
		*n = k;
	return e;
}

const struct gpu_run_layout nsight_layout = {
    .read = nsight_read,
    .detail = nsight_detail,
};
