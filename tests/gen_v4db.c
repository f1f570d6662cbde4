/* gen_v4db: writes synthetic HPCToolkit v4 databases (meta.db, profile.db,
 * cct.db, trace.db and metrics/default.yaml) per the format specification in
 * shared/specs/hpctoolkit-v4-FORMATS.md, together with an answers file whose
 * values are computed here, independently of any reader.  It is the
 * independent side of the reader tests, the source of the demo database and
 * of the benchmark inputs, so it must not depend on callscope's reader, model
 * or span code (nothing from src/).  Everything is deterministic from --seed.
 * Large outputs are streamed with buffered positional writes, so memory is
 * proportional to the number of contexts (about 28 bytes each), never to the
 * number of metric values or trace samples. */

#include "config.h"

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

/* ---------------------------------------------------------------- random */

static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t hash3(uint64_t a, uint64_t b, uint64_t c)
{
	return mix64(a ^ mix64(b ^ mix64(c)));
}

struct rng {
	uint64_t state;
};

static uint64_t rng_next(struct rng *r)
{
	r->state += 0x9e3779b97f4a7c15ULL;
	uint64_t z = r->state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rng_below(struct rng *r, uint64_t n)
{
	return n == 0 ? 0 : rng_next(r) % n;
}

static double unit_of(uint64_t h)
{
	return (double)(h >> 11) * 0x1.0p-53;
}

/* ---------------------------------------------------------------- output */

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

static void buf_put(struct buf *b, const void *p, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n)
			cap *= 2;
		unsigned char *d = realloc(b->data, cap);
		if (d == NULL) {
			b->failed = true;
			return;
		}
		b->data = d;
		b->cap = cap;
	}
	if (n > 0)
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void le_encode(unsigned char *out, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		out[i] = (unsigned char)(v >> (8 * i));
}

static void buf_uint(struct buf *b, uint64_t v, unsigned n)
{
	unsigned char tmp[8];
	le_encode(tmp, v, n);
	buf_put(b, tmp, n);
}

static void buf_zero(struct buf *b, size_t n)
{
	static const unsigned char zeros[64];
	while (n > 0) {
		size_t k = n < sizeof zeros ? n : sizeof zeros;
		buf_put(b, zeros, k);
		n -= k;
	}
}

static void buf_align(struct buf *b, size_t a)
{
	buf_zero(b, (size_t)(align_up(b->len, a) - b->len));
}

static void buf_str(struct buf *b, const char *s)
{
	buf_put(b, s, strlen(s) + 1);
}

static int write_at(int fd, uint64_t off, const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t done = 0;
	while (done < n) {
		ssize_t k = pwrite(fd, c + done, n - done, (off_t)(off + done));
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		done += (size_t)k;
	}
	return 0;
}

static void bw_init(struct bw *w, int fd, uint64_t off, size_t cap)
{
	*w = (struct bw){ .fd = fd, .off = off, .cap = cap };
	w->data = malloc(cap);
	if (w->data == NULL)
		w->err = ENOMEM;
}

static void bw_flush(struct bw *w)
{
	size_t done = 0;
	while (w->err == 0 && done < w->len) {
		ssize_t k = pwrite(w->fd, w->data + done, w->len - done, (off_t)(w->off + done));
		if (k < 0) {
			if (errno != EINTR)
				w->err = errno;
			continue;
		}
		done += (size_t)k;
	}
	w->off += w->len;
	w->len = 0;
}

static void bw_put(struct bw *w, const void *p, size_t n)
{
	if (w->err)
		return;
	if (w->len + n > w->cap)
		bw_flush(w);
	if (n > w->cap) {
		w->err = write_at(w->fd, w->off, p, n);
		w->off += n;
		return;
	}
	memcpy(w->data + w->len, p, n);
	w->len += n;
}

static void bw_uint(struct bw *w, uint64_t v, unsigned n)
{
	unsigned char tmp[8];
	le_encode(tmp, v, n);
	bw_put(w, tmp, n);
}

static void bw_f64(struct bw *w, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	bw_uint(w, bits, 8);
}

static uint64_t bw_pos(const struct bw *w)
{
	return w->off + w->len;
}

static void bw_align(struct bw *w, uint64_t a)
{
	static const unsigned char zeros[8];
	uint64_t pos = bw_pos(w);
	bw_put(w, zeros, (size_t)(align_up(pos, a) - pos));
}

/* Flushes and frees; returns the first error (0 when all went well). */
static int bw_finish(struct bw *w)
{
	bw_flush(w);
	free(w->data);
	w->data = NULL;
	return w->err;
}

static int open_out(const struct gen *g, const char *name, char **path_out)
{
	char *path = NULL;
	if (asprintf(&path, "%s/%s", g->opt.out_dir, name) < 0)
		return -1;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		fprintf(stderr, "gen-v4db: %s: %s\n", path, strerror(errno));
	*path_out = path;
	return fd;
}

/* Writes the common file header: magic, format, version, section table. */
static void file_header(unsigned char *out, const char *format, const uint64_t *sections, unsigned n)
{
	memcpy(out, "HPCTOOLKIT", 10);
	memcpy(out + 10, format, 4);
	out[14] = 4;
	out[15] = 0;
	for (unsigned i = 0; i < n; i++) {
		le_encode(out + 16 + 16 * i, sections[2 * i], 8);
		le_encode(out + 24 + 16 * i, sections[2 * i + 1], 8);
	}
}

/* Pads to 8 from `end`, writes the footer and returns 0 or an errno. */
static int write_footer(int fd, uint64_t end, const char *footer)
{
	static const unsigned char zeros[8];
	uint64_t at = align_up(end, 8);
	int e = write_at(fd, end, zeros, (size_t)(at - end));
	if (e == 0)
		e = write_at(fd, at, footer, 8);
	return e;
}

/* ------------------------------------------------------------ functions */

static const char *base_file_path(uint32_t file)
{
	if (file < GEN_N_APP_FILES)
		return app_files[file];
	return module_defs[file - GEN_N_APP_FILES + 1].pseudo_file;
}

static const char *file_path(const struct gen *g, uint32_t file)
{
	return g->file_names[file];
}

/* ------------------------------------------------------- hostile names */

/* What --hostile puts in front of names: terminal control sequences (OSC
 * title, clear screen, C1 CSI, DEL, C0 controls) and invalid UTF-8 (lone
 * continuation, bytes that never occur, an overlong encoding), each chosen
 * so that every invalid byte is one replacement character whatever the
 * decoder's policy.  Every GEN_HOSTILE_VARIANTS-th name is instead a
 * GEN_HOSTILE_LONG-character name. */
static const char *const hostile_prefixes[] = {
	"\033]0;pwned\007", "\033[2J", "\302\23331m", "\177", "\377\376", "\200", "\300\257", "\r\b\033[1A",
};
#define GEN_N_HOSTILE_PREFIXES (sizeof hostile_prefixes / sizeof hostile_prefixes[0])
#define GEN_HOSTILE_VARIANTS (GEN_N_HOSTILE_PREFIXES + 1)
#define GEN_HOSTILE_LONG 10000

/* A heap copy of `base`, or with --hostile its variant `i`; NULL when out of
 * memory.  Variants keep `base` inside, so distinct names stay distinct. */
static char *name_variant(const struct gen *g, const char *base, uint32_t i)
{
	char *out = NULL;
	if (!g->opt.hostile)
		return strdup(base);
	uint32_t k = i % GEN_HOSTILE_VARIANTS;
	if (k < GEN_N_HOSTILE_PREFIXES)
		return asprintf(&out, "%s%s\033[0m", hostile_prefixes[k], base) < 0 ? NULL : out;
	size_t len = strlen(base);
	if (len >= GEN_HOSTILE_LONG)
		return strdup(base);
	out = malloc(GEN_HOSTILE_LONG + 1);
	if (out == NULL)
		return NULL;
	memcpy(out, base, len);
	for (size_t j = len; j < GEN_HOSTILE_LONG; j++)
		out[j] = (char)('a' + j % 26);
	out[GEN_HOSTILE_LONG] = '\0';
	return out;
}

/* The tables of names written to meta.db: modules, files, identifier kinds,
 * entry points and the title, hostile or not. */
static int build_names(struct gen *g)
{
	uint32_t v = 0;
	for (uint32_t i = 0; i < GEN_N_MODULES; i++)
		if ((g->module_paths[i] = name_variant(g, module_defs[i].path, v++)) == NULL)
			return -1;
	g->file_names = calloc(g->n_files, sizeof(char *));
	if (g->file_names == NULL)
		return -1;
	for (uint32_t i = 0; i < g->n_files; i++)
		if ((g->file_names[i] = name_variant(g, base_file_path(i), v++)) == NULL)
			return -1;
	for (size_t i = 0; i < sizeof id_names / sizeof id_names[0]; i++)
		if ((g->kind_names[i] = name_variant(g, id_names[i], v++)) == NULL)
			return -1;
	if ((g->entry_names[0] = name_variant(g, "main thread", v++)) == NULL ||
	    (g->entry_names[1] = name_variant(g, "application thread", v++)) == NULL)
		return -1;
	if ((g->title = name_variant(g, g->opt.title, 0)) == NULL)
		return -1;
	return 0;
}

static void hex_line(FILE *f, const char *what, const char *s)
{
	fprintf(f, "%s ", what);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		fprintf(f, "%02x", *p);
	fputc('\n', f);
}

/* --names FILE: "KIND HEX" per name written (function, file, module, kind,
 * entry, metric, title), so that tests know the exact bytes without
 * reading meta.db. */
static int write_names(const struct gen *g)
{
	FILE *f = fopen(g->opt.names, "w");
	if (f == NULL) {
		fprintf(stderr, "gen-v4db: %s: %s\n", g->opt.names, strerror(errno));
		return -1;
	}
	for (uint32_t i = 0; i < g->n_funcs; i++)
		hex_line(f, "function", g->funcs[i].name);
	for (uint32_t i = 0; i < g->n_files; i++)
		hex_line(f, "file", g->file_names[i]);
	for (uint32_t i = 0; i < GEN_N_MODULES; i++)
		hex_line(f, "module", g->module_paths[i]);
	for (size_t i = 0; i < sizeof id_names / sizeof id_names[0]; i++)
		hex_line(f, "kind", g->kind_names[i]);
	for (int i = 0; i < 2; i++)
		hex_line(f, "entry", g->entry_names[i]);
	for (uint32_t m = 0; m < g->n_metrics; m++)
		hex_line(f, "metric", g->metric_names[m]);
	hex_line(f, "title", g->title);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		fprintf(stderr, "gen-v4db: cannot write %s\n", g->opt.names);
		return -1;
	}
	return 0;
}

static int add_func(struct gen *g, char *name, uint8_t tier, uint8_t module, uint8_t app_file)
{
	struct func *f = &g->funcs[g->n_funcs];
	uint64_t h = hash3(g->opt.seed, g->n_funcs, GEN_SALT_FUNC);
	*f = (struct func){ .name = name, .tier = tier, .module = module };
	if (module == 0) {
		f->file = app_file;
		f->line = 20 + (uint32_t)(h % 1800);
		f->offset = 0x401000 + (uint64_t)g->n_funcs * 0x800 + (h >> 32) % 0x400 * 16;
	} else {
		f->file = (uint16_t)(GEN_N_APP_FILES + module - 1);
		f->line = 0;
		f->offset = 0x20000 + (h >> 20) % 0x100000 * 16;
	}
	g->n_tier[tier]++;
	g->n_funcs++;
	return 0;
}

static bool base_func_named(const char *name)
{
	for (size_t i = 0; i < GEN_N_FUNC_DEFS; i++)
		if (strcmp(func_defs[i].name, name) == 0)
			return true;
	return false;
}

