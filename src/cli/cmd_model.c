/* cmd_model: `callscope model SET... [--metric NAME] [--measure
 * mean|median|minimum|maximum] [--stored N|NAME] [--format text|json]`:
 * the performance model of every call path and measured metric of
 * parametric sets (Extra-P), as Extra-P 4.2.5's default modeler makes it
 * (scaling_view over scaling_fit), or a model set stored in the file
 * (--stored), with the fit numbers (RSS, adjusted R^2, SMAPE, RE).  The
 * text form is one block per model; the JSON is
 *   {"parameters": [names], "models": [{"callpath", "metric", "model",
 *    "constant", "terms": [{"coefficient", "factors": [{"parameter",
 *    "exponent", "log_exponent"}]}], "RSS", "AR2", "SMAPE", "RE"}]}
 * (NaN and infinities as the strings "nan", "inf", "-inf"); several SETs
 * give a JSON array.  Two threads fit: the view's background thread and
 * this one, each taking the next model not yet fitted.  Must not depend
 * on curses or on ui/. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "present/present_path.h"
#include "model/scaling.h"
#include "views/scaling_view.h"

struct model_run {
	const struct model *m;
	const char *metric;
	const char **names;
	enum present_format format;
	json_t *models; /* JSON: the array being filled */
	bool first;
	bool fitted; /* not a stored model set */
	enum measure_kind measure;
};

/* How many of the points measured for (node, measured) have NaN as the
 * value the model is fitted to (`DATA nan`); *n_measured their total. */
static uint32_t nan_measured(const struct model *m, uint32_t node,
			     uint32_t measured, enum measure_kind measure,
			     uint32_t *n_measured)
{
	uint32_t n = 0;

	*n_measured = 0;
	for (uint32_t p = 0; p < model_n_points(m); p++) {
		const struct model_measure *ms =
			model_measure_at(m, node, measured, p);

		if (!ms)
			continue;
		++*n_measured;
		if (isnan(model_measure_get(ms, measure)))
			n++;
	}
	return n;
}

static json_t *model_json(const struct model_run *r, const char *cp,
			  const char *metric, const struct scaling_model *sm,
			  const char *text)
{
	json_t *terms = json_array();

	for (uint32_t t = 0; t < sm->n_terms; t++) {
		const struct scaling_term *tm = &sm->terms[t];
		json_t *factors = json_array();

		for (uint32_t k = 0; k < tm->n_factors; k++) {
			const struct scaling_factor *f = &tm->factors[k];
			const char *pn = f->param < model_n_params(r->m)
						 ? r->names[f->param]
						 : "";

			json_array_append_new(
				factors,
				json_pack("{s:o, s:o, s:o}", "parameter",
					  present_json_text(pn), "exponent",
					  present_json_number(f->exponent), "log_exponent",
					  present_json_number(f->log_exponent)));
		}
		json_array_append_new(
			terms, json_pack("{s:o, s:o}", "coefficient",
					 present_json_number(tm->coefficient), "factors",
					 factors));
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "callpath", present_json_text(cp), "metric",
			 present_json_text(metric), "model", present_json_text(text),
			 "constant", present_json_number(sm->constant), "terms", terms,
			 "RSS", present_json_number(sm->rss), "AR2", present_json_number(sm->ar2),
			 "SMAPE", present_json_number(sm->smape), "RE", present_json_number(sm->re));
}

static void model_text(const char *cp, const char *metric,
		       const struct scaling_model *sm, const char *text)
{
	fputs("\n", stdout);
	present_put_text(stdout, cp);
	fputs("  [", stdout);
	present_put_text(stdout, metric);
	fputs("]\n  Model: ", stdout);
	present_put_text(stdout, text);
	printf("\n  RSS: %.2E  Adjusted R^2: %.2E  SMAPE: %.2E  RE: %.2E\n",
	       sm->rss, sm->ar2, sm->smape, sm->re);
}

