/* otf2_events: the passes over a location's events, read through the OTF2
 * library's per-location event readers and callbacks (the local
 * definitions first, so that the library maps the location's ids to the
 * global ones).  The index pass, once at open: Enter and Leave build the
 * call tree (a call path is a node: the same region under the same path
 * is one node, in every location), each frame's inclusive and exclusive
 * ticks and its visit; the calls are not kept: every OTF2_BLOCK_CALLS
 * calls a checkpoint records the event position, the time and the open
 * frames, and a call still open at the next checkpoint keeps its end and
 * the MPI messages it holds after that point (late).  The replay
 * (otf2_window): a fresh event reader seeks to a block's checkpoint and
 * the same callbacks rebuild that block's intervals (begin, end, nesting
 * depth, the enclosing call) and collect its calls' messages, so the trace
 * reads only the blocks it draws.  Not fatal, counted and reported by the opener: events
 * the library does not know, a Leave with no matching Enter (ignored),
 * regions still entered at the end (closed at the location's last event),
 * a time earlier than the one before (taken as that one).  Fatal: an Enter
 * of an undefined region, nesting deeper than OTF2_MAX_DEPTH, a location
 * file the library cannot read.  Must not depend on curses or on ui/. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "core/array.h"
#include "formats/otf2/otf2_internal.h"
#include "formats/otf2/otf2_pass.h"

/* ---- one location -------------------------------------------------------- */

/* The location's accumulator of tree index `node`, marked touched. */
static struct otf2_cell *acc_of(struct pass *p, uint32_t node)
{
	if (node >= p->cap_acc) {
		uint32_t cap = p->cap_acc ? p->cap_acc : 256;
		while (cap <= node)
			cap *= 2;
		struct otf2_cell *a = realloc(p->acc, cap * sizeof(*a));
		if (a)
			p->acc = a;
		uint8_t *m = a ? realloc(p->touched_mark, cap) : NULL;
		if (!m)
			return NULL;
		p->touched_mark = m;
		memset(m + p->cap_acc, 0, cap - p->cap_acc);
		p->cap_acc = cap;
	}
	if (!p->touched_mark[node]) {
		if (!array_grow((void **)&p->touched, &p->cap_touched,
				p->n_touched + 1, sizeof(*p->touched)))
			return NULL;
		p->touched[p->n_touched++] = node;
		p->touched_mark[node] = 1;
		memset(&p->acc[node], 0, sizeof(p->acc[node]));
		p->acc[node].node = node;
	}
	return &p->acc[node];
}

uint64_t otf2_event_time(struct pass *p, uint64_t t)
{
	if (p->any && t < p->last) {
		if (p->indexing)
			p->backward++;
		t = p->last;
	}
	p->last = t;
	p->any = true;
	return t;
}

/* Halve the location's time samples: twice the spacing, those on it kept. */
static void grid_thin(struct pass *p)
{
	struct otf2_location *l = p->l;
	uint64_t step = p->grid_step * 2;
	size_t k = 0;
	for (size_t i = 0; i < l->n_grid; i++)
		if (l->grid[i].time % step == 0)
			l->grid[k++] = l->grid[i];
	l->n_grid = k;
	p->grid_step = step;
	p->next_grid = (p->next_grid + step - 1) / step * step;
}

/* The samples of the times on the grid before ticks `t` (an Enter or
 * Leave at t: the frames open before it ran until then; at t itself the
 * event's own state, sampled at the next event); false when out of
 * memory. */
static bool grid_to(struct pass *p, uint64_t t)
{
	struct otf2_location *l = p->l;
	if (!p->grid_step) { /* the location's first event */
		p->grid_step = p->r->resolution / 1000000u + 1u;
		p->next_grid = t / p->grid_step * p->grid_step + p->grid_step;
		return true;
	}
	uint32_t ctx = p->depth ? p->stack[p->depth - 1].node + 1u : 0;
	while (t > p->next_grid) {
		while (l->n_grid >= OTF2_GRID_MAX ||
		       (t > p->next_grid &&
			(t - p->next_grid) / p->grid_step > OTF2_GRID_MAX))
			grid_thin(p);
		if (t <= p->next_grid)
			break;
		if (!array_grow((void **)&l->grid, &p->cap_grid, l->n_grid + 1,
				sizeof(*l->grid)))
			return false;
		l->grid[l->n_grid++] =
			(struct otf2_gsample){.time = p->next_grid, .ctx = ctx};
		p->next_grid += p->grid_step;
	}
	return true;
}

