/* extrap: the viewer's state about a parametric database's performance
 * models (see extrap.h), over the scaling view (src/views/scaling_view.h)
 * and the model's measurements.  The models shown are those fitted on one
 * statistic of the repetitions (`:set measure`, R) or a stored set (`:set
 * models stored`).  Fitted models are kept per statistic: one scaling
 * view each, made when the statistic is first shown; the views not shown
 * are paused (their thread fits nothing more, it does not take the
 * processors from the one shown) but keep what they fitted, so going back
 * to a statistic costs nothing, and switching never waits for a thread to
 * be joined (dropping a view would: up to one fit).  The cost is memory:
 * at most four sets of models, as many as the batch command makes in four
 * runs.  A stored set's view has no thread and holds no models (they are
 * the model's), so only the one shown is kept.  No curses. */
#include "config.h"

#include "extrap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/sanitize.h"
#include "core/strbuf.h"
#include "views/scaling_view.h"


struct extrap {
	const struct model *m;
	struct scaling_view *sv; /* the view shown: fitted[measure] or
				    stored */
	struct scaling_view *fitted[MEASURE_MAXIMUM + 1];
	struct scaling_view *stored;
	enum measure_kind measure;
	uint32_t stored_set; /* the stored set shown, or MODEL_NONE */
	double *at;
	const char **names;
	double *edge;	 /* the largest measured value of each parameter */
	double *scratch; /* a point to evaluate at (n_params) */
	enum extrap_severity_kind severity;
	uint32_t param, measured;
	bool background; /* else models are fitted when first asked for */
	uint64_t gen;	 /* bumps when what the severities depend on changes */
	/* the severity range and ranking, made for `range_gen` */
	uint64_t range_gen;
	bool range_ok;
	double vmin, vmax;
	double *values; /* per node, NaN: none */
	uint32_t *rank;
	size_t n_rank;
	/* what the last `!` selected: its node and rank, and for which
	 * ranking (extrap_worst_step) */
	uint32_t worst_node;
	size_t worst_rank;
	uint64_t worst_gen;
	uint32_t marks[EXTRAP_MARKS_MAX];
	size_t n_marks;
};

/* The metric shown first: the first measured metric named "time" (any
 * case), else the first whose name contains "time", else the first
 * (doc/extrap-ui.md: Extra-P's GUI shows the file's first metric, which
 * in a set made from Cube files is "visits"). */
static uint32_t time_like(const struct model *m)
{
	uint32_t n = model_n_measured(m), contains = MODEL_NONE;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t c = model_measured_column(m, k);
		const char *name =
		    c < model_n_columns(m) && model_columns(m)[c].name ? model_columns(m)[c].name
							   : "";
		if (strcasecmp(name, "time") == 0)
			return k;
		if (contains == MODEL_NONE && strcasestr(name, "time"))
			contains = k;
	}
	return contains == MODEL_NONE ? 0 : contains;
}

