/* cmd_info: `callscope info DB [--format text|json]`: what a database holds:
 * format, title, counts of contexts, functions, profiles, metric columns
 * (with the statistic each reads), trace lines and time range.  Must not
 * depend on curses or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/sanitize.h"



static uint64_t total_samples(const struct model *m)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < model_n_timelines(m); i++)
		n += model_timelines(m)[i].count;
	return n;
}

/* A time of the range: null when the trace has no samples (there is no
 * range), and null for a time JSON integers cannot hold (above INT64_MAX,
 * past the year 2262 in nanoseconds since 1970), so that every number
 * printed is one `trace --at/--from/--to` accepts. */
static json_t *time_json(uint64_t samples, uint64_t t)
{
	if (samples == 0 || t > (uint64_t)INT64_MAX)
		return json_null();
	return json_integer((json_int_t)t);
}

static json_t *info_json(const struct model *m)
{
	json_t *cols = json_array();
	for (uint32_t c = 0; c < model_n_columns(m); c++) {
		const struct model_column *col = &model_columns(m)[c];
		char *title = present_column_title(m, c);
		/* null for a formula column */
		json_t *source = present_stat_json(m, model_column_stat(m, c));
		json_array_append_new(
			cols, json_pack("{s:I, s:o, s:o, s:s, s:o, s:b, s:o}",
					"index", (json_int_t)c, "name",
					present_json_text(title), "metric",
					present_json_text(col->name), "kind",
					col->kind == COLUMN_INCLUSIVE
						? "inclusive"
						: "exclusive",
					"variant", present_json_text(col->variant),
					"visible", col->visible, "source",
					source));
		free(title);
	}
	json_t *lines = json_array();
	for (uint32_t i = 0; i < model_n_timelines(m); i++) {
		const struct model_timeline *tl = &model_timelines(m)[i];
		json_t *l = json_pack(
			"{s:I, s:o, s:I}", "line", (json_int_t)i, "label",
			present_json_text(model_str(m, tl->label)), "samples",
			(json_int_t)tl->count);
		/* an interval track's instants; the grouping of a GPU line
		 * (by queue or by stream: trace --gpu-lines) */
		if (tl->n_instants)
			json_object_set_new(l, "instants",
					    json_integer((json_int_t)
								 tl->n_instants));
		if (tl->group != TIMELINE_GROUP_NONE)
			json_object_set_new(
				l, "group",
				json_string(tl->group == TIMELINE_GROUP_STREAM
						    ? "stream"
						    : "queue"));
		json_array_append_new(lines, l);
	}
	json_t *profiles = json_array();
	for (uint32_t i = 0; i < model_n_profiles(m); i++)
		json_array_append_new(
			profiles,
			json_pack("{s:I, s:o, s:b}", "index", (json_int_t)i,
				  "label",
				  present_json_text(model_str(m, model_profiles(m)[i].label)),
				  "summary", model_profiles(m)[i].is_summary));
	json_t *trace = json_null();
	uint64_t samples = total_samples(m);
	if (model_n_timelines(m))
		trace = json_pack("{s:I, s:I, s:o, s:o, s:o}", "lines",
				  (json_int_t)model_n_timelines(m), "samples",
				  (json_int_t)samples, "min",
				  time_json(samples, model_time_min(m)), "max",
				  time_json(samples, model_time_max(m)), "line_list",
				  lines);
	else
		json_decref(lines);
	json_t *warnings = json_array();
	for (uint32_t i = 0; i < model_n_warnings(m); i++)
		json_array_append_new(warnings, present_json_text(model_warnings(m)[i]));
	return json_pack(
		"{s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, "
		"s:o}",
		"format", present_json_text(model_format(m)), "path", present_json_text(model_path(m)),
		"title", present_json_text(model_title(m)), "contexts",
		(json_int_t)(model_n_nodes(m) ? model_n_nodes(m) - 1 : 0),
		"deferred_subtrees", (json_int_t)model_n_deferred(m), "max_depth",
		(json_int_t)model_max_depth(m), "functions",
		(json_int_t)model_n_functions(m), "statistics",
		(json_int_t)model_n_stats(m), "profile_count",
		(json_int_t)model_n_profiles(m), "columns", cols, "profiles",
		profiles, "trace", trace ? trace : json_null(), "warnings",
		warnings);
}