/* A block starts at this Enter (event position `pos`): its checkpoint. */
static bool checkpoint(struct pass *p, uint64_t pos)
{
	struct otf2_location *l = p->l;
	if (!array_grow((void **)&l->blocks, &l->cap_blocks, l->n_blocks + 1,
			sizeof(*l->blocks)) ||
	    !array_grow((void **)&l->snaps, &l->cap_snaps,
			l->n_snaps + p->depth, sizeof(*l->snaps)))
		return false;
	l->blocks[l->n_blocks++] = (struct otf2_block){
		.pos = pos, .last = p->last, .any = p->any,
		.first_snap = l->n_snaps, .depth = (uint32_t)p->depth};
	for (size_t i = 0; i < p->depth; i++)
		l->snaps[l->n_snaps++] = (struct otf2_snap){
			.iv = p->stack[i].iv, .node = p->stack[i].node,
			.region = p->stack[i].region};
	return true;
}

/* The call path of `region` under `parent`, added when new: from the
 * pass's cache, else from the run's tree under its index lock. */
static uint32_t path_of(struct pass *p, uint32_t parent, uint32_t region)
{
	uint64_t key = ((uint64_t)(parent + 1u) << 32) | region;
	uint32_t j = (uint32_t)((key * 0x9E3779B97F4A7C15u) >> 56);
	if (p->seen[j] == key + 1u)
		return p->seen_node[j];
	pthread_mutex_lock(&p->r->index_lock);
	uint32_t node = otf2_tree_child(p->r, parent, region, true);
	pthread_mutex_unlock(&p->r->index_lock);
	if (node != UINT32_MAX) {
		p->seen[j] = key + 1u;
		p->seen_node[j] = node;
	}
	return node;
}

/* The index pass's part of an Enter: the call path added, its visit, the
 * block's checkpoint; false when out of memory. */
