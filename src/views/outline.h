/* outline: the engine side of a tree pane -- which rows of a view are
 * expanded, the sort column, the zoom stack, the search pattern and the
 * filter -- and the flattened list of visible rows the UI draws.  The list
 * is patched when the state changes (expanding a row inserts its visible
 * subtree, collapsing removes it) so that drawing and scrolling cost
 * O(visible rows) and no keypress costs O(size of the tree).  Semantics and
 * the cost of every operation are in doc/outline.md.  Must not depend on
 * curses or on ui/; never modifies the view's model. */
#ifndef CALLSCOPE_OUTLINE_H
#define CALLSCOPE_OUTLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "views/view.h"

/* "no visible index" */
#define OUTLINE_NONE SIZE_MAX

/* outline_expand_all refuses to make more rows visible than this. */
#define OUTLINE_MAX_ROWS 2000000u

/* Longest search or filter pattern, in bytes. */
#define OUTLINE_MAX_PATTERN 1024u

/* The state of one tree pane over a view the caller owns (it must outlive
 * the outline).  Never modifies the view's model. */
struct outline;

/* One visible row. */
struct outline_row {
	uint32_t node;     /* view row id */
	uint32_t depth;    /* relative to the zoom root (0) */
	bool has_children; /* the row has children in the view (whether or
			      not the filter shows any of them) */
	bool expanded;
	bool last_sibling; /* last among its parent's visible children; true
			      for the zoom root */
	uint64_t guides;   /* bit d (d < 64): the ancestor at relative depth
			      d + 1 has a later visible sibling, so a vertical
			      guide line is drawn in column d */
	bool match;        /* matches the current search pattern */
};

/* Filter modes (see outline_set_filter). */
enum outline_filter {
	OUTLINE_FILTER_OFF,
	OUTLINE_FILTER_HIDE,
	OUTLINE_FILTER_ONLY,
};

/* A new outline over `v`, children sorted by `sort_column` (MODEL_NONE:
 * by label) descending, or ascending when `ascending`.  The root starts
 * expanded (its children are visible).  STATUS_USAGE for a NULL view or an
 * unknown column, STATUS_NOMEM. */
enum status outline_new(struct view *v, uint32_t sort_column, bool ascending,
			struct outline **out, struct error *err);

/* Free the outline (not the view).  NULL is fine. */
void outline_free(struct outline *o);

/* The view the outline is over. */
struct view *outline_view(const struct outline *o);

/* Number of visible rows: the zoom root (row 0), then, in pre-order, the
 * children of every visible expanded row, sorted by the sort column
 * (view_children order), without the rows the filter hides.  O(1). */
size_t outline_count(const struct outline *o);

/* Visible row `index` into *out; false when index >= outline_count.
 * O(1), except the first time has_children is asked of a bottom-up or flat
 * row: then the row's sorted children are computed and kept (bottom-up
 * computes the callers of the row), which is why `o` is not const. */
bool outline_row_get(struct outline *o, size_t index,
		     struct outline_row *out);

/* Visible index of row `node`, or OUTLINE_NONE when it is not visible.
 * O(1). */
size_t outline_find(const struct outline *o, uint32_t node);

/* Expand `node`: its children become visible when it is.  A row without
 * children stays unexpanded.  Expanding an invisible row only records it.
 * STATUS_USAGE for an unknown row. */
enum status outline_expand(struct outline *o, uint32_t node,
			   struct error *err);

/* Collapse `node` (its expanded descendants stay expanded, hidden).  An
 * unknown or collapsed row is ignored. */
void outline_collapse(struct outline *o, uint32_t node);

/* Expand `node` and every row in its subtree that has children (rows the
 * filter hides are left alone).  STATUS_LIMIT, with nothing changed, when
 * that would make more than OUTLINE_MAX_ROWS rows visible; STATUS_USAGE
 * for an unknown row. */
enum status outline_expand_all(struct outline *o, uint32_t node,
			       struct error *err);

/* Collapse `node` and every expanded row of its subtree. */
void outline_collapse_all(struct outline *o, uint32_t node);

/* Sort children by `column` (MODEL_NONE: by label), descending or
 * ascending.  Keeps the expanded set; rebuilds the list, sorting the
 * children of the visible expanded rows only.  STATUS_USAGE for an unknown
 * column. */
enum status outline_set_sort(struct outline *o, uint32_t column,
			     bool ascending, struct error *err);
uint32_t outline_sort_column(const struct outline *o);
bool outline_sort_ascending(const struct outline *o);

/* A sort key that is not one of the view's columns (the viewer's model
 * severity, issue 17): `value` gives view row `node`'s key in *out and
 * says whether it has one, has none (such rows go last, as rows without a
 * value do), or has one that is not known yet (a model still being
 * fitted).  It must not block; it is asked for the children of the rows
 * being shown only, when they are first needed.  The answers must stay
 * the same until the next outline_set_sort_key (call it again when they
 * change: the evaluation point moved). */
enum outline_key_state {
	OUTLINE_KEY_VALUE,
	OUTLINE_KEY_NONE,
	OUTLINE_KEY_PENDING,
};
struct outline_sort_key {
	enum outline_key_state (*value)(void *ctx, uint32_t node, double *out);
	void *ctx;
};

/* Sort children by `key`: descending (ascending when `ascending`), rows
 * without a key last, ties by label.  A row whose children include one
 * with a pending key keeps them by label and waits (outline_sort_waiting)
 * until outline_sort_retry finds every key known.  outline_sort_column
 * is then MODEL_NONE; outline_set_sort goes back to a column.  Keeps the
 * expanded set; rebuilds the list.  STATUS_USAGE for no key. */
