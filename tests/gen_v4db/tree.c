/* gen-v4db's calling-context tree: expansion from the entry points, the
 * --depth-chain and --cycle shapes, the rotated post-order walk that
 * assigns context ids, and the raw values and summary statistics of a
 * context (computed here, independently of any reader). */

#include "config.h"

#include "gen.h"

static uint32_t add_node(struct gen *g, uint32_t parent, uint8_t kind, uint8_t relation, uint32_t func, uint32_t aux)
{
	if (g->n_nodes >= g->cap_nodes)
		return GEN_NONE;
	uint32_t i = g->n_nodes++;
	struct node *n = &g->nodes[i];
	*n = (struct node){ .parent = parent, .kind = kind, .relation = relation, .func = func, .aux = aux };
	if (parent != GEN_ROOT) {
		struct node *p = &g->nodes[parent];
		if (p->n_children == 0)
			p->first_child = i;
		p->n_children++;
		n->depth = p->depth == UINT16_MAX ? UINT16_MAX : (uint16_t)(p->depth + 1);
		n->entry = p->entry;
	}
	return i;
}

static uint32_t random_count(struct rng *r, uint32_t max)
{
	return 1 + (uint32_t)rng_below(r, max < 1 ? 1 : max);
}

static void expand(struct gen *g, uint32_t i)
{
	struct node n = g->nodes[i];
	if (n.depth + 1u > g->opt.depth)
		return;
	struct rng r = { .state = hash3(g->opt.seed, i, GEN_SALT_EXPAND) };
	uint32_t fan = g->opt.fanout;
	uint32_t k;
	switch (n.kind) {
	case GEN_KIND_ENTRY:
		add_node(g, i, GEN_KIND_FUNCTION, GEN_RELATION_CALL, n.func == 1 ? GEN_FUNC_MAIN : GEN_FUNC_WORKER, 0);
		break;
	case GEN_KIND_FUNCTION:
		if (g->funcs[n.func].module != 0) {
			k = random_count(&r, fan / 2);
			for (uint32_t c = 0; c < k; c++)
				add_node(g, i, GEN_KIND_INSTRUCTION, GEN_RELATION_LEXICAL, n.func,
					 16 + (uint32_t)rng_below(&r, 0x4000));
			break;
		}
		k = random_count(&r, fan);
		for (uint32_t c = 0; c < k; c++) {
			uint32_t line = g->funcs[n.func].line + 1 + (uint32_t)rng_below(&r, 200);
			add_node(g, i, rng_below(&r, 100) < 30 ? GEN_KIND_LOOP : GEN_KIND_LINE, GEN_RELATION_LEXICAL,
				 n.func, line);
		}
		break;
	case GEN_KIND_LOOP:
		k = random_count(&r, fan);
		for (uint32_t c = 0; c < k; c++)
			add_node(g, i, rng_below(&r, 100) < 20 ? GEN_KIND_LOOP : GEN_KIND_LINE, GEN_RELATION_LEXICAL,
				 n.func, n.aux + 1 + (uint32_t)rng_below(&r, 30));
		break;
	case GEN_KIND_LINE: {
		uint64_t x = rng_below(&r, 100);
		if (x < 20)
			break;
		if (x < 50) {
			k = random_count(&r, 2);
			for (uint32_t c = 0; c < k; c++)
				add_node(g, i, GEN_KIND_INSTRUCTION, GEN_RELATION_LEXICAL, n.func,
					 16 + (uint32_t)rng_below(&r, 0x4000));
		} else if (x < 88) {
			k = random_count(&r, fan / 2);
			for (uint32_t c = 0; c < k; c++)
				add_node(g, i, GEN_KIND_FUNCTION, GEN_RELATION_CALL, pick_callee(g, &r, i, n.func), 0);
		} else {
			add_node(g, i, GEN_KIND_FUNCTION, GEN_RELATION_INLINED, pick_tier(g, &r, 2), 0);
		}
		break;
	}
	case GEN_KIND_INSTRUCTION: {
		uint64_t x = rng_below(&r, 100);
		bool lib = g->funcs[n.func].module != 0;
		if (x < (lib ? 30u : 10u)) {
			if (lib && g->funcs[n.func].tier == 4 && rng_below(&r, 100) < 60)
				break;
			add_node(g, i, GEN_KIND_FUNCTION, GEN_RELATION_CALL, pick_callee(g, &r, i, n.func), 0);
		}
		break;
	}
	default:
		break;
	}
}

/* --depth-chain: under the main thread entry, main, then alternately a
 * call-site line and a called function (cycling through the application's
 * functions), until the tree has opt.chain contexts in all; the other
 * entry, if any, gets only its worker function. */
