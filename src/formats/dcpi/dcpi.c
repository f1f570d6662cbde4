/* dcpi: the reader of DCPI profiles (../shared/specs/dcpiformat.txt): one
 * profile file, or a profile database directory (epochs, one file per
 * image per event), walked recursively.  Files of one image merge; each
 * event is a metric, its samples an exclusive-only statistic (the engine
 * derives the inclusive one).  The tree is image -> function -> (inlined
 * calls ->) source line -> address, symbolized with the program's ELF image when it is
 * found (the header's `path`, then reader_options.image_path); an address
 * without an image or a symbol is a row `[image @ 0xADDR]`, never dropped.
 * Files of several epochs sum; each epoch is then also a profile with
 * the context's samples in it (dcpi_epochs.c).
 * Decoding is dcpi_file.c's job, ELF dcpi_elf.c's; see doc/dcpi.md.
 * Depends on core/, model/, io/ and formats/reader.h. */
#include "config.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/dcpi/dcpi_elf.h"
#include "formats/dcpi/dcpi_epochs.h"
#include "formats/dcpi/dcpi_file.h"
#include "formats/reader.h"
#include "io/blob.h"

/* Limits of a directory walk. */
#define DCPI_MAX_DEPTH 8
#define DCPI_MAX_FILES 100000
/* Above this many sampled addresses (over every file), a database of one
 * epoch opens with its image rows alone, each image's subtree loaded when
 * it is expanded (model.h, NODE_TRAIT_DEFERRED); the environment variable
 * CALLSCOPE_DCPI_DEFER_MIN sets another bound (0: always). */
#define DCPI_DEFER_MIN 1000000u
/* Inlined calls shown around one address, outermost first. */
#define DCPI_MAX_INLINE 16

struct image {
	char *id;   /* the header's image id */
	char *path; /* the header's path, or NULL */
	bool has_tstart;
	uint64_t tstart, tsize;
};

/* One profile file of the walk, kept for a deferred image's load. */
struct file_entry {
	char *path;
	uint32_t image, event, epoch;
	uint64_t n_samples, sum; /* as scanned: checked again at load */
	bool decoded;            /* its samples are in opener.hits */
};

/* A database whose images are loaded when expanded (model.h,
 * NODE_TRAIT_DEFERRED): what the load needs after open. */
struct dcpi_lazy {
	char *path; /* the database, for messages */
	struct image *images;
	size_t n_images;
	struct file_entry *files;
	size_t n_files;
	char **events;
	size_t n_events;
	uint32_t first_node; /* image k is node first_node + k */
	double *totals;      /* per image x event: its samples, exact */
	char **image_path;   /* reader_options.image_path, copied */
	struct reader_options ro;
};

struct hit {
	uint32_t image, event, offset;
	uint32_t epoch; /* index into opener.epochs */
	uint64_t count;
};

struct val {
	uint32_t node, event;
	double value;
};

/* The value provider: dense values per (node, event). */
struct dcpi_values {
	uint32_t n_nodes, n_events;
	double *v;
	uint8_t *has;
	struct dcpi_epochs *epochs; /* per-epoch values, NULL for one epoch */
	struct dcpi_lazy *lazy;     /* deferred images, or NULL */
};

struct opener {
	const char *path;
	const struct reader_options *ro;
	struct error *err;
	struct model_builder *b;
	struct image *images;
	size_t n_images;
	char **events;
	size_t n_events;
	char **epochs; /* the headers' epochs, in the order met */
	size_t n_epochs;
	struct dcpi_epochs *ep; /* with several epochs: their values */
	struct hit *hits;
	size_t n_hits, cap_hits;
	struct val *vals;
	size_t n_vals, cap_vals;
	size_t n_files;
	struct file_entry *files; /* n_files */
	size_t cap_files;
	uint64_t n_addresses;   /* sampled addresses of every file */
	uint64_t defer_min;     /* defer images above this many */
	size_t n_skipped; /* files of a directory that are not DCPI */
	/* said once: images not found (the first's path), and of those
	 * without tstart (addresses shown as text offsets) */
	size_t n_missing, n_offsets;
	const char *first_missing;
};

static void warn(struct opener *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void warn(struct opener *o, const char *fmt, ...)
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

static enum status nomem(struct opener *o)
{
	return error_set(o->err, STATUS_NOMEM, o->path, "out of memory");
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* The index of `name` in the list `*names` (of *n), added when new;
 * MODEL_NONE when out of memory. */
static uint32_t name_index(char ***names, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*names)[i], name) == 0)
			return (uint32_t)i;
	char **nn = realloc(*names, (*n + 1) * sizeof(*nn));
	if (!nn)
		return MODEL_NONE;
	*names = nn;
	if (!(nn[*n] = strdup(name)))
		return MODEL_NONE;
	return (uint32_t)(*n)++;
}

