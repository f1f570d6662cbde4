/* extrap_jsonl: the two line-per-measurement formats of Extra-P, each line
 * one JSON object read with jansson.
 *  - JSON Lines (spec "JSON Lines format"; jsonlines_file_reader.py, notes
 *    5.4): {"params": {...}, "value": v | [v...], "callpath"?, "metric"?};
 *    a missing callpath is "<root>", a missing metric "<default>"; blank
 *    lines are skipped.
 *  - TaLPas (spec "TaLPas format"; talpas_file_reader.py, notes 5.2): the
 *    objects are written with ';' between members, and every ';' of a line
 *    (names included) becomes ',' before parsing, as Extra-P does; keys
 *    parameters, metric, callpath, value.
 * In both, the parameter order is the first line's keys, later lines must
 * name the same parameters (any order), and repeated (callpath, metric,
 * point) lines are repetitions.  Errors name the file and the line.  The model
 * is extrap_set's: a column's value is the mean at the last point (the largest
 * coordinates), one profile per point holds the means there.  Must not depend
 * on curses, on ui/ or on another format. */
#include "config.h"

#include "formats/extrap/extrap.h"
#include "formats/extrap/extrap_set.h"
#include "formats/reader.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct lparse {
	struct extrap_set *s;
	const char *path;
	struct error *err;
	size_t line;
	double *coords;
	bool talpas;
};

static enum status lbad(struct lparse *l, const char *what)
{
	return error_set(l->err, STATUS_CORRUPT, l->path, "line %zu: %s",
			 l->line, what);
}

static enum status lnomem(struct lparse *l)
{
	return error_set(l->err, STATUS_NOMEM, l->path, "out of memory");
}

static enum status one_line(struct lparse *l, json_t *o)
{
	const char *pkey = l->talpas ? "parameters" : "params";
	json_t *params = json_object_get(o, pkey);
	if (!json_is_object(o) || !json_is_object(params))
		return error_set(l->err, STATUS_CORRUPT, l->path,
				 "line %zu: not an object with a \"%s\" object",
				 l->line, pkey);
	const char *k;
	json_t *v;
	if (extrap_set_n_params(l->s) == 0) {
		json_object_foreach(params, k, v)
			if (extrap_set_param(l->s, k, strlen(k)) == MODEL_NONE)
				return lnomem(l);
		if (extrap_set_n_params(l->s) == 0)
			return lbad(l, "no parameters");
		l->coords = malloc(extrap_set_n_params(l->s) * sizeof(double));
		if (!l->coords)
			return lnomem(l);
	}
	uint32_t np = extrap_set_n_params(l->s);
	if (json_object_size(params) != np)
		return error_set(l->err, STATUS_CORRUPT, l->path,
				 "line %zu: %zu parameters where the first "
				 "line has %u",
				 l->line, json_object_size(params),
				 (unsigned)np);
	json_object_foreach(params, k, v) {
		uint32_t i = extrap_set_find_param(l->s, k, strlen(k));
		if (i == MODEL_NONE)
			return lbad(l, "a parameter the first line does not "
				       "have");
		if (!json_is_number(v))
			return lbad(l, "a parameter value is not a number");
		l->coords[i] = json_number_value(v);
	}
	json_t *cpj = json_object_get(o, "callpath");
	json_t *mj = json_object_get(o, "metric");
	if ((cpj && !json_is_string(cpj)) || (mj && !json_is_string(mj)))
		return lbad(l, "a callpath or metric that is not a string");
	if (l->talpas && (!cpj || !mj))
		return lbad(l, "no \"callpath\" or \"metric\"");
	uint32_t cp = cpj ? extrap_set_callpath(l->s, json_string_value(cpj),
						json_string_length(cpj))
			  : extrap_set_callpath(l->s, "<root>", 6);
	uint32_t metric = mj ? extrap_set_metric(l->s, json_string_value(mj),
						 json_string_length(mj))
			     : extrap_set_metric(l->s, "<default>", 9);
	uint32_t point = extrap_set_point(l->s, l->coords);
	if (cp == MODEL_NONE || metric == MODEL_NONE || point == MODEL_NONE)
		return lnomem(l);
	json_t *val = json_object_get(o, "value");
	double x;
	if (json_is_number(val)) {
		x = json_number_value(val);
		if (!extrap_set_add_values(l->s, cp, metric, point, &x, 1))
			return lnomem(l);
		return STATUS_OK;
	}
	if (l->talpas || !json_is_array(val) || json_array_size(val) == 0)
		return lbad(l, "no numeric \"value\"");
	size_t i;
	json_array_foreach(val, i, v) {
		if (!json_is_number(v))
			return lbad(l, "a value is not a number");
		x = json_number_value(v);
		if (!extrap_set_add_values(l->s, cp, metric, point, &x, 1))
			return lnomem(l);
	}
	return STATUS_OK;
}

