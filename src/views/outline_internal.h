/* outline_internal: what the outline files (outline.c, outline_kids.c,
 * outline_sort.c, outline_list.c, outline_match.c, outline_search.c) share
 * and nothing else may see: the outline's state, the sorted-children memo,
 * the visible list's entries, the pattern bitsets, and the steps one file
 * asks of another.  Shared functions are prefixed ol_ so that they are not
 * mistaken for the public outline_ calls (views/outline.h).  Must not
 * depend on curses or on ui/. */
#ifndef CALLSCOPE_OUTLINE_INTERNAL_H
#define CALLSCOPE_OUTLINE_INTERNAL_H

#include "core/check.h"
#include "views/outline.h"

#include <regex.h>

struct bits {
	uint8_t *b;
	size_t cap; /* bytes */
};

/* Sorted children of one row; row MODEL_NONE marks an empty slot. */
struct kids {
	uint32_t row;
	uint32_t n;
	uint32_t *rows;
};

struct kid_table {
	struct kids *slot;
	uint32_t cap; /* power of two, or 0 */
	uint32_t used;
	uint64_t total; /* child ids held */
};

struct pattern {
	bool on;
	regex_t re;
	char *text;
};

struct entry {
	uint32_t node;
	uint32_t depth;
	uint64_t guides;
	bool last;
};

/* Visible entries being made, before they are spliced into the list. */
struct list {
	struct entry *e;
	size_t n, cap;
};

/* Rows expanded by a collect in `force` mode, for undoing it. */
struct undo {
	uint32_t *rows;
	size_t n, cap;
};

struct outline {
	struct view *v;
	const struct model *m;
	bool top_down;
	uint32_t col;
	bool asc;
	struct outline_sort_key key; /* key.value NULL: by the column */
	uint32_t *waiting; /* rows whose children wait for their keys */
	size_t n_waiting, waiting_cap;
	size_t max_rows;

	struct bits expanded;
	struct kid_table kt;
	uint8_t *haskids; /* per row: 0 unknown, 1 no children, 2 some */
	size_t haskids_cap;
	uint32_t *rank; /* per row: index among its parent's sorted kids */
	size_t rank_cap;
	uint32_t *pos; /* per row: index in e[] when visible (checked) */
	size_t pos_cap;

	struct entry *e;
	size_t n, cap;

	uint32_t root;
	uint32_t *zstack;
	uint32_t zn, zcap;

	struct bits flat; /* flattened rows: their children take their place */
	uint32_t *fstack; /* in the order they were flattened */
	size_t fn, fcap;

	struct pattern search, filter;
	enum outline_filter fmode;
	struct bits smatch, sbelow; /* search: matches; match or above one */
	struct bits fmatch, fbelow; /* the same for the filter */
	size_t n_smatch;
	uint32_t rows_known; /* rows the view is known to have */
	uint32_t scanned;    /* rows the active patterns were matched on */
	bool dirty;          /* OUTLINE_FILTER_ONLY gained rows: rebuild */
};

/* ---- small containers (outline_kids.c) --------------------------------- */

static inline bool ol_bits_get(const struct bits *s, uint32_t i)
{
	return (size_t)(i >> 3) < s->cap && (s->b[i >> 3] >> (i & 7) & 1);
}

bool ol_bits_set(struct bits *s, uint32_t i);

static inline void ol_bits_clear(struct bits *s, uint32_t i)
{
	if ((size_t)(i >> 3) < s->cap)
		s->b[i >> 3] &= (uint8_t)~(1u << (i & 7));
}

void ol_bits_free(struct bits *s);

/* Grow a per-row array of `size`-byte elements, new bytes zeroed. */
bool ol_row_array(void **p, size_t *cap, uint32_t row, size_t size);

/* ---- children (outline_kids.c) ----------------------------------------- */

/* No children: the value of a kids slot that holds none. */
extern const struct kids ol_no_kids;

/* The kept children of `row`, or NULL. */
const struct kids *ol_kt_find(const struct kid_table *t, uint32_t row);
/* Forget the children kept for `row` (freed). */
void ol_kt_remove(struct kid_table *t, uint32_t row);
/* Forget all kept children and free the table. */
void ol_kt_clear(struct kid_table *t);

/* Drop the children kept for rows that are not expanded when they hold
 * too many ids.  Only at the start of a public call, so that no walk holds
 * a pointer into what is dropped. */
