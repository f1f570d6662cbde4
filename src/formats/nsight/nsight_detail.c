/* nsight_detail: the attributes of one interval of an Nsight Systems
 * export (grid and block of a kernel, bytes and kinds of a copy, the
 * event class of a CUDA call, an NVTX range's type and domain), read
 * from its row when the trace pane asks; enumerations named from the
 * export's ENUM_ tables, or built in.  Private to the nsight reader; must
 * not depend on curses or on ui/. */
#include "config.h"

#include <stdio.h>

#include "formats/nsight/nsight_internal.h"

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
		nsight_query_text(f, sql, v, buf, size);
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
	nsight_query_text(f,
		   "SELECT coalesce(text, (SELECT value FROM StringIds WHERE "
		   "id = textId)) FROM NVTX_EVENTS WHERE eventType = 75 AND "
		   "domainId = ?1 LIMIT 1",
		   v, buf, size);
	return buf[0] ? buf : NULL;
}

/* The query of the row of an event from table `src` and the keys of its
 * columns; false for a source without attributes. */
static bool detail_query(unsigned src, const char **sql,
			 const char *const **keys, size_t *nk)
{
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
	switch (src) {
	case SRC_KERNEL:
		*sql = "SELECT gridX || 'x' || gridY || 'x' || gridZ, "
		       "blockX || 'x' || blockY || 'x' || blockZ, "
		       "registersPerThread, staticSharedMemory, "
		       "dynamicSharedMemory, (SELECT value FROM StringIds "
		       "WHERE id = demangledName), deviceId, contextId, "
		       "streamId, correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL "
		       "WHERE rowid = ?1";
		*keys = kernel_keys;
		*nk = 10;
		return true;
	case SRC_MEMCPY:
		*sql = "SELECT bytes, copyKind, srcKind, dstKind, deviceId, "
		       "contextId, streamId, correlationId, \"end\" - start "
		       "FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE rowid = ?1";
		*keys = memcpy_keys;
		*nk = 8;
		return true;
	case SRC_MEMSET:
		*sql = "SELECT bytes, value, memKind, deviceId, contextId, "
		       "streamId, correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET "
		       "WHERE rowid = ?1";
		*keys = memset_keys;
		*nk = 7;
		return true;
	case SRC_RUNTIME:
		*sql = "SELECT correlationId, returnValue, eventClass FROM "
		       "CUPTI_ACTIVITY_KIND_RUNTIME WHERE rowid = ?1";
		*keys = runtime_keys;
		*nk = 3;
		return true;
	case SRC_OSRT:
		*sql = "SELECT returnValue, nestingLevel FROM OSRT_API WHERE "
		       "rowid = ?1";
		*keys = osrt_keys;
		*nk = 2;
		return true;
	case SRC_NVTX:
		*sql = "SELECT eventType, category, domainId, rangeId FROM "
		       "NVTX_EVENTS WHERE rowid = ?1";
		*keys = nvtx_keys;
		*nk = 4;
		return true;
	default:
		return false;
	}
}

/* The name of value `x` of column `c` of a row from `src` when the column
 * is an enumeration (NULL otherwise, or when the value has none). */
static const char *enum_of(struct gpu_run_file *f, unsigned src, size_t c,
			   int64_t x, char *nb, size_t size)
{
	if (src == SRC_NVTX && c == 0)
		return nvtx_type_name(f, x, nb, size);
	if (src == SRC_NVTX && c == 2)
		return nvtx_domain_name(f, x, nb, size);
	if (src == SRC_RUNTIME && c == 2)
		return event_class_name(f, x, nb, size);
	if ((src == SRC_MEMCPY && (c == 2 || c == 3)) ||
	    (src == SRC_MEMSET && c == 2))
		return mem_kind_name(f, x, nb, size);
	return NULL;
}

/* Column `c` of the row (not NULL) as attribute `key`: an enumeration's
 * value named, its number kept; the copy kind by its name alone. */
static void column_kv(struct gpu_run_kvs *k, struct gpu_run_file *f,
		      sqlite3_stmt *st, unsigned src, size_t c,
		      const char *key)
{
	const char *v = gpu_run_col_text(st, (int)c);
	int64_t x;
	char nb[120];
	const char *named = NULL;
	bool copy_kind = src == SRC_MEMCPY && c == 1;
	if (copy_kind && gpu_run_col_int(st, 1, &x))
		v = nsight_copy_kind_name(x);
	else if (gpu_run_col_int(st, (int)c, &x))
		named = enum_of(f, src, c, x, nb, sizeof(nb));
	int64_t num;
	bool is_number = !copy_kind && gpu_run_col_int(st, (int)c, &num);
	double number = is_number ? (double)num : 0;
	if (named)
		gpu_run_kv_addf(k, key, number, is_number, "%.150s (%s)",
				named, v);
	else
		gpu_run_kv_addf(k, key, number, is_number, "%s", v);
}

enum status nsight_detail(struct gpu_run *r, const struct gpu_run_line *l,
			  uint64_t event, struct model_kv **out, size_t *n,
			  struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, l->file);
	if (event == MODEL_EVENT_NONE)
		return STATUS_OK;
	unsigned src = (unsigned)(event & 7);
	int64_t rowid = (int64_t)(event >> 3);
	const char *sql = NULL;
	const char *const *keys = NULL;
	size_t nk = 0;
	if (!detail_query(src, &sql, &keys, &nk))
		return STATUS_OK;
	struct gpu_run_kvs k = {.n = 0};
	sqlite3_stmt *st = NULL;
	/* a column an older export lacks: no details rather than an error */
	if (sqlite3_prepare_v2(f->db, sql, -1, &st, NULL) != SQLITE_OK)
		return STATUS_OK;
	sqlite3_bind_int64(st, 1, rowid);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		for (size_t c = 0; c < nk; c++)
			if (sqlite3_column_type(st, (int)c) != SQLITE_NULL)
				column_kv(&k, f, st, src, c, keys[c]);
		int64_t bytes, ns;
		if (src == SRC_MEMCPY && gpu_run_col_int(st, 0, &bytes) &&
		    gpu_run_col_int(st, 8, &ns) && ns > 0) {
			double gbs = (double)bytes / (double)ns;
			gpu_run_kv_addf(&k, "bandwidth", gbs, true,
					"%.3f GB/s", gbs);
		}
	}
	sqlite3_finalize(st);
	enum status e = rc != SQLITE_ROW && rc != SQLITE_DONE
				? gpu_run_step_error(f, rc, err)
				: STATUS_OK;
	return gpu_run_kv_finish(&k, e, out, n, err);
}
