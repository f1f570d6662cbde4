/* extrap3: Extra-P 3 binary experiments (Extra-P 4.2.5
 * extrap3_experiment_reader.py, notes 5.7).  The file is mapped and read
 * only through checked spans: a 2-byte mark (1 read little-endian means
 * little-endian, anything else big-endian), strings as u32 length + bytes,
 * "EXTRAP_EXPERIMENT", a version string, then records tagged by a string
 * until the end: Parameter(id, name), Metric(id, name, unit; referenced by
 * position), Region(id, name, file, line; a repeated name gets " #N" as in
 * Extra-P), Callpath(id, region, parent), Coordinate(id, n, n x (parameter
 * name, value)), ModelComment(id, text), the four *ModelGenerator records
 * (their optional strategy fields read on trial and rolled back as Extra-P
 * does; they make the models carry RE), ExperimentPoint (qqdddddddddqq:
 * coordinate, sample count, mean, mean CI, std, median, median CI, min,
 * max, metric, callpath) and Model (metric, callpath, generator, function,
 * three intervals of two functions, RSS, AR2, SMAPE, [RE], comments,
 * parameter intervals; their functions are extrap3_model.c's).  Only
 * aggregates are stored; the sample count becomes the repetitions.
 * Every count is checked against the bytes left before anything is
 * allocated or looped over; an error names the file and the byte offset.
 * The model is extrap_set's: a column's value is the mean at the last
 * point (the largest coordinates), one profile per point holds the means
 * there.  Must not depend on curses, on ui/ or on another
 * format. */
#include "config.h"

#include "core/array.h"
#include "formats/extrap/extrap.h"
#include "formats/extrap/extrap_set.h"
#include "formats/reader.h"
#include "formats/extrap/extrap3_internal.h"
#include "io/blob.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool rec_parameter(struct x3 *x)
{
	int64_t id;
	const char *s;
	size_t n;
	if (!x3_i64(&x->c, &id) || !x3_str(&x->c, &s, &n))
		return false;
	if (extrap_set_n_points(x->s))
		return x3_fail(&x->c, "a Parameter after the first Coordinate");
	if (extrap_set_param(x->s, s, n) == MODEL_NONE)
		return extrap_set_nomem(x->s) ? x3_nomem(x)
			: x3_fail(&x->c, "a parameter declared twice");
	return true;
}

static bool rec_metric(struct x3 *x)
{
	int64_t id;
	const char *s, *u;
	size_t n, un;
	if (!x3_i64(&x->c, &id) || !x3_str(&x->c, &s, &n) ||
	    !x3_str(&x->c, &u, &un))
		return false;
	/* metrics are referenced by position (Extra-P: metrics[id]); a
	 * repeated name is the same metric there too */
	uint32_t m = extrap_set_metric(x->s, s, n);
	if (m == MODEL_NONE)
		return x3_nomem(x);
	if (m != x->n_metrics)
		return x3_fail(&x->c, "a metric named twice");
	x->n_metrics++;
	return true;
}

/* Extra-P's naming of repeated region names: a new id with a name seen
 * before gets " #N" (N counting per name); a name seen anew, or an id
 * seen again, resets the name's count to 0 (Extra-P's region_set). */
static bool rec_region(struct x3 *x)
{
	int64_t id, line;
	const char *s, *file;
	size_t n, fn;
	uint32_t old;
	if (!x3_i64(&x->c, &id) || !x3_str(&x->c, &s, &n) ||
	    !x3_str(&x->c, &file, &fn) || !x3_i64(&x->c, &line))
		return false;
	size_t k = 0;
	while (k < x->n_bases && !(strlen(x->bases[k]) == n &&
				   memcmp(x->bases[k], s, n) == 0))
		k++;
	char *name = NULL;
	if (!x3_idmap_get(&x->regions, id, &old) && k < x->n_bases) {
		x->base_count[k]++;
		if (asprintf(&name, "%.*s #%u", (int)n, s,
			     (unsigned)x->base_count[k]) < 0)
			name = NULL;
	} else {
		if (k == x->n_bases) {
			char **gb = realloc(x->bases, (k + 1) * sizeof(*gb));
			if (gb)
				x->bases = gb;
			uint32_t *gc = gb ? realloc(x->base_count,
						    (k + 1) * sizeof(*gc))
					  : NULL;
			if (gc)
				x->base_count = gc;
			if (!gc || !(x->bases[k] = strndup(s, n)))
				return x3_nomem(x);
			x->n_bases++;
		}
		x->base_count[k] = 0;
		name = strndup(s, n);
	}
	if (!name)
		return x3_nomem(x);
	if (!array_grow((void **)&x->names, &x->names_cap, x->n_names + 1,
			sizeof(*x->names))) {
		free(name);
		return x3_nomem(x);
	}
	x->names[x->n_names] = name;
	if (!x3_idmap_put(&x->regions, id, (uint32_t)x->n_names))
		return x3_nomem(x);
	x->n_names++;
	return true;
}

