/* metrics_yaml_fixture: what the METRICS.yaml tests share
 * (test-metrics-yaml.c, test-metrics-yaml-corpus.c): a builder with
 * statistics, loading a file's text, failures with their message, and
 * formulas evaluated on chosen statistic values (cmocka). */
#ifndef CALLSCOPE_TESTS_METRICS_YAML_FIXTURE_H
#define CALLSCOPE_TESTS_METRICS_YAML_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/hpctoolkit_v4/metrics.h"
#include "formats/hpctoolkit_v4/metrics_yaml.h"
#include "model/model.h"

static inline struct model_builder *new_builder(void)
{
	struct model_builder *b = model_builder_new("test", "test.db");
	assert_non_null(b);
	return b;
}

static inline uint32_t add_stat(struct model_builder *b, const char *metric,
			 const char *scope, const char *formula,
			 enum stat_combine combine)
{
	struct model_stat s = {
		.metric = model_builder_intern(b, metric, strlen(metric)),
		.scope = model_builder_intern(b, scope, strlen(scope)),
		.formula = model_builder_intern(b, formula, strlen(formula)),
		.combine = (uint8_t)combine,
		.prop_id = MODEL_NONE,
	};
	s.stat_id = model_n_stats(model_builder_peek(b));
	uint32_t i = model_builder_add_stat(b, &s);
	assert_int_not_equal(i, MODEL_NONE);
	return i;
}

/* Load `yaml` from memory; returns the status and sets *n. */
static inline enum status load(struct model_builder *b, const char *yaml,
			uint32_t *n, struct error *err)
{
	return metrics_yaml_add_columns_mem(b, "t.yaml", yaml, strlen(yaml),
					    n, err);
}

/* Loading `yaml` must fail with `st` and a message containing `what`, and
 * add nothing. */
static inline void assert_fails(const char *yaml, enum status st, const char *what)
{
	struct model_builder *b = new_builder();
	add_stat(b, "T", "execution", "$$", COMBINE_SUM);
	struct error err = {0};
	uint32_t n = 7;
	enum status got = load(b, yaml, &n, &err);
	if (got != st || !err.message || !strstr(err.message, what))
		fail_msg("status %d (expected %d), message \"%s\" (expected "
			 "\"%s\")", got, st, err.message ? err.message : "",
			 what);
	assert_int_equal(n, 0);
	assert_int_equal(model_n_columns(model_builder_peek(b)), 0);
	error_clear(&err);
	model_builder_free(b);
}

/* Value of statistic i is stat_values[i]. */
static const double stat_values[] = {100, 40, 60, 4, 9, 25, 2, 3, 5, 7};

static inline bool stat_leaf(void *ctx, uint32_t leaf, double *out)
{
	(void)ctx;
	if (leaf >= sizeof(stat_values) / sizeof(stat_values[0]))
		return false;
	*out = stat_values[leaf];
	return true;
}

static inline double eval(const struct formula *f)
{
	double v = (double)NAN;
	assert_non_null(f);
	assert_true(formula_eval(f, stat_leaf, NULL, &v));
	return v;
}

static inline void assert_leaf(const struct formula *f, uint32_t stat)
{
	uint32_t leaf = MODEL_NONE;
	assert_non_null(f);
	assert_true(formula_is_leaf(f, &leaf));
	assert_int_equal(leaf, stat);
}

#endif
