/* gpu_run_internal: what gpu_run's own files (gpu_run.c, the providers,
 * the columns, the scan, the index) share and the layouts do not see:
 * struct gpu_run itself (the node mirror and its values, the lines, the
 * index state, the progress, the lazy-read lock), the statistics, the
 * providers, the first pass and the index.  Private to the folder
 * (tests/check-layers.sh). */
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
	/* the instants (marks) whose context is the node: on a thread, the
	 * innermost host interval holding the mark's time (gpu_run_add_mark) */
	double *marks;
	/* a sketch's counts (gpu_run_add_calls): calls known to lie under
	 * the node, not where (so never its exclusive Calls) */
	double *calls_in;
	uint8_t *present; /* bits: 1 gpu, 2 calls, 4 bytes, 8 api,
			     16 durations, 32 sized copy time, 64 marks,
			     128 a sketch's count (calls_in) */
	/* A partial model's run (a node has bit 128): its inclusive Calls
	 * are stored (calls_incl, NaN where unknown; made at finish) rather
	 * than derived, since a sketched count has no exclusive place. */
	bool partial;
	double *calls_incl;
	uint32_t exact_files; /* of a partial run: files 0..exact_files-1 */
	/* The background scan of a partial model: called after files
	 * 0..done-1 are merged (exact), in the merging thread. */
	void (*filled)(void *ctx, struct gpu_run *r, size_t done);
	void *filled_ctx;
	/* kept to a tenth of the merging thread's time: none before
	 * fill_next (monotonic seconds); fill_due files merged meanwhile */
	double fill_next;
	size_t fill_due;
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
	/* the scan stops when this says so (reader_options.cancelled and
	 * progress_ctx; shards have the run's): tested between files and,
	 * through SQLite's progress handler, every few thousand steps */
	bool (*cancelled)(void *ctx);
	void *cancel_ctx;
	struct reader_progress progress;
	double scan_began, last_report; /* monotonic seconds */

	pthread_mutex_t lock; /* lazy reads and SQLite statements */
	pthread_cond_t file_read; /* a file's second pass ended */
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
/* The marks per context: a statistic (and a column pair) of runs that
 * have marks only, so that the columns of runs without are as before. */
#define STAT_MARKS ((uint32_t)N_GPU_RUN_STATS)
/* A partial model's stored inclusive Calls (gpu_run.calls_incl). */
#define STAT_CALLS_INCL ((uint32_t)N_GPU_RUN_STATS + 1)

/* The prop_id of an inclusive statistic the engine derives from
 * exclusive one P (model_builder_add_inclusive_stat): this bit | P, so
 * that the threads pane has its per-thread and per-queue values too. */
#define GPU_RUN_PROP_INCL 0x80000000u

/* The value of statistic `stat` (a stat_id) at node `n`; false where the
 * node has none (gpu_run_provider.c). */
bool gpu_run_node_value(const struct gpu_run *r, uint32_t n, uint32_t stat,
			double *out);

/* value_ops.per_profile (gpu_run_profiles.c): node `ctx_id`'s value of
 * `prop_id` per execution context, sorted by profile.  GPU time and calls
 * of a kernel or copy are the queues' (where they ran), not also the
 * launching thread's, so that they sum to the node's value; other values
 * are the node's thread's.  GPU_RUN_PROP_INCL | P: summed over the
 * subtree. */
enum status gpu_run_per_profile(void *impl, uint32_t ctx_id, uint32_t prop_id,
				struct profile_value **out, size_t *n,
				struct error *err);

/* The providers of a run's model (gpu_run_provider.c); the trace's close
 * frees the run. */
extern const struct value_ops gpu_run_value_ops;
extern const struct trace_ops gpu_run_trace_ops;

/* The node mirror's arrays cut to the nodes there are (a run no longer
 * grown: a kept sketch). */
void gpu_run_nodes_fit(struct gpu_run *r);

/* Free a run (its connections, maps, arrays, mapped intervals). */
void gpu_run_free(struct gpu_run *r);

/* Free what table set `set` owns (its suffix, lookup maps and string
 * statement), not the set itself. */
void gpu_run_set_release(struct gpu_run_set *set);

/* Finalize file `f`'s string statements (only the first pass uses
 * them); gpu_run_file_close also closes its connection (db NULL after),
 * as a file scanned and merged is (0.7 MB a file of cached pages and
 * schema: 711 MB of a first open of 1,000 files), to be opened again
 * when a line or a detail needs it (gpu_run_provider.c's ensure_open),
 * as a run opened from its index does. */
void gpu_run_file_finalize(struct gpu_run_file *f);
void gpu_run_file_close(struct gpu_run_file *f);

/* Open file `f`'s connection read-only and find its layout. */
enum status gpu_run_open_file(const struct gpu_run_family *fam,
			      struct gpu_run_file *f, struct error *err);

/* The statistics and columns of the run's model (gpu_run_columns.c). */
enum status gpu_run_add_columns(struct gpu_run *r, struct error *err);

/* The run's lines in a stable order (file, table set, host threads,
 * queues, copies, counters), their key index rebuilt, handed to the
 * builder (gpu_run_lines.c). */
enum status gpu_run_add_lines(struct gpu_run *r, struct error *err);


/* ---- the library's own functions (the layouts do not call them) ------- */

/* The choice named `s` (NULL: the default); false for an unknown name. */
bool gpu_run_kernel_names_parse(const char *s,
				enum gpu_run_kernel_names *out);

/* Grow the array at `arrayp` (a pointer to the array's pointer) of
 * `size`-byte elements from `n` to `cap` elements, the new ones zeroed;
 * false (the array unchanged) when out of memory. */
