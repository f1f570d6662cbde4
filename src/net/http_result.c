/* http_result: a transfer's outcome as one line naming the URL: the HTTP
 * status with its reason, or what libcurl said in the project's words
 * ("cannot resolve host", "connection timed out after 10 s", "TLS
 * certificate verification failed (...); --insecure skips the check").
 * Must not print, exit, or depend on curses or ui/. */
#include "config.h"

#include "net/http_internal.h"

#include <inttypes.h>
#include <stdlib.h>

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

/* libcurl failures said as "WHAT (libcurl's detail)". */
static const struct {
	CURLcode rc;
	enum status st;
	const char *what;
} plain_errors[] = {
	{ CURLE_COULDNT_RESOLVE_HOST, STATUS_IO, "cannot resolve host" },
	{ CURLE_COULDNT_RESOLVE_PROXY, STATUS_IO, "cannot resolve proxy" },
	{ CURLE_COULDNT_CONNECT, STATUS_IO, "cannot connect" },
	{ CURLE_RECV_ERROR, STATUS_IO, "connection lost" },
	{ CURLE_GOT_NOTHING, STATUS_IO, "connection lost" },
	{ CURLE_SEND_ERROR, STATUS_IO, "connection lost" },
	{ CURLE_SSL_CONNECT_ERROR, STATUS_IO, "TLS handshake failed" },
	{ CURLE_FILE_COULDNT_READ_FILE, STATUS_NOT_FOUND, "no such file" },
	{ CURLE_REMOTE_FILE_NOT_FOUND, STATUS_NOT_FOUND, "no such file" },
	{ CURLE_REMOTE_ACCESS_DENIED, STATUS_IO, "access denied" },
	{ CURLE_LOGIN_DENIED, STATUS_IO, "access denied" },
};

static long option_or(long value, long fallback)
{
	return value > 0 ? value : fallback;
}

/* A timeout: of the connection when none was made (a reused connection
 * has no connect time: the request was sent, pretransfer, once
 * connected), else a stalled transfer. */
static void timeout_error(struct http_session *s, const char *u,
			  struct error *err)
{
	const struct open_options *o = &s->opts;
	long stall_time = option_or(o->stall_time_s, OPEN_OPTIONS_STALL_TIME_S);
	long stall_limit = option_or(o->stall_limit, OPEN_OPTIONS_STALL_LIMIT);
	long connect = option_or(o->connect_timeout_s,
				 OPEN_OPTIONS_CONNECT_TIMEOUT_S);
	curl_off_t connect_us = 0;
	curl_easy_getinfo(s->curl, CURLINFO_PRETRANSFER_TIME_T, &connect_us);
	if (connect_us == 0 && s->status_line == 0 &&
	    s->scheme != HTTP_SCHEME_FILE)
		error_set(err, STATUS_IO, u, "connection timed out after %ld s",
			  connect);
	else
		error_set(err, STATUS_IO, u,
			  "transfer stalled (under %ld byte%s/s for %ld s)",
			  stall_limit, stall_limit == 1 ? "" : "s", stall_time);
}

/* A body shorter than announced. */
static void partial_error(struct http_session *s, const char *u,
			  const char *detail, struct error *err)
{
	curl_off_t got = 0, expect = -1;
	curl_easy_getinfo(s->curl, CURLINFO_SIZE_DOWNLOAD_T, &got);
	curl_easy_getinfo(s->curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &expect);
	if (expect >= 0)
		error_set(err, STATUS_IO, u,
			  "transfer ended early (received %" PRId64 " of %" PRId64
			  " bytes)",
			  (int64_t)got, (int64_t)expect);
	else
		error_set(err, STATUS_IO, u, "transfer ended early (%s)", detail);
}

