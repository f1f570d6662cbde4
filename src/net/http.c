/* http: the session: one libcurl easy handle, reset and configured by
 * the project's transfer rules before each request (schemes, same-scheme
 * redirects, timeouts, TLS, netrc, user agent, cancel and progress), the
 * response's status line and headers as they arrive.  The URL functions
 * are in http_url.c, the ssh set-up in http_ssh.c, the one-line errors in
 * http_result.c, the requests in http_get.c.  Must not print, exit, or
 * depend on curses or ui/. */
#include "config.h"

#include "net/http_internal.h"

#include "core/clock.h"
#include "core/lazylib.h"
#include "core/array.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define USER_AGENT "callscope/" PACKAGE_VERSION
/* A response with more headers than this is cut off (hostile servers). */
#define MAX_HEADERS 200
#define MAX_HEADER_BYTES (256u << 10)

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static CURLcode init_rc = CURLE_FAILED_INIT;

static void global_init(void)
{
	init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

enum status http_global_init(struct error *err)
{
	enum status need = lazylib_require(LAZYLIB_CURL, err);
	if (need != STATUS_OK)
		return need;
	pthread_once(&init_once, global_init);
	if (init_rc != CURLE_OK)
		return error_set(err, STATUS_IO, NULL,
				 "cannot initialise libcurl: %s",
				 curl_easy_strerror(init_rc));
	return STATUS_OK;
}

static void clear_headers(struct http_session *s)
{
	for (size_t i = 0; i < s->n_headers; i++)
		free(s->headers[i]);
	FREE_AND_NULL(s->headers);
	s->n_headers = 0;
	s->header_bytes = 0;
	FREE_AND_NULL(s->reason);
	s->status_line = 0;
}

/* A copy of [p, p+n) without surrounding blanks, controls made '?'. */
static char *dup_trimmed(const char *p, size_t n)
{
	while (n > 0 && isspace((unsigned char)*p)) {
		p++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)p[n - 1]))
		n--;
	char *out = malloc(n + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		out[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	out[n] = '\0';
	return out;
}

static size_t on_header(char *data, size_t size, size_t nmemb, void *ctx)
{
	struct http_session *s = ctx;
	size_t n = size * nmemb;
	if (n >= 5 && strncmp(data, "HTTP/", 5) == 0) {
		clear_headers(s);
		/* "HTTP/1.1 404 Not Found" */
		const char *sp = memchr(data, ' ', n);
		if (sp) {
			size_t rest = n - (size_t)(sp + 1 - data);
			const char *p = sp + 1;
			long code = 0;
			size_t i = 0;
			while (i < rest && i < 3 && isdigit((unsigned char)p[i]))
				code = code * 10 + (p[i++] - '0');
			s->status_line = code;
			s->reason = dup_trimmed(p + i, rest - i);
		}
		return n;
	}
	s->header_bytes += n;
	if (s->header_bytes > MAX_HEADER_BYTES || s->n_headers >= MAX_HEADERS)
		return n; /* ignore the excess, keep the transfer going */
	const char *colon = memchr(data, ':', n);
	if (!colon)
		return n;
	char *line = dup_trimmed(data, n);
	if (!line)
		return 0;
	char **grown = realloc(s->headers,
			       (s->n_headers + 1) * sizeof(*s->headers));
	if (!grown) {
		free(line);
		return 0;
	}
	s->headers = grown;
	s->headers[s->n_headers++] = line;
	return n;
}

const char *http_session_header(struct http_session *s, const char *name)
{
	size_t nlen = name ? strlen(name) : 0;
	if (!s || nlen == 0)
		return NULL;
	/* The last one wins (a repeated header). */
	for (size_t i = s->n_headers; i-- > 0;) {
		const char *h = s->headers[i];
		if (strncasecmp(h, name, nlen) == 0 && h[nlen] == ':') {
			const char *v = h + nlen + 1;
			while (*v == ' ' || *v == '\t')
				v++;
			return v;
		}
	}
	return NULL;
}

long http_session_status(struct http_session *s)
{
	long code = 0;
	if (!s || !s->curl)
		return 0;
	if (s->scheme != HTTP_SCHEME_HTTP && s->scheme != HTTP_SCHEME_HTTPS)
		return 0;
	curl_easy_getinfo(s->curl, CURLINFO_RESPONSE_CODE, &code);
	return code;
}

static int on_xferinfo(void *ctx, curl_off_t dltotal, curl_off_t dlnow,
		       curl_off_t ultotal, curl_off_t ulnow)
{
	struct http_session *s = ctx;
	if (open_options_cancelled(&s->opts)) {
		s->cancelled = true;
		return 1;
	}
	if (!s->progress_on || !s->opts.progress)
		return 0;
	double t = clock_now();
	if (t - s->last_report < 0.2)
		return 0;
	s->last_report = t;
	uint64_t total = s->total;
	if (total == 0 && dltotal > 0)
		total = s->resumed + (uint64_t)dltotal;
	double start = 0;
	curl_easy_getinfo(s->curl, CURLINFO_TOTAL_TIME, &start);
	struct open_progress p = {
		.url = s->progress_url,
		.name = s->progress_name,
		.now = s->resumed + (uint64_t)(dlnow > 0 ? dlnow : 0),
		.total = total,
		.resumed = s->resumed,
		.seconds = start,
		.done = false,
	};
	s->opts.progress(s->opts.progress_ctx, &p);
	return 0;
}

void http_session_set_progress(struct http_session *s, const char *name,
			       uint64_t resumed, uint64_t total)
{
	free(s->progress_name);
	s->progress_name = name ? strdup(name) : NULL;
	s->resumed = resumed;
	s->total = total;
	s->progress_on = true;
	s->last_report = 0;
}

void http_session_report_ranges(struct http_session *s, const char *name)
{
	free(s->range_progress_name);
	s->range_progress_name = name ? strdup(name) : NULL;
}

void http_session_progress_done(struct http_session *s, uint64_t now)
{
	if (!s->progress_on || !s->opts.progress)
		return;
	double t = 0;
	curl_easy_getinfo(s->curl, CURLINFO_TOTAL_TIME, &t);
	struct open_progress p = {
		.url = s->progress_url,
		.name = s->progress_name,
		.now = now,
		.total = now,
		.resumed = s->resumed,
		.seconds = t,
		.done = true,
	};
	s->opts.progress(s->opts.progress_ctx, &p);
}

enum status http_session_new(const struct open_options *o,
			     struct http_session **out, struct error *err)
{
	*out = NULL;
	enum status st = http_global_init(err);
	if (st != STATUS_OK)
		return st;
	struct http_session *s = calloc(1, sizeof(*s));
	if (!s)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	if (o)
		s->opts = *o;
	else
		open_options_init(&s->opts);
	s->opts.cache_dir = NULL; /* not ours to keep */
	s->curl = curl_easy_init();
	if (!s->curl) {
		free(s);
		return error_set(err, STATUS_NOMEM, NULL,
				 "cannot create a libcurl handle");
	}
	*out = s;
	return STATUS_OK;
}

void http_session_free(struct http_session *s)
{
	if (!s)
		return;
	if (s->curl)
		curl_easy_cleanup(s->curl);
	clear_headers(s);
	free(s->progress_name);
	free(s->progress_url);
	free(s->range_progress_name);
	free(s);
}

int64_t http_session_content_length(struct http_session *s)
{
	curl_off_t len = -1;
	if (!s || curl_easy_getinfo(s->curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T,
				    &len) != CURLE_OK)
		return -1;
	return len >= 0 ? (int64_t)len : -1;
}

const char *http_session_effective_url(struct http_session *s)
{
	const char *eff = NULL;
	if (!s || curl_easy_getinfo(s->curl, CURLINFO_EFFECTIVE_URL, &eff) !=
			  CURLE_OK)
		return NULL;
	return eff;
}

bool http_session_cancelled(const struct http_session *s)
{
	return s && s->cancelled;
}

static size_t discard_body(char *data, size_t size, size_t nmemb, void *ctx)
{
	(void)data;
	(void)ctx;
	return size * nmemb;
}

enum status http_session_prepare(struct http_session *s, const char *url,
				 struct error *err)
{
	enum status st = http_check_url(url, err);
	if (st != STATUS_OK)
		return st;
	CURL *c = s->curl;
	curl_easy_reset(c);
	clear_headers(s);
	s->scheme = http_url_scheme(url);
	s->cancelled = false;
	s->rc = CURLE_OK;
	s->body = NULL;
	s->body_ctx = NULL;
	s->progress_on = false;
	s->resumed = 0;
	s->total = 0;
	FREE_AND_NULL(s->progress_name);
	free(s->progress_url);
	s->progress_url = http_url_redact(url);
	s->errbuf[0] = '\0';
	const char *proto = http_scheme_name(s->scheme);
	const struct open_options *o = &s->opts;
	CURLcode rc = CURLE_OK;
	HTTP_SET(CURLOPT_URL, url);
	HTTP_SET(CURLOPT_PROTOCOLS_STR, proto);
	HTTP_SET(CURLOPT_REDIR_PROTOCOLS_STR, proto);
	HTTP_SET(CURLOPT_FOLLOWLOCATION, 1L);
	HTTP_SET(CURLOPT_MAXREDIRS, (long)OPEN_OPTIONS_MAX_REDIRECTS);
	HTTP_SET(CURLOPT_ERRORBUFFER, s->errbuf);
	HTTP_SET(CURLOPT_NOSIGNAL, 1L);
	HTTP_SET(CURLOPT_USERAGENT, USER_AGENT);
	HTTP_SET(CURLOPT_CONNECTTIMEOUT, o->connect_timeout_s > 0
					    ? o->connect_timeout_s
					    : (long)OPEN_OPTIONS_CONNECT_TIMEOUT_S);
	HTTP_SET(CURLOPT_LOW_SPEED_LIMIT, o->stall_limit > 0
					     ? o->stall_limit
					     : (long)OPEN_OPTIONS_STALL_LIMIT);
	HTTP_SET(CURLOPT_LOW_SPEED_TIME, o->stall_time_s > 0
					    ? o->stall_time_s
					    : (long)OPEN_OPTIONS_STALL_TIME_S);
	HTTP_SET(CURLOPT_TCP_KEEPALIVE, 1L);
	HTTP_SET(CURLOPT_SSL_VERIFYPEER, o->insecure ? 0L : 1L);
	HTTP_SET(CURLOPT_SSL_VERIFYHOST, o->insecure ? 0L : 2L);
	HTTP_SET(CURLOPT_NETRC, o->netrc ? (long)CURL_NETRC_OPTIONAL
				    : (long)CURL_NETRC_IGNORED);
	HTTP_SET(CURLOPT_HEADERFUNCTION, on_header);
	HTTP_SET(CURLOPT_HEADERDATA, s);
	HTTP_SET(CURLOPT_WRITEFUNCTION, discard_body);
	HTTP_SET(CURLOPT_WRITEDATA, s);
	HTTP_SET(CURLOPT_NOPROGRESS, 0L);
	HTTP_SET(CURLOPT_XFERINFOFUNCTION, on_xferinfo);
	HTTP_SET(CURLOPT_XFERINFODATA, s);
	HTTP_SET(CURLOPT_FILETIME, 1L);
	if (o->max_size > 0)
		HTTP_SET(CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)o->max_size);
	if (rc != CURLE_OK) {
		return http_url_error(err, STATUS_IO, url,
				      "cannot set up the transfer: %s",
				      curl_easy_strerror(rc));
	}
	if (s->scheme == HTTP_SCHEME_SFTP || s->scheme == HTTP_SCHEME_SCP)
		return http_ssh_prepare(s, url, err);
	return STATUS_OK;
}

