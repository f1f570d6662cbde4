/* gpu_run: what the SQLite GPU-trace readers (rocpd: rocprofv3 databases
 * and rocmProfileData .rpd files; nsight: Nsight Systems exports) share:
 * one run made of several SQLite files,
 * its calling-context tree (process -> thread -> ranges -> API calls ->
 * kernels and copies) with values computed while the tables are read, its
 * profiles, its timelines (interval lines read again, lazily, when the
 * trace first needs them) and the value and trace providers; for a
 * caller that can show a partial model first (reader_options.later), a
 * sketch of the run from small queries while the whole open runs in the
 * background (gpu_run_sketch.c).  Each table
 * layout is read by its format's files through a struct gpu_run_layout
 * (rocpd/rocpd_v3.c, rocpd/rocpd_rpd.c, nsight/nsight_read.c).  This
 * header is what those layouts see (struct gpu_run is opaque to them:
 * gpu_run_internal.h is the library's own); only formats/rocpd/ and
 * formats/nsight/ include it (tests/check-layers.sh).  Depends on core/,
 * model/ and io/ only; never prints. */
#ifndef CALLSCOPE_GPU_RUN_H
#define CALLSCOPE_GPU_RUN_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/clock.h"
#include "core/status.h"
#include "formats/reader.h"
#include "model/model.h"

struct gpu_run;
struct gpu_run_line;

/* A table layout: the first pass (tree, counts, profiles, lines) and the
 * second (intervals of every line of the file, in file order) are both
 * `read` (gpu_run_second_pass() tells which); `detail` gives the attributes
 * of an event of a line (trace_ops.event_detail). */
struct gpu_run_layout {
	enum status (*read)(struct gpu_run *r, uint32_t file,
			    struct error *err);
	enum status (*detail)(struct gpu_run *r, const struct gpu_run_line *l,
			      uint64_t event, struct model_kv **out, size_t *n,
			      struct error *err);
	/* Optional: the sketch of file `file` for a partial model shown
	 * while the run is scanned (gpu_run_open with reader_options.later):
	 * processes and threads named as `read` names them, kernel names,
	 * counts from small queries (gpu_run_add_calls); no lines.  NULL:
	 * the run is opened whole before it is shown. */
	enum status (*sketch)(struct gpu_run *r, uint32_t file,
			      struct error *err);
};

struct gpu_run_file;

/* What a node is, for the flat view and the per-kind summary: the
 * function of every node made with gpu_run_child(r, p, GPU_RUN_KIND(kind,
 * group), name) has module "GPU" (kernels, copies, memsets) or "host"
 * (the rest) and file the family's name of the group ("kernels", "CUDA
 * API", "NVTX ranges"), so that the flat view groups a run by kind.  The
 * group is kept in the high bits of the node mirror's kind byte (the
 * model's node has the plain kind): two nodes of one name in different
 * groups are different nodes. */
enum gpu_run_group {
	GPU_RUN_GROUP_NONE,   /* processes, threads, placeholders */
	GPU_RUN_GROUP_KERNEL,
	GPU_RUN_GROUP_COPY,
	GPU_RUN_GROUP_MEMSET,
	GPU_RUN_GROUP_GPU_OTHER, /* other GPU work (.rpd barriers) */
	GPU_RUN_GROUP_API,    /* runtime and driver calls */
	GPU_RUN_GROUP_RANGE,  /* NVTX and roctx ranges */
	GPU_RUN_GROUP_OS,     /* OS runtime calls */
	GPU_RUN_N_GROUPS,
};
#define GPU_RUN_KIND(kind, group) ((uint8_t)((kind) | (group) << 4))
#define GPU_RUN_KIND_PLAIN(k) ((uint8_t)((k) & 15))
#define GPU_RUN_KIND_GROUP(k) ((uint8_t)((k) >> 4))

/* Which kernel name the readers use (the option gpu:kernel-names), as
 * `nsys stats` does: the demangled name by default, the base (short)
 * name, or the mangled one.  Kernels whose chosen names are equal are one
 * kernel. */
enum gpu_run_kernel_names {
	GPU_RUN_KERNEL_DEMANGLED,
	GPU_RUN_KERNEL_BASE,
	GPU_RUN_KERNEL_MANGLED,
};
/* The base name of kernel `name` (demangled), as Nsight's shortName: the
 * last identifier before the template arguments and the parameters
 * ("void ns::gemm<float>(float*)" -> "gemm"); a name that is not C++ (a
 * mangled or assembler name) as it is.  Cut to `size` - 1 bytes. */
