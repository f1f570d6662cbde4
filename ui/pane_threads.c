/* pane_threads: the selected context's value in every execution context
 * (thread, rank, GPU stream), read from the per-profile values (cct.db),
 * with min / max / mean / standard deviation, a histogram drawn with block
 * characters, and the list of threads sortable by value or label.  The
 * percentages are of the sum over threads, shown beside the summary value
 * the database stores: they differ where hpcprof's summary is not the sum
 * of the threads' values (lex_aware values at outer loops are smaller).
 * A key (system-tree) shows the contexts as the system tree instead
 * (threads_tree.c: groups by the identifier tuples' levels, each the sum,
 * min or max of its contexts as the statistic combines them). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pane.h"
#include "screen.h"
#include "theme.h"
#include "extrap.h"
#include "pane_list.h"
#include "threads_tree.h"
#include "threads_func.h"
#include "tree_focus.h"
#include "views/system_focus.h"
#include "present/present_value.h"
#include "core/natural.h"

#define VALUE_W 10 /* a thread's value */
#define STAT_W 16  /* min, max, mean, std dev */

struct thread_row {
	uint32_t profile;
	double value;
};

struct threads {
	struct list_cursor list;
	struct thread_row *rows;
	size_t n;
	uint32_t column, node;
	char *title;
	double min, max, mean, sd, sum;
	double summary;    /* the statistic's stored summary value */
	bool has_summary;  /* false: the database has none at this node */
	bool summary_sum;  /* the statistic combines threads by sum */
	int sort; /* 0 value desc, 1 label, 2 profile index */
	enum stat_combine combine; /* how the statistic combines threads */
	uint32_t stat;             /* the column's statistic */
	bool own;     /* the reader combines its threads its own way (Cube's
		       * <cubeplaggr> aggr): `own_value` is that, for `sum` */
	double own_value;
	struct threads_tree *tree; /* the system tree, once asked for */
	bool tree_mode;            /* it is shown rather than the list */
};

static int by_value(const void *a, const void *b)
{
	const struct thread_row *x = a, *y = b;
	if (x->value != y->value)
		return x->value < y->value ? 1 : -1;
	return x->profile < y->profile ? -1 : x->profile > y->profile;
}

static int by_profile(const void *a, const void *b)
{
	const struct thread_row *x = a, *y = b;
	return x->profile < y->profile ? -1 : x->profile > y->profile;
}

static const struct model *sort_model;
static int by_label(const void *a, const void *b)
{
	const struct thread_row *x = a, *y = b;
	int c = natural_cmp(model_str(sort_model,
				      model_profiles(sort_model)[x->profile].label),
			    model_str(sort_model,
				      model_profiles(sort_model)[y->profile].label));
	return c ? c : by_profile(a, b);
}

static void sort_rows(const struct pane_env *env, struct threads *t)
{
	sort_model = env->model;
	qsort(t->rows, t->n, sizeof(*t->rows),
	      t->sort == 0 ? by_value : t->sort == 1 ? by_label : by_profile);
}

static void draw_histogram(struct threads *t, int y, int x, int h, int w)
{
	if (h < 1 || w < 4 || t->n == 0)
		return;
	static const char *const levels_utf8[] = {
		" ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
		"\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88"};
	static const char *const levels_ascii[] = {" ", ".", ".", ":", ":",
						   "|", "|", "#", "#"};
	const char *const *levels =
		strcmp(screen_glyphs()->bar_full, "#") == 0 ? levels_ascii
							    : levels_utf8;
	int bins = w;
	size_t *count = calloc((size_t)bins, sizeof(*count));
	if (!count)
		return;
	double span = t->max - t->min;
	size_t peak = 0;
	for (size_t i = 0; i < t->n; i++) {
		int b = span > 0 ? (int)((t->rows[i].value - t->min) / span *
					 (bins - 1) + 0.5)
				 : 0;
		if (b < 0)
			b = 0;
		if (b >= bins)
			b = bins - 1;
		if (++count[b] > peak)
			peak = count[b];
	}
	attr_t a = theme_attr(THEME_ROLE_HISTOGRAM);
	for (int b = 0; b < bins; b++) {
		/* height in eighths of a row */
		int eighths = peak ? (int)((double)count[b] / (double)peak *
						   h * 8 + 0.5)
				   : 0;
		if (count[b] && eighths == 0)
			eighths = 1;
		for (int row = 0; row < h; row++) {
			int level = eighths - (h - 1 - row) * 8;
			if (level < 0)
				level = 0;
			if (level > 8)
				level = 8;
			screen_text(y + row, x + b, 1, a, levels[level], false);
		}
	}
	free(count);
}

