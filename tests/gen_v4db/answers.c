/* gen-v4db's answers file (--answers): per-context values and statistics,
 * the hot path and the flat function list, computed by the generator
 * itself as the independent side of the reader tests. */

#include "config.h"

#include "gen.h"

static const char *lexical_name(uint8_t kind)
{
	switch (kind) {
	case GEN_KIND_ENTRY:
		return "entry";
	case GEN_KIND_FUNCTION:
		return "function";
	case GEN_KIND_LOOP:
		return "loop";
	case GEN_KIND_LINE:
		return "line";
	default:
		return "instruction";
	}
}

static const char *relation_name(uint8_t relation)
{
	switch (relation) {
	case GEN_RELATION_CALL:
		return "call";
	case GEN_RELATION_INLINED:
		return "inlined_call";
	default:
		return "lexical";
	}
}

static json_t *stats_object(const struct gen *g, const double *stats)
{
	json_t *o = json_object();
	for (uint32_t m = 0; o != NULL && m < g->n_metrics; m++)
		for (int k = 0; k < GEN_N_STATS; k++) {
			double v = stats[m * GEN_N_STATS + k];
			if (v == 0.0)
				continue;
			char *key = NULL;
			if (asprintf(&key, "%s|%s", g->metric_names[m], stat_defs[k].key) < 0)
				continue;
			json_object_set_new(o, key, json_real(v));
			free(key);
		}
	return o;
}

/* Writes `"<id>": {...}` for one context into the streamed answers file. */
void answer_context(struct gen *g, uint32_t idx, const double *stats)
{
	const struct node *n = &g->nodes[idx];
	json_t *o = json_object();
	if (o == NULL)
		return;
	uint32_t parent = n->parent == GEN_ROOT ? 0 : g->nodes[n->parent].ctx_id;
	json_object_set_new(o, "parent", json_integer(parent));
	json_object_set_new(o, "depth", json_integer(n->depth));
	json_object_set_new(o, "lexical", json_string(lexical_name(n->kind)));
	json_object_set_new(o, "relation", n->kind == GEN_KIND_ENTRY ? json_null() : json_string(relation_name(n->relation)));
	const struct func *f = &g->funcs[n->func];
	char *name = NULL;
	switch (n->kind) {
	case GEN_KIND_ENTRY:
		name = strdup(n->func == 1 ? "main thread" : "application thread");
		break;
	case GEN_KIND_FUNCTION:
		name = strdup(f->name);
		json_object_set_new(o, "function", json_string(f->name));
		break;
	case GEN_KIND_LOOP:
	case GEN_KIND_LINE:
		if (asprintf(&name, "%s:%" PRIu32, file_path(g, f->file), n->aux) < 0)
			name = NULL;
		break;
	default:
		if (asprintf(&name, "%s@0x%" PRIx64, g->module_paths[f->module], node_offset(g, idx)) < 0)
			name = NULL;
		break;
	}
	json_object_set_new(o, "name", name ? json_string(name) : json_null());
	free(name);
	if (n->kind != GEN_KIND_ENTRY) {
		bool srcloc = n->kind == GEN_KIND_LOOP || n->kind == GEN_KIND_LINE;
		bool point = n->kind == GEN_KIND_LOOP || n->kind == GEN_KIND_INSTRUCTION;
		json_object_set_new(o, "file", srcloc ? json_string(file_path(g, f->file)) : json_null());
		json_object_set_new(o, "line", srcloc ? json_integer(n->aux) : json_null());
		json_object_set_new(o, "module", point ? json_string(module_defs[f->module].path) : json_null());
		if (point)
			json_object_set_new(o, "offset", json_integer((json_int_t)node_offset(g, idx)));
	}
	json_object_set_new(o, "summary", stats_object(g, stats));
	char *text = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	if (text != NULL)
		fprintf(g->answers, "%s\n\"%" PRIu32 "\":%s", g->answers_first ? "" : ",", n->ctx_id, text);
	g->answers_first = false;
	free(text);
	json_decref(o);
}

