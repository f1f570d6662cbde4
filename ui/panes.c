/* panes: the registry of the viewer's panes.  The tab bar, the keymap
 * names, the help screen's list of panes and `callscope --list-keymaps`
 * (checked against the man page by tests/test-man-keys.sh) come from here; adding a pane is adding its ops table to this list. */
#include "config.h"

#include "pane.h"

const struct pane_ops *const pane_registry[] = {
	&pane_tree_ops,    &pane_threads_ops, &pane_trace_ops,
	&pane_plot_ops,    &pane_source_ops,  &pane_listing_ops,
	&pane_summary_ops, &pane_flame_ops,   &pane_columns_ops,
	&pane_help_ops,
	NULL,
};