/* The caller's body sink behind libcurl's write callback. */
static size_t on_caller_body(char *data, size_t size, size_t nmemb, void *ctx)
{
	struct http_session *s = ctx;
	return s->body(data, size * nmemb, s->body_ctx);
}

/* `list` with the line "NAME: VALUE" added (as it was when out of
 * memory); NULL `value`: no line. */
static struct curl_slist *add_header(struct curl_slist *list,
				     const char *name, const char *value)
{
	char *line = NULL;
	if (!value || asprintf(&line, "%s: %s", name, value) < 0)
		return list;
	struct curl_slist *grown = curl_slist_append(list, line);
	free(line);
	return grown ? grown : list;
}

bool http_session_perform(struct http_session *s,
			  const struct http_request *q)
{
	static const struct http_request plain = { 0 };
	if (!q)
		q = &plain;
	CURL *c = s->curl;
	struct curl_slist *headers = NULL;
	headers = add_header(headers, "If-Range", q->if_range);
	headers = add_header(headers, "If-None-Match", q->if_none_match);
	headers = add_header(headers, "If-Modified-Since",
			     q->if_modified_since);
	s->body = q->body;
	s->body_ctx = q->body_ctx;
	CURLcode rc = CURLE_OK;
	if (q->range)
		HTTP_SET(CURLOPT_RANGE, q->range);
	if (headers)
		HTTP_SET(CURLOPT_HTTPHEADER, headers);
	if (q->no_body)
		HTTP_SET(CURLOPT_NOBODY, 1L);
	if (q->body) {
		HTTP_SET(CURLOPT_WRITEFUNCTION, on_caller_body);
		HTTP_SET(CURLOPT_WRITEDATA, s);
	}
	if (q->buffer_size > 0)
		HTTP_SET(CURLOPT_BUFFERSIZE, q->buffer_size);
	if (rc == CURLE_OK)
		rc = curl_easy_perform(c);
	curl_slist_free_all(headers);
	s->rc = rc;
	return rc == CURLE_OK;
}
