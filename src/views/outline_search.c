/* outline_search: the public search and filter calls -- setting a search
 * or filter pattern (matched by outline_match.c) and the search step, a
 * walk in display order over the rows that hold a match in their subtree,
 * wrapping around, that reveals the row it stops at.  Must not depend on
 * curses or on ui/; never modifies the view's model. */
#include "config.h"

#include "views/outline_internal.h"

#include "core/array.h"

#include <stdlib.h>

/* ---- public: search and filter ----------------------------------------- */

/* Make the view build what it builds at its first request (flat: all its
 * rows; bottom-up: the function rows) and return its row count. */
static enum status rows_now(struct outline *o, uint32_t *n,
			    struct error *err)
{
	struct kids k;
	enum status st = ol_get_kids(o, view_root(o->v), &k, err);
	if (st != STATUS_OK)
		return st;
	st = ol_sync_rows(o, err);
	*n = ol_view_rows(o);
	if (!o->search.on && !o->filter.on)
		o->scanned = *n;
	return st;
}

enum status outline_search_set(struct outline *o, const char *pattern,
			       struct error *err)
{
	struct pattern p = {0};
	uint32_t n = 0;
	if (!o)
		return error_set(err, STATUS_USAGE, NULL, "no outline");
	if (!pattern || !*pattern) {
		ol_pattern_free(&o->search);
		ol_bits_free(&o->smatch);
		ol_bits_free(&o->sbelow);
		o->n_smatch = 0;
		return STATUS_OK;
	}
	enum status st = ol_pattern_compile(o, &p, pattern, err);
	if (st == STATUS_OK)
		st = rows_now(o, &n, err);
	if (st != STATUS_OK) {
		ol_pattern_free(&p);
		return st;
	}
	ol_pattern_free(&o->search);
	ol_bits_free(&o->smatch);
	ol_bits_free(&o->sbelow);
	o->n_smatch = 0;
	o->search = p;
	for (uint32_t r = 0; r < o->scanned && st == STATUS_OK; r++)
		st = ol_match_row(o, r, true, false, err);
	if (st != STATUS_OK) {
		ol_pattern_free(&o->search);
		ol_bits_free(&o->smatch);
		ol_bits_free(&o->sbelow);
		o->n_smatch = 0;
	}
	return st;
}

size_t outline_search_count(const struct outline *o)
{
	return o ? o->n_smatch : 0;
}

bool outline_search_matches(const struct outline *o, uint32_t node)
{
	return o && o->search.on && ol_bits_get(&o->smatch, node);
}

const char *outline_search_pattern(const struct outline *o)
{
	return o && o->search.on ? o->search.text : NULL;
}

static void filter_off(struct outline *o)
{
	ol_pattern_free(&o->filter);
	ol_bits_free(&o->fmatch);
	ol_bits_free(&o->fbelow);
	o->fmode = OUTLINE_FILTER_OFF;
}

enum status outline_set_filter(struct outline *o, const char *pattern,
			       enum outline_filter mode, struct error *err)
{
	struct pattern p = {0};
	uint32_t n = 0;
	enum status st = STATUS_OK;
	if (!o)
		return error_set(err, STATUS_USAGE, NULL, "no outline");
	if (mode != OUTLINE_FILTER_OFF && mode != OUTLINE_FILTER_HIDE &&
	    mode != OUTLINE_FILTER_ONLY)
		return error_set(err, STATUS_USAGE, NULL,
				 "unknown filter mode %d", (int)mode);
	if (mode == OUTLINE_FILTER_OFF || !pattern || !*pattern) {
		filter_off(o);
		return ol_rebuild(o, err);
	}
	st = ol_pattern_compile(o, &p, pattern, err);
	if (st == STATUS_OK)
		st = rows_now(o, &n, err);
	if (st != STATUS_OK) {
		ol_pattern_free(&p);
		return st;
	}
	filter_off(o);
	o->filter = p;
	o->fmode = mode;
	for (uint32_t r = 0; r < o->scanned && st == STATUS_OK; r++)
		st = ol_match_row(o, r, false, true, err);
	if (st != STATUS_OK) {
		filter_off(o);
		ol_rebuild(o, NULL);
		return st;
	}
	return ol_rebuild(o, err);
}

