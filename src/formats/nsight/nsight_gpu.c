/* nsight_gpu: the GPU side of an Nsight Systems export read into a
 * gpu_run: kernels (named as the run chose), copies and memsets under the
 * CUDA call of the same process and correlationId, on one line per
 * (process, device, stream) and again per context.  Private to the nsight
 * reader; must not depend on curses or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "formats/nsight/nsight_internal.h"

/* ---- GPU: kernels, copies, memsets --------------------------------------- */

/* The column (an expression of StringIds ids) naming a kernel, as the run
 * chose (reader_options.kernel_names): `nsys stats` names kernels by
 * demangledName by default, shortName with --base, mangledName with
 * --mangled; an export without the column falls back to the next one
 * (mangled -> demangled -> short; the C-linkage kernels' mangledName is
 * NULL). */
const char *nsight_kernel_name_column(const struct gpu_run *r,
				      const struct gpu_run_set *s)
{
	bool dem = s->opt & OPT_KERNEL_DEMANGLED,
	     man = s->opt & OPT_KERNEL_MANGLED;
	switch (gpu_run_kernel_choice(r)) {
	case GPU_RUN_KERNEL_BASE:
		return "shortName";
	case GPU_RUN_KERNEL_MANGLED:
		return man && dem ? "coalesce(mangledName, demangledName, "
				    "shortName)"
		       : man	  ? "coalesce(mangledName, shortName)"
		       : dem	  ? "coalesce(demangledName, shortName)"
				  : "shortName";
	case GPU_RUN_KERNEL_DEMANGLED:
		break;
	}
	return dem ? "coalesce(demangledName, shortName)" : "shortName";
}

/* The name and kind of GPU work row `st` from table `src` (the kernel's
 * name in column 7, a copy's kind; a memset is `memset_name`). */
static uint32_t row_name(struct gpu_run *r, struct gpu_run_file *f,
			 uint8_t src, sqlite3_stmt *st, uint32_t memset_name,
			 uint8_t *kind)
{
	int64_t v;
	*kind = GPU_RUN_KIND(NODE_FUNCTION, src == SRC_MEMCPY
						    ? GPU_RUN_GROUP_COPY
						    : GPU_RUN_GROUP_MEMSET);
	if (src == SRC_KERNEL) {
		*kind = GPU_RUN_KIND(NODE_KERNEL, GPU_RUN_GROUP_KERNEL);
		uint32_t name = gpu_run_col_int(st, 7, &v)
					? nsight_string_of(r, f, &f->sets[0], v)
					: MODEL_NONE;
		return name == MODEL_NONE ? gpu_run_intern(r, "<kernel>")
					  : name;
	}
	if (src == SRC_MEMCPY) {
		char buf[48];
		snprintf(buf, sizeof(buf), "[memcpy %s]",
			 nsight_copy_kind_name(gpu_run_col_int(st, 7, &v) ? v
									 : -1));
		return gpu_run_intern(r, buf);
	}
	return memset_name;
}

/* Where GPU work of process `pid` (known_pid) and correlation id `corr`
 * (has_corr) goes: under the CUDA call that launched it (*link its key),
 * else under its process, else under the run's unattributed node. */
static uint32_t row_parent(struct gpu_run *r, uint32_t fi,
			   struct gpu_run_set *s, bool known_pid, int64_t pid,
			   bool has_corr, int64_t corr, uint64_t *link)
{
	uint32_t parent;
	*link = GPU_RUN_NO_LINK;
	if (has_corr && known_pid &&
	    gpu_run_idmap_get(&s->regions, nsight_corr_key(pid, corr),
			      &parent)) {
		*link = nsight_corr_key(pid, corr);
		return parent;
	}
	gpu_run_add_unlinked(r, 1);
	uint32_t proc = known_pid ? nsight_process_node(r, fi, s, pid)
				  : MODEL_NONE;
	if (proc == MODEL_NONE)
		return gpu_run_unattributed(r, "<GPU work without a process>");
	return gpu_run_child(r, proc, NODE_ENTRY,
			     gpu_run_intern(r, "<GPU work without a "
					       "launching API call>"));
}

/* What the rows of one GPU table share. */
struct gpu_table {
	struct gpu_run *r;
	uint32_t fi;
	uint8_t src;
	uint32_t memset_name;
};

/* One row of a GPU table (nsight_read_gpu_table's query): its node, its
 * stream's and context's lines, its values; false when out of memory. */
