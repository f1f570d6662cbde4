/* dcpi_tree: one DCPI image's subtree from its samples: the image row,
 * then per sampled address its function (ELF symbol table through
 * dcpi_elf), inlined calls outermost first and source line (DWARF), and the
 * address row; an address no symbol covers, or of an image not found, is a
 * row `[image @ 0xADDR]` under the image, never dropped; in a large
 * database (dcpi_lazy.c) those addresses are one deferred row per image,
 * `[image: no symbols]`, whose address rows dcpi_build_group makes when it
 * is expanded.  Used at open and
 * when a deferred image is expanded (dcpi_lazy.c).  Depends on core/,
 * model/ and the reader's own files. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/path.h"
#include "core/array.h"
#include "formats/dcpi/dcpi_internal.h"

/* Inlined calls shown around one address, outermost first. */
#define DCPI_MAX_INLINE 16

void dcpi_warn(struct opener *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	model_builder_vwarnf(o->b, NULL, fmt, ap);
	va_end(ap);
}

enum status dcpi_nomem(struct opener *o)
{
	return error_set(o->err, STATUS_NOMEM, o->path, "out of memory");
}

const char *dcpi_base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static int hit_cmp(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;
	if (x->image != y->image)
		return x->image < y->image ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	if (x->epoch != y->epoch)
		return x->epoch < y->epoch ? -1 : 1;
	return 0;
}

static bool dcpi_add_val(struct opener *o, uint32_t node, uint32_t event,
		    double value)
{
	if (!array_grow((void **)&o->vals, &o->cap_vals, o->n_vals + 1,
			sizeof(*o->vals)))
		return false;
	o->vals[o->n_vals++] = (struct val){node, event, value};
	return true;
}

static uint32_t dcpi_add_node(struct opener *o, uint32_t parent,
			 struct model_node *nd)
{
	nd->ctx_id = model_n_nodes(model_builder_peek(o->b));
	return model_builder_add_node(o->b, parent, nd);
}

uint32_t dcpi_intern(struct opener *o, const char *s)
{
	return model_builder_intern(o->b, s, strlen(s));
}

/* The ELF image of `im`: the recorded path, then each image-path
 * directory with the recorded path's last component (or the image id). */
struct dcpi_elf *dcpi_find_elf(struct opener *o, const struct image *im,
				 char **found)
{
	struct dcpi_elf *e = NULL;
	*found = NULL;
	if (im->path && dcpi_elf_open(im->path, &e, NULL) == STATUS_OK) {
		*found = strdup(im->path);
		return e;
	}
	const char *leaf = im->path ? dcpi_base_name(im->path) : im->id;
	size_t n = o->ro ? o->ro->n_image_path : 0;
	for (size_t i = 0; i < n; i++) {
		char *cand = NULL;
		if (!(cand = path_join(o->ro->image_path[i], leaf)))
			return NULL;
		if (dcpi_elf_open(cand, &e, NULL) == STATUS_OK) {
			*found = cand;
			return e;
		}
		free(cand);
	}
	return NULL;
}

/* Image `ii`'s row under the root, its module the ELF image `found` (NULL:
 * the recorded path, else the id); `deferred`: its subtree is loaded when
 * expanded. */
uint32_t dcpi_image_node(struct opener *o, uint32_t ii, const char *found,
			   bool deferred)
{
	const struct image *im = &o->images[ii];
	const char *shown = im->path ? im->path : im->id;
	struct model_node ind = {
		.name = dcpi_intern(o, dcpi_base_name(shown)),
		.function = MODEL_NONE,
		.module = dcpi_intern(o, found ? found : shown),
		.kind = NODE_ENTRY,
		.relation = RELATION_NONE,
		.traits = deferred ? NODE_TRAIT_DEFERRED : 0,
	};
	return dcpi_add_node(o, 0, &ind);
}

/* The group row of an image's addresses that no symbol covers, "[LEAF:
 * no symbols]", under image row `inode`: deferred, its rows (addresses of
 * its own) loaded when it is expanded.  MODEL_NONE when out of memory. */
static uint32_t group_node(struct opener *o, uint32_t inode, uint32_t module,
			   const char *leaf)
{
	char *label = NULL;
	if (asprintf(&label, "[%s: no symbols]", leaf) < 0)
		return MODEL_NONE;
	struct model_function f = {.name = dcpi_intern(o, label),
				   .module = module};
	free(label);
	uint32_t fi = model_builder_add_function(o->b, &f);
	struct model_node gnd = {
		.name = f.name, .function = fi, .module = module,
		.kind = NODE_FUNCTION, .relation = RELATION_LEXICAL,
		.traits = NODE_TRAIT_DEFERRED | NODE_TRAIT_DEFERRED_LEAVES,
	};
	return fi == MODEL_NONE ? MODEL_NONE : dcpi_add_node(o, inode, &gnd);
}

