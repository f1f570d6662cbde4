/* extrap_set_internal: the collection's layout, shared by extrap_set.c
 * (filling it) and extrap_build.c (the model built from it) and nothing
 * else.  Must not depend on curses, on ui/ or on another format. */
#ifndef CALLSCOPE_EXTRAP_SET_INTERNAL_H
#define CALLSCOPE_EXTRAP_SET_INTERNAL_H

#include "formats/extrap/extrap_set.h"

struct xmap {
	uint64_t *slots; /* hash << 32 | (index + 1); 0 empty */
	uint32_t cap, n;
};

/* A hash of `len` bytes (FNV-1a mixed), varied by `seed`. */
uint32_t extrap_hash(const void *p, size_t len, uint64_t seed);

/* The index whose hash is `h` and for which eq(ctx, index) holds, or
 * MODEL_NONE; add one (false when out of memory). */
uint32_t xmap_find(const struct xmap *m, uint32_t h,
		   bool (*eq)(const void *ctx, uint32_t index),
		   const void *ctx);
bool xmap_put(struct xmap *m, uint32_t h, uint32_t index);

struct names {
	char **v;
	size_t *len;
	uint32_t n, cap;
	struct xmap map;
};

/* The index of name `s` (len bytes) in `n`, or MODEL_NONE. */
uint32_t extrap_names_find(const struct names *n, const char *s, size_t len);

struct cell {
	uint32_t cp, metric, point;
	bool stored;
	uint32_t n, cap;
	uint32_t rows; /* extrap_set_add_row calls: the repetitions */
	double *v;
	struct model_measure m;
};

struct smodel {
	uint32_t set, cp, metric;
	struct scaling_model model;
};

struct extrap_set {
	struct names params, cps, metrics, sets;
	double *coords; /* n_points x n_params */
	uint32_t n_points, points_cap;
	struct xmap point_map;
	struct cell *cells;
	uint32_t n_cells, cells_cap;
	struct xmap cell_map;
	struct smodel *models;
	size_t n_models, models_cap;
	char **warnings;
	uint32_t n_warnings;
	bool merge_incomplete; /* Cube sets: see extrap_set_merge_incomplete */
	bool file_order;       /* see extrap_set_keep_file_order */
	bool exclusive;	       /* see extrap_set_values_exclusive */
	bool *partial;         /* cp -> may lack points (NULL: none) */
	uint32_t partial_cap;
	bool nomem;
};

/* Every (callpath, metric) of the cells for which keep[cell] holds (all
 * when keep is NULL) measured at every point, except the callpaths marked
 * by extrap_set_may_lack_points: else STATUS_CORRUPT naming
 * the first pair (by callpath, then metric) and its count, `after`
 * appended to the message.  O(cells log cells); STATUS_NOMEM. */
enum status extrap_check_pairs(const struct extrap_set *s, const bool *keep,
			       const char *path, const char *after,
			       struct error *err);

/* extrap_merge.c: Extra-P's unification of a Cube set's call trees, on
 * the cells' measurements (ms, one per cell, computed by the caller):
 * every (callpath, metric) measured at fewer points than the set has is
 * merged into its nearest ancestor callpath that has that metric (at a
 * point the ancestor has: mean, median, minimum and maximum added, std
 * the root of the summed squares; at one it lacks: the cell moves up) and
 * dropped; `keep[i]` says whether cell i remains, `cp_used[cp]` whether a
 * callpath keeps data.  False when out of memory. */
bool extrap_merge_incomplete(struct extrap_set *s, struct model_measure *ms,
			     bool *keep, bool *cp_used);

#endif