/* Function names are unique: the base table, then generated names. */
static int build_funcs(struct gen *g)
{
	uint32_t extra = g->opt.contexts / 400;
	if (extra > 4000)
		extra = 4000;
	g->funcs = calloc(GEN_N_FUNC_DEFS + extra, sizeof *g->funcs);
	if (g->funcs == NULL)
		return -1;
	for (size_t i = 0; i < GEN_N_FUNC_DEFS; i++) {
		char *name = name_variant(g, func_defs[i].name, (uint32_t)i);
		if (name == NULL)
			return -1;
		add_func(g, name, func_defs[i].tier, func_defs[i].module, func_defs[i].file);
	}
	size_t n_ns = sizeof gen_namespaces / sizeof gen_namespaces[0];
	size_t n_v = sizeof gen_verbs / sizeof gen_verbs[0];
	size_t n_n = sizeof gen_nouns / sizeof gen_nouns[0];
	size_t combos = n_ns * n_v * n_n;
	for (uint32_t k = 0, made = 0; made < extra; k++) {
		size_t c = k % combos;
		size_t ns = c % n_ns, v = c / n_ns % n_v, n = c / n_ns / n_v;
		char *name = NULL;
		int r;
		if (k < combos)
			r = asprintf(&name, "%s::%s_%s", gen_namespaces[ns], gen_verbs[v], gen_nouns[n]);
		else
			r = asprintf(&name, "%s::%s_%s_%zu", gen_namespaces[ns], gen_verbs[v], gen_nouns[n],
				     (size_t)(k / combos));
		if (r < 0)
			return -1;
		if (base_func_named(name)) {
			free(name);
			continue;
		}
		if (g->opt.hostile) {
			char *h = name_variant(g, name, g->n_funcs);
			free(name);
			if (h == NULL)
				return -1;
			name = h;
		}
		add_func(g, name, made % 5 == 0 ? 1 : 2, 0, gen_namespace_files[ns]);
		made++;
	}
	for (int t = 0; t < GEN_TIERS; t++) {
		g->tier_funcs[t] = calloc(g->n_tier[t] ? g->n_tier[t] : 1, sizeof(uint32_t));
		if (g->tier_funcs[t] == NULL)
			return -1;
		g->n_tier[t] = 0;
	}
	for (uint32_t i = 0; i < g->n_funcs; i++) {
		uint8_t t = g->funcs[i].tier;
		g->tier_funcs[t][g->n_tier[t]++] = i;
	}
	g->n_files = (uint32_t)(GEN_N_APP_FILES + GEN_N_MODULES - 1);
	return 0;
}

static uint32_t pick_tier(const struct gen *g, struct rng *r, int tier)
{
	return g->tier_funcs[tier][rng_below(r, g->n_tier[tier])];
}

/* A tier-4 function in `module` if there is one, else any tier-4 function. */
static uint32_t pick_internal(const struct gen *g, struct rng *r, uint16_t module)
{
	uint32_t n = g->n_tier[4];
	uint32_t start = (uint32_t)rng_below(r, n);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t f = g->tier_funcs[4][(start + k) % n];
		if (g->funcs[f].module == module)
			return f;
	}
	return g->tier_funcs[4][start];
}

/* The function that called the function of the context enclosing `node`
 * (for recursion through a chain), or GEN_NONE. */
static uint32_t grand_caller(const struct gen *g, uint32_t node)
{
	uint32_t seen = 0;
	for (uint32_t i = node; i != GEN_ROOT && seen < 256; i = g->nodes[i].parent, seen++) {
		const struct node *n = &g->nodes[i];
		if (n->kind == GEN_KIND_FUNCTION) {
			for (uint32_t j = n->parent; j != GEN_ROOT && seen < 256; j = g->nodes[j].parent, seen++) {
				const struct node *p = &g->nodes[j];
				if (p->kind == GEN_KIND_FUNCTION && p->func != n->func)
					return p->func;
			}
			return GEN_NONE;
		}
	}
	return GEN_NONE;
}

static uint32_t pick_callee(const struct gen *g, struct rng *r, uint32_t node, uint32_t caller)
{
	const struct func *f = &g->funcs[caller];
	uint64_t x = rng_below(r, 100);
	if (f->tier == 1 || f->tier == 2) {
		if (x < 3)
			return caller;
		if (x < 8) {
			uint32_t gc = grand_caller(g, node);
			if (gc != GEN_NONE && g->funcs[gc].tier >= 1 && g->funcs[gc].tier <= 2)
				return gc;
		}
	}
	x = rng_below(r, 100);
	switch (f->tier) {
	case 0:
		return pick_tier(g, r, x < 80 ? 1 : 3);
	case 1:
		return pick_tier(g, r, x < 60 ? 2 : x < 75 ? 1 : 3);
	case 2:
		return pick_tier(g, r, x < 50 ? 2 : 3);
	default:
		return pick_internal(g, r, f->module);
	}
}

/* ----------------------------------------------------------------- tree */

static uint32_t add_node(struct gen *g, uint32_t parent, uint8_t kind, uint8_t relation, uint32_t func, uint32_t aux)
{
	if (g->n_nodes >= g->cap_nodes)
		return GEN_NONE;
	uint32_t i = g->n_nodes++;
	struct node *n = &g->nodes[i];
	*n = (struct node){ .parent = parent, .kind = kind, .relation = relation, .func = func, .aux = aux };
	if (parent != GEN_ROOT) {
		struct node *p = &g->nodes[parent];
		if (p->n_children == 0)
			p->first_child = i;
		p->n_children++;
		n->depth = p->depth == UINT16_MAX ? UINT16_MAX : (uint16_t)(p->depth + 1);
		n->entry = p->entry;
	}
	return i;
}

static uint32_t random_count(struct rng *r, uint32_t max)
{
	return 1 + (uint32_t)rng_below(r, max < 1 ? 1 : max);
}

static void expand(struct gen *g, uint32_t i)
{
	struct node n = g->nodes[i];
	if (n.depth + 1u > g->opt.depth)
		return;
	struct rng r = { .state = hash3(g->opt.seed, i, GEN_SALT_EXPAND) };
	uint32_t fan = g->opt.fanout;
	uint32_t k;
	switch (n.kind) {
	case GEN_KIND_ENTRY:
		add_node(g, i, GEN_KIND_FUNCTION, GEN_RELATION_CALL, n.func == 1 ? GEN_FUNC_MAIN : GEN_FUNC_WORKER, 0);
		break;
	case GEN_KIND_FUNCTION:
		if (g->funcs[n.func].module != 0) {
			k = random_count(&r, fan / 2);
			for (uint32_t c = 0; c < k; c++)
				add_node(g, i, GEN_KIND_INSTRUCTION, GEN_RELATION_LEXICAL, n.func,
					 16 + (uint32_t)rng_below(&r, 0x4000));
			break;
		}
		k = random_count(&r, fan);
		for (uint32_t c = 0; c < k; c++) {
			uint32_t line = g->funcs[n.func].line + 1 + (uint32_t)rng_below(&r, 200);
			add_node(g, i, rng_below(&r, 100) < 30 ? GEN_KIND_LOOP : GEN_KIND_LINE, GEN_RELATION_LEXICAL,
				 n.func, line);
		}
		break;
	case GEN_KIND_LOOP:
		k = random_count(&r, fan);
		for (uint32_t c = 0; c < k; c++)
			add_node(g, i, rng_below(&r, 100) < 20 ? GEN_KIND_LOOP : GEN_KIND_LINE, GEN_RELATION_LEXICAL,
				 n.func, n.aux + 1 + (uint32_t)rng_below(&r, 30));
		break;
	case GEN_KIND_LINE: {
		uint64_t x = rng_below(&r, 100);
		if (x < 20)
			break;
		if (x < 50) {
			k = random_count(&r, 2);
			for (uint32_t c = 0; c < k; c++)
				add_node(g, i, GEN_KIND_INSTRUCTION, GEN_RELATION_LEXICAL, n.func,
					 16 + (uint32_t)rng_below(&r, 0x4000));
		} else if (x < 88) {
			k = random_count(&r, fan / 2);
			for (uint32_t c = 0; c < k; c++)
				add_node(g, i, GEN_KIND_FUNCTION, GEN_RELATION_CALL, pick_callee(g, &r, i, n.func), 0);
		} else {
			add_node(g, i, GEN_KIND_FUNCTION, GEN_RELATION_INLINED, pick_tier(g, &r, 2), 0);
		}
		break;
	}
	case GEN_KIND_INSTRUCTION: {
		uint64_t x = rng_below(&r, 100);
		bool lib = g->funcs[n.func].module != 0;
		if (x < (lib ? 30u : 10u)) {
			if (lib && g->funcs[n.func].tier == 4 && rng_below(&r, 100) < 60)
				break;
			add_node(g, i, GEN_KIND_FUNCTION, GEN_RELATION_CALL, pick_callee(g, &r, i, n.func), 0);
		}
		break;
	}
	default:
		break;
	}
}

/* --depth-chain: under the main thread entry, main, then alternately a
 * call-site line and a called function (cycling through the application's
 * functions), until the tree has opt.chain contexts in all; the other
 * entry, if any, gets only its worker function. */
static int build_chain(struct gen *g)
{
	uint32_t at = 0, func = GEN_FUNC_MAIN;
	if (g->n_entries > 1 && g->n_nodes < g->cap_nodes)
		add_node(g, 1, GEN_KIND_FUNCTION, GEN_RELATION_CALL, GEN_FUNC_WORKER, 0);
	if (g->n_nodes < g->cap_nodes)
		at = add_node(g, 0, GEN_KIND_FUNCTION, GEN_RELATION_CALL, GEN_FUNC_MAIN, 0);
	for (uint32_t k = 1; g->n_nodes < g->cap_nodes; k++) {
		if (k % 2 == 1) {
			at = add_node(g, at, GEN_KIND_LINE, GEN_RELATION_LEXICAL, func, g->funcs[func].line + 1 + k % 50);
		} else {
			func = g->tier_funcs[1][(k / 2) % g->n_tier[1]];
			at = add_node(g, at, GEN_KIND_FUNCTION, GEN_RELATION_CALL, func, 0);
		}
	}
	/* depth saturates at 65535: the chain is as deep as it is long */
	g->max_stack = g->n_nodes + 3;
	return 0;
}

static int build_tree(struct gen *g)
{
	uint32_t target = g->opt.contexts;
	/* expansion may overshoot the target by at most one node's children */
	g->cap_nodes = g->opt.chain > 0 ? g->opt.chain : target;
	g->nodes = calloc(g->cap_nodes, sizeof *g->nodes);
	if (g->nodes == NULL)
		return -1;
	uint32_t e = add_node(g, GEN_ROOT, GEN_KIND_ENTRY, GEN_RELATION_LEXICAL, 1, 0);
	if (e == GEN_NONE)
		return -1;
	g->nodes[e].entry = 0;
	if (g->opt.threads > 1 && g->cap_nodes > 1) {
		e = add_node(g, GEN_ROOT, GEN_KIND_ENTRY, GEN_RELATION_LEXICAL, 2, 0);
		if (e == GEN_NONE)
			return -1;
		g->nodes[e].entry = 1;
	}
	g->n_entries = g->n_nodes;
	if (g->opt.chain > 0)
		return build_chain(g);
	/* Breadth-first expansion (children of a node are contiguous).  When a
	 * random tree dies out before the target, a few leaf lines and
	 * instructions become call sites and the expansion goes on. */
	uint32_t i = 0, revive = g->n_entries;
	while (g->n_nodes < g->cap_nodes) {
		for (; i < g->n_nodes && g->n_nodes < g->cap_nodes; i++)
			expand(g, i);
		uint32_t before = g->n_nodes, revived = 0;
		for (; revive < before && revived < 16 && g->n_nodes < g->cap_nodes; revive++) {
			const struct node *n = &g->nodes[revive];
			if (n->n_children != 0 || n->depth + 1u > g->opt.depth ||
			    (n->kind != GEN_KIND_LINE && n->kind != GEN_KIND_INSTRUCTION))
				continue;
			struct rng r = { .state = hash3(g->opt.seed, revive, GEN_SALT_FUNC) };
			uint32_t callee = pick_callee(g, &r, revive, n->func);
			add_node(g, revive, GEN_KIND_FUNCTION, GEN_RELATION_CALL, callee, 0);
			revived++;
		}
		if (revived == 0)
			break;
	}
	uint32_t max_depth = 0;
	for (uint32_t k = 0; k < g->n_nodes; k++)
		if (g->nodes[k].depth > max_depth)
			max_depth = g->nodes[k].depth;
	g->max_stack = max_depth + 3;
	return 0;
}

