/* metrics_yaml_taxonomy: the document of a METRICS.yaml file into the
 * taxonomy as read: `inputs:` matched to the database's statistics, then
 * `roots:` into metrics (name, description, visibility, format) with their
 * variants (render, format, formula rule, inclusive/exclusive formulas)
 * and children.  Must not depend on curses or on another format. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "formats/hpctoolkit_v4/metrics_yaml_internal.h"

/* ---- inputs --------------------------------------------------------- */

static bool read_inputs(struct ctx *c, yaml_node_t *inputs)
{
	if (is_null(inputs))
		return true;
	if (!my_expect_type(c, inputs, YAML_SEQUENCE_NODE, "inputs"))
		return false;
	const struct model *m = c->m;
	for (yaml_node_item_t *i = inputs->data.sequence.items.start;
	     i < inputs->data.sequence.items.top; i++) {
		yaml_node_t *in = node_at(c, *i);
		char *metric = NULL, *scope = NULL, *formula = NULL;
		char *combine = NULL, *canon = NULL;
		if (!my_step(c, inputs) ||
		    !my_expect_type(c, in, YAML_MAPPING_NODE, "inputs"))
			return false;
		yaml_node_t *v;
		metric =
		    my_scalar_dup(c, my_map_get(c, in, "metric"), "metric", in);
		scope = metric ? my_scalar_dup(c, my_map_get(c, in, "scope"),
					       "scope", in)
			       : NULL;
		if (!scope)
			goto next;
		v = my_map_get(c, in, "formula");
		formula = is_null(v) ? strdup("$$")
				     : my_scalar_dup(c, v, "formula", in);
		v = my_map_get(c, in, "combine");
		combine = is_null(v) ? strdup("sum")
				     : my_scalar_dup(c, v, "combine", in);
		if (!formula || !combine) {
			my_nomem(c);
			goto next;
		}
		int comb = strcmp(combine, "sum") == 0   ? COMBINE_SUM
			   : strcmp(combine, "min") == 0 ? COMBINE_MIN
			   : strcmp(combine, "max") == 0 ? COMBINE_MAX
							 : -1;
		if (comb < 0) {
			my_fail(c, STATUS_CORRUPT, v,
				"'combine': expected sum, "
				"min or max");
			goto next;
		}
		canon = my_canonical_formula(formula);
		if (!canon) {
			my_nomem(c);
			goto next;
		}
		uint32_t found = MODEL_NONE;
		for (uint32_t s = 0; s < model_n_stats(m) && found == MODEL_NONE;
		     s++) {
			const struct model_stat *st = &model_stats(m)[s];
			if (st->combine == comb &&
			    strcmp(model_str(m, st->metric), metric) == 0 &&
			    strcmp(model_str(m, st->scope), scope) == 0 &&
			    strcmp(c->stat_formula[s], canon) == 0)
				found = s;
		}
		size_t idx = index_of(c, in);
		c->is_input[idx] = true;
		c->input_stat[idx] = found;
next:
		free(metric);
		free(scope);
		free(formula);
		free(combine);
		free(canon);
		if (c->status != STATUS_OK)
			return false;
	}
	return true;
}

/* ---- taxonomy ------------------------------------------------------- */

/* "[prefix]%[#0- +']*[width][.precision](eEfFgGaA)[suffix]" with %% for a
 * literal percent sign: one double conversion, nothing printf could
 * misuse (no %n, %s, *, length modifiers), bounded width and precision. */
