/* Tests that blobs can be read from two threads at once, as the viewer
 * does (views built on a background thread while the UI thread reads
 * values): a sparse file above the size at which blob.c reads through its
 * shared block cache, with a pattern written in regions spread over it;
 * two threads read random windows (inside a block, straddling blocks, in
 * holes) and compare every byte with the pattern computed independently,
 * while the whole mapping is asked for on the side.  Each window must keep
 * its bytes while the other thread reads (the cache evicts constantly:
 * far more blocks are touched than it holds).  The same for a small
 * (mapped) file and for a remote blob with an in-memory fetcher. */
#include "config.h"

#include <pthread.h>
#include <sched.h>
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
#define SMALL ((uint64_t)1 << 20)
#define REGION_EVERY ((uint64_t)64 << 10)
#define REGION_LEN ((uint64_t)8 << 10)
#define READS 60000

static char big_path[80], small_path[80];

static uint8_t pattern(uint64_t off)
{
	return (uint8_t)((off * 2654435761u >> 11) ^ (off >> 20));
}

/* What the sparse file holds at `off`: the pattern inside a region, zero
 * in the holes. */
static uint8_t expected(uint64_t off, uint64_t size)
{
	if (size != BIG)
		return pattern(off);
	return off % REGION_EVERY < REGION_LEN ? pattern(off) : 0;
}

static int write_files(void **state)
{
	(void)state;
	snprintf(big_path, sizeof(big_path), "/tmp/test-blob-threads-%ld.big",
		 (long)getpid());
	snprintf(small_path, sizeof(small_path),
		 "/tmp/test-blob-threads-%ld.small", (long)getpid());
	uint8_t *buf = malloc(SMALL);
	FILE *f = fopen(big_path, "wb");
	if (!buf || !f)
		return -1;
	for (uint64_t r = 0; r < BIG; r += REGION_EVERY) {
		for (uint64_t i = 0; i < REGION_LEN; i++)
			buf[i] = pattern(r + i);
		if (fseeko(f, (off_t)r, SEEK_SET) != 0 ||
		    fwrite(buf, 1, REGION_LEN, f) != REGION_LEN)
			return -1;
	}
	if (ftruncate(fileno(f), (off_t)BIG) != 0 || fclose(f) != 0)
		return -1;
	f = fopen(small_path, "wb");
	for (uint64_t i = 0; i < SMALL; i++)
		buf[i] = pattern(i);
	if (!f || fwrite(buf, 1, SMALL, f) != SMALL || fclose(f) != 0)
		return -1;
	free(buf);
	return 0;
}

static int remove_files(void **state)
{
	(void)state;
	unlink(big_path);
	unlink(small_path);
	return 0;
}

struct reader_arg {
	struct blob *blob;
	uint64_t seed;
	uint64_t bad;    /* windows with a wrong byte */
	uint64_t failed; /* reads that returned an error */
	bool map_all;    /* also ask for the whole mapping now and then */
};

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void *reader(void *p)
{
	struct reader_arg *a = p;
	uint64_t size = blob_size(a->blob), s = a->seed;
	for (int i = 0; i < READS; i++) {
		uint64_t len = 1 + next_random(&s) % (i % 16 == 0 ? 9000 : 24);
		uint64_t off = next_random(&s) % (size - len);
		/* half the reads in regions, where the bytes are not zero */
		if (size == BIG && i % 2 == 0)
			off -= off % REGION_EVERY;
		struct span sp = {0};
		struct error err = {0};
		if (blob_read(a->blob, off, len, &sp, &err) != STATUS_OK ||
		    sp.len != len) {
			a->failed++;
			error_clear(&err);
			continue;
		}
		/* give the other thread time to replace blocks */
		if (i % 64 == 0)
			sched_yield();
		for (uint64_t k = 0; k < len; k++)
			if (sp.data[k] != expected(off + k, size)) {
				a->bad++;
				break;
			}
		if (a->map_all && i % 5000 == 0) {
			struct span all = {0};
			if (blob_map_all(a->blob, &all, &err) != STATUS_OK ||
			    all.len != size ||
			    all.data[1] != expected(1, size))
				a->failed++;
			error_clear(&err);
		}
	}
	return NULL;
}

static void read_in_two_threads(struct blob *blob)
{
	struct reader_arg a[2] = {
		{.blob = blob, .seed = 0x9e3779b97f4a7c15ULL, .map_all = true},
		{.blob = blob, .seed = 0xd1b54a32d192ed03ULL},
	};
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, reader, &a[i]), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(a[i].failed, 0);
		assert_int_equal(a[i].bad, 0);
	}
}

static void test_large_local_two_threads(void **state)
{
	(void)state;
	struct blob *blob = NULL;
	struct error err = {0};
	assert_int_equal(blob_open_file(big_path, &blob, &err), STATUS_OK);
	assert_int_equal(blob_size(blob), BIG);
	assert_false(blob_is_remote(blob));
	read_in_two_threads(blob);
	blob_close(blob);
}

static void test_mapped_two_threads(void **state)
{
	(void)state;
	struct blob *blob = NULL;
	struct error err = {0};
	assert_int_equal(blob_open_file(small_path, &blob, &err), STATUS_OK);
	assert_int_equal(blob_size(blob), SMALL);
	read_in_two_threads(blob);
	blob_close(blob);
}

/* The remote fetcher: the pattern, computed. */
static enum status pattern_fetch(void *ctx, uint64_t off, uint64_t len,
				 void *buf, struct error *err)
{
	(void)ctx;
	(void)err;
	uint8_t *b = buf;
	for (uint64_t i = 0; i < len; i++)
		b[i] = pattern(off + i);
	return STATUS_OK;
}

static void test_remote_two_threads(void **state)
{
	(void)state;
	struct blob *blob = NULL;
	struct error err = {0};
	struct blob_fetcher f = {.fetch = pattern_fetch};
	assert_int_equal(blob_register_fetcher("/nonexistent/remote.bin",
					       "http://example.invalid/r", &f,
					       SMALL, NULL, NULL, &err),
			 STATUS_OK);
	assert_int_equal(blob_open_file("/nonexistent/remote.bin", &blob, &err),
			 STATUS_OK);
	assert_true(blob_is_remote(blob));
	read_in_two_threads(blob);
	blob_close(blob);
	blob_unregister_all();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapped_two_threads),
		cmocka_unit_test(test_remote_two_threads),
		cmocka_unit_test(test_large_local_two_threads),
	};
	return cmocka_run_group_tests(tests, write_files, remove_files);
}