void gpu_run_kernel_base(const char *name, char *out, size_t size);

/* The options of a GPU run (READER:KEY=VALUE, formats/reader.h), taken
 * by both readers under "gpu" and their own names:
 *   align-clocks=yes|no   runs of several hosts: shift each host's times
 *                         so that its first event is at the run's start
 *                         (their clocks are independent); no: times as
 *                         stored, with a warning
 *   kernel-names=demangled|base|mangled   which name names a kernel */
struct gpu_run_settings {
	bool align_clocks;
	enum gpu_run_kernel_names kernel_names;
};
/* struct reader's `option` of the GPU readers: parse one option into
 * `state` (a struct gpu_run_settings; NULL: only check). */
enum status gpu_run_option(void *state, const char *key, const char *value,
			   struct error *err);

/* A family of files read as one run. */
struct gpu_run_family {
	const char *format; /* the model's format name: "rocpd" */
	/* the reader of the family: whose options the run takes */
	const struct reader *reader;
	const char *noun;   /* in titles and messages: "ROCm profile" */
	/* where GPU work without a launching API call is put, for the
	 * warning: "placed by time on their thread" */
	const char *unlinked_where;
	/* The layout of an opened file (tables told by gpu_run_has_table). */
	const struct gpu_run_layout *(*layout_of)(struct gpu_run_file *f);
	/* A directory in the input stands for the files in it that
	 * accept_name() takes, and in its subdirectories down to dir_depth
	 * levels; files_noun names them in the message of a directory that
	 * holds none (".sqlite file"). */
	bool (*accept_name)(const char *name);
	unsigned dir_depth;
	const char *files_noun;
	/* The file name of each group's functions (enum gpu_run_group;
	 * NULL: the group's default, "kernels", "API calls"...). */
	const char *group_names[GPU_RUN_N_GROUPS];
	/* Optional: a file that lists the run's files (rocpd: an index
	 * YAML file), told by its name; `list_files` gives the files it
	 * lists (heap strings in a heap array). */
	bool (*list_name)(const char *name);
	enum status (*list_files)(const char *path, char ***out, size_t *n,
				  struct error *err);
};

/* u64 -> u32 open-addressing map (keys any value; a separate "used"
 * marker). */
struct gpu_run_map {
	/* key, value and mark of a slot side by side: one cache line per
	 * probe of maps of millions (region ids) */
	struct gpu_run_slot {
		uint64_t key;
		uint32_t val;
		uint32_t used;
	} *slot;
	size_t cap, n;
};
bool gpu_run_map_put(struct gpu_run_map *m, uint64_t key, uint32_t val);
bool gpu_run_map_get(const struct gpu_run_map *m, uint64_t key, uint32_t *val);
void gpu_run_map_free(struct gpu_run_map *m);

/* Row ids -> u32 (gpu_run_map.c): ids nearly in order in an array, the
 * rest hashed; a value of UINT32_MAX is hashed too. */
struct gpu_run_idmap {
	uint64_t base;     /* v[i] holds id base + i: its value + 1, 0: none */
	uint32_t *v;
	size_t cap, n;     /* slots, ids in v */
	struct gpu_run_map rest;
};
bool gpu_run_idmap_put(struct gpu_run_idmap *m, uint64_t key, uint32_t val);
bool gpu_run_idmap_get(const struct gpu_run_idmap *m, uint64_t key,
		       uint32_t *val);
void gpu_run_idmap_free(struct gpu_run_idmap *m);

/* One table set of a file (a v3 per-process suffix; an .rpd file has one):
 * its strings and ids are its own. */
struct gpu_run_set {
	char *suffix;             /* "_0199...": the tables' suffix, "" */
	struct gpu_run_map strings; /* string id -> model string handle */
	struct gpu_run_idmap regions; /* region / API id -> node (a pass) */
	struct gpu_run_map kernels; /* kernel symbol id -> string handle */
	struct gpu_run_map threads; /* pid << 32 | tid -> node */
	struct gpu_run_map procs;   /* pid -> node */
	struct gpu_run_map thread_profiles; /* pid << 32 | tid -> profile */
	sqlite3_stmt *string_stmt;
	/* present optional tables/columns */
	bool has_copy, has_pmc, has_arg, has_alloc;
	bool has_copyapi, has_kernelapi, has_monitor;
	uint32_t opt; /* optional tables/columns of other layouts (bits) */
};