static uint32_t image_index(struct opener *o, const struct dcpi_profile *p,
			    const char *file)
{
	for (size_t i = 0; i < o->n_images; i++) {
		struct image *im = &o->images[i];
		if (strcmp(im->id, p->image) != 0 ||
		    (im->path && p->path && strcmp(im->path, p->path) != 0))
			continue;
		if (im->tsize != p->tsize || im->has_tstart != p->has_tstart ||
		    im->tstart != p->tstart) {
			error_set(o->err, STATUS_CORRUPT, file,
				  "DCPI header: image %s has tsize/tstart "
				  "different from another profile of it",
				  p->image);
			return MODEL_NONE - 1;
		}
		return (uint32_t)i;
	}
	struct image *ni = realloc(o->images, (o->n_images + 1) * sizeof(*ni));
	if (!ni)
		return MODEL_NONE;
	o->images = ni;
	struct image *im = &ni[o->n_images];
	*im = (struct image){.has_tstart = p->has_tstart, .tstart = p->tstart,
			     .tsize = p->tsize};
	im->id = strdup(p->image);
	im->path = p->path ? strdup(p->path) : NULL;
	if (!im->id || (p->path && !im->path)) {
		free(im->id);
		free(im->path);
		return MODEL_NONE;
	}
	return (uint32_t)o->n_images++;
}

/* The samples of `p` as hits of (image, event, epoch). */
static enum status push_hits(struct opener *o, const struct dcpi_profile *p,
			     uint32_t im, uint32_t ev, uint32_t epoch,
			     const char *file)
{
	for (size_t i = 0; i < p->n_samples; i++) {
		if (o->n_hits == o->cap_hits) {
			size_t nc = o->cap_hits ? o->cap_hits * 2 : 256;
			struct hit *nh = realloc(o->hits, nc * sizeof(*nh));
			if (!nh)
				return error_set(o->err, STATUS_NOMEM, file,
						 "out of memory");
			o->hits = nh;
			o->cap_hits = nc;
		}
		o->hits[o->n_hits++] = (struct hit){
			.image = im, .event = ev, .offset = p->samples[i].offset,
			.epoch = epoch, .count = p->samples[i].count};
	}
	return STATUS_OK;
}

static bool add_file(struct opener *o, const char *file,
		     const struct file_entry *fe)
{
	if (o->n_files == o->cap_files) {
		size_t nc = o->cap_files ? o->cap_files * 2 : 64;
		struct file_entry *nf = realloc(o->files, nc * sizeof(*nf));
		if (!nf)
			return false;
		o->files = nf;
		o->cap_files = nc;
	}
	struct file_entry *e = &o->files[o->n_files];
	*e = *fe;
	if (!(e->path = strdup(file)))
		return false;
	o->n_files++;
	return true;
}

/* One profile file; `must` when it was named (not found in a walk): a
 * file that does not look like DCPI is then an error, else skipped.  Its
 * samples are kept while the database is small (defer_min); beyond, they
 * are only counted and checked, and read again if needed. */
static enum status read_file(struct opener *o, const char *file, bool must)
{
	struct blob *bl = NULL;
	struct span s;
	struct dcpi_profile p;
	memset(&p, 0, sizeof(p));
	enum status st = blob_open_file(file, &bl, o->err);
	if (st != STATUS_OK)
		return st;
	st = blob_map_all(bl, &s, o->err);
	if (st != STATUS_OK)
		goto out;
	if (!dcpi_head_looks_like(s.data, (size_t)(s.len < 64 ? s.len : 64))) {
		if (must)
			st = error_set_at(o->err, STATUS_CORRUPT, file, 0,
					  "DCPI header: first line is not a "
					  "header key (spec: ASCII HEADER)");
		o->n_skipped++;
		goto out;
	}
	bool keep = o->n_addresses <= o->defer_min;
	st = keep ? dcpi_profile_parse(s, file, &p, o->err)
		  : dcpi_profile_scan(s, file, &p, o->err);
	if (st != STATUS_OK)
		goto out;
	uint32_t ev = name_index(&o->events, &o->n_events, p.event);
	uint32_t epoch = name_index(&o->epochs, &o->n_epochs, p.epoch);
	uint32_t im = ev == MODEL_NONE || epoch == MODEL_NONE
			      ? MODEL_NONE
			      : image_index(o, &p, file);
	if (im == MODEL_NONE - 1) {
		st = STATUS_CORRUPT;
		goto out;
	}
	struct file_entry fe = {.image = im, .event = ev, .epoch = epoch,
				.n_samples = p.n_samples, .sum = p.sum_counts,
				.decoded = keep};
	if (im == MODEL_NONE || !add_file(o, file, &fe)) {
		st = error_set(o->err, STATUS_NOMEM, file, "out of memory");
		goto out;
	}
	o->n_addresses += p.n_samples;
	if (keep)
		st = push_hits(o, &p, im, ev, epoch, file);
out:
	dcpi_profile_clear(&p);
	blob_close(bl);
	return st;
}

