/* extrap_experiment: Extra-P experiments (.extra-p; spec "Experiment
 * format", Extra-P 4.2.5 fileio/experiment_io.py and the entities'
 * schemas, notes 5.6): a ZIP whose member experiment.json is read into
 * memory with libarchive (nothing is extracted to disk) and parsed with
 * jansson.  Measurements are stored aggregates (coordinate, mean, median,
 * minimum, maximum, std, and from 4.2 the repetitions); every named model
 * set of `modelers` becomes a stored set (model_builder_add_stored_set),
 * each model a struct scaling_model: ConstantFunction, SingleParameter-
 * Function (compound_terms of simple_terms on parameter 0) and
 * MultiParameterFunction (parameter_term_pairs keyed by parameter index),
 * exponents as written ("3/2" a fraction, 2.0 a float with exponent_den
 * 0), a term's coefficient times its factors' coefficients, and the fit
 * numbers RSS, rRSS, nRSS, SMAPE, AR2, RE where stored (NaN otherwise).
 * Numbers may be the strings "inf", "-inf", "nan" or a fraction.  As
 * Extra-P loads an experiment without validating it, a (callpath, metric)
 * with fewer points than the set is kept and modelled on the points it
 * has, with a warning naming the short series, except the callpaths the
 * "callpaths" map tags validation__ignore__num_measurements.  The
 * keep-values members (values/N.vals) are not read.  The model is
 * extrap_set's: a column's value is the mean at the last point (the largest
 * coordinates), one profile per point holds the means there.  Must not depend
 * on curses, on ui/ or on another format. */
#include "config.h"

#include "formats/extrap/extrap.h"
#include "formats/extrap/extrap_set.h"
#include "formats/extrap/extrap_set_internal.h"
#include "formats/reader.h"

#include "core/lazylib.h"
#include "core/array.h"

#include <archive.h>
#include <archive_entry.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EXPERIMENT_MAX_JSON ((size_t)1 << 30)

/* experiment.json of the ZIP at `path` into *data (NUL-terminated). */
static enum status read_member(const char *path, char **data, size_t *len,
			       struct error *err)
{
	*data = NULL;
	*len = 0;
	enum status need = lazylib_require(LAZYLIB_ARCHIVE, err);
	if (need != STATUS_OK)
		return need;
	struct archive *a = archive_read_new();
	if (!a)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	archive_read_support_format_zip(a);
	enum status st = STATUS_OK;
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		st = error_set(err, STATUS_CORRUPT, path, "not a ZIP file: %s",
			       archive_error_string(a));
		goto out;
	}
	struct archive_entry *e;
	bool found = false;
	int r;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		if (!name || strcmp(name, "experiment.json") != 0)
			continue;
		found = true;
		size_t cap = 65536, n = 0;
		char *buf = malloc(cap + 1);
		while (buf) {
			if (n == cap) {
				if (cap >= EXPERIMENT_MAX_JSON) {
					FREE_AND_NULL(buf);
					st = error_set(err, STATUS_CORRUPT, path,
						       "experiment.json is "
						       "larger than 1 GiB");
					break;
				}
				char *g = realloc(buf, cap * 2 + 1);
				if (!g) {
					FREE_AND_NULL(buf);
					break;
				}
				buf = g;
				cap *= 2;
			}
			la_ssize_t got = archive_read_data(a, buf + n, cap - n);
			if (got < 0) {
				st = error_set(err, STATUS_CORRUPT, path,
					       "experiment.json: %s",
					       archive_error_string(a));
				FREE_AND_NULL(buf);
				break;
			}
			if (got == 0)
				break;
			n += (size_t)got;
		}
		if (!buf && st == STATUS_OK)
			st = error_set(err, STATUS_NOMEM, path, "out of memory");
		if (buf) {
			buf[n] = '\0';
			*data = buf;
			*len = n;
		}
		break;
	}
	if (st == STATUS_OK && !found)
		st = r == ARCHIVE_EOF
			? error_set(err, STATUS_CORRUPT, path,
				    "no experiment.json in the archive")
			: error_set(err, STATUS_CORRUPT, path, "%s",
				    archive_error_string(a));
out:
	archive_read_free(a);
	return st;
}

/* A number of the schema's Number: a JSON number, "inf", "-inf", "nan",
 * or a fraction "a/b". */