/* The address of offset 0 of image `im` (tstart, else the ELF .text, else
 * 0: offsets). */
static uint64_t image_base(const struct image *im, struct dcpi_elf *elf)
{
	uint64_t taddr = 0, tsize = 0;
	if (im->has_tstart)
		return im->tstart;
	return elf && dcpi_elf_text(elf, &taddr, &tsize) ? taddr : 0;
}

/* The counts of hits [h, h + n) (of one address) at `node`, by event and
 * epoch. */
static enum status add_hits(struct opener *o, uint32_t node,
			    const struct hit *h, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!dcpi_add_val(o, node, h[k].event, (double)h[k].count) ||
		    (o->ep && !dcpi_epochs_add(o->ep, node, h[k].event,
					       h[k].epoch, (double)h[k].count)))
			return dcpi_nomem(o);
	return STATUS_OK;
}

enum status dcpi_build_group(struct opener *o, uint32_t ii, uint32_t gnode,
			     const struct hit *h, size_t n)
{
	char *found = NULL;
	struct dcpi_elf *elf = dcpi_find_elf(o, &o->images[ii], &found);
	uint64_t base = image_base(&o->images[ii], elf);
	const struct model_node *g = &model_nodes(model_builder_peek(o->b))[gnode];
	struct model_node adn = {
		.function = g->function, .module = g->module,
		.kind = NODE_ADDRESS, .relation = RELATION_LEXICAL,
	};
	enum status st = STATUS_OK;
	for (size_t i = 0; i < n && st == STATUS_OK;) {
		size_t j = i;
		while (j < n && h[j].offset == h[i].offset)
			j++;
		uint64_t addr = base + h[i].offset, entry;
		const char *fname;
		if (elf && dcpi_elf_function(elf, addr, &fname, &entry)) {
			i = j; /* in a procedure of its own */
			continue;
		}
		adn.offset = addr;
		uint32_t node = dcpi_add_node(o, gnode, &adn);
		if (node == MODEL_NONE)
			st = dcpi_nomem(o);
		if (st == STATUS_OK)
			st = add_hits(o, node, h + i, j - i);
		i = j;
	}
	dcpi_elf_close(elf);
	free(found);
	return st;
}

/* What dcpi_build_image keeps while it walks an image's hits: the
 * image's row and module, the current function's row and its
 * inlined-call and line rows, (parent, name or file, line) -> node. */
struct image_walk {
	struct opener *o;
	struct dcpi_elf *elf;
	uint32_t inode, module;
	const char *leaf;
	uint32_t fnode, fidx;
	uint64_t fentry;
	struct key {
		uint32_t parent, a, b, line, node;
	} *keys;
	size_t n_keys, cap_keys;
};

/* The address of offset 0 of image `ii` as dcpi_build_image uses it, with
 * the image's missing ELF file and a .text unlike the profile's said. */
static uint64_t image_start(struct opener *o, const struct image *im,
			    struct dcpi_elf *elf, const char *found,
			    const char *shown)
{
	uint64_t base = im->tstart, taddr = 0, tsize = 0;
	bool text = elf && dcpi_elf_text(elf, &taddr, &tsize);
	if (!elf && o->n_missing++ == 0)
		o->first_missing = shown;
	if (!im->has_tstart) {
		base = text ? taddr : 0;
		o->n_offsets += !text;
	} else if (text && (taddr != im->tstart || tsize != im->tsize)) {
		dcpi_warn(o, "image %s: %s has .text at 0x%" PRIx64 " size %" PRIu64
		     ", the profile says tstart 0x%" PRIx64 " tsize %" PRIu64,
		     im->id, found, taddr, tsize, im->tstart, im->tsize);
	}
	return base;
}

/* The row of the function at `entry` named `fname`: the current one, or
 * made (its inlined-call and line rows start afresh). */
