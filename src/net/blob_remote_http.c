/* blob_remote_http: blob_register_remote(), the fetcher of remote blobs
 * over the shared libcurl layer (http.h): one probe at registration (size,
 * ETag or Last-Modified, whether ranges are honoured; none when the caller
 * probed already), then one range GET per run of missing blocks on the
 * fetcher's own session.  The block cache
 * serialises the fetches, so one session (one kept-alive connection) is
 * enough.  Must not depend on curses or ui/, and configures no curl handle
 * itself. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/blob.h"
#include "net/http.h"

struct http_fetcher {
	struct http_session *session;
	char *url;
	char *validator; /* the ETag, else Last-Modified; NULL: neither */
};

static void http_fetcher_free(void *ctx)
{
	struct http_fetcher *h = ctx;
	if (!h)
		return;
	http_session_free(h->session);
	free(h->url);
	free(h->validator);
	free(h);
}

static enum status http_fetcher_fetch(void *ctx, uint64_t off, uint64_t len,
				      void *buf, struct error *err)
{
	struct http_fetcher *h = ctx;
	size_t got = 0;
	/* len is at most one request of the block cache (16 MiB) */
	enum status st = http_get_range(h->session, h->url, off, (size_t)len,
					buf, &got, h->validator, err);
	if (st != STATUS_OK)
		return st;
	if (got != len) {
		char *r = http_url_redact(h->url);
		st = error_set_at(err, STATUS_IO, r ? r : "URL", off,
				  "transfer ended early (received %zu of "
				  "%llu bytes): the file shrank on the "
				  "server?",
				  got, (unsigned long long)len);
		free(r);
	}
	return st;
}

/* Register `url` for `local_path` with what a probe said, on a new
 * session of its own (the fetcher's; no request is made here). */
static enum status register_known(const char *local_path, const char *url,
				  const struct open_options *o, uint64_t size,
				  const char *etag, const char *last_modified,
				  struct error *err)
{
	enum status st = STATUS_OK;
	struct http_fetcher *h = NULL;
	char *cache_dir = NULL, *redacted = NULL;
	h = calloc(1, sizeof(*h));
	if (!h || !(h->url = strdup(url)) ||
	    ((etag || last_modified) &&
	     !(h->validator = strdup(etag ? etag : last_modified))) ||
	    !(redacted = http_url_redact(url)) ||
	    asprintf(&cache_dir, "%s.blocks", local_path) < 0) {
		cache_dir = NULL;
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	st = http_session_new(o, &h->session, err);
	if (st != STATUS_OK)
		goto out;
	/* the progress hook hears of every block fetch, by file name */
	const char *slash = strrchr(redacted, '/');
	http_session_report_ranges(h->session, slash && slash[1] ? slash + 1
								: redacted);
	/* the version the persisted blocks belong to: the ETag, else the
	 * modification date (with the size, which the cache checks too) */
	const char *validator = etag ? etag : last_modified;
	struct blob_fetcher f = {
		.fetch = http_fetcher_fetch,
		.free_ctx = http_fetcher_free,
		.ctx = h,
	};
	h = NULL; /* the registration owns it from here, also on failure */
	st = blob_register_fetcher(local_path, redacted, &f, size, validator,
				   cache_dir, err);
out:
	http_fetcher_free(h);
	free(cache_dir);
	free(redacted);
	return st;
}

enum status blob_register_remote(const char *local_path, const char *url,
				 const struct open_options *o,
				 struct error *err)
{
	enum status st = STATUS_OK;
	struct http_info info = {.size = 0};
	struct http_session *s = NULL;
	char *redacted = NULL;
	if (!local_path || !url)
		return error_set(err, STATUS_USAGE, local_path,
				 "registration without a path or URL");
	st = http_global_init(err);
	if (st != STATUS_OK)
		return st;
	st = http_session_new(o, &s, err);
	if (st == STATUS_OK)
		st = http_probe(s, url, &info, err);
	if (st != STATUS_OK)
		goto out;
	if (!info.ranges || !info.size_known) {
		redacted = http_url_redact(url);
		st = error_set(err, STATUS_UNSUPPORTED,
			       redacted ? redacted : "URL",
			       "%s: cannot be read in parts",
			       !info.ranges ? "the server ignores range "
					      "requests"
					    : "the server gives no size");
		goto out;
	}
	st = register_known(local_path, url, o, info.size, info.etag,
			    info.last_modified, err);
out:
	http_session_free(s);
	http_info_clear(&info);
	free(redacted);
	return st;
}

enum status blob_register_remote_probed(const char *local_path,
					const char *url,
					const struct open_options *o,
					uint64_t size, const char *etag,
					const char *last_modified,
					struct error *err)
{
	if (!local_path || !url)
		return error_set(err, STATUS_USAGE, local_path,
				 "registration without a path or URL");
	enum status st = http_global_init(err);
	if (st != STATUS_OK)
		return st;
	return register_known(local_path, url, o, size, etag, last_modified,
			      err);
}
