/* cmd_trace_stats: `callscope trace --from T --to T --stats`: the
 * window's time per context at a depth over every selected line
 * (views/trace_shares, no budget), what the trace pane's legend and
 * statistics view show.  Must not depend on curses or on ui/. */
#include "config.h"

#include "cli/cmd_trace_stats.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "present/present_write.h"
#include "model/model_node.h"
#include "model/model_trace.h"
#include "model/model_data.h"
#include "views/trace_shares.h"

static int by_time_desc(const void *a, const void *b)
{
	const struct trace_ctx_time *x = a, *y = b;
	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	return x->ctx < y->ctx ? -1 : x->ctx > y->ctx;
}

int cmd_trace_stats(const struct model *m, const bool *selected,
		    uint64_t from, uint64_t to, uint32_t depth,
		    enum present_format format)
{
	uint32_t *use = malloc((model_n_timelines(m) ? model_n_timelines(m) : 1) *
			       sizeof(*use));
	uint32_t n = 0;
	struct trace_shares s = {0};
	struct trace_ctx_time *d = NULL;
	size_t k = 0;
	struct error err = {.status = STATUS_OK};
	if (!use)
		return CLI_EXIT_DATA;
	for (uint32_t i = 0; i < model_n_timelines(m); i++)
		if (selected[i])
			use[n++] = i;
	if (trace_shares_compute(m, use, n, from, to, 0, &s, &err) !=
		    STATUS_OK ||
	    trace_shares_at_depth(m, &s, depth, &d, &k, &err) != STATUS_OK ||
	    model_trace_take_error(m, &err)) {
		cli_put_cmd_error("trace", &err, "read error");
		free(use);
		free(d);
		trace_shares_free(&s);
		return CLI_EXIT_DATA;
	}
	qsort(d, k, sizeof(*d), by_time_desc);
	json_t *list = format == PRESENT_FORMAT_JSON ? json_array() : NULL;
	if (format != PRESENT_FORMAT_JSON)
		printf("%u lines, window %llu ns, depth %u\n  share          "
		       "time (ns)  name\n",
		       s.lines, (unsigned long long)(to - from), depth);
	for (size_t i = 0; i < k; i++) {
		double share = s.total ? 100.0 * (double)d[i].time /
						 (double)s.total
				       : 0.0;
		uint32_t node = d[i].ctx ? model_node_of_ctx(m, d[i].ctx)
					 : MODEL_NONE;
		char *label = node != MODEL_NONE ? model_node_label(m, node)
						 : NULL;
		const char *name = d[i].ctx == 0 ? "(idle)"
				   : label ? label
					   : "(unknown context)";
		if (list) {
			json_array_append_new(
				list, json_pack("{s:I, s:o, s:I, s:f}", "ctx",
						(json_int_t)d[i].ctx, "name",
						present_json_text(name), "time",
						(json_int_t)d[i].time, "share",
						share));
		} else {
			printf("%7.3f%% %18llu  ", share,
			       (unsigned long long)d[i].time);
			present_put_text(stdout, name);
			fputc('\n', stdout);
		}
		free(label);
	}
	if (list) {
		json_t *out = json_pack(
			"{s:I, s:I, s:i, s:i, s:I, s:o}", "from",
			(json_int_t)from, "to", (json_int_t)to, "depth",
			(int)depth, "lines", (int)s.lines, "line_time",
			(json_int_t)s.total, "shares", list);
		present_put_json(stdout, out, JSON_COMPACT);
		fputc('\n', stdout);
		json_decref(out);
	}
	free(use);
	free(d);
	trace_shares_free(&s);
	return CLI_EXIT_OK;
}

