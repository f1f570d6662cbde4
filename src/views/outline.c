/* outline: the state of a tree pane over a view (expanded set, sort, zoom
 * stack, search, filter) and its flattened list of visible rows.  The list
 * is an array of entries carrying depth, guide bits and the last-sibling
 * flag, patched in place when a row expands or collapses; the sorted
 * children of expanded rows are cached in a hash table keyed by row id, so
 * that a sort change re-sorts only what is expanded.  Search and filter
 * patterns are matched once over the view's rows into bitsets, and each
 * match marks its ancestors, so that a search step walks only the subtrees
 * that hold matches.  Everything is iterative (trees can be 100,000 deep).
 * Must not depend on curses or on ui/; never modifies the view's model. */
#include "config.h"

#include "views/outline.h"

#include "core/array.h"

#include <ctype.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* Sorted children kept for rows that are not expanded (collapsed rows,
 * search steps, the has_children answer) are dropped beyond this many
 * child ids. */
#define MEMO_BUDGET (1u << 22)

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

/* One step of a search walk: a row and whether it or an ancestor matches
 * the OUTLINE_FILTER_ONLY pattern. */
struct step {
	uint32_t row;
	bool under;
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

static const struct kids no_kids = {.row = MODEL_NONE};

/* ---- small containers ------------------------------------------------- */

static bool bits_get(const struct bits *s, uint32_t i)
{
	return (size_t)(i >> 3) < s->cap && (s->b[i >> 3] >> (i & 7) & 1);
}

static bool bits_set(struct bits *s, uint32_t i)
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

static void bits_clear(struct bits *s, uint32_t i)
{
	if ((size_t)(i >> 3) < s->cap)
		s->b[i >> 3] &= (uint8_t)~(1u << (i & 7));
}

static void bits_free(struct bits *s)
{
	free(s->b);
	*s = (struct bits){0};
}

/* Grow a per-row array of `size`-byte elements, new bytes zeroed. */
static bool row_array(void **p, size_t *cap, uint32_t row, size_t size)
{
	size_t old = *cap;
	if ((size_t)row < old)
		return true;
	if (!array_grow(p, cap, (size_t)row + 1, size))
		return false;
	memset((char *)*p + old * size, 0, (*cap - old) * size);
	return true;
}

/* ---- the sorted-children table ---------------------------------------- */

static uint32_t slot_of(const struct kid_table *t, uint32_t row)
{
	uint32_t i = (row * 2654435761u) & (t->cap - 1);
	while (t->slot[i].row != MODEL_NONE && t->slot[i].row != row)
		i = (i + 1) & (t->cap - 1);
	return i;
}

static const struct kids *kt_find(const struct kid_table *t, uint32_t row)
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
		ns[i] = no_kids;
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

static void kt_remove(struct kid_table *t, uint32_t row)
{
	if (!t->cap)
		return;
	uint32_t mask = t->cap - 1, i = slot_of(t, row);
	if (t->slot[i].row != row)
		return;
	free(t->slot[i].rows);
	t->total -= t->slot[i].n;
	t->used--;
	t->slot[i] = no_kids;
	/* backward-shift deletion keeps every probe chain unbroken */
	for (uint32_t j = (i + 1) & mask; t->slot[j].row != MODEL_NONE;
	     j = (j + 1) & mask) {
		uint32_t home = (t->slot[j].row * 2654435761u) & mask;
		bool stays = i <= j ? (home > i && home <= j)
				    : (home > i || home <= j);
		if (stays)
			continue;
		t->slot[i] = t->slot[j];
		t->slot[j] = no_kids;
		i = j;
	}
}

static void kt_clear(struct kid_table *t)
{
	for (uint32_t i = 0; i < t->cap; i++)
		free(t->slot[i].rows);
	free(t->slot);
	*t = (struct kid_table){0};
}

/* Drop the children kept for rows that are not expanded when they hold
 * more than MEMO_BUDGET ids.  Only at the start of a public call, so that
 * no walk holds a pointer into what is dropped. */
static void memo_trim(struct outline *o)
{
	struct kid_table *t = &o->kt;
	if (t->total <= MEMO_BUDGET)
		return;
	for (uint32_t i = 0; i < t->cap;) {
		uint32_t r = t->slot[i].row;
		if (r != MODEL_NONE && !bits_get(&o->expanded, r) &&
		    !bits_get(&o->flat, r))
			kt_remove(t, r); /* may shift a later entry into i */
		else
			i++;
	}
}

/* ---- patterns --------------------------------------------------------- */

static void pattern_free(struct pattern *p)
{
	if (p->on)
		regfree(&p->re);
	free(p->text);
	*p = (struct pattern){0};
}

/* Compile `text` into *p (which must be off).  Smart case. */
static enum status pattern_compile(struct outline *o, struct pattern *p,
				   const char *text, struct error *err)
{
	size_t len = strlen(text);
	if (len > OUTLINE_MAX_PATTERN)
		return error_set(err, STATUS_LIMIT, NULL,
				 "pattern longer than %u bytes",
				 OUTLINE_MAX_PATTERN);
	int flags = REG_EXTENDED | REG_NOSUB | REG_ICASE;
	for (size_t i = 0; i < len; i++)
		if (isupper((unsigned char)text[i]))
			flags &= ~REG_ICASE;
	p->text = strdup(text);
	if (!p->text)
		return error_set(err, STATUS_NOMEM, o->m->path, "out of memory");
	int rc = regcomp(&p->re, text, flags);
	if (rc != 0) {
		size_t need = regerror(rc, &p->re, NULL, 0);
		char *msg = malloc(need ? need : 1);
		if (msg)
			regerror(rc, &p->re, msg, need);
		error_set(err, STATUS_USAGE, NULL, "bad pattern: %s",
			  msg ? msg : "invalid regular expression");
		free(msg);
		free(p->text);
		p->text = NULL;
		return STATUS_USAGE;
	}
	p->on = true;
	return STATUS_OK;
}

static uint32_t parent_of(const struct outline *o, uint32_t row)
{
	struct view_node vn;
	return view_node_get(o->v, row, &vn) ? vn.parent : MODEL_NONE;
}

/* Bound for walks up the tree: a view is never deeper than the model plus
 * its grouping levels. */
static uint64_t depth_cap(const struct outline *o)
{
	return (uint64_t)o->m->max_depth + 16;
}

/* Set `b` on `row` and its ancestors, stopping at one already set. */
static bool mark_up(const struct outline *o, struct bits *b, uint32_t row)
{
	uint64_t steps = 0;
	for (uint32_t r = row; r != MODEL_NONE && !bits_get(b, r) &&
			       steps++ <= depth_cap(o);
	     r = parent_of(o, r))
		if (!bits_set(b, r))
			return false;
	return true;
}

/* Match `row` against the patterns selected by `search` / `filter`. */
static enum status match_row(struct outline *o, uint32_t row, bool search,
			     bool filter, struct error *err)
{
	char *label = view_node_label(o->v, row);
	enum status st = STATUS_OK;
	if (!label)
		return error_set(err, STATUS_NOMEM, o->m->path,
				 "out of memory");
	if (search && regexec(&o->search.re, label, 0, NULL, 0) == 0) {
		if (!bits_set(&o->smatch, row) ||
		    !mark_up(o, &o->sbelow, row))
			goto nomem;
		o->n_smatch++;
	}
	if (filter && regexec(&o->filter.re, label, 0, NULL, 0) == 0) {
		if (!bits_set(&o->fmatch, row) ||
		    !mark_up(o, &o->fbelow, row))
			goto nomem;
	}
	goto out;
nomem:
	st = error_set(err, STATUS_NOMEM, o->m->path, "out of memory");
out:
	free(label);
	return st;
}

/* The number of rows the view has now (bottom-up grows as callers are
 * computed; rows are numbered densely). */
static uint32_t view_rows(struct outline *o)
{
	struct view_node vn;
	if (o->top_down)
		return o->m->n_nodes;
	while (o->rows_known < UINT32_MAX &&
	       view_node_get(o->v, o->rows_known, &vn))
		o->rows_known++;
	return o->rows_known;
}

/* Match the active patterns on rows the view made since the last call. */
static enum status sync_rows(struct outline *o, struct error *err)
{
	if (!o->search.on && !o->filter.on)
		return STATUS_OK;
	uint32_t n = view_rows(o);
	for (; o->scanned < n; o->scanned++) {
		bool before = o->filter.on && bits_get(&o->fbelow, o->scanned);
		enum status st = match_row(o, o->scanned, o->search.on,
					   o->filter.on, err);
		if (st != STATUS_OK)
			return st;
		if (o->fmode == OUTLINE_FILTER_ONLY && !before &&
		    bits_get(&o->fbelow, o->scanned))
			o->dirty = true;
	}
	return STATUS_OK;
}

/* ---- children ---------------------------------------------------------- */

static enum status nomem(const struct outline *o, struct error *err)
{
	return error_set(err, STATUS_NOMEM, o->m->path, "out of memory");
}

/* One child and its key, for key_sort. */
struct keyed {
	double v;
	uint32_t row, index;
	bool has;
};

/* By v ascending (key_sort negates it for a descending sort), rows
 * without a key last, then by label (index). */
static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->has != y->has)
		return x->has ? -1 : 1;
	if (x->has && x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static bool is_waiting(const struct outline *o, uint32_t row)
{
	for (size_t i = 0; i < o->n_waiting; i++)
		if (o->waiting[i] == row)
			return true;
	return false;
}

/* Order `rows` (the children of `row`, by label) by the sort key; when a
 * child's key is still pending, leave them by label and note `row` as
 * waiting (outline_sort_waiting, outline_sort_retry). */
static enum status key_sort(struct outline *o, uint32_t row, uint32_t *rows,
			    size_t n, struct error *err)
{
	struct keyed *t = malloc(n * sizeof(*t));
	bool pending = false;
	if (!t)
		return nomem(o, err);
	/* every child is asked, also after a pending one (asking may
	 * hurry the pending ones) */
	for (size_t i = 0; i < n; i++) {
		double v = 0;
		enum outline_key_state ks =
			o->key.value(o->key.ctx, rows[i], &v);
		pending |= ks == OUTLINE_KEY_PENDING;
		t[i] = (struct keyed){o->asc ? v : -v, rows[i], (uint32_t)i,
				      ks == OUTLINE_KEY_VALUE && !isnan(v)};
	}
	if (pending) {
		free(t);
		if (is_waiting(o, row))
			return STATUS_OK;
		if (!array_grow((void **)&o->waiting, &o->waiting_cap,
				o->n_waiting + 1, sizeof(*o->waiting)))
			return nomem(o, err);
		o->waiting[o->n_waiting++] = row;
		return STATUS_OK;
	}
	qsort(t, n, sizeof(*t), cmp_keyed);
	for (size_t i = 0; i < n; i++)
		rows[i] = t[i].row;
	free(t);
	return STATUS_OK;
}

/* The sorted children of `row` (kept in the table when there are any).
 * The array stays valid until the sort changes or, for a row that is not
 * expanded, the next memo_trim. */
static enum status get_kids(struct outline *o, uint32_t row,
			    struct kids *out, struct error *err)
{
	const struct kids *k = kt_find(&o->kt, row);
	if (k) {
		*out = *k;
		return STATUS_OK;
	}
	*out = no_kids;
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
		st = key_sort(o, row, rows, n, err);
		if (st != STATUS_OK)
			goto fail;
	}
	st = sync_rows(o, err);
	if (st != STATUS_OK)
		goto fail;
	if (!o->top_down) {
		if (!row_array((void **)&o->haskids, &o->haskids_cap, row, 1))
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
	if (!row_array((void **)&o->rank, &o->rank_cap, hi, sizeof(*o->rank)))
		goto nomem;
	for (size_t i = 0; i < n; i++)
		o->rank[rows[i]] = (uint32_t)i;
	if (!kt_add(&o->kt, row, rows, (uint32_t)n))
		goto nomem;
	*out = (struct kids){.row = row, .n = (uint32_t)n, .rows = rows};
	return STATUS_OK;
nomem:
	st = nomem(o, err);
fail:
	free(rows);
	return st;
}

static bool has_kids(struct outline *o, uint32_t row)
{
	if (o->top_down)
		return model_node_has_children(o->m, row);
	if (row < o->haskids_cap && o->haskids[row])
		return o->haskids[row] == 2;
	struct kids k;
	struct error err = {0};
	enum status st = get_kids(o, row, &k, &err);
	error_clear(&err);
	return st != STATUS_OK || k.n > 0; /* unknown: offer to expand */
}

/* ---- filter ------------------------------------------------------------ */

/* Whether child `c` of a row whose OUTLINE_FILTER_ONLY flag is `under` is
 * shown. */
static bool shown(const struct outline *o, uint32_t c, bool under)
{
	switch (o->fmode) {
	case OUTLINE_FILTER_OFF:
		return true;
	case OUTLINE_FILTER_HIDE:
		return !bits_get(&o->fmatch, c);
	case OUTLINE_FILTER_ONLY:
		return under || bits_get(&o->fbelow, c);
	}
	return true;
}

/* The "under a match" flag of `c` given its parent's. */
static bool under_of(const struct outline *o, uint32_t c, bool under)
{
	return under || (o->fmode == OUTLINE_FILTER_ONLY &&
			 bits_get(&o->fmatch, c));
}

/* Whether `row` or one of its ancestors matches an ONLY filter. */
static bool under_row(const struct outline *o, uint32_t row)
{
	if (o->fmode != OUTLINE_FILTER_ONLY)
		return false;
	uint64_t steps = 0;
	for (uint32_t r = row; r != MODEL_NONE && steps++ <= depth_cap(o);
	     r = parent_of(o, r))
		if (bits_get(&o->fmatch, r))
			return true;
	return false;
}

/* ---- the visible list --------------------------------------------------- */

static uint64_t child_guides(const struct entry *e)
{
	uint64_t g = e->guides;
	if (e->depth >= 1 && e->depth - 1 < 64 && !e->last)
		g |= 1ull << (e->depth - 1);
	return g;
}

struct list {
	struct entry *e;
	size_t n, cap;
};

static bool list_add(struct outline *o, struct list *l, struct entry e)
{
	if (!array_grow((void **)&l->e, &l->cap, l->n + 1, sizeof(*l->e)) ||
	    !row_array((void **)&o->pos, &o->pos_cap, e.node, sizeof(*o->pos)))
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

/* Rows expanded by a collect in `force` mode, for undoing it. */
struct undo {
	uint32_t *rows;
	size_t n, cap;
};

/* Whether to open `row` (its kids into *k): expanded, or in `force` mode
 * any row with children (then expanded, and recorded in `undo`). */
static enum status open_row(struct outline *o, uint32_t row, bool force,
			    struct undo *undo, struct kids *k,
			    struct error *err)
{
	*k = no_kids;
	if (!force && !bits_get(&o->expanded, row))
		return STATUS_OK;
	enum status st = get_kids(o, row, k, err);
	if (st != STATUS_OK || !force || k->n == 0 ||
	    bits_get(&o->expanded, row))
		return st;
	if (!array_grow((void **)&undo->rows, &undo->cap, undo->n + 1,
		  sizeof(*undo->rows)) ||
	    !bits_set(&o->expanded, row))
		return nomem(o, err);
	undo->rows[undo->n++] = row;
	return STATUS_OK;
}

/* Whether child `c` of a row whose ONLY flag is `under` puts a row in the
 * list: it is shown and, when flattened, one of its children does.  The
 * recursion is as deep as a chain of flattened rows (one per flatten). */
static bool emits(struct outline *o, uint32_t c, bool under)
{
	if (!shown(o, c, under))
		return false;
	if (!bits_get(&o->flat, c))
		return true;
	struct kids k;
	struct error err = {0};
	if (get_kids(o, c, &k, &err) != STATUS_OK) {
		error_clear(&err);
		return false;
	}
	bool cu = under_of(o, c, under);
	for (uint32_t i = 0; i < k.n; i++)
		if (emits(o, k.rows[i], cu))
			return true;
	return false;
}

static enum status push_frame(struct outline *o, struct frame **stack,
			      size_t *sp, size_t *scap, struct kids k,
			      const struct entry *parent, bool under,
			      struct error *err)
{
	if (!array_grow((void **)stack, scap, *sp + 1, sizeof(**stack)))
		return nomem(o, err);
	uint32_t last = k.n;
	for (uint32_t i = k.n; i-- > 0;)
		if (o->fn ? emits(o, k.rows[i], under)
			  : shown(o, k.rows[i], under)) {
			last = i;
			break;
		}
	(*stack)[(*sp)++] = (struct frame){
		.k = k,
		.last = last,
		.depth = parent->depth + 1,
		.guides = child_guides(parent),
		.under = under,
		.tail = true,
	};
	return STATUS_OK;
}

/* The frame of the children of flattened row `k.row`, a child of frame
 * `f`: they take its place, at its depth. */
static enum status push_flat_frame(struct outline *o, struct frame **stack,
				   size_t *sp, size_t *scap, struct kids k,
				   struct frame f, bool under, bool tail,
				   struct error *err)
{
	if (!array_grow((void **)stack, scap, *sp + 1, sizeof(**stack)))
		return nomem(o, err);
	uint32_t last = k.n;
	for (uint32_t i = k.n; i-- > 0;)
		if (o->fn ? emits(o, k.rows[i], under)
			  : shown(o, k.rows[i], under)) {
			last = i;
			break;
		}
	(*stack)[(*sp)++] = (struct frame){
		.k = k,
		.last = last,
		.depth = f.depth,
		.guides = f.guides,
		.under = under,
		.tail = tail,
	};
	return STATUS_OK;
}

/* Append to `l` the visible descendants of the row of entry `top` (whose
 * ONLY flag is `under`), in display order.  In `force` mode every row with
 * children is opened and expanded (expand all).  STATUS_LIMIT when `l`
 * would pass `limit` rows. */
static enum status collect(struct outline *o, const struct entry *top,
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
		if (!shown(o, c, f->under))
			continue;
		bool cu = under_of(o, c, f->under);
		if (bits_get(&o->flat, c)) {
			/* flattened: its children in its place */
			bool tail = i == f->last && f->tail;
			struct frame copy = *f;
			/* (expand all expands it underneath too) */
			st = force ? open_row(o, c, true, undo, &k, err)
				   : get_kids(o, c, &k, err);
			if (st == STATUS_OK && k.n)
				st = push_flat_frame(o, &stack, &sp, &scap, k,
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
			st = error_set(err, STATUS_LIMIT, o->m->path,
				       "expanding would show more than %zu "
				       "rows",
				       limit);
			break;
		}
		if (!list_add(o, l, ce)) {
			st = nomem(o, err);
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
	for (size_t i = from; i < o->n; i++)
		o->pos[o->e[i].node] = (uint32_t)i;
}

/* Replace entries [at, end) by the `l->n` entries of `l`. */
static enum status splice(struct outline *o, size_t at, size_t end,
			  const struct list *l, struct error *err)
{
	size_t removed = end - at;
	if (l->n > removed &&
	    !array_grow((void **)&o->e, &o->cap, o->n - removed + l->n,
		  sizeof(*o->e)))
		return nomem(o, err);
	memmove(o->e + at + l->n, o->e + end, (o->n - end) * sizeof(*o->e));
	if (l->n)
		memcpy(o->e + at, l->e, l->n * sizeof(*o->e));
	o->n = o->n - removed + l->n;
	update_pos(o, at);
	return STATUS_OK;
}

static size_t subtree_end(const struct outline *o, size_t i)
{
	size_t j = i + 1;
	while (j < o->n && o->e[j].depth > o->e[i].depth)
		j++;
	return j;
}

/* Rebuild the whole list from the zoom root. */
static enum status rebuild(struct outline *o, struct error *err)
{
	struct list l = {0};
	struct entry top = {.node = o->root, .last = true};
	enum status st = STATUS_OK;
	if (!list_add(o, &l, top)) {
		st = nomem(o, err);
		goto out;
	}
	st = collect(o, &top, under_row(o, o->root), false, NULL, SIZE_MAX,
		     &l, err);
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
static enum status settle(struct outline *o, enum status st,
			  struct error *err)
{
	if (st == STATUS_OK && o->dirty)
		st = rebuild(o, err);
	return st;
}

/* ---- public: construction and access ------------------------------------ */

static enum status check_row(const struct outline *o, uint32_t node,
			     struct error *err)
{
	struct view_node vn;
	if (!view_node_get(o->v, node, &vn))
		return error_set(err, STATUS_USAGE, o->m->path,
				 "no row %u in the %s view", (unsigned)node,
				 view_kind_name(view_kind_of(o->v)));
	return STATUS_OK;
}

enum status outline_new(struct view *v, uint32_t sort_column, bool ascending,
			struct outline **out, struct error *err)
{
	struct outline *o = NULL;
	enum status st = STATUS_OK;
	*out = NULL;
	if (!v)
		return error_set(err, STATUS_USAGE, NULL, "no view");
	const struct model *m = view_model(v);
	if (sort_column != MODEL_NONE && sort_column >= m->n_columns)
		return error_set(err, STATUS_USAGE, m->path, "no column %u",
				 (unsigned)sort_column);
	o = calloc(1, sizeof(*o));
	if (!o)
		return error_set(err, STATUS_NOMEM, m->path, "out of memory");
	*o = (struct outline){
		.v = v,
		.m = m,
		.top_down = view_kind_of(v) == VIEW_TOP_DOWN,
		.col = sort_column,
		.asc = ascending,
		.max_rows = OUTLINE_MAX_ROWS,
		.root = view_root(v),
	};
	struct kids k;
	st = get_kids(o, o->root, &k, err);
	if (st != STATUS_OK)
		goto out;
	if (k.n && !bits_set(&o->expanded, o->root)) {
		st = nomem(o, err);
		goto out;
	}
	st = rebuild(o, err);
	if (st != STATUS_OK)
		goto out;
	*out = o;
	o = NULL;
out:
	outline_free(o);
	return st;
}

void outline_free(struct outline *o)
{
	if (!o)
		return;
	kt_clear(&o->kt);
	bits_free(&o->expanded);
	bits_free(&o->flat);
	free(o->fstack);
	bits_free(&o->smatch);
	bits_free(&o->sbelow);
	bits_free(&o->fmatch);
	bits_free(&o->fbelow);
	pattern_free(&o->search);
	pattern_free(&o->filter);
	free(o->haskids);
	free(o->rank);
	free(o->waiting);
	free(o->pos);
	free(o->e);
	free(o->zstack);
	free(o);
}

struct view *outline_view(const struct outline *o)
{
	return o->v;
}

size_t outline_count(const struct outline *o)
{
	return o ? o->n : 0;
}

void outline_set_max_rows(struct outline *o, size_t max_rows)
{
	o->max_rows = max_rows ? max_rows : OUTLINE_MAX_ROWS;
}

bool outline_row_get(struct outline *o, size_t index,
		     struct outline_row *out)
{
	if (!o || index >= o->n)
		return false;
	memo_trim(o);
	const struct entry *e = &o->e[index];
	struct error err = {0};
	if (o->scanned <= e->node)
		sync_rows(o, &err);
	error_clear(&err);
	uint32_t node = o->e[index].node;
	*out = (struct outline_row){
		.node = node,
		.depth = e->depth,
		.expanded = bits_get(&o->expanded, node),
		.last_sibling = e->last,
		.guides = e->guides,
		.match = bits_get(&o->smatch, node),
	};
	out->has_children = has_kids(o, node);
	return true;
}

size_t outline_find(const struct outline *o, uint32_t node)
{
	if (!o || node >= o->pos_cap)
		return OUTLINE_NONE;
	size_t i = o->pos[node];
	return i < o->n && o->e[i].node == node ? i : OUTLINE_NONE;
}

static bool inside(const struct outline *o, uint32_t node, uint32_t root)
{
	uint64_t steps = 0;
	for (uint32_t r = node; r != MODEL_NONE && steps++ <= depth_cap(o);
	     r = parent_of(o, r))
		if (r == root)
			return true;
	return false;
}

/* ---- public: expand and collapse ---------------------------------------- */

enum status outline_expand(struct outline *o, uint32_t node,
			   struct error *err)
{
	struct list l = {0};
	struct kids k;
	enum status st = check_row(o, node, err);
	if (st != STATUS_OK || bits_get(&o->expanded, node))
		return st;
	st = get_kids(o, node, &k, err);
	if (st != STATUS_OK || k.n == 0)
		goto out;
	if (!bits_set(&o->expanded, node)) {
		st = nomem(o, err);
		goto out;
	}
	size_t i = outline_find(o, node);
	if (i == OUTLINE_NONE)
		goto out;
	st = collect(o, &o->e[i], under_row(o, node), false, NULL, SIZE_MAX,
		     &l, err);
	if (st == STATUS_OK)
		st = splice(o, i + 1, i + 1, &l, err);
	if (st != STATUS_OK)
		bits_clear(&o->expanded, node);
out:
	free(l.e);
	return settle(o, st, err);
}

void outline_collapse(struct outline *o, uint32_t node)
{
	if (!o || !bits_get(&o->expanded, node))
		return;
	bits_clear(&o->expanded, node);
	/* its sorted children stay, unpinned, for a quick re-expand */
	size_t i = outline_find(o, node);
	if (i == OUTLINE_NONE)
		return;
	struct list none = {0};
	splice(o, i + 1, subtree_end(o, i), &none, NULL);
}

enum status outline_expand_all(struct outline *o, uint32_t node,
			       struct error *err)
{
	struct list l = {0};
	struct undo undo = {0};
	enum status st = check_row(o, node, err);
	if (st != STATUS_OK)
		return st;
	size_t i = outline_find(o, node), end = i, limit = o->max_rows;
	struct entry top = {.node = node, .last = true};
	if (i != OUTLINE_NONE) {
		end = subtree_end(o, i);
		top = o->e[i];
		size_t others = o->n - (end - i - 1);
		limit = others >= o->max_rows ? 0 : o->max_rows - others;
	}
	st = collect(o, &top, under_row(o, node), true, &undo, limit, &l,
		     err);
	if (st == STATUS_OK && i != OUTLINE_NONE)
		st = splice(o, i + 1, end, &l, err);
	else if (st == STATUS_OK && (inside(o, o->root, node) || o->fn))
		st = rebuild(o, err); /* an ancestor of the zoom root, or
					 a flattened row */
	if (st != STATUS_OK)
		for (size_t u = 0; u < undo.n; u++) {
			bits_clear(&o->expanded, undo.rows[u]);
			kt_remove(&o->kt, undo.rows[u]);
		}
	free(undo.rows);
	free(l.e);
	return settle(o, st, err);
}

void outline_collapse_all(struct outline *o, uint32_t node)
{
	uint32_t *stack = NULL;
	size_t sp = 0, scap = 0;
	if (!o || !bits_get(&o->expanded, node))
		return;
	size_t i = outline_find(o, node);
	if (!array_grow((void **)&stack, &scap, 1, sizeof(*stack)))
		goto out;
	stack[sp++] = node;
	while (sp) {
		uint32_t r = stack[--sp];
		if (!bits_get(&o->expanded, r))
			continue;
		bits_clear(&o->expanded, r);
		const struct kids *k = kt_find(&o->kt, r);
		uint32_t *rows = k ? k->rows : NULL;
		size_t n = k ? k->n : 0;
		bool owned = false;
		if (!k) {
			struct error err = {0};
			if (view_children(o->v, r, MODEL_NONE, false, &rows, &n,
					  &err) != STATUS_OK)
				n = 0;
			error_clear(&err);
			owned = true;
		}
		if (array_grow((void **)&stack, &scap, sp + n, sizeof(*stack))) {
			memcpy(stack + sp, rows, n * sizeof(*rows));
			sp += n;
		}
		if (owned)
			free(rows);
	}
	if (i != OUTLINE_NONE) {
		struct list none = {0};
		splice(o, i + 1, subtree_end(o, i), &none, NULL);
	} else if (inside(o, o->root, node) || o->fn) {
		rebuild(o, NULL); /* an ancestor of the zoom root, or a
				     flattened row */
	}
out:
	free(stack);
}

/* ---- public: sort and zoom --------------------------------------------- */

/* Sort by `column` or `key` (one of them set): the cached children
 * dropped and the rows made again; on failure the old order is back. */
static enum status resort(struct outline *o, uint32_t column,
			  const struct outline_sort_key *key, bool ascending,
			  struct error *err)
{
	uint32_t old_col = o->col;
	bool old_asc = o->asc;
	struct outline_sort_key old_key = o->key;
	kt_clear(&o->kt);
	o->n_waiting = 0;
	o->col = column;
	o->asc = ascending;
	o->key = key ? *key : (struct outline_sort_key){0};
	enum status st = rebuild(o, err);
	if (st != STATUS_OK) {
		kt_clear(&o->kt);
		o->n_waiting = 0;
		o->col = old_col;
		o->asc = old_asc;
		o->key = old_key;
	}
	return st;
}

enum status outline_set_sort(struct outline *o, uint32_t column,
			     bool ascending, struct error *err)
{
	if (!o)
		return error_set(err, STATUS_USAGE, NULL, "no outline");
	if (column != MODEL_NONE && column >= o->m->n_columns)
		return error_set(err, STATUS_USAGE, o->m->path, "no column %u",
				 (unsigned)column);
	return resort(o, column, NULL, ascending, err);
}

enum status outline_set_sort_key(struct outline *o,
				 const struct outline_sort_key *key,
				 bool ascending, struct error *err)
{
	if (!o || !key || !key->value)
		return error_set(err, STATUS_USAGE, NULL, "no sort key");
	return resort(o, MODEL_NONE, key, ascending, err);
}

bool outline_sort_keyed(const struct outline *o)
{
	return o && o->key.value;
}

size_t outline_sort_waiting(const struct outline *o)
{
	return o && o->key.value ? o->n_waiting : 0;
}

enum status outline_sort_retry(struct outline *o, bool *resorted,
			       struct error *err)
{
	*resorted = false;
	if (!o || !o->key.value || o->n_waiting == 0)
		return STATUS_OK;
	size_t w = 0;
	for (size_t i = 0; i < o->n_waiting; i++) {
		uint32_t row = o->waiting[i];
		const struct kids *k = kt_find(&o->kt, row);
		bool ready = true;
		for (uint32_t j = 0; k && j < k->n && ready; j++) {
			double v;
			ready = o->key.value(o->key.ctx, k->rows[j], &v) !=
				OUTLINE_KEY_PENDING;
		}
		if (!k) /* dropped from the memo: sorted when asked again */
			continue;
		if (!ready) {
			o->waiting[w++] = row;
			continue;
		}
		kt_remove(&o->kt, row); /* sorted again by the rebuild */
		*resorted = true;
	}
	o->n_waiting = w;
	if (!*resorted)
		return STATUS_OK;
	return rebuild(o, err);
}

uint32_t outline_sort_column(const struct outline *o)
{
	return o->col;
}

bool outline_sort_ascending(const struct outline *o)
{
	return o->asc;
}

enum status outline_zoom(struct outline *o, uint32_t node,
			 struct error *err)
{
	struct kids k;
	enum status st = check_row(o, node, err);
	if (st != STATUS_OK || node == o->root)
		return st;
	st = get_kids(o, node, &k, err);
	if (st != STATUS_OK)
		return st;
	size_t zcap = o->zcap;
	if (!array_grow((void **)&o->zstack, &zcap, (size_t)o->zn + 1,
		  sizeof(*o->zstack)) ||
	    zcap > UINT32_MAX || (k.n && !bits_set(&o->expanded, node)))
		return nomem(o, err);
	o->zcap = (uint32_t)zcap;
	o->zstack[o->zn++] = o->root;
	o->root = node;
	st = rebuild(o, err);
	if (st != STATUS_OK)
		o->root = o->zstack[--o->zn];
	return st;
}

bool outline_zoom_out(struct outline *o)
{
	if (!o || o->zn == 0)
		return false;
	uint32_t inner = o->root;
	o->root = o->zstack[--o->zn];
	if (rebuild(o, NULL) != STATUS_OK) {
		o->zstack[o->zn++] = o->root;
		o->root = inner;
		return false;
	}
	return true;
}

uint32_t outline_zoom_root(const struct outline *o)
{
	return o->root;
}

/* ---- public: flatten ---------------------------------------------------- */

enum status outline_flatten(struct outline *o, uint32_t node,
			    struct error *err)
{
	if (!o)
		return error_set(err, STATUS_USAGE, NULL, "no outline");
	memo_trim(o);
	struct kids k;
	enum status st = check_row(o, node, err);
	if (st != STATUS_OK)
		return st;
	if (node == o->root || outline_find(o, node) == OUTLINE_NONE)
		return error_set(err, STATUS_USAGE, o->m->path,
				 "only a shown row below the top can be "
				 "flattened");
	st = get_kids(o, node, &k, err);
	if (st != STATUS_OK)
		return st;
	if (k.n == 0)
		return error_set(err, STATUS_USAGE, o->m->path,
				 "a row without children cannot be flattened");
	bool was_expanded = bits_get(&o->expanded, node);
	if (!array_grow((void **)&o->fstack, &o->fcap, o->fn + 1,
			sizeof(*o->fstack)) ||
	    !bits_set(&o->flat, node) || !bits_set(&o->expanded, node))
		return nomem(o, err);
	o->fstack[o->fn++] = node;
	st = rebuild(o, err);
	if (st != STATUS_OK) {
		o->fn--;
		bits_clear(&o->flat, node);
		if (!was_expanded)
			bits_clear(&o->expanded, node);
		rebuild(o, NULL);
	}
	return st;
}

uint32_t outline_unflatten(struct outline *o)
{
	if (!o || o->fn == 0)
		return MODEL_NONE;
	uint32_t node = o->fstack[--o->fn];
	bits_clear(&o->flat, node);
	if (rebuild(o, NULL) != STATUS_OK) {
		bits_set(&o->flat, node);
		o->fn++;
		return MODEL_NONE;
	}
	return node;
}

size_t outline_flattened(const struct outline *o)
{
	return o ? o->fn : 0;
}

/* ---- public: reveal and hot path ---------------------------------------- */

enum status outline_reveal(struct outline *o, uint32_t node,
			   struct error *err)
{
	uint32_t *up = NULL;
	size_t n = 0, cap = 0;
	struct list l = {0};
	enum status st = check_row(o, node, err);
	if (st != STATUS_OK)
		return st;
	uint32_t zn = o->zn, root = o->root;
	while (zn && !inside(o, node, root))
		root = o->zstack[--zn];
	if (!inside(o, node, root)) {
		st = error_set(err, STATUS_USAGE, o->m->path,
			       "row %u is not under the root", (unsigned)node);
		goto out;
	}
	/* up = [node, parent, ..., zoom root] */
	for (uint32_t r = node;; r = parent_of(o, r)) {
		if (!array_grow((void **)&up, &cap, n + 1, sizeof(*up))) {
			st = nomem(o, err);
			goto out;
		}
		up[n++] = r;
		if (r == root)
			break;
	}
	bool under = under_row(o, root);
	for (size_t k = n - 1; k-- > 0;) {
		if (!shown(o, up[k], under)) {
			st = error_set(err, STATUS_NOT_FOUND, o->m->path,
				       "the filter hides row %u",
				       (unsigned)node);
			goto out;
		}
		under = under_of(o, up[k], under);
	}
	bool zoomed = zn != o->zn;
	o->zn = zn;
	o->root = root;
	/* expand from the top; the first row that was collapsed is visible
	 * (unless the zoom changed), and inserting its subtree shows the
	 * rest */
	uint32_t first = MODEL_NONE;
	for (size_t k = n; k-- > 1;) {
		if (bits_get(&o->expanded, up[k]))
			continue;
		if (!bits_set(&o->expanded, up[k])) {
			st = nomem(o, err);
			break;
		}
		if (first == MODEL_NONE)
			first = up[k];
	}
	if (zoomed || st != STATUS_OK) {
		enum status rs = rebuild(o, st == STATUS_OK ? err : NULL);
		st = st == STATUS_OK ? rs : st;
	} else if (first != MODEL_NONE) {
		size_t i = outline_find(o, first);
		if (i != OUTLINE_NONE) {
			st = collect(o, &o->e[i], under_row(o, first), false,
				     NULL, SIZE_MAX, &l, err);
			if (st == STATUS_OK)
				st = splice(o, i + 1, subtree_end(o, i), &l,
					    err);
		} else if (o->fn) { /* a flattened row: not in the list */
			st = rebuild(o, err);
		}
	}
out:
	free(l.e);
	free(up);
	return settle(o, st, err);
}

enum status outline_hotpath(struct outline *o, uint32_t start,
			    uint32_t column, double threshold_pct,
			    uint32_t *leaf, struct error *err)
{
	uint32_t *path = NULL;
	size_t n = 0;
	enum status st = outline_reveal(o, start, err);
	if (st != STATUS_OK)
		return st;
	st = view_hotpath(o->v, start, column, threshold_pct, &path, &n, err);
	if (st == STATUS_OK)
		st = sync_rows(o, err);
	if (st != STATUS_OK)
		goto out;
	size_t cut = 0;
	bool under = under_row(o, start);
	for (size_t k = 1; k < n && shown(o, path[k], under); k++) {
		under = under_of(o, path[k], under);
		cut = k;
	}
	st = outline_reveal(o, path[cut], err);
	if (st == STATUS_OK)
		*leaf = path[cut];
out:
	free(path);
	return settle(o, st, err);
}

/* ---- public: search and filter ------------------------------------------ */

/* Make the view build what it builds at its first request (flat: all its
 * rows; bottom-up: the function rows) and return its row count. */
static enum status rows_now(struct outline *o, uint32_t *n,
			    struct error *err)
{
	struct kids k;
	enum status st = get_kids(o, view_root(o->v), &k, err);
	if (st != STATUS_OK)
		return st;
	st = sync_rows(o, err);
	*n = view_rows(o);
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
		pattern_free(&o->search);
		bits_free(&o->smatch);
		bits_free(&o->sbelow);
		o->n_smatch = 0;
		return STATUS_OK;
	}
	enum status st = pattern_compile(o, &p, pattern, err);
	if (st == STATUS_OK)
		st = rows_now(o, &n, err);
	if (st != STATUS_OK) {
		pattern_free(&p);
		return st;
	}
	pattern_free(&o->search);
	bits_free(&o->smatch);
	bits_free(&o->sbelow);
	o->n_smatch = 0;
	o->search = p;
	for (uint32_t r = 0; r < o->scanned && st == STATUS_OK; r++)
		st = match_row(o, r, true, false, err);
	if (st != STATUS_OK) {
		pattern_free(&o->search);
		bits_free(&o->smatch);
		bits_free(&o->sbelow);
		o->n_smatch = 0;
	}
	return st;
}

size_t outline_search_count(const struct outline *o)
{
	return o ? o->n_smatch : 0;
}

const char *outline_search_pattern(const struct outline *o)
{
	return o && o->search.on ? o->search.text : NULL;
}

static void filter_off(struct outline *o)
{
	pattern_free(&o->filter);
	bits_free(&o->fmatch);
	bits_free(&o->fbelow);
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
		return rebuild(o, err);
	}
	st = pattern_compile(o, &p, pattern, err);
	if (st == STATUS_OK)
		st = rows_now(o, &n, err);
	if (st != STATUS_OK) {
		pattern_free(&p);
		return st;
	}
	filter_off(o);
	o->filter = p;
	o->fmode = mode;
	for (uint32_t r = 0; r < o->scanned && st == STATUS_OK; r++)
		st = match_row(o, r, false, true, err);
	if (st != STATUS_OK) {
		filter_off(o);
		rebuild(o, NULL);
		return st;
	}
	return rebuild(o, err);
}

enum outline_filter outline_filter_mode(const struct outline *o)
{
	return o ? o->fmode : OUTLINE_FILTER_OFF;
}

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
	return bits_get(&o->sbelow, c) && shown(o, c, under);
}

/* Start the walk at the zoom root. */
static bool walk_root(struct outline *o, struct walk *w)
{
	w->n = 0;
	return walk_push(w, o->root, under_row(o, o->root));
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
		return nomem(o, err);
	if (from == MODEL_NONE || !inside(o, from, o->root))
		return STATUS_OK;
	for (uint32_t r = from; r != o->root; r = parent_of(o, r)) {
		if (!array_grow((void **)&up, &cap, n + 1, sizeof(*up))) {
			st = nomem(o, err);
			goto out;
		}
		up[n++] = r;
	}
	for (size_t k = n; k-- > 0;) {
		bool under = w->s[w->n - 1].under;
		if (!shown(o, up[k], under)) {
			w->n = 1;
			goto out;
		}
		if (!walk_push(w, up[k], under_of(o, up[k], under))) {
			st = nomem(o, err);
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
		if (!bits_get(&o->sbelow, top.row))
			return STATUS_OK;
		struct kids k;
		enum status st = get_kids(o, top.row, &k, err);
		if (st != STATUS_OK)
			return st;
		uint32_t i = k.n;
		while (i > 0 && !on_walk(o, k.rows[i - 1], top.under))
			i--;
		if (i == 0)
			return STATUS_OK;
		uint32_t c = k.rows[i - 1];
		if (!walk_push(w, c, under_of(o, c, top.under)))
			return nomem(o, err);
	}
}

/* Move the walk one row on (pre-order over rows on the walk).  *moved
 * false at the end. */
static enum status walk_next(struct outline *o, struct walk *w, bool *moved,
			     struct error *err)
{
	struct kids k;
	enum status st;
	struct step top = w->s[w->n - 1];
	*moved = true;
	if (bits_get(&o->sbelow, top.row)) {
		st = get_kids(o, top.row, &k, err);
		if (st != STATUS_OK)
			return st;
		for (uint32_t i = 0; i < k.n; i++)
			if (on_walk(o, k.rows[i], top.under))
				return walk_push(w, k.rows[i],
						 under_of(o, k.rows[i],
							  top.under))
					       ? STATUS_OK
					       : nomem(o, err);
	}
	while (w->n > 1) {
		uint32_t c = w->s[--w->n].row;
		struct step p = w->s[w->n - 1];
		st = get_kids(o, p.row, &k, err);
		if (st != STATUS_OK)
			return st;
		for (uint32_t i = o->rank[c] + 1; i < k.n; i++)
			if (on_walk(o, k.rows[i], p.under))
				return walk_push(w, k.rows[i],
						 under_of(o, k.rows[i],
							  p.under))
					       ? STATUS_OK
					       : nomem(o, err);
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
	enum status st = get_kids(o, p.row, &k, err);
	if (st != STATUS_OK)
		return st;
	for (uint32_t i = o->rank[c]; i-- > 0;)
		if (on_walk(o, k.rows[i], p.under)) {
			if (!walk_push(w, k.rows[i],
				       under_of(o, k.rows[i], p.under)))
				return nomem(o, err);
			return walk_last(o, w, err);
		}
	return STATUS_OK;
}

/* A row the search stops at: it matches and is shown when revealed (a
 * flattened row never is: its children stand in its place). */
static bool search_hit(const struct outline *o, uint32_t row)
{
	return bits_get(&o->smatch, row) && !bits_get(&o->flat, row);
}

enum status outline_search_next(struct outline *o, uint32_t from_node,
				bool forward, uint32_t *match,
				struct error *err)
{
	struct walk w = {0};
	bool found = false, moved = false, wrapped = false;
	if (!o)
		return error_set(err, STATUS_USAGE, NULL, "no outline");
	memo_trim(o);
	enum status st = sync_rows(o, err);
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
		if (!forward)
			st = walk_last(o, &w, err);
		if (st != STATUS_OK)
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
			if (!walk_root(o, &w)) {
				st = nomem(o, err);
				goto out;
			}
			if (!forward)
				st = walk_last(o, &w, err);
			if (st != STATUS_OK)
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