/* V of the pane's column in at most WIDTH columns (present_value_fit) */
static char *fit(const struct model *m, const struct threads *t, double v,
		 int width)
{
	char buf[64];
	present_value_fit(m, t->column, v, width, buf, sizeof(buf));
	return strdup(buf);
}

/* The thread sum and the stored summary, into SUM and SUMM: when they
 * differ (DIFFERS: beyond rounding), with as many digits as it takes for
 * them to read differently (critique b11: "2.60e+08 > 2.60e+08"); when
 * they agree, alike, however their last bits differ. */
static void sum_texts(const struct model *m, const struct threads *t,
		      bool differs, char *sum, char *summ, size_t size)
{
	struct present_kind k = present_column_kind(m, t->column);
	present_number_fit(k, t->sum, 40, PRESENT_DIGITS, sum, size);
	present_number_fit(k, t->summary, 40, PRESENT_DIGITS, summ, size);
	if (!differs || t->sum == t->summary || strcmp(sum, summ) != 0)
		return;
	/* the database's format showed them alike: more digits, in the
	 * general form (or the unit's) */
	k.format = NULL;
	for (int d = PRESENT_DIGITS + 1; d <= 17; d++) {
		present_number_fit(k, t->sum, 40, d, sum, size);
		present_number_fit(k, t->summary, 40, d, summ, size);
		if (strcmp(sum, summ) != 0)
			return;
	}
}

/* The rows' values combined as the reader combines them (rows still in
 * profile order), where it has its own way: then the sums line compares
 * that with the summary instead of the sum. */
static void own_combination(const struct model *m, struct threads *t)
{
	double *vals = malloc((t->n + 1) * sizeof(*vals));
	for (size_t i = 0; vals && i < t->n; i++)
		vals[i] = t->rows[i].value;
	t->own = vals && model_combine_profiles(m, t->stat, vals, t->n,
						&t->own_value);
	free(vals);
}

/* SUM rounded to the significant digits SUMMARY was stored with (at
 * least 6, as printf's %g writes them) equals it: a database that writes
 * its summaries as text ("3.83e+08" in an experiment.xml for 383000300)
 * stores the sum, rounded; binary ones keep 15 digits or more. */
static bool stored_alike(double sum, double summary)
{
	char buf[40];
	for (int d = 6; d <= 17; d++) {
		snprintf(buf, sizeof(buf), "%.*e", d - 1, summary);
		if (strtod(buf, NULL) != summary)
			continue;
		snprintf(buf, sizeof(buf), "%.*e", d - 1, sum);
		return d < 15 && strtod(buf, NULL) == summary;
	}
	return false;
}

/* "thread sum X = summary Y", or, where they differ, both with what the
 * difference is (digits enough to see it, and its relative size): the
 * percentages are of the thread sum.  For a parametric set, what the rows
 * are instead. */
