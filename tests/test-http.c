/* Tests for http: URL checks and redaction, option defaults, and -- when
 * tests/test-http.sh runs this with $HTTP_TEST_BASE pointing at
 * tests/http_server.py and $HTTP_TEST_DIR at the directory it serves --
 * probes, range reads and the one-line errors, compared with the served
 * files read directly. */
#include "config.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "net/http.h"
#include "net/remote_open.h"

#include "case_tables.h"

static const char *base(void)
{
	const char *b = getenv("HTTP_TEST_BASE");
	return b && *b ? b : NULL;
}

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 1;
	char *out = malloc(n);
	assert_non_null(out);
	snprintf(out, n, "%s%s", a, b);
	return out;
}

/* The served file `name`, read directly. */
static unsigned char *slurp(const char *name, size_t *len)
{
	char *path = join(getenv("HTTP_TEST_DIR"), name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	free(path);
	*len = (size_t)n;
	return buf;
}

/* GET base + path (a control endpoint), body discarded. */
static void control(const char *path)
{
	struct http_session *s = NULL;
	struct error err = { 0 };
	char *url = join(base(), path);
	assert_int_equal(http_session_new(NULL, &s, &err), STATUS_OK);
	assert_int_equal(http_session_prepare(s, url, &err), STATUS_OK);
	http_session_perform(s, NULL);
	assert_int_equal(http_session_result(s, url, &err), STATUS_OK);
	http_session_free(s);
	free(url);
}

/* A session over the served file /a.bin (or, `file_url`, the same file
 * as a file:// URL): its bytes read directly, its URL, a probe of it that
 * found its size, range support and date.  False without a test server. */
struct served {
	unsigned char *want;
	size_t len;
	char *url;
	struct http_session *s;
	struct error err;
	struct http_info info;
};

static bool served_open(struct served *f, bool file_url)
{
	memset(f, 0, sizeof(*f));
	if (!base())
		return false;
	f->want = slurp("/a.bin", &f->len);
	char *dir = file_url ? join("file://", getenv("HTTP_TEST_DIR"))
			     : join(base(), "");
	f->url = join(dir, "/a.bin");
	free(dir);
	assert_int_equal(http_session_new(NULL, &f->s, &f->err), STATUS_OK);
	assert_int_equal(http_probe(f->s, f->url, &f->info, &f->err),
			 STATUS_OK);
	assert_true(f->info.size_known);
	assert_int_equal(f->info.size, f->len);
	assert_true(f->info.ranges);
	assert_true(f->info.mtime > 0);
	return true;
}

static void served_close(struct served *f)
{
	http_info_clear(&f->info);
	http_session_free(f->s);
	error_clear(&f->err);
	free(f->url);
	free(f->want);
}

/* Each row: URL's scheme is WANT (degenerate inputs first). */
static const struct {
	const char *url;
	enum http_scheme want;
} schemes[] = {
	{ NULL, HTTP_SCHEME_NONE },
	{ "", HTTP_SCHEME_NONE },
	{ "db/meta.db", HTTP_SCHEME_NONE },
	{ "/abs/path", HTTP_SCHEME_NONE },
	{ "C:/x", HTTP_SCHEME_NONE },
	{ "://x", HTTP_SCHEME_NONE },
	{ "http:/x", HTTP_SCHEME_NONE },
	{ "http://h/", HTTP_SCHEME_HTTP },
	{ "HTTPS://h/", HTTP_SCHEME_HTTPS },
	{ "file:///tmp", HTTP_SCHEME_FILE },
	{ "sftp://h/x", HTTP_SCHEME_SFTP },
	{ "scp://h/x", HTTP_SCHEME_SCP },
	{ "ftp://h/x", HTTP_SCHEME_OTHER },
	{ "httpx://h/x", HTTP_SCHEME_OTHER },
	{ "git+ssh://h/x", HTTP_SCHEME_OTHER },
};

/* Every row; each row that fails names itself, and the test fails when
 * any did. */
static void test_schemes(void **state)
{
	(void)state;
	size_t failed = 0;
	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++) {
		enum http_scheme got = http_url_scheme(schemes[i].url);
		if (got == schemes[i].want)
			continue;
		print_error("row %zu: '%s' has scheme %d, want %d\n", i,
			    schemes[i].url ? schemes[i].url : "(null)",
			    (int)got, (int)schemes[i].want);
		failed++;
	}
	assert_int_equal(failed, 0);
	assert_false(http_is_url(NULL));
	assert_false(http_is_url("a:b"));
	assert_true(http_is_url("ftp://h/x"));
}