static bool xnum(const json_t *v, double *out)
{
	if (json_is_number(v)) {
		*out = json_number_value(v);
		return true;
	}
	if (!json_is_string(v))
		return false;
	const char *s = json_string_value(v);
	const char *slash = strchr(s, '/');
	if (!slash)
		return extrap_parse_double(s, strlen(s), out);
	double a, b;
	if (!extrap_parse_double(s, (size_t)(slash - s), &a) ||
	    !extrap_parse_double(slash + 1, strlen(slash + 1), &b))
		return false;
	*out = a / b;
	return true;
}

struct xparse {
	struct extrap_set *s;
	const char *path;
	struct error *err;
	double *coords;
};

/* "experiment.json: measurements["CP"]["M"]: WHAT" */
static enum status xbad(struct xparse *x, const char *where, const char *cp,
			const char *metric, const char *what)
{
	return error_set(x->err, STATUS_CORRUPT, x->path,
			 "experiment.json: %s[\"%s\"][\"%s\"]: %s", where, cp,
			 metric, what);
}

static enum status read_measurements(struct xparse *x, json_t *meas)
{
	uint32_t np = extrap_set_n_params(x->s);
	const char *cpname, *mname;
	json_t *metrics, *list;
	json_object_foreach(meas, cpname, metrics) {
		if (!json_is_object(metrics))
			return error_set(x->err, STATUS_CORRUPT, x->path,
					 "experiment.json: measurements[\"%s\"]"
					 ": not an object",
					 cpname);
		uint32_t cp = extrap_set_callpath(x->s, cpname, strlen(cpname));
		json_object_foreach(metrics, mname, list) {
			uint32_t metric =
				extrap_set_metric(x->s, mname, strlen(mname));
			if (cp == MODEL_NONE || metric == MODEL_NONE)
				return error_set(x->err, STATUS_NOMEM, x->path,
						 "out of memory");
			if (!json_is_array(list))
				return xbad(x, "measurements", cpname, mname,
					    "not a list");
			size_t i;
			json_t *e;
			json_array_foreach(list, i, e) {
				json_t *c = json_object_get(e, "coordinate");
				struct model_measure ms = {0};
				bool ok = json_is_array(c) &&
					  json_array_size(c) == np;
				for (uint32_t k = 0; ok && k < np; k++)
					ok = xnum(json_array_get(c, k),
						  &x->coords[k]);
				ok = ok &&
				     xnum(json_object_get(e, "mean"), &ms.mean) &&
				     xnum(json_object_get(e, "median"),
					  &ms.median) &&
				     xnum(json_object_get(e, "minimum"),
					  &ms.minimum) &&
				     xnum(json_object_get(e, "maximum"),
					  &ms.maximum) &&
				     xnum(json_object_get(e, "std"), &ms.std);
				if (!ok)
					return xbad(x, "measurements", cpname,
						    mname,
						    "an entry without a "
						    "coordinate of one number per "
						    "parameter and numeric mean, "
						    "median, minimum, maximum, "
						    "std");
				json_t *r = json_object_get(e, "repetitions");
				if (json_is_integer(r) &&
				    json_integer_value(r) > 0 &&
				    json_integer_value(r) < UINT32_MAX)
					ms.repetitions =
						(uint32_t)json_integer_value(r);
				uint32_t p = extrap_set_point(x->s, x->coords);
				if (p == MODEL_NONE ||
				    !extrap_set_put_measure(x->s, cp, metric, p,
							    &ms))
					return extrap_set_nomem(x->s)
						? error_set(x->err, STATUS_NOMEM,
							    x->path,
							    "out of memory")
						: xbad(x, "measurements", cpname,
						       mname,
						       "a coordinate is not a "
						       "number");
			}
		}
	}
	return STATUS_OK;
}

/* The optional "callpaths" map ({name: {"tags": {...}}}, the callpaths
 * that have tags): a measured callpath tagged
 * validation__ignore__num_measurements may lack points silently. */
static void read_tags(struct xparse *x, json_t *cps)
{
	const char *name;
	json_t *c;
	json_object_foreach(cps, name, c) {
		json_t *tags = json_object_get(c, "tags");
		uint32_t cp = extrap_names_find(&x->s->cps, name, strlen(name));
		if (cp != MODEL_NONE &&
		    json_is_true(json_object_get(
			tags, "validation__ignore__num_measurements")))
			extrap_set_may_lack_points(x->s, cp);
	}
}