static bool format_is_safe(const char *f)
{
	size_t conversions = 0;
	if (strlen(f) > 128)
		return false;
	for (size_t i = 0; f[i];) {
		if (f[i] != '%') {
			i++;
			continue;
		}
		if (f[i + 1] == '%') {
			i += 2;
			continue;
		}
		if (conversions++)
			return false;
		i++;
		while (f[i] && strchr("#0- +'", f[i]))
			i++;
		unsigned width = 0, digits = 0;
		while (isdigit((unsigned char)f[i]) && digits++ < 3)
			width = width * 10 + (unsigned)(f[i++] - '0');
		if (isdigit((unsigned char)f[i]) || width > 200)
			return false;
		if (f[i] == '.') {
			i++;
			unsigned prec = 0;
			digits = 0;
			while (isdigit((unsigned char)f[i]) && digits++ < 2)
				prec = prec * 10 + (unsigned)(f[i++] - '0');
			if (isdigit((unsigned char)f[i]) || prec > 60)
				return false;
		}
		if (!f[i] || !strchr("eEfFgGaA", f[i]))
			return false;
		i++;
	}
	return conversions == 1;
}

static bool read_format(struct ctx *c, yaml_node_t *n, char **out)
{
	*out = NULL;
	if (is_null(n))
		return true;
	*out = my_scalar_dup(c, n, "format", NULL);
	if (!*out)
		return false;
	if (!format_is_safe(*out))
		return my_fail(c, STATUS_CORRUPT, n,
			       "'format': expected one "
			       "printf conversion of a double such as %%.2e");
	return true;
}

static bool render_word(struct ctx *c, yaml_node_t *n, unsigned *render)
{
	if (!my_expect_type(c, n, YAML_SCALAR_NODE, "render"))
		return false;
	if (scalar_is(n, "number"))
		*render |= RENDER_NUMBER;
	else if (scalar_is(n, "percent") || scalar_is(n, "percentage"))
		*render |= RENDER_PERCENT;
	else if (scalar_is(n, "colorbar"))
		*render |= RENDER_COLORBAR;
	else if (scalar_is(n, "hidden"))
		*render |= RENDER_HIDDEN;
	/* other words: presentations of later versions, ignored */
	return true;
}

static bool read_render(struct ctx *c, yaml_node_t *n, unsigned *render)
{
	*render = 0;
	if (is_null(n)) {
		*render = RENDER_NUMBER | RENDER_PERCENT;
		return true;
	}
	if (n->type != YAML_SEQUENCE_NODE)
		return render_word(c, n, render);
	for (yaml_node_item_t *i = n->data.sequence.items.start;
	     i < n->data.sequence.items.top; i++)
		if (!my_step(c, n) || !render_word(c, node_at(c, *i), render))
			return false;
	return true;
}

static bool read_bool(struct ctx *c, yaml_node_t *n, const char *key,
		      bool *out)
{
	if (is_null(n))
		return true;
	if (scalar_is(n, "true") || scalar_is(n, "True") ||
	    scalar_is(n, "TRUE") || scalar_is(n, "yes")) {
		*out = true;
		return true;
	}
	if (scalar_is(n, "false") || scalar_is(n, "False") ||
	    scalar_is(n, "FALSE") || scalar_is(n, "no")) {
		*out = false;
		return true;
	}
	return my_fail(c, STATUS_CORRUPT, n, "'%s': expected true or false",
		       key);
}

/* One kind (inclusive: or exclusive:) of a variant's formula map. */
static bool read_kind(struct ctx *c, yaml_node_t *n, struct variant *v,
		      int kind)
{
	if (is_null(n))
		return true;
	yaml_node_t *custom = NULL, *standard = NULL;
	size_t idx = index_of(c, n);
	bool input = idx < c->n_nodes && c->is_input[idx];
	if (!input && n->type == YAML_MAPPING_NODE) {
		custom = my_map_get(c, n, "custom");
		standard = my_map_get(c, n, "standard");
	}
	if (!custom && !standard)
		custom = n; /* the formula itself, both custom and standard */
	struct formula *fc = NULL, *fs = NULL;
	bool mc = false, ms = false;
	if (!is_null(custom) && !my_build_top(c, custom, &fc, &mc))
		return false;
	if (!is_null(standard) && !my_build_top(c, standard, &fs, &ms)) {
		formula_free(fc);
		return false;
	}
	if (!fc) {
		/* no custom formula, or it needs a missing statistic */
		fc = fs;
		fs = NULL;
	}
	if (!fc) {
		/* every formula given names a statistic the database lacks */
		v->skip = true;
		(void)ms;
		return true;
	}
	if (fs && my_same_formula(fc, fs)) {
		formula_free(fs);
		fs = NULL;
	}
	v->expr[kind] = fc;
	v->standard[kind] = fs;
	return true;
}

