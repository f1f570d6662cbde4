/* Tests of interval lookups over nested and overlapping intervals (rocpd's
 * host threads and GPU queues with firmware timestamp errors): the rocpd
 * reader's sort and `up` links (gpu_run_iv_sort_link, gpu_run_iv_active) and
 * the trace index (trace_interval_active, trace_cells, trace_sample_at)
 * through a model, each compared with a brute-force scan: the interval
 * active at t is the latest-begun one (in sorted order) with
 * begin <= t < end, idle when none.  Instants (marks) of the same track,
 * some at intervals' begins and ends and several at one time, against a
 * scan of their sorted array: the first in a span, how many, a window's
 * cells (trace_instants_in, trace_instant_cells), and the interval lookup
 * unchanged by them.  Degenerate inputs first. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "formats/gpu_run/gpu_run.h"
#include "views/trace_index.h"
#include "build_fixture.h"

#define N_MAX 2000

struct fake {
	struct gpu_run_iv iv[N_MAX];
	uint64_t n;
	struct gpu_run_instant in[N_MAX];
	uint64_t n_in;
};

static bool fake_instant(void *impl, uint32_t line, uint64_t i,
			 struct trace_instant *out)
{
	struct fake *f = impl;
	if (line != 0 || i >= f->n_in)
		return false;
	*out = (struct trace_instant){.time = f->in[i].t,
				      .event = f->in[i].event,
				      .name = f->in[i].name};
	return true;
}

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

static const struct trace_ops fake_ops = {
	.interval = fake_interval,
	.instant = fake_instant,
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
				    .count = f->n,
				    .n_instants = f->n_in};
	assert_int_equal(model_builder_add_timeline(b, &tl), 0);
	model_builder_set_trace(b, &fake_ops, f);
	return fixture_finish(b);
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

/* Instants: at intervals' begins and ends, between, several at once;
 * stored out of order, sorted by gpu_run_instants_sort. */
static void make_instants(struct fake *f, unsigned seed)
{
	srand(seed);
	f->n_in = 0;
	for (uint64_t i = 0; i < f->n && f->n_in + 3 < N_MAX; i++) {
		int mode = rand() % 5;
		uint64_t t = mode == 0	 ? f->iv[i].begin
			     : mode == 1 ? f->iv[i].end
			     : mode == 2 ? f->iv[i].begin + 1
					 : UINT64_MAX;
		if (t == UINT64_MAX)
			continue;
		int k = rand() % 3 == 0 ? 2 : 1; /* two at one time */
		for (int j = 0; j < k; j++)
			f->in[f->n_in++] = (struct gpu_run_instant){
				.t = t, .event = (uint64_t)rand() % 1000,
				.name = 1 + (uint32_t)j};
	}
	/* reverse, then sort */
	for (uint64_t a = 0, b = f->n_in ? f->n_in - 1 : 0; a < b; a++, b--) {
		struct gpu_run_instant x = f->in[a];
		f->in[a] = f->in[b];
		f->in[b] = x;
	}
	gpu_run_instants_sort(f->in, f->n_in);
	for (uint64_t i = 1; i < f->n_in; i++)
		assert_true(f->in[i - 1].t < f->in[i].t ||
			    (f->in[i - 1].t == f->in[i].t &&
			     f->in[i - 1].event <= f->in[i].event));
}

/* The first instant in [t0, t1) and how many, by a scan. */
static uint64_t brute_in(const struct fake *f, uint64_t t0, uint64_t t1,
			 uint64_t *first)
{
	uint64_t n = 0;
	*first = UINT64_MAX;
	for (uint64_t i = 0; i < f->n_in; i++)
		if (f->in[i].t >= t0 && f->in[i].t < t1) {
			if (!n)
				*first = i;
			n++;
		}
	return n;
}

static void test_instants_brute(void **state)
{
	(void)state;
	static struct fake f;
	for (unsigned seed = 50; seed < 60; seed++) {
		make(&f, seed, 40 + (uint64_t)seed * 23);
		make_instants(&f, seed);
		struct model *m = model_of(&f);
		uint64_t from = 900, to = f.iv[f.n - 1].end + 100;
		for (uint64_t t = from; t < to; t += 1 + (t % 3)) {
			uint64_t first, want_first, span = t % 4;
			uint64_t n = trace_instants_in(m, 0, t, t + span, &first);
			uint64_t want = brute_in(&f, t, span ? t + span : t + 1,
						 &want_first);
			assert_true(n == want);
			assert_true(first == want_first);
			/* intervals are answered as without instants */
			struct trace_interval iv;
			uint64_t idx, wi = brute(&f, t);
			assert_int_equal(trace_interval_active(m, 0, t, &iv, &idx),
					 wi != UINT64_MAX);
			if (wi != UINT64_MAX)
				assert_true(idx == wi);
		}
		for (uint32_t cols = 1; cols < 2000; cols = cols * 3 + 1) {
			uint64_t *cells = calloc(cols, sizeof(*cells));
			assert_non_null(cells);
			trace_instant_cells(m, 0, from, to, cols, cells);
			for (uint32_t k = 0; k < cols; k++) {
				uint64_t a = trace_cell_time(from, to, cols, k);
				uint64_t b = k + 1 < cols
						     ? trace_cell_time(from, to,
								       cols, k + 1)
						     : to;
				uint64_t w;
				brute_in(&f, a, b > a ? b : a + 1, &w);
				assert_true(cells[k] == w);
			}
			free(cells);
		}
		/* a window narrower than its cells: spans of no time */
		uint64_t *cells = calloc(50, sizeof(*cells));
		assert_non_null(cells);
		uint64_t t0 = f.n_in ? f.in[0].t : 1000;
		trace_instant_cells(m, 0, t0, t0 + 10, 50, cells);
		for (uint32_t k = 0; k < 50; k++) {
			uint64_t a = trace_cell_time(t0, t0 + 10, 50, k);
			uint64_t b = k + 1 < 50 ? trace_cell_time(t0, t0 + 10, 50,
								  k + 1)
						: t0 + 10;
			uint64_t w;
			brute_in(&f, a, b > a ? b : a + 1, &w);
			assert_true(cells[k] == w);
		}
		free(cells);
		model_free(m);
	}
	/* no instants: nothing found, every cell empty */
	make(&f, 3, 10);
	f.n_in = 0;
	struct model *m = model_of(&f);
	uint64_t first, cell[4];
	assert_true(trace_instants_in(m, 0, 0, UINT64_MAX, &first) == 0);
	assert_true(first == UINT64_MAX);
	trace_instant_cells(m, 0, 0, 100000, 4, cell);
	for (int k = 0; k < 4; k++)
		assert_true(cell[k] == UINT64_MAX);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_links_brute),
		cmocka_unit_test(test_index_brute),
		cmocka_unit_test(test_instants_brute),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
