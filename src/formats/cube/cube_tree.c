/* cube_tree: the anchor's call tree into the model and into the value
 * provider: tree arrays and the call-node id index, regions as functions,
 * call nodes as contexts, locations as profiles (tuples: the system tree
 * path, machine > node > ..., then RANK, THREAD).  Must not depend on curses
 * or on another format. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "formats/cube/cube_internal.h"

static uint32_t region_index(const struct opener *o, uint32_t id)
{
	if (o->region_of_id)
		return id < o->region_len ? o->region_of_id[id] : MODEL_NONE;
	for (uint32_t i = 0; i < o->a.n_regions; i++)
		if (o->a.regions[i].id == id)
			return i;
	return MODEL_NONE;
}

/* Tree arrays and the id index of the values provider. */
enum status cube_build_tree(struct opener *o)
{
	struct cube_values *v = o->v;
	uint32_t n = o->a.n_cnodes;
	v->n = n;
	size_t sz = ((size_t)n + 1) * sizeof(uint32_t);
	v->parent = malloc(sz);
	v->first_child = malloc(sz);
	v->next_sibling = malloc(sz);
	v->subtree = malloc(sz);
	v->id = malloc(sz);
	uint32_t *last = malloc(sz);
	if (!v->parent || !v->first_child || !v->next_sibling ||
	    !v->subtree || !v->id || !last) {
		free(last);
		return error_set(o->err, STATUS_NOMEM, o->path,
				 "out of memory");
	}
	uint32_t max_id = 0;
	for (uint32_t p = 0; p < n; p++) {
		const struct cube_cnode *c = &o->a.cnodes[p];
		v->parent[p] = c->parent == MODEL_NONE ? UINT32_MAX : c->parent;
		v->first_child[p] = v->next_sibling[p] = UINT32_MAX;
		last[p] = UINT32_MAX;
		v->subtree[p] = 1;
		v->id[p] = c->id;
		if (c->id > max_id)
			max_id = c->id;
		uint32_t q = v->parent[p];
		if (q != UINT32_MAX) {
			if (last[q] == UINT32_MAX)
				v->first_child[q] = p;
			else
				v->next_sibling[last[q]] = p;
			last[q] = p;
		}
	}
	free(last);
	for (uint32_t p = n; p-- > 0;)
		if (v->parent[p] != UINT32_MAX)
			v->subtree[v->parent[p]] += v->subtree[p];
	if (n && (uint64_t)max_id < (uint64_t)n * 4 + 1024) {
		v->id_len = max_id + 1;
		v->pos_of_id = malloc((size_t)v->id_len * sizeof(uint32_t));
		if (!v->pos_of_id)
			return error_set(o->err, STATUS_NOMEM, o->path,
					 "out of memory");
		memset(v->pos_of_id, 0xff, (size_t)v->id_len * sizeof(uint32_t));
		for (uint32_t p = 0; p < n; p++) {
			if (v->pos_of_id[v->id[p]] != UINT32_MAX)
				return error_set(o->err, STATUS_CORRUPT, o->path,
						 "anchor.xml: two call nodes with "
						 "id %u", (unsigned)v->id[p]);
			v->pos_of_id[v->id[p]] = p;
		}
	} else if (n) {
		v->sorted_ids = malloc((size_t)n * sizeof(uint64_t));
		if (!v->sorted_ids)
			return error_set(o->err, STATUS_NOMEM, o->path,
					 "out of memory");
		for (uint32_t p = 0; p < n; p++)
			v->sorted_ids[p] = (uint64_t)v->id[p] << 32 | p;
		if (n > 1)
			qsort(v->sorted_ids, n, sizeof(uint64_t),
			      array_cmp_u64);
		for (uint32_t p = 1; p < n; p++)
			if (v->sorted_ids[p] >> 32 == v->sorted_ids[p - 1] >> 32)
				return error_set(o->err, STATUS_CORRUPT, o->path,
						 "anchor.xml: two call nodes with "
						 "id %u",
						 (unsigned)(v->sorted_ids[p] >> 32));
	}
	return STATUS_OK;
}

enum status cube_build_regions(struct opener *o)
{
	uint32_t max_id = 0;
	for (uint32_t i = 0; i < o->a.n_regions; i++)
		if (o->a.regions[i].id > max_id)
			max_id = o->a.regions[i].id;
	if (o->a.n_regions &&
	    (uint64_t)max_id < (uint64_t)o->a.n_regions * 4 + 1024) {
		o->region_len = max_id + 1;
		o->region_of_id = malloc((size_t)o->region_len * sizeof(uint32_t));
		if (!o->region_of_id)
			return error_set(o->err, STATUS_NOMEM, o->path,
					 "out of memory");
		memset(o->region_of_id, 0xff,
		       (size_t)o->region_len * sizeof(uint32_t));
		for (uint32_t i = 0; i < o->a.n_regions; i++)
			o->region_of_id[o->a.regions[i].id] = i;
	}
	return STATUS_OK;
}

