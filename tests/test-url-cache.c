/* Tests for url_cache and the pure helpers of remote_open: cache keys,
 * the safety check of server-given names, records written and read back,
 * the list and the clearing (symbolic links never followed), file:// URL
 * paths and single-file names.  Values are written out by hand. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/file_tree.h"
#include "net/remote_open.h"
#include "net/url_cache.h"

#include "case_tables.h"

static char *tmpdir;

static int setup(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/test-url-cache-XXXXXX";
	char *d = mkdtemp(tmpl);
	if (!d)
		return -1;
	tmpdir = strdup(d);
	return tmpdir ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	file_tree_remove(tmpdir, NULL);
	free(tmpdir);
	return 0;
}

static char *path_of(const char *rel)
{
	char *p = NULL;
	assert_true(asprintf(&p, "%s/%s", tmpdir, rel) > 0);
	return p;
}

static void test_key(void **state)
{
	(void)state;
	char key[17];
	/* FNV-1a 64 of "" and "a", the published test vectors */
	url_cache_key("", key);
	assert_string_equal(key, "cbf29ce484222325");
	url_cache_key(NULL, key);
	assert_string_equal(key, "cbf29ce484222325");
	url_cache_key("a", key);
	assert_string_equal(key, "af63dc4c8601ec8c");
	char other[17];
	url_cache_key("http://h/db/", key);
	url_cache_key("http://h/db", other);
	assert_string_not_equal(key, other);
}

