/* extrap_json: Extra-P's JSON input (spec "JSON format"; Extra-P 4.2.5
 * json_file_reader.py, notes 5.3), read with jansson.  The format is
 * chosen as Extra-P chooses it: a `callpaths` key means the legacy,
 * id-referenced layout (lists sorted by id, ids used as 1-based positions,
 * so they must run 1..n; several measurements of one (coordinate,
 * callpath, metric) are its repetitions), otherwise the new layout
 * (`parameters`, `measurements[callpath][metric] = [{point, values}]`).
 * A file that is not JSON but whose every line starts with `{` is read as
 * JSON Lines (extrap_jsonl.c), as Extra-P falls back.  Errors name the
 * file and the line and column (jansson's) or the element.  The model is
 * extrap_set's: a column's value is the mean at the last point (the largest
 * coordinates), one profile per point holds the means there.  Must not depend
 * on curses, on ui/ or on another format. */
#include "config.h"

#include "formats/extrap/extrap.h"
#include "formats/extrap/extrap_set.h"
#include "formats/reader.h"

#include <ctype.h>
#include <math.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct jparse {
	struct extrap_set *s;
	const char *path;
	struct error *err;
	double *coords;
};

static enum status jbad(struct jparse *j, const char *what)
{
	return error_set(j->err, STATUS_CORRUPT, j->path, "%s", what);
}

static enum status jnomem(struct jparse *j)
{
	return error_set(j->err, STATUS_NOMEM, j->path, "out of memory");
}

static bool jnum(const json_t *v, double *out)
{
	if (!json_is_number(v))
		return false;
	*out = json_number_value(v);
	return true;
}

/* ---- new layout ----------------------------------------------------- */

static enum status new_values(struct jparse *j, uint32_t cp, uint32_t metric,
			      json_t *list, const char *cpname,
			      const char *mname)
{
	uint32_t np = extrap_set_n_params(j->s);
	if (!json_is_array(list))
		return error_set(j->err, STATUS_CORRUPT, j->path,
				 "measurements[\"%s\"][\"%s\"] is not a list",
				 cpname, mname);
	size_t i;
	json_t *e;
	json_array_foreach(list, i, e) {
		json_t *pt = json_object_get(e, "point");
		json_t *vals = json_object_get(e, "values");
		if (!json_is_array(pt) || !json_is_array(vals))
			return error_set(j->err, STATUS_CORRUPT, j->path,
					 "measurements[\"%s\"][\"%s\"][%zu] lacks "
					 "a \"point\" or \"values\" list",
					 cpname, mname, i);
		if (json_array_size(pt) != np)
			return error_set(j->err, STATUS_CORRUPT, j->path,
					 "measurements[\"%s\"][\"%s\"][%zu]: a "
					 "point with %zu coordinates for %u "
					 "parameters",
					 cpname, mname, i, json_array_size(pt),
					 (unsigned)np);
		for (uint32_t k = 0; k < np; k++)
			if (!jnum(json_array_get(pt, k), &j->coords[k]))
				return error_set(
					j->err, STATUS_CORRUPT, j->path,
					"measurements[\"%s\"][\"%s\"][%zu]: a "
					"coordinate is not a number",
					cpname, mname, i);
		uint32_t p = extrap_set_point(j->s, j->coords);
		if (p == MODEL_NONE)
			return extrap_set_nomem(j->s) ? jnomem(j)
				: jbad(j, "a coordinate is not a number");
		size_t k;
		json_t *v;
		json_array_foreach(vals, k, v) {
			double x;
			if (!jnum(v, &x))
				return error_set(
					j->err, STATUS_CORRUPT, j->path,
					"measurements[\"%s\"][\"%s\"][%zu]: "
					"value %zu is not a number",
					cpname, mname, i, k);
			if (!extrap_set_add_values(j->s, cp, metric, p, &x, 1))
				return jnomem(j);
		}
	}
	return STATUS_OK;
}

