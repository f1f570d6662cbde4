/* extrap_cubeset: Extra-P Cube sets (spec "Cube file format"; Extra-P
 * 4.2.5 cube_file_reader2.py and abstract_directory_reader.py, notes 5.5):
 * DIR/<point>/[!.]*.cubex, each directory's name giving the parameters
 * (extrap_dirname.c); the names and their order must be the same in every
 * directory, parameters with one value across the set are dropped, and
 * every file whose tuple is equal (several .cubex in one directory,
 * several .rN directories) is a repetition of that point.  Each file is
 * opened through the reader registry (never the Cube reader's code: the
 * layers forbid it) and its metrics' exclusive per-location values are
 * read from the resulting model (model_per_profile on each exclusive
 * column's statistic, absent locations as 0): weak scaling, Extra-P's
 * default, takes mean, median, ... over all locations x repetitions, and
 * a callpath met at several call nodes of one file (same names) adds one
 * row per node, as Extra-P's aggregation does; the repetitions count the
 * rows; callpaths missing at some points are merged into their ancestors
 * (extrap_merge.c).  A metric with no value in a file and a hidden column (no
 * data members) is skipped with a warning.  The model is extrap_set's: a
 * column's value is the mean at the last point (the largest coordinates), one
 * profile per point holds the means there.  Must not depend on curses, on ui/
 * or on another format's code. */
#include "config.h"

#include "core/array.h"
#include "formats/extrap/extrap.h"
#include "formats/extrap/extrap_set.h"
#include "formats/reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most text a Cube file's callpaths may take (each is its parent's
 * plus a name: a tree D deep takes about D^2 / 2 names' bytes). */
#define EXTRAP_CUBE_MAX_TEXT ((size_t)64 << 20)

struct cset {
	const char *path;
	struct error *err;
	struct extrap_set *s;
	struct extrap_point_dir *dirs;
	size_t n_dirs;
	char *skipped; /* metric names skipped, ", "-joined */
};

static enum status find_points(struct cset *c)
{
	enum status st = extrap_point_dirs_list(c->path, ".cubex", &c->dirs,
						&c->n_dirs, c->err);
	if (st == STATUS_OK && c->n_dirs == 0)
		st = error_set(c->err, STATUS_NOT_DATABASE, c->path,
			       "no Cube files (DIR/*/*.cubex)");
	if (st == STATUS_OK)
		st = extrap_point_dirs_points(c->path, c->dirs, c->n_dirs, c->s,
					      c->err);
	return st;
}

static void note_skipped(struct cset *c, const char *metric)
{
	size_t have = c->skipped ? strlen(c->skipped) : 0;
	if (c->skipped) {
		/* once per name */
		const char *p = c->skipped;
		size_t l = strlen(metric);
		while ((p = strstr(p, metric))) {
			if ((p == c->skipped || p[-1] == ' ') &&
			    (p[l] == ',' || p[l] == '\0'))
				return;
			p += l;
		}
	}
	char *g = realloc(c->skipped, have + strlen(metric) + 3);
	if (!g)
		return;
	c->skipped = g;
	sprintf(g + have, "%s%s", have ? ", " : "", metric);
}

/* One Cube file as read_file walks it. */
struct cfile {
	struct cset *c;
	const char *file;
	const struct model *m;
	uint32_t point;
	uint32_t L;        /* locations (non-summary profiles), at least 1 */
	uint32_t *pos;     /* profile -> location, or MODEL_NONE */
	uint32_t *cp;      /* call node -> the set's callpath */
	uint8_t *present;  /* call node: has a measurement */
	double *row;       /* one row of locations, zeros between uses */
};

static enum status cfile_nomem(const struct cfile *f)
{
	return error_set(f->c->err, STATUS_NOMEM, f->file, "out of memory");
}

/* Open `file`, which must be a Cube file, through the registry. */
static enum status open_cube(struct cset *c, const char *file,
			     struct model **m)
{
	struct reader_probe *pr = NULL;
	enum status st = reader_probe_read(file, &pr, c->err);
	const struct reader *r = st == STATUS_OK ? reader_choose(pr) : NULL;
	reader_probe_free(pr);
	if (st != STATUS_OK)
		return st;
	if (!r || strcmp(r->name, "cube") != 0)
		return error_set(c->err, STATUS_CORRUPT, file,
				 "not a Cube file");
	return reader_open_path(r, file, m, c->err);
}

/* The set's callpath of every call node: parents come before their
 * children; a child's is its parent's (kept by the set) plus "->" and its
 * name, so that a file holds no copy of each path (O(depth^2) bytes for a
 * deep tree). */
