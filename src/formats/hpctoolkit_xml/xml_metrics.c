/* xml_metrics: the MetricTable of an experiment.xml into statistics and
 * columns: metric names split into base, variant and suffix, each metric
 * matched to its metric-db / sparse statistic, the finalize and view
 * formulas (with #order references resolved) as column formulas.  Must not
 * depend on curses or on another format. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "formats/hpctoolkit_xml/xml_metrics.h"

/* ---- metric names ------------------------------------------------------ */

/* "WALLCLOCK (us):Mean (I)" -> base "WALLCLOCK (us)", variant "Mean",
 * suffix " (I)".  The variant starts at the first ':' followed by one of
 * the variants hpcprof writes. */
struct metric_name {
	char *base;
	char *variant;
	const char *suffix; /* " (I)", " (E)" or "" */
};

static bool split_name(const char *name, struct metric_name *out)
{
	static const char *const variants[] = {
		"Sum", "Mean", "StdDev", "CfVar", "Min", "Max", "PARTIAL",
	};
	size_t len = strlen(name);
	out->suffix = "";
	if (len >= 4 && (strcmp(name + len - 4, " (I)") == 0 ||
			 strcmp(name + len - 4, " (E)") == 0)) {
		out->suffix = name[len - 2] == 'I' ? " (I)" : " (E)";
		len -= 4;
	}
	size_t cut = len;
	for (const char *c = name; (c = memchr(c, ':', (size_t)(name + len - c)));
	     c++) {
		for (size_t v = 0; v < sizeof(variants) / sizeof(*variants);
		     v++) {
			size_t vl = strlen(variants[v]);
			if ((size_t)(name + len - (c + 1)) >= vl &&
			    strncmp(c + 1, variants[v], vl) == 0) {
				cut = (size_t)(c - name);
				break;
			}
		}
		if (cut != len)
			break;
	}
	out->base = strndup(name, cut);
	out->variant = cut < len ? strndup(name + cut + 1, len - cut - 1)
				 : strdup("");
	return out->base && out->variant;
}

/* Sorted views of the MetricTable and MetricDBTable, so that matching
 * names and resolving "#N" cost a binary search each, whatever a hostile
 * file declares. */
struct lookup {
	uint64_t *orders;    /* (o << 32 | metric index), sorted */
	uint32_t n_orders;
	uint32_t *dbs;       /* MetricDB indexes sorted by name */
	uint32_t *names;     /* Metric indexes sorted by name */
	const struct xml_experiment *x;
};

static int cmp_db(const void *a, const void *b, void *arg)
{
	const struct xml_experiment *x = arg;
	return strcmp(x->metric_dbs[*(const uint32_t *)a].name,
		      x->metric_dbs[*(const uint32_t *)b].name);
}

static int cmp_metric(const void *a, const void *b, void *arg)
{
	const struct xml_experiment *x = arg;
	return strcmp(x->metrics[*(const uint32_t *)a].name,
		      x->metrics[*(const uint32_t *)b].name);
}

static bool lookup_init(struct lookup *l, const struct xml_experiment *x)
{
	*l = (struct lookup){.x = x};
	l->orders = malloc(((size_t)x->n_metrics + 1) * sizeof(*l->orders));
	l->dbs = malloc(((size_t)x->n_metric_dbs + 1) * sizeof(*l->dbs));
	l->names = malloc(((size_t)x->n_metrics + 1) * sizeof(*l->names));
	if (!l->orders || !l->dbs || !l->names)
		return false;
	for (uint32_t i = 0; i < x->n_metrics; i++)
		l->names[i] = i;
	qsort_r(l->names, x->n_metrics, sizeof(*l->names), cmp_metric,
		(void *)(uintptr_t)x);
	for (uint32_t i = 0; i < x->n_metrics; i++)
		if (x->metrics[i].order != MODEL_NONE)
			l->orders[l->n_orders++] =
				(uint64_t)x->metrics[i].order << 32 | i;
	qsort(l->orders, l->n_orders, sizeof(*l->orders), array_cmp_u64);
	for (uint32_t i = 0; i < x->n_metric_dbs; i++)
		l->dbs[i] = i;
	qsort_r(l->dbs, x->n_metric_dbs, sizeof(*l->dbs), cmp_db,
		(void *)(uintptr_t)x);
	return true;
}

static void lookup_free(struct lookup *l)
{
	free(l->orders);
	free(l->dbs);
	free(l->names);
}

