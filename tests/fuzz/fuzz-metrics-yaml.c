/* fuzz-metrics-yaml: libFuzzer target for the METRICS.yaml reader.  Any
 * bytes go to metrics_yaml_add_columns_mem over a builder holding the
 * statistics gen-v4db writes (metrics "CPUTIME (sec)" and "cycles" with the
 * point, function and execution scopes) and those of the HPCToolkit test
 * databases ("T"); columns that load are finished into a model and each one
 * is evaluated at the root.  Links the engine only. */
#include "config.h"

#include <string.h>

#include "formats/hpctoolkit_v4/metrics_yaml.h"
#include "model/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct stat_def {
	const char *scope, *formula;
	enum stat_combine combine;
};

static const char *const metric_names[] = {"CPUTIME (sec)", "cycles", "T"};

static const struct stat_def stat_defs[] = {
	{.scope = "point", .formula = "$$", .combine = COMBINE_SUM},
	{.scope = "function", .formula = "$$", .combine = COMBINE_SUM},
	{.scope = "execution", .formula = "$$", .combine = COMBINE_SUM},
	{.scope = "execution", .formula = "$$", .combine = COMBINE_MAX},
	{.scope = "execution", .formula = "1", .combine = COMBINE_SUM},
	{.scope = "execution", .formula = "($$^2)", .combine = COMBINE_SUM},
	{.scope = "lex_aware", .formula = "$$", .combine = COMBINE_SUM},
	{.scope = "lex_aware", .formula = "($$)", .combine = COMBINE_MIN},
};

static bool intern(struct model_builder *b, const char *s, uint32_t *out)
{
	*out = model_builder_intern(b, s, strlen(s));
	return *out != MODEL_NONE;
}

static bool add_stats(struct model_builder *b)
{
	size_t n_m = sizeof(metric_names) / sizeof(metric_names[0]);
	size_t n_s = sizeof(stat_defs) / sizeof(stat_defs[0]);
	for (size_t i = 0; i < n_m; i++)
		for (size_t k = 0; k < n_s; k++) {
			struct model_stat s = {
				.combine = (uint8_t)stat_defs[k].combine,
				.stat_id = (uint32_t)(i * n_s + k),
				.prop_id = MODEL_NONE,
			};
			if (!intern(b, metric_names[i], &s.metric) ||
			    !intern(b, stat_defs[k].scope, &s.scope) ||
			    !intern(b, stat_defs[k].formula, &s.formula) ||
			    model_builder_add_stat(b, &s) == MODEL_NONE)
				return false;
		}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = {0};
	struct model *m = NULL;
	uint32_t n_columns = 0;
	struct model_builder *b = model_builder_new("hpctoolkit-v4", "fuzz");
	if (!b || !add_stats(b))
		goto out;
	if (metrics_yaml_add_columns_mem(b, "METRICS.yaml", data, size,
					 &n_columns, &err) != STATUS_OK)
		goto out;
	if (n_columns != model_n_columns(model_builder_peek(b)))
		__builtin_trap();
	m = model_builder_finish(b, &err);
	b = NULL;
	for (uint32_t c = 0; m && c < model_n_columns(m); c++) {
		double v;
		(void)model_value(m, 0, c, &v);
		(void)model_value_standard(m, 0, c, &v);
		(void)model_column_total(m, c, &v);
	}
out:
	model_free(m);
	model_builder_free(b);
	error_clear(&err);
	return 0;
}
