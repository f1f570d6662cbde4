/* otf2_cache: the index pass's results kept in the reader's cache
 * directory (reader_options.cache_dir), so that a later open of the same
 * archive reads no event: the call tree, the values per call path and per
 * location, each location's checkpoints, late ends, late records and
 * links, and
 * the counts behind the warnings.  One file per archive, NAME.otf2idx, NAME
 * a hash of the anchor's real path (written in it, for `callscope cache
 * list`: otf2_cache_list); its key is a hash of the size and
 * modification time of the anchor, the global definitions and every file
 * of the archive's folder, and of the calls per block, so that a changed
 * archive is indexed again.  A cache file that does not load (another
 * version, a wrong key, counts its size cannot hold, ids out of range) is
 * ignored and rewritten; a failed write is ignored (the reader is then
 * only slower).  Native byte order: the cache is the machine's own.  Must
 * not depend on curses or on ui/. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "core/array.h"
#include "core/hash.h"
#include "formats/otf2/otf2_internal.h"
#include "formats/reader.h"

#define CACHE_MAGIC "CSOTF2I6"

/* Written as they are: no padding (its bytes would be undefined). */
_Static_assert(sizeof(struct otf2_cell) == 40, "otf2_cell has padding");
_Static_assert(sizeof(struct otf2_block) == 32, "otf2_block has padding");
_Static_assert(sizeof(struct otf2_snap) == 16, "otf2_snap has padding");
_Static_assert(sizeof(struct otf2_late) == 16, "otf2_late has padding");
_Static_assert(sizeof(struct otf2_msg) == 48, "otf2_msg has padding");
_Static_assert(sizeof(struct otf2_link) == 24, "otf2_link has padding");
_Static_assert(sizeof(struct otf2_cpoint) == 24, "otf2_cpoint has padding");
_Static_assert(sizeof(struct otf2_gsample) == 16, "otf2_gsample has padding");

static uint64_t fnv_stat(uint64_t h, const char *path)
{
	struct stat sb;
	int64_t v[3] = {-1, -1, -1};
	if (stat(path, &sb) == 0) {
		v[0] = (int64_t)sb.st_size;
		v[1] = (int64_t)sb.st_mtim.tv_sec;
		v[2] = (int64_t)sb.st_mtim.tv_nsec;
	}
	h = fnv1a(h, path, strlen(path));
	return fnv1a(h, v, sizeof(v));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The key of the archive whose anchor is r->path: the stat data of the
 * anchor, STEM.def and every file in STEM/, by name; the block size. */
static uint64_t archive_key(const struct otf2_run *r)
{
	uint64_t h = fnv1a(FNV1A_SEED, &r->block, sizeof(r->block));
	size_t l = strlen(r->path);
	char *stem = strdup(r->path), *path = NULL;
	if (!stem)
		return 0;
	if (l > 5 && strcmp(stem + l - 5, ".otf2") == 0)
		stem[l - 5] = '\0';
	h = fnv_stat(h, r->path);
	if (asprintf(&path, "%s.def", stem) >= 0)
		h = fnv_stat(h, path);
	free(path);
	DIR *d = opendir(stem);
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!array_grow((void **)&names, &cap, n + 1, sizeof(*names)))
			break;
		if ((names[n] = strdup(de->d_name)))
			n++;
	}
	if (d)
		closedir(d);
	if (n) /* qsort's base may not be NULL */
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		if ((path = path_join(stem, names[i])))
			h = fnv_stat(h, path);
		free(path);
		free(names[i]);
	}
	free(names);
	free(stem);
	return h;
}

/* The cache file of the archive (heap string; NULL when there is no
 * cache directory or the anchor has no real path). */
static char *cache_file(const struct otf2_run *r, const char *dir)
{
	char *real = dir ? realpath(r->path, NULL) : NULL, *f = NULL;
	if (!real)
		return NULL;
	uint64_t h = fnv1a(FNV1A_SEED, real, strlen(real));
	free(real);
	if (asprintf(&f, "%s/%016llx.otf2idx", dir, (unsigned long long)h) < 0)
		f = NULL;
	return f;
}