static void test_name_ok(void **state)
{
	(void)state;
	const char *good[] = { "meta.db", "metrics/default.yaml",
			       "a_b+c=d,e@f~g-1.hpctrace",
			       "x/y/z/w", "experiment-1.mdb" };
	const char *bad[] = { NULL, "", ".", "..", "../x", "a/../b", "/abs",
			      "a//b", "a/", ".hidden", "-rf", "a b",
			      "a\\b", "a\nb", "caf\xc3\xa9", "a/b/c/d/e",
			      "x?y", "%2e%2e" };
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(url_cache_name_ok(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(url_cache_name_ok(bad[i]));
	char longname[300];
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_false(url_cache_name_ok(longname));
	longname[255] = '\0';
	assert_true(url_cache_name_ok(longname));
}

static void test_root(void **state)
{
	(void)state;
	struct error err = { 0 };
	char *root = NULL;
	struct open_options o;
	open_options_init(&o);
	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	assert_int_equal(url_cache_root(&o, &root, &err), STATUS_OK);
	assert_string_equal(root, "/x/cache/callscope");
	free(root);
	/* a relative XDG_CACHE_HOME is ignored, as the spec says */
	setenv("XDG_CACHE_HOME", "rel", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(url_cache_root(NULL, &root, &err), STATUS_OK);
	assert_string_equal(root, "/home/u/.cache/callscope");
	free(root);
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	assert_int_equal(url_cache_root(NULL, &root, &err), STATUS_USAGE);
	assert_null(root);
	o.cache_dir = "/explicit";
	assert_int_equal(url_cache_root(&o, &root, &err), STATUS_OK);
	assert_string_equal(root, "/explicit");
	free(root);
	error_clear(&err);
}

static void test_file_record(void **state)
{
	(void)state;
	struct error err = { 0 };
	struct url_cache_file f;
	char *p = path_of("meta/sub/x.json");
	assert_int_equal(url_cache_read_file(p, &f, &err), STATUS_NOT_FOUND);
	char etag[] = "\"abc\"";
	struct url_cache_file w = {
		.etag = etag,
		.last_modified = NULL,
		.size = 5000000000u,
		.complete = true,
	};
	assert_int_equal(url_cache_write_file(p, &w, &err), STATUS_OK);
	assert_int_equal(url_cache_read_file(p, &f, &err), STATUS_OK);
	assert_string_equal(f.etag, "\"abc\"");
	assert_null(f.last_modified);
	assert_int_equal(f.size, 5000000000u);
	assert_true(f.complete);
	url_cache_file_clear(&f);
	/* garbage is STATUS_CORRUPT, never a crash */
	FILE *g = fopen(p, "w");
	assert_non_null(g);
	fputs("{\"etag\": 5, \"size\": \"x\"", g);
	fclose(g);
	assert_int_equal(url_cache_read_file(p, &f, &err), STATUS_CORRUPT);
	free(p);
	error_clear(&err);
}

static void write_entry(const char *key, const char *url, uint64_t size)
{
	struct error err = { 0 };
	char *rel = NULL;
	assert_true(asprintf(&rel, "root/url/%s/entry.json", key) > 0);
	char *p = path_of(rel);
	char *u = strdup(url);
	assert_non_null(u);
	char kind[] = "dir", name[] = "";
	struct url_cache_entry e = {
		.url = u,
		.kind = kind,
		.name = name,
		.size = size,
		.date = 1700000000,
		.complete = true,
	};
	assert_int_equal(url_cache_write_entry(p, &e, &err), STATUS_OK);
	free(u);
	free(p);
	free(rel);
}

static void test_list_and_clear(void **state)
{
	(void)state;
	struct error err = { 0 };
	char *root = path_of("root");
	struct url_cache_entry *e = NULL;
	size_t n = 99;
	/* a missing root: empty */
	assert_int_equal(url_cache_list(root, &e, &n, &err), STATUS_OK);
	assert_int_equal(n, 0);
	assert_null(e);
	write_entry("00000000000000bb", "http://b/", 2);
	write_entry("00000000000000aa", "http://a/", 1);
	/* not a key: skipped */
	char *junk = path_of("root/url/notakey");
	assert_int_equal(url_cache_mkdirs(junk, &err), STATUS_OK);
	free(junk);
	assert_int_equal(url_cache_list(root, &e, &n, &err), STATUS_OK);
	assert_int_equal(n, 2);
	assert_string_equal(e[0].url, "http://a/");
	assert_int_equal(e[0].size, 1);
	assert_int_equal(e[0].date, 1700000000);
	assert_true(e[0].complete);
	assert_non_null(strstr(e[0].dir, "/root/url/00000000000000aa"));
	assert_string_equal(e[1].url, "http://b/");
	url_cache_list_free(e, n);

	/* a symbolic link inside points outside: clearing keeps the target */
	char *outside = path_of("outside");
	FILE *f = fopen(outside, "w");
	assert_non_null(f);
	fclose(f);
	char *link = path_of("root/url/00000000000000aa/link");
	assert_int_equal(symlink(outside, link), 0);
	char *extract = path_of("root/extract/k/file");
	assert_int_equal(url_cache_mkdirs(extract, &err), STATUS_OK);
	assert_int_equal(url_cache_clear(root, &err), STATUS_OK);
	struct stat sb;
	assert_int_equal(stat(outside, &sb), 0);
	char *url_dir = path_of("root/url");
	char *ex_dir = path_of("root/extract");
	assert_int_not_equal(lstat(url_dir, &sb), 0);
	assert_int_not_equal(lstat(ex_dir, &sb), 0);
	assert_int_equal(url_cache_list(root, &e, &n, &err), STATUS_OK);
	assert_int_equal(n, 0);
	/* clearing an empty cache is fine */
	assert_int_equal(url_cache_clear(root, &err), STATUS_OK);
	free(url_dir);
	free(ex_dir);
	free(extract);
	free(link);
	free(outside);
	free(root);
	error_clear(&err);
}

/* remote_file_url_path: no path for what is not a local file:// URL */
static const struct string_case file_paths[] = {
	{ NULL, NULL },
	{ "/tmp/x", NULL },
	{ "http://h/x", NULL },
	{ "file://otherhost/x", NULL },
	{ "file://a%00b", NULL },
	{ "file:///a%00b", NULL },
	{ "file:///tmp/db/", "/tmp/db/" },
	{ "FILE:///tmp/db", "/tmp/db" },
	{ "file://localhost/tmp/my%20db", "/tmp/my db" },
	{ "file:///a%2", "/a%2" },
	{ "file:///x?q#f", "/x" },
};

static void test_file_url_path(void **state)
{
	(void)state;
	assert_strings("file path", remote_file_url_path, file_paths,
		       sizeof(file_paths) / sizeof(file_paths[0]));
}

/* remote_url_file_name: a name that is safe to create, or "download" */
static const struct string_case file_names[] = {
	{ "http://h/", "download" },
	{ "http://h", "download" },
	{ "http://h/a/db.tar.gz", "db.tar.gz" },
	{ "http://h/a/db.tar.gz?x=1#y", "db.tar.gz" },
	{ "http://h/my%2Bdb.zip", "my+db.zip" },
	{ "http://h/..", "download" },
	{ "http://h/%2e%2e", "download" },
	{ "http://h/a%2Fb", "download" },
	{ "http://h/%1b]0;x", "download" },
	{ "http://h/.hidden", "download" },
};

static void test_url_file_name(void **state)
{
	(void)state;
	assert_strings("file name", remote_url_file_name, file_names,
		       sizeof(file_names) / sizeof(file_names[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_name_ok),
		cmocka_unit_test(test_root),
		cmocka_unit_test(test_file_record),
		cmocka_unit_test(test_list_and_clear),
		cmocka_unit_test(test_file_url_path),
		cmocka_unit_test(test_url_file_name),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
