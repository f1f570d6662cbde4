/* gen-v4db's meta.db: the general properties, identifier names, metrics
 * and propagation scopes, modules, files, functions and the context tree,
 * with its string table (the {Ctx} layout of the v4 specification). */

#include "config.h"

#include "gen.h"

static uint32_t ctx_size(uint8_t kind)
{
	switch (kind) {
	case GEN_KIND_FUNCTION:
		return 0x20 + 8;
	case GEN_KIND_LOOP:
		return 0x20 + 32;
	case GEN_KIND_LINE:
	case GEN_KIND_INSTRUCTION:
		return 0x20 + 16;
	default:
		return 0x20;
	}
}

uint64_t node_offset(const struct gen *g, uint32_t idx)
{
	const struct node *n = &g->nodes[idx];
	const struct func *f = &g->funcs[n->func];
	if (n->kind == GEN_KIND_INSTRUCTION)
		return f->offset + n->aux;
	return f->offset + 16 + hash3(g->opt.seed, idx, GEN_SALT_OFFSET) % 0x2000;
}

struct meta_layout {
	uint64_t sec[16]; /* {size, pointer} x 8 */
	uint64_t strings_base;
	uint64_t modules_array;
	uint64_t files_array;
	uint64_t functions_array;
	uint64_t ctx_base;
};

struct strtab {
	struct buf b;
	uint32_t entry[2];
	uint32_t *module;
	uint32_t *file;
	uint32_t *func;
};

static uint32_t strtab_add(struct strtab *s, const char *str)
{
	uint32_t at = (uint32_t)s->b.len;
	buf_str(&s->b, str);
	return at;
}

/* The 16-byte header of a meta.db array section: the array's offset, its
 * count and the size of one element. */
static void array_header(struct buf *b, uint64_t array, uint32_t n,
			 uint16_t size)
{
	buf_uint(b, array, 8);
	buf_uint(b, n, 4);
	buf_uint(b, size, 2);
	buf_zero(b, 2);
}

/* An array of {flags, path} elements (load modules, source files): no
 * flags, each path the string at strings_base + str[i]. */
static void path_table(struct buf *b, uint64_t array, uint32_t n,
		       uint64_t strings_base, const uint32_t *str)
{
	array_header(b, array, n, 16);
	for (uint32_t i = 0; i < n; i++) {
		buf_uint(b, 0, 8);
		buf_uint(b, strings_base + str[i], 8);
	}
}

static char *description_text(const struct gen *g)
{
	char *d = NULL;
	if (asprintf(&d,
		     "# Synthetic database\n\nWritten by callscope's `gen-v4db` (seed %" PRIu64
		     ", %u contexts, %u metrics, %u ranks x %u threads).  Not a real measurement.\n",
		     g->opt.seed, g->n_nodes, g->n_metrics, g->opt.ranks, g->opt.threads) < 0)
		return NULL;
	return d;
}

