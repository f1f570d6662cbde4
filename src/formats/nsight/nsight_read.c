/* nsight_read: an Nsight Systems SQLite export read into a gpu_run
 * (notes/formats-dcpi-cube-nsys.md C.2-C.4; NVIDIA's "exported data"
 * page): the tables and columns it has, the process and thread nodes, and
 * the order of the reads: the host side (nsight_host.c), then the GPU side
 * (nsight_gpu.c) under it; the attributes of an interval are
 * nsight_detail.c.  Tables are lazy (NVIDIA: not every table is present),
 * so each is optional and its columns are probed by name; StringIds is
 * required.  Must not depend on curses or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/nsight/nsight_internal.h"
#include "formats/nsight/nsight_read.h"

const char *const nsight_table_of[] = {
    [SRC_KERNEL] = "CUPTI_ACTIVITY_KIND_KERNEL",
    [SRC_MEMCPY] = "CUPTI_ACTIVITY_KIND_MEMCPY",
    [SRC_MEMSET] = "CUPTI_ACTIVITY_KIND_MEMSET",
    [SRC_NVTX] = "NVTX_EVENTS",
    [SRC_RUNTIME] = "CUPTI_ACTIVITY_KIND_RUNTIME",
    [SRC_OSRT] = "OSRT_API",
};

/* CUDA_MEMCPY_KIND (CUPTI's CUpti_ActivityMemcpyKind): no ENUM_ table in
 * the corpus, so built in. */
const char *nsight_copy_kind_name(int64_t k)
{
	static const char *const names[] = {"unknown", "HtoD", "DtoH", "HtoA",
					    "AtoH",    "AtoA", "AtoD", "DtoA",
					    "DtoD",    "HtoH", "PtoP"};
	return k >= 0 && k < (int64_t)(sizeof(names) / sizeof(*names))
		   ? names[k]
		   : "other";
}

uint32_t nsight_string_of(struct gpu_run *r, struct gpu_run_file *f,
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

static const char *const gpu[] = {"start",    "end",	       "deviceId",
				  "streamId", "correlationId", NULL};
static const char *const kernel[] = {"shortName", NULL};
static const char *const memcpy_[] = {"bytes", "copyKind", NULL};
static const char *const memset_[] = {"bytes", NULL};
static const char *const runtime[] = {
    "start", "end", "eventClass", "globalTid", "correlationId", "nameId", NULL};
static const char *const nvtx[] = {"start", "end", "eventType", "globalTid",
				   NULL};
static const char *const osrt[] = {"start", "end", "globalTid", "nameId", NULL};

/* The tables of the sources: the columns a present table must have
 * (and, when not NULL, more that its kind needs) and the option it
 * sets. */
static const struct {
	int src;
	const char *const *cols, *const *more;
	uint32_t opt;
} sources[] = {
    {SRC_KERNEL, gpu, kernel, OPT_KERNEL},
    {SRC_MEMCPY, gpu, memcpy_, OPT_MEMCPY},
    {SRC_MEMSET, gpu, memset_, OPT_MEMSET},
    {SRC_RUNTIME, runtime, NULL, OPT_RUNTIME},
    {SRC_NVTX, nvtx, NULL, OPT_NVTX},
    {SRC_OSRT, osrt, NULL, OPT_OSRT},
};

/* The optional columns: table (or the source's table when NULL), the
 * column and, when not NULL, a second one it needs with it. */
static const struct {
	const char *table;
	int src;
	const char *column, *also;
	uint32_t opt;
} extras[] = {
    {"NVTX_EVENTS", 0, "text", NULL, OPT_NVTX_TEXT},
    {"NVTX_EVENTS", 0, "textId", NULL, OPT_NVTX_TEXTID},
    {"PROCESSES", 0, "pid", "name", OPT_PROCESSES},
    {"ThreadNames", 0, "nameId", "globalTid", OPT_THREADNAMES},
    {NULL, SRC_KERNEL, "globalPid", NULL, OPT_KERNEL_PID},
    {NULL, SRC_MEMCPY, "globalPid", NULL, OPT_MEMCPY_PID},
    {NULL, SRC_MEMSET, "globalPid", NULL, OPT_MEMSET_PID},
    {NULL, SRC_KERNEL, "contextId", NULL, OPT_KERNEL_CTX},
    {NULL, SRC_MEMCPY, "contextId", NULL, OPT_MEMCPY_CTX},
    {NULL, SRC_MEMSET, "contextId", NULL, OPT_MEMSET_CTX},
    {NULL, SRC_KERNEL, "demangledName", NULL, OPT_KERNEL_DEMANGLED},
    {NULL, SRC_KERNEL, "mangledName", NULL, OPT_KERNEL_MANGLED},
};

static enum status check(struct gpu_run_file *f, struct gpu_run_set *s,
			 struct error *err)
{
	static const char *const strings[] = {"id", "value", NULL};
	enum status st =
	    gpu_run_need_columns(f, "StringIds", strings,
				 " (not an Nsight Systems SQLite export)", err);
	if (st != STATUS_OK)
		return st;
	uint32_t o = 0;
	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		const char *t = nsight_table_of[sources[i].src];
		if (optional(f, t, sources[i].cols, &st, err) &&
		    (!sources[i].more ||
		     (st = gpu_run_need_columns(f, t, sources[i].more, NULL,
						err)) == STATUS_OK))
			o |= sources[i].opt;
		if (st != STATUS_OK)
			break;
	}
	if (st != STATUS_OK)
		return st;
	if (!(o & (OPT_KERNEL | OPT_MEMCPY | OPT_MEMSET | OPT_RUNTIME |
		   OPT_NVTX | OPT_OSRT)))
		return error_set(err, STATUS_UNSUPPORTED, f->path,
				 "unknown Nsight Systems export layout: no "
				 "table of kernels, copies, API calls, NVTX "
				 "ranges or OS runtime calls (%s is missing)",
				 nsight_table_of[SRC_KERNEL]);
	for (size_t i = 0; i < sizeof(extras) / sizeof(extras[0]); i++) {
		const char *t = extras[i].table
				    ? extras[i].table
				    : nsight_table_of[extras[i].src];
		if (gpu_run_has_column(f, t, extras[i].column) &&
		    (!extras[i].also ||
		     gpu_run_has_column(f, t, extras[i].also)))
			o |= extras[i].opt;
	}
	s->opt = o;
	return STATUS_OK;
}