struct gpu_run_file {
	char *path;
	const struct gpu_run_layout *layout;
	const char *noun; /* the family's, for messages */
	sqlite3 *db;
	struct gpu_run_set *sets;
	size_t n_sets;
	bool loaded;  /* interval lines read (second pass) */
	bool loading; /* being read by a thread (gpu_run_provider.c) */
	/* the lines' intervals mapped from the run's index (gpu_run_index.c)
	 * instead of read: not freed, never written; NULL when read */
	void *iv_map;
	size_t iv_map_len;
	/* a run opened from its index: a hash of the file's identity then
	 * (its connection is opened later, and must find the same file) */
	uint64_t id_hash;
};

/* Timeline line kinds of the run. */
enum gpu_run_line_kind {
	GPU_RUN_LINE_HOST,  /* a host thread: ranges and API calls */
	GPU_RUN_LINE_QUEUE, /* a GPU queue: kernels (and .rpd copies) */
	GPU_RUN_LINE_COPY,  /* a process's memory copies (v3) */
	GPU_RUN_LINE_COUNTER,
	/* GPU work again, on the lines of the grouping that is not shown
	 * first (rocpd: by stream; Nsight: by context): linked to its
	 * launching call, never in a call's chain of launches, no profile;
	 * after every other line in the model */
	GPU_RUN_LINE_ALT,
};

#define GPU_RUN_NO_LINK UINT64_MAX

/* One interval, as kept once a file's lines are read (48 bytes). */
struct gpu_run_iv {
	uint64_t begin, end;
	uint64_t event; /* row id for event_detail */
	uint32_t ctx;
	uint32_t up; /* 1 + index of the enclosing / overlapped interval */
	/* While the file is read: the link key the layout gave (an API
	 * call's own key; GPU work's launcher's key), GPU_RUN_NO_LINK for
	 * none.  Then (line << 32 | index) of the linked interval: GPU
	 * work's launching call; an API call's first launched GPU work. */
	uint64_t link;
	/* GPU work: the next interval launched by the same call, as `link`
	 * once resolved, or GPU_RUN_NO_LINK. */
	uint64_t next;
};

/* One instant of a line (a mark: no duration), as kept once the file's
 * lines are read (24 bytes). */
struct gpu_run_instant {
	uint64_t t;
	uint64_t event; /* row id for event_detail, or MODEL_EVENT_NONE */
	uint32_t name;  /* string handle */
	uint32_t pad;
};

struct gpu_run_line {
	uint32_t file, set;
	uint8_t kind;
	uint8_t group;     /* enum timeline_group (set by the layout) */
	uint64_t a, b;     /* key: pid/tid, agent/queue, device/type */
	uint32_t label;    /* string handle */
	uint32_t profile;
	uint64_t count;    /* from the first pass */
	uint64_t first, last; /* the earliest begin, the latest end (first
				 pass; first > last when empty) */
	struct gpu_run_iv *iv; /* after the lazy read; count elements */
	uint64_t filled;
	/* instants: counted by the first pass, read with the intervals and
	 * sorted by (time, event) */
	uint64_t n_inst, inst_filled;
	struct gpu_run_instant *inst;
	/* counters */
	uint64_t *times;
	double *values;
	uint32_t unit;
};

/* The run being read: opaque to the layouts (rocpd/, nsight/), which
 * read and set it through the functions below; its members are
 * gpu_run_internal.h's, for the library's own files. */
struct gpu_run;

/* ---- what a layout reads and sets of the run ------------------------------ */

/* The sketch: `calls` pieces of GPU work known to lie under `node` (the
 * Calls column; no time), from a count. */
void gpu_run_add_calls(struct gpu_run *r, uint32_t node, uint64_t calls);

/* Whether the run is in its second pass (reading intervals: find nodes
 * and lines, never add). */
bool gpu_run_second_pass(const struct gpu_run *r);
/* The kernel names chosen (the option kernel-names). */
enum gpu_run_kernel_names gpu_run_kernel_choice(const struct gpu_run *r);
/* The run's files and lines (indexes below gpu_run_n_files / _n_lines). */
size_t gpu_run_n_files(const struct gpu_run *r);
struct gpu_run_file *gpu_run_file_at(struct gpu_run *r, size_t fi);
uint32_t gpu_run_n_lines(const struct gpu_run *r);
struct gpu_run_line *gpu_run_line_at(struct gpu_run *r, uint32_t line);
/* Node `node`'s name ("" past the nodes) and thread profile (MODEL_NONE:
 * none). */
