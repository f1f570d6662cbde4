/* view_flat: hpcviewer's flat view.  Every context of the model is put in
 * a static tree: load module -> source file -> function -> loop -> line.
 * Functions are grouped by identity (as in bottom-up) under the module and
 * file of their function record; loops nest as in the calling-context tree,
 * inside the nearest enclosing frame; statements and call sites are grouped
 * by file:line and instructions by module@offset under their nearest
 * enclosing loop or frame.  Statements outside any function (directly under
 * an entry point or the root) go to a row standing for that entry point.
 * A row's values are sums of the standard formula values of the contexts it
 * stands for (module and file rows: the contexts of their functions), or,
 * for a column that is not such a sum (a mean, a minimum, a ratio:
 * view_stat.c), the formula over its statistics combined over the same
 * contexts, blank when they cannot be;
 * inclusive columns count only contexts without an ancestor context that
 * maps to the same row, so recursion is not counted twice, and exclusive
 * columns of module and file rows skip contexts whose exclusive value is
 * already in their enclosing function's (NODE_TRAIT_EXCL_IN_FRAME), so
 * inlined code is not counted twice.
 *
 * The whole tree is built by one pass over the model at the first request
 * that needs it, plus one walk for the recursion flags.  Must not depend on
 * curses, on ui/ or on any reader; never modifies the model. */
#include "config.h"

#include "views/view_internal.h"
#include "core/array.h"
#include "core/check.h"
#include "core/hash.h"

#include <stdlib.h>
#include <string.h>

enum flat_tag {
	FLAT_ROOT,
	FLAT_MODULE,
	FLAT_FILE,
	FLAT_FUNCTION,
	FLAT_LOOP,
	FLAT_LINE,
	FLAT_INSTRUCTION,
};

/* recursion flags per context: no ancestor context in the same ... row */
enum {
	OUTER_OWN = 1 << 0,
	OUTER_FILE = 1 << 1,
	OUTER_MODULE = 1 << 2,
};

struct flat_row {
	uint32_t parent;
	uint32_t depth;
	uint32_t model_node; /* representative context */
	uint8_t tag;         /* enum flat_tag */
};

/* The grouping key of a row, kept only while building. */
struct flat_key {
	uint32_t parent;
	uint32_t a; /* module or file string, identity, or file string */
	uint64_t b; /* line or offset */
	uint8_t tag;
};

/* Per function identity while building: the last function row made for
 * it, with the module and file it was made for. */
struct ident_row {
	uint32_t module, file, row;
};

struct flat {
	bool built;
	struct flat_row *rows;
	uint32_t n_rows, rows_cap;
	uint32_t *row_of;     /* per model node: its row, or MODEL_NONE */
	uint8_t *outer;       /* OUTER_* bits: per model node while building,
				 then per entry of ctx[] */
	uint32_t *ctx_start;  /* per row + 1: range in ctx[] */
	uint32_t *ctx;        /* contexts grouped by row */
	uint32_t n_ctx;
	uint32_t *kid_start;  /* per row + 1: range in kids[] */
	uint32_t *kids;       /* rows grouped by parent */
	/* build only */
	struct flat_key *keys;
	uint32_t keys_cap;
	uint64_t *table; /* open addressing: hash high bits << 32 | row + 1;
			    0 = empty */
	uint32_t table_cap;
	struct ident_row *by_ident;
	uint32_t *active;
};

static enum status flat_open(struct view *v, struct error *err)
{
	struct flat *f = calloc(1, sizeof(*f));
	if (!f)
		return error_set(err, STATUS_NOMEM, model_path(v->m),
				 "out of memory");
	v->impl = f;
	return STATUS_OK;
}

static void build_scratch_free(struct flat *f)
{
	FREE_AND_NULL(f->keys);
	FREE_AND_NULL(f->table);
	FREE_AND_NULL(f->active);
	FREE_AND_NULL(f->by_ident);
	f->keys_cap = f->table_cap = 0;
}

/* The rows' index (what a build makes besides the rows), gone: after a
 * failed build, and when the view closes. */
