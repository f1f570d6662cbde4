/* cube_metrics: the anchor's metrics into statistics and columns: two of
 * each (inclusive, exclusive) per scalar metric, with its unit, combine
 * rule and parent column (derived CubePL metrics too, after
 * cube_derived_setup); the formula columns of multi-value metrics
 * (TAU_ATOMIC mean and deviation, RATE); SCALE_FUNC metrics as columns of
 * ranking codes (RENDER_CODE); warnings for metrics not shown.
 * Must not depend on curses or on another format. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cube/cube_components.h"
#include "formats/cube/cube_internal.h"
#include "model/formula_pair.h"


/* An exclusive-stored metric whose data is larger than this is not shown
 * by default: its inclusive column needs every row (doc/cube.md). */
#define CUBE_VISIBLE_PASS_BYTES (64ull << 20)

/* Add column *c (its strings and formula taken over, freed when it cannot
 * be added) as *out; STATUS_NOMEM when a string is missing or the builder
 * fails. */
static enum status push_column(struct opener *o, struct model_column *c,
			       uint32_t *out)
{
	*out = MODEL_NONE;
	if (c->name && c->variant && c->format && c->expr &&
	    (*out = model_builder_add_column(o->b, c)) != MODEL_NONE)
		return STATUS_OK;
	free(c->name);
	free(c->variant);
	free(c->description);
	free(c->format);
	formula_free(c->expr);
	return error_set(o->err, STATUS_NOMEM, o->path, "out of memory");
}

/* The column unit of a Cube unit of measurement ("sec", "bytes", "occ"). */
static uint8_t cube_unit(const char *uom, bool integer)
{
	static const struct {
		const char *uom;
		enum column_unit unit;
	} known[] = {
		{"sec", UNIT_SECONDS},	     {"s", UNIT_SECONDS},
		{"msec", UNIT_MILLISECONDS}, {"ms", UNIT_MILLISECONDS},
		{"usec", UNIT_MICROSECONDS}, {"us", UNIT_MICROSECONDS},
		{"nsec", UNIT_NANOSECONDS},  {"ns", UNIT_NANOSECONDS},
		{"bytes", UNIT_BYTES},	     {"byte", UNIT_BYTES},
		{"B", UNIT_BYTES},	     {"occ", UNIT_COUNT},
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(uom, known[i].uom) == 0)
			return (uint8_t)(known[i].unit == UNIT_COUNT && !integer
						 ? UNIT_NUMBER
						 : known[i].unit);
	return integer ? UNIT_COUNT : UNIT_UNKNOWN;
}

static enum status add_column(struct opener *o, uint32_t mi, uint32_t kind,
			      uint32_t stat, bool visible, uint32_t parent,
			      uint32_t *out)
{
	const struct model *m = model_builder_peek(o->b);
	const struct cube_metric *cm = &o->v->metrics[mi];
	bool integer = cm->dtype >= CUBE_DT_INT8 && cm->dtype <= CUBE_DT_UINT64;
	char *descr = NULL;
	const char *uom = model_str(m, cm->uom), *why = NULL;
	static const char *const derived[] = {
		"stored exclusive", "derived PREDERIVED_EXCLUSIVE",
		"derived PREDERIVED_INCLUSIVE", "derived POSTDERIVED"};
	if (cm->mtype == CUBE_MT_DERIVED)
		cube_derived_usable(o->v, mi, &why);
	if (asprintf(&descr, "%s%s%s%s: %s (Cube %s, %s)%s%s",
		     model_str(m, cm->disp), *uom ? " [" : "", uom,
		     *uom ? "]" : "", model_str(m, cm->descr),
		     cube_is_scalefn(cm) ? "ranking code of a scaling "
					   "function: 1000 b/c + d + a/1000 "
					   "of its dominant term"
		     : cm->mtype == CUBE_MT_INCLUSIVE ? "stored inclusive"
		     : cm->mtype == CUBE_MT_SIMPLE  ? "simple"
		     : cm->derived < 4		    ? derived[cm->derived]
						    : "derived",
		     model_str(m, cm->dtype_text),
		     why ? "; not computed: " : "", why ? why : "") < 0)
		descr = NULL;
	/* a SCALE_FUNC metric's values are ranking codes: no unit, no
	 * share (RENDER_CODE) */
	bool code = cube_is_scalefn(cm);
	struct model_column c = {
		.name = strdup(model_str(m, cm->uniq)),
		.variant = strdup(""),
		.description = descr,
		.format = strdup(code ? "%.4f" : integer ? "%.0f" : "%.4g"),
		.unit = code ? UNIT_NUMBER : cube_unit(uom, integer),
		.kind = kind == KIND_INCL ? COLUMN_INCLUSIVE : COLUMN_EXCLUSIVE,
		.render = code		? RENDER_NUMBER | RENDER_CODE
			  : is_minmax(cm) ? RENDER_NUMBER
					  : RENDER_NUMBER | RENDER_PERCENT,
		.visible = visible,
		.pair = MODEL_NONE,
		.parent = parent,
		.expr = formula_leaf(stat),
	};
	return push_column(o, &c, out);
}

