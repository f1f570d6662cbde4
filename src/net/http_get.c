/* http_get: the three kinds of request the program makes: a probe (size,
 * validators, whether ranges work), a byte range into a caller buffer
 * (guarded by If-Range), a small document whole into memory.  Must not
 * print, exit, or depend on curses or ui/. */
#include "config.h"

#include "net/http_internal.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void http_info_clear(struct http_info *info)
{
	if (!info)
		return;
	free(info->etag);
	free(info->last_modified);
	free(info->effective_url);
	memset(info, 0, sizeof(*info));
	info->mtime = -1;
}

/* Parse "bytes A-B/N" or "bytes * /N": the total N, when a number. */
static bool content_range_total(const char *v, uint64_t *total)
{
	if (!v)
		return false;
	const char *slash = strrchr(v, '/');
	if (!slash || !isdigit((unsigned char)slash[1]))
		return false;
	errno = 0;
	char *end = NULL;
	unsigned long long n = strtoull(slash + 1, &end, 10);
	if (errno != 0 || (*end != '\0' && !isspace((unsigned char)*end)))
		return false;
	*total = n;
	return true;
}

/* Parse the first byte position A of "bytes A-B/N". */
bool http_content_range_start(const char *v, uint64_t *start)
{
	if (!v || strncasecmp(v, "bytes", 5) != 0)
		return false;
	const char *p = v + 5;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return false;
	errno = 0;
	char *end = NULL;
	unsigned long long n = strtoull(p, &end, 10);
	if (errno != 0 || *end != '-')
		return false;
	*start = n;
	return true;
}

/* Body sink for probes and range reads: keeps at most buf_len bytes;
 * cuts off a 200 answer to a range request, and an overlong body. */
static size_t on_body(const char *data, size_t n, void *ctx)
{
	struct http_session *s = ctx;
	long code = http_session_status(s);
	if (code >= 400)
		return n; /* an error page: discard, reported by status */
	if (code == 200) {
		s->ignored_range = true;
		s->cut_off = true;
		return 0;
	}
	size_t room = s->buf_len - s->buf_got;
	if (n > room) {
		s->overflow = true;
		return 0;
	}
	if (n > 0 && s->buf)
		memcpy(s->buf + s->buf_got, data, n);
	s->buf_got += n;
	return n;
}

/* Point the session's body sink at `buf` (`len` bytes), or detach it. */
static void sink_to(struct http_session *s, void *buf, size_t len)
{
	s->buf = buf;
	s->buf_len = len;
	s->buf_got = 0;
	s->overflow = s->ignored_range = s->cut_off = false;
}

static bool is_http(const struct http_session *s)
{
	return s->scheme == HTTP_SCHEME_HTTP || s->scheme == HTTP_SCHEME_HTTPS;
}

static char *dup_header(struct http_session *s, const char *name)
{
	const char *v = http_session_header(s, name);
	return v ? strdup(v) : NULL;
}

/* Size and range support from the probe's answer. */
static void probe_size(struct http_session *s, long code,
		       struct http_info *info)
{
	if (code == 416 || (is_http(s) && code == 206)) {
		/* 416: an empty file, "bytes * /0" */
		info->ranges = true;
		info->size_known = content_range_total(
			http_session_header(s, "Content-Range"), &info->size);
		return;
	}
	int64_t len = http_session_content_length(s);
	if (len >= 0) {
		info->size = (uint64_t)len;
		info->size_known = true;
	}
	/* libcurl does ranges itself for these. */
	info->ranges = s->scheme == HTTP_SCHEME_FILE ||
		       s->scheme == HTTP_SCHEME_SFTP;
}

/* Validators, time and final URL from the probe's answer. */
static void probe_validators(struct http_session *s, struct http_info *info)
{
	info->etag = dup_header(s, "ETag");
	info->last_modified = dup_header(s, "Last-Modified");
	curl_off_t ft = -1;
	if (curl_easy_getinfo(s->curl, CURLINFO_FILETIME_T, &ft) == CURLE_OK &&
	    ft >= 0)
		info->mtime = (int64_t)ft;
	const char *eff = http_session_effective_url(s);
	if (eff)
		info->effective_url = strdup(eff);
}

enum status http_probe(struct http_session *s, const char *url,
		       struct http_info *info, struct error *err)
{
	memset(info, 0, sizeof(*info));
	info->mtime = -1;
	enum status st = http_session_prepare(s, url, err);
	if (st != STATUS_OK)
		return st;
	unsigned char byte[1];
	sink_to(s, byte, sizeof(byte));
	struct http_request q = { .no_body = true };
	if (is_http(s))
		q = (struct http_request){
			.range = "0-0", .body = on_body, .body_ctx = s };
	http_session_perform(s, &q);
	long code = http_session_status(s);
	info->http_status = code;
	if (s->rc == CURLE_WRITE_ERROR && s->cut_off)
		s->rc = CURLE_OK;
	if (code != 416 || s->rc != CURLE_OK)
		st = http_session_result(s, url, err);
	if (st == STATUS_OK) {
		probe_size(s, code, info);
		probe_validators(s, info);
	}
	sink_to(s, NULL, 0);
	if (st != STATUS_OK)
		http_info_clear(info);
	return st;
}

