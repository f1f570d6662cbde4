/* test-sparse2020: profile.db, cct.db and trace.db of the 2020 sparse
 * layout built byte by byte from the FORMATS.md tables: degenerate inputs
 * first (no directory, missing files, empty and truncated headers, bad
 * magic and version, counts larger than their sections, pointers past the
 * end, trace lines of unknown profiles or going backwards, a value index
 * out of range), then identifier tuples, every summary and per-profile
 * value against the generator's formula, and trace lines. */
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
#include "formats/hpctoolkit_xml/sparse2020.h"
#include "formats/hpctoolkit_xml/xml_provider.h"

#define N_PROF 3
#define PI_PTR 64 /* not right after the header: pointers are honoured */

static const uint32_t ctxs[] = {0, 2, 5, 9, 70000};
static const uint16_t mids[] = {1, 4, 300};
#define N_CTX (sizeof(ctxs) / sizeof(ctxs[0]))
#define N_MID (sizeof(mids) / sizeof(mids[0]))

/* The value of (profile, context, metric), 0 when absent.  The summary
 * (profile 0) has every pair. */
static double sv(uint32_t p, uint32_t c, uint32_t m)
{
	if (p && (p + c + m) % 2)
		return 0;
	return (p + 1) * 100.0 + c + m / 1000.0;
}

struct fix {
	struct lmk prof, cct, trace;
	size_t pi[N_PROF];   /* offsets of the Profile Infos */
	size_t block[N_PROF];
	size_t th;           /* offset of the Trace Headers */
};

/* The header each of the three files opens with: its magic, version 1.0,
 * the count of the first section, the number of sections, then the first
 * section's size and offset. */
static void header(struct lmk *m, const char *magic, uint32_t n,
		   uint16_t sections, uint64_t size, uint64_t at)
{
	lmk_str(m, magic);
	lmk_u16(m, 0x0100);
	lmk_u32(m, n);
	lmk_u16(m, sections);
	lmk_u64(m, size);
	lmk_u64(m, at);
}

