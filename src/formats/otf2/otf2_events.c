/* otf2_events: one pass over each location's events, read through the
 * OTF2 library's per-location event readers and callbacks (the local
 * definitions first, so that the library maps the location's ids to the
 * global ones).  Enter and Leave build the call tree (a call path is a
 * node: the same region under the same path is one node, in every
 * location), each frame's inclusive and exclusive ticks and its visit, and
 * the location's intervals (begin, end, nesting depth, the enclosing
 * interval); MPI sends and receives are kept with the interval they lie
 * in.  Not fatal, counted and reported by the opener: events the library
 * does not know, a Leave with no matching Enter (ignored), regions still
 * entered at the end (closed at the location's last event), a time
 * earlier than the one before (taken as that one).  Fatal: an Enter of an
 * undefined region, nesting deeper than OTF2_MAX_DEPTH, a location file
 * the library cannot read.  Must not depend on curses or on ui/. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "core/array.h"
#include "formats/otf2/otf2_internal.h"

struct frame {
	uint32_t node, region;
	uint64_t enter, child; /* ticks */
	uint64_t iv;           /* its interval */
};

/* The pass over one location. */
struct pass {
	struct otf2_run *r;
	struct otf2_location *l;
	struct frame *stack;
	size_t depth, cap_stack;
	struct otf2_cell *acc; /* per tree index, this location */
	uint8_t *touched_mark;
	uint32_t cap_acc;
	uint32_t *touched;
	size_t n_touched, cap_touched;
	size_t cap_iv, cap_msg;
	uint64_t last; /* ticks of the latest event */
	bool any;
};

uint64_t otf2_ns(const struct otf2_run *r, uint64_t ticks)
{
	uint64_t d = ticks > r->offset ? ticks - r->offset : 0;
	uint64_t q = d / r->resolution, rem = d % r->resolution;
	if (q > UINT64_MAX / 1000000000u - 1)
		return UINT64_MAX;
	if (r->resolution > UINT64_MAX / 1000000000u)
		return q * 1000000000u +
		       (uint64_t)((double)rem * 1e9 / (double)r->resolution);
	return q * 1000000000u + rem * 1000000000u / r->resolution;
}

/* ---- the call tree ------------------------------------------------------ */

static uint32_t slot_of(uint64_t key, uint32_t n_slots)
{
	return (uint32_t)((key * 0x9E3779B97F4A7C15u) >> 32) & (n_slots - 1);
}

static uint64_t key_of(uint32_t parent, uint32_t region)
{
	return ((uint64_t)(parent + 1u) << 32) | region;
}

static bool rehash(struct otf2_tree *t)
{
	uint32_t n = t->n_slots ? t->n_slots * 2 : 1024;
	uint64_t *s = calloc(n, sizeof(*s));
	if (!s)
		return false;
	for (uint32_t i = 0; i < t->n; i++) {
		uint64_t k = key_of(t->parent[i], t->region[i]);
		uint32_t j = slot_of(k, n);
		while (s[j])
			j = (j + 1) & (n - 1);
		s[j] = i + 1u;
	}
	free(t->slots);
	t->slots = s;
	t->n_slots = n;
	return true;
}

/* The call path of `region` under `parent` (UINT32_MAX: a top region),
 * added when new; UINT32_MAX when out of memory. */
static uint32_t tree_child(struct otf2_run *r, uint32_t parent,
			   uint32_t region)
{
	struct otf2_tree *t = &r->tree;
	if ((uint64_t)(t->n + 1) * 2 > t->n_slots && !rehash(t))
		return UINT32_MAX;
	uint64_t k = key_of(parent, region);
	uint32_t j = slot_of(k, t->n_slots);
	for (; t->slots[j]; j = (j + 1) & (t->n_slots - 1)) {
		uint32_t i = (uint32_t)t->slots[j] - 1u;
		if (t->parent[i] == parent && t->region[i] == region)
			return i;
	}
	if (t->n >= OTF2_MAX_DEF_ID * 4u)
		return UINT32_MAX;
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 256;
		uint32_t *p = realloc(t->parent, cap * sizeof(*p));
		if (p)
			t->parent = p;
		uint32_t *g = p ? realloc(t->region, cap * sizeof(*g)) : NULL;
		if (g)
			t->region = g;
		uint32_t *d = g ? realloc(t->depth, cap * sizeof(*d)) : NULL;
		if (d)
			t->depth = d;
		uint64_t *e = d ? realloc(r->excl, cap * sizeof(*e)) : NULL;
		if (e)
			r->excl = e;
		uint64_t *v = e ? realloc(r->visits, cap * sizeof(*v)) : NULL;
		if (!v)
			return UINT32_MAX;
		r->visits = v;
		t->cap = cap;
	}
	uint32_t i = t->n++;
	t->parent[i] = parent;
	t->region[i] = region;
	t->depth[i] = parent == UINT32_MAX ? 1 : t->depth[parent] + 1;
	r->excl[i] = 0;
	r->visits[i] = 0;
	t->slots[j] = i + 1u;
	return i;
}

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

