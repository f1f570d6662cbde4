/* cube: the reader of Score-P / Scalasca Cube4 profiles: a .cubex file
 * (a tar, read in place), a directory holding anchor.xml and the
 * N.index / N.data files, or one holding a single .cubex.  Here: bidding and the open, which builds the
 * model through cube_tree.c (call tree, regions as functions, locations as
 * profiles) and cube_metrics.c (two columns per metric; derived CubePL
 * metrics: cube_derived.c, cubepl*.c) and hands it the
 * lazy value provider of cube_values.c: a metric's index is read the first
 * time one of its values is asked, each row (one call node, every
 * location) when needed.
 *
 * Values (doc/cube.md): metric-inclusive as stored (a parent metric holds
 * its children, as the Cube GUI shows a collapsed metric).  Call tree: a
 * metric stored INCLUSIVE gives the inclusive value per row and the
 * exclusive one as the row minus its children's rows; one stored
 * EXCLUSIVE gives the exclusive value per row, flagged STAT_EXCLUSIVE_ONLY:
 * the engine derives the inclusive one (one pass over the tree when first
 * needed); the reader gives its per-location values (the subtree's rows).  Sums over locations, min/max for MIN/MAXDOUBLE,
 * where an all-zero row counts as no data (pycubexr).  Depends on core/,
 * model/, io/ and formats/reader.h. */
#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/cube/cube_internal.h"
#include "formats/reader.h"

/* ---- open --------------------------------------------------------------- */

void cube_warn(struct opener *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	model_builder_vwarnf(o->b, o->path, fmt, ap);
	va_end(ap);
}

static enum status open_path(const char *path, struct model **out,
			     struct error *err)
{
	struct opener o = {.path = path, .err = err};
	enum status st;
	struct stat sb;
	*out = NULL;
	bool is_dir = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
	o.v = calloc(1, sizeof(*o.v));
	if (!o.v)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	pthread_mutex_init(&o.v->lock, NULL);
	o.v->name = strdup(path);
	st = cube_container_open(path, is_dir, &o.v->c, err);
	if (st != STATUS_OK) {
		cube_values_close(o.v);
		return st;
	}
	o.b = model_builder_new("cube", path);
	if (!o.b || !o.v->name) {
		cube_values_close(o.v);
		model_builder_free(o.b);
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	}
	model_builder_set_ctx_id_base(o.b, 1);
	st = cube_anchor_read(&o.v->c, o.b, &o.a, err);
	if (st == STATUS_OK && o.a.n_cnodes == 0)
		st = error_set(err, STATUS_CORRUPT, path,
			       "anchor.xml has no call nodes");
	o.v->n_loc = o.a.n_locations;
	if (st == STATUS_OK && o.a.n_locations == 0)
		st = error_set(err, STATUS_CORRUPT, path,
			       "anchor.xml has no locations (system tree)");
	if (st == STATUS_OK)
		st = cube_build_tree(&o);
	if (st == STATUS_OK)
		st = cube_build_regions(&o);
	if (st == STATUS_OK)
		st = cube_build_nodes(&o);
	if (st == STATUS_OK)
		st = cube_build_profiles(&o);
	if (st == STATUS_OK)
		st = cube_build_metrics(&o);
	if (st != STATUS_OK) {
		cube_values_close(o.v);
		model_builder_free(o.b);
		free(o.region_of_id);
		cube_anchor_free(&o.a);
		return st;
	}
	char *title = NULL;
	if (asprintf(&title, "Cube %s%s%s", o.a.version,
		     o.a.title ? " profile by " : "",
		     o.a.title ? o.a.title : "") < 0)
		title = NULL;
	model_builder_set_title(o.b, title, o.a.attrs);
	free(title);
	if (o.v->c.checksum_bug)
		cube_warn(&o,
			  "%u tar headers have a checksum 32 below the correct "
			  "one (the Cube 4.8 writer's bug): accepted",
			  (unsigned)o.v->c.checksum_bug);
	if (o.a.location_ids_doc_order)
		cube_warn(&o,
			  "location Ids are not 0..%u: data columns taken in "
			  "document order",
			  (unsigned)(o.a.n_locations - 1));
	model_builder_set_values(o.b, &cube_value_ops, o.v);
	free(o.region_of_id);
	cube_anchor_free(&o.a);
	*out = model_builder_finish(o.b, err);
	return *out ? STATUS_OK : STATUS_NOMEM;
}

static enum status cube_open(const struct reader_input *in,
			     struct model **out, struct error *err)
{
	return open_path(in->paths[0], out, err);
}

static bool member_like(const char *n)
{
	if (strcmp(n, "anchor.xml") == 0 || strcmp(n, "remapping.spec") == 0)
		return true;
	size_t i = 0;
	while (n[i] >= '0' && n[i] <= '9')
		i++;
	return i > 0 &&
	       (strcmp(n + i, ".index") == 0 || strcmp(n + i, ".data") == 0);
}

/* Archive members (anchor.xml: 90; N.index / N.data only: 60, the list
 * may be a prefix); a tar header whose first member is a Cube member
 * (libarchive refuses the Cube 4.8 files, so they have no member list):
 * 85; a directory with anchor.xml: 90, else one holding a .cubex: 35; a
 * .cubex name: 50. */
static int cube_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (p->is_dir) {
		if (reader_probe_has(p, "anchor.xml"))
			return 90;
		/* a profile's folder: below OTF2's bid on a Score-P
		 * experiment directory, which holds both */
		for (size_t i = 0; i < p->n_names; i++)
			if (p->names[i][0] != '.' &&
			    reader_name_ends_with(p->names[i], ".cubex"))
				return 35;
		return 0;
	}
	if (!p->is_file)
		return 0;
	if (p->is_archive) {
		bool data = false;
		for (size_t i = 0; i < p->n_members; i++) {
			if (strcmp(p->members[i], "anchor.xml") == 0)
				return 90;
			data |= member_like(p->members[i]);
		}
		if (data)
			return 60;
	}
	if (p->head_len >= 512 && memcmp(p->head + 257, "ustar", 5) == 0) {
		char name[101];
		memcpy(name, p->head, 100);
		name[100] = '\0';
		if (member_like(name))
			return 85;
	}
	const char *base = reader_probe_base(p);
	size_t l = strlen(base);
	if (l > 6 && strcmp(base + l - 6, ".cubex") == 0)
		return 50;
	return 0;
}

/* A copy of a directory (a directory URL): an extracted .cubex's
 * anchor.xml and N.index / N.data, the names cube_tar.c's directory reads,
 * fetched whole (it lists them with readdir); or the .cubex of a
 * profile's folder, read in place by range (blob_open_file). */
static const struct reader_file_rule cube_files[] = {
	{"anchor.xml", READER_FILE_GUESS},
	{"*.index", 0},
	{"*.data", 0},
	{"[!.]*.cubex", READER_FILE_LAZY},
	{NULL, 0},
};

READER(reader_cube, "cube", READER_CAP_TREE | READER_CAP_PER_PROFILE, cube_bid,
       cube_open,
       "Score-P / Scalasca Cube4 profile (.cubex, a directory with "
       "anchor.xml, or one holding a .cubex)",
       .files = cube_files);