/* Post-order walk; children are visited in a rotated order so that context
 * ids (assigned in visiting order) follow no simple tree order. */
static int walk_init(const struct gen *g, struct walk *w)
{
	w->stack = calloc(g->max_stack, sizeof *w->stack);
	if (w->stack == NULL)
		return -1;
	w->stack[0] = (struct walk_frame){ .node = GEN_ROOT };
	w->sp = 1;
	return 0;
}

enum walk_event { WALK_ENTER, WALK_LEAVE, WALK_DONE };

static enum walk_event walk_step(const struct gen *g, struct walk *w, uint32_t *node, uint32_t *level)
{
	if (w->sp == 0)
		return WALK_DONE;
	struct walk_frame *f = &w->stack[w->sp - 1];
	uint32_t n_children = f->node == GEN_ROOT ? g->n_entries : g->nodes[f->node].n_children;
	if (f->next < n_children) {
		uint32_t first = f->node == GEN_ROOT ? 0 : g->nodes[f->node].first_child;
		uint32_t c = first + (f->next + f->rot) % n_children;
		f->next++;
		uint32_t nc = g->nodes[c].n_children;
		w->stack[w->sp] = (struct walk_frame){
			.node = c,
			.rot = nc > 1 ? (uint32_t)(hash3(g->opt.seed, c, GEN_SALT_ROTATE) % nc) : 0,
		};
		*level = w->sp++;
		*node = c;
		return WALK_ENTER;
	}
	*node = f->node;
	*level = --w->sp;
	return WALK_LEAVE;
}

static int assign_ids(struct gen *g)
{
	struct walk w = { 0 };
	if (walk_init(g, &w) < 0)
		return -1;
	uint32_t next = 1, node, level;
	enum walk_event ev;
	while ((ev = walk_step(g, &w, &node, &level)) != WALK_DONE) {
		if (ev != WALK_LEAVE || node == GEN_ROOT)
			continue;
		g->nodes[node].ctx_id = next;
		g->max_id = next;
		uint64_t h = hash3(g->opt.seed, node, GEN_SALT_GAP);
		next += 1 + (h % 16 == 0 ? (uint32_t)(h >> 8) % 3 + 1 : 0);
	}
	free(w.stack);
	return 0;
}

/* --------------------------------------------------------------- values */

static bool thread_in_entry(const struct gen *g, uint32_t t, uint8_t entry)
{
	bool main_thread = t % g->opt.threads == 0;
	return entry == 0 ? main_thread : !main_thread;
}

/* Raw (point) values of node `idx`, out[thread * M + metric]. */
static void node_raw(const struct gen *g, uint32_t idx, double *out)
{
	uint32_t T = g->n_threads, M = g->n_metrics;
	memset(out, 0, sizeof(double) * T * M);
	const struct node *n = &g->nodes[idx];
	if (n->kind == GEN_KIND_ENTRY)
		return;
	uint64_t seed = g->opt.seed;
	bool leafish = n->n_children == 0 ||
		       (n->kind == GEN_KIND_LINE && hash3(seed, idx, GEN_SALT_LEAFISH) % 8 == 0);
	if (!leafish)
		return;
	uint64_t h = hash3(seed, idx, GEN_SALT_HOT);
	if (h % 100 >= 65)
		return;
	double weight = pow(unit_of(h) + 1e-3, -1.1);
	for (uint32_t t = 0; t < T; t++) {
		if (!thread_in_entry(g, t, n->entry))
			continue;
		uint64_t ht = hash3(seed ^ ((uint64_t)t << 40), idx, GEN_SALT_THREAD);
		if (ht % 100 >= 80)
			continue;
		double f = 0.6 + 0.8 * unit_of(ht);
		double samples = floor(weight * f * (1.0 + 0.05 * (double)(t % 7))) + 1.0;
		double cycles = 0.0;
		for (uint32_t m = 0; m < M; m++) {
			uint64_t hm = hash3(ht, m, GEN_SALT_METRIC);
			double v;
			if (m == 0) {
				v = samples * 0.001;
			} else if (m == 1) {
				cycles = samples * 2500000.0 + (double)(hm % 100000);
				v = cycles;
			} else if (m == 2 && M > 1) {
				v = floor(cycles * (0.4 + (double)(hm % 260) / 100.0));
			} else if (hash3(seed, idx * 1000003ULL + m, GEN_SALT_SPARSE) % 100 < 30) {
				v = 0.0;
			} else {
				v = samples * (double)(1 + hm % 5000);
			}
			out[t * M + m] = v * g->opt.scale;
		}
	}
}

static uint16_t prop_id(uint32_t m, enum gen_scope s)
{
	return (uint16_t)(m * GEN_N_SCOPES + s);
}

static uint16_t stat_id(const struct gen *g, uint32_t m, enum gen_stat k)
{
	return (uint16_t)(GEN_N_SCOPES * g->n_metrics + m * GEN_N_STATS + k);
}

/* Summary statistics of one context: stats[m * GEN_N_STATS + k]. */
static void compute_stats(const struct gen *g, double *const vals[GEN_N_SCOPES], double *stats)
{
	uint32_t T = g->n_threads, M = g->n_metrics;
	for (uint32_t m = 0; m < M; m++) {
		double *s = &stats[m * GEN_N_STATS];
		memset(s, 0, sizeof(double) * GEN_N_STATS);
		for (uint32_t t = 0; t < T; t++) {
			double p = vals[GEN_SCOPE_POINT][t * M + m];
			double fn = vals[GEN_SCOPE_FUNCTION][t * M + m];
			double ex = vals[GEN_SCOPE_EXECUTION][t * M + m];
			s[GEN_STAT_POINT_SUM] += p;
			s[GEN_STAT_FUNCTION_SUM] += fn;
			if (ex != 0.0) {
				s[GEN_STAT_EXECUTION_SUM] += ex;
				if (s[GEN_STAT_EXECUTION_COUNT] == 0.0 || ex > s[GEN_STAT_EXECUTION_MAX])
					s[GEN_STAT_EXECUTION_MAX] = ex;
				s[GEN_STAT_EXECUTION_COUNT] += 1.0;
			}
		}
	}
}

/* --short-summary: the summary profile's execution Sum written as 3/4 of
 * the sum over threads at every context below the root, as hpcprof's
 * lex_aware values at outer loops are smaller than the threads' sum (the
 * per-thread values in cct.db are unchanged; the answers hold what the
 * summary profile holds). */
static void short_summary(const struct gen *g, double *stats)
{
	for (uint32_t m = 0; m < g->n_metrics; m++)
		stats[m * GEN_N_STATS + GEN_STAT_EXECUTION_SUM] *= 0.75;
}

/* ------------------------------------------------------------- meta.db */

static uint32_t ctx_size(uint8_t kind)
{
	switch (kind) {
	case GEN_KIND_FUNCTION:
		return 0x20 + 8;
	case GEN_KIND_LOOP:
		return 0x20 + 32;
	case GEN_KIND_LINE:
	case GEN_KIND_INSTRUCTION:
		return 0x20 + 16;
	default:
		return 0x20;
	}
}

static uint64_t node_offset(const struct gen *g, uint32_t idx)
{
	const struct node *n = &g->nodes[idx];
	const struct func *f = &g->funcs[n->func];
	if (n->kind == GEN_KIND_INSTRUCTION)
		return f->offset + n->aux;
	return f->offset + 16 + hash3(g->opt.seed, idx, GEN_SALT_OFFSET) % 0x2000;
}

struct meta_layout {
	uint64_t sec[16]; /* {size, pointer} x 8 */
	uint64_t strings_base;
	uint64_t modules_array;
	uint64_t files_array;
	uint64_t functions_array;
	uint64_t ctx_base;
};

struct strtab {
	struct buf b;
	uint32_t entry[2];
	uint32_t *module;
	uint32_t *file;
	uint32_t *func;
};

static uint32_t strtab_add(struct strtab *s, const char *str)
{
	uint32_t at = (uint32_t)s->b.len;
	buf_str(&s->b, str);
	return at;
}

static char *description_text(const struct gen *g)
{
	char *d = NULL;
	if (asprintf(&d,
		     "# Synthetic database\n\nWritten by callscope's `gen-v4db` (seed %" PRIu64
		     ", %u contexts, %u metrics, %u ranks x %u threads).  Not a real measurement.\n",
		     g->opt.seed, g->n_nodes, g->n_metrics, g->opt.ranks, g->opt.threads) < 0)
		return NULL;
	return d;
}

