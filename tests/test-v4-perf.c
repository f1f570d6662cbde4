/* test-v4-perf: decoding a large meta.db context tree (300,000 contexts by
 * default, a complete 4-ary tree of function contexts with source
 * locations, laid out breadth-first, which is the worst order for a
 * depth-first walk) gives the tree the generator describes.  It prints the
 * time it took but asserts none: speed targets are checked by bench/, not
 * by unit tests.  V4_PERF_CONTEXTS overrides the size (e.g. 3000000). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "formats/hpctoolkit_v4/v4_file.h"
#include "formats/hpctoolkit_v4/v4_meta.h"


#define FANOUT 4
#define N_FUNCS 1000
#define N_FILES 100
#define CTX_SIZE 56 /* 0x20 + 3 flex words: pFunction, pFile, line */

static void p64(uint8_t *b, uint64_t off, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[off + i] = (uint8_t)(v >> (8 * i));
}

static void p32(uint8_t *b, uint64_t off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[off + i] = (uint8_t)(v >> (8 * i));
}

static uint64_t align8(uint64_t v)
{
	return (v + 7) & ~(uint64_t)7;
}

/* Context i (0-based, ctxId i + 2) has children FANOUT*(i+1) .. +FANOUT-1;
 * the entry (ctxId 1) has children 0 .. FANOUT-1. */
static uint8_t *generate(uint64_t n, uint64_t *len)
{
	uint64_t strings = 0x90, strings_size = 16;
	uint64_t files = align8(strings + strings_size);
	uint64_t file_arr = files + 0x10;
	uint64_t funcs = file_arr + 0x10 * N_FILES;
	uint64_t func_arr = funcs + 0x10;
	uint64_t ctx_sec = func_arr + 0x28 * N_FUNCS;
	uint64_t entry = ctx_sec + 0x10;
	uint64_t ctxs = entry + 0x20;
	uint64_t end = ctxs + n * CTX_SIZE;
	*len = end + 8;
	uint8_t *b = calloc(1, *len);
	assert_non_null(b);
	memcpy(b, "HPCTOOLKITmeta\x04\x00", 16);
	/* {size, offset} of the eight sections; General, Identifier Names,
	 * Performance Metrics and Load Modules are absent */
	const uint64_t sections[8][2] = {
		{0, 0},
		{0, 0},
		{0, 0},
		{end - ctx_sec, ctx_sec},
		{strings_size, strings},
		{0, 0},
		{funcs - files, files},
		{ctx_sec - funcs, funcs},
	};
	for (int i = 0; i < 8; i++) {
		p64(b, 0x10 + 16 * i, sections[i][0]);
		p64(b, 0x18 + 16 * i, sections[i][1]);
	}
	memcpy(b + strings, "f.c\0fn\0main\0", 12);
	p64(b, files, file_arr);
	p32(b, files + 8, N_FILES);
	b[files + 0x0c] = 0x10;
	for (uint64_t i = 0; i < N_FILES; i++)
		p64(b, file_arr + 0x10 * i + 8, strings);
	p64(b, funcs, func_arr);
	p32(b, funcs + 8, N_FUNCS);
	b[funcs + 0x0c] = 0x28;
	for (uint64_t i = 0; i < N_FUNCS; i++)
		p64(b, func_arr + 0x28 * i, strings + 4);
	p64(b, ctx_sec, entry);
	b[ctx_sec + 8] = 1;
	b[ctx_sec + 0x0a] = 0x20;
	p64(b, entry, (n < FANOUT ? n : FANOUT) * CTX_SIZE);
	p64(b, entry + 8, ctxs);
	p32(b, entry + 0x10, 1);
	b[entry + 0x14] = 1;
	p64(b, entry + 0x18, strings + 7);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t at = ctxs + i * CTX_SIZE;
		uint64_t first = FANOUT * (i + 1);
		if (first < n) {
			uint64_t k = n - first < FANOUT ? n - first : FANOUT;
			p64(b, at, k * CTX_SIZE);
			p64(b, at + 8, ctxs + first * CTX_SIZE);
		}
		p32(b, at + 0x10, (uint32_t)(i + 2));
		b[at + 0x14] = 1 | 2;
		b[at + 0x15] = 1;
		b[at + 0x16] = 0;
		b[at + 0x17] = 3;
		p64(b, at + 0x20, func_arr + 0x28 * (i % N_FUNCS));
		p64(b, at + 0x28, file_arr + 0x10 * (i % N_FILES));
		p32(b, at + 0x30, (uint32_t)(i % 5000));
	}
	memcpy(b + end, "_meta.db", 8);
	return b;
}

static void test_large_tree(void **state)
{
	(void)state;
	uint64_t n = 300000;
	const char *env = getenv("V4_PERF_CONTEXTS");
	if (env)
		n = strtoull(env, NULL, 10);
	uint64_t len;
	uint8_t *data = generate(n, &len);
	struct blob *blob = NULL;
	struct v4_file f;
	struct v4_meta meta;
	struct error err = {.status = STATUS_OK};
	struct timespec t0, t1, c0, c1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	assert_int_equal(blob_open_memory(data, len, "big/meta.db", &blob,
					  &err),
			 STATUS_OK);
	assert_int_equal(v4_file_open_blob(blob, V4_FORMAT_META, &f, &err),
			 STATUS_OK);
	struct model_builder *b = model_builder_new("hpctoolkit-v4", "big");
	assert_non_null(b);
	enum status st = v4_meta_read(&f, b, &meta, &err);
	if (st != STATUS_OK)
		fail_msg("%s", err.message);
	struct model *m = model_builder_finish(b, &err);
	assert_non_null(m);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	double cpu_ms = (double)(c1.tv_sec - c0.tv_sec) * 1e3 +
			(double)(c1.tv_nsec - c0.tv_nsec) / 1e6;
	print_message("%llu contexts (%.0f MB) decoded in %.1f ms "
		      "(%.1f ms of CPU)\n",
		      (unsigned long long)n, (double)len / 1e6, ms, cpu_ms);
	/* root + entry + n contexts; the generator's parent relation */
	assert_int_equal(model_n_nodes(m), n + 2);
	assert_int_equal(model_n_functions(m), n < N_FUNCS ? n : N_FUNCS);
	for (uint64_t i = 0; i < n; i += 9973) {
		uint32_t node = model_node_of_ctx(m, (uint32_t)(i + 2));
		assert_int_not_equal(node, MODEL_NONE);
		uint32_t parent = model_nodes(m)[model_nodes(m)[node].parent].ctx_id;
		uint32_t want = i < FANOUT ? 1 : (uint32_t)(i / FANOUT - 1 + 2);
		assert_int_equal(parent, want);
		assert_int_equal(model_nodes(m)[node].line, i % 5000);
		assert_string_equal(model_str(m, model_nodes(m)[node].name), "fn");
	}
	model_free(m);
	v4_meta_free(&meta);
	v4_file_close(&f);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_large_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
