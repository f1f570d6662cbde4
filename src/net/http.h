/* http: the one place that configures libcurl.  A session wraps one easy
 * handle (reused, so connections stay alive between requests) set up for a
 * URL with the project's rules: only http, https, file, sftp and scp (and
 * only those the linked libcurl speaks), redirects at most 5 and never to
 * another scheme, a 10 s connect timeout, a stall limit, TLS verified unless
 * --insecure, .netrc only with --netrc, ssh agent and keys for sftp/scp,
 * the user agent callscope/VERSION, and the cancel flag of open_options.
 * Every failure becomes one line naming the URL and the problem.
 * On top of that: probe a URL (size, validators, whether ranges work) and
 * read a byte range into a caller buffer; URLs are joined and redacted
 * with libcurl's URL API (CURLU), never by hand.  Callers describe a
 * request (struct http_request) and never see libcurl: this header does
 * not include it.  Must not print, exit, or depend on curses or ui/. */
#ifndef CALLSCOPE_HTTP_H
#define CALLSCOPE_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/open_options.h"
#include "core/status.h"

enum http_scheme {
	HTTP_SCHEME_NONE,  /* not a URL (a local path) */
	HTTP_SCHEME_HTTP,
	HTTP_SCHEME_HTTPS,
	HTTP_SCHEME_FILE,
	HTTP_SCHEME_SFTP,
	HTTP_SCHEME_SCP,
	HTTP_SCHEME_OTHER, /* looks like scheme:// but not one of ours */
};

/* The scheme of `s` (case-insensitive "name://" prefix).  NULL and plain
 * paths give HTTP_SCHEME_NONE. */
enum http_scheme http_url_scheme(const char *s);

/* True when `s` starts with a scheme:// prefix, ours or not: the program
 * treats it as a URL (and reports unsupported schemes) instead of a path. */
bool http_is_url(const char *s);

/* Check that `url` has one of our schemes and that the linked libcurl
 * supports it (sftp/scp depend on the build).  STATUS_UNSUPPORTED with a
 * one-line message otherwise. */
enum status http_check_url(const char *url, struct error *err);

/* A copy of `url` without "user:password@" (for messages and the cache
 * list).  A URL without a user, password or login options comes back as
 * written; one with them as libcurl spells it after removing them
 * ("sftp://me@host" gives "sftp://host/"); one libcurl refuses loses
 * everything before the last '@' of its authority.  NULL when out of
 * memory. */
char *http_url_redact(const char *url);

/* error_set() naming `url` redacted ("URL" when out of memory): the one
 * way a message of net/ names a URL. */