static char *sums_line(const struct model *m, const struct threads *own_t,
		       bool *differs)
{
	/* a reader's own combination stands for the sum (Cube's aggr) */
	struct threads copy = *own_t;
	const struct threads *t = &copy;
	const char *what = own_t->own ? "threads by the metric's own aggr"
				      : "thread sum";
	const char *hundred = own_t->own ? "" : " (100%)";
	if (own_t->own) {
		copy.sum = own_t->own_value;
		copy.summary_sum = true;
	}
	if (model_n_points(m) > 0) {
		/* a parametric set (Extra-P): a profile is a point, its value
		 * the mean there, and the column's value the mean at the
		 * last point: the rows are no decomposition of it, no check */
		*differs = false;
		return strdup(" rows: the measurement points (each the mean of "
			      "its repetitions), not parts of a sum");
	}
	double tol = 1e-9 * fmax(fabs(t->sum), fabs(t->summary));
	*differs = t->summary_sum &&
		   (!t->has_summary ? t->sum != 0
				    : fabs(t->sum - t->summary) > tol &&
					      !stored_alike(t->sum, t->summary));
	char sum[64], summ[64];
	sum_texts(m, t, *differs, sum, summ, sizeof(sum));
	if (!t->has_summary)
		snprintf(summ, sizeof(summ), "(none)");
	char *out = NULL;
	int r;
	if (!t->summary_sum || (!t->has_summary && !*differs))
		r = asprintf(&out, " %s %s%s   stored summary %s", what, sum,
			     hundred, summ);
	else if (!*differs)
		r = asprintf(&out, " %s %s%s = stored summary %s", what, sum,
			     hundred, summ);
	else {
		char rel[48] = "";
		double by = t->has_summary && t->summary != 0
				    ? fabs(t->sum - t->summary) /
					  fabs(t->summary) * 100
				    : 0;
		/* two digits, never an exponent ("1e+02%", "7.1e-05%") */
		if (by >= 10)
			snprintf(rel, sizeof(rel), " (by %.0f%%)", by);
		else if (by > 0 && by < 0.001)
			snprintf(rel, sizeof(rel), " (by < 0.001%%)");
		else if (by > 0)
			snprintf(rel, sizeof(rel), " (by %.2g%%)", by);
		r = asprintf(&out, " %s %s%s %s stored summary "
				   "%s%s: the database's summary is not the "
				   "%s of these values",
			     what, sum, hundred,
			     !t->has_summary ? "!="
			     : t->sum > t->summary ? ">" : "<",
			     summ, rel, own_t->own ? "aggregation" : "sum");
	}
	return r < 0 ? NULL : out;
}

/* The statistics line: the longest wording that fits `width`, names
 * shortened and spaces narrowed before anything is cut (critique b6:
 * "mean 713…").  Malloc'd, or NULL. */
static char *stats_line(const struct model *m, const struct threads *t,
			int width)
{
	char *stats = NULL;
	char *mn = NULL, *mx = NULL, *me = NULL, *sd = NULL;
	bool one = t->n == 1; /* "1 context", not "1 contexts" */
	const char *what_long =
		model_n_points(m) ? (one ? "measurement point" : "measurement points")
		: one		  ? "execution context"
				  : "execution contexts";
	const char *what_short = model_n_points(m) ? (one ? "point" : "points")
				 : one		   ? "context"
						   : "contexts";
	const char *by = t->sort == 0 ? "value" : t->sort == 1 ? "label" : "index";
	const char *next = t->sort == 0 ? "by label"
			   : t->sort == 1 ? "by index"
					  : "by value";
	if (t->tree_mode) {
		/* the tree's siblings: by value, else in tuple order */
		by = t->sort == 0 ? "value" : "tuple";
		next = t->sort == 0 ? "by tuple" : "by value";
	}
	for (int form = 0; form < 5; form++) {
		free(stats);
		/* the last form writes the values shorter (SI, 3 digits) */
		int vw = form < 4 ? STAT_W : 7;
		free(mn);
		free(mx);
		free(me);
		free(sd);
		mn = fit(m, t, t->min, vw);
		mx = fit(m, t, t->max, vw);
		me = fit(m, t, t->mean, vw);
		sd = fit(m, t, t->sd, vw);
		const char *gap = form == 0 ? "   " : "  ";
		char hint[32] = "";
		if (form < 3)
			snprintf(hint, sizeof(hint), " (s: %s)",
				 form < 2 ? next : next + 3);
		if (asprintf(&stats,
			     " %zu %s by %s%s%smin %s%smax %s%smean %s%s%s %s",
			     t->n, form == 0 ? what_long : what_short, by, hint,
			     gap, mn ? mn : "?", gap, mx ? mx : "?", gap,
			     me ? me : "?", gap, form < 2 ? "std dev" : "sd",
			     sd ? sd : "?") < 0) {
			stats = NULL;
			break;
		}
		if (screen_text_width(stats) <= width)
			break;
	}
	free(mn);
	free(mx);
	free(me);
	free(sd);
	return stats;
}