static void index_free(struct flat *f)
{
	free(f->row_of);
	free(f->outer);
	free(f->ctx_start);
	free(f->ctx);
	free(f->kid_start);
	free(f->kids);
	f->row_of = f->ctx_start = f->ctx = f->kid_start = f->kids = NULL;
	f->outer = NULL;
}

static void flat_close(struct view *v)
{
	struct flat *f = v->impl;
	if (!f)
		return;
	build_scratch_free(f);
	index_free(f);
	free(f->rows);
	free(f);
}

static uint64_t key_hash(uint32_t parent, uint8_t tag, uint32_t a, uint64_t b)
{
	return hash_mix64((uint64_t)parent << 32 ^ (uint64_t)tag << 24 ^ a ^
			  b * 0x9e3779b97f4a7c15ull);
}

static bool rehash(struct flat *f, uint32_t want)
{
	uint64_t ncap = f->table_cap ? (uint64_t)f->table_cap * 2 : 4096;
	while (ncap < want)
		ncap *= 2;
	if (ncap > UINT32_MAX / 2 + 1)
		return false;
	uint64_t *nt = calloc((size_t)ncap, sizeof(*nt));
	if (!nt)
		return false;
	uint32_t mask = (uint32_t)(ncap - 1);
	for (uint32_t i = 0; i < f->table_cap; i++) {
		if (!f->table[i])
			continue;
		const struct flat_key *k = &f->keys[(uint32_t)f->table[i] - 1];
		uint64_t h = key_hash(k->parent, k->tag, k->a, k->b);
		uint32_t s = (uint32_t)h & mask;
		while (nt[s])
			s = (s + 1) & mask;
		nt[s] = f->table[i];
	}
	free(f->table);
	f->table = nt;
	f->table_cap = (uint32_t)ncap;
	return true;
}

/* The row (parent, tag, a, b), created with representative `node` when
 * new.  MODEL_NONE when out of memory. */
static uint32_t row_get(struct flat *f, uint32_t parent, uint8_t tag,
			uint32_t a, uint64_t b, uint32_t node)
{
	if ((uint64_t)f->n_rows * 2 + 2 > f->table_cap && !rehash(f, 0))
		return MODEL_NONE;
	uint32_t mask = f->table_cap - 1;
	uint64_t h = key_hash(parent, tag, a, b);
	uint64_t finger = h & 0xffffffff00000000ull;
	uint32_t s = (uint32_t)h & mask;
	while (f->table[s]) {
		if ((f->table[s] & 0xffffffff00000000ull) == finger) {
			uint32_t r = (uint32_t)f->table[s] - 1;
			const struct flat_key *k = &f->keys[r];
			if (k->parent == parent && k->tag == tag &&
			    k->a == a && k->b == b)
				return r;
		}
		s = (s + 1) & mask;
	}
	uint32_t cap = f->rows_cap;
	if (!array_grow_u32((void **)&f->rows, &f->rows_cap,
		       (uint64_t)f->n_rows + 1, sizeof(*f->rows)))
		return MODEL_NONE;
	if (cap != f->rows_cap) {
		uint32_t kcap = f->keys_cap;
		if (!array_grow_u32((void **)&f->keys, &kcap, f->rows_cap,
			       sizeof(*f->keys)))
			return MODEL_NONE;
		f->keys_cap = kcap;
	}
	uint32_t r = f->n_rows++;
	f->rows[r] = (struct flat_row){
		.parent = parent,
		.depth = f->rows[parent].depth + 1,
		.model_node = node,
		.tag = tag,
	};
	f->keys[r] = (struct flat_key){
		.parent = parent,
		.a = a,
		.b = b,
		.tag = tag,
	};
	f->table[s] = finger | (r + 1);
	return r;
}

