/* fetch: one URL to one file, with revalidation, resume, limits and
 * atomic appearance.  Must not print, exit, or depend on curses or ui/. */
#include "config.h"

#include "net/fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/url_cache.h"
#include "core/fd.h"

/* libcurl's receive buffer: fewer, larger writes. */
#define FETCH_BUFFER_SIZE (512L << 10)
/* Attempts to lock a .part that another process keeps renaming. */
#define FETCH_LOCK_TRIES 5

struct sink {
	struct http_session *s;
	int fd;
	const char *part;
	const char *meta_path;
	uint64_t start;    /* bytes of .part kept (the resume offset) */
	uint64_t written;  /* bytes written by this transfer */
	uint64_t max_size;
	void (*on_replace)(void *ctx);
	void *ctx;
	bool started;
	bool restarted;    /* 200 to a resume: started over */
	bool discard;      /* an error page */
	bool too_big;
	bool bad_range;
	int write_errno;
};

void fetch_result_clear(struct fetch_result *r)
{
	if (!r)
		return;
	free(r->effective_url);
	memset(r, 0, sizeof(*r));
}

static bool is_http(const char *url)
{
	enum http_scheme sc = http_url_scheme(url);
	return sc == HTTP_SCHEME_HTTP || sc == HTTP_SCHEME_HTTPS;
}

/* Write the response's validators (ETag, Last-Modified) with `size` to
 * `meta_path`.  The record owns copies of the headers. */
static enum status write_validators(struct http_session *s,
				    const char *meta_path, uint64_t size,
				    bool complete, struct error *err)
{
	const char *etag = http_session_header(s, "ETag");
	const char *modified = http_session_header(s, "Last-Modified");
	struct url_cache_file f = {
		.etag = etag ? strdup(etag) : NULL,
		.last_modified = modified ? strdup(modified) : NULL,
		.size = size,
		.complete = complete,
	};
	enum status st;
	if ((etag && !f.etag) || (modified && !f.last_modified))
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
	else
		st = url_cache_write_file(meta_path, &f, err);
	url_cache_file_clear(&f);
	return st;
}

/* First body bytes: decide what this response means for .part. */
static bool on_start(struct sink *k)
{
	long code = http_session_status(k->s);
	if (code >= 300) {
		k->discard = true;
		return true;
	}
	if (code == 206) {
		uint64_t a = 0;
		if (k->start == 0 ||
		    !http_content_range_start(
			    http_session_header(k->s, "Content-Range"), &a) ||
		    a != k->start) {
			k->bad_range = true;
			return false;
		}
	} else if (code == 200 && k->start > 0) {
		/* the validator no longer matches, or no ranges: restart */
		if (ftruncate(k->fd, 0) != 0 ||
		    lseek(k->fd, 0, SEEK_SET) != 0) {
			k->write_errno = errno;
			return false;
		}
		k->start = 0;
		k->restarted = true;
	}
	int64_t len = http_session_content_length(k->s);
	if (k->max_size > 0 && len >= 0 &&
	    k->start + (uint64_t)len > k->max_size) {
		k->too_big = true;
		return false;
	}
	if (k->on_replace)
		k->on_replace(k->ctx);
	if (k->meta_path) {
		/* The validators of what .part now holds, for a resume. */
		if (write_validators(k->s, k->meta_path,
				     len >= 0 ? k->start + (uint64_t)len : 0,
				     false, NULL) != STATUS_OK) {
			k->write_errno = errno ? errno : EIO;
			return false;
		}
	}
	return true;
}

static size_t on_write(const char *data, size_t n, void *ctx)
{
	struct sink *k = ctx;
	if (!k->started) {
		k->started = true;
		if (!on_start(k))
			return 0;
	}
	if (k->discard)
		return n;
	if (k->max_size > 0 && k->start + k->written + n > k->max_size) {
		k->too_big = true;
		return 0;
	}
	int e = fd_write_all(k->fd, data, n);
	if (e != 0) {
		k->write_errno = e > 0 ? e : EIO;
		return 0;
	}
	k->written += n;
	return n;
}

/* Open and lock DEST.part; the lock holder may have renamed it to DEST
 * meanwhile, so check that the locked file is still DEST.part. */