/* The histogram, `h` rows from row y, and its axis (min, max) below. */
static void draw_distribution(const struct model *m, struct threads *t,
			      struct rect r, int y, int h)
{
	draw_histogram(t, y, r.x + 1, h, r.w - 2);
	y += h;
	char *axis = NULL;
	int half = r.w / 2 - 1 > 1 ? r.w / 2 - 1 : 1;
	char *lo = fit(m, t, t->min, half);
	char *hi = fit(m, t, t->max, half);
	if (asprintf(&axis, "%s", lo ? lo : "") >= 0) {
		screen_text(y, r.x + 1, r.w / 2, theme_attr(THEME_ROLE_DIM),
			    axis, false);
		free(axis);
	}
	screen_text_right(y, r.x + r.w / 2, r.w / 2 - 1,
			  theme_attr(THEME_ROLE_DIM), hi ? hi : "");
	free(lo);
	free(hi);
}

/* How the rows on screen write their counts: one form for all of them,
 * the first that every one fits in (digit groups, plain digits, SI). */
static struct present_kind rows_kind(const struct model *m,
				     const struct threads *t, int rows)
{
	struct present_kind kind = present_column_kind(m, t->column);
	for (int f = PRESENT_COUNT_GROUPED; f <= PRESENT_COUNT_SI; f++) {
		kind.count_form = (enum present_count_form)f;
		bool fits = true;
		for (int i = 0; fits && i < rows &&
				t->list.top + (size_t)i < t->n;
		     i++) {
			char buf[64];
			double v = t->rows[t->list.top + (size_t)i].value;
			present_number_fit(kind, v, 40, PRESENT_DIGITS, buf,
					   sizeof(buf));
			fits = strlen(buf) <= VALUE_W;
		}
		if (fits)
			break;
	}
	return kind;
}

/* The visible rows from row y: value, percent of the sum, label. */
static void draw_rows(const struct model *m, const struct threads *t,
		      struct rect r, int y, int rows)
{
	struct present_kind kind = rows_kind(m, t, rows);
	bool func = threads_func_shown(m, t->column);
	int label_w = func ? threads_func_label_width(m, r.w) : 0;
	for (int i = 0; i < rows; i++) {
		size_t idx = t->list.top + (size_t)i;
		if (idx >= t->n)
			break;
		const struct thread_row *row = &t->rows[idx];
		attr_t a = idx == t->list.cursor ? theme_attr(THEME_ROLE_SELECTED)
						 : A_NORMAL;
		move(y + i, r.x);
		attrset(a);
		for (int k = 0; k < r.w; k++)
			addch(' ');
		if (func) { /* a code: no share, its function instead */
			threads_func_draw_row(m, t->node, t->column,
					      row->profile, row->value,
					      label_w, y + i, r.x, r.w, a);
			continue;
		}
		char v[64];
		present_number_fit(kind, row->value, VALUE_W, PRESENT_DIGITS,
				   v, sizeof(v));
		char pct[16];
		present_share_text(row->value, t->sum, pct, sizeof(pct));
		screen_text_right(y + i, r.x, VALUE_W, a, v);
		screen_text_right(y + i, r.x + 11, 7, a, pct);
		screen_text(y + i, r.x + 20, r.w - 20, a,
			    model_str(m, model_profiles(m)[row->profile].label), false);
	}
}