/* The function row of frame `node` (module -> file -> function). */
static uint32_t function_row(struct flat *f, const struct model *m,
			     const struct view_idents *ids, uint32_t node)
{
	const struct model_node *nd = &model_nodes(m)[node];
	uint32_t module = nd->module, file = nd->file;
	if (nd->kind != NODE_ENTRY && nd->kind != NODE_ROOT &&
	    nd->function < model_n_functions(m)) {
		const struct model_function *fn = &model_functions(m)[nd->function];
		if (fn->module)
			module = fn->module;
		if (fn->file)
			file = fn->file;
	}
	uint32_t id = ids->of_node[node];
	struct ident_row *cached = &f->by_ident[id];
	if (cached->row != MODEL_NONE && cached->module == module &&
	    cached->file == file)
		return cached->row;
	uint32_t mr = row_get(f, 0, FLAT_MODULE, module, 0, node);
	if (mr == MODEL_NONE)
		return MODEL_NONE;
	uint32_t fr = row_get(f, mr, FLAT_FILE, file, 0, node);
	if (fr == MODEL_NONE)
		return MODEL_NONE;
	uint32_t row = row_get(f, fr, FLAT_FUNCTION, id, 0, node);
	*cached = (struct ident_row){.module = module, .file = file, .row = row};
	return row;
}

static uint32_t *function_parents(struct flat *f, uint32_t row,
				  uint32_t out[2])
{
	out[0] = f->rows[row].parent;          /* file */
	out[1] = f->rows[out[0]].parent;       /* module */
	return out;
}

static void enter_node(void *ctx, uint32_t node)
{
	struct flat *f = ctx;
	uint32_t r = f->row_of[node];
	if (r == MODEL_NONE)
		return;
	uint8_t bits = 0;
	if (f->active[r]++ == 0)
		bits |= OUTER_OWN;
	if (f->rows[r].tag == FLAT_FUNCTION) {
		uint32_t up[2];
		function_parents(f, r, up);
		if (f->active[up[0]]++ == 0)
			bits |= OUTER_FILE;
		if (f->active[up[1]]++ == 0)
			bits |= OUTER_MODULE;
	}
	f->outer[node] = bits;
}

static void leave_node(void *ctx, uint32_t node)
{
	struct flat *f = ctx;
	uint32_t r = f->row_of[node];
	if (r == MODEL_NONE)
		return;
	CHECK(f->active[r] > 0); /* the walk leaves what it entered */
	f->active[r]--;
	if (f->rows[r].tag == FLAT_FUNCTION) {
		uint32_t up[2];
		function_parents(f, r, up);
		f->active[up[0]]--;
		f->active[up[1]]--;
	}
}

/* Rows of every context, in node order (parents before children). */
static enum status assign_rows(struct flat *f, const struct model *m,
			       struct error *err)
{
	struct view_idents ids = {0};
	uint32_t *cont = NULL; /* nearest enclosing loop or frame, or self */
	enum status st = view_idents_build(m, true, &ids, err);
	if (st != STATUS_OK)
		return st;
	cont = malloc((size_t)model_n_nodes(m) * sizeof(*cont));
	f->by_ident = malloc((size_t)(ids.n + 1) * sizeof(*f->by_ident));
	/* rows are often a third to two thirds of the nodes: start the
	 * table there (it keeps under half full), not to rehash on the way */
	if (!cont || !f->by_ident || !rehash(f, model_n_nodes(m)))
		goto nomem;
	for (uint32_t k = 0; k <= ids.n; k++)
		f->by_ident[k].row = MODEL_NONE;
	f->row_of[0] = MODEL_NONE;
	cont[0] = 0;
	/* read once: the model does not grow while the rows are made */
	const struct model_node *nodes = model_nodes(m);
	uint32_t n_nodes = model_n_nodes(m);
	for (uint32_t i = 1; i < n_nodes; i++) {
		const struct model_node *nd = &nodes[i];
		uint32_t p = nd->parent;
		if (p >= i) {
			/* the builder only appends under existing nodes */
			st = error_set(err, STATUS_CORRUPT, model_path(m),
				       "node %u comes before its parent",
				       (unsigned)i);
			goto out;
		}
		uint32_t c = cont[p];
		uint32_t row = MODEL_NONE;
		cont[i] = i;
		if (nd->kind == NODE_ENTRY) {
			f->row_of[i] = MODEL_NONE;
			continue;
		}
		if (view_is_frame(nd->kind, false)) {
			row = function_row(f, m, &ids, i);
			if (row == MODEL_NONE)
				goto nomem;
			f->row_of[i] = row;
			continue;
		}
		/* a statement or loop: inside the row of its container; an
		 * entry point or the root stands in for a missing function */
		uint32_t crow = f->row_of[c];
		if (crow == MODEL_NONE) {
			crow = function_row(f, m, &ids, c);
			if (crow == MODEL_NONE)
				goto nomem;
			f->row_of[c] = crow;
		}
		switch ((enum node_kind)nd->kind) {
		case NODE_LOOP:
			row = row_get(f, crow, FLAT_LOOP, nd->file, nd->line,
				      i);
			break;
		case NODE_INSTRUCTION:
		case NODE_ADDRESS:
			row = row_get(f, crow, FLAT_INSTRUCTION, nd->module,
				      nd->offset, i);
			cont[i] = c;
			break;
		default:
			row = row_get(f, crow, FLAT_LINE, nd->file, nd->line,
				      i);
			cont[i] = c;
			break;
		}
		if (row == MODEL_NONE)
			goto nomem;
		f->row_of[i] = row;
	}
	goto out;
nomem:
	st = error_set(err, STATUS_NOMEM, model_path(m),
		       "out of memory building the flat view");
out:
	view_idents_free(&ids);
	free(cont);
	return st;
}

