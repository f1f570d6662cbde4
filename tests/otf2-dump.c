/* otf2-dump: the per-location values of an OTF2 archive as the otf2 reader
 * gives them (model_per_profile), for tests/check_otf2.py: one line per
 * call path, statistic and location with a non-zero value, tab-separated:
 *   "PATH<TAB>METRIC<TAB>I|E<TAB>LOCATION LABEL<TAB>VALUE (%.17g)"
 * where PATH is the region names from the top, joined by '/' (the root's
 * own name for the program root); then one
 * line per MPI message attribute of every call of every trace line:
 *   "M<TAB>LINE LABEL<TAB>PATH<TAB>BEGIN (ns)<TAB>KEY<TAB>TEXT"
 * then one line per link of a call (its matched MPI messages, the trace
 * pane's jump), in order:
 *   "L<TAB>LINE LABEL<TAB>BEGIN<TAB>LINKED LINE LABEL<TAB>LINKED BEGIN"
 * then one line per value of every counter line:
 *   "C<TAB>LINE LABEL<TAB>TIME (ns)<TAB>VALUE (%.17g)"
 * With CACHE_DIR, the reader keeps its index there (a second run reads it).
 * Exit 2 with the error line when the archive does not open. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reader.h"
#include "model/model.h"
#include "present/present_path.h"

#include "dump_error.h"

extern const struct reader reader_otf2;

static void print_path(const struct model *m, uint32_t node)
{
	if (node == 0) {
		fputs("<program root>", stdout);
		return;
	}
	char *path = present_node_path(m, node, "/", PRESENT_PATH_NAMES);
	fputs(path ? path : "?", stdout);
	free(path);
}

static int dump_node(const struct model *m, uint32_t node)
{
	int status = 0;
	for (uint32_t c = 0; c < model_n_columns(m); c++) {
		uint32_t s = model_column_stat(m, c);
		struct profile_value *pv = NULL;
		size_t n = 0;
		struct error err = {0};
		if (s == MODEL_NONE)
			continue;
		if (model_per_profile(m, node, s, &pv, &n, &err) != STATUS_OK) {
			status = dump_error(NULL, &err);
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			print_path(m, node);
			printf("\t%s\t%c\t%s\t%.17g\n", model_columns(m)[c].name,
			       model_columns(m)[c].kind == COLUMN_INCLUSIVE ? 'I' : 'E',
			       model_str(m, model_profiles(m)[pv[i].profile].label),
			       pv[i].value);
		}
		free(pv);
	}
	return status;
}

/* Calls `visit` on every interval of every interval line, in order; 2
 * when an interval cannot be read (or a visit says so), else 0. */
static int each_interval(const struct model *m,
			 int (*visit)(const struct model *m, uint32_t line,
				      uint64_t i, const struct trace_interval *iv))
{
	int status = 0;
	for (uint32_t line = 0; line < model_n_timelines(m); line++) {
		if (model_timelines(m)[line].kind != TIMELINE_INTERVALS)
			continue;
		for (uint64_t i = 0; i < model_timelines(m)[line].count; i++) {
			struct trace_interval iv;
			status |= model_interval(m, line, i, &iv)
					  ? visit(m, line, i, &iv)
					  : 2;
		}
	}
	return status;
}

/* The "M" lines of one interval: its event's attributes. */
static int dump_message(const struct model *m, uint32_t line, uint64_t i,
			const struct trace_interval *iv)
{
	(void)i;
	struct model_kv *kv = NULL;
	size_t n = 0;
	struct error err = {0};
	if (iv->event == MODEL_EVENT_NONE)
		return 0;
	if (model_event_detail(m, line, iv->event, &kv, &n, &err) !=
	    STATUS_OK) {
		error_clear(&err);
		return 2;
	}
	const char *label = model_str(m, model_timelines(m)[line].label);
	for (size_t k = 0; k < n; k++) {
		printf("M\t%s\t", label);
		print_path(m, model_node_of_ctx(m, iv->ctx_id));
		printf("\t%llu\t%s\t%s\n", (unsigned long long)iv->begin,
		       kv[k].key, kv[k].text);
	}
	free(kv);
	return 0;
}

/* The "L" lines of one interval: its links, in order. */
static int dump_link(const struct model *m, uint32_t line, uint64_t i,
		     const struct trace_interval *iv)
{
	struct trace_interval to;
	uint32_t to_line;
	uint64_t to_index;
	for (uint32_t k = 0;
	     model_interval_linked(m, line, i, k, &to_line, &to_index); k++) {
		if (!model_interval(m, to_line, to_index, &to))
			return 2;
		printf("L\t%s\t%llu\t%s\t%llu\n",
		       model_str(m, model_timelines(m)[line].label),
		       (unsigned long long)iv->begin,
		       model_str(m, model_timelines(m)[to_line].label),
		       (unsigned long long)to.begin);
	}
	return 0;
}

static int dump_counters(const struct model *m)
{
	int status = 0;
	for (uint32_t line = 0; line < model_n_timelines(m); line++) {
		const struct model_timeline *tl = &model_timelines(m)[line];
		if (tl->kind != TIMELINE_COUNTER)
			continue;
		for (uint64_t i = 0; i < tl->count; i++) {
			uint64_t t;
			double v;
			if (!model_counter(m, line, i, &t, &v)) {
				status = 2;
				continue;
			}
			printf("C\t%s\t%llu\t%.17g\n", model_str(m, tl->label),
			       (unsigned long long)t, v);
		}
	}
	return status;
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: otf2-dump ARCHIVE [CACHE_DIR]\n");
		return 64;
	}
	struct model *m = NULL;
	struct error err = {0};
	const char *paths[1] = {argv[1]};
	struct reader_options ro = {.cache_dir = argc == 3 ? argv[2] : NULL};
	struct reader_input in = {.paths = paths, .n_paths = 1,
				  .options = &ro};
	if (reader_otf2.open(&in, &m, &err) != STATUS_OK) {
		return dump_error(NULL, &err);
	}
	int status = 0;
	for (uint32_t node = 0; node < model_n_nodes(m); node++)
		status |= dump_node(m, node);
	status |= each_interval(m, dump_message);
	status |= each_interval(m, dump_link);
	status |= dump_counters(m);
	model_free(m);
	return status;
}
