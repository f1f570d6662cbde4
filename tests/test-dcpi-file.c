/* Tests of dcpi_file (the DCPI header and version-0 sample decoder),
 * degenerate inputs first, on profiles built here byte by byte from
 * ../shared/specs/dcpiformat.txt.  The end-to-end tests with a compiled
 * program and the generator are tests/test-dcpi.sh. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "formats/dcpi/dcpi_file.h"

#define HDR_PLAIN                                                           \
	"image 1f\nepoch 2611241530\nplatform x86 test\nevent cycles\n"    \
	"tsize 64\ncpuspeed 2400\n"

static size_t put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
	return 4;
}

/* header text + words */
static size_t build(uint8_t *buf, const char *hdr, const uint32_t *w,
		    size_t n)
{
	size_t len = strlen(hdr);
	memcpy(buf, hdr, len);
	for (size_t i = 0; i < n; i++)
		len += put32(buf + len, w[i]);
	return len;
}

static enum status parse(const uint8_t *buf, size_t len,
			 struct dcpi_profile *p, struct error *err)
{
	struct span s = {.data = buf, .len = len};
	return dcpi_profile_parse(s, "t.prof", p, err);
}

static void test_degenerate(void **state)
{
	(void)state;
	struct dcpi_profile p;
	struct error err = {0};
	assert_int_equal(parse((const uint8_t *)"", 0, &p, &err),
			 STATUS_CORRUPT);
	assert_non_null(err.message);
	error_clear(&err);
	assert_false(dcpi_head_looks_like((const uint8_t *)"", 0));
	assert_false(dcpi_head_looks_like((const uint8_t *)"images 1", 8));
	assert_true(dcpi_head_looks_like((const uint8_t *)"image 1", 7));
	assert_true(dcpi_head_looks_like((const uint8_t *)"version\tp", 9));
	/* header only, no footer */
	uint8_t buf[512];
	size_t len = build(buf, HDR_PLAIN "samples\n", NULL, 0);
	assert_int_equal(parse(buf, len, &p, &err), STATUS_CORRUPT);
	error_clear(&err);
}

static void test_empty_profile(void **state)
{
	(void)state;
	uint8_t buf[512];
	struct dcpi_profile p;
	struct error err = {0};
	uint32_t w[] = {0, 0};
	size_t len = build(buf, HDR_PLAIN "samples  \t\n", w, 2);
	assert_int_equal(parse(buf, len, &p, &err), STATUS_OK);
	assert_int_equal(p.n_samples, 0);
	assert_null(p.samples);
	assert_false(p.has_tstart);
	assert_false(p.has_version);
	assert_string_equal(p.event, "cycles");
	assert_int_equal(p.tsize, 64);
	dcpi_profile_clear(&p);
}

static void test_nt_edition(void **state)
{
	(void)state;
	uint8_t buf[512];
	struct dcpi_profile p;
	struct error err = {0};
	/* zeros inside a chunk, a chunk at 0 and one ending at tsize, a
	 * count of 2^32-1 (the footer's sum wraps) */
	uint32_t w[] = {0, 3, 5, 0, 0xFFFFFFFFu, 62, 2, 1, 7, 4, 12};
	size_t len = build(buf,
			   "version pdb-0.7\n" HDR_PLAIN
			   "tstart 401040\nlabel run 1\npath /opt/p\nsamples\n",
			   w, 11);
	assert_int_equal(parse(buf, len, &p, &err), STATUS_OK);
	assert_true(p.has_version);
	assert_int_equal(p.major, 0);
	assert_int_equal(p.minor, 7);
	assert_int_equal(p.tstart, 0x401040);
	assert_string_equal(p.path, "/opt/p");
	assert_int_equal(p.n_samples, 4);
	assert_int_equal(p.samples[0].offset, 0);
	assert_int_equal(p.samples[0].count, 5);
	assert_int_equal(p.samples[1].offset, 2);
	assert_int_equal(p.samples[1].count, 0xFFFFFFFFu);
	assert_int_equal(p.samples[3].offset, 63);
	assert_int_equal(p.samples[3].count, 7);
	dcpi_profile_clear(&p);
}

static void expect_corrupt(const char *hdr, const uint32_t *w, size_t n,
			   enum status want)
{
	uint8_t buf[1024];
	struct dcpi_profile p;
	struct error err = {0};
	size_t len = build(buf, hdr, w, n);
	assert_int_equal(parse(buf, len, &p, &err), want);
	assert_non_null(err.message);
	assert_string_equal(err.file, "t.prof");
	error_clear(&err);
}

static void test_violations(void **state)
{
	(void)state;
	uint32_t ok[] = {0, 1, 3, 1, 3};
	expect_corrupt(HDR_PLAIN "sample\n", ok, 5, STATUS_CORRUPT);
	expect_corrupt("image 1f\nepoch 2611241530\nplatform x\nevent c\n"
		       "tsize 64\nsamples\n",
		       ok, 5, STATUS_CORRUPT); /* cpuspeed missing */
	expect_corrupt(HDR_PLAIN "event again\nsamples\n", ok, 5,
		       STATUS_CORRUPT);
	expect_corrupt("version pdb-1.01\n" HDR_PLAIN "samples\n", ok, 5,
		       STATUS_UNSUPPORTED);
	expect_corrupt("version 0.7\n" HDR_PLAIN "samples\n", ok, 5,
		       STATUS_CORRUPT);
	expect_corrupt(HDR_PLAIN "tstart 40z\nsamples\n", ok, 5,
		       STATUS_CORRUPT);
	expect_corrupt(HDR_PLAIN "period\nsamples\n", ok, 5, STATUS_CORRUPT);
	uint32_t huge[] = {0, 0x40000000u, 1, 1, 1};
	expect_corrupt(HDR_PLAIN "samples\n", huge, 5, STATUS_CORRUPT);
	uint32_t past[] = {63, 2, 1, 1, 2, 2};
	expect_corrupt(HDR_PLAIN "samples\n", past, 6, STATUS_CORRUPT);
	uint32_t overlap[] = {4, 2, 1, 1, 5, 1, 1, 3, 3};
	expect_corrupt(HDR_PLAIN "samples\n", overlap, 9, STATUS_CORRUPT);
	uint32_t footer[] = {0, 1, 3, 1, 4};
	expect_corrupt(HDR_PLAIN "samples\n", footer, 5, STATUS_CORRUPT);
	uint32_t zero[] = {0, 0, 0, 0};
	expect_corrupt(HDR_PLAIN "samples\n", zero, 4, STATUS_CORRUPT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_empty_profile),
		cmocka_unit_test(test_nt_edition),
		cmocka_unit_test(test_violations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