static enum status function_row(struct image_walk *w, const char *fname,
				uint64_t entry)
{
	struct opener *o = w->o;
	if (w->fnode != MODEL_NONE && entry == w->fentry)
		return STATUS_OK;
	struct model_function f = {
		.name = dcpi_intern(o, fname),
		.module = w->module,
		.offset = entry,
	};
	const char *ff = NULL;
	uint32_t fl = 0;
	if (dcpi_elf_line(w->elf, entry, &ff, &fl)) {
		f.file = dcpi_intern(o, ff);
		f.line = fl;
	}
	w->fidx = model_builder_add_function(o->b, &f);
	struct model_node fnd = {
		.name = f.name, .function = w->fidx,
		.file = f.file, .line = f.line,
		.module = w->module, .offset = entry,
		.kind = NODE_FUNCTION,
		.relation = RELATION_LEXICAL,
	};
	w->fnode = w->fidx == MODEL_NONE ? MODEL_NONE
					 : dcpi_add_node(o, w->inode, &fnd);
	if (w->fnode == MODEL_NONE)
		return dcpi_nomem(o);
	w->fentry = entry;
	w->n_keys = 0;
	return STATUS_OK;
}

/* The row of key `kk` (an inlined call, or with `is_line` a line) under
 * kk.parent: found or made; MODEL_NONE when out of memory. */
static uint32_t key_row(struct image_walk *w, struct key kk, bool is_line,
			uint32_t line)
{
	struct opener *o = w->o;
	for (size_t k = 0; k < w->n_keys; k++)
		if (w->keys[k].parent == kk.parent && w->keys[k].a == kk.a &&
		    w->keys[k].b == kk.b && w->keys[k].line == kk.line)
			return w->keys[k].node;
	struct model_node nd = {
		.function = w->fidx,
		.module = w->module,
		.kind = NODE_LINE,
		.relation = RELATION_LEXICAL,
		.file = kk.a,
		.line = line,
	};
	if (!is_line) {
		struct model_function inf = {
			.name = kk.a,
			.module = w->module,
			.file = kk.b,
			.line = kk.line,
		};
		nd.function = model_builder_add_function(o->b, &inf);
		nd.kind = NODE_FUNCTION;
		nd.relation = RELATION_INLINED_CALL;
		nd.name = kk.a;
		nd.file = kk.b;
		nd.line = kk.line;
	}
	if (!array_grow((void **)&w->keys, &w->cap_keys, w->n_keys + 1,
			sizeof(*w->keys)))
		return MODEL_NONE;
	kk.node = nd.function == MODEL_NONE ? MODEL_NONE
					    : dcpi_add_node(o, kk.parent, &nd);
	if (kk.node != MODEL_NONE)
		w->keys[w->n_keys++] = kk;
	return kk.node;
}

/* The address row of `addr` in a function with a symbol, under its
 * inlined calls and its line, each found or made. */
static uint32_t symbol_row(struct image_walk *w, uint64_t addr)
{
	struct opener *o = w->o;
	const char *file = NULL;
	uint32_t line = 0, parent = w->fnode;
	struct dcpi_inline inl[DCPI_MAX_INLINE];
	size_t n_inl = dcpi_elf_inlines(w->elf, addr, inl, DCPI_MAX_INLINE);
	bool has_line = dcpi_elf_line(w->elf, addr, &file, &line);
	for (size_t q = 0; q <= n_inl; q++) {
		if (q == n_inl && !has_line)
			break;
		bool is_line = q == n_inl;
		struct key kk = {
			.parent = parent,
			.a = is_line ? dcpi_intern(o, file)
				     : dcpi_intern(o, inl[q].name),
			.b = is_line || !inl[q].call_file
				? 0
				: dcpi_intern(o, inl[q].call_file),
			.line = is_line ? line : inl[q].call_line,
		};
		kk.b |= is_line ? 0x80000000u : 0;
		parent = key_row(w, kk, is_line, line);
		if (parent == MODEL_NONE)
			return MODEL_NONE;
	}
	struct model_node adn = {
		.function = w->fidx, .module = w->module,
		.offset = addr, .kind = NODE_ADDRESS,
		.relation = RELATION_LEXICAL,
	};
	return dcpi_add_node(o, parent, &adn);
}

/* A large database: the hits [h, h + n) of an address without a symbol
 * into the image's group row, its own rows read when it is expanded. */
static enum status group_add(struct image_walk *w, const struct hit *h,
			     size_t n)
{
	struct opener *o = w->o;
	if (o->group_node == MODEL_NONE &&
	    (o->group_node = group_node(o, w->inode, w->module, w->leaf)) ==
		    MODEL_NONE)
		return dcpi_nomem(o);
	for (size_t k = 0; k < n; k++) {
		o->group_sum[h[k].event] += (double)h[k].count;
		if (o->group_epoch)
			o->group_epoch[(size_t)h[k].event * o->n_epochs +
				       h[k].epoch] += (double)h[k].count;
	}
	return STATUS_OK;
}