static void test_check_url(void **state)
{
	(void)state;
	struct error err = { 0 };
	assert_int_equal(http_check_url("http://127.0.0.1:1/db/", &err),
			 STATUS_OK);
	assert_int_equal(http_check_url("file:///tmp/x", &err), STATUS_OK);
	assert_int_equal(http_check_url("ftp://u:pw@h/x", &err),
			 STATUS_UNSUPPORTED);
	/* the message names the URL without the password */
	assert_string_equal(err.file, "ftp://h/x");
	assert_non_null(strstr(err.message, "unsupported URL scheme"));
	assert_int_equal(http_check_url("http:///x", &err), STATUS_USAGE);
	assert_int_equal(http_check_url("db", &err), STATUS_USAGE);
	error_clear(&err);
}

static void test_content_range(void **state)
{
	(void)state;
	uint64_t a = 7;
	assert_false(http_content_range_start(NULL, &a));
	assert_false(http_content_range_start("", &a));
	assert_false(http_content_range_start("bytes", &a));
	assert_false(http_content_range_start("bytes */100", &a));
	assert_false(http_content_range_start("items 1-2/3", &a));
	assert_false(http_content_range_start("bytes 99999999999999999999-1/2",
					      &a));
	assert_int_equal(a, 7);
	assert_true(http_content_range_start("bytes 5-9/10", &a));
	assert_int_equal(a, 5);
	assert_true(http_content_range_start("Bytes  1048576-2097151/*", &a));
	assert_int_equal(a, 1048576);
}

/* The URL functions' answers (NULL: none), degenerate inputs first. */
static const struct string_case redacted[] = {
	{ NULL, NULL },
	{ "", "" },
	{ "path/x", "path/x" },
	{ "http://h/a@b", "http://h/a@b" },
	{ "http://u@h/x", "http://h/x" },
	{ "https://u:p@ss@h:8/x?y@z", "https://h:8/x?y@z" },
	{ "sftp://me@host", "sftp://host/" },
	{ "HTTP://u:p;auth=x@h:8/a%20b", "http://h:8/a%20b" },
	{ "scp://me@h/~/db/", "scp://h/~/db/" },
	/* a URL libcurl refuses still loses its password */
	{ "http://u:p@ss@bad host/x", "http://bad host/x" },
	{ "sftp://a@b@[::1/x", "sftp://[::1/x" },
	{ "http://bad host/x", "http://bad host/x" },
};

/* file:// URLs read by libcurl's URL API keep their old meaning: only an
 * empty host or localhost, the path as written, decoded. */
static const struct string_case file_paths[] = {
	{ "file://127.0.0.1/x", NULL },
	{ "file:x", NULL },
	{ "file:/x", NULL },
	{ "file://LOCALHOST/a%20b c", "/a b c" },
	{ "file:///tmp/../x/./y", "/tmp/../x/./y" },
	{ "file:///a%0ab", "/a\nb" },
	{ "file:///caf%c3%a9", "/caf\xc3\xa9" },
};

static const struct string_case file_names[] = {
	{ "sftp://me@h/~/db.tar.gz", "db.tar.gz" },
	{ "http://h/a/b%2Bc.zip?x=/y", "b+c.zip" },
	{ "local/dir/x.db?q", "x.db" },
	{ "http://h/a%00b", "download" },
};

static void test_strings(void **state)
{
	(void)state;
	assert_strings("redact", http_url_redact, redacted,
		       sizeof(redacted) / sizeof(redacted[0]));
	assert_strings("file path", remote_file_url_path, file_paths,
		       sizeof(file_paths) / sizeof(file_paths[0]));
	assert_strings("file name", remote_url_file_name, file_names,
		       sizeof(file_names) / sizeof(file_names[0]));
}

