/* Tests of interval lookups over nested and overlapping intervals (rocpd's
 * host threads and GPU queues with firmware timestamp errors): the rocpd
 * reader's sort and `up` links (gpu_run_iv_sort_link, gpu_run_iv_active) and
 * the trace index (trace_interval_active, trace_cells, trace_sample_at)
 * through a model, each compared with a brute-force scan: the interval
 * active at t is the latest-begun one (in sorted order) with
 * begin <= t < end, idle when none.  Degenerate inputs first. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "formats/gpu_run.h"
#include "views/trace_index.h"

#define N_MAX 2000

struct fake {
	struct gpu_run_iv iv[N_MAX];
	uint64_t n;
};

static bool fake_interval(void *impl, uint32_t line, uint64_t i,
			  struct trace_interval *out)
{
	struct fake *f = impl;
	if (line != 0 || i >= f->n)
		return false;
	*out = (struct trace_interval){.begin = f->iv[i].begin,
				       .end = f->iv[i].end,
				       .ctx_id = f->iv[i].ctx,
				       .event = f->iv[i].event,
				       .up = f->iv[i].up};
	return true;
}

static void fake_close(void *impl)
{
	(void)impl;
}

static const struct trace_ops fake_ops = {
	.interval = fake_interval,
	.close = fake_close,
};

static uint64_t brute(const struct fake *f, uint64_t t)
{
	uint64_t best = UINT64_MAX;
	for (uint64_t i = 0; i < f->n; i++)
		if (f->iv[i].begin <= t && t < f->iv[i].end)
			best = i;
	return best;
}

/* Random intervals: nested runs (children inside parents), partial
 * overlaps, zero-length ones and equal timestamps. */
static void make(struct fake *f, unsigned seed, uint64_t n)
{
	srand(seed);
	uint64_t t = 1000;
	f->n = n;
	for (uint64_t i = 0; i < n; i++) {
		int mode = rand() % 6;
		uint64_t b = t, e;
		if (mode == 0)
			e = b; /* zero length */
		else if (mode == 1)
			e = b + 1 + (uint64_t)(rand() % 5000); /* long: parent */
		else
			e = b + 1 + (uint64_t)(rand() % 50);
		f->iv[i] = (struct gpu_run_iv){.begin = b, .end = e,
					     .event = i, .ctx = 1 + (uint32_t)(i % 7)};
		if (rand() % 4)
			t += (uint64_t)(rand() % 30); /* 0: equal begins */
	}
	/* shuffle, so that the sort does the work */
	for (uint64_t i = n; i > 1; i--) {
		uint64_t j = (uint64_t)rand() % i;
		struct gpu_run_iv x = f->iv[i - 1];
		f->iv[i - 1] = f->iv[j];
		f->iv[j] = x;
	}
	gpu_run_iv_sort_link(f->iv, n);
}

static void test_degenerate(void **state)
{
	(void)state;
	gpu_run_iv_sort_link(NULL, 0);
	assert_true(gpu_run_iv_active(NULL, 0, 5) == UINT64_MAX);
	struct gpu_run_iv one = {.begin = 10, .end = 20};
	gpu_run_iv_sort_link(&one, 1);
	assert_int_equal(one.up, 0);
	assert_true(gpu_run_iv_active(&one, 1, 9) == UINT64_MAX);
	assert_true(gpu_run_iv_active(&one, 1, 10) == 0);
	assert_true(gpu_run_iv_active(&one, 1, 20) == UINT64_MAX);
}

static void test_links_brute(void **state)
{
	(void)state;
	static struct fake f;
	for (unsigned seed = 1; seed <= 20; seed++) {
		make(&f, seed, 1 + (uint64_t)(seed * 97) % N_MAX);
		uint64_t end = f.iv[f.n - 1].end + 100;
		for (uint64_t i = 1; i < f.n; i++)
			assert_true(f.iv[i - 1].begin <= f.iv[i].begin);
		for (uint64_t t = 900; t < end; t += 1 + (t % 7))
			assert_true(gpu_run_iv_active(f.iv, f.n, t) ==
				    brute(&f, t));
	}
}

static struct model *model_of(struct fake *f)
{
	struct model_builder *b = model_builder_new("test", "fake");
	assert_non_null(b);
	for (uint32_t k = 1; k <= 7; k++) {
		struct model_node n = {.ctx_id = k,
				       .name = model_builder_intern(b, "f", 1),
				       .function = MODEL_NONE,
				       .kind = NODE_FUNCTION};
		assert_int_equal(model_builder_add_node(b, 0, &n), k);
	}
	struct model_timeline tl = {.profile = MODEL_NONE,
				    .label = 0,
				    .kind = TIMELINE_INTERVALS,
				    .count = f->n};
	assert_int_equal(model_builder_add_timeline(b, &tl), 0);
	model_builder_set_trace(b, &fake_ops, f);
	struct error err = {0};
	struct model *m = model_builder_finish(b, &err);
	assert_non_null(m);
	return m;
}

static void test_index_brute(void **state)
{
	(void)state;
	static struct fake f;
	for (unsigned seed = 30; seed < 40; seed++) {
		make(&f, seed, 50 + (uint64_t)seed * 37);
		struct model *m = model_of(&f);
		uint64_t from = 900, to = f.iv[f.n - 1].end + 100;
		for (uint64_t t = from; t < to; t += 1 + (t % 5)) {
			struct trace_interval iv;
			uint64_t idx, want = brute(&f, t);
			bool found = trace_interval_active(m, 0, t, &iv, &idx);
			assert_int_equal(found, want != UINT64_MAX);
			if (found) {
				assert_true(idx == want);
				assert_true(iv.begin <= t && t < iv.end);
			}
			struct trace_sample s;
			if (trace_sample_at(m, 0, t, &s, NULL))
				assert_int_equal(s.ctx_id,
						 want == UINT64_MAX
							 ? 0
							 : f.iv[want].ctx);
			else
				assert_true(want == UINT64_MAX);
		}
		/* a window: every cell is the brute-force answer */
		uint32_t cols = 997;
		uint32_t *cells = calloc(cols, sizeof(*cells));
		assert_non_null(cells);
		trace_cells(m, 0, from, to, cols, UINT32_MAX, cells);
		for (uint32_t k = 0; k < cols; k++) {
			uint64_t t = trace_cell_time(from, to, cols, k);
			uint64_t want = brute(&f, t);
			assert_int_equal(cells[k],
					 want == UINT64_MAX ? 0 : f.iv[want].ctx);
		}
		free(cells);
		model_free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_links_brute),
		cmocka_unit_test(test_index_brute),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
