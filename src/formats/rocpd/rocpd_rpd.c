/* rocpd_rpd: rocmProfileData ".rpd" files (schema 2, and the newer layout
 * that moved arguments to rocpd_ustring): host API calls and roctx
 * "UserMarker" ranges in rocpd_api, GPU work in rocpd_op, linked by
 * rocpd_api_ops (notes/rocpd.md 2.2).  API nesting is rebuilt from time
 * containment on each (pid, tid) (as rocpd.call_stacks does); copy sizes
 * come from rocpd_copyapi where they are integers; SMI samples
 * (rocpd_monitor) become counter lines.  Must not depend on curses or on
 * ui/. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "formats/rocpd/rocpd_layouts.h"

struct api_row {
	int64_t id, pid, tid, start, end, name_id, args_id;
};

static int api_cmp(const void *pa, const void *pb)
{
	const struct api_row *a = pa, *b = pb;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static uint32_t rpd_string(struct gpu_run *r, struct gpu_run_file *f,
			   struct gpu_run_set *s, int64_t id)
{
	return gpu_run_string(r, f, s, "rocpd_string", "string", id);
}

/* What the readers of rocpd_op need of its strings, asked once each: the
 * group of an op type (by opType_id), the base name of a kernel (by
 * description_id). */
struct op_names {
	struct gpu_run_map group, base;
};