const char *gpu_run_node_name(const struct gpu_run *r, uint32_t node);
uint32_t gpu_run_node_profile(const struct gpu_run *r, uint32_t node);
void gpu_run_set_node_profile(struct gpu_run *r, uint32_t node,
			      uint32_t profile);
/* First pass: count a row with unusable times (skipped), and `n` pieces
 * of GPU work placed by time or by thread (unlinked), for the warnings;
 * nothing in the second pass. */
void gpu_run_skip_row(struct gpu_run *r);
void gpu_run_add_unlinked(struct gpu_run *r, uint64_t n);
/* The node under the root for GPU work the layout cannot place (with no
 * launching API call, no process), named `label`, made in the first pass
 * when first asked for (0 when there is none); one per run. */
uint32_t gpu_run_unattributed(struct gpu_run *r, const char *label);

/* The runs indexed in `dir` (none when it does not exist), sorted by
 * path, one entry per run (its files are PATH.*, `first` the run's first
 * file, its real path): the readers' cache_list (formats/reader.h); *out
 * malloc'd, freed with reader_cache_list_free.  An index that does not
 * read is listed with first "?" (it is ignored when opened). */
enum status gpu_run_index_list(const char *dir,
			       struct reader_cache_entry **out, size_t *n,
			       struct error *err);

/* Interning through the builder; in the second pass (builder gone) only
 * texts interned in the first are found (MODEL_NONE otherwise). */
uint32_t gpu_run_intern(struct gpu_run *r, const char *s);

/* The child of `parent` with kind `kind` (GPU_RUN_KIND: a node kind and
 * a group) and name handle `name`: found, or
 * added (first pass).  MODEL_NONE when out of memory, or in the second
 * pass when it does not exist. */
uint32_t gpu_run_child(struct gpu_run *r, uint32_t parent, uint8_t kind,
		     uint32_t name);

/* File `fi`'s times come from host `host`'s clock (a name; the first pass
 * of a layout that knows it).  A second, different host makes the file's
 * host unknown. */
void gpu_run_file_host(struct gpu_run *r, uint32_t fi, const char *host);

/* Append (t, value) to counter line `line` (first pass); false when out
 * of memory. */
bool gpu_run_counter_push(struct gpu_run *r, uint32_t line, uint64_t t,
			  double value);

/* The statistic id of hardware counter 0 (after the fixed ones). */
#define GPU_RUN_COUNTER_STAT 64u

/* The index of the hardware counter named `name`: found, or added in the
 * first pass; MODEL_NONE when out of memory, or in the second pass. */
uint32_t gpu_run_counter(struct gpu_run *r, const char *name);
/* Add `value` to counter `k` at `node`. */
void gpu_run_add_counter(struct gpu_run *r, uint32_t node, uint32_t k,
			 double value);

/* Values. */
void gpu_run_add_gpu(struct gpu_run *r, uint32_t node, uint64_t ns,
		   uint32_t queue_profile);
/* The size of a copy of `ns` whose time was added by gpu_run_add_gpu. */
void gpu_run_add_bytes(struct gpu_run *r, uint32_t node, double bytes,
		       uint64_t ns);
/* A host interval (range or API call) of `ns` at `node` whose enclosing
 * interval is at node `parent_region` (MODEL_NONE when none). */
void gpu_run_add_api(struct gpu_run *r, uint32_t node, uint32_t parent_region,
		   uint64_t ns);

/* One instant (mark) whose context is `node`: the innermost host
 * interval of its thread that holds its time, or the thread (first pass
 * only; the marks column of the tree views). */
void gpu_run_add_mark(struct gpu_run *r, uint32_t node);

/* The line of key (file, set, kind, a, b): found, or added (first pass,
 * `label` not NULL) with `label` (copied) and `profile`.  MODEL_NONE on
 * failure or when not found. */
uint32_t gpu_run_line(struct gpu_run *r, uint32_t file, uint32_t set,
		    uint8_t kind, uint64_t a, uint64_t b, const char *label,
		    uint32_t profile);
