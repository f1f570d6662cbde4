/* cmd_trace_legend: the key to the context ids that `callscope trace
 * --from --to --columns` prints in its text cells: per id the cells that
 * hold it, their share and the context's name, as the viewer's trace
 * legend names what its colours and letters stand for (critique b9).
 * Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_CLI_CMD_TRACE_LEGEND_H
#define CALLSCOPE_CLI_CMD_TRACE_LEGEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct trace_legend_entry {
	uint32_t ctx;
	uint64_t cells;
};

/* The ids counted so far, sorted by id; zero-initialise. */
struct trace_legend {
	struct trace_legend_entry *e;
	size_t n;
	uint64_t cells; /* all cells counted */
};

/* Counts the n context ids of `cells` (one line's window) into `l`.
 * False when out of memory (`l` unchanged). */
bool trace_legend_add(struct trace_legend *l, const uint32_t *cells,
		      uint32_t n);

/* Prints the legend on stdout, after a blank line: a title, then one line
 * per id, most cells first (ties by id): "CTX  CELLS  SHARE%  NAME".
 * Nothing when no cell was counted (a window of counter lines only). */
void trace_legend_put(const struct model *m, const struct trace_legend *l);

void trace_legend_free(struct trace_legend *l);

#endif