static void test_url_child(void **state)
{
	(void)state;
	const char *cases[][3] = {
		{ "http://h/db/", "meta.db", "http://h/db/meta.db" },
		{ "http://h/db/", "", "http://h/db/" },
		{ "http://h/db/", "metrics/", "http://h/db/metrics/" },
		{ "http://h/db/", "metrics/default.yaml",
		  "http://h/db/metrics/default.yaml" },
		{ "http://h:8/run%201/", "with space.db",
		  "http://h:8/run%201/with%20space.db" },
		/* a ':' is no scheme, '?' and '#' are no query or fragment,
		 * '%' is no escape */
		{ "http://h/d/", "a:b?c#d%41", "http://h/d/a%3Ab%3Fc%23d%2541" },
		{ "http://h/d/", "caf\xc3\xa9", "http://h/d/caf%C3%A9" },
		{ "sftp://me@h/~/db/", "cct.db", "sftp://me@h/~/db/cct.db" },
		{ "scp://h:2222/tmp/db/", "trace.db",
		  "scp://h:2222/tmp/db/trace.db" },
		{ "file:///tmp/db/", "meta.db", "file:///tmp/db/meta.db" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *u = NULL;
		struct error err = { 0 };
		assert_int_equal(http_url_child(cases[i][0], cases[i][1], &u,
						&err),
				 STATUS_OK);
		assert_string_equal(u, cases[i][2]);
		free(u);
	}
	char sentinel[] = "x";
	char *u = sentinel;
	struct error err = { 0 };
	assert_int_equal(http_url_child("http://u:pw@bad host/d/", "x", &u,
					&err),
			 STATUS_USAGE);
	assert_null(u);
	assert_string_equal(err.file, "http://bad host/d/");
	error_clear(&err);
}

static void test_options_default(void **state)
{
	(void)state;
	struct open_options o;
	memset(&o, 0xff, sizeof(o));
	unsetenv("CALLSCOPE_STALL_TIME");
	unsetenv("CALLSCOPE_CONNECT_TIMEOUT");
	unsetenv("CALLSCOPE_LAZY_MIN_SIZE");
	open_options_init(&o);
	assert_false(o.no_cache || o.offline || o.download || o.insecure ||
		     o.netrc);
	assert_int_equal(o.max_size, 0);
	assert_int_equal(o.connect_timeout_s, 10);
	assert_int_equal(o.stall_time_s, 30);
	assert_int_equal(o.stall_limit, 1);
	assert_int_equal(o.lazy_min_size, 64u << 20);
	assert_null(o.cache_dir);
	assert_null(o.cancel);
	assert_null(o.progress);
	assert_false(open_options_cancelled(&o));
	assert_false(open_options_cancelled(NULL));
	setenv("CALLSCOPE_STALL_TIME", "2", 1);
	setenv("CALLSCOPE_LAZY_MIN_SIZE", "junk", 1);
	open_options_init(&o);
	assert_int_equal(o.stall_time_s, 2);
	assert_int_equal(o.lazy_min_size, 64u << 20);
	volatile sig_atomic_t flag = 1;
	o.cancel = &flag;
	assert_true(open_options_cancelled(&o));
	unsetenv("CALLSCOPE_STALL_TIME");
	unsetenv("CALLSCOPE_LAZY_MIN_SIZE");
}

static void test_info_clear_null(void **state)
{
	(void)state;
	http_info_clear(NULL);
	http_session_free(NULL);
	assert_null(http_session_header(NULL, "ETag"));
	assert_int_equal(http_session_status(NULL), 0);
}

/* The refused connection needs no server: port 1 on loopback. */
static void test_refused(void **state)
{
	(void)state;
	struct http_session *s = NULL;
	struct error err = { 0 };
	struct http_info info;
	assert_int_equal(http_session_new(NULL, &s, &err), STATUS_OK);
	assert_int_equal(http_probe(s, "http://127.0.0.1:1/x", &info, &err),
			 STATUS_IO);
	assert_string_equal(err.file, "http://127.0.0.1:1/x");
	assert_non_null(strstr(err.message, "cannot connect"));
	assert_null(strchr(err.message, '\n'));
	http_session_free(s);
	error_clear(&err);
}

static void test_probe(void **state)
{
	(void)state;
	struct served f;
	if (!served_open(&f, false))
		skip();
	struct http_info info = f.info;
	struct error err = { 0 };
	f.info = (struct http_info){ 0 };
	assert_non_null(info.etag);
	assert_int_equal(info.etag[0], '"');
	assert_non_null(info.last_modified);
	assert_true(info.mtime > 0);
	assert_int_equal(info.http_status, 206);
	http_info_clear(&info);

	/* an empty file: 416 "bytes * /0" */
	char *empty = join(base(), "/empty");
	assert_int_equal(http_probe(f.s, empty, &info, &err), STATUS_OK);
	assert_true(info.size_known);
	assert_int_equal(info.size, 0);
	http_info_clear(&info);

	/* a server ignoring ranges: size from Content-Length, cut off */
	control("/__reset");
	control("/__fault?prefix=/a.bin&kind=norange&count=1");
	assert_int_equal(http_probe(f.s, f.url, &info, &err), STATUS_OK);
	assert_false(info.ranges);
	assert_true(info.size_known);
	assert_int_equal(info.size, f.len);
	http_info_clear(&info);
	free(empty);
	served_close(&f);
	error_clear(&err);
}

static void test_get_range(void **state)
{
	(void)state;
	struct served f;
	if (!served_open(&f, false))
		skip();
	struct error err = { 0 };
	unsigned char *buf = malloc(70000);
	assert_non_null(buf);
	size_t got = 99;
	assert_int_equal(http_get_range(f.s, f.url, 5, 0, buf, &got, NULL, &err),
			 STATUS_OK);
	assert_int_equal(got, 0);
	assert_int_equal(http_get_range(f.s, f.url, 1000, 65536, buf, &got,
					f.info.etag, &err),
			 STATUS_OK);
	assert_int_equal(got, 65536);
	assert_memory_equal(buf, f.want + 1000, 65536);
	/* the tail: fewer bytes than asked */
	assert_int_equal(http_get_range(f.s, f.url, f.len - 10, 100, buf, &got,
					f.info.etag, &err),
			 STATUS_OK);
	assert_int_equal(got, 10);
	assert_memory_equal(buf, f.want + f.len - 10, 10);
	/* another ETag: changed on the server (If-Range: the whole file) */
	assert_int_equal(http_get_range(f.s, f.url, 0, 10, buf, &got, "\"x\"",
					&err),
			 STATUS_IO);
	assert_non_null(strstr(err.message, "changed on the server"));
	/* the Last-Modified date as the validator (a server without ETags):
	 * the same date reads, an older one is a changed file */
	assert_non_null(f.info.last_modified);
	assert_int_equal(http_get_range(f.s, f.url, 20, 10, buf, &got,
					f.info.last_modified, &err),
			 STATUS_OK);
	assert_memory_equal(buf, f.want + 20, 10);
	assert_int_equal(http_get_range(f.s, f.url, 20, 10, buf, &got,
					"Mon, 01 Jan 2001 00:00:00 GMT", &err),
			 STATUS_IO);
	assert_non_null(strstr(err.message, "changed on the server"));
	/* a server that ignores If-Range: its Last-Modified tells */
	control("/__fault?prefix=/a.bin&kind=noifrange&count=1");
	assert_int_equal(http_get_range(f.s, f.url, 20, 10, buf, &got,
					"Mon, 01 Jan 2001 00:00:00 GMT", &err),
			 STATUS_IO);
	assert_non_null(strstr(err.message, "changed on the server "
					    "(Last-Modified"));
	/* a weak ETag cannot be an If-Range: compared, not sent */
	assert_int_equal(http_get_range(f.s, f.url, 20, 10, buf, &got,
					"W/\"weak\"", &err),
			 STATUS_IO);
	assert_non_null(strstr(err.message, "changed on the server (ETag"));
	/* a server that ignores ranges */
	control("/__fault?prefix=/a.bin&kind=norange&count=1");
	assert_int_equal(http_get_range(f.s, f.url, 10, 10, buf, &got, NULL,
					&err),
			 STATUS_UNSUPPORTED);
	assert_non_null(strstr(err.message, "ignores range requests"));
	/* the connection survives: the next read works */
	assert_int_equal(http_get_range(f.s, f.url, 10, 10, buf, &got, NULL,
					&err),
			 STATUS_OK);
	assert_memory_equal(buf, f.want + 10, 10);
	free(buf);
	served_close(&f);
	error_clear(&err);
}

/* A caller's body sink: the bytes in order, or a stop after `stop`. */
struct collect {
	unsigned char buf[256];
	size_t got;
	size_t stop; /* 0: never */
	size_t calls;
};

static size_t collect_body(const char *data, size_t n, void *ctx)
{
	struct collect *c = ctx;
	c->calls++;
	if (c->stop && c->got + n > c->stop)
		return 0;
	assert_true(c->got + n <= sizeof(c->buf));
	memcpy(c->buf + c->got, data, n);
	c->got += n;
	return n;
}

/* http_session_perform: what a request adds (a range, the validators,
 * a body sink) reaches the server, and the outcome is the session's. */
static void test_perform(void **state)
{
	(void)state;
	if (!base())
		skip();
	control("/__reset");
	struct served f;
	assert_true(served_open(&f, false));
	struct error err = { 0 };

	/* a range into the caller's sink */
	struct collect c = { 0 };
	struct http_request q = { .range = "100-199", .body = collect_body,
				  .body_ctx = &c };
	assert_int_equal(http_session_prepare(f.s, f.url, &err), STATUS_OK);
	assert_true(http_session_perform(f.s, &q));
	assert_int_equal(http_session_result(f.s, f.url, &err), STATUS_OK);
	assert_int_equal(http_session_status(f.s), 206);
	assert_int_equal(http_session_content_length(f.s), 100);
	assert_string_equal(http_session_effective_url(f.s), f.url);
	assert_int_equal(c.got, 100);
	assert_memory_equal(c.buf, f.want + 100, 100);

	/* revalidation: the ETag and the date each give 304, no body */
	struct http_request v = { .if_none_match = f.info.etag,
				  .body = collect_body, .body_ctx = &c };
	c.got = c.calls = 0;
	assert_int_equal(http_session_prepare(f.s, f.url, &err), STATUS_OK);
	assert_true(http_session_perform(f.s, &v));
	assert_int_equal(http_session_result(f.s, f.url, &err), STATUS_OK);
	assert_int_equal(http_session_status(f.s), 304);
	assert_int_equal(c.got, 0);
	v = (struct http_request){ .if_modified_since = f.info.last_modified,
				   .body = collect_body, .body_ctx = &c };
	assert_int_equal(http_session_prepare(f.s, f.url, &err), STATUS_OK);
	assert_true(http_session_perform(f.s, &v));
	assert_int_equal(http_session_status(f.s), 304);

	/* If-Range with another ETag: the whole file comes back (200) */
	struct http_request r = { .range = "0-9", .if_range = "\"other\"",
				  .body = collect_body, .body_ctx = &c };
	c = (struct collect){ .stop = 50 };
	assert_int_equal(http_session_prepare(f.s, f.url, &err), STATUS_OK);
	assert_false(http_session_perform(f.s, &r));
	assert_int_equal(http_session_status(f.s), 200);
	assert_int_equal(http_session_content_length(f.s), (int64_t)f.len);
	/* the sink stopped the transfer: a write error, said as such */
	assert_int_equal(http_session_result(f.s, f.url, &err), STATUS_IO);
	assert_non_null(strstr(err.message, "cannot store the data"));
	assert_true(c.got <= 50);
	assert_memory_equal(c.buf, f.want, c.got);
	served_close(&f);
	error_clear(&err);
}

static void test_file_url(void **state)
{
	(void)state;
	struct served f;
	if (!served_open(&f, true))
		skip();
	struct http_info info = f.info;
	struct error err = { 0 };
	f.info = (struct http_info){ 0 };
	unsigned char buf[100];
	size_t got = 0;
	assert_int_equal(http_get_range(f.s, f.url, 77, sizeof(buf), buf, &got,
					NULL, &err),
			 STATUS_OK);
	assert_int_equal(got, sizeof(buf));
	assert_memory_equal(buf, f.want + 77, sizeof(buf));
	http_info_clear(&info);
	char *dir = join("file://", getenv("HTTP_TEST_DIR"));
	char *missing = join(dir, "/missing");
	assert_int_equal(http_probe(f.s, missing, &info, &err),
			 STATUS_NOT_FOUND);
	free(missing);
	free(dir);
	served_close(&f);
	error_clear(&err);
}

/* Fetch `path` whole, discarding the body; the result of the transfer. */
static enum status get(const char *path, const struct open_options *o,
		       struct error *err)
{
	struct http_session *s = NULL;
	char *url = join(base(), path);
	assert_int_equal(http_session_new(o, &s, err), STATUS_OK);
	enum status st = http_session_prepare(s, url, err);
	assert_int_equal(st, STATUS_OK);
	http_session_perform(s, NULL);
	st = http_session_result(s, url, err);
	http_session_free(s);
	free(url);
	return st;
}

static void test_errors(void **state)
{
	(void)state;
	if (!base())
		skip();
	struct error err = { 0 };
	control("/__reset");
	assert_int_equal(get("/missing", NULL, &err), STATUS_NOT_FOUND);
	assert_string_equal(err.message, "HTTP 404 Not Found");
	control("/__fault?prefix=/a.bin&kind=status&code=500&count=1");
	assert_int_equal(get("/a.bin", NULL, &err), STATUS_IO);
	assert_string_equal(err.message, "HTTP 500 Internal Server Error");
	control("/__fault?prefix=/a.bin&kind=status&code=403&count=1");
	assert_int_equal(get("/a.bin", NULL, &err), STATUS_IO);
	assert_string_equal(err.message, "HTTP 403 Forbidden");
	control("/__fault?prefix=/a.bin&kind=lie&extra=100&count=1");
	assert_int_equal(get("/a.bin", NULL, &err), STATUS_IO);
	assert_non_null(strstr(err.message, "transfer ended early"));
	control("/__fault?prefix=/a.bin&kind=drop&after=1000&count=1");
	assert_int_equal(get("/a.bin", NULL, &err), STATUS_IO);
	assert_non_null(strstr(err.message, "transfer ended early"));
	control("/__fault?prefix=/r&kind=redirect&to=ftp://127.0.0.1/x&count=1");
	assert_int_equal(get("/r", NULL, &err), STATUS_IO);
	assert_non_null(strstr(err.message, "redirect to another scheme"));
	/* a redirect on the same server is followed */
	control("/__fault?prefix=/r&kind=redirect&to=/a.bin&count=1");
	assert_int_equal(get("/r", NULL, &err), STATUS_OK);
	/* a redirect loop stops after 5 */
	control("/__fault?prefix=/loop&kind=redirect&to=/loop");
	assert_int_equal(get("/loop", NULL, &err), STATUS_IO);
	assert_string_equal(err.message, "more than 5 redirects");
	control("/__clear");

	struct open_options o;
	open_options_init(&o);
	o.stall_time_s = 1;
	control("/__fault?prefix=/a.bin&kind=stall&after=0&count=1");
	assert_int_equal(get("/a.bin", &o, &err), STATUS_IO);
	assert_string_equal(err.message,
			    "transfer stalled (under 1 byte/s for 1 s)");

	volatile sig_atomic_t flag = 1;
	o.cancel = &flag;
	assert_int_equal(get("/a.bin", &o, &err), STATUS_IO);
	assert_string_equal(err.message, "cancelled");
	o.cancel = NULL;

	o.max_size = 10;
	assert_int_equal(get("/a.bin", &o, &err), STATUS_LIMIT);
	assert_non_null(strstr(err.message, "--max-size 10"));
	error_clear(&err);
}

static void test_tls_to_plain(void **state)
{
	(void)state;
	if (!base())
		skip();
	struct error err = { 0 };
	const char *b = base();
	assert_true(strncmp(b, "http://", 7) == 0);
	char *url = join("https://", b + 7);
	struct http_session *s = NULL;
	struct http_info info;
	assert_int_equal(http_session_new(NULL, &s, &err), STATUS_OK);
	assert_int_equal(http_probe(s, url, &info, &err), STATUS_IO);
	assert_non_null(strstr(err.message, "TLS"));
	http_session_free(s);
	free(url);
	error_clear(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schemes),
		cmocka_unit_test(test_check_url),
		cmocka_unit_test(test_content_range),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_url_child),
		cmocka_unit_test(test_options_default),
		cmocka_unit_test(test_info_clear_null),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_get_range),
		cmocka_unit_test(test_perform),
		cmocka_unit_test(test_file_url),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_tls_to_plain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
