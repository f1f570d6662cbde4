/* test-rocpd-index-yaml: a run's index YAML file (rocpd_index_yaml.c).
 * Degenerate and hostile texts first (empty, not a mapping, no list, a
 * list that is not one of strings, absolute and '..' paths, repeats, too
 * many entries, anchors and aliases, deep nesting), then the two forms
 * (`files:`, `rocprofiler-sdk: rocpd: files:`) entry by entry, then
 * rocpd_index_yaml_read on files made here: paths resolved against the
 * YAML's directory, a missing or non-regular entry refused. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/rocpd/rocpd_index_yaml.h"

/* Parsing `yaml` fails with `st` and a problem containing `what`. */
static void refused(const char *yaml, enum status st, const char *what)
{
	char **v = (char **)1;
	size_t n = 99;
	char why[160];
	enum status got =
		rocpd_index_yaml_parse(yaml, strlen(yaml), &v, &n, why,
				       sizeof(why));
	if (got != st || !strstr(why, what))
		fail_msg("'%s': status %d '%s', wanted %d '%s'", yaml, got,
			 why, st, what);
	assert_null(v);
	assert_int_equal(n, 0);
	assert_null(strchr(why, '\n'));
}

static void test_degenerate(void **state)
{
	(void)state;
	refused("", STATUS_CORRUPT, "no files:");
	refused("# nothing\n", STATUS_CORRUPT, "no files:");
	refused("just text\n", STATUS_CORRUPT, "not a mapping");
	refused("- a.db\n- b.db\n", STATUS_CORRUPT, "a list, not a mapping");
	refused("other: [a.db]\n", STATUS_CORRUPT, "no files:");
	refused("files: a.db\n", STATUS_CORRUPT, "files: is not a list");
	refused("files: {a: b}\n", STATUS_CORRUPT, "files: is not a list");
	refused("files: []\n", STATUS_CORRUPT, "empty");
	refused("files:\n", STATUS_CORRUPT, "files: is not a list");
	refused("files: [[a.db]]\n", STATUS_CORRUPT, "not a string");
	refused("files: [{path: a.db}]\n", STATUS_CORRUPT, "not a string");
	refused("files: [a.db\n", STATUS_CORRUPT, "YAML error at line");
	refused("? [a]\n: b\n", STATUS_CORRUPT, "key is not a string");
	/* nested rocprofiler-sdk form, wrong at each level */
	refused("rocprofiler-sdk: [a.db]\n", STATUS_CORRUPT, "no files:");
	refused("rocprofiler-sdk:\n  files: [a.db]\n", STATUS_CORRUPT,
		"no files:");
	refused("rocprofiler-sdk:\n  rocpd:\n    files: x\n", STATUS_CORRUPT,
		"files: is not a list");
	refused("files: [a.db]\nrocprofiler-sdk:\n  rocpd:\n    files: [b.db]\n",
		STATUS_CORRUPT, "two files: lists");
}

static void test_hostile(void **state)
{
	(void)state;
	refused("files: [/etc/passwd]\n", STATUS_CORRUPT, "absolute path");
	refused("files: [../x.db]\n", STATUS_CORRUPT, "'..'");
	refused("files: [a/../../x.db]\n", STATUS_CORRUPT, "'..'");
	refused("files: [a/./x.db]\n", STATUS_CORRUPT, "'.'");
	refused("files: [a/..]\n", STATUS_CORRUPT, "'..'");
	refused("files: [\"\"]\n", STATUS_CORRUPT, "empty");
	refused("files: [\"a\\0b.db\"]\n", STATUS_CORRUPT, "NUL");
	refused("files: [a.db, b.db, a.db]\n", STATUS_CORRUPT,
		"names 'a.db' twice");
	/* anchors and aliases: refused at the first one, bombs cost nothing */
	refused("files: &x [a.db]\n", STATUS_CORRUPT, "anchors and aliases");
	refused("a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nfiles: *c\n",
		STATUS_CORRUPT, "anchors and aliases");
	refused("files: [&n a.db, *n]\n", STATUS_CORRUPT, "anchors and aliases");
	/* nesting */
	char deep[400] = "a: ";
	for (int i = 0; i < 40; i++)
		strcat(deep, "[");
	refused(deep, STATUS_LIMIT, "nested deeper");
	/* 4097 entries */
	size_t cap = 20 * (ROCPD_YAML_MAX_FILES + 2);
	char *big = malloc(cap);
	assert_non_null(big);
	size_t k = (size_t)snprintf(big, cap, "files:\n");
	for (unsigned i = 0; i <= ROCPD_YAML_MAX_FILES; i++)
		k += (size_t)snprintf(big + k, cap - k, "- f%u.db\n", i);
	refused(big, STATUS_LIMIT, "more than 4096 entries");
	free(big);
}

