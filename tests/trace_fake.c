/* The fake trace provider of the trace_view tests and their fixture
 * (declared in tests/trace_fake.h): the samples are a fixed pseudo-random
 * walk, the intervals written out; the model is built by hand with the
 * model builder, nothing read from a file. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"
#include "views/trace_index.h"
#include "views/trace_view.h"

#include "trace_fake.h"
#include "build_fixture.h"

static bool fake_sample(void *impl, uint32_t line, uint64_t i,
			struct trace_sample *out)
{
	struct fake *f = impl;
	if (line >= N_LINES || i >= f->counts[line])
		return false;
	f->reads++;
	*out = f->samples[line][i];
	return true;
}

static bool fake_interval(void *impl, uint32_t line, uint64_t i,
			  struct trace_interval *out)
{
	struct fake *f = impl;
	if (line != f->interval_line || i >= f->n_intervals)
		return false;
	f->reads++;
	*out = f->intervals[i];
	return true;
}

static const struct trace_ops fake_ops = {.sample = fake_sample,
					  .interval = fake_interval};


static const uint32_t ctx_pool[] = {0, 1, 2, 3, 4, 5, 6, 7};
const uint32_t chains[8][3] = {
	{0}, {1}, {1, 2}, {1, 2}, {1, 2}, {1, 5}, {1, 5, 6}, {7},
};
const uint32_t chain_len[8] = {0, 1, 2, 2, 2, 2, 3, 1};

uint32_t brute_depth(uint32_t ctx, uint32_t d)
{
	if (ctx == 0)
		return 0;
	uint32_t n = chain_len[ctx];
	return chains[ctx][d < n ? d : n - 1];
}

static void fill(struct fake *f, bool with_intervals)
{
	memset(f, 0, sizeof(*f));
	uint32_t seed = 12345;
	for (uint32_t l = 0; l < N_LINES; l++) {
		/* line 3 is empty, line 4 has one sample, others many with
		 * equal consecutive timestamps now and then */
		f->counts[l] = l == 3 ? 0 : l == 4 ? 1 : N_SAMPLES;
		uint64_t t = 1000 + l * 7;
		for (uint64_t i = 0; i < f->counts[l]; i++) {
			seed = seed * 1103515245u + 12345u;
			uint32_t r = seed >> 16;
			if (r % 5 != 0)
				t += 1 + r % 23;
			f->samples[l][i] = (struct trace_sample){
				.time = t, .ctx_id = ctx_pool[r % 8]};
		}
	}
	f->interval_line = with_intervals ? 9 : UINT32_MAX;
	if (with_intervals) {
		/* kernels: [1100,1200) ctx 2, [1300,1310) ctx 6,
		 * [1310,1500) ctx 7, [2000,2001) ctx 5 */
		const struct trace_interval iv[] = {
			{.begin = 1100, .end = 1200, .ctx_id = 2},
			{.begin = 1300, .end = 1310, .ctx_id = 6},
			{.begin = 1310, .end = 1500, .ctx_id = 7},
			{.begin = 2000, .end = 2001, .ctx_id = 5}};
		memcpy(f->intervals, iv, sizeof(iv));
		f->n_intervals = 4;
	}
}

static bool reversed_ids;