static bool read_variant(struct ctx *c, yaml_node_t *key, yaml_node_t *val,
			 struct variant *v)
{
	v->column[KIND_INCL] = v->column[KIND_EXCL] = MODEL_NONE;
	v->name =
	    is_null(key) ? strdup("") : my_scalar_dup(c, key, "variants", NULL);
	if (!v->name)
		return c->status == STATUS_OK ? my_nomem(c) : false;
	if (!my_expect_type(c, val, YAML_MAPPING_NODE, v->name))
		return false;
	if (!read_render(c, my_map_get(c, val, "render"), &v->render) ||
	    !read_format(c, my_map_get(c, val, "format"), &v->format))
		return false;
	v->child_variant = my_map_get(c, val, "child variant");
	if (v->child_variant && !is_null(v->child_variant) &&
	    v->child_variant->type == YAML_MAPPING_NODE)
		return my_fail(c, STATUS_CORRUPT, v->child_variant,
			       "'child "
			       "variant': expected a string or a sequence");
	yaml_node_t *f = my_map_get(c, val, "formula");
	if (c->status != STATUS_OK)
		return false;
	if (is_null(f)) {
		v->rule = RULE_NONE;
		return true;
	}
	if (f->type == YAML_SCALAR_NODE) {
		if (scalar_is(f, "first"))
			v->rule = RULE_FIRST;
		else if (scalar_is(f, "sum"))
			v->rule = RULE_SUM;
		else
			return my_fail(c, STATUS_CORRUPT, f,
				       "'formula': expected "
				       "first, sum or a mapping");
		return true;
	}
	if (!my_expect_type(c, f, YAML_MAPPING_NODE, "formula"))
		return false;
	v->rule = RULE_FORMULAS;
	return read_kind(c, my_map_get(c, f, "inclusive"), v, KIND_INCL) &&
	       read_kind(c, my_map_get(c, f, "exclusive"), v, KIND_EXCL);
}

void my_metric_release(struct metric *m)
{
	for (size_t i = 0; i < m->n_variants; i++) {
		struct variant *v = &m->variants[i];
		free(v->name);
		free(v->format);
		for (int k = 0; k < KIND_COUNT; k++) {
			formula_free(v->expr[k]);
			formula_free(v->standard[k]);
		}
	}
	free(m->variants);
	for (size_t i = 0; i < m->n_children; i++)
		my_metric_release(&m->children[i]);
	free(m->children);
	free(m->name);
	free(m->description);
	free(m->format);
}

static bool read_metric(struct ctx *c, yaml_node_t *n, struct metric *out,
			unsigned depth);

static bool read_metric_list(struct ctx *c, yaml_node_t *list,
			     const char *what, struct metric **out,
			     size_t *n_out, unsigned depth)
{
	*out = NULL;
	*n_out = 0;
	if (is_null(list))
		return true;
	if (!my_expect_type(c, list, YAML_SEQUENCE_NODE, what))
		return false;
	if (depth > TAXONOMY_MAX_DEPTH)
		return my_fail(c, STATUS_LIMIT, list,
			       "taxonomy deeper than %d "
			       "levels",
			       TAXONOMY_MAX_DEPTH);
	size_t n = (size_t)(list->data.sequence.items.top -
			    list->data.sequence.items.start);
	if (n == 0)
		return true;
	if (n > TAXONOMY_MAX_METRICS || c->n_metrics + n >
	    TAXONOMY_MAX_METRICS)
		return my_fail(c, STATUS_LIMIT, list, "more than %d metrics",
			       TAXONOMY_MAX_METRICS);
	c->n_metrics += n;
	*out = calloc(n, sizeof(**out));
	if (!*out)
		return my_nomem(c);
	for (size_t i = 0; i < n; i++) {
		(*n_out)++;
		if (!read_metric(c, node_at(c, list->data.sequence.items
					    .start[i]), &(*out)[i], depth))
			return false;
	}
	return true;
}