struct extrap *extrap_new(const struct model *m, bool background,
			  struct error *err)
{
	if (!m || model_n_params(m) == 0 || model_n_points(m) == 0 ||
	    model_n_measured(m) == 0)
		return NULL;
	struct extrap *x = calloc(1, sizeof(*x));
	if (!x)
		goto nomem;
	x->m = m;
	x->background = background;
	x->at = calloc(model_n_params(m), sizeof(*x->at));
	x->names = calloc(model_n_params(m), sizeof(*x->names));
	x->edge = calloc(model_n_params(m), sizeof(*x->edge));
	x->scratch = calloc(model_n_params(m), sizeof(*x->scratch));
	x->values = malloc((model_n_nodes(m) ? model_n_nodes(m) : 1) * sizeof(*x->values));
	x->rank = malloc((model_n_nodes(m) ? model_n_nodes(m) : 1) * sizeof(*x->rank));
	if (!x->at || !x->names || !x->edge || !x->scratch || !x->values ||
	    !x->rank)
		goto nomem;
	/* the sliders start at the largest measured value of each parameter:
	 * the model at the edge of the data; doubling from there
	 * extrapolates */
	for (uint32_t p = 0; p < model_n_params(m); p++) {
		double lo, hi;
		x->names[p] = model_str(m, model_params(m)[p].name);
		extrap_param_range(x, p, &lo, &hi);
		x->at[p] = x->edge[p] = hi;
	}
	struct scaling_view_options opt = {
	    .measure = MEASURE_MEAN,
	    .stored_set = MODEL_NONE,
	    .background = background,
	};
	x->stored_set = MODEL_NONE;
	x->sv = x->fitted[MEASURE_MEAN] = scaling_view_new(m, &opt, err);
	if (!x->sv) {
		extrap_free(x);
		return NULL;
	}
	x->measured = time_like(m);
	x->gen = 1;
	x->worst_node = MODEL_NONE;
	return x;
nomem:
	extrap_free(x);
	error_set(err, STATUS_NOMEM, NULL, "performance models");
	return NULL;
}

void extrap_free(struct extrap *x)
{
	if (!x)
		return;
	for (size_t k = 0; k < sizeof(x->fitted) / sizeof(*x->fitted); k++)
		scaling_view_free(x->fitted[k]);
	scaling_view_free(x->stored);
	free(x->at);
	free(x->names);
	free(x->edge);
	free(x->scratch);
	free(x->values);
	free(x->rank);
	free(x);
}

const struct model *extrap_model(const struct extrap *x)
{
	return x->m;
}

uint32_t extrap_measured(const struct extrap *x)
{
	return x->measured;
}

uint32_t extrap_column(const struct extrap *x)
{
	return model_measured_column(x->m, x->measured);
}

bool extrap_follow_column(struct extrap *x, uint32_t column)
{
	uint32_t n = model_n_measured(x->m);
	for (uint32_t k = 0; k < n; k++)
		if (model_measured_column(x->m, k) == column) {
			if (k == x->measured)
				return false;
			x->measured = k;
			x->gen++;
			return true;
		}
	return false;
}

const double *extrap_at(const struct extrap *x)
{
	return x->at;
}

uint32_t extrap_param(const struct extrap *x)
{
	return x->param;
}

uint32_t extrap_next_param(struct extrap *x)
{
	x->param = (x->param + 1) % model_n_params(x->m);
	return x->param;
}

void extrap_scale(struct extrap *x, double factor)
{
	double v = x->at[x->param] * factor;
	if (isfinite(v) && v > 0) {
		x->at[x->param] = v;
		x->gen++;
	}
}

const char *extrap_set_at(struct extrap *x, const char *text)
{
	double *next = malloc(model_n_params(x->m) * sizeof(*next));
	char *copy = strdup(text);
	const char *problem = NULL;
	if (!next || !copy) {
		problem = "out of memory";
		goto out;
	}
	memcpy(next, x->at, model_n_params(x->m) * sizeof(*next));
	char *save = NULL;
	for (char *tok = strtok_r(copy, " ,", &save); tok;
	     tok = strtok_r(NULL, " ,", &save)) {
		char *eq = strchr(tok, '=');
		uint32_t p = x->param;
		char *num = tok;
		if (eq) {
			*eq = '\0';
			num = eq + 1;
			p = model_find_param(x->m, tok);
			if (p == MODEL_NONE) {
				problem = "no such parameter";
				goto out;
			}
		}
		char *end;
		double v = strtod(num, &end);
		if (end == num || *end || !isfinite(v) || v <= 0) {
			problem = "takes PARAM=VALUE, a positive number";
			goto out;
		}
		next[p] = v;
	}
	memcpy(x->at, next, model_n_params(x->m) * sizeof(*next));
	x->gen++;
out:
	free(next);
	free(copy);
	return problem;
}

