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

enum status nsight_detail(struct gpu_run *r,
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
				v = nsight_copy_kind_name(x);
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
