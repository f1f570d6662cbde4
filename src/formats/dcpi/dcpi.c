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
 * Decoding is dcpi_file.c's job, ELF dcpi_elf.c's, an image's subtree
 * dcpi_tree.c's, images loaded when expanded dcpi_lazy.c's; see doc/dcpi.md.
 * Depends on core/, model/, io/ and formats/reader.h. */
#include "config.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/array.h"
#include "core/path.h"
#include "formats/dcpi/dcpi_internal.h"
#include "formats/dcpi/dcpi_listing.h"
#include "io/blob.h"

/* Limits of a directory walk. */
#define DCPI_MAX_DEPTH 8
#define DCPI_MAX_FILES 100000
/* Above this many sampled addresses (over every file), a database opens
 * with its image rows alone, each image's subtree loaded when
 * it is expanded (model.h, NODE_TRAIT_DEFERRED); the environment variable
 * CALLSCOPE_DCPI_DEFER_MIN sets another bound (0: always). */
#define DCPI_DEFER_MIN 1000000u
/* Above this many sampled addresses, a deferred database also groups each
 * image's addresses that no symbol covers under one row, "[image: no
 * symbols]", whose address rows are read when it is expanded (doc/dcpi.md);
 * CALLSCOPE_DCPI_GROUP_MIN sets another bound (0: always, when deferred). */
#define DCPI_GROUP_MIN 1000000u

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
		if (!array_grow((void **)&o->hits, &o->cap_hits,
				o->n_hits + 1, sizeof(*o->hits)))
			return error_set(o->err, STATUS_NOMEM, file,
					 "out of memory");
		o->hits[o->n_hits++] = (struct hit){
			.image = im, .event = ev, .offset = p->samples[i].offset,
			.epoch = epoch, .count = p->samples[i].count};
	}
	return STATUS_OK;
}

