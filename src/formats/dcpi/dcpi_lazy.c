/* dcpi_lazy: DCPI databases too large to build whole (model.h,
 * NODE_TRAIT_DEFERRED): one row per image at open, its inclusive values the
 * files' exact sums; expanding an image reads its files again (checked to
 * be what they were at open), builds its subtree (dcpi_tree.c) at the end
 * of the model and adds the new rows' values to the dense arrays.  In a
 * grouped database (doc/dcpi.md) an image's addresses that no symbol covers
 * become one deferred procedure row (NODE_TRAIT_DEFERRED_LEAVES) whose
 * totals are kept here, its address rows read when it is expanded.  Depends
 * on core/, model/ and the reader's own files. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "formats/dcpi/dcpi_internal.h"

bool dcpi_values_take(struct dcpi_values *v, const struct model *m,
		      uint32_t from, const struct val *vals, size_t n_vals)
{
	uint32_t n_nodes = model_n_nodes(m);
	size_t ev = v->n_events ? v->n_events : 1;
	if (n_nodes > v->cap_nodes) {
		/* geometric: images loaded one after another stay linear */
		uint64_t cap = (uint64_t)v->cap_nodes * 2;
		if (cap < n_nodes)
			cap = n_nodes;
		double *nv = realloc(v->v, (size_t)cap * ev * sizeof(*nv));
		if (!nv)
			return false;
		v->v = nv;
		uint8_t *nh = realloc(v->has, (size_t)cap * ev);
		if (!nh)
			return false;
		v->has = nh;
		v->cap_nodes = (uint32_t)cap;
	}
	/* the new nodes' cells (a load undone by the model may have left
	 * values there) */
	if (from < n_nodes) {
		memset(v->v + (size_t)from * ev, 0,
		       (size_t)(n_nodes - from) * ev * sizeof(*v->v));
		memset(v->has + (size_t)from * ev, 0,
		       (size_t)(n_nodes - from) * ev);
	}
	v->n_nodes = n_nodes;
	for (size_t i = 0; i < n_vals; i++) {
		if (vals[i].node < from || vals[i].node >= n_nodes ||
		    vals[i].event >= ev)
			continue;
		size_t c = (size_t)vals[i].node * v->n_events + vals[i].event;
		v->v[c] += vals[i].value;
		v->has[c] = 1;
	}
	return true;
}

void dcpi_lazy_free(struct dcpi_lazy *z)
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
	array_free_each(z->events, z->n_events);
	array_free_each(z->image_path, z->ro.n_image_path);
	free(z->totals);
	free(z->groups);
	free(z->group_totals);
	free(z->first_file);
	free(z->by_image);
	free(z->path);
	free(z);
}

/* The group whose row is `node`, or n_groups. */
static bool group_below(const void *elem, const void *key)
{
	return ((const struct dcpi_group *)elem)->node <
	       *(const uint32_t *)key;
}

static size_t find_group(const struct dcpi_lazy *z, uint32_t node)
{
	size_t lo = array_lower_bound(z->groups, z->n_groups,
				      sizeof(*z->groups), group_below, &node);
	return lo < z->n_groups && z->groups[lo].node == node ? lo
							       : z->n_groups;
}

/* The group row `node` of image `ii` just made, with its sums (n_events)
 * kept as its totals. */
static bool add_group(struct dcpi_lazy *z, uint32_t node, uint32_t ii,
		      const double *sum)
{
	size_t ev = z->n_events ? z->n_events : 1;
	if (z->n_groups == z->cap_groups) {
		size_t nc = z->cap_groups ? z->cap_groups * 2 : 16;
		struct dcpi_group *ng = realloc(z->groups, nc * sizeof(*ng));
		if (!ng)
			return false;
		z->groups = ng;
		double *nt = realloc(z->group_totals, nc * ev * sizeof(*nt));
		if (!nt)
			return false;
		z->group_totals = nt;
		z->cap_groups = nc;
	}
	z->groups[z->n_groups] = (struct dcpi_group){node, ii};
	memcpy(z->group_totals + z->n_groups * ev, sum, ev * sizeof(*sum));
	z->n_groups++;
	return true;
}

