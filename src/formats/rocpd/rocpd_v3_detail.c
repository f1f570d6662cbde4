/* rocpd_v3_detail: the attributes of an interval of a rocprofv3 table set,
 * read when asked (the interval under the cursor): a dispatch's grid,
 * workgroup, LDS and scratch, registers, kernel, stream and queue, and its
 * hardware counters summed per name; a copy's bytes, agents and bandwidth;
 * an API call's arguments.  Private to the rocpd reader. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/rocpd/rocpd_layouts.h"

/* Arguments of the API call whose region id is `id` (rocpd_arg). */
static void args_of_region(struct gpu_run_file *f, struct gpu_run_set *s,
			   int64_t id, struct gpu_run_kvs *k)
{
	char *arg = rocpd_v3_tname(s, "rocpd_arg"), *reg = rocpd_v3_tname(s, "rocpd_region");
	char *sql = NULL;
	sqlite3_stmt *st = NULL;
	static const char *const keys[] = {"arg0", "arg1", "arg2", "arg3",
					   "arg4", "arg5", "arg6", "arg7",
					   "arg8", "arg9", "arg10", "arg11"};
	if (arg && reg &&
	    asprintf(&sql,
		     "SELECT a.name, a.value FROM %s a JOIN %s r ON "
		     "a.event_id = r.event_id WHERE r.id = ?1 ORDER BY "
		     "a.position LIMIT 12",
		     arg, reg) >= 0 &&
	    sqlite3_prepare_v2(f->db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, id);
		for (size_t i = 0; i < 12 && sqlite3_step(st) == SQLITE_ROW;
		     i++) {
			char buf[256];
			snprintf(buf, sizeof(buf), "%.80s=%.160s",
				 gpu_run_col_text(st, 0), gpu_run_col_text(st, 1));
			gpu_run_kv_add(k, keys[i], buf, 0, false);
		}
	}
	sqlite3_finalize(st);
	free(sql);
	free(arg);
	free(reg);
}

/* The query of a dispatch (a line of queues) or of a copy. */
static char *detail_sql(struct gpu_run_set *s, uint8_t kind)
{
	char *sql = NULL, *a = NULL, *b = NULL;
	if (kind == GPU_RUN_LINE_QUEUE) {
		a = rocpd_v3_tname(s, "rocpd_kernel_dispatch");
		b = rocpd_v3_tname(s, "rocpd_info_kernel_symbol");
		if (a && b)
			if (asprintf(&sql,
				     "SELECT k.dispatch_id, k.grid_size_x, "
				     "k.grid_size_y, k.grid_size_z, "
				     "k.workgroup_size_x, k.workgroup_size_y, "
				     "k.workgroup_size_z, "
				     "k.group_segment_size, "
				     "k.private_segment_size, s.sgpr_count, "
				     "s.arch_vgpr_count, s.accum_vgpr_count, "
				     "s.kernel_name, k.stream_id, k.queue_id, "
				     "k.start, k.\"end\" "
				     "FROM %s k LEFT JOIN %s s ON s.id = "
				     "k.kernel_id WHERE k.id = ?1",
				     a, b) < 0)
				sql = NULL;
	} else if (kind == GPU_RUN_LINE_COPY) {
		a = rocpd_v3_tname(s, "rocpd_memory_copy");
		if (a && asprintf(&sql,
				  "SELECT size, src_agent_id, dst_agent_id, "
				  "start, \"end\" FROM %s WHERE id = ?1",
				  a) < 0)
			sql = NULL;
	}
	free(a);
	free(b);
	return sql;
}

/* A dispatch's row of detail_sql. */
static void dispatch_kvs(struct gpu_run_kvs *k, sqlite3_stmt *st)
{
	gpu_run_kv_int(k, "dispatch", st, 0);
	gpu_run_kv_dim(k, "grid", st, 1);
	gpu_run_kv_dim(k, "workgroup", st, 4);
	gpu_run_kv_int(k, "LDS bytes", st, 7);
	gpu_run_kv_int(k, "scratch bytes", st, 8);
	gpu_run_kv_int(k, "SGPRs", st, 9);
	gpu_run_kv_int(k, "arch VGPRs", st, 10);
	gpu_run_kv_int(k, "accum VGPRs", st, 11);
	gpu_run_kv_add(k, "kernel", gpu_run_col_text(st, 12), 0, false);
	gpu_run_kv_int(k, "stream", st, 13);
	gpu_run_kv_int(k, "queue", st, 14);
}