/* A name looked up in `lookup`'s index of MetricDBs (db) or Metrics. */
struct by_name {
	const struct xml_experiment *x;
	bool db;
	const char *name;
};

static const char *name_at(const struct by_name *k, uint32_t i)
{
	return k->db ? k->x->metric_dbs[i].name : k->x->metrics[i].name;
}

static bool name_below(const void *elem, const void *key)
{
	const struct by_name *k = key;
	return strcmp(name_at(k, *(const uint32_t *)elem), k->name) < 0;
}

/* The index named k->name in `sorted` (n indexes sorted by name), or
 * MODEL_NONE. */
static uint32_t find_name(const uint32_t *sorted, size_t n,
			  const struct by_name *k)
{
	size_t i = array_lower_bound(sorted, n, sizeof(*sorted), name_below, k);
	if (i == n || strcmp(name_at(k, sorted[i]), k->name) != 0)
		return MODEL_NONE;
	return sorted[i];
}

/* The metric named `name`, or NULL. */
static const struct xml_metric *find_metric(const struct lookup *l,
					    const char *name)
{
	const struct by_name k = {.x = l->x, .name = name};
	uint32_t i = find_name(l->names, l->x->n_metrics, &k);
	return i == MODEL_NONE ? NULL : &l->x->metrics[i];
}

/* For "BASE:Mean:num-src (E)", the id of "BASE:Mean (E)": the sum the
 * count divides; MODEL_NONE for other metrics or when there is none. */
static uint32_t count_gate(const struct lookup *l, const struct xml_metric *m)
{
	static const char tag[] = ":num-src";
	const char *at = strstr(m->name, tag);
	if (!at)
		return MODEL_NONE;
	char *want = NULL;
	if (asprintf(&want, "%.*s%s", (int)(at - m->name), m->name,
		     at + strlen(tag)) < 0)
		return MODEL_NONE;
	const struct xml_metric *sum = find_metric(l, want);
	free(want);
	return sum && sum != m ? sum->id : MODEL_NONE;
}

/* The MetricDB of the same raw metric and kind: "BASE (I)". */
static const struct xml_metric_db *find_metric_db(const struct lookup *l,
						  const struct metric_name *mn,
						  const struct xml_metric *m)
{
	const char *suffix = *mn->suffix ? mn->suffix
			     : m->type == XML_METRIC_EXCLUSIVE ? " (E)"
							       : " (I)";
	char *want = NULL;
	if (asprintf(&want, "%s%s", mn->base, suffix) < 0)
		return NULL;
	const struct by_name k = {.x = l->x, .db = true, .name = want};
	uint32_t i = find_name(l->dbs, l->x->n_metric_dbs, &k);
	free(want);
	return i == MODEL_NONE ? NULL : &l->x->metric_dbs[i];
}

static uint8_t combine_of(const char *frm)
{
	if (frm && strncmp(frm, "min(", 4) == 0)
		return COMBINE_MIN;
	if (frm && strncmp(frm, "max(", 4) == 0)
		return COMBINE_MAX;
	return COMBINE_SUM;
}

static bool ends_with(const char *s, const char *end)
{
	size_t sl = strlen(s), el = strlen(end);
	return sl >= el && strcmp(s + sl - el, end) == 0;
}

/* What a statistic metric of hpcprof holds, from its variant and combine:
 * "Mean" and "StdDev" keep a sum that their finalize formula divides by
 * ":num-src", "StdDev:accum2" the sum of squares. */
static uint8_t stat_acc(const struct metric_name *mn, uint8_t combine)
{
	if (ends_with(mn->variant, ":num-src"))
		return XML_ACC_COUNT;
	if (ends_with(mn->variant, ":accum2"))
		return XML_ACC_SUMSQ;
	if (combine == COMBINE_MIN || strcmp(mn->variant, "Min") == 0)
		return XML_ACC_MIN;
	if (combine == COMBINE_MAX || strcmp(mn->variant, "Max") == 0)
		return XML_ACC_MAX;
	return XML_ACC_SUM;
}

/* ---- columns ----------------------------------------------------------- */

/* Leaves of a parsed finalize formula are "$N" (metric id N, stored as
 * N - 1); make them statistic indexes.  The parser bounds the depth. */