static struct model *make_model(struct fake *f)
{
	struct model_builder *b = model_builder_new("fake", "fake");
	assert_non_null(b);
	struct model_node n = {.function = MODEL_NONE};
	uint32_t name_main = model_builder_intern(b, "main", 4);
	uint32_t name_solve = model_builder_intern(b, "solve", 5);
	uint32_t name_io = model_builder_intern(b, "io", 2);
	uint32_t name_write = model_builder_intern(b, "write", 5);
	uint32_t rank = model_builder_intern(b, "RANK", 4);
	uint32_t thread = model_builder_intern(b, "THREAD", 6);
	n.kind = NODE_ENTRY, n.ctx_id = 1, n.name = name_main;
	uint32_t e = model_builder_add_node(b, 0, &n);
	n.kind = NODE_FUNCTION, n.ctx_id = 2, n.name = name_solve;
	uint32_t s = model_builder_add_node(b, e, &n);
	n.kind = NODE_LOOP, n.ctx_id = 3, n.name = 0;
	uint32_t lp = model_builder_add_node(b, s, &n);
	n.kind = NODE_LINE, n.ctx_id = 4;
	model_builder_add_node(b, lp, &n);
	n.kind = NODE_FUNCTION, n.ctx_id = 5, n.name = name_io;
	uint32_t io = model_builder_add_node(b, e, &n);
	n.kind = NODE_FUNCTION, n.ctx_id = 6, n.name = name_write;
	model_builder_add_node(b, io, &n);
	n.kind = NODE_ENTRY, n.ctx_id = 7, n.name = name_solve;
	model_builder_add_node(b, 0, &n);
	uint64_t tmin = UINT64_MAX, tmax = 0;
	for (uint32_t l = 0; l < N_LINES; l++) {
		/* RANK l/2 THREAD l%2 (reversed_ids: line l has line
		 * N_LINES-1-l's tuple, the model's order the reverse of the
		 * tuples') */
		uint32_t id = reversed_ids ? N_LINES - 1 - l : l;
		struct model_id ids[2] = {
			{.kind_name = rank, .logical_id = id / 2},
			{.kind_name = thread, .logical_id = id % 2},
		};
		uint32_t p = model_builder_add_profile(b, false, ids, 2, NULL);
		bool iv = l == f->interval_line;
		struct model_timeline tl = {
			.profile = p,
			.kind = iv ? TIMELINE_INTERVALS : TIMELINE_SAMPLES,
			.count = iv ? f->n_intervals : f->counts[l]};
		model_builder_add_timeline(b, &tl);
		for (uint64_t i = 0; i < tl.count; i++) {
			uint64_t t = iv ? f->intervals[i].begin
					: f->samples[l][i].time;
			tmin = t < tmin ? t : tmin;
			tmax = t > tmax ? t : tmax;
		}
	}
	model_builder_set_time_range(b, tmin, tmax);
	model_builder_set_trace(b, &fake_ops, f);
	return fixture_finish(b);
}


static int fixture_open(void **state, bool with_intervals)
{
	struct fixture *x = calloc(1, sizeof(*x));
	assert_non_null(x);
	x->f = malloc(sizeof(*x->f));
	assert_non_null(x->f);
	fill(x->f, with_intervals);
	x->m = make_model(x->f);
	struct error err = {0};
	assert_int_equal(trace_view_new(x->m, &x->v, &err), STATUS_OK);
	*state = x;
	return 0;
}

int setup_samples(void **state)
{
	return fixture_open(state, false);
}

int setup_intervals(void **state)
{
	return fixture_open(state, true);
}

int setup_reversed(void **state)
{
	reversed_ids = true;
	int r = fixture_open(state, false);
	reversed_ids = false;
	return r;
}

int teardown(void **state)
{
	struct fixture *x = *state;
	trace_view_free(x->v);
	model_free(x->m);
	free(x->f);
	free(x);
	return 0;
}

uint32_t brute_ctx(const struct fake *f, uint32_t l, uint64_t t)
{
	if (l == f->interval_line) {
		uint32_t c = 0;
		for (uint64_t i = 0; i < f->n_intervals; i++)
			if (f->intervals[i].begin <= t)
				c = t < f->intervals[i].end
					    ? f->intervals[i].ctx_id
					    : 0;
		return c;
	}
	uint32_t c = 0;
	for (uint64_t i = 0; i < f->counts[l]; i++)
		if (f->samples[l][i].time <= t)
			c = f->samples[l][i].ctx_id;
	return c;
}

struct model_builder *main_child_builder(const char *what,
					 enum node_kind kind,
					 const char *child)
{
	struct model_builder *b = model_builder_new("fake", what);
	assert_non_null(b);
	struct model_node n = {.function = MODEL_NONE, .kind = NODE_ENTRY,
			       .ctx_id = 1};
	n.name = model_builder_intern(b, "main", 4);
	uint32_t e = model_builder_add_node(b, 0, &n);
	n.kind = (uint8_t)kind, n.ctx_id = 5;
	n.name = model_builder_intern(b, child, strlen(child));
	model_builder_add_node(b, e, &n);
	return b;
}
