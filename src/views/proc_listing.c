/* proc_listing: builds a procedure's instruction listing (see
 * proc_listing.h): the sampled addresses of the procedure's subtree,
 * sorted, joined by address range to the instructions the model's
 * reader emits (reader_listing: the registry asks the reader that has
 * listings; this file knows no format). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/proc_listing.h"
#include "core/array.h"
#include "formats/reader.h"

struct addr_node {
	uint64_t addr;
	uint32_t node;
};

struct build {
	const struct model *m;
	struct proc_listing *l;
	struct addr_node *addrs; /* sorted by address */
	size_t n_addrs;
	size_t cap_rows;
	double *vals; /* rows x n_columns, rebased into rows at the end */
	bool failed;
};

static int addr_cmp(const void *a, const void *b)
{
	const struct addr_node *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

uint32_t proc_listing_find(const struct model *m, const char *name)
{
	/* every procedure: deferred subtrees too (model.h) */
	struct error err = {0};
	if (m && model_deferred_pending(m) &&
	    model_load_all(m, &err) != STATUS_OK) {
		error_clear(&err);
		return MODEL_NONE;
	}
	for (uint32_t i = 1; m && name && i < model_n_nodes(m); i++)
		if (model_nodes(m)[i].kind == NODE_FUNCTION &&
		    strcmp(model_str(m, model_nodes(m)[i].name), name) == 0)
			return i;
	return MODEL_NONE;
}

uint32_t proc_listing_procedure_of(const struct model *m, uint32_t node)
{
	while (m && node < model_n_nodes(m) && node != 0) {
		if (model_nodes(m)[node].kind == NODE_FUNCTION &&
		    model_nodes(m)[node].relation != RELATION_INLINED_CALL)
			return node;
		node = model_nodes(m)[node].parent;
	}
	return MODEL_NONE;
}

static bool addr_below(const void *elem, const void *key)
{
	return ((const struct addr_node *)elem)->addr < *(const uint64_t *)key;
}

/* The first sampled address at or after `addr`. */
static size_t first_at(const struct build *b, uint64_t addr)
{
	return array_lower_bound(b->addrs, b->n_addrs, sizeof(*b->addrs),
				 addr_below, &addr);
}

static double value_at(const struct build *b, uint32_t node, size_t c)
{
	double v = 0;
	if (!model_value(b->m, node, b->l->columns[c], &v))
		return 0;
	return v;
}

static bool grow_rows(struct build *b)
{
	struct proc_listing *l = b->l;
	if (l->n_rows < b->cap_rows)
		return true;
	size_t nc = b->cap_rows ? b->cap_rows * 2 : 64;
	struct proc_listing_row *nr = realloc(l->rows, nc * sizeof(*nr));
	if (!nr)
		return false;
	l->rows = nr;
	double *nv = realloc(b->vals, nc * (l->n_columns + 1) * sizeof(*nv));
	if (!nv)
		return false;
	b->vals = nv;
	b->cap_rows = nc;
	return true;
}

/* Keep each instruction (copied) and its samples: those of every sampled
 * address inside it. */
static void emit(void *ctx, const struct reader_insn *in)
{
	struct build *b = ctx;
	struct proc_listing *l = b->l;
	if (b->failed || !grow_rows(b)) {
		b->failed = true;
		return;
	}
	struct proc_listing_row *r = &l->rows[l->n_rows];
	*r = (struct proc_listing_row){.addr = in->addr, .line = in->line};
	double *v = b->vals + l->n_rows * (l->n_columns + 1);
	l->n_rows++;
	r->bytes = strdup(in->bytes);
	r->text = strdup(in->text);
	r->file = in->file ? strdup(in->file) : NULL;
	if (!r->bytes || !r->text || (in->file && !r->file)) {
		b->failed = true;
		return;
	}
	for (size_t c = 0; c < l->n_columns; c++)
		v[c] = 0;
	for (size_t i = first_at(b, in->addr);
	     i < b->n_addrs && b->addrs[i].addr - in->addr < in->size; i++)
		for (size_t c = 0; c < l->n_columns; c++)
			v[c] += value_at(b, b->addrs[i].node, c);
}

/* The procedure's sampled addresses: every address node of its subtree
 * (under lines and inlined calls), by a walk of the child links (a
 * preorder with an explicit stack: the subtree may be deep), then sorted
 * by address. */
static bool collect_addresses(struct build *b, uint32_t fn)
{
	const struct model *m = b->m;
	size_t cap = 0, sp = 0, scap = 64;
	uint32_t *stack = malloc(scap * sizeof(*stack));
	if (!stack)
		return false;
	stack[sp++] = fn;
	while (sp) {
		uint32_t x = stack[--sp];
		for (uint32_t c = model_nodes(m)[x].first_child; c != MODEL_NONE;
		     c = model_nodes(m)[c].next_sibling) {
			if (sp == scap) {
				uint32_t *ns = realloc(stack, 2 * scap *
							      sizeof(*ns));
				if (!ns)
					goto fail;
				stack = ns;
				scap *= 2;
			}
			stack[sp++] = c;
		}
		if (x == fn || model_nodes(m)[x].kind != NODE_ADDRESS)
			continue;
		if (b->n_addrs == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct addr_node *na =
				realloc(b->addrs, nc * sizeof(*na));
			if (!na)
				goto fail;
			b->addrs = na;
			cap = nc;
		}
		b->addrs[b->n_addrs++] =
			(struct addr_node){model_nodes(m)[x].offset, x};
	}
	free(stack);
	if (b->n_addrs)
		qsort(b->addrs, b->n_addrs, sizeof(*b->addrs), addr_cmp);
	return true;
fail:
	free(stack);
	return false;
}

enum status proc_listing_build(const struct model *m, uint32_t fn,
			  struct proc_listing **out, struct error *err)
{
	*out = NULL;
	char names[128];
	if (!m || !reader_has_listing(model_format(m), names, sizeof(names)))
		return error_set(err, STATUS_UNSUPPORTED, m ? model_path(m) : NULL,
				 "listings are for %s profiles", names);
	if (fn >= model_n_nodes(m) || model_nodes(m)[fn].kind != NODE_FUNCTION)
		return error_set(err, STATUS_USAGE, model_path(m),
				 "not a procedure");
	struct proc_listing *l = calloc(1, sizeof(*l));
	struct build b = {.m = m, .l = l};
	if (!l)
		goto nomem;
	l->image = model_str(m, model_nodes(m)[fn].module);
	l->columns = calloc(model_n_columns(m) + 1, sizeof(*l->columns));
	l->totals = calloc(model_n_columns(m) + 1, sizeof(*l->totals));
	if (!l->columns || !l->totals)
		goto nomem;
	for (uint32_t k = 0; k < model_n_columns(m); k++)
		if (model_columns(m)[k].kind == COLUMN_EXCLUSIVE)
			l->columns[l->n_columns++] = k;
	if (!collect_addresses(&b, fn))
		goto nomem;
	for (size_t i = 0; i < b.n_addrs; i++)
		for (size_t k = 0; k < l->n_columns; k++)
			l->totals[k] += value_at(&b, b.addrs[i].node, k);
	enum status st = reader_listing(model_format(m), l->image,
					model_nodes(m)[fn].offset, &l->procedure,
					&l->entry, &l->size, emit, &b, err);
	if (st != STATUS_OK) {
		free(b.addrs);
		free(b.vals);
		proc_listing_free(l);
		return st;
	}
	if (b.failed)
		goto nomem;
	/* the rows' values point into one block, now that it is final */
	for (size_t i = 0; i < l->n_rows; i++)
		l->rows[i].values = b.vals + i * (l->n_columns + 1);
	l->rows_block = b.vals;
	double best = 0;
	for (size_t i = 0; l->n_columns && i < l->n_rows; i++)
		if (l->rows[i].values[0] > best) {
			best = l->rows[i].values[0];
			l->hottest = i;
			l->has_hottest = true;
		}
	free(b.addrs);
	*out = l;
	return STATUS_OK;
nomem:
	free(b.addrs);
	if (l)
		l->rows_block = b.vals;
	proc_listing_free(l);
	return error_set(err, STATUS_NOMEM, model_path(m), "out of memory");
}

void proc_listing_free(struct proc_listing *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n_rows; i++) {
		free(l->rows[i].bytes);
		free(l->rows[i].text);
		free(l->rows[i].file);
	}
	free(l->rows);
	free(l->rows_block);
	free(l->procedure);
	free(l->columns);
	free(l->totals);
	free(l);
}

