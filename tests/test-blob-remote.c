/* Tests for remote blobs (blob_remote.c and the registry in blob.c) with a
 * fake fetcher that serves a patterned file and counts the requests: the
 * block arithmetic at the edges, coalescing, the memory bound, the
 * persisted blocks (reopen, validator change, a crash before the bitmap is
 * written, a directory shared by two users), fetch errors and two threads reading one blob.  Expected bytes
 * come from the pattern function, never from the code under test. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <pthread.h>

#include "io/blob.h"
#include "io/blob_remote.h"

#define BS ((uint64_t)1 << 16) /* the default block size */

struct fake {
	uint64_t size;
	unsigned fetches;
	uint64_t bytes;
	uint64_t last_off, last_len;
	bool fail;
	int in_flight, max_in_flight;
	pthread_mutex_t lock;
};

static uint8_t byte_at(uint64_t off)
{
	return (uint8_t)((off * 2654435761u) >> 13 ^ off >> 16);
}

static enum status fake_fetch(void *ctx, uint64_t off, uint64_t len,
			      void *buf, struct error *err)
{
	struct fake *f = ctx;
	pthread_mutex_lock(&f->lock);
	f->in_flight++;
	if (f->in_flight > f->max_in_flight)
		f->max_in_flight = f->in_flight;
	pthread_mutex_unlock(&f->lock);
	enum status st = STATUS_OK;
	if (f->fail) {
		st = error_set(err, STATUS_IO, "http://example.test/db/trace.db",
			       "connection reset after 0 bytes");
	} else if (off > f->size || len > f->size - off) {
		st = error_set(err, STATUS_IO, "fake", "range outside");
	} else {
		uint8_t *p = buf;
		for (uint64_t i = 0; i < len; i++)
			p[i] = byte_at(off + i);
		usleep(50);
	}
	pthread_mutex_lock(&f->lock);
	f->fetches++;
	f->bytes += len;
	f->last_off = off;
	f->last_len = len;
	f->in_flight--;
	pthread_mutex_unlock(&f->lock);
	return st;
}

static struct fake *fake_new(uint64_t size)
{
	struct fake *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	f->size = size;
	pthread_mutex_init(&f->lock, NULL);
	return f;
}

static void fake_free(void *ctx)
{
	struct fake *f = ctx;
	pthread_mutex_destroy(&f->lock);
	free(f);
}

static struct blob_fetcher fetcher_of(struct fake *f)
{
	return (struct blob_fetcher){.fetch = fake_fetch, .ctx = f};
}

/* The remote file `url` over the fake f (its size), opened with validator
 * v, cache directory dir and configuration cfg (each may be NULL). */
static struct blob_remote *open_fake(struct fake *f, const char *url,
				     const char *v, const char *dir,
				     const struct blob_remote_config *cfg)
{
	struct blob_fetcher fe = fetcher_of(f);
	struct blob_remote *r = NULL;
	struct error err = {0};
	assert_int_equal(blob_remote_open(url, &fe, f->size, v, dir, cfg, &r,
					  &err),
			 STATUS_OK);
	return r;
}

static void assert_pattern(const uint8_t *p, uint64_t off, uint64_t len)
{
	for (uint64_t i = 0; i < len; i++)
		if (p[i] != byte_at(off + i))
			fail_msg("byte %llu of the window at %llu differs",
				 (unsigned long long)i,
				 (unsigned long long)off);
}

/* LEN bytes at OFF read through r into buf are the file's, and f has
 * fetched FETCHES times by then. */
static void expect_read(struct blob_remote *r, const struct fake *f,
			uint64_t off, uint64_t len, uint8_t *buf,
			unsigned fetches)
{
	struct error err = {0};
	assert_int_equal(blob_remote_copy(r, off, len, buf, &err), STATUS_OK);
	assert_pattern(buf, off, len);
	assert_int_equal(f->fetches, fetches);
}

static char tmpdir[64];