static void build(struct fix *f)
{
	memset(f, 0, sizeof(*f));
	struct lmk *p = &f->prof;
	header(p, "HPCPROF-profdb__", N_PROF, 2, N_PROF * 52, PI_PTR);
	size_t idt_size_at = p->len;
	lmk_u64(p, 0);
	lmk_u64(p, 0);
	while (p->len < PI_PTR)
		lmk_be(p, 0, 1);
	for (int i = 0; i < N_PROF; i++) {
		f->pi[i] = p->len;
		for (int k = 0; k < 52; k++)
			lmk_be(p, 0, 1);
	}
	/* Identifier Tuple section */
	size_t idt = p->len;
	lmk_put(p, idt_size_at + 8, idt, 8);
	size_t tup[N_PROF];
	tup[0] = p->len;
	lmk_u16(p, 1);
	lmk_u16(p, 0); /* SUMMARY */
	lmk_u64(p, 0);
	lmk_u64(p, 0);
	tup[1] = p->len;
	lmk_u16(p, 3);
	lmk_u16(p, 1); /* NODE, both values valid */
	lmk_u64(p, 0xABCD);
	lmk_u64(p, 0);
	lmk_u16(p, 2); /* RANK */
	lmk_u64(p, 4);
	lmk_u64(p, 4);
	lmk_u16(p, 0xC003); /* THREAD, logical only */
	lmk_u64(p, 0);
	lmk_u64(p, 1);
	tup[2] = p->len;
	lmk_u16(p, 2);
	lmk_u16(p, 2);
	lmk_u64(p, 5);
	lmk_u64(p, 5);
	lmk_u16(p, 3);
	lmk_u64(p, 0);
	lmk_u64(p, 0);
	lmk_put(p, idt_size_at, p->len - idt, 8);
	/* Profile Sparse Value Blocks */
	for (uint32_t i = 0; i < N_PROF; i++) {
		f->block[i] = p->len;
		uint64_t nv = 0;
		uint64_t first[N_CTX];
		uint32_t nz = 0;
		uint32_t nzc[N_CTX];
		for (size_t c = 0; c < N_CTX; c++) {
			uint64_t before = nv;
			for (size_t m = 0; m < N_MID; m++) {
				double v = sv(i, ctxs[c], mids[m]);
				if (v == 0)
					continue;
				lmk_f64(p, v);
				lmk_u16(p, mids[m]);
				nv++;
			}
			if (nv > before) {
				first[nz] = before;
				nzc[nz++] = ctxs[c];
			}
		}
		for (uint32_t k = 0; k < nz; k++) {
			lmk_u32(p, nzc[k]);
			lmk_u64(p, first[k]);
		}
		lmk_u32(p, 0x656E6421);
		lmk_u64(p, nv);
		lmk_put(p, f->pi[i], tup[i], 8);
		lmk_put(p, f->pi[i] + 32, nv, 8);
		lmk_put(p, f->pi[i] + 40, nz, 4);
		lmk_put(p, f->pi[i] + 44, f->block[i], 8);
	}
	lmk_str(p, "PROFDBft");

	struct lmk *c = &f->cct;
	header(c, "HPCPROF-cctdb___", 10, 1, 10 * 22, 0x80);
	while (c->len < 0x80 + 10 * 22)
		lmk_be(c, 0, 1);
	lmk_str(c, "CCTDBftr");

	struct lmk *t = &f->trace;
	header(t, "HPCPROF-tracedb_", 2, 1, 2 * 22, 40);
	f->th = t->len;
	size_t data = 40 + 2 * 22;
	lmk_u32(t, 1);
	lmk_u16(t, 0);
	lmk_u64(t, data);
	lmk_u64(t, data + 3 * 12);
	lmk_u32(t, 2); /* empty, pointing past the end */
	lmk_u16(t, 0);
	lmk_u64(t, 1000);
	lmk_u64(t, 1000);
	for (uint32_t k = 0; k < 3; k++)
		lmk_sample(t, 1600000000000000000ull + 10 * k, 40 + k);
	lmk_str(t, "TRACDBft");
}

static void fix_free(struct fix *f)
{
	lmk_free(&f->prof);
	lmk_free(&f->cct);
	lmk_free(&f->trace);
}

static enum status open_fix(const struct fix *f, bool trace,
			    struct sparse2020 **s, const char *file,
			    const char *needle)
{
	struct error err = {0};
	enum status st = sparse2020_open_blobs(
		lmk_blob(&f->prof, "profile.db"), lmk_blob(&f->cct, "cct.db"),
		trace ? lmk_blob(&f->trace, "trace.db") : NULL, s, &err);
	if (st != STATUS_OK) {
		assert_null(*s);
		assert_int_equal(err.status, st);
		assert_string_equal(err.file, file);
		assert_non_null(strstr(err.message, needle));
	}
	error_clear(&err);
	return st;
}