enum status outline_set_sort_key(struct outline *o,
				 const struct outline_sort_key *key,
				 bool ascending, struct error *err);
/* Whether the children are sorted by a key (outline_set_sort_key). */
bool outline_sort_keyed(const struct outline *o);
/* How many shown rows' children wait for pending keys (0 when not sorted
 * by a key). */
size_t outline_sort_waiting(const struct outline *o);
/* Ask the keys of the waiting rows' children again; sort the rows whose
 * keys are all known now and rebuild the list (*resorted true) when
 * there is one.  O(children of the waiting rows) when none is ready; a
 * rebuild (as a sort change) when one is. */
enum status outline_sort_retry(struct outline *o, bool *resorted,
			       struct error *err);

/* Zoom: `node` becomes the root of the list (row 0, depth 0) and is
 * expanded; the previous root is pushed on the zoom stack.  Zooming on the
 * current root does nothing.  STATUS_USAGE for an unknown row. */
enum status outline_zoom(struct outline *o, uint32_t node,
			 struct error *err);

/* Back to the previous zoom root; false (nothing changes) at the top. */
bool outline_zoom_out(struct outline *o);

/* The current zoom root (the view root when not zoomed). */
uint32_t outline_zoom_root(const struct outline *o);

/* Flatten `node` (hpcviewer's flatten): its row is replaced in the list by
 * its children, at its place and depth; flattening one of them goes one
 * level further.  The row stays expanded underneath, so that undoing shows
 * it as it was.  STATUS_USAGE when `node` is not a shown row, is the zoom
 * root, or has no children. */
enum status outline_flatten(struct outline *o, uint32_t node,
			    struct error *err);

/* Undo the last flatten; returns the row it brings back (MODEL_NONE when
 * nothing is flattened). */
uint32_t outline_unflatten(struct outline *o);

/* How many flattens are in effect. */
size_t outline_flattened(const struct outline *o);

/* Make `node` visible: zoom out until it is inside the zoom root's
 * subtree, then expand its ancestors below the zoom root.  STATUS_USAGE
 * for an unknown row; STATUS_NOT_FOUND when the filter hides it. */
enum status outline_reveal(struct outline *o, uint32_t node,
			   struct error *err);

/* Hot path (the `H` key): follow view_hotpath(start, column, threshold)
 * from `start`, expanding every row on the way and the hot row itself (its
 * children show why the path stopped), and return the hot row in *leaf,
 * visible.  When the filter hides part of the path, the path stops
 * at its last row the filter shows.  Calling it again on the leaf
 * continues below it.  Errors as view_hotpath and outline_reveal. */
enum status outline_hotpath(struct outline *o, uint32_t start,
			    uint32_t column, double threshold_pct,
			    uint32_t *leaf, struct error *err);

/* Search pattern: a POSIX extended regular expression matched against
 * view_node_label of each row; case-insensitive when the pattern has no
 * upper-case letter ("smart case").  Compiled and matched once here, over
 * every row the view has: top-down all model nodes, flat all its rows
 * (built now if needed), bottom-up the function rows plus the caller rows
 * already computed (rows computed later are matched when they appear).
 * NULL or "" clears the search.  STATUS_USAGE for an invalid pattern
 * (message from regerror), STATUS_LIMIT for one longer than
 * OUTLINE_MAX_PATTERN bytes; the previous search stays on failure. */
enum status outline_search_set(struct outline *o, const char *pattern,
			       struct error *err);

/* The next (or previous, when !forward) matching row after `from` in the
 * display order of the fully expanded tree under the zoom root, with the
 * current sort, skipping rows the filter hides and flattened rows (their
 * children stand in their place); wraps around (it may be
 * `from` itself when that is the only match).  `from` may be MODEL_NONE
 * (or a row outside the zoom root or hidden): the search then starts
 * before the first row (after the last when backwards).  The match is
 * revealed (outline_reveal) and returned in *match.  STATUS_NOT_FOUND when
 * nothing matches. */
enum status outline_search_next(struct outline *o, uint32_t from_node,
				bool forward, uint32_t *match,
				struct error *err);

/* Number of rows of the view that match the search pattern (whole view,
 * as far as its rows are built; 0 without a pattern). */
size_t outline_search_count(const struct outline *o);

/* Whether row `node` matches the current search pattern (false without
 * one; O(1)).  The flame pane marks the boxes that do. */
bool outline_search_matches(const struct outline *o, uint32_t node);

/* The current search pattern, or NULL. */
const char *outline_search_pattern(const struct outline *o);

/* Filter by a pattern (same syntax and smart case as the search):
 *  - OUTLINE_FILTER_HIDE hides the matching rows with their subtrees;
 *  - OUTLINE_FILTER_ONLY shows only the matching rows, their ancestors and
 *    their descendants (the subtree of a match stays browsable);
 *  - OUTLINE_FILTER_OFF (or a NULL/"" pattern) removes the filter.
 * The zoom root is always shown.  The expanded set is kept.  Errors as
 * outline_search_set; STATUS_USAGE for an unknown mode. */
enum status outline_set_filter(struct outline *o, const char *pattern,
			       enum outline_filter mode, struct error *err);

/* The current filter mode (OUTLINE_FILTER_OFF when none). */
enum outline_filter outline_filter_mode(const struct outline *o);

/* Change the cap outline_expand_all enforces (default OUTLINE_MAX_ROWS;
 * 0 restores the default).  For the UI's configuration and the tests. */
void outline_set_max_rows(struct outline *o, size_t max_rows);

#endif
