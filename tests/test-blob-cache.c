/* Tests for blob's bounded read path: a sparse file large enough to be
 * read through the block cache, with bytes written at block edges, read
 * back through blob_read windows (inside a block, straddling blocks, at
 * the end of the file) and compared with what was written; the cache's
 * memory does not grow with the number of blocks read. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "io/blob.h"

#define BIG ((uint64_t)300 << 20) /* above the cached-size threshold */

static char path[64];

static uint8_t byte_at(uint64_t off)
{
	return (uint8_t)(off * 2654435761u >> 13);
}

/* Sparse file with patterned bytes around these offsets. */
static const uint64_t spots[] = {0,          4090,       4096,
				 65530,      1 << 20,    (1 << 20) + 4095,
				 BIG / 2,    BIG - 4096, BIG - 100};

static int setup(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "/tmp/test-blob-cache-%ld.bin",
		 (long)getpid());
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	for (size_t i = 0; i < sizeof(spots) / sizeof(spots[0]); i++) {
		uint8_t buf[100];
		for (int k = 0; k < 100; k++)
			buf[k] = byte_at(spots[i] + (uint64_t)k);
		fseeko(f, (off_t)spots[i], SEEK_SET);
		fwrite(buf, 1, 100, f);
	}
	int ok = ftruncate(fileno(f), (off_t)BIG) == 0;
	fclose(f);
	return ok ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static uint8_t want(uint64_t off)
{
	for (size_t i = 0; i < sizeof(spots) / sizeof(spots[0]); i++)
		if (off >= spots[i] && off < spots[i] + 100)
			return byte_at(off);
	return 0;
}

static void test_windows(void **state)
{
	(void)state;
	struct blob *b = NULL;
	struct error err = {0};
	assert_int_equal(blob_open_file(path, &b, &err), STATUS_OK);
	assert_int_equal(blob_size(b), BIG);
	for (size_t i = 0; i < sizeof(spots) / sizeof(spots[0]); i++) {
		/* windows of several lengths around each spot */
		for (uint64_t len = 1; len <= 100; len += 33) {
			uint64_t off = spots[i];
			if (off + len > BIG)
				continue;
			struct span w;
			assert_int_equal(blob_read(b, off, len, &w, &err),
					 STATUS_OK);
			assert_int_equal(w.len, len);
			for (uint64_t k = 0; k < len; k++)
				assert_int_equal(w.data[k], want(off + k));
		}
	}
	/* straddling a block edge */
	struct span w;
	assert_int_equal(blob_read(b, 4090, 12, &w, &err), STATUS_OK);
	for (uint64_t k = 0; k < 12; k++)
		assert_int_equal(w.data[k], want(4090 + k));
	/* the last byte, the empty window at the end, past the end */
	assert_int_equal(blob_read(b, BIG - 1, 1, &w, &err), STATUS_OK);
	assert_int_equal(blob_read(b, BIG, 0, &w, &err), STATUS_OK);
	assert_int_equal(blob_read(b, BIG - 1, 2, &w, &err), STATUS_CORRUPT);
	error_clear(&err);
	assert_int_equal(blob_read(b, UINT64_MAX, 2, &w, &err),
			 STATUS_CORRUPT);
	error_clear(&err);
	/* many distinct blocks: answers stay right after evictions */
	for (uint64_t k = 0; k < 20000; k++) {
		uint64_t off = (k * 7919 * 4096) % (BIG - 16);
		assert_int_equal(blob_read(b, off, 8, &w, &err), STATUS_OK);
		for (int j = 0; j < 8; j++)
			assert_int_equal(w.data[j], want(off + (uint64_t)j));
	}
	/* the whole file is still available for metadata */
	struct span all;
	assert_int_equal(blob_map_all(b, &all, &err), STATUS_OK);
	assert_int_equal(all.len, BIG);
	assert_int_equal(all.data[4096], want(4096));
	blob_close(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_windows, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
