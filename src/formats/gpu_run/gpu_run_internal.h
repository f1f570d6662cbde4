/* gpu_run_internal: what gpu_run's own files (gpu_run.c, the providers,
 * the columns) share and the layouts do not need. */
#ifndef CALLSCOPE_GPU_RUN_INTERNAL_H
#define CALLSCOPE_GPU_RUN_INTERNAL_H

#include "formats/gpu_run/gpu_run.h"

#include <pthread.h>

struct gpu_run {
	const struct gpu_run_family *family;
	struct model_builder *b; /* during open only */
	bool second_pass;        /* reading intervals: find, never add */
	uint8_t kernel_names;    /* enum gpu_run_kernel_names */
	char *path;              /* the model's path (first input) */

	struct gpu_run_file *files;
	size_t n_files;

	/* the node mirror (index = ctx id = model node index) */
	uint32_t *parent, *name;
	uint8_t *kind;
	uint32_t *profile; /* thread profile of the node, MODEL_NONE */
	uint32_t n_nodes, cap_nodes;
	struct gpu_run_map node_keys; /* hash(parent, kind, name) chains */
	struct gpu_run_map texts;     /* hash(text) -> string handle */
	struct gpu_run_map functions; /* kind << 32 | name -> function */
	uint32_t *node_next;        /* next node with the same hash */

	/* values per node (exclusive GPU time, calls, bytes; API times) */
	double *gpu, *calls, *bytes, *api_incl, *api_excl;
	/* the node's own intervals (kernels, copies, API calls, ranges):
	 * count, sum, min, max and sum of squares of their durations; the
	 * time of the copies whose size is known */
	double *dur_n, *dur_sum, *dur_min, *dur_max, *dur_sq, *sized_ns;
	uint8_t *present; /* bits: 1 gpu, 2 calls, 4 bytes, 8 api,
			     16 durations, 32 sized copy time */
	/* The host whose clock file i's times come from (a string handle;
	 * 0: unknown or several), set by the layout; and the shift added to
	 * them when clocks are aligned (gpu_run_align, 0 otherwise). */
	uint32_t *file_host;
	int64_t *file_shift;
	/* Hardware counters (rocpd: the per-dispatch PMC values): counter
	 * k is named counter_name[k] (a string handle); counter[k][node]
	 * sums its values over the node's dispatches, NaN where none had it.
	 * Model statistic GPU_RUN_COUNTER_STAT + k. */
	uint32_t n_counters;
	uint32_t *counter_name;
	double **counter;
	/* GPU time and calls per (node, queue profile) */
	struct gpu_run_map queue_split; /* node << 32 | profile -> slot */
	double *split_gpu, *split_calls;
	uint32_t n_split, cap_split;

	struct gpu_run_line *lines;
	uint32_t n_lines, cap_lines;
	struct gpu_run_map line_keys; /* hash -> line chain */
	uint32_t *line_next;
	/* the line each kind found last, + 1 (0: none): rows of a table
	 * mostly go to the line of the row before */
	uint32_t line_hit[8];
	/* the node gpu_run_child found or made last per kind, + 1 */
	uint32_t child_hit[8];

	uint64_t time_min, time_max;
	uint32_t n_strings; /* the model's strings (a check of instants) */
	uint64_t skipped_rows; /* rows with unusable times */
	uint64_t unlinked;     /* GPU work placed by time or by thread */
	uint32_t unattributed; /* node for GPU work with no process, or 0 */

	/* the run's index (gpu_run_index.c): DIR/KEY, NULL for none; the
	 * stamp that ties the interval files to the run file (0: none yet);
	 * while the run file is read, its string and profile counts */
	char *index_base;
	uint64_t index_stamp;
	uint32_t index_strings, index_profiles;

	/* the first pass's progress (reader_options.progress) */
	const struct reader_options *options;
	struct reader_progress progress;
	double scan_began, last_report; /* monotonic seconds */

	pthread_mutex_t lock; /* lazy reads and SQLite statements */
	struct error lazy_err;
	bool lazy_failed;
};

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
