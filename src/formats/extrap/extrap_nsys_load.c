/* extrap_nsys_load: the tables of one Nsight Systems SQLite export that
 * Extra-P's Nsight reader uses, read into memory (extrap_nsys.h): the
 * callpaths (Extra-P's own stored table EXTRAP_RESOLVED_CALLPATHS when the
 * file has it, else derived from CUDA_CALLCHAINS as Extra-P derives it),
 * the kernels, copies and memsets, the synchronizations, the allocation
 * calls, and the GPUs' thread limits (EXTRAP_GPU_INFO's rule); and the
 * kernels' callpaths that .ncu-rep results are paired with.  The file
 * is opened strictly read-only (io/sqlite_ro); the views a tool stored in
 * it are never evaluated, only tables are read, with queries of our own.
 * Must not depend on curses, on ui/ or on another format. */
#include "config.h"

#include "core/array.h"
#include "core/strbuf.h"
#include "formats/extrap/extrap_nsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/sqlite_ro.h"

struct load {
	sqlite3 *db;
	const char *path;
	struct error *err;
};

static enum status sql_fail(struct load *l)
{
	int rc = sqlite3_errcode(l->db) & 0xff;
	return error_set(l->err,
			 rc == SQLITE_NOMEM ? STATUS_NOMEM : STATUS_CORRUPT,
			 l->path, "SQLite: %s", sqlite3_errmsg(l->db));
}

static enum status nomem(struct load *l)
{
	return error_set(l->err, STATUS_NOMEM, l->path, "out of memory");
}

/* Run `sql` and hand each row to `row`: a row that returns false (out of
 * memory) stops the walk; a failed step is SQLite's error. */
static enum status each_row(struct load *l, const char *sql,
			    bool (*row)(void *ctx, sqlite3_stmt *st), void *ctx)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(l->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sql_fail(l);
	int rc;
	enum status s = STATUS_OK;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (!row(ctx, st)) {
			s = nomem(l);
			break;
		}
	if (s == STATUS_OK && rc != SQLITE_DONE)
		s = sql_fail(l);
	sqlite3_finalize(st);
	return s;
}

/* The rows of one query appended to an array of the nsys_db. */
struct rows {
	struct nsys_db *d;
	size_t cap;
	int type; /* load_acts: the activities' type */
	bool sync; /* load_calls: synchronizations, else allocation calls */
};

/* Whether table `name` exists: a table, never a view (a view is SQL a
 * tool stored in the file: callscope does not run it). */
static bool has_table(struct load *l, const char *name)
{
	return sqlite_ro_has_table(l->db, name, false);
}

static bool has_column(struct load *l, const char *table, const char *col)
{
	return sqlite_ro_has_column(l->db, table, col);
}

static struct nsys_int col_int(sqlite3_stmt *st, int c)
{
	struct nsys_int r = {0, false};
	int t = sqlite3_column_type(st, c);
	if (t == SQLITE_INTEGER || t == SQLITE_FLOAT) {
		r.v = sqlite3_column_int64(st, c);
		r.has = true;
	}
	return r;
}

/* A heap copy of a text column (NULL for NULL); *bad when out of
 * memory. */
static char *col_text(sqlite3_stmt *st, int c, bool *bad)
{
	if (sqlite3_column_type(st, c) == SQLITE_NULL)
		return NULL;
	const unsigned char *t = sqlite3_column_text(st, c);
	int n = sqlite3_column_bytes(st, c);
	char *s = t ? malloc((size_t)n + 1) : NULL;
	if (!s) {
		*bad = true;
		return NULL;
	}
	memcpy(s, t, (size_t)n);
	s[n] = '\0';
	return s;
}

/* The name with every "->" written "- >" (Extra-P's REPLACE). */
static void add_name(struct strbuf *b, const char *name)
{
	for (const char *p = name; *p; p++) {
		strbuf_addn(b, p, 1);
		if (p[0] == '-' && p[1] == '>')
			strbuf_add(b, " ");
	}
}

/* Per API row with a callchainId: the frames of CUDA_CALLCHAINS id =
 * callchainId + 1 with `unresolved` NULL, deepest first (highest
 * stackDepth), joined by "->", then "->" and the API's name; duration
 * end - start; one row per correlation id (the first). */