/* The text of rocpd_string `id` into buf ("" when none). */
static void op_text(struct gpu_run_file *f, int64_t id, char *buf,
		    size_t size)
{
	sqlite3_stmt *st = NULL;
	buf[0] = '\0';
	if (sqlite3_prepare_v2(f->db,
			       "SELECT string FROM rocpd_string WHERE id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(buf, size, "%s", gpu_run_col_text(st, 0));
	sqlite3_finalize(st);
}

/* The group of GPU work of op type `type` other than kernels: copies
 * ("CopyHostToDevice"...), memsets ("FillBuffer"), or other work
 * (barriers, markers). */
static uint8_t op_group(struct gpu_run_file *f, struct op_names *n,
			int64_t type)
{
	uint32_t g;
	if (gpu_run_map_get(&n->group, (uint64_t)type, &g))
		return (uint8_t)g;
	char text[128];
	op_text(f, type, text, sizeof(text));
	g = strstr(text, "Copy")				? GPU_RUN_GROUP_COPY
	    : strstr(text, "Fill") || strstr(text, "Memset") ? GPU_RUN_GROUP_MEMSET
							      : GPU_RUN_GROUP_GPU_OTHER;
	gpu_run_map_put(&n->group, (uint64_t)type, g);
	return (uint8_t)g;
}

/* The base name of the kernel whose description is string `desc`
 * (kernel-names base); `name` when it cannot be made. */
static uint32_t op_base_name(struct gpu_run *r, struct gpu_run_file *f,
			     struct op_names *n, int64_t desc, uint32_t name)
{
	uint32_t h;
	if (gpu_run_map_get(&n->base, (uint64_t)desc, &h))
		return h;
	char text[4096], base[512];
	op_text(f, desc, text, sizeof(text));
	if (!text[0])
		return name;
	gpu_run_kernel_base(text, base, sizeof(base));
	h = gpu_run_intern(r, base);
	if (h == MODEL_NONE)
		return name;
	gpu_run_map_put(&n->base, (uint64_t)desc, h);
	return h;
}

static enum status check(struct gpu_run_file *f, struct gpu_run_set *s,
			 struct error *err)
{
	static const char *const api[] = {"id",	 "pid",	       "tid",
					  "start", "end",	       "apiName_id",
					  "args_id", NULL};
	static const char *const op[] = {"id",	  "gpuId", "queueId",
					 "start", "end",   "description_id",
					 "opType_id", NULL};
	static const char *const apiops[] = {"api_id", "op_id", NULL};
	static const char *const string[] = {"id", "string", NULL};
	enum status st = gpu_run_need_columns(f, "rocpd_api", api, NULL, err);
	if (st == STATUS_OK)
		st = gpu_run_need_columns(f, "rocpd_op", op, NULL, err);
	if (st == STATUS_OK)
		st = gpu_run_need_columns(f, "rocpd_api_ops", apiops, NULL, err);
	if (st == STATUS_OK)
		st = gpu_run_need_columns(f, "rocpd_string", string, NULL, err);
	if (st != STATUS_OK)
		return st;
	s->has_copyapi = gpu_run_has_table(f, "rocpd_copyapi") &&
			 gpu_run_has_column(f, "rocpd_copyapi", "api_ptr_id") &&
			 gpu_run_has_column(f, "rocpd_copyapi", "size");
	s->has_kernelapi = gpu_run_has_table(f, "rocpd_kernelapi") &&
			   gpu_run_has_column(f, "rocpd_kernelapi", "gridX");
	/* the streams of kernels and copies (the lines by stream) */
	if (s->has_kernelapi &&
	    gpu_run_has_column(f, "rocpd_kernelapi", "api_ptr_id") &&
	    gpu_run_has_column(f, "rocpd_kernelapi", "stream"))
		s->opt |= RPD_KERNEL_STREAM;
	if (s->has_copyapi && gpu_run_has_column(f, "rocpd_copyapi", "stream"))
		s->opt |= RPD_COPY_STREAM;
	s->has_monitor = gpu_run_has_table(f, "rocpd_monitor") &&
			 gpu_run_has_column(f, "rocpd_monitor", "monitorType") &&
			 gpu_run_has_column(f, "rocpd_monitor", "value");
	return STATUS_OK;
}

static uint32_t thread_node(struct gpu_run *r, struct gpu_run_set *s,
			    int64_t pid, int64_t tid)
{
	uint64_t key = (uint64_t)pid << 32 ^ (uint64_t)tid;
	uint32_t node, proc;
	if (gpu_run_map_get(&s->threads, key, &node))
		return node;
	if (gpu_run_second_pass(r))
		return MODEL_NONE;
	char name[64], label[96];
	if (!gpu_run_map_get(&s->procs, (uint64_t)pid, &proc)) {
		snprintf(name, sizeof(name), "pid %" PRId64, pid);
		proc = gpu_run_child(r, 0, NODE_ENTRY, gpu_run_intern(r, name));
		if (proc == MODEL_NONE ||
		    !gpu_run_map_put(&s->procs, (uint64_t)pid, proc))
			return MODEL_NONE;
	}
	snprintf(name, sizeof(name), "thread %" PRId64 "%s", tid,
		 tid == pid ? " (main)" : "");
	node = gpu_run_child(r, proc, NODE_ENTRY, gpu_run_intern(r, name));
	if (node == MODEL_NONE)
		return node;
	snprintf(label, sizeof(label), "pid %" PRId64 " tid %" PRId64, pid,
		 tid);
	gpu_run_set_node_profile(r, node,
				 gpu_run_profile(r, "PROCESS", (uint64_t)pid,
						 "THREAD", (uint64_t)tid,
						 label));
	gpu_run_map_put(&s->threads, key, node);
	return node;
}

#define NOMEM(f) error_set(err, STATUS_NOMEM, (f)->path, "out of memory")

/* The rows of rocpd_api while they are read. */
struct api_rows {
	struct gpu_run *r;
	struct api_row *v;
	size_t n, cap;
};

/* One row of rocpd_api with usable times; false when out of memory. */
static bool api_row(void *ctx, sqlite3_stmt *st)
{
	struct api_rows *ar = ctx;
	struct api_row a;
	if (!gpu_run_col_int(st, 0, &a.id) || !gpu_run_col_int(st, 1, &a.pid) ||
	    !gpu_run_col_int(st, 2, &a.tid) || !gpu_run_col_int(st, 3, &a.start) ||
	    !gpu_run_col_int(st, 4, &a.end) || a.start < 0 || a.end < a.start) {
		gpu_run_skip_row(ar->r);
		return true;
	}
	if (!gpu_run_col_int(st, 5, &a.name_id))
		a.name_id = -1;
	if (!gpu_run_col_int(st, 6, &a.args_id))
		a.args_id = -1;
	if (!array_grow((void **)&ar->v, &ar->cap, ar->n + 1, sizeof(*ar->v)))
		return false;
	ar->v[ar->n++] = a;
	return true;
}

/* The rows of rocpd_api with usable times, sorted by thread and time
 * (*rows malloc'd). */
static enum status api_rows(struct gpu_run *r, struct gpu_run_file *f,
			    struct api_row **rows, size_t *n,
			    struct error *err)
{
	struct api_rows ar = {.r = r};
	enum status e = gpu_run_each_row(
		f,
		"SELECT id, pid, tid, start, \"end\", apiName_id, args_id "
		"FROM rocpd_api",
		api_row, &ar, err);
	if (e == STATUS_OK && ar.n > 1)
		qsort(ar.v, ar.n, sizeof(*ar.v), api_cmp);
	*rows = ar.v;
	*n = ar.n;
	return e;
}

/* The host line of (pid, tid), whose thread is `thread`. */
static uint32_t api_line(struct gpu_run *r, uint32_t fi, uint32_t thread,
			 int64_t pid, int64_t tid)
{
	return gpu_run_linef(r, fi, 0, GPU_RUN_LINE_HOST, (uint64_t)pid,
			     (uint64_t)tid, gpu_run_node_profile(r, thread),
			     "pid %" PRId64 " tid %" PRId64, pid, tid);
}

/* A UserMarker of no length: an instant on the thread's line, named by
 * its message, out of the tree and of the nesting; counted at `parent`
 * (the innermost call or range holding its time, else the thread: the
 * marks column). */
static void api_mark(struct gpu_run *r, uint32_t fi, struct gpu_run_set *s,
		     const struct api_row *a, uint32_t thread, uint32_t parent,
		     uint32_t name)
{
	gpu_run_add_mark(r, parent);
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	uint32_t text = a->args_id >= 0 ? rpd_string(r, f, s, a->args_id)
					: name;
	uint32_t line = api_line(r, fi, thread, a->pid, a->tid);
	if (line != MODEL_NONE && text != MODEL_NONE)
		gpu_run_instant_add(r, line, (uint64_t)a->start, text,
				    (uint64_t)a->id);
}

/* The node of API row `a` under `parent` (a call, or a roctx range: a
 * UserMarker named by its message); MODEL_NONE for a mark (*mark set),
 * placed by api_mark in context `at`, or on failure. */
static uint32_t api_node(struct gpu_run *r, uint32_t fi, struct gpu_run_set *s,
			 const struct api_row *a, uint32_t thread,
			 uint32_t parent, uint32_t at, uint32_t marker,
			 bool *mark)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	uint32_t name = a->name_id >= 0 ? rpd_string(r, f, s, a->name_id)
					: gpu_run_intern(r, "<unnamed>");
	uint8_t kind = GPU_RUN_KIND(NODE_FUNCTION, GPU_RUN_GROUP_API);
	if (name != MODEL_NONE && name == marker) {
		if (a->start == a->end) {
			api_mark(r, fi, s, a, thread, at, name);
			*mark = true;
			return MODEL_NONE;
		}
		kind = GPU_RUN_KIND(NODE_REGION, GPU_RUN_GROUP_RANGE);
		if (a->args_id >= 0)
			name = rpd_string(r, f, s, a->args_id);
	}
	return gpu_run_child(r, parent, kind, name);
}

static enum status read_apis(struct gpu_run *r, uint32_t fi,
			     struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	struct gpu_run_set *s = &f->sets[0];
	struct api_row *rows = NULL;
	size_t n = 0;
	enum status e = api_rows(r, f, &rows, &n, err);
	uint32_t marker = gpu_run_intern(r, "UserMarker");
	/* the enclosing calls on the current thread */
	struct gpu_run_nest nest = {0};
	for (size_t i = 0; e == STATUS_OK && i < n; i++) {
		struct api_row *a = &rows[i];
		if (i > 0 && (a->pid != rows[i - 1].pid ||
			      a->tid != rows[i - 1].tid))
			nest.depth = 0;
		uint32_t thread = thread_node(r, s, a->pid, a->tid);
		uint32_t parent =
			gpu_run_nest_parent(&nest, a->start, a->end, thread);
		if (parent == MODEL_NONE)
			continue;
		bool mark = false;
		uint32_t at = a->start == a->end
				      ? gpu_run_nest_at(&nest, a->start, thread)
				      : parent;
		uint32_t node = api_node(r, fi, s, a, thread, parent, at,
					 marker, &mark);
		if (node == MODEL_NONE) {
			if (!mark && !gpu_run_second_pass(r))
				e = NOMEM(f);
			continue;
		}
		if (!gpu_run_nest_push(&nest, a->start, a->end, node) ||
		    !gpu_run_idmap_put(&s->regions, (uint64_t)a->id, node)) {
			e = NOMEM(f);
			break;
		}
		gpu_run_host_interval(r, node,
				      parent == thread ? MODEL_NONE : parent,
				      api_line(r, fi, thread, a->pid, a->tid),
				      a->start, a->end, (uint64_t)a->id,
				      (uint64_t)a->id);
	}
	gpu_run_nest_free(&nest);
	free(rows);
	return e;
}

/* Ops' streams: op -> slot, slot -> the stream's value. */
struct streams {
	struct gpu_run_map of_op, slot_of;
	uint64_t *v;
	uint32_t n, cap;
};

/* The streams of the ops whose API call has a row in `table` (whose
 * `stream` is a handle as text, "0x7f..."): those that parse. */
/* One op's stream (its API call's `stream`, text that parses), given a
 * slot of its own value; false when out of memory. */
static bool stream_row(void *ctx, sqlite3_stmt *st)
{
	struct streams *ss = ctx;
	int64_t op;
	const char *text = gpu_run_col_text(st, 1);
	char *end;
	uint32_t slot;
	if (!gpu_run_col_int(st, 0, &op) || !*text)
		return true;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 0);
	if (errno || *end || end == text || v == UINT64_MAX)
		return true;
	if (!gpu_run_map_get(&ss->slot_of, v, &slot)) {
		if (!array_grow_u32((void **)&ss->v, &ss->cap, (uint64_t)ss->n + 1,
				    sizeof(*ss->v)))
			return false;
		slot = ss->n;
		ss->v[ss->n++] = v;
		if (!gpu_run_map_put(&ss->slot_of, v, slot))
			return false;
	}
	return gpu_run_map_put(&ss->of_op, (uint64_t)op, slot);
}

