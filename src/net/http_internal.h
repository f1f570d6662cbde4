/* http_internal: what the files of http share and nobody else sees: the
 * session (one libcurl easy handle and what the last response said), the
 * scheme names, the ssh part of a request's set-up.  Private to net/ (the
 * http_*.c files); the only header of src/ that includes libcurl's. */
#ifndef CALLSCOPE_HTTP_INTERNAL_H
#define CALLSCOPE_HTTP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>

#include "net/http.h"

/* The flags the project reads URLs with through libcurl's URL API: our
 * schemes may be missing from the linked libcurl (sftp, scp), a path is
 * kept as written ("/~/db/../x" is the server's business), a space is
 * taken as the user wrote it. */
#define HTTP_CURLU_FLAGS \
	(CURLU_NON_SUPPORT_SCHEME | CURLU_PATH_AS_IS | CURLU_ALLOW_SPACE)

struct http_session {
	CURL *curl;
	CURLcode rc;       /* the last transfer's (or set-up's) outcome */
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
	/* The caller's body sink (http_session_perform). */
	http_body_fn body;
	void *body_ctx;
	/* Body sinks (probe, range). */
	unsigned char *buf;
	size_t buf_len;
	size_t buf_got;
	bool overflow;       /* the server sent more than asked */
	bool ignored_range;  /* 200 to a range request: cut off */
	bool cut_off;        /* we stopped the body on purpose */
};

/* The name of one of our schemes ("http", ...); NULL for the others. */
const char *http_scheme_name(enum http_scheme sc);

/* The ssh settings of a sftp:// or scp:// transfer (after the common ones
 * of http_session_prepare). */
enum status http_ssh_prepare(struct http_session *s, const char *url,
			     struct error *err);

/* Set option `opt` of the handle `c` while `rc` is still CURLE_OK. */
#define HTTP_SET(opt, val)                                              \
	do {                                                            \
		if (rc == CURLE_OK)                                     \
			rc = curl_easy_setopt(c, opt, val);             \
	} while (0)

#endif