static bool read_metric(struct ctx *c, yaml_node_t *n, struct metric *out,
			unsigned depth)
{
	out->visible = true;
	if (!my_step(c, n) ||
	    !my_expect_type(c, n, YAML_MAPPING_NODE, "metric"))
		return false;
	out->name = my_scalar_dup(c, my_map_get(c, n, "name"), "name", n);
	if (!out->name)
		return false;
	yaml_node_t *d = my_map_get(c, n, "description");
	if (is_null(d))
		d = my_map_get(c, n, "short description");
	if (!is_null(d) &&
	    !(out->description = my_scalar_dup(c, d, "description", n)))
		return false;
	if (!read_bool(c, my_map_get(c, n, "visible by default"),
		       "visible by default", &out->visible) ||
	    !read_format(c, my_map_get(c, n, "format"), &out->format))
		return false;
	yaml_node_t *vars = my_map_get(c, n, "variants");
	if (!is_null(vars)) {
		if (!my_expect_type(c, vars, YAML_MAPPING_NODE, "variants"))
			return false;
		/* explicit keys; merged ones (`<<:`) when not given */
		yaml_node_pair_t *ps = vars->data.mapping.pairs.start;
		size_t np = (size_t)(vars->data.mapping.pairs.top - ps);
		if (np > VARIANTS_MAX)
			return my_fail(c, STATUS_LIMIT, vars,
				       "more than %d "
				       "variants",
				       VARIANTS_MAX);
		out->variants = calloc(np ? np : 1, sizeof(*out->variants));
		if (!out->variants)
			return my_nomem(c);
		for (size_t i = 0; i < np; i++) {
			yaml_node_t *k = node_at(c, ps[i].key);
			if (scalar_is(k, "<<"))
				return my_fail(c, STATUS_CORRUPT, k,
					       "merge keys "
					       "are not supported in "
					       "'variants'");
			if (!read_variant(c, k, node_at(c, ps[i].value),
					  &out->variants[out->n_variants++]))
				return false;
		}
	}
	return read_metric_list(c, my_map_get(c, n, "children"), "children",
				&out->children, &out->n_children, depth + 1);
}

bool my_read_document(struct ctx *c, struct metric **roots,
		      size_t *n_roots)
{
	yaml_node_t *root = yaml_document_get_root_node(&c->doc);
	if (!root)
		return my_fail(c, STATUS_CORRUPT, NULL, "empty file");
	if (!my_expect_type(c, root, YAML_MAPPING_NODE, "top level"))
		return false;
	yaml_node_t *version = my_map_get(c, root, "version");
	if (!is_null(version) && !scalar_is(version, "0")) {
		if (is_scalar(version))
			return my_fail(
			    c, STATUS_UNSUPPORTED, version,
			    "unsupported"
			    " METRICS.yaml version %.*s (expected 0)",
			    (int)(version->data.scalar.length > 20
				      ? 20
				      : version->data.scalar.length),
			    (const char *)version->data.scalar.value);
		return my_fail(c, STATUS_CORRUPT, version,
			       "'version': expected "
			       "a number");
	}
	if (!read_inputs(c, my_map_get(c, root, "inputs")))
		return false;
	yaml_node_t *list = my_map_get(c, root, "roots");
	if (c->status != STATUS_OK)
		return false;
	if (is_null(list))
		return my_fail(c, STATUS_CORRUPT, root, "no 'roots' list");
	return read_metric_list(c, list, "roots", roots, n_roots, 0);
}
