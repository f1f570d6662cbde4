/* http_url: URLs as the project reads them: the scheme of a string, the
 * check that a URL has one of our schemes and that the linked libcurl
 * speaks it, a URL without its password (for messages and the cache), the
 * URL of a name below a directory URL.  All through libcurl's URL API
 * (CURLU), never by hand.  Must not print, exit, or depend on curses or
 * ui/. */
#include "config.h"

#include "net/http_internal.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/lazylib.h"

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

const char *http_scheme_name(enum http_scheme sc)
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

enum status http_url_error(struct error *err, enum status status,
			   const char *url, const char *fmt, ...)
{
	char *r = http_url_redact(url);
	va_list ap;
	va_start(ap, fmt);
	error_vset(err, status, r ? r : "URL", false, 0, fmt, ap);
	va_end(ap);
	free(r);
	return status;
}

/* A refusal of libcurl's URL API as a status. */
static enum status url_status(CURLUcode rc)
{
	return rc == CURLUE_OUT_OF_MEMORY ? STATUS_NOMEM : STATUS_USAGE;
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
		st = http_url_error(err, url_status(rc), dir_url,
				    "malformed URL (%s)", curl_url_strerror(rc));
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
		st = http_url_error(err, url_status(rc), dir_url,
				    "cannot name %s below it (%s)", rel,
				    curl_url_strerror(rc));
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

char *http_url_decode(const char *p, size_t n)
{
	int len = 0;
	char *d = n <= INT_MAX / 4 ? curl_easy_unescape(NULL, p, (int)n, &len)
				   : NULL;
	char *out = d && memchr(d, '\0', (size_t)len) == NULL ? strdup(d)
							      : NULL;
	curl_free(d);
	return out;
}

char *http_url_path(const char *url)
{
	char *path = NULL, *out = NULL;
	CURLU *u = curl_url();
	if (u && curl_url_set(u, CURLUPART_URL, url, HTTP_CURLU_FLAGS) ==
			 CURLUE_OK &&
	    curl_url_get(u, CURLUPART_PATH, &path, 0) == CURLUE_OK)
		out = strdup(path);
	curl_free(path);
	curl_url_cleanup(u);
	return out;
}

enum status http_check_url(const char *url, struct error *err)
{
	enum http_scheme sc = http_url_scheme(url);
	if (sc == HTTP_SCHEME_NONE)
		return error_set(err, STATUS_USAGE, url, "not a URL");
	enum status need = lazylib_require(LAZYLIB_CURL, err);
	if (need != STATUS_OK)
		return need;
	if (sc == HTTP_SCHEME_OTHER) {
		return http_url_error(err, STATUS_UNSUPPORTED, url,
				      "unsupported URL scheme (callscope opens "
				      "http, https, file, sftp and scp URLs)");
	}
	const char *name = http_scheme_name(sc);
	if (!curl_speaks(name)) {
		return http_url_error(err, STATUS_UNSUPPORTED, url,
				      "this libcurl does not support %s:// URLs",
				      name);
	}
	const char *rest = url + scheme_len(url) + 3;
	if (sc != HTTP_SCHEME_FILE && (*rest == '\0' || *rest == '/'))
		return error_set(err, STATUS_USAGE, url, "no host in URL");
	return STATUS_OK;
}