static enum status parse(const char *data, size_t len, const char *path,
			 bool talpas, struct model **out, struct error *err)
{
	*out = NULL;
	struct lparse l = {.s = extrap_set_new(), .path = path, .err = err,
			   .talpas = talpas};
	char *buf = malloc(len + 1);
	enum status st = STATUS_OK;
	if (!l.s || !buf)
		st = lnomem(&l);
	else /* Extra-P models the points in file order */
		extrap_set_keep_file_order(l.s);
	const char *p = data, *end = data + len;
	while (st == STATUS_OK && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t n = (size_t)(le - p);
		l.line++;
		memcpy(buf, p, n);
		p = nl ? nl + 1 : end;
		size_t k = 0;
		while (k < n && isspace((unsigned char)buf[k]))
			k++;
		if (k == n)
			continue;
		if (talpas)
			for (size_t i = 0; i < n; i++)
				if (buf[i] == ';')
					buf[i] = ',';
		json_error_t je;
		json_t *o = json_loadb(buf, n, 0, &je);
		if (!o) {
			st = error_set(err, STATUS_CORRUPT, path,
				       "line %zu column %d: %s", l.line,
				       je.column, je.text);
			break;
		}
		st = one_line(&l, o);
		json_decref(o);
	}
	free(buf);
	if (st == STATUS_OK && l.line == 0)
		st = error_set(err, STATUS_CORRUPT, path, "the file is empty");
	if (st == STATUS_OK)
		st = extrap_set_finish(l.s, talpas ? "extrap-talpas"
						   : "extrap-jsonl",
				       path, out, err);
	free(l.coords);
	extrap_set_free(l.s);
	return st;
}

enum status extrap_jsonl_parse(const char *data, size_t len, const char *path,
			       struct model **out, struct error *err)
{
	return parse(data, len, path, false, out, err);
}

enum status extrap_talpas_parse(const char *data, size_t len,
				const char *path, struct model **out,
				struct error *err)
{
	return parse(data, len, path, true, out, err);
}

/* The first nonblank line: an object starting with the format's key. */
static const char *first_line(const struct reader_probe *p, size_t *n)
{
	const char *h = (const char *)p->head;
	size_t i = 0;
	while (i < p->head_len && isspace((unsigned char)h[i]))
		i++;
	const char *nl = memchr(h + i, '\n', p->head_len - i);
	*n = nl ? (size_t)(nl - (h + i)) : p->head_len - i;
	return h + i;
}

static int jsonl_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (!p->is_file || !p->head)
		return 0;
	size_t n;
	const char *l = first_line(p, &n);
	if (n < 2 || l[0] != '{' || !memmem(l, n, "\"params\"", 8))
		return 0;
	json_t *o = json_loadb(l, n, 0, NULL);
	int bid = json_is_object(json_object_get(o, "params")) ? 80 : 40;
	json_decref(o);
	return bid;
}

static int talpas_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (!p->is_file || !p->head)
		return 0;
	size_t n;
	const char *l = first_line(p, &n);
	if (n < 2 || l[0] != '{' || !memmem(l, n, "\"parameters\"", 12))
		return 0;
	if (memmem(l, n, ";\"metric\"", 9) || memmem(l, n, ";\"callpath\"", 11) ||
	    memmem(l, n, ";\"value\"", 8) || memmem(l, n, ";\"parameters\"", 13))
		return 80;
	return 0;
}

static enum status jsonl_open(const struct reader_input *in,
			      struct model **out, struct error *err)
{
	return extrap_open_parsed(in, extrap_jsonl_parse, out, err);
}

static enum status talpas_open(const struct reader_input *in,
			       struct model **out, struct error *err)
{
	return extrap_open_parsed(in, extrap_talpas_parse, out, err);
}

READER(reader_extrap_jsonl, "extrap-jsonl",
       READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_PARAMS, jsonl_bid,
       jsonl_open, "Extra-P JSON Lines measurement files");

READER(reader_extrap_talpas, "extrap-talpas",
       READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_PARAMS, talpas_bid,
       talpas_open, "Extra-P TaLPas measurement files");
