/* otf2_links: MPI point-to-point messages matched send to receive, for the
 * trace pane's jump from a call that sends to the call that receives and
 * back (trace_ops.linked).  The index pass notes each location's sends and
 * receives in their order (otf2_links_note); after it, a rank of a
 * communicator is mapped to a location through the communicator's group
 * (a COMM_LOCATIONS group lists locations; a COMM_GROUP lists indices into
 * the COMM_LOCATIONS group of its paradigm; COMM_SELF is the location
 * itself), and MPI's non-overtaking rule pairs them: the nth send from A
 * to B with a communicator and a tag is the nth receive on B from A with
 * them (blocking and immediate alike; a receive of MPI_ANY_SOURCE is
 * recorded with its real source).  What cannot be paired (a rank no group
 * maps, a message whose partner's event is missing) has no link.  Each
 * location keeps one link per matched message, sorted by call, then by
 * the order of its events.  Must not depend on curses or on ui/. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "core/array.h"
#include "formats/otf2/otf2_pass.h"

bool otf2_links_note(struct pass *p, uint64_t call, uint32_t kind,
		     uint32_t partner, uint32_t comm, uint32_t tag)
{
	struct otf2_location *l = p->l;
	if (!array_grow((void **)&l->p2p, &l->cap_p2p, l->n_p2p + 1,
			sizeof(*l->p2p))) {
		otf2_fail(p->r, STATUS_NOMEM, "out of memory");
		return false;
	}
	l->p2p[l->n_p2p++] = (struct otf2_p2p){
		.call = call, .partner = partner, .comm = comm, .tag = tag,
		.kind = kind};
	return true;
}

/* One message to pair: its ends' lines, its key, its place. */
struct end {
	uint32_t src, dst, comm, tag;
	uint32_t send; /* 1 for a send: after the receives of its key */
	uint32_t line;
	uint64_t ord; /* its index in the line's p2p list */
};

static int by_key(const void *a, const void *b)
{
	const struct end *x = a, *y = b;
	uint32_t kx[5] = {x->src, x->dst, x->comm, x->tag, x->send},
		 ky[5] = {y->src, y->dst, y->comm, y->tag, y->send};
	for (int i = 0; i < 5; i++)
		if (kx[i] != ky[i])
			return kx[i] < ky[i] ? -1 : 1;
	return (x->ord > y->ord) - (x->ord < y->ord);
}

struct ref_line {
	uint64_t ref;
	uint32_t line;
};

static int by_ref(const void *a, const void *b)
{
	uint64_t x = ((const struct ref_line *)a)->ref,
		 y = ((const struct ref_line *)b)->ref;
	return (x > y) - (x < y);
}

/* The line of location `ref` (UINT32_MAX when none). */
static uint32_t line_of_ref(const struct ref_line *map, size_t n, uint64_t ref)
{
	struct ref_line key = {.ref = ref};
	const struct ref_line *f = bsearch(&key, map, n, sizeof(*map), by_ref);
	return f ? f->line : UINT32_MAX;
}

/* The line of rank `rank` of communicator `comm` seen from line `self`
 * (UINT32_MAX when no group maps it). */
static uint32_t line_of_rank(const struct otf2_run *r,
			     const struct ref_line *map, uint32_t comm,
			     uint32_t rank, uint32_t self)
{
	if (comm >= r->n_comm_group || r->comm_group[comm] >= r->n_ogroups)
		return UINT32_MAX;
	const struct otf2_ogroup *g = &r->ogroups[r->comm_group[comm]];
	if (!g->defined)
		return UINT32_MAX;
	if (g->type == OTF2_GROUP_TYPE_COMM_SELF)
		return rank == 0 ? self : UINT32_MAX;
	if (rank >= g->n_members)
		return UINT32_MAX;
	uint64_t m = g->members[rank];
	if (g->type == OTF2_GROUP_TYPE_COMM_LOCATIONS)
		return line_of_ref(map, r->n_locs, m);
	if (g->type != OTF2_GROUP_TYPE_COMM_GROUP)
		return UINT32_MAX;
	for (uint32_t i = 0; i < r->n_ogroups; i++) {
		const struct otf2_ogroup *w = &r->ogroups[i];
		if (w->defined && w->type == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
		    w->paradigm == g->paradigm)
			return m < w->n_members
				       ? line_of_ref(map, r->n_locs,
						     w->members[m])
				       : UINT32_MAX;
	}
	return UINT32_MAX;
}

