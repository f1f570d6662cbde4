/* gpu_run_internal: what gpu_run's own files (gpu_run.c, the providers,
 * the columns) share and the layouts do not need. */
#ifndef CALLSCOPE_GPU_RUN_INTERNAL_H
#define CALLSCOPE_GPU_RUN_INTERNAL_H

#include "formats/gpu_run/gpu_run.h"

/* The fixed statistics of a run's model (their stat_id and prop_id);
 * hardware counters follow from GPU_RUN_COUNTER_STAT. */
enum gpu_run_stat {
	STAT_GPU,
	STAT_CALLS,
	STAT_BYTES,
	STAT_API_INCL,
	STAT_API_EXCL,
	STAT_DUR_N,
	STAT_DUR_SUM,
	STAT_DUR_MIN,
	STAT_DUR_MAX,
	STAT_DUR_SQ,
	STAT_SIZED_NS,
	N_GPU_RUN_STATS
};

/* The providers of a run's model (gpu_run_provider.c); the trace's close
 * frees the run. */
extern const struct value_ops gpu_run_value_ops;
extern const struct trace_ops gpu_run_trace_ops;

/* Free a run (its connections, maps, arrays, mapped intervals). */
void gpu_run_free(struct gpu_run *r);

/* Open file `f`'s connection read-only and find its layout. */
enum status gpu_run_open_file(const struct gpu_run_family *fam,
			      struct gpu_run_file *f, struct error *err);

/* The statistics and columns of the run's model (gpu_run_columns.c). */
enum status gpu_run_add_columns(struct gpu_run *r, struct error *err);

#endif