char *extrap_at_text(const struct extrap *x)
{
	struct strbuf out = {0};
	for (uint32_t p = 0; p < model_n_params(x->m); p++) {
		char *name = sanitize_text(x->names[p], SANITIZE_TERMINAL);
		strbuf_addf(&out, "%s%s=%.6g", p ? " " : "", name ? name : "",
			    x->at[p]);
		free(name);
	}
	return strbuf_take(&out);
}

void extrap_param_range(const struct extrap *x, uint32_t param, double *lo,
			double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (uint32_t q = 0; q < model_n_points(x->m); q++) {
		const double *c = model_point_coords(x->m, q);
		if (!c)
			continue;
		if (c[param] < *lo)
			*lo = c[param];
		if (c[param] > *hi)
			*hi = c[param];
	}
	if (!(*lo <= *hi))
		*lo = *hi = 1;
}

const char *extrap_param_name(const struct extrap *x, uint32_t param)
{
	return param < model_n_params(x->m) ? x->names[param] : "";
}

/* Whether `node` has a measurement of the shown metric at some point:
 * O(log measurements). */
static bool has_data(const struct extrap *x, uint32_t node)
{
	size_t first;
	return model_measure_series(x->m, node, x->measured, &first) > 0;
}

/* The model of (node, shown metric): peeked with a background thread,
 * fitted now without one (a failed fit counts as none). */
static const struct scaling_model *peek(struct extrap *x, uint32_t node)
{
	if (x->background)
		return scaling_view_peek(x->sv, node, x->measured);
	struct error err = {0};
	const struct scaling_model *sm =
	    scaling_view_model(x->sv, node, x->measured, &err);
	error_clear(&err);
	return sm;
}

const struct scaling_model *extrap_peek(struct extrap *x, uint32_t node,
					bool *pending)
{
	if (pending)
		*pending = false;
	if (node >= model_n_nodes(x->m))
		return NULL;
	const struct scaling_model *sm = peek(x, node);
	if (!sm && pending) /* a stored set has what it has */
		*pending = x->stored_set == MODEL_NONE && has_data(x, node);
	return sm;
}

char *extrap_formula(const struct extrap *x, const struct scaling_model *sm)
{
	return scaling_text(sm, x->names, model_n_params(x->m));
}

char *extrap_formula_compact(const struct extrap *x,
			     const struct scaling_model *sm, int digits)
{
	return scaling_text_compact(sm, x->names, model_n_params(x->m), digits);
}

double extrap_eval(const struct extrap *x, const struct scaling_model *sm)
{
	return scaling_eval(sm, x->at);
}

double extrap_eval_along2(struct extrap *x, const struct scaling_model *sm,
			  uint32_t p1, double v1, uint32_t p2, double v2)
{
	/* every parameter's value, whatever the parameters' number */
	memcpy(x->scratch, x->at, model_n_params(x->m) * sizeof(*x->scratch));
	if (p1 < model_n_params(x->m))
		x->scratch[p1] = v1;
	if (p2 < model_n_params(x->m))
		x->scratch[p2] = v2;
	return scaling_eval(sm, x->scratch);
}

double extrap_eval_along(struct extrap *x, const struct scaling_model *sm,
			 uint32_t param, double v)
{
	return extrap_eval_along2(x, sm, param, v, param, v);
}

const struct model_measure *extrap_measure(const struct extrap *x,
					   uint32_t node, uint32_t point)
{
	return model_measure_at(x->m, node, x->measured, point);
}

void extrap_progress(const struct extrap *x, uint64_t *ready, uint64_t *total)
{
	scaling_view_progress(x->sv, ready, total);
}

bool extrap_set_severity(struct extrap *x, const char *name)
{
	enum extrap_severity_kind k;
	if (strcmp(name, "value") == 0)
		k = EXTRAP_SEVERITY_VALUE;
	else if (strcmp(name, "growth") == 0)
		k = EXTRAP_SEVERITY_GROWTH;
	else
		return false;
	if (k != x->severity) {
		x->severity = k;
		x->gen++;
	}
	return true;
}