static void info_text(const struct model *m)
{
	fputs("Database:   ", stdout);
	present_put_text(stdout, model_path(m));
	fputs("\nFormat:     ", stdout);
	present_put_text(stdout, model_format(m));
	fputs("\nTitle:      ", stdout);
	present_put_text(stdout, model_title(m) ? model_title(m) : "(none)");
	printf("\nContexts:   %u (max depth %u)\n",
	       model_n_nodes(m) ? model_n_nodes(m) - 1 : 0, model_max_depth(m));
	if (model_n_deferred(m))
		printf("Deferred:   %u subtree%s, read when expanded (the "
		       "counts above are what is read)\n",
		       model_n_deferred(m), model_n_deferred(m) == 1 ? "" : "s");
	printf("Functions:  %u\n", model_n_functions(m));
	uint32_t threads = 0;
	for (uint32_t i = 0; i < model_n_profiles(m); i++)
		threads += !model_profiles(m)[i].is_summary;
	printf("Profiles:   %u (%u execution contexts)\n", model_n_profiles(m),
	       threads);
	if (model_n_timelines(m) && total_samples(m) == 0) {
		printf("Trace:      %u lines, no samples\n", model_n_timelines(m));
	} else if (model_n_timelines(m)) {
		double secs = (double)(model_time_max(m) - model_time_min(m)) / 1e9;
		printf("Trace:      %u lines, %" PRIu64 " samples, %.6f s "
		       "(%" PRIu64 " .. %" PRIu64 " ns)\n",
		       model_n_timelines(m), total_samples(m), secs, model_time_min(m),
		       model_time_max(m));
	} else {
		fputs("Trace:      none\n", stdout);
	}
	for (uint32_t i = 0; i < model_n_warnings(m); i++) {
		fputs("Warning:    ", stdout);
		present_put_text(stdout, model_warnings(m)[i]);
		fputc('\n', stdout);
	}
	printf("Columns:    %u\n", model_n_columns(m));
	for (uint32_t c = 0; c < model_n_columns(m); c++) {
		char *title = present_column_title(m, c);
		uint32_t stat = model_column_stat(m, c);
		printf("  %3u  ", c);
		present_put_text(stdout, title ? title : "");
		if (stat != MODEL_NONE) {
			fputs("  [", stdout);
			present_put_text(stdout, model_str(m, model_stats(m)[stat].scope));
			fputc(' ', stdout);
			present_put_text(stdout,
				     model_str(m, model_stats(m)[stat].formula));
			printf(" %s]", present_combine_name(model_stats(m)[stat].combine));
		} else {
			fputs("  [formula]", stdout);
		}
		if (!model_columns(m)[c].visible)
			fputs(" (hidden)", stdout);
		fputc('\n', stdout);
		free(title);
	}
}

int cmd_info(struct session *s, int argc, char **argv);
int cmd_info(struct session *s, int argc, char **argv)
{
	enum present_format format = PRESENT_FORMAT_TEXT;
	int exit_code;
	int n = 0;
	char **paths = cli_operands("info", argc, argv, "a database", &format,
				    NULL, &n, &exit_code);
	if (!paths)
		return exit_code;
	struct model *m = cli_open_all(s, (const char *const *)paths, (size_t)n);
	if (!m)
		return CLI_EXIT_DATA;
	if (format == PRESENT_FORMAT_JSON) {
		json_t *doc = info_json(m);
		present_put_json(stdout, doc, JSON_INDENT(1));
		fputc('\n', stdout);
		json_decref(doc);
	} else {
		info_text(m);
	}
	model_free(m);
	return CLI_EXIT_OK;
}
