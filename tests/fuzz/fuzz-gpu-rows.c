/* fuzz-gpu-rows: libFuzzer target for the row mapping of the SQLite GPU
 * traces (src/formats/gpu_run/gpu_run.c and the nsight, .rpd and rocprofv3
 * layouts): what the readers make of any values in well-formed tables.
 * SQLite's own page format is SQLite's to defend; the readers' job is the
 * rows: NULLs, text or reals in integer columns, negative and huge ids,
 * ends before starts, ids that name nothing, correlation ids and links
 * shared by many rows or pointing at themselves.  The input is decoded as
 * a layout (byte 0) and rows: a table (one byte), then one value per
 * column (a type byte, then its bytes: NULL, a small or a 64-bit integer,
 * a short text, a real); a database is written with those rows into a
 * private temporary directory and opened through the registry; then every
 * statistic is read at every node, the flat view's values of every column
 * for its first rows (the combined statistics), and the first intervals
 * of every track with their links, attributes and the trace view's link
 * jump.  Whatever the input: no crash, no leak, no hang.  Links the engine
 * and SQLite only.  Seeds: tests/fuzz/gen_gpu_rows_seeds.py. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "model/model.h"
#include "open.h"
#include "views/trace_view.h"
#include "views/view.h"
#include "fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ROWS 512
#define MAX_COLS 12   /* columns a row fills */
#define MAX_TABLES 12 /* tables of a layout */
#define MAX_INTERVALS 64

struct table {
	const char *name;
	const char *cols[MAX_COLS + 1]; /* NULL-terminated */
};

/* Nsight Systems: the tables and columns nsight_read.c reads. */
static const struct table nsight[] = {
	{"StringIds", {"id", "value"}},
	{"CUPTI_ACTIVITY_KIND_RUNTIME",
	 {"start", "end", "eventClass", "globalTid", "correlationId", "nameId",
	  "returnValue"}},
	{"CUPTI_ACTIVITY_KIND_KERNEL",
	 {"start", "end", "deviceId", "contextId", "streamId", "correlationId",
	  "globalPid", "demangledName", "shortName", "registersPerThread",
	  "gridX", "blockX"}},
	{"CUPTI_ACTIVITY_KIND_MEMCPY",
	 {"start", "end", "deviceId", "contextId", "streamId", "correlationId",
	  "globalPid", "bytes", "copyKind", "srcKind", "dstKind"}},
	{"CUPTI_ACTIVITY_KIND_MEMSET",
	 {"start", "end", "deviceId", "contextId", "streamId", "correlationId",
	  "globalPid", "bytes", "value", "memKind"}},
	{"NVTX_EVENTS",
	 {"start", "end", "eventType", "rangeId", "category", "text",
	  "globalTid", "textId", "domainId"}},
	{"OSRT_API",
	 {"start", "end", "globalTid", "nameId", "returnValue",
	  "nestingLevel"}},
	{"PROCESSES", {"pid", "name", "globalPid"}},
	{"ThreadNames", {"nameId", "globalTid", "priority"}},
};

/* rocmProfileData .rpd: rocpd_rpd.c's tables. */
static const struct table rpd[] = {
	{"rocpd_string", {"id", "string"}},
	{"rocpd_api",
	 {"id", "pid", "tid", "start", "end", "apiName_id", "args_id"}},
	{"rocpd_op",
	 {"id", "gpuId", "queueId", "sequenceId", "completionSignal", "start",
	  "end", "description_id", "opType_id"}},
	{"rocpd_api_ops", {"id", "api_id", "op_id"}},
	{"rocpd_copyapi",
	 {"api_ptr_id", "stream", "size", "width", "height", "kind", "dst",
	  "src", "dstDevice", "srcDevice", "sync", "pinned"}},
	{"rocpd_kernelapi",
	 {"api_ptr_id", "stream", "gridX", "gridY", "gridZ", "workgroupX",
	  "workgroupY", "workgroupZ", "groupSegmentSize",
	  "privateSegmentSize", "kernelName_id"}},
	{"rocpd_monitor",
	 {"id", "deviceType", "deviceId", "monitorType", "start", "end",
	  "value"}},
};

/* rocprofv3: one table set (suffix _f), rocpd_v3.c's tables. */
static const struct table v3[] = {
	{"rocpd_string_f", {"id", "guid", "string"}},
	{"rocpd_region_f",
	 {"id", "guid", "nid", "pid", "tid", "start", "end", "name_id",
	  "event_id"}},
	{"rocpd_kernel_dispatch_f",
	 {"id", "pid", "tid", "agent_id", "kernel_id", "queue_id", "start",
	  "end", "event_id", "dispatch_id", "stream_id", "grid_size_x"}},
	{"rocpd_event_f",
	 {"id", "guid", "category_id", "stack_id", "parent_stack_id",
	  "correlation_id", "call_stack", "line_info", "extdata"}},
	{"rocpd_info_kernel_symbol_f",
	 {"id", "guid", "nid", "pid", "code_object_id", "kernel_name",
	  "display_name"}},
	{"rocpd_memory_copy_f",
	 {"id", "guid", "nid", "pid", "tid", "start", "end", "name_id",
	  "size", "event_id", "dst_agent_id", "src_agent_id"}},
	{"rocpd_info_process_f",
	 {"id", "guid", "nid", "ppid", "pid", "init", "fini", "start", "end",
	  "command", "environment", "extdata"}},
	{"rocpd_info_agent_f",
	 {"id", "guid", "nid", "pid", "type", "absolute_index",
	  "logical_index", "type_index", "uuid", "name", "model_name",
	  "product_name"}},
	{"rocpd_info_node_f", {"id", "guid", "hash", "machine_id",
			       "system_name", "hostname"}},
	{"rocpd_arg_f", {"id", "guid", "event_id", "position", "type", "name",
			 "value", "extdata"}},
};