static bool index_enter(struct pass *p, uint64_t pos, uint32_t parent,
			uint32_t region, uint32_t *node)
{
	if (p->n_iv % p->r->block == 0 && !checkpoint(p, pos))
		return false;
	*node = path_of(p, parent, region);
	struct otf2_cell *c = *node == UINT32_MAX ? NULL : acc_of(p, *node);
	if (!c)
		return false;
	c->visits++;
	return true;
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef loc, OTF2_TimeStamp time,
				  uint64_t pos, void *ud,
				  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
	struct pass *p = ud;
	struct otf2_run *r = p->r;
	(void)loc;
	(void)attrs;
	if (p->counting)
		return OTF2_CALLBACK_SUCCESS;
	if (!p->indexing && p->n_iv >= p->w1) {
		p->stopped = true;
		return OTF2_CALLBACK_INTERRUPT;
	}
	uint64_t before = p->last;
	bool any = p->any;
	p->shown += p->indexing;
	uint64_t t = otf2_event_time(p, time);
	if (p->indexing && t > p->next_grid && !grid_to(p, t)) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	if (region >= r->n_regions || !r->regions[region].defined) {
		otf2_fail(r, STATUS_CORRUPT,
			  "location %llu: Enter of region %u, which is not "
			  "defined", (unsigned long long)p->l->ref, region);
		return OTF2_CALLBACK_INTERRUPT;
	}
	if (p->depth >= OTF2_MAX_DEPTH) {
		otf2_fail(r, STATUS_LIMIT,
			  "location %llu: regions nested deeper than %u",
			  (unsigned long long)p->l->ref, OTF2_MAX_DEPTH);
		return OTF2_CALLBACK_INTERRUPT;
	}
	uint32_t parent = p->depth ? p->stack[p->depth - 1].node : UINT32_MAX;
	uint32_t node = UINT32_MAX;
	/* the checkpoint holds the state before this event */
	p->last = before;
	p->any = any;
	bool ok = p->indexing ? index_enter(p, pos, parent, region, &node)
			      : (node = otf2_tree_child(r, parent, region,
							false)) != UINT32_MAX;
	p->last = t;
	p->any = true;
	if (!ok || !array_grow((void **)&p->stack, &p->cap_stack,
			       p->depth + 1, sizeof(*p->stack))) {
		if (!ok && !p->indexing)
			otf2_fail(r, STATUS_CORRUPT, "location %llu: the events "
				  "changed since the archive was opened",
				  (unsigned long long)p->l->ref);
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	if (p->indexing && p->n_iv == 0)
		p->l->first_begin = otf2_ns(r, t);
	if (!p->indexing && p->n_iv >= p->w0)
		p->out[p->n_iv - p->w0] = (struct trace_interval){
			.begin = otf2_ns(r, t),
			.end = UINT64_MAX,
			.ctx_id = node + 1u,
			.depth = (uint32_t)p->depth,
			.event = MODEL_EVENT_NONE,
			.up = p->depth ? p->stack[p->depth - 1].iv + 1u : 0,
		};
	p->stack[p->depth++] = (struct frame){
		.node = node, .region = region, .enter = t, .iv = p->n_iv++};
	if (p->indexing)
		p->l->n_iv = p->n_iv;
	return OTF2_CALLBACK_SUCCESS;
}

/* Close the innermost frame at ticks `t`: its values (index pass), its
 * interval's end (replay; in the index pass, kept when its block's replay
 * will not reach it). */
static void pop_frame(struct pass *p, uint64_t t)
{
	struct frame *f = &p->stack[--p->depth];
	if (!p->indexing) {
		if (f->iv >= p->w0 && f->iv < p->w1)
			p->out[f->iv - p->w0].end = otf2_ns(p->r, t);
		return;
	}
	uint64_t incl = t - f->enter;
	uint64_t excl = incl > f->child ? incl - f->child : 0;
	struct otf2_cell *c = &p->acc[f->node];
	c->incl += incl;
	c->excl += excl;
	if (p->depth)
		p->stack[p->depth - 1].child += incl;
	uint64_t block = p->r->block;
	struct otf2_location *l = p->l;
	if (p->n_iv > (f->iv / block + 1) * block) {
		if (!array_grow((void **)&l->late, &l->cap_late, l->n_late + 1,
				sizeof(*l->late))) {
			otf2_fail(p->r, STATUS_NOMEM, "out of memory");
			return;
		}
		l->late[l->n_late++] = (struct otf2_late){
			.iv = f->iv, .end = otf2_ns(p->r, t)};
	}
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef loc, OTF2_TimeStamp time,
				  uint64_t pos, void *ud,
				  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
	struct pass *p = ud;
	(void)loc;
	(void)pos;
	(void)attrs;
	if (p->counting)
		return OTF2_CALLBACK_SUCCESS;
	uint64_t t = otf2_event_time(p, time);
	size_t d = p->depth;
	p->shown += p->indexing;
	if (p->indexing && t > p->next_grid && !grid_to(p, t)) {
		otf2_fail(p->r, STATUS_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	while (d > 0 && p->stack[d - 1].region != region)
		d--;
	if (d == 0) {
		p->unmatched++;
		return OTF2_CALLBACK_SUCCESS;
	}
	/* frames left open inside the one that ends end with it */
	p->open_end += p->depth - d;
	while (p->depth >= d)
		pop_frame(p, t);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_unknown(OTF2_LocationRef loc, OTF2_TimeStamp time,
				    uint64_t pos, void *ud,
				    OTF2_AttributeList *attrs)
{
	struct pass *p = ud;
	(void)loc;
	(void)time;
	(void)pos;
	(void)attrs;
	if (!p->indexing || p->counting)
		return OTF2_CALLBACK_SUCCESS;
	p->l->unknown++;
	p->unknown++;
	p->shown++; /* reported as unknown */
	return OTF2_CALLBACK_SUCCESS;
}

static int by_node(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static int by_late(const void *a, const void *b)
{
	uint64_t x = ((const struct otf2_late *)a)->iv,
		 y = ((const struct otf2_late *)b)->iv;
	return (x > y) - (x < y);
}

static int by_interval(const void *a, const void *b)
{
	const struct otf2_msg *x = a, *y = b;
	if (x->interval != y->interval)
		return x->interval < y->interval ? -1 : 1;
	return (x->time > y->time) - (x->time < y->time);
}

/* After the location's last event: close what is open, move the touched
 * accumulators into the location's cells (visits of the subtree summed,
 * children first) and the run's totals, attach the messages. */
static enum status finish_location(struct pass *p)
{
	struct otf2_run *r = p->r;
	struct otf2_location *l = p->l;
	p->open_end += p->depth;
	while (p->depth)
		pop_frame(p, p->last);
	/* under the index lock: the other threads grow the tree and the
	 * first-seen keys (a race here renumbered call paths by chance) */
	pthread_mutex_lock(&r->index_lock);
	bool seen = otf2_tree_first_seen(r, (size_t)(l - r->locs), p->touched,
					 p->n_touched);
	pthread_mutex_unlock(&r->index_lock);
	if (!seen) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return r->failed;
	}
	if (p->n_touched) /* qsort's base may not be NULL */
		qsort(p->touched, p->n_touched, sizeof(*p->touched), by_node);
	if (p->n_touched &&
	    !(l->cells = malloc(p->n_touched * sizeof(*l->cells)))) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return r->failed;
	}
	/* the tree grows on the other threads: read and sum under the lock */
	pthread_mutex_lock(&r->index_lock);
	for (size_t i = p->n_touched; i-- > 0;) {
		struct otf2_cell *c = &p->acc[p->touched[i]];
		c->visits_incl += c->visits;
		uint32_t parent = r->tree.parent[c->node];
		if (parent != UINT32_MAX)
			p->acc[parent].visits_incl += c->visits_incl;
	}
	for (size_t i = 0; i < p->n_touched; i++) {
		uint32_t n = p->touched[i];
		l->cells[i] = p->acc[n];
		r->excl[n] += p->acc[n].excl;
		r->visits[n] += p->acc[n].visits;
		p->touched_mark[n] = 0;
	}
	l->n_cells = p->n_touched;
	p->n_touched = 0;
	p->cap_ctracks = 0;
	bool metrics = otf2_metrics_finish(p);
	r->backward_times += p->backward;
	r->unmatched_leaves += p->unmatched;
	r->open_at_end += p->open_end;
	r->unknown_events += p->unknown;
	r->unshown += l->events > p->shown ? l->events - p->shown : 0;
	p->backward = p->unmatched = p->open_end = p->unknown = p->shown = 0;
	/* qsort's base must not be NULL, even for no elements */
	if (l->n_msg)
		qsort(l->msg, l->n_msg, sizeof(*l->msg), by_interval);
	if (l->n_late)
		qsort(l->late, l->n_late, sizeof(*l->late), by_late);
	if (l->n_iv) {
		uint64_t lo = l->first_begin, hi = otf2_ns(r, p->last);
		if (lo < r->time_min)
			r->time_min = lo;
		if (hi > r->time_max)
			r->time_max = hi;
	}
	pthread_mutex_unlock(&r->index_lock);
	if (!metrics)
		otf2_fail(r, STATUS_NOMEM, "out of memory");
	for (size_t i = 0; i < l->n_grid; i++)
		l->grid[i].time = otf2_ns(r, l->grid[i].time);
	p->any = false;
	p->n_iv = 0;
	p->grid_step = p->next_grid = 0;
	p->cap_grid = 0;
	return r->failed;
}

void *otf2_event_callbacks(void)
{
	OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
	if (!cb)
		return NULL;
	OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, on_unknown);
	OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
	OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
	otf2_records_callbacks(cb);
	otf2_metrics_callbacks(cb);
	return cb;
}

enum status otf2_index_location(struct pass *p, void *reader, const void *cb,
				bool defs, bool events,
				void (*report)(struct pass *p, uint64_t n))
{
	struct otf2_run *r = p->r;
	struct otf2_location *l = p->l;
	OTF2_Reader *rd = reader;
	unsigned long long ref = (unsigned long long)l->ref;
	if (defs) {
		OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, l->ref);
		if (dr) {
			uint64_t n = 0;
			OTF2_ErrorCode e =
				OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
			OTF2_Reader_CloseDefReader(rd, dr);
			if (e != OTF2_SUCCESS)
				otf2_fail(r, STATUS_CORRUPT, "location %llu: "
					  "local definitions: %s", ref,
					  OTF2_Error_GetDescription(e));
		}
	}
	if (!events || r->failed != STATUS_OK)
		return r->failed; /* the index came from the cache */
	OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, l->ref);
	if (!er) {
		otf2_fail(r, STATUS_CORRUPT, "location %llu: cannot open its "
			  "events", ref);
		return r->failed;
	}
	l->evt = er; /* kept for the replays; closed with the reader */
	OTF2_ErrorCode e = OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, p);
	uint64_t got = 1u << 20;
	while (e == OTF2_SUCCESS && got == 1u << 20 &&
	       __atomic_load_n(&r->failed, __ATOMIC_RELAXED) == STATUS_OK) {
		e = OTF2_Reader_ReadLocalEvents(rd, er, 1u << 20, &got);
		l->events += got;
		if (report)
			report(p, got);
	}
	if (r->failed != STATUS_OK)
		return r->failed;
	if (e != OTF2_SUCCESS) {
		otf2_fail(r, STATUS_CORRUPT, "location %llu: events: %s", ref,
			  OTF2_Error_GetDescription(e));
		return r->failed;
	}
	return finish_location(p);
}