/* A derived column of a multi-value metric: `expr` over its components'
 * statistics (taken over), named "UNIQ/what". */
static enum status add_formula_column(struct opener *o, uint32_t mi,
				      const char *what, const char *descr,
				      uint32_t kind, struct formula *expr)
{
	const struct model *m = model_builder_peek(o->b);
	const struct cube_metric *cm = &o->v->metrics[mi];
	struct model_column c = {
		.variant = strdup(""),
		.format = strdup("%.4g"),
		.kind = kind == KIND_INCL ? COLUMN_INCLUSIVE : COLUMN_EXCLUSIVE,
		.render = RENDER_NUMBER,
		.visible = true,
		.pair = MODEL_NONE,
		.parent = MODEL_NONE,
		.expr = expr,
	};
	if (asprintf(&c.name, "%s/%s", model_str(m, cm->uniq), what) < 0)
		c.name = NULL;
	if (asprintf(&c.description, "%s: %s (Cube %s)",
		     model_str(m, cm->disp), descr,
		     model_str(m, cm->dtype_text)) < 0)
		c.description = NULL;
	uint32_t col;
	return push_column(o, &c, &col);
}

/* TAU_ATOMIC: mean = sum / n, standard deviation = sqrt(max(0, sum2 / n -
 * mean^2)) (CubeTauAtomicValue's calcAvg, calcDeviation); RATE: rate =
 * main / time.  stat[c] is component c's statistic of this kind. */
static enum status add_component_formulas(struct opener *o,
					  const struct cube_components *cs,
					  uint32_t kind, const uint32_t *stat)
{
	if (cs->dtype == CUBE_DT_HISTOGRAM)
		return STATUS_OK; /* min, max and count are the columns */
	if (cs->dtype == CUBE_DT_RATE)
		return add_formula_column(
			o, cs->metric, "rate", "main value per time", kind,
			formula_pair(FORMULA_DIV, formula_leaf(stat[0]),
				     formula_leaf(stat[1])));
	/* n, min, max, sum, sum2 */
	struct formula *mean = formula_pair(
		FORMULA_DIV, formula_leaf(stat[3]), formula_leaf(stat[0]));
	enum status st = add_formula_column(o, cs->metric, "mean",
					    "mean (sum / n)", kind, mean);
	if (st != STATUS_OK)
		return st;
	struct formula *var = formula_pair(
		FORMULA_SUB,
		formula_pair(FORMULA_DIV, formula_leaf(stat[4]),
			     formula_leaf(stat[0])),
		formula_pair(FORMULA_POW,
			     formula_pair(FORMULA_DIV, formula_leaf(stat[3]),
					  formula_leaf(stat[0])),
			     formula_number(2)));
	struct formula *dev = NULL;
	struct formula **a1 = malloc(sizeof(*a1));
	if (a1 && var) {
		a1[0] = formula_pair(FORMULA_MAX, var, formula_number(0));
		dev = a1[0] ? formula_node(FORMULA_SQRT, a1, 1) : NULL;
		if (!a1[0])
			free(a1);
	} else {
		free(a1);
		formula_free(var);
	}
	return add_formula_column(o, cs->metric, "stddev",
				  "standard deviation", kind, dev);
}

/* The inclusive and exclusive statistics of scalar metric `i`, into
 * stat[KIND_INCL], stat[KIND_EXCL]: the exclusive one first, since an
 * exclusive-stored metric's inclusive one is derived from it by the
 * engine. */
