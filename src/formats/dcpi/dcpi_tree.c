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

#include "formats/dcpi/dcpi_internal.h"

/* Inlined calls shown around one address, outermost first. */
#define DCPI_MAX_INLINE 16

void dcpi_warn(struct opener *o, const char *fmt, ...)
{
	char *line = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		line = NULL;
	va_end(ap);
	if (line)
		model_builder_add_warning(o->b, line);
	free(line);
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
	if (o->n_vals == o->cap_vals) {
		size_t nc = o->cap_vals ? o->cap_vals * 2 : 256;
		struct val *nv = realloc(o->vals, nc * sizeof(*nv));
		if (!nv)
			return false;
		o->vals = nv;
		o->cap_vals = nc;
	}
	o->vals[o->n_vals++] = (struct val){node, event, value};
	return true;
}

static uint32_t dcpi_add_node(struct opener *o, uint32_t parent,
			 struct model_node *nd)
{
	nd->ctx_id = model_builder_peek(o->b)->n_nodes;
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
		if (asprintf(&cand, "%s/%s", o->ro->image_path[i], leaf) < 0)
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

enum status dcpi_build_group(struct opener *o, uint32_t ii, uint32_t gnode,
			     const struct hit *h, size_t n)
{
	char *found = NULL;
	struct dcpi_elf *elf = dcpi_find_elf(o, &o->images[ii], &found);
	uint64_t base = image_base(&o->images[ii], elf);
	const struct model_node *g = &model_builder_peek(o->b)->nodes[gnode];
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
		for (size_t k = i; k < j && st == STATUS_OK; k++)
			if (!dcpi_add_val(o, node, h[k].event,
					  (double)h[k].count) ||
			    (o->ep && !dcpi_epochs_add(o->ep, node, h[k].event,
						       h[k].epoch,
						       (double)h[k].count)))
				st = dcpi_nomem(o);
		i = j;
	}
	dcpi_elf_close(elf);
	free(found);
	return st;
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
	uint64_t base = im->tstart, taddr = 0, tsize = 0;
	o->group_node = MODEL_NONE;
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
	uint32_t module = dcpi_intern(o, found ? found : shown);
	const char *leaf = dcpi_base_name(shown);
	if (inode == MODEL_NONE)
		inode = dcpi_image_node(o, ii, found, false);
	if (inode == MODEL_NONE) {
		st = dcpi_nomem(o);
		goto out;
	}
	uint32_t fnode = MODEL_NONE, fidx = MODEL_NONE;
	uint64_t fentry = 0;
	/* the current function's inlined-call and line nodes:
	 * (parent, name or file, line) -> node */
	struct key {
		uint32_t parent, a, b, line, node;
	} *keys = NULL;
	size_t n_keys = 0, cap_keys = 0;
	for (size_t i = 0; i < n;) {
		uint64_t addr = base + h[i].offset;
		size_t j = i;
		while (j < n && h[j].offset == h[i].offset)
			j++;
		const char *fname = NULL, *file = NULL;
		uint64_t entry = 0;
		uint32_t line = 0, parent, node;
		bool sym = elf && dcpi_elf_function(elf, addr, &fname, &entry);
		if (sym) {
			if (fnode == MODEL_NONE || entry != fentry) {
				struct model_function f = {
					.name = dcpi_intern(o, fname),
					.module = module,
					.offset = entry,
				};
				const char *ff = NULL;
				uint32_t fl = 0;
				if (dcpi_elf_line(elf, entry, &ff, &fl)) {
					f.file = dcpi_intern(o, ff);
					f.line = fl;
				}
				fidx = model_builder_add_function(o->b, &f);
				struct model_node fnd = {
					.name = f.name, .function = fidx,
					.file = f.file, .line = f.line,
					.module = module, .offset = entry,
					.kind = NODE_FUNCTION,
					.relation = RELATION_LEXICAL,
				};
				fnode = fidx == MODEL_NONE
						? MODEL_NONE
						: dcpi_add_node(o, inode, &fnd);
				if (fnode == MODEL_NONE) {
					st = dcpi_nomem(o);
					break;
				}
				fentry = entry;
				n_keys = 0;
			}
			parent = fnode;
			/* inlined calls, then the line: each found or made */
			struct dcpi_inline inl[DCPI_MAX_INLINE];
			size_t n_inl = dcpi_elf_inlines(elf, addr, inl,
							DCPI_MAX_INLINE);
			bool has_line = dcpi_elf_line(elf, addr, &file, &line);
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
					.line = is_line ? line
							: inl[q].call_line,
				};
				kk.b |= is_line ? 0x80000000u : 0;
				size_t k = 0;
				while (k < n_keys &&
				       (keys[k].parent != kk.parent ||
					keys[k].a != kk.a || keys[k].b != kk.b ||
					keys[k].line != kk.line))
					k++;
				if (k == n_keys) {
					struct model_node nd = {
						.function = fidx,
						.module = module,
						.kind = NODE_LINE,
						.relation = RELATION_LEXICAL,
						.file = kk.a,
						.line = line,
					};
					if (!is_line) {
						struct model_function inf = {
							.name = kk.a,
							.module = module,
							.file = kk.b,
							.line = kk.line,
						};
						nd.function =
							model_builder_add_function(
								o->b, &inf);
						nd.kind = NODE_FUNCTION;
						nd.relation =
							RELATION_INLINED_CALL;
						nd.name = kk.a;
						nd.file = kk.b;
						nd.line = kk.line;
					}
					if (n_keys == cap_keys) {
						size_t nc = cap_keys
							? cap_keys * 2 : 16;
						void *nk = realloc(
							keys,
							nc * sizeof(*keys));
						if (!nk) {
							st = dcpi_nomem(o);
							break;
						}
						keys = nk;
						cap_keys = nc;
					}
					kk.node = nd.function == MODEL_NONE
						? MODEL_NONE
						: dcpi_add_node(o, parent, &nd);
					if (kk.node == MODEL_NONE) {
						st = dcpi_nomem(o);
						break;
					}
					keys[n_keys++] = kk;
				}
				parent = keys[k].node;
			}
			if (st != STATUS_OK)
				break;
			struct model_node adn = {
				.function = fidx, .module = module,
				.offset = addr, .kind = NODE_ADDRESS,
				.relation = RELATION_LEXICAL,
			};
			node = dcpi_add_node(o, parent, &adn);
		} else if (o->z && o->z->group) {
			/* a large database: into the image's group row, its
			 * own rows read when it is expanded */
			if (o->group_node == MODEL_NONE &&
			    (o->group_node = group_node(o, inode, module,
							leaf)) == MODEL_NONE) {
				st = dcpi_nomem(o);
				break;
			}
			for (size_t k = i; k < j; k++) {
				o->group_sum[h[k].event] += (double)h[k].count;
				if (o->group_epoch)
					o->group_epoch[(size_t)h[k].event *
							       o->n_epochs +
						       h[k].epoch] +=
						(double)h[k].count;
			}
			fnode = MODEL_NONE;
			i = j;
			continue;
		} else {
			/* an address without a symbol: a row of its own,
			 * "[LEAF @ 0xADDR]" (written by hand: millions of
			 * them are made at open) */
			size_t ll = strlen(leaf), w = 0;
			char *label = malloc(ll + 32);
			if (!label) {
				st = dcpi_nomem(o);
				break;
			}
			label[w++] = '[';
			memcpy(label + w, leaf, ll);
			w += ll;
			memcpy(label + w, " @ 0x", 5);
			w += 5;
			int digits = 1;
			while (digits < 16 && addr >> (4 * digits))
				digits++;
			for (int d = digits - 1; d >= 0; d--)
				label[w++] = "0123456789abcdef"[addr >> (4 * d) &
								 0xf];
			label[w++] = ']';
			struct model_function f = {
				.name = model_builder_intern(o->b, label, w),
				.module = module,
				.offset = addr};
			free(label);
			uint32_t fi = model_builder_add_function(o->b, &f);
			struct model_node und = {
				.name = f.name, .function = fi,
				.module = module, .offset = addr,
				.kind = NODE_FUNCTION,
				.relation = RELATION_LEXICAL,
			};
			node = fi == MODEL_NONE ? MODEL_NONE
						: dcpi_add_node(o, inode, &und);
			fnode = MODEL_NONE;
		}
		if (node == MODEL_NONE) {
			st = dcpi_nomem(o);
			break;
		}
		for (size_t k = i; k < j; k++)
			if (!dcpi_add_val(o, node, h[k].event, (double)h[k].count) ||
			    (o->ep && !dcpi_epochs_add(o->ep, node, h[k].event,
						       h[k].epoch,
						       (double)h[k].count))) {
				st = dcpi_nomem(o);
				break;
			}
		if (st != STATUS_OK)
			break;
		i = j;
	}
	free(keys);
out:
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
