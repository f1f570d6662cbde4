/* extrap_nsight: Extra-P Nsight Systems sets (spec "Nsight Systems with
 * Extra-Prof data file format"; Extra-P v4.3.0-beta2's nv_reader, notes
 * 5.8): DIR/<point>/[!.]*.sqlite, the directory names giving the
 * parameters as for Cube sets (extrap_dirname.c), the exports of one
 * coordinate tuple being ranks whose values add to the point's lists.
 * Each export's values come from extrap_nsys.c (Extra-P's rules, its
 * defects included), an .ncu-rep beside it (same stem) adds the Nsight
 * Compute metrics of the first ceil(n/2) kernels (extrap_ncu.c; the half
 * is Extra-P's run on a 2-CPU machine, taken as a fixed choice).  Series
 * Extra-P drops are dropped: those missing at some point, except the
 * "->OVERLAP->name" ones, kept from two points on and marked as lacking
 * points (extrap_set_may_lack_points).  The model is extrap_set's.  See
 * doc/extrap.md, "Nsight Systems sets".  Must not depend on curses, on
 * ui/ or on another format's code. */
#include "config.h"

#include "core/array.h"
#include "core/hash.h"
#include "formats/extrap/extrap.h"
#include "formats/extrap/extrap_nsys.h"
#include "formats/extrap/extrap_set.h"
#include "formats/reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- strings to indexes -------------------------------------------- */

struct intern {
	char **v;
	size_t *len;
	size_t n, cap;
	uint32_t *slot; /* index + 1, 0 empty */
	size_t n_slots;
};

/* The index of `s` (len bytes), added when new; SIZE_MAX when out of
 * memory. */
static size_t intern(struct intern *t, const char *s, size_t len)
{
	if ((t->n + 1) * 2 > t->n_slots) {
		size_t ns = t->n_slots ? t->n_slots * 2 : 256;
		uint32_t *g = calloc(ns, sizeof(*g));
		if (!g)
			return SIZE_MAX;
		for (size_t i = 0; i < t->n; i++) {
			size_t j = fnv1a(FNV1A_SEED, t->v[i], t->len[i]) &
				   (ns - 1);
			while (g[j])
				j = (j + 1) & (ns - 1);
			g[j] = (uint32_t)i + 1;
		}
		free(t->slot);
		t->slot = g;
		t->n_slots = ns;
	}
	size_t j = fnv1a(FNV1A_SEED, s, len) & (t->n_slots - 1);
	for (; t->slot[j]; j = (j + 1) & (t->n_slots - 1)) {
		size_t i = t->slot[j] - 1;
		if (t->len[i] == len && memcmp(t->v[i], s, len) == 0)
			return i;
	}
	if (t->n >= UINT32_MAX - 1)
		return SIZE_MAX;
	void **const arrays[] = {(void **)&t->v, (void **)&t->len};
	const size_t sizes[] = {sizeof(*t->v), sizeof(*t->len)};
	if (!array_grow_each(&t->cap, t->n + 1, 2, arrays, sizes))
		return SIZE_MAX;
	char *c = malloc(len + 1);
	if (!c)
		return SIZE_MAX;
	memcpy(c, s, len);
	c[len] = '\0';
	t->v[t->n] = c;
	t->len[t->n] = len;
	t->slot[j] = (uint32_t)t->n + 1;
	return t->n++;
}

static void intern_free(struct intern *t)
{
	array_free_each(t->v, t->n);
	free(t->len);
	free(t->slot);
}

/* ---- the values of every point --------------------------------------- */

struct vals {
	double *v;
	size_t n, cap;
};

/* One (callpath, metric): its values per point. */
struct series {
	size_t cp, metric;
	bool partial;
	struct vals *at; /* n_points */
};

struct nset {
	const char *path;
	struct error *err;
	struct extrap_set *s;
	struct extrap_point_dir *dirs;
	size_t n_dirs;
	uint32_t n_points;
	struct intern cps, metrics, keys; /* keys: "cp\x1fmetric" */
	struct series *series;
	size_t n_series, cap_series;
	uint32_t point; /* being read */
	bool nomem;
};