static uint64_t event_time(struct pass *p, uint64_t t)
{
	if (p->any && t < p->last) {
		p->r->backward_times++;
		t = p->last;
	}
	p->last = t;
	p->any = true;
	return t;
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef loc, OTF2_TimeStamp time,
				  uint64_t pos, void *ud,
				  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
	struct pass *p = ud;
	struct otf2_run *r = p->r;
	(void)loc;
	(void)pos;
	(void)attrs;
	uint64_t t = event_time(p, time);
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
	uint32_t node = tree_child(r, parent, region);
	struct otf2_cell *c = node == UINT32_MAX ? NULL : acc_of(p, node);
	struct otf2_location *l = p->l;
	if (!c ||
	    !array_grow((void **)&p->stack, &p->cap_stack, p->depth + 1,
			sizeof(*p->stack)) ||
	    !array_grow((void **)&l->iv, &p->cap_iv, l->n_iv + 1,
			sizeof(*l->iv))) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	c->visits++;
	uint64_t ns = otf2_ns(r, t);
	l->iv[l->n_iv] = (struct trace_interval){
		.begin = ns,
		.end = ns,
		.ctx_id = node + 1u,
		.depth = (uint32_t)p->depth,
		.event = MODEL_EVENT_NONE,
		.up = p->depth ? p->stack[p->depth - 1].iv + 1u : 0,
	};
	p->stack[p->depth++] = (struct frame){
		.node = node, .region = region, .enter = t, .iv = l->n_iv++};
	return OTF2_CALLBACK_SUCCESS;
}

