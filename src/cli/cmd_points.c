/* cmd_points: `callscope points SET... [--metric NAME] [--format
 * text|json]`: the measurement points of parametric sets (Extra-P), what
 * Extra-P calls "data points": per callpath (names joined by "->") and
 * measured metric, each point's coordinates and the statistics of its
 * repetitions (mean, median, minimum, maximum, std, repetitions).  The
 * JSON is shaped like Extra-P's own dump ("parameters", "measurements":
 * [{"callpath", "metric", "points": [{"coordinate", ...}]}]), NaN and
 * infinities as the strings "nan", "inf", "-inf"; a set with stored
 * performance models (.extra-p, Extra-P 3) adds "stored_model_sets".  Each SET
 * is opened on its own; several give a JSON array.  Must not depend on curses
 * or on ui/. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "present/present_path.h"
#include "model/scaling.h"

static json_t *coord_json(const struct model *m, uint32_t point)
{
	json_t *a = json_array();
	const double *c = model_point_coords(m, point);
	for (uint32_t j = 0; j < model_n_params(m); j++)
		json_array_append_new(a, present_json_number(c[j]));
	return a;
}

/* The run of measurements from index `i` with the same node and measured
 * metric (model_measure_by_index orders by node, metric, point): its end,
 * its key in *node and *measured. */
static size_t run_end(const struct model *m, size_t i, uint32_t *node,
		      uint32_t *measured)
{
	size_t n = model_n_measures(m), e = i + 1;
	model_measure_by_index(m, i, node, measured, NULL);
	for (; e < n; e++) {
		uint32_t nd, k;
		model_measure_by_index(m, e, &nd, &k, NULL);
		if (nd != *node || k != *measured)
			break;
	}
	return e;
}

/* The next run of measurements from *i (run_end) of a call path, of
 * the measured metric `metric` (any when NULL): [*i, *e), its node and
 * the metric's name.  False after the last. */
static bool next_series(const struct model *m, const char *metric, size_t *i,
			size_t *e, uint32_t *node, const char **name)
{
	for (; *i < model_n_measures(m); *i = *e) {
		uint32_t k;
		*e = run_end(m, *i, node, &k);
		*name = present_measured_name(m, k);
		if (*node != 0 && (!metric || strcmp(metric, *name) == 0))
			return true;
	}
	return false;
}

/* A stored model: kind, constant, terms (coefficient; factors: parameter
 * index, exponent as a float and as num/den, 0 den for a float, log
 * exponent) and the fit numbers. */
static json_t *model_json(const struct scaling_model *sm)
{
	json_t *terms = json_array();
	for (uint32_t t = 0; t < sm->n_terms; t++) {
		json_t *fs = json_array();
		const struct scaling_term *st = &sm->terms[t];
		for (uint32_t f = 0; f < st->n_factors; f++) {
			const struct scaling_factor *sf = &st->factors[f];
			json_array_append_new(
				fs, json_pack("{s:I, s:o, s:I, s:I, s:o}",
					      "parameter_index",
					      (json_int_t)sf->param, "exponent",
					      present_json_number(sf->exponent),
					      "exponent_num",
					      (json_int_t)sf->exponent_num,
					      "exponent_den",
					      (json_int_t)sf->exponent_den,
					      "log_exponent",
					      present_json_number(sf->log_exponent)));
		}
		json_array_append_new(terms,
				      json_pack("{s:o, s:o}", "coefficient",
						present_json_number(st->coefficient),
						"factors", fs));
	}
	static const char *const kinds[] = {"constant", "single", "multi"};
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "kind", sm->kind < 3 ? kinds[sm->kind] : "unknown",
			 "constant", present_json_number(sm->constant), "terms", terms,
			 "RSS", present_json_number(sm->rss), "rRSS", present_json_number(sm->rrss),
			 "nRSS", present_json_number(sm->nrss), "SMAPE",
			 present_json_number(sm->smape), "AR2", present_json_number(sm->ar2), "RE",
			 present_json_number(sm->re));
}

/* The stored model sets (.extra-p, Extra-P 3), in the file's order, a
 * walk of the stored models in order (set, node, metric). */
static json_t *sets_json(const struct model *m, const char *metric)
{
	json_t *sets = json_array();
	size_t i = 0, n = model_n_stored_models(m);
	for (uint32_t set = 0; set < model_n_stored_sets(m); set++) {
		json_t *models = json_array();
		for (; i < n; i++) {
			uint32_t s, node, k;
			const struct scaling_model *sm =
				model_stored_model_by_index(m, i, &s, &node,
							    &k);
			if (s != set)
				break;
			const char *name = present_measured_name(m, k);
			if (node == 0 || (metric && strcmp(metric, name)))
				continue;
			char *cp = present_node_path(m, node, "->", PRESENT_PATH_NAMES);
			json_t *j = model_json(sm);
			json_object_set_new(j, "callpath",
					    present_json_text(cp ? cp : ""));
			json_object_set_new(j, "metric", present_json_text(name));
			json_array_append_new(models, j);
			free(cp);
		}
		json_array_append_new(
			sets, json_pack("{s:o, s:o}", "name",
					present_json_text(model_stored_set_name(m, set)),
					"models", models));
	}
	return sets;
}