static enum status read_streams(struct gpu_run_file *f, const char *table,
				struct streams *ss, struct error *err)
{
	char sql[200];
	snprintf(sql, sizeof(sql),
		 "SELECT ao.op_id, t.stream FROM %s t JOIN rocpd_api_ops ao "
		 "ON ao.api_id = t.api_ptr_id",
		 table);
	return gpu_run_each_row(f, sql, stream_row, ss, err);
}

/* What read_ops keeps while it reads rocpd_op. */
struct ops {
	struct gpu_run *r;
	uint32_t fi;
	struct gpu_run_set *s;
	/* op -> launching API node; second pass: op -> its API id (the
	 * interval link); copy sizes by op */
	struct gpu_run_map op_api, op_link, sizes;
	struct op_names names;
	struct streams streams;
	bool by_stream;
	uint32_t kernel_type;
};

static void ops_free(struct ops *o)
{
	gpu_run_map_free(&o->op_api);
	gpu_run_map_free(&o->op_link);
	gpu_run_map_free(&o->names.group);
	gpu_run_map_free(&o->names.base);
	gpu_run_map_free(&o->sizes);
	gpu_run_map_free(&o->streams.of_op);
	gpu_run_map_free(&o->streams.slot_of);
	free(o->streams.v);
}

/* op -> launching API (the first link of an op: graph launches link one
 * API to several ops, not one op to several APIs): a row of
 * rocpd_api_ops. */
