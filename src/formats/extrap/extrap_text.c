/* extrap_text: the Extra-P text format (spec "Text file format"; Extra-P
 * 4.2.5 text_file_reader.py, notes 5.1).  Line-oriented: `#` comments and
 * blank lines skipped; whitespace runs are one space; PARAMETER appends
 * names, POINTS appends points ("( 2 10 ) ( 4 10 )", or bare numbers for
 * one parameter); REGION and METRIC each reset the point index; each DATA
 * line holds the repetitions of the next point (any count per line).
 * Without a METRIC the metric is "".  Numbers are Python floats (exponents
 * allowed).  Errors name the file and the 1-based line.  The model is
 * extrap_set's (see extrap_set.h: column value = mean at the last point,
 * one profile per point).  Must not depend on curses, on ui/ or on
 * another format. */
#include "config.h"

#include "core/array.h"
#include "formats/extrap/extrap.h"
#include "formats/extrap/extrap_set.h"
#include "formats/reader.h"
#include "io/blob.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum status extrap_read_file(const char *path, char **data, size_t *len,
			     struct error *err)
{
	struct blob *bl = NULL;
	struct span sp;
	*data = NULL;
	*len = 0;
	enum status st = blob_open_file(path, &bl, err);
	if (st != STATUS_OK)
		return st;
	st = blob_map_all(bl, &sp, err);
	if (st == STATUS_OK) {
		if (sp.len > SIZE_MAX - 1 || !(*data = malloc(sp.len + 1))) {
			st = error_set(err, STATUS_NOMEM, path,
				       "out of memory");
		} else {
			if (sp.len)
				memcpy(*data, sp.data, sp.len);
			(*data)[sp.len] = '\0';
			*len = sp.len;
		}
	}
	blob_close(bl);
	return st;
}

enum status extrap_open_parsed(const struct reader_input *in,
			       extrap_parse_fn parse, struct model **out,
			       struct error *err)
{
	char *data = NULL;
	size_t len = 0;
	enum status st = extrap_read_file(in->paths[0], &data, &len, err);
	if (st == STATUS_OK)
		st = parse(data, len, in->paths[0], out, err);
	free(data);
	return st;
}

/* One line, whitespace runs made one space, trimmed. */
struct tline {
	char *text;
	size_t len;
	size_t no; /* 1-based */
};

static size_t normalize(const char *p, size_t n, char *out)
{
	size_t k = 0;
	bool space = false;
	for (size_t i = 0; i < n; i++) {
		if (isspace((unsigned char)p[i])) {
			space = k > 0;
			continue;
		}
		if (space)
			out[k++] = ' ';
		space = false;
		out[k++] = p[i];
	}
	return k;
}

struct tparse {
	struct extrap_set *s;
	const char *path;
	struct error *err;
	uint32_t *points; /* POINTS in file order -> set point */
	size_t *points_line; /* POINTS in file order -> its line */
	size_t n_points, points_cap;
	double *coords;
	uint32_t coords_np; /* parameters `coords` has room for */
	size_t line;
};

static enum status bad(struct tparse *t, const char *what)
{
	return error_set(t->err, STATUS_CORRUPT, t->path, "line %zu: %s",
			 t->line, what);
}

static enum status add_point(struct tparse *t, const double *c, size_t n)
{
	uint32_t np = extrap_set_n_params(t->s);
	if (n != np)
		return error_set(t->err, STATUS_CORRUPT, t->path,
				 "line %zu: a point with %zu coordinates for "
				 "%u parameters",
				 t->line, n, (unsigned)np);
	uint32_t p = extrap_set_point(t->s, c);
	if (p == MODEL_NONE)
		return extrap_set_nomem(t->s)
			       ? error_set(t->err, STATUS_NOMEM, t->path,
					   "out of memory")
			       : bad(t, "a coordinate is not a number");
	void **const arrays[] = {(void **)&t->points, (void **)&t->points_line};
	const size_t sizes[] = {sizeof(*t->points), sizeof(*t->points_line)};
	if (!array_grow_each(&t->points_cap, t->n_points + 1, 2, arrays, sizes))
		return error_set(t->err, STATUS_NOMEM, t->path,
				 "out of memory");
	t->points_line[t->n_points] = t->line;
	t->points[t->n_points++] = p;
	return STATUS_OK;
}

/* POINTS: "(a b) (c d)" (nested parentheses around single coordinates
 * allowed) or, without parentheses, one point per number. */