/* deferred_ops.load: image node `node`'s files read again, its subtree
 * built as build() would have; or group row `node`'s address rows from its
 * image's files. */
static enum status dcpi_load(void *impl, struct model_builder *b,
			     uint32_t node, struct error *err)
{
	struct dcpi_values *v = impl;
	struct dcpi_lazy *z = v->lazy;
	size_t g = z ? find_group(z, node) : 0;
	bool is_group = z && g < z->n_groups;
	if (!z || (!is_group && (node < z->first_node ||
				 node - z->first_node >= z->n_images)))
		return error_set(err, STATUS_USAGE, z ? z->path : NULL,
				 "node %u is not a deferred image",
				 (unsigned)node);
	uint32_t ii = is_group ? z->groups[g].image : node - z->first_node;
	uint32_t from = model_n_nodes(model_builder_peek(b));
	/* groups of a load the model undid */
	while (z->n_groups && z->groups[z->n_groups - 1].node >= from)
		z->n_groups--;
	size_t ev = z->n_events ? z->n_events : 1;
	struct opener o = {.path = z->path, .ro = &z->ro, .err = err,
			   .b = b, .images = z->images,
			   .n_images = z->n_images, .ep = v->epochs,
			   .n_epochs = z->n_epochs, .z = z,
			   .group_node = MODEL_NONE};
	enum status st = STATUS_OK;
	if (!is_group && z->group &&
	    (!(o.group_sum = calloc(ev, sizeof(double))) ||
	     (v->epochs && !(o.group_epoch = calloc(ev * z->n_epochs,
						    sizeof(double))))))
		st = error_set(err, STATUS_NOMEM, z->path, "out of memory");
	if (v->epochs)
		dcpi_epochs_forget_from(v->epochs, from);
	const char *const *events = (const char *const *)z->events;
	/* this image's files only: loads stay O(their size) */
	for (uint32_t k = z->first_file[ii];
	     k < z->first_file[ii + 1] && st == STATUS_OK; k++)
		st = dcpi_decode_file(&o, &z->files[z->by_image[k]], events,
				      z->images);
	if (st == STATUS_OK) {
		dcpi_sort_hits(&o);
		st = is_group ? dcpi_build_group(&o, ii, node, o.hits, o.n_hits)
			      : dcpi_build_image(&o, ii, node, o.hits,
						 o.n_hits);
	}
	if (st == STATUS_OK &&
	    (!dcpi_values_take(v, model_builder_peek(b), from, o.vals,
			       o.n_vals) ||
	     (v->epochs &&
	      !dcpi_epochs_grow(v->epochs, model_builder_peek(b), from)) ||
	     (o.group_node != MODEL_NONE &&
	      !add_group(z, o.group_node, ii, o.group_sum))))
		st = error_set(err, STATUS_NOMEM, z->path, "out of memory");
	/* the group row's per-epoch sums (its ancestors hold them) */
	for (size_t e = 0; st == STATUS_OK && o.group_node != MODEL_NONE &&
			   o.group_epoch && e < ev * z->n_epochs;
	     e++)
		if (o.group_epoch[e] != 0)
			dcpi_epochs_add_inner(v->epochs, model_builder_peek(b),
					      o.group_node,
					      (uint32_t)(e / z->n_epochs),
					      (uint32_t)(e % z->n_epochs),
					      o.group_epoch[e]);
	free(o.hits);
	free(o.vals);
	free(o.group_sum);
	free(o.group_epoch);
	return st;
}

/* deferred_ops.total: an image's samples of an event (the files' sums), or
 * a group's (summed when its image was loaded). */