const char *extrap_severity_name(const struct extrap *x)
{
	return x->severity == EXTRAP_SEVERITY_GROWTH ? "growth" : "value";
}

bool extrap_fitting(const struct extrap *x)
{
	uint64_t ready = 0, total = 0;
	if (!x->background)
		return false;
	scaling_view_progress(x->sv, &ready, &total);
	return ready < total;
}

static const double *sort_values;

static int by_value_desc(const void *a, const void *b)
{
	double va = sort_values[*(const uint32_t *)a];
	double vb = sort_values[*(const uint32_t *)b];
	if (va != vb)
		return va < vb ? 1 : -1;
	uint32_t na = *(const uint32_t *)a, nb = *(const uint32_t *)b;
	return na < nb ? -1 : na > nb;
}

/* The range pass: once every model is ready (peeking before that would
 * reorder the background thread's queue away from the visible rows). */
static bool refresh_range(struct extrap *x)
{
	if (x->range_gen == x->gen)
		return x->range_ok;
	uint64_t ready = 0, total = 0;
	scaling_view_progress(x->sv, &ready, &total);
	if (x->background && ready < total)
		return false;
	x->vmin = INFINITY;
	x->vmax = -INFINITY;
	x->n_rank = 0;
	for (uint32_t n = 0; n < model_n_nodes(x->m); n++) {
		const struct scaling_model *sm = peek(x, n);
		double v = sm ? scaling_eval(sm, x->at) : (double)NAN;
		if (sm && x->severity == EXTRAP_SEVERITY_GROWTH) {
			double base = scaling_eval(sm, x->edge);
			v = base > 0 ? v / base : (double)NAN;
		}
		x->values[n] = v;
		if (!isfinite(v))
			continue;
		x->rank[x->n_rank++] = n;
		if (v < x->vmin)
			x->vmin = v;
		if (v > x->vmax)
			x->vmax = v;
	}
	sort_values = x->values;
	qsort(x->rank, x->n_rank, sizeof(*x->rank), by_value_desc);
	sort_values = NULL;
	x->range_gen = x->gen;
	x->range_ok = x->n_rank > 0;
	return x->range_ok;
}

bool extrap_severity(struct extrap *x, uint32_t node, double *out)
{
	if (node >= model_n_nodes(x->m) || !refresh_range(x) ||
	    !isfinite(x->values[node]))
		return false;
	double span = x->vmax - x->vmin;
	*out = span > 0 ? (x->values[node] - x->vmin) / span : 0;
	return true;
}

uint32_t extrap_worst(struct extrap *x, size_t k, double *quantity)
{
	if (!refresh_range(x) || k >= x->n_rank)
		return MODEL_NONE;
	if (quantity)
		*quantity = x->values[x->rank[k]];
	return x->rank[k];
}

uint32_t extrap_worst_step(struct extrap *x, uint32_t cursor, size_t *rank,
			   double *quantity)
{
	if (!refresh_range(x))
		return MODEL_NONE;
	size_t k = 0;
	if (cursor != MODEL_NONE && cursor == x->worst_node &&
	    x->worst_gen == x->gen && x->worst_rank + 1 < x->n_rank)
		k = x->worst_rank + 1;
	x->worst_node = x->rank[k];
	x->worst_rank = k;
	x->worst_gen = x->gen;
	if (rank)
		*rank = k;
	if (quantity)
		*quantity = x->values[x->rank[k]];
	return x->rank[k];
}

enum extrap_key extrap_sort_key(struct extrap *x, uint32_t node,
				double *out)
{
	bool pending = false;
	const struct scaling_model *sm = extrap_peek(x, node, &pending);
	if (!sm)
		return pending ? EXTRAP_KEY_PENDING : EXTRAP_KEY_NONE;
	double v = scaling_eval(sm, x->at);
	if (x->severity == EXTRAP_SEVERITY_GROWTH) {
		double base = scaling_eval(sm, x->edge);
		v = base > 0 ? v / base : (double)NAN;
	}
	if (!isfinite(v))
		return EXTRAP_KEY_NONE;
	*out = v;
	return EXTRAP_KEY_VALUE;
}

