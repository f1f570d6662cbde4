/* test-legacy-values: metric-db sets and experiment-1.mdb built byte by
 * byte (tests/legacy_mk.h): degenerate inputs first (no files, missing,
 * empty, truncated, bad magic, version, byte order, counts larger than the
 * file, shapes that differ, table offsets out of order or past the end),
 * then every value of valid sets against the generator's formula, ranks and
 * threads from file names and from the mdb table, and out-of-range
 * lookups. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "legacy_mk.h"
#include "formats/hpctoolkit_xml/legacy_values.h"

#define NODES 7
#define METRICS 3

/* Open one metric-db from bytes; the status, and err's text contains
 * `needle` and the name on failure. */
static enum status open_one(const struct lmk *m, const char *name,
			    const char *needle)
{
	struct blob *b = lmk_blob(m, name);
	struct legacy_values *lv = NULL;
	struct error err = {0};
	enum status st = legacy_values_open_metricdb_blobs(&b, 1, &lv, &err);
	if (st != STATUS_OK) {
		assert_null(lv);
		assert_int_equal(err.status, st);
		assert_non_null(err.file);
		assert_string_equal(err.file, name);
		assert_non_null(strstr(err.message, needle));
	}
	legacy_values_close(lv);
	error_clear(&err);
	return st;
}

static void test_null_and_empty(void **state)
{
	(void)state;
	struct legacy_values *lv = (void *)1;
	struct error err = {0};
	assert_int_equal(legacy_values_open_metricdb(NULL, 0, &lv, &err),
			 STATUS_USAGE);
	assert_null(lv);
	error_clear(&err);
	assert_int_equal(legacy_values_open_mdb(NULL, &lv, &err),
			 STATUS_USAGE);
	error_clear(&err);
	const char *missing[] = {"/nonexistent/1.x-000000-000-0-1-0.metric-db"};
	assert_int_equal(legacy_values_open_metricdb(missing, 1, &lv, &err),
			 STATUS_NOT_FOUND);
	error_clear(&err);
	assert_int_equal(legacy_values_open_mdb("/nonexistent/e.mdb", &lv,
						&err),
			 STATUS_NOT_FOUND);
	error_clear(&err);
	/* accessors on NULL */
	assert_int_equal(legacy_values_n_profiles(NULL), 0);
	assert_int_equal(legacy_values_n_metrics(NULL), 0);
	assert_int_equal(legacy_values_n_contexts(NULL), 0);
	assert_null(legacy_values_error(NULL));
	uint32_t r = 0, t = 0;
	legacy_values_profile_id(NULL, 0, &r, &t);
	assert_int_equal(r, UINT32_MAX);
	assert_int_equal(t, UINT32_MAX);
	double v;
	assert_false(legacy_values_get(NULL, 0, 1, 0, &v));
	legacy_values_close(NULL);

	struct lmk m = {0};
	assert_int_equal(open_one(&m, "empty.metric-db", "shorter"),
			 STATUS_CORRUPT);
}

static void test_bad_headers(void **state)
{
	(void)state;
	struct lmk m = {0};
	lmk_metricdb(&m, 0, NODES, METRICS);
	struct lmk t = {0};
	/* the file cut short (len) or one header byte changed (byte at `at`) */
	static const struct {
		size_t len, at; /* len 0: the whole file */
		char byte;      /* 0: none */
		const char *name, *needle;
		enum status want;
	} bad[] = {
		/* truncated inside the header */
		{20, 0, 0, "t.metric-db", "shorter", STATUS_CORRUPT},
		{0, 0, 'X', "m.metric-db", "magic", STATUS_NOT_DATABASE},
		/* "00.11" */
		{0, 22, '1', "v.metric-db", "version", STATUS_UNSUPPORTED},
		{0, 23, 'l', "e.metric-db", "byte order", STATUS_UNSUPPORTED},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		lmk_bytes(&t, m.buf, bad[i].len ? bad[i].len : m.len);
		if (bad[i].byte)
			t.buf[bad[i].at] = (uint8_t)bad[i].byte;
		assert_int_equal(open_one(&t, bad[i].name, bad[i].needle),
				 bad[i].want);
		lmk_free(&t);
	}
	/* counts larger than the file: one double short, then huge */
	lmk_bytes(&t, m.buf, m.len - 1);
	assert_int_equal(open_one(&t, "c.metric-db", "do not fit"),
			 STATUS_CORRUPT);
	lmk_put(&t, 24, 0xFFFFFFF0u, 4);
	lmk_put(&t, 28, 0xFFFFFFF0u, 4);
	assert_int_equal(open_one(&t, "h.metric-db", "do not fit"),
			 STATUS_CORRUPT);
	lmk_put(&t, 24, UINT32_MAX, 4);
	lmk_put(&t, 28, 0, 4);
	assert_int_equal(open_one(&t, "x.metric-db", "too large"),
			 STATUS_LIMIT);
	lmk_free(&t);
	/* zero nodes and metrics: opens, nothing to read */
	lmk_str(&t, "HPCPROF-metricdb__00.10b");
	lmk_u32(&t, 0);
	lmk_u32(&t, 0);
	assert_int_equal(open_one(&t, "z.metric-db", ""), STATUS_OK);
	lmk_free(&t);
	lmk_free(&m);
}

