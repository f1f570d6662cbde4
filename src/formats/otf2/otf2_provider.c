/* otf2_provider: the OTF2 run's answers to the model's reads.  Values:
 * statistic 0 is a call path's exclusive time in seconds, 1 its visits,
 * both summed over the locations (the engine derives the inclusive ones);
 * per location (the thread pane) also the inclusive ones, keys 2 and 3;
 * the Marks column's counts (otf2_marks.c).
 * Trace: line i is location i; interval k is read with its block (a
 * replay of the location's events from the block's checkpoint,
 * otf2_window), kept in one of OTF2_SLOTS slots shared by the locations
 * (least recently used out), under the run's lock; an interval's records
 * (MPI messages, collectives, RMA, threading, I/O) are its attributes, and
 * its matched MPI messages its links (otf2_links.c); a location's markers
 * are its line's instants, and the call running at a time is found
 * through the same reads (otf2_call_at).  Must not depend on curses or
 * on ui/. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/otf2/otf2_internal.h"
#include "core/array.h"

/* The communicators' names, copied at the end of the open (the builder's
 * strings are the model's afterwards, which the provider cannot see). */
struct otf2_names {
	char **comm;
	uint32_t n;
};

void otf2_location_forget(struct otf2_location *l)
{
	free(l->cells);
	free(l->msg);
	free(l->blocks);
	free(l->snaps);
	free(l->late);
	free(l->p2p);
	free(l->links);
	free(l->grid);
	for (size_t i = 0; i < l->n_ctracks; i++)
		free(l->ctracks[i].points);
	free(l->ctracks);
	*l = (struct otf2_location){.ref = l->ref, .name = l->name,
				    .group = l->group, .claimed = l->claimed,
				    .evt = l->evt, .hit = l->hit};
}

void otf2_run_free(struct otf2_run *r)
{
	if (!r)
		return;
	otf2_close_reader(r);
	pthread_mutex_destroy(&r->lock);
	pthread_mutex_destroy(&r->index_lock);
	for (size_t i = 0; i < r->n_locs; i++)
		otf2_location_forget(&r->locs[i]);
	free(r->locs);
	free(r->path);
	free(r->strings);
	free(r->regions);
	free(r->stns);
	free(r->groups);
	free(r->comms);
	free(r->comm_group);
	for (uint32_t i = 0; i < r->n_ogroups; i++)
		free(r->ogroups[i].members);
	free(r->ogroups);
	otf2_metrics_free(r);
	free(r->tree.parent);
	free(r->tree.region);
	free(r->tree.depth);
	free(r->tree.slots);
	free(r->excl);
	free(r->first);
	free(r->visits);
	free(r->mark);
	free(r->mark_first);
	free(r->marks);
	for (uint32_t i = 0; i < OTF2_SLOTS; i++) {
		free(r->slots[i].iv);
		free(r->slots[i].msg);
	}
	error_clear(&r->trace_error);
	struct otf2_names *nm = r->names;
	if (nm) {
		array_free_each(nm->comm, nm->n);
		free(nm);
	}
	free(r);
}

static bool node_of(const struct otf2_run *r, uint32_t ctx_id, uint32_t *node)
{
	if (ctx_id == 0 || ctx_id - 1u >= r->tree.n)
		return false;
	*node = ctx_id - 1u;
	return true;
}

static bool value_of(const struct otf2_run *r, uint32_t node, uint32_t stat,
		     double *out)
{
	switch (stat) {
	case 0:
		*out = (double)r->excl[node] / (double)r->resolution;
		return true;
	case 1:
		*out = (double)r->visits[node];
		return true;
	default:
		if (r->marks && stat == OTF2_MARKS_STAT(r)) {
			*out = r->marks[node];
			return true;
		}
		return otf2_metric_value(r, node, stat, out);
	}
}

static bool summary(void *impl, uint32_t ctx_id, uint32_t stat_id,
		    double *out)
{
	struct otf2_run *r = impl;
	uint32_t node;
	return node_of(r, ctx_id, &node) && value_of(r, node, stat_id, out);
}

static enum status summary_all(void *impl, uint32_t stat_id,
			       void (*emit)(void *ctx, uint32_t ctx_id,
					    double value),
			       void *ctx, struct error *err)
{
	struct otf2_run *r = impl;
	(void)err;
	for (uint32_t i = 0; i < r->tree.n; i++) {
		double x;
		if (value_of(r, i, stat_id, &x))
			emit(ctx, i + 1u, x);
	}
	return STATUS_OK;
}