/* Close the innermost frame at ticks `t`. */
static void pop_frame(struct pass *p, uint64_t t)
{
	struct frame *f = &p->stack[--p->depth];
	uint64_t incl = t - f->enter;
	uint64_t excl = incl > f->child ? incl - f->child : 0;
	struct otf2_cell *c = &p->acc[f->node];
	c->incl += incl;
	c->excl += excl;
	p->l->iv[f->iv].end = otf2_ns(p->r, t);
	if (p->depth)
		p->stack[p->depth - 1].child += incl;
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef loc, OTF2_TimeStamp time,
				  uint64_t pos, void *ud,
				  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
	struct pass *p = ud;
	(void)loc;
	(void)pos;
	(void)attrs;
	uint64_t t = event_time(p, time);
	size_t d = p->depth;
	while (d > 0 && p->stack[d - 1].region != region)
		d--;
	if (d == 0) {
		p->r->unmatched_leaves++;
		return OTF2_CALLBACK_SUCCESS;
	}
	/* frames left open inside the one that ends end with it */
	p->r->open_at_end += p->depth - d;
	while (p->depth >= d)
		pop_frame(p, t);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode message(struct pass *p, uint64_t time,
				 uint8_t kind, uint32_t partner,
				 uint32_t comm, uint32_t tag, uint64_t length)
{
	struct otf2_location *l = p->l;
	uint64_t t = event_time(p, time);
	if (!array_grow((void **)&l->msg, &p->cap_msg, l->n_msg + 1,
			sizeof(*l->msg))) {
		otf2_fail(p->r, STATUS_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	l->msg[l->n_msg++] = (struct otf2_msg){
		.interval = p->depth ? p->stack[p->depth - 1].iv : UINT64_MAX,
		.time = otf2_ns(p->r, t),
		.length = length,
		.partner = partner,
		.comm = comm,
		.tag = tag,
		.kind = kind,
	};
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_send(OTF2_LocationRef loc, OTF2_TimeStamp time,
				 uint64_t pos, void *ud,
				 OTF2_AttributeList *attrs, uint32_t receiver,
				 OTF2_CommRef comm, uint32_t tag,
				 uint64_t length)
{
	(void)loc;
	(void)pos;
	(void)attrs;
	return message(ud, time, OTF2_MSG_SEND, receiver, comm, tag, length);
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef loc, OTF2_TimeStamp time,
				 uint64_t pos, void *ud,
				 OTF2_AttributeList *attrs, uint32_t sender,
				 OTF2_CommRef comm, uint32_t tag,
				 uint64_t length)
{
	(void)loc;
	(void)pos;
	(void)attrs;
	return message(ud, time, OTF2_MSG_RECV, sender, comm, tag, length);
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef loc, OTF2_TimeStamp time,
				  uint64_t pos, void *ud,
				  OTF2_AttributeList *attrs, uint32_t receiver,
				  OTF2_CommRef comm, uint32_t tag,
				  uint64_t length, uint64_t request)
{
	(void)loc;
	(void)pos;
	(void)attrs;
	(void)request;
	return message(ud, time, OTF2_MSG_ISEND, receiver, comm, tag, length);
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef loc, OTF2_TimeStamp time,
				  uint64_t pos, void *ud,
				  OTF2_AttributeList *attrs, uint32_t sender,
				  OTF2_CommRef comm, uint32_t tag,
				  uint64_t length, uint64_t request)
{
	(void)loc;
	(void)pos;
	(void)attrs;
	(void)request;
	return message(ud, time, OTF2_MSG_IRECV, sender, comm, tag, length);
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
	p->l->unknown++;
	p->r->unknown_events++;
	return OTF2_CALLBACK_SUCCESS;
}

static int by_node(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
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
	r->open_at_end += p->depth;
	while (p->depth)
		pop_frame(p, p->last);
	qsort(p->touched, p->n_touched, sizeof(*p->touched), by_node);
	for (size_t i = p->n_touched; i-- > 0;) {
		struct otf2_cell *c = &p->acc[p->touched[i]];
		c->visits_incl += c->visits;
		uint32_t parent = r->tree.parent[c->node];
		if (parent != UINT32_MAX)
			p->acc[parent].visits_incl += c->visits_incl;
	}
	if (p->n_touched) {
		l->cells = malloc(p->n_touched * sizeof(*l->cells));
		if (!l->cells)
			return error_set(r->err, STATUS_NOMEM, r->path,
					 "out of memory");
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
	qsort(l->msg, l->n_msg, sizeof(*l->msg), by_interval);
	for (size_t i = l->n_msg; i-- > 0;)
		if (l->msg[i].interval < l->n_iv)
			l->iv[l->msg[i].interval].event = i;
	if (l->n_iv) {
		uint64_t lo = l->iv[0].begin, hi = otf2_ns(r, p->last);
		if (lo < r->time_min)
			r->time_min = lo;
		if (hi > r->time_max)
			r->time_max = hi;
	}
	p->any = false;
	return STATUS_OK;
}

static OTF2_EvtReaderCallbacks *event_callbacks(void)
{
	OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
	if (!cb)
		return NULL;
	OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, on_unknown);
	OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
	OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
	OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
	OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
	OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
	OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
	return cb;
}

static enum status read_location(struct pass *p, OTF2_Reader *rd,
				 const OTF2_EvtReaderCallbacks *cb, bool defs)
{
	struct otf2_run *r = p->r;
	struct otf2_location *l = p->l;
	if (defs) {
		OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, l->ref);
		if (dr) {
			uint64_t n = 0;
			OTF2_ErrorCode e =
				OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
			OTF2_Reader_CloseDefReader(rd, dr);
			if (e != OTF2_SUCCESS)
				return error_set(r->err, STATUS_CORRUPT, r->path,
						 "location %llu: local "
						 "definitions: %s",
						 (unsigned long long)l->ref,
						 OTF2_Error_GetDescription(e));
		}
	}
	OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, l->ref);
	if (!er)
		return error_set(r->err, STATUS_CORRUPT, r->path,
				 "location %llu: cannot open its events",
				 (unsigned long long)l->ref);
	OTF2_ErrorCode e = OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, p);
	uint64_t n = 0;
	if (e == OTF2_SUCCESS)
		e = OTF2_Reader_ReadAllLocalEvents(rd, er, &n);
	OTF2_Reader_CloseEvtReader(rd, er);
	if (r->failed != STATUS_OK)
		return r->failed;
	if (e != OTF2_SUCCESS)
		return error_set(r->err, STATUS_CORRUPT, r->path,
				 "location %llu: events: %s",
				 (unsigned long long)l->ref,
				 OTF2_Error_GetDescription(e));
	l->events = n;
	return finish_location(p);
}

enum status otf2_read_events(struct otf2_run *r, void *reader)
{
	OTF2_Reader *rd = reader;
	for (size_t i = 0; i < r->n_locs; i++)
		if (OTF2_Reader_SelectLocation(rd, r->locs[i].ref) !=
		    OTF2_SUCCESS)
			return error_set(r->err, STATUS_CORRUPT, r->path,
					 "cannot select location %llu",
					 (unsigned long long)r->locs[i].ref);
	r->time_min = UINT64_MAX;
	r->time_max = 0;
	if (r->n_locs == 0)
		return STATUS_OK;
	bool defs = OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS;
	if (OTF2_Reader_OpenEvtFiles(rd) != OTF2_SUCCESS) {
		if (defs)
			OTF2_Reader_CloseDefFiles(rd);
		return error_set(r->err, STATUS_CORRUPT, r->path,
				 "cannot open the event files");
	}
	OTF2_EvtReaderCallbacks *cb = event_callbacks();
	struct pass p = {.r = r};
	enum status st = cb ? STATUS_OK
			    : error_set(r->err, STATUS_NOMEM, r->path,
					"out of memory");
	for (size_t i = 0; i < r->n_locs && st == STATUS_OK; i++) {
		p.l = &r->locs[i];
		p.cap_iv = 0;
		p.cap_msg = 0;
		st = read_location(&p, rd, cb, defs);
	}
	OTF2_EvtReaderCallbacks_Delete(cb);
	free(p.stack);
	free(p.acc);
	free(p.touched_mark);
	free(p.touched);
	OTF2_Reader_CloseEvtFiles(rd);
	if (defs)
		OTF2_Reader_CloseDefFiles(rd);
	return st;
}
