/* rocpd_v3_internal: what the files of the rocprofv3 table-set reader
 * share (rocpd_v3.c, rocpd_v3_meta.c, rocpd_v3_gpu.c): the context of
 * one table set while it is read, the process, thread and line of a
 * (pid, tid), GPU work waiting for its place.  Private to the rocpd
 * reader. */
#ifndef CALLSCOPE_ROCPD_V3_INTERNAL_H
#define CALLSCOPE_ROCPD_V3_INTERNAL_H

#include "formats/rocpd/rocpd_layouts.h"

/* GPU work whose launching region is not known, or a mark (instant)
 * whose region is not: placed after the scan, by time on its thread. */
struct pending {
	int64_t pid, tid, start, end, rowid, agent, queue, stream;
	bool has_stream;
	uint32_t name;
	uint8_t kind;
	bool copy;
	bool mark; /* a mark: counted at its place (start = end = its time) */
	double bytes;
	uint64_t link; /* the launching region's id (trace link), or none */
};

struct pending_list {
	struct pending *p;
	size_t n, cap;
};

struct v3_ctx {
	struct gpu_run *r;
	struct gpu_run_file *f;
	uint32_t fi, si;
	struct gpu_run_set *s;
	struct gpu_run_map agents; /* agent id -> GPU index + 1 */
	struct gpu_run_map hosts;  /* pid -> string handle of the host label */
	/* first pass, a set with counters: each dispatch's counter sums,
	 * ordered by dispatch id; dispatch id -> its first entry */
	struct pmc_entry {
		int64_t dispatch;
		uint32_t counter;
		double value;
	} *pmc;
	size_t n_pmc;
	struct gpu_run_map pmc_first;
	/* first pass: GPU work and marks waiting for their place by time */
	struct pending_list *pend;
};

/* The process node of `pid` (made on first sight, labelled with what
 * rocpd_info_process / rocpd_info_node say), its label, the thread node
 * and host line of (pid, tid). */
uint32_t rocpd_v3_process_node(struct v3_ctx *c, int64_t pid);
const char *rocpd_v3_proc_label(struct v3_ctx *c, int64_t pid);
uint32_t rocpd_v3_thread_node(struct v3_ctx *c, int64_t pid, int64_t tid);
uint32_t rocpd_v3_host_line(struct v3_ctx *c, int64_t pid, int64_t tid);
/* A string of the set's string table, through the cache. */
uint32_t rocpd_v3_set_string(struct v3_ctx *c, int64_t id);
/* Whether the set's table `base` exists with every column of `cols`. */
bool rocpd_v3_has_columns(struct v3_ctx *c, const char *base,
			  const char *const *cols);

/* The set's processes (host, rank) and kernel names (first pass), its
 * agents' GPU indexes (rocpd_v3_meta.c). */
enum status rocpd_v3_read_meta(struct v3_ctx *c, struct error *err);
void rocpd_v3_read_agents(struct v3_ctx *c);
/* Agent `agent` as labels name it, in buf: "GPU N" (its index among the
 * GPUs, from `agents`) or "agent ID"; its GPU index + 1, 0 for none. */
uint32_t rocpd_v3_agent_name(const struct gpu_run_map *agents, int64_t agent,
			     char *buf, size_t n);

/* GPU work (rocpd_v3_gpu.c): the dispatches' counters (first pass),
 * kernel dispatches (copy false) or copies placed under their launching
 * region or left pending, then the pending work placed by time. */
enum status rocpd_v3_read_pmc(struct v3_ctx *c, struct error *err);
enum status rocpd_v3_read_gpu(struct v3_ctx *c, bool copy,
			      struct pending_list *pend, struct error *err);
/* A mark of (pid, tid) at `t` linked to region `up` (0: none): counted
 * at that region, else left pending (first pass only); false when out of
 * memory. */
bool rocpd_v3_mark(struct v3_ctx *c, int64_t pid, int64_t tid, int64_t t,
		   int64_t up);
enum status rocpd_v3_resolve_pending(struct v3_ctx *c,
				     struct pending_list *pl,
				     struct error *err);

#endif
