/* outline_list: the flattened list of visible rows -- an array of entries
 * carrying depth, guide bits and the last-sibling flag, made by an
 * iterative pre-order walk of the expanded rows (ol_collect) and patched in
 * place when a row expands or collapses (ol_splice); flattened rows give
 * their place to their children.  Must not depend on curses or on ui/;
 * never modifies the view's model. */
#include "config.h"

#include "views/outline_internal.h"

#include "core/array.h"

#include <stdlib.h>
#include <string.h>

static uint64_t child_guides(const struct entry *e)
{
	uint64_t g = e->guides;
	if (e->depth >= 1 && e->depth - 1 < 64 && !e->last)
		g |= 1ull << (e->depth - 1);
	return g;
}

static bool list_add(struct outline *o, struct list *l, struct entry e)
{
	if (!array_grow((void **)&l->e, &l->cap, l->n + 1, sizeof(*l->e)) ||
	    !ol_row_array((void **)&o->pos, &o->pos_cap, e.node,
			  sizeof(*o->pos)))
		return false;
	l->e[l->n++] = e;
	return true;
}

struct frame {
	struct kids k;
	uint32_t i;
	uint32_t last; /* index of the last shown child */
	uint32_t depth;
	uint64_t guides;
	bool under;
	bool tail; /* its last child is the last at its depth (false for the
		      children of a flattened row that has later siblings) */
};

/* Whether to open `row` (its kids into *k): expanded, or in `force` mode
 * any row with children (then expanded, and recorded in `undo`). */
static enum status open_row(struct outline *o, uint32_t row, bool force,
			    struct undo *undo, struct kids *k,
			    struct error *err)
{
	*k = ol_no_kids;
	if (!force && !ol_bits_get(&o->expanded, row))
		return STATUS_OK;
	enum status st = ol_get_kids(o, row, k, err);
	if (st != STATUS_OK || !force || k->n == 0 ||
	    ol_bits_get(&o->expanded, row))
		return st;
	if (!array_grow((void **)&undo->rows, &undo->cap, undo->n + 1,
		  sizeof(*undo->rows)) ||
	    !ol_bits_set(&o->expanded, row))
		return ol_nomem(o, err);
	undo->rows[undo->n++] = row;
	return STATUS_OK;
}

/* Whether child `c` of a row whose ONLY flag is `under` puts a row in the
 * list: it is shown and, when flattened, one of its children does.  The
 * recursion is as deep as a chain of flattened rows (one per flatten). */
static bool emits(struct outline *o, uint32_t c, bool under)
{
	if (!ol_shown(o, c, under))
		return false;
	if (!ol_bits_get(&o->flat, c))
		return true;
	struct kids k;
	struct error err = {0};
	if (ol_get_kids(o, c, &k, &err) != STATUS_OK) {
		error_clear(&err);
		return false;
	}
	bool cu = ol_under_of(o, c, under);
	for (uint32_t i = 0; i < k.n; i++)
		if (emits(o, k.rows[i], cu))
			return true;
	return false;
}

/* The frame of the children `k` of a row, at the depth and with the
 * guides of `place`: a row's children one level below it (push_frame),
 * or the children of a flattened row, a child of frame `place`, in its
 * place (at its depth). */
static enum status push_kids(struct outline *o, struct frame **stack,
			     size_t *sp, size_t *scap, struct kids k,
			     struct frame place, bool under, bool tail,
			     struct error *err)
{
	if (!array_grow((void **)stack, scap, *sp + 1, sizeof(**stack)))
		return ol_nomem(o, err);
	uint32_t last = k.n;
	for (uint32_t i = k.n; i-- > 0;)
		if (o->fn ? emits(o, k.rows[i], under)
			  : ol_shown(o, k.rows[i], under)) {
			last = i;
			break;
		}
	(*stack)[(*sp)++] = (struct frame){
		.k = k,
		.last = last,
		.depth = place.depth,
		.guides = place.guides,
		.under = under,
		.tail = tail,
	};
	return STATUS_OK;
}

static enum status push_frame(struct outline *o, struct frame **stack,
			      size_t *sp, size_t *scap, struct kids k,
			      const struct entry *parent, bool under,
			      struct error *err)
{
	struct frame place = {.depth = parent->depth + 1,
			      .guides = child_guides(parent)};
	return push_kids(o, stack, sp, scap, k, place, under, true, err);
}