static void parsed(const char *yaml, const char *const *want, size_t n_want)
{
	char **v = NULL;
	size_t n = 0;
	char why[160];
	enum status st = rocpd_index_yaml_parse(yaml, strlen(yaml), &v, &n,
						why, sizeof(why));
	if (st != STATUS_OK)
		fail_msg("'%s': %s", yaml, why);
	assert_int_equal(n, n_want);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(v[i], want[i]);
	rocpd_index_yaml_free(v, n);
}

static void test_forms(void **state)
{
	(void)state;
	static const char *const two[] = {"node0/1_results.db",
					  "node1/2_results.db"};
	parsed("files:\n  - node0/1_results.db\n  - node1/2_results.db\n", two,
	       2);
	parsed("files: [node0/1_results.db, 'node1/2_results.db']\n", two, 2);
	parsed("rocprofiler-sdk:\n  version: 1\n  rocpd:\n    files:\n"
	       "      - node0/1_results.db\n      - node1/2_results.db\n"
	       "  other: [x]\n",
	       two, 2);
	/* other keys, before and after, are ignored; a second document too */
	parsed("name: run\nmeta: {a: [1, 2], b: c}\nfiles: [node0/1_results.db, "
	       "node1/2_results.db]\ntail: 1\n---\nfiles: [x]\n",
	       two, 2);
	static const char *const dots[] = {"..a.db", "a..b/.c.db"};
	parsed("files: [..a.db, a..b/.c.db]\n", dots, 2);
	static const char *const one[] = {"run.rpd"};
	parsed("files: [run.rpd]\n", one, 1);
	/* exactly the limit */
	size_t cap = 20 * (ROCPD_YAML_MAX_FILES + 2);
	char *big = malloc(cap);
	assert_non_null(big);
	size_t k = (size_t)snprintf(big, cap, "files:\n");
	for (unsigned i = 0; i < ROCPD_YAML_MAX_FILES; i++)
		k += (size_t)snprintf(big + k, cap - k, "- f%u.db\n", i);
	char **v = NULL;
	size_t n = 0;
	char why[160];
	assert_int_equal(rocpd_index_yaml_parse(big, k, &v, &n, why,
						sizeof(why)),
			 STATUS_OK);
	assert_int_equal(n, ROCPD_YAML_MAX_FILES);
	assert_string_equal(v[4095], "f4095.db");
	rocpd_index_yaml_free(v, n);
	free(big);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_read(void **state)
{
	(void)state;
	char dir[] = "/tmp/test-rocpd-yaml-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char p[256], q[256], y[256];
	snprintf(p, sizeof(p), "%s/h0", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/h0/1_results.db", dir);
	write_file(p, "x");
	snprintf(y, sizeof(y), "%s/index.yaml", dir);
	write_file(y, "files: [h0/1_results.db]\n");
	char **v = NULL;
	size_t n = 0;
	struct error err = {0};
	assert_int_equal(rocpd_index_yaml_read(y, &v, &n, &err), STATUS_OK);
	assert_int_equal(n, 1);
	assert_string_equal(v[0], p);
	rocpd_index_yaml_free(v, n);
	/* a missing file, a directory: one line naming the YAML */
	write_file(y, "files: [h0/1_results.db, h0/2_results.db]\n");
	assert_int_equal(rocpd_index_yaml_read(y, &v, &n, &err),
			 STATUS_NOT_FOUND);
	char *msg = error_format(&err);
	assert_non_null(strstr(msg, "index.yaml"));
	assert_non_null(strstr(msg, "'h0/2_results.db', which does not exist"));
	free(msg);
	error_clear(&err);
	write_file(y, "files: [h0]\n");
	assert_int_equal(rocpd_index_yaml_read(y, &v, &n, &err),
			 STATUS_NOT_DATABASE);
	error_clear(&err);
	write_file(y, "files: [../x.db]\n");
	assert_int_equal(rocpd_index_yaml_read(y, &v, &n, &err),
			 STATUS_CORRUPT);
	error_clear(&err);
	/* too large */
	FILE *f = fopen(y, "w");
	assert_non_null(f);
	for (unsigned i = 0; i < ROCPD_YAML_MAX_BYTES / 8 + 1; i++)
		fputs("# 45678\n", f);
	fclose(f);
	assert_int_equal(rocpd_index_yaml_read(y, &v, &n, &err),
			 STATUS_LIMIT);
	error_clear(&err);
	snprintf(q, sizeof(q), "%s/none.yaml", dir);
	assert_int_equal(rocpd_index_yaml_read(q, &v, &n, &err),
			 STATUS_NOT_FOUND);
	error_clear(&err);
	assert_null(v);
	unlink(y);
	unlink(p);
	snprintf(p, sizeof(p), "%s/h0", dir);
	rmdir(p);
	rmdir(dir);
}

static void test_names(void **state)
{
	(void)state;
	assert_true(rocpd_index_yaml_name("index.yaml"));
	assert_true(rocpd_index_yaml_name("a/run.yml"));
	assert_false(rocpd_index_yaml_name(".yaml"));
	assert_false(rocpd_index_yaml_name("results.db"));
	assert_false(rocpd_index_yaml_name("x.yaml.db"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
