/* outline_kids: the sorted children of an outline's rows.  They are
 * cached in a hash table keyed by row id (open addressing, backward-shift
 * deletion), so that a sort change re-sorts only what is expanded, and
 * dropped for rows that are not expanded when the table holds more than
 * MEMO_BUDGET ids; beside them, per row, the index among its parent's
 * sorted children and (bottom-up and flat) whether it has any.  Also the
 * per-row bitsets and arrays the other outline files use.  Depends only on
 * the view and core/array; must not depend on curses or on ui/. */
#include "config.h"

#include "views/outline_internal.h"

#include "core/array.h"

#include <stdlib.h>
#include <string.h>

/* Sorted children kept for rows that are not expanded (collapsed rows,
 * search steps, the has_children answer) are dropped beyond this many
 * child ids. */
#define MEMO_BUDGET (1u << 22)

const struct kids ol_no_kids = {.row = MODEL_NONE};

/* ---- small containers -------------------------------------------------- */

bool ol_bits_set(struct bits *s, uint32_t i)
{
	size_t need = (size_t)(i >> 3) + 1;
	if (need > s->cap) {
		size_t old = s->cap;
		if (!array_grow((void **)&s->b, &s->cap, need, 1))
			return false;
		memset(s->b + old, 0, s->cap - old);
	}
	s->b[i >> 3] |= (uint8_t)(1u << (i & 7));
	return true;
}

void ol_bits_free(struct bits *s)
{
	free(s->b);
	*s = (struct bits){0};
}

/* Grow a per-row array of `size`-byte elements, new bytes zeroed. */
bool ol_row_array(void **p, size_t *cap, uint32_t row, size_t size)
{
	size_t old = *cap;
	if ((size_t)row < old)
		return true;
	if (!array_grow(p, cap, (size_t)row + 1, size))
		return false;
	memset((char *)*p + old * size, 0, (*cap - old) * size);
	return true;
}

/* ---- the sorted-children table ----------------------------------------- */

static uint32_t slot_of(const struct kid_table *t, uint32_t row)
{
	uint32_t i = (row * 2654435761u) & (t->cap - 1);
	while (t->slot[i].row != MODEL_NONE && t->slot[i].row != row)
		i = (i + 1) & (t->cap - 1);
	return i;
}

const struct kids *ol_kt_find(const struct kid_table *t, uint32_t row)
{
	if (!t->cap)
		return NULL;
	const struct kids *k = &t->slot[slot_of(t, row)];
	return k->row == row ? k : NULL;
}

static bool kt_resize(struct kid_table *t, uint32_t ncap)
{
	struct kids *ns = malloc((size_t)ncap * sizeof(*ns));
	if (!ns)
		return false;
	for (uint32_t i = 0; i < ncap; i++)
		ns[i] = ol_no_kids;
	struct kid_table nt = {.slot = ns, .cap = ncap};
	for (uint32_t i = 0; i < t->cap; i++)
		if (t->slot[i].row != MODEL_NONE)
			nt.slot[slot_of(&nt, t->slot[i].row)] = t->slot[i];
	free(t->slot);
	t->slot = ns;
	t->cap = ncap;
	return true;
}

/* Takes ownership of `rows` on success. */
static bool kt_add(struct kid_table *t, uint32_t row, uint32_t *rows,
		   uint32_t n)
{
	if (((uint64_t)t->used + 1) * 2 > t->cap &&
	    (t->cap > UINT32_MAX / 4 || !kt_resize(t, t->cap ? t->cap * 2 : 64)))
		return false;
	t->slot[slot_of(t, row)] = (struct kids){.row = row, .n = n, .rows = rows};
	t->used++;
	t->total += n;
	return true;
}