/* The simple terms of one parameter into factor `f`; false when bad. */
static bool read_simple_terms(json_t *terms, struct scaling_factor *f,
			      double *coef)
{
	if (!json_is_array(terms))
		return false;
	size_t i;
	json_t *t;
	json_array_foreach(terms, i, t) {
		const char *type = json_string_value(
			json_object_get(t, "term_type"));
		json_t *ej = json_object_get(t, "exponent");
		double e, c;
		if (!type || !xnum(ej, &e))
			return false;
		if (xnum(json_object_get(t, "coefficient"), &c))
			*coef *= c;
		if (strcmp(type, "polynomial") == 0) {
			f->exponent = e;
			f->exponent_num = 0;
			f->exponent_den = 0;
			const char *s = json_string_value(ej);
			const char *slash = s ? strchr(s, '/') : NULL;
			if (slash) {
				f->exponent_num = atoi(s);
				f->exponent_den = atoi(slash + 1);
			}
		} else if (strcmp(type, "logarithm") == 0) {
			f->log_exponent = e;
		} else {
			return false;
		}
	}
	return true;
}

static bool read_term(json_t *ct, bool multi, uint32_t np,
		      struct scaling_term *term)
{
	memset(term, 0, sizeof(*term));
	if (!xnum(json_object_get(ct, "coefficient"), &term->coefficient))
		return false;
	if (!multi) {
		struct scaling_factor *f = &term->factors[0];
		f->param = 0;
		f->exponent_den = 1; /* 0/1 until a polynomial term says */
		term->n_factors = 1;
		return read_simple_terms(json_object_get(ct, "simple_terms"), f,
					 &term->coefficient);
	}
	json_t *pairs = json_object_get(ct, "parameter_term_pairs");
	if (!json_is_object(pairs))
		return false;
	/* factors in parameter order */
	for (uint32_t p = 0; p < np && p < SCALING_MAX_PARAMS; p++) {
		char key[16];
		snprintf(key, sizeof(key), "%u", (unsigned)p);
		json_t *pt = json_object_get(pairs, key);
		if (!pt)
			continue;
		struct scaling_factor *f = &term->factors[term->n_factors++];
		f->param = p;
		f->exponent_den = 1;
		double c;
		if (xnum(json_object_get(pt, "coefficient"), &c))
			term->coefficient *= c;
		if (!read_simple_terms(json_object_get(pt, "simple_terms"), f,
				       &term->coefficient))
			return false;
	}
	return term->n_factors == json_object_size(pairs);
}

static double fit_number(json_t *h, const char *key)
{
	double v;
	return xnum(json_object_get(h, key), &v) ? v : (double)NAN;
}

static bool read_model(json_t *hyp, uint32_t np, struct scaling_model *m)
{
	json_t *fn = json_object_get(hyp, "function");
	const char *type = json_string_value(json_object_get(fn, "$type"));
	if (!json_is_object(fn) || !type)
		return false;
	*m = (struct scaling_model){.kind = SCALING_CONSTANT};
	if (!xnum(json_object_get(fn, "constant_coefficient"), &m->constant))
		m->constant = 0;
	bool multi = strcmp(type, "MultiParameterFunction") == 0;
	if (multi)
		m->kind = SCALING_MULTI;
	else if (strcmp(type, "SingleParameterFunction") == 0)
		m->kind = SCALING_SINGLE;
	else if (strcmp(type, "ConstantFunction") != 0)
		return false;
	json_t *cts = json_object_get(fn, "compound_terms");
	size_t n = json_array_size(cts);
	if (m->kind != SCALING_CONSTANT && n) {
		m->terms = calloc(n, sizeof(*m->terms));
		if (!m->terms)
			return false;
		for (size_t i = 0; i < n; i++) {
			if (!read_term(json_array_get(cts, i), multi, np,
				       &m->terms[i])) {
				FREE_AND_NULL(m->terms);
				return false;
			}
			m->n_terms++;
		}
	}
	m->rss = fit_number(hyp, "RSS");
	m->rrss = fit_number(hyp, "rRSS");
	m->nrss = fit_number(hyp, "nRSS");
	m->smape = fit_number(hyp, "SMAPE");
	m->ar2 = fit_number(hyp, "AR2");
	m->re = fit_number(hyp, "RE");
	return true;
}