static void threads_draw(struct pane_env *env, struct pane *pane, struct rect r)
{
	struct threads *t = pane->state;
	const struct model *m = env->model;
	attr_t head = theme_attr(THEME_ROLE_COLUMN_HEADER);
	if (r.h < 3)
		return;
	screen_text(r.y, r.x, r.w, head, t->title, true);
	char *stats = stats_line(m, t, r.w);
	screen_text(r.y + 1, r.x, r.w, A_NORMAL, stats ? stats : "", true);
	free(stats);
	int y = r.y + 2;
	if (r.h >= 4) {
		bool differs = false;
		char *line = threads_func_shown(m, t->column)
				     ? threads_func_sums_line(m, t->node,
							      t->column)
				     : sums_line(m, t, &differs);
		screen_text(y++, r.x, r.w,
			    differs ? theme_attr(THEME_ROLE_ERROR) : A_NORMAL,
			    line ? line : "", true);
		free(line);
	}
	int hist_h = r.h >= 17 ? 4 : r.h >= 11 ? 2 : 0;
	if (hist_h) {
		draw_distribution(m, t, r, y, hist_h);
		y += hist_h + 1;
	}
	int rows = r.y + r.h - y;
	if (t->tree_mode && t->tree) {
		threads_tree_draw(m, t->tree, t->column, t->sum, r, y, rows);
		return;
	}
	list_fit(&t->list, rows);
	draw_rows(m, t, r, y, rows);
}

/* The profiles under the selection (a system tree node's contexts, or the
 * selected context) into *out (malloc'd), its label into *label. */
static size_t selected_profiles(const struct model *m, const struct threads *t,
				uint32_t **out, char **label)
{
	*out = NULL;
	*label = NULL;
	if (t->tree_mode) {
		const struct systree *st = &t->tree->t;
		uint32_t i = threads_tree_selected(t->tree);
		if (i == SYSTREE_NONE)
			return 0;
		*out = malloc(st->nodes[i].n_leaves * sizeof(**out));
		*label = systree_label(m, st, i);
		size_t n = 0;
		/* preorder: the subtree of i runs until the level is back */
		for (uint32_t k = i; *out && k < st->n &&
				     (k == i || st->nodes[k].level >
							st->nodes[i].level);
		     k++)
			if (st->nodes[k].profile != SYSTREE_NONE)
				(*out)[n++] = st->nodes[k].profile;
		return n;
	}
	if (t->list.cursor >= t->n)
		return 0;
	*out = malloc(sizeof(**out));
	if (*out)
		**out = t->rows[t->list.cursor].profile;
	*label = strdup(model_str(
		m, model_profiles(m)[t->rows[t->list.cursor].profile].label));
	return *out ? 1 : 0;
}

/* z: the tree's values over the selected part of the system; the columns
 * that go blank say why. */
static struct reaction focus_system(struct pane_env *env, struct threads *t)
{
	const struct model *m = env->model;
	uint32_t *profiles = NULL;
	char *label = NULL;
	size_t n = selected_profiles(m, t, &profiles, &label);
	struct system_focus *f =
		n && label ? system_focus_new(m, profiles, n, label) : NULL;
	free(profiles);
	free(label);
	if (!f) {
		pane_message(env, true, "threads: nothing selected to focus on");
		return REACTION(HANDLED_REDRAW);
	}
	env->svc->system_focus(env->hub, f);
	env->sys_focus = f;
	const char *why = NULL;
	uint32_t blank = MODEL_NONE;
	for (size_t i = 0; i < env->cols->n_columns && !why; i++) {
		why = tree_focus_blank(env, env->cols->columns[i]);
		blank = env->cols->columns[i];
	}
	char *title = why ? pane_column_title(env, blank) : NULL;
	if (why)
		pane_message(env, false, "system: %s; %s is blank: %s",
			     system_focus_label(f), title ? title : "?", why);
	else
		pane_message(env, false, "system: %s (the tree's columns are "
			     "over its contexts)", system_focus_label(f));
	free(title);
	return REACTION(HANDLED_CLOSE | HANDLED_REDRAW);
}

