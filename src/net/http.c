/* http: libcurl easy handles configured by the project's transfer rules,
 * libcurl results turned into one-line errors, a probe and a range read.
 * Every transfer of the program goes through here.  Must not print, exit,
 * or depend on curses or ui/. */
#include "config.h"

#include "net/http.h"

#include "core/clock.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pwd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define USER_AGENT "callscope/" PACKAGE_VERSION
/* A response with more headers than this is cut off (hostile servers). */
#define MAX_HEADERS 200
#define MAX_HEADER_BYTES (256u << 10)

struct http_session {
	CURL *curl;
	struct open_options opts;
	char errbuf[CURL_ERROR_SIZE];
	/* Headers of the last response ("Name: value", trimmed), reset at
	 * each status line so that redirects and 100-continue do not mix. */
	char **headers;
	size_t n_headers;
	size_t header_bytes;
	char *reason;      /* reason phrase of the last status line */
	long status_line;  /* status from the last status line */
	enum http_scheme scheme;
	bool cancelled;
	/* Progress. */
	char *progress_name;
	char *progress_url;
	char *range_progress_name; /* http_session_report_ranges() */
	uint64_t resumed;
	uint64_t total;
	bool progress_on;
	double last_report;
	/* Body sinks (probe, range). */
	unsigned char *buf;
	size_t buf_len;
	size_t buf_got;
	bool overflow;       /* the server sent more than asked */
	bool ignored_range;  /* 200 to a range request: cut off */
	bool cut_off;        /* we stopped the body on purpose */
};

static const struct {
	const char *name;
	enum http_scheme scheme;
} schemes[] = {
	{ "http", HTTP_SCHEME_HTTP },   { "https", HTTP_SCHEME_HTTPS },
	{ "file", HTTP_SCHEME_FILE },   { "sftp", HTTP_SCHEME_SFTP },
	{ "scp", HTTP_SCHEME_SCP },
};

/* Length of the "scheme" in "scheme://", 0 when there is none. */
static size_t scheme_len(const char *s)
{
	if (!s || !isalpha((unsigned char)s[0]))
		return 0;
	size_t i = 1;
	while (isalnum((unsigned char)s[i]) || s[i] == '+' || s[i] == '-' ||
	       s[i] == '.')
		i++;
	return strncmp(s + i, "://", 3) == 0 ? i : 0;
}

enum http_scheme http_url_scheme(const char *s)
{
	size_t n = scheme_len(s);
	if (n == 0)
		return HTTP_SCHEME_NONE;
	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++)
		if (strlen(schemes[i].name) == n &&
		    strncasecmp(s, schemes[i].name, n) == 0)
			return schemes[i].scheme;
	return HTTP_SCHEME_OTHER;
}

bool http_is_url(const char *s)
{
	return scheme_len(s) > 0;
}

static const char *scheme_name(enum http_scheme sc)
{
	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++)
		if (schemes[i].scheme == sc)
			return schemes[i].name;
	return NULL;
}

static bool curl_speaks(const char *name)
{
	const curl_version_info_data *v = curl_version_info(CURLVERSION_NOW);
	for (const char *const *p = v ? v->protocols : NULL; p && *p; p++)
		if (strcasecmp(*p, name) == 0)
			return true;
	return false;
}

/* The URL without what precedes the last '@' of its authority: for a URL
 * libcurl refuses ("u:p@ss@h", an unescaped '@' in the password), which
 * must not show its password in the message about it either. */
static char *redact_unparsed(const char *url, size_t n)
{
	const char *auth = url + n + 3;
	size_t alen = strcspn(auth, "/?#");
	const char *at = NULL;
	for (const char *p = auth; p < auth + alen; p++)
		if (*p == '@')
			at = p;
	if (!at)
		return strdup(url);
	size_t head = (size_t)(auth - url);
	size_t tail = strlen(at + 1);
	char *out = malloc(head + tail + 1);
	if (!out)
		return NULL;
	memcpy(out, url, head);
	memcpy(out + head, at + 1, tail + 1);
	return out;
}