void ol_kt_remove(struct kid_table *t, uint32_t row)
{
	if (!t->cap)
		return;
	uint32_t mask = t->cap - 1, i = slot_of(t, row);
	if (t->slot[i].row != row)
		return;
	free(t->slot[i].rows);
	t->total -= t->slot[i].n;
	t->used--;
	t->slot[i] = ol_no_kids;
	/* backward-shift deletion keeps every probe chain unbroken */
	for (uint32_t j = (i + 1) & mask; t->slot[j].row != MODEL_NONE;
	     j = (j + 1) & mask) {
		uint32_t home = (t->slot[j].row * 2654435761u) & mask;
		bool stays = i <= j ? (home > i && home <= j)
				    : (home > i || home <= j);
		if (stays)
			continue;
		t->slot[i] = t->slot[j];
		t->slot[j] = ol_no_kids;
		i = j;
	}
}

void ol_kt_clear(struct kid_table *t)
{
	for (uint32_t i = 0; i < t->cap; i++)
		free(t->slot[i].rows);
	free(t->slot);
	*t = (struct kid_table){0};
}

/* Drop the children kept for rows that are not expanded when they hold
 * more than MEMO_BUDGET ids.  Only at the start of a public call, so that
 * no walk holds a pointer into what is dropped. */
void ol_memo_trim(struct outline *o)
{
	struct kid_table *t = &o->kt;
	if (t->total <= MEMO_BUDGET)
		return;
	for (uint32_t i = 0; i < t->cap;) {
		uint32_t r = t->slot[i].row;
		if (r != MODEL_NONE && !ol_bits_get(&o->expanded, r) &&
		    !ol_bits_get(&o->flat, r))
			ol_kt_remove(t, r); /* may shift a later entry into i */
		else
			i++;
	}
}

/* ---- children ---------------------------------------------------------- */

enum status ol_nomem(const struct outline *o, struct error *err)
{
	return error_set(err, STATUS_NOMEM, model_path(o->m), "out of memory");
}

/* The sorted children of `row` (kept in the table when there are any).
 * The array stays valid until the sort changes or, for a row that is not
 * expanded, the next ol_memo_trim. */
enum status ol_get_kids(struct outline *o, uint32_t row,
			    struct kids *out, struct error *err)
{
	const struct kids *k = ol_kt_find(&o->kt, row);
	if (k) {
		*out = *k;
		return STATUS_OK;
	}
	*out = ol_no_kids;
	out->row = row;
	if (o->top_down && !model_node_has_children(o->m, row))
		return STATUS_OK;
	uint32_t *rows = NULL;
	size_t n = 0;
	bool keyed = o->key.value != NULL;
	enum status st = view_children(o->v, row, keyed ? MODEL_NONE : o->col,
				       keyed ? false : o->asc, &rows, &n, err);
	if (st != STATUS_OK)
		return st;
	if (keyed && n > 1) {
		st = ol_key_sort(o, row, rows, n, err);
		if (st != STATUS_OK)
			goto fail;
	}
	st = ol_sync_rows(o, err);
	if (st != STATUS_OK)
		goto fail;
	if (!o->top_down) {
		if (!ol_row_array((void **)&o->haskids, &o->haskids_cap, row,
				  1))
			goto nomem;
		o->haskids[row] = n ? 2 : 1;
	}
	if (n == 0)
		return STATUS_OK;
	if (n > UINT32_MAX)
		goto nomem;
	uint32_t hi = 0;
	for (size_t i = 0; i < n; i++)
		hi = rows[i] > hi ? rows[i] : hi;
	if (!ol_row_array((void **)&o->rank, &o->rank_cap, hi,
			  sizeof(*o->rank)))
		goto nomem;
	for (size_t i = 0; i < n; i++)
		o->rank[rows[i]] = (uint32_t)i;
	if (!kt_add(&o->kt, row, rows, (uint32_t)n))
		goto nomem;
	*out = (struct kids){.row = row, .n = (uint32_t)n, .rows = rows};
	return STATUS_OK;
nomem:
	st = ol_nomem(o, err);
fail:
	free(rows);
	return st;
}

bool ol_has_kids(struct outline *o, uint32_t row)
{
	if (o->top_down)
		return model_node_has_children(o->m, row);
	if (row < o->haskids_cap && o->haskids[row])
		return o->haskids[row] == 2;
	struct kids k;
	struct error err = {0};
	enum status st = ol_get_kids(o, row, &k, &err);
	error_clear(&err);
	return st != STATUS_OK || k.n > 0; /* unknown: offer to expand */
}
