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
