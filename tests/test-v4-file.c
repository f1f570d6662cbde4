/* test-v4-file: the common v4 file header (magic, format, version, section
 * table, footer) on degenerate inputs built from bytes, then the whole
 * reader on small databases written to a temporary directory: bids, missing
 * files, the summary value lookup, trace lines (empty ones included) and
 * corrupt trace headers. */
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

#include "model/model.h"
#include "model/model_internal.h" /* white-box: the providers */
#include "formats/reader.h"
#include "open.h"
#include "formats/hpctoolkit_v4/v4_file.h"
#include "v4_mk.h"

extern const struct reader reader_hpctoolkit_v4;

static enum status open_bytes(const void *data, size_t len,
			      enum v4_format format, struct v4_file *f,
			      struct error *err)
{
	struct blob *blob = NULL;
	assert_int_equal(blob_open_memory(data, len, "x.db", &blob, err),
			 STATUS_OK);
	return v4_file_open_blob(blob, format, f, err);
}

static void expect(const void *data, size_t len, enum v4_format format,
		   enum status want, const char *needle)
{
	struct v4_file f;
	struct error err = {.status = STATUS_OK};
	enum status st = open_bytes(data, len, format, &f, &err);
	if (st != want || (needle && (!err.message ||
				      !strstr(err.message, needle))))
		fail_msg("status %d '%s', expected %d '%s'", (int)st,
			 err.message ? err.message : "", (int)want,
			 needle ? needle : "");
	if (st == STATUS_OK)
		v4_file_close(&f);
	else
		assert_null(f.blob);
	error_clear(&err);
}

/* meta.db with all eight sections absent. */
static void empty_meta(struct mk *m, uint8_t major, uint8_t minor)
{
	mk_header(m, "meta", major, minor, 8);
	mk_footer(m, "_meta.db");
}

static void test_header_degenerate(void **state)
{
	(void)state;
	struct mk m;
	expect("", 0, V4_FORMAT_META, STATUS_CORRUPT, "empty");
	expect("HPCTO", 5, V4_FORMAT_META, STATUS_NOT_DATABASE, "small");
	expect("HPCTOOLKIXmeta\x04\x00", 16, V4_FORMAT_META,
	       STATUS_NOT_DATABASE, "magic");
	expect("HPCTOOLKITme", 12, V4_FORMAT_META, STATUS_CORRUPT,
	       "truncated");
	/* only the fixed header */
	expect("HPCTOOLKITmeta\x04\x00", 16, V4_FORMAT_META, STATUS_CORRUPT,
	       "too small");
	/* the section table without the footer */
	empty_meta(&m, 4, 0);
	expect(m.buf, m.len - 8, V4_FORMAT_META, STATUS_CORRUPT, "too small");
	/* truncated at the footer */
	expect(m.buf, m.len - 1, V4_FORMAT_META, STATUS_CORRUPT, "footer");
	/* the complete empty file */
	expect(m.buf, m.len, V4_FORMAT_META, STATUS_OK, NULL);
	/* another format's file */
	expect(m.buf, m.len, V4_FORMAT_PROFILE, STATUS_CORRUPT, "'meta'");
	/* versions: major 4 only, any minor */
	empty_meta(&m, 4, 200);
	struct v4_file f;
	struct error err = {.status = STATUS_OK};
	assert_int_equal(open_bytes(m.buf, m.len, V4_FORMAT_META, &f, &err),
			 STATUS_OK);
	assert_int_equal(f.minor, 200);
	v4_file_close(&f);
	empty_meta(&m, 3, 0);
	expect(m.buf, m.len, V4_FORMAT_META, STATUS_UNSUPPORTED, "version 3.0");
	empty_meta(&m, 5, 1);
	expect(m.buf, m.len, V4_FORMAT_META, STATUS_UNSUPPORTED, "version 5.1");
	/* a section past the end, and one overflowing the u64 range */
	empty_meta(&m, 4, 0);
	mk_p64(&m, 0x40, 0x100);
	mk_p64(&m, 0x48, 0x10);
	expect(m.buf, m.len, V4_FORMAT_META, STATUS_CORRUPT, "section 4");
	mk_p64(&m, 0x40, UINT64_MAX);
	mk_p64(&m, 0x48, 0x90);
	expect(m.buf, m.len, V4_FORMAT_META, STATUS_CORRUPT, "section 4");
}

/* ---- whole databases in a temporary directory ----------------------- */

static char dir[64];