static json_t *hot_path(const struct gen *g, double global, double threshold)
{
	json_t *path = json_array();
	uint32_t first = 0, count = g->n_entries;
	double current = global;
	for (uint32_t guard = 0; path != NULL && count > 0 && guard < g->n_nodes; guard++) {
		uint32_t best = GEN_NONE;
		for (uint32_t c = first; c < first + count; c++)
			if (best == GEN_NONE || g->hot[c] > g->hot[best] ||
			    (g->hot[c] == g->hot[best] && g->nodes[c].ctx_id < g->nodes[best].ctx_id))
				best = c;
		if (g->hot[best] < threshold * current)
			break;
		json_array_append_new(path, json_integer(g->nodes[best].ctx_id));
		current = g->hot[best];
		first = g->nodes[best].first_child;
		count = g->nodes[best].n_children;
	}
	return path;
}

static int cmp_func_excl(const void *a, const void *b, void *arg)
{
	const struct gen *g = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (g->func_excl[x] != g->func_excl[y])
		return g->func_excl[x] > g->func_excl[y] ? -1 : 1;
	return strcmp(g->funcs[x].name, g->funcs[y].name);
}

static json_t *flat_functions(const struct gen *g)
{
	json_t *list = json_array();
	uint32_t *order = calloc(g->n_funcs, sizeof *order);
	if (list == NULL || order == NULL) {
		free(order);
		return list;
	}
	for (uint32_t i = 0; i < g->n_funcs; i++)
		order[i] = i;
	qsort_r(order, g->n_funcs, sizeof *order, cmp_func_excl, (void *)(uintptr_t)g);
	for (uint32_t i = 0; i < g->n_funcs && i < 10; i++) {
		if (g->func_excl[order[i]] == 0.0)
			break;
		json_t *e = json_object();
		json_object_set_new(e, "name", json_string(g->funcs[order[i]].name));
		json_object_set_new(e, "exclusive", json_real(g->func_excl[order[i]]));
		json_array_append_new(list, e);
	}
	free(order);
	return list;
}

int finish_answers(struct gen *g)
{
	json_t *rest = json_object(), *metrics = json_array();
	if (rest == NULL || metrics == NULL)
		return -1;
	double global = g->global_stats[GEN_STAT_EXECUTION_SUM];
	json_object_set_new(rest, "title", json_string(g->opt.title));
	for (uint32_t m = 0; m < g->n_metrics; m++)
		json_array_append_new(metrics, json_string(g->metric_names[m]));
	json_object_set_new(rest, "metrics", metrics);
	json_object_set_new(rest, "profiles", json_integer(g->n_threads + 1));
	json_object_set_new(rest, "global", stats_object(g, g->global_stats));
	json_object_set_new(rest, "hotpath", hot_path(g, global, 0.5));
	json_object_set_new(rest, "hotpath0", hot_path(g, global, 0.0));
	json_object_set_new(rest, "flat_functions", flat_functions(g));
	json_object_set_new(rest, "max_ctx_id", json_integer(g->max_id));
	json_object_set_new(rest, "seed", json_integer((json_int_t)g->opt.seed));
	json_object_set_new(rest, "probe_rule",
			    json_string("ctx of the last sample whose timestamp <= t (index -1 and ctx 0 before the first)"));
	if (g->opt.trace && g->probes != NULL) {
		json_t *trace = json_object();
		json_object_set_new(trace, "lines", json_integer(g->trace_lines));
		json_object_set_new(trace, "elements", json_integer((json_int_t)g->trace_elements));
		/* null without samples: there is no time range */
		json_object_set_new(trace, "min", g->trace_elements ? json_integer((json_int_t)g->trace_min) : json_null());
		json_object_set_new(trace, "max", g->trace_elements ? json_integer((json_int_t)g->trace_max) : json_null());
		json_object_set_new(trace, "probes", json_incref(g->probes));
		json_object_set_new(rest, "trace", trace);
	}
	char *text = json_dumps(rest, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	json_decref(rest);
	if (text == NULL)
		return -1;
	fprintf(g->answers, "\n},\n%s\n", text + 1);
	free(text);
	return 0;
}