/* Print (or collect) the model of every node and measured metric. */
static int run_models(struct model_run *r, struct scaling_view *v)
{
	const struct model *m = r->m;
	uint32_t n_measured = model_n_measured(m);

	for (uint32_t node = 1; node < model_n_nodes(m); node++) {
		for (uint32_t k = 0; k < n_measured; k++) {
			const char *name = present_measured_name(m, k);
			struct error err = {0};
			const struct scaling_model *sm;
			char *cp, *text;

			if (r->metric && strcmp(r->metric, name) != 0)
				continue;
			sm = scaling_view_model(v, node, k, &err);
			if (!sm) {
				if (err.status == STATUS_OK)
					continue;
				cli_put_cmd_error("model", &err, "fit failed");
				return CLI_EXIT_DATA;
			}
			cp = present_node_path(m, node, "->", PRESENT_PATH_NAMES);
			text = scaling_text(sm, r->names, model_n_params(m));
			if (!cp || !text) {
				free(cp);
				free(text);
				fprintf(stderr, "callscope model: out of memory\n");
				return CLI_EXIT_DATA;
			}
			/* the fitter leaves a NaN value out, as a point
			 * without a measurement (Extra-P would make the whole
			 * model NaN): say so, on stderr */
			uint32_t n_meas, n_nan =
				r->fitted ? nan_measured(m, node, k, r->measure,
							 &n_meas)
					  : 0;

			if (n_nan) {
				fputs("callscope model: warning: ", stderr);
				present_put_text(stderr, model_path(m));
				fputs(": ", stderr);
				present_put_text(stderr, cp);
				fputs(" [", stderr);
				present_put_text(stderr, name);
				if (n_nan == n_meas)
					fprintf(stderr,
						"]: all %u measured values are "
						"NaN, the model is NaN\n",
						n_meas);
				else
					fprintf(stderr,
						"]: %u of %u measured values "
						"are NaN, left out of the "
						"model\n",
						n_nan, n_meas);
			}
			if (r->format == PRESENT_FORMAT_JSON)
				json_array_append_new(
					r->models,
					model_json(r, cp, name, sm, text));
			else
				model_text(cp, name, sm, text);
			free(cp);
			free(text);
		}
	}
	return CLI_EXIT_OK;
}

static bool parse_measure(const char *s, enum measure_kind *out)
{
	if (model_measure_parse(s, out))
		return true;
	fprintf(stderr, "callscope model: --measure must be mean, median, "
			"minimum or maximum\n");
	return false;
}

/* --stored N|NAME: the set's index, or MODEL_NONE with a message. */
static uint32_t find_stored(const struct model *m, const char *arg)
{
	uint32_t n = model_n_stored_sets(m);
	uint32_t set = model_stored_set_find(m, arg);

	if (set != MODEL_NONE)
		return set;
	fputs("callscope model: ", stderr);
	present_put_text(stderr, model_path(m));
	fprintf(stderr, ": no stored model set '%s' (%u stored", arg, n);
	for (uint32_t s = 0; s < n; s++) {
		fprintf(stderr, "%s%u ", s ? ", " : ": ", s);
		present_put_text(stderr, model_stored_set_name(m, s));
	}
	fputs(")\n", stderr);
	return MODEL_NONE;
}

/* Whether set `m` has what the command prints: parameters, the measured
 * metric asked for (any when NULL) and the stored model set asked for
 * (its index into *stored_set).  False with the exit status in *rc and a
 * line on stderr. */
static bool check_set(const struct model *m, const char *metric,
		      const char *stored, uint32_t *stored_set, int *rc)
{
	bool found = metric == NULL;
	*rc = CLI_EXIT_DATA;
	if (model_n_params(m) == 0 || model_n_measured(m) == 0) {
		cli_put_db_problem("model", m,
				   "not a parametric measurement set");
		return false;
	}
	*rc = CLI_EXIT_USAGE;
	for (uint32_t k = 0; metric && k < model_n_measured(m); k++)
		found |= !strcmp(present_measured_name(m, k), metric);
	if (!found) {
		fputs("callscope model: ", stderr);
		present_put_text(stderr, model_path(m));
		fputs(": no measured metric '", stderr);
		present_put_text(stderr, metric);
		fputs("'\n", stderr);
		return false;
	}
	*stored_set = stored ? find_stored(m, stored) : MODEL_NONE;
	return !stored || *stored_set != MODEL_NONE;
}

/* The text's head: the set, its parameters and where the models come
 * from. */
static void put_set_head(const struct model_run *r, uint32_t stored_set,
			 bool first)
{
	const struct model *m = r->m;
	if (!first)
		fputc('\n', stdout);
	fputs("Set:        ", stdout);
	present_put_text(stdout, model_path(m));
	fputs("\nParameters: ", stdout);
	for (uint32_t j = 0; j < model_n_params(m); j++) {
		fputs(j ? ", " : "", stdout);
		present_put_text(stdout, r->names[j]);
	}
	fputs("\nModels:     ", stdout);
	if (stored_set != MODEL_NONE)
		present_put_text(stdout, model_stored_set_name(m, stored_set));
	else
		printf("fitted (Extra-P 4.2.5 default modeler, %s)",
		       model_measure_name(r->measure));
	fputc('\n', stdout);
}