static void test_metricdb_set(void **state)
{
	(void)state;
	static const char *const names[] = {
		"1.app-000000-000-a8c00270-160443-0.metric-db",
		"1.my-app-with-dashes-000003-002-a8c00270-160446-0.metric-db",
		"no-pattern.metric-db",
	};
	struct lmk m[3] = {{0}};
	struct blob *blobs[3];
	for (uint32_t p = 0; p < 3; p++) {
		lmk_metricdb(&m[p], p, NODES, METRICS);
		blobs[p] = lmk_blob(&m[p], names[p]);
	}
	struct legacy_values *lv = NULL;
	struct error err = {0};
	assert_int_equal(legacy_values_open_metricdb_blobs(blobs, 3, &lv, &err),
			 STATUS_OK);
	assert_int_equal(legacy_values_n_profiles(lv), 3);
	assert_int_equal(legacy_values_n_metrics(lv), METRICS);
	assert_int_equal(legacy_values_n_contexts(lv), NODES + 1);
	uint32_t r, t;
	legacy_values_profile_id(lv, 0, &r, &t);
	assert_int_equal(r, 0);
	assert_int_equal(t, 0);
	legacy_values_profile_id(lv, 1, &r, &t);
	assert_int_equal(r, 3);
	assert_int_equal(t, 2);
	legacy_values_profile_id(lv, 2, &r, &t);
	assert_int_equal(r, UINT32_MAX);
	assert_int_equal(t, UINT32_MAX);
	legacy_values_profile_id(lv, 3, &r, &t);
	assert_int_equal(r, UINT32_MAX);
	unsigned present = 0;
	for (uint32_t p = 0; p < 3; p++) {
		for (uint32_t c = 1; c <= NODES; c++) {
			for (uint32_t k = 0; k < METRICS; k++) {
				double want = lmk_value(p, c, k), v = -1;
				bool ok = legacy_values_get(lv, p, c, k, &v);
				assert_int_equal(ok, want != 0);
				if (ok) {
					assert_true(v == want);
					present++;
				}
			}
		}
	}
	/* 3 * 7 * 3 cells, a third of them zero */
	assert_int_equal(present, 42);
	double v = -1;
	assert_false(legacy_values_get(lv, 0, 0, 1, &v));
	assert_false(legacy_values_get(lv, 0, NODES + 1, 1, &v));
	assert_false(legacy_values_get(lv, 0, 1, METRICS, &v));
	assert_false(legacy_values_get(lv, 3, 1, 1, &v));
	assert_false(legacy_values_get(lv, UINT32_MAX, UINT32_MAX, UINT32_MAX,
				       &v));
	assert_true(v == -1);
	/* every value of a profile in one read: row 0 (the root) zeros, the
	 * others as generated (lmk_value, zeros included) */
	double rows[(NODES + 1) * METRICS];
	assert_int_equal(legacy_values_read_profile(NULL, 0, rows, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(legacy_values_read_profile(lv, 3, rows, &err),
			 STATUS_USAGE);
	error_clear(&err);
	for (uint32_t p = 0; p < 3; p++) {
		for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++)
			rows[i] = -1;
		assert_int_equal(legacy_values_read_profile(lv, p, rows, &err),
				 STATUS_OK);
		for (uint32_t k = 0; k < METRICS; k++)
			assert_true(rows[k] == 0);
		for (uint32_t c = 1; c <= NODES; c++)
			for (uint32_t k = 0; k < METRICS; k++)
				assert_true(rows[c * METRICS + k] ==
					    lmk_value(p, c, k));
	}
	assert_null(legacy_values_error(lv));
	legacy_values_close(lv);
	for (int p = 0; p < 3; p++)
		lmk_free(&m[p]);
}

static void test_shape_mismatch(void **state)
{
	(void)state;
	struct lmk a = {0}, b = {0};
	lmk_metricdb(&a, 0, NODES, METRICS);
	lmk_metricdb(&b, 1, NODES + 1, METRICS);
	struct blob *blobs[2] = {lmk_blob(&a, "a.metric-db"),
				 lmk_blob(&b, "b.metric-db")};
	struct legacy_values *lv = NULL;
	struct error err = {0};
	assert_int_equal(legacy_values_open_metricdb_blobs(blobs, 2, &lv, &err),
			 STATUS_CORRUPT);
	assert_null(lv);
	assert_string_equal(err.file, "b.metric-db");
	assert_non_null(strstr(err.message, "differ"));
	error_clear(&err);
	lmk_free(&a);
	lmk_free(&b);
}

/* An mdb of `n` profiles with ranks 10+i, threads i; `marker` adds the
 * end marker. */
static void build_mdb(struct lmk *m, uint32_t n, bool marker)
{
	size_t at = lmk_table(m, 3, n);
	for (uint32_t i = 0; i < n; i++) {
		lmk_table_set(m, at, i, 10 + i, i, m->len);
		lmk_metricdb(m, i, NODES, METRICS);
	}
	if (marker)
		lmk_end_marker(m);
}

static enum status open_mdb(const struct lmk *m, struct legacy_values **lv,
			    const char *needle)
{
	struct error err = {0};
	enum status st = legacy_values_open_mdb_blob(lmk_blob(m, "e-1.mdb"),
						     lv, &err);
	if (st != STATUS_OK) {
		assert_null(*lv);
		assert_string_equal(err.file, "e-1.mdb");
		assert_non_null(strstr(err.message, needle));
	}
	error_clear(&err);
	return st;
}

static void test_mdb(void **state)
{
	(void)state;
	for (int marker = 0; marker < 2; marker++) {
		struct lmk m = {0};
		build_mdb(&m, 4, marker);
		struct legacy_values *lv = NULL;
		assert_int_equal(open_mdb(&m, &lv, ""), STATUS_OK);
		assert_int_equal(legacy_values_n_profiles(lv), 4);
		assert_int_equal(legacy_values_n_contexts(lv), NODES + 1);
		for (uint32_t p = 0; p < 4; p++) {
			uint32_t r, t;
			legacy_values_profile_id(lv, p, &r, &t);
			assert_int_equal(r, 10 + p);
			assert_int_equal(t, p);
			for (uint32_t c = 1; c <= NODES; c++) {
				for (uint32_t k = 0; k < METRICS; k++) {
					double want = lmk_value(p, c, k), v;
					bool ok = legacy_values_get(lv, p, c,
								    k, &v);
					assert_int_equal(ok, want != 0);
					if (ok)
						assert_true(v == want);
				}
			}
		}
		legacy_values_close(lv);
		lmk_free(&m);
	}
}

static void test_mdb_corrupt(void **state)
{
	(void)state;
	struct legacy_values *lv = NULL;
	struct lmk m = {0};
	/* empty, short table header */
	assert_int_equal(open_mdb(&m, &lv, "too small"), STATUS_CORRUPT);
	lmk_u32(&m, 3);
	assert_int_equal(open_mdb(&m, &lv, "too small"), STATUS_CORRUPT);
	lmk_free(&m);
	/* zero profiles: opens, empty */
	lmk_table(&m, 1, 0);
	assert_int_equal(open_mdb(&m, &lv, ""), STATUS_OK);
	assert_int_equal(legacy_values_n_profiles(lv), 0);
	assert_int_equal(legacy_values_n_contexts(lv), 0);
	legacy_values_close(lv);
	lv = NULL;
	lmk_free(&m);
	/* unknown type */
	build_mdb(&m, 2, true);
	lmk_put(&m, 0, 9, 4);
	assert_int_equal(open_mdb(&m, &lv, "type"), STATUS_UNSUPPORTED);
	lmk_put(&m, 0, 3, 4);
	/* count larger than the file */
	lmk_put(&m, 4, 0x10000000u, 4);
	assert_int_equal(open_mdb(&m, &lv, "does not fit"), STATUS_CORRUPT);
	lmk_put(&m, 4, 2, 4);
	/* offset past the end */
	lmk_put(&m, 8 + 16 + 8, m.len + 100, 8);
	assert_int_equal(open_mdb(&m, &lv, "offset"), STATUS_CORRUPT);
	/* offsets out of order */
	lmk_put(&m, 8 + 16 + 8, 8, 8);
	assert_int_equal(open_mdb(&m, &lv, "offset"), STATUS_CORRUPT);
	lmk_free(&m);
	/* an embedded file cut short (the second one's header) */
	build_mdb(&m, 2, false);
	m.len -= 8 * NODES * METRICS + 10;
	assert_int_equal(open_mdb(&m, &lv, "shorter"), STATUS_CORRUPT);
	lmk_free(&m);
	/* a bad embedded magic names the offset */
	build_mdb(&m, 2, false);
	struct error err = {0};
	size_t second = 8 + 2 * 16 + 32 + 8 * NODES * METRICS;
	m.buf[second] = 'h';
	assert_int_equal(legacy_values_open_mdb_blob(lmk_blob(&m, "e.mdb"),
						     &lv, &err),
			 STATUS_NOT_DATABASE);
	assert_true(err.has_offset);
	assert_int_equal(err.offset, second);
	error_clear(&err);
	lmk_free(&m);
}

/* The path-based entry points, on files in a temporary directory. */
static void test_files(void **state)
{
	(void)state;
	char dir[] = "/tmp/test-legacy-values-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char p0[128], p1[128], pm[128];
	snprintf(p0, sizeof(p0), "%s/1.a-000004-001-0-1-0.metric-db", dir);
	snprintf(p1, sizeof(p1), "%s/1.a-000005-000-0-1-0.metric-db", dir);
	snprintf(pm, sizeof(pm), "%s/experiment-1.mdb", dir);
	struct lmk a = {0}, b = {0}, m = {0};
	lmk_metricdb(&a, 0, NODES, METRICS);
	lmk_metricdb(&b, 1, NODES, METRICS);
	build_mdb(&m, 2, true);
	lmk_write(&a, p0);
	lmk_write(&b, p1);
	lmk_write(&m, pm);
	const char *paths[] = {p0, p1};
	struct legacy_values *lv = NULL;
	struct error err = {0};
	assert_int_equal(legacy_values_open_metricdb(paths, 2, &lv, &err),
			 STATUS_OK);
	uint32_t r, t;
	legacy_values_profile_id(lv, 1, &r, &t);
	assert_int_equal(r, 5);
	assert_int_equal(t, 0);
	double v;
	assert_true(legacy_values_get(lv, 1, 2, 1, &v));
	assert_true(v == lmk_value(1, 2, 1));
	legacy_values_close(lv);
	assert_int_equal(legacy_values_open_mdb(pm, &lv, &err), STATUS_OK);
	assert_int_equal(legacy_values_n_profiles(lv), 2);
	legacy_values_close(lv);
	unlink(p0);
	unlink(p1);
	unlink(pm);
	rmdir(dir);
	lmk_free(&a);
	lmk_free(&b);
	lmk_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_and_empty),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_metricdb_set),
		cmocka_unit_test(test_shape_mismatch),
		cmocka_unit_test(test_mdb),
		cmocka_unit_test(test_mdb_corrupt),
		cmocka_unit_test(test_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