void ol_memo_trim(struct outline *o);

/* STATUS_NOMEM with the model's path. */
enum status ol_nomem(const struct outline *o, struct error *err);

/* The sorted children of `row` (kept in the table when there are any).
 * The array stays valid until the sort changes or, for a row that is not
 * expanded, the next ol_memo_trim. */
enum status ol_get_kids(struct outline *o, uint32_t row, struct kids *out,
			struct error *err);

/* Whether `row` has children in the view (true when unknown, so that the
 * UI offers to expand it). */
bool ol_has_kids(struct outline *o, uint32_t row);

/* ---- sort keys (outline_sort.c) ---------------------------------------- */

/* Order `rows` (the children of `row`, by label) by the sort key; when a
 * child's key is still pending, leave them by label and note `row` as
 * waiting (outline_sort_waiting, outline_sort_retry). */
enum status ol_key_sort(struct outline *o, uint32_t row, uint32_t *rows,
			size_t n, struct error *err);

/* ---- the tree ------------------------------------------------------------ */

static inline uint32_t ol_parent_of(const struct outline *o, uint32_t row)
{
	struct view_node vn;
	return view_node_get(o->v, row, &vn) ? vn.parent : MODEL_NONE;
}

/* Bound for walks up the tree: a view is never deeper than the model plus
 * its grouping levels. */
static inline uint64_t ol_depth_cap(const struct outline *o)
{
	return (uint64_t)model_max_depth(o->m) + 16;
}

/* Whether `node` is `root` or below it (outline.c). */
bool ol_inside(const struct outline *o, uint32_t node, uint32_t root);

/* ---- patterns and the filter (outline_match.c) -------------------------- */

void ol_pattern_free(struct pattern *p);

/* Compile `text` into *p (which must be off).  Smart case. */
enum status ol_pattern_compile(struct outline *o, struct pattern *p,
			       const char *text, struct error *err);

/* Match `row` against the patterns selected by `search` / `filter`. */
enum status ol_match_row(struct outline *o, uint32_t row, bool search,
			 bool filter, struct error *err);

/* The number of rows the view has now (bottom-up grows as callers are
 * computed; rows are numbered densely). */
uint32_t ol_view_rows(struct outline *o);

/* Match the active patterns on rows the view made since the last call. */
enum status ol_sync_rows(struct outline *o, struct error *err);

/* Whether child `c` of a row whose OUTLINE_FILTER_ONLY flag is `under` is
 * shown. */
static inline bool ol_shown(const struct outline *o, uint32_t c, bool under)
{
	switch (o->fmode) {
	case OUTLINE_FILTER_OFF:
		return true;
	case OUTLINE_FILTER_HIDE:
		return !ol_bits_get(&o->fmatch, c);
	case OUTLINE_FILTER_ONLY:
		return under || ol_bits_get(&o->fbelow, c);
	}
	return true;
}

/* The "under a match" flag of `c` given its parent's. */
static inline bool ol_under_of(const struct outline *o, uint32_t c, bool under)
{
	return under || (o->fmode == OUTLINE_FILTER_ONLY &&
			 ol_bits_get(&o->fmatch, c));
}

/* Whether `row` or one of its ancestors matches an ONLY filter. */
bool ol_under_row(const struct outline *o, uint32_t row);

/* ---- the visible list (outline_list.c) ---------------------------------- */

/* Append to `l` the visible descendants of the row of entry `top` (whose
 * ONLY flag is `under`), in display order.  In `force` mode every row with
 * children is opened and expanded (expand all).  STATUS_LIMIT when `l`
 * would pass `limit` rows. */
enum status ol_collect(struct outline *o, const struct entry *top,
		       bool under, bool force, struct undo *undo,
		       size_t limit, struct list *l, struct error *err);

/* Replace entries [at, end) by the `l->n` entries of `l`. */
enum status ol_splice(struct outline *o, size_t at, size_t end,
		      const struct list *l, struct error *err);

/* The index after the last entry of the subtree of entry `i`. */
size_t ol_subtree_end(const struct outline *o, size_t i);

/* Rebuild the whole list from the zoom root. */
enum status ol_rebuild(struct outline *o, struct error *err);

/* The end of a call that may have made new rows visible to an ONLY
 * filter (bottom-up rows computed on the way). */
enum status ol_settle(struct outline *o, enum status st,
		      struct error *err);

#endif