static enum status add_stats(struct opener *o, uint32_t i, uint8_t comb,
			     uint32_t stat[2])
{
	const struct cube_metric *cm = &o->v->metrics[i];
	for (int k = 1; k >= 0; k--) {
		uint32_t kind = (uint32_t)k;
		struct model_stat s = {
			.metric = cm->uniq,
			.scope = model_builder_intern(
				o->b, kind ? "exclusive" : "inclusive", 9),
			.formula = model_builder_intern(o->b, "$$", 2),
			.combine = comb,
			.stat_id = i * 2 + kind,
			.prop_id = i * 2 + kind,
		};
		/* a minimum or maximum is one over call paths too */
		if (comb != COMBINE_SUM)
			s.flags = STAT_CONTEXTS_COMBINE;
		/* a scaling function's inclusive code is the reader's:
		 * the code of the subtree's functions added */
		bool sf = cube_is_scalefn(cm);
		if (cube_excl_only(cm) && kind == KIND_EXCL && !sf)
			s.flags |= STAT_EXCLUSIVE_ONLY;
		/* an expression over sums: no sum over call paths (a sum
		 * of ratios is none; rows: cube_derived_rows); nor has a
		 * row a ranking code (a sum of codes is none) */
		if ((cm->mtype == CUBE_MT_DERIVED &&
		     cm->derived == CUBE_DV_POST) || sf)
			s.flags |= STAT_NO_AGGREGATE;
		if (cube_excl_only(cm) && kind == KIND_INCL && !sf) {
			stat[kind] = model_builder_add_inclusive_stat(
				o->b, stat[KIND_EXCL]);
			if (stat[kind] != MODEL_NONE)
				model_builder_set_stat_prop_id(o->b, stat[kind],
							       i * 2 + kind);
		} else {
			stat[kind] = model_builder_add_stat(o->b, &s);
		}
		if (stat[kind] == MODEL_NONE)
			return error_set(o->err, STATUS_NOMEM, o->path,
					 "out of memory");
	}
	return STATUS_OK;
}

/* Per-metric results of build_metrics: the columns (parents of their
 * children's) and statistics (inputs of the component formulas). */
struct metric_cols {
	uint32_t *incl, *excl; /* column per metric */
	uint32_t *stats;       /* [2i]: inclusive, [2i + 1]: exclusive */
	uint32_t max_elem;     /* largest cell read */
};

/* Metric i: its data files checked, then (when it is a shown scalar) its
 * two statistics and columns; a warning for one not shown. */
static enum status add_metric(struct opener *o, uint32_t i,
			      struct metric_cols *mc)
{
	struct cube_values *v = o->v;
	const struct cube_metric *cm = &v->metrics[i];
	const struct model *m = model_builder_peek(o->b);
	const char *uniq = model_str(m, cm->uniq);
	enum status st;
	mc->incl[i] = mc->excl[i] = MODEL_NONE;
	mc->stats[2 * i] = mc->stats[2 * i + 1] = MODEL_NONE;
	v->mv[i].metric = i;
	char iname[32], dname[32];
	snprintf(iname, sizeof(iname), "%u.index", (unsigned)cm->id);
	snprintf(dname, sizeof(dname), "%u.data", (unsigned)cm->id);
	const struct cube_member *im = cube_container_find(&v->c, iname);
	const struct cube_member *dm = cube_container_find(&v->c, dname);
	v->mv[i].has_data = im && dm;
	bool sf = cube_is_scalefn(cm);
	if (im && dm && (is_scalar(cm) || sf) && cm->mtype != CUBE_MT_DERIVED) {
		/* headers and sizes now, the entries when needed */
		struct cube_data hd;
		st = cube_data_open(&v->c, im, dm, v->n, v->n_loc,
				    cm->elem_size, &hd, NULL, o->err);
		if (st != STATUS_OK)
			return st;
	}
	const char *why = NULL;
	bool derived_ok = cm->mtype == CUBE_MT_DERIVED &&
			  cube_derived_usable(v, i, &why);
	if (!cm->known_dtype)
		cube_warn(o,
			  "metric %s: unknown data type \"%s\", read "
			  "as DOUBLE (as CubeLib does)",
			  uniq, model_str(m, cm->dtype_text));
	if (cube_has_components(cm))
		return STATUS_OK; /* its components follow */
	if (sf && cube_sf_setup(v, i, uniq) != STATUS_OK)
		return error_set(o->err, STATUS_NOMEM, o->path, "out of memory");
	if (!is_scalar(cm) && !sf) {
		cube_warn(o, "metric %s: data type %s %s", uniq,
			  model_str(m, cm->dtype_text), cube_unshown_why(cm));
		return STATUS_OK;
	}
	if (cm->elem_size > mc->max_elem)
		mc->max_elem = cm->elem_size;
	uint8_t comb = cm->dtype == CUBE_DT_MINDOUBLE   ? COMBINE_MIN
		       : cm->dtype == CUBE_DT_MAXDOUBLE ? COMBINE_MAX
							: COMBINE_SUM;
	/* an exclusive-stored metric's inclusive column needs every
	 * row: not shown by default when that is a large read */
	uint64_t pass = (uint64_t)v->n * v->n_loc * cm->elem_size;
	/* derived metrics too: their values are computed from any
	 * metric's, inclusive ones of exclusive metrics among them */
	bool visible = (v->mv[i].has_data || derived_ok) &&
		       ((!cube_excl_only(cm) && cm->mtype != CUBE_MT_DERIVED) ||
			pass <= CUBE_VISIBLE_PASS_BYTES);
	uint32_t stat[2] = {MODEL_NONE, MODEL_NONE};
	st = add_stats(o, i, comb, stat);
	for (uint32_t kind = 0; kind < 2 && st == STATUS_OK; kind++) {
		uint32_t pm = cm->parent;
		uint32_t parent = pm == MODEL_NONE ? MODEL_NONE
				  : kind ? mc->excl[pm] : mc->incl[pm];
		st = add_column(o, i, kind, stat[kind], visible, parent,
				kind ? &mc->excl[i] : &mc->incl[i]);
	}
	mc->stats[2 * i] = stat[KIND_INCL];
	mc->stats[2 * i + 1] = stat[KIND_EXCL];
	return st;
}