static void test_null_and_missing(void **state)
{
	(void)state;
	struct sparse2020 *s = NULL;
	struct error err = {0};
	assert_int_equal(sparse2020_open(NULL, &s, &err), STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(sparse2020_open("/nonexistent", &s, &err),
			 STATUS_NOT_FOUND);
	assert_null(s);
	error_clear(&err);
	assert_int_equal(sparse2020_open_blobs(NULL, NULL, NULL, &s, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(sparse2020_n_profiles(NULL), 0);
	assert_int_equal(sparse2020_n_trace_lines(NULL), 0);
	assert_null(sparse2020_trace_line(NULL, 0));
	assert_int_equal(sparse2020_trace_line_profile(NULL, 0), UINT32_MAX);
	assert_null(sparse2020_error(NULL));
	const struct model_id *ids = (void *)1;
	uint32_t n = 1;
	bool summary = true;
	sparse2020_profile_ids(NULL, 0, &ids, &n, &summary);
	assert_null(ids);
	assert_int_equal(n, 0);
	assert_false(summary);
	double v;
	assert_false(sparse2020_summary_value(NULL, 0, 0, &v));
	struct trace_sample ts;
	assert_false(sparse2020_trace_sample(NULL, 0, 0, &ts));
	sparse2020_close(NULL);

	/* a directory: profile.db alone, then cct.db, then trace.db */
	char dir[] = "/tmp/test-sparse2020-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char pp[128], pc[128], pt[128];
	snprintf(pp, sizeof(pp), "%s/profile.db", dir);
	snprintf(pc, sizeof(pc), "%s/cct.db", dir);
	snprintf(pt, sizeof(pt), "%s/trace.db", dir);
	struct fix f;
	build(&f);
	lmk_write(&f.prof, pp);
	assert_int_equal(sparse2020_open(dir, &s, &err), STATUS_NOT_FOUND);
	assert_non_null(strstr(err.file, "cct.db"));
	error_clear(&err);
	lmk_write(&f.cct, pc);
	assert_int_equal(sparse2020_open(dir, &s, &err), STATUS_OK);
	assert_int_equal(sparse2020_n_profiles(s), N_PROF);
	assert_int_equal(sparse2020_n_trace_lines(s), 0);
	sparse2020_close(s);
	lmk_write(&f.trace, pt);
	assert_int_equal(sparse2020_open(dir, &s, &err), STATUS_OK);
	assert_int_equal(sparse2020_n_trace_lines(s), 2);
	sparse2020_close(s);
	unlink(pp);
	unlink(pc);
	unlink(pt);
	rmdir(dir);
	fix_free(&f);
}

/* Patch `n` bytes at `off` of `m` to `v`, expect `want` with an error
 * naming `file`, then restore. */
static void expect_status(struct fix *f, struct lmk *m, size_t off, int n,
			  uint64_t v, const char *file, const char *needle,
			  enum status want)
{
	uint8_t save[8];
	memcpy(save, m->buf + off, (size_t)n);
	lmk_put(m, off, v, n);
	struct sparse2020 *s = NULL;
	assert_int_equal(open_fix(f, true, &s, file, needle), want);
	memcpy(m->buf + off, save, (size_t)n);
}

/* The same, expecting STATUS_CORRUPT. */
static void expect_patch(struct fix *f, struct lmk *m, size_t off, int n,
			 uint64_t v, const char *file, const char *needle)
{
	expect_status(f, m, off, n, v, file, needle, STATUS_CORRUPT);
}

static void test_bad_headers(void **state)
{
	(void)state;
	struct sparse2020 *s = NULL;
	struct fix f;
	build(&f);
	size_t len = f.prof.len;
	f.prof.len = 0;
	assert_int_equal(open_fix(&f, true, &s, "profile.db", "shorter"),
			 STATUS_CORRUPT);
	f.prof.len = 55;
	assert_int_equal(open_fix(&f, true, &s, "profile.db", "shorter"),
			 STATUS_CORRUPT);
	f.prof.len = len;
	expect_status(&f, &f.prof, 0, 1, 'h', "profile.db", "magic",
		      STATUS_NOT_DATABASE);
	expect_status(&f, &f.prof, 16, 1, 4, "profile.db", "version",
		      STATUS_UNSUPPORTED);
	expect_status(&f, &f.cct, 5, 1, 'x', "cct.db", "magic",
		      STATUS_NOT_DATABASE);
	expect_status(&f, &f.trace, 16, 1, 2, "trace.db", "version",
		      STATUS_UNSUPPORTED);
	len = f.trace.len;
	f.trace.len = 39;
	assert_int_equal(open_fix(&f, true, &s, "trace.db", "shorter"),
			 STATUS_CORRUPT);
	f.trace.len = len;
	assert_int_equal(open_fix(&f, true, &s, "", ""), STATUS_OK);
	sparse2020_close(s);
	fix_free(&f);
}

static void test_corrupt(void **state)
{
	(void)state;
	struct fix f;
	build(&f);
	struct lmk *p = &f.prof, *t = &f.trace;
	/* counts larger than their sections, sections past the end */
	expect_patch(&f, p, 18, 4, 0x7FFFFFFF, "profile.db", "do not fit");
	expect_patch(&f, p, 22, 2, 1, "profile.db", "sections");
	expect_patch(&f, p, 32, 8, p->len, "profile.db", "Profile Info");
	expect_patch(&f, p, 24, 8, UINT64_MAX, "profile.db", "Profile Info");
	expect_patch(&f, p, 48, 8, p->len - 4, "profile.db",
		     "Identifier Tuple");
	/* a tuple pointer outside its section, a tuple longer than it */
	expect_patch(&f, p, f.pi[1], 8, 3, "profile.db", "identifier tuple");
	expect_patch(&f, p, f.pi[1], 8, UINT64_MAX, "profile.db",
		     "identifier tuple");
	size_t tup1 = 0;
	for (int k = 0; k < 8; k++)
		tup1 = tup1 << 8 | p->buf[f.pi[1] + (size_t)k];
	expect_patch(&f, p, tup1, 2, 0xFFFF, "profile.db", "identifier tuple");
	/* value blocks past the end */
	expect_patch(&f, p, f.pi[2] + 44, 8, p->len, "profile.db",
		     "do not fit");
	expect_patch(&f, p, f.pi[2] + 32, 8, UINT64_MAX / 2, "profile.db",
		     "do not fit");
	expect_patch(&f, p, f.pi[2] + 40, 4, UINT32_MAX, "profile.db",
		     "do not fit");
	/* cct.db: Context Info larger than the file */
	expect_patch(&f, &f.cct, 18, 4, 1000, "cct.db", "Context Info");
	/* trace.db: header count, unknown profile, line past the end,
	 * backwards */
	expect_patch(&f, t, 18, 4, 3, "trace.db", "Trace Header");
	expect_patch(&f, t, f.th, 4, N_PROF, "trace.db", "profile");
	expect_patch(&f, t, f.th + 14, 8, t->len + 1, "trace.db", "outside");
	expect_patch(&f, t, f.th + 14, 8, 0, "trace.db", "outside");
	size_t last = 40 + 2 * 22 + 2 * 12;
	expect_patch(&f, t, last, 8, 5, "trace.db", "before");
	fix_free(&f);
}

static void test_values(void **state)
{
	(void)state;
	struct fix f;
	build(&f);
	struct sparse2020 *s = NULL;
	assert_int_equal(open_fix(&f, true, &s, "", ""), STATUS_OK);
	assert_int_equal(sparse2020_n_profiles(s), N_PROF);
	const struct model_id *ids;
	uint32_t n;
	bool summary;
	sparse2020_profile_ids(s, 0, &ids, &n, &summary);
	assert_true(summary);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0].kind, 0);
	sparse2020_profile_ids(s, 1, &ids, &n, &summary);
	assert_false(summary);
	assert_int_equal(n, 3);
	assert_int_equal(ids[0].kind, 1);
	assert_true(ids[0].is_physical);
	assert_int_equal(ids[0].physical_id, 0xABCD);
	assert_int_equal(ids[1].kind, 2);
	assert_int_equal(ids[1].logical_id, 4);
	assert_int_equal(ids[2].kind, 3);
	assert_false(ids[2].is_physical);
	assert_int_equal(ids[2].logical_id, 1);
	sparse2020_profile_ids(s, N_PROF, &ids, &n, &summary);
	assert_null(ids);
	/* every (context, metric), present or not, in a wider grid */
	for (uint32_t c = 0; c < 12; c++) {
		for (uint32_t m = 0; m < 305; m++) {
			bool in = false;
			for (size_t i = 0; i < N_CTX; i++)
				in |= ctxs[i] == c;
			bool min = false;
			for (size_t i = 0; i < N_MID; i++)
				min |= mids[i] == m;
			double v = -1;
			bool ok = sparse2020_summary_value(s, c, m, &v);
			assert_int_equal(ok, in && min);
			if (ok)
				assert_true(v == sv(0, c, m));
			struct profile_value *pv = NULL;
			size_t np = 7;
			struct error err = {0};
			assert_int_equal(sparse2020_profile_values(s, c, m, &pv,
								   &np, &err),
					 STATUS_OK);
			size_t want = 0;
			for (uint32_t p = 1; p < N_PROF && in && min; p++) {
				if (sv(p, c, m) == 0)
					continue;
				assert_true(want < np);
				assert_int_equal(pv[want].profile, p);
				assert_true(pv[want].value == sv(p, c, m));
				want++;
			}
			assert_int_equal(np, want);
			free(pv);
		}
	}
	double v;
	assert_true(sparse2020_summary_value(s, 70000, 300, &v));
	assert_true(v == sv(0, 70000, 300));
	assert_false(sparse2020_summary_value(s, 70001, 300, &v));
	assert_false(sparse2020_summary_value(s, UINT32_MAX, 70000, &v));
	/* trace lines */
	assert_int_equal(sparse2020_n_trace_lines(s), 2);
	const struct legacy_trace_line *l = sparse2020_trace_line(s, 0);
	assert_int_equal(sparse2020_trace_line_profile(s, 0), 1);
	assert_int_equal(l->rank, 4);
	assert_int_equal(l->thread, 1);
	assert_int_equal(l->n_samples, 3);
	assert_int_equal(l->t_min, 1600000000000000000ull);
	assert_int_equal(l->t_max, 1600000000000000020ull);
	struct trace_sample ts;
	assert_true(sparse2020_trace_sample(s, 0, 1, &ts));
	assert_int_equal(ts.time, 1600000000000000010ull);
	assert_int_equal(ts.ctx_id, 41);
	assert_false(sparse2020_trace_sample(s, 0, 3, &ts));
	l = sparse2020_trace_line(s, 1);
	assert_int_equal(l->rank, 5);
	assert_int_equal(l->thread, 0);
	assert_int_equal(l->n_samples, 0);
	assert_false(sparse2020_trace_sample(s, 1, 0, &ts));
	assert_null(sparse2020_trace_line(s, 2));
	assert_int_equal(sparse2020_trace_line_profile(s, 2), UINT32_MAX);
	assert_null(sparse2020_error(s));
	sparse2020_close(s);
	fix_free(&f);
}

/* A context's value index past the profile's values: the lookup fails,
 * the error is kept, and profile_values reports it. */
static void test_bad_index(void **state)
{
	(void)state;
	struct fix f;
	build(&f);
	/* profile 1's first (context id, index) pair: index -> huge */
	uint64_t nv = 0;
	for (int k = 0; k < 8; k++)
		nv = nv << 8 | f.prof.buf[f.pi[1] + 32 + (size_t)k];
	size_t pair0 = f.block[1] + nv * 10;
	lmk_put(&f.prof, pair0 + 4, 1000, 8);
	struct sparse2020 *s = NULL;
	assert_int_equal(open_fix(&f, true, &s, "", ""), STATUS_OK);
	double v;
	assert_true(sparse2020_summary_value(s, 0, 1, &v));
	assert_null(sparse2020_error(s));
	struct profile_value *pv = NULL;
	size_t n = 0;
	struct error err = {0};
	assert_int_equal(sparse2020_profile_values(s, 0, 1, &pv, &n, &err),
			 STATUS_CORRUPT);
	assert_null(pv);
	assert_string_equal(err.file, "profile.db");
	assert_non_null(strstr(err.message, "outside"));
	error_clear(&err);
	assert_non_null(sparse2020_error(s));
	/* the value provider hands the kept error out once through
	 * value_ops.take_error */
	struct xml_provider *xp = calloc(1, sizeof(*xp));
	assert_non_null(xp);
	xp->sparse = s;
	assert_true(xml_provider_value_ops.take_error(xp, &err));
	assert_int_equal(err.status, STATUS_CORRUPT);
	assert_string_equal(err.file, "profile.db");
	assert_non_null(strstr(err.message, "outside"));
	error_clear(&err);
	assert_false(xml_provider_value_ops.take_error(xp, &err));
	assert_int_equal(err.status, STATUS_OK);
	free(xp);
	sparse2020_close(s);
	fix_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_and_missing),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_bad_index),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