static uint64_t grid_key(const void *e)
{
	return ((const struct otf2_gsample *)e)->time;
}

static uint64_t cell_key(const void *e)
{
	return ((const struct otf2_cell *)e)->node;
}

static const struct otf2_cell *cell_of(const struct otf2_location *l,
				       uint32_t node)
{
	size_t i = otf2_lower_bound(l->cells, l->n_cells, sizeof(*l->cells),
				    cell_key, node);
	return i < l->n_cells && l->cells[i].node == node ? &l->cells[i]
							  : NULL;
}

/* A location's inclusive time (prop 2) or visits (prop 3) at the program
 * root: the sum over its top regions (the root has no cells of its own;
 * its exclusive values are none). */
static double root_incl(const struct otf2_run *r,
			const struct otf2_location *l, uint32_t prop_id)
{
	double sum = 0;
	for (size_t j = 0; j < l->n_cells; j++) {
		const struct otf2_cell *c = &l->cells[j];
		if (c->node >= r->tree.n || r->tree.parent[c->node] != UINT32_MAX)
			continue;
		sum += prop_id == 2 ? (double)c->incl
				    : (double)c->visits_incl;
	}
	return prop_id == 2 ? sum / (double)r->resolution : sum;
}

static enum status per_profile(void *impl, uint32_t ctx_id, uint32_t prop_id,
			       struct profile_value **out, size_t *n,
			       struct error *err)
{
	struct otf2_run *r = impl;
	*out = NULL;
	*n = 0;
	uint32_t node;
	bool root = ctx_id == 0 && (prop_id == 2 || prop_id == 3);
	if ((!root && !node_of(r, ctx_id, &node)) || prop_id > 3)
		return STATUS_OK;
	struct profile_value *v =
		r->n_locs ? malloc(r->n_locs * sizeof(*v)) : NULL;
	if (r->n_locs && !v)
		return error_set(err, STATUS_NOMEM, r->path, "out of memory");
	size_t k = 0;
	for (size_t i = 0; i < r->n_locs; i++) {
		if (root) {
			double x = root_incl(r, &r->locs[i], prop_id);
			if (x != 0)
				v[k++] = (struct profile_value){(uint32_t)i, x};
			continue;
		}
		const struct otf2_cell *c = cell_of(&r->locs[i], node);
		if (!c)
			continue;
		double x = prop_id == 0	  ? (double)c->excl
			   : prop_id == 1 ? (double)c->visits
			   : prop_id == 2 ? (double)c->incl
					  : (double)c->visits_incl;
		if (prop_id % 2 == 0)
			x /= (double)r->resolution;
		if (x != 0)
			v[k++] = (struct profile_value){(uint32_t)i, x};
	}
	if (k == 0) {
		FREE_AND_NULL(v);
	}
	*out = v;
	*n = k;
	return STATUS_OK;
}

static void values_close(void *impl)
{
	otf2_run_free(impl);
}

static const struct value_ops otf2_value_ops = {
	.summary = summary,
	.per_profile = per_profile,
	.close = values_close,
	.summary_all = summary_all,
};

/* ---- trace --------------------------------------------------------------- */

/* The first failed read since the last take_error (the viewer asks). */
static void keep_error(struct otf2_run *r, struct error *err)
{
	if (r->trace_error.status == STATUS_OK)
		r->trace_error = *err;
	else
		error_clear(err);
}

/* The slot holding block `b` of `line`, read now when no slot does (into
 * the least recently used one); NULL when the read fails. */
static struct otf2_slot *slot_of(struct otf2_run *r, uint32_t line,
				 uint64_t b)
{
	struct otf2_location *l = &r->locs[line];
	struct otf2_slot *s = &r->slots[l->hit];
	if (s->b == b && s->line == line)
		return s;
	uint32_t lru = 0;
	for (uint32_t i = 0; i < OTF2_SLOTS; i++) {
		s = &r->slots[i];
		if (s->b == b && s->line == line) {
			l->hit = i;
			return s;
		}
		if (s->used < r->slots[lru].used)
			lru = i;
	}
	s = &r->slots[lru];
	struct error err = {0};
	s->b = UINT64_MAX;
	if (!s->iv && !(s->iv = malloc(r->block * sizeof(*s->iv)))) {
		error_set(&err, STATUS_NOMEM, r->path, "out of memory");
		keep_error(r, &err);
		return NULL;
	}
	free(s->msg);
	if (otf2_window(r, line, b, s->iv, &s->msg, &s->n_msg, &err) !=
	    STATUS_OK) {
		keep_error(r, &err);
		return NULL;
	}
	s->line = line;
	s->b = b;
	l->hit = lru;
	return s;
}