/* Append to `l` the visible descendants of the row of entry `top` (whose
 * ONLY flag is `under`), in display order.  In `force` mode every row with
 * children is opened and expanded (expand all).  STATUS_LIMIT when `l`
 * would pass `limit` rows. */
enum status ol_collect(struct outline *o, const struct entry *top,
			   bool under, bool force, struct undo *undo,
			   size_t limit, struct list *l, struct error *err)
{
	struct frame *stack = NULL;
	size_t sp = 0, scap = 0;
	struct kids k;
	enum status st = open_row(o, top->node, force, undo, &k, err);
	if (st != STATUS_OK || k.n == 0)
		goto out;
	st = push_frame(o, &stack, &sp, &scap, k, top, under, err);
	while (st == STATUS_OK && sp) {
		struct frame *f = &stack[sp - 1];
		if (f->i >= f->k.n) {
			sp--;
			continue;
		}
		uint32_t i = f->i++, c = f->k.rows[i];
		if (!ol_shown(o, c, f->under))
			continue;
		bool cu = ol_under_of(o, c, f->under);
		if (ol_bits_get(&o->flat, c)) {
			/* flattened: its children in its place */
			bool tail = i == f->last && f->tail;
			struct frame copy = *f;
			/* (expand all expands it underneath too) */
			st = force ? open_row(o, c, true, undo, &k, err)
				   : ol_get_kids(o, c, &k, err);
			if (st == STATUS_OK && k.n)
				st = push_kids(o, &stack, &sp, &scap, k,
					       copy, cu, tail, err);
			continue;
		}
		struct entry ce = {
			.node = c,
			.depth = f->depth,
			.guides = f->guides,
			.last = i == f->last && f->tail,
		};
		if (l->n >= limit) {
			st = error_set(err, STATUS_LIMIT, model_path(o->m),
				       "expanding would show more than %zu "
				       "rows",
				       limit);
			break;
		}
		if (!list_add(o, l, ce)) {
			st = ol_nomem(o, err);
			break;
		}
		st = open_row(o, c, force, undo, &k, err);
		if (st == STATUS_OK && k.n)
			st = push_frame(o, &stack, &sp, &scap, k, &ce, cu, err);
	}
out:
	free(stack);
	return st;
}

static void update_pos(struct outline *o, size_t from)
{
	for (size_t i = from; i < o->n; i++) {
		CHECK(o->e[i].node < o->pos_cap); /* ol_row_array made it */
		o->pos[o->e[i].node] = (uint32_t)i;
	}
}

/* Replace entries [at, end) by the `l->n` entries of `l`. */
enum status ol_splice(struct outline *o, size_t at, size_t end,
			  const struct list *l, struct error *err)
{
	size_t removed = end - at;
	if (l->n > removed &&
	    !array_grow((void **)&o->e, &o->cap, o->n - removed + l->n,
		  sizeof(*o->e)))
		return ol_nomem(o, err);
	memmove(o->e + at + l->n, o->e + end, (o->n - end) * sizeof(*o->e));
	if (l->n)
		memcpy(o->e + at, l->e, l->n * sizeof(*o->e));
	o->n = o->n - removed + l->n;
	update_pos(o, at);
	return STATUS_OK;
}

size_t ol_subtree_end(const struct outline *o, size_t i)
{
	size_t j = i + 1;
	while (j < o->n && o->e[j].depth > o->e[i].depth)
		j++;
	return j;
}

/* Rebuild the whole list from the zoom root. */
enum status ol_rebuild(struct outline *o, struct error *err)
{
	struct list l = {0};
	struct entry top = {.node = o->root, .last = true};
	enum status st = STATUS_OK;
	if (!list_add(o, &l, top)) {
		st = ol_nomem(o, err);
		goto out;
	}
	st = ol_collect(o, &top, ol_under_row(o, o->root), false, NULL,
			SIZE_MAX, &l, err);
	if (st != STATUS_OK)
		goto out;
	free(o->e);
	o->e = l.e;
	o->n = l.n;
	o->cap = l.cap;
	l.e = NULL;
	o->dirty = false;
	update_pos(o, 0);
out:
	free(l.e);
	return st;
}

/* The end of a call that may have made new rows visible to an ONLY
 * filter (bottom-up rows computed on the way). */
enum status ol_settle(struct outline *o, enum status st,
			  struct error *err)
{
	if (st == STATUS_OK && o->dirty)
		st = ol_rebuild(o, err);
	return st;
}
