/* extrap_prof: Extra-Prof measurement sets (Extra-P v4.3.0-beta2's
 * extra_prof.py; no spec): DIR/<point>/[!.]*.extra-prof.msgpack, the
 * directory names giving the parameters as for Cube sets
 * (extrap_dirname.c), every file of one coordinate tuple (threads or
 * ranks, `.rN` repetition directories) one repetition of the point.
 * Each file is a MessagePack array [ "EXTRA PROF", version, root node,
 * GPU metric names?, additional metrics [[name, id], ...]? ], decoded
 * with msgpack-c (extrap_msgpack.c); a node is [name, children, type,
 * flags, duration ns, visits, bytes, GPU metric values?, additional
 * metric values?].  The files of a point are merged into one call tree
 * and measured as Extra-P does (extrap_prof_tree.c).  The metrics are
 * visits, time, bytes, then the GPU and the additional metrics in the
 * order first named.  Series measured at fewer points (OVERLAP paths,
 * call paths some points lack) are modelled on the points they have,
 * with a warning for those Extra-P does not tag.  Must not depend on
 * curses, on ui/ or on another format.  See doc/extrap.md. */
#include "config.h"

#include "formats/extrap/extrap.h"
#include "formats/extrap/extrap_msgpack.h"
#include "formats/extrap/extrap_prof.h"
#include "formats/reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROF_SUFFIX ".extra-prof.msgpack"
#define PROF_MAGIC "EXTRA PROF"

struct pset {
	const char *path;
	struct error *err;
	struct extrap_set *s;
	struct extrap_point_dir *dirs;
	size_t n_dirs;
	uint32_t *ids; /* the file's metrics (GPU, then additional) */
	uint32_t ids_cap;
};

static bool is_str(const msgpack_object *o, const char *s)
{
	return o->type == MSGPACK_OBJECT_STR && o->via.str.size == strlen(s) &&
	       memcmp(o->via.str.ptr, s, o->via.str.size) == 0;
}

/* The set's metric named by a string object; MODEL_NONE when it is not a
 * string (*bad) or out of memory. */
static uint32_t metric_of(struct pset *c, const msgpack_object *o, bool *bad)
{
	if (o->type != MSGPACK_OBJECT_STR ||
	    memchr(o->via.str.ptr, '\0', o->via.str.size)) {
		*bad = true;
		return MODEL_NONE;
	}
	return extrap_set_metric(c->s, o->via.str.ptr, o->via.str.size);
}

/* Header fields 3 and 4: the file's GPU and additional metrics. */
static enum status file_metrics(struct pset *c, const msgpack_object *h,
				uint32_t n_h, const char *file,
				uint32_t *n_gpu, uint32_t *n_add)
{
	const msgpack_object *g = n_h >= 4 ? &h[3] : NULL;
	const msgpack_object *a = n_h >= 5 ? &h[4] : NULL;
	if ((g && g->type != MSGPACK_OBJECT_ARRAY) ||
	    (a && a->type != MSGPACK_OBJECT_ARRAY))
		return error_set(c->err, STATUS_CORRUPT, file,
				 "not an Extra-Prof file: the metric names "
				 "are not lists");
	*n_gpu = g ? g->via.array.size : 0;
	*n_add = a ? a->via.array.size : 0;
	size_t need = (size_t)*n_gpu + *n_add + 1;
	if (need > c->ids_cap) {
		uint32_t *x = realloc(c->ids, need * sizeof(*x));
		if (!x)
			return error_set(c->err, STATUS_NOMEM, file,
					 "out of memory");
		c->ids = x;
		c->ids_cap = (uint32_t)need;
	}
	bool bad = false;
	for (uint32_t j = 0; j < *n_gpu; j++)
		if ((c->ids[j] = metric_of(c, &g->via.array.ptr[j], &bad)) ==
			MODEL_NONE &&
		    !bad)
			return error_set(c->err, STATUS_NOMEM, file,
					 "out of memory");
	for (uint32_t j = 0; j < *n_add && !bad; j++) {
		/* [name, id]: Extra-P takes the name */
		const msgpack_object *m = &a->via.array.ptr[j];
		bad = m->type != MSGPACK_OBJECT_ARRAY || m->via.array.size < 1;
		if (!bad && (c->ids[*n_gpu + j] = metric_of(
				 c, &m->via.array.ptr[0], &bad)) == MODEL_NONE &&
		    !bad)
			return error_set(c->err, STATUS_NOMEM, file,
					 "out of memory");
	}
	if (bad)
		return error_set(c->err, STATUS_CORRUPT, file,
				 "not an Extra-Prof file: a metric name that "
				 "is not a string");
	return STATUS_OK;
}

/* The bytes of file number i of the point's tree. */
static enum status read_buffer(struct pset *c, struct prof_tree *t,
			       const char *data, size_t len, const char *file,
			       uint32_t i)
{
	msgpack_zone *z = msgpack_zone_new(MSGPACK_ZONE_CHUNK_SIZE);
	msgpack_object o;
	enum status st =
	    z ? extrap_msgpack_read(data, len, z, &o, file, c->err)
	      : error_set(c->err, STATUS_NOMEM, file, "out of memory");
	if (st == STATUS_OK &&
	    (o.type != MSGPACK_OBJECT_ARRAY || o.via.array.size < 3 ||
	     !is_str(&o.via.array.ptr[0], PROF_MAGIC)))
		st = error_set(c->err, STATUS_CORRUPT, file,
			       "not an Extra-Prof file (no \"" PROF_MAGIC
			       "\" list)");
	uint32_t n_gpu = 0, n_add = 0;
	if (st == STATUS_OK)
		st = file_metrics(c, o.via.array.ptr, o.via.array.size, file,
				  &n_gpu, &n_add);
	if (st == STATUS_OK) {
		prof_tree_file_metrics(t, c->ids, n_gpu, c->ids + n_gpu, n_add);
		st = prof_tree_read(t, &o.via.array.ptr[2], i, file, c->err);
	}
	if (z)
		msgpack_zone_free(z);
	return st;
}