enum outline_filter outline_filter_mode(const struct outline *o)
{
	return o ? o->fmode : OUTLINE_FILTER_OFF;
}

/* ---- the search walk --------------------------------------------------- */

/* One step of a search walk: a row and whether it or an ancestor matches
 * the OUTLINE_FILTER_ONLY pattern. */
struct step {
	uint32_t row;
	bool under;
};

/* A search walk: the path from the zoom root to the current row. */
struct walk {
	struct step *s;
	size_t n, cap;
};

static bool walk_push(struct walk *w, uint32_t row, bool under)
{
	if (!array_grow((void **)&w->s, &w->cap, w->n + 1, sizeof(*w->s)))
		return false;
	w->s[w->n++] = (struct step){.row = row, .under = under};
	return true;
}

/* Child `c` of a row with ONLY flag `under` is on the search walk: shown
 * and holding a match in its subtree. */
static bool on_walk(const struct outline *o, uint32_t c, bool under)
{
	return ol_bits_get(&o->sbelow, c) && ol_shown(o, c, under);
}

/* Start the walk at the zoom root. */
static bool walk_root(struct outline *o, struct walk *w)
{
	w->n = 0;
	return walk_push(w, o->root, ol_under_row(o, o->root));
}

/* The walk to `from`; false (with the walk at the root) when it is not
 * shown under the zoom root. */
static enum status walk_to(struct outline *o, struct walk *w, uint32_t from,
			   bool *found, struct error *err)
{
	uint32_t *up = NULL;
	size_t n = 0, cap = 0;
	enum status st = STATUS_OK;
	*found = false;
	if (!walk_root(o, w))
		return ol_nomem(o, err);
	if (from == MODEL_NONE || !ol_inside(o, from, o->root))
		return STATUS_OK;
	for (uint32_t r = from; r != o->root; r = ol_parent_of(o, r)) {
		if (!array_grow((void **)&up, &cap, n + 1, sizeof(*up))) {
			st = ol_nomem(o, err);
			goto out;
		}
		up[n++] = r;
	}
	for (size_t k = n; k-- > 0;) {
		bool under = w->s[w->n - 1].under;
		if (!ol_shown(o, up[k], under)) {
			w->n = 1;
			goto out;
		}
		if (!walk_push(w, up[k], ol_under_of(o, up[k], under))) {
			st = ol_nomem(o, err);
			goto out;
		}
	}
	*found = true;
out:
	free(up);
	return st;
}

/* Descend to the last row of the walk's subtree (pre-order). */
static enum status walk_last(struct outline *o, struct walk *w,
			     struct error *err)
{
	for (;;) {
		struct step top = w->s[w->n - 1];
		if (!ol_bits_get(&o->sbelow, top.row))
			return STATUS_OK;
		struct kids k;
		enum status st = ol_get_kids(o, top.row, &k, err);
		if (st != STATUS_OK)
			return st;
		uint32_t i = k.n;
		while (i > 0 && !on_walk(o, k.rows[i - 1], top.under))
			i--;
		if (i == 0)
			return STATUS_OK;
		uint32_t c = k.rows[i - 1];
		if (!walk_push(w, c, ol_under_of(o, c, top.under)))
			return ol_nomem(o, err);
	}
}

/* Push the first child of step `parent` after child `after` (MODEL_NONE:
 * from the first) that is on the walk; *pushed whether there was one.
 * The rank of `after` is read once the children are had: getting them
 * may make the rows (bottom-up callers) and so the ranks. */
static enum status push_next_kid(struct outline *o, struct walk *w,
				 struct step parent, uint32_t after,
				 bool *pushed, struct error *err)
{
	struct kids k;
	enum status st = ol_get_kids(o, parent.row, &k, err);
	*pushed = false;
	if (st != STATUS_OK)
		return st;
	/* a kid's rank indexes its parent's kids (ol_get_kids) */
	CHECK(after == MODEL_NONE || (after < o->rank_cap && o->rank[after] < k.n &&
				      k.rows[o->rank[after]] == after));
	uint32_t from = after == MODEL_NONE ? 0 : o->rank[after] + 1;
	for (uint32_t i = from; i < k.n; i++)
		if (on_walk(o, k.rows[i], parent.under)) {
			*pushed = true;
			return walk_push(w, k.rows[i],
					 ol_under_of(o, k.rows[i],
						     parent.under))
				       ? STATUS_OK
				       : ol_nomem(o, err);
		}
	return STATUS_OK;
}

