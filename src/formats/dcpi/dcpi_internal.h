/* dcpi_internal: what the DCPI reader's files share and nothing else may
 * see: the opener's state during open (images, events, epochs, files,
 * samples as hits, values), the value provider, the deferred images' state,
 * and the steps each file gives the others.  dcpi.c: bid, walk, files,
 * columns, the model; dcpi_tree.c: one image's subtree from its samples
 * (symbols, inlined calls, lines, addresses); dcpi_lazy.c: images loaded
 * when expanded.  Depends on core/, model/, io/ and formats/reader.h. */
#ifndef CALLSCOPE_DCPI_INTERNAL_H
#define CALLSCOPE_DCPI_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/dcpi/dcpi_elf.h"
#include "formats/dcpi/dcpi_epochs.h"
#include "formats/dcpi/dcpi_file.h"
#include "formats/reader.h"

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

/* An image's addresses that no symbol covers, grouped under one
 * procedure row (a large database: dcpi_lazy.c), loaded when it is
 * expanded. */
struct dcpi_group {
	uint32_t node, image;
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
	/* the files of image k: by_image[first_file[k] .. first_file[k+1]) */
	uint32_t *first_file, *by_image;
	char **image_path;   /* reader_options.image_path, copied */
	struct reader_options ro;
	uint32_t n_epochs;
	/* unsymbolized addresses grouped per image (doc/dcpi.md): the
	 * groups made so far, by node, and their totals (group x event) */
	bool group;
	struct dcpi_group *groups;
	double *group_totals;
	size_t n_groups, cap_groups;
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
	uint32_t cap_nodes; /* nodes the arrays have room for */
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
	uint64_t group_min;     /* and group their addresses without a
				   symbol above this many */
	size_t n_skipped; /* files of a directory that are not DCPI */
	/* said once: images not found (the first's path), and of those
	 * without tstart (addresses shown as text offsets) */
	size_t n_missing, n_offsets;
	const char *first_missing;
	/* loading a deferred image of a grouped database (dcpi_lazy.c):
	 * the lazy state; the image's group row made by dcpi_build_image
	 * (MODEL_NONE: none) and its sums per event, and per event x epoch
	 * with several epochs */
	struct dcpi_lazy *z;
	uint32_t group_node;
	double *group_sum, *group_epoch;
};

/* dcpi_tree.c */
void dcpi_warn(struct opener *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
enum status dcpi_nomem(struct opener *o);
const char *dcpi_base_name(const char *p);
uint32_t dcpi_intern(struct opener *o, const char *s);
/* The ELF image of `im`: the recorded path, then each image-path
 * directory; NULL when none opens (*found: the path that did, malloc'd). */
struct dcpi_elf *dcpi_find_elf(struct opener *o, const struct image *im,
			       char **found);
/* Image `ii`'s row under the root (module: `found`, else its path or id);
 * `deferred`: its subtree is loaded when expanded.  MODEL_NONE when out of
 * memory. */
uint32_t dcpi_image_node(struct opener *o, uint32_t ii, const char *found,
			 bool deferred);
/* Image `ii`'s subtree from its sorted hits [h, h + n) under row `inode`
 * (MODEL_NONE: made here); values into o->vals (and o->ep). */
enum status dcpi_build_image(struct opener *o, uint32_t ii, uint32_t inode,
			     const struct hit *h, size_t n);
/* The rows of group `gnode` of image `ii` (its addresses that no symbol
 * covers) from the image's sorted hits [h, h + n), as address rows under
 * it; values into o->vals (and o->ep). */
enum status dcpi_build_group(struct opener *o, uint32_t ii, uint32_t gnode,
			     const struct hit *h, size_t n);
/* Sort o->hits by (image, offset, event, epoch), equal ones summed. */
void dcpi_sort_hits(struct opener *o);

/* dcpi.c */
/* A file's samples, read again, as hits; STATUS_CORRUPT when it is not
 * what it was at open (counts, sum, event, image). */
enum status dcpi_decode_file(struct opener *o, const struct file_entry *f,
			     const char *const *events,
			     const struct image *images);
void dcpi_values_close(void *impl);

/* dcpi_lazy.c */
/* The dense arrays sized for `m`'s nodes; the cells of nodes [from,
 * n_nodes) cleared and given `vals` (of those nodes); false when out of
 * memory. */
bool dcpi_values_take(struct dcpi_values *v, const struct model *m,
		      uint32_t from, const struct val *vals, size_t n_vals);
void dcpi_lazy_free(struct dcpi_lazy *z);
/* One deferred row per image; *out gets the state the loads need (the
 * caller moves the images, files and events into it). */
enum status dcpi_build_deferred(struct opener *o, struct dcpi_lazy **out);
extern const struct deferred_ops dcpi_deferred_ops;

#endif
