/* gen_v4db: writes synthetic HPCToolkit v4 databases (meta.db, profile.db,
 * cct.db, trace.db and metrics/default.yaml) per the format specification in
 * shared/specs/hpctoolkit-v4-FORMATS.md, together with an answers file whose
 * values are computed here, independently of any reader.  It is the
 * independent side of the reader tests, the source of the demo database and
 * of the benchmark inputs, so it must not depend on callscope's reader, model
 * or span code (nothing from src/).  Everything is deterministic from --seed.
 * Large outputs are streamed with buffered positional writes, so memory is
 * proportional to the number of contexts (about 28 bytes each), never to the
 * number of metric values or trace samples.
 *
 * This header holds the generator's types and tables and the functions its
 * files (tests/gen_v4db/, one file a concern) share. */
#ifndef CALLSCOPE_TESTS_GEN_V4DB_GEN_H
#define CALLSCOPE_TESTS_GEN_V4DB_GEN_H

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define GEN_ROOT UINT32_MAX
#define GEN_NONE UINT32_MAX
#define GEN_TIERS 5
#define GEN_MAX_METRICS 1000
#define GEN_MAX_THREADS 1048576

/* Salts that separate the deterministic random streams. */
enum gen_salt {
	GEN_SALT_EXPAND = 1,
	GEN_SALT_ROTATE,
	GEN_SALT_GAP,
	GEN_SALT_HOT,
	GEN_SALT_THREAD,
	GEN_SALT_METRIC,
	GEN_SALT_SPARSE,
	GEN_SALT_FUNC,
	GEN_SALT_TRACE,
	GEN_SALT_OFFSET,
	GEN_SALT_LEAFISH,
};

enum gen_kind {
	GEN_KIND_ENTRY,
	GEN_KIND_FUNCTION,
	GEN_KIND_LOOP,
	GEN_KIND_LINE,
	GEN_KIND_INSTRUCTION,
};

/* meta.db {Ctx} relation values. */
enum gen_relation {
	GEN_RELATION_LEXICAL = 0,
	GEN_RELATION_CALL = 1,
	GEN_RELATION_INLINED = 2,
};

/* Propagation scopes, in {PS} array order; propMetricId = m * 3 + scope. */
enum gen_scope {
	GEN_SCOPE_POINT,
	GEN_SCOPE_FUNCTION,
	GEN_SCOPE_EXECUTION,
	GEN_N_SCOPES,
};

/* Summary statistics, in {SS} order; statMetricId = 3 * M + m * 5 + stat. */
enum gen_stat {
	GEN_STAT_POINT_SUM,
	GEN_STAT_FUNCTION_SUM,
	GEN_STAT_EXECUTION_SUM,
	GEN_STAT_EXECUTION_MAX,
	GEN_STAT_EXECUTION_COUNT,
	GEN_N_STATS,
};

struct stat_def {
	enum gen_scope scope;
	const char *formula;
	uint8_t combine; /* 0 sum, 1 min, 2 max */
	const char *key; /* "scope|formula|combine" */
};

static const struct stat_def stat_defs[GEN_N_STATS] = {
	[GEN_STAT_POINT_SUM] = { .scope = GEN_SCOPE_POINT, .formula = "$$", .combine = 0, .key = "point|$$|sum" },
	[GEN_STAT_FUNCTION_SUM] = { .scope = GEN_SCOPE_FUNCTION, .formula = "$$", .combine = 0, .key = "function|$$|sum" },
	[GEN_STAT_EXECUTION_SUM] = { .scope = GEN_SCOPE_EXECUTION, .formula = "$$", .combine = 0, .key = "execution|$$|sum" },
	[GEN_STAT_EXECUTION_MAX] = { .scope = GEN_SCOPE_EXECUTION, .formula = "$$", .combine = 2, .key = "execution|$$|max" },
	[GEN_STAT_EXECUTION_COUNT] = { .scope = GEN_SCOPE_EXECUTION, .formula = "1", .combine = 0, .key = "execution|1|sum" },
};

static const char *const scope_names[GEN_N_SCOPES] = { "point", "function", "execution" };
static const uint8_t scope_types[GEN_N_SCOPES] = { 1, 3, 2 };
static const uint8_t scope_prop_index[GEN_N_SCOPES] = { 255, 0, 255 };

static const char *const id_names[] = { "SUMMARY", "NODE", "RANK", "THREAD", "GPUDEVICE", "GPUCONTEXT", "GPUSTREAM", "CORE" };
enum { GEN_ID_NODE = 1, GEN_ID_RANK = 2, GEN_ID_THREAD = 3 };

static const char *const base_metric_names[] = {
	"CPUTIME (sec)", "cycles", "instructions", "L2 misses", "L1 misses", "branch misses", "FLOPS", "page faults",
};