/* A redirect to a scheme we refused, or a scheme libcurl does not do. */
static enum status protocol_error(struct http_session *s, long code,
				  const char *u, const char *detail,
				  struct error *err)
{
	if (code < 300 || code >= 400)
		return error_set(err, STATUS_UNSUPPORTED, u, "%s", detail);
	const char *loc = http_session_header(s, "Location");
	char *rl = loc ? http_url_redact(loc) : NULL;
	error_set(err, STATUS_IO, u, "redirect to another scheme refused (%s)",
		  rl ? rl : detail);
	free(rl);
	return STATUS_IO;
}

/* What is left: a rejected host key or certificate, or libcurl's words. */
static void other_error(struct http_session *s, CURLcode rc, const char *u,
			const char *detail, struct error *err)
{
	if (rc == CURLE_PEER_FAILED_VERIFICATION &&
	    (s->scheme == HTTP_SCHEME_SFTP || s->scheme == HTTP_SCHEME_SCP))
		error_set(err, STATUS_IO, u,
			  "host key not accepted (%s): the host is not in "
			  "~/.ssh/known_hosts or its key changed; --insecure "
			  "skips the check",
			  detail);
	else if (is_tls_verify(rc))
		error_set(err, STATUS_IO, u,
			  "TLS certificate verification failed (%s); "
			  "--insecure skips the check",
			  detail);
	else
		error_set(err, STATUS_IO, u, "%s", detail);
}

/* The message of libcurl's failure `rc` (the status line was no error). */
static enum status transfer_error(struct http_session *s, CURLcode rc,
				  long code, const char *u, struct error *err)
{
	const char *detail = s->errbuf[0] ? s->errbuf : curl_easy_strerror(rc);
	for (size_t i = 0; i < sizeof(plain_errors) / sizeof(plain_errors[0]);
	     i++)
		if (plain_errors[i].rc == rc)
			return error_set(err, plain_errors[i].st, u, "%s (%s)",
					 plain_errors[i].what, detail);
	switch (rc) {
	case CURLE_ABORTED_BY_CALLBACK:
		return error_set(err, STATUS_IO, u, "cancelled");
	case CURLE_OPERATION_TIMEDOUT:
		timeout_error(s, u, err);
		return STATUS_IO;
	case CURLE_PARTIAL_FILE:
		partial_error(s, u, detail, err);
		return STATUS_IO;
	case CURLE_TOO_MANY_REDIRECTS:
		return error_set(err, STATUS_IO, u, "more than %d redirects",
				 OPEN_OPTIONS_MAX_REDIRECTS);
	case CURLE_UNSUPPORTED_PROTOCOL:
		return protocol_error(s, code, u, detail, err);
	case CURLE_FILESIZE_EXCEEDED:
		return error_set(err, STATUS_LIMIT, u,
				 "larger than --max-size %" PRIu64 " bytes",
				 s->opts.max_size);
	case CURLE_WRITE_ERROR:
		if (s->overflow)
			return error_set(err, STATUS_IO, u,
					 "the server sent more than was asked");
		return error_set(err, STATUS_IO, u,
				 "cannot store the data (%s)", detail);
	default:
		other_error(s, rc, u, detail, err);
		return STATUS_IO;
	}
}

enum status http_session_result(struct http_session *s, const char *url,
				struct error *err)
{
	long code = http_session_status(s);
	CURLcode rc = s->rc;
	if (rc == CURLE_OK && code < 400)
		return STATUS_OK;
	char *r = http_url_redact(url);
	const char *u = r ? r : "URL";
	enum status st;
	if (rc == CURLE_OK || (rc == CURLE_WRITE_ERROR && code >= 400)) {
		const char *reason = s->reason && *s->reason ? s->reason
							     : http_reason(code);
		st = (code == 404 || code == 410) ? STATUS_NOT_FOUND : STATUS_IO;
		error_set(err, st, u, "HTTP %ld%s%s", code, *reason ? " " : "",
			  reason);
	} else {
		st = transfer_error(s, rc, code, u, err);
	}
	free(r);
	return st;
}