char *http_url_redact(const char *url)
{
	char *out = NULL, *user = NULL, *password = NULL, *options = NULL;
	char *clean = NULL;
	if (!url)
		return NULL;
	size_t n = scheme_len(url);
	if (n == 0)
		return strdup(url);
	CURLU *u = curl_url();
	if (!u)
		return NULL;
	CURLUcode rc = curl_url_set(u, CURLUPART_URL, url, HTTP_CURLU_FLAGS);
	if (rc == CURLUE_OUT_OF_MEMORY)
		goto out;
	if (rc != CURLUE_OK) {
		out = redact_unparsed(url, n);
		goto out;
	}
	bool has_user = curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK;
	bool has_password = curl_url_get(u, CURLUPART_PASSWORD, &password,
					 0) == CURLUE_OK;
	bool has_options = curl_url_get(u, CURLUPART_OPTIONS, &options, 0) ==
			   CURLUE_OK;
	if (!has_user && !has_password && !has_options) {
		/* nothing to hide: the URL as the user wrote it */
		out = strdup(url);
		goto out;
	}
	if (curl_url_set(u, CURLUPART_USER, NULL, 0) == CURLUE_OK &&
	    curl_url_set(u, CURLUPART_PASSWORD, NULL, 0) == CURLUE_OK &&
	    curl_url_set(u, CURLUPART_OPTIONS, NULL, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_URL, &clean, 0) == CURLUE_OK)
		out = strdup(clean);
out:
	curl_free(user);
	curl_free(password);
	curl_free(options);
	curl_free(clean);
	curl_url_cleanup(u);
	return out;
}

enum status http_url_child(const char *dir_url, const char *rel, char **out,
			   struct error *err)
{
	CURLU *u = NULL;
	char *spelled = NULL, *full = NULL;
	size_t used = 0, cap = 0;
	enum status st = STATUS_OK;
	*out = NULL;
	u = curl_url();
	if (!u) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	CURLUcode rc = curl_url_set(u, CURLUPART_URL, dir_url, HTTP_CURLU_FLAGS);
	if (rc != CURLUE_OK) {
		char *r = http_url_redact(dir_url);
		st = error_set(err, rc == CURLUE_OUT_OF_MEMORY ? STATUS_NOMEM
							      : STATUS_USAGE,
			       r ? r : "URL", "malformed URL (%s)",
			       curl_url_strerror(rc));
		free(r);
		goto out;
	}
	/* escaped, a first segment with a ':' ("a%3Ab") is no scheme */
	cap = 1 + 3 * strlen(rel);
	spelled = malloc(cap);
	if (!spelled) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	for (const char *seg = rel; *seg;) {
		size_t len = strcspn(seg, "/");
		if (len > INT_MAX / 4) {
			st = error_set(err, STATUS_LIMIT, NULL,
				       "name too long for a URL");
			goto out;
		}
		char *esc = len > 0 ? curl_easy_escape(NULL, seg, (int)len)
				    : NULL;
		if (len > 0 && !esc) {
			st = error_set(err, STATUS_NOMEM, NULL,
				       "out of memory");
			goto out;
		}
		size_t el = esc ? strlen(esc) : 0;
		memcpy(spelled + used, esc ? esc : "", el);
		used += el;
		curl_free(esc);
		seg += len;
		if (*seg == '/') {
			spelled[used++] = '/';
			seg++;
		}
	}
	spelled[used] = '\0';
	rc = curl_url_set(u, CURLUPART_URL, spelled, HTTP_CURLU_FLAGS);
	if (rc == CURLUE_OK)
		rc = curl_url_get(u, CURLUPART_URL, &full, 0);
	if (rc != CURLUE_OK) {
		char *r = http_url_redact(dir_url);
		st = error_set(err, rc == CURLUE_OUT_OF_MEMORY ? STATUS_NOMEM
							      : STATUS_USAGE,
			       r ? r : "URL", "cannot name %s below it (%s)",
			       rel, curl_url_strerror(rc));
		free(r);
		goto out;
	}
	*out = strdup(full);
	if (!*out)
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
out:
	curl_free(full);
	free(spelled);
	curl_url_cleanup(u);
	return st;
}