/* A one-row text query with one integer parameter ("" when none). */
void nsight_query_text(struct gpu_run_file *f, const char *sql, int64_t arg,
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

uint32_t nsight_process_node(struct gpu_run *r, uint32_t fi,
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
		nsight_query_text(f,
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

uint32_t nsight_thread_node(struct gpu_run *r, uint32_t fi,
			    struct gpu_run_set *s, int64_t gtid)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	uint32_t node;
	if (gpu_run_map_get(&s->threads, (uint64_t)gtid, &node))
		return node;
	if (gpu_run_second_pass(r))
		return MODEL_NONE;
	int64_t pid = nsight_gid_pid(gtid), tid = nsight_gid_tid(gtid);
	uint32_t proc = nsight_process_node(r, fi, s, pid);
	if (proc == MODEL_NONE)
		return MODEL_NONE;
	char tname[128] = "", name[200], label[96];
	if (s->opt & OPT_THREADNAMES)
		nsight_query_text(f,
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

uint64_t nsight_corr_key(int64_t pid, int64_t corr)
{
	return (uint64_t)pid << 40 ^ ((uint64_t)corr & 0xFFFFFFFFFFull);
}

static enum status nsight_read(struct gpu_run *r, uint32_t fi,
			       struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	enum status e = gpu_run_single_set(r, f, check, err);
	if (e != STATUS_OK)
		return e;
	uint32_t o = f->sets[0].opt;
	e = nsight_read_host(r, fi, err);
	if (e == STATUS_OK && (o & OPT_KERNEL))
		e = nsight_read_gpu_table(r, fi, SRC_KERNEL, err);
	if (e == STATUS_OK && (o & OPT_MEMCPY))
		e = nsight_read_gpu_table(r, fi, SRC_MEMCPY, err);
	if (e == STATUS_OK && (o & OPT_MEMSET))
		e = nsight_read_gpu_table(r, fi, SRC_MEMSET, err);
	gpu_run_idmap_free(&f->sets[0].regions);
	return e;
}

/* Rows of one-integer query `sql` given to `each` (the sketch's small
 * queries); a table that fails to read is an error. */
static enum status each_int(struct gpu_run *r, uint32_t fi, const char *sql,
			    uint32_t (*each)(struct gpu_run *r, uint32_t fi,
					     struct gpu_run_set *s, int64_t v),
			    struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	sqlite3_stmt *st = NULL;
	enum status e = gpu_run_prepare(f, sql, &st, err);
	int rc = SQLITE_DONE;
	int64_t v;
	while (e == STATUS_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
		if (gpu_run_col_int(st, 0, &v) &&
		    each(r, fi, &f->sets[0], v) == MODEL_NONE)
			e = NOMEM(f);
	if (e == STATUS_OK && rc != SQLITE_DONE)
		e = gpu_run_step_error(f, rc, err);
	sqlite3_finalize(st);
	return e;
}

/* The node of the file's one process, or MODEL_NONE. */
static uint32_t only_process(const struct gpu_run_set *s)
{
	uint32_t proc = MODEL_NONE;
	for (size_t i = 0; s->procs.n == 1 && i < s->procs.cap; i++)
		if (s->procs.slot[i].used)
			proc = s->procs.slot[i].val;
	return proc;
}

/* A count of the file's kernels under the file's process. */
static uint32_t add_kernel_count(struct gpu_run *r, uint32_t fi,
				 struct gpu_run_set *s, int64_t n)
{
	(void)fi;
	uint32_t proc = only_process(s);
	if (proc != MODEL_NONE && n > 0)
		gpu_run_add_calls(r, proc, (uint64_t)n);
	return 0;
}

/* The integer query `sql` gives in *out (left as it was when it gives
 * no integer). */
static enum status one_int(struct gpu_run_file *f, const char *sql,
			   int64_t *out, struct error *err)
{
	sqlite3_stmt *st = NULL;
	enum status e = gpu_run_prepare(f, sql, &st, err);
	int rc = e == STATUS_OK ? sqlite3_step(st) : SQLITE_DONE;
	if (rc == SQLITE_ROW)
		gpu_run_col_int(st, 0, out);
	else if (e == STATUS_OK && rc != SQLITE_DONE)
		e = gpu_run_step_error(f, rc, err);
	sqlite3_finalize(st);
	return e;
}

/* The kernel rows probed by the sketch, spread evenly over the table's
 * rowids (each a b-tree seek: 256 cost 2-8 ms on a 625,000-row table,
 * where a DISTINCT over the names reads it all, 0.06-0.11 s). */
#define KERNEL_PROBES 256

/* The names of the kernels at KERNEL_PROBES rowids spread over the
 * kernel table, under the file's one process (named as the full pass
 * names them): the kernels of a run that repeats its steps; a kernel
 * seldom run may be missing until the file is scanned. */
static enum status sketch_kernel_names(struct gpu_run *r, uint32_t fi,
				       struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	struct gpu_run_set *s = &f->sets[0];
	uint32_t proc = only_process(s);
	char sql[200];
	int64_t lo = 0, hi = -1, v;
	if (proc == MODEL_NONE)
		return STATUS_OK;
	/* two b-tree seeks (min and max together are a scan) */
	enum status e = one_int(f, "SELECT min(rowid) FROM "
				   "CUPTI_ACTIVITY_KIND_KERNEL", &lo, err);
	if (e == STATUS_OK)
		e = one_int(f, "SELECT max(rowid) FROM "
			       "CUPTI_ACTIVITY_KIND_KERNEL", &hi, err);
	if (e != STATUS_OK || hi < lo)
		return e;
	snprintf(sql, sizeof(sql),
		 "SELECT %s FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid >= ? "
		 "ORDER BY rowid LIMIT 1",
		 nsight_kernel_name_column(r, s));
	sqlite3_stmt *st = NULL;
	e = gpu_run_prepare(f, sql, &st, err);
	uint8_t kind = GPU_RUN_KIND(NODE_KERNEL, GPU_RUN_GROUP_KERNEL);
	for (int i = 0; e == STATUS_OK && i < KERNEL_PROBES; i++) {
		int64_t at = lo + (int64_t)((double)(hi - lo) * i /
					    (KERNEL_PROBES - 1));
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, at);
		int rc = sqlite3_step(st);
		uint32_t name = rc == SQLITE_ROW && gpu_run_col_int(st, 0, &v)
					? nsight_string_of(r, f, s, v)
					: MODEL_NONE;
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			e = gpu_run_step_error(f, rc, err);
		else if (name != MODEL_NONE &&
			 gpu_run_child(r, proc, kind, name) == MODEL_NONE)
			e = NOMEM(f);
	}
	sqlite3_finalize(st);
	return e;
}

/* The sketch of an export (gpu_run_layout.sketch): its processes and
 * named threads (named as the full pass names them), the count of its
 * kernels (the table's b-tree count) and their names (probed), from
 * small queries. */
static enum status nsight_sketch(struct gpu_run *r, uint32_t fi,
				 struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	enum status e = gpu_run_single_set(r, f, check, err);
	uint32_t o = e == STATUS_OK ? f->sets[0].opt : 0;
	if (e == STATUS_OK && (o & OPT_PROCESSES))
		e = each_int(r, fi, "SELECT DISTINCT pid FROM PROCESSES "
				    "WHERE pid IS NOT NULL ORDER BY pid",
			     nsight_process_node, err);
	if (e == STATUS_OK && (o & OPT_THREADNAMES))
		e = each_int(r, fi, "SELECT DISTINCT globalTid FROM "
				    "ThreadNames ORDER BY globalTid",
			     nsight_thread_node, err);
	if (e == STATUS_OK && (o & OPT_KERNEL))
		e = each_int(r, fi, "SELECT count(*) FROM "
				    "CUPTI_ACTIVITY_KIND_KERNEL",
			     add_kernel_count, err);
	if (e == STATUS_OK && (o & OPT_KERNEL))
		e = sketch_kernel_names(r, fi, err);
	return e;
}

const struct gpu_run_layout nsight_layout = {
    .read = nsight_read,
    .detail = nsight_detail,
    .sketch = nsight_sketch,
};