/* Counting sort of `n` items by `key_of` into start[] (n_keys + 1) and
 * out[]. */
static bool group(uint32_t n_keys, const uint32_t *key_of, uint32_t n,
		  uint32_t first, uint32_t **start, uint32_t **out)
{
	*start = calloc((size_t)n_keys + 2, sizeof(**start));
	if (!*start)
		return false;
	uint32_t total = 0;
	for (uint32_t i = first; i < n; i++)
		if (key_of[i] != MODEL_NONE) {
			(*start)[key_of[i] + 2]++;
			total++;
		}
	*out = malloc((size_t)(total ? total : 1) * sizeof(**out));
	if (!*out)
		return false;
	for (uint32_t k = 0; k < n_keys; k++)
		(*start)[k + 2] += (*start)[k + 1];
	/* start[k + 1] is the write position of key k while filling */
	for (uint32_t i = first; i < n; i++)
		if (key_of[i] != MODEL_NONE)
			(*out)[(*start)[key_of[i] + 1]++] = i;
	return true;
}

static enum status flat_build(struct view *v, struct error *err)
{
	struct flat *f = v->impl;
	const struct model *m = v->m;
	uint32_t *parent_of = NULL;
	enum status st = STATUS_OK;
	if (f->built)
		return STATUS_OK;
	if (!array_grow_u32((void **)&f->rows, &f->rows_cap, 1, sizeof(*f->rows)) ||
	    !array_grow_u32((void **)&f->keys, &f->keys_cap, f->rows_cap,
		       sizeof(*f->keys)))
		goto nomem;
	f->rows[0] = (struct flat_row){
		.parent = MODEL_NONE,
		.model_node = 0,
		.tag = FLAT_ROOT,
	};
	f->keys[0] = (struct flat_key){.parent = MODEL_NONE, .tag = FLAT_ROOT};
	f->n_rows = 1;
	f->row_of = malloc((size_t)model_n_nodes(m) * sizeof(*f->row_of));
	f->outer = calloc(model_n_nodes(m), 1);
	if (!f->row_of || !f->outer)
		goto nomem;
	st = assign_rows(f, m, err);
	if (st != STATUS_OK)
		goto out;
	FREE_AND_NULL(f->table);
	f->active = calloc(f->n_rows, sizeof(*f->active));
	if (!f->active)
		goto nomem;
	st = view_walk(m, enter_node, leave_node, f, err);
	if (st != STATUS_OK)
		goto out;
	if (!group(f->n_rows, f->row_of, model_n_nodes(m), 0, &f->ctx_start,
		   &f->ctx))
		goto nomem;
	/* the flags in ctx[] order: a row's sum reads one run of them (and
	 * of the view's dense values, stored in the same order) */
	f->n_ctx = f->ctx_start[f->n_rows];
	uint8_t *outer = malloc((size_t)f->n_ctx + 1);
	if (!outer)
		goto nomem;
	for (uint32_t k = 0; k < f->n_ctx; k++)
		outer[k] = f->outer[f->ctx[k]];
	free(f->outer);
	f->outer = outer;
	parent_of = malloc((size_t)f->n_rows * sizeof(*parent_of));
	if (!parent_of)
		goto nomem;
	for (uint32_t r = 0; r < f->n_rows; r++)
		parent_of[r] = f->rows[r].parent;
	if (!group(f->n_rows, parent_of, f->n_rows, 1, &f->kid_start,
		   &f->kids))
		goto nomem;
	f->built = true;
	goto out;
nomem:
	st = error_set(err, STATUS_NOMEM, model_path(m),
		       "out of memory building the flat view");
out:
	build_scratch_free(f);
	free(parent_of);
	if (!f->built) {
		index_free(f);
		f->n_rows = 0;
	}
	return st;
}