/* ---- write --------------------------------------------------------------- */

static bool put(FILE *fp, const void *p, size_t size, size_t n)
{
	return n == 0 || fwrite(p, size, n, fp) == n;
}

static bool put_u64(FILE *fp, uint64_t v)
{
	return put(fp, &v, sizeof(v), 1);
}

static bool put_array(FILE *fp, const void *p, size_t size, size_t n)
{
	return put_u64(fp, n) && put(fp, p, size, n);
}

/* The metric columns' values: one per column and call path (zeros where
 * the pass left none). */
static bool put_metrics(FILE *fp, const struct otf2_run *r)
{
	size_t k = r->n_mcolumns;
	bool ok = put_u64(fp, k);
	for (uint32_t i = 0; ok && k && i < r->tree.n; i++) {
		static const double zero[OTF2_MAX_METRIC_COLUMNS];
		ok = put(fp, i < r->cap_mvals ? r->mvals + (size_t)i * k : zero,
			 sizeof(double), k);
	}
	return ok;
}

static bool write_run(FILE *fp, const struct otf2_run *r, uint64_t key)
{
	const struct otf2_tree *t = &r->tree;
	char *real = realpath(r->path, NULL);
	bool ok = real && put(fp, CACHE_MAGIC, 8, 1) && put_u64(fp, key) &&
		  put_array(fp, real, 1, strlen(real)) &&
		  put_u64(fp, r->n_locs) && put_u64(fp, r->unknown_events) &&
		  put_u64(fp, r->open_at_end) &&
		  put_u64(fp, r->unmatched_leaves) &&
		  put_u64(fp, r->backward_times) && put_u64(fp, r->unshown) &&
		  put_u64(fp, r->time_min) &&
		  put_u64(fp, r->time_max) &&
		  put_array(fp, t->parent, sizeof(*t->parent), t->n) &&
		  put(fp, t->region, sizeof(*t->region), t->n) &&
		  put(fp, r->excl, sizeof(*r->excl), t->n) &&
		  put(fp, r->visits, sizeof(*r->visits), t->n) &&
		  put_metrics(fp, r);
	for (size_t i = 0; ok && i < r->n_locs; i++) {
		const struct otf2_location *l = &r->locs[i];
		ok = put_u64(fp, l->ref) && put_u64(fp, l->events) &&
		     put_u64(fp, l->unknown) && put_u64(fp, l->n_iv) &&
		     put_u64(fp, l->first_begin) &&
		     put_array(fp, l->cells, sizeof(*l->cells), l->n_cells) &&
		     put_array(fp, l->blocks, sizeof(*l->blocks), l->n_blocks) &&
		     put_array(fp, l->snaps, sizeof(*l->snaps), l->n_snaps) &&
		     put_array(fp, l->late, sizeof(*l->late), l->n_late) &&
		     put_array(fp, l->msg, sizeof(*l->msg), l->n_msg) &&
		     put_array(fp, l->links, sizeof(*l->links), l->n_links) &&
		     put_array(fp, l->grid, sizeof(*l->grid), l->n_grid) &&
		     put_u64(fp, l->n_ctracks);
		for (size_t k = 0; ok && k < l->n_ctracks; k++) {
			const struct otf2_ctrack *c = &l->ctracks[k];
			ok = put_u64(fp, c->member) && put_u64(fp, c->n) &&
			     put_array(fp, c->points, sizeof(*c->points),
				       c->n_points);
		}
	}
	free(real);
	return ok;
}

void otf2_cache_save(const struct otf2_run *r, const char *dir)
{
	char *f = cache_file(r, dir), *tmp = NULL;
	if (!f || asprintf(&tmp, "%s.%ld.tmp", f, (long)getpid()) < 0) {
		free(f);
		return;
	}
	FILE *fp = fopen(tmp, "wb");
	bool ok = fp && write_run(fp, r, archive_key(r));
	if (fp && fclose(fp) != 0)
		ok = false;
	if (!ok || rename(tmp, f) != 0)
		unlink(tmp);
	free(tmp);
	free(f);
}