static int write_meta(struct gen *g)
{
	struct buf general = { 0 }, idnames = { 0 }, metrics = { 0 }, modules = { 0 }, files = { 0 }, funcs = { 0 };
	struct strtab st = { 0 };
	struct meta_layout L = { 0 };
	struct bw w = { .fd = -1 };
	char *path = NULL, *desc = NULL;
	uint32_t *off8 = NULL;
	int fd = -1, rc = -1;
	uint32_t M = g->n_metrics;

	desc = description_text(g);
	st.module = calloc(GEN_N_MODULES, sizeof(uint32_t));
	st.file = calloc(g->n_files, sizeof(uint32_t));
	st.func = calloc(g->n_funcs, sizeof(uint32_t));
	if (desc == NULL || st.module == NULL || st.file == NULL || st.func == NULL)
		goto out;

	/* Common string table: entry names, module and file paths, function names. */
	st.entry[0] = strtab_add(&st, g->entry_names[0]);
	st.entry[1] = strtab_add(&st, g->entry_names[1]);
	for (uint32_t i = 0; i < GEN_N_MODULES; i++)
		st.module[i] = strtab_add(&st, g->module_paths[i]);
	for (uint32_t i = 0; i < g->n_files; i++)
		st.file[i] = strtab_add(&st, file_path(g, i));
	for (uint32_t i = 0; i < g->n_funcs; i++)
		st.func[i] = strtab_add(&st, g->funcs[i].name);

	/* General Properties: title and description inside the section. */
	uint64_t base = 0x90;
	const char *title = g->title;
	buf_uint(&general, base + 16, 8);
	buf_uint(&general, base + 16 + strlen(title) + 1, 8);
	buf_str(&general, title);
	buf_str(&general, desc);
	L.sec[0] = general.len;
	L.sec[1] = base;
	base = align_up(base + general.len, 8);

	/* Identifier Names. */
	size_t n_kinds = sizeof id_names / sizeof id_names[0];
	buf_uint(&idnames, base + 16, 8);
	buf_uint(&idnames, n_kinds, 1);
	buf_align(&idnames, 8);
	uint64_t name_at = base + 16 + 8 * n_kinds;
	for (size_t i = 0; i < n_kinds; i++) {
		buf_uint(&idnames, name_at, 8);
		name_at += strlen(g->kind_names[i]) + 1;
	}
	for (size_t i = 0; i < n_kinds; i++)
		buf_str(&idnames, g->kind_names[i]);
	L.sec[2] = idnames.len;
	L.sec[3] = base;
	base = align_up(base + idnames.len, 8);

	/* Performance Metrics: header, {PS}, {MD}, {PSI}, {SS}, then strings. */
	{
		uint64_t p_scopes = base + 0x20;
		uint64_t p_md = p_scopes + GEN_N_SCOPES * 16;
		uint64_t p_psi = p_md + (uint64_t)M * 32;
		uint64_t p_ss = p_psi + (uint64_t)M * GEN_N_SCOPES * 16;
		uint64_t p_str = p_ss + (uint64_t)M * GEN_N_STATS * 24;
		uint64_t s_scope[GEN_N_SCOPES], s_dollar, s_one, s_metric0;
		uint64_t at = p_str;
		for (int s = 0; s < GEN_N_SCOPES; s++) {
			s_scope[s] = at;
			at += strlen(scope_names[s]) + 1;
		}
		s_dollar = at;
		at += 3;
		s_one = at;
		at += 2;
		s_metric0 = at;
		buf_uint(&metrics, p_md, 8);
		buf_uint(&metrics, M, 4);
		buf_uint(&metrics, 32, 1);
		buf_uint(&metrics, 16, 1);
		buf_uint(&metrics, 24, 1);
		buf_uint(&metrics, 0, 1);
		buf_uint(&metrics, p_scopes, 8);
		buf_uint(&metrics, GEN_N_SCOPES, 2);
		buf_uint(&metrics, 16, 1);
		buf_align(&metrics, 8);
		buf_zero(&metrics, 0x20 - metrics.len);
		for (int s = 0; s < GEN_N_SCOPES; s++) {
			buf_uint(&metrics, s_scope[s], 8);
			buf_uint(&metrics, scope_types[s], 1);
			buf_uint(&metrics, scope_prop_index[s], 1);
			buf_zero(&metrics, 6);
		}
		at = s_metric0;
		for (uint32_t m = 0; m < M; m++) {
			buf_uint(&metrics, at, 8);
			buf_uint(&metrics, p_psi + (uint64_t)m * GEN_N_SCOPES * 16, 8);
			buf_uint(&metrics, p_ss + (uint64_t)m * GEN_N_STATS * 24, 8);
			buf_uint(&metrics, GEN_N_SCOPES, 2);
			buf_uint(&metrics, GEN_N_STATS, 2);
			buf_zero(&metrics, 4);
			at += strlen(g->metric_names[m]) + 1;
		}
		for (uint32_t m = 0; m < M; m++)
			for (int s = 0; s < GEN_N_SCOPES; s++) {
				buf_uint(&metrics, p_scopes + (uint64_t)s * 16, 8);
				buf_uint(&metrics, prop_id(m, (enum gen_scope)s), 2);
				buf_zero(&metrics, 6);
			}
		for (uint32_t m = 0; m < M; m++)
			for (int k = 0; k < GEN_N_STATS; k++) {
				const struct stat_def *sd = &stat_defs[k];
				buf_uint(&metrics, p_scopes + (uint64_t)sd->scope * 16, 8);
				buf_uint(&metrics, strcmp(sd->formula, "1") == 0 ? s_one : s_dollar, 8);
				buf_uint(&metrics, sd->combine, 1);
				buf_zero(&metrics, 1);
				buf_uint(&metrics, stat_id(g, m, (enum gen_stat)k), 2);
				buf_zero(&metrics, 4);
			}
		for (int s = 0; s < GEN_N_SCOPES; s++)
			buf_str(&metrics, scope_names[s]);
		buf_str(&metrics, "$$");
		buf_str(&metrics, "1");
		for (uint32_t m = 0; m < M; m++)
			buf_str(&metrics, g->metric_names[m]);
	}
	L.sec[4] = metrics.len;
	L.sec[5] = base;
	base = align_up(base + metrics.len, 8);

	/* Strings (section index 4 in the header is Context; Strings is 5th). */
	L.strings_base = base;
	L.sec[8] = st.b.len;
	L.sec[9] = base;
	base = align_up(base + st.b.len, 8);

	/* Load Modules. */
	L.modules_array = base + 16;
	buf_uint(&modules, L.modules_array, 8);
	buf_uint(&modules, GEN_N_MODULES, 4);
	buf_uint(&modules, 16, 2);
	buf_zero(&modules, 2);
	for (uint32_t i = 0; i < GEN_N_MODULES; i++) {
		buf_uint(&modules, 0, 8);
		buf_uint(&modules, L.strings_base + st.module[i], 8);
	}
	L.sec[10] = modules.len;
	L.sec[11] = base;
	base = align_up(base + modules.len, 8);

	/* Source Files. */
	L.files_array = base + 16;
	buf_uint(&files, L.files_array, 8);
	buf_uint(&files, g->n_files, 4);
	buf_uint(&files, 16, 2);
	buf_zero(&files, 2);
	for (uint32_t i = 0; i < g->n_files; i++) {
		buf_uint(&files, 0, 8);
		buf_uint(&files, L.strings_base + st.file[i], 8);
	}
	L.sec[12] = files.len;
	L.sec[13] = base;
	base = align_up(base + files.len, 8);

	/* Functions. */
	L.functions_array = base + 16;
	buf_uint(&funcs, L.functions_array, 8);
	buf_uint(&funcs, g->n_funcs, 4);
	buf_uint(&funcs, 40, 2);
	buf_zero(&funcs, 2);
	for (uint32_t i = 0; i < g->n_funcs; i++) {
		const struct func *f = &g->funcs[i];
		buf_uint(&funcs, L.strings_base + st.func[i], 8);
		buf_uint(&funcs, L.modules_array + 16ULL * f->module, 8);
		buf_uint(&funcs, f->offset, 8);
		buf_uint(&funcs, L.files_array + 16ULL * f->file, 8);
		buf_uint(&funcs, f->line, 4);
		buf_uint(&funcs, 0, 4);
	}
	L.sec[14] = funcs.len;
	L.sec[15] = base;
	base = align_up(base + funcs.len, 8);

	if (general.failed || idnames.failed || metrics.failed || st.b.failed || modules.failed || files.failed ||
	    funcs.failed)
		goto out;

	/* Context Tree: header, {Entry} array, then every {Ctx} in node order
	 * (children of one parent are contiguous node indexes). */
	L.ctx_base = base;
	uint64_t ctx_first = base + 16 + 32ULL * g->n_entries;
	uint64_t ctx_end = ctx_first;
	for (uint32_t i = g->n_entries; i < g->n_nodes; i++)
		ctx_end += ctx_size(g->nodes[i].kind);
	L.sec[6] = ctx_end - base;
	L.sec[7] = base;

	fd = open_out(g, "meta.db", &path);
	if (fd < 0)
		goto out;
	unsigned char header[0x90] = { 0 };
	file_header(header, "meta", L.sec, 8);
	int e = write_at(fd, 0, header, sizeof header);
	if (e == 0)
		e = write_at(fd, L.sec[1], general.data, general.len);
	if (e == 0)
		e = write_at(fd, L.sec[3], idnames.data, idnames.len);
	if (e == 0)
		e = write_at(fd, L.sec[5], metrics.data, metrics.len);
	if (e == 0)
		e = write_at(fd, L.sec[9], st.b.data, st.b.len);
	if (e == 0)
		e = write_at(fd, L.sec[11], modules.data, modules.len);
	if (e == 0)
		e = write_at(fd, L.sec[13], files.data, files.len);
	if (e == 0)
		e = write_at(fd, L.sec[15], funcs.data, funcs.len);
	if (e != 0) {
		fprintf(stderr, "gen-v4db: %s: %s\n", path, strerror(e));
		goto out;
	}

	bw_init(&w, fd, base, 1 << 20);
	bw_uint(&w, base + 16, 8);
	bw_uint(&w, g->n_entries, 2);
	bw_uint(&w, 32, 1);
	bw_align(&w, 8);
	/* offset (in 8-byte units, from ctx_first) of every {Ctx} in node
	 * order and of the end: the child blocks of revived nodes come after
	 * those of later nodes, so no single cursor finds them all */
	uint32_t n_ctx = g->n_nodes - g->n_entries;
	off8 = malloc(((size_t)n_ctx + 1) * sizeof(*off8));
	if (off8 == NULL)
		goto out;
	off8[0] = 0;
	for (uint32_t k = 0; k < n_ctx; k++)
		off8[k + 1] = off8[k] + ctx_size(g->nodes[g->n_entries + k].kind) / 8;
	for (uint32_t i = 0; i < g->n_nodes; i++) {
		const struct node *n = &g->nodes[i];
		uint64_t p_children = 0, sz_children = 0;
		/* --cycle: the last context (a leaf: children follow their
		 * parents) gets the first context of entry 0 as its child,
		 * an ancestor of it when there is one entry point */
		if (g->opt.cycle && i + 1 == g->n_nodes && g->n_nodes > g->n_entries) {
			p_children = ctx_first;
			sz_children = ctx_size(g->nodes[g->n_entries].kind);
		}
		if (n->n_children > 0) {
			uint32_t first = n->first_child - g->n_entries;
			p_children = ctx_first + 8ULL * off8[first];
			sz_children = 8ULL * (off8[first + n->n_children] - off8[first]);
		}
		bw_uint(&w, sz_children, 8);
		bw_uint(&w, p_children, 8);
		bw_uint(&w, n->ctx_id, 4);
		if (n->kind == GEN_KIND_ENTRY) {
			bw_uint(&w, n->func, 2);
			bw_uint(&w, 0, 2);
			bw_uint(&w, L.strings_base + st.entry[n->func - 1], 8);
			continue;
		}
		uint8_t flags = 0, lexical = 0, words = 0;
		switch (n->kind) {
		case GEN_KIND_FUNCTION:
			flags = 1, lexical = 0, words = 1;
			break;
		case GEN_KIND_LOOP:
			flags = 6, lexical = 1, words = 4;
			break;
		case GEN_KIND_LINE:
			flags = 2, lexical = 2, words = 2;
			break;
		default:
			flags = 4, lexical = 3, words = 2;
			break;
		}
		const struct func *f = &g->funcs[n->func];
		bw_uint(&w, flags, 1);
		bw_uint(&w, n->relation, 1);
		bw_uint(&w, lexical, 1);
		bw_uint(&w, words, 1);
		/* function-scope bit (propagationIndex 0): lexical relations only,
		 * as hpcprof writes it, so "function" is exclusive of calls */
		bw_uint(&w, n->relation == GEN_RELATION_LEXICAL ? 1 : 0, 2);
		bw_uint(&w, 0, 6);
		if (flags & 1)
			bw_uint(&w, L.functions_array + 40ULL * n->func, 8);
		if (flags & 2) {
			bw_uint(&w, L.files_array + 16ULL * f->file, 8);
			bw_uint(&w, n->aux, 4);
			bw_uint(&w, 0, 4);
		}
		if (flags & 4) {
			bw_uint(&w, L.modules_array + 16ULL * f->module, 8);
			bw_uint(&w, node_offset(g, i), 8);
		}
	}
	if (bw_pos(&w) != ctx_end)
		fprintf(stderr, "gen-v4db: internal error: context section size mismatch\n");
	e = bw_finish(&w);
	if (e == 0)
		e = write_footer(fd, ctx_end, "_meta.db");
	if (e != 0) {
		fprintf(stderr, "gen-v4db: %s: %s\n", path, strerror(e));
		goto out;
	}
	rc = 0;
out:
	if (w.data != NULL)
		bw_finish(&w);
	if (fd >= 0 && close(fd) != 0)
		rc = -1;
	free(path);
	free(desc);
	free(general.data);
	free(idnames.data);
	free(metrics.data);
	free(modules.data);
	free(files.data);
	free(funcs.data);
	free(st.b.data);
	free(st.module);
	free(st.file);
	free(st.func);
	free(off8);
	return rc;
}

/* -------------------------------------------------------------- answers */

static const char *lexical_name(uint8_t kind)
{
	switch (kind) {
	case GEN_KIND_ENTRY:
		return "entry";
	case GEN_KIND_FUNCTION:
		return "function";
	case GEN_KIND_LOOP:
		return "loop";
	case GEN_KIND_LINE:
		return "line";
	default:
		return "instruction";
	}
}

static const char *relation_name(uint8_t relation)
{
	switch (relation) {
	case GEN_RELATION_CALL:
		return "call";
	case GEN_RELATION_INLINED:
		return "inlined_call";
	default:
		return "lexical";
	}
}

static json_t *stats_object(const struct gen *g, const double *stats)
{
	json_t *o = json_object();
	for (uint32_t m = 0; o != NULL && m < g->n_metrics; m++)
		for (int k = 0; k < GEN_N_STATS; k++) {
			double v = stats[m * GEN_N_STATS + k];
			if (v == 0.0)
				continue;
			char *key = NULL;
			if (asprintf(&key, "%s|%s", g->metric_names[m], stat_defs[k].key) < 0)
				continue;
			json_object_set_new(o, key, json_real(v));
			free(key);
		}
	return o;
}