static enum status read_new(struct jparse *j, json_t *root)
{
	json_t *params = json_object_get(root, "parameters");
	json_t *meas = json_object_get(root, "measurements");
	if (!json_is_array(params) || !json_is_object(meas))
		return jbad(j, "not an Extra-P JSON file: no \"parameters\" "
			       "list and \"measurements\" object");
	size_t i;
	json_t *v;
	json_array_foreach(params, i, v) {
		if (!json_is_string(v))
			return jbad(j, "a parameter name is not a string");
		if (extrap_set_param(j->s, json_string_value(v),
				     json_string_length(v)) == MODEL_NONE)
			return extrap_set_nomem(j->s)
				? jnomem(j)
				: jbad(j, "a parameter is declared twice");
	}
	uint32_t np = extrap_set_n_params(j->s);
	if (np == 0)
		return jbad(j, "the file has no parameters");
	if (!(j->coords = malloc(np * sizeof(double))))
		return jnomem(j);
	const char *cpname;
	json_t *metrics;
	json_object_foreach(meas, cpname, metrics) {
		if (!json_is_object(metrics))
			return error_set(j->err, STATUS_CORRUPT, j->path,
					 "measurements[\"%s\"] is not an object",
					 cpname);
		uint32_t cp = extrap_set_callpath(j->s, cpname, strlen(cpname));
		const char *mname;
		json_t *list;
		json_object_foreach(metrics, mname, list) {
			uint32_t metric =
				extrap_set_metric(j->s, mname, strlen(mname));
			if (cp == MODEL_NONE || metric == MODEL_NONE)
				return jnomem(j);
			enum status st = new_values(j, cp, metric, list,
						    cpname, mname);
			if (st != STATUS_OK)
				return st;
		}
	}
	return STATUS_OK;
}

/* ---- legacy layout -------------------------------------------------- */

/* The list `key` of {id, ...} objects as an array indexed by id - 1:
 * the ids must be exactly 1..n (Extra-P indexes the sorted list with
 * id - 1). */
static enum status by_id(struct jparse *j, json_t *root, const char *key,
			 json_t ***out, size_t *n)
{
	json_t *list = json_object_get(root, key);
	*out = NULL;
	*n = 0;
	if (!json_is_array(list))
		return error_set(j->err, STATUS_CORRUPT, j->path,
				 "legacy JSON: \"%s\" is not a list", key);
	size_t len = json_array_size(list);
	json_t **a = calloc(len + 1, sizeof(*a));
	if (!a)
		return jnomem(j);
	size_t i;
	json_t *e;
	json_array_foreach(list, i, e) {
		json_t *id = json_object_get(e, "id");
		if (!json_is_integer(id) || json_integer_value(id) < 1 ||
		    (uint64_t)json_integer_value(id) > len ||
		    a[json_integer_value(id) - 1]) {
			free(a);
			return error_set(j->err, STATUS_CORRUPT, j->path,
					 "legacy JSON: %s[%zu] has no id in "
					 "1..%zu or a repeated one (ids are "
					 "positions)",
					 key, i, len);
		}
		a[json_integer_value(id) - 1] = e;
	}
	*out = a;
	*n = len;
	return STATUS_OK;
}

static enum status named(struct jparse *j, json_t *e, const char *key,
			 size_t i, const char **name, size_t *len)
{
	json_t *v = json_object_get(e, "name");
	if (!json_is_string(v))
		return error_set(j->err, STATUS_CORRUPT, j->path,
				 "legacy JSON: %s with id %zu has no name",
				 key, i + 1);
	*name = json_string_value(v);
	*len = json_string_length(v);
	return STATUS_OK;
}

/* Coordinate `i` (its pairs, sorted by parameter id: one per parameter)
 * as the set's point *point. */