static void write_file(const char *name, const void *data, size_t len)
{
	char *p = NULL;
	assert_true(asprintf(&p, "%s/%s", dir, name) > 0);
	FILE *fp = fopen(p, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	free(p);
}

static void remove_file(const char *name)
{
	char *p = NULL;
	assert_true(asprintf(&p, "%s/%s", dir, name) > 0);
	unlink(p);
	free(p);
}

/* profile.db: the summary profile (ctx 0: stat 1 = 2.5, stat 3 = 4;
 * ctx 5: stat 1 = 7) and two thread profiles RANK 0 THREAD 0/1. */
static void make_profile(struct mk *m)
{
	mk_header(m, "prof", 4, 0, 2);
	size_t s = mk_alloc(m, 0x10, 8);
	size_t pi = mk_alloc(m, 3 * 0x30, 8);
	mk_p64(m, s, pi);
	mk_p32(m, s + 8, 3);
	mk_p8(m, s + 0x0c, 0x30);
	mk_section(m, 0, s);
	s = mk_alloc(m, 0, 8);
	size_t tup[2];
	for (int i = 0; i < 2; i++) {
		tup[i] = mk_alloc(m, 8 + 2 * 0x10, 8);
		mk_p16(m, tup[i], 2);
		mk_p8(m, tup[i] + 8, 1); /* RANK */
		mk_p32(m, tup[i] + 8 + 4, 0);
		mk_p8(m, tup[i] + 0x18, 2); /* THREAD */
		mk_p32(m, tup[i] + 0x18 + 4, (uint32_t)i);
	}
	mk_section(m, 1, s);
	size_t vals = mk_alloc(m, 3 * 10, 2);
	const struct {
		uint16_t id;
		double v;
	} v[3] = {{1, 2.5}, {3, 4.0}, {1, 7.0}};
	for (int i = 0; i < 3; i++) {
		mk_p16(m, vals + 10 * i, v[i].id);
		mk_f64(m, vals + 10 * i + 2, v[i].v);
	}
	size_t idx = mk_alloc(m, 2 * 12, 4);
	mk_p32(m, idx, 0);
	mk_p64(m, idx + 4, 0);
	mk_p32(m, idx + 12, 5);
	mk_p64(m, idx + 16, 2);
	mk_p64(m, pi + 0x00, 3);
	mk_p64(m, pi + 0x08, vals);
	mk_p32(m, pi + 0x10, 2);
	mk_p64(m, pi + 0x18, idx);
	mk_p32(m, pi + 0x28, 1);
	for (int i = 0; i < 2; i++)
		mk_p64(m, pi + 0x30 * (i + 1) + 0x20, tup[i]);
	mk_footer(m, "_prof.db");
}

/* trace.db: line 0 (profile 1) has 3 elements, line 1 (profile 2) none. */
static size_t make_trace(struct mk *m, size_t *cth)
{
	mk_header(m, "trce", 4, 0, 1);
	size_t s = mk_alloc(m, 0x20, 8);
	*cth = mk_alloc(m, 2 * 0x18, 8);
	mk_p64(m, s, *cth);
	mk_p32(m, s + 8, 2);
	mk_p8(m, s + 0x0c, 0x18);
	mk_p64(m, s + 0x10, 1000);
	mk_p64(m, s + 0x18, 3000);
	mk_section(m, 0, s);
	size_t el = mk_alloc(m, 3 * 12, 8);
	const uint64_t times[3] = {1000, 2000, 3000};
	const uint32_t ctxs[3] = {5, 0, 7};
	for (int i = 0; i < 3; i++) {
		mk_p64(m, el + 12 * i, times[i]);
		mk_p32(m, el + 12 * i + 8, ctxs[i]);
	}
	mk_p32(m, *cth, 1);
	mk_p64(m, *cth + 8, el);
	mk_p64(m, *cth + 16, el + 36);
	mk_p32(m, *cth + 0x18, 2);
	mk_p64(m, *cth + 0x18 + 8, el + 36);
	mk_p64(m, *cth + 0x18 + 16, el + 36);
	mk_footer(m, "trace.db");
	return el;
}

static enum status open_dir(struct model **m, struct error *err)
{
	return reader_open_path(&reader_hpctoolkit_v4, dir, m, err);
}

static void test_database(void **state)
{
	(void)state;
	struct mk meta, prof, trace;
	struct model *m = NULL;
	struct error err = {.status = STATUS_OK};
	size_t cth;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(reader_bid_path(&reader_hpctoolkit_v4, dir), 0);

	/* a directory with only trace.db */
	size_t el = make_trace(&trace, &cth);
	write_file("trace.db", trace.buf, trace.len);
	assert_int_equal(reader_bid_path(&reader_hpctoolkit_v4, dir), 50);
	assert_int_equal(open_dir(&m, &err), STATUS_NOT_FOUND);
	assert_non_null(strstr(err.message, "meta.db is missing"));
	assert_non_null(strstr(err.message, "only trace.db"));
	error_clear(&err);

	/* an empty meta.db, then one with a bad magic */
	write_file("meta.db", "", 0);
	assert_int_equal(reader_bid_path(&reader_hpctoolkit_v4, dir), 90);
	assert_int_equal(open_dir(&m, &err), STATUS_CORRUPT);
	error_clear(&err);
	write_file("meta.db", "SQLite format 3\0", 16);
	assert_int_equal(open_dir(&m, &err), STATUS_NOT_DATABASE);
	error_clear(&err);

	/* meta.db without profile.db */
	empty_meta(&meta, 4, 0);
	write_file("meta.db", meta.buf, meta.len);
	assert_int_equal(open_dir(&m, &err), STATUS_NOT_FOUND);
	assert_non_null(strstr(err.message, "profile.db is missing"));
	error_clear(&err);

	/* the whole database */
	make_profile(&prof);
	write_file("profile.db", prof.buf, prof.len);
	assert_int_equal(open_dir(&m, &err), STATUS_OK);
	assert_int_equal(m->n_nodes, 1);
	assert_int_equal(m->n_profiles, 3);
	assert_string_equal(model_str(m, m->profiles[0].label), "summary");
	assert_string_equal(model_str(m, m->profiles[2].label),
			    "KIND1 0 KIND2 1");
	double v;
	assert_true(m->priv->value_ops->summary(m->priv->value_impl, 0, 1, &v));
	assert_true(v == 2.5);
	assert_true(m->priv->value_ops->summary(m->priv->value_impl, 0, 3, &v));
	assert_true(v == 4.0);
	assert_true(m->priv->value_ops->summary(m->priv->value_impl, 5, 1, &v));
	assert_true(v == 7.0);
	assert_false(m->priv->value_ops->summary(m->priv->value_impl, 0, 2, &v));
	assert_false(m->priv->value_ops->summary(m->priv->value_impl, 4, 1, &v));
	assert_false(m->priv->value_ops->summary(m->priv->value_impl, 6, 1, &v));
	/* no cct.db: no per-thread values */
	struct profile_value *pv = NULL;
	size_t n = 0;
	assert_int_equal(m->priv->value_ops->per_profile(m->priv->value_impl, 5, 1, &pv,
						   &n, &err),
			 STATUS_UNSUPPORTED);
	error_clear(&err);
	/* trace lines, the empty one included */
	assert_int_equal(m->n_timelines, 2);
	assert_int_equal(m->timelines[0].count, 3);
	assert_int_equal(m->timelines[1].count, 0);
	assert_int_equal(m->timelines[0].profile, 1);
	assert_int_equal(m->timelines[1].label, m->profiles[2].label);
	assert_int_equal(m->time_min, 1000);
	assert_int_equal(m->time_max, 3000);
	struct trace_sample s;
	assert_true(m->priv->trace_ops->sample(m->priv->trace_impl, 0, 2, &s));
	assert_int_equal(s.time, 3000);
	assert_int_equal(s.ctx_id, 7);
	assert_false(m->priv->trace_ops->sample(m->priv->trace_impl, 0, 3, &s));
	assert_false(m->priv->trace_ops->sample(m->priv->trace_impl, 1, 0, &s));
	assert_false(m->priv->trace_ops->sample(m->priv->trace_impl, 2, 0, &s));
	model_free(m);

	/* the path of meta.db names the same database */
	char *meta_path = NULL;
	assert_true(asprintf(&meta_path, "%s/meta.db", dir) > 0);
	assert_int_equal(reader_bid_path(&reader_hpctoolkit_v4, meta_path), 90);
	assert_int_equal(database_open(meta_path, &m, &err), STATUS_OK);
	assert_int_equal(m->n_timelines, 2);
	model_free(m);
	free(meta_path);

	/* corrupt trace headers */
	mk_p64(&trace, cth + 16, el + 30);
	write_file("trace.db", trace.buf, trace.len);
	assert_int_equal(open_dir(&m, &err), STATUS_CORRUPT);
	assert_non_null(strstr(err.message, "12-byte"));
	error_clear(&err);
	mk_p64(&trace, cth + 8, el + 36);
	mk_p64(&trace, cth + 16, el);
	write_file("trace.db", trace.buf, trace.len);
	assert_int_equal(open_dir(&m, &err), STATUS_CORRUPT);
	error_clear(&err);
	mk_p64(&trace, cth + 8, el);
	mk_p64(&trace, cth + 16, el + 12 * 1000);
	write_file("trace.db", trace.buf, trace.len);
	assert_int_equal(open_dir(&m, &err), STATUS_CORRUPT);
	error_clear(&err);
	make_trace(&trace, &cth);
	mk_p32(&trace, cth, 3);
	write_file("trace.db", trace.buf, trace.len);
	assert_int_equal(open_dir(&m, &err), STATUS_CORRUPT);
	assert_non_null(strstr(err.message, "profIndex 3"));
	error_clear(&err);

	/* no trace.db: no timelines */
	remove_file("trace.db");
	assert_int_equal(open_dir(&m, &err), STATUS_OK);
	assert_int_equal(m->n_timelines, 0);
	model_free(m);

	/* the summary block pointing past the file */
	size_t pi = 0x40; /* header 0x30, Profile Info header 0x10 */
	mk_p64(&prof, pi + 0x08, 0x100000);
	write_file("profile.db", prof.buf, prof.len);
	assert_int_equal(open_dir(&m, &err), STATUS_CORRUPT);
	assert_non_null(strstr(err.message, "pValues"));
	error_clear(&err);

	remove_file("profile.db");
	remove_file("meta.db");
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s", "/tmp/test-v4-file.XXXXXX");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_degenerate),
		cmocka_unit_test(test_database),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
