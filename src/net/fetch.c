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
	CURL *c = http_session_curl(k->s);
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
	curl_off_t len = -1;
	curl_easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &len);
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

static size_t on_write(char *data, size_t size, size_t nmemb, void *ctx)
{
	struct sink *k = ctx;
	size_t n = size * nmemb;
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
	const char *p = data;
	size_t left = n;
	while (left > 0) {
		ssize_t w = write(k->fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			k->write_errno = w < 0 ? errno : EIO;
			return 0;
		}
		p += w;
		left -= (size_t)w;
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
	char *part = NULL;
	int fd = -1;
	struct curl_slist *headers = NULL;
	struct url_cache_file meta = { 0 };
	enum status st = STATUS_OK;
	bool http = is_http(r->url);
	if (asprintf(&part, "%s.part", r->dest) < 0) {
		part = NULL;
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	st = open_part(part, &fd, err);
	if (st != STATUS_OK)
		goto out;
	/* Read the record under the lock: a finished concurrent download
	 * shows up as a complete record. */
	bool have_meta = r->meta_path &&
			 url_cache_read_file(r->meta_path, &meta, NULL) ==
				 STATUS_OK;
	struct stat sb;
	bool cached = have_meta && meta.complete &&
		      stat(r->dest, &sb) == 0 && S_ISREG(sb.st_mode) &&
		      (uint64_t)sb.st_size == meta.size;
	const char *validator = NULL;
	if (have_meta)
		validator = meta.etag && strncmp(meta.etag, "W/", 2) != 0
				    ? meta.etag
				    : meta.last_modified;
	struct stat pb;
	uint64_t start = 0;
	if (allow_resume && have_meta && !meta.complete &&
	    fstat(fd, &pb) == 0 &&
	    pb.st_size > 0 && (validator || !http)) {
		start = (uint64_t)pb.st_size;
		if (meta.size > 0 && start >= meta.size)
			start = 0; /* nothing left to ask for: start over */
	}
	if (start == 0 && ftruncate(fd, 0) != 0) {
		st = error_set(err, STATUS_IO, part, "cannot truncate: %s",
			       strerror(errno));
		goto out;
	}
	if (lseek(fd, (off_t)start, SEEK_SET) < 0) {
		st = error_set(err, STATUS_IO, part, "cannot seek: %s",
			       strerror(errno));
		goto out;
	}
	st = http_session_prepare(s, r->url, err);
	if (st != STATUS_OK)
		goto out;
	CURL *c = http_session_curl(s);
	struct sink k = {
		.s = s,
		.fd = fd,
		.part = part,
		.meta_path = r->meta_path,
		.start = start,
		.max_size = r->max_size,
		.on_replace = r->on_replace,
		.ctx = r->ctx,
	};
	char range[32];
	char *line = NULL;
	CURLcode rc = CURLE_OK;
	if (start > 0) {
		snprintf(range, sizeof(range), "%" PRIu64 "-", start);
		rc = curl_easy_setopt(c, CURLOPT_RANGE, range);
		if (http && validator &&
		    asprintf(&line, "If-Range: %s", validator) >= 0) {
			headers = curl_slist_append(headers, line);
			free(line);
		}
	} else if (cached && http) {
		if (meta.etag && asprintf(&line, "If-None-Match: %s",
					  meta.etag) >= 0) {
			headers = curl_slist_append(headers, line);
			free(line);
		}
		if (meta.last_modified &&
		    asprintf(&line, "If-Modified-Since: %s",
			     meta.last_modified) >= 0) {
			headers = curl_slist_append(headers, line);
			free(line);
		}
	}
	if (rc == CURLE_OK && headers)
		rc = curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_write);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_WRITEDATA, &k);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_BUFFERSIZE, FETCH_BUFFER_SIZE);
	http_session_set_progress(s, r->name ? r->name : r->dest, start, 0);
	if (rc == CURLE_OK)
		rc = curl_easy_perform(c);
	res->transferred = k.written;
	res->resumed = k.start > 0;
	const char *eff = NULL;
	if (curl_easy_getinfo(c, CURLINFO_EFFECTIVE_URL, &eff) == CURLE_OK &&
	    eff)
		res->effective_url = strdup(eff);
	long code = http_session_status(s);
	if (start > 0 && (k.bad_range || (rc == CURLE_OK && code == 416))) {
		*retry = true;
		goto out;
	}
	char *ru = http_url_redact(r->url);
	const char *u = ru ? ru : "URL";
	if (k.write_errno) {
		st = error_set(err, STATUS_IO, part, "cannot write: %s",
			       strerror(k.write_errno));
	} else if (k.too_big) {
		st = error_set(err, STATUS_LIMIT, u,
			       "larger than --max-size %" PRIu64 " bytes",
			       r->max_size);
	} else if (k.bad_range) {
		st = error_set(err, STATUS_IO, u,
			       "bad answer to a resume request (Content-Range "
			       "%s)",
			       http_session_header(s, "Content-Range")
				       ? http_session_header(s, "Content-Range")
				       : "missing");
	} else {
		st = http_session_result(s, r->url, rc, err);
	}
	if (st == STATUS_OK && code == 304 && !cached)
		st = error_set(err, STATUS_IO, u,
			       "HTTP 304 to an unconditional request");
	else if (st == STATUS_OK && code >= 300 && code != 304)
		st = error_set(err, STATUS_IO, u, "unexpected HTTP %ld", code);
	free(ru);
	if (st == STATUS_NOT_FOUND) {
		remove_stale(r, part);
		goto out;
	}
	if (st != STATUS_OK)
		goto out;
	if (code == 304) {
		res->not_modified = true;
		res->size = meta.size;
		unlink(part);
		goto out;
	}
	if (fsync(fd) != 0) {
		st = error_set(err, STATUS_IO, part, "cannot write: %s",
			       strerror(errno));
		goto out;
	}
	struct stat fb;
	if (fstat(fd, &fb) != 0) {
		st = error_set(err, STATUS_IO, part, "%s", strerror(errno));
		goto out;
	}
	if (rename(part, r->dest) != 0) {
		st = error_set(err, STATUS_IO, r->dest, "cannot rename: %s",
			       strerror(errno));
		goto out;
	}
	res->size = (uint64_t)fb.st_size;
	http_session_progress_done(s, res->size);
	if (r->meta_path)
		st = write_validators(s, r->meta_path, res->size, true, err);
out:
	if (st != STATUS_OK && fd >= 0) {
		struct stat eb;
		if (fstat(fd, &eb) == 0 && eb.st_size == 0)
			unlink(part); /* nothing to resume */
	}
	if (fd >= 0)
		close(fd); /* also drops the lock */
	curl_slist_free_all(headers);
	url_cache_file_clear(&meta);
	free(part);
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