/* The JSON of a set: its parameters and the models collected. */
static json_t *set_json(struct model_run *r)
{
	json_t *params = json_array();
	for (uint32_t j = 0; j < model_n_params(r->m); j++)
		json_array_append_new(params, present_json_text(r->names[j]));
	json_t *doc = json_pack("{s:o, s:o}", "parameters", params, "models",
				r->models);
	r->models = NULL;
	return doc;
}

/* The models of set `m` (taken; NULL: it did not open). */
static int model_of(struct model *m, const char *metric,
		    enum measure_kind measure, const char *stored,
		    enum present_format format, struct cli_json_out *out,
		    bool first)
{
	struct scaling_view_options opt = {.measure = measure,
					   .stored_set = MODEL_NONE,
					   .background = true};
	struct model_run r = {.m = m,
			      .metric = metric,
			      .format = format,
			      .fitted = stored == NULL,
			      .measure = measure};
	struct scaling_view *v = NULL;
	struct error err = {0};
	int rc = CLI_EXIT_DATA;

	if (!m)
		return CLI_EXIT_DATA;
	if (!check_set(m, metric, stored, &opt.stored_set, &rc))
		goto out;
	rc = CLI_EXIT_DATA;
	r.names = calloc(model_n_params(m), sizeof *r.names);
	if (!r.names)
		goto out;
	for (uint32_t j = 0; j < model_n_params(m); j++)
		r.names[j] = model_str(m, model_params(m)[j].name);
	v = scaling_view_new(m, &opt, &err);
	if (!v) {
		cli_put_cmd_error("model", &err, "failed");
		goto out;
	}
	if (format == PRESENT_FORMAT_JSON)
		r.models = json_array();
	else
		put_set_head(&r, opt.stored_set, first);
	rc = run_models(&r, v);
	if (format == PRESENT_FORMAT_JSON) {
		json_t *doc = set_json(&r);
		if (rc == CLI_EXIT_OK)
			cli_json_add(out, doc);
		else
			json_decref(doc);
	}
out:
	scaling_view_free(v);
	free(r.names);
	model_free(m);
	return rc;
}

static int model_one(struct session *s, const char *path, const char *metric,
		     enum measure_kind measure, const char *stored,
		     enum present_format format, struct cli_json_out *out,
		     bool first)
{
	return model_of(cli_open(s, path), metric, measure, stored, format,
			out, first);
}

/* `callscope compare --model` (cmd_compare.c): the fitted models of `m`
 * (taken), a parametric set made of runs. */
int cmd_model_of(struct model *m, const char *metric,
		 enum measure_kind measure, enum present_format format);
int cmd_model_of(struct model *m, const char *metric,
		 enum measure_kind measure, enum present_format format)
{
	struct cli_json_out out;
	cli_json_begin(&out, format == PRESENT_FORMAT_JSON ? 1 : 0);
	int rc = model_of(m, metric, measure, NULL, format, &out, true);
	cli_json_end(&out, rc == CLI_EXIT_OK);
	return rc;
}

int cmd_model(struct session *s, int argc, char **argv);
int cmd_model(struct session *s, int argc, char **argv)
{
	static const struct option own[] = {
		{"metric", required_argument, NULL, 'm'},
		{"measure", required_argument, NULL, 'M'},
		{"stored", required_argument, NULL, 's'},
		{NULL, 0, NULL, 0},
	};
	struct cli_args a = {.cmd = "model", .options = own,
			     .shortopts = "m:M:s:", .formats = CLI_TEXT_JSON,
			     .expected = "a measurement set",
			     .min_operands = 1};
	const char *metric = NULL, *stored = NULL;
	enum measure_kind measure = MEASURE_MEAN;
	int c, rc = CLI_EXIT_OK;
	struct cli_json_out out;

	while ((c = cli_args_next(&a, argc, argv)) > 0) {
		if (c == 'm')
			metric = optarg;
		else if (c == 's')
			stored = optarg;
		else if (!parse_measure(optarg, &measure)) /* -M */
			return CLI_EXIT_USAGE;
	}
	if (c == CLI_ARGS_EXIT)
		return a.exit_code;
	cli_json_begin(&out, a.format == PRESENT_FORMAT_JSON ? a.n_operands
							     : 0);
	for (int i = 0; i < a.n_operands && rc == CLI_EXIT_OK; i++)
		rc = model_one(s, a.operands[i], metric, measure, stored,
			       a.format, &out, i == 0);
	cli_json_end(&out, rc == CLI_EXIT_OK);
	return rc;
}
