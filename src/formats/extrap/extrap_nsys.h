/* extrap_nsys: the values Extra-P (v4.3.0-beta2, file format 2) derives
 * from one Nsight Systems SQLite export of an Nsight set, and the
 * .ncu-rep decoding beside it; shared by extrap_nsys_load.c (the tables,
 * read-only), extrap_nsys.c (the rules), extrap_ncu.c (.ncu-rep) and the
 * reader extrap_nsight.c, and nothing else.  The rules, with the defects
 * of Extra-P that they copy on purpose, are in doc/extrap.md ("Nsight
 * Systems sets").  Must not depend on curses, on ui/ or on another
 * format. */
#ifndef CALLSCOPE_EXTRAP_NSYS_H
#define CALLSCOPE_EXTRAP_NSYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

/* A nullable SQL integer. */
struct nsys_int {
	int64_t v;
	bool has;
};

/* EXTRAP_RESOLVED_CALLPATHS (stored, or derived from CUDA_CALLCHAINS). */
struct nsys_cp {
	struct nsys_int cid, dur;
	char *callpath;
};

/* A GPU activity: kernel (type 0), copy (1) or memset (2).  `name`: the
 * kernel's short name, the copy kind's name, "MEMSET <value>" (NULL when
 * SQL's would be NULL). */
struct nsys_act {
	struct nsys_int cid;
	int64_t start, end;
	int type;
	char *name;
	int64_t threads;  /* kernels: grid x block size */
	const char *kind; /* copies: the copy kind's name (static) */
	bool pageable;	  /* copies, memsets */
	struct nsys_int bytes;
};

/* A synchronization record, or an API call (cudaMalloc and co.). */
struct nsys_call {
	struct nsys_int cid;
	int64_t start, end;
	const char *type; /* syncs: the syncType's name (static), or NULL */
	char *name;	  /* API calls: the function's name */
};

/* Checked 64-bit arithmetic: the result, or 0 with *overflow set. */
static inline int64_t extrap_nsys_add(bool *overflow, int64_t a, int64_t b)
{
	int64_t s;
	if (__builtin_add_overflow(a, b, &s)) {
		*overflow = true;
		return 0;
	}
	return s;
}

static inline int64_t extrap_nsys_sub(bool *overflow, int64_t a, int64_t b)
{
	int64_t s;
	if (__builtin_sub_overflow(a, b, &s)) {
		*overflow = true;
		return 0;
	}
	return s;
}

static inline int64_t extrap_nsys_mul(bool *overflow, int64_t a, int64_t b)
{
	int64_t s;
	if (__builtin_mul_overflow(a, b, &s)) {
		*overflow = true;
		return 0;
	}
	return s;
}

/* A concurrency segment of Extra-P's sweeps. */
struct nsys_seg {
	int64_t start, end, conc, roof;
};

/* An activity of a sweep: its id, time and thread roof. */
struct nsys_base {
	struct nsys_int cid;
	int64_t start, end, roof;
};

/* extrap_nsys_sweep.c: Extra-P's concurrency segments over `b` (view
 * EXTRAP_CONCURRENT_KERNELS with roofs; EXTRAP_OVERLAP_ACTIVITIES, roofs
 * unused), sorted by time, into a heap array *out (NULL with no
 * activities); *overflow set when a count leaves 64 bits.  False when
 * out of memory.  O(n log n). */
bool extrap_nsys_sweep(const struct nsys_base *b, size_t n,
		       struct nsys_seg **out, size_t *n_out, bool *overflow);
/* The first of the sorted, disjoint segments `s` whose end is >= a. */
size_t extrap_nsys_seg_from(const struct nsys_seg *s, size_t n, int64_t a);
/* The first of the `n` elements of `size` bytes at `base`, sorted by the
 * int64_t at byte `field` of each, whose field is >= v; n when none. */
size_t extrap_nsys_lower_bound(const void *base, size_t n, size_t size,
			       size_t field, int64_t v);

/* Activities by start and by end, to find those meeting an interval
 * (extrap_nsys_sweep.c) without a scan of them all. */
