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

struct kvs {
	struct model_kv kv[40];
	char *text[40];
	size_t n;
};

static void kv_add(struct kvs *k, const char *key, const char *text,
		   double number, bool is_number)
{
	if (k->n >= 40)
		return;
	k->text[k->n] = strdup(text ? text : "");
	k->kv[k->n] = (struct model_kv){.key = key,
					.text = k->text[k->n] ? k->text[k->n]
							      : "",
					.number = number,
					.is_number = is_number};
	k->n++;
}

static void kv_int(struct kvs *k, const char *key, sqlite3_stmt *st, int col)
{
	int64_t v;
	char buf[32];
	if (!gpu_run_col_int(st, col, &v))
		return;
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	kv_add(k, key, buf, (double)v, true);
}

static void kv_dim(struct kvs *k, const char *key, sqlite3_stmt *st, int col)
{
	int64_t x, y, z;
	char buf[80];
	if (!gpu_run_col_int(st, col, &x) || !gpu_run_col_int(st, col + 1, &y) ||
	    !gpu_run_col_int(st, col + 2, &z))
		return;
	snprintf(buf, sizeof(buf), "%" PRId64 "x%" PRId64 "x%" PRId64, x, y,
		 z);
	kv_add(k, key, buf, (double)x * (double)y * (double)z, true);
}

static enum status kv_finish(struct kvs *k, struct model_kv **out, size_t *n,
			     struct error *err)
{
	enum status st = k->n ? model_kv_pack(k->kv, k->n, out, err)
			      : STATUS_OK;
	if (st == STATUS_OK)
		*n = k->n;
	for (size_t i = 0; i < k->n; i++)
		free(k->text[i]);
	return st;
}

/* Arguments of the API call whose region id is `id` (rocpd_arg). */
static void args_of_region(struct gpu_run_file *f, struct gpu_run_set *s,
			   int64_t id, struct kvs *k)
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
			kv_add(k, keys[i], buf, 0, false);
		}
	}
	sqlite3_finalize(st);
	free(sql);
	free(arg);
	free(reg);
}

enum status rocpd_v3_detail(struct gpu_run *r, const struct gpu_run_line *l,
			    uint64_t event, struct model_kv **out, size_t *n,
			    struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, l->file);
	struct gpu_run_set *s = &f->sets[l->set];
	struct kvs k = {.n = 0};
	char *sql = NULL, *a = NULL, *b = NULL;
	sqlite3_stmt *st = NULL;
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
		return kv_finish(&k, out, n, err);
	}
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
	enum status rc = STATUS_OK;
	if (sql) {
		int prc = sqlite3_prepare_v2(f->db, sql, -1, &st, NULL);
		if (prc != SQLITE_OK) {
			rc = gpu_run_step_error(f, prc, err);
		} else {
			sqlite3_bind_int64(st, 1, (int64_t)event);
			if (sqlite3_step(st) == SQLITE_ROW) {
				if (kind == GPU_RUN_LINE_QUEUE) {
					kv_int(&k, "dispatch", st, 0);
					kv_dim(&k, "grid", st, 1);
					kv_dim(&k, "workgroup", st, 4);
					kv_int(&k, "LDS bytes", st, 7);
					kv_int(&k, "scratch bytes", st, 8);
					kv_int(&k, "SGPRs", st, 9);
					kv_int(&k, "arch VGPRs", st, 10);
					kv_int(&k, "accum VGPRs", st, 11);
					kv_add(&k, "kernel",
					       gpu_run_col_text(st, 12), 0,
					       false);
					kv_int(&k, "stream", st, 13);
					kv_int(&k, "queue", st, 14);
				} else {
					int64_t size, t0, t1;
					kv_int(&k, "bytes", st, 0);
					kv_int(&k, "src agent", st, 1);
					kv_int(&k, "dst agent", st, 2);
					if (gpu_run_col_int(st, 0, &size) &&
					    gpu_run_col_int(st, 3, &t0) &&
					    gpu_run_col_int(st, 4, &t1) &&
					    t1 > t0) {
						char buf[48];
						double gbs = (double)size /
							     (double)(t1 - t0);
						snprintf(buf, sizeof(buf),
							 "%.3f GB/s", gbs);
						kv_add(&k, "bandwidth", buf,
						       gbs, true);
					}
				}
			}
		}
	}
	/* hardware counters of a dispatch, summed per counter */
	if (rc == STATUS_OK && kind == GPU_RUN_LINE_QUEUE && s->has_pmc) {
		char *pe = rocpd_v3_tname(s, "rocpd_pmc_event"),
		     *pi = rocpd_v3_tname(s, "rocpd_info_pmc"), *q = NULL;
		sqlite3_stmt *c = NULL;
		if (pe && pi && a &&
		    asprintf(&q,
			     "SELECT p.name, SUM(v.value) FROM %s v JOIN %s p "
			     "ON p.id = v.pmc_id JOIN %s k ON k.event_id = "
			     "v.event_id WHERE k.id = ?1 GROUP BY p.name "
			     "ORDER BY p.name LIMIT 16",
			     pe, pi, a) >= 0 &&
		    sqlite3_prepare_v2(f->db, q, -1, &c, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(c, 1, (int64_t)event);
			while (sqlite3_step(c) == SQLITE_ROW && k.n < 40) {
				char buf[200], key[64];
				double v = sqlite3_column_double(c, 1);
				snprintf(buf, sizeof(buf), "%.17g", v);
				snprintf(key, sizeof(key), "%.60s",
					 gpu_run_col_text(c, 0));
				/* keys must live until packed: use text */
				char both[280];
				snprintf(both, sizeof(both), "%s=%s", key,
					 buf);
				kv_add(&k, "counter", both, v, true);
			}
		}
		sqlite3_finalize(c);
		free(q);
		free(pe);
		free(pi);
	}
	sqlite3_finalize(st);
	free(sql);
	free(a);
	free(b);
	if (rc != STATUS_OK) {
		for (size_t i = 0; i < k.n; i++)
			free(k.text[i]);
		return rc;
	}
	return kv_finish(&k, out, n, err);
}