static enum status derive_callpaths(struct load *l, struct nsys_db *d)
{
	if (!has_table(l, "CUDA_CALLCHAINS") ||
	    !has_table(l, "CUPTI_ACTIVITY_KIND_RUNTIME") ||
	    !has_column(l, "CUPTI_ACTIVITY_KIND_RUNTIME", "callchainId"))
		return error_set(
		    l->err, STATUS_CORRUPT, l->path,
		    "not an Nsight Systems export with call "
		    "stacks: neither EXTRAP_RESOLVED_CALLPATHS nor "
		    "CUDA_CALLCHAINS with CUPTI_ACTIVITY_KIND_RUNTIME");
	sqlite3_stmt *api = NULL, *fr = NULL;
	enum status st = STATUS_OK;
	size_t cap = 0;
	if (sqlite3_prepare_v2(
		l->db,
		"SELECT r.correlationId, r.end - r.start, r.callchainId, "
		"s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r LEFT JOIN "
		"StringIds AS s ON s.id = r.nameId WHERE r.callchainId IS "
		"NOT NULL AND r.correlationId IS NOT NULL ORDER BY "
		"r.correlationId",
		-1, &api, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(l->db,
			       "SELECT s.value FROM CUDA_CALLCHAINS AS c LEFT "
			       "JOIN StringIds AS s ON s.id = c.symbol WHERE "
			       "c.id = ?1 AND c.unresolved IS NULL ORDER BY "
			       "c.stackDepth DESC",
			       -1, &fr, NULL) != SQLITE_OK) {
		st = sql_fail(l);
		goto out;
	}
	int rc;
	int64_t last = 0;
	bool have_last = false;
	while ((rc = sqlite3_step(api)) == SQLITE_ROW) {
		struct nsys_int cid = col_int(api, 0);
		if (have_last && cid.v == last)
			continue;
		sqlite3_reset(fr);
		sqlite3_bind_int64(fr, 1, sqlite3_column_int64(api, 2) + 1);
		struct strbuf path = {0};
		bool any = false, ok = true;
		while (sqlite3_step(fr) == SQLITE_ROW) {
			if (sqlite3_column_type(fr, 0) == SQLITE_NULL)
				continue;
			const char *nm =
			    (const char *)sqlite3_column_text(fr, 0);
			if (!nm) {
				ok = false;
				break;
			}
			if (any)
				strbuf_add(&path, "->"); /* as is */
			add_name(&path, nm);
			any = true;
		}
		/* no resolved frame: the API row has no callpath (INNER
		 * JOIN); a NULL API name makes the callpath NULL */
		const char *api_name =
		    (const char *)sqlite3_column_text(api, 3);
		bool keep = any && api_name;
		if (keep) {
			strbuf_add(&path, "->");
			add_name(&path, api_name);
		}
		char *buf = strbuf_take(&path);
		if (!ok || !buf) {
			free(buf);
			st = nomem(l);
			goto out;
		}
		if (!keep) {
			free(buf);
			continue;
		}
		if (!array_grow((void **)&d->cps, &cap, d->n_cps + 1,
				sizeof(*d->cps))) {
			free(buf);
			st = nomem(l);
			goto out;
		}
		d->cps[d->n_cps++] = (struct nsys_cp){
		    .cid = cid, .dur = col_int(api, 1), .callpath = buf};
		last = cid.v;
		have_last = true;
	}
	if (rc != SQLITE_DONE)
		st = sql_fail(l);
out:
	sqlite3_finalize(api);
	sqlite3_finalize(fr);
	return st;
}

static bool callpath_row(void *ctx, sqlite3_stmt *st)
{
	struct rows *r = ctx;
	struct nsys_db *d = r->d;
	bool bad = false;
	struct nsys_cp c = {.cid = col_int(st, 0),
			    .dur = col_int(st, 2),
			    .callpath = col_text(st, 1, &bad)};
	if (bad || !array_grow((void **)&d->cps, &r->cap, d->n_cps + 1,
			       sizeof(*d->cps))) {
		free(c.callpath);
		return false;
	}
	d->cps[d->n_cps++] = c;
	return true;
}

static enum status load_callpaths(struct load *l, struct nsys_db *d)
{
	/* Extra-P's own table (a view of that name it drops and derives
	 * again; a table without correlationId too) */
	if (!has_table(l, "EXTRAP_RESOLVED_CALLPATHS") ||
	    !has_column(l, "EXTRAP_RESOLVED_CALLPATHS", "correlationId"))
		return derive_callpaths(l, d);
	struct rows r = {.d = d};
	return each_row(l,
			"SELECT correlationId, callpath, duration FROM "
			"EXTRAP_RESOLVED_CALLPATHS",
			callpath_row, &r);
}

static const char *const copy_kinds[] = {
    "UNKNOWN",
    "HOST_TO_DEVICE",
    "DEVICE_TO_HOST",
    "HOST_TO_DEVICE_ARRAY",
    "DEVICE_ARRAY_TO_HOST",
    "DEVICE_ARRAY_TO_DEVICE_ARRAY",
    "DEVICE_ARRAY_TO_DEVICE",
    "DEVICE_TO_DEVICE_ARRAY",
    "DEVICE_TO_DEVICE",
    "HOST_TO_HOST",
    "PEER_TO_PEER",
    "UMA_HOST_TO_DEVICE",
    "UMA_DEVICE_TO_HOST",
};

static const char *const sync_types[] = {
    "UNKNOWN",
    "EVENT_SYNCHRONIZE",
    "STREAM_WAIT_EVENT",
    "STREAM_SYNCHRONIZE",
    "CONTEXT_SYNCHRONIZE",
};

/* A row of a kernel, copy or memset query as an activity of r->type. */
static bool act_row(void *ctx, sqlite3_stmt *st)
{
	struct rows *r = ctx;
	struct nsys_db *d = r->d;
	int type = r->type;
	bool bad = false;
	struct nsys_act a = {.cid = col_int(st, 0),
			     .start = sqlite3_column_int64(st, 1),
			     .end = sqlite3_column_int64(st, 2),
			     .type = type};
	struct nsys_int k = col_int(st, 3);
	if (type == 0) {
		a.threads = k.v;
		a.name = col_text(st, 4, &bad);
	} else if (type == 1) {
		a.kind = k.has && k.v >= 0 && k.v <= 12 ? copy_kinds[k.v]
							 : NULL;
		if (!a.kind && k.has) {
			/* 'UNKNOWN_COPY_KIND_' || copyKind */
			char buf[48];
			snprintf(buf, sizeof(buf), "UNKNOWN_COPY_KIND_%lld",
				 (long long)k.v);
			a.name = strdup(buf);
			bad = !a.name;
		} else if (a.kind) {
			a.name = strdup(a.kind);
			bad = !a.name;
		}
		a.pageable = sqlite3_column_int64(st, 4) != 0;
		a.bytes = col_int(st, 5);
	} else {
		char *v = col_text(st, 4, &bad);
		if (v && asprintf(&a.name, "MEMSET %s", v) < 0) {
			a.name = NULL;
			bad = true;
		}
		free(v);
		a.pageable = k.has && k.v == 0;
		a.bytes = col_int(st, 5);
	}
	if (bad || !array_grow((void **)&d->acts, &r->cap, d->n_acts + 1,
			       sizeof(*d->acts))) {
		free(a.name);
		return false;
	}
	d->acts[d->n_acts++] = a;
	return true;
}

/* One query's rows as activities of `type`. */
static enum status load_acts(struct load *l, struct rows *r, int type,
			     const char *sql)
{
	r->type = type;
	return each_row(l, sql, act_row, r);
}

static enum status load_activities(struct load *l, struct nsys_db *d)
{
	struct rows r = {.d = d};
	enum status st = STATUS_OK;
	if (has_table(l, "CUPTI_ACTIVITY_KIND_KERNEL"))
		st = load_acts(l, &r, 0,
			       "SELECT k.correlationId, k.start, k.end, "
			       "k.gridX * k.gridY * k.gridZ * k.blockX * "
			       "k.blockY * k.blockZ, s.value FROM "
			       "CUPTI_ACTIVITY_KIND_KERNEL AS k LEFT JOIN "
			       "StringIds AS s ON s.id = k.shortName");
	d->n_kernels = d->n_acts;
	if (st == STATUS_OK && has_table(l, "CUPTI_ACTIVITY_KIND_MEMCPY"))
		st = load_acts(l, &r, 1,
			       "SELECT correlationId, start, end, copyKind, "
			       "srcKind == 0 OR dstKind == 0, bytes FROM "
			       "CUPTI_ACTIVITY_KIND_MEMCPY");
	d->n_copies = d->n_acts - d->n_kernels;
	d->has_memset_table = has_table(l, "CUPTI_ACTIVITY_KIND_MEMSET");
	if (st == STATUS_OK && d->has_memset_table)
		st = load_acts(l, &r, 2,
			       "SELECT correlationId, start, end, memKind, "
			       "value, bytes FROM CUPTI_ACTIVITY_KIND_MEMSET");
	d->n_memsets = d->n_acts - d->n_kernels - d->n_copies;
	return st;
}

/* A row of synchronizations (r->sync) or of allocation calls. */
static bool call_row(void *ctx, sqlite3_stmt *st)
{
	struct rows *r = ctx;
	struct nsys_call **v = r->sync ? &r->d->syncs : &r->d->calls;
	size_t *n = r->sync ? &r->d->n_syncs : &r->d->n_calls;
	bool bad = false;
	struct nsys_call c = {.cid = col_int(st, 0),
			      .start = sqlite3_column_int64(st, 1),
			      .end = sqlite3_column_int64(st, 2)};
	if (r->sync) {
		struct nsys_int t = col_int(st, 3);
		c.type = t.has && t.v >= 0 && t.v <= 4 ? sync_types[t.v] : NULL;
	} else {
		c.name = col_text(st, 3, &bad);
	}
	if (bad || !array_grow((void **)v, &r->cap, *n + 1, sizeof(**v))) {
		free(c.name);
		return false;
	}
	(*v)[(*n)++] = c;
	return true;
}

static enum status load_calls(struct load *l, struct nsys_db *d, bool sync)
{
	const char *sql =
	    sync ? "SELECT correlationId, start, end, syncType FROM "
		   "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"
		 : "SELECT r.correlationId, r.start, r.end, s.value FROM "
		   "CUPTI_ACTIVITY_KIND_RUNTIME AS r LEFT JOIN StringIds "
		   "AS s ON s.id = r.nameId WHERE s.value GLOB "
		   "'cudaFree*' OR s.value GLOB 'cudaMalloc*' OR s.value "
		   "GLOB 'cudaHostAlloc*'";
	if (!has_table(l, sync ? "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"
			       : "CUPTI_ACTIVITY_KIND_RUNTIME") ||
	    (!sync && !has_table(l, "CUPTI_ACTIVITY_KIND_KERNEL")))
		return STATUS_OK;
	struct rows r = {.d = d, .sync = sync};
	return each_row(l, sql, call_row, &r);
}

static bool gpu_row(void *ctx, sqlite3_stmt *st)
{
	struct rows *r = ctx;
	struct nsys_db *d = r->d;
	if (!array_grow((void **)&d->max_threads, &r->cap, d->n_gpus + 1,
			sizeof(*d->max_threads)))
		return false;
	d->max_threads[d->n_gpus++] = sqlite3_column_int64(st, 0);
	return true;
}

/* EXTRAP_GPU_INFO's rule: TARGET_INFO_CUDA_GPU, else TARGET_INFO_GPU with
 * smCount, else one row of 1 thread. */
static enum status load_gpus(struct load *l, struct nsys_db *d)
{
	const char *sql = NULL;
	if (has_table(l, "TARGET_INFO_CUDA_GPU"))
		sql = "SELECT numMultiprocessors * numThreadsPerWarp * "
		      "maxWarpsPerMultiprocessor FROM TARGET_INFO_CUDA_GPU "
		      "WHERE computeCapabilityMajor > 0";
	else if (has_table(l, "TARGET_INFO_GPU") &&
		 has_column(l, "TARGET_INFO_GPU", "smCount"))
		sql = "SELECT smCount * threadsPerWarp * maxWarpsPerSm FROM "
		      "TARGET_INFO_GPU WHERE computeMajor > 0";
	if (!sql) {
		d->max_threads = malloc(sizeof(*d->max_threads));
		if (!d->max_threads)
			return nomem(l);
		d->max_threads[0] = 1;
		d->n_gpus = 1;
		return STATUS_OK;
	}
	struct rows r = {.d = d};
	return each_row(l, sql, gpu_row, &r);
}

enum status extrap_nsys_load(const char *path, bool immutable,
			     struct nsys_db *d, struct error *err)
{
	memset(d, 0, sizeof(*d));
	d->path = path;
	struct load l = {.path = path, .err = err};
	enum status st = sqlite_ro_open(path, immutable, &l.db, err);
	if (st != STATUS_OK)
		return st;
	if (!has_table(&l, "StringIds"))
		st = error_set(err, STATUS_CORRUPT, path,
			       "not an Nsight Systems export: no StringIds "
			       "table");
	if (st == STATUS_OK)
		st = load_callpaths(&l, d);
	if (st == STATUS_OK)
		st = load_activities(&l, d);
	if (st == STATUS_OK)
		st = load_calls(&l, d, true);
	if (st == STATUS_OK)
		st = load_calls(&l, d, false);
	if (st == STATUS_OK)
		st = load_gpus(&l, d);
	sqlite3_close(l.db);
	return st;
}

void extrap_nsys_free(struct nsys_db *d)
{
	for (size_t i = 0; i < d->n_cps; i++)
		free(d->cps[i].callpath);
	free(d->cps);
	for (size_t i = 0; i < d->n_acts; i++)
		free(d->acts[i].name);
	free(d->acts);
	free(d->syncs);
	for (size_t i = 0; i < d->n_calls; i++)
		free(d->calls[i].name);
	free(d->calls);
	free(d->max_threads);
	memset(d, 0, sizeof(*d));
}

struct cid_at {
	int64_t cid;
	size_t i;
};

static int cmp_cid_at(const void *a, const void *b)
{
	const struct cid_at *x = a, *y = b;
	if (x->cid != y->cid)
		return x->cid < y->cid ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

enum status extrap_nsys_kernel_paths(const struct nsys_db *db, char ***out,
				     size_t *n, struct error *err)
{
	*out = NULL;
	*n = 0;
	struct cid_at *by = malloc((db->n_cps + 1) * sizeof(*by));
	char **v = NULL;
	size_t nb = 0, cap = 0;
	bool bad = !by;
	for (size_t i = 0; !bad && i < db->n_cps; i++)
		if (db->cps[i].cid.has)
			by[nb++] = (struct cid_at){db->cps[i].cid.v, i};
	if (!bad)
		qsort(by, nb, sizeof(*by), cmp_cid_at);
	/* kernels with an id, LEFT JOIN the callpaths, in table order */
	for (size_t i = 0; !bad && i < db->n_kernels; i++) {
		const struct nsys_act *k = &db->acts[i];
		if (!k->cid.has)
			continue;
		size_t lo = 0, hi = nb;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (by[mid].cid < k->cid.v)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (hi = lo; hi < nb && by[hi].cid == k->cid.v; hi++)
			;
		for (size_t j = lo; !bad && j < (hi > lo ? hi : lo + 1); j++) {
			const char *cp =
			    j < hi ? db->cps[by[j].i].callpath : NULL;
			char *s = NULL;
			if (cp && k->name &&
			    asprintf(&s, "%s->%s->GPU %s", cp, k->name,
				     k->name) < 0) {
				s = NULL;
				bad = true;
			}
			if (!bad && !array_grow((void **)&v, &cap, *n + 1, sizeof(*v)))
				bad = true;
			if (bad) {
				free(s);
				break;
			}
			v[(*n)++] = s;
		}
	}
	free(by);
	if (bad) {
		array_free_each(v, *n);
		*n = 0;
		return error_set(err, STATUS_NOMEM, db->path, "out of memory");
	}
	*out = v;
	return STATUS_OK;
}
