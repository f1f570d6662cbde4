/* test-legacy-trace: hpctrace files and experiment.mt built byte by byte
 * (tests/legacy_mk.h): degenerate inputs first (no files, missing, empty,
 * truncated header, bad magic, version, byte order, unknown flags, times
 * that go backwards, table offsets past the end), then sample counts, time
 * ranges and every sample of valid lines in both versions (01.00 in
 * microseconds, 01.01 in nanoseconds, data-centric records), partial
 * records, empty lines, ranks and threads, and time-unit overrides. */
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
#include "formats/hpctoolkit_xml/legacy_trace.h"

#define T0 1298921560137365ull /* a real 01.00 first time, in us */

/* Line i's samples: time T0 + 100 * k + i, context 10 * k + i + 1. */
static void add_samples(struct lmk *m, uint32_t i, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		lmk_sample(m, T0 + 100ull * k + i, 10 * k + i + 1);
}

static enum status open_one(const struct lmk *m, const char *name,
			    struct legacy_trace **t, const char *needle)
{
	struct blob *b = lmk_blob(m, name);
	struct error err = {0};
	enum status st = legacy_trace_open_hpctrace_blobs(&b, 1, t, &err);
	if (st != STATUS_OK) {
		assert_null(*t);
		assert_int_equal(err.status, st);
		assert_string_equal(err.file, name);
		assert_non_null(strstr(err.message, needle));
	}
	error_clear(&err);
	return st;
}