static bool rec_callpath(struct x3 *x)
{
	int64_t id, region, parent;
	uint32_t ri, pi;
	if (!x3_i64(&x->c, &id) || !x3_i64(&x->c, &region) ||
	    !x3_i64(&x->c, &parent))
		return false;
	if (!x3_idmap_get(&x->regions, region, &ri))
		return x3_fail(&x->c, "a Callpath of an unknown region");
	char *name = NULL;
	if (parent == -1) {
		name = strdup(x->names[ri]);
	} else if (!x3_idmap_get(&x->callpaths, parent, &pi)) {
		return x3_fail(&x->c, "a Callpath whose parent is not defined "
				   "before it");
	} else if (asprintf(&name, "%s->%s", x->cpnames[pi],
			    x->names[ri]) < 0) {
		name = NULL;
	}
	if (!name)
		return x3_nomem(x);
	uint32_t cp = extrap_set_callpath(x->s, name, strlen(name));
	if (cp == MODEL_NONE) {
		free(name);
		return x3_nomem(x);
	}
	if (cp == x->n_cpnames) {
		if (!array_grow((void **)&x->cpnames, &x->cpnames_cap,
				x->n_cpnames + 1, sizeof(*x->cpnames))) {
			free(name);
			return x3_nomem(x);
		}
		x->cpnames[x->n_cpnames++] = name;
	} else {
		free(name);
	}
	return x3_idmap_put(&x->callpaths, id, cp) || x3_nomem(x);
}

static bool rec_coordinate(struct x3 *x)
{
	int64_t id;
	uint64_t n;
	uint32_t np = extrap_set_n_params(x->s);
	if (!x3_i64(&x->c, &id) || !x3_count(&x->c, 12, &n))
		return false;
	if (n != np)
		return x3_fail(&x->c, "a Coordinate without one value per "
				   "parameter");
	if (!x->cbuf && !(x->cbuf = malloc((np + 1) * sizeof(double))))
		return x3_nomem(x);
	for (uint32_t i = 0; i < np; i++)
		x->cbuf[i] = (double)NAN;
	for (uint64_t i = 0; i < n; i++) {
		const char *s;
		size_t len;
		double v;
		if (!x3_str(&x->c, &s, &len) || !x3_f64(&x->c, &v))
			return false;
		uint32_t p = extrap_set_find_param(x->s, s, len);
		if (p == MODEL_NONE)
			return x3_fail(&x->c, "a Coordinate of an unknown "
					   "parameter");
		x->cbuf[p] = v;
	}
	uint32_t pt = extrap_set_point(x->s, x->cbuf);
	if (pt == MODEL_NONE)
		return extrap_set_nomem(x->s) ? x3_nomem(x)
			: x3_fail(&x->c, "a Coordinate that names a parameter "
				      "twice or has a NaN value");
	return x3_idmap_put(&x->coords, id, pt) || x3_nomem(x);
}

/* The optional strategy fields of a generator, read on trial: kept (and
 * the file's models carry RE) when both strategies are known names,
 * otherwise the position goes back (Extra-P's IoTransaction). */
static bool try_strategies(struct x3 *x)
{
	struct cur save = x->c;
	int64_t i1, i2, i3;
	const char *ss, *ms;
	size_t sl, ml;
	bool ok = x3_i64(&x->c, &i1) && x3_str(&x->c, &ss, &sl) &&
		  x3_i64(&x->c, &i2) && x3_i64(&x->c, &i3) &&
		  x3_str(&x->c, &ms, &ml) &&
		  (x3_str_is(ss, sl, "FIRST_POINTS_FOUND") ||
		   x3_str_is(ss, sl, "MAX_NUMBER_POINTS") ||
		   x3_str_is(ss, sl, "CHEAPEST_POINTS")) &&
		  (x3_str_is(ms, ml, "INCREASING_COST") ||
		   x3_str_is(ms, ml, "DECREASING_COST"));
	if (ok) {
		x->sparse = true;
		return true;
	}
	x->c = save; /* also forgets a failure inside the trial */
	return true;
}