static enum status parse_points(struct tparse *t, const char *v, size_t len)
{
	uint32_t np = extrap_set_n_params(t->s);
	if (np == 0)
		return bad(t, "POINTS before any PARAMETER (the file has no "
			      "parameters)");
	/* PARAMETER may follow a POINTS line that added no point: size the
	 * coordinates for the parameters declared now */
	if (t->coords_np != np) {
		double *g = realloc(t->coords, np * sizeof(double));
		if (!g)
			return error_set(t->err, STATUS_NOMEM, t->path,
					 "out of memory");
		t->coords = g;
		t->coords_np = np;
	}
	bool paren = memchr(v, '(', len) != NULL;
	int depth = 0;
	size_t n = 0;
	size_t i = 0;
	while (i < len) {
		char c = v[i];
		if (c == ' ') {
			i++;
			continue;
		}
		if (c == '(') {
			if (!paren)
				return bad(t, "unbalanced parentheses in POINTS");
			if (depth++ == 0)
				n = 0;
			i++;
			continue;
		}
		if (c == ')') {
			if (depth == 0)
				return bad(t, "unbalanced parentheses in POINTS");
			if (--depth == 0) {
				enum status st = add_point(t, t->coords, n);
				if (st != STATUS_OK)
					return st;
			}
			i++;
			continue;
		}
		size_t j = i;
		while (j < len && v[j] != ' ' && v[j] != '(' && v[j] != ')')
			j++;
		double x;
		if (!extrap_parse_double(v + i, j - i, &x))
			return bad(t, "a coordinate in POINTS is not a number");
		if (paren && depth == 0)
			return bad(t, "a coordinate outside parentheses");
		if (!paren) {
			enum status st = add_point(t, &x, 1);
			if (st != STATUS_OK)
				return st;
		} else {
			if (n >= np)
				return error_set(
					t->err, STATUS_CORRUPT, t->path,
					"line %zu: a point with more than %u "
					"coordinates for %u parameters",
					t->line, (unsigned)np, (unsigned)np);
			t->coords[n++] = x;
		}
		i = j;
	}
	if (depth)
		return bad(t, "unbalanced parentheses in POINTS");
	return STATUS_OK;
}

static enum status parse_data(struct tparse *t, const char *v, size_t len,
			      uint32_t cp, uint32_t metric, size_t *index)
{
	uint32_t np = extrap_set_n_params(t->s);
	if (np == 0)
		return bad(t, "DATA before any PARAMETER (the file has no "
			      "parameters)");
	if (np > 4)
		return bad(t, "more than 4 parameters (Extra-P's text format "
			      "supports at most 4)");
	if (*index >= t->n_points)
		return error_set(t->err, STATUS_CORRUPT, t->path,
				 "line %zu: too many DATA lines (%zu) for the "
				 "number of POINTS (%zu)",
				 t->line, *index + 1, t->n_points);
	size_t at = (*index)++;
	uint32_t point = t->points[at];
	if (extrap_set_n_values(t->s, cp, metric, point)) {
		/* POINTS listing a point twice ("POINTS 1 1"), or the
		 * region and metric given again */
		for (size_t k = 0; k < at; k++)
			if (t->points[k] == point)
				return error_set(
					t->err, STATUS_CORRUPT, t->path,
					"line %zu: POINTS lists a point twice "
					"(points %zu and %zu, the first on "
					"line %zu)",
					t->points_line[at], k + 1, at + 1,
					t->points_line[k]);
		return bad(t, "a second DATA line for the same point, region "
			      "and metric");
	}
	double buf[64];
	size_t n = 0, i = 0;
	if (len == 0)
		return bad(t, "DATA without values");
	while (i < len) {
		size_t j = i;
		while (j < len && v[j] != ' ')
			j++;
		if (!extrap_parse_double(v + i, j - i, &buf[n]))
			return bad(t, "a DATA value is not a number");
		if (++n == 64) {
			if (!extrap_set_add_values(t->s, cp, metric, point,
						   buf, n))
				goto nomem;
			n = 0;
		}
		i = j + 1;
	}
	if (!extrap_set_add_values(t->s, cp, metric, point, buf, n))
		goto nomem;
	return STATUS_OK;
nomem:
	return error_set(t->err, STATUS_NOMEM, t->path, "out of memory");
}

static bool keyword(const char *l, size_t len, const char *kw, size_t *vo)
{
	size_t k = strlen(kw);
	if (len < k || memcmp(l, kw, k) != 0)
		return false;
	if (len == k) {
		*vo = k;
		return true;
	}
	if (l[k] != ' ')
		return false;
	*vo = k + 1;
	return true;
}

