/* cmd_trace_lines: what `callscope trace` prints per line (see
 * cmd_trace.c for the command): the --at form and the window form, in
 * text or as one JSON object per line.  Must not depend on curses or on
 * ui/. */
#ifndef CALLSCOPE_CLI_CMD_TRACE_LINES_H
#define CALLSCOPE_CLI_CMD_TRACE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"
#include "present/present_rows.h"
#include "present/present_write.h" /* json_t */
#include "cli/cmd_trace_legend.h"

struct trace_options {
	const char *const *dbs; /* one or more, opened as one run */
	size_t n_dbs;
	const char *lines, *at, *from, *to, *span, *gpu_lines;
	uint64_t span_ns; /* --span: instants in [at, at + span) */
	uint32_t columns, depth;
	bool stats; /* --stats: the window's shares (trace_shares) */
	enum present_format format;
	/* the window form in text: the context ids of its cells are counted
	 * here for the legend printed after the lines; NULL: not counted */
	struct trace_legend *legend;
};

/* Line `line` at time t: the sample (interval, counter value) in force
 * and its call path; text on stdout, or a JSON object appended to
 * `lines`.  False when a trace read failed (`err` says why: a remote
 * trace.db whose server went away) or out of memory. */
bool trace_at_line(const struct model *m, uint32_t line, uint64_t t,
		   const struct trace_options *o, json_t *lines,
		   struct error *err);

/* Line `line` over [from, to): o->columns cells, each the context (a
 * counter's value) at the start of its slice, and on an interval line
 * the first instant per cell; as trace_at_line.  In text, the cells'
 * context ids are counted into o->legend when set. */
bool trace_window_line(const struct model *m, uint32_t line, uint64_t from,
		       uint64_t to, const struct trace_options *o,
		       json_t *lines, struct error *err);

#endif