static enum status open_part(const char *part, int *out, struct error *err)
{
	*out = -1;
	for (int i = 0; i < FETCH_LOCK_TRIES; i++) {
		int fd = open(part, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0)
			return error_set(err, STATUS_IO, part,
					 "cannot create: %s", strerror(errno));
		if (flock(fd, LOCK_EX) != 0) {
			int e = errno;
			close(fd);
			return error_set(err, STATUS_IO, part, "cannot lock: %s",
					 strerror(e));
		}
		struct stat a, b;
		if (fstat(fd, &a) == 0 && stat(part, &b) == 0 &&
		    a.st_ino == b.st_ino && a.st_dev == b.st_dev) {
			*out = fd;
			return STATUS_OK;
		}
		close(fd);
	}
	return error_set(err, STATUS_IO, part,
			 "another process keeps replacing this file");
}

static void remove_stale(const struct fetch_request *r, const char *part)
{
	unlink(r->dest);
	unlink(part);
	if (r->meta_path)
		unlink(r->meta_path);
}

/* One attempt at a fetch: DEST.part opened and locked, what the cache
 * record says, where the transfer starts. */
struct attempt {
	const struct fetch_request *r;
	char *part;
	int fd;
	bool http;
	struct url_cache_file meta;
	bool have_meta;
	bool cached;           /* DEST is complete per the record */
	const char *validator; /* of .part's bytes: strong ETag or date */
	uint64_t start;        /* resume offset; 0: from the start */
};

/* Open and lock .part, read the record under the lock (a finished
 * concurrent download shows up as a complete record), decide whether to
 * resume, and leave .part positioned there. */