/* File number i of the point's tree. */
static enum status read_file(struct pset *c, struct prof_tree *t,
			     const char *file, uint32_t i)
{
	char *data = NULL;
	size_t len = 0;
	enum status st = extrap_read_file(file, &data, &len, c->err);
	if (st == STATUS_OK)
		st = read_buffer(c, t, data, len, file, i);
	free(data);
	return st;
}

/* Extra-P's first metrics, whether measured or not. */
static bool first_metrics(struct extrap_set *s)
{
	return extrap_set_metric(s, "visits", 6) == PROF_VISITS &&
	       extrap_set_metric(s, "time", 4) == PROF_TIME &&
	       extrap_set_metric(s, "bytes", 5) == PROF_BYTES;
}

enum status extrap_prof_parse_one(const char *data, size_t len,
				  const char *path, struct error *err)
{
	struct pset c = {.path = path, .err = err, .s = extrap_set_new()};
	double one = 1;
	struct prof_tree *t = NULL;
	enum status st = STATUS_NOMEM;
	if (c.s && extrap_set_param(c.s, "s", 1) == 0 &&
	    extrap_set_point(c.s, &one) == 0 && first_metrics(c.s) &&
	    (t = prof_tree_new(c.s, 0, 1)))
		st = read_buffer(&c, t, data, len, path, 0);
	else
		error_set(err, st, path, "out of memory");
	if (st == STATUS_OK)
		st = prof_tree_measure(t, path, err);
	prof_tree_free(t);
	free(c.ids);
	extrap_set_free(c.s);
	return st;
}

/* Every file of the directories at `point`, one tree. */
static enum status read_point(struct pset *c, uint32_t point)
{
	uint32_t k = 0;
	for (size_t d = 0; d < c->n_dirs; d++)
		if (c->dirs[d].point == point)
			k += (uint32_t)c->dirs[d].n_files;
	if (k == 0)
		return STATUS_OK;
	struct prof_tree *t = prof_tree_new(c->s, point, k);
	if (!t)
		return error_set(c->err, STATUS_NOMEM, c->path,
				 "out of memory");
	enum status st = STATUS_OK;
	uint32_t i = 0;
	for (size_t d = 0; d < c->n_dirs && st == STATUS_OK; d++)
		for (size_t f = 0; c->dirs[d].point == point &&
				   f < c->dirs[d].n_files && st == STATUS_OK;
		     f++)
			st = read_file(c, t, c->dirs[d].files[f], i++);
	if (st == STATUS_OK)
		st = prof_tree_measure(t, c->path, c->err);
	prof_tree_free(t);
	return st;
}

static enum status prof_open(const struct reader_input *in, struct model **out,
			     struct error *err)
{
	*out = NULL;
	struct pset c = {.path = in->paths[0], .err = err,
			 .s = extrap_set_new()};
	enum status st =
	    c.s ? extrap_point_dirs_list(c.path, PROF_SUFFIX, &c.dirs,
					 &c.n_dirs, err)
		: error_set(err, STATUS_NOMEM, c.path, "out of memory");
	if (st == STATUS_OK && c.n_dirs == 0)
		st = error_set(err, STATUS_NOT_DATABASE, c.path,
			       "no Extra-Prof files (DIR/*/*" PROF_SUFFIX ")");
	if (st == STATUS_OK)
		st = extrap_point_dirs_points(c.path, c.dirs, c.n_dirs, c.s,
					      err);
	if (st == STATUS_OK && !first_metrics(c.s))
		st = error_set(err, STATUS_NOMEM, c.path, "out of memory");
	uint32_t n_points = c.s ? extrap_set_n_points(c.s) : 0;
	for (uint32_t p = 0; p < n_points && st == STATUS_OK; p++)
		st = read_point(&c, p);
	if (st == STATUS_OK) {
		extrap_set_allow_short(c.s, c.path);
		if (extrap_set_nomem(c.s))
			st = error_set(err, STATUS_NOMEM, c.path,
				       "out of memory");
	}
	if (st == STATUS_OK) {
		/* the times are each call path's own, as Extra-P keeps them */
		extrap_set_values_exclusive(c.s);
		st = extrap_set_finish(c.s, "extrap-prof", c.path, out, err);
	}
	extrap_point_dirs_free(c.dirs, c.n_dirs);
	free(c.ids);
	extrap_set_free(c.s);
	return st;
}

/* A directory whose first subdirectories hold Extra-Prof files. */
static int prof_bid(const struct reader_probe *p, int best)
{
	if (!p->is_dir || p->n_subdirs == 0 || best >= 40)
		return 0;
	for (size_t i = 0; i < p->n_subnames; i++)
		if (p->subnames[i][0] != '.' &&
		    reader_name_ends_with(p->subnames[i], PROF_SUFFIX))
			return 40;
	return 0;
}

/* A copy of a set (a directory URL): the point directories' Extra-Prof
 * files (not a .msgpack.bak or anything else beside them).  Fetched
 * whole. */
static const struct reader_file_rule prof_files[] = {
	{"[!.]*/[!.]*" PROF_SUFFIX, 0},
	{NULL, 0},
};

const struct reader reader_extrap_prof = {
    .name = "extrap-prof",
    .description = "Extra-Prof measurement sets (a directory of "
		   "DIR.s1/*.extra-prof.msgpack point directories)",
    .caps = READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_PARAMS,
    .bid = prof_bid,
    .open = prof_open,
    .files = prof_files,
};