int write_meta(struct gen *g)
{
	struct buf general = { 0 }, idnames = { 0 }, metrics = { 0 }, modules = { 0 }, files = { 0 }, funcs = { 0 };
	struct strtab st = { 0 };
	struct meta_layout L = { 0 };
	struct bw w = { .fd = -1 };
	char *path = NULL, *desc = NULL;
	uint32_t *off8 = NULL;
	int fd = -1, rc = -1;
	uint32_t M = g->n_metrics;

	desc = description_text(g);
	st.module = calloc(GEN_N_MODULES, sizeof(uint32_t));
	st.file = calloc(g->n_files, sizeof(uint32_t));
	st.func = calloc(g->n_funcs, sizeof(uint32_t));
	if (desc == NULL || st.module == NULL || st.file == NULL || st.func == NULL)
		goto out;

	/* Common string table: entry names, module and file paths, function names. */
	st.entry[0] = strtab_add(&st, g->entry_names[0]);
	st.entry[1] = strtab_add(&st, g->entry_names[1]);
	for (uint32_t i = 0; i < GEN_N_MODULES; i++)
		st.module[i] = strtab_add(&st, g->module_paths[i]);
	for (uint32_t i = 0; i < g->n_files; i++)
		st.file[i] = strtab_add(&st, file_path(g, i));
	for (uint32_t i = 0; i < g->n_funcs; i++)
		st.func[i] = strtab_add(&st, g->funcs[i].name);

	/* General Properties: title and description inside the section. */
	uint64_t base = 0x90;
	const char *title = g->title;
	buf_uint(&general, base + 16, 8);
	buf_uint(&general, base + 16 + strlen(title) + 1, 8);
	buf_str(&general, title);
	buf_str(&general, desc);
	L.sec[0] = general.len;
	L.sec[1] = base;
	base = align_up(base + general.len, 8);

	/* Identifier Names. */
	size_t n_kinds = sizeof id_names / sizeof id_names[0];
	buf_uint(&idnames, base + 16, 8);
	buf_uint(&idnames, n_kinds, 1);
	buf_align(&idnames, 8);
	uint64_t name_at = base + 16 + 8 * n_kinds;
	for (size_t i = 0; i < n_kinds; i++) {
		buf_uint(&idnames, name_at, 8);
		name_at += strlen(g->kind_names[i]) + 1;
	}
	for (size_t i = 0; i < n_kinds; i++)
		buf_str(&idnames, g->kind_names[i]);
	L.sec[2] = idnames.len;
	L.sec[3] = base;
	base = align_up(base + idnames.len, 8);

	/* Performance Metrics: header, {PS}, {MD}, {PSI}, {SS}, then strings. */
	{
		uint64_t p_scopes = base + 0x20;
		uint64_t p_md = p_scopes + GEN_N_SCOPES * 16;
		uint64_t p_psi = p_md + (uint64_t)M * 32;
		uint64_t p_ss = p_psi + (uint64_t)M * GEN_N_SCOPES * 16;
		uint64_t p_str = p_ss + (uint64_t)M * GEN_N_STATS * 24;
		uint64_t s_scope[GEN_N_SCOPES], s_dollar, s_one, s_metric0;
		uint64_t at = p_str;
		for (int s = 0; s < GEN_N_SCOPES; s++) {
			s_scope[s] = at;
			at += strlen(scope_names[s]) + 1;
		}
		s_dollar = at;
		at += 3;
		s_one = at;
		at += 2;
		s_metric0 = at;
		buf_uint(&metrics, p_md, 8);
		buf_uint(&metrics, M, 4);
		buf_uint(&metrics, 32, 1);
		buf_uint(&metrics, 16, 1);
		buf_uint(&metrics, 24, 1);
		buf_uint(&metrics, 0, 1);
		buf_uint(&metrics, p_scopes, 8);
		buf_uint(&metrics, GEN_N_SCOPES, 2);
		buf_uint(&metrics, 16, 1);
		buf_align(&metrics, 8);
		buf_zero(&metrics, 0x20 - metrics.len);
		for (int s = 0; s < GEN_N_SCOPES; s++) {
			buf_uint(&metrics, s_scope[s], 8);
			buf_uint(&metrics, scope_types[s], 1);
			buf_uint(&metrics, scope_prop_index[s], 1);
			buf_zero(&metrics, 6);
		}
		at = s_metric0;
		for (uint32_t m = 0; m < M; m++) {
			buf_uint(&metrics, at, 8);
			buf_uint(&metrics, p_psi + (uint64_t)m * GEN_N_SCOPES * 16, 8);
			buf_uint(&metrics, p_ss + (uint64_t)m * GEN_N_STATS * 24, 8);
			buf_uint(&metrics, GEN_N_SCOPES, 2);
			buf_uint(&metrics, GEN_N_STATS, 2);
			buf_zero(&metrics, 4);
			at += strlen(g->metric_names[m]) + 1;
		}
		for (uint32_t m = 0; m < M; m++)
			for (int s = 0; s < GEN_N_SCOPES; s++) {
				buf_uint(&metrics, p_scopes + (uint64_t)s * 16, 8);
				buf_uint(&metrics, prop_id(m, (enum gen_scope)s), 2);
				buf_zero(&metrics, 6);
			}
		for (uint32_t m = 0; m < M; m++)
			for (int k = 0; k < GEN_N_STATS; k++) {
				const struct stat_def *sd = &stat_defs[k];
				buf_uint(&metrics, p_scopes + (uint64_t)sd->scope * 16, 8);
				buf_uint(&metrics, strcmp(sd->formula, "1") == 0 ? s_one : s_dollar, 8);
				buf_uint(&metrics, sd->combine, 1);
				buf_zero(&metrics, 1);
				buf_uint(&metrics, stat_id(g, m, (enum gen_stat)k), 2);
				buf_zero(&metrics, 4);
			}
		for (int s = 0; s < GEN_N_SCOPES; s++)
			buf_str(&metrics, scope_names[s]);
		buf_str(&metrics, "$$");
		buf_str(&metrics, "1");
		for (uint32_t m = 0; m < M; m++)
			buf_str(&metrics, g->metric_names[m]);
	}
	L.sec[4] = metrics.len;
	L.sec[5] = base;
	base = align_up(base + metrics.len, 8);

	/* Strings (section index 4 in the header is Context; Strings is 5th). */
	L.strings_base = base;
	L.sec[8] = st.b.len;
	L.sec[9] = base;
	base = align_up(base + st.b.len, 8);

	/* Load Modules. */
	L.modules_array = base + 16;
	path_table(&modules, L.modules_array, GEN_N_MODULES, L.strings_base,
		   st.module);
	L.sec[10] = modules.len;
	L.sec[11] = base;
	base = align_up(base + modules.len, 8);

	/* Source Files. */
	L.files_array = base + 16;
	path_table(&files, L.files_array, g->n_files, L.strings_base, st.file);
	L.sec[12] = files.len;
	L.sec[13] = base;
	base = align_up(base + files.len, 8);

	/* Functions. */
	L.functions_array = base + 16;
	array_header(&funcs, L.functions_array, g->n_funcs, 40);
	for (uint32_t i = 0; i < g->n_funcs; i++) {
		const struct func *f = &g->funcs[i];
		buf_uint(&funcs, L.strings_base + st.func[i], 8);
		buf_uint(&funcs, L.modules_array + 16ULL * f->module, 8);
		buf_uint(&funcs, f->offset, 8);
		buf_uint(&funcs, L.files_array + 16ULL * f->file, 8);
		buf_uint(&funcs, f->line, 4);
		buf_uint(&funcs, 0, 4);
	}
	L.sec[14] = funcs.len;
	L.sec[15] = base;
	base = align_up(base + funcs.len, 8);

	if (general.failed || idnames.failed || metrics.failed || st.b.failed || modules.failed || files.failed ||
	    funcs.failed)
		goto out;

	/* Context Tree: header, {Entry} array, then every {Ctx} in node order
	 * (children of one parent are contiguous node indexes). */
	L.ctx_base = base;
	uint64_t ctx_first = base + 16 + 32ULL * g->n_entries;
	uint64_t ctx_end = ctx_first;
	for (uint32_t i = g->n_entries; i < g->n_nodes; i++)
		ctx_end += ctx_size(g->nodes[i].kind);
	L.sec[6] = ctx_end - base;
	L.sec[7] = base;

	fd = open_out(g, "meta.db", &path);
	if (fd < 0)
		goto out;
	unsigned char header[0x90] = { 0 };
	file_header(header, "meta", L.sec, 8);
	int e = write_at(fd, 0, header, sizeof header);
	/* the sections made in memory, each at its offset */
	const struct {
		uint64_t at;
		const struct buf *b;
	} parts[] = {
		{ L.sec[1], &general }, { L.sec[3], &idnames }, { L.sec[5], &metrics },
		{ L.sec[9], &st.b }, { L.sec[11], &modules }, { L.sec[13], &files },
		{ L.sec[15], &funcs },
	};
	for (size_t i = 0; e == 0 && i < sizeof parts / sizeof parts[0]; i++)
		e = write_at(fd, parts[i].at, parts[i].b->data, parts[i].b->len);
	if (write_failed(path, e))
		goto out;

	bw_init(&w, fd, base, 1 << 20);
	bw_uint(&w, base + 16, 8);
	bw_uint(&w, g->n_entries, 2);
	bw_uint(&w, 32, 1);
	bw_align(&w, 8);
	/* offset (in 8-byte units, from ctx_first) of every {Ctx} in node
	 * order and of the end: the child blocks of revived nodes come after
	 * those of later nodes, so no single cursor finds them all */
	uint32_t n_ctx = g->n_nodes - g->n_entries;
	off8 = malloc(((size_t)n_ctx + 1) * sizeof(*off8));
	if (off8 == NULL)
		goto out;
	off8[0] = 0;
	for (uint32_t k = 0; k < n_ctx; k++)
		off8[k + 1] = off8[k] + ctx_size(g->nodes[g->n_entries + k].kind) / 8;
	for (uint32_t i = 0; i < g->n_nodes; i++) {
		const struct node *n = &g->nodes[i];
		uint64_t p_children = 0, sz_children = 0;
		/* --cycle: the last context (a leaf: children follow their
		 * parents) gets the first context of entry 0 as its child,
		 * an ancestor of it when there is one entry point */
		if (g->opt.cycle && i + 1 == g->n_nodes && g->n_nodes > g->n_entries) {
			p_children = ctx_first;
			sz_children = ctx_size(g->nodes[g->n_entries].kind);
		}
		if (n->n_children > 0) {
			uint32_t first = n->first_child - g->n_entries;
			p_children = ctx_first + 8ULL * off8[first];
			sz_children = 8ULL * (off8[first + n->n_children] - off8[first]);
		}
		bw_uint(&w, sz_children, 8);
		bw_uint(&w, p_children, 8);
		bw_uint(&w, n->ctx_id, 4);
		if (n->kind == GEN_KIND_ENTRY) {
			bw_uint(&w, n->func, 2);
			bw_uint(&w, 0, 2);
			bw_uint(&w, L.strings_base + st.entry[n->func - 1], 8);
			continue;
		}
		uint8_t flags = 0, lexical = 0, words = 0;
		switch (n->kind) {
		case GEN_KIND_FUNCTION:
			flags = 1, lexical = 0, words = 1;
			break;
		case GEN_KIND_LOOP:
			flags = 6, lexical = 1, words = 4;
			break;
		case GEN_KIND_LINE:
			flags = 2, lexical = 2, words = 2;
			break;
		default:
			flags = 4, lexical = 3, words = 2;
			break;
		}
		const struct func *f = &g->funcs[n->func];
		bw_uint(&w, flags, 1);
		bw_uint(&w, n->relation, 1);
		bw_uint(&w, lexical, 1);
		bw_uint(&w, words, 1);
		/* function-scope bit (propagationIndex 0): lexical relations only,
		 * as hpcprof writes it, so "function" is exclusive of calls */
		bw_uint(&w, n->relation == GEN_RELATION_LEXICAL ? 1 : 0, 2);
		bw_uint(&w, 0, 6);
		if (flags & 1)
			bw_uint(&w, L.functions_array + 40ULL * n->func, 8);
		if (flags & 2) {
			bw_uint(&w, L.files_array + 16ULL * f->file, 8);
			bw_uint(&w, n->aux, 4);
			bw_uint(&w, 0, 4);
		}
		if (flags & 4) {
			bw_uint(&w, L.modules_array + 16ULL * f->module, 8);
			bw_uint(&w, node_offset(g, i), 8);
		}
	}
	if (bw_pos(&w) != ctx_end)
		fprintf(stderr, "gen-v4db: internal error: context section size mismatch\n");
	e = bw_finish(&w);
	if (e == 0)
		e = write_footer(fd, ctx_end, "_meta.db");
	if (write_failed(path, e))
		goto out;
	rc = 0;
out:
	rc = close_out(fd, &w, rc);
	free(path);
	free(desc);
	free(general.data);
	free(idnames.data);
	free(metrics.data);
	free(modules.data);
	free(files.data);
	free(funcs.data);
	free(st.b.data);
	free(st.module);
	free(st.file);
	free(st.func);
	free(off8);
	return rc;
}
