/* gpu_run_kv: the attributes of one event of a GPU run (a kernel's grid,
 * a copy's bytes, an API call's arguments) collected by a layout's
 * `detail` and packed for the trace pane (model_kv_pack).  One helper for
 * every layout's details (rocpd v3, .rpd, Nsight).  Part of the gpu_run
 * library (see gpu_run.h); must not depend on curses or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/gpu_run/gpu_run.h"

void gpu_run_kv_add(struct gpu_run_kvs *k, const char *key, const char *text,
		    double number, bool is_number)
{
	if (k->n >= GPU_RUN_KV_MAX)
		return;
	k->text[k->n] = strdup(text ? text : "");
	k->kv[k->n] = (struct model_kv){.key = key,
					.text = k->text[k->n] ? k->text[k->n]
							      : "",
					.number = number,
					.is_number = is_number};
	k->n++;
}

void gpu_run_kv_addf(struct gpu_run_kvs *k, const char *key, double number,
		     bool is_number, const char *fmt, ...)
{
	char buf[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	gpu_run_kv_add(k, key, buf, number, is_number);
}

void gpu_run_kv_int(struct gpu_run_kvs *k, const char *key, sqlite3_stmt *st,
		    int col)
{
	int64_t v;
	if (gpu_run_col_int(st, col, &v))
		gpu_run_kv_addf(k, key, (double)v, true, "%" PRId64, v);
}

void gpu_run_kv_dim(struct gpu_run_kvs *k, const char *key, sqlite3_stmt *st,
		    int col)
{
	int64_t x, y, z;
	if (gpu_run_col_int(st, col, &x) && gpu_run_col_int(st, col + 1, &y) &&
	    gpu_run_col_int(st, col + 2, &z))
		gpu_run_kv_addf(k, key, (double)x * (double)y * (double)z,
				true, "%" PRId64 "x%" PRId64 "x%" PRId64, x,
				y, z);
}

enum status gpu_run_kv_finish(struct gpu_run_kvs *k, enum status st,
			      struct model_kv **out, size_t *n,
			      struct error *err)
{
	if (st == STATUS_OK && k->n)
		st = model_kv_pack(k->kv, k->n, out, err);
	if (st == STATUS_OK)
		*n = k->n;
	for (size_t i = 0; i < k->n; i++)
		free(k->text[i]);
	k->n = 0;
	return st;
}