static bool op_api_row(void *ctx, sqlite3_stmt *st)
{
	struct ops *o = ctx;
	int64_t op, api;
	uint32_t node;
	return !(gpu_run_col_int(st, 0, &op) && gpu_run_col_int(st, 1, &api) &&
		 gpu_run_idmap_get(&o->s->regions, (uint64_t)api, &node) &&
		 (!gpu_run_map_put(&o->op_api, (uint64_t)op, node) ||
		  (gpu_run_second_pass(o->r) && api >= 0 && api < UINT32_MAX &&
		   !gpu_run_map_put(&o->op_link, (uint64_t)op,
				    (uint32_t)api))));
}

/* Copy sizes by op, where they are integers: a row of rocpd_copyapi. */
static bool size_row(void *ctx, sqlite3_stmt *st)
{
	struct ops *o = ctx;
	int64_t op, size;
	return !(gpu_run_col_int(st, 0, &op) && gpu_run_col_int(st, 1, &size) &&
		 size >= 0 && size <= UINT32_MAX &&
		 !gpu_run_map_put(&o->sizes, (uint64_t)op, (uint32_t)size));
}

/* The line of op `id` on GPU `gpu` by its stream (the other grouping). */
static uint32_t stream_line(struct gpu_run *r, uint32_t fi, struct ops *o,
			    int64_t id, int64_t gpu)
{
	uint32_t slot;
	uint64_t sv = gpu_run_map_get(&o->streams.of_op, (uint64_t)id, &slot)
			      ? o->streams.v[slot]
			      : UINT64_MAX;
	uint32_t sl =
		sv == UINT64_MAX
			? gpu_run_linef(r, fi, 0, GPU_RUN_LINE_ALT,
					(uint64_t)gpu, sv, MODEL_NONE,
					"GPU %" PRId64 " stream ?", gpu)
			: gpu_run_linef(r, fi, 0, GPU_RUN_LINE_ALT,
					(uint64_t)gpu, sv, MODEL_NONE,
					"GPU %" PRId64 " stream 0x%" PRIx64,
					gpu, sv);
	if (sl != MODEL_NONE)
		gpu_run_line_at(r, sl)->group = TIMELINE_GROUP_STREAM;
	return sl;
}