enum status http_url_error(struct error *err, enum status status,
			   const char *url, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The URL of `rel` below the directory URL `dir_url` (ending in '/'):
 * `rel` is one or more names separated by '/' ("meta.db",
 * "metrics/default.yaml", "" for the directory itself), each
 * percent-encoded here ("run 1.db" becomes "run%201.db"), and resolved by
 * libcurl's URL API.  Heap string in *out.  STATUS_USAGE when libcurl
 * refuses the URL, STATUS_NOMEM. */
enum status http_url_child(const char *dir_url, const char *rel, char **out,
			   struct error *err);

/* The path of `url` as libcurl reads it, still percent-encoded ("/a%20b/"
 * of "http://h/a%20b/?q"); NULL when libcurl refuses the URL or out of
 * memory. */
char *http_url_path(const char *url);

/* `n` bytes at `p` percent-decoded (heap string); NULL when the result
 * holds a NUL byte or out of memory. */
char *http_url_decode(const char *p, size_t n);

/* Initialise libcurl once per process (thread-safe, idempotent). */
enum status http_global_init(struct error *err);

struct http_session;

/* A new session; `o` is copied (its cancel pointer and progress hook are
 * kept as pointers) and may be NULL for the defaults. */
enum status http_session_new(const struct open_options *o,
			     struct http_session **out, struct error *err);

void http_session_free(struct http_session *s);

/* Reset the session and set it up for one request to `url` by the rules
 * above; http_session_perform() then makes it.  Response headers are the
 * session's (it records the status line): http_session_header() reads
 * them. */
enum status http_session_prepare(struct http_session *s, const char *url,
				 struct error *err);

/* Name the file the next transfer is about and how many of its bytes are
 * already on disk, for the progress hook of open_options (prepare clears
 * both; without a call the hook is not called). */
void http_session_set_progress(struct http_session *s, const char *name,
			       uint64_t resumed, uint64_t total);

/* Report every http_get_range of this session to the progress hook under
 * `name` (a file read in parts), its end included; NULL: stop. */
void http_session_report_ranges(struct http_session *s, const char *name);

/* Report the end of the transfer named by http_session_set_progress
 * (`done` set, `now` bytes present) to the progress hook, if any. */
void http_session_progress_done(struct http_session *s, uint64_t now);

/* A body sink: the next `n` bytes of the response body.  Returns `n` to
 * go on; anything else stops the transfer (http_session_result then
 * reports a write error, unless the status line is an error). */
typedef size_t (*http_body_fn)(const char *data, size_t n, void *ctx);

/* What one request adds to http_session_prepare's set-up.  Every member
 * is optional: all zero is a plain GET whose body is discarded.  The
 * validators are sent as the headers named (strings as given). */
struct http_request {
	const char *range;             /* "A-B" or "A-": the bytes wanted */
	const char *if_range;          /* the range only if still this file */
	const char *if_none_match;     /* an ETag: 304 while it matches */
	const char *if_modified_since; /* an HTTP date: 304 while unchanged */
	http_body_fn body;             /* NULL: the body is discarded */
	void *body_ctx;
	long buffer_size;              /* receive buffer; 0: libcurl's */
	bool no_body;                  /* the headers only (no GET body) */
};

/* Make the request prepared by http_session_prepare() with what `q` adds
 * (NULL: nothing).  True when the transfer ran to its end; whether it
 * succeeded (an HTTP error status, a body sink that stopped, a lost
 * connection) is for http_session_result() to say. */
bool http_session_perform(struct http_session *s,
			  const struct http_request *q);

/* The length the response announced for its body (Content-Length), -1
 * when unknown.  May be called from a body sink. */
int64_t http_session_content_length(struct http_session *s);

/* The URL the last request ended at after redirects; NULL when unknown.
 * Valid until the next request. */
const char *http_session_effective_url(struct http_session *s);

/* The last response's header `name` (case-insensitive), NULL if absent.
 * Valid until the next request. */
const char *http_session_header(struct http_session *s, const char *name);

/* The last response's HTTP status (0 for file, sftp, scp). */
long http_session_status(struct http_session *s);

/* After http_session_perform(): turn the transfer's outcome and the HTTP
 * status (>= 400 is an error) into a status and a one-line message naming
 * the URL: "cannot
 * resolve host", "connection refused", "connection timed out after 10 s",
 * "transfer stalled (under 1 byte/s for 30 s)", "HTTP 404 Not Found",
 * "TLS certificate verification failed (...); --insecure skips the
 * check", "transfer ended early (received N of M bytes)", "redirect to
 * another scheme refused", "cancelled", ...  STATUS_OK when both are fine.
 * HTTP 404/410 and missing files give STATUS_NOT_FOUND, size limits
 * STATUS_LIMIT, the rest STATUS_IO. */
enum status http_session_result(struct http_session *s, const char *url,
				struct error *err);

/* True when the last failure was a cancel (the flag was set). */
bool http_session_cancelled(const struct http_session *s);

/* What a probe learned.  Strings are heap copies (NULL when absent). */
struct http_info {
	uint64_t size;        /* valid when size_known */
	bool size_known;
	bool ranges;          /* a range request was answered with 206 (or
	                         the scheme does ranges itself: file, sftp) */
	char *etag;           /* strong or weak, as sent, with quotes */
	char *last_modified;  /* the HTTP date as sent */
	int64_t mtime;        /* seconds since the epoch; -1 unknown */
	char *effective_url;  /* after redirects */
	long http_status;
};

/* Learn size, validators and range support of `url` with a
 * "Range: bytes=0-0" GET (a server that ignores ranges is cut off after
 * the headers).  Fails as http_session_result does (404 ...).  */
enum status http_probe(struct http_session *s, const char *url,
		       struct http_info *info, struct error *err);

/* The first byte position A of a Content-Range value "bytes A-B/N". */
bool http_content_range_start(const char *value, uint64_t *start);

/* Free the strings and zero `info`. */
void http_info_clear(struct http_info *info);

/* Read `len` bytes at `offset` of `url` into `buf` with a range request;
 * `*got` is the number stored (less than `len` only at the end of the
 * file).  `validator` (NULL: none) is the ETag or Last-Modified date the
 * caller's bytes belong to: it is sent as If-Range, so a changed file
 * fails ("changed on the server": the whole file came back, or another
 * ETag).  Without it, a server that answers 200 instead of 206 fails with
 * STATUS_UNSUPPORTED ("ignores range requests").  `len` 0
 * succeeds at once. */
enum status http_get_range(struct http_session *s, const char *url,
			   uint64_t offset, size_t len, void *buf,
			   size_t *got, const char *validator,
			   struct error *err);

/* GET `url` whole into a NUL-terminated heap buffer (*out, *len without
 * the NUL); STATUS_LIMIT when the body exceeds `max` bytes.  For small
 * documents: directory listings, experiment.xml. */
enum status http_get_memory(struct http_session *s, const char *url,
			    size_t max, char **out, size_t *len,
			    struct error *err);

#endif