static bool remap_leaves(struct formula *f, const struct xml_experiment *x)
{
	if (f->op == FORMULA_LEAF) {
		const struct xml_metric *m =
			f->leaf == UINT32_MAX
				? NULL
				: xml_experiment_metric(x, f->leaf + 1);
		if (!m)
			return false;
		f->leaf = (uint32_t)(m - x->metrics);
		return true;
	}
	for (size_t i = 0; i < f->nargs; i++)
		if (!remap_leaves(f->args[i], x))
			return false;
	return true;
}

/* The metric whose o attribute is `order`; for an exclusive metric, the
 * exclusive partner of that one. */
static const struct xml_metric *by_order(const struct lookup *l,
					 uint32_t order, bool exclusive)
{
	const struct xml_experiment *x = l->x;
	/* the first metric of that order */
	uint32_t i = array_pairs_find(l->orders, l->n_orders, order,
				      MODEL_NONE);
	if (i == MODEL_NONE)
		return NULL;
	const struct xml_metric *m = &x->metrics[i];
	if (exclusive && m->type != XML_METRIC_EXCLUSIVE &&
	    m->partner != MODEL_NONE)
		return xml_experiment_metric(x, m->partner);
	return m;
}

/* Formula text with "#N" (the metric whose o attribute is N, as written
 * by HPCToolkit 2020+ for GPU metrics) rewritten as "$ID".  Heap string,
 * or NULL when a "#N" names no metric or out of memory. */
static char *resolve_orders(const struct lookup *l, const char *frm,
			    bool exclusive)
{
	size_t cap = strlen(frm) * 6 + 16, len = 0; /* "#1" -> "$4294967294" */
	char *out = malloc(cap);
	if (!out)
		return NULL;
	for (const char *c = frm; *c;) {
		if (*c != '#') {
			out[len++] = *c++;
			continue;
		}
		char *end = NULL;
		unsigned long n = strtoul(c + 1, &end, 10);
		const struct xml_metric *m =
			end == c + 1 || n >= UINT32_MAX
				? NULL
				: by_order(l, (uint32_t)n, exclusive);
		if (!m) {
			free(out);
			return NULL;
		}
		/* "$" + up to 10 digits for at least "#" + 1 digit: 6x fits */
		len += (size_t)snprintf(out + len, cap - len, "$%u", m->id);
		c = end;
	}
	out[len] = '\0';
	return out;
}

/* A printf format for one double from the fmt attribute, or "%.2e":
 * "%[flags][width][.precision](e|E|f|g|G)" and nothing else. */
static char *column_format(const char *fmt)
{
	const char *c = fmt;
	if (c && *c++ == '%') {
		c += strspn(c, "-+ #0");
		c += strspn(c, "0123456789");
		if (*c == '.')
			c += 1 + strspn(c + 1, "0123456789");
		if (*c && strchr("eEfgG", *c) && c[1] == '\0' &&
		    c - fmt < 12)
			return strdup(fmt);
	}
	return strdup("%.2e");
}

static struct formula *column_formula(struct model_builder *b,
				      const struct lookup *l, uint32_t index)
{
	const struct xml_experiment *x = l->x;
	const struct xml_metric *m = &x->metrics[index];
	struct formula *f = NULL;
	struct error ferr = {.status = STATUS_OK};
	if (m->formula) {
		char *text = resolve_orders(l, m->formula,
					    m->type == XML_METRIC_EXCLUSIVE);
		if (!text || formula_parse(text, &f, &ferr) != STATUS_OK ||
		    !remap_leaves(f, x)) {
			char *w = NULL;
			if (asprintf(&w, "%s: metric %u \"%s\": formula \"%s\" "
				     "is not understood; its own values are "
				     "shown",
				     model_path(model_builder_peek(b)), m->id,
				     m->name, m->formula) >= 0)
				model_builder_add_warning(b, w);
			free(w);
			formula_free(f);
			f = NULL;
		}
		free(text);
		error_clear(&ferr);
	}
	return f ? f : formula_leaf(index);
}

/* Where metric `m`'s values come from: inline <M> values, the sparse
 * profiles or the metric-db / mdb files; *prop: its property id in the
 * per-thread data (MODEL_NONE when none). */