enum status cube_build_nodes(struct opener *o)
{
	struct cube_anchor *a = &o->a;
	const struct model *m = model_builder_peek(o->b);
	for (uint32_t p = 0; p < a->n_cnodes; p++) {
		const struct cube_cnode *c = &a->cnodes[p];
		uint32_t ri = region_index(o, c->callee);
		if (ri == MODEL_NONE)
			return error_set(o->err, STATUS_CORRUPT, o->path,
					 "anchor.xml: call node %u calls region "
					 "%u, which is not defined",
					 (unsigned)c->id, (unsigned)c->callee);
		struct cube_region *r = &a->regions[ri];
		if (r->function == MODEL_NONE) {
			struct model_function f = {
				.name = r->name,
				.module = r->mod,
				.file = r->mod,
				.line = r->begin,
			};
			r->function = model_builder_add_function(o->b, &f);
			if (r->function == MODEL_NONE)
				return error_set(o->err, STATUS_NOMEM, o->path,
						 "out of memory");
		}
		uint32_t name = r->name;
		if (c->params) {
			char *s = NULL;
			m = model_builder_peek(o->b);
			if (asprintf(&s, "%s [%s]", model_str(m, r->name),
				     model_str(m, c->params)) < 0)
				return error_set(o->err, STATUS_NOMEM, o->path,
						 "out of memory");
			name = model_builder_intern(o->b, s, strlen(s));
			free(s);
		}
		struct model_node nd = {
			.ctx_id = c->id + 1,
			.name = name,
			.function = r->function,
			.file = c->mod ? c->mod : r->mod,
			.line = c->line ? c->line : r->begin,
			.module = r->mod,
			.kind = NODE_REGION,
			.relation = c->parent == MODEL_NONE ? RELATION_NONE
							    : RELATION_CALL,
		};
		uint32_t parent = c->parent == MODEL_NONE ? 0 : c->parent + 1;
		uint32_t got = model_builder_add_node(o->b, parent, &nd);
		if (got != p + 1)
			return error_set(o->err, STATUS_NOMEM, o->path,
					 "out of memory");
	}
	return STATUS_OK;
}

/* The identifier-tuple element of system tree node `k`: its class in
 * capitals (letters and digits kept, the rest '_', at most 31), or for a
 * node without one (Cube 3's <machine> and <node>) MACHINE at the top and
 * NODE below; its id the node's number, its name the node's <name>. */
static struct model_id stn_id(struct opener *o, uint32_t k, bool top)
{
	const struct cube_stn *n = &o->a.stns[k];
	const char *cls = model_str(model_builder_peek(o->b), n->cls);
	char kind[32];
	size_t len = 0;
	for (; cls[len] && len < sizeof(kind) - 1; len++) {
		unsigned char c = (unsigned char)cls[len];
		kind[len] = (char)(isalnum(c) && c < 128 ? toupper(c) : '_');
	}
	kind[len] = 0;
	if (!len)
		len = strlen(strcpy(kind, top ? "MACHINE" : "NODE"));
	return (struct model_id){
		.kind_name = model_builder_intern(o->b, kind, len),
		.kind = 3,
		.logical_id = n->id,
		.name = n->name,
		.physical_id = n->id};
}

/* Location j's tuple in `ids` (room for n_stns + 2): its system tree path
 * from the top node down, then RANK (the process's rank, named by the
 * process's name) and THREAD (named by the location's). */
static uint32_t location_tuple(struct opener *o, uint32_t j,
			       struct model_id *ids)
{
	const struct cube_location *l = &o->a.locations[j];
	uint32_t depth = 0;
	for (uint32_t k = l->stn; k != MODEL_NONE; k = o->a.stns[k].parent)
		depth++;
	uint32_t i = depth;
	for (uint32_t k = l->stn; k != MODEL_NONE; k = o->a.stns[k].parent) {
		i--;
		ids[i] = stn_id(o, k, o->a.stns[k].parent == MODEL_NONE);
	}
	ids[depth] = (struct model_id){
		.kind_name = model_builder_intern(o->b, "RANK", 4),
		.kind = 1,
		.logical_id = (uint32_t)l->group_rank,
		.name = l->group_name,
		.physical_id = l->group_rank};
	ids[depth + 1] = (struct model_id){
		.kind_name = model_builder_intern(o->b, "THREAD", 6),
		.kind = 2,
		.logical_id = (uint32_t)l->rank,
		.name = l->name,
		.physical_id = l->rank};
	return depth + 2;
}

enum status cube_build_profiles(struct opener *o)
{
	struct model_id *ids = calloc((size_t)o->a.n_stns + 2, sizeof(*ids));
	if (!ids)
		return error_set(o->err, STATUS_NOMEM, o->path,
				 "out of memory");
	enum status st = STATUS_OK;
	for (uint32_t j = 0; j < o->a.n_locations && st == STATUS_OK; j++) {
		const struct cube_location *l = &o->a.locations[j];
		uint32_t n = location_tuple(o, j, ids);
		char *label = NULL;
		const struct model *m = model_builder_peek(o->b);
		const char *g = model_str(m, l->group_name);
		if (asprintf(&label, "%s%s%s", g, *g ? ": " : "",
			     model_str(m, l->name)) < 0)
			label = NULL;
		if (!label || model_builder_add_profile(o->b, false, ids, n,
							label) == MODEL_NONE)
			st = error_set(o->err, STATUS_NOMEM, o->path,
				       "out of memory");
		free(label);
	}
	free(ids);
	return st;
}