/* Writes `"<id>": {...}` for one context into the streamed answers file. */
static void answer_context(struct gen *g, uint32_t idx, const double *stats)
{
	const struct node *n = &g->nodes[idx];
	json_t *o = json_object();
	if (o == NULL)
		return;
	uint32_t parent = n->parent == GEN_ROOT ? 0 : g->nodes[n->parent].ctx_id;
	json_object_set_new(o, "parent", json_integer(parent));
	json_object_set_new(o, "depth", json_integer(n->depth));
	json_object_set_new(o, "lexical", json_string(lexical_name(n->kind)));
	json_object_set_new(o, "relation", n->kind == GEN_KIND_ENTRY ? json_null() : json_string(relation_name(n->relation)));
	const struct func *f = &g->funcs[n->func];
	char *name = NULL;
	switch (n->kind) {
	case GEN_KIND_ENTRY:
		name = strdup(n->func == 1 ? "main thread" : "application thread");
		break;
	case GEN_KIND_FUNCTION:
		name = strdup(f->name);
		json_object_set_new(o, "function", json_string(f->name));
		break;
	case GEN_KIND_LOOP:
	case GEN_KIND_LINE:
		if (asprintf(&name, "%s:%" PRIu32, file_path(g, f->file), n->aux) < 0)
			name = NULL;
		break;
	default:
		if (asprintf(&name, "%s@0x%" PRIx64, g->module_paths[f->module], node_offset(g, idx)) < 0)
			name = NULL;
		break;
	}
	json_object_set_new(o, "name", name ? json_string(name) : json_null());
	free(name);
	if (n->kind != GEN_KIND_ENTRY) {
		bool srcloc = n->kind == GEN_KIND_LOOP || n->kind == GEN_KIND_LINE;
		bool point = n->kind == GEN_KIND_LOOP || n->kind == GEN_KIND_INSTRUCTION;
		json_object_set_new(o, "file", srcloc ? json_string(file_path(g, f->file)) : json_null());
		json_object_set_new(o, "line", srcloc ? json_integer(n->aux) : json_null());
		json_object_set_new(o, "module", point ? json_string(module_defs[f->module].path) : json_null());
		if (point)
			json_object_set_new(o, "offset", json_integer((json_int_t)node_offset(g, idx)));
	}
	json_object_set_new(o, "summary", stats_object(g, stats));
	char *text = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	if (text != NULL)
		fprintf(g->answers, "%s\n\"%" PRIu32 "\":%s", g->answers_first ? "" : ",", n->ctx_id, text);
	g->answers_first = false;
	free(text);
	json_decref(o);
}

static json_t *hot_path(const struct gen *g, double global, double threshold)
{
	json_t *path = json_array();
	uint32_t first = 0, count = g->n_entries;
	double current = global;
	for (uint32_t guard = 0; path != NULL && count > 0 && guard < g->n_nodes; guard++) {
		uint32_t best = GEN_NONE;
		for (uint32_t c = first; c < first + count; c++)
			if (best == GEN_NONE || g->hot[c] > g->hot[best] ||
			    (g->hot[c] == g->hot[best] && g->nodes[c].ctx_id < g->nodes[best].ctx_id))
				best = c;
		if (g->hot[best] < threshold * current)
			break;
		json_array_append_new(path, json_integer(g->nodes[best].ctx_id));
		current = g->hot[best];
		first = g->nodes[best].first_child;
		count = g->nodes[best].n_children;
	}
	return path;
}

static int cmp_func_excl(const void *a, const void *b, void *arg)
{
	const struct gen *g = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (g->func_excl[x] != g->func_excl[y])
		return g->func_excl[x] > g->func_excl[y] ? -1 : 1;
	return strcmp(g->funcs[x].name, g->funcs[y].name);
}

static json_t *flat_functions(const struct gen *g)
{
	json_t *list = json_array();
	uint32_t *order = calloc(g->n_funcs, sizeof *order);
	if (list == NULL || order == NULL) {
		free(order);
		return list;
	}
	for (uint32_t i = 0; i < g->n_funcs; i++)
		order[i] = i;
	qsort_r(order, g->n_funcs, sizeof *order, cmp_func_excl, (void *)(uintptr_t)g);
	for (uint32_t i = 0; i < g->n_funcs && i < 10; i++) {
		if (g->func_excl[order[i]] == 0.0)
			break;
		json_t *e = json_object();
		json_object_set_new(e, "name", json_string(g->funcs[order[i]].name));
		json_object_set_new(e, "exclusive", json_real(g->func_excl[order[i]]));
		json_array_append_new(list, e);
	}
	free(order);
	return list;
}