/* The node of op row `st` (id, gpuId, queueId, start, end,
 * description_id, opType_id) under its launching API call. */
static uint32_t op_node(struct gpu_run *r, struct gpu_run_file *f,
			struct gpu_run_set *s, struct ops *o,
			sqlite3_stmt *st, int64_t id)
{
	int64_t desc = -1, type = -1;
	uint32_t tname = gpu_run_col_int(st, 6, &type)
				 ? rpd_string(r, f, s, type)
				 : gpu_run_intern(r, "<op>");
	uint32_t name = gpu_run_col_int(st, 5, &desc)
				? rpd_string(r, f, s, desc)
				: 0;
	if (name == 0 || name == MODEL_NONE)
		name = tname;
	uint32_t parent;
	if (!gpu_run_map_get(&o->op_api, (uint64_t)id, &parent)) {
		gpu_run_add_unlinked(r, 1);
		parent = gpu_run_unattributed(
			r, "<GPU work without a launching API call>");
	}
	uint8_t kind;
	if (tname == o->kernel_type) {
		kind = GPU_RUN_KIND(NODE_KERNEL, GPU_RUN_GROUP_KERNEL);
		if (gpu_run_kernel_choice(r) == GPU_RUN_KERNEL_BASE &&
		    gpu_run_col_int(st, 5, &desc))
			name = op_base_name(r, f, &o->names, desc, name);
	} else {
		kind = GPU_RUN_KIND(NODE_FUNCTION,
				    op_group(f, &o->names, type));
	}
	return gpu_run_child(r, parent, kind, name);
}

/* One row of rocpd_op: its node, its lines, its values; false when out
 * of memory. */
static bool add_op(void *ctx, sqlite3_stmt *st)
{
	struct ops *o = ctx;
	struct gpu_run *r = o->r;
	uint32_t fi = o->fi;
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	int64_t id, gpu, queue, start, end;
	if (!gpu_run_col_int(st, 0, &id) || !gpu_run_col_int(st, 3, &start) ||
	    !gpu_run_col_int(st, 4, &end) || start < 0 || end < start) {
		gpu_run_skip_row(r);
		return true;
	}
	if (!gpu_run_col_int(st, 1, &gpu))
		gpu = -1;
	if (!gpu_run_col_int(st, 2, &queue))
		queue = -1;
	uint32_t node = op_node(r, f, &f->sets[0], o, st, id);
	if (node == MODEL_NONE)
		return gpu_run_second_pass(r);
	uint32_t line = gpu_run_queue_line(
		r, fi, 0, (uint64_t)gpu, (uint64_t)queue, "GPU", (uint64_t)gpu,
		"QUEUE", (uint64_t)queue, "GPU %" PRId64 " queue %" PRId64,
		gpu, queue);
	if (line == MODEL_NONE)
		return true;
	gpu_run_line_at(r, line)->group = TIMELINE_GROUP_QUEUE;
	uint32_t api;
	uint64_t link = gpu_run_map_get(&o->op_link, (uint64_t)id, &api)
				? api
				: GPU_RUN_NO_LINK;
	if (o->by_stream) {
		/* the same op on its stream's line */
		uint32_t sl = stream_line(r, fi, o, id, gpu);
		if (sl != MODEL_NONE)
			gpu_run_line_add(r, sl, (uint64_t)start, (uint64_t)end,
					 node, (uint64_t)id, link);
	}
	gpu_run_add_gpu(r, node, (uint64_t)(end - start),
			gpu_run_line_at(r, line)->profile);
	uint32_t size;
	if (gpu_run_map_get(&o->sizes, (uint64_t)id, &size))
		gpu_run_add_bytes(r, node, size, (uint64_t)(end - start));
	gpu_run_time_seen(r, (uint64_t)start, (uint64_t)end);
	gpu_run_line_add(r, line, (uint64_t)start, (uint64_t)end, node,
			 (uint64_t)id, link);
	return true;
}