static enum status parse_lines(struct tparse *t, const char *data, size_t len)
{
	char *line = malloc(len + 1);
	if (!line)
		return error_set(t->err, STATUS_NOMEM, t->path, "out of memory");
	uint32_t cp = MODEL_NONE, metric = MODEL_NONE;
	size_t index = 0;
	bool any = false;
	enum status st = STATUS_OK;
	const char *p = data, *end = data + len;
	t->line = 0;
	while (p < end && st == STATUS_OK) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		t->line++;
		size_t n = normalize(p, (size_t)(le - p), line);
		p = nl ? nl + 1 : end;
		if (n == 0 || line[0] == '#')
			continue;
		any = true;
		size_t vo;
		const char *v;
		if (keyword(line, n, "PARAMETER", &vo)) {
			if (extrap_set_n_points(t->s) || t->n_points)
				st = bad(t, "PARAMETER after POINTS");
			for (size_t i = vo; i < n && st == STATUS_OK;) {
				size_t j = i;
				while (j < n && line[j] != ' ')
					j++;
				if (extrap_set_param(t->s, line + i, j - i) ==
				    MODEL_NONE)
					st = extrap_set_nomem(t->s)
						? error_set(t->err, STATUS_NOMEM,
							    t->path,
							    "out of memory")
						: bad(t, "a parameter declared "
							 "twice");
				i = j + 1;
			}
			if (vo >= n && st == STATUS_OK)
				st = bad(t, "PARAMETER without a name");
		} else if (keyword(line, n, "POINTS", &vo)) {
			st = parse_points(t, line + vo, n - vo);
		} else if (keyword(line, n, "REGION", &vo)) {
			v = line + vo;
			cp = extrap_set_callpath(t->s, v, n - vo);
			index = 0;
		} else if (keyword(line, n, "METRIC", &vo)) {
			v = line + vo;
			metric = extrap_set_metric(t->s, v, n - vo);
			index = 0;
		} else if (keyword(line, n, "DATA", &vo)) {
			if (metric == MODEL_NONE)
				metric = extrap_set_metric(t->s, "", 0);
			if (cp == MODEL_NONE)
				cp = extrap_set_callpath(t->s, "", 0);
			if (cp == MODEL_NONE || metric == MODEL_NONE)
				st = error_set(t->err, STATUS_NOMEM, t->path,
					       "out of memory");
			else
				st = parse_data(t, line + vo, n - vo, cp,
						metric, &index);
		} else {
			const char *sp = memchr(line, ' ', n);
			size_t w = sp ? (size_t)(sp - line) : n;
			st = error_set(t->err, STATUS_CORRUPT, t->path,
				       "line %zu: unknown field \"%.*s\"",
				       t->line, (int)(w > 40 ? 40 : w), line);
		}
		if (st == STATUS_OK && extrap_set_nomem(t->s))
			st = error_set(t->err, STATUS_NOMEM, t->path,
				       "out of memory");
	}
	free(line);
	if (st == STATUS_OK && !any)
		st = error_set(t->err, STATUS_CORRUPT, t->path,
			       "the file contains no data");
	if (st == STATUS_OK && extrap_set_n_params(t->s) == 0)
		st = error_set(t->err, STATUS_CORRUPT, t->path,
			       "the file has no parameters");
	return st;
}

enum status extrap_text_parse(const char *data, size_t len, const char *path,
			      struct model **out, struct error *err)
{
	*out = NULL;
	struct tparse t = {.s = extrap_set_new(), .path = path, .err = err};
	if (!t.s)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	extrap_set_keep_file_order(t.s); /* Extra-P: the POINTS order */
	enum status st = parse_lines(&t, data, len);
	if (st == STATUS_OK)
		st = extrap_set_finish(t.s, "extrap-text", path, out, err);
	free(t.points);
	free(t.points_line);
	free(t.coords);
	extrap_set_free(t.s);
	return st;
}

/* The first field of the first line that is neither blank nor a comment:
 * PARAMETER is ours (80); another keyword of the format 50, so that the
 * error about a file without parameters is ours. */
static int text_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (!p->is_file || !p->head)
		return 0;
	size_t i = 0, n = p->head_len;
	const char *h = (const char *)p->head;
	while (i < n) {
		while (i < n && isspace((unsigned char)h[i]))
			i++;
		if (i < n && h[i] == '#') {
			while (i < n && h[i] != '\n')
				i++;
			continue;
		}
		break;
	}
	static const char *const kws[] = {"POINTS", "REGION", "METRIC",
					  "DATA"};
	if (n - i > 10 && memcmp(h + i, "PARAMETER", 9) == 0 &&
	    isspace((unsigned char)h[i + 9]))
		return 80;
	for (size_t k = 0; k < sizeof(kws) / sizeof(kws[0]); k++) {
		size_t l = strlen(kws[k]);
		if (n - i > l && memcmp(h + i, kws[k], l) == 0 &&
		    isspace((unsigned char)h[i + l]))
			return 50;
	}
	return 0;
}

static enum status text_open(const struct reader_input *in,
			     struct model **out, struct error *err)
{
	return extrap_open_parsed(in, extrap_text_parse, out, err);
}

READER(reader_extrap_text, "extrap-text",
       READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_PARAMS, text_bid,
       text_open,
       "Extra-P text measurement files (PARAMETER, POINTS, REGION, DATA)");