static int finish_answers(struct gen *g)
{
	json_t *rest = json_object(), *metrics = json_array();
	if (rest == NULL || metrics == NULL)
		return -1;
	double global = g->global_stats[GEN_STAT_EXECUTION_SUM];
	json_object_set_new(rest, "title", json_string(g->opt.title));
	for (uint32_t m = 0; m < g->n_metrics; m++)
		json_array_append_new(metrics, json_string(g->metric_names[m]));
	json_object_set_new(rest, "metrics", metrics);
	json_object_set_new(rest, "profiles", json_integer(g->n_threads + 1));
	json_object_set_new(rest, "global", stats_object(g, g->global_stats));
	json_object_set_new(rest, "hotpath", hot_path(g, global, 0.5));
	json_object_set_new(rest, "hotpath0", hot_path(g, global, 0.0));
	json_object_set_new(rest, "flat_functions", flat_functions(g));
	json_object_set_new(rest, "max_ctx_id", json_integer(g->max_id));
	json_object_set_new(rest, "seed", json_integer((json_int_t)g->opt.seed));
	json_object_set_new(rest, "probe_rule",
			    json_string("ctx of the last sample whose timestamp <= t (index -1 and ctx 0 before the first)"));
	if (g->opt.trace && g->probes != NULL) {
		json_t *trace = json_object();
		json_object_set_new(trace, "lines", json_integer(g->trace_lines));
		json_object_set_new(trace, "elements", json_integer((json_int_t)g->trace_elements));
		/* null without samples: there is no time range */
		json_object_set_new(trace, "min", g->trace_elements ? json_integer((json_int_t)g->trace_min) : json_null());
		json_object_set_new(trace, "max", g->trace_elements ? json_integer((json_int_t)g->trace_max) : json_null());
		json_object_set_new(trace, "probes", json_incref(g->probes));
		json_object_set_new(rest, "trace", trace);
	}
	char *text = json_dumps(rest, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	json_decref(rest);
	if (text == NULL)
		return -1;
	fprintf(g->answers, "\n},\n%s\n", text + 1);
	free(text);
	return 0;
}

/* ------------------------------------------------------- values passes */

struct cct_writer {
	int fd;
	struct bw ci;   /* {CI} array, written in ctx id order */
	struct bw data; /* value blocks */
	uint32_t next_id;
	uint16_t *idx_metric;
	uint64_t *idx_start;
};

static void cct_empty_until(struct cct_writer *c, uint32_t id)
{
	while (c->next_id < id) {
		uint64_t at = bw_pos(&c->data);
		bw_uint(&c->ci, 0, 8);
		bw_uint(&c->ci, at, 8);
		bw_uint(&c->ci, 0, 8);
		bw_uint(&c->ci, at, 8);
		c->next_id++;
	}
}

/* Writes one context's block; returns the {CI} bytes (written by caller). */
static void cct_block(const struct gen *g, struct cct_writer *c, double *const vals[GEN_N_SCOPES], unsigned char ci[32])
{
	uint32_t T = g->n_threads, M = g->n_metrics;
	bw_align(&c->data, 4);
	uint64_t p_values = bw_pos(&c->data), n_values = 0;
	uint16_t n_metrics = 0;
	for (uint32_t m = 0; m < M; m++)
		for (int s = 0; s < GEN_N_SCOPES; s++) {
			uint64_t start = n_values;
			for (uint32_t t = 0; t < T; t++) {
				double v = vals[s][t * M + m];
				if (v == 0.0)
					continue;
				bw_uint(&c->data, t + 1, 4);
				bw_f64(&c->data, v);
				n_values++;
			}
			if (n_values > start) {
				c->idx_metric[n_metrics] = prop_id(m, (enum gen_scope)s);
				c->idx_start[n_metrics] = start;
				n_metrics++;
			}
		}
	uint64_t p_idx = bw_pos(&c->data);
	for (uint16_t k = 0; k < n_metrics; k++) {
		bw_uint(&c->data, c->idx_metric[k], 2);
		bw_uint(&c->data, c->idx_start[k], 8);
	}
	le_encode(ci, n_values, 8);
	le_encode(ci + 8, p_values, 8);
	le_encode(ci + 16, n_metrics, 2);
	memset(ci + 18, 0, 6);
	le_encode(ci + 24, p_idx, 8);
}

struct prof_writer {
	struct bw *vals; /* per profile */
	struct bw *idx;
	uint64_t *written; /* values written per profile */
};

/* One context's values into every profile that has any (pass 2). */
static void prof_context(const struct gen *g, struct prof_writer *p, uint32_t ctx_id, double *const vals[GEN_N_SCOPES],
			 const double *stats)
{
	uint32_t T = g->n_threads, M = g->n_metrics;
	bool any = false;
	for (uint32_t k = 0; k < M * GEN_N_STATS && !any; k++)
		any = stats[k] != 0.0;
	if (any) {
		bw_uint(&p->idx[0], ctx_id, 4);
		bw_uint(&p->idx[0], p->written[0], 8);
		for (uint32_t m = 0; m < M; m++)
			for (int k = 0; k < GEN_N_STATS; k++) {
				double v = stats[m * GEN_N_STATS + k];
				if (v == 0.0)
					continue;
				bw_uint(&p->vals[0], stat_id(g, m, (enum gen_stat)k), 2);
				bw_f64(&p->vals[0], v);
				p->written[0]++;
			}
	}
	for (uint32_t t = 0; t < T; t++) {
		bool started = false;
		for (uint32_t m = 0; m < M; m++)
			for (int s = 0; s < GEN_N_SCOPES; s++) {
				double v = vals[s][t * M + m];
				if (v == 0.0)
					continue;
				if (!started) {
					bw_uint(&p->idx[t + 1], ctx_id, 4);
					bw_uint(&p->idx[t + 1], p->written[t + 1], 8);
					started = true;
				}
				bw_uint(&p->vals[t + 1], prop_id(m, (enum gen_scope)s), 2);
				bw_f64(&p->vals[t + 1], v);
				p->written[t + 1]++;
			}
	}
}

/* Counts what prof_context would write (pass 1). */
static void count_context(struct gen *g, double *const vals[GEN_N_SCOPES], const double *stats)
{
	uint32_t T = g->n_threads, M = g->n_metrics;
	uint64_t n = 0;
	for (uint32_t k = 0; k < M * GEN_N_STATS; k++)
		n += stats[k] != 0.0;
	if (n > 0) {
		g->prof_nvals[0] += n;
		g->prof_nctxs[0]++;
	}
	for (uint32_t t = 0; t < T; t++) {
		n = 0;
		for (uint32_t m = 0; m < M; m++)
			for (int s = 0; s < GEN_N_SCOPES; s++)
				n += vals[s][t * M + m] != 0.0;
		if (n > 0) {
			g->prof_nvals[t + 1] += n;
			g->prof_nctxs[t + 1]++;
		}
	}
}

/* Post-order pass over the tree.  pass 1: cct.db, counts, answers; pass 2:
 * profile.db.  Values at each level: point = raw, function = raw + lexical
 * children's function values, execution = raw + all children's execution. */
static int values_pass(struct gen *g, int pass, struct cct_writer *cct, struct prof_writer *prof)
{
	uint32_t T = g->n_threads, M = g->n_metrics, TM = T * M;
	struct walk w = { 0 };
	double *stats = calloc((size_t)M * GEN_N_STATS, sizeof(double));
	unsigned char ci[32];
	if (stats == NULL || walk_init(g, &w) < 0) {
		free(stats);
		return -1;
	}
	for (int s = 0; s < GEN_N_SCOPES; s++)
		memset(g->slot[s], 0, sizeof(double) * TM);
	uint32_t node, level;
	enum walk_event ev;
	while ((ev = walk_step(g, &w, &node, &level)) != WALK_DONE) {
		double *vals[GEN_N_SCOPES];
		for (int s = 0; s < GEN_N_SCOPES; s++)
			vals[s] = g->slot[s] + (size_t)level * TM;
		if (ev == WALK_ENTER) {
			node_raw(g, node, vals[GEN_SCOPE_POINT]);
			memcpy(vals[GEN_SCOPE_FUNCTION], vals[GEN_SCOPE_POINT], sizeof(double) * TM);
			memcpy(vals[GEN_SCOPE_EXECUTION], vals[GEN_SCOPE_POINT], sizeof(double) * TM);
			continue;
		}
		if (node == GEN_ROOT)
			break;
		const struct node *n = &g->nodes[node];
		compute_stats(g, vals, stats);
		if (g->opt.short_summary)
			short_summary(g, stats);
		if (pass == 1) {
			count_context(g, vals, stats);
			if (cct != NULL) {
				cct_empty_until(cct, n->ctx_id);
				cct_block(g, cct, vals, ci);
				bw_put(&cct->ci, ci, sizeof ci);
				cct->next_id++;
			}
			if (g->answers != NULL) {
				g->hot[node] = stats[GEN_STAT_EXECUTION_SUM];
				if (n->kind == GEN_KIND_FUNCTION)
					g->func_excl[n->func] += stats[GEN_STAT_FUNCTION_SUM];
				answer_context(g, node, stats);
			}
		} else {
			prof_context(g, prof, n->ctx_id, vals, stats);
		}
		/* propagate into the parent's level */
		double *pe = g->slot[GEN_SCOPE_EXECUTION] + (size_t)(level - 1) * TM;
		double *pf = g->slot[GEN_SCOPE_FUNCTION] + (size_t)(level - 1) * TM;
		for (uint32_t k = 0; k < TM; k++)
			pe[k] += vals[GEN_SCOPE_EXECUTION][k];
		if (n->kind != GEN_KIND_ENTRY && n->relation == GEN_RELATION_LEXICAL)
			for (uint32_t k = 0; k < TM; k++)
				pf[k] += vals[GEN_SCOPE_FUNCTION][k];
	}
	free(stats);
	free(w.stack);
	return 0;
}

/* The global context: execution values only (entry points carry no
 * propagation bits, and nothing is measured at the global context). */
static void global_values(struct gen *g, double *vals[GEN_N_SCOPES], double *zeros)
{
	vals[GEN_SCOPE_POINT] = zeros;
	vals[GEN_SCOPE_FUNCTION] = zeros;
	vals[GEN_SCOPE_EXECUTION] = g->global_exec;
}

static int write_cct_and_count(struct gen *g)
{
	uint32_t T = g->n_threads, M = g->n_metrics, TM = T * M;
	struct cct_writer c = { .fd = -1, .next_id = 1 };
	char *path = NULL;
	double *zeros = calloc(TM, sizeof(double));
	int rc = -1, e = 0;
	c.idx_metric = calloc((size_t)M * GEN_N_SCOPES, sizeof *c.idx_metric);
	c.idx_start = calloc((size_t)M * GEN_N_SCOPES, sizeof *c.idx_start);
	if (zeros == NULL || c.idx_metric == NULL || c.idx_start == NULL)
		goto out;
	uint64_t n_ci = (uint64_t)g->max_id + 1;
	uint64_t ci_base = 0x30, data_base = ci_base + 32 * n_ci;
	if (g->opt.cct) {
		c.fd = open_out(g, "cct.db", &path);
		if (c.fd < 0)
			goto out;
		bw_init(&c.ci, c.fd, ci_base + 32, 1 << 18);
		bw_init(&c.data, c.fd, data_base, 1 << 20);
	}
	if (g->answers != NULL)
		fputs("{\n\"contexts\": {", g->answers);
	g->answers_first = true;
	if (values_pass(g, 1, g->opt.cct ? &c : NULL, NULL) < 0)
		goto out;
	memcpy(g->global_exec, g->slot[GEN_SCOPE_EXECUTION], sizeof(double) * TM);
	double *vals[GEN_N_SCOPES];
	global_values(g, vals, zeros);
	compute_stats(g, vals, g->global_stats);
	count_context(g, vals, g->global_stats);
	if (g->opt.cct) {
		unsigned char ci[32];
		cct_empty_until(&c, g->max_id + 1);
		cct_block(g, &c, vals, ci);
		uint64_t end = bw_pos(&c.data);
		e = bw_finish(&c.ci);
		int e2 = bw_finish(&c.data);
		if (e == 0)
			e = e2;
		unsigned char header[0x40] = { 0 };
		uint64_t sec[2] = { 16 + 32 * n_ci, 0x20 };
		file_header(header, "ctxt", sec, 1);
		le_encode(header + 0x20, ci_base, 8);
		le_encode(header + 0x28, n_ci, 4);
		header[0x2c] = 32;
		if (e == 0)
			e = write_at(c.fd, 0, header, 0x30);
		if (e == 0)
			e = write_at(c.fd, ci_base, ci, sizeof ci);
		if (e == 0)
			e = write_footer(c.fd, end, "__ctx.db");
		if (e != 0) {
			fprintf(stderr, "gen-v4db: %s: %s\n", path, strerror(e));
			goto out;
		}
	}
	rc = 0;
out:
	if (c.ci.data != NULL)
		bw_finish(&c.ci);
	if (c.data.data != NULL)
		bw_finish(&c.data);
	if (c.fd >= 0 && close(c.fd) != 0)
		rc = -1;
	free(path);
	free(zeros);
	free(c.idx_metric);
	free(c.idx_start);
	return rc;
}

static int write_profile(struct gen *g)
{
	uint32_t T = g->n_threads, M = g->n_metrics, TM = T * M, P = T + 1;
	struct prof_writer p = { 0 };
	char *path = NULL;
	int fd = -1, rc = -1, e = 0;
	uint64_t *p_vals = calloc(P, sizeof(uint64_t)), *p_idx = calloc(P, sizeof(uint64_t));
	double *zeros = calloc(TM, sizeof(double));
	p.vals = calloc(P, sizeof *p.vals);
	p.idx = calloc(P, sizeof *p.idx);
	p.written = calloc(P, sizeof *p.written);
	struct buf head = { 0 };
	if (p_vals == NULL || p_idx == NULL || zeros == NULL || p.vals == NULL || p.idx == NULL || p.written == NULL)
		goto out;
	fd = open_out(g, "profile.db", &path);
	if (fd < 0)
		goto out;

	/* Layout: header, Profile Info section, Id Tuple section, value blocks. */
	uint64_t pi_base = 0x30, pi_size = 16 + 48ULL * P;
	uint64_t tu_base = align_up(pi_base + pi_size, 8), tu_size = (8 + 16 * 3) * (uint64_t)T;
	uint64_t cursor = align_up(tu_base + tu_size, 8);
	for (uint32_t k = 0; k < P; k++) {
		cursor = align_up(cursor, 8);
		p_vals[k] = cursor;
		p_idx[k] = align_up(cursor + 10 * g->prof_nvals[k], 4);
		cursor = p_idx[k] + 12 * g->prof_nctxs[k];
	}
	uint64_t end = cursor;
	uint64_t sec[4] = { pi_size, pi_base, tu_size, tu_base };
	buf_zero(&head, 0x30);
	if (head.failed)
		goto out;
	file_header(head.data, "prof", sec, 2);
	buf_uint(&head, pi_base + 16, 8);
	buf_uint(&head, P, 4);
	buf_uint(&head, 48, 1);
	buf_zero(&head, 3);
	for (uint32_t k = 0; k < P; k++) {
		buf_uint(&head, g->prof_nvals[k], 8);
		buf_uint(&head, p_vals[k], 8);
		buf_uint(&head, g->prof_nctxs[k], 4);
		buf_zero(&head, 4);
		buf_uint(&head, p_idx[k], 8);
		buf_uint(&head, k == 0 ? 0 : tu_base + (8 + 16 * 3) * (uint64_t)(k - 1), 8);
		buf_uint(&head, k == 0 ? 1 : 0, 4);
		buf_zero(&head, 4);
	}
	buf_align(&head, 8);
	for (uint32_t t = 0; t < T; t++) {
		uint32_t rank = t / g->opt.threads, thread = t % g->opt.threads;
		buf_uint(&head, 3, 2);
		buf_zero(&head, 6);
		buf_uint(&head, GEN_ID_NODE, 1);
		buf_zero(&head, 1);
		buf_uint(&head, 1, 2); /* isPhysical */
		buf_uint(&head, rank / 2, 4);
		buf_uint(&head, 0x11ac0000ULL + rank / 2, 8);
		buf_uint(&head, GEN_ID_RANK, 1);
		buf_zero(&head, 3);
		buf_uint(&head, rank, 4);
		buf_uint(&head, rank, 8);
		buf_uint(&head, GEN_ID_THREAD, 1);
		buf_zero(&head, 3);
		buf_uint(&head, thread, 4);
		buf_uint(&head, thread, 8);
	}
	if (head.failed)
		goto out;
	e = write_at(fd, 0, head.data, head.len);

	size_t cap = P > 64 ? 1 << 13 : 1 << 16;
	for (uint32_t k = 0; k < P; k++) {
		bw_init(&p.vals[k], fd, p_vals[k], cap);
		bw_init(&p.idx[k], fd, p_idx[k], cap / 2);
	}
	/* the global context (id 0) sorts first in every profile */
	double *vals[GEN_N_SCOPES];
	global_values(g, vals, zeros);
	prof_context(g, &p, 0, vals, g->global_stats);
	if (values_pass(g, 2, NULL, &p) < 0)
		goto out;
	for (uint32_t k = 0; k < P; k++) {
		if (p.written[k] != g->prof_nvals[k] || bw_pos(&p.idx[k]) != p_idx[k] + 12 * g->prof_nctxs[k])
			fprintf(stderr, "gen-v4db: internal error: profile %u size mismatch\n", k);
		int e1 = bw_finish(&p.vals[k]), e2 = bw_finish(&p.idx[k]);
		if (e == 0)
			e = e1 ? e1 : e2;
	}
	if (e == 0)
		e = write_footer(fd, end, "_prof.db");
	if (e != 0) {
		fprintf(stderr, "gen-v4db: %s: %s\n", path, strerror(e));
		goto out;
	}
	rc = 0;
out:
	for (uint32_t k = 0; p.vals != NULL && k < P; k++) {
		if (p.vals[k].data != NULL)
			bw_finish(&p.vals[k]);
		if (p.idx[k].data != NULL)
			bw_finish(&p.idx[k]);
	}
	if (fd >= 0 && close(fd) != 0)
		rc = -1;
	free(path);
	free(head.data);
	free(p_vals);
	free(p_idx);
	free(zeros);
	free(p.vals);
	free(p.idx);
	free(p.written);
	return rc;
}

/* ---------------------------------------------------------------- trace */

struct pool {
	uint32_t *ids;
	uint32_t n;
};

static int build_pools(const struct gen *g, struct pool pools[2])
{
	for (int e = 0; e < 2; e++) {
		pools[e].ids = calloc(g->n_nodes, sizeof(uint32_t));
		if (pools[e].ids == NULL)
			return -1;
	}
	for (uint32_t i = 0; i < g->n_nodes; i++) {
		const struct node *n = &g->nodes[i];
		if (n->kind != GEN_KIND_ENTRY && n->n_children == 0)
			pools[n->entry].ids[pools[n->entry].n++] = n->ctx_id;
	}
	for (int e = 0; e < 2; e++)
		if (pools[e].n == 0 && pools[1 - e].n == 0 && e < (int)g->n_entries)
			pools[e].ids[pools[e].n++] = g->nodes[e].ctx_id;
	return 0;
}

static void add_probe(struct gen *g, uint32_t line, uint32_t prof, uint64_t t, int64_t index, uint32_t ctx,
		      const char *kase)
{
	if (g->probes == NULL)
		return;
	json_t *o = json_object();
	json_object_set_new(o, "line", json_integer(line));
	json_object_set_new(o, "prof_index", json_integer(prof));
	json_object_set_new(o, "t", json_integer((json_int_t)t));
	json_object_set_new(o, "ctx", json_integer(ctx));
	json_object_set_new(o, "index", json_integer(index));
	json_object_set_new(o, "case", json_string(kase));
	json_array_append_new(g->probes, o);
}

static int write_trace(struct gen *g)
{
	uint32_t L = g->opt.trace_lines ? g->opt.trace_lines : g->n_threads;
	uint64_t S = g->opt.samples;
	struct pool pools[2] = { { 0 } };
	struct bw w = { .fd = -1 };
	char *path = NULL;
	int fd = -1, rc = -1, e = 0;
	if (L > g->n_threads)
		L = g->n_threads;
	uint32_t empty = g->opt.empty_lines < L ? g->opt.empty_lines : L;
	g->trace_lines = L;
	if (build_pools(g, pools) < 0)
		goto out;
	fd = open_out(g, "trace.db", &path);
	if (fd < 0)
		goto out;
	uint64_t cth_base = 0x40, data_base = cth_base + 24ULL * L;
	uint64_t period = S > 2000000 ? 100000 : 1000000;
	uint64_t base_ts = 1700000000000000000ULL + g->opt.seed % 100000 * 1000000000ULL;
	uint64_t min_ts = UINT64_MAX, max_ts = 0, pos = data_base;
	bw_init(&w, fd, data_base, 1 << 20);
	struct buf cth = { 0 };
	for (uint32_t l = 0; l < L; l++) {
		uint32_t prof = l + 1;
		uint64_t n = l >= L - empty ? 0 : S;
		buf_uint(&cth, prof, 4);
		buf_zero(&cth, 4);
		buf_uint(&cth, pos, 8);
		buf_uint(&cth, pos + 12 * n, 8);
		pos += 12 * n;
		if (n == 0)
			continue;
		const struct pool *pl = &pools[thread_in_entry(g, l, 0) ? 0 : 1];
		if (pl->n == 0)
			pl = &pools[pl == &pools[0] ? 1 : 0];
		struct rng r = { .state = hash3(g->opt.seed, l, GEN_SALT_TRACE) };
		uint64_t ts = base_ts + rng_below(&r, 2 * period), prev_ts = 0;
		uint32_t ctx = 0, prev_ctx = 0;
		uint64_t k_a = n / 3, k_b = 2 * n / 3;
		bool equal_seen = false;
		struct probe pending[8];
		unsigned n_pending = 0;
		pending[n_pending++] = (struct probe){ .t = ts - 1, .kase = "before_first" };
		for (uint64_t k = 0; k < n; k++) {
			if (k > 0) {
				uint64_t x = rng_below(&r, 1000);
				if (x < 10 && k != k_a + 1)
					ts += 0;
				else if (x < 13)
					ts += period * (20 + rng_below(&r, 80));
				else
					ts += period / 2 + rng_below(&r, period);
			}
			uint64_t y = rng_below(&r, 1000);
			if (k > 0 && prev_ctx == 0)
				ctx = pl->n ? pl->ids[rng_below(&r, pl->n)] : 1;
			else if (y < 20)
				ctx = 0;
			else if (k == 0 || y >= 700 || pl->n == 0) {
				double u = unit_of(rng_next(&r));
				ctx = pl->n ? pl->ids[(uint32_t)(u * u * pl->n)] : 1;
			}
			/* resolve probes that lie before this sample */
			for (unsigned q = 0; q < n_pending;) {
				if (pending[q].t < ts) {
					add_probe(g, l, prof, pending[q].t, (int64_t)k - 1, k == 0 ? 0 : prev_ctx, pending[q].kase);
					pending[q] = pending[--n_pending];
				} else {
					q++;
				}
			}
			bw_uint(&w, ts, 8);
			bw_uint(&w, ctx, 4);
			if (k == 0 && n_pending < 8)
				pending[n_pending++] = (struct probe){ .t = ts, .kase = "on_first" };
			if ((k == k_a || k == k_b) && n_pending < 7) {
				pending[n_pending++] = (struct probe){ .t = ts, .kase = "on_sample" };
				if (k == k_a)
					pending[n_pending++] = (struct probe){ .t = ts + 1, .kase = "between" };
			}
			if (k > 0 && ts == prev_ts && !equal_seen && n_pending < 8) {
				equal_seen = true;
				pending[n_pending++] = (struct probe){ .t = ts, .kase = "on_equal" };
			}
			if (ts < min_ts)
				min_ts = ts;
			if (ts > max_ts)
				max_ts = ts;
			prev_ts = ts;
			prev_ctx = ctx;
		}
		for (unsigned q = 0; q < n_pending; q++)
			add_probe(g, l, prof, pending[q].t, (int64_t)n - 1, prev_ctx, pending[q].kase);
		add_probe(g, l, prof, prev_ts, (int64_t)n - 1, prev_ctx, "on_last");
		add_probe(g, l, prof, prev_ts + 1000000, (int64_t)n - 1, prev_ctx, "after_last");
		g->trace_elements += n;
	}
	g->trace_min = min_ts;
	g->trace_max = max_ts;
	if (g->trace_elements == 0) {
		/* no samples: what hpcprof writes (its int64 minimum and
		 * maximum start values, INT64_MAX .. INT64_MIN; corpus
		 * metadb/d.x); the answers say there is no range */
		g->trace_min = g->trace_max = 0;
		min_ts = (uint64_t)INT64_MAX;
		max_ts = (uint64_t)INT64_MAX + 1;
	}
	e = bw_finish(&w);
	unsigned char header[0x40] = { 0 };
	uint64_t sec[2] = { 0x20 + 24ULL * L, 0x20 };
	file_header(header, "trce", sec, 1);
	le_encode(header + 0x20, cth_base, 8);
	le_encode(header + 0x28, L, 4);
	header[0x2c] = 24;
	le_encode(header + 0x30, min_ts, 8);
	le_encode(header + 0x38, max_ts, 8);
	if (e == 0)
		e = cth.failed ? ENOMEM : write_at(fd, 0, header, sizeof header);
	if (e == 0)
		e = write_at(fd, cth_base, cth.data, cth.len);
	if (e == 0)
		e = write_footer(fd, pos, "trace.db");
	free(cth.data);
	if (e != 0) {
		fprintf(stderr, "gen-v4db: %s: %s\n", path, strerror(e));
		goto out;
	}
	rc = 0;
out:
	if (w.data != NULL)
		bw_finish(&w);
	if (fd >= 0 && close(fd) != 0)
		rc = -1;
	free(path);
	free(pools[0].ids);
	free(pools[1].ids);
	return rc;
}

/* ----------------------------------------------------------------- yaml */

static void yaml_anchor(FILE *f, const char *metric, const char *scope)
{
	for (const unsigned char *c = (const unsigned char *)metric; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' ||
		    *c == '_')
			fputc(*c, f);
		else
			fprintf(f, "x%02x_", *c);
	}
	fprintf(f, "-sum-x5b_0x0x5d_-%s", scope);
}