static enum status read_ops(struct gpu_run *r, uint32_t fi,
			    struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	struct gpu_run_set *s = &f->sets[0];
	struct ops o = {.r = r, .fi = fi, .s = s};
	enum status e = gpu_run_each_row(f,
					 "SELECT op_id, api_id FROM "
					 "rocpd_api_ops ORDER BY id DESC",
					 op_api_row, &o, err);
	if (e == STATUS_OK && s->has_copyapi)
		e = gpu_run_each_row(f,
				     "SELECT ao.op_id, c.size FROM "
				     "rocpd_copyapi c JOIN rocpd_api_ops ao "
				     "ON ao.api_id = c.api_ptr_id",
				     size_row, &o, err);
	/* the stream of each op, from its API call's arguments
	 * (rocpd_kernelapi.stream, rocpd_copyapi.stream: text, "0x0") */
	o.by_stream = s->opt & (RPD_KERNEL_STREAM | RPD_COPY_STREAM);
	for (int pass = 0; pass < 2 && e == STATUS_OK; pass++) {
		if (!(s->opt & (pass ? RPD_COPY_STREAM : RPD_KERNEL_STREAM)))
			continue;
		e = read_streams(f, pass ? "rocpd_copyapi" : "rocpd_kernelapi",
				 &o.streams, err);
	}
	o.kernel_type = e == STATUS_OK
				? gpu_run_intern(r, "KernelExecution")
				: MODEL_NONE;
	if (e == STATUS_OK)
		e = gpu_run_each_row(f,
				     "SELECT id, gpuId, queueId, start, "
				     "\"end\", description_id, opType_id FROM "
				     "rocpd_op",
				     add_op, &o, err);
	ops_free(&o);
	return e;
}

/* SMI samples: one counter line per (device type, device, monitor type),
 * read at open (they are few). */
/* What the rows of rocpd_monitor share: the line of the current
 * (device type, device, monitor type), labelled `cur`. */
struct monitor {
	struct gpu_run *r;
	uint32_t fi, line;
	char cur[200];
};

/* One SMI sample on its counter line; false when out of memory. */
static bool monitor_row(void *ctx, sqlite3_stmt *st)
{
	struct monitor *m = ctx;
	struct gpu_run *r = m->r;
	int64_t dev, t;
	char *end;
	const char *v = gpu_run_col_text(st, 4);
	if (!gpu_run_col_int(st, 3, &t) || t < 0)
		return true;
	double value = strtod(v, &end);
	if (end == v)
		return true;
	if (!gpu_run_col_int(st, 1, &dev))
		dev = -1;
	char label[200];
	snprintf(label, sizeof(label), "SMI %.20s %" PRId64 " %.40s",
		 gpu_run_col_text(st, 0), dev, gpu_run_col_text(st, 2));
	if (m->line == MODEL_NONE || strcmp(label, m->cur) != 0) {
		snprintf(m->cur, sizeof(m->cur), "%s", label);
		m->line = gpu_run_line(r, m->fi, 0, GPU_RUN_LINE_COUNTER,
				       (uint64_t)gpu_run_n_lines(r), 0, label,
				       MODEL_NONE);
		if (m->line == MODEL_NONE)
			return false;
		gpu_run_line_at(r, m->line)->unit = gpu_run_intern(r, "");
	}
	return gpu_run_counter_push(r, m->line, (uint64_t)t, value);
}

static enum status read_monitor(struct gpu_run *r, uint32_t fi,
				struct error *err)
{
	struct monitor m = {.r = r, .fi = fi, .line = MODEL_NONE};
	return gpu_run_each_row(
		gpu_run_file_at(r, fi),
		"SELECT deviceType, deviceId, monitorType, start, value FROM "
		"rocpd_monitor ORDER BY deviceType, deviceId, monitorType, "
		"start, id",
		monitor_row, &m, err);
}