static enum status read_modelers(struct xparse *x, json_t *modelers)
{
	uint32_t np = extrap_set_n_params(x->s);
	size_t i;
	json_t *g;
	json_array_foreach(modelers, i, g) {
		const char *name = json_string_value(json_object_get(g, "name"));
		char fallback[32];
		if (!name) {
			snprintf(fallback, sizeof(fallback), "Model %zu", i + 1);
			name = fallback;
		}
		uint32_t set = extrap_set_model_set(x->s, name);
		if (set == MODEL_NONE)
			return error_set(x->err, STATUS_NOMEM, x->path,
					 "out of memory");
		json_t *models = json_object_get(g, "models");
		const char *cpname, *mname;
		json_t *metrics, *mo;
		json_object_foreach(models, cpname, metrics) {
			uint32_t cp = extrap_set_callpath(x->s, cpname,
							  strlen(cpname));
			json_object_foreach(metrics, mname, mo) {
				uint32_t metric = extrap_set_metric(
					x->s, mname, strlen(mname));
				struct scaling_model sm;
				if (cp == MODEL_NONE || metric == MODEL_NONE)
					return error_set(x->err, STATUS_NOMEM,
							 x->path,
							 "out of memory");
				if (!read_model(json_object_get(mo, "hypothesis"),
						np, &sm))
					return xbad(x, "models", cpname, mname,
						    "not a known function");
				if (!extrap_set_put_model(x->s, set, cp, metric,
							  &sm))
					return error_set(x->err, STATUS_NOMEM,
							 x->path,
							 "out of memory");
			}
		}
	}
	return STATUS_OK;
}

static enum status experiment_open(const struct reader_input *in,
				   struct model **out, struct error *err)
{
	const char *path = in->paths[0];
	*out = NULL;
	char *data = NULL;
	size_t len = 0;
	enum status st = read_member(path, &data, &len, err);
	if (st != STATUS_OK)
		return st;
	json_error_t je;
	json_t *root = json_loadb(data, len, 0, &je);
	free(data);
	if (!root)
		return error_set(err, STATUS_CORRUPT, path,
				 "experiment.json: line %d column %d: %s",
				 je.line, je.column, je.text);
	struct xparse x = {.s = extrap_set_new(), .path = path, .err = err};
	json_t *params = json_object_get(root, "parameters");
	json_t *meas = json_object_get(root, "measurements");
	json_t *modelers = json_object_get(root, "modelers");
	if (x.s) /* Extra-P models each measurement list in file order */
		extrap_set_keep_file_order(x.s);
	if (!x.s)
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
	else if (!json_is_string(json_object_get(root, "Extra-P")))
		st = error_set(err, STATUS_CORRUPT, path,
			       "experiment.json: no \"Extra-P\" version");
	else if (!json_is_array(params) || !json_is_object(meas) ||
		 (modelers && !json_is_array(modelers)))
		st = error_set(err, STATUS_CORRUPT, path,
			       "experiment.json: no \"parameters\" list and "
			       "\"measurements\" object");
	size_t i;
	json_t *v;
	if (st == STATUS_OK)
		json_array_foreach(params, i, v) {
			if (!json_is_string(v) ||
			    extrap_set_param(x.s, json_string_value(v),
					     json_string_length(v)) ==
				    MODEL_NONE) {
				st = error_set(err, STATUS_CORRUPT, path,
					       "experiment.json: parameter %zu "
					       "is not a new name",
					       i);
				break;
			}
		}
	uint32_t np = x.s ? extrap_set_n_params(x.s) : 0;
	if (st == STATUS_OK && np == 0)
		st = error_set(err, STATUS_CORRUPT, path,
			       "experiment.json: no parameters");
	if (st == STATUS_OK && !(x.coords = malloc(np * sizeof(double))))
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
	if (st == STATUS_OK)
		st = read_measurements(&x, meas);
	if (st == STATUS_OK && modelers)
		st = read_modelers(&x, modelers);
	if (st == STATUS_OK) {
		/* Extra-P loads an experiment without validating it: a series
		 * with fewer points is modelled on those it has */
		read_tags(&x, json_object_get(root, "callpaths"));
		extrap_set_allow_short(x.s, path);
	}
	json_decref(root);
	if (st == STATUS_OK)
		st = extrap_set_finish(x.s, "extrap-experiment", path, out, err);
	free(x.coords);
	extrap_set_free(x.s);
	return st;
}

/* A ZIP archive with experiment.json (a listed member), or a ZIP file
 * named *.extra-p. */
static int experiment_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (p->is_archive)
		for (size_t i = 0; i < p->n_members; i++)
			if (strcmp(p->members[i], "experiment.json") == 0)
				return 90;
	size_t l = strlen(p->path);
	if (p->is_file && l > 8 && strcmp(p->path + l - 8, ".extra-p") == 0 &&
	    reader_probe_head_is(p, "PK\003\004", 4))
		return 60;
	return 0;
}

READER(reader_extrap_experiment, "extrap-experiment",
       READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_PARAMS,
       experiment_bid, experiment_open,
       "Extra-P experiments (.extra-p: measurements and stored models)");