/* Every noted message with both ends known, sorted by key then order. */
static struct end *ends_of(const struct otf2_run *r, size_t *n_out)
{
	size_t n = 0, k = 0;
	for (size_t i = 0; i < r->n_locs; i++)
		n += r->locs[i].n_p2p;
	struct ref_line *map = malloc((r->n_locs + 1) * sizeof(*map));
	struct end *e = malloc((n + 1) * sizeof(*e));
	if (!map || !e) {
		free(map);
		free(e);
		return NULL;
	}
	for (size_t i = 0; i < r->n_locs; i++)
		map[i] = (struct ref_line){r->locs[i].ref, (uint32_t)i};
	qsort(map, r->n_locs, sizeof(*map), by_ref);
	for (uint32_t i = 0; i < r->n_locs; i++) {
		const struct otf2_location *l = &r->locs[i];
		for (size_t j = 0; j < l->n_p2p; j++) {
			const struct otf2_p2p *m = &l->p2p[j];
			bool send = m->kind == OTF2_MSG_SEND ||
				    m->kind == OTF2_MSG_ISEND;
			uint32_t other =
				line_of_rank(r, map, m->comm, m->partner, i);
			if (other == UINT32_MAX)
				continue;
			e[k++] = (struct end){
				.src = send ? i : other, .dst = send ? other : i,
				.comm = m->comm, .tag = m->tag, .send = send,
				.line = i, .ord = j};
		}
	}
	free(map);
	if (k)
		qsort(e, k, sizeof(*e), by_key);
	*n_out = k;
	return e;
}

static bool same_key(const struct end *a, const struct end *b)
{
	return a->src == b->src && a->dst == b->dst && a->comm == b->comm &&
	       a->tag == b->tag;
}

/* Link `a` to `b` on a's line (room made by the caller: n_p2p each). */
static void add_link(struct otf2_run *r, const struct end *a,
		     const struct end *b)
{
	struct otf2_location *l = &r->locs[a->line];
	l->links[l->n_links++] = (struct otf2_link){
		.call = l->p2p[a->ord].call,
		.peer_call = r->locs[b->line].p2p[b->ord].call,
		.peer_line = b->line, .seq = (uint32_t)a->ord};
}

static int by_call(const void *a, const void *b)
{
	const struct otf2_link *x = a, *y = b;
	if (x->call != y->call)
		return x->call < y->call ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

enum status otf2_links_match(struct otf2_run *r)
{
	size_t n = 0;
	struct end *e = ends_of(r, &n);
	if (!e)
		return error_set(r->err, STATUS_NOMEM, r->path, "out of memory");
	enum status st = STATUS_OK;
	for (size_t i = 0; i < r->n_locs && st == STATUS_OK; i++) {
		struct otf2_location *l = &r->locs[i];
		if (l->n_p2p && !(l->links = malloc(l->n_p2p * sizeof(*l->links))))
			st = error_set(r->err, STATUS_NOMEM, r->path,
				       "out of memory");
	}
	/* a key's receives, then its sends, each in their line's order */
	for (size_t i = 0; i < n && st == STATUS_OK;) {
		size_t recv = i, send = i;
		while (send < n && same_key(&e[send], &e[i]) && !e[send].send)
			send++;
		size_t end = send;
		while (end < n && same_key(&e[end], &e[i]))
			end++;
		for (size_t k = 0; recv + k < send && send + k < end; k++) {
			add_link(r, &e[send + k], &e[recv + k]);
			add_link(r, &e[recv + k], &e[send + k]);
		}
		i = end;
	}
	free(e);
	for (size_t i = 0; i < r->n_locs; i++) {
		struct otf2_location *l = &r->locs[i];
		if (l->n_links)
			qsort(l->links, l->n_links, sizeof(*l->links), by_call);
		FREE_AND_NULL(l->p2p);
		l->n_p2p = l->cap_p2p = 0;
	}
	return st;
}

static uint64_t link_key(const void *e)
{
	return ((const struct otf2_link *)e)->call;
}

bool otf2_links_of(const struct otf2_run *r, uint32_t line, uint64_t call,
		   uint32_t nth, uint32_t *to_line, uint64_t *to_call)
{
	if (line >= r->n_locs)
		return false;
	const struct otf2_location *l = &r->locs[line];
	size_t i = otf2_lower_bound(l->links, l->n_links, sizeof(*l->links),
				    link_key, call);
	if (i + nth >= l->n_links || l->links[i + nth].call != call ||
	    nth >= l->n_links)
		return false;
	*to_line = l->links[i + nth].peer_line;
	*to_call = l->links[i + nth].peer_call;
	return true;
}
