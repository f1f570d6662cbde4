/* dcpi_epochs: per-epoch values of a multi-epoch DCPI database (see
 * dcpi_epochs.h): a sorted array of (leaf, event, epoch, samples) and a
 * dense block of inclusive sums per inner node, event and epoch. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "formats/dcpi/dcpi_epochs.h"

#include "core/array.h"

/* The most inclusive sums kept (inner nodes x events x epochs doubles):
 * 32 M, 256 MB. */
#define DCPI_EPOCHS_INNER_MAX (32ull << 20)

struct leaf_value {
	uint32_t node, event, epoch;
	double value;
};

struct dcpi_epochs {
	uint32_t n_epochs, n_events;
	uint32_t first_profile;
	struct leaf_value *lv; /* by (node, event, epoch) */
	size_t n_lv, cap_lv;
	uint32_t n_nodes;
	uint32_t *inner_row; /* node -> row of `inner`, MODEL_NONE for leaves */
	double *inner;       /* rows x n_events x n_epochs */
	uint32_t n_rows, cap_rows, cap_nodes;
};

struct dcpi_epochs *dcpi_epochs_new(uint32_t n_epochs, uint32_t n_events)
{
	struct dcpi_epochs *e = calloc(1, sizeof(*e));
	if (e) {
		e->n_epochs = n_epochs;
		e->n_events = n_events;
	}
	return e;
}

static int triple_cmp(const struct leaf_value *a, uint32_t node,
		      uint32_t event, uint32_t epoch)
{
	if (a->node != node)
		return a->node < node ? -1 : 1;
	if (a->event != event)
		return a->event < event ? -1 : 1;
	if (a->epoch != epoch)
		return a->epoch < epoch ? -1 : 1;
	return 0;
}

bool dcpi_epochs_add(struct dcpi_epochs *e, uint32_t node, uint32_t event,
		     uint32_t epoch, double value)
{
	if (event >= e->n_events || epoch >= e->n_epochs)
		return false;
	if (e->n_lv) {
		struct leaf_value *last = &e->lv[e->n_lv - 1];
		int c = triple_cmp(last, node, event, epoch);
		if (c == 0) {
			last->value += value;
			return true;
		}
		if (c > 0)
			return false;
	}
	if (!array_grow((void **)&e->lv, &e->cap_lv, e->n_lv + 1,
			sizeof(*e->lv)))
		return false;
	e->lv[e->n_lv++] = (struct leaf_value){node, event, epoch, value};
	return true;
}

bool dcpi_epochs_finish(struct dcpi_epochs *e, const struct model *m,
			uint32_t first_profile)
{
	e->first_profile = first_profile;
	e->n_nodes = model_n_nodes(m);
	e->inner_row = malloc((model_n_nodes(m) ? model_n_nodes(m) : 1) *
			      sizeof(*e->inner_row));
	if (!e->inner_row)
		return false;
	uint32_t rows = 0;
	/* a deferred image is an inner node already (model.h) */
	for (uint32_t i = 0; i < model_n_nodes(m); i++)
		e->inner_row[i] = model_node_has_children(m, i) ? rows++
							       : MODEL_NONE;
	e->n_rows = rows;
	size_t cell = (size_t)e->n_events * e->n_epochs;
	if ((uint64_t)rows * cell > DCPI_EPOCHS_INNER_MAX) {
		/* too large a block: inner nodes get no per-epoch values
		 * (said by dcpi_epochs_inner_kept) */
		FREE_AND_NULL(e->inner_row);
		return true;
	}
	e->inner = calloc(rows ? (size_t)rows * cell : 1, sizeof(double));
	if (!e->inner)
		return false;
	e->cap_rows = rows;
	e->cap_nodes = model_n_nodes(m);
	/* each leaf's samples into every ancestor */
	for (size_t i = 0; i < e->n_lv; i++) {
		const struct leaf_value *l = &e->lv[i];
		if (l->node >= model_n_nodes(m))
			continue;
		for (uint32_t up = model_nodes(m)[l->node].parent; up != MODEL_NONE;
		     up = model_nodes(m)[up].parent) {
			uint32_t r = e->inner_row[up];
			if (r != MODEL_NONE)
				e->inner[(size_t)r * cell +
					 (size_t)l->event * e->n_epochs +
					 l->epoch] += l->value;
		}
	}
	return true;
}