static bool interval(void *impl, uint32_t line, uint64_t index,
		     struct trace_interval *out)
{
	struct otf2_run *r = impl;
	if (line >= r->n_locs || index >= r->locs[line].n_iv)
		return false;
	uint64_t b = index / r->block;
	pthread_mutex_lock(&r->lock);
	struct otf2_slot *s = slot_of(r, line, b);
	if (s) {
		s->used = ++r->clock;
		*out = s->iv[index - b * r->block];
	}
	pthread_mutex_unlock(&r->lock);
	return s != NULL;
}

bool otf2_call_at(struct otf2_run *r, uint32_t line, uint64_t t,
		  uint32_t *node, struct error *err)
{
	if (line >= r->n_locs)
		return false;
	/* the last call begun at or before t, then out through the calls
	 * it lies in to the first still running at t */
	uint64_t lo = 0, hi = r->locs[line].n_iv;
	struct trace_interval iv;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (!interval(r, line, mid, &iv))
			goto failed;
		if (iv.begin <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint64_t i = lo; i-- > 0;) {
		if (!interval(r, line, i, &iv))
			goto failed;
		if (t < iv.end) {
			*node = iv.ctx_id - 1u;
			return iv.ctx_id != 0;
		}
		if (iv.up == 0 || iv.up - 1u >= i)
			return false;
		i = iv.up; /* the loop's decrement makes it up - 1 */
	}
	return false;
failed:
	if (r->trace_error.status != STATUS_OK) {
		*err = r->trace_error;
		r->trace_error = (struct error){0};
	} else {
		error_set(err, STATUS_CORRUPT, r->path, "a block of calls "
			  "cannot be read");
	}
	return false;
}

/* trace_ops.instant: marker `index` of location `line`, by time. */
static bool instant(void *impl, uint32_t line, uint64_t index,
		    struct trace_instant *out)
{
	struct otf2_run *r = impl;
	if (!r->mark_first || line >= r->n_locs ||
	    index >= r->mark_first[line + 1] - r->mark_first[line])
		return false;
	const struct otf2_mark *m = &r->mark[r->mark_first[line] + index];
	*out = (struct trace_instant){.time = m->time,
				      .event = MODEL_EVENT_NONE,
				      .name = m->name};
	return true;
}

static bool take_error(void *impl, struct error *err)
{
	struct otf2_run *r = impl;
	pthread_mutex_lock(&r->lock);
	bool had = error_take(&r->trace_error, err);
	pthread_mutex_unlock(&r->lock);
	return had;
}

static int by_time(const void *a, const void *b)
{
	uint64_t x = ((const struct otf2_msg *)a)->time,
		 y = ((const struct otf2_msg *)b)->time;
	return (x > y) - (x < y);
}

static uint64_t msg_key(const void *e)
{
	return ((const struct otf2_msg *)e)->interval;
}

/* Append the messages of call `iv` in `msg` (sorted by interval) to
 * got[*k..], at most 64 in all. */
static void gather(const struct otf2_msg *msg, size_t n, uint64_t iv,
		   struct otf2_msg *got, size_t *k)
{
	size_t i = otf2_lower_bound(msg, n, sizeof(*msg), msg_key, iv);
	for (; i < n && msg[i].interval == iv && *k < 64; i++)
		got[(*k)++] = msg[i];
}

/* One attribute per record, "16384 bytes to rank 1, tag 10,
 * MPI_COMM_WORLD", keyed by its kind ("MPI send"). */
static enum status format_messages(const struct otf2_run *r,
				   const struct otf2_msg *got, size_t k,
				   struct model_kv **out, struct error *err)
{
	const struct otf2_names *nm = r->names;
	struct model_kv kv[64];
	char *text[64] = {0};
	enum status st = STATUS_OK;
	for (size_t i = 0; i < k && st == STATUS_OK; i++) {
		const struct otf2_msg *m = &got[i];
		const char *comm = nm && m->comm < nm->n && nm->comm[m->comm]
					   ? nm->comm[m->comm]
					   : "";
		bool named = m->kind <= OTF2_REC_COLLECTIVE ||
			     (m->kind >= OTF2_REC_TEAM_BEGIN &&
			      m->kind <= OTF2_REC_THREAD_END) ||
			     m->kind == OTF2_REC_TASK_CREATE ||
			     m->kind == OTF2_REC_TASK_COMPLETE;
		if (otf2_record_text(m, named ? comm : "", &text[i]) < 0) {
			text[i] = NULL;
			st = error_set(err, STATUS_NOMEM, r->path,
				       "out of memory");
			break;
		}
		kv[i] = (struct model_kv){.key = otf2_record_key(m->kind),
					  .text = text[i],
					  .number = (double)m->length};
	}
	if (st == STATUS_OK)
		st = model_kv_pack(kv, k, out, err);
	for (size_t i = 0; i < k; i++)
		free(text[i]);
	return st;
}