/* ---- read ---------------------------------------------------------------- */

struct in {
	FILE *fp;
	uint64_t left; /* bytes of the file not read yet */
};

static bool get(struct in *in, void *p, size_t size, uint64_t n)
{
	if (n == 0)
		return true;
	if (n > in->left / size || fread(p, size, n, in->fp) != n)
		return false;
	in->left -= size * n;
	return true;
}

static bool get_u64(struct in *in, uint64_t *v)
{
	return get(in, v, sizeof(*v), 1);
}

/* An array of `size`-byte elements: its count, checked against the bytes
 * left, then the elements into a new block (*p NULL for none). */
static bool get_array(struct in *in, void **p, size_t size, size_t *n)
{
	uint64_t k;
	*p = NULL;
	*n = 0;
	if (!get_u64(in, &k) || k > in->left / size)
		return false;
	if (k && !(*p = malloc(k * size)))
		return false;
	*n = k;
	return get(in, *p, size, k);
}

/* Every id in range, every array ordered as the replay needs it. */
static bool location_sane(const struct otf2_run *r,
			  const struct otf2_location *l)
{
	for (size_t i = 0; i < l->n_cells; i++)
		if (l->cells[i].node >= r->tree.n ||
		    (i && l->cells[i].node <= l->cells[i - 1].node))
			return false;
	if (l->n_blocks != (l->n_iv + r->block - 1) / r->block)
		return false;
	for (size_t i = 0; i < l->n_blocks; i++)
		if (l->blocks[i].first_snap > l->n_snaps ||
		    l->blocks[i].depth > l->n_snaps - l->blocks[i].first_snap)
			return false;
	for (size_t i = 0; i < l->n_snaps; i++)
		if (l->snaps[i].node >= r->tree.n ||
		    l->snaps[i].region >= r->n_regions)
			return false;
	for (size_t i = 1; i < l->n_late; i++)
		if (l->late[i].iv < l->late[i - 1].iv)
			return false;
	for (size_t i = 0; i < l->n_msg; i++)
		if (l->msg[i].kind >= OTF2_REC_KINDS ||
		    (i && l->msg[i].interval < l->msg[i - 1].interval))
			return false;
	for (size_t i = 0; i < l->n_grid; i++)
		if (l->grid[i].ctx > r->tree.n ||
		    (i && l->grid[i].time < l->grid[i - 1].time))
			return false;
	for (size_t i = 0; i < l->n_links; i++)
		if (l->links[i].call >= l->n_iv ||
		    l->links[i].peer_line >= r->n_locs ||
		    (i && l->links[i].call < l->links[i - 1].call))
			return false;
	return true;
}

static bool read_metrics(struct otf2_run *r, struct in *in, size_t nodes)
{
	uint64_t k;
	if (!get_u64(in, &k) || k != r->n_mcolumns)
		return false;
	if (!k || !nodes)
		return true;
	if (nodes > in->left / sizeof(double) / k ||
	    !(r->mvals = malloc(nodes * k * sizeof(double))))
		return false;
	r->cap_mvals = (uint32_t)nodes;
	return get(in, r->mvals, sizeof(double), nodes * k);
}

/* A location's counter tracks (members defined, points as the count
 * needs). */
static bool read_tracks(struct otf2_run *r, struct in *in,
			struct otf2_location *l)
{
	uint64_t n;
	if (!get_u64(in, &n) || n > r->n_members ||
	    (n && !(l->ctracks = calloc(n, sizeof(*l->ctracks)))))
		return false;
	for (size_t k = 0; k < n; k++) {
		struct otf2_ctrack *c = &l->ctracks[k];
		uint64_t member;
		l->n_ctracks = k + 1;
		if (!get_u64(in, &member) || member >= r->n_members ||
		    !r->members[member].defined || !get_u64(in, &c->n) ||
		    !get_array(in, (void **)&c->points, sizeof(*c->points),
			       &c->n_points) ||
		    c->n_points != (c->n + OTF2_COUNTER_BLOCK - 1) /
					   OTF2_COUNTER_BLOCK)
			return false;
		c->member = (uint32_t)member;
		c->cap_points = c->n_points;
	}
	return true;
}

