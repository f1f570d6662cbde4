/* outline_sort: the order of an outline's children -- by a view column
 * (view_children sorts) or by a caller's sort key (outline_set_sort_key),
 * whose pending answers leave a row's children by label and waiting until
 * outline_sort_retry finds them all known.  A sort change drops the cached
 * children (outline_kids.c) and rebuilds the list (outline_list.c).  Must
 * not depend on curses or on ui/; never modifies the view's model. */
#include "config.h"

#include "views/outline_internal.h"

#include "core/array.h"

#include <math.h>
#include <stdlib.h>

/* ---- sort keys --------------------------------------------------------- */

/* One child and its key, for ol_key_sort. */
struct keyed {
	double v;
	uint32_t row, index;
	bool has;
};

/* By v ascending (ol_key_sort negates it for a descending sort), rows
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
enum status ol_key_sort(struct outline *o, uint32_t row, uint32_t *rows,
			    size_t n, struct error *err)
{
	struct keyed *t = malloc(n * sizeof(*t));
	bool pending = false;
	if (!t)
		return ol_nomem(o, err);
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
			return ol_nomem(o, err);
		o->waiting[o->n_waiting++] = row;
		return STATUS_OK;
	}
	qsort(t, n, sizeof(*t), cmp_keyed);
	for (size_t i = 0; i < n; i++)
		rows[i] = t[i].row;
	free(t);
	return STATUS_OK;
}

/* ---- public: sort ------------------------------------------------------ */

/* Sort by `column` or `key` (one of them set): the cached children
 * dropped and the rows made again; on failure the old order is back. */
static enum status resort(struct outline *o, uint32_t column,
			  const struct outline_sort_key *key, bool ascending,
			  struct error *err)
{
	uint32_t old_col = o->col;
	bool old_asc = o->asc;
	struct outline_sort_key old_key = o->key;
	ol_kt_clear(&o->kt);
	o->n_waiting = 0;
	o->col = column;
	o->asc = ascending;
	o->key = key ? *key : (struct outline_sort_key){0};
	enum status st = ol_rebuild(o, err);
	if (st != STATUS_OK) {
		ol_kt_clear(&o->kt);
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
	if (column != MODEL_NONE && column >= model_n_columns(o->m))
		return error_set(err, STATUS_USAGE, model_path(o->m), "no column %u",
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
		const struct kids *k = ol_kt_find(&o->kt, row);
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
		ol_kt_remove(&o->kt, row); /* sorted again by the rebuild */
		*resorted = true;
	}
	o->n_waiting = w;
	if (!*resorted)
		return STATUS_OK;
	return ol_rebuild(o, err);
}

uint32_t outline_sort_column(const struct outline *o)
{
	return o->col;
}

bool outline_sort_ascending(const struct outline *o)
{
	return o->asc;
}