void proc_listing_fit(const struct proc_listing *l, int width,
		      struct proc_listing_fit *out)
{
	*out = (struct proc_listing_fit){0};
	int bytes_full = 0;
	for (size_t i = 0; l && i < l->n_rows; i++) {
		const struct proc_listing_row *r = &l->rows[i];
		char hex[24];
		int a = snprintf(hex, sizeof(hex), "%" PRIx64, r->addr);
		int b = r->bytes ? (int)strlen(r->bytes) : 0;
		int t = r->text ? (int)strlen(r->text) : 0;
		out->addr_w = a > out->addr_w ? a : out->addr_w;
		bytes_full = b > bytes_full ? b : bytes_full;
		out->text_w = t > out->text_w ? t : out->text_w;
	}
	/* "ADDR: " then "BYTES " then the text */
	long fixed = (long)out->addr_w + 2;
	if (bytes_full == 0)
		return;
	if (fixed + bytes_full + 1 + out->text_w <= width) {
		out->bytes_w = bytes_full;
		return;
	}
	long room = (long)width - fixed - 1 - out->text_w;
	if (room >= PROC_LISTING_BYTES_MIN) {
		out->bytes_w = (int)room;
		out->bytes_cut = true;
	}
}

size_t proc_listing_bytes_keep(const char *bytes, int w)
{
	if (!bytes || w <= 0)
		return 0;
	size_t len = strlen(bytes);
	if (len <= (size_t)w)
		return len;
	/* whole bytes: cut before a space, leaving a column for "..." */
	size_t keep = 0;
	for (size_t i = 0; i < len && i + 1 < (size_t)w; i++)
		if (bytes[i + 1] == ' ' || bytes[i + 1] == '\0')
			keep = i + 1;
	return keep;
}