static enum status read_coordinate(struct jparse *j, json_t *coord, size_t i,
				   size_t np, uint32_t *point)
{
	enum status st = STATUS_OK;
	json_t *pairs = json_object_get(coord, "parameter_value_pairs");
	for (size_t k = 0; k < np; k++)
		j->coords[k] = (double)NAN;
	size_t pi;
	json_t *pv;
	if (!json_is_array(pairs) || json_array_size(pairs) != np)
		return error_set(j->err, STATUS_CORRUPT, j->path,
				 "legacy JSON: coordinate %zu does not "
				 "have one value per parameter",
				 i + 1);
	json_array_foreach(pairs, pi, pv) {
		json_t *id = json_object_get(pv, "parameter_id");
		double x;
		if (!json_is_integer(id) || json_integer_value(id) < 1 ||
		    (uint64_t)json_integer_value(id) > np ||
		    !jnum(json_object_get(pv, "parameter_value"), &x))
			return error_set(j->err, STATUS_CORRUPT, j->path,
					 "legacy JSON: coordinate %zu: "
					 "pair %zu is not a known "
					 "parameter id and a number",
					 i + 1, pi);
		j->coords[json_integer_value(id) - 1] = x;
	}
	if ((*point = extrap_set_point(j->s, j->coords)) == MODEL_NONE)
		st = extrap_set_nomem(j->s)
			? jnomem(j)
			: error_set(j->err, STATUS_CORRUPT, j->path,
				    "legacy JSON: coordinate %zu "
				    "names a parameter twice",
				    i + 1);
	return st;
}

/* The "measurements" list: each a value of a callpath's metric at a
 * coordinate (ids from 1; the coordinates' points in `point`). */
static enum status read_measurements(struct jparse *j, json_t *meas,
				     size_t nc, size_t ncp, size_t nm,
				     const uint32_t *point)
{
	if (!json_is_array(meas))
		return jbad(j, "legacy JSON: \"measurements\" is not a list");
	size_t i;
	json_t *e;
	json_array_foreach(meas, i, e) {
		json_t *c = json_object_get(e, "coordinate_id");
		json_t *cp = json_object_get(e, "callpath_id");
		json_t *mt = json_object_get(e, "metric_id");
		double x;
		if (!json_is_integer(c) || !json_is_integer(cp) ||
		    !json_is_integer(mt) || json_integer_value(c) < 1 ||
		    (uint64_t)json_integer_value(c) > nc ||
		    json_integer_value(cp) < 1 ||
		    (uint64_t)json_integer_value(cp) > ncp ||
		    json_integer_value(mt) < 1 ||
		    (uint64_t)json_integer_value(mt) > nm ||
		    !jnum(json_object_get(e, "value"), &x))
			return error_set(j->err, STATUS_CORRUPT, j->path,
					 "legacy JSON: measurements[%zu] "
					 "lacks a known coordinate, "
					 "callpath or metric id or a "
					 "numeric value",
					 i);
		if (!extrap_set_add_values(
			    j->s, (uint32_t)json_integer_value(cp) - 1,
			    (uint32_t)json_integer_value(mt) - 1,
			    point[json_integer_value(c) - 1], &x, 1))
			return jnomem(j);
	}
	return STATUS_OK;
}