struct module_def {
	const char *path;
	const char *pseudo_file; /* source file name used for code without debug info */
};

static const struct module_def module_defs[] = {
	{ .path = "/opt/solver/bin/solver", .pseudo_file = NULL },
	{ .path = "/usr/lib/x86_64-linux-gnu/libc.so.6", .pseudo_file = "[libc.so.6]" },
	{ .path = "/opt/openmpi-4.1.5/lib/libmpi.so.40.30.5", .pseudo_file = "[libmpi.so.40.30.5]" },
	{ .path = "/opt/openmpi-4.1.5/lib/libopen-pal.so.40.30.3", .pseudo_file = "[libopen-pal.so.40.30.3]" },
	{ .path = "/opt/OpenBLAS/lib/libopenblas.so.0", .pseudo_file = "[libopenblas.so.0]" },
	{ .path = "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0", .pseudo_file = "[libgomp.so.1.0.0]" },
};
#define GEN_N_MODULES (sizeof module_defs / sizeof module_defs[0])

static const char *const app_files[] = {
	"/home/user/solver/src/main.cpp",    "/home/user/solver/src/solver.cpp", "/home/user/solver/src/mesh.cpp",
	"/home/user/solver/src/physics.cpp", "/home/user/solver/src/io.cpp",     "/home/user/solver/src/linalg.cpp",
	"/home/user/solver/src/comm.cpp",
};
#define GEN_N_APP_FILES (sizeof app_files / sizeof app_files[0])

struct func_def {
	const char *name;
	uint8_t tier; /* 0 main, 1 application driver, 2 kernel, 3 library API, 4 library internal */
	uint8_t module;
	uint8_t file; /* app_files index for module 0 */
};

static const struct func_def func_defs[] = {
	{ .name = "main", .tier = 0, .module = 0, .file = 0 },
	{ .name = "solver::worker_loop", .tier = 1, .module = 0, .file = 1 },
	{ .name = "solver::run", .tier = 1, .module = 0, .file = 1 },
	{ .name = "solver::step", .tier = 1, .module = 0, .file = 1 },
	{ .name = "solver::initialize", .tier = 1, .module = 0, .file = 1 },
	{ .name = "mesh::refine", .tier = 1, .module = 0, .file = 2 },
	{ .name = "mesh::partition", .tier = 1, .module = 0, .file = 2 },
	{ .name = "io::write_checkpoint", .tier = 1, .module = 0, .file = 4 },
	{ .name = "io::read_input", .tier = 1, .module = 0, .file = 4 },
	{ .name = "physics::advance", .tier = 1, .module = 0, .file = 3 },
	{ .name = "comm::exchange_all", .tier = 1, .module = 0, .file = 6 },
	{ .name = "solver::assemble_matrix", .tier = 2, .module = 0, .file = 1 },
	{ .name = "solver::compute_residual", .tier = 2, .module = 0, .file = 1 },
	{ .name = "physics::compute_flux", .tier = 2, .module = 0, .file = 3 },
	{ .name = "physics::apply_boundary", .tier = 2, .module = 0, .file = 3 },
	{ .name = "physics::update_cells", .tier = 2, .module = 0, .file = 3 },
	{ .name = "mesh::exchange_halo", .tier = 2, .module = 0, .file = 2 },
	{ .name = "mesh::build_neighbors", .tier = 2, .module = 0, .file = 2 },
	{ .name = "linalg::cg_solve", .tier = 2, .module = 0, .file = 5 },
	{ .name = "linalg::spmv", .tier = 2, .module = 0, .file = 5 },
	{ .name = "linalg::dot", .tier = 2, .module = 0, .file = 5 },
	{ .name = "linalg::axpy", .tier = 2, .module = 0, .file = 5 },
	{ .name = "comm::pack_buffer", .tier = 2, .module = 0, .file = 6 },
	{ .name = "comm::unpack_buffer", .tier = 2, .module = 0, .file = 6 },
	{ .name = "MPI_Allreduce", .tier = 3, .module = 2, .file = 0 },
	{ .name = "MPI_Isend", .tier = 3, .module = 2, .file = 0 },
	{ .name = "MPI_Irecv", .tier = 3, .module = 2, .file = 0 },
	{ .name = "MPI_Waitall", .tier = 3, .module = 2, .file = 0 },
	{ .name = "MPI_Barrier", .tier = 3, .module = 2, .file = 0 },
	{ .name = "dgemm_", .tier = 3, .module = 4, .file = 0 },
	{ .name = "daxpy_", .tier = 3, .module = 4, .file = 0 },
	{ .name = "ddot_", .tier = 3, .module = 4, .file = 0 },
	{ .name = "memcpy", .tier = 3, .module = 1, .file = 0 },
	{ .name = "malloc", .tier = 3, .module = 1, .file = 0 },
	{ .name = "free", .tier = 3, .module = 1, .file = 0 },
	{ .name = "pthread_mutex_lock", .tier = 3, .module = 1, .file = 0 },
	{ .name = "GOMP_parallel", .tier = 3, .module = 5, .file = 0 },
	{ .name = "GOMP_barrier", .tier = 3, .module = 5, .file = 0 },
	{ .name = "dgemm_kernel", .tier = 4, .module = 4, .file = 0 },
	{ .name = "daxpy_kernel_8", .tier = 4, .module = 4, .file = 0 },
	{ .name = "ddot_k", .tier = 4, .module = 4, .file = 0 },
	{ .name = "ompi_coll_base_allreduce_intra_recursivedoubling", .tier = 4, .module = 2, .file = 0 },
	{ .name = "mca_pml_ob1_isend", .tier = 4, .module = 2, .file = 0 },
	{ .name = "ompi_request_default_wait_all", .tier = 4, .module = 2, .file = 0 },
	{ .name = "opal_progress", .tier = 4, .module = 3, .file = 0 },
	{ .name = "__memmove_avx_unaligned_erms", .tier = 4, .module = 1, .file = 0 },
	{ .name = "_int_malloc", .tier = 4, .module = 1, .file = 0 },
	{ .name = "_int_free", .tier = 4, .module = 1, .file = 0 },
	{ .name = "futex_wait", .tier = 4, .module = 1, .file = 0 },
	{ .name = "gomp_team_barrier_wait_end", .tier = 4, .module = 5, .file = 0 },
	{ .name = "gomp_thread_start", .tier = 4, .module = 5, .file = 0 },
};
#define GEN_N_FUNC_DEFS (sizeof func_defs / sizeof func_defs[0])
enum { GEN_FUNC_MAIN = 0, GEN_FUNC_WORKER = 1 };