/* Move the walk one row on (pre-order over rows on the walk).  *moved
 * false at the end. */
static enum status walk_next(struct outline *o, struct walk *w, bool *moved,
			     struct error *err)
{
	enum status st;
	bool pushed;
	struct step top = w->s[w->n - 1];
	*moved = true;
	if (ol_bits_get(&o->sbelow, top.row)) {
		st = push_next_kid(o, w, top, MODEL_NONE, &pushed, err);
		if (st != STATUS_OK || pushed)
			return st;
	}
	while (w->n > 1) {
		uint32_t c = w->s[--w->n].row;
		st = push_next_kid(o, w, w->s[w->n - 1], c, &pushed, err);
		if (st != STATUS_OK || pushed)
			return st;
	}
	*moved = false;
	return STATUS_OK;
}

/* Move the walk one row back. */
static enum status walk_prev(struct outline *o, struct walk *w, bool *moved,
			     struct error *err)
{
	struct kids k;
	*moved = w->n > 1;
	if (!*moved)
		return STATUS_OK;
	uint32_t c = w->s[--w->n].row;
	struct step p = w->s[w->n - 1];
	enum status st = ol_get_kids(o, p.row, &k, err);
	if (st != STATUS_OK)
		return st;
	CHECK(c < o->rank_cap && o->rank[c] < k.n && k.rows[o->rank[c]] == c);
	for (uint32_t i = o->rank[c]; i-- > 0;)
		if (on_walk(o, k.rows[i], p.under)) {
			if (!walk_push(w, k.rows[i],
				       ol_under_of(o, k.rows[i], p.under)))
				return ol_nomem(o, err);
			return walk_last(o, w, err);
		}
	return STATUS_OK;
}

/* The walk at its start again: the root going forward, the last row
 * going back. */
static enum status walk_wrap(struct outline *o, struct walk *w, bool forward,
			     struct error *err)
{
	if (!walk_root(o, w))
		return ol_nomem(o, err);
	return forward ? STATUS_OK : walk_last(o, w, err);
}

/* A row the search stops at: it matches and is shown when revealed (a
 * flattened row never is: its children stand in its place). */
static bool search_hit(const struct outline *o, uint32_t row)
{
	return ol_bits_get(&o->smatch, row) && !ol_bits_get(&o->flat, row);
}

enum status outline_search_next(struct outline *o, uint32_t from_node,
				bool forward, uint32_t *match,
				struct error *err)
{
	struct walk w = {0};
	bool found = false, moved = false, wrapped = false;
	if (!o)
		return error_set(err, STATUS_USAGE, NULL, "no outline");
	ol_memo_trim(o);
	enum status st = ol_sync_rows(o, err);
	if (st != STATUS_OK)
		return st;
	if (!o->search.on || o->n_smatch == 0)
		return error_set(err, STATUS_NOT_FOUND, NULL, "no match");
	st = walk_to(o, &w, from_node, &found, err);
	if (st != STATUS_OK)
		goto out;
	if (!found) {
		/* before the first row: the root is the first candidate;
		 * after the last: the last row is */
		wrapped = true;
		if ((st = walk_wrap(o, &w, forward, err)) != STATUS_OK)
			goto out;
		if (search_hit(o, w.s[w.n - 1].row))
			goto hit;
	}
	for (;;) {
		st = forward ? walk_next(o, &w, &moved, err)
			     : walk_prev(o, &w, &moved, err);
		if (st != STATUS_OK)
			goto out;
		if (!moved) {
			if (wrapped)
				break;
			wrapped = true;
			if ((st = walk_wrap(o, &w, forward, err)) != STATUS_OK)
				goto out;
		}
		if (search_hit(o, w.s[w.n - 1].row))
			goto hit;
	}
	st = error_set(err, STATUS_NOT_FOUND, NULL, "no match for %s",
		       o->search.text);
	goto out;
hit:
	*match = w.s[w.n - 1].row;
	st = outline_reveal(o, *match, err);
out:
	free(w.s);
	return st;
}