void otf2_free_pass(struct pass *p)
{
	free(p->stack);
	free(p->acc);
	free(p->touched_mark);
	free(p->touched);
	free(p->mval);
}

void otf2_close_reader(struct otf2_run *r)
{
	if (!r->reader)
		return;
	for (size_t i = 0; i < r->n_locs; i++)
		if (r->locs[i].evt)
			OTF2_Reader_CloseEvtReader(r->reader, r->locs[i].evt);
	if (r->callbacks)
		OTF2_Reader_CloseEvtFiles(r->reader);
	OTF2_Reader_Close(r->reader);
	OTF2_EvtReaderCallbacks_Delete(r->callbacks);
	r->reader = NULL;
	r->callbacks = NULL;
}

/* ---- the replay of one block ------------------------------------------- */

static uint64_t late_key(const void *e)
{
	return ((const struct otf2_late *)e)->iv;
}

static uint64_t msg_key(const void *e)
{
	return ((const struct otf2_msg *)e)->interval;
}

static const struct otf2_late *late_of(const struct otf2_location *l,
				       uint64_t iv)
{
	size_t i = otf2_lower_bound(l->late, l->n_late, sizeof(*l->late),
				    late_key, iv);
	return i < l->n_late && l->late[i].iv == iv ? &l->late[i] : NULL;
}

