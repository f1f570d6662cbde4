/* layout: how the screen between the tab bar and the status line is
 * shared (htop's ScreenManager).  The stack of panes (the tree, with
 * overlays over it) takes the area; a split pane (one of the registry's
 * PANE_SPLIT panes, e.g. the trace timeline) sits below it or beside it,
 * or takes the whole area (full screen), and has the keys or not.  The
 * layout knows no pane by name and no curses. */
#ifndef CALLSCOPE_UI_LAYOUT_H
#define CALLSCOPE_UI_LAYOUT_H

#include <stdbool.h>

#include "pane.h"

struct layout {
	struct pane *split; /* the split pane (NULL: none made yet) */
	bool shown;         /* the split is on screen */
	bool focus;         /* the split has the keys */
	bool full;          /* the split takes the whole area */
	bool beside;        /* beside the stack (right), not below it */
	int percent;        /* the split's share of the area, 20-90 */
};

#define LAYOUT_PERCENT_DEFAULT 50

/* An empty layout. */
void layout_init(struct layout *l);

/* Free the split pane. */
void layout_fini(struct layout *l);

/* The split's state changes (each leaves the layout consistent). */
void layout_toggle(struct layout *l);      /* show or hide, with focus */
void layout_toggle_focus(struct layout *l);
void layout_toggle_full(struct layout *l); /* shows and focuses it */
void layout_toggle_beside(struct layout *l);
void layout_resize(struct layout *l, int delta_percent);

/* The split pane when it is shown (NULL otherwise). */
struct pane *layout_split_shown(const struct layout *l);

/* Share `area` (the screen between the tabs and the status line) between
 * the stack, the split and the detail strip of `detail_h` lines under the
 * stack: *stack and *split get their rects (h == 0: not drawn), *detail
 * the strip's (h == 0: none).  `split_drawn` says whether the split is
 * drawn at all (it is not while an overlay is open). */
void layout_place(const struct layout *l, bool split_drawn, struct rect area,
		  int detail_h, struct rect *stack, struct rect *split,
		  struct rect *detail);

#endif