static enum status build_callpaths(struct cfile *f)
{
	const struct model *m = f->m;
	char *buf = NULL; /* one callpath being built */
	size_t buf_cap = 0, text = 0;
	enum status st = STATUS_OK;
	for (uint32_t n = 1; n < model_n_nodes(m) && st == STATUS_OK; n++) {
		uint32_t par = model_nodes(m)[n].parent;
		/* the region's name, as Extra-P names it (the node's
		 * label may carry call-site parameters) */
		uint32_t fn = model_nodes(m)[n].function;
		const char *nm = model_str(m, fn < model_n_functions(m)
						      ? model_functions(m)[fn].name
						      : model_nodes(m)[n].name);
		size_t nl = strlen(nm), pl = 0;
		const char *pp = par == 0 || par == MODEL_NONE || par >= n
					 ? NULL
					 : extrap_set_callpath_name(
						   f->c->s, f->cp[par], &pl);
		size_t need = (pp ? pl + 2 : 0) + nl + 1;
		/* the call tree's text, the set's callpaths: bounded (a deep
		 * tree's is depth squared) */
		text += need;
		if (text > EXTRAP_CUBE_MAX_TEXT) {
			st = error_set(f->c->err, STATUS_CORRUPT, f->file,
				       "the callpaths of the call tree exceed "
				       "%u MiB (a call tree %u deep)",
				       (unsigned)(EXTRAP_CUBE_MAX_TEXT >> 20),
				       (unsigned)model_max_depth(m));
			break;
		}
		if (!array_grow((void **)&buf, &buf_cap, need, 1)) {
			st = cfile_nomem(f);
			break;
		}
		size_t len = 0;
		if (pp) {
			memcpy(buf, pp, pl);
			memcpy(buf + pl, "->", 2);
			len = pl + 2;
		}
		memcpy(buf + len, nm, nl);
		len += nl;
		f->cp[n] = extrap_set_callpath(f->c->s, buf, len);
		if (f->cp[n] == MODEL_NONE)
			st = cfile_nomem(f);
	}
	free(buf);
	return st;
}

/* Whether pv[i] is a location's value. */
static bool at_location(const struct cfile *f, const struct profile_value *pv)
{
	return pv->profile < model_n_profiles(f->m) &&
	       f->pos[pv->profile] != MODEL_NONE;
}

/* Exclusive column `col`'s rows: one row of locations at a time, a node's
 * values added as soon as they are read (never call nodes x locations). */
static enum status read_column(struct cfile *f, uint32_t col)
{
	const struct model *m = f->m;
	struct extrap_set *s = f->c->s;
	const struct model_column *mc = &model_columns(m)[col];
	uint32_t stat = model_column_stat(m, col);
	if (mc->kind != COLUMN_EXCLUSIVE || stat == MODEL_NONE)
		return STATUS_OK;
	/* a hidden column's metric is taken at its first value: the nodes
	 * before, present with zeros only, get their rows then */
	uint32_t metric = MODEL_NONE;
	if (mc->visible && (metric = extrap_set_metric(
				    s, mc->name, strlen(mc->name))) == MODEL_NONE)
		return cfile_nomem(f);
	for (uint32_t n = 1; n < model_n_nodes(m); n++) {
		struct profile_value *pv = NULL;
		size_t k = 0;
		double sum;
		/* a call node without a row has no measurement */
		f->present[n] = model_stat_value(m, n, stat, &sum);
		enum status st = model_per_profile(m, n, stat, &pv, &k,
						   f->c->err);
		if (st != STATUS_OK)
			return st;
		f->present[n] |= k > 0;
		bool any = false;
		for (size_t i = 0; i < k && !any; i++)
			any = at_location(f, &pv[i]);
		if (any && metric == MODEL_NONE) {
			/* `row` is all zeros here */
			metric = extrap_set_metric(s, mc->name,
						   strlen(mc->name));
			for (uint32_t z = 1; z < n && metric != MODEL_NONE; z++)
				if (f->present[z] &&
				    !extrap_set_add_row(s, f->cp[z], metric,
							f->point, f->row, f->L))
					metric = MODEL_NONE;
			if (metric == MODEL_NONE) {
				free(pv);
				return cfile_nomem(f);
			}
		}
		for (size_t i = 0; i < k; i++)
			if (at_location(f, &pv[i]))
				f->row[f->pos[pv[i].profile]] = pv[i].value;
		bool ok = !f->present[n] || metric == MODEL_NONE ||
			  extrap_set_add_row(s, f->cp[n], metric, f->point,
					     f->row, f->L);
		/* the row back to zeros */
		for (size_t i = 0; i < k; i++)
			if (at_location(f, &pv[i]))
				f->row[f->pos[pv[i].profile]] = 0;
		free(pv);
		if (!ok)
			return cfile_nomem(f);
	}
	if (metric == MODEL_NONE)
		note_skipped(f->c, mc->name);
	return STATUS_OK;
}