/* Whether call `iv` has messages: in the block's (`msg`, sorted by
 * interval) or late ones. */
static bool has_message(const struct otf2_location *l,
			const struct otf2_msg *msg, size_t n, uint64_t iv)
{
	size_t i = otf2_lower_bound(msg, n, sizeof(*msg), msg_key, iv);
	if (i < n && msg[i].interval == iv)
		return true;
	i = otf2_lower_bound(l->msg, l->n_msg, sizeof(*l->msg), msg_key, iv);
	return i < l->n_msg && l->msg[i].interval == iv;
}

/* The replay from block `b`'s checkpoint until the next block's first
 * Enter or the end of the events. */
static enum status replay(struct pass *p, uint64_t b)
{
	struct otf2_run *r = p->r;
	struct otf2_location *l = p->l;
	const struct otf2_block *k = &l->blocks[b];
	if (!array_grow((void **)&p->stack, &p->cap_stack, k->depth + 1,
			sizeof(*p->stack))) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return r->failed;
	}
	for (uint32_t i = 0; i < k->depth; i++) {
		const struct otf2_snap *sn = &l->snaps[k->first_snap + i];
		p->stack[i] = (struct frame){
			.node = sn->node, .region = sn->region, .iv = sn->iv};
	}
	p->depth = k->depth;
	p->last = k->last;
	p->any = k->any;
	/* a fresh event reader for each replay: OTF2 3.0's seek from a
	 * reader that has moved between chunks may reuse a chunk it freed */
	if (l->evt)
		OTF2_Reader_CloseEvtReader(r->reader, l->evt);
	OTF2_EvtReader *er = l->evt = OTF2_Reader_GetEvtReader(r->reader, l->ref);
	if (!er)
		return error_set(r->err, STATUS_IO, r->path,
				 "location %llu: cannot open its events",
				 (unsigned long long)l->ref);
	OTF2_ErrorCode e = OTF2_EvtReader_Seek(er, k->pos);
	if (e == OTF2_SUCCESS)
		e = OTF2_EvtReader_SetCallbacks(er, r->callbacks, p);
	while (e == OTF2_SUCCESS && !p->stopped && r->failed == STATUS_OK) {
		uint64_t got = 0;
		e = OTF2_EvtReader_ReadEvents(er, 4096, &got);
		if (e == OTF2_SUCCESS && got < 4096) {
			while (p->depth) /* the end of the events */
				pop_frame(p, p->last);
			break;
		}
	}
	if (r->failed != STATUS_OK)
		return r->failed;
	if (e != OTF2_SUCCESS && !p->stopped)
		return error_set(r->err, STATUS_IO, r->path,
				 "location %llu: events: %s",
				 (unsigned long long)l->ref,
				 OTF2_Error_GetDescription(e));
	return STATUS_OK;
}