/* The samples of a file only scanned by read_file, as hits; the file
 * must still be what it was (header and sums). */
static enum status decode_file(struct opener *o, const struct file_entry *f,
			       const char *const *events,
			       const struct image *images)
{
	struct blob *bl = NULL;
	struct span s;
	struct dcpi_profile p;
	memset(&p, 0, sizeof(p));
	enum status st = blob_open_file(f->path, &bl, o->err);
	if (st == STATUS_OK)
		st = blob_map_all(bl, &s, o->err);
	if (st == STATUS_OK)
		st = dcpi_profile_parse(s, f->path, &p, o->err);
	if (st == STATUS_OK &&
	    (p.n_samples != f->n_samples || p.sum_counts != f->sum ||
	     strcmp(p.event, events[f->event]) != 0 ||
	     strcmp(p.image, images[f->image].id) != 0))
		st = error_set(o->err, STATUS_CORRUPT, f->path,
			       "DCPI profile changed since the database was "
			       "opened (reopen it)");
	if (st == STATUS_OK)
		st = push_hits(o, &p, f->image, f->event, f->epoch, f->path);
	dcpi_profile_clear(&p);
	blob_close(bl);
	return st;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file under `dir` (sorted per directory), read. */
static enum status walk(struct opener *o, const char *dir, unsigned depth)
{
	if (depth > DCPI_MAX_DEPTH)
		return error_set(o->err, STATUS_LIMIT, dir,
				 "DCPI database: directories nested deeper "
				 "than %d",
				 DCPI_MAX_DEPTH);
	DIR *d = opendir(dir);
	if (!d)
		return error_set(o->err, STATUS_IO, dir, "cannot list");
	char **names = NULL;
	size_t n = 0, cap = 0;
	enum status st = STATUS_OK;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 32;
			char **nn = realloc(names, nc * sizeof(*nn));
			if (!nn) {
				st = nomem(o);
				goto out;
			}
			names = nn;
			cap = nc;
		}
		if (!(names[n] = strdup(de->d_name))) {
			st = nomem(o);
			goto out;
		}
		n++;
	}
	if (n)
		qsort(names, n, sizeof(*names), str_cmp);
	for (size_t i = 0; i < n && st == STATUS_OK; i++) {
		char *full = NULL;
		struct stat sb;
		if (asprintf(&full, "%s/%s", dir, names[i]) < 0) {
			st = nomem(o);
			break;
		}
		if (stat(full, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			st = walk(o, full, depth + 1);
		} else if (stat(full, &sb) == 0 && S_ISREG(sb.st_mode)) {
			if (o->n_files >= DCPI_MAX_FILES)
				st = error_set(o->err, STATUS_LIMIT, o->path,
					       "DCPI database: more than %d "
					       "profile files",
					       DCPI_MAX_FILES);
			else
				st = read_file(o, full, false);
		}
		free(full);
	}
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return st;
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

static bool add_val(struct opener *o, uint32_t node, uint32_t event,
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

static uint32_t add_node(struct opener *o, uint32_t parent,
			 struct model_node *nd)
{
	nd->ctx_id = model_builder_peek(o->b)->n_nodes;
	return model_builder_add_node(o->b, parent, nd);
}

static uint32_t intern(struct opener *o, const char *s)
{
	return model_builder_intern(o->b, s, strlen(s));
}

/* The ELF image of `im`: the recorded path, then each image-path
 * directory with the recorded path's last component (or the image id). */
static struct dcpi_elf *find_elf(struct opener *o, const struct image *im,
				 char **found)
{
	struct dcpi_elf *e = NULL;
	*found = NULL;
	if (im->path && dcpi_elf_open(im->path, &e, NULL) == STATUS_OK) {
		*found = strdup(im->path);
		return e;
	}
	const char *leaf = im->path ? base_name(im->path) : im->id;
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
static uint32_t image_node(struct opener *o, uint32_t ii, const char *found,
			   bool deferred)
{
	const struct image *im = &o->images[ii];
	const char *shown = im->path ? im->path : im->id;
	struct model_node ind = {
		.name = intern(o, base_name(shown)),
		.function = MODEL_NONE,
		.module = intern(o, found ? found : shown),
		.kind = NODE_ENTRY,
		.relation = RELATION_NONE,
		.traits = deferred ? NODE_TRAIT_DEFERRED : 0,
	};
	return add_node(o, 0, &ind);
}

/* One image's subtree from its sorted hits [h, h + n), under its row
 * `inode` (MODEL_NONE: made here). */
static enum status build_image(struct opener *o, uint32_t ii, uint32_t inode,
			       const struct hit *h, size_t n)
{
	const struct image *im = &o->images[ii];
	char *found = NULL;
	struct dcpi_elf *elf = find_elf(o, im, &found);
	const char *shown = im->path ? im->path : im->id;
	enum status st = STATUS_OK;
	uint64_t base = im->tstart, taddr = 0, tsize = 0;
	bool text = elf && dcpi_elf_text(elf, &taddr, &tsize);
	if (!elf && o->n_missing++ == 0)
		o->first_missing = shown;
	if (!im->has_tstart) {
		base = text ? taddr : 0;
		o->n_offsets += !text;
	} else if (text && (taddr != im->tstart || tsize != im->tsize)) {
		warn(o, "image %s: %s has .text at 0x%" PRIx64 " size %" PRIu64
		     ", the profile says tstart 0x%" PRIx64 " tsize %" PRIu64,
		     im->id, found, taddr, tsize, im->tstart, im->tsize);
	}
	uint32_t module = intern(o, found ? found : shown);
	const char *leaf = base_name(shown);
	if (inode == MODEL_NONE)
		inode = image_node(o, ii, found, false);
	if (inode == MODEL_NONE) {
		st = nomem(o);
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
					.name = intern(o, fname),
					.module = module,
					.offset = entry,
				};
				const char *ff = NULL;
				uint32_t fl = 0;
				if (dcpi_elf_line(elf, entry, &ff, &fl)) {
					f.file = intern(o, ff);
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
						: add_node(o, inode, &fnd);
				if (fnode == MODEL_NONE) {
					st = nomem(o);
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
					.a = is_line ? intern(o, file)
						     : intern(o, inl[q].name),
					.b = is_line || !inl[q].call_file
						? 0
						: intern(o, inl[q].call_file),
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
							st = nomem(o);
							break;
						}
						keys = nk;
						cap_keys = nc;
					}
					kk.node = nd.function == MODEL_NONE
						? MODEL_NONE
						: add_node(o, parent, &nd);
					if (kk.node == MODEL_NONE) {
						st = nomem(o);
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
			node = add_node(o, parent, &adn);
		} else {
			/* an address without a symbol: a row of its own,
			 * "[LEAF @ 0xADDR]" (written by hand: millions of
			 * them are made at open) */
			size_t ll = strlen(leaf), w = 0;
			char *label = malloc(ll + 32);
			if (!label) {
				st = nomem(o);
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
						: add_node(o, inode, &und);
			fnode = MODEL_NONE;
		}
		if (node == MODEL_NONE) {
			st = nomem(o);
			break;
		}
		for (size_t k = i; k < j; k++)
			if (!add_val(o, node, h[k].event, (double)h[k].count) ||
			    (o->ep && !dcpi_epochs_add(o->ep, node, h[k].event,
						       h[k].epoch,
						       (double)h[k].count))) {
				st = nomem(o);
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

static bool dcpi_summary(void *impl, uint32_t ctx_id, uint32_t stat_id,
			 double *out)
{
	const struct dcpi_values *v = impl;
	if (ctx_id >= v->n_nodes || stat_id >= v->n_events)
		return false;
	size_t i = (size_t)ctx_id * v->n_events + stat_id;
	if (!v->has[i])
		return false;
	*out = v->v[i];
	return true;
}

static void lazy_free(struct dcpi_lazy *z);

static void dcpi_values_close(void *impl)
{
	struct dcpi_values *v = impl;
	if (!v)
		return;
	free(v->v);
	free(v->has);
	dcpi_epochs_free(v->epochs);
	lazy_free(v->lazy);
	free(v);
}

static enum status dcpi_per_epoch(void *impl, uint32_t ctx_id,
				  uint32_t prop_id, struct profile_value **out,
				  size_t *n, struct error *err)
{
	const struct dcpi_values *v = impl;
	return dcpi_epochs_per_profile(v->epochs, ctx_id, prop_id, out, n,
				       err);
}

static const struct value_ops dcpi_value_ops = {
	.summary = dcpi_summary,
	.close = dcpi_values_close,
};

/* With several epochs: each is a profile with per-profile values. */
static const struct value_ops dcpi_epoch_value_ops = {
	.summary = dcpi_summary,
	.per_profile = dcpi_per_epoch,
	.close = dcpi_values_close,
};

static enum status add_columns(struct opener *o)
{
	for (size_t e = 0; e < o->n_events; e++) {
		struct model_stat s = {
			.metric = intern(o, o->events[e]),
			.scope = intern(o, "exclusive"),
			.formula = intern(o, "$$"),
			.combine = COMBINE_SUM,
			.stat_id = (uint32_t)e,
			.prop_id = o->ep ? (uint32_t)e : MODEL_NONE,
			.flags = STAT_EXCLUSIVE_ONLY,
		};
		uint32_t stat[2];
		stat[1] = model_builder_add_stat(o->b, &s);
		stat[0] = stat[1] == MODEL_NONE
				  ? MODEL_NONE
				  : model_builder_add_inclusive_stat(o->b,
								     stat[1]);
		if (stat[0] == MODEL_NONE ||
		    (o->ep && !model_builder_set_stat_prop_id(
				      o->b, stat[0],
				      (uint32_t)(o->n_events + e))))
			return nomem(o);
		for (int k = 0; k < 2; k++) {
			char *descr = NULL;
			if (asprintf(&descr, "DCPI samples of event %s (%s)",
				     o->events[e],
				     k ? "exclusive" : "inclusive") < 0)
				descr = NULL;
			struct model_column c = {
				.name = strdup(o->events[e]),
				.variant = strdup(""),
				.description = descr,
				.format = strdup("%.0f"),
				.kind = k ? COLUMN_EXCLUSIVE : COLUMN_INCLUSIVE,
				.render = RENDER_NUMBER | RENDER_PERCENT,
				.visible = true,
				.pair = MODEL_NONE,
				.parent = MODEL_NONE,
				.expr = formula_leaf(stat[k]),
			};
			if (!c.name || !c.variant || !c.format || !c.expr ||
			    model_builder_add_column(o->b, &c) == MODEL_NONE) {
				free(c.name);
				free(c.variant);
				free(c.description);
				free(c.format);
				formula_free(c.expr);
				return nomem(o);
			}
		}
	}
	return STATUS_OK;
}

/* One profile per epoch, "EPOCH 2611241530"; the index of the first. */
static uint32_t add_epoch_profiles(struct opener *o)
{
	uint32_t first = MODEL_NONE;
	for (size_t k = 0; k < o->n_epochs; k++) {
		struct model_id id = {
			.kind_name = intern(o, "EPOCH"),
			.logical_id = (uint32_t)k,
			.physical_id = strtoull(o->epochs[k], NULL, 10),
			.is_physical = true,
		};
		char label[64];
		snprintf(label, sizeof(label), "EPOCH %.40s", o->epochs[k]);
		uint32_t p = model_builder_add_profile(o->b, false, &id, 1,
						       label);
		if (p == MODEL_NONE)
			return MODEL_NONE;
		if (k == 0)
			first = p;
	}
	return first;
}

/* Sort the hits by (image, offset, event, epoch) and sum equal ones. */
static void sort_hits(struct opener *o)
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

/* Values of the nodes made since the dense arrays were sized, added. */
static bool values_take(struct dcpi_values *v, const struct model *m,
			const struct val *vals, size_t n_vals)
{
	uint32_t n_nodes = m->n_nodes;
	size_t ev = v->n_events ? v->n_events : 1;
	if (n_nodes > v->n_nodes) {
		size_t cells = (size_t)n_nodes * ev, old = (size_t)v->n_nodes * ev;
		double *nv = realloc(v->v, cells * sizeof(*nv));
		if (!nv)
			return false;
		v->v = nv;
		uint8_t *nh = realloc(v->has, cells);
		if (!nh)
			return false;
		v->has = nh;
		memset(v->v + old, 0, (cells - old) * sizeof(*nv));
		memset(v->has + old, 0, cells - old);
		v->n_nodes = n_nodes;
	}
	for (size_t i = 0; i < n_vals; i++) {
		if (vals[i].node >= v->n_nodes || vals[i].event >= ev)
			continue;
		size_t c = (size_t)vals[i].node * v->n_events + vals[i].event;
		v->v[c] += vals[i].value;
		v->has[c] = 1;
	}
	return true;
}

static void lazy_free(struct dcpi_lazy *z)
{
	if (!z)
		return;
	for (size_t i = 0; i < z->n_images; i++) {
		free(z->images[i].id);
		free(z->images[i].path);
	}
	free(z->images);
	for (size_t i = 0; i < z->n_files; i++)
		free(z->files[i].path);
	free(z->files);
	for (size_t i = 0; i < z->n_events; i++)
		free(z->events[i]);
	free(z->events);
	for (size_t i = 0; i < z->ro.n_image_path; i++)
		free(z->image_path[i]);
	free(z->image_path);
	free(z->totals);
	free(z->path);
	free(z);
}

/* deferred_ops.load: image node `node`'s files read again, its subtree
 * built as build() would have. */
static enum status dcpi_load(void *impl, struct model_builder *b,
			     uint32_t node, struct error *err)
{
	struct dcpi_values *v = impl;
	struct dcpi_lazy *z = v->lazy;
	if (!z || node < z->first_node || node - z->first_node >= z->n_images)
		return error_set(err, STATUS_USAGE, z ? z->path : NULL,
				 "node %u is not a deferred image",
				 (unsigned)node);
	uint32_t ii = node - z->first_node;
	struct opener o = {.path = z->path, .ro = &z->ro, .err = err,
			   .b = b, .images = z->images,
			   .n_images = z->n_images};
	const char *const *events = (const char *const *)z->events;
	enum status st = STATUS_OK;
	for (size_t i = 0; i < z->n_files && st == STATUS_OK; i++)
		if (z->files[i].image == ii)
			st = decode_file(&o, &z->files[i], events, z->images);
	if (st == STATUS_OK) {
		sort_hits(&o);
		st = build_image(&o, ii, node, o.hits, o.n_hits);
	}
	if (st == STATUS_OK &&
	    !values_take(v, model_builder_peek(b), o.vals, o.n_vals))
		st = error_set(err, STATUS_NOMEM, z->path, "out of memory");
	free(o.hits);
	free(o.vals);
	return st;
}

/* deferred_ops.total: an image's samples of an event (the files' sums). */
static bool dcpi_total(void *impl, uint32_t node, uint32_t stat_id,
		       double *out)
{
	const struct dcpi_values *v = impl;
	const struct dcpi_lazy *z = v->lazy;
	if (!z || node < z->first_node || node - z->first_node >= z->n_images ||
	    stat_id >= v->n_events)
		return false;
	double t = z->totals[(size_t)(node - z->first_node) * v->n_events +
			     stat_id];
	if (t == 0)
		return false;
	*out = t;
	return true;
}

static const struct deferred_ops dcpi_deferred_ops = {
	.load = dcpi_load,
	.total = dcpi_total,
	.close = NULL, /* dcpi_values_close frees the lazy state */
};

/* The deferred database's rows: one per image, its subtree loaded when
 * expanded; the state that load needs, moved out of the opener. */
static enum status build_deferred(struct opener *o, struct dcpi_lazy **out)
{
	struct dcpi_lazy *z = calloc(1, sizeof(*z));
	if (!z)
		return nomem(o);
	*out = z;
	z->first_node = model_builder_peek(o->b)->n_nodes;
	z->totals = calloc(o->n_images * (o->n_events ? o->n_events : 1),
			   sizeof(*z->totals));
	z->path = strdup(o->path);
	size_t n_ip = o->ro ? o->ro->n_image_path : 0;
	z->image_path = calloc(n_ip ? n_ip : 1, sizeof(*z->image_path));
	if (!z->totals || !z->path || !z->image_path)
		return nomem(o);
	for (size_t i = 0; i < n_ip; i++) {
		if (!(z->image_path[i] = strdup(o->ro->image_path[i])))
			return nomem(o);
		z->ro.n_image_path = i + 1;
	}
	z->ro.image_path = (const char *const *)z->image_path;
	for (size_t i = 0; i < o->n_files; i++)
		z->totals[(size_t)o->files[i].image * o->n_events +
			  o->files[i].event] += (double)o->files[i].sum;
	for (size_t ii = 0; ii < o->n_images; ii++) {
		const struct image *im = &o->images[ii];
		char *found = NULL;
		struct dcpi_elf *elf = find_elf(o, im, &found);
		uint64_t taddr, tsize;
		if (!elf && o->n_missing++ == 0)
			o->first_missing = im->path ? im->path : im->id;
		if (!im->has_tstart)
			o->n_offsets += !(elf && dcpi_elf_text(elf, &taddr,
							       &tsize));
		dcpi_elf_close(elf);
		uint32_t node = image_node(o, (uint32_t)ii, found, true);
		free(found);
		if (node != z->first_node + ii)
			return nomem(o);
	}
	return STATUS_OK;
}

static enum status build(struct opener *o, struct model **out)
{
	/* large databases of one epoch: images loaded when expanded */
	bool defer = o->n_epochs <= 1 && o->n_addresses > o->defer_min;
	struct dcpi_lazy *lazy = NULL;
	if (!defer)
		for (size_t i = 0; i < o->n_files; i++) {
			if (o->files[i].decoded)
				continue;
			enum status st = decode_file(
				o, &o->files[i],
				(const char *const *)o->events, o->images);
			if (st != STATUS_OK)
				return st;
		}
	if (o->n_epochs > 1 &&
	    !(o->ep = dcpi_epochs_new((uint32_t)o->n_epochs,
				      (uint32_t)o->n_events)))
		return nomem(o);
	enum status st = add_columns(o);
	if (st != STATUS_OK)
		return st;
	if (defer) {
		st = build_deferred(o, &lazy);
		if (st != STATUS_OK) {
			lazy_free(lazy);
			return st;
		}
	} else {
		sort_hits(o);
	}
	for (size_t i = 0, im = 0; !defer && im < o->n_images; im++) {
		size_t j = i;
		while (j < o->n_hits && o->hits[j].image == im)
			j++;
		st = build_image(o, (uint32_t)im, MODEL_NONE, o->hits + i,
				 j - i);
		if (st != STATUS_OK)
			return st;
		i = j;
	}
	if (o->n_missing)
		warn(o, "%zu of %zu images not found (%s%s): addresses shown "
		     "without symbols; see --image-path",
		     o->n_missing, o->n_images, o->first_missing,
		     o->n_missing > 1 ? ", ..." : "");
	if (o->n_offsets)
		warn(o, "%zu image%s without tstart nor ELF image: addresses "
		     "are offsets from the start of the text",
		     o->n_offsets, o->n_offsets == 1 ? "" : "s");
	if (o->ep) {
		uint32_t first = add_epoch_profiles(o);
		if (first == MODEL_NONE ||
		    !dcpi_epochs_finish(o->ep, model_builder_peek(o->b), first))
			return nomem(o);
		if (!dcpi_epochs_inner_kept(o->ep))
			warn(o, "%zu epochs: per-epoch values of procedures, "
			     "lines and images not kept (over 256 MB); "
			     "sampled rows have them",
			     o->n_epochs);
	}
	struct dcpi_values *v = calloc(1, sizeof(*v));
	if (!v) {
		lazy_free(lazy);
		return nomem(o);
	}
	v->epochs = o->ep;
	o->ep = NULL;
	v->n_events = (uint32_t)o->n_events;
	if (!values_take(v, model_builder_peek(o->b), o->vals, o->n_vals)) {
		lazy_free(lazy);
		dcpi_values_close(v);
		return nomem(o);
	}
	if (lazy) {
		/* the images, files and events move to the lazy state */
		lazy->images = o->images;
		lazy->n_images = o->n_images;
		lazy->files = o->files;
		lazy->n_files = o->n_files;
		lazy->events = o->events;
		lazy->n_events = o->n_events;
		o->images = NULL; /* the counts stay for the title */
		o->files = NULL;
		o->events = NULL;
		v->lazy = lazy;
		model_builder_set_deferred(o->b, &dcpi_deferred_ops, v);
	}
	model_builder_set_values(o->b,
				 v->epochs ? &dcpi_epoch_value_ops
					   : &dcpi_value_ops,
				 v);
	char *title = NULL;
	if (asprintf(&title, "DCPI profile: %zu image%s, %zu event%s, %zu "
			     "file%s",
		     o->n_images, o->n_images == 1 ? "" : "s", o->n_events,
		     o->n_events == 1 ? "" : "s", o->n_files,
		     o->n_files == 1 ? "" : "s") < 0)
		title = NULL;
	model_builder_set_title(o->b, title, NULL);
	free(title);
	struct model_builder *b = o->b;
	o->b = NULL;
	*out = model_builder_finish(b, o->err);
	return *out ? STATUS_OK : STATUS_NOMEM;
}

static enum status dcpi_open(const struct reader_input *in,
			     struct model **out, struct error *err)
{
	struct opener o = {.path = in->paths[0], .ro = in->options,
			   .err = err, .defer_min = DCPI_DEFER_MIN};
	struct stat sb;
	enum status st;
	const char *dm = getenv("CALLSCOPE_DCPI_DEFER_MIN");
	if (dm && *dm >= '0' && *dm <= '9')
		o.defer_min = strtoull(dm, NULL, 10);
	*out = NULL;
	o.b = model_builder_new("dcpi", o.path);
	if (!o.b)
		return error_set(err, STATUS_NOMEM, o.path, "out of memory");
	if (stat(o.path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		st = walk(&o, o.path, 0);
		if (st == STATUS_OK && o.n_files == 0)
			st = error_set(err, STATUS_NOT_DATABASE, o.path,
				       "DCPI database: no profile file in "
				       "the directory");
	} else {
		st = read_file(&o, o.path, true);
	}
	if (st == STATUS_OK && o.n_skipped)
		warn(&o, "%zu file%s in the directory %s: skipped",
		     o.n_skipped, o.n_skipped == 1 ? "" : "s",
		     o.n_skipped == 1 ? "is not a DCPI profile"
				      : "are not DCPI profiles");
	if (st == STATUS_OK)
		st = build(&o, out);
	if (o.b)
		model_builder_free(o.b);
	for (size_t i = 0; o.images && i < o.n_images; i++) {
		free(o.images[i].id);
		free(o.images[i].path);
	}
	free(o.images);
	for (size_t i = 0; o.events && i < o.n_events; i++)
		free(o.events[i]);
	free(o.events);
	for (size_t i = 0; o.files && i < o.n_files; i++)
		free(o.files[i].path);
	free(o.files);
	for (size_t i = 0; i < o.n_epochs; i++)
		free(o.epochs[i]);
	free(o.epochs);
	dcpi_epochs_free(o.ep);
	free(o.hits);
	free(o.vals);
	return st;
}

static bool all_digits(const char *s, size_t *len)
{
	size_t i = 0;
	while (s[i] >= '0' && s[i] <= '9')
		i++;
	*len = i;
	return i > 0 && s[i] == '\0';
}

/* Whether `n` is named like a profile in an epoch, IMAGEHEX.EVENT (the
 * layout of the notes, A.6; the names are not documented). */
static bool profile_name(const char *n)
{
	size_t i = 0;
	while ((n[i] >= '0' && n[i] <= '9') || (n[i] >= 'a' && n[i] <= 'f') ||
	       (n[i] >= 'A' && n[i] <= 'F'))
		i++;
	return i > 0 && n[i] == '.' && n[i + 1] != '\0';
}

/* A file whose head is a DCPI header through its "samples" line: 95; one
 * whose first line is a DCPI key: 50 (ours, but broken).  A directory
 * whose subdirectories are named like epochs (10, 12 or 14 digits): 40;
 * one whose files are all named IMAGEHEX.EVENT: 30 (an epoch directory;
 * the file names inside an epoch are not documented). */
static int dcpi_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (p->is_dir) {
		for (size_t i = 0; i < p->n_subdirs; i++) {
			size_t l;
			if (all_digits(p->subdirs[i], &l) &&
			    (l == 10 || l == 12 || l == 14))
				return 40;
		}
		for (size_t i = 0; i < p->n_names; i++)
			if (!profile_name(p->names[i]))
				return 0;
		return p->n_names && !p->n_subdirs ? 30 : 0;
	}
	if (!p->is_file || !dcpi_head_looks_like(p->head, p->head_len))
		return 0;
	for (size_t i = 0; i + 8 <= p->head_len; i++)
		if ((i == 0 || p->head[i - 1] == '\n') &&
		    memcmp(p->head + i, "samples", 7) == 0) {
			size_t k = i + 7;
			while (k < p->head_len &&
			       (p->head[k] == ' ' || p->head[k] == '\t'))
				k++;
			if (k < p->head_len && p->head[k] == '\n')
				return 95;
		}
	return 50;
}

const struct reader reader_dcpi = {
	.name = "dcpi",
	.description = "DCPI profile file (ASCII header, version-0 samples), "
		       "or a DCPI profile database directory",
	.caps = READER_CAP_TREE | READER_CAP_PER_PROFILE,
	.bid = dcpi_bid,
	.open = dcpi_open,
};