static bool dcpi_total(void *impl, uint32_t node, uint32_t stat_id,
		       double *out)
{
	const struct dcpi_values *v = impl;
	const struct dcpi_lazy *z = v->lazy;
	if (!z || stat_id >= v->n_events)
		return false;
	size_t g = find_group(z, node);
	double t;
	if (g < z->n_groups)
		t = z->group_totals[g * v->n_events + stat_id];
	else if (node >= z->first_node && node - z->first_node < z->n_images)
		t = z->totals[(size_t)(node - z->first_node) * v->n_events +
			      stat_id];
	else
		return false;
	if (t == 0)
		return false;
	*out = t;
	return true;
}

const struct deferred_ops dcpi_deferred_ops = {
	.load = dcpi_load,
	.total = dcpi_total,
	.close = NULL, /* dcpi_values_close frees the lazy state */
};

/* The deferred database's rows: one per image, its subtree loaded when
 * expanded; the state that load needs, moved out of the opener. */
enum status dcpi_build_deferred(struct opener *o, struct dcpi_lazy **out)
{
	struct dcpi_lazy *z = calloc(1, sizeof(*z));
	if (!z)
		return dcpi_nomem(o);
	*out = z;
	z->first_node = model_n_nodes(model_builder_peek(o->b));
	z->n_epochs = (uint32_t)o->n_epochs;
	z->group = o->n_addresses > o->group_min;
	z->totals = calloc(o->n_images * (o->n_events ? o->n_events : 1),
			   sizeof(*z->totals));
	z->path = strdup(o->path);
	size_t n_ip = o->ro ? o->ro->n_image_path : 0;
	z->image_path = calloc(n_ip ? n_ip : 1, sizeof(*z->image_path));
	if (!z->totals || !z->path || !z->image_path)
		return dcpi_nomem(o);
	for (size_t i = 0; i < n_ip; i++) {
		if (!(z->image_path[i] = strdup(o->ro->image_path[i])))
			return dcpi_nomem(o);
		z->ro.n_image_path = i + 1;
	}
	z->ro.image_path = (const char *const *)z->image_path;
	for (size_t i = 0; i < o->n_files; i++)
		z->totals[(size_t)o->files[i].image * o->n_events +
			  o->files[i].event] += (double)o->files[i].sum;
	/* the files grouped by image (a counting sort, in walk order) */
	z->first_file = calloc(o->n_images + 1, sizeof(*z->first_file));
	z->by_image = calloc(o->n_files ? o->n_files : 1, sizeof(*z->by_image));
	if (!z->first_file || !z->by_image)
		return dcpi_nomem(o);
	for (size_t i = 0; i < o->n_files; i++)
		z->first_file[o->files[i].image + 1]++;
	for (size_t k = 0; k < o->n_images; k++)
		z->first_file[k + 1] += z->first_file[k];
	uint32_t *at = calloc(o->n_images ? o->n_images : 1, sizeof(*at));
	if (!at)
		return dcpi_nomem(o);
	for (size_t i = 0; i < o->n_files; i++) {
		uint32_t im = o->files[i].image;
		z->by_image[z->first_file[im] + at[im]++] = (uint32_t)i;
	}
	free(at);
	for (size_t ii = 0; ii < o->n_images; ii++) {
		const struct image *im = &o->images[ii];
		char *found = NULL;
		struct dcpi_elf *elf = dcpi_find_elf(o, im, &found);
		uint64_t taddr, tsize;
		if (!elf && o->n_missing++ == 0)
			o->first_missing = im->path ? im->path : im->id;
		if (!im->has_tstart)
			o->n_offsets += !(elf && dcpi_elf_text(elf, &taddr,
							       &tsize));
		dcpi_elf_close(elf);
		uint32_t node = dcpi_image_node(o, (uint32_t)ii, found, true);
		free(found);
		if (node != z->first_node + ii)
			return dcpi_nomem(o);
	}
	return STATUS_OK;
}