struct nsys_key {
	int64_t t;
	size_t i;
};
struct nsys_ivx {
	const struct nsys_act *acts;
	struct nsys_key *by_start, *by_end;
	int64_t *max_end; /* the largest end up to each by_start entry */
	size_t n;
};
/* Found activities' indexes (reused across calls; free f->i). */
struct nsys_found {
	size_t *i;
	size_t n, cap;
};
enum nsys_meet {
	NSYS_ENDS_IN,		/* its end in [s, e] */
	NSYS_STARTS_OR_ENDS_IN, /* its start or its end in [s, e] */
	NSYS_MEETS		/* that, or [s, e] inside it */
};
/* Index acts[idx[0..n)]; false when out of memory (nothing to free). */
bool extrap_nsys_ivx_init(struct nsys_ivx *x, const struct nsys_act *acts,
			  const size_t *idx, size_t n);
void extrap_nsys_ivx_free(struct nsys_ivx *x);
/* The indexed activities meeting [s, e] as `how` says, each once, into
 * f (in no particular order); false when out of memory.  The ones around
 * [s, e] are found walking back from s while an earlier one may end
 * after e. */
bool extrap_nsys_ivx_find(const struct nsys_ivx *x, int64_t s, int64_t e,
			  enum nsys_meet how, struct nsys_found *f);
bool extrap_nsys_found_add(struct nsys_found *f, size_t i);

struct nsys_db {
	const char *path;
	struct nsys_cp *cps;
	size_t n_cps;
	struct nsys_act *acts; /* kernels, then copies, then memsets */
	size_t n_acts, n_kernels, n_copies, n_memsets;
	bool has_memset_table;
	struct nsys_call *syncs, *calls;
	size_t n_syncs, n_calls;
	int64_t *max_threads; /* one per EXTRAP_GPU_INFO row */
	size_t n_gpus;
};

/* Read the tables of the export at `path` (SQLite, read-only; immutable
 * when `immutable`).  STATUS_CORRUPT / STATUS_IO naming the file; free
 * with extrap_nsys_free (also after a failure). */
enum status extrap_nsys_load(const char *path, bool immutable,
			     struct nsys_db *db, struct error *err);
void extrap_nsys_free(struct nsys_db *db);

/* Where the values go: callpath `cp` (len bytes), metric 0 "time" (s) or
 * 1 "bytes_transferred", one value; `partial`: a series Extra-P keeps when
 * it lacks points (->OVERLAP->name).  False when out of memory. */
typedef bool (*nsys_emit_fn)(void *ctx, const char *cp, size_t len, int metric,
			     double value, bool partial);

/* Every value of the export, in Extra-P's rules (doc/extrap.md).
 * STATUS_CORRUPT when a sum leaves 64 bits; STATUS_NOMEM. */
enum status extrap_nsys_values(const struct nsys_db *db, nsys_emit_fn emit,
			       void *ctx, struct error *err);

/* The callpath "CP->K->GPU K" of every kernel with a correlation id, in
 * the table's order, one per matching callpath row (NULL when none):
 * what the .ncu-rep results are paired with.  A heap array of heap
 * strings (entries may be NULL). */
enum status extrap_nsys_kernel_paths(const struct nsys_db *db, char ***out,
				     size_t *n, struct error *err);

/* One .ncu-rep result: the metrics kept (numbers only, names not starting
 * with device__attribute or nvlink__), as (name index, value). */
struct ncu_result {
	uint32_t *name;
	double *value;
	size_t n;
};
struct ncu_report {
	char **strings; /* the string table */
	size_t n_strings;
	struct ncu_result *results;
	size_t n_results;
};

/* Decode the .ncu-rep at `path` (read whole, at most 1 GiB).
 * STATUS_CORRUPT with the offset; free with extrap_ncu_free. */
enum status extrap_ncu_read(const char *path, struct ncu_report *r,
			    struct error *err);
/* The same from `len` bytes in memory (`path` names them in messages):
 * what the fuzz target calls. */
enum status extrap_ncu_parse(const uint8_t *data, size_t len, const char *path,
			     struct ncu_report *r, struct error *err);
void extrap_ncu_free(struct ncu_report *r);

#endif