static const char *const gen_namespaces[] = { "solver", "mesh", "physics", "io", "linalg", "comm", "util" };
static const uint8_t gen_namespace_files[] = { 1, 2, 3, 4, 5, 6, 0 };
static const char *const gen_verbs[] = { "compute", "update", "apply", "assemble", "exchange",
					 "reduce",  "solve",  "interpolate", "pack", "smooth" };
static const char *const gen_nouns[] = { "flux",    "residual", "jacobian", "halo",   "boundary",
					 "stencil", "matrix",   "vector",   "particles", "cells" };

struct options {
	const char *out_dir;
	const char *answers;
	const char *title;
	uint64_t seed;
	uint64_t samples;
	uint32_t contexts;
	uint32_t fanout;
	uint32_t depth;
	uint32_t metrics;
	uint32_t threads; /* per rank */
	uint32_t ranks;
	uint32_t trace_lines; /* 0: one per thread */
	uint32_t empty_lines;
	bool trace;
	bool cct;
	bool yaml;
	bool demo;
	bool sources;
	bool hostile;     /* names carry control sequences and invalid UTF-8 */
	bool short_summary; /* summary execution Sum = 3/4 of the thread sum */
	double scale;       /* --scale: every raw value multiplied by it */
	bool cycle;       /* the last context's children are an ancestor */
	uint32_t chain;   /* --depth-chain: one chain of this many contexts */
	const char *names; /* --names: every name written, hex, one a line */
};

/* One calling context; about 28 bytes so that millions fit comfortably. */
struct node {
	uint32_t parent;      /* node index, GEN_ROOT for entry points */
	uint32_t first_child; /* children are contiguous node indexes */
	uint32_t ctx_id;
	uint32_t func; /* function (FUNCTION) or enclosing function; entry type for ENTRY */
	uint32_t aux;  /* source line (LINE, LOOP) or offset delta (INSTRUCTION) */
	uint16_t n_children;
	uint16_t depth; /* entry points are depth 0; saturates at 65535 */
	uint8_t kind;
	uint8_t relation;
	uint8_t entry; /* 0: under "main thread", 1: under "application thread" */
};

struct func {
	char *name;
	uint64_t offset;
	uint32_t line;
	uint16_t module;
	uint16_t file; /* index into the files table */
	uint8_t tier;
};

/* Growable byte buffer for the small meta.db sections. */
struct buf {
	unsigned char *data;
	size_t len;
	size_t cap;
	bool failed;
};

/* Buffered positional writer: sequential output at a fixed file offset. */
struct bw {
	int fd;
	uint64_t off; /* file offset of data[0] */
	unsigned char *data;
	size_t len;
	size_t cap;
	int err; /* first errno, 0 when fine */
};

struct walk_frame {
	uint32_t node;
	uint32_t next;
	uint32_t rot;
};

struct walk {
	struct walk_frame *stack;
	uint32_t sp;
};