static bool rec_generator(struct x3 *x, bool single, bool simple)
{
	const char *name, *s;
	size_t nl, sl;
	double eps;
	if (!x3_str(&x->c, &name, &nl))
		return false;
	if (single && (!x3_str(&x->c, &s, &sl) || !x3_f64(&x->c, &eps)))
		return false;
	if (!x3_str(&x->c, &s, &sl) || !try_strategies(x))
		return false;
	if (simple) {
		/* the building blocks and the maximum term count */
		uint64_t n;
		if (!x3_count(&x->c, 12, &n))
			return false;
		for (uint64_t i = 0; i < n; i++) {
			double c;
			struct scaling_factor f;
			if (!x3_str(&x->c, &s, &sl))
				return false;
			if (!x3_str_is(s, sl, "CompoundTerm"))
				return x3_fail(&x->c, "a building block that is "
						   "not a CompoundTerm");
			if (!x3_compound(x, &c, &f, false))
				return false;
		}
		int64_t max_terms;
		if (!x3_i64(&x->c, &max_terms))
			return false;
	}
	char **g = realloc(x->gen_name, (x->n_gens + 1) * sizeof(*g));
	if (!g)
		return x3_nomem(x);
	x->gen_name = g;
	if (!(x->gen_name[x->n_gens] = strndup(name, nl)))
		return x3_nomem(x);
	x->n_gens++;
	return true;
}

static bool rec_point(struct x3 *x)
{
	int64_t coord, samples, metric, callpath;
	double v[9];
	uint32_t pt, cp;
	if (!x3_i64(&x->c, &coord) || !x3_i64(&x->c, &samples))
		return false;
	for (int i = 0; i < 9; i++)
		if (!x3_f64(&x->c, &v[i]))
			return false;
	if (!x3_i64(&x->c, &metric) || !x3_i64(&x->c, &callpath))
		return false;
	if (!x3_idmap_get(&x->coords, coord, &pt) ||
	    !x3_idmap_get(&x->callpaths, callpath, &cp) || metric < 0 ||
	    (uint64_t)metric >= x->n_metrics)
		return x3_fail(&x->c, "an ExperimentPoint of an unknown "
				   "coordinate, metric or callpath");
	struct model_measure m = {
		.mean = v[0], .std = v[3], .median = v[4],
		.minimum = v[7], .maximum = v[8],
		.repetitions = samples > 0 && samples < UINT32_MAX
				       ? (uint32_t)samples : 0,
	};
	return extrap_set_put_measure(x->s, cp, (uint32_t)metric, pt, &m) ||
	       x3_nomem(x);
}

static bool records(struct x3 *x)
{
	const char *p;
	size_t pl;
	if (!x3_str(&x->c, &p, &pl) || !x3_str_is(p, pl, "EXTRAP_EXPERIMENT"))
		return x3_fail(&x->c, "no EXTRAP_EXPERIMENT qualifier (not an "
				   "Extra-P 3 file)");
	if (!x3_str(&x->c, &p, &pl) || !x3_str(&x->c, &p, &pl))
		return false;
	while (pl) {
		uint64_t at = x->c.off;
		bool ok;
		if (x3_str_is(p, pl, "Parameter"))
			ok = rec_parameter(x);
		else if (x3_str_is(p, pl, "Metric"))
			ok = rec_metric(x);
		else if (x3_str_is(p, pl, "Region"))
			ok = rec_region(x);
		else if (x3_str_is(p, pl, "Callpath"))
			ok = rec_callpath(x);
		else if (x3_str_is(p, pl, "Coordinate"))
			ok = rec_coordinate(x);
		else if (x3_str_is(p, pl, "ModelComment")) {
			int64_t id;
			const char *t;
			size_t tl;
			ok = x3_i64(&x->c, &id) && x3_str(&x->c, &t, &tl);
		} else if (x3_str_is(p, pl, "SingleParameterSimpleModelGenerator"))
			ok = rec_generator(x, true, true);
		else if (x3_str_is(p, pl,
				"SingleParameterRefiningModelGenerator"))
			ok = rec_generator(x, true, false);
		else if (x3_str_is(p, pl, "MultiParameterSimpleModelGenerator") ||
			 x3_str_is(p, pl, "MultiParameterSparseModelGenerator"))
			ok = rec_generator(x, false, false);
		else if (x3_str_is(p, pl, "ExperimentPoint"))
			ok = rec_point(x);
		else if (x3_str_is(p, pl, "Model"))
			ok = x3_model(x);
		else {
			x->c.off = at - pl - 4;
			ok = x3_fail(&x->c, "an unknown record");
		}
		if (!ok || !x3_str(&x->c, &p, &pl))
			return false;
	}
	return true;
}