/* One Cube file's rows into the set at `point`. */
static enum status read_file(struct cset *c, const char *file, uint32_t point)
{
	struct model *m = NULL;
	enum status st = open_cube(c, file, &m);
	if (st != STATUS_OK)
		return st;
	struct cfile f = {
		.c = c,
		.file = file,
		.m = m,
		.point = point,
		.pos = calloc((size_t)model_n_profiles(m) + 1, sizeof(*f.pos)),
		.cp = calloc((size_t)model_n_nodes(m) + 1, sizeof(*f.cp)),
		.present = calloc((size_t)model_n_nodes(m) + 1, 1),
	};
	if (!f.pos || !f.cp || !f.present) {
		st = cfile_nomem(&f);
		goto out;
	}
	for (uint32_t i = 0; i < model_n_profiles(m); i++)
		f.pos[i] = model_profiles(m)[i].is_summary ? MODEL_NONE : f.L++;
	if (f.L == 0)
		f.L = 1;
	st = build_callpaths(&f);
	if (st == STATUS_OK && !(f.row = calloc(f.L, sizeof(*f.row))))
		st = cfile_nomem(&f);
	for (uint32_t col = 0; col < model_n_columns(m) && st == STATUS_OK; col++)
		st = read_column(&f, col);
out:
	free(f.pos);
	free(f.cp);
	free(f.row);
	free(f.present);
	model_free(m);
	return st;
}

static enum status cubeset_open(const struct reader_input *in,
				struct model **out, struct error *err)
{
	*out = NULL;
	struct cset c = {.path = in->paths[0], .err = err,
			 .s = extrap_set_new()};
	enum status st = c.s ? find_points(&c)
			     : error_set(err, STATUS_NOMEM, c.path,
					 "out of memory");
	for (size_t i = 0; i < c.n_dirs && st == STATUS_OK; i++)
		for (size_t k = 0; k < c.dirs[i].n_files && st == STATUS_OK;
		     k++)
			st = read_file(&c, c.dirs[i].files[k], c.dirs[i].point);
	if (st == STATUS_OK && c.skipped) {
		char *w = NULL;
		if (asprintf(&w, "%s: metrics without data, skipped: %s",
			     c.path, c.skipped) >= 0)
			extrap_set_warn(c.s, w);
		free(w);
	}
	if (st == STATUS_OK) {
		extrap_set_merge_incomplete(c.s);
		/* Extra-P keeps each call path's exclusive values */
		extrap_set_values_exclusive(c.s);
		st = extrap_set_build(c.s, "extrap-cubeset", c.path, out, err);
	}
	extrap_point_dirs_free(c.dirs, c.n_dirs);
	free(c.skipped);
	extrap_set_free(c.s);
	return st;
}

/* A directory whose subdirectories' names carry parameters: at least two
 * such names, one of them in the PREFIX.PARAMS form (a dot), so that a
 * directory of other databases named db1, db2 is not taken.  The Cube
 * files inside cannot be seen from the probe, so the bid stays low. */
static int cubeset_bid(const struct reader_probe *p, int best)
{
	if (!p->is_dir || p->n_subdirs < 2 || best >= 30)
		return 0;
	size_t named = 0;
	bool dotted = false;
	for (size_t i = 0; i < p->n_subdirs; i++) {
		struct extrap_dir_params d = {0};
		char why[128];
		bool ok = p->subdirs[i][0] != '.' &&
			  extrap_dir_params(p->subdirs[i], &d, why,
					    sizeof(why)) == STATUS_OK;
		extrap_dir_params_free(&d);
		if (ok) {
			named++;
			dotted |= strchr(p->subdirs[i], '.') != NULL;
		}
	}
	return named >= 2 && dotted ? 30 : 0;
}

/* A copy of a set (a directory URL): the .cubex files of the point
 * directories, names not starting with '.', as extrap_dirname.c lists
 * them; not a file beside the point directories.  Fetched whole. */
static const struct reader_file_rule cubeset_files[] = {
	{"[!.]*/[!.]*.cubex", 0},
	{NULL, 0},
};

/* A run's name as a point's: reader_point_params. */
static bool cubeset_point_params(const char *name, char ***names,
				 double **values, uint32_t *n)
{
	struct extrap_dir_params d;
	char why[128];
	if (extrap_dir_params(name, &d, why, sizeof(why)) != STATUS_OK ||
	    d.n == 0) {
		extrap_dir_params_free(&d);
		return false;
	}
	*names = d.names;
	*values = d.values;
	*n = d.n;
	return true;
}

READER(reader_extrap_cubeset, "extrap-cubeset",
       READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_PARAMS,
       cubeset_bid, cubeset_open,
       "Extra-P Cube sets (a directory of DIR.x1y2.r1/*.cubex measurement "
       "directories)",
       .files = cubeset_files, .point_params = cubeset_point_params);