/* The system tree or the flat list (the tree built at the first ask, from
 * the rows' values). */
static struct reaction toggle_tree(struct pane_env *env, struct threads *t)
{
	const struct model *m = env->model;
	if (!t->tree) {
		double *dense = calloc(model_n_profiles(m) ? model_n_profiles(m) : 1,
				       sizeof(*dense));
		struct error err = {0};
		if (dense) {
			for (size_t i = 0; i < t->n; i++)
				dense[t->rows[i].profile] = t->rows[i].value;
			t->tree = threads_tree_new(m, dense, model_n_profiles(m),
						   t->combine, t->stat,
						   t->sort == 0,
						   &err);
		} else {
			error_set(&err, STATUS_NOMEM, NULL, "out of memory");
		}
		free(dense);
		if (!t->tree) {
			pane_error(env, &err);
			return REACTION(HANDLED_REDRAW);
		}
		if (t->tree->t.n_groups == 0)
			pane_message(env, false, "threads: the contexts have no "
				     "identifier tuples to group them by");
	}
	t->tree_mode = !t->tree_mode;
	return REACTION(HANDLED_REDRAW);
}

static struct reaction threads_action(struct pane_env *env, struct pane *pane,
			       enum action a)
{
	struct threads *t = pane->state;
	if (a == ACTION_SYSTEM_TREE)
		return toggle_tree(env, t);
	if (a == ACTION_ZOOM)
		return focus_system(env, t);
	if (t->tree_mode ? threads_tree_action(t->tree, a)
			 : list_move(&t->list, a))
		return REACTION(HANDLED_REDRAW);
	if (a == ACTION_SORT || a == ACTION_SORT_REVERSE) {
		/* the tree has two orders: by value, by tuple */
		t->sort = t->tree_mode ? !t->sort : (t->sort + 1) % 3;
		sort_rows(env, t);
		if (t->tree)
			threads_tree_order(t->tree, t->sort == 0);
		return REACTION(HANDLED_REDRAW);
	}
	return pane_close_keys(pane, a);
}

static void threads_free(struct pane *pane)
{
	struct threads *t = pane->state;
	if (t) {
		free(t->rows);
		free(t->title);
		threads_tree_free(t->tree);
		free(t);
	}
	free(pane);
}

/* The first statistic `f` reads, or MODEL_NONE. */
static uint32_t formula_first_leaf(const struct formula *f)
{
	if (!f)
		return MODEL_NONE;
	if (f->op == FORMULA_LEAF)
		return f->leaf;
	for (size_t i = 0; i < f->nargs; i++) {
		uint32_t l = formula_first_leaf(f->args[i]);
		if (l != MODEL_NONE)
			return l;
	}
	return MODEL_NONE;
}

/* Whether a column's value is the sum of its threads': `f` adds and
 * subtracts statistics that each sum the threads' values. */
static bool formula_sums(const struct model *m, const struct formula *f)
{
	if (f->op == FORMULA_LEAF)
		return f->leaf < model_n_stats(m) &&
		       model_stats(m)[f->leaf].combine == COMBINE_SUM &&
		       strcmp(model_str(m, model_stats(m)[f->leaf].formula),
			      "$$") == 0;
	if (f->op != FORMULA_ADD && f->op != FORMULA_SUB &&
	    f->op != FORMULA_NEG && f->op != FORMULA_SUM)
		return false;
	for (size_t i = 0; i < f->nargs; i++)
		if (!formula_sums(m, f->args[i]))
			return false;
	return true;
}

