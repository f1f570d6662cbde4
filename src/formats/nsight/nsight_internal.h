/* nsight_internal: what the files of the Nsight Systems export reader
 * share (nsight_read.c, nsight_host.c, nsight_gpu.c, nsight_detail.c): the
 * tables and columns an export has, where an interval's row is, the
 * process and thread nodes.  Private to the nsight reader. */
#ifndef CALLSCOPE_NSIGHT_INTERNAL_H
#define CALLSCOPE_NSIGHT_INTERNAL_H

#include "formats/gpu_run/gpu_run.h"

/* present tables and columns (gpu_run_set.opt) */
enum {
	OPT_KERNEL = 1u << 0,
	OPT_MEMCPY = 1u << 1,
	OPT_MEMSET = 1u << 2,
	OPT_RUNTIME = 1u << 3,
	OPT_NVTX = 1u << 4,
	OPT_OSRT = 1u << 5,
	OPT_NVTX_TEXT = 1u << 6,
	OPT_NVTX_TEXTID = 1u << 7,
	OPT_PROCESSES = 1u << 8,
	OPT_THREADNAMES = 1u << 9,
	OPT_KERNEL_PID = 1u << 10,
	OPT_MEMCPY_PID = 1u << 11,
	OPT_MEMSET_PID = 1u << 12,
	OPT_KERNEL_CTX = 1u << 13, /* contextId: the lines by context */
	OPT_MEMCPY_CTX = 1u << 14,
	OPT_MEMSET_CTX = 1u << 15,
	OPT_KERNEL_DEMANGLED = 1u << 16, /* demangledName */
	OPT_KERNEL_MANGLED = 1u << 17,   /* mangledName */
};

/* Where an interval's row is: event = rowid << 3 | source. */
enum source {
	SRC_KERNEL,
	SRC_MEMCPY,
	SRC_MEMSET,
	SRC_NVTX,
	SRC_RUNTIME,
	SRC_OSRT,
	SRC_MARK, /* a host row only: marks' events are SRC_NVTX's */
};

/* The table of each source. */
extern const char *const nsight_table_of[];

#define NOMEM(f) error_set(err, STATUS_NOMEM, (f)->path, "out of memory")

/* globalTid / globalPid: the pid in bits 24..47, the tid in bits 0..23
 * (NVIDIA's serialized GlobalId, as pipit and Extra-P decode it). */
static inline int64_t nsight_gid_pid(int64_t g)
{
	return (int64_t)(((uint64_t)g >> 24) & 0xFFFFFF);
}

static inline int64_t nsight_gid_tid(int64_t g)
{
	return (int64_t)((uint64_t)g & 0xFFFFFF);
}

/* The kernel table's column (an expression of StringIds ids) naming a
 * kernel, as the run chose (reader_options.kernel_names). */
const char *nsight_kernel_name_column(const struct gpu_run *r,
				      const struct gpu_run_set *s);
/* CUDA_MEMCPY_KIND's name of copy kind `k` ("other" when unknown). */
const char *nsight_copy_kind_name(int64_t k);
/* StringIds `id` as a string handle of the run. */
uint32_t nsight_string_of(struct gpu_run *r, struct gpu_run_file *f,
			  struct gpu_run_set *s, int64_t id);
/* A one-row text query with one integer parameter ("" when none). */
void nsight_query_text(struct gpu_run_file *f, const char *sql, int64_t arg,
		       char *buf, size_t size);
/* The node of process `pid`, of thread `gtid` (a globalTid) of file `fi`,
 * made in the first pass; MODEL_NONE when out of memory or not found. */
uint32_t nsight_process_node(struct gpu_run *r, uint32_t fi,
			     struct gpu_run_set *s, int64_t pid);
uint32_t nsight_thread_node(struct gpu_run *r, uint32_t fi,
			    struct gpu_run_set *s, int64_t gtid);
/* The key of a CUDA call by process and correlationId (the link of the
 * GPU work it launched). */
uint64_t nsight_corr_key(int64_t pid, int64_t corr);

/* The host side (nsight_host.c): NVTX ranges, CUDA API calls and OS
 * runtime calls nested per thread; NVTX marks. */
enum status nsight_read_host(struct gpu_run *r, uint32_t fi,
			     struct error *err);
/* The GPU side (nsight_gpu.c): kernels, copies or memsets (`src`). */
enum status nsight_read_gpu_table(struct gpu_run *r, uint32_t fi,
				  uint8_t src, struct error *err);
/* The attributes of an interval (nsight_detail.c). */
enum status nsight_detail(struct gpu_run *r, const struct gpu_run_line *l,
			  uint64_t event, struct model_kv **out, size_t *n,
			  struct error *err);

#endif