static int setup_dir(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test-blob-remote-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
	(void)state;
	blob_unregister_all();
	char *cmd = NULL;
	if (asprintf(&cmd, "rm -rf '%s'", tmpdir) >= 0 && system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", tmpdir);
	free(cmd);
	return 0;
}

static const struct blob_remote_config no_readahead = {
	.readahead = UINT32_MAX,
};

/* ---- degenerate inputs ---- */

static void test_degenerate(void **state)
{
	(void)state;
	struct blob_remote *r = NULL;
	struct error err = {0};
	assert_int_equal(blob_remote_open("u", NULL, 10, NULL, NULL, NULL, &r,
					  &err),
			 STATUS_USAGE);
	assert_null(r);
	error_clear(&err);
	struct blob_fetcher none = {.fetch = NULL};
	assert_int_equal(blob_remote_open("u", &none, 10, NULL, NULL, NULL, &r,
					  &err),
			 STATUS_USAGE);
	error_clear(&err);
	/* an empty remote file: no block, nothing fetched */
	struct fake *f = fake_new(0);
	struct blob_fetcher fe = fetcher_of(f);
	assert_int_equal(blob_remote_open("http://h/empty", &fe, 0, NULL, NULL,
					  NULL, &r, &err),
			 STATUS_OK);
	uint8_t b[4];
	assert_int_equal(blob_remote_copy(r, 0, 0, b, &err), STATUS_OK);
	assert_int_equal(blob_remote_copy(r, 0, 1, b, &err), STATUS_CORRUPT);
	error_clear(&err);
	assert_int_equal(f->fetches, 0);
	blob_remote_close(r);
	blob_remote_close(NULL);
	/* a size a server may claim but no file has: refused before any
	 * bitmap is allocated (2^50 bytes would need a 2 GiB bitmap) */
	r = NULL;
	assert_int_equal(blob_remote_open("http://h/huge", &fe,
					  (uint64_t)1 << 50, NULL, NULL, NULL,
					  &r, &err),
			 STATUS_LIMIT);
	assert_null(r);
	assert_non_null(strstr(err.message, "16 TiB"));
	error_clear(&err);
	fake_free(f);
	/* nothing registered */
	assert_false(blob_path_exists("/nonexistent/dir/trace.db"));
	uint64_t size = 1;
	assert_false(blob_path_size(NULL, &size));
	assert_false(blob_is_remote(NULL));
	blob_unregister("/nonexistent/dir/trace.db");
	/* a registration without a fetcher */
	assert_int_equal(blob_register_fetcher("/x/t.db", "http://h/t.db",
					       &none, 1, NULL, NULL, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_false(blob_path_exists("/x/t.db"));
}

/* ---- block arithmetic ---- */

static void test_block_edges(void **state)
{
	(void)state;
	uint64_t size = 3 * BS + 100; /* the last block has 100 bytes */
	struct fake *f = fake_new(size);
	struct error err = {0};
	uint8_t *buf = malloc(size);
	assert_non_null(buf);
	struct blob_remote *r =
		open_fake(f, "http://h/t", "\"v1\"", NULL, &no_readahead);
	assert_int_equal(blob_remote_size(r), size);
	/* len 0 anywhere inside, and at the very end: no fetch */
	assert_int_equal(blob_remote_copy(r, 5, 0, buf, &err), STATUS_OK);
	assert_int_equal(blob_remote_copy(r, size, 0, buf, &err), STATUS_OK);
	assert_int_equal(f->fetches, 0);
	/* first block, partly: the whole block is fetched */
	expect_read(r, f, 10, 20, buf, 1);
	assert_int_equal(f->last_off, 0);
	assert_int_equal(f->last_len, BS);
	/* the same block again: from memory */
	expect_read(r, f, 0, BS, buf, 1);
	/* a window across blocks 0 and 1: only block 1 is fetched */
	expect_read(r, f, BS - 6, 12, buf, 2);
	assert_int_equal(f->last_off, BS);
	assert_int_equal(f->last_len, BS);
	/* the last, partial block: 100 bytes fetched */
	expect_read(r, f, size - 1, 1, buf, 3);
	assert_int_equal(f->last_off, 3 * BS);
	assert_int_equal(f->last_len, 100);
	/* past the end: STATUS_CORRUPT naming the offset, nothing fetched */
	assert_int_equal(blob_remote_copy(r, size - 1, 2, buf, &err),
			 STATUS_CORRUPT);
	assert_true(err.has_offset);
	assert_int_equal(err.offset, size - 1);
	error_clear(&err);
	assert_int_equal(blob_remote_copy(r, size + 1, 0, buf, &err),
			 STATUS_CORRUPT);
	error_clear(&err);
	assert_int_equal(blob_remote_copy(r, UINT64_MAX, 2, buf, &err),
			 STATUS_CORRUPT);
	error_clear(&err);
	assert_int_equal(f->fetches, 3);
	/* the whole file: only block 2 is missing, one request */
	expect_read(r, f, 0, size, buf, 4);
	assert_int_equal(f->last_off, 2 * BS);
	assert_int_equal(f->last_len, BS);
	assert_int_equal(f->bytes, 3 * BS + 100);
	blob_remote_close(r);
	fake_free(f);
	free(buf);
}

static void test_coalesce_and_readahead(void **state)
{
	(void)state;
	uint64_t size = 40 * BS + 7;
	struct fake *f = fake_new(size);
	struct error err = {0};
	uint8_t *buf = malloc(size);
	assert_non_null(buf);
	struct blob_remote *r = open_fake(f, "http://h/t", NULL, NULL, NULL);
	/* blocks 5..9 missing: one request for the five (a window that does
	 * not follow the previous one: no read-ahead) */
	assert_int_equal(blob_remote_copy(r, 5 * BS + 1, 5 * BS - 2, buf,
					  &err),
			 STATUS_OK);
	assert_pattern(buf, 5 * BS + 1, 5 * BS - 2);
	assert_int_equal(f->fetches, 1);
	assert_int_equal(f->last_off, 5 * BS);
	assert_int_equal(f->last_len, 5 * BS);
	/* the next window follows it: block 10 plus two blocks read ahead */
	expect_read(r, f, 10 * BS, 8, buf, 2);
	assert_int_equal(f->last_off, 10 * BS);
	assert_int_equal(f->last_len, 3 * BS);
	/* ...which are then in memory */
	expect_read(r, f, 11 * BS, 2 * BS, buf, 2);
	/* read-ahead stops at the end of the file */
	assert_int_equal(blob_remote_copy(r, 38 * BS, 8, buf, &err),
			 STATUS_OK);
	assert_int_equal(blob_remote_copy(r, 39 * BS, 8, buf, &err),
			 STATUS_OK);
	assert_int_equal(f->last_off, 39 * BS);
	assert_int_equal(f->last_len, BS + 7);
	/* a window around cached blocks: the missing runs on either side are
	 * separate requests */
	unsigned before = f->fetches;
	/* blocks 2..4, 13..14 */
	expect_read(r, f, 2 * BS, 13 * BS, buf, before + 2);
	assert_int_equal(f->last_off, 13 * BS);
	assert_int_equal(f->last_len, 2 * BS);
	blob_remote_close(r);
	fake_free(f);
	free(buf);
}

/* ---- the memory bound ---- */

static void test_lru_bound(void **state)
{
	(void)state;
	uint64_t size = 200 * BS;
	struct fake *f = fake_new(size);
	struct error err = {0};
	struct blob_remote_stats s;
	const struct blob_remote_config four = {
		.mem_limit = 4 * BS,
		.readahead = UINT32_MAX,
	};
	struct blob_remote *r = open_fake(f, "http://h/t", NULL, NULL, &four);
	uint8_t b[16];
	for (uint64_t k = 0; k < 100; k++) {
		uint64_t off = (k * 37 % 200) * BS + k;
		assert_int_equal(blob_remote_copy(r, off, 16, b, &err),
				 STATUS_OK);
		assert_pattern(b, off, 16);
		blob_remote_get_stats(r, &s);
		assert_true(s.mem_blocks <= 4);
		assert_true(s.mem_bytes <= 4 * BS);
	}
	assert_int_equal(f->fetches, 100);
	assert_int_equal(s.mem_blocks, 4);
	/* the four most recent are kept; the least recent is gone */
	uint64_t recent = (99 * 37 % 200) * BS;
	assert_int_equal(blob_remote_copy(r, recent, 16, b, &err), STATUS_OK);
	assert_int_equal(f->fetches, 100);
	assert_int_equal(blob_remote_copy(r, 0, 16, b, &err), STATUS_OK);
	assert_int_equal(f->fetches, 101);
	/* a window larger than a quarter of the bound bypasses memory */
	uint8_t *big = malloc(8 * BS);
	assert_non_null(big);
	assert_int_equal(blob_remote_copy(r, 100 * BS, 8 * BS, big, &err),
			 STATUS_OK);
	assert_pattern(big, 100 * BS, 8 * BS);
	blob_remote_get_stats(r, &s);
	assert_true(s.mem_blocks <= 4);
	assert_int_equal(s.fetches, 102);
	assert_int_equal(s.fetched_bytes, 101 * BS + 8 * BS);
	free(big);
	blob_remote_close(r);
	fake_free(f);
}

/* ---- the registry and persistence ---- */

static char *in_tmp(const char *name)
{
	char *p = NULL;
	assert_true(asprintf(&p, "%s/%s", tmpdir, name) >= 0);
	return p;
}

/* Register `path` over a new fake of `size` bytes, version `v`, blocks in
 * `dir`. */
static struct fake *register_fake(const char *path, uint64_t size,
				  const char *v, const char *dir)
{
	struct fake *f = fake_new(size);
	struct blob_fetcher fe = {
		.fetch = fake_fetch, .free_ctx = fake_free, .ctx = f};
	struct error err = {0};
	assert_int_equal(blob_register_fetcher(path, "http://h/db/trace.db",
					       &fe, size, v, dir, &err),
			 STATUS_OK);
	return f;
}

static const uint64_t probes[] = {0, 12, BS - 5, 7 * BS + 3, 30 * BS - 12};

static void read_probes(struct blob *b)
{
	struct error err = {0};
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		struct span w;
		assert_int_equal(blob_read(b, probes[i], 12, &w, &err),
				 STATUS_OK);
		assert_int_equal(w.len, 12);
		assert_pattern(w.data, probes[i], 12);
	}
}

static void test_registry_persistence(void **state)
{
	(void)state;
	uint64_t size = 30 * BS;
	char *path = in_tmp("trace.db"), *dir = in_tmp("trace.db.blocks");
	char *odd = NULL;
	assert_true(asprintf(&odd, "%s//./trace.db", tmpdir) >= 0);
	struct error err = {0};
	struct blob *b = NULL;
	struct fake *f = register_fake(path, size, "\"etag-1\"", dir);
	/* the path answers as a file, also spelled differently */
	uint64_t got = 0;
	assert_true(blob_path_exists(path));
	assert_true(blob_path_size(odd, &got));
	assert_int_equal(got, size);
	assert_int_equal(blob_open_file(odd, &b, &err), STATUS_OK);
	assert_true(blob_is_remote(b));
	assert_int_equal(blob_size(b), size);
	read_probes(b);
	/* blocks 0..2 (a read from the start counts as sequential: two
	 * blocks read ahead), 7, 29 */
	assert_int_equal(f->fetches, 3);
	/* a piece that stays valid across reads; only its blocks fetched */
	struct span piece, piece2;
	assert_int_equal(blob_map_range(b, 20 * BS + 5, BS, &piece, &err),
			 STATUS_OK);
	assert_int_equal(f->fetches, 4); /* blocks 20 and 21, one request */
	read_probes(b);
	assert_int_equal(blob_map_range(b, 0, 0, &piece2, &err), STATUS_OK);
	assert_int_equal(piece2.len, 0);
	assert_int_equal(piece.len, BS);
	assert_pattern(piece.data, 20 * BS + 5, BS);
	assert_int_equal(blob_map_range(b, size - 1, 2, &piece2, &err),
			 STATUS_CORRUPT);
	error_clear(&err);
	/* the whole file for metadata, then windows still work */
	struct span all;
	assert_int_equal(blob_map_all(b, &all, &err), STATUS_OK);
	assert_int_equal(all.len, size);
	assert_pattern(all.data, 0, size);
	read_probes(b);
	blob_close(b);
	/* a new registration (a new process): every block from disk */
	f = register_fake(path, size, "\"etag-1\"", dir);
	assert_int_equal(blob_open_file(path, &b, &err), STATUS_OK);
	read_probes(b);
	assert_int_equal(blob_map_all(b, &all, &err), STATUS_OK);
	assert_pattern(all.data, 0, size);
	assert_int_equal(f->fetches, 0);
	blob_close(b);
	/* the validator changed: the cache is dropped */
	f = register_fake(path, size, "\"etag-2\"", dir);
	assert_int_equal(blob_open_file(path, &b, &err), STATUS_OK);
	read_probes(b);
	assert_int_equal(f->fetches, 3);
	blob_close(b);
	/* the size changed, the same validator: dropped too */
	f = register_fake(path, size - 100, "\"etag-2\"", dir);
	assert_int_equal(blob_open_file(path, &b, &err), STATUS_OK);
	struct span w;
	assert_int_equal(blob_read(b, 0, 8, &w, &err), STATUS_OK);
	assert_pattern(w.data, 0, 8);
	assert_int_equal(f->fetches, 1);
	blob_close(b);
	/* unregistered: the path is a plain (missing) file again */
	blob_unregister(path);
	assert_false(blob_path_exists(path));
	assert_int_equal(blob_open_file(path, &b, &err), STATUS_NOT_FOUND);
	error_clear(&err);
	free(odd);
	free(path);
	free(dir);
}

/* --offline: the blocks an earlier registration persisted are read with
 * the size and validator saved with them; a missing block is an error
 * naming the URL, never made-up bytes; no blocks at all: NOT_FOUND. */
static void test_offline(void **state)
{
	(void)state;
	uint64_t size = 10 * BS + 17, got_size = 0;
	char *path = in_tmp("off.db"), *dir = in_tmp("off.db.blocks");
	char *v = NULL;
	struct error err = {0};
	struct blob *b = NULL;
	struct span w;
	/* degenerate: nothing persisted yet, a meta that is not ours */
	assert_int_equal(blob_remote_read_meta(dir, &got_size, &v, &err),
			 STATUS_NOT_FOUND);
	error_clear(&err);
	assert_int_equal(blob_register_offline(path, "http://h/off.db", &err),
			 STATUS_NOT_FOUND);
	error_clear(&err);
	assert_int_equal(blob_register_offline(NULL, "u", &err), STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(mkdir(dir, 0700), 0);
	char *meta = in_tmp("off.db.blocks/meta");
	FILE *mf = fopen(meta, "w");
	assert_non_null(mf);
	fputs("callscope block cache 1\nsize 12\n", mf);
	fclose(mf);
	assert_int_equal(blob_remote_read_meta(dir, &got_size, &v, &err),
			 STATUS_CORRUPT);
	error_clear(&err);
	unlink(meta);
	/* online: blocks 0 and 5 are fetched and persisted */
	struct fake *f = register_fake(path, size, "Tue, 3 Jun 2025 10:00:00 GMT",
				       dir);
	assert_int_equal(blob_open_file(path, &b, &err), STATUS_OK);
	assert_int_equal(blob_read(b, 5, 10, &w, &err), STATUS_OK);
	assert_int_equal(blob_read(b, 5 * BS + 1, 100, &w, &err), STATUS_OK);
	assert_true(f->fetches >= 1);
	blob_close(b);
	blob_unregister(path);
	/* what was saved */
	assert_int_equal(blob_remote_read_meta(dir, &got_size, &v, &err),
			 STATUS_OK);
	assert_int_equal(got_size, size);
	assert_string_equal(v, "Tue, 3 Jun 2025 10:00:00 GMT");
	free(v);
	/* offline: the same bytes from disk, a missing block an error */
	assert_int_equal(blob_register_offline(path, "http://h/off.db", &err),
			 STATUS_OK);
	assert_true(blob_path_size(path, &got_size));
	assert_int_equal(got_size, size);
	assert_int_equal(blob_open_file(path, &b, &err), STATUS_OK);
	assert_int_equal(blob_size(b), size);
	assert_int_equal(blob_read(b, 5, 10, &w, &err), STATUS_OK);
	assert_pattern(w.data, 5, 10);
	assert_int_equal(blob_read(b, 5 * BS + 1, 100, &w, &err), STATUS_OK);
	assert_pattern(w.data, 5 * BS + 1, 100);
	assert_int_equal(blob_read(b, 9 * BS, 8, &w, &err), STATUS_NOT_FOUND);
	char *line = error_format(&err);
	assert_non_null(line);
	assert_non_null(strstr(line, "http://h/off.db"));
	assert_non_null(strstr(line, "not in the cache (--offline)"));
	free(line);
	error_clear(&err);
	blob_close(b);
	blob_unregister(path);
	free(meta);
	free(path);
	free(dir);
}

/* A process that fetches blocks and dies before the bitmap is flushed
 * leaves them unmarked: they are fetched again, never trusted. */
static void test_crash_before_flush(void **state)
{
	(void)state;
	uint64_t size = 16 * BS;
	char *dir = in_tmp("crash.blocks");
	const struct blob_remote_config lazy = {.flush_every = 1000,
						.readahead = UINT32_MAX};
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct fake *f = fake_new(size);
		struct blob_fetcher fe = fetcher_of(f);
		struct blob_remote *r = NULL;
		uint8_t b[8];
		if (blob_remote_open("u", &fe, size, "v", dir, &lazy, &r,
				     NULL) != STATUS_OK)
			_exit(1);
		/* block 0 is flushed explicitly, block 3 is not */
		if (blob_remote_copy(r, 0, 8, b, NULL) != STATUS_OK ||
		    blob_remote_flush(r, NULL) != STATUS_OK ||
		    blob_remote_copy(r, 3 * BS, 8, b, NULL) != STATUS_OK)
			_exit(1);
		_exit(0); /* a crash: no close */
	}
	int ws = 0;
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
	struct fake *f = fake_new(size);
	struct blob_remote *r = open_fake(f, "u", "v", dir, &lazy);
	uint8_t b[8];
	expect_read(r, f, 0, 8, b, 0);
	expect_read(r, f, 3 * BS, 8, b, 1);
	struct blob_remote_stats s;
	blob_remote_get_stats(r, &s);
	assert_int_equal(s.disk_reads, 1);
	blob_remote_close(r);
	fake_free(f);
	free(dir);
}

/* Two users of one cache directory (two processes: flock locks belong to
 * open files, so two opens in one process contend as two processes do):
 * each reads what the other saved; another version does not empty the
 * directory under a user, and does once nobody uses it. */
static void test_shared_directory(void **state)
{
	(void)state;
	uint64_t size = 16 * BS;
	char *dir = in_tmp("shared.blocks");
	struct error err = {0};
	uint8_t b[8];
	struct fake *f1 = fake_new(size), *f2 = fake_new(size);
	struct fake *f3 = fake_new(size), *f4 = fake_new(size);
	struct blob_remote *r1 = open_fake(f1, "u", "v", dir, &no_readahead);
	assert_int_equal(blob_remote_copy(r1, 0, 8, b, &err), STATUS_OK);
	assert_int_equal(blob_remote_copy(r1, 3 * BS, 8, b, &err), STATUS_OK);
	assert_int_equal(blob_remote_flush(r1, &err), STATUS_OK);
	assert_int_equal(f1->fetches, 2);
	/* the second user reads the first one's blocks from disk */
	struct blob_remote *r2 = open_fake(f2, "u", "v", dir, &no_readahead);
	expect_read(r2, f2, 3 * BS + 5, 8, b, 0);
	assert_int_equal(blob_remote_copy(r2, 5 * BS, 8, b, &err), STATUS_OK);
	assert_int_equal(f2->fetches, 1);
	assert_int_equal(blob_remote_flush(r2, &err), STATUS_OK);
	/* a third user of the same version sees both users' blocks: the
	 * flushes merged the bitmaps */
	assert_int_equal(blob_remote_copy(r1, 7 * BS, 8, b, &err), STATUS_OK);
	assert_int_equal(blob_remote_flush(r1, &err), STATUS_OK);
	struct blob_remote *r3 = open_fake(f3, "u", "v", dir, &no_readahead);
	for (uint64_t k = 0; k < 8; k += 1) {
		if (k != 0 && k != 3 && k != 5 && k != 7)
			continue;
		assert_int_equal(blob_remote_copy(r3, k * BS, 8, b, &err),
				 STATUS_OK);
		assert_pattern(b, k * BS, 8);
	}
	assert_int_equal(f3->fetches, 0);
	blob_remote_close(r3);
	/* another version while r1 and r2 are open: kept in memory, the
	 * directory left alone */
	struct blob_remote *r4 = open_fake(f4, "u", "w", dir, &no_readahead);
	expect_read(r4, f4, 0, 8, b, 1);
	blob_remote_close(r4);
	expect_read(r2, f2, 0, 8, b, 1); /* still from disk */
	blob_remote_close(r1);
	blob_remote_close(r2);
	/* nobody uses it now: the new version takes the directory over */
	f4->fetches = 0;
	r4 = open_fake(f4, "u", "w", dir, &no_readahead);
	assert_int_equal(blob_remote_copy(r4, 3 * BS, 8, b, &err), STATUS_OK);
	assert_int_equal(f4->fetches, 1);
	uint64_t msize = 0;
	char *validator = NULL;
	assert_int_equal(blob_remote_read_meta(dir, &msize, &validator, &err),
			 STATUS_OK);
	assert_string_equal(validator, "w");
	free(validator);
	/* flushes write only the bitmap bytes that changed: the file keeps
	 * its full size (one bit per block) */
	assert_int_equal(blob_remote_flush(r4, &err), STATUS_OK);
	char *bitmap = in_tmp("shared.blocks/bitmap");
	struct stat sb;
	assert_int_equal(stat(bitmap, &sb), 0);
	assert_int_equal(sb.st_size, 2); /* 16 blocks */
	free(bitmap);
	blob_remote_close(r4);
	fake_free(f1);
	fake_free(f2);
	fake_free(f3);
	fake_free(f4);
	free(dir);
}

/* ---- errors ---- */

static void test_fetch_error(void **state)
{
	(void)state;
	char *path = in_tmp("err.db");
	struct fake *f = register_fake(path, 4 * BS, NULL, NULL);
	struct blob *b = NULL;
	struct error err = {0};
	struct span w;
	assert_int_equal(blob_open_file(path, &b, &err), STATUS_OK);
	f->fail = true;
	assert_int_equal(blob_read(b, 100, 12, &w, &err), STATUS_IO);
	char *line = error_format(&err);
	assert_non_null(line);
	assert_non_null(strstr(line, "http://example.test/db/trace.db"));
	assert_non_null(strstr(line, "connection reset"));
	free(line);
	error_clear(&err);
	/* the whole file fails the same way */
	struct span all;
	assert_int_equal(blob_map_all(b, &all, &err), STATUS_IO);
	error_clear(&err);
	/* the network is back: the same read works */
	f->fail = false;
	assert_int_equal(blob_read(b, 100, 12, &w, &err), STATUS_OK);
	assert_pattern(w.data, 100, 12);
	blob_close(b);
	free(path);
}

/* ---- two threads ---- */

struct reader_arg {
	struct blob *blob;
	uint64_t size;
	unsigned seed;
	int bad;
};

static void *reader_thread(void *p)
{
	struct reader_arg *a = p;
	unsigned s = a->seed;
	for (int i = 0; i < 3000; i++) {
		s = s * 1103515245u + 12345u;
		uint64_t len = 1 + s % 200;
		uint64_t off = ((uint64_t)s * 7919u) % (a->size - len);
		struct span w;
		if (blob_read(a->blob, off, len, &w, NULL) != STATUS_OK) {
			a->bad++;
			continue;
		}
		for (uint64_t k = 0; k < len; k++)
			if (w.data[k] != byte_at(off + k)) {
				a->bad++;
				break;
			}
	}
	return NULL;
}

static void test_two_threads(void **state)
{
	(void)state;
	uint64_t size = 300 * BS + 11;
	char *path = in_tmp("threads.db"), *dir = in_tmp("threads.blocks");
	struct fake *f = register_fake(path, size, "v", dir);
	struct blob *b = NULL;
	struct error err = {0};
	assert_int_equal(blob_open_file(path, &b, &err), STATUS_OK);
	struct reader_arg a[2] = {
		{.blob = b, .size = size, .seed = 1},
		{.blob = b, .size = size, .seed = 2},
	};
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, reader_thread,
						&a[i]),
				 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	assert_int_equal(a[0].bad, 0);
	assert_int_equal(a[1].bad, 0);
	assert_int_equal(f->max_in_flight, 1);
	assert_true(f->fetches > 0);
	blob_close(b);
	free(path);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_block_edges),
		cmocka_unit_test(test_coalesce_and_readahead),
		cmocka_unit_test(test_lru_bound),
		cmocka_unit_test(test_registry_persistence),
		cmocka_unit_test(test_crash_before_flush),
		cmocka_unit_test(test_shared_directory),
		cmocka_unit_test(test_fetch_error),
		cmocka_unit_test(test_two_threads),
		cmocka_unit_test(test_offline),
	};
	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