static struct pane *threads_new(struct pane_env *env)
{
	const struct model *m = env->model;
	uint32_t node = pane_selected_model_node(env);
	uint32_t column = env->cols->sort_column;
	if (column == COLUMN_SEVERITY && env->extrap) /* the models' metric */
		column = extrap_column(env->extrap);
	uint32_t stat = column < model_n_columns(m)
				? formula_first_leaf(model_columns(m)[column].expr)
				: MODEL_NONE;
	if (node == MODEL_NONE || stat >= model_n_stats(m)) {
		pane_message(env, true, "threads: sort by a column of the "
				       "database's metrics first (s)");
		return NULL;
	}
	struct profile_value *vals = NULL;
	size_t nv = 0;
	struct error err = {0};
	if (model_per_profile_column(m, node, column, &vals, &nv, &err) !=
	    STATUS_OK) {
		pane_error(env, &err);
		return NULL;
	}
	double at_node;
	if (nv == 0 && !model_value(m, node, column, &at_node)) {
		/* a blank in the tree: no list of zeros for it */
		pane_message(env, false, "threads: the selection has no value "
				       "in this column (s sorts by another)");
		return NULL;
	}
	struct pane *p = pane_alloc(&pane_threads_ops, sizeof(struct threads));
	if (!p) {
		free(vals);
		return NULL;
	}
	struct threads *t = p->state;
	/* row of each profile, to place the sparse values in one pass */
	uint32_t *row_of = malloc((model_n_profiles(m) ? model_n_profiles(m) : 1) *
				  sizeof(*row_of));
	t->rows = calloc(env->n_threads ? env->n_threads : 1, sizeof(*t->rows));
	if (!t->rows || !row_of) {
		free(vals);
		free(row_of);
		threads_free(p);
		return NULL;
	}
	/* every thread, with 0 where the sparse data has no value */
	for (uint32_t i = 0; i < model_n_profiles(m); i++) {
		row_of[i] = MODEL_NONE;
		if (!model_profiles(m)[i].is_summary && t->n < env->n_threads) {
			row_of[i] = (uint32_t)t->n;
			t->rows[t->n++] = (struct thread_row){i, 0};
		}
	}
	for (size_t k = 0; k < nv; k++)
		if (vals[k].profile < model_n_profiles(m) &&
		    row_of[vals[k].profile] != MODEL_NONE)
			t->rows[row_of[vals[k].profile]].value = vals[k].value;
	free(row_of);
	free(vals);
	t->column = column;
	t->node = node;
	t->min = t->n ? t->rows[0].value : 0;
	t->max = t->min;
	for (size_t i = 0; i < t->n; i++) {
		double v = t->rows[i].value;
		t->sum += v;
		if (v < t->min)
			t->min = v;
		if (v > t->max)
			t->max = v;
	}
	/* a formula column (a Cube metric's own, stat its parent's): the
	 * threads combine as the parent's do; its value at the node the sum
	 * of the threads' only when linear over sums */
	bool one = model_column_stat(m, column) != MODEL_NONE;
	t->has_summary = one ? model_stat_value(m, node, stat, &t->summary)
			     : model_value(m, node, column, &t->summary);
	t->combine = model_stats(m)[stat].combine;
	t->stat = stat;
	if (one) /* a reader's own aggregation is of its statistic's values */
		own_combination(m, t);
	t->summary_sum = formula_sums(m, model_columns(m)[column].expr);
	t->mean = t->n ? t->sum / (double)t->n : 0;
	double var = 0;
	for (size_t i = 0; i < t->n; i++)
		var += (t->rows[i].value - t->mean) * (t->rows[i].value - t->mean);
	t->sd = t->n ? sqrt(var / (double)t->n) : 0;
	t->list.count = t->n;
	char *label = model_node_label(m, node);
	char *ctitle = pane_column_title(env, column);
	if (asprintf(&t->title, " %s per execution context: %s%s",
		     ctitle ? ctitle : "?", label ? label : "?",
		     env->view_kind == VIEW_TOP_DOWN
			     ? ""
			     : " (the row's representative context)") < 0)
		t->title = NULL;
	free(label);
	free(ctitle);
	sort_rows(env, t);
	return p;
}

const struct pane_ops pane_threads_ops = {
	.name = "threads",
	.title = "Threads",
	.open = ACTION_THREADS,
	.flags = PANE_TAB | PANE_CLEARS,
	.new = threads_new,
	.draw = threads_draw,
	.action = threads_action,
	.free = threads_free,
};