bool gpu_run_grow(void *arrayp, size_t n, size_t cap, size_t size);

/* ---- the run's index (gpu_run_index.c) ------------------------------------ */

/* Name the run's index in directory `dir` (created when missing) from its
 * family and files: r->index_base.  False when a file has no real path
 * or the directory cannot be made: the run then has no index. */
bool gpu_run_index_name(struct gpu_run *r, const char *dir);
/* Fill a fresh run (its files opened, nothing read, the root its only
 * node) from its index: true when the index exists, matches every file
 * and checks out.  False leaves `r` half filled: the caller starts over
 * with a new run. */
bool gpu_run_index_load(struct gpu_run *r);
/* Write the index of a run whose first pass just ended (before its
 * builder finishes); failures leave no index. */
void gpu_run_index_save(struct gpu_run *r);
/* Map file `fi`'s intervals from the index: true when found and checked
 * (the file's lines then hold them, f->iv_map set). */
bool gpu_run_index_load_file(struct gpu_run *r, uint32_t fi);
/* Whether file `fi` of a run opened from its index is still the file the
 * index was checked against (its connection is opened late). */
bool gpu_run_index_unchanged(struct gpu_run *r, uint32_t fi);

/* Write file `fi`'s sorted, linked intervals after its second pass. */
void gpu_run_index_save_file(struct gpu_run *r, uint32_t fi);

/* Count one row of the first pass; now and then report the progress. */
void gpu_run_row_seen(struct gpu_run *r);
/* Hand r->progress to the options' hook: when `last`, else at most four
 * times a second. */
void gpu_run_report(struct gpu_run *r, bool last);

/* ---- opening (gpu_run_open.c, gpu_run_sketch.c) ------------------------------ */

/* A run of `n` files with only the root node, its files opened and
 * checked (their layouts found, their connections closed again) unless
 * `lazy` (they are opened when first needed). */
enum status gpu_run_new_run(const struct gpu_run_family *family,
			    const char *shown, char **paths, size_t n,
			    bool lazy, struct gpu_run **out, struct error *err);
/* The model of run `r` after its first pass (or its sketch) of `n`
 * files: clocks (aligned when `align`), columns, lines, warnings, title,
 * providers.  Takes `r` (freed on failure). */
enum status gpu_run_finish(struct gpu_run *r, size_t n, bool align,
			   struct model **out, struct error *err);
/* The partial model of a run without a usable index (options->later set):
 * every file sketched (gpu_run_layout.sketch), the whole open started in
 * the background (*options->later).  *out NULL (STATUS_OK) when a
 * file's layout has no sketch or the run is small (its files under 128
 * MB, unless $CALLSCOPE_TEST_SCAN_DELAY_MS is set): the caller opens
 * the run whole. */
enum status gpu_run_open_sketch(const struct gpu_run_family *family,
				const char *shown, char **paths, size_t n,
				const struct reader_options *options,
				const struct gpu_run_settings *set,
				struct model **out, struct error *err);

/* Open as gpu_run_open does, never partially, with `filled(ctx, r, k)`
 * called as the scan's files are merged (gpu_run.filled). */
enum status gpu_run_open_filling(const struct gpu_run_family *family,
				 const char *shown, char **paths, size_t n,
				 const struct reader_options *options,
				 void (*filled)(void *ctx, struct gpu_run *r,
						size_t done),
				 void *filled_ctx, struct model **out,
				 struct error *err);

/* ---- the first pass (gpu_run_scan.c) ---------------------------------------- */

/* Add run `s`'s nodes (with their values, counters, per-queue split),
 * strings and profiles into `r` as a merge does, leaving `s` as it was
 * (no table sets, no lines), and the hosts of its files 0..n-1 as those
 * of r's files at..at+n-1; false when out of memory.  `r` and `s` have
 * builders. */
bool gpu_run_replay(struct gpu_run *r, const struct gpu_run *s, size_t at,
		    size_t n);

/* A run of `n` files (none opened) with only the root node, or NULL when
 * out of memory. */
struct gpu_run *gpu_run_blank(const struct gpu_run_family *family,
			      const char *shown, size_t n);
/* Free a run that never became a model (its builder too). */
void gpu_run_discard(struct gpu_run *r);
/* Add GPU time and calls of `node` on queue profile `queue_profile`. */
void gpu_run_split_add(struct gpu_run *r, uint32_t node,
		       uint32_t queue_profile, double gpu, double calls);
/* The first pass over every file of `r` (opened, nothing read): files
 * read side by side, one table-set reader per file in a run of its own
 * that is merged into `r` in file order, so that the result is the one
 * a pass file after file gives.  Reports r->progress. */
enum status gpu_run_scan(struct gpu_run *r, struct error *err);
/* Threads for reading `n_files` files side by side (both passes): the
 * cores (CALLSCOPE_SCAN_THREADS overrides), at most 16, at most one per
 * file; 1 when SQLite is not thread-safe. */
unsigned gpu_run_workers_for(size_t n_files);

/* The file name of group `group`'s functions in `family`'s runs. */
const char *gpu_run_group_name(const struct gpu_run_family *family,
			       uint8_t group);

/* Open the run of `paths` (files; directories already expanded) into a
 * model.  From `options` (NULL: none): the options addressed to the
 * family's reader (struct gpu_run_settings), cache_dir, where the run's
 * index is kept so that only the first open of a run scans its files,
 * and the progress hook of that scan. */
enum status gpu_run_open(const struct gpu_run_family *family,
			 const char *shown, char **paths, size_t n,
			 const struct reader_options *options,
			 struct model **out, struct error *err);

#endif
