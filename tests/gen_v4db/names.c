/* gen-v4db's names and functions: source file paths, the --hostile
 * variants of every name and the --names listing, the function table
 * (fixed definitions and generated ones by tier) and how a context picks
 * its callee. */

#include "config.h"

#include "gen.h"

static const char *base_file_path(uint32_t file)
{
	if (file < GEN_N_APP_FILES)
		return app_files[file];
	return module_defs[file - GEN_N_APP_FILES + 1].pseudo_file;
}

const char *file_path(const struct gen *g, uint32_t file)
{
	return g->file_names[file];
}

/* ------------------------------------------------------- hostile names */

/* What --hostile puts in front of names: terminal control sequences (OSC
 * title, clear screen, C1 CSI, DEL, C0 controls) and invalid UTF-8 (lone
 * continuation, bytes that never occur, an overlong encoding), each chosen
 * so that every invalid byte is one replacement character whatever the
 * decoder's policy.  Every GEN_HOSTILE_VARIANTS-th name is instead a
 * GEN_HOSTILE_LONG-character name. */
static const char *const hostile_prefixes[] = {
	"\033]0;pwned\007", "\033[2J", "\302\23331m", "\177", "\377\376", "\200", "\300\257", "\r\b\033[1A",
};
#define GEN_N_HOSTILE_PREFIXES (sizeof hostile_prefixes / sizeof hostile_prefixes[0])
#define GEN_HOSTILE_VARIANTS (GEN_N_HOSTILE_PREFIXES + 1)
#define GEN_HOSTILE_LONG 10000

/* A heap copy of `base`, or with --hostile its variant `i`; NULL when out of
 * memory.  Variants keep `base` inside, so distinct names stay distinct. */
char *name_variant(const struct gen *g, const char *base, uint32_t i)
{
	char *out = NULL;
	if (!g->opt.hostile)
		return strdup(base);
	uint32_t k = i % GEN_HOSTILE_VARIANTS;
	if (k < GEN_N_HOSTILE_PREFIXES)
		return asprintf(&out, "%s%s\033[0m", hostile_prefixes[k], base) < 0 ? NULL : out;
	size_t len = strlen(base);
	if (len >= GEN_HOSTILE_LONG)
		return strdup(base);
	out = malloc(GEN_HOSTILE_LONG + 1);
	if (out == NULL)
		return NULL;
	memcpy(out, base, len);
	for (size_t j = len; j < GEN_HOSTILE_LONG; j++)
		out[j] = (char)('a' + j % 26);
	out[GEN_HOSTILE_LONG] = '\0';
	return out;
}

/* The tables of names written to meta.db: modules, files, identifier kinds,
 * entry points and the title, hostile or not. */
int build_names(struct gen *g)
{
	uint32_t v = 0;
	for (uint32_t i = 0; i < GEN_N_MODULES; i++)
		if ((g->module_paths[i] = name_variant(g, module_defs[i].path, v++)) == NULL)
			return -1;
	g->file_names = calloc(g->n_files, sizeof(char *));
	if (g->file_names == NULL)
		return -1;
	for (uint32_t i = 0; i < g->n_files; i++)
		if ((g->file_names[i] = name_variant(g, base_file_path(i), v++)) == NULL)
			return -1;
	for (size_t i = 0; i < sizeof id_names / sizeof id_names[0]; i++)
		if ((g->kind_names[i] = name_variant(g, id_names[i], v++)) == NULL)
			return -1;
	if ((g->entry_names[0] = name_variant(g, "main thread", v++)) == NULL ||
	    (g->entry_names[1] = name_variant(g, "application thread", v++)) == NULL)
		return -1;
	if ((g->title = name_variant(g, g->opt.title, 0)) == NULL)
		return -1;
	return 0;
}

static void hex_line(FILE *f, const char *what, const char *s)
{
	fprintf(f, "%s ", what);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		fprintf(f, "%02x", *p);
	fputc('\n', f);
}

/* --names FILE: "KIND HEX" per name written (function, file, module, kind,
 * entry, metric, title), so that tests know the exact bytes without
 * reading meta.db. */
int write_names(const struct gen *g)
{
	FILE *f = fopen(g->opt.names, "w");
	if (f == NULL) {
		fprintf(stderr, "gen-v4db: %s: %s\n", g->opt.names, strerror(errno));
		return -1;
	}
	for (uint32_t i = 0; i < g->n_funcs; i++)
		hex_line(f, "function", g->funcs[i].name);
	for (uint32_t i = 0; i < g->n_files; i++)
		hex_line(f, "file", g->file_names[i]);
	for (uint32_t i = 0; i < GEN_N_MODULES; i++)
		hex_line(f, "module", g->module_paths[i]);
	for (size_t i = 0; i < sizeof id_names / sizeof id_names[0]; i++)
		hex_line(f, "kind", g->kind_names[i]);
	for (int i = 0; i < 2; i++)
		hex_line(f, "entry", g->entry_names[i]);
	for (uint32_t m = 0; m < g->n_metrics; m++)
		hex_line(f, "metric", g->metric_names[m]);
	hex_line(f, "title", g->title);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		fprintf(stderr, "gen-v4db: cannot write %s\n", g->opt.names);
		return -1;
	}
	return 0;
}