/* Columns of the v3 attributes that rows leave NULL (MAX_COLS per row). */
static const char *const v3_extra =
	"ALTER TABLE rocpd_kernel_dispatch_f ADD COLUMN grid_size_y;"
	"ALTER TABLE rocpd_kernel_dispatch_f ADD COLUMN grid_size_z;"
	"ALTER TABLE rocpd_kernel_dispatch_f ADD COLUMN workgroup_size_x;"
	"ALTER TABLE rocpd_kernel_dispatch_f ADD COLUMN workgroup_size_y;"
	"ALTER TABLE rocpd_kernel_dispatch_f ADD COLUMN workgroup_size_z;"
	"ALTER TABLE rocpd_kernel_dispatch_f ADD COLUMN group_segment_size;"
	"ALTER TABLE rocpd_kernel_dispatch_f ADD COLUMN private_segment_size;"
	"ALTER TABLE rocpd_info_kernel_symbol_f ADD COLUMN sgpr_count;"
	"ALTER TABLE rocpd_info_kernel_symbol_f ADD COLUMN arch_vgpr_count;"
	"ALTER TABLE rocpd_info_kernel_symbol_f ADD COLUMN accum_vgpr_count;";

static const struct {
	const struct table *t;
	size_t n;
	const char *extra;
} layouts[] = {
	{nsight, sizeof(nsight) / sizeof(nsight[0]), NULL},
	{rpd, sizeof(rpd) / sizeof(rpd[0]), NULL},
	{v3, sizeof(v3) / sizeof(v3[0]), v3_extra},
};

static char path[FUZZ_TMP_MAX + 16];

struct input {
	const uint8_t *p;
	size_t n;
};

static bool take(struct input *in, void *out, size_t k)
{
	if (in->n < k)
		return false;
	memcpy(out, in->p, k);
	in->p += k;
	in->n -= k;
	return true;
}

/* One value bound to parameter `i` of `st`. */
static void bind_value(struct input *in, sqlite3_stmt *st, int i)
{
	uint8_t tag = 0, b = 0;
	if (!take(in, &tag, 1))
		return; /* NULL */
	switch (tag % 8) {
	case 0:
		sqlite3_bind_null(st, i);
		break;
	case 1:
	case 2:
	case 3:
		if (take(in, &b, 1))
			sqlite3_bind_int64(st, i, (int8_t)b);
		break;
	case 4: {
		int64_t v = 0;
		if (take(in, &v, sizeof(v)))
			sqlite3_bind_int64(st, i, v);
		break;
	}
	case 5: {
		uint8_t len = 0;
		char text[32];
		if (take(in, &len, 1) && take(in, text, len % 32))
			sqlite3_bind_text(st, i, text, len % 32,
					  SQLITE_TRANSIENT);
		break;
	}
	case 6: {
		double d = 0;
		if (take(in, &d, sizeof(d)))
			sqlite3_bind_double(st, i, d);
		break;
	}
	default: {
		uint16_t v = 0;
		if (take(in, &v, sizeof(v)))
			sqlite3_bind_int64(st, i, 1000 + v);
		break;
	}
	}
}

