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
	for (uint32_t i = 0; i < m->n_timelines; i++)
		n += m->timelines[i].count;
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
	for (uint32_t c = 0; c < m->n_columns; c++) {
		const struct model_column *col = &m->columns[c];
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
	for (uint32_t i = 0; i < m->n_timelines; i++) {
		const struct model_timeline *tl = &m->timelines[i];
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
	for (uint32_t i = 0; i < m->n_profiles; i++)
		json_array_append_new(
			profiles,
			json_pack("{s:I, s:o, s:b}", "index", (json_int_t)i,
				  "label",
				  present_json_text(model_str(m, m->profiles[i].label)),
				  "summary", m->profiles[i].is_summary));
	json_t *trace = json_null();
	uint64_t samples = total_samples(m);
	if (m->n_timelines)
		trace = json_pack("{s:I, s:I, s:o, s:o, s:o}", "lines",
				  (json_int_t)m->n_timelines, "samples",
				  (json_int_t)samples, "min",
				  time_json(samples, m->time_min), "max",
				  time_json(samples, m->time_max), "line_list",
				  lines);
	else
		json_decref(lines);
	json_t *warnings = json_array();
	for (uint32_t i = 0; i < m->n_warnings; i++)
		json_array_append_new(warnings, present_json_text(m->warnings[i]));
	return json_pack(
		"{s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, "
		"s:o}",
		"format", present_json_text(m->format), "path", present_json_text(m->path),
		"title", present_json_text(m->title), "contexts",
		(json_int_t)(m->n_nodes ? m->n_nodes - 1 : 0),
		"deferred_subtrees", (json_int_t)m->n_deferred, "max_depth",
		(json_int_t)m->max_depth, "functions",
		(json_int_t)m->n_functions, "statistics",
		(json_int_t)m->n_stats, "profile_count",
		(json_int_t)m->n_profiles, "columns", cols, "profiles",
		profiles, "trace", trace ? trace : json_null(), "warnings",
		warnings);
}

static void info_text(const struct model *m)
{
	fputs("Database:   ", stdout);
	present_put_text(stdout, m->path);
	fputs("\nFormat:     ", stdout);
	present_put_text(stdout, m->format);
	fputs("\nTitle:      ", stdout);
	present_put_text(stdout, m->title ? m->title : "(none)");
	printf("\nContexts:   %u (max depth %u)\n",
	       m->n_nodes ? m->n_nodes - 1 : 0, m->max_depth);
	if (m->n_deferred)
		printf("Deferred:   %u subtree%s, read when expanded (the "
		       "counts above are what is read)\n",
		       m->n_deferred, m->n_deferred == 1 ? "" : "s");
	printf("Functions:  %u\n", m->n_functions);
	uint32_t threads = 0;
	for (uint32_t i = 0; i < m->n_profiles; i++)
		threads += !m->profiles[i].is_summary;
	printf("Profiles:   %u (%u execution contexts)\n", m->n_profiles,
	       threads);
	if (m->n_timelines && total_samples(m) == 0) {
		printf("Trace:      %u lines, no samples\n", m->n_timelines);
	} else if (m->n_timelines) {
		double secs = (double)(m->time_max - m->time_min) / 1e9;
		printf("Trace:      %u lines, %" PRIu64 " samples, %.6f s "
		       "(%" PRIu64 " .. %" PRIu64 " ns)\n",
		       m->n_timelines, total_samples(m), secs, m->time_min,
		       m->time_max);
	} else {
		fputs("Trace:      none\n", stdout);
	}
	for (uint32_t i = 0; i < m->n_warnings; i++) {
		fputs("Warning:    ", stdout);
		present_put_text(stdout, m->warnings[i]);
		fputc('\n', stdout);
	}
	printf("Columns:    %u\n", m->n_columns);
	for (uint32_t c = 0; c < m->n_columns; c++) {
		char *title = present_column_title(m, c);
		uint32_t stat = model_column_stat(m, c);
		printf("  %3u  ", c);
		present_put_text(stdout, title ? title : "");
		if (stat != MODEL_NONE) {
			fputs("  [", stdout);
			present_put_text(stdout, model_str(m, m->stats[stat].scope));
			fputc(' ', stdout);
			present_put_text(stdout,
				     model_str(m, m->stats[stat].formula));
			printf(" %s]", present_combine_name(m->stats[stat].combine));
		} else {
			fputs("  [formula]", stdout);
		}
		if (!m->columns[c].visible)
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