/* A copy's row of detail_sql, with its bandwidth. */
static void copy_kvs(struct gpu_run_kvs *k, sqlite3_stmt *st)
{
	int64_t size, t0, t1;
	gpu_run_kv_int(k, "bytes", st, 0);
	gpu_run_kv_int(k, "src agent", st, 1);
	gpu_run_kv_int(k, "dst agent", st, 2);
	if (gpu_run_col_int(st, 0, &size) && gpu_run_col_int(st, 3, &t0) &&
	    gpu_run_col_int(st, 4, &t1) && t1 > t0) {
		double gbs = (double)size / (double)(t1 - t0);
		gpu_run_kv_addf(k, "bandwidth", gbs, true, "%.3f GB/s", gbs);
	}
}

/* The hardware counters of dispatch `id`, summed per counter. */
static void counters_of(struct gpu_run_file *f, struct gpu_run_set *s,
			int64_t id, struct gpu_run_kvs *k)
{
	char *pe = rocpd_v3_tname(s, "rocpd_pmc_event"),
	     *pi = rocpd_v3_tname(s, "rocpd_info_pmc"),
	     *kd = rocpd_v3_tname(s, "rocpd_kernel_dispatch"), *q = NULL;
	sqlite3_stmt *c = NULL;
	if (pe && pi && kd &&
	    asprintf(&q,
		     "SELECT p.name, SUM(v.value) FROM %s v JOIN %s p "
		     "ON p.id = v.pmc_id JOIN %s k ON k.event_id = "
		     "v.event_id WHERE k.id = ?1 GROUP BY p.name "
		     "ORDER BY p.name LIMIT 16",
		     pe, pi, kd) >= 0 &&
	    sqlite3_prepare_v2(f->db, q, -1, &c, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(c, 1, id);
		while (sqlite3_step(c) == SQLITE_ROW && k->n < GPU_RUN_KV_MAX) {
			char buf[200], key[64];
			double v = sqlite3_column_double(c, 1);
			snprintf(buf, sizeof(buf), "%.17g", v);
			snprintf(key, sizeof(key), "%.60s",
				 gpu_run_col_text(c, 0));
			/* keys must live until packed: use text */
			char both[280];
			snprintf(both, sizeof(both), "%s=%s", key, buf);
			gpu_run_kv_add(k, "counter", both, v, true);
		}
	}
	sqlite3_finalize(c);
	free(q);
	free(pe);
	free(pi);
	free(kd);
}

enum status rocpd_v3_detail(struct gpu_run *r, const struct gpu_run_line *l,
			    uint64_t event, struct model_kv **out, size_t *n,
			    struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, l->file);
	struct gpu_run_set *s = &f->sets[l->set];
	struct gpu_run_kvs k = {.n = 0};
	if (event == MODEL_EVENT_NONE)
		return STATUS_OK;
	/* a stream line: a kernel or, with the bit, a copy */
	uint8_t kind = l->kind;
	if (kind == GPU_RUN_LINE_ALT) {
		kind = event & ROCPD_V3_COPY_EVENT ? GPU_RUN_LINE_COPY
						   : GPU_RUN_LINE_QUEUE;
		event &= ~ROCPD_V3_COPY_EVENT;
	}
	if (kind == GPU_RUN_LINE_HOST) {
		if (s->has_arg)
			args_of_region(f, s, (int64_t)event, &k);
		return gpu_run_kv_finish(&k, STATUS_OK, out, n, err);
	}
	char *sql = detail_sql(s, kind);
	enum status rc = STATUS_OK;
	if (sql) {
		sqlite3_stmt *st = NULL;
		int prc = sqlite3_prepare_v2(f->db, sql, -1, &st, NULL);
		if (prc != SQLITE_OK) {
			rc = gpu_run_step_error(f, prc, err);
		} else {
			sqlite3_bind_int64(st, 1, (int64_t)event);
			if (sqlite3_step(st) == SQLITE_ROW)
				(kind == GPU_RUN_LINE_QUEUE ? dispatch_kvs
							    : copy_kvs)(&k, st);
		}
		sqlite3_finalize(st);
		free(sql);
	}
	if (rc == STATUS_OK && kind == GPU_RUN_LINE_QUEUE && s->has_pmc)
		counters_of(f, s, (int64_t)event, &k);
	return gpu_run_kv_finish(&k, rc, out, n, err);
}