static bool add_gpu_row(void *ctx, sqlite3_stmt *st)
{
	const struct gpu_table *t = ctx;
	struct gpu_run *r = t->r;
	uint32_t fi = t->fi;
	uint8_t src = t->src;
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	struct gpu_run_set *s = &f->sets[0];
	int64_t rowid, start, end, dev, stream, corr, gpid, bytes, context;
	if (!gpu_run_col_int(st, 0, &rowid) ||
	    !gpu_run_col_int(st, 1, &start) || !gpu_run_col_int(st, 2, &end) ||
	    start < 0 || end < start || rowid < 0) {
		gpu_run_skip_row(r);
		return true;
	}
	if (!gpu_run_col_int(st, 3, &dev))
		dev = -1;
	if (!gpu_run_col_int(st, 4, &stream))
		stream = -1;
	bool has_corr = gpu_run_col_int(st, 5, &corr);
	bool known_pid = gpu_run_col_int(st, 6, &gpid);
	int64_t pid = known_pid ? nsight_gid_pid(gpid) : 0;
	uint8_t kind;
	uint32_t name = row_name(r, f, src, st, t->memset_name, &kind);
	uint64_t link;
	uint32_t parent =
		row_parent(r, fi, s, known_pid, pid, has_corr, corr, &link);
	uint32_t node = parent == MODEL_NONE || parent == 0
				? MODEL_NONE
				: gpu_run_child(r, parent, kind, name);
	if (node == MODEL_NONE)
		return gpu_run_second_pass(r);
	uint64_t a = (uint64_t)pid << 32 ^ (uint32_t)dev;
	uint32_t line = gpu_run_queue_line(
		r, fi, 0, a, (uint64_t)stream, "GPU", (uint64_t)dev, "STREAM",
		(uint64_t)stream, "pid %" PRId64 " GPU %" PRId64 " stream %" PRId64,
		pid, dev, stream);
	if (line == MODEL_NONE)
		return true;
	gpu_run_line_at(r, line)->group = TIMELINE_GROUP_STREAM;
	/* the same work on its context's line (the other grouping) */
	if (gpu_run_col_int(st, 9, &context)) {
		uint32_t cl = gpu_run_linef(
			r, fi, 0, GPU_RUN_LINE_ALT, a, (uint64_t)context,
			MODEL_NONE,
			"pid %" PRId64 " GPU %" PRId64 " context %" PRId64, pid,
			dev, context);
		if (cl != MODEL_NONE) {
			gpu_run_line_at(r, cl)->group = TIMELINE_GROUP_QUEUE;
			gpu_run_line_add(r, cl, (uint64_t)start, (uint64_t)end,
					 node, (uint64_t)rowid << 3 | src, link);
		}
	}
	gpu_run_add_gpu(r, node, (uint64_t)(end - start),
			gpu_run_line_at(r, line)->profile);
	if (src != SRC_KERNEL && gpu_run_col_int(st, 8, &bytes) && bytes >= 0)
		gpu_run_add_bytes(r, node, (double)bytes,
				  (uint64_t)(end - start));
	gpu_run_time_seen(r, (uint64_t)start, (uint64_t)end);
	gpu_run_line_add(r, line, (uint64_t)start, (uint64_t)end, node,
			 (uint64_t)rowid << 3 | src, link);
	return true;
}

enum status nsight_read_gpu_table(struct gpu_run *r, uint32_t fi, uint8_t src,
				  struct error *err)
{
	struct gpu_run_file *f = gpu_run_file_at(r, fi);
	struct gpu_run_set *s = &f->sets[0];
	char sql[480];
	bool has_pid = s->opt & (src == SRC_KERNEL   ? OPT_KERNEL_PID
				 : src == SRC_MEMCPY ? OPT_MEMCPY_PID
						     : OPT_MEMSET_PID);
	bool has_ctx = s->opt & (src == SRC_KERNEL   ? OPT_KERNEL_CTX
				 : src == SRC_MEMCPY ? OPT_MEMCPY_CTX
						     : OPT_MEMSET_CTX);
	snprintf(sql, sizeof(sql),
		 "SELECT rowid, start, \"end\", deviceId, streamId, "
		 "correlationId, %s, %s, %s, %s FROM %s",
		 has_pid ? "globalPid" : "NULL",
		 src == SRC_KERNEL   ? nsight_kernel_name_column(r, s)
		 : src == SRC_MEMCPY ? "copyKind"
				     : "NULL",
		 src == SRC_KERNEL ? "NULL" : "bytes",
		 has_ctx ? "contextId" : "NULL", nsight_table_of[src]);
	struct gpu_table t = {.r = r, .fi = fi, .src = src};
	t.memset_name = gpu_run_intern(r, "[memset]");
	return gpu_run_each_row(f, sql, add_gpu_row, &t, err);
}