/* gpu_run_line whose label, printf's `fmt` and arguments, is made only
 * when the line is added (never in the second pass): one per row costs
 * what the row's values do. */
uint32_t gpu_run_linef(struct gpu_run *r, uint32_t file, uint32_t set,
		       uint8_t kind, uint64_t a, uint64_t b, uint32_t profile,
		       const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));
/* The GPU_RUN_LINE_QUEUE line of key (file, set, a, b): found, or added
 * (first pass) with the label printed from `fmt` and a profile of ids
 * (k1 v1, k2 v2) with the same label ("GPU" 0 "QUEUE" 5). */
uint32_t gpu_run_queue_line(struct gpu_run *r, uint32_t file, uint32_t set,
			    uint64_t a, uint64_t b, const char *k1,
			    uint64_t v1, const char *k2, uint64_t v2,
			    const char *fmt, ...)
	__attribute__((format(printf, 10, 11)));
/* One interval on line `line`: counted (first pass) or stored (second).
 * `link` is a key in the namespace of the line's table set that ties
 * GPU work to the API call that launched it: a host interval gives its
 * own key, GPU work its launcher's (a correlation id, an API id, a region
 * id); GPU_RUN_NO_LINK for none.  gpu_run resolves the keys once the
 * file's lines are read (trace_ops.linked). */
bool gpu_run_line_add(struct gpu_run *r, uint32_t line, uint64_t begin,
		    uint64_t end, uint32_t ctx, uint64_t event, uint64_t link);
void gpu_run_time_seen(struct gpu_run *r, uint64_t begin, uint64_t end);
/* One instant (a mark, no duration) at `t` named `name` (a string handle
 * interned in the first pass) on line `line`: counted (first pass) or
 * stored (second).  Instants stay out of the tree and the intervals. */
bool gpu_run_instant_add(struct gpu_run *r, uint32_t line, uint64_t t,
			 uint32_t name, uint64_t event);
/* Sort a filled line's instants by (time, event). */
void gpu_run_instants_sort(struct gpu_run_instant *in, uint64_t n);

/* A profile (thread, queue) labelled `label`; kinds as model_id names. */
uint32_t gpu_run_profile(struct gpu_run *r, const char *k1, uint64_t v1,
		       const char *k2, uint64_t v2, const char *label);

/* Sort a filled line's intervals by (begin, end descending, event) and
 * link each to the one it lies in (trace_interval.up). */
void gpu_run_iv_sort_link(struct gpu_run_iv *iv, uint64_t n);
/* The index of the latest-begun interval of sorted, linked `iv` running
 * at `t` (t in [begin, end)), or UINT64_MAX. */
uint64_t gpu_run_iv_active(const struct gpu_run_iv *iv, uint64_t n, uint64_t t);

/* The model string of id `id` in the set's string table `table` + the
 * set's suffix (its text column `column`): found in s->strings, else, in
 * the first pass, read through s->string_stmt (prepared at the first
 * call) and remembered; "<string ID>" for an id the table lacks.
 * MODEL_NONE in the second pass for an id the first did not see, when the
 * statement cannot be prepared, or when out of memory. */
uint32_t gpu_run_string(struct gpu_run *r, struct gpu_run_file *f,
			struct gpu_run_set *s, const char *table,
			const char *column, int64_t id);

/* Column text as a heap-free pointer ("" for NULL). */
const char *gpu_run_col_text(sqlite3_stmt *st, int col);
/* An integer column: false when NULL or not an integer (text "" in an
 * integer column, as .rpd files have). */
bool gpu_run_col_int(sqlite3_stmt *st, int col, int64_t *out);

/* Prepare `sql` on the file's connection; a one-line error naming the
 * file on failure. */
enum status gpu_run_prepare(struct gpu_run_file *f, const char *sql,
			  sqlite3_stmt **out, struct error *err);
/* Run `sql` on the file's connection and hand each row to `row`: a row
 * that returns false (out of memory) stops the walk with STATUS_NOMEM
 * naming the file; a failed step is the step's error. */
enum status gpu_run_each_row(struct gpu_run_file *f, const char *sql,
			     bool (*row)(void *ctx, sqlite3_stmt *st),
			     void *ctx, struct error *err);
/* Whether the file has table (or view) `name`. */
bool gpu_run_has_table(struct gpu_run_file *f, const char *name);
/* Check that table `table` has every column of the NULL-terminated
 * `cols`; else STATUS_UNSUPPORTED naming the first missing one. */