static bool add_file(struct opener *o, const char *file,
		     const struct file_entry *fe)
{
	if (!array_grow((void **)&o->files, &o->cap_files, o->n_files + 1,
			sizeof(*o->files)))
		return false;
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
enum status dcpi_decode_file(struct opener *o, const struct file_entry *f,
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
		if (!array_grow((void **)&names, &cap, n + 1, sizeof(*names))) {
			st = dcpi_nomem(o);
			goto out;
		}
		if (!(names[n] = strdup(de->d_name))) {
			st = dcpi_nomem(o);
			goto out;
		}
		n++;
	}
	if (n)
		qsort(names, n, sizeof(*names), str_cmp);
	for (size_t i = 0; i < n && st == STATUS_OK; i++) {
		char *full = NULL;
		struct stat sb;
		if (!(full = path_join(dir, names[i]))) {
			st = dcpi_nomem(o);
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
	array_free_each(names, n);
	closedir(d);
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

void dcpi_values_close(void *impl)
{
	struct dcpi_values *v = impl;
	if (!v)
		return;
	free(v->v);
	free(v->has);
	dcpi_epochs_free(v->epochs);
	dcpi_lazy_free(v->lazy);
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
			.metric = dcpi_intern(o, o->events[e]),
			.scope = dcpi_intern(o, "exclusive"),
			.formula = dcpi_intern(o, "$$"),
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
			return dcpi_nomem(o);
		for (int k = 0; k < 2; k++) {
			char *descr = NULL;
			if (asprintf(&descr, "DCPI samples of event %s (%s)",
				     o->events[e],
				     k ? "exclusive" : "inclusive") < 0)
				descr = NULL;
			struct model_leaf_column c = {
				.name = o->events[e],
				.variant = "",
				.description = descr,
				.format = "%.0f",
				.stat = stat[k],
				.kind = k ? COLUMN_EXCLUSIVE : COLUMN_INCLUSIVE,
				.render = RENDER_NUMBER | RENDER_PERCENT,
				.visible = true,
			};
			uint32_t col = model_builder_add_leaf_column(o->b, &c);
			free(descr);
			if (col == MODEL_NONE)
				return dcpi_nomem(o);
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
			.kind_name = dcpi_intern(o, "EPOCH"),
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

/* Every file's samples decoded (a database small enough to build whole). */
static enum status decode_all(struct opener *o)
{
	for (size_t i = 0; i < o->n_files; i++) {
		if (o->files[i].decoded)
			continue;
		enum status st = dcpi_decode_file(
			o, &o->files[i], (const char *const *)o->events,
			o->images);
		if (st != STATUS_OK)
			return st;
	}
	return STATUS_OK;
}

/* Every image's subtree from the sorted hits. */
static enum status build_images(struct opener *o)
{
	dcpi_sort_hits(o);
	for (size_t i = 0, im = 0; im < o->n_images; im++) {
		size_t j = i;
		while (j < o->n_hits && o->hits[j].image == im)
			j++;
		enum status st = dcpi_build_image(o, (uint32_t)im, MODEL_NONE,
						  o->hits + i, j - i);
		if (st != STATUS_OK)
			return st;
		i = j;
	}
	return STATUS_OK;
}

/* The warnings of images not found and of offsets shown. */
static void warn_images(struct opener *o)
{
	if (o->n_missing)
		dcpi_warn(o, "%zu of %zu images not found (%s%s): addresses shown "
		     "without symbols; see --image-path",
		     o->n_missing, o->n_images, o->first_missing,
		     o->n_missing > 1 ? ", ..." : "");
	if (o->n_offsets)
		dcpi_warn(o, "%zu image%s without tstart nor ELF image: addresses "
		     "are offsets from the start of the text",
		     o->n_offsets, o->n_offsets == 1 ? "" : "s");
}

/* The epochs' profiles and per-epoch sums (deferred images': their
 * files'); false when out of memory. */
static bool finish_epochs(struct opener *o, const struct dcpi_lazy *lazy)
{
	uint32_t first = add_epoch_profiles(o);
	if (first == MODEL_NONE ||
	    !dcpi_epochs_finish(o->ep, model_builder_peek(o->b), first))
		return false;
	for (size_t i = 0; lazy && i < o->n_files; i++)
		dcpi_epochs_add_deferred(o->ep, model_builder_peek(o->b),
					 lazy->first_node + o->files[i].image,
					 o->files[i].event, o->files[i].epoch,
					 (double)o->files[i].sum);
	if (!dcpi_epochs_inner_kept(o->ep))
		dcpi_warn(o, "%zu epochs: per-epoch values of procedures, "
		     "lines and images not kept (over 256 MB); "
		     "sampled rows have them",
		     o->n_epochs);
	return true;
}

/* The model's values (and deferred images) handed to the builder, its
 * title, and the model. */
static enum status finish(struct opener *o, struct dcpi_lazy *lazy,
			  struct model **out)
{
	struct dcpi_values *v = calloc(1, sizeof(*v));
	if (!v) {
		dcpi_lazy_free(lazy);
		return dcpi_nomem(o);
	}
	v->epochs = o->ep;
	o->ep = NULL;
	v->n_events = (uint32_t)o->n_events;
	if (!dcpi_values_take(v, model_builder_peek(o->b), 0, o->vals,
			      o->n_vals)) {
		dcpi_lazy_free(lazy);
		dcpi_values_close(v);
		return dcpi_nomem(o);
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

static enum status build(struct opener *o, struct model **out)
{
	/* large databases: images loaded when expanded */
	bool defer = o->n_addresses > o->defer_min;
	struct dcpi_lazy *lazy = NULL;
	enum status st = defer ? STATUS_OK : decode_all(o);
	if (st != STATUS_OK)
		return st;
	if (o->n_epochs > 1 &&
	    !(o->ep = dcpi_epochs_new((uint32_t)o->n_epochs,
				      (uint32_t)o->n_events)))
		return dcpi_nomem(o);
	st = add_columns(o);
	if (st != STATUS_OK)
		return st;
	st = defer ? dcpi_build_deferred(o, &lazy) : build_images(o);
	if (st != STATUS_OK) {
		dcpi_lazy_free(lazy);
		return st;
	}
	warn_images(o);
	if (o->ep && !finish_epochs(o, lazy)) {
		dcpi_lazy_free(lazy);
		return dcpi_nomem(o);
	}
	return finish(o, lazy, out);
}

static enum status dcpi_open(const struct reader_input *in,
			     struct model **out, struct error *err)
{
	struct opener o = {.path = in->paths[0], .ro = in->options,
			   .err = err, .defer_min = DCPI_DEFER_MIN,
			   .group_min = DCPI_GROUP_MIN};
	struct stat sb;
	enum status st;
	const char *dm = getenv("CALLSCOPE_DCPI_DEFER_MIN");
	if (dm && *dm >= '0' && *dm <= '9')
		o.defer_min = strtoull(dm, NULL, 10);
	const char *gm = getenv("CALLSCOPE_DCPI_GROUP_MIN");
	if (gm && *gm >= '0' && *gm <= '9')
		o.group_min = strtoull(gm, NULL, 10);
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
		dcpi_warn(&o, "%zu file%s in the directory %s: skipped",
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
	array_free_each(o.epochs, o.n_epochs);
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

/* The registry's listing hook (views/proc_listing.c asks for a model's
 * listing through it): dcpi_listing's instructions as reader_insn. */
struct insn_adapter {
	reader_insn_emit emit;
	void *ctx;
};

static void adapt_insn(void *ctx, const struct dcpi_insn *in)
{
	const struct insn_adapter *a = ctx;
	struct reader_insn r = {in->addr, in->size, in->bytes,
				in->text, in->file, in->line};
	a->emit(a->ctx, &r);
}

static enum status dcpi_reader_listing(const char *image, uint64_t addr,
				       char **name, uint64_t *entry,
				       uint64_t *size, reader_insn_emit emit,
				       void *ctx, struct error *err)
{
	struct insn_adapter a = {emit, ctx};
	return dcpi_listing(image, addr, name, entry, size, adapt_insn, &a,
			    err);
}

/* The files of a database a directory URL fetches: every file whose path
 * has no part starting with '.' (the walk skips those) and whose name is a
 * profile's, IMAGEHEX.EVENT, down to the 3 levels a listing has
 * (DB/EPOCH/FILE is the layout, A.6); the walk reads every file, but a
 * README or a core file beside the epochs is no profile, only skipped
 * with a warning. */
static bool dcpi_file_accept(const char *path)
{
	for (const char *part = path;;) {
		if (*part == '.')
			return false;
		const char *slash = strchr(part, '/');
		if (!slash)
			return profile_name(part);
		part = slash + 1;
	}
}

static const struct reader_file_rule dcpi_files[] = {
	{"*", 0},
	{"*/*", 0},
	{"*/*/*", 0},
	{NULL, 0},
};

READER(reader_dcpi, "dcpi", READER_CAP_TREE | READER_CAP_PER_PROFILE, dcpi_bid,
       dcpi_open,
       "DCPI profile file (ASCII header, version-0 samples), or a DCPI profile "
       "database directory",
       .listing = dcpi_reader_listing, .files = dcpi_files,
       .files_accept = dcpi_file_accept);
