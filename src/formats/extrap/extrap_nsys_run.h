/* extrap_nsys_run: what extrap_nsys.c (the rules, the kernels,
 * synchronizations and allocations) and extrap_nsys_copy.c (copies and
 * memsets) share while they compute one export's values: the run, the
 * rows Extra-P's queries group, SQL's NULL-aware sums in checked 64-bit
 * arithmetic, the interval tests.  Nothing else includes it.  Must not
 * depend on curses, on ui/ or on another format. */
#ifndef CALLSCOPE_EXTRAP_NSYS_RUN_H
#define CALLSCOPE_EXTRAP_NSYS_RUN_H

#include "formats/extrap/extrap_nsys.h"

struct sums {
	int64_t cid;
	struct nsys_int v;
};

struct row {
	const char *cp, *name, *kind;
	int blocking; /* 0, 1, -1 for SQL's NULL */
	int page;     /* pageable: 0, 1, -1 NULL; 0 also where unused */
	struct nsys_int dur, gpu, bytes, ovl;
};

struct cid_ref {
	int64_t cid;
	size_t i;
};

struct run {
	const struct nsys_db *db;
	nsys_emit_fn emit;
	void *ctx;
	struct error *err;
	bool overflow, nomem;
	struct cid_ref *by_cid; /* callpath rows with a cid, by cid */
	size_t n_by_cid;
	struct nsys_seg *kc, *oa; /* kernel / activity segments */
	size_t n_kc, n_oa;
	struct row *rows;
	size_t n_rows, cap_rows;
	char *buf;
	size_t buf_cap;
	struct nsys_ivx all; /* every activity, to find those meeting a call */
	struct nsys_found found;
};

/* ---- checked arithmetic, SQL's NULL-skipping SUM -------------------- */

/* 64-bit arithmetic that sets r->overflow (and gives 0) instead of
 * wrapping (extrap_nsys.h). */
static inline int64_t add(struct run *r, int64_t a, int64_t b)
{
	return extrap_nsys_add(&r->overflow, a, b);
}

static inline int64_t sub(struct run *r, int64_t a, int64_t b)
{
	return extrap_nsys_sub(&r->overflow, a, b);
}

static inline int64_t mul(struct run *r, int64_t a, int64_t b)
{
	return extrap_nsys_mul(&r->overflow, a, b);
}

static inline void sum_in(struct run *r, struct nsys_int *acc,
			  struct nsys_int v)
{
	if (!v.has)
		return;
	acc->v = acc->has ? add(r, acc->v, v.v) : v.v;
	acc->has = true;
}

static inline struct nsys_int val(int64_t v)
{
	return (struct nsys_int){v, true};
}

static const struct nsys_int none = {0, false};

/* ---- intervals (SQL's BETWEEN is inclusive) -------------------------- */

static inline int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static inline int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static inline bool in(int64_t x, int64_t a, int64_t b)
{
	return a <= x && x <= b;
}

/* Extra-P's overlap test of [s, e] against [a, b]: s or e inside
 * [a, b], or [a, b] inside [s, e]. */
static inline bool meets3(int64_t s, int64_t e, int64_t a, int64_t b)
{
	return in(s, a, b) || in(e, a, b) || (in(a, s, e) && in(b, s, e));
}

static inline bool truthy(struct nsys_int v)
{
	return v.has && v.v != 0;
}

static inline int64_t or0(struct nsys_int v)
{
	return v.has ? v.v : 0;
}

/* ---- extrap_nsys.c ---------------------------------------------------- */

/* qsort orders: struct sums by cid; struct cid_ref by cid, then index. */
int extrap_nsys_cmp_sums(const void *a, const void *b);
int extrap_nsys_cmp_cid(const void *a, const void *b);
/* SUM(v) of the entries with `cid` (sorted by cid). */
struct nsys_int extrap_nsys_sums_at(struct run *r, const struct sums *s,
				    size_t n, int64_t cid);
/* Emit the concatenation of the NULL-terminated strings as a callpath:
 * metric 0 time (v in ns when `ns`), 1 bytes. */
void extrap_nsys_put(struct run *r, int metric, int64_t v, bool ns,
		     bool partial, ...);
/* Row `w` joined with the callpath rows of id `cid` (INNER JOIN; LEFT
 * JOIN adds one row without a callpath when there is none); blocking
 * resolved per callpath when w.blocking is 2. */
void extrap_nsys_join_cps(struct run *r, struct nsys_int cid, struct row w,
			  bool left);
/* The rows grouped (callpath, name, kind, blocking; NULL first), sums
 * per group, into r->rows[0..return). */
size_t extrap_nsys_group_rows(struct run *r);

/* ---- extrap_nsys_copy.c ------------------------------------------------ */

/* Copies, per (callpath, overlap name, copy kind, blocking); memsets,
 * per (callpath, overlap name, blocking): their values out. */
void extrap_nsys_copies(struct run *r);
void extrap_nsys_memsets(struct run *r);

#endif
