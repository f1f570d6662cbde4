/* open: paths, archives and URLs to a model through the reader registry
 * (see open.h).  Must not depend on curses or on ui/. */
#include "config.h"

#include "core/path.h"
#include "open.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive/archive_extract.h"
#include "archive/archive_open.h"
#include "core/lazylib.h"
#include "core/array.h"
#include "net/http.h"
#include "formats/registry_remote.h"
#include "net/remote_open.h"
#include "net/url_cache.h"

static enum status open_local(const char *const *paths, size_t n,
			      bool archive_cache, const char *cache_root,
			      const struct reader_options *ro,
			      struct model **out, struct error *err);

/* The opener archive_open_database() is given: the database found in an
 * extracted archive is a local path (which may be an archive again). */
static enum status open_extracted(const char *path, struct model **out,
				  struct error *err)
{
	return open_local(&path, 1, archive_open_cache(), NULL, NULL, out,
			  err);
}

/* The bidder archive_open_database() is given: the registry's best bid
 * on `path` and its reader (0, NULL when none, -1 out of memory).  A bid
 * of ARCHIVE_FLOOR_BID or less (a directory that merely has
 * subdirectories) does not count inside an archive. */
#define ARCHIVE_FLOOR_BID 20
static int bid_extracted(void *ctx, const char *path, const void **who,
			 bool *merges)
{
	(void)ctx;
	struct reader_probe *p = NULL;
	struct error err = {0};
	enum status st = reader_probe_read(path, &p, &err);
	const struct reader *r = p ? reader_choose(p) : NULL;
	int bid = r ? r->bid(p, 0) : 0;
	if (bid <= ARCHIVE_FLOOR_BID)
		r = NULL;
	*who = r;
	*merges = r && (r->caps & READER_CAP_MERGE);
	reader_probe_free(p);
	error_clear(&err);
	return st == STATUS_NOMEM ? -1 : r ? bid : 0;
}

static enum status not_database(const char *path, struct error *err)
{
	/* a file nothing recognises may be an archive, which only
	 * libarchive can tell: say that it is missing, if it is */
	struct stat sb;
	if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    lazylib_require(LAZYLIB_ARCHIVE, NULL) != STATUS_OK)
		return lazylib_require(LAZYLIB_ARCHIVE, err);
	return error_set(err, STATUS_NOT_DATABASE, path,
			 "not a database callscope recognises (`callscope "
			 "formats` lists the formats it reads)");
}

/* The highest bid that is still a guess from names alone (a directory
 * holding some subdirectories or files of a likely kind): a reader that
 * bid no more and then found nothing of its kind there (STATUS_NOT_DATABASE:
 * "the directory holds no .db or .rpd file") did not recognise it.  A
 * damaged file of its kind keeps the reader's own message. */
#define GUESS_BID 40

/* What the archive code is lent to find and open the databases in an
 * archive. */
static const struct archive_db_ops archive_ops = {
	.open = open_extracted,
	.bid = bid_extracted,
	.sure = GUESS_BID - 1, /* a directory of .rpd files (40) is one */
};

/* A guessing reader's failure on `path`: not a database callscope
 * recognises, with what the reader looked for. */
static enum status guessed_wrong(const struct reader *r, const char *path,
				 enum status st, struct error *err)
{
	if (st != STATUS_NOT_DATABASE || reader_bid_path(r, path) > GUESS_BID)
		return st;
	return error_wrap_message(
	    err, STATUS_NOT_DATABASE, path,
	    "not a database callscope recognises (tried as %s: %s; "
	    "`callscope formats` lists the formats it reads)",
	    r->name, err->message ? err->message : "nothing to read");
}

/* ARCHIVE/INNER for a path that does not exist, else its error. */
static enum status open_missing(const char *path, int e, bool archive_cache,
				struct model **out, struct error *err)
{
	char *archive = NULL, *inner = NULL;
	if ((e == ENOENT || e == ENOTDIR) &&
	    archive_split_path(path, &archive, &inner)) {
		enum status st = archive_open_database(archive, inner,
						       archive_cache,
						       &archive_ops, out, err);
		free(archive);
		free(inner);
		return st;
	}
	return error_set(err,
			 e == ENOENT || e == ENOTDIR ? STATUS_NOT_FOUND
						     : STATUS_IO,
			 path, "%s", strerror(e));
}

/* The cache directory of reader `r`, CACHE_ROOT/NAME, made when missing
 * (NULL: the reader caches nothing, no cache root, or it cannot be made;
 * never an error: a reader without its cache is only slower). */
static char *cache_dir_of(const struct reader *r, const char *cache_root)
{
	char *dir = NULL;
	struct error err = {0};
	if (!r->cache_name || !cache_root ||
	    !(dir = path_join(cache_root, r->cache_name)))
		return NULL;
	if (url_cache_mkdirs(dir, &err) != STATUS_OK) {
		FREE_AND_NULL(dir);
	}
	error_clear(&err);
	return dir;
}

/* Local paths: probe each, pick the reader, open.  One path that no
 * reader takes may be an archive holding a database. */
