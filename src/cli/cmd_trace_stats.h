/* cmd_trace_stats: the `--stats` form of `callscope trace` (see
 * cmd_trace_stats.c). */
#ifndef CALLSCOPE_CLI_CMD_TRACE_STATS_H
#define CALLSCOPE_CLI_CMD_TRACE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "present/present_rows.h"

struct model;

/* The window [from, to) of the lines `selected` (one flag per timeline):
 * the time per context at `depth`, largest first, with its share of the
 * lines' time; text (share, time, name per line) or JSON (an object).
 * Returns a CLI exit status. */
int cmd_trace_stats(const struct model *m, const bool *selected,
		    uint64_t from, uint64_t to, uint32_t depth,
		    enum present_format format);

#endif
