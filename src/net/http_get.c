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
static size_t on_body(char *data, size_t size, size_t nmemb, void *ctx)
{
	struct http_session *s = ctx;
	size_t n = size * nmemb;
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

static bool is_http(const struct http_session *s)
{
	return s->scheme == HTTP_SCHEME_HTTP || s->scheme == HTTP_SCHEME_HTTPS;
}

enum status http_probe(struct http_session *s, const char *url,
		       struct http_info *info, struct error *err)
{
	memset(info, 0, sizeof(*info));
	info->mtime = -1;
	enum status st = http_session_prepare(s, url, err);
	if (st != STATUS_OK)
		return st;
	CURL *c = s->curl;
	unsigned char byte[1];
	s->buf = byte;
	s->buf_len = sizeof(byte);
	s->buf_got = 0;
	s->overflow = s->ignored_range = s->cut_off = false;
	CURLcode rc = CURLE_OK;
	if (is_http(s)) {
		rc = curl_easy_setopt(c, CURLOPT_RANGE, "0-0");
		if (rc == CURLE_OK)
			rc = curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	} else {
		rc = curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
	}
	if (rc == CURLE_OK)
		rc = curl_easy_perform(c);
	long code = http_session_status(s);
	info->http_status = code;
	if (rc == CURLE_WRITE_ERROR && s->cut_off)
		rc = CURLE_OK;
	if (code == 416 && rc == CURLE_OK) {
		/* An empty file: "bytes * /0". */
		info->ranges = true;
		info->size_known = content_range_total(
			http_session_header(s, "Content-Range"), &info->size);
		goto validators;
	}
	st = http_session_result(s, url, rc, err);
	if (st != STATUS_OK)
		goto out;
	if (is_http(s) && code == 206) {
		info->ranges = true;
		info->size_known = content_range_total(
			http_session_header(s, "Content-Range"), &info->size);
	} else {
		curl_off_t len = -1;
		curl_easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &len);
		if (len >= 0) {
			info->size = (uint64_t)len;
			info->size_known = true;
		}
		/* libcurl does ranges itself for these. */
		info->ranges = s->scheme == HTTP_SCHEME_FILE ||
			       s->scheme == HTTP_SCHEME_SFTP;
	}
validators:
	if (http_session_header(s, "ETag"))
		info->etag = strdup(http_session_header(s, "ETag"));
	if (http_session_header(s, "Last-Modified"))
		info->last_modified =
			strdup(http_session_header(s, "Last-Modified"));
	curl_off_t ft = -1;
	if (curl_easy_getinfo(c, CURLINFO_FILETIME_T, &ft) == CURLE_OK &&
	    ft >= 0)
		info->mtime = (int64_t)ft;
	const char *eff = NULL;
	if (curl_easy_getinfo(c, CURLINFO_EFFECTIVE_URL, &eff) == CURLE_OK &&
	    eff)
		info->effective_url = strdup(eff);
	st = STATUS_OK;
out:
	s->buf = NULL;
	s->buf_len = s->buf_got = 0;
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

enum status http_get_range(struct http_session *s, const char *url,
			   uint64_t offset, size_t len, void *buf,
			   size_t *got, const char *validator,
			   struct error *err)
{
	*got = 0;
	struct curl_slist *headers = NULL;
	if (len == 0)
		return STATUS_OK;
	if (offset > UINT64_MAX - len)
		return error_set(err, STATUS_USAGE, url, "range overflows");
	enum status st = http_session_prepare(s, url, err);
	if (st != STATUS_OK)
		return st;
	CURL *c = s->curl;
	char range[64];
	snprintf(range, sizeof(range), "%" PRIu64 "-%" PRIu64, offset,
		 offset + len - 1);
	s->buf = buf;
	s->buf_len = len;
	s->buf_got = 0;
	s->overflow = s->ignored_range = s->cut_off = false;
	if (s->range_progress_name)
		http_session_set_progress(s, s->range_progress_name, 0, len);
	/* the range only if the file is still the one the blocks are of:
	 * a changed file comes back whole (200), told apart below */
	bool if_range = is_http(s) && if_range_ok(validator);
	char *line = NULL;
	if (if_range && asprintf(&line, "If-Range: %s", validator) >= 0) {
		headers = curl_slist_append(NULL, line);
		free(line);
	}
	CURLcode rc = curl_easy_setopt(c, CURLOPT_RANGE, range);
	if (rc == CURLE_OK && headers)
		rc = curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	if (rc == CURLE_OK)
		rc = curl_easy_perform(c);
	if (s->range_progress_name)
		http_session_progress_done(s, s->buf_got);
	char *r = NULL;
	if (s->ignored_range) {
		r = http_url_redact(url);
		st = headers ? error_set(err, STATUS_IO, r ? r : "URL",
					 "changed on the server (the whole "
					 "file came back to If-Range %s)",
					 validator)
			     : error_set(err, STATUS_UNSUPPORTED,
					 r ? r : "URL",
					 "the server ignores range requests");
		goto out;
	}
	long code = http_session_status(s);
	st = http_session_result(s, url, rc, err);
	if (st != STATUS_OK)
		goto out;
	if (is_http(s)) {
		uint64_t start = 0;
		if (code != 206 ||
		    !http_content_range_start(http_session_header(s, "Content-Range"),
					 &start) ||
		    start != offset) {
			r = http_url_redact(url);
			st = error_set(err, STATUS_IO, r ? r : "URL",
				       "bad answer to a range request (HTTP "
				       "%ld, Content-Range %s)",
				       code,
				       http_session_header(s, "Content-Range")
					       ? http_session_header(
							 s, "Content-Range")
					       : "missing");
			goto out;
		}
		/* a server that ignores If-Range: the ETag tells, or, for a
		 * date, the Last-Modified it sends along */
		const char *tag = http_session_header(s, "ETag");
		const char *date = http_session_header(s, "Last-Modified");
		bool is_etag = validator && (validator[0] == '"' ||
					     strncmp(validator, "W/", 2) == 0);
		if (is_etag && (!tag || strcmp(tag, validator) != 0)) {
			r = http_url_redact(url);
			st = error_set(err, STATUS_IO, r ? r : "URL",
				       "changed on the server (ETag %s, was "
				       "%s)",
				       tag ? tag : "missing", validator);
			goto out;
		}
		if (validator && !is_etag && date &&
		    strcmp(date, validator) != 0) {
			r = http_url_redact(url);
			st = error_set(err, STATUS_IO, r ? r : "URL",
				       "changed on the server (Last-Modified "
				       "%s, was %s)",
				       date, validator);
			goto out;
		}
	}
	*got = s->buf_got;
out:
	curl_slist_free_all(headers);
	free(r);
	s->buf = NULL;
	s->buf_len = s->buf_got = 0;
	return st;
}

struct memory_sink {
	char *buf;
	size_t len;
	size_t cap;
	size_t max;
	bool too_big;
};

static size_t on_memory(char *data, size_t size, size_t nmemb, void *ctx)
{
	struct memory_sink *m = ctx;
	size_t n = size * nmemb;
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
	CURL *c = s->curl;
	CURLcode rc = curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_memory);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_WRITEDATA, &m);
	if (rc == CURLE_OK)
		rc = curl_easy_perform(c);
	if (m.too_big) {
		char *r = http_url_redact(url);
		st = error_set(err, STATUS_LIMIT, r ? r : "URL",
			       "larger than %zu bytes", max);
		free(r);
	} else {
		st = http_session_result(s, url, rc, err);
	}
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