/* `value` into the inner sums of `node` and its ancestors (rows only). */
static void add_up(struct dcpi_epochs *e, const struct model *m,
		   uint32_t node, uint32_t stop_below, uint32_t event,
		   uint32_t epoch, double value)
{
	size_t cell = (size_t)e->n_events * e->n_epochs;
	for (uint32_t up = node; up != MODEL_NONE && up < model_n_nodes(m) &&
				 up >= stop_below;
	     up = model_nodes(m)[up].parent) {
		uint32_t r = e->inner_row[up];
		if (r != MODEL_NONE)
			e->inner[(size_t)r * cell + (size_t)event * e->n_epochs +
				 epoch] += value;
		if (up == 0)
			break;
	}
}

void dcpi_epochs_add_deferred(struct dcpi_epochs *e, const struct model *m,
			      uint32_t node, uint32_t event, uint32_t epoch,
			      double value)
{
	if (e->inner_row && node < e->n_nodes && event < e->n_events &&
	    epoch < e->n_epochs)
		add_up(e, m, node, 0, event, epoch, value);
}

void dcpi_epochs_add_inner(struct dcpi_epochs *e, const struct model *m,
			   uint32_t node, uint32_t event, uint32_t epoch,
			   double value)
{
	if (e->inner_row && node < e->n_nodes && event < e->n_events &&
	    epoch < e->n_epochs)
		add_up(e, m, node, node, event, epoch, value);
}

/* Whether leaf value `elem` is of a node before node *key. */
static bool lv_below(const void *elem, const void *key)
{
	return ((const struct leaf_value *)elem)->node < *(const uint32_t *)key;
}

void dcpi_epochs_forget_from(struct dcpi_epochs *e, uint32_t from)
{
	e->n_lv = array_lower_bound(e->lv, e->n_lv, sizeof(*e->lv), lv_below,
				    &from);
}

bool dcpi_epochs_grow(struct dcpi_epochs *e, const struct model *m,
		      uint32_t from)
{
	if (!e->inner_row) {
		e->n_nodes = model_n_nodes(m); /* sampled rows only (not kept) */
		return true;
	}
	if (model_n_nodes(m) > e->cap_nodes) {
		uint64_t cap = (uint64_t)e->cap_nodes * 2;
		if (cap < model_n_nodes(m))
			cap = model_n_nodes(m);
		uint32_t *nr = realloc(e->inner_row,
				       (size_t)cap * sizeof(*nr));
		if (!nr)
			return false;
		e->inner_row = nr;
		e->cap_nodes = (uint32_t)cap;
	}
	/* rows of an undone load are reused: the new inner nodes' rows
	 * start after the last older node's */
	uint32_t rows = 0;
	for (uint32_t i = 0; i < from && i < e->n_nodes; i++)
		if (e->inner_row[i] != MODEL_NONE && e->inner_row[i] >= rows)
			rows = e->inner_row[i] + 1;
	for (uint32_t i = from; i < model_n_nodes(m); i++)
		e->inner_row[i] = model_node_has_children(m, i) ? rows++
							       : MODEL_NONE;
	size_t cell = (size_t)e->n_events * e->n_epochs;
	if ((uint64_t)rows * cell > DCPI_EPOCHS_INNER_MAX) {
		/* too large now: inner nodes lose their per-epoch values, as
		 * at finish (dcpi_epochs_inner_kept) */
		free(e->inner_row);
		free(e->inner);
		e->inner_row = NULL;
		e->inner = NULL;
		e->n_nodes = model_n_nodes(m);
		return true;
	}
	if (rows > e->cap_rows) {
		uint64_t cap = (uint64_t)e->cap_rows * 2;
		if (cap < rows)
			cap = rows;
		double *ni = realloc(e->inner, (size_t)cap * cell * sizeof(*ni));
		if (!ni)
			return false;
		e->inner = ni;
		e->cap_rows = (uint32_t)cap;
	}
	/* the rows of the new nodes start at 0 */
	uint32_t first_new = rows;
	for (uint32_t i = from; i < model_n_nodes(m); i++)
		if (e->inner_row[i] != MODEL_NONE && e->inner_row[i] < first_new)
			first_new = e->inner_row[i];
	if (first_new < rows)
		memset(e->inner + (size_t)first_new * cell, 0,
		       (size_t)(rows - first_new) * cell * sizeof(double));
	e->n_rows = rows;
	e->n_nodes = model_n_nodes(m);
	/* the new sampled rows into their new ancestors (the loaded node
	 * and those above it hold the totals already) */
	for (size_t i = 0; i < e->n_lv; i++) {
		const struct leaf_value *l = &e->lv[i];
		if (l->node < from || l->node >= model_n_nodes(m))
			continue;
		add_up(e, m, model_nodes(m)[l->node].parent, from, l->event,
		       l->epoch, l->value);
	}
	return true;
}