static int build_chain(struct gen *g)
{
	uint32_t at = 0, func = GEN_FUNC_MAIN;
	if (g->n_entries > 1 && g->n_nodes < g->cap_nodes)
		add_node(g, 1, GEN_KIND_FUNCTION, GEN_RELATION_CALL, GEN_FUNC_WORKER, 0);
	if (g->n_nodes < g->cap_nodes)
		at = add_node(g, 0, GEN_KIND_FUNCTION, GEN_RELATION_CALL, GEN_FUNC_MAIN, 0);
	for (uint32_t k = 1; g->n_nodes < g->cap_nodes; k++) {
		if (k % 2 == 1) {
			at = add_node(g, at, GEN_KIND_LINE, GEN_RELATION_LEXICAL, func, g->funcs[func].line + 1 + k % 50);
		} else {
			func = g->tier_funcs[1][(k / 2) % g->n_tier[1]];
			at = add_node(g, at, GEN_KIND_FUNCTION, GEN_RELATION_CALL, func, 0);
		}
	}
	/* depth saturates at 65535: the chain is as deep as it is long */
	g->max_stack = g->n_nodes + 3;
	return 0;
}

int build_tree(struct gen *g)
{
	uint32_t target = g->opt.contexts;
	/* expansion may overshoot the target by at most one node's children */
	g->cap_nodes = g->opt.chain > 0 ? g->opt.chain : target;
	g->nodes = calloc(g->cap_nodes, sizeof *g->nodes);
	if (g->nodes == NULL)
		return -1;
	uint32_t e = add_node(g, GEN_ROOT, GEN_KIND_ENTRY, GEN_RELATION_LEXICAL, 1, 0);
	if (e == GEN_NONE)
		return -1;
	g->nodes[e].entry = 0;
	if (g->opt.threads > 1 && g->cap_nodes > 1) {
		e = add_node(g, GEN_ROOT, GEN_KIND_ENTRY, GEN_RELATION_LEXICAL, 2, 0);
		if (e == GEN_NONE)
			return -1;
		g->nodes[e].entry = 1;
	}
	g->n_entries = g->n_nodes;
	if (g->opt.chain > 0)
		return build_chain(g);
	/* Breadth-first expansion (children of a node are contiguous).  When a
	 * random tree dies out before the target, a few leaf lines and
	 * instructions become call sites and the expansion goes on. */
	uint32_t i = 0, revive = g->n_entries;
	while (g->n_nodes < g->cap_nodes) {
		for (; i < g->n_nodes && g->n_nodes < g->cap_nodes; i++)
			expand(g, i);
		uint32_t before = g->n_nodes, revived = 0;
		for (; revive < before && revived < 16 && g->n_nodes < g->cap_nodes; revive++) {
			const struct node *n = &g->nodes[revive];
			if (n->n_children != 0 || n->depth + 1u > g->opt.depth ||
			    (n->kind != GEN_KIND_LINE && n->kind != GEN_KIND_INSTRUCTION))
				continue;
			struct rng r = { .state = hash3(g->opt.seed, revive, GEN_SALT_FUNC) };
			uint32_t callee = pick_callee(g, &r, revive, n->func);
			add_node(g, revive, GEN_KIND_FUNCTION, GEN_RELATION_CALL, callee, 0);
			revived++;
		}
		if (revived == 0)
			break;
	}
	uint32_t max_depth = 0;
	for (uint32_t k = 0; k < g->n_nodes; k++)
		if (g->nodes[k].depth > max_depth)
			max_depth = g->nodes[k].depth;
	g->max_stack = max_depth + 3;
	return 0;
}

/* Post-order walk; children are visited in a rotated order so that context
 * ids (assigned in visiting order) follow no simple tree order. */
int walk_init(const struct gen *g, struct walk *w)
{
	w->stack = calloc(g->max_stack, sizeof *w->stack);
	if (w->stack == NULL)
		return -1;
	w->stack[0] = (struct walk_frame){ .node = GEN_ROOT };
	w->sp = 1;
	return 0;
}

enum walk_event walk_step(const struct gen *g, struct walk *w, uint32_t *node, uint32_t *level)
{
	if (w->sp == 0)
		return WALK_DONE;
	struct walk_frame *f = &w->stack[w->sp - 1];
	uint32_t n_children = f->node == GEN_ROOT ? g->n_entries : g->nodes[f->node].n_children;
	if (f->next < n_children) {
		uint32_t first = f->node == GEN_ROOT ? 0 : g->nodes[f->node].first_child;
		uint32_t c = first + (f->next + f->rot) % n_children;
		f->next++;
		uint32_t nc = g->nodes[c].n_children;
		w->stack[w->sp] = (struct walk_frame){
			.node = c,
			.rot = nc > 1 ? (uint32_t)(hash3(g->opt.seed, c, GEN_SALT_ROTATE) % nc) : 0,
		};
		*level = w->sp++;
		*node = c;
		return WALK_ENTER;
	}
	*node = f->node;
	*level = --w->sp;
	return WALK_LEAVE;
}