static bool add_value(struct nset *c, const char *cp, size_t len, size_t metric,
		      double v, bool partial)
{
	size_t ci = intern(&c->cps, cp, len);
	if (ci == SIZE_MAX)
		return false;
	/* the series' key: callpath and metric indexes */
	char key[32];
	int kl = snprintf(key, sizeof(key), "%zu:%zu", ci, metric);
	size_t si = intern(&c->keys, key, (size_t)kl);
	if (si == SIZE_MAX)
		return false;
	if (si == c->n_series) {
		if (!array_grow((void **)&c->series, &c->cap_series,
				c->n_series + 1, sizeof(*c->series)))
			return false;
		struct vals *at = calloc(c->n_points + 1, sizeof(*at));
		if (!at)
			return false;
		c->series[c->n_series++] =
		    (struct series){ci, metric, partial, at};
	}
	struct series *s = &c->series[si];
	s->partial |= partial;
	struct vals *w = &s->at[c->point];
	if (!array_grow((void **)&w->v, &w->cap, w->n + 1, sizeof(*w->v)))
		return false;
	w->v[w->n++] = v;
	return true;
}

static bool emit_value(void *ctx, const char *cp, size_t len, int metric,
		       double value, bool partial)
{
	struct nset *c = ctx;
	const char *name = metric == 0 ? "time" : "bytes_transferred";
	size_t m = intern(&c->metrics, name, strlen(name));
	return m != SIZE_MAX && add_value(c, cp, len, m, value, partial);
}

/* The .ncu-rep beside `file` (same stem): the metrics of the first
 * ceil(n/2) results paired by position with the kernels, summed per
 * kernel callpath, one value per (callpath, metric) for the file. */