enum status otf2_window(struct otf2_run *r, size_t line, uint64_t b,
			struct trace_interval *out, struct otf2_msg **msg,
			size_t *n_msg, struct error *err)
{
	struct otf2_location *l = &r->locs[line];
	*msg = NULL;
	*n_msg = 0;
	if (!r->reader || b >= l->n_blocks)
		return error_set(err, STATUS_IO, r->path,
				 "location %llu: no block %llu",
				 (unsigned long long)l->ref,
				 (unsigned long long)b);
	struct pass p = {
		.r = r, .l = l, .w0 = b * r->block,
		.w1 = b * r->block + r->block < l->n_iv ? b * r->block + r->block
							 : l->n_iv,
		.out = out};
	p.n_iv = p.w0;
	struct error *keep = r->err;
	r->err = err;
	r->failed = STATUS_OK;
	enum status st = replay(&p, b);
	r->err = keep;
	otf2_free_pass(&p);
	if (p.n_msg) /* qsort's base may not be NULL */
		qsort(p.msg, p.n_msg, sizeof(*p.msg), by_interval);
	for (uint64_t i = p.w0; st == STATUS_OK && i < p.w1; i++) {
		struct trace_interval *iv = &out[i - p.w0];
		if (iv->end == UINT64_MAX) {
			const struct otf2_late *lt = late_of(l, i);
			iv->end = lt ? lt->end : iv->begin;
		}
		iv->event = has_message(l, p.msg, p.n_msg, i) ? i
							       : MODEL_EVENT_NONE;
	}
	if (st == STATUS_OK && p.n_iv < p.w1)
		st = error_set(err, STATUS_IO, r->path,
			       "location %llu: the events changed since the "
			       "archive was opened", (unsigned long long)l->ref);
	if (st != STATUS_OK) {
		free(p.msg);
		return st;
	}
	*msg = p.msg;
	*n_msg = p.n_msg;
	return STATUS_OK;
}
