/* reader: the registry of format readers and database_open(), which asks
 * every reader to bid on a path and lets the highest bidder open it.
 * Must not depend on curses or on ui/. */
#include "config.h"

#include "formats/reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive/archive_extract.h"
#include "archive/archive_open.h"
#include "net/http.h"
#include "net/remote_open.h"

extern const struct reader reader_hpctoolkit_v4;
extern const struct reader reader_hpctoolkit_xml;

static const struct reader *const readers[] = {
	&reader_hpctoolkit_v4,
	&reader_hpctoolkit_xml,
	NULL,
};

const struct reader *const *reader_all(void)
{
	return readers;
}

static enum status open_local(const char *path, bool archive_cache,
			      struct model **out, struct error *err);

/* A URL: fetch (or find in the cache) what it names, open that.  An
 * archive that came down is extracted into the cache only when the
 * options allow the cache (--no-cache: a temporary directory). */
static enum status open_url(const char *url, const struct open_options *o,
			    struct model **out, struct error *err)
{
	char *local = NULL;
	enum status st = remote_open_resolve(url, o, &local, err);
	if (st == STATUS_OK)
		st = open_local(local, o ? !o->no_cache : archive_open_cache(),
				out, err);
	/* the model names the URL the user gave, not the cached copy */
	if (st == STATUS_OK) {
		char *shown = http_url_redact(url);
		st = model_set_origin(*out, shown ? shown : url, NULL, NULL,
				      NULL, err);
		free(shown);
		if (st != STATUS_OK) {
			model_free(*out);
			*out = NULL;
		}
	}
	free(local);
	return st;
}

enum status database_open_with(const char *path, const struct open_options *o,
			       struct model **out, struct error *err)
{
	*out = NULL;
	if (http_is_url(path))
		return open_url(path, o, out, err);
	return open_local(path, o ? !o->no_cache : archive_open_cache(), out,
			  err);
}

enum status database_open(const char *path, struct model **out,
			  struct error *err)
{
	*out = NULL;
	if (http_is_url(path))
		return open_url(path, NULL, out, err);
	return open_local(path, archive_open_cache(), out, err);
}

/* A local path: a database directory or file, an archive, or
 * ARCHIVE/INNER; `archive_cache` says where an archive is extracted. */
static enum status open_local(const char *path, bool archive_cache,
			      struct model **out, struct error *err)
{
	*out = NULL;
	struct stat sb;
	if (stat(path, &sb) != 0) {
		/* ARCHIVE/INNER: a database inside an archive file */
		int e = errno;
		char *archive = NULL, *inner = NULL;
		if ((e == ENOENT || e == ENOTDIR) &&
		    archive_split_path(path, &archive, &inner)) {
			enum status st = archive_open_database(
				archive, inner, archive_cache, out, err);
			free(archive);
			free(inner);
			return st;
		}
		return error_set(err,
				 e == ENOENT || e == ENOTDIR ? STATUS_NOT_FOUND
							     : STATUS_IO,
				 path, "%s", strerror(e));
	}
	const struct reader *best = NULL;
	int best_bid = 0;
	for (const struct reader *const *r = readers; *r; r++) {
		int bid = (*r)->bid(path);
		if (bid > best_bid) {
			best_bid = bid;
			best = *r;
		}
	}
	if (!best && S_ISREG(sb.st_mode) && archive_is_archive(path))
		return archive_open_database(path, NULL, archive_cache, out,
					     err);
	if (!best)
		return error_set(err, STATUS_NOT_DATABASE, path,
				 "not a database callscope can read "
				 "(expected an HPCToolkit database directory "
				 "with meta.db or experiment.xml)");
	return best->open(path, out, err);
}