/* An address without a symbol: a row of its own, "[LEAF @ 0xADDR]"
 * (written by hand: millions of them are made at open). */
static uint32_t unnamed_row(struct image_walk *w, uint64_t addr)
{
	struct opener *o = w->o;
	size_t ll = strlen(w->leaf), n = 0;
	char *label = malloc(ll + 32);
	if (!label)
		return MODEL_NONE;
	label[n++] = '[';
	memcpy(label + n, w->leaf, ll);
	n += ll;
	memcpy(label + n, " @ 0x", 5);
	n += 5;
	int digits = 1;
	while (digits < 16 && addr >> (4 * digits))
		digits++;
	for (int d = digits - 1; d >= 0; d--)
		label[n++] = "0123456789abcdef"[addr >> (4 * d) & 0xf];
	label[n++] = ']';
	struct model_function f = {
		.name = model_builder_intern(o->b, label, n),
		.module = w->module,
		.offset = addr};
	free(label);
	uint32_t fi = model_builder_add_function(o->b, &f);
	struct model_node und = {
		.name = f.name, .function = fi,
		.module = w->module, .offset = addr,
		.kind = NODE_FUNCTION,
		.relation = RELATION_LEXICAL,
	};
	return fi == MODEL_NONE ? MODEL_NONE : dcpi_add_node(o, w->inode, &und);
}

/* The hits [h, h + n) of address `addr`: in its function (with a
 * symbol), in the image's group row, or in a row of its own. */
static enum status address_hits(struct image_walk *w, uint64_t addr,
				const struct hit *h, size_t n)
{
	struct opener *o = w->o;
	const char *fname = NULL;
	uint64_t entry = 0;
	uint32_t node;
	if (w->elf && dcpi_elf_function(w->elf, addr, &fname, &entry)) {
		enum status st = function_row(w, fname, entry);
		if (st != STATUS_OK)
			return st;
		node = symbol_row(w, addr);
	} else if (o->z && o->z->group) {
		w->fnode = MODEL_NONE;
		return group_add(w, h, n);
	} else {
		node = unnamed_row(w, addr);
		w->fnode = MODEL_NONE;
	}
	if (node == MODEL_NONE)
		return dcpi_nomem(o);
	return add_hits(o, node, h, n);
}

/* One image's subtree from its sorted hits [h, h + n), under its row
 * `inode` (MODEL_NONE: made here). */
enum status dcpi_build_image(struct opener *o, uint32_t ii, uint32_t inode,
			     const struct hit *h, size_t n)
{
	const struct image *im = &o->images[ii];
	char *found = NULL;
	struct dcpi_elf *elf = dcpi_find_elf(o, im, &found);
	const char *shown = im->path ? im->path : im->id;
	enum status st = STATUS_OK;
	o->group_node = MODEL_NONE;
	uint64_t base = image_start(o, im, elf, found, shown);
	struct image_walk w = {
		.o = o,
		.elf = elf,
		.module = dcpi_intern(o, found ? found : shown),
		.leaf = dcpi_base_name(shown),
		.fnode = MODEL_NONE,
		.fidx = MODEL_NONE,
	};
	w.inode = inode != MODEL_NONE ? inode
				      : dcpi_image_node(o, ii, found, false);
	if (w.inode == MODEL_NONE)
		st = dcpi_nomem(o);
	for (size_t i = 0; i < n && st == STATUS_OK;) {
		size_t j = i;
		while (j < n && h[j].offset == h[i].offset)
			j++;
		st = address_hits(&w, base + h[i].offset, h + i, j - i);
		i = j;
	}
	free(w.keys);
	dcpi_elf_close(elf);
	free(found);
	return st;
}

/* Sort the hits by (image, offset, event, epoch) and sum equal ones. */
void dcpi_sort_hits(struct opener *o)
{
	/* one file per image and event, in image order, is sorted already */
	bool sorted = true;
	for (size_t i = 1; i < o->n_hits && sorted; i++)
		sorted = hit_cmp(&o->hits[i - 1], &o->hits[i]) <= 0;
	if (o->n_hits && !sorted)
		qsort(o->hits, o->n_hits, sizeof(*o->hits), hit_cmp);
	size_t w = 0;
	for (size_t i = 0; i < o->n_hits; i++) {
		if (w && hit_cmp(&o->hits[w - 1], &o->hits[i]) == 0)
			o->hits[w - 1].count += o->hits[i].count;
		else
			o->hits[w++] = o->hits[i];
	}
	o->n_hits = w;
}