static struct xml_source source_of(struct xml_provider *pv,
				   const struct lookup *l,
				   const struct xml_metric *m,
				   const struct metric_name *mn, uint8_t kind,
				   uint8_t combine, bool inline_values,
				   uint32_t *prop)
{
	const struct xml_metric_db *db = find_metric_db(l, mn, m);
	struct xml_source src = {
		.kind = XML_SOURCE_INLINE,
		.key = m->id,
		.acc = stat_acc(mn, combine),
		.gate = count_gate(l, m),
		.inclusive = kind == COLUMN_INCLUSIVE,
	};
	*prop = MODEL_NONE;
	if (pv->sparse) {
		/* the summary profile keys values by the <Metric> id, the
		 * thread profiles by the <MetricDB> id */
		src.kind = XML_SOURCE_SPARSE;
		*prop = db ? db->id : MODEL_NONE;
	} else if (pv->values && db &&
		   db->db_id < legacy_values_n_metrics(pv->values)) {
		*prop = db->db_id;
		pv->inclusive[*prop] = kind == COLUMN_INCLUSIVE;
		if (!inline_values) {
			src.kind = XML_SOURCE_STAT;
			src.key = db->db_id;
			src.gate = MODEL_NONE;
			if (src.acc == XML_ACC_SUM)
				src.kind = XML_SOURCE_SUM;
		}
	}
	return src;
}

enum status xml_add_metrics(struct model_builder *b,
			    const struct xml_experiment *x,
			    struct xml_provider *pv, struct error *err)
{
	const char *path = model_path(model_builder_peek(b));
	bool inline_values = xml_values_count(pv->inline_values) > 0;
	struct lookup l;
	enum status st = STATUS_OK;
	uint32_t n_file_metrics =
		pv->values ? legacy_values_n_metrics(pv->values) : 0;
	if (!lookup_init(&l, x) ||
	    (n_file_metrics &&
	     !(pv->inclusive = calloc(n_file_metrics, 1)))) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < x->n_metrics; i++) {
		const struct xml_metric *m = &x->metrics[i];
		struct metric_name mn = {.base = NULL, .variant = NULL};
		if (!split_name(m->name, &mn)) {
			free(mn.base);
			free(mn.variant);
			st = error_set(err, STATUS_NOMEM, path, "out of memory");
			goto out;
		}
		uint8_t kind = m->type == XML_METRIC_EXCLUSIVE ||
					       strcmp(mn.suffix, " (E)") == 0
				       ? COLUMN_EXCLUSIVE
				       : COLUMN_INCLUSIVE;
		uint8_t combine = combine_of(m->combine);
		uint32_t prop;
		struct xml_source src = source_of(pv, &l, m, &mn, kind, combine,
						  inline_values, &prop);
		uint32_t stat_id = xml_provider_add_source(pv, src);
		/* what the statistic holds, in the v4 terms (METRICS.yaml
		 * `formula` applied per thread, then `combine`): hpcprof's
		 * helper columns are a count of the threads with a value
		 * (":num-src": 1 summed) and a sum of squares (":accum2") */
		const char *formula = src.acc == XML_ACC_COUNT ? "1"
				      : src.acc == XML_ACC_SUMSQ ? "($$^2)"
								 : "$$";
		struct model_stat stat = {
			.metric = model_builder_intern(b, mn.base,
						       strlen(mn.base)),
			.scope = model_builder_intern(
				b,
				kind == COLUMN_EXCLUSIVE ? "function"
							 : "execution",
				kind == COLUMN_EXCLUSIVE ? 8 : 9),
			.formula = model_builder_intern(b, formula,
							strlen(formula)),
			.combine = combine,
			.stat_id = stat_id,
			.prop_id = prop,
			/* ":num-src" is N wherever it has a value */
			.flags = src.acc == XML_ACC_COUNT ? STAT_CONSTANT : 0,
		};
		struct model_column c = {
			.name = mn.base,
			.variant = mn.variant,
			.description = m->description && x->major < 4
					       ? strdup(m->description)
					       : NULL,
			.format = column_format(m->format),
			.kind = kind,
			.render = RENDER_NUMBER |
				  (m->show_percent ? RENDER_PERCENT : 0) |
				  (m->show == 4 ? RENDER_HIDDEN : 0),
			.visible = m->show == 1,
			.pair = MODEL_NONE,
			.parent = MODEL_NONE,
			.expr = NULL,
		};
		if (stat_id == MODEL_NONE ||
		    model_builder_add_stat(b, &stat) == MODEL_NONE ||
		    !c.format ||
		    !(c.expr = column_formula(b, &l, i)) ||
		    model_builder_add_column(b, &c) == MODEL_NONE) {
			model_column_release(&c);
			st = error_set(err, STATUS_NOMEM, path, "out of memory");
			goto out;
		}
	}
out:
	lookup_free(&l);
	return st;
}