static void test_null_and_empty(void **state)
{
	(void)state;
	struct legacy_trace *t = NULL;
	struct error err = {0};
	assert_int_equal(legacy_trace_open_hpctrace(NULL, 0, &t, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(legacy_trace_open_mt(NULL, &t, &err), STATUS_USAGE);
	error_clear(&err);
	const char *missing[] = {"/nonexistent/a-000000-000-0-1-0.hpctrace"};
	assert_int_equal(legacy_trace_open_hpctrace(missing, 1, &t, &err),
			 STATUS_NOT_FOUND);
	error_clear(&err);
	assert_int_equal(legacy_trace_open_mt("/nonexistent/e.mt", &t, &err),
			 STATUS_NOT_FOUND);
	error_clear(&err);
	assert_int_equal(legacy_trace_n_lines(NULL), 0);
	assert_null(legacy_trace_line(NULL, 0));
	assert_null(legacy_trace_error(NULL));
	struct trace_sample s;
	assert_false(legacy_trace_sample(NULL, 0, 0, &s));
	assert_int_equal(legacy_trace_set_time_unit(NULL, 1000, &err),
			 STATUS_USAGE);
	error_clear(&err);
	legacy_trace_close(NULL);
	struct lmk m = {0};
	assert_int_equal(open_one(&m, "e.hpctrace", &t, "shorter"),
			 STATUS_CORRUPT);
}

static void test_bad_headers(void **state)
{
	(void)state;
	struct legacy_trace *t = NULL;
	struct lmk m = {0};
	lmk_hpctrace(&m, "01.00", 0);
	m.len = 23;
	assert_int_equal(open_one(&m, "t.hpctrace", &t, "shorter"),
			 STATUS_CORRUPT);
	lmk_free(&m);
	lmk_hpctrace(&m, "01.01", 0);
	m.len = 28; /* the flags word cut */
	assert_int_equal(open_one(&m, "f.hpctrace", &t, "shorter"),
			 STATUS_CORRUPT);
	lmk_free(&m);
	lmk_hpctrace(&m, "01.00", 0);
	add_samples(&m, 0, 2);
	m.buf[3] = 'X';
	assert_int_equal(open_one(&m, "m.hpctrace", &t, "magic"),
			 STATUS_NOT_DATABASE);
	m.buf[3] = 'R';
	m.buf[19] = '2'; /* "02.00" */
	assert_int_equal(open_one(&m, "v.hpctrace", &t, "version"),
			 STATUS_UNSUPPORTED);
	m.buf[19] = '1';
	m.buf[23] = 'l';
	assert_int_equal(open_one(&m, "l.hpctrace", &t, "byte order"),
			 STATUS_UNSUPPORTED);
	lmk_free(&m);
	lmk_hpctrace(&m, "01.01", 2);
	assert_int_equal(open_one(&m, "u.hpctrace", &t, "flags"),
			 STATUS_UNSUPPORTED);
	lmk_free(&m);
	/* time going backwards between the first and the last sample */
	lmk_hpctrace(&m, "01.00", 0);
	lmk_sample(&m, 500, 1);
	lmk_sample(&m, 600, 1);
	lmk_sample(&m, 400, 1);
	assert_int_equal(open_one(&m, "b.hpctrace", &t, "before"),
			 STATUS_CORRUPT);
	lmk_free(&m);
	/* a time that overflows in nanoseconds */
	lmk_hpctrace(&m, "01.00", 0);
	lmk_sample(&m, UINT64_MAX / 10, 1);
	assert_int_equal(open_one(&m, "o.hpctrace", &t, "overflow"),
			 STATUS_CORRUPT);
	lmk_free(&m);
}

static void test_versions(void **state)
{
	(void)state;
	static const char *const names[] = {
		"app-000002-001-a8c00c64-416-0.hpctrace",
		"app-000003-500-a8c00c64-417-0.hpctrace",
		"app-000004-000-a8c00c64-418-0.hpctrace",
		"weird.hpctrace",
	};
	struct lmk m[4] = {{0}};
	lmk_hpctrace(&m[0], "01.00", 0); /* microseconds */
	add_samples(&m[0], 0, 5);
	lmk_hpctrace(&m[1], "01.01", 0); /* nanoseconds */
	add_samples(&m[1], 1, 3);
	lmk_u32(&m[1], 7); /* a partial record: ignored */
	lmk_hpctrace(&m[2], "01.01", 1); /* data-centric: 16-byte records */
	for (uint32_t k = 0; k < 4; k++) {
		lmk_sample(&m[2], T0 + 100ull * k + 2, 10 * k + 3);
		lmk_u32(&m[2], 99);
	}
	lmk_hpctrace(&m[3], "01.00", 0); /* empty */
	struct blob *blobs[4];
	for (int i = 0; i < 4; i++)
		blobs[i] = lmk_blob(&m[i], names[i]);
	struct legacy_trace *t = NULL;
	struct error err = {0};
	assert_int_equal(legacy_trace_open_hpctrace_blobs(blobs, 4, &t, &err),
			 STATUS_OK);
	assert_int_equal(legacy_trace_n_lines(t), 4);
	static const struct legacy_trace_line want[] = {
		{2, 1, 5, T0 * 1000, (T0 + 400) * 1000},
		{3, 500, 3, T0 + 1, T0 + 201},
		{4, 0, 4, T0 + 2, T0 + 302},
		{UINT32_MAX, UINT32_MAX, 0, 0, 0},
	};
	for (uint32_t i = 0; i < 4; i++) {
		const struct legacy_trace_line *l = legacy_trace_line(t, i);
		assert_non_null(l);
		assert_int_equal(l->rank, want[i].rank);
		assert_int_equal(l->thread, want[i].thread);
		assert_int_equal(l->n_samples, want[i].n_samples);
		assert_int_equal(l->t_min, want[i].t_min);
		assert_int_equal(l->t_max, want[i].t_max);
		for (uint64_t k = 0; k < l->n_samples; k++) {
			struct trace_sample s;
			assert_true(legacy_trace_sample(t, i, k, &s));
			uint64_t raw = T0 + 100 * k + i;
			assert_int_equal(s.time, i == 0 ? raw * 1000 : raw);
			assert_int_equal(s.ctx_id, 10 * k + i + 1);
		}
		struct trace_sample s;
		assert_false(legacy_trace_sample(t, i, l->n_samples, &s));
		assert_false(legacy_trace_sample(t, i, UINT64_MAX, &s));
	}
	assert_null(legacy_trace_line(t, 4));
	/* override: everything in microseconds */
	assert_int_equal(legacy_trace_set_time_unit(t, 1000000, &err),
			 STATUS_OK);
	assert_int_equal(legacy_trace_line(t, 1)->t_min, (T0 + 1) * 1000);
	assert_int_equal(legacy_trace_line(t, 0)->t_min, T0 * 1000);
	struct trace_sample s;
	assert_true(legacy_trace_sample(t, 2, 1, &s));
	assert_int_equal(s.time, (T0 + 102) * 1000);
	/* a unit that does not divide a second; one that overflows */
	assert_int_equal(legacy_trace_set_time_unit(t, 7, &err), STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(legacy_trace_set_time_unit(t, 1, &err),
			 STATUS_CORRUPT);
	error_clear(&err);
	assert_int_equal(legacy_trace_line(t, 1)->t_min, (T0 + 1) * 1000);
	assert_int_equal(legacy_trace_set_time_unit(t, 1000000000, &err),
			 STATUS_OK);
	assert_int_equal(legacy_trace_line(t, 0)->t_min, T0);
	assert_null(legacy_trace_error(t));
	legacy_trace_close(t);
	for (int i = 0; i < 4; i++)
		lmk_free(&m[i]);
}

/* An mt of `n` lines (version 01.01), ranks 0, threads 100 + i, line i with
 * i + 1 samples, and the end marker. */
static void build_mt(struct lmk *m, uint32_t n)
{
	size_t at = lmk_table(m, 2, n);
	for (uint32_t i = 0; i < n; i++) {
		lmk_table_set(m, at, i, 0, 100 + i, m->len);
		lmk_hpctrace(m, "01.01", 0);
		add_samples(m, i, i + 1);
	}
	lmk_end_marker(m);
}

static enum status open_mt(const struct lmk *m, struct legacy_trace **t,
			   const char *needle)
{
	struct error err = {0};
	enum status st =
		legacy_trace_open_mt_blob(lmk_blob(m, "experiment.mt"), t, &err);
	if (st != STATUS_OK) {
		assert_null(*t);
		assert_string_equal(err.file, "experiment.mt");
		assert_non_null(strstr(err.message, needle));
	}
	error_clear(&err);
	return st;
}

static void test_mt(void **state)
{
	(void)state;
	struct lmk m = {0};
	build_mt(&m, 3);
	struct legacy_trace *t = NULL;
	assert_int_equal(open_mt(&m, &t, ""), STATUS_OK);
	assert_int_equal(legacy_trace_n_lines(t), 3);
	for (uint32_t i = 0; i < 3; i++) {
		const struct legacy_trace_line *l = legacy_trace_line(t, i);
		assert_int_equal(l->rank, 0);
		assert_int_equal(l->thread, 100 + i);
		/* the end marker is not a sample of the last line */
		assert_int_equal(l->n_samples, i + 1);
		assert_int_equal(l->t_min, T0 + i);
		assert_int_equal(l->t_max, T0 + 100 * i + i);
		struct trace_sample s;
		assert_true(legacy_trace_sample(t, i, i, &s));
		assert_int_equal(s.ctx_id, 10 * i + i + 1);
	}
	legacy_trace_close(t);
	t = NULL;
	/* corrupt: embedded offset past the end, out of order, bad magic */
	lmk_put(&m, 8 + 16 + 8, m.len + 1, 8);
	assert_int_equal(open_mt(&m, &t, "offset"), STATUS_CORRUPT);
	lmk_put(&m, 8 + 16 + 8, 0, 8);
	assert_int_equal(open_mt(&m, &t, "offset"), STATUS_CORRUPT);
	lmk_free(&m);
	build_mt(&m, 2);
	m.buf[8 + 2 * 16] = 'x';
	assert_int_equal(open_mt(&m, &t, "magic"), STATUS_NOT_DATABASE);
	lmk_free(&m);
	/* empty file, zero lines */
	assert_int_equal(open_mt(&m, &t, "too small"), STATUS_CORRUPT);
	lmk_table(&m, 0, 0);
	assert_int_equal(open_mt(&m, &t, ""), STATUS_OK);
	assert_int_equal(legacy_trace_n_lines(t), 0);
	legacy_trace_close(t);
	lmk_free(&m);
}

static void test_files(void **state)
{
	(void)state;
	char dir[] = "/tmp/test-legacy-trace-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char p0[128], pm[128];
	snprintf(p0, sizeof(p0), "%s/a-000007-003-0-1-0.hpctrace", dir);
	snprintf(pm, sizeof(pm), "%s/experiment.mt", dir);
	struct lmk a = {0}, m = {0};
	lmk_hpctrace(&a, "01.00", 0);
	add_samples(&a, 0, 2);
	build_mt(&m, 2);
	lmk_write(&a, p0);
	lmk_write(&m, pm);
	const char *paths[] = {p0};
	struct legacy_trace *t = NULL;
	struct error err = {0};
	assert_int_equal(legacy_trace_open_hpctrace(paths, 1, &t, &err),
			 STATUS_OK);
	assert_int_equal(legacy_trace_line(t, 0)->rank, 7);
	assert_int_equal(legacy_trace_line(t, 0)->thread, 3);
	assert_int_equal(legacy_trace_line(t, 0)->t_max, (T0 + 100) * 1000);
	legacy_trace_close(t);
	assert_int_equal(legacy_trace_open_mt(pm, &t, &err), STATUS_OK);
	assert_int_equal(legacy_trace_n_lines(t), 2);
	legacy_trace_close(t);
	unlink(p0);
	unlink(pm);
	rmdir(dir);
	lmk_free(&a);
	lmk_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_and_empty),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_mt),
		cmocka_unit_test(test_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