static enum status open_local(const char *const *paths, size_t n,
			      bool archive_cache, const char *cache_root,
			      const struct reader_options *ro,
			      struct model **out, struct error *err)
{
	*out = NULL;
	enum status st = STATUS_OK;
	const struct reader *chosen = NULL;
	size_t chosen_at = 0;
	for (size_t i = 0; i < n; i++) {
		struct reader_probe *p = NULL;
		st = reader_probe_read(paths[i], &p, err);
		if (st == STATUS_NOT_FOUND && n == 1) {
			error_clear(err);
			struct stat sb;
			int e = stat(paths[i], &sb) != 0 ? errno : ENOENT;
			return open_missing(paths[i], e, archive_cache, out,
					    err);
		}
		if (st != STATUS_OK) {
			reader_probe_free(p);
			return st;
		}
		const struct reader *r = reader_choose(p);
		bool archive = p->is_archive;
		reader_probe_free(p);
		if (!r && archive && n == 1)
			return archive_open_database(paths[i], NULL,
						     archive_cache,
						     &archive_ops, out, err);
		if (!r)
			return not_database(paths[i], err);
		if (chosen && r != chosen)
			return error_set(err, STATUS_USAGE, paths[i],
					 "is %s, %s is %s: several paths must "
					 "be databases of one format",
					 r->name, paths[chosen_at],
					 chosen->name);
		chosen = r;
		chosen_at = i;
	}
	if (!chosen)
		return error_set(err, STATUS_USAGE, NULL, "no database given");
	if (n > 1 && !(chosen->caps & READER_CAP_MERGE))
		return error_set(err, STATUS_USAGE, paths[0],
				 "%s reads one database at a time (%zu paths "
				 "were given)",
				 chosen->name, n);
	struct reader_options with_cache = {0};
	char *cache_dir = cache_dir_of(chosen, cache_root);
	if (cache_dir) {
		if (ro)
			with_cache = *ro;
		with_cache.cache_dir = cache_dir;
		ro = &with_cache;
	}
	struct reader_input in = {
		.paths = paths,
		.n_paths = n,
		.options = ro,
	};
	st = chosen->open(&in, out, err);
	if (st != STATUS_OK && n == 1)
		st = guessed_wrong(chosen, paths[0], st, err);
	free(cache_dir);
	return st;
}

/* A URL: fetch (or find in the cache) what it names, as a local path. */
static enum status resolve_url(const char *url, const struct open_options *o,
			       char **local, struct error *err)
{
	return remote_open_resolve(url, o, registry_remote_planner(), local,
				   err);
}

/* The model names the URL the user gave, not the cached copy. */
static enum status name_url(struct model *m, const char *url,
			    struct error *err)
{
	char *shown = http_url_redact(url);
	enum status st = model_set_origin(m, shown ? shown : url, NULL, NULL,
					  NULL, err);
	free(shown);
	return st;
}

/* The cache root of `o` (where readers keep their cache directories),
 * or NULL: no options, --no-cache, no usable cache root. */
static char *cache_root_of(const struct open_options *o)
{
	char *root = NULL;
	struct error err = {0};
	if (!o || o->no_cache || url_cache_root(o, &root, &err) != STATUS_OK)
		root = NULL;
	error_clear(&err);
	return root;
}

enum status database_open_paths(const char *const *paths, size_t n_paths,
				const struct open_options *o,
				const struct reader_options *ro,
				struct model **out, struct error *err)
{
	*out = NULL;
	if (n_paths == 0)
		return error_set(err, STATUS_USAGE, NULL, "no database given");
	bool cache = o ? !o->no_cache : archive_open_cache();
	struct reader_options all = {0};
	const char **image_path = NULL;
	if (ro) {
		all = *ro;
		ro = &all;
	}
	/* every option taken by some reader, before anything is fetched */
	enum status st = ro ? reader_options_check(ro->list, ro->n, err)
			    : STATUS_OK;
	if (st == STATUS_OK && ro && !ro->n_image_path) {
		st = reader_options_image_path(ro->list, ro->n, &image_path,
					       &all.n_image_path, err);
		all.image_path = image_path;
	}
	if (st != STATUS_OK)
		return st;
	/* readers that cache (the GPU runs' indexes) keep it beside the
	 * downloads (not with --no-cache) */
	char *cache_root = cache_root_of(o);
	char **local = calloc(n_paths, sizeof(*local));
	if (!local) {
		free(cache_root);
		free(image_path);
		return error_set(err, STATUS_NOMEM, paths[0], "out of memory");
	}
	size_t first_url = n_paths;
	for (size_t i = 0; i < n_paths && st == STATUS_OK; i++) {
		if (http_is_url(paths[i])) {
			st = resolve_url(paths[i], o, &local[i], err);
			if (first_url == n_paths)
				first_url = i;
		} else if (!(local[i] = strdup(paths[i]))) {
			st = error_set(err, STATUS_NOMEM, paths[i],
				       "out of memory");
		}
	}
	if (st == STATUS_OK)
		st = open_local((const char *const *)local, n_paths, cache,
				cache_root, ro, out, err);
	/* one URL: the model is named by it (several: each reader names
	 * its parts) */
	if (st == STATUS_OK && n_paths == 1 && first_url == 0) {
		st = name_url(*out, paths[0], err);
		if (st != STATUS_OK) {
			model_free(*out);
			*out = NULL;
		}
	}
	array_free_each(local, n_paths);
	free(cache_root);
	free(image_path);
	return st;
}

enum status database_open_with(const char *path, const struct open_options *o,
			       struct model **out, struct error *err)
{
	return database_open_paths(&path, 1, o, NULL, out, err);
}

const struct archive_db_ops *database_archive_ops(void)
{
	return &archive_ops;
}

enum status database_open(const char *path, struct model **out,
			  struct error *err)
{
	*out = NULL;
	return database_open_paths(&path, 1, NULL, NULL, out, err);
}

char *database_files_dir(const struct model *m, const char *shown)
{
	const char *base = m && model_local_path(m) ? model_local_path(m) : shown;
	char *dir = base ? strdup(base) : NULL;
	struct stat sb;
	if (dir && stat(dir, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
		char *slash = strrchr(dir, '/');
		if (slash && slash != dir)
			*slash = '\0';
		else if (!slash)
			strcpy(dir, ".");
	}
	return dir;
}