/* The derived columns of multi-value metrics, over their components'
 * statistics. */
static enum status add_sets(struct opener *o,
			    const struct cube_components *sets,
			    uint32_t n_sets, const uint32_t *stats)
{
	enum status st = STATUS_OK;
	for (uint32_t k = 0; k < n_sets && st == STATUS_OK; k++) {
		for (uint32_t kind = 0; kind < 2 && st == STATUS_OK; kind++) {
			uint32_t sc[8];
			bool all = sets[k].n <= 8;
			for (uint32_t c = 0; all && c < sets[k].n; c++) {
				sc[c] = stats[2 * (sets[k].first + c) + kind];
				all = sc[c] != MODEL_NONE;
			}
			if (all)
				st = add_component_formulas(o, &sets[k], kind,
							    sc);
		}
	}
	return st;
}

enum status cube_build_metrics(struct opener *o)
{
	struct cube_values *v = o->v;
	struct cube_anchor *a = &o->a;
	struct cube_components *sets = NULL;
	uint32_t n_sets = 0;
	v->n_metrics = a->n_metrics;
	v->metrics = a->metrics;
	a->metrics = NULL;
	enum status st = cube_components_expand(&v->metrics, &v->n_metrics,
						o->b, &sets, &n_sets, o->err);
	if (st == STATUS_OK)
		st = cube_derived_setup(o);
	if (st != STATUS_OK) {
		free(sets);
		return st;
	}
	size_t n1 = (size_t)v->n_metrics + 1;
	v->mv = calloc(v->n_metrics ? v->n_metrics : 1, sizeof(*v->mv));
	struct metric_cols mc = {
		.incl = malloc(n1 * sizeof(uint32_t)),
		.excl = malloc(n1 * sizeof(uint32_t)),
		.stats = malloc(n1 * 2 * sizeof(uint32_t)),
		.max_elem = 8,
	};
	if (!v->mv || !mc.incl || !mc.excl || !mc.stats) {
		st = error_set(o->err, STATUS_NOMEM, o->path, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < v->n_metrics && st == STATUS_OK; i++)
		st = add_metric(o, i, &mc);
	if (st == STATUS_OK)
		st = add_sets(o, sets, n_sets, mc.stats);
	if (st == STATUS_OK)
		st = cube_metric_tree_columns(o, mc.incl, mc.excl, mc.stats);
	if (st != STATUS_OK)
		goto out;
	size_t row = (size_t)v->n_loc * mc.max_elem;
	v->rowbuf = malloc(row ? row : 1);
	v->acc = malloc(((size_t)v->n_loc + 1) * sizeof(double));
	v->tmp = malloc(((size_t)v->n_loc + 1) * sizeof(double));
	if (!v->rowbuf || !v->acc || !v->tmp)
		st = error_set(o->err, STATUS_NOMEM, o->path, "out of memory");
out:
	free(mc.incl);
	free(mc.excl);
	free(mc.stats);
	free(sets);
	return st;
}