static bool read_tree(struct otf2_run *r, struct in *in)
{
	size_t n;
	uint32_t *parent, *region = NULL;
	uint64_t *excl = NULL, *visits = NULL;
	bool ok = get_array(in, (void **)&parent, sizeof(*parent), &n) &&
		  n < OTF2_MAX_DEF_ID * 4u &&
		  (region = malloc(n * sizeof(*region) + 1)) &&
		  (excl = malloc(n * sizeof(*excl) + 1)) &&
		  (visits = malloc(n * sizeof(*visits) + 1)) &&
		  get(in, region, sizeof(*region), n) &&
		  get(in, excl, sizeof(*excl), n) &&
		  get(in, visits, sizeof(*visits), n);
	for (size_t i = 0; ok && i < n; i++) {
		ok = (parent[i] == UINT32_MAX || parent[i] < i) &&
		     region[i] < r->n_regions && r->regions[region[i]].defined &&
		     otf2_tree_child(r, parent[i], region[i], true) == i;
		if (ok) {
			r->excl[i] = excl[i];
			r->visits[i] = visits[i];
		}
	}
	free(parent);
	free(region);
	free(excl);
	free(visits);
	return ok && read_metrics(r, in, n);
}

static bool read_run(struct otf2_run *r, struct in *in, uint64_t key)
{
	char magic[8], *anchor = NULL;
	uint64_t k, n_locs;
	size_t len;
	bool head = get(in, magic, 8, 1) &&
		    memcmp(magic, CACHE_MAGIC, 8) == 0 && get_u64(in, &k) &&
		    k == key && get_array(in, (void **)&anchor, 1, &len);
	free(anchor);
	if (!head || !get_u64(in, &n_locs) ||
	    n_locs != r->n_locs || !get_u64(in, &r->unknown_events) ||
	    !get_u64(in, &r->open_at_end) ||
	    !get_u64(in, &r->unmatched_leaves) ||
	    !get_u64(in, &r->backward_times) || !get_u64(in, &r->unshown) ||
	    !get_u64(in, &r->time_min) ||
	    !get_u64(in, &r->time_max) || !read_tree(r, in))
		return false;
	for (size_t i = 0; i < r->n_locs; i++) {
		struct otf2_location *l = &r->locs[i];
		uint64_t ref;
		if (!get_u64(in, &ref) || ref != l->ref ||
		    !get_u64(in, &l->events) || !get_u64(in, &l->unknown) ||
		    !get_u64(in, &l->n_iv) || !get_u64(in, &l->first_begin) ||
		    !get_array(in, (void **)&l->cells, sizeof(*l->cells),
			       &l->n_cells) ||
		    !get_array(in, (void **)&l->blocks, sizeof(*l->blocks),
			       &l->n_blocks) ||
		    !get_array(in, (void **)&l->snaps, sizeof(*l->snaps),
			       &l->n_snaps) ||
		    !get_array(in, (void **)&l->late, sizeof(*l->late),
			       &l->n_late) ||
		    !get_array(in, (void **)&l->msg, sizeof(*l->msg),
			       &l->n_msg) ||
		    !get_array(in, (void **)&l->links, sizeof(*l->links),
			       &l->n_links) ||
		    !get_array(in, (void **)&l->grid, sizeof(*l->grid),
			       &l->n_grid) ||
		    !read_tracks(r, in, l) ||
		    !location_sane(r, l))
			return false;
	}
	for (size_t i = 0; i < r->n_locs; i++) /* the peers, all read now */
		for (size_t j = 0; j < r->locs[i].n_links; j++) {
			const struct otf2_link *x = &r->locs[i].links[j];
			if (x->peer_call >= r->locs[x->peer_line].n_iv)
				return false;
		}
	return in->left == 0;
}