/* The generators that have models, in file order, become the stored
 * sets (Extra-P drops the empty ones). */
static bool stored_sets(struct x3 *x)
{
	for (uint32_t g = 0; g < x->n_gens; g++) {
		uint32_t set = MODEL_NONE;
		for (size_t i = 0; i < x->n_models; i++) {
			if (x->models[i].gen != g)
				continue;
			if (set == MODEL_NONE &&
			    (set = extrap_set_model_set(x->s, x->gen_name[g])) ==
				    MODEL_NONE)
				return x3_nomem(x);
			if (!extrap_set_put_model(x->s, set, x->models[i].cp,
						  x->models[i].metric,
						  &x->models[i].m))
				return x3_nomem(x);
		}
	}
	return true;
}

static enum status extrap3_open(const struct reader_input *in,
				struct model **out, struct error *err)
{
	const char *path = in->paths[0];
	*out = NULL;
	struct blob *bl = NULL;
	struct x3 x = {.s = extrap_set_new()};
	if (x.s) /* Extra-P models the ExperimentPoint records in file order */
		extrap_set_keep_file_order(x.s);
	enum status st = blob_open_file(path, &bl, err);
	if (st == STATUS_OK)
		st = blob_map_all(bl, &x.c.s, err);
	if (st == STATUS_OK && !x.s)
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
	if (st == STATUS_OK) {
		x.c.path = path;
		x.c.err = err;
		uint8_t b0, b1;
		if (!span_u8(x.c.s, 0, &b0) || !span_u8(x.c.s, 1, &b1)) {
			st = error_set(err, STATUS_CORRUPT, path,
				       "Extra-P 3 experiment: no byte-order "
				       "mark");
		} else {
			/* Extra-P reads the mark little-endian: 1 is LE */
			x.c.le = (b0 | b1 << 8) == 1;
			x.c.off = 2;
			if (!records(&x) || !stored_sets(&x))
				st = err->status ? err->status : STATUS_CORRUPT;
		}
	}
	if (st == STATUS_OK)
		st = extrap_set_finish(x.s, "extrap3", path, out, err);
	array_free_each(x.names, x.n_names);
	array_free_each(x.bases, x.n_bases);
	free(x.base_count);
	array_free_each(x.cpnames, x.n_cpnames);
	array_free_each(x.gen_name, x.n_gens);
	for (size_t i = 0; i < x.n_models; i++)
		free(x.models[i].m.terms);
	free(x.models);
	free(x.regions.id);
	free(x.regions.val);
	free(x.callpaths.id);
	free(x.callpaths.val);
	free(x.coords.id);
	free(x.coords.val);
	free(x.cbuf);
	extrap_set_free(x.s);
	blob_close(bl);
	return st;
}

/* The mark, then the qualifier string EXTRAP_EXPERIMENT in either byte
 * order. */
static int extrap3_bid(const struct reader_probe *p, int best)
{
	(void)best;
	static const uint8_t le[] = "\001\000\021\000\000\000EXTRAP_EXPERIMENT";
	static const uint8_t be[] = "\000\001\000\000\000\021EXTRAP_EXPERIMENT";
	if (!p->is_file)
		return 0;
	if (reader_probe_head_is(p, le, sizeof(le) - 1) ||
	    reader_probe_head_is(p, be, sizeof(be) - 1))
		return 90;
	return 0;
}

READER(reader_extrap3, "extrap3",
       READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_PARAMS,
       extrap3_bid, extrap3_open,
       "Extra-P 3 binary experiments (measurements and stored models)");
