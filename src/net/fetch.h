/* fetch: download one URL into a file, the way a cache wants it.  The
 * body goes to DEST.part (locked with flock against a second process),
 * then fsync and rename: DEST appears only when complete.  With a
 * validator file (url_cache meta record) a cached DEST is revalidated
 * (If-None-Match / If-Modified-Since; 304 keeps it), and an interrupted
 * DEST.part resumes with a Range request guarded by If-Range (200 instead
 * of 206 restarts from zero).  Progress and cancel come from the
 * session's open_options; --max-size is enforced while writing; a write
 * error (ENOSPC) stops the transfer with the file named.  Must not print,
 * exit, or depend on curses or ui/. */
#ifndef CALLSCOPE_FETCH_H
#define CALLSCOPE_FETCH_H

#include <stdbool.h>
#include <stdint.h>

#include "net/http.h"
#include "core/status.h"

struct fetch_request {
	const char *url;
	const char *dest;      /* the final path; its directory must exist */
	const char *meta_path; /* validators (url_cache_file); NULL: none,
				  no revalidation and no resume */
	const char *name;      /* shown in progress reports; NULL: dest */
	uint64_t max_size;     /* 0: no limit */
	/* Called once when a body starts that will replace DEST (not for a
	 * 304 or an error); NULL: none. */
	void (*on_replace)(void *ctx);
	void *ctx;
};

struct fetch_result {
	bool not_modified;     /* 304: DEST kept as it was */
	bool resumed;          /* continued an earlier DEST.part */
	uint64_t size;         /* DEST's size */
	uint64_t transferred;  /* body bytes received by this call */
	char *effective_url;   /* after redirects (heap; NULL if unknown) */
};

void fetch_result_clear(struct fetch_result *r);

/* Make `r->dest` a complete, current copy of `r->url`.  STATUS_NOT_FOUND
 * for 404/410 and missing remote files (the caller decides whether the
 * file was optional; a stale DEST and its record are then removed),
 * STATUS_LIMIT when larger than max_size, STATUS_IO with a one-line
 * message otherwise (http_session_result's, or "cannot write DEST.part:
 * No space left on device").  On failure a DEST.part with validators is
 * kept for a resume. */
enum status fetch_file(struct http_session *s, const struct fetch_request *r,
		       struct fetch_result *res, struct error *err);

#endif