int assign_ids(struct gen *g)
{
	struct walk w = { 0 };
	if (walk_init(g, &w) < 0)
		return -1;
	uint32_t next = 1, node, level;
	enum walk_event ev;
	while ((ev = walk_step(g, &w, &node, &level)) != WALK_DONE) {
		if (ev != WALK_LEAVE || node == GEN_ROOT)
			continue;
		g->nodes[node].ctx_id = next;
		g->max_id = next;
		uint64_t h = hash3(g->opt.seed, node, GEN_SALT_GAP);
		next += 1 + (h % 16 == 0 ? (uint32_t)(h >> 8) % 3 + 1 : 0);
	}
	free(w.stack);
	return 0;
}

/* --------------------------------------------------------------- values */

bool thread_in_entry(const struct gen *g, uint32_t t, uint8_t entry)
{
	bool main_thread = t % g->opt.threads == 0;
	return entry == 0 ? main_thread : !main_thread;
}

/* Raw (point) values of node `idx`, out[thread * M + metric]. */
void node_raw(const struct gen *g, uint32_t idx, double *out)
{
	uint32_t T = g->n_threads, M = g->n_metrics;
	memset(out, 0, sizeof(double) * T * M);
	const struct node *n = &g->nodes[idx];
	if (n->kind == GEN_KIND_ENTRY)
		return;
	uint64_t seed = g->opt.seed;
	bool leafish = n->n_children == 0 ||
		       (n->kind == GEN_KIND_LINE && hash3(seed, idx, GEN_SALT_LEAFISH) % 8 == 0);
	if (!leafish)
		return;
	uint64_t h = hash3(seed, idx, GEN_SALT_HOT);
	if (h % 100 >= 65)
		return;
	double weight = pow(unit_of(h) + 1e-3, -1.1);
	for (uint32_t t = 0; t < T; t++) {
		if (!thread_in_entry(g, t, n->entry))
			continue;
		uint64_t ht = hash3(seed ^ ((uint64_t)t << 40), idx, GEN_SALT_THREAD);
		if (ht % 100 >= 80)
			continue;
		double f = 0.6 + 0.8 * unit_of(ht);
		double samples = floor(weight * f * (1.0 + 0.05 * (double)(t % 7))) + 1.0;
		double cycles = 0.0;
		for (uint32_t m = 0; m < M; m++) {
			uint64_t hm = hash3(ht, m, GEN_SALT_METRIC);
			double v;
			if (m == 0) {
				v = samples * 0.001;
			} else if (m == 1) {
				cycles = samples * 2500000.0 + (double)(hm % 100000);
				v = cycles;
			} else if (m == 2 && M > 1) {
				v = floor(cycles * (0.4 + (double)(hm % 260) / 100.0));
			} else if (hash3(seed, idx * 1000003ULL + m, GEN_SALT_SPARSE) % 100 < 30) {
				v = 0.0;
			} else {
				v = samples * (double)(1 + hm % 5000);
			}
			out[t * M + m] = v * g->opt.scale;
		}
	}
}

uint16_t prop_id(uint32_t m, enum gen_scope s)
{
	return (uint16_t)(m * GEN_N_SCOPES + s);
}

uint16_t stat_id(const struct gen *g, uint32_t m, enum gen_stat k)
{
	return (uint16_t)(GEN_N_SCOPES * g->n_metrics + m * GEN_N_STATS + k);
}

/* Summary statistics of one context: stats[m * GEN_N_STATS + k]. */
void compute_stats(const struct gen *g, double *const vals[GEN_N_SCOPES], double *stats)
{
	uint32_t T = g->n_threads, M = g->n_metrics;
	for (uint32_t m = 0; m < M; m++) {
		double *s = &stats[m * GEN_N_STATS];
		memset(s, 0, sizeof(double) * GEN_N_STATS);
		for (uint32_t t = 0; t < T; t++) {
			double p = vals[GEN_SCOPE_POINT][t * M + m];
			double fn = vals[GEN_SCOPE_FUNCTION][t * M + m];
			double ex = vals[GEN_SCOPE_EXECUTION][t * M + m];
			s[GEN_STAT_POINT_SUM] += p;
			s[GEN_STAT_FUNCTION_SUM] += fn;
			if (ex != 0.0) {
				s[GEN_STAT_EXECUTION_SUM] += ex;
				if (s[GEN_STAT_EXECUTION_COUNT] == 0.0 || ex > s[GEN_STAT_EXECUTION_MAX])
					s[GEN_STAT_EXECUTION_MAX] = ex;
				s[GEN_STAT_EXECUTION_COUNT] += 1.0;
			}
		}
	}
}

/* --short-summary: the summary profile's execution Sum written as 3/4 of
 * the sum over threads at every context below the root, as hpcprof's
 * lex_aware values at outer loops are smaller than the threads' sum (the
 * per-thread values in cct.db are unchanged; the answers hold what the
 * summary profile holds). */
void short_summary(const struct gen *g, double *stats)
{
	for (uint32_t m = 0; m < g->n_metrics; m++)
		stats[m * GEN_N_STATS + GEN_STAT_EXECUTION_SUM] *= 0.75;
}
