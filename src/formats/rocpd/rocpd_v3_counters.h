/* rocpd_v3_counters: the counter lines of a rocprofv3 table set (bytes of
 * copies in flight per agent, memory allocated per agent and level), made
 * in the first pass.  See rocpd_v3_counters.c. */
#ifndef CALLSCOPE_ROCPD_V3_COUNTERS_H
#define CALLSCOPE_ROCPD_V3_COUNTERS_H

#include "formats/gpu_run/gpu_run.h"

struct rocpd_v3_counter_ctx {
	struct gpu_run_file *f;
	struct gpu_run_set *s;
	uint32_t fi, si;
	const struct gpu_run_map *agents; /* agent id -> GPU index + 1 */
	const char *copy_table;  /* quoted rocpd_memory_copy, or NULL */
	const char *alloc_table; /* quoted rocpd_memory_allocate, or NULL */
};

/* Add the set's counter lines to `r` (nothing in the second pass). */
enum status rocpd_v3_counter_lines(struct gpu_run *r,
				   struct rocpd_v3_counter_ctx *c,
				   struct error *err);

#endif