bool dcpi_epochs_inner_kept(const struct dcpi_epochs *e)
{
	return e->inner_row != NULL;
}

/* Whether `node` has leaf values (a sampled row). */
static bool is_leaf(const struct dcpi_epochs *e, uint32_t node)
{
	size_t lo = array_lower_bound(e->lv, e->n_lv, sizeof(*e->lv),
				      lv_below, &node);
	return lo < e->n_lv && e->lv[lo].node == node;
}

/* Whether leaf value `elem` is before the (node, event) of *key. */
static bool pair_below(const void *elem, const void *key)
{
	const struct leaf_value *k = key;
	return triple_cmp(elem, k->node, k->event, 0) < 0;
}

/* The first leaf value of (node, event), or n_lv. */
static size_t first_of(const struct dcpi_epochs *e, uint32_t node,
		       uint32_t event)
{
	const struct leaf_value key = {.node = node, .event = event};
	return array_lower_bound(e->lv, e->n_lv, sizeof(*e->lv), pair_below,
				 &key);
}

enum status dcpi_epochs_per_profile(const struct dcpi_epochs *e,
				    uint32_t ctx_id, uint32_t prop_id,
				    struct profile_value **out, size_t *n,
				    struct error *err)
{
	*out = NULL;
	*n = 0;
	bool inclusive = prop_id >= e->n_events;
	uint32_t event = inclusive ? prop_id - e->n_events : prop_id;
	if (event >= e->n_events || ctx_id >= e->n_nodes)
		return STATUS_OK;
	uint32_t row = e->inner_row ? e->inner_row[ctx_id] : MODEL_NONE;
	if (!e->inner_row && inclusive && !is_leaf(e, ctx_id))
		return STATUS_OK; /* not kept (dcpi_epochs_inner_kept) */
	struct profile_value *pv = malloc(e->n_epochs * sizeof(*pv));
	if (!pv)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	size_t k = 0;
	if (row != MODEL_NONE) {
		/* an inner node: exclusive samples are none, inclusive ones
		 * summed at finish */
		const double *v = e->inner + ((size_t)row * e->n_events +
					      event) * e->n_epochs;
		for (uint32_t p = 0; inclusive && p < e->n_epochs; p++)
			if (v[p] != 0)
				pv[k++] = (struct profile_value){
					e->first_profile + p, v[p]};
	} else {
		for (size_t i = first_of(e, ctx_id, event);
		     i < e->n_lv && e->lv[i].node == ctx_id &&
		     e->lv[i].event == event;
		     i++)
			if (e->lv[i].value != 0)
				pv[k++] = (struct profile_value){
					e->first_profile + e->lv[i].epoch,
					e->lv[i].value};
	}
	if (k == 0) {
		free(pv);
		return STATUS_OK;
	}
	*out = pv;
	*n = k;
	return STATUS_OK;
}

void dcpi_epochs_free(struct dcpi_epochs *e)
{
	if (!e)
		return;
	free(e->lv);
	free(e->inner_row);
	free(e->inner);
	free(e);
}