/* Undo a partial load: the tree and each location's arrays emptied. */
static void forget(struct otf2_run *r)
{
	FREE_AND_NULL(r->tree.slots);
	r->tree.n_slots = 0;
	r->tree.n = 0;
	r->unknown_events = r->open_at_end = r->unmatched_leaves = 0;
	r->backward_times = r->unshown = 0;
	r->time_min = UINT64_MAX;
	r->time_max = 0;
	for (size_t i = 0; i < r->n_locs; i++)
		otf2_location_forget(&r->locs[i]);
	FREE_AND_NULL(r->mvals);
	r->cap_mvals = 0;
}

bool otf2_cache_load(struct otf2_run *r, const char *dir)
{
	char *f = cache_file(r, dir);
	FILE *fp = f ? fopen(f, "rb") : NULL;
	free(f);
	struct stat sb;
	if (!fp || fstat(fileno(fp), &sb) != 0) {
		if (fp)
			fclose(fp);
		return false;
	}
	struct in in = {.fp = fp, .left = (uint64_t)sb.st_size};
	bool ok = read_run(r, &in, archive_key(r));
	fclose(fp);
	if (!ok)
		forget(r);
	else
		for (size_t i = 0; i < r->n_locs; i++) {
			struct otf2_location *l = &r->locs[i];
			l->cap_blocks = l->n_blocks;
			l->cap_snaps = l->n_snaps;
			l->cap_late = l->n_late;
		}
	return ok;
}

/* ---- callscope cache list ------------------------------------------------ */

/* The anchor a cache file stands for (heap string, "?" when unreadable). */
static char *anchor_of(const char *file)
{
	FILE *fp = fopen(file, "rb");
	struct stat sb;
	char magic[8], *anchor = NULL;
	size_t len = 0;
	if (fp && fstat(fileno(fp), &sb) == 0) {
		struct in in = {.fp = fp, .left = (uint64_t)sb.st_size};
		uint64_t key;
		if (!get(&in, magic, 8, 1) ||
		    memcmp(magic, CACHE_MAGIC, 8) != 0 ||
		    !get_u64(&in, &key) ||
		    !get_array(&in, (void **)&anchor, 1, &len)) {
			FREE_AND_NULL(anchor);
		}
	}
	if (fp)
		fclose(fp);
	char *s = anchor ? strndup(anchor, len) : strdup("?");
	free(anchor);
	return s;
}

enum status otf2_cache_list(const char *dir, struct reader_cache_entry **out,
			    size_t *n, struct error *err)
{
	*out = NULL;
	*n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;
	enum status st = STATUS_OK;
	while (d && st == STATUS_OK && (e = readdir(d))) {
		struct stat sb;
		struct reader_cache_entry c = {
			.n_files = 1, .kind = "trace index",
			.label = "index of an OTF2 trace"};
		if (!reader_name_ends_with(e->d_name, ".otf2idx") ||
		    fstatat(dirfd(d), e->d_name, &sb, 0) != 0 ||
		    !S_ISREG(sb.st_mode))
			continue;
		c.bytes = (uint64_t)sb.st_size;
		c.date = (int64_t)sb.st_mtim.tv_sec;
		if (asprintf(&c.path, "%s/%.*s", dir,
			     (int)(strlen(e->d_name) - 8), e->d_name) < 0)
			c.path = NULL;
		char *file = NULL;
		if (c.path && asprintf(&file, "%s.otf2idx", c.path) >= 0)
			c.first = anchor_of(file);
		free(file);
		if (!c.path || !c.first ||
		    !array_grow((void **)out, &cap, *n + 1, sizeof(**out))) {
			free(c.path);
			free(c.first);
			st = error_set(err, STATUS_NOMEM, dir, "out of memory");
			break;
		}
		(*out)[(*n)++] = c;
	}
	if (d)
		closedir(d);
	if (st != STATUS_OK) {
		reader_cache_list_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return st;
}