enum status http_check_url(const char *url, struct error *err)
{
	enum http_scheme sc = http_url_scheme(url);
	if (sc == HTTP_SCHEME_NONE)
		return error_set(err, STATUS_USAGE, url, "not a URL");
	if (sc == HTTP_SCHEME_OTHER) {
		char *r = http_url_redact(url);
		error_set(err, STATUS_UNSUPPORTED, r ? r : "URL",
			  "unsupported URL scheme (callscope opens http, "
			  "https, file, sftp and scp URLs)");
		free(r);
		return STATUS_UNSUPPORTED;
	}
	const char *name = scheme_name(sc);
	if (!curl_speaks(name)) {
		char *r = http_url_redact(url);
		error_set(err, STATUS_UNSUPPORTED, r ? r : "URL",
			  "this libcurl does not support %s:// URLs", name);
		free(r);
		return STATUS_UNSUPPORTED;
	}
	const char *rest = url + scheme_len(url) + 3;
	if (sc != HTTP_SCHEME_FILE && (*rest == '\0' || *rest == '/'))
		return error_set(err, STATUS_USAGE, url, "no host in URL");
	return STATUS_OK;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static CURLcode init_rc = CURLE_FAILED_INIT;

static void global_init(void)
{
	init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

enum status http_global_init(struct error *err)
{
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
	free(s->headers);
	s->headers = NULL;
	s->n_headers = 0;
	s->header_bytes = 0;
	free(s->reason);
	s->reason = NULL;
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

CURL *http_session_curl(struct http_session *s)
{
	return s ? s->curl : NULL;
}

bool http_session_cancelled(const struct http_session *s)
{
	return s && s->cancelled;
}

#define SET(opt, val)                                                   \
	do {                                                            \
		if (rc == CURLE_OK)                                     \
			rc = curl_easy_setopt(c, opt, val);             \
	} while (0)

/* $HOME/REL (heap); NULL without a usable HOME or memory. */
static char *home_file(const char *rel)
{
	const char *home = getenv("HOME");
	char *p = NULL;
	if (!home || home[0] != '/' || asprintf(&p, "%s/%s", home, rel) < 0)
		return NULL;
	return p;
}

static bool is_file(const char *path)
{
	struct stat sb;
	return path && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The ssh key libcurl is to offer (after the agent's): the first of
 * ~/.ssh/id_ed25519, id_ecdsa, id_rsa that exists (libcurl itself only
 * looks for id_rsa and id_dsa, and the libssh2 of Debian 12 signs with
 * RSA-SHA1 only, which OpenSSH 8.8 and later refuse).  NULL: none. */
static char *ssh_key_path(void)
{
	static const char *const names[] = {".ssh/id_ed25519", ".ssh/id_ecdsa",
					    ".ssh/id_rsa", NULL};
	for (size_t i = 0; names[i]; i++) {
		char *p = home_file(names[i]);
		if (is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

/* Whether `url` names a user ("sftp://user@host/..."). */
static bool url_has_user(const char *url)
{
	CURLU *h = curl_url();
	char *user = NULL;
	bool has = h && curl_url_set(h, CURLUPART_URL, url, 0) == CURLUE_OK &&
		   curl_url_get(h, CURLUPART_USER, &user, 0) == CURLUE_OK &&
		   user && *user;
	curl_free(user);
	curl_url_cleanup(h);
	return has;
}

/* The login name of the process's user, as ssh takes it (heap); NULL
 * when there is none. */
static char *login_name(void)
{
	long hint = sysconf(_SC_GETPW_R_SIZE_MAX);
	size_t cap = hint > 0 ? (size_t)hint : 1024;
	char *buf = NULL, *name = NULL;
	struct passwd pw, *res = NULL;
	for (int tries = 0; tries < 8; tries++, cap *= 2) {
		char *grown = realloc(buf, cap);
		if (!grown)
			break;
		buf = grown;
		int e = getpwuid_r(getuid(), &pw, buf, cap, &res);
		if (e != ERANGE)
			break;
	}
	if (res && res->pw_name && *res->pw_name)
		name = strdup(res->pw_name);
	free(buf);
	return name;
}

/* The ssh settings of a sftp:// or scp:// transfer: the agent and a key
 * file, the host checked against ~/.ssh/known_hosts (its absence is an
 * error unless --insecure), the login name when the URL names no user. */
static enum status ssh_prepare(struct http_session *s, const char *url,
			       struct error *err)
{
	CURL *c = s->curl;
	CURLcode rc = CURLE_OK;
	enum status st = STATUS_OK;
	char *known = NULL, *key = NULL, *pub = NULL, *user = NULL;
	SET(CURLOPT_SSH_AUTH_TYPES,
	    (long)(CURLSSH_AUTH_AGENT | CURLSSH_AUTH_PUBLICKEY));
	if (!s->opts.insecure) {
		known = home_file(".ssh/known_hosts");
		if (!is_file(known)) {
			char *r = http_url_redact(url);
			st = error_set(err, STATUS_IO, r ? r : "URL",
				       "no ~/.ssh/known_hosts to check the "
				       "host key against; --insecure skips "
				       "the check");
			free(r);
			goto out;
		}
		SET(CURLOPT_SSH_KNOWNHOSTS, known);
	}
	key = ssh_key_path();
	if (key) {
		/* "" lets libssh2 derive the public key from the private */
		if (asprintf(&pub, "%s.pub", key) < 0)
			pub = NULL;
		SET(CURLOPT_SSH_PRIVATE_KEYFILE, key);
		SET(CURLOPT_SSH_PUBLIC_KEYFILE, is_file(pub) ? pub : "");
	}
	if (!url_has_user(url) && (user = login_name()))
		SET(CURLOPT_USERNAME, user);
	if (rc != CURLE_OK) {
		char *r = http_url_redact(url);
		st = error_set(err, STATUS_IO, r ? r : "URL",
			       "cannot set up the transfer: %s",
			       curl_easy_strerror(rc));
		free(r);
	}
out:
	free(known);
	free(key);
	free(pub);
	free(user);
	return st;
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
	s->progress_on = false;
	s->resumed = 0;
	s->total = 0;
	free(s->progress_name);
	s->progress_name = NULL;
	free(s->progress_url);
	s->progress_url = http_url_redact(url);
	s->errbuf[0] = '\0';
	const char *proto = scheme_name(s->scheme);
	const struct open_options *o = &s->opts;
	CURLcode rc = CURLE_OK;
	SET(CURLOPT_URL, url);
	SET(CURLOPT_PROTOCOLS_STR, proto);
	SET(CURLOPT_REDIR_PROTOCOLS_STR, proto);
	SET(CURLOPT_FOLLOWLOCATION, 1L);
	SET(CURLOPT_MAXREDIRS, (long)OPEN_OPTIONS_MAX_REDIRECTS);
	SET(CURLOPT_ERRORBUFFER, s->errbuf);
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_USERAGENT, USER_AGENT);
	SET(CURLOPT_CONNECTTIMEOUT, o->connect_timeout_s > 0
					    ? o->connect_timeout_s
					    : (long)OPEN_OPTIONS_CONNECT_TIMEOUT_S);
	SET(CURLOPT_LOW_SPEED_LIMIT, o->stall_limit > 0
					     ? o->stall_limit
					     : (long)OPEN_OPTIONS_STALL_LIMIT);
	SET(CURLOPT_LOW_SPEED_TIME, o->stall_time_s > 0
					    ? o->stall_time_s
					    : (long)OPEN_OPTIONS_STALL_TIME_S);
	SET(CURLOPT_TCP_KEEPALIVE, 1L);
	SET(CURLOPT_SSL_VERIFYPEER, o->insecure ? 0L : 1L);
	SET(CURLOPT_SSL_VERIFYHOST, o->insecure ? 0L : 2L);
	SET(CURLOPT_NETRC, o->netrc ? (long)CURL_NETRC_OPTIONAL
				    : (long)CURL_NETRC_IGNORED);
	SET(CURLOPT_HEADERFUNCTION, on_header);
	SET(CURLOPT_HEADERDATA, s);
	SET(CURLOPT_WRITEFUNCTION, discard_body);
	SET(CURLOPT_WRITEDATA, s);
	SET(CURLOPT_NOPROGRESS, 0L);
	SET(CURLOPT_XFERINFOFUNCTION, on_xferinfo);
	SET(CURLOPT_XFERINFODATA, s);
	SET(CURLOPT_FILETIME, 1L);
	if (o->max_size > 0)
		SET(CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)o->max_size);
	if (rc != CURLE_OK) {
		char *r = http_url_redact(url);
		error_set(err, STATUS_IO, r ? r : "URL",
			  "cannot set up the transfer: %s",
			  curl_easy_strerror(rc));
		free(r);
		return STATUS_IO;
	}
	if (s->scheme == HTTP_SCHEME_SFTP || s->scheme == HTTP_SCHEME_SCP)
		return ssh_prepare(s, url, err);
	return STATUS_OK;
}

#undef SET

static const char *http_reason(long code)
{
	switch (code) {
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 410: return "Gone";
	case 416: return "Range Not Satisfiable";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	default: return "";
	}
}

static bool is_tls_verify(CURLcode rc)
{
	return rc == CURLE_PEER_FAILED_VERIFICATION ||
	       rc == CURLE_SSL_CACERT_BADFILE || rc == CURLE_SSL_PINNEDPUBKEYNOTMATCH ||
	       rc == CURLE_SSL_INVALIDCERTSTATUS || rc == CURLE_SSL_ISSUER_ERROR ||
	       rc == CURLE_SSL_CRL_BADFILE;
}

enum status http_session_result(struct http_session *s, const char *url,
				CURLcode rc, struct error *err)
{
	long code = http_session_status(s);
	if (rc == CURLE_OK && code < 400)
		return STATUS_OK;
	char *r = http_url_redact(url);
	const char *u = r ? r : "URL";
	const char *detail = s->errbuf[0] ? s->errbuf : curl_easy_strerror(rc);
	const struct open_options *o = &s->opts;
	long stall_time = o->stall_time_s > 0 ? o->stall_time_s
					      : (long)OPEN_OPTIONS_STALL_TIME_S;
	long stall_limit = o->stall_limit > 0 ? o->stall_limit
					      : (long)OPEN_OPTIONS_STALL_LIMIT;
	long connect = o->connect_timeout_s > 0
			       ? o->connect_timeout_s
			       : (long)OPEN_OPTIONS_CONNECT_TIMEOUT_S;
	enum status st = STATUS_IO;
	if (rc == CURLE_OK || (rc == CURLE_WRITE_ERROR && code >= 400)) {
		const char *reason = s->reason && *s->reason ? s->reason
							     : http_reason(code);
		st = (code == 404 || code == 410) ? STATUS_NOT_FOUND : STATUS_IO;
		error_set(err, st, u, "HTTP %ld%s%s", code, *reason ? " " : "",
			  reason);
		goto out;
	}
	curl_off_t got = 0, expect = -1, connect_us = 0;
	switch (rc) {
	case CURLE_ABORTED_BY_CALLBACK:
		error_set(err, st, u, "cancelled");
		break;
	case CURLE_COULDNT_RESOLVE_HOST:
		error_set(err, st, u, "cannot resolve host (%s)", detail);
		break;
	case CURLE_COULDNT_RESOLVE_PROXY:
		error_set(err, st, u, "cannot resolve proxy (%s)", detail);
		break;
	case CURLE_COULDNT_CONNECT:
		error_set(err, st, u, "cannot connect (%s)", detail);
		break;
	case CURLE_OPERATION_TIMEDOUT:
		/* a reused connection has no connect time: the request was
		 * sent (pretransfer) once connected */
		curl_easy_getinfo(s->curl, CURLINFO_PRETRANSFER_TIME_T,
				  &connect_us);
		if (connect_us == 0 && s->status_line == 0 &&
		    s->scheme != HTTP_SCHEME_FILE)
			error_set(err, st, u,
				  "connection timed out after %ld s", connect);
		else
			error_set(err, st, u,
				  "transfer stalled (under %ld byte%s/s for "
				  "%ld s)",
				  stall_limit, stall_limit == 1 ? "" : "s",
				  stall_time);
		break;
	case CURLE_PARTIAL_FILE:
		curl_easy_getinfo(s->curl, CURLINFO_SIZE_DOWNLOAD_T, &got);
		curl_easy_getinfo(s->curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T,
				  &expect);
		if (expect >= 0)
			error_set(err, st, u,
				  "transfer ended early (received %" PRId64
				  " of %" PRId64 " bytes)",
				  (int64_t)got, (int64_t)expect);
		else
			error_set(err, st, u, "transfer ended early (%s)",
				  detail);
		break;
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_SEND_ERROR:
		error_set(err, st, u, "connection lost (%s)", detail);
		break;
	case CURLE_TOO_MANY_REDIRECTS:
		error_set(err, st, u, "more than %d redirects",
			  OPEN_OPTIONS_MAX_REDIRECTS);
		break;
	case CURLE_UNSUPPORTED_PROTOCOL: {
		const char *loc = http_session_header(s, "Location");
		if (code >= 300 && code < 400) {
			char *rl = loc ? http_url_redact(loc) : NULL;
			error_set(err, st, u,
				  "redirect to another scheme refused (%s)",
				  rl ? rl : detail);
			free(rl);
		} else {
			error_set(err, STATUS_UNSUPPORTED, u, "%s", detail);
			st = STATUS_UNSUPPORTED;
		}
		break;
	}
	case CURLE_FILESIZE_EXCEEDED:
		st = STATUS_LIMIT;
		error_set(err, st, u, "larger than --max-size %" PRIu64 " bytes",
			  o->max_size);
		break;
	case CURLE_SSL_CONNECT_ERROR:
		error_set(err, st, u, "TLS handshake failed (%s)", detail);
		break;
	case CURLE_FILE_COULDNT_READ_FILE:
	case CURLE_REMOTE_FILE_NOT_FOUND:
		st = STATUS_NOT_FOUND;
		error_set(err, st, u, "no such file (%s)", detail);
		break;
	case CURLE_REMOTE_ACCESS_DENIED:
	case CURLE_LOGIN_DENIED:
		error_set(err, st, u, "access denied (%s)", detail);
		break;
	case CURLE_WRITE_ERROR:
		if (s->overflow)
			error_set(err, st, u,
				  "the server sent more than was asked");
		else
			error_set(err, st, u, "cannot store the data (%s)",
				  detail);
		break;
	default:
		if (rc == CURLE_PEER_FAILED_VERIFICATION &&
		    (s->scheme == HTTP_SCHEME_SFTP ||
		     s->scheme == HTTP_SCHEME_SCP))
			error_set(err, st, u,
				  "host key not accepted (%s): the host is "
				  "not in ~/.ssh/known_hosts or its key "
				  "changed; --insecure skips the check",
				  detail);
		else if (is_tls_verify(rc))
			error_set(err, st, u,
				  "TLS certificate verification failed (%s); "
				  "--insecure skips the check",
				  detail);
		else
			error_set(err, st, u, "%s", detail);
		break;
	}
out:
	free(r);
	return st;
}

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
