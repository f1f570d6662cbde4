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

#include <getopt.h>
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
	for (uint32_t p = 0; p < m->n_points; p++) {
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
			const char *pn = f->param < r->m->n_params
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

	for (uint32_t node = 1; node < m->n_nodes; node++) {
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
				char *msg = error_format(&err);

				fprintf(stderr, "callscope model: %s\n",
					msg ? msg : "fit failed");
				free(msg);
				error_clear(&err);
				return CLI_EXIT_DATA;
			}
			cp = present_node_path(m, node, "->", PRESENT_PATH_NAMES);
			text = scaling_text(sm, r->names, m->n_params);
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
				present_put_text(stderr, m->path);
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
	present_put_text(stderr, m->path);
	fprintf(stderr, ": no stored model set '%s' (%u stored", arg, n);
	for (uint32_t s = 0; s < n; s++) {
		fprintf(stderr, "%s%u ", s ? ", " : ": ", s);
		present_put_text(stderr, model_stored_set_name(m, s));
	}
	fputs(")\n", stderr);
	return MODEL_NONE;
}

static int model_of(struct model *m, const char *metric,
		    enum measure_kind measure, const char *stored,
		    enum present_format format, json_t *all, bool first)
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
	int rc = CLI_EXIT_OK;
	bool found = metric == NULL;

	if (!m)
		return CLI_EXIT_DATA;
	if (m->n_params == 0 || model_n_measured(m) == 0) {
		fputs("callscope model: ", stderr);
		present_put_text(stderr, m->path);
		fputs(": not a parametric measurement set\n", stderr);
		model_free(m);
		return CLI_EXIT_DATA;
	}
	for (uint32_t k = 0; metric && k < model_n_measured(m); k++)
		found |= !strcmp(present_measured_name(m, k), metric);
	if (!found) {
		fputs("callscope model: ", stderr);
		present_put_text(stderr, m->path);
		fputs(": no measured metric '", stderr);
		present_put_text(stderr, metric);
		fputs("'\n", stderr);
		model_free(m);
		return CLI_EXIT_USAGE;
	}
	if (stored) {
		opt.stored_set = find_stored(m, stored);
		if (opt.stored_set == MODEL_NONE) {
			model_free(m);
			return CLI_EXIT_USAGE;
		}
	}
	r.names = calloc(m->n_params, sizeof *r.names);
	if (!r.names) {
		model_free(m);
		return CLI_EXIT_DATA;
	}
	for (uint32_t j = 0; j < m->n_params; j++)
		r.names[j] = model_str(m, m->params[j].name);
	v = scaling_view_new(m, &opt, &err);
	if (!v) {
		char *msg = error_format(&err);

		fprintf(stderr, "callscope model: %s\n", msg ? msg : "failed");
		free(msg);
		error_clear(&err);
		free(r.names);
		model_free(m);
		return CLI_EXIT_DATA;
	}
	if (format == PRESENT_FORMAT_JSON) {
		r.models = json_array();
	} else {
		if (!first)
			fputc('\n', stdout);
		fputs("Set:        ", stdout);
		present_put_text(stdout, m->path);
		fputs("\nParameters: ", stdout);
		for (uint32_t j = 0; j < m->n_params; j++) {
			fputs(j ? ", " : "", stdout);
			present_put_text(stdout, r.names[j]);
		}
		fputs("\nModels:     ", stdout);
		if (stored)
			present_put_text(stdout,
				     model_stored_set_name(m, opt.stored_set));
		else
			printf("fitted (Extra-P 4.2.5 default modeler, %s)",
			       model_measure_name(measure));
		fputc('\n', stdout);
	}
	rc = run_models(&r, v);
	if (format == PRESENT_FORMAT_JSON) {
		json_t *params = json_array();

		for (uint32_t j = 0; j < m->n_params; j++)
			json_array_append_new(params,
					      present_json_text(r.names[j]));
		json_t *doc = json_pack("{s:o, s:o}", "parameters", params,
					"models", r.models);

		if (rc == CLI_EXIT_OK && all) {
			json_array_append(all, doc);
		} else if (rc == CLI_EXIT_OK) {
			present_put_json(stdout, doc,
				     JSON_INDENT(1) | JSON_REAL_PRECISION(17));
			fputc('\n', stdout);
		}
		json_decref(doc);
	}
	scaling_view_free(v);
	free(r.names);
	model_free(m);
	return rc;
}

static int model_one(struct session *s, const char *path, const char *metric,
		     enum measure_kind measure, const char *stored,
		     enum present_format format, json_t *all, bool first)
{
	return model_of(cli_open(s, path), metric, measure, stored, format,
			all, first);
}

/* `callscope compare --model` (cmd_compare.c): the fitted models of `m`
 * (taken), a parametric set made of runs. */
int cmd_model_of(struct model *m, const char *metric,
		 enum measure_kind measure, enum present_format format);
int cmd_model_of(struct model *m, const char *metric,
		 enum measure_kind measure, enum present_format format)
{
	return model_of(m, metric, measure, NULL, format, NULL, true);
}

int cmd_model(struct session *s, int argc, char **argv);
int cmd_model(struct session *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"metric", required_argument, NULL, 'm'},
		{"measure", required_argument, NULL, 'M'},
		{"stored", required_argument, NULL, 's'},
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *metric = NULL, *stored = NULL;
	enum measure_kind measure = MEASURE_MEAN;
	enum present_format format = PRESENT_FORMAT_TEXT;
	int c, n, rc = CLI_EXIT_OK;
	json_t *all = NULL;

	optind = 1;
	while ((c = getopt_long(argc, argv, "m:M:s:f:h", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'm':
			metric = optarg;
			break;
		case 'M':
			if (!parse_measure(optarg, &measure))
				return CLI_EXIT_USAGE;
			break;
		case 's':
			stored = optarg;
			break;
		case 'f':
			if (!cli_parse_format("model", optarg,
					      1u << PRESENT_FORMAT_TEXT |
						      1u << PRESENT_FORMAT_JSON,
					      &format))
				return CLI_EXIT_USAGE;
			break;
		case 'h':
			cli_usage(stdout);
			return CLI_EXIT_OK;
		default:
			fprintf(stderr, "Try 'callscope --help'.\n");
			return CLI_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "callscope model: expected a measurement set\n");
		return CLI_EXIT_USAGE;
	}
	n = argc - optind;
	if (format == PRESENT_FORMAT_JSON && n > 1)
		all = json_array();
	for (int i = 0; i < n && rc == CLI_EXIT_OK; i++)
		rc = model_one(s, argv[optind + i], metric, measure, stored,
			       format, all, i == 0);
	if (all) {
		if (rc == CLI_EXIT_OK) {
			present_put_json(stdout, all,
				     JSON_INDENT(1) | JSON_REAL_PRECISION(17));
			fputc('\n', stdout);
		}
		json_decref(all);
	}
	return rc;
}