enum status gpu_run_need_columns(struct gpu_run_file *f, const char *table,
			       const char *const *cols, const char *hint,
			       struct error *err);
bool gpu_run_has_column(struct gpu_run_file *f, const char *table,
		      const char *col);
/* The first pass of a layout with one table set per file (no suffix):
 * f->sets[0] made and checked by `check`; nothing in the second pass. */
enum status gpu_run_single_set(struct gpu_run *r, struct gpu_run_file *f,
			       enum status (*check)(struct gpu_run_file *f,
						    struct gpu_run_set *s,
						    struct error *err),
			       struct error *err);
/* The SQLite step error as a status with the file named. */
enum status gpu_run_step_error(struct gpu_run_file *f, int rc, struct error *err);

/* ---- host intervals nested by time (gpu_run_nest.c) ----------------------- */

/* The enclosing intervals of one thread while its intervals are walked
 * in (start, end descending) order; depth 0 on a new thread. */
struct gpu_run_nest {
	struct gpu_run_nest_frame {
		int64_t start, end;
		uint32_t node;
	} *v;
	size_t depth, cap;
};

/* The node of the innermost interval holding [start, end] (the frames
 * that do not hold it are dropped); `outer` (the thread) when none. */
uint32_t gpu_run_nest_parent(struct gpu_run_nest *n, int64_t start,
			     int64_t end, uint32_t outer);
/* The context of a mark at time `t`, the intervals walked so far those
 * before it: the node of the innermost interval that holds t as the
 * trace does, half-open (start <= t < end: a mark at an interval's end
 * is after it); `outer` (the thread) when none.  The frames that end
 * before t are dropped. */
uint32_t gpu_run_nest_at(struct gpu_run_nest *n, int64_t t, uint32_t outer);
/* [start, end] at `node` as the innermost; false when out of memory. */
bool gpu_run_nest_push(struct gpu_run_nest *n, int64_t start, int64_t end,
		       uint32_t node);
void gpu_run_nest_free(struct gpu_run_nest *n);

/* What host interval [start, end] at `node` adds: its API time (nested
 * in `parent_region`, MODEL_NONE when none), the run's time range, and
 * the interval on line `line` (MODEL_NONE: none; false then, and when
 * the line does not take it). */
bool gpu_run_host_interval(struct gpu_run *r, uint32_t node,
			   uint32_t parent_region, uint32_t line,
			   int64_t start, int64_t end, uint64_t event,
			   uint64_t link);

/* ---- the attributes of an event (a layout's `detail`, gpu_run_kv.c) ---- */

/* The attributes of one event while a layout's `detail` collects them (at
 * most GPU_RUN_KV_MAX; more are left out), each text a copy. */
#define GPU_RUN_KV_MAX 40
struct gpu_run_kvs {
	struct model_kv kv[GPU_RUN_KV_MAX];
	char *text[GPU_RUN_KV_MAX];
	size_t n;
};

/* Add `key` (a static string) with `text` (NULL: "") and, when
 * `is_number`, its value `number`. */
void gpu_run_kv_add(struct gpu_run_kvs *k, const char *key, const char *text,
		    double number, bool is_number);
/* The same with the text printed from `fmt`, cut at 199 bytes. */
void gpu_run_kv_addf(struct gpu_run_kvs *k, const char *key, double number,
		     bool is_number, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Integer column `col` of `st` as a number; nothing when it is NULL or
 * not an integer. */
void gpu_run_kv_int(struct gpu_run_kvs *k, const char *key, sqlite3_stmt *st,
		    int col);
/* Columns col..col+2 as "XxYxZ" (the product as its number). */
void gpu_run_kv_dim(struct gpu_run_kvs *k, const char *key, sqlite3_stmt *st,
		    int col);
/* Pack the attributes into *out and *n (model_kv_pack; nothing when there
 * are none) unless `st` is an error already, which is returned; frees
 * the texts either way. */
enum status gpu_run_kv_finish(struct gpu_run_kvs *k, enum status st,
			      struct model_kv **out, size_t *n,
			      struct error *err);

/* Open the run of `in` (gpu_run_input.c): its paths, each directory
 * replaced by the files the family accepts in it; then gpu_run_open(). */
enum status gpu_run_open_input(const struct gpu_run_family *family,
			       const struct reader_input *in,
			       struct model **out, struct error *err);

#endif
