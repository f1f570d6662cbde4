/* diff: building the merged tree of two runs (diff.h); the metric pairs
 * are in diff_metric.c. */
#include "config.h"

#include "compare/diff.h"
#include "core/array.h"
#include "core/hash.h"

#include <stdlib.h>
#include <string.h>

#include "compare/diff_key.h"
#include "views/view.h"

/* ---- normalised strings ---------------------------------------------- */

struct strtab {
	struct diff *d;
	uint32_t *slots; /* string index + 1, 0 empty */
	size_t mask;
	uint32_t cap;
};

static bool strtab_grow(struct strtab *t)
{
	size_t size = t->slots ? (t->mask + 1) * 2 : 1024;
	uint32_t *slots = calloc(size, sizeof(*slots));
	if (!slots)
		return false;
	for (size_t i = 0; t->slots && i <= t->mask; i++) {
		if (!t->slots[i])
			continue;
		const char *s = t->d->strs[t->slots[i] - 1];
		size_t j = fnv1a(FNV1A_SEED, s, strlen(s)) & (size - 1);
		while (slots[j])
			j = (j + 1) & (size - 1);
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->mask = size - 1;
	return true;
}

/* The handle of `s` (taken: freed when already there), MODEL_NONE when
 * out of memory. */
static uint32_t strtab_take(struct strtab *t, char *s)
{
	if (!s)
		return MODEL_NONE;
	struct diff *d = t->d;
	if ((!t->slots || (size_t)d->n_strs * 2 >= t->mask + 1) &&
	    !strtab_grow(t)) {
		free(s);
		return MODEL_NONE;
	}
	size_t j = fnv1a(FNV1A_SEED, s, strlen(s)) & t->mask;
	for (; t->slots[j]; j = (j + 1) & t->mask)
		if (strcmp(d->strs[t->slots[j] - 1], s) == 0) {
			free(s);
			return t->slots[j] - 1;
		}
	if (!array_grow_u32((void **)&d->strs, &t->cap, (uint64_t)d->n_strs + 1,
			    sizeof(*d->strs))) {
		free(s);
		return MODEL_NONE;
	}
	d->strs[d->n_strs] = s;
	t->slots[j] = ++d->n_strs;
	return d->n_strs - 1;
}

/* ---- one run's keys --------------------------------------------------- */

/* The keys a run's string handle makes: its name (normalised), an entry
 * point's key, a path's last component. */
enum key_kind { KEY_NAME, KEY_ENTRY, KEY_BASE, KEY_KINDS };

struct run_keys {
	const struct model *m;
	uint32_t *of[KEY_KINDS]; /* [kind]: model string handle -> key + 1 */
	bool normalize;
};

static void run_keys_free(struct run_keys *rk)
{
	for (int k = 0; k < KEY_KINDS; k++)
		FREE_AND_NULL(rk->of[k]);
}

/* The key caches of run `m`, empty; false when out of memory (then
 * none). */
static bool run_keys_init(struct run_keys *rk, const struct model *m,
			  bool normalize)
{
	size_t ns = model_n_strings(m) ? model_n_strings(m) : 1;
	*rk = (struct run_keys){.m = m, .normalize = normalize};
	for (int k = 0; k < KEY_KINDS; k++)
		if (!(rk->of[k] = calloc(ns, sizeof(uint32_t)))) {
			run_keys_free(rk);
			return false;
		}
	return true;
}

/* The key text of kind `kind` for string `s` (allocated; NULL when out
 * of memory). */
static char *key_text(const struct run_keys *rk, enum key_kind kind,
		      const char *s)
{
	switch (kind) {
	case KEY_NAME:
		return rk->normalize ? diff_key_name(s) : strdup(s);
	case KEY_ENTRY:
		return rk->normalize ? diff_key_entry(s) : strdup(s);
	default:
		return strdup(diff_key_base(s));
	}
}

/* The key of kind `kind` of string handle `h` in table `t` (0 for no
 * string), made once per handle; MODEL_NONE when out of memory. */
static uint32_t key_of(struct run_keys *rk, struct strtab *t,
		       enum key_kind kind, uint32_t h)
{
	uint32_t *memo = rk->of[kind];
	if (h == 0 || h >= model_n_strings(rk->m))
		return 0;
	if (memo[h])
		return memo[h] - 1;
	uint32_t id = strtab_take(t, key_text(rk, kind, model_str(rk->m, h)));
	if (id != MODEL_NONE)
		memo[h] = id + 1;
	return id;
}

/* The key of model node `n` (its class, name, module, file, line); false
 * when out of memory. */
static bool node_key(struct run_keys *rk, struct strtab *t, uint32_t n,
		     bool flat, struct diff_node *k)
{
	const struct model *m = rk->m;
	const struct model_node *nd = &model_nodes(m)[n];
	const struct model_function *f =
	    nd->function < model_n_functions(m) ? &model_functions(m)[nd->function] : NULL;
	uint32_t name = nd->name ? nd->name : f ? f->name : 0;
	uint32_t module = nd->module ? nd->module : f ? f->module : 0;
	uint32_t file = nd->file ? nd->file : f ? f->file : 0;
	memset(k, 0, sizeof(*k));
	k->name = k->module = k->file = 0;
	switch ((enum node_kind)nd->kind) {
	case NODE_ROOT:
		k->cls = 'r';
		return true;
	case NODE_ENTRY:
		k->cls = 'e';
		break;
	case NODE_FUNCTION:
	case NODE_REGION:
		k->cls = 'f';
		break;
	case NODE_KERNEL:
		k->cls = 'k';
		break;
	case NODE_LOOP:
	case NODE_LINE:
		k->cls = nd->kind == NODE_LOOP ? 'l' : 'n';
		k->file = key_of(rk, t, KEY_BASE, file);
		k->line = nd->line;
		return k->file != MODEL_NONE;
	case NODE_INSTRUCTION:
	case NODE_ADDRESS:
	default:
		k->cls = 'i';
		k->module = key_of(rk, t, KEY_BASE, module);
		if (!rk->normalize)
			k->line =
			    (uint32_t)nd->offset ^ (uint32_t)(nd->offset >> 32);
		return k->module != MODEL_NONE;
	}
	k->name = key_of(rk, t, k->cls == 'e' ? KEY_ENTRY : KEY_NAME, name);
	if (flat)
		k->cls = 'f';
	k->module = key_of(rk, t, KEY_BASE, module);
	return k->name != MODEL_NONE && k->module != MODEL_NONE;
}

/* ---- the merged nodes ------------------------------------------------- */

/* The table of merged nodes is keyed by the hash of a node's path of
 * keys (each key without its module, which may match a missing one), so
 * that a node's slot is known before its parent is matched: the matching
 * asks for slots ahead of use (the probes are random over a table far
 * larger than the caches).  Equal hashes are told apart by the merged
 * parent and the key. */
struct merged {
	struct diff *d;
	size_t cap; /* of d->nodes and hashes */
	uint64_t *slots;  /* the hash's high half << 32 | node + 1; 0 empty:
			     most probes that miss touch no node */
	uint64_t *hashes; /* per merged node, for growing */
	size_t mask;
};

#define ROOT_HASH 0x2545f4914f6cdd1dULL
/* How far ahead match_paths asks for a slot (nodes). */
#define MATCH_AHEAD 16

/* The path hash of a node with key `k` under a node of path hash `up`. */
static uint64_t node_hash(uint64_t up, const struct diff_node *k)
{
	uint64_t h = up * 0x9e3779b97f4a7c15ULL;
	h ^= (uint64_t)k->name * 0xc2b2ae3d27d4eb4fULL + k->cls;
	h ^= ((uint64_t)k->file << 32 | k->line) * 0x165667b19e3779f9ULL;
	h ^= h >> 29;
	return h * 0xbf58476d1ce4e5b9ULL;
}

static bool merged_grow(struct merged *g, size_t want)
{
	size_t size = g->slots ? (g->mask + 1) * 2 : 4096;
	while (size < want)
		size *= 2;
	uint64_t *slots = calloc(size, sizeof(*slots));
	if (!slots)
		return false;
	for (size_t i = 0; g->slots && i <= g->mask; i++) {
		if (!g->slots[i])
			continue;
		size_t j = g->hashes[(uint32_t)g->slots[i] - 1] & (size - 1);
		while (slots[j])
			j = (j + 1) & (size - 1);
		slots[j] = g->slots[i];
	}
	free(g->slots);
	g->slots = slots;
	g->mask = size - 1;
	return true;
}

/* The merged node under `parent` with key `k` for run `run`: one with the
 * same class, name, file and line whose module is the same or missing on
 * one side, else a new one.  MODEL_NONE when out of memory. */
static uint32_t merged_find(struct merged *g, uint32_t parent, uint64_t h,
			    const struct diff_node *k, int run, uint32_t rep)
{
	struct diff *d = g->d;
	if ((!g->slots || (size_t)d->n_nodes * 4 >= (g->mask + 1) * 3) &&
	    !merged_grow(g, 0))
		return MODEL_NONE;
	uint64_t tag = h >> 32 << 32;
	size_t j = h & g->mask;
	for (; g->slots[j]; j = (j + 1) & g->mask) {
		if ((g->slots[j] & ~(uint64_t)UINT32_MAX) != tag)
			continue;
		struct diff_node *n = &d->nodes[(uint32_t)g->slots[j] - 1];
		if (n->parent == parent && n->cls == k->cls &&
		    n->name == k->name && n->file == k->file &&
		    n->line == k->line &&
		    (n->module == k->module || !n->module || !k->module)) {
			if (!n->module)
				n->module = k->module;
			if (n->rep[run] == MODEL_NONE)
				n->rep[run] = rep;
			return (uint32_t)g->slots[j] - 1;
		}
	}
	void **const arrays[] = {(void **)&d->nodes, (void **)&g->hashes};
	const size_t sizes[] = {sizeof(*d->nodes), sizeof(*g->hashes)};
	if (!array_grow_each(&g->cap, (size_t)d->n_nodes + 1, 2, arrays, sizes))
		return MODEL_NONE;
	g->hashes[d->n_nodes] = h;
	struct diff_node *n = &d->nodes[d->n_nodes];
	*n = *k;
	n->parent = parent;
	n->rep[0] = n->rep[1] = MODEL_NONE;
	n->rep[run] = rep;
	g->slots[j] = tag | ++d->n_nodes;
	return d->n_nodes - 1;
}

/* ---- values ----------------------------------------------------------- */

static size_t value_index(const struct diff *d, uint32_t node, size_t k,
			  int scope, int run)
{
	return ((node * d->n_metrics + k) * 2 + (size_t)scope) * 2 +
	       (size_t)run;
}

static void add_value(struct diff *d, uint32_t node, size_t k, int scope,
		      int run, double v)
{
	size_t i = value_index(d, node, k, scope, run);
	d->values[i] += v;
	d->present[i / 8] |= (uint8_t)(1u << (i % 8));
}

bool diff_value(const struct diff *d, uint32_t node, size_t k,
		enum diff_scope scope, enum diff_run run, double *out)
{
	if (node >= d->n_nodes || k >= d->n_metrics)
		return false;
	size_t i = value_index(d, node, k, scope, run);
	if (!(d->present[i / 8] & (1u << (i % 8))))
		return false;
	*out = d->values[i];
	return true;
}

bool diff_has_scope(const struct diff *d, size_t k, enum diff_scope scope)
{
	return k < d->n_metrics && d->metrics[k].col[0][scope] != MODEL_NONE &&
	       d->metrics[k].col[1][scope] != MODEL_NONE;
}

/* Path mode: the merged node of every node of run `run`, parents first
 * (a model's nodes come after their parents). */
/* Whether `m` has entry points ("main thread") under its root. */
static bool has_entries(const struct model *m)
{
	if (model_n_nodes(m) == 0)
		return false;
	for (uint32_t c = model_nodes(m)[0].first_child; c < model_n_nodes(m);
	     c = model_nodes(m)[c].next_sibling)
		if (model_nodes(m)[c].kind == NODE_ENTRY)
			return true;
	return false;
}

/* An entry point under the root of a run whose other run has none (an
 * HPCToolkit database against a Cube profile): left out of the paths,
 * its children matched under the root, its values not counted (the
 * root's hold them). */
static bool transparent(const struct model *m, uint32_t n, bool skip)
{
	return skip && model_nodes(m)[n].parent == 0 &&
	       model_nodes(m)[n].kind == NODE_ENTRY;
}

static enum status match_paths(struct diff *d, struct merged *g,
			       struct strtab *t, struct run_keys *rk, int run,
			       bool skip, uint32_t **map_out, struct error *err)
{
	const struct model *m = rk->m;
	uint32_t *map = malloc((model_n_nodes(m) ? model_n_nodes(m) : 1) * sizeof(*map));
	if (!map)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	uint64_t *ph = malloc((model_n_nodes(m) ? model_n_nodes(m) : 1) * sizeof(*ph));
	if (!ph) {
		free(map);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	/* the path hashes, parents first */
	map[0] = 0;
	ph[0] = ROOT_HASH;
	for (uint32_t n = 1; n < model_n_nodes(m); n++) {
		struct diff_node k;
		uint32_t p = model_nodes(m)[n].parent;
		if (p >= n) {
			free(ph);
			free(map);
			return error_set(err, STATUS_CORRUPT, model_path(m),
					 "a context before its parent");
		}
		if (transparent(m, n, skip))
			ph[n] = ph[p];
		else if (node_key(rk, t, n, false, &k))
			ph[n] = node_hash(ph[p], &k);
		else
			ph[n] = 0; /* out of memory: found again below */
	}
	for (uint32_t n = 1; n < model_n_nodes(m); n++) {
		struct diff_node k;
		uint32_t p = model_nodes(m)[n].parent;
		if (n + MATCH_AHEAD < model_n_nodes(m))
			__builtin_prefetch(
			    &g->slots[ph[n + MATCH_AHEAD] & g->mask]);
		if (transparent(m, n, skip)) {
			map[n] = 0;
			continue;
		}
		if (!node_key(rk, t, n, false, &k) ||
		    (map[n] = merged_find(g, map[p], ph[n], &k, run, n)) ==
			MODEL_NONE) {
			free(ph);
			free(map);
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
		}
	}
	free(ph);
	*map_out = map;
	return STATUS_OK;
}

/* One column's values of a run into its metric's slots (through the run's
 * node map). */
struct path_adder {
	struct diff *d;
	const uint32_t *map;
	size_t k;
	int scope, run;
	double scale;
};

static void add_path_value(void *ctx, uint32_t node, double v)
{
	const struct path_adder *a = ctx;
	add_value(a->d, a->map[node], a->k, a->scope, a->run, v * a->scale);
}

static enum status add_path_values(struct diff *d, const struct model *m,
				   int run, bool skip, const uint32_t *map,
				   struct error *err)
{
	enum status st = STATUS_OK;
	for (size_t k = 0; k < d->n_metrics && st == STATUS_OK; k++)
		for (int s = 0; s < 2 && st == STATUS_OK; s++) {
			if (!diff_has_scope(d, k, (enum diff_scope)s))
				continue;
			struct path_adder a = {
				d, map, k, s, run,
				run ? d->metrics[k].scale_new : 1};
			st = diff_column_each(m, d->metrics[k].col[run][s],
					      skip, add_path_value, &a, err);
		}
	return st;
}

/* Function mode: the frame rows of run `run`'s flat view, each matched
 * under the root by its function key, with the view's values. */
static enum status match_functions(struct diff *d, struct merged *g,
				   struct strtab *t, struct run_keys *rk,
				   int run, struct error *err)
{
	struct view *v = NULL;
	enum status st = view_new(rk->m, VIEW_FLAT, &v, err);
	if (st != STATUS_OK)
		return st;
	size_t n = 0, cap = 64;
	uint32_t *stack = malloc(cap * sizeof(*stack));
	if (!stack) {
		view_free(v);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	/* the root's values: the run's totals */
	for (size_t k = 0; k < d->n_metrics; k++)
		for (int s = 0; s < 2; s++) {
			double x;
			if (diff_has_scope(d, k, (enum diff_scope)s) &&
			    model_value(rk->m, 0, d->metrics[k].col[run][s],
					&x))
				add_value(
				    d, 0, k, s, run,
				    x * (run ? d->metrics[k].scale_new : 1));
		}
	stack[n++] = view_root(v);
	while (n > 0 && st == STATUS_OK) {
		uint32_t row = stack[--n];
		struct view_node vn;
		if (!view_node_get(v, row, &vn))
			continue;
		if (row != view_root(v) && vn.kind < VIEW_ROW_MODULE &&
		    model_kind_is_frame(vn.kind) &&
		    vn.model_node < model_n_nodes(rk->m)) {
			struct diff_node k;
			uint32_t mn;
			if (!node_key(rk, t, vn.model_node, true, &k) ||
			    (mn = merged_find(g, 0, node_hash(ROOT_HASH, &k),
					      &k, run, vn.model_node)) ==
				MODEL_NONE) {
				st = error_set(err, STATUS_NOMEM, NULL,
					       "out of memory");
				break;
			}
			for (size_t m = 0; m < d->n_metrics; m++)
				for (int s = 0; s < 2; s++) {
					double x;
					if (diff_has_scope(
						d, m, (enum diff_scope)s) &&
					    view_value(
						v, row,
						d->metrics[m].col[run][s], &x))
						add_value(
						    d, mn, m, s, run,
						    x * (run ? d->metrics[m]
								   .scale_new
							     : 1));
				}
			continue; /* a function's loops and lines are its own */
		}
		uint32_t *kids = NULL;
		size_t nk = 0;
		st = view_children(v, row, MODEL_NONE, false, &kids, &nk, err);
		if (st != STATUS_OK)
			break;
		bool pushed = array_push_reversed_u32(&stack, &n, &cap, kids, nk);
		free(kids);
		if (!pushed) {
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
			break;
		}
	}
	free(stack);
	view_free(v);
	return st;
}

/* Values need the node count: grow the value arrays to it. */
static enum status alloc_values(struct diff *d, struct error *err)
{
	size_t nv = (size_t)d->n_nodes * d->n_metrics * 4;
	d->values = calloc(nv ? nv : 1, sizeof(*d->values));
	d->present = calloc(nv / 8 + 1, 1);
	if (!d->values || !d->present)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	return STATUS_OK;
}

static void set_status(struct diff *d)
{
	for (uint32_t i = 0; i < d->n_nodes; i++) {
		struct diff_node *n = &d->nodes[i];
		n->status = n->rep[0] == MODEL_NONE   ? DIFF_NEW
			    : n->rep[1] == MODEL_NONE ? DIFF_GONE
						      : DIFF_BOTH;
	}
}

enum status diff_build(const struct model *base, const struct model *nw,
		       const struct diff_metric *metrics, size_t n_metrics,
		       const struct diff_options *opt, struct diff **out,
		       struct error *err)
{
	struct diff *d = calloc(1, sizeof(*d));
	struct strtab t = {d, NULL, 0, 0};
	struct merged g = {d, 0, NULL, NULL, 0};
	struct run_keys rk[2];
	uint32_t *map[2] = {NULL, NULL};
	enum status st = STATUS_OK;
	*out = NULL;
	if (!d)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	d->run[0] = base;
	d->run[1] = nw;
	d->match = opt->match;
	d->n_metrics = n_metrics;
	d->metrics = malloc((n_metrics ? n_metrics : 1) * sizeof(*metrics));
	d->base_total = calloc(n_metrics ? n_metrics : 1, sizeof(double));
	d->has_total = calloc(n_metrics ? n_metrics : 1, sizeof(bool));
	for (int r = 0; r < 2; r++)
		if (!run_keys_init(&rk[r], r ? nw : base, opt->normalize))
			st = STATUS_NOMEM;
	if (!d->metrics || !d->base_total || !d->has_total || st != STATUS_OK ||
	    strtab_take(&t, strdup("")) != 0) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	memcpy(d->metrics, metrics, n_metrics * sizeof(*metrics));
	/* room for both runs' nodes at once: no rehash, no copy while
	 * matching (the union has at most that many) */
	if (!merged_grow(&g,
			 ((size_t)model_n_nodes(base) + model_n_nodes(nw)) * 4 / 3 + 1) ||
	    !(d->nodes = malloc(((size_t)model_n_nodes(base) + model_n_nodes(nw)) *
				sizeof(*d->nodes))) ||
	    !(g.hashes = malloc(((size_t)model_n_nodes(base) + model_n_nodes(nw)) *
				sizeof(*g.hashes)))) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	g.cap = model_n_nodes(base) + model_n_nodes(nw);
	/* the root */
	struct diff_node root = {.cls = 'r'};
	if (merged_find(&g, MODEL_NONE, ROOT_HASH, &root, 0, 0) != 0) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	d->nodes[0].rep[1] = 0;
	if (opt->match == DIFF_MATCH_PATH) {
		bool entries[2] = {has_entries(base), has_entries(nw)};
		bool skip[2] = {entries[0] && !entries[1],
				entries[1] && !entries[0]};
		for (int r = 0; r < 2 && st == STATUS_OK; r++)
			st = match_paths(d, &g, &t, &rk[r], r, skip[r], &map[r],
					 err);
		if (st == STATUS_OK)
			st = alloc_values(d, err);
		for (int r = 0; r < 2 && st == STATUS_OK; r++)
			st = add_path_values(d, rk[r].m, r, skip[r], map[r],
					     err);
	} else {
		/* the functions first (no values: the value arrays are
		 * sized by the merged nodes), then again with values */
		d->n_metrics = 0;
		for (int r = 0; r < 2 && st == STATUS_OK; r++)
			st = match_functions(d, &g, &t, &rk[r], r, err);
		d->n_metrics = n_metrics;
		if (st == STATUS_OK)
			st = alloc_values(d, err);
		for (int r = 0; r < 2 && st == STATUS_OK; r++)
			st = match_functions(d, &g, &t, &rk[r], r, err);
	}
	if (st != STATUS_OK)
		goto out;
	set_status(d);
	for (size_t k = 0; k < n_metrics; k++) {
		uint32_t c = metrics[k].col[0][DIFF_INCLUSIVE];
		if (c == MODEL_NONE)
			c = metrics[k].col[0][DIFF_EXCLUSIVE];
		d->has_total[k] =
		    c != MODEL_NONE &&
		    model_column_total(base, c, &d->base_total[k]);
	}
	*out = d;
	d = NULL;
out:
	for (int r = 0; r < 2; r++) {
		run_keys_free(&rk[r]);
		free(map[r]);
	}
	free(t.slots);
	free(g.slots);
	free(g.hashes);
	diff_free(d);
	return st;
}

void diff_free(struct diff *d)
{
	if (!d)
		return;
	free(d->nodes);
	free(d->metrics);
	free(d->values);
	free(d->present);
	free(d->base_total);
	free(d->has_total);
	array_free_each(d->strs, d->n_strs);
	free(d);
}

void diff_forget_runs(struct diff *d)
{
	d->run[0] = d->run[1] = NULL;
}

const char *diff_str(const struct diff *d, uint32_t h)
{
	return h < d->n_strs ? d->strs[h] : "";
}

const char *diff_status_name(uint8_t status)
{
	switch (status) {
	case DIFF_NEW:
		return "new";
	case DIFF_GONE:
		return "gone";
	default:
		return "both";
	}
}

/* ---- the union of any number of runs (diff_union, for runset.c) ------- */

struct diff_union {
	struct diff d; /* its nodes and strings; no values */
	struct strtab t;
	struct merged g;
	bool normalize;
};

struct diff_union *diff_union_new(bool normalize)
{
	struct diff_union *u = calloc(1, sizeof(*u));
	struct diff_node root = {.cls = 'r'};
	if (!u)
		return NULL;
	u->t.d = u->g.d = &u->d;
	u->normalize = normalize;
	u->d.match = DIFF_MATCH_PATH;
	if (strtab_take(&u->t, strdup("")) != 0 ||
	    merged_find(&u->g, MODEL_NONE, ROOT_HASH, &root, 0, 0) != 0) {
		diff_union_free(u);
		return NULL;
	}
	return u;
}

void diff_union_free(struct diff_union *u)
{
	if (!u)
		return;
	free(u->t.slots);
	free(u->g.slots);
	free(u->g.hashes);
	free(u->d.nodes);
	array_free_each(u->d.strs, u->d.n_strs);
	free(u);
}

bool diff_run_has_entries(const struct model *m)
{
	return has_entries(m);
}

enum status diff_union_add(struct diff_union *u, const struct model *m,
			   bool skip_entries, uint32_t **map,
			   struct error *err)
{
	struct run_keys rk;
	*map = NULL;
	if (!run_keys_init(&rk, m, u->normalize))
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	enum status st = match_paths(&u->d, &u->g, &u->t, &rk, 0,
				     skip_entries, map, err);
	run_keys_free(&rk);
	return st;
}

enum status diff_union_add_functions(struct diff_union *u,
				     const struct model *m,
				     const uint32_t *nodes, size_t n,
				     uint32_t **map, struct error *err)
{
	struct run_keys rk;
	enum status st = STATUS_OK;
	u->d.match = DIFF_MATCH_FUNCTION;
	*map = malloc((n ? n : 1) * sizeof(**map));
	if (!*map || !run_keys_init(&rk, m, u->normalize)) {
		free(*map);
		*map = NULL;
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	for (size_t i = 0; i < n && st == STATUS_OK; i++) {
		struct diff_node k;
		if (!node_key(&rk, &u->t, nodes[i], true, &k) ||
		    ((*map)[i] = merged_find(&u->g, 0, node_hash(ROOT_HASH, &k),
					     &k, 0, nodes[i])) == MODEL_NONE)
			st = error_set(err, STATUS_NOMEM, NULL,
				       "out of memory");
	}
	run_keys_free(&rk);
	return st;
}

const struct diff_node *diff_union_nodes(const struct diff_union *u,
					 uint32_t *n)
{
	*n = u->d.n_nodes;
	return u->d.nodes;
}