static json_t *set_json(const struct model *m, const char *metric)
{
	json_t *params = json_array(), *coords = json_array(),
	       *series = json_array();
	for (uint32_t j = 0; j < model_n_params(m); j++)
		json_array_append_new(
			params, present_json_text(model_str(m, model_params(m)[j].name)));
	for (uint32_t p = 0; p < model_n_points(m); p++)
		json_array_append_new(coords, coord_json(m, p));
	/* one series per run of (node, metric) in the stored order */
	uint32_t node;
	const char *name;
	for (size_t i = 0, e; next_series(m, metric, &i, &e, &node, &name);
	     i = e) {
		json_t *pts = json_array();
		for (size_t j = i; j < e; j++) {
			uint32_t p;
			const struct model_measure *ms =
				model_measure_by_index(m, j, NULL, NULL, &p);
			json_array_append_new(
				pts,
				json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
					  "coordinate", coord_json(m, p),
					  "mean", present_json_number(ms->mean),
					  "median", present_json_number(ms->median),
					  "minimum", present_json_number(ms->minimum),
					  "maximum", present_json_number(ms->maximum),
					  "std", present_json_number(ms->std),
					  "repetitions",
					  ms->repetitions
						  ? json_integer(ms->repetitions)
						  : json_null()));
		}
		char *cp = present_node_path(m, node, "->", PRESENT_PATH_NAMES);
		json_array_append_new(
			series, json_pack("{s:o, s:o, s:o}", "callpath",
					  present_json_text(cp ? cp : ""), "metric",
					  present_json_text(name), "points", pts));
		free(cp);
	}
	json_t *doc = json_pack("{s:o, s:o, s:o, s:o, s:o}", "format",
				present_json_text(model_format(m)), "path",
				present_json_text(model_path(m)), "parameters", params,
				"coordinates", coords, "measurements", series);
	if (model_n_stored_sets(m))
		json_object_set_new(doc, "stored_model_sets",
				    sets_json(m, metric));
	return doc;
}

static void put_coord(const struct model *m, uint32_t point)
{
	const double *c = model_point_coords(m, point);
	for (uint32_t j = 0; j < model_n_params(m); j++) {
		fputs(j ? " " : "  ", stdout);
		present_put_text(stdout, model_str(m, model_params(m)[j].name));
		printf("=%.10g", c[j]);
	}
}

static void set_text(const struct model *m, const char *metric)
{
	fputs("Set:        ", stdout);
	present_put_text(stdout, model_path(m));
	fputs("\nFormat:     ", stdout);
	present_put_text(stdout, model_format(m));
	printf("\nParameters: %u, points: %u\n", model_n_params(m), model_n_points(m));
	uint32_t node;
	const char *name;
	for (size_t i = 0, e; next_series(m, metric, &i, &e, &node, &name);
	     i = e) {
		char *cp = present_node_path(m, node, "->", PRESENT_PATH_NAMES);
		fputs("\n", stdout);
		present_put_text(stdout, cp ? cp : "");
		fputs("  [", stdout);
		present_put_text(stdout, name);
		fputs("]\n", stdout);
		free(cp);
		printf("  %14s %14s %14s %14s %14s %5s  point\n", "mean",
		       "median", "minimum", "maximum", "std", "reps");
		for (size_t j = i; j < e; j++) {
			uint32_t p;
			const struct model_measure *ms =
				model_measure_by_index(m, j, NULL, NULL, &p);
			/* a file that stores no count (.extra-p before
			 * 4.2, Extra-P 3) says nothing: "-", as the JSON's
			 * null, not a count of 0 */
			printf("  %14.8g %14.8g %14.8g %14.8g %14.8g",
			       ms->mean, ms->median, ms->minimum, ms->maximum,
			       ms->std);
			if (ms->repetitions)
				printf(" %5u", (unsigned)ms->repetitions);
			else
				printf(" %5s", "-");
			put_coord(m, p);
			fputc('\n', stdout);
		}
	}
}

int cmd_points(struct session *s, int argc, char **argv);
int cmd_points(struct session *s, int argc, char **argv)
{
	static const struct option own[] = {
		{"metric", required_argument, NULL, 'm'},
		{NULL, 0, NULL, 0},
	};
	struct cli_args a = {.cmd = "points", .options = own,
			     .shortopts = "m:", .formats = CLI_TEXT_JSON,
			     .expected = "a measurement set",
			     .min_operands = 1};
	const char *metric = NULL;
	int c;
	while ((c = cli_args_next(&a, argc, argv)) > 0)
		metric = optarg; /* -m */
	if (c == CLI_ARGS_EXIT)
		return a.exit_code;
	struct cli_json_out out;
	cli_json_begin(&out, a.format == PRESENT_FORMAT_JSON ? a.n_operands
							     : 0);
	int rc = CLI_EXIT_OK;
	for (int i = 0; i < a.n_operands && rc == CLI_EXIT_OK; i++) {
		struct model *m = cli_open(s, a.operands[i]);
		if (!m) {
			rc = CLI_EXIT_DATA;
			break;
		}
		if (model_n_params(m) == 0 || model_n_measured(m) == 0) {
			cli_put_db_problem("points", m,
					   "not a parametric measurement set");
			rc = CLI_EXIT_DATA;
		} else if (a.format == PRESENT_FORMAT_JSON) {
			cli_json_add(&out, set_json(m, metric));
		} else {
			if (i)
				fputc('\n', stdout);
			set_text(m, metric);
		}
		model_free(m);
	}
	cli_json_end(&out, rc == CLI_EXIT_OK);
	return rc;
}