/* The database of the input at `path`; false when it cannot be made. */
static bool make_db(struct input *in)
{
	uint8_t which = 0;
	if (!take(in, &which, 1))
		return false;
	size_t l = which % (sizeof(layouts) / sizeof(layouts[0]));
	const struct table *t = layouts[l].t;
	size_t nt = layouts[l].n;
	sqlite3 *db = NULL;
	sqlite3_stmt *ins[MAX_TABLES] = {0};
	bool ok = false;
	unlink(path);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		goto out;
	sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
			 "BEGIN",
		     NULL, NULL, NULL);
	for (size_t i = 0; i < nt; i++) {
		char sql[1024], q[512];
		size_t o = 0, qo = 0;
		o += (size_t)snprintf(sql + o, sizeof(sql) - o,
				      "CREATE TABLE %s(", t[i].name);
		qo += (size_t)snprintf(q + qo, sizeof(q) - qo,
				       "INSERT INTO %s(", t[i].name);
		for (size_t c = 0; t[i].cols[c]; c++) {
			o += (size_t)snprintf(sql + o, sizeof(sql) - o, "%s%s",
					      c ? ", " : "", t[i].cols[c]);
			qo += (size_t)snprintf(q + qo, sizeof(q) - qo, "%s%s",
					       c ? ", " : "", t[i].cols[c]);
		}
		snprintf(sql + o, sizeof(sql) - o, ")");
		qo += (size_t)snprintf(q + qo, sizeof(q) - qo, ") VALUES (");
		for (size_t c = 0; t[i].cols[c]; c++)
			qo += (size_t)snprintf(q + qo, sizeof(q) - qo, "%s?",
					       c ? ", " : "");
		snprintf(q + qo, sizeof(q) - qo, ")");
		if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
			goto out;
		if (i < MAX_TABLES &&
		    sqlite3_prepare_v2(db, q, -1, &ins[i], NULL) != SQLITE_OK)
			goto out;
	}
	if (layouts[l].extra &&
	    sqlite3_exec(db, layouts[l].extra, NULL, NULL, NULL) != SQLITE_OK)
		goto out;
	for (int rows = 0; rows < MAX_ROWS && in->n > 0; rows++) {
		uint8_t k = 0;
		take(in, &k, 1);
		size_t ti = k % nt;
		if (ti >= MAX_TABLES || !ins[ti])
			continue;
		sqlite3_reset(ins[ti]);
		sqlite3_clear_bindings(ins[ti]);
		for (int c = 0; t[ti].cols[c]; c++)
			bind_value(in, ins[ti], c + 1);
		(void)sqlite3_step(ins[ti]);
	}
	ok = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
out:
	for (size_t i = 0; i < MAX_TABLES; i++)
		sqlite3_finalize(ins[i]);
	sqlite3_close(db);
	return ok;
}

static void read_values(const struct model *m)
{
	double *values = calloc(model_n_nodes(m) ? model_n_nodes(m) : 1, sizeof(*values));
	for (uint32_t s = 0; values && s < model_n_stats(m); s++) {
		struct error err = {0};
		(void)model_stat_dense(m, s, values, NULL, &err);
		error_clear(&err);
	}
	free(values);
	struct view *v = NULL;
	struct error err = {0};
	uint32_t *kids = NULL;
	size_t n = 0;
	if (view_new(m, VIEW_FLAT, &v, &err) == STATUS_OK &&
	    view_children(v, view_root(v), MODEL_NONE, false, &kids, &n,
			  &err) == STATUS_OK)
		for (size_t i = 0; i < n && i < 8; i++) {
			uint32_t *gk = NULL;
			size_t gn = 0;
			if (view_children(v, kids[i], MODEL_NONE, false, &gk,
					  &gn, &err) != STATUS_OK)
				break;
			for (size_t j = 0; j < gn && j < 64; j++)
				for (uint32_t c = 0; c < model_n_columns(m); c++) {
					double x;
					(void)view_value(v, gk[j], c, &x);
				}
			free(gk);
		}
	free(kids);
	view_free(v);
	error_clear(&err);
	while (model_take_value_error(m, &err))
		error_clear(&err);
}

static void read_trace(const struct model *m)
{
	for (uint32_t l = 0; l < model_n_timelines(m); l++) {
		for (uint64_t i = 0; i < model_timelines(m)[l].count &&
				     i < MAX_INTERVALS;
		     i++) {
			struct trace_interval iv;
			uint32_t tl;
			uint64_t ti;
			if (model_timelines(m)[l].kind == TIMELINE_COUNTER) {
				uint64_t t;
				double x;
				(void)model_counter(m, l, i, &t, &x);
				continue;
			}
			if (!model_interval(m, l, i, &iv))
				continue;
			(void)model_interval_linked(m, l, i, MODEL_LINK_CALL,
						    &tl, &ti);
			for (uint32_t k = 0; k < 3; k++)
				(void)model_interval_linked(m, l, i, k, &tl,
							    &ti);
			struct model_kv *kv = NULL;
			size_t n = 0;
			struct error err = {0};
			(void)model_event_detail(m, l, iv.event, &kv, &n, &err);
			free(kv);
			error_clear(&err);
		}
	}
	struct trace_view *tv = NULL;
	struct error err = {0};
	if (trace_view_new(m, &tv, &err) == STATUS_OK) {
		for (uint32_t l = 0; l < trace_view_line_count(tv) && l < 8;
		     l++) {
			uint32_t tl = trace_view_line(tv, l);
			struct trace_interval iv;
			if (model_interval(m, tl, 0, &iv)) {
				trace_view_set_cursor(tv, iv.begin, l);
				(void)trace_view_follow_link(tv, false);
				(void)trace_view_follow_link(tv, true);
				(void)trace_view_follow_link(tv, false);
			}
		}
		trace_view_free(tv);
	}
	error_clear(&err);
	while (model_trace_take_error(m, &err))
		error_clear(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!path[0])
		snprintf(path, sizeof(path), "%s/f.sqlite",
			 fuzz_tmp_dir("gpu-rows"));
	struct input in = {.p = data, .n = size};
	if (!make_db(&in))
		return 0;
	struct model *m = NULL;
	struct error err = {0};
	if (database_open(path, &m, &err) == STATUS_OK) {
		read_values(m);
		read_trace(m);
	}
	model_free(m);
	error_clear(&err);
	return 0;
}