uint64_t extrap_generation(const struct extrap *x)
{
	return x->gen;
}

bool extrap_toggle_mark(struct extrap *x, uint32_t node, bool *marked)
{
	for (size_t i = 0; i < x->n_marks; i++)
		if (x->marks[i] == node) {
			memmove(&x->marks[i], &x->marks[i + 1],
				(x->n_marks - i - 1) * sizeof(*x->marks));
			x->n_marks--;
			*marked = false;
			return true;
		}
	if (x->n_marks == EXTRAP_MARKS_MAX)
		return false;
	x->marks[x->n_marks++] = node;
	*marked = true;
	return true;
}

const uint32_t *extrap_marks(const struct extrap *x, size_t *n)
{
	*n = x->n_marks;
	return x->marks;
}

/* Show view `v` (fitted[k] or the stored one): resume its thread, pause
 * the others'. */
static void show_view(struct extrap *x, struct scaling_view *v)
{
	for (size_t k = 0; k < sizeof(x->fitted) / sizeof(*x->fitted); k++)
		if (x->fitted[k] && x->fitted[k] != v)
			scaling_view_pause(x->fitted[k], true);
	scaling_view_pause(v, false);
	if (v != x->sv) {
		x->sv = v;
		x->gen++;
	}
}

bool extrap_set_measure(struct extrap *x, enum measure_kind k,
			struct error *err)
{
	if ((unsigned)k >= sizeof(x->fitted) / sizeof(*x->fitted)) {
		error_set(err, STATUS_USAGE, NULL,
			  "measure: mean, median, minimum or maximum");
		return false;
	}
	if (!x->fitted[k]) {
		struct scaling_view_options opt = {
		    .measure = k,
		    .stored_set = MODEL_NONE,
		    .background = x->background,
		};
		x->fitted[k] = scaling_view_new(x->m, &opt, err);
		if (!x->fitted[k])
			return false;
	}
	x->measure = k;
	x->stored_set = MODEL_NONE;
	show_view(x, x->fitted[k]);
	/* the points plotted change with the statistic */
	x->gen++;
	return true;
}

enum measure_kind extrap_measure_kind(const struct extrap *x)
{
	return x->measure;
}

double extrap_measure_value(const struct extrap *x,
			    const struct model_measure *me)
{
	return model_measure_get(me, x->measure);
}

uint32_t extrap_find_stored(const struct extrap *x, const char *arg)
{
	return model_stored_set_find(x->m, arg);
}

bool extrap_show_stored(struct extrap *x, uint32_t set, struct error *err)
{
	if (set == MODEL_NONE)
		return extrap_set_measure(x, x->measure, err);
	if (set == x->stored_set)
		return true;
	struct scaling_view_options opt = {
	    .measure = x->measure,
	    .stored_set = set,
	    .background = false, /* nothing to fit */
	};
	struct scaling_view *v = scaling_view_new(x->m, &opt, err);
	if (!v)
		return false;
	show_view(x, v);
	scaling_view_free(x->stored); /* no thread: nothing to wait for */
	x->stored = v;
	x->stored_set = set;
	return true;
}

uint32_t extrap_stored_set(const struct extrap *x)
{
	return x->stored_set;
}

char *extrap_models_text(const struct extrap *x)
{
	char *t = NULL;
	if (x->stored_set == MODEL_NONE) {
		if (asprintf(&t, "%s", model_measure_name(x->measure)) < 0)
			t = NULL;
		return t;
	}
	char *name = sanitize_text(model_stored_set_name(x->m, x->stored_set),
				   SANITIZE_TERMINAL);
	if (asprintf(&t, "stored %u %s", x->stored_set, name ? name : "") < 0)
		t = NULL;
	free(name);
	return t;
}