static bool flat_exists(const struct view *v, uint32_t node)
{
	const struct flat *f = v->impl;
	return node == 0 || (f->built && node < f->n_rows);
}

static enum status flat_children(struct view *v, uint32_t node,
				 uint32_t **out, size_t *n, struct error *err)
{
	struct flat *f = v->impl;
	enum status st = flat_build(v, err);
	if (st != STATUS_OK)
		return st;
	uint32_t a = f->kid_start[node], b = f->kid_start[node + 1];
	*n = b - a;
	*out = NULL;
	if (a == b)
		return STATUS_OK;
	*out = malloc((size_t)(b - a) * sizeof(**out));
	if (!*out)
		return error_set(err, STATUS_NOMEM, model_path(v->m),
				 "out of memory");
	memcpy(*out, f->kids + a, (size_t)(b - a) * sizeof(**out));
	return STATUS_OK;
}

/* What a row's value adds up: a sum of the column's standard values (a
 * run of the view's dense values, or per node), or, for a column that is
 * not such a sum, its statistics (view_leaves). */
struct row_acc {
	const struct view_dense *d; /* sums only; NULL: per node */
	uint32_t column;
	struct view_sum sum;
	struct view_leaves *leaves; /* NULL: a sum */
};

/* Add the contexts of row `r` (a function, loop, line or instruction) to
 * `acc`, those with `need` in their flags only when `need` is set, and
 * those whose exclusive value is already in their enclosing function's
 * (NODE_TRAIT_EXCL_IN_FRAME) only when `skip_inlined` is false. */
static void add_contexts(const struct view *v, uint32_t r, uint8_t need,
			 bool skip_inlined, struct row_acc *acc)
{
	const struct flat *f = v->impl;
	for (uint32_t k = f->ctx_start[r]; k < f->ctx_start[r + 1]; k++) {
		if (need && !(f->outer[k] & need))
			continue;
		if (skip_inlined && model_nodes(v->m)[f->ctx[k]].traits &
					    NODE_TRAIT_EXCL_IN_FRAME)
			continue;
		if (acc->leaves) {
			view_leaves_add(acc->leaves, k, f->ctx[k]);
			continue;
		}
		double val;
		bool present = view_dense_value(v, acc->d, k, f->ctx[k],
						acc->column, &val);
		view_sum_add(&acc->sum, present, val);
	}
}

