/* nsight_host: the host side of an Nsight Systems export read into a
 * gpu_run: NVTX push/pop and start/end ranges (NVTX_EVENTS eventType 59,
 * 60), CUDA runtime and driver calls (CUPTI_ACTIVITY_KIND_RUNTIME
 * eventClass 0 and 1, notes/formats-dcpi-cube-nsys.md C.4.1) and OS
 * runtime calls (OSRT_API), nested per thread (globalTid) by time
 * containment; NVTX marks (eventType 34) walked with them: each an
 * instant on its thread's line, counted at the innermost range or call
 * holding its time (the marks column).  Private to the
 * nsight reader; must not depend on curses or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "formats/nsight/nsight_internal.h"

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
			if (!array_grow((void **)&sl, &cap, n_sl + 1,
					sizeof(*sl))) {
				ok = false;
				break;
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
	if (!array_grow((void **)&rs->v, &rs->cap, rs->n + 1, sizeof(*rs->v)))
		return false;
	rs->v[rs->n++] = *h;
	return true;
}

/* The line of thread `gtid` (a globalTid), whose node is `thread`. */
static uint32_t host_line(struct gpu_run *r, uint32_t fi, uint32_t thread,
			  int64_t gtid)
{
	return gpu_run_linef(r, fi, 0, GPU_RUN_LINE_HOST, (uint64_t)gtid, 0,
			     gpu_run_node_profile(r, thread),
			     "pid %" PRId64 " tid %" PRId64,
			     nsight_gid_pid(gtid), nsight_gid_tid(gtid));
}

/* What the rows of one host table (or of the NVTX marks) share. */
struct host_read {
	struct gpu_run *r;
	uint32_t fi;
	uint8_t src;
	struct rows *rs; /* the host tables' rows */
};

/* The name of a host row: the text of column `text_col` (NVTX's text),
 * else the StringIds string of column `id_col`, else "<unnamed>". */
static uint32_t host_row_name(struct gpu_run *r, uint32_t fi,
			      sqlite3_stmt *st, int id_col, int text_col)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	int64_t id;
	uint32_t name = MODEL_NONE;
	if (sqlite3_column_type(st, text_col) == SQLITE_TEXT)
		name = gpu_run_intern(r, gpu_run_col_text(st, text_col));
	else if (gpu_run_col_int(st, id_col, &id))
		name = nsight_string_of(r, f, &f->sets[0], id);
	return name == MODEL_NONE ? gpu_run_intern(r, "<unnamed>") : name;
}

/* One row of a host table (read_host_table's query) kept for nesting;
 * false when out of memory. */
static bool host_table_row(void *ctx, sqlite3_stmt *st)
{
	struct host_read *hr = ctx;
	struct host_row h = {.src = hr->src, .name = MODEL_NONE};
	if (!gpu_run_col_int(st, 0, &h.rowid) ||
	    !gpu_run_col_int(st, 1, &h.start) ||
	    !gpu_run_col_int(st, 2, &h.end) || h.start < 0 ||
	    h.end < h.start || h.rowid < 0) {
		gpu_run_skip_row(hr->r);
		return true;
	}
	if (!gpu_run_col_int(st, 3, &h.gtid))
		h.gtid = 0;
	if (!gpu_run_col_int(st, 6, &h.corr))
		h.corr = -1;
	h.name = host_row_name(hr->r, hr->fi, st, 4, 5);
	return rows_push(hr->rs, &h);
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
	default: /* NVTX ranges, or marks (a time and no end) */
		snprintf(nvtx_sql, sizeof(nvtx_sql),
			 "SELECT rowid, start, %s, globalTid, %s, %s, "
			 "NULL FROM NVTX_EVENTS WHERE %s",
			 src == SRC_MARK ? "start" : "\"end\"",
			 s->opt & OPT_NVTX_TEXTID ? "textId" : "NULL",
			 s->opt & OPT_NVTX_TEXT ? "text" : "NULL",
			 src == SRC_MARK ? "eventType = 34"
					 : "eventType IN (59, 60) AND "
					   "\"end\" IS NOT NULL");
		sql = nvtx_sql;
		break;
	}
	struct host_read hr = {.r = r, .fi = fi, .src = src, .rs = rs};
	return gpu_run_each_row(f, sql, host_table_row, &hr, err);
}

/* An NVTX mark whose context is `parent` (the innermost range or call of
 * its thread that holds its time, half-open, else the thread): counted
 * there and an instant on the thread's line. */
static enum status add_mark(struct gpu_run *r, struct gpu_run_file *f,
			    const struct host_row *h, uint32_t parent,
			    uint32_t line, struct error *err)
{
	gpu_run_add_mark(r, parent);
	if (line == MODEL_NONE ||
	    gpu_run_instant_add(r, line, (uint64_t)h->start, h->name,
				(uint64_t)h->rowid << 3 | SRC_NVTX) ||
	    gpu_run_second_pass(r))
		return STATUS_OK;
	return NOMEM(f);
}

enum status nsight_read_host(struct gpu_run *r, uint32_t fi, struct error *err)
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
	if (e == STATUS_OK && (s->opt & OPT_NVTX))
		e = read_host_table(r, fi, SRC_MARK, &rs, err);
	if (e != STATUS_OK || rs.n == 0) {
		free(rs.v);
		return e;
	}
	if (rs.n > 1 && !sort_host_rows(&rs))
		qsort(rs.v, rs.n, sizeof(*rs.v), host_cmp);
	struct gpu_run_nest nest = {0};
	uint32_t thread = MODEL_NONE, line = MODEL_NONE;
	for (size_t i = 0; i < rs.n && e == STATUS_OK; i++) {
		struct host_row *h = &rs.v[i];
		if (i == 0 || h->gtid != rs.v[i - 1].gtid) {
			nest.depth = 0;
			thread = nsight_thread_node(r, fi, s, h->gtid);
			line = thread == MODEL_NONE
				       ? MODEL_NONE
				       : host_line(r, fi, thread, h->gtid);
		}
		if (h->src == SRC_MARK) {
			if (thread != MODEL_NONE)
				e = add_mark(r, f, h,
					     gpu_run_nest_at(&nest, h->start,
							     thread),
					     line, err);
			continue;
		}
		uint32_t parent =
			gpu_run_nest_parent(&nest, h->start, h->end, thread);
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
			if (!gpu_run_second_pass(r))
				e = NOMEM(f);
			continue;
		}
		uint64_t link =
			h->src == SRC_RUNTIME && h->corr >= 0
				? nsight_corr_key(nsight_gid_pid(h->gtid), h->corr)
				: GPU_RUN_NO_LINK;
		if (!gpu_run_nest_push(&nest, h->start, h->end, node) ||
		    (link != GPU_RUN_NO_LINK &&
		     !gpu_run_idmap_put(&s->regions, link, node))) {
			e = NOMEM(f);
			break;
		}
		gpu_run_host_interval(r, node,
				      parent == thread ? MODEL_NONE : parent,
				      line, h->start, h->end,
				      (uint64_t)h->rowid << 3 | h->src, link);
	}
	gpu_run_nest_free(&nest);
	free(rs.v);
	return e;
}