static enum status read_legacy(struct jparse *j, json_t *root)
{
	json_t **params = NULL, **cps = NULL, **metrics = NULL, **coords = NULL;
	size_t np = 0, ncp = 0, nm = 0, nc = 0;
	uint32_t *point = NULL;
	enum status st = by_id(j, root, "parameters", &params, &np);
	if (st == STATUS_OK)
		st = by_id(j, root, "callpaths", &cps, &ncp);
	if (st == STATUS_OK)
		st = by_id(j, root, "metrics", &metrics, &nm);
	if (st == STATUS_OK)
		st = by_id(j, root, "coordinates", &coords, &nc);
	const char *name;
	size_t len;
	for (size_t i = 0; i < np && st == STATUS_OK; i++)
		if ((st = named(j, params[i], "parameter", i, &name, &len)) ==
			    STATUS_OK &&
		    extrap_set_param(j->s, name, len) == MODEL_NONE)
			st = extrap_set_nomem(j->s)
				? jnomem(j)
				: jbad(j, "a parameter is declared twice");
	for (size_t i = 0; i < ncp && st == STATUS_OK; i++)
		if ((st = named(j, cps[i], "callpath", i, &name, &len)) ==
			    STATUS_OK &&
		    extrap_set_callpath(j->s, name, len) != i)
			st = jbad(j, "legacy JSON: a callpath is named twice");
	for (size_t i = 0; i < nm && st == STATUS_OK; i++)
		if ((st = named(j, metrics[i], "metric", i, &name, &len)) ==
			    STATUS_OK &&
		    extrap_set_metric(j->s, name, len) != i)
			st = jbad(j, "legacy JSON: a metric is named twice");
	if (st == STATUS_OK && np == 0)
		st = jbad(j, "the file has no parameters");
	if (st == STATUS_OK &&
	    (!(j->coords = malloc(np * sizeof(double))) ||
	     !(point = malloc((nc + 1) * sizeof(*point)))))
		st = jnomem(j);
	for (size_t i = 0; i < nc && st == STATUS_OK; i++)
		st = read_coordinate(j, coords[i], i, np, &point[i]);
	if (st == STATUS_OK)
		st = read_measurements(j, json_object_get(root, "measurements"),
				       nc, ncp, nm, point);
	free(params);
	free(cps);
	free(metrics);
	free(coords);
	free(point);
	return st;
}

/* Every nonblank line starts with '{' (Extra-P's test for JSON Lines). */
static bool looks_jsonl(const char *data, size_t len)
{
	const char *p = data, *end = data + len;
	bool any = false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *q = p;
		while (q < le && isspace((unsigned char)*q))
			q++;
		if (q < le) {
			if (*q != '{')
				return false;
			any = true;
		}
		p = nl ? nl + 1 : end;
	}
	return any;
}

enum status extrap_json_parse(const char *data, size_t len, const char *path,
			      struct model **out, struct error *err)
{
	*out = NULL;
	json_error_t je;
	json_t *root = json_loadb(data, len, 0, &je);
	if (!root) {
		if (looks_jsonl(data, len))
			return extrap_jsonl_parse(data, len, path, out, err);
		return error_set(err, STATUS_CORRUPT, path,
				 "line %d column %d: %s", je.line, je.column,
				 je.text);
	}
	struct jparse j = {.s = extrap_set_new(), .path = path, .err = err};
	enum status st;
	if (j.s) /* Extra-P models the points in file order */
		extrap_set_keep_file_order(j.s);
	if (!j.s)
		st = jnomem(&j);
	else if (!json_is_object(root))
		st = jbad(&j, "not an Extra-P JSON file: not a JSON object");
	else if (json_object_get(root, "callpaths"))
		st = read_legacy(&j, root);
	else
		st = read_new(&j, root);
	json_decref(root);
	if (st == STATUS_OK)
		st = extrap_set_finish(j.s, "extrap-json", path, out, err);
	free(j.coords);
	extrap_set_free(j.s);
	return st;
}

/* A JSON object whose head names Extra-P's keys; not a TaLPas or JSON
 * Lines file (their readers bid higher on those). */
static int json_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (!p->is_file || !p->head)
		return 0;
	const char *h = (const char *)p->head;
	size_t i = 0;
	while (i < p->head_len && isspace((unsigned char)h[i]))
		i++;
	if (i >= p->head_len || h[i] != '{')
		return 0;
	bool callpaths = memmem(h, p->head_len, "\"callpaths\"", 11);
	bool params = memmem(h, p->head_len, "\"parameters\"", 12);
	bool meas = memmem(h, p->head_len, "\"measurements\"", 14);
	/* a legacy file's lists may outrun the head: "callpaths" first */
	if ((params && meas) || callpaths)
		return 60;
	return params || meas ? 30 : 0;
}

static enum status json_open(const struct reader_input *in,
			     struct model **out, struct error *err)
{
	return extrap_open_parsed(in, extrap_json_parse, out, err);
}

READER(reader_extrap_json, "extrap-json",
       READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_PARAMS, json_bid,
       json_open, "Extra-P JSON measurement files (new and legacy layouts)");