struct probe {
	uint64_t t;
	const char *kase;
};

struct gen {
	struct options opt;
	struct node *nodes;
	uint32_t n_nodes;
	uint32_t cap_nodes;
	uint32_t n_entries;
	uint32_t max_id;
	struct func *funcs;
	uint32_t n_funcs;
	uint32_t *tier_funcs[GEN_TIERS];
	uint32_t n_tier[GEN_TIERS];
	char **metric_names;
	uint32_t n_metrics;
	/* names as written: the static tables, or their hostile variants */
	char *module_paths[GEN_N_MODULES];
	char **file_names; /* n_files */
	char *kind_names[sizeof id_names / sizeof id_names[0]];
	char *entry_names[2];
	char *title;
	uint32_t n_threads; /* total thread profiles */
	uint32_t n_files;
	uint32_t max_stack;
	/* per-level accumulators for the post-order passes: [level][thread][metric] */
	double *slot[GEN_N_SCOPES];
	/* pass 1 results, per profile (0 is the summary profile) */
	uint64_t *prof_nvals;
	uint64_t *prof_nctxs;
	double *global_exec;  /* [thread][metric] */
	double *global_stats; /* [metric][stat] */
	/* answers (only when --answers is given) */
	FILE *answers;
	bool answers_first;
	double *hot;       /* per node: metric 0 execution|$$|sum */
	double *func_excl; /* per function: metric 0 function|$$|sum over its contexts */
	json_t *probes;
	uint64_t trace_elements;
	uint64_t trace_min;
	uint64_t trace_max;
	uint32_t trace_lines;
};

struct rng {
	uint64_t state;
};

enum walk_event { WALK_ENTER, WALK_LEAVE, WALK_DONE };

/* io.c */
uint64_t hash3(uint64_t a, uint64_t b, uint64_t c);
uint64_t rng_next(struct rng *r);
uint64_t rng_below(struct rng *r, uint64_t n);
double unit_of(uint64_t h);
uint64_t align_up(uint64_t v, uint64_t a);
void le_encode(unsigned char *out, uint64_t v, unsigned n);
void buf_uint(struct buf *b, uint64_t v, unsigned n);
void buf_zero(struct buf *b, size_t n);
void buf_align(struct buf *b, size_t a);
void buf_str(struct buf *b, const char *s);
int write_at(int fd, uint64_t off, const void *p, size_t n);
void bw_init(struct bw *w, int fd, uint64_t off, size_t cap);
void bw_put(struct bw *w, const void *p, size_t n);
void bw_uint(struct bw *w, uint64_t v, unsigned n);
void bw_f64(struct bw *w, double v);
uint64_t bw_pos(const struct bw *w);
void bw_align(struct bw *w, uint64_t a);
int bw_finish(struct bw *w);
int close_out(int fd, struct bw *w, int rc);
int open_out(const struct gen *g, const char *name, char **path_out);
void file_header(unsigned char *out, const char *format, const uint64_t *sections, unsigned n);
bool write_failed(const char *path, int e);
int write_footer(int fd, uint64_t end, const char *footer);

/* names.c */
const char *file_path(const struct gen *g, uint32_t file);
char *name_variant(const struct gen *g, const char *base, uint32_t i);
int build_names(struct gen *g);
int write_names(const struct gen *g);
int build_funcs(struct gen *g);
uint32_t pick_tier(const struct gen *g, struct rng *r, int tier);
uint32_t pick_callee(const struct gen *g, struct rng *r, uint32_t node, uint32_t caller);

/* tree.c */
int build_tree(struct gen *g);
int walk_init(const struct gen *g, struct walk *w);
enum walk_event walk_step(const struct gen *g, struct walk *w, uint32_t *node, uint32_t *level);
int assign_ids(struct gen *g);
bool thread_in_entry(const struct gen *g, uint32_t t, uint8_t entry);
void node_raw(const struct gen *g, uint32_t idx, double *out);
uint16_t prop_id(uint32_t m, enum gen_scope s);
uint16_t stat_id(const struct gen *g, uint32_t m, enum gen_stat k);
void compute_stats(const struct gen *g, double *const vals[GEN_N_SCOPES], double *stats);
void short_summary(const struct gen *g, double *stats);

/* meta.c */
uint64_t node_offset(const struct gen *g, uint32_t idx);
int write_meta(struct gen *g);

/* answers.c */
void answer_context(struct gen *g, uint32_t idx, const double *stats);
int finish_answers(struct gen *g);

/* values.c */
int write_cct_and_count(struct gen *g);
int write_profile(struct gen *g);

/* trace.c */
int write_trace(struct gen *g);

/* yaml.c */
int write_sources(const struct gen *g);
int write_yaml(const struct gen *g);

#endif