/* A validator usable in If-Range: a strong ETag or a date, one line. */
static bool if_range_ok(const char *v)
{
	return v && *v && strncmp(v, "W/", 2) != 0 && strlen(v) <= 1024 &&
	       !strpbrk(v, "\r\n");
}

/* An HTTP answer to a range request: 206 with the range asked for, of
 * the file `validator` (NULL: any) names -- a server that ignores
 * If-Range shows it by the ETag, or for a date the Last-Modified it
 * sends along. */
static enum status check_range_answer(struct http_session *s, const char *url,
				      uint64_t offset, const char *validator,
				      struct error *err)
{
	long code = http_session_status(s);
	const char *range = http_session_header(s, "Content-Range");
	uint64_t start = 0;
	if (code != 206 || !http_content_range_start(range, &start) ||
	    start != offset)
		return http_url_error(err, STATUS_IO, url,
				      "bad answer to a range request (HTTP "
				      "%ld, Content-Range %s)",
				      code, range ? range : "missing");
	const char *tag = http_session_header(s, "ETag");
	const char *date = http_session_header(s, "Last-Modified");
	bool is_etag = validator && (validator[0] == '"' ||
				     strncmp(validator, "W/", 2) == 0);
	if (is_etag && (!tag || strcmp(tag, validator) != 0))
		return http_url_error(err, STATUS_IO, url,
				      "changed on the server (ETag %s, was %s)",
				      tag ? tag : "missing", validator);
	if (validator && !is_etag && date && strcmp(date, validator) != 0)
		return http_url_error(err, STATUS_IO, url,
				      "changed on the server (Last-Modified "
				      "%s, was %s)",
				      date, validator);
	return STATUS_OK;
}

enum status http_get_range(struct http_session *s, const char *url,
			   uint64_t offset, size_t len, void *buf,
			   size_t *got, const char *validator,
			   struct error *err)
{
	*got = 0;
	if (len == 0)
		return STATUS_OK;
	if (offset > UINT64_MAX - len)
		return error_set(err, STATUS_USAGE, url, "range overflows");
	enum status st = http_session_prepare(s, url, err);
	if (st != STATUS_OK)
		return st;
	char range[64];
	snprintf(range, sizeof(range), "%" PRIu64 "-%" PRIu64, offset,
		 offset + len - 1);
	sink_to(s, buf, len);
	if (s->range_progress_name)
		http_session_set_progress(s, s->range_progress_name, 0, len);
	/* the range only if the file is still the one the blocks are of:
	 * a changed file comes back whole (200), told apart below */
	bool if_range = is_http(s) && if_range_ok(validator);
	struct http_request q = {
		.range = range,
		.if_range = if_range ? validator : NULL,
		.body = on_body,
		.body_ctx = s,
	};
	http_session_perform(s, &q);
	if (s->range_progress_name)
		http_session_progress_done(s, s->buf_got);
	if (s->ignored_range)
		st = if_range ? http_url_error(err, STATUS_IO, url,
					       "changed on the server (the "
					       "whole file came back to "
					       "If-Range %s)",
					       validator)
			      : http_url_error(err, STATUS_UNSUPPORTED, url,
					       "the server ignores range "
					       "requests");
	else
		st = http_session_result(s, url, err);
	if (st == STATUS_OK && is_http(s))
		st = check_range_answer(s, url, offset, validator, err);
	if (st == STATUS_OK)
		*got = s->buf_got;
	sink_to(s, NULL, 0);
	return st;
}

struct memory_sink {
	char *buf;
	size_t len;
	size_t cap;
	size_t max;
	bool too_big;
};

static size_t on_memory(const char *data, size_t n, void *ctx)
{
	struct memory_sink *m = ctx;
	if (n > m->max - m->len) {
		m->too_big = true;
		return 0;
	}
	if (m->len + n + 1 > m->cap) {
		size_t cap = m->cap ? m->cap : 4096;
		while (cap < m->len + n + 1)
			cap *= 2;
		char *p = realloc(m->buf, cap);
		if (!p)
			return 0;
		m->buf = p;
		m->cap = cap;
	}
	memcpy(m->buf + m->len, data, n);
	m->len += n;
	m->buf[m->len] = '\0';
	return n;
}

enum status http_get_memory(struct http_session *s, const char *url,
			    size_t max, char **out, size_t *len,
			    struct error *err)
{
	*out = NULL;
	*len = 0;
	enum status st = http_session_prepare(s, url, err);
	if (st != STATUS_OK)
		return st;
	struct memory_sink m = { .max = max };
	struct http_request q = { .body = on_memory, .body_ctx = &m };
	http_session_perform(s, &q);
	if (m.too_big)
		st = http_url_error(err, STATUS_LIMIT, url,
				    "larger than %zu bytes", max);
	else
		st = http_session_result(s, url, err);
	if (st != STATUS_OK) {
		free(m.buf);
		return st;
	}
	if (!m.buf) {
		m.buf = strdup("");
		if (!m.buf)
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
	}
	*out = m.buf;
	*len = m.len;
	return STATUS_OK;
}