static enum status rocpd_rpd_read(struct gpu_run *r, uint32_t fi, struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	enum status e = gpu_run_single_set(r, f, check, err);
	if (e != STATUS_OK)
		return e;
	e = read_apis(r, fi, err);
	if (e == STATUS_OK)
		e = read_ops(r, fi, err);
	if (e == STATUS_OK && !gpu_run_second_pass(r) && f->sets[0].has_monitor)
		e = read_monitor(r, fi, err);
	gpu_run_idmap_free(&f->sets[0].regions);
	return e;
}

/* ---- attributes --------------------------------------------------------- */

/* An API call's arguments (most calls have "" for arguments: no empty
 * `args=`). */
static void api_kvs(struct gpu_run_kvs *k, sqlite3_stmt *st)
{
	const char *a = gpu_run_col_text(st, 0);
	if (*a)
		gpu_run_kv_addf(k, "args", 0, false, "%s", a);
}

/* A kernel's launch (rocpd_kernelapi). */
static void kernel_kvs(struct gpu_run_kvs *k, sqlite3_stmt *st)
{
	static const char *const keys[] = {"LDS bytes", "scratch bytes",
					   "stream", "API call"};
	gpu_run_kv_addf(k, "grid", 0, false, "%.20sx%.20sx%.20s",
			gpu_run_col_text(st, 0), gpu_run_col_text(st, 1),
			gpu_run_col_text(st, 2));
	gpu_run_kv_addf(k, "workgroup", 0, false, "%.20sx%.20sx%.20s",
			gpu_run_col_text(st, 3), gpu_run_col_text(st, 4),
			gpu_run_col_text(st, 5));
	for (int c = 6; c < 10; c++)
		gpu_run_kv_addf(k, keys[c - 6], 0, false, "%s",
				gpu_run_col_text(st, c));
}

/* A copy's call (rocpd_copyapi): the columns that are not empty. */
static void copy_kvs(struct gpu_run_file *f, int64_t op,
		     struct gpu_run_kvs *k)
{
	static const char *const keys[] = {"bytes",  "kind",	 "src",
					   "dst",    "stream", "API call"};
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(f->db,
			       "SELECT c.size, c.kind, c.src, c.dst, "
			       "c.stream, ao.api_id FROM rocpd_api_ops ao JOIN "
			       "rocpd_copyapi c ON c.api_ptr_id = ao.api_id "
			       "WHERE ao.op_id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, op);
	if (sqlite3_step(st) == SQLITE_ROW)
		for (int c = 0; c < 6; c++)
			if (*gpu_run_col_text(st, c))
				gpu_run_kv_addf(k, keys[c], 0, false, "%s",
						gpu_run_col_text(st, c));
	sqlite3_finalize(st);
}

static enum status rocpd_rpd_detail(struct gpu_run *r,
				    const struct gpu_run_line *l,
				    uint64_t event, struct model_kv **out,
				    size_t *n, struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, l->file);
	struct gpu_run_set *s = &f->sets[0];
	struct gpu_run_kvs k = {.n = 0};
	sqlite3_stmt *st = NULL;
	if (event == MODEL_EVENT_NONE)
		return STATUS_OK;
	bool host = l->kind == GPU_RUN_LINE_HOST;
	const char *sql =
		host	? "SELECT s.string FROM rocpd_api a JOIN rocpd_string "
			  "s ON s.id = a.args_id WHERE a.id = ?1"
		: s->has_kernelapi
			? "SELECT k.gridX, k.gridY, k.gridZ, k.workgroupX, "
			  "k.workgroupY, k.workgroupZ, k.groupSegmentSize, "
			  "k.privateSegmentSize, k.stream, ao.api_id FROM "
			  "rocpd_api_ops ao JOIN rocpd_kernelapi k ON "
			  "k.api_ptr_id = ao.api_id WHERE ao.op_id = ?1"
			: NULL;
	if (sql && sqlite3_prepare_v2(f->db, sql, -1, &st, NULL) != SQLITE_OK)
		return gpu_run_step_error(f, sqlite3_errcode(f->db), err);
	if (st) {
		sqlite3_bind_int64(st, 1, (int64_t)event);
		if (sqlite3_step(st) == SQLITE_ROW)
			(host ? api_kvs : kernel_kvs)(&k, st);
		sqlite3_finalize(st);
	}
	if (!host && s->has_copyapi)
		copy_kvs(f, (int64_t)event, &k);
	return gpu_run_kv_finish(&k, STATUS_OK, out, n, err);
}

const struct gpu_run_layout rocpd_layout_rpd = {
	.read = rocpd_rpd_read,
	.detail = rocpd_rpd_detail,
};