static enum status attempt_open(struct attempt *a, bool allow_resume,
				struct error *err)
{
	const struct fetch_request *r = a->r;
	if (asprintf(&a->part, "%s.part", r->dest) < 0) {
		a->part = NULL;
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	enum status st = open_part(a->part, &a->fd, err);
	if (st != STATUS_OK)
		return st;
	a->have_meta = r->meta_path &&
		       url_cache_read_file(r->meta_path, &a->meta, NULL) ==
			       STATUS_OK;
	struct stat sb;
	a->cached = a->have_meta && a->meta.complete &&
		    stat(r->dest, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    (uint64_t)sb.st_size == a->meta.size;
	if (a->have_meta)
		a->validator = a->meta.etag && strncmp(a->meta.etag, "W/", 2) != 0
				       ? a->meta.etag
				       : a->meta.last_modified;
	struct stat pb;
	if (allow_resume && a->have_meta && !a->meta.complete &&
	    fstat(a->fd, &pb) == 0 && pb.st_size > 0 &&
	    (a->validator || !a->http)) {
		a->start = (uint64_t)pb.st_size;
		if (a->meta.size > 0 && a->start >= a->meta.size)
			a->start = 0; /* nothing left to ask for: start over */
	}
	if (a->start == 0 && ftruncate(a->fd, 0) != 0)
		return error_set(err, STATUS_IO, a->part, "cannot truncate: %s",
				 strerror(errno));
	if (lseek(a->fd, (off_t)a->start, SEEK_SET) < 0)
		return error_set(err, STATUS_IO, a->part, "cannot seek: %s",
				 strerror(errno));
	return STATUS_OK;
}

/* The request: the rest of .part after a resume (If-Range: only if the
 * file is still the one .part holds), else a revalidation of a cached
 * DEST (If-None-Match, If-Modified-Since).  True when it ran to its end. */
static bool attempt_transfer(struct http_session *s, struct attempt *a,
			     struct sink *k, struct fetch_result *res)
{
	char range[32];
	struct http_request q = {
		.body = on_write,
		.body_ctx = k,
		.buffer_size = FETCH_BUFFER_SIZE,
	};
	if (a->start > 0) {
		snprintf(range, sizeof(range), "%" PRIu64 "-", a->start);
		q.range = range;
		q.if_range = a->http ? a->validator : NULL;
	} else if (a->cached && a->http) {
		q.if_none_match = a->meta.etag;
		q.if_modified_since = a->meta.last_modified;
	}
	http_session_set_progress(s, a->r->name ? a->r->name : a->r->dest,
				  a->start, 0);
	bool done = http_session_perform(s, &q);
	res->transferred = k->written;
	res->resumed = k->start > 0;
	const char *eff = http_session_effective_url(s);
	if (eff)
		res->effective_url = strdup(eff);
	return done;
}

/* What the transfer came to: the sink's failures first (they stopped
 * it), then the session's verdict, then a status we cannot use. */
static enum status attempt_verdict(struct http_session *s,
				   const struct attempt *a,
				   const struct sink *k, struct error *err)
{
	const struct fetch_request *r = a->r;
	long code = http_session_status(s);
	const char *range = http_session_header(s, "Content-Range");
	enum status st;
	if (k->write_errno)
		return error_set(err, STATUS_IO, a->part, "cannot write: %s",
				 strerror(k->write_errno));
	if (k->too_big)
		return http_url_error(err, STATUS_LIMIT, r->url,
				      "larger than --max-size %" PRIu64
				      " bytes",
				      r->max_size);
	if (k->bad_range)
		return http_url_error(err, STATUS_IO, r->url,
				      "bad answer to a resume request "
				      "(Content-Range %s)",
				      range ? range : "missing");
	st = http_session_result(s, r->url, err);
	if (st == STATUS_OK && code == 304 && !a->cached)
		return http_url_error(err, STATUS_IO, r->url,
				      "HTTP 304 to an unconditional request");
	if (st == STATUS_OK && code >= 300 && code != 304)
		return http_url_error(err, STATUS_IO, r->url,
				      "unexpected HTTP %ld", code);
	return st;
}

/* A complete body: to disk, then renamed to DEST, then its record. */
static enum status attempt_finish(struct http_session *s, struct attempt *a,
				  struct fetch_result *res, struct error *err)
{
	struct stat fb;
	if (fsync(a->fd) != 0)
		return error_set(err, STATUS_IO, a->part, "cannot write: %s",
				 strerror(errno));
	if (fstat(a->fd, &fb) != 0)
		return error_set(err, STATUS_IO, a->part, "%s",
				 strerror(errno));
	if (rename(a->part, a->r->dest) != 0)
		return error_set(err, STATUS_IO, a->r->dest,
				 "cannot rename: %s", strerror(errno));
	res->size = (uint64_t)fb.st_size;
	http_session_progress_done(s, res->size);
	if (a->r->meta_path)
		return write_validators(s, a->r->meta_path, res->size, true,
					err);
	return STATUS_OK;
}

/* Drop what an attempt holds; an empty .part of a failed one goes (there
 * is nothing to resume). */
static void attempt_close(struct attempt *a, enum status st)
{
	struct stat eb;
	if (st != STATUS_OK && a->fd >= 0 && fstat(a->fd, &eb) == 0 &&
	    eb.st_size == 0)
		unlink(a->part);
	if (a->fd >= 0)
		close(a->fd); /* also drops the lock */
	url_cache_file_clear(&a->meta);
	free(a->part);
}

/* One attempt.  A resume the server cannot serve (416: the file is
 * shorter than the .part, or a bad Content-Range) sets *retry: the caller
 * starts over without resuming. */
static enum status fetch_once(struct http_session *s,
			      const struct fetch_request *r,
			      struct fetch_result *res, bool allow_resume,
			      bool *retry, struct error *err)
{
	memset(res, 0, sizeof(*res));
	*retry = false;
	struct attempt a = { .r = r, .fd = -1, .http = is_http(r->url) };
	enum status st = attempt_open(&a, allow_resume, err);
	if (st == STATUS_OK)
		st = http_session_prepare(s, r->url, err);
	if (st != STATUS_OK)
		goto out;
	struct sink k = {
		.s = s,
		.fd = a.fd,
		.part = a.part,
		.meta_path = r->meta_path,
		.start = a.start,
		.max_size = r->max_size,
		.on_replace = r->on_replace,
		.ctx = r->ctx,
	};
	bool done = attempt_transfer(s, &a, &k, res);
	long code = http_session_status(s);
	if (a.start > 0 && (k.bad_range || (done && code == 416))) {
		*retry = true;
		goto out;
	}
	st = attempt_verdict(s, &a, &k, err);
	if (st == STATUS_NOT_FOUND)
		remove_stale(r, a.part);
	if (st != STATUS_OK)
		goto out;
	if (code == 304) {
		res->not_modified = true;
		res->size = a.meta.size;
		unlink(a.part);
		goto out;
	}
	st = attempt_finish(s, &a, res, err);
out:
	attempt_close(&a, st);
	return st;
}

enum status fetch_file(struct http_session *s, const struct fetch_request *r,
		       struct fetch_result *res, struct error *err)
{
	bool retry = false;
	enum status st = fetch_once(s, r, res, true, &retry, err);
	if (st == STATUS_OK && retry) {
		fetch_result_clear(res);
		st = fetch_once(s, r, res, false, &retry, err);
	}
	return st;
}