/* mkdir -p for the directories of `path` (not the last component) */
static int make_parents(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int e = mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
		*p = '/';
		if (e < 0)
			return -1;
	}
	return 0;
}

/* --sources: a copy of every application source file under DIR/src/, as
 * hpcprof copies sources into a database (src/ + the absolute path), with
 * synthetic but deterministic code so that a source view has something to
 * show at every line the contexts name. */
static int write_sources(const struct gen *g)
{
	static const char *const shapes[] = {
		"    for (int i = 0; i < n; ++i) {",
		"        acc[i] += a[i] * b[i];",
		"    }",
		"    double r = residual(x, n);",
		"    if (r < tol)",
		"        return r;",
		"    exchange(buf, count, MPI_DOUBLE);",
		"",
	};
	int rc = 0;
	for (uint32_t f = 0; f < GEN_N_APP_FILES && rc == 0; f++) {
		char *path = NULL;
		FILE *out = NULL;
		if (asprintf(&path, "%s/src%s", g->opt.out_dir, app_files[f]) < 0)
			return -1;
		if (make_parents(path) < 0 || !(out = fopen(path, "w"))) {
			rc = -1;
		} else {
			const char *base = strrchr(app_files[f], '/');
			fprintf(out, "// %s: generated by gen-v4db for the callscope demo\n",
				base ? base + 1 : app_files[f]);
			for (uint32_t line = 2; line <= 4000; line++) {
				if (line % 40 == 2)
					fprintf(out, "void block_%u(double *acc, const double *a, const double *b, int n)\n",
						line / 40);
				else if (line % 40 == 3)
					fputs("{\n", out);
				else if (line % 40 == 1)
					fputs("}\n", out);
				else
					fprintf(out, "%s\n", shapes[line % 8]);
			}
			if (fclose(out) != 0)
				rc = -1;
		}
		free(path);
	}
	return rc;
}

static int write_yaml(const struct gen *g)
{
	char *dir = NULL, *path = NULL;
	int rc = -1;
	FILE *f = NULL;
	if (asprintf(&dir, "%s/metrics", g->opt.out_dir) < 0)
		goto out;
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		goto out;
	if (asprintf(&path, "%s/default.yaml", dir) < 0)
		goto out;
	f = fopen(path, "w");
	if (f == NULL)
		goto out;
	static const char *const yaml_scopes[] = { "execution", "function" };
	fputs("version: 0\ninputs:\n", f);
	for (uint32_t m = 0; m < g->n_metrics; m++)
		for (int s = 0; s < 2; s++) {
			fputs("  - &", f);
			yaml_anchor(f, g->metric_names[m], yaml_scopes[s]);
			fprintf(f, "\n    metric: %s\n    scope: %s\n    formula: $$\n    combine: sum\n",
				g->metric_names[m], yaml_scopes[s]);
		}
	fputs("roots:\n", f);
	for (uint32_t m = 0; m < g->n_metrics; m++) {
		fprintf(f, "  - name: %s\n    description: %s\n", g->metric_names[m], g->metric_names[m]);
		fputs("    variants:\n      Sum:\n        render: [number, percent]\n        formula:\n", f);
		fputs("          inclusive:\n            standard: *", f);
		yaml_anchor(f, g->metric_names[m], "execution");
		fputs("\n          exclusive:\n            standard: *", f);
		yaml_anchor(f, g->metric_names[m], "function");
		fputc('\n', f);
	}
	rc = ferror(f) ? -1 : 0;
out:
	if (f != NULL && fclose(f) != 0)
		rc = -1;
	if (rc != 0)
		fprintf(stderr, "gen-v4db: cannot write metrics/default.yaml in %s\n", g->opt.out_dir);
	free(dir);
	free(path);
	return rc;
}

/* -------------------------------------------------------------- options */

static void usage(FILE *f)
{
	fputs("usage: gen-v4db -o DIR [--seed N] [--contexts N] [--fanout N] [--depth N] [--metrics N]\n"
	      "                [--threads N] [--ranks N] [--trace-lines N] [--empty-lines N] [--samples N]\n"
	      "                [--no-trace] [--no-cct] [--yaml] [--sources] [--demo] [--title TEXT]\n"
	      "                [--answers FILE] [--hostile] [--depth-chain N] [--cycle] [--names FILE]\n"
	      "                [--short-summary] [--scale X]\n"
	      "Writes a synthetic HPCToolkit v4 database into DIR; --answers writes the expected\n"
	      "values (JSON) computed by the generator itself; --sources writes copies of the\n"
	      "application's source files under DIR/src (as hpcprof does).\n"
	      "Hostile inputs: --hostile gives every function, file, module, identifier kind,\n"
	      "entry point and metric name and the title terminal escape sequences (OSC, CSI,\n"
	      "C1 CSI), C0 controls, DEL or invalid UTF-8, or makes it 10,000 characters long;\n"
	      "--names FILE lists every name written as \"KIND HEX\" lines.  --depth-chain N\n"
	      "makes the tree one chain of N nested contexts; --cycle makes the last context's\n"
	      "children point back at the first context (a cyclic tree readers must refuse).\n"
	      "--scale X multiplies every value by X (runs whose values follow a known law).\n"
	      "--short-summary writes the summary's execution Sum as 3/4 of the sum over threads\n"
	      "below the root (hpcprof's lex_aware values at outer loops are smaller than it).\n",
	      f);
}

enum {
	OPT_SEED = 256,
	OPT_CONTEXTS,
	OPT_FANOUT,
	OPT_DEPTH,
	OPT_METRICS,
	OPT_THREADS,
	OPT_RANKS,
	OPT_TRACE_LINES,
	OPT_EMPTY_LINES,
	OPT_SAMPLES,
	OPT_NO_TRACE,
	OPT_NO_CCT,
	OPT_YAML,
	OPT_DEMO,
	OPT_TITLE,
	OPT_SOURCES,
	OPT_ANSWERS,
	OPT_HOSTILE,
	OPT_CHAIN,
	OPT_CYCLE,
	OPT_NAMES,
	OPT_SHORT_SUMMARY,
	OPT_SCALE,
	OPT_HELP,
};