static bool flat_value(struct view *v, uint32_t node, uint32_t column,
		       double *out)
{
	const struct flat *f = v->impl;
	const struct model *m = v->m;
	if (node == 0)
		return model_value_standard(m, 0, column, out);
	bool inclusive = model_columns(m)[column].kind == COLUMN_INCLUSIVE;
	struct view_leaves leaves;
	struct row_acc acc = {.column = column};
	if (view_rule_of(v, column) == VIEW_RULE_BLANK)
		return false;
	if (view_leaves_begin(&leaves, v, node, column, f->ctx, f->n_ctx))
		acc.leaves = &leaves;
	else
		acc.d = view_dense_column(v, column, f->ctx, f->n_ctx);
	switch ((enum flat_tag)f->rows[node].tag) {
	case FLAT_MODULE:
		for (uint32_t i = f->kid_start[node];
		     i < f->kid_start[node + 1]; i++) {
			uint32_t file = f->kids[i];
			for (uint32_t j = f->kid_start[file];
			     j < f->kid_start[file + 1]; j++)
				add_contexts(v, f->kids[j],
					     inclusive ? OUTER_MODULE : 0,
					     !inclusive, &acc);
		}
		break;
	case FLAT_FILE:
		for (uint32_t j = f->kid_start[node];
		     j < f->kid_start[node + 1]; j++)
			add_contexts(v, f->kids[j], inclusive ? OUTER_FILE : 0,
				     !inclusive, &acc);
		break;
	case FLAT_ROOT:
	case FLAT_FUNCTION:
	case FLAT_LOOP:
	case FLAT_LINE:
	case FLAT_INSTRUCTION:
		add_contexts(v, node, inclusive ? OUTER_OWN : 0, false, &acc);
		break;
	}
	if (acc.leaves)
		return view_leaves_value(acc.leaves, out);
	*out = acc.sum.value;
	return acc.sum.present;
}

static void flat_node_get(const struct view *v, uint32_t node,
			  struct view_node *out)
{
	const struct flat *f = v->impl;
	uint8_t kind = NODE_ROOT;
	/* a group's row kind (0: the row of a model node), one per tag;
	 * FLAT_INSTRUCTION is the last tag */
	static const uint8_t group_kind[FLAT_INSTRUCTION + 1] = {
	    [FLAT_MODULE] = VIEW_ROW_MODULE, [FLAT_FILE] = VIEW_ROW_FILE};
	if (node != 0) {
		const struct flat_row *r = &f->rows[node];
		CHECK(r->tag < sizeof(group_kind));
		kind = group_kind[r->tag];
		if (kind == 0) {
			kind = model_nodes(v->m)[r->model_node].kind;
			if (kind == NODE_ROOT)
				kind = NODE_ENTRY;
		}
	}
	*out = (struct view_node){
		.parent = node ? f->rows[node].parent : MODEL_NONE,
		.depth = node ? f->rows[node].depth : 0,
		.kind = kind,
		.model_node = node ? f->rows[node].model_node : 0,
		.id = node,
	};
}

static char *path_label(const char *path, const char *unknown)
{
	return strdup(*path ? path : unknown);
}

static char *flat_label(const struct view *v, uint32_t node)
{
	const struct flat *f = v->impl;
	const struct model *m = v->m;
	if (node == 0)
		return model_node_label(m, 0);
	const struct flat_row *r = &f->rows[node];
	/* a module or file row's path is the one of its first function */
	uint32_t fn = r->model_node;
	const struct model_node *nd = &model_nodes(m)[fn];
	const struct model_function *mf =
		nd->kind != NODE_ENTRY && nd->kind != NODE_ROOT &&
				nd->function < model_n_functions(m)
			? &model_functions(m)[nd->function]
			: NULL;
	if (r->tag == FLAT_MODULE)
		return path_label(model_str(m, mf && mf->module ? mf->module
								: nd->module),
				  "<unknown module>");
	if (r->tag == FLAT_FILE)
		return path_label(model_str(m, mf && mf->file ? mf->file
							      : nd->file),
				  "<unknown file>");
	return model_node_label(m, fn);
}

const struct view_ops view_flat_ops = {
	.kind = VIEW_FLAT,
	.name = "flat",
	.open = flat_open,
	.close = flat_close,
	.exists = flat_exists,
	.children = flat_children,
	.value = flat_value,
	.node_get = flat_node_get,
	.label = flat_label,
	.cache_values = true,
};