/* The messages of call `event` (an interval's own index): those its
 * block's replay found and the late ones, by time. */
static enum status event_detail(void *impl, uint32_t line, uint64_t event,
				struct model_kv **out, size_t *n,
				struct error *err)
{
	struct otf2_run *r = impl;
	*out = NULL;
	*n = 0;
	if (line >= r->n_locs || event >= r->locs[line].n_iv)
		return STATUS_OK;
	const struct otf2_location *l = &r->locs[line];
	struct otf2_msg got[64];
	size_t k = 0;
	pthread_mutex_lock(&r->lock);
	struct otf2_slot *s = slot_of(r, line, event / r->block);
	if (s)
		gather(s->msg, s->n_msg, event, got, &k);
	gather(l->msg, l->n_msg, event, got, &k);
	pthread_mutex_unlock(&r->lock);
	if (!s)
		return error_set(err, STATUS_IO, r->path,
				 "location %llu: cannot read the call's block",
				 (unsigned long long)l->ref);
	if (k) /* qsort's base may not be NULL */
		qsort(got, k, sizeof(*got), by_time);
	enum status st = k ? format_messages(r, got, k, out, err) : STATUS_OK;
	if (st == STATUS_OK)
		*n = k;
	return st;
}

static void trace_close(void *impl)
{
	(void)impl; /* the run is the value provider's */
}

/* A context of location `line` at a time in [t, t + span) known from the
 * index: the first of its time samples at or after t (evenly spaced, the
 * context running then), when it lies before t + span; none for a
 * location of a few blocks (all of them stay read). */
static bool near(void *impl, uint32_t line, uint64_t t, uint64_t span,
		 uint32_t *ctx_id)
{
	const struct otf2_run *r = impl;
	if (line >= r->n_locs)
		return false;
	const struct otf2_location *l = &r->locs[line];
	if (l->n_blocks <= OTF2_NEAR_MIN_BLOCKS)
		return false; /* reading it exactly costs little */
	size_t i = otf2_lower_bound(l->grid, l->n_grid, sizeof(*l->grid),
				    grid_key, t);
	if (i >= l->n_grid || l->grid[i].time - t >= span)
		return false;
	*ctx_id = l->grid[i].ctx;
	return true;
}

/* A call's matched MPI messages, in the order of its events: the `nth`
 * one's partner call (a send's receive, a receive's send). */
static bool linked(void *impl, uint32_t line, uint64_t index, uint32_t nth,
		   uint32_t *to_line, uint64_t *to_index)
{
	if (nth == MODEL_LINK_CALL)
		return false;
	return otf2_links_of(impl, line, index, nth, to_line, to_index);
}

static const struct trace_ops otf2_trace_ops = {
	.interval = interval,
	.linked = linked,
	.counter = otf2_counter,
	.near = near,
	.counter_near = otf2_counter_near,
	.link_noun = "message",
	.close = trace_close,
	.take_error = take_error,
	.event_detail = event_detail,
	.instant = instant,
};

void otf2_slots_reset(struct otf2_run *r)
{
	for (uint32_t i = 0; i < OTF2_SLOTS; i++)
		r->slots[i].b = UINT64_MAX;
	for (uint32_t i = 0; i < OTF2_COUNTER_SLOTS; i++)
		r->cslots[i].b = UINT64_MAX;
}

void otf2_set_providers(struct otf2_run *r)
{
	const struct model *m = model_builder_peek(r->b);
	struct otf2_names *nm = calloc(1, sizeof(*nm));
	if (nm && r->n_comms) {
		nm->comm = calloc(r->n_comms, sizeof(*nm->comm));
		for (uint32_t i = 0; nm->comm && i < r->n_comms; i++)
			nm->comm[i] = strdup(model_str(m, r->comms[i]));
		nm->n = nm->comm ? r->n_comms : 0;
	}
	r->names = nm; /* without it, messages name no communicator */
	otf2_slots_reset(r);
	model_builder_set_values(r->b, &otf2_value_ops, r);
	model_builder_set_trace(r->b, &otf2_trace_ops, r);
}