static enum status read_ncu(struct nset *c, const char *file,
			    const struct nsys_db *db)
{
	size_t bl = strlen(file) - strlen(".sqlite");
	char *ncu = NULL, *agg = NULL;
	if (asprintf(&ncu, "%.*s.nsight-cuprof-report", (int)bl, file) < 0)
		return error_set(c->err, STATUS_NOMEM, c->path,
				 "out of memory");
	struct stat sb;
	if (stat(ncu, &sb) != 0) {
		free(ncu);
		if (asprintf(&ncu, "%.*s.ncu-rep", (int)bl, file) < 0)
			return error_set(c->err, STATUS_NOMEM, c->path,
					 "out of memory");
	}
	if (asprintf(&agg, "%.*s.ncu-rep.agg", (int)bl, file) < 0) {
		free(ncu);
		return error_set(c->err, STATUS_NOMEM, c->path,
				 "out of memory");
	}
	enum status st = STATUS_OK;
	if (stat(agg, &sb) == 0)
		st = error_set(
		    c->err, STATUS_UNSUPPORTED, agg,
		    "aggregated Nsight Compute reports (.ncu-rep.agg) "
		    "are not supported");
	free(agg);
	if (st != STATUS_OK || stat(ncu, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		free(ncu);
		return st;
	}
	struct ncu_report rep;
	char **paths = NULL;
	size_t n_paths = 0;
	st = extrap_ncu_read(ncu, &rep, c->err);
	if (st == STATUS_OK)
		st = extrap_nsys_kernel_paths(db, &paths, &n_paths, c->err);
	/* sums per (callpath, metric) of this file, in first-seen order */
	struct intern keys = {0};
	double *sum = NULL;
	size_t *cp_of = NULL, *m_of = NULL, cap = 0;
	size_t n = n_paths < rep.n_results ? n_paths : rep.n_results;
	for (size_t i = 0; st == STATUS_OK && i < (n + 1) / 2; i++) {
		if (!paths[i])
			continue;
		const struct ncu_result *res = &rep.results[i];
		size_t ci = intern(&c->cps, paths[i], strlen(paths[i]));
		for (size_t k = 0; k < res->n && ci != SIZE_MAX; k++) {
			const char *mn = rep.strings[res->name[k]];
			size_t mi = intern(&c->metrics, mn, strlen(mn));
			char key[32];
			int kl = snprintf(key, sizeof(key), "%zu:%zu", ci, mi);
			size_t before = keys.n;
			size_t si = mi == SIZE_MAX
					? SIZE_MAX
					: intern(&keys, key, (size_t)kl);
			if (si == SIZE_MAX) {
				ci = SIZE_MAX;
				break;
			}
			void **const arrays[] = {(void **)&sum,
						 (void **)&cp_of,
						 (void **)&m_of};
			const size_t sizes[] = {sizeof(*sum), sizeof(*cp_of),
						sizeof(*m_of)};
			if (!array_grow_each(&cap, si + 1, 3, arrays, sizes)) {
				ci = SIZE_MAX;
				break;
			}
			if (keys.n > before) {
				/* first time: start the sum */
				sum[si] = 0;
				cp_of[si] = ci;
				m_of[si] = mi;
			}
			sum[si] += res->value[k];
		}
		if (ci == SIZE_MAX)
			st = error_set(c->err, STATUS_NOMEM, c->path,
				       "out of memory");
	}
	for (size_t i = 0; st == STATUS_OK && i < keys.n; i++)
		if (!add_value(c, c->cps.v[cp_of[i]], c->cps.len[cp_of[i]],
			       m_of[i], sum[i], false))
			st = error_set(c->err, STATUS_NOMEM, c->path,
				       "out of memory");
	intern_free(&keys);
	free(sum);
	free(cp_of);
	free(m_of);
	array_free_each(paths, n_paths);
	extrap_ncu_free(&rep);
	free(ncu);
	return st;
}

/* ---- the point directories ------------------------------------------- */

static enum status find_points(struct nset *c)
{
	enum status st = extrap_point_dirs_list(c->path, ".sqlite", &c->dirs,
						&c->n_dirs, c->err);
	if (st == STATUS_OK && c->n_dirs == 0) {
		/* Extra-P reads .ncu-rep files alone then */
		struct extrap_point_dir *ncu = NULL;
		size_t n_ncu = 0;
		st = extrap_point_dirs_list(c->path, ".ncu-rep", &ncu, &n_ncu,
					    c->err);
		extrap_point_dirs_free(ncu, n_ncu);
		if (st == STATUS_OK)
			st = error_set(
			    c->err, n_ncu ? STATUS_UNSUPPORTED : STATUS_CORRUPT,
			    c->path,
			    n_ncu ? "Nsight Compute reports without "
				    "Nsight Systems exports "
				    "(DIR/*/*.sqlite) are not "
				    "supported"
				  : "no Nsight Systems exports "
				    "(DIR/*/*.sqlite)");
	}
	if (st == STATUS_OK)
		st = extrap_point_dirs_points(c->path, c->dirs, c->n_dirs, c->s,
					      c->err);
	c->n_points = extrap_set_n_points(c->s);
	return st;
}

/* ---- the set ------------------------------------------------------------- */

static enum status read_export(struct nset *c, const char *file)
{
	struct nsys_db db;
	/* immutable (no locks, no WAL) when nothing may write the file */
	enum status st =
	    extrap_nsys_load(file, access(file, W_OK) != 0, &db, c->err);
	if (st == STATUS_OK)
		st = extrap_nsys_values(&db, emit_value, c, c->err);
	if (st == STATUS_OK)
		st = read_ncu(c, file, &db);
	extrap_nsys_free(&db);
	return st;
}

/* Extra-P's unification: a series at fewer points than the set has is
 * dropped, unless it may lack points (->OVERLAP->name) and has two. */
static enum status fill_set(struct nset *c)
{
	for (size_t i = 0; i < c->n_series; i++) {
		const struct series *s = &c->series[i];
		uint32_t have = 0;
		for (uint32_t p = 0; p < c->n_points; p++)
			have += s->at[p].n > 0;
		if (have < c->n_points && (!s->partial || have <= 1))
			continue;
		uint32_t cp = extrap_set_callpath(c->s, c->cps.v[s->cp],
						  c->cps.len[s->cp]);
		uint32_t m = extrap_set_metric(c->s, c->metrics.v[s->metric],
					       c->metrics.len[s->metric]);
		if (cp == MODEL_NONE || m == MODEL_NONE)
			return error_set(c->err, STATUS_NOMEM, c->path,
					 "out of memory");
		if (s->partial)
			extrap_set_may_lack_points(c->s, cp);
		for (uint32_t p = 0; p < c->n_points; p++)
			if (s->at[p].n &&
			    !extrap_set_add_values(c->s, cp, m, p, s->at[p].v,
						   s->at[p].n))
				return error_set(c->err, STATUS_NOMEM, c->path,
						 "out of memory");
	}
	return STATUS_OK;
}

static enum status nsight_open(const struct reader_input *in,
			       struct model **out, struct error *err)
{
	*out = NULL;
	struct nset c = {
	    .path = in->paths[0], .err = err, .s = extrap_set_new()};
	enum status st =
	    c.s ? find_points(&c)
		: error_set(err, STATUS_NOMEM, c.path, "out of memory");
	for (size_t i = 0; i < c.n_dirs && st == STATUS_OK; i++)
		for (size_t k = 0; k < c.dirs[i].n_files && st == STATUS_OK;
		     k++) {
			c.point = c.dirs[i].point;
			st = read_export(&c, c.dirs[i].files[k]);
		}
	if (st == STATUS_OK)
		st = fill_set(&c);
	if (st == STATUS_OK)
		st = extrap_set_finish(c.s, "extrap-nsight", c.path, out, err);
	extrap_point_dirs_free(c.dirs, c.n_dirs);
	for (size_t i = 0; i < c.n_series; i++) {
		for (uint32_t p = 0; p < c.n_points; p++)
			free(c.series[i].at[p].v);
		free(c.series[i].at);
	}
	free(c.series);
	intern_free(&c.cps);
	intern_free(&c.metrics);
	intern_free(&c.keys);
	extrap_set_free(c.s);
	return st;
}

/* A directory whose first subdirectories hold .sqlite exports (or only
 * .ncu-rep reports, refused with a message of ours): above
 * extrap-cubeset's 30 for the same point directories. */
static int nsight_bid(const struct reader_probe *p, int best)
{
	if (!p->is_dir || p->n_subdirs == 0 || best >= 40)
		return 0;
	for (size_t i = 0; i < p->n_subnames; i++)
		if (p->subnames[i][0] != '.' &&
		    (reader_name_ends_with(p->subnames[i], ".sqlite") ||
		     reader_name_ends_with(p->subnames[i], ".ncu-rep")))
			return 40;
	return 0;
}

/* A copy of a set (a directory URL): per point directory its exports and
 * the Nsight Compute reports beside them (.ncu-rep, the older
 * .nsight-cuprof-report, and .ncu-rep.agg, which the set refuses), as
 * extrap_dirname.c and read_ncu find them.  Fetched whole. */
static const struct reader_file_rule nset_files[] = {
	{"[!.]*/[!.]*.sqlite", 0},
	{"[!.]*/[!.]*.ncu-rep", 0},
	{"[!.]*/*.nsight-cuprof-report", 0},
	{"[!.]*/*.ncu-rep.agg", 0},
	{NULL, 0},
};

READER(reader_extrap_nsight, "extrap-nsight",
       READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_PARAMS, nsight_bid,
       nsight_open,
       "Extra-P Nsight Systems sets (a directory of DIR.x1y2/*.sqlite exports, "
       "with .ncu-rep reports)",
       .files = nset_files);