static int add_func(struct gen *g, char *name, uint8_t tier, uint8_t module, uint8_t app_file)
{
	struct func *f = &g->funcs[g->n_funcs];
	uint64_t h = hash3(g->opt.seed, g->n_funcs, GEN_SALT_FUNC);
	*f = (struct func){ .name = name, .tier = tier, .module = module };
	if (module == 0) {
		f->file = app_file;
		f->line = 20 + (uint32_t)(h % 1800);
		f->offset = 0x401000 + (uint64_t)g->n_funcs * 0x800 + (h >> 32) % 0x400 * 16;
	} else {
		f->file = (uint16_t)(GEN_N_APP_FILES + module - 1);
		f->line = 0;
		f->offset = 0x20000 + (h >> 20) % 0x100000 * 16;
	}
	g->n_tier[tier]++;
	g->n_funcs++;
	return 0;
}

static bool base_func_named(const char *name)
{
	for (size_t i = 0; i < GEN_N_FUNC_DEFS; i++)
		if (strcmp(func_defs[i].name, name) == 0)
			return true;
	return false;
}

/* Function names are unique: the base table, then generated names. */
int build_funcs(struct gen *g)
{
	uint32_t extra = g->opt.contexts / 400;
	if (extra > 4000)
		extra = 4000;
	g->funcs = calloc(GEN_N_FUNC_DEFS + extra, sizeof *g->funcs);
	if (g->funcs == NULL)
		return -1;
	for (size_t i = 0; i < GEN_N_FUNC_DEFS; i++) {
		char *name = name_variant(g, func_defs[i].name, (uint32_t)i);
		if (name == NULL)
			return -1;
		add_func(g, name, func_defs[i].tier, func_defs[i].module, func_defs[i].file);
	}
	size_t n_ns = sizeof gen_namespaces / sizeof gen_namespaces[0];
	size_t n_v = sizeof gen_verbs / sizeof gen_verbs[0];
	size_t n_n = sizeof gen_nouns / sizeof gen_nouns[0];
	size_t combos = n_ns * n_v * n_n;
	for (uint32_t k = 0, made = 0; made < extra; k++) {
		size_t c = k % combos;
		size_t ns = c % n_ns, v = c / n_ns % n_v, n = c / n_ns / n_v;
		char *name = NULL;
		int r;
		if (k < combos)
			r = asprintf(&name, "%s::%s_%s", gen_namespaces[ns], gen_verbs[v], gen_nouns[n]);
		else
			r = asprintf(&name, "%s::%s_%s_%zu", gen_namespaces[ns], gen_verbs[v], gen_nouns[n],
				     (size_t)(k / combos));
		if (r < 0)
			return -1;
		if (base_func_named(name)) {
			free(name);
			continue;
		}
		if (g->opt.hostile) {
			char *h = name_variant(g, name, g->n_funcs);
			free(name);
			if (h == NULL)
				return -1;
			name = h;
		}
		add_func(g, name, made % 5 == 0 ? 1 : 2, 0, gen_namespace_files[ns]);
		made++;
	}
	for (int t = 0; t < GEN_TIERS; t++) {
		g->tier_funcs[t] = calloc(g->n_tier[t] ? g->n_tier[t] : 1, sizeof(uint32_t));
		if (g->tier_funcs[t] == NULL)
			return -1;
		g->n_tier[t] = 0;
	}
	for (uint32_t i = 0; i < g->n_funcs; i++) {
		uint8_t t = g->funcs[i].tier;
		g->tier_funcs[t][g->n_tier[t]++] = i;
	}
	g->n_files = (uint32_t)(GEN_N_APP_FILES + GEN_N_MODULES - 1);
	return 0;
}

uint32_t pick_tier(const struct gen *g, struct rng *r, int tier)
{
	return g->tier_funcs[tier][rng_below(r, g->n_tier[tier])];
}

/* A tier-4 function in `module` if there is one, else any tier-4 function. */
static uint32_t pick_internal(const struct gen *g, struct rng *r, uint16_t module)
{
	uint32_t n = g->n_tier[4];
	uint32_t start = (uint32_t)rng_below(r, n);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t f = g->tier_funcs[4][(start + k) % n];
		if (g->funcs[f].module == module)
			return f;
	}
	return g->tier_funcs[4][start];
}

/* The function that called the function of the context enclosing `node`
 * (for recursion through a chain), or GEN_NONE. */
static uint32_t grand_caller(const struct gen *g, uint32_t node)
{
	uint32_t seen = 0;
	for (uint32_t i = node; i != GEN_ROOT && seen < 256; i = g->nodes[i].parent, seen++) {
		const struct node *n = &g->nodes[i];
		if (n->kind == GEN_KIND_FUNCTION) {
			for (uint32_t j = n->parent; j != GEN_ROOT && seen < 256; j = g->nodes[j].parent, seen++) {
				const struct node *p = &g->nodes[j];
				if (p->kind == GEN_KIND_FUNCTION && p->func != n->func)
					return p->func;
			}
			return GEN_NONE;
		}
	}
	return GEN_NONE;
}

uint32_t pick_callee(const struct gen *g, struct rng *r, uint32_t node, uint32_t caller)
{
	const struct func *f = &g->funcs[caller];
	uint64_t x = rng_below(r, 100);
	if (f->tier == 1 || f->tier == 2) {
		if (x < 3)
			return caller;
		if (x < 8) {
			uint32_t gc = grand_caller(g, node);
			if (gc != GEN_NONE && g->funcs[gc].tier >= 1 && g->funcs[gc].tier <= 2)
				return gc;
		}
	}
	x = rng_below(r, 100);
	switch (f->tier) {
	case 0:
		return pick_tier(g, r, x < 80 ? 1 : 3);
	case 1:
		return pick_tier(g, r, x < 60 ? 2 : x < 75 ? 1 : 3);
	case 2:
		return pick_tier(g, r, x < 50 ? 2 : 3);
	default:
		return pick_internal(g, r, f->module);
	}
}