static const struct option long_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "contexts", required_argument, NULL, OPT_CONTEXTS },
	{ "fanout", required_argument, NULL, OPT_FANOUT },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	{ "metrics", required_argument, NULL, OPT_METRICS },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "ranks", required_argument, NULL, OPT_RANKS },
	{ "trace-lines", required_argument, NULL, OPT_TRACE_LINES },
	{ "empty-lines", required_argument, NULL, OPT_EMPTY_LINES },
	{ "samples", required_argument, NULL, OPT_SAMPLES },
	{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
	{ "no-cct", no_argument, NULL, OPT_NO_CCT },
	{ "yaml", no_argument, NULL, OPT_YAML },
	{ "demo", no_argument, NULL, OPT_DEMO },
	{ "sources", no_argument, NULL, OPT_SOURCES },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "answers", required_argument, NULL, OPT_ANSWERS },
	{ "hostile", no_argument, NULL, OPT_HOSTILE },
	{ "depth-chain", required_argument, NULL, OPT_CHAIN },
	{ "cycle", no_argument, NULL, OPT_CYCLE },
	{ "names", required_argument, NULL, OPT_NAMES },
	{ "short-summary", no_argument, NULL, OPT_SHORT_SUMMARY },
	{ "scale", required_argument, NULL, OPT_SCALE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static bool parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end = NULL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v > max)
		return false;
	*out = v;
	return true;
}

static bool parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;
	if (!parse_u64(s, max, &v) || v < min)
		return false;
	*out = (uint32_t)v;
	return true;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	*o = (struct options){
		.seed = 1,
		.samples = 1000,
		.contexts = 200,
		.fanout = 4,
		.depth = 40,
		.metrics = 2,
		.threads = 2,
		.ranks = 2,
		.trace = true,
		.cct = true,
		.title = NULL,
		.scale = 1.0,
	};
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--demo") == 0) {
			o->demo = true;
			o->contexts = 2500;
			o->metrics = 3;
			o->threads = 4;
			o->ranks = 2;
			o->samples = 40000;
			o->yaml = true;
			o->sources = true;
			o->title = "callscope demo";
			o->empty_lines = 0;
		}
	int c, which = -1;
	bool ok = true;
	while ((c = getopt_long(argc, argv, "o:h", long_options, &which)) != -1) {
		switch (c) {
		case 'o':
			o->out_dir = optarg;
			break;
		case OPT_SEED:
			ok = parse_u64(optarg, UINT64_MAX >> 1, &o->seed);
			break;
		case OPT_CONTEXTS:
			ok = parse_u32(optarg, 1, 50000000, &o->contexts);
			break;
		case OPT_FANOUT:
			ok = parse_u32(optarg, 1, 1000, &o->fanout);
			break;
		case OPT_DEPTH:
			ok = parse_u32(optarg, 1, 10000, &o->depth);
			break;
		case OPT_METRICS:
			ok = parse_u32(optarg, 1, GEN_MAX_METRICS, &o->metrics);
			break;
		case OPT_THREADS:
			ok = parse_u32(optarg, 1, GEN_MAX_THREADS, &o->threads);
			break;
		case OPT_RANKS:
			ok = parse_u32(optarg, 1, GEN_MAX_THREADS, &o->ranks);
			break;
		case OPT_TRACE_LINES:
			ok = parse_u32(optarg, 0, UINT32_MAX, &o->trace_lines);
			break;
		case OPT_EMPTY_LINES:
			ok = parse_u32(optarg, 0, UINT32_MAX, &o->empty_lines);
			break;
		case OPT_SAMPLES:
			ok = parse_u64(optarg, 1ULL << 40, &o->samples);
			break;
		case OPT_NO_TRACE:
			o->trace = false;
			break;
		case OPT_NO_CCT:
			o->cct = false;
			break;
		case OPT_SOURCES:
			o->sources = true;
			break;
		case OPT_YAML:
			o->yaml = true;
			break;
		case OPT_DEMO:
			break;
		case OPT_TITLE:
			o->title = optarg;
			break;
		case OPT_ANSWERS:
			o->answers = optarg;
			break;
		case OPT_HOSTILE:
			o->hostile = true;
			break;
		case OPT_CHAIN:
			ok = parse_u32(optarg, 1, 50000000, &o->chain);
			break;
		case OPT_CYCLE:
			o->cycle = true;
			break;
		case OPT_SHORT_SUMMARY:
			o->short_summary = true;
			break;
		case OPT_SCALE: {
			char *end = NULL;
			o->scale = strtod(optarg, &end);
			ok = end != optarg && *end == '\0' && o->scale > 0;
		}
			break;
		case OPT_NAMES:
			o->names = optarg;
			break;
		case 'h':
		case OPT_HELP:
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
		if (!ok) {
			fprintf(stderr, "gen-v4db: bad value for --%s: %s\n", which >= 0 ? long_options[which].name : "?",
				optarg);
			return -1;
		}
	}
	if (o->out_dir == NULL || optind != argc) {
		usage(stderr);
		return -1;
	}
	/* answers are JSON (valid UTF-8 only) with context depths, and
	 * METRICS.yaml cannot carry invalid UTF-8 */
	if (o->hostile && (o->answers != NULL || o->yaml)) {
		fprintf(stderr, "gen-v4db: --hostile names cannot go into --answers or --yaml\n");
		return -1;
	}
	if (o->chain > UINT16_MAX && o->answers != NULL) {
		fprintf(stderr, "gen-v4db: --answers needs a --depth-chain of at most %u\n", UINT16_MAX);
		return -1;
	}
	if ((uint64_t)o->threads * o->ranks > GEN_MAX_THREADS) {
		fprintf(stderr, "gen-v4db: at most %d threads in total\n", GEN_MAX_THREADS);
		return -1;
	}
	return 0;
}

static uint64_t file_size(const struct gen *g, const char *name)
{
	char *path = NULL;
	struct stat st;
	uint64_t size = 0;
	if (asprintf(&path, "%s/%s", g->opt.out_dir, name) >= 0 && stat(path, &st) == 0)
		size = (uint64_t)st.st_size;
	free(path);
	return size;
}

/* A disabled output must not survive from an earlier run into DIR. */
static void remove_stale(const struct gen *g, const char *name, bool wanted)
{
	char *path = NULL;
	if (!wanted && asprintf(&path, "%s/%s", g->opt.out_dir, name) >= 0)
		unlink(path);
	free(path);
}

static int setup(struct gen *g)
{
	uint32_t M = g->opt.metrics;
	g->n_metrics = M;
	g->n_threads = g->opt.threads * g->opt.ranks;
	g->metric_names = calloc(M, sizeof(char *));
	if (g->metric_names == NULL)
		return -1;
	size_t n_base = sizeof base_metric_names / sizeof base_metric_names[0];
	for (uint32_t m = 0; m < M; m++) {
		char *base = NULL;
		int r = m < n_base ? asprintf(&base, "%s", base_metric_names[m])
				   : asprintf(&base, "PAPI_NATIVE_%u", m);
		if (r < 0)
			return -1;
		g->metric_names[m] = name_variant(g, base, m);
		free(base);
		if (g->metric_names[m] == NULL)
			return -1;
	}
	if (build_funcs(g) < 0 || build_names(g) < 0 || build_tree(g) < 0 || assign_ids(g) < 0)
		return -1;
	size_t TM = (size_t)g->n_threads * M;
	for (int s = 0; s < GEN_N_SCOPES; s++) {
		g->slot[s] = calloc(TM * g->max_stack, sizeof(double));
		if (g->slot[s] == NULL)
			return -1;
	}
	g->prof_nvals = calloc(g->n_threads + 1, sizeof(uint64_t));
	g->prof_nctxs = calloc(g->n_threads + 1, sizeof(uint64_t));
	g->global_exec = calloc(TM, sizeof(double));
	g->global_stats = calloc((size_t)M * GEN_N_STATS, sizeof(double));
	if (g->prof_nvals == NULL || g->prof_nctxs == NULL || g->global_exec == NULL || g->global_stats == NULL)
		return -1;
	if (g->opt.answers != NULL) {
		g->hot = calloc(g->n_nodes, sizeof(double));
		g->func_excl = calloc(g->n_funcs, sizeof(double));
		g->probes = json_array();
		if (g->hot == NULL || g->func_excl == NULL || g->probes == NULL)
			return -1;
		g->answers = fopen(g->opt.answers, "w");
		if (g->answers == NULL) {
			fprintf(stderr, "gen-v4db: %s: %s\n", g->opt.answers, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void teardown(struct gen *g)
{
	for (uint32_t i = 0; g->funcs != NULL && i < g->n_funcs; i++)
		free(g->funcs[i].name);
	free(g->funcs);
	for (int t = 0; t < GEN_TIERS; t++)
		free(g->tier_funcs[t]);
	for (uint32_t m = 0; g->metric_names != NULL && m < g->n_metrics; m++)
		free(g->metric_names[m]);
	free(g->metric_names);
	for (uint32_t i = 0; i < GEN_N_MODULES; i++)
		free(g->module_paths[i]);
	for (uint32_t i = 0; g->file_names != NULL && i < g->n_files; i++)
		free(g->file_names[i]);
	free(g->file_names);
	for (size_t i = 0; i < sizeof id_names / sizeof id_names[0]; i++)
		free(g->kind_names[i]);
	free(g->entry_names[0]);
	free(g->entry_names[1]);
	free(g->title);
	free(g->nodes);
	for (int s = 0; s < GEN_N_SCOPES; s++)
		free(g->slot[s]);
	free(g->prof_nvals);
	free(g->prof_nctxs);
	free(g->global_exec);
	free(g->global_stats);
	free(g->hot);
	free(g->func_excl);
	json_decref(g->probes);
	if (g->answers != NULL)
		fclose(g->answers);
}

int main(int argc, char **argv)
{
	struct gen g = { 0 };
	int rc = 1;
	if (parse_options(argc, argv, &g.opt) < 0)
		return 2;
	char *default_title = NULL;
	if (g.opt.title == NULL) {
		if (asprintf(&default_title, "gen-v4db seed %" PRIu64, g.opt.seed) < 0)
			return 1;
		g.opt.title = default_title;
	}
	if (mkdir(g.opt.out_dir, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "gen-v4db: %s: %s\n", g.opt.out_dir, strerror(errno));
		goto out;
	}
	if (setup(&g) < 0) {
		fprintf(stderr, "gen-v4db: out of memory or cannot set up\n");
		goto out;
	}
	remove_stale(&g, "cct.db", g.opt.cct);
	remove_stale(&g, "trace.db", g.opt.trace);
	if (write_meta(&g) < 0 || write_cct_and_count(&g) < 0 || write_profile(&g) < 0)
		goto out;
	if (g.opt.trace && write_trace(&g) < 0)
		goto out;
	if (g.opt.yaml && write_yaml(&g) < 0)
		goto out;
	if (g.opt.sources && write_sources(&g) < 0) {
		fprintf(stderr, "gen-v4db: cannot write the source copies under %s/src\n",
			g.opt.out_dir);
		goto out;
	}
	if (g.opt.names != NULL && write_names(&g) < 0)
		goto out;
	if (g.answers != NULL) {
		if (finish_answers(&g) < 0 || ferror(g.answers)) {
			fprintf(stderr, "gen-v4db: cannot write %s\n", g.opt.answers);
			goto out;
		}
		int e = fclose(g.answers);
		g.answers = NULL;
		if (e != 0)
			goto out;
	}
	printf("gen-v4db: %s: %u contexts (max id %u), %u metrics, %u profiles; meta.db %" PRIu64
	       " bytes, profile.db %" PRIu64 ", cct.db %" PRIu64 ", trace.db %" PRIu64 "\n",
	       g.opt.out_dir, g.n_nodes, g.max_id, g.n_metrics, g.n_threads + 1, file_size(&g, "meta.db"),
	       file_size(&g, "profile.db"), file_size(&g, "cct.db"), file_size(&g, "trace.db"));
	rc = 0;
out:
	teardown(&g);
	free(default_title);
	return rc;
}
