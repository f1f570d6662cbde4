/* Tests for trace_index: lookups and cells over a fake trace provider,
 * each answer checked against a linear scan (the brute-force definition:
 * the last sample whose time is <= t). */
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
#include "build_fixture.h"

struct fake_trace {
	struct trace_sample *lines[4];
	uint64_t counts[4];
	uint64_t reads;
};

static bool fake_sample(void *impl, uint32_t line, uint64_t index,
			struct trace_sample *out)
{
	struct fake_trace *t = impl;
	if (line >= 4 || index >= t->counts[line])
		return false;
	t->reads++;
	*out = t->lines[line][index];
	return true;
}

static const struct trace_ops fake_ops = {.sample = fake_sample};

/* root -> entry(1) -> f(2) -> loop(3) -> line(4); root -> entry(5) */
static struct model *make_model(struct fake_trace *t)
{
	struct model_builder *b = model_builder_new("fake", "fake");
	assert_non_null(b);
	struct model_node n = {.function = MODEL_NONE};
	n.kind = NODE_ENTRY;
	n.ctx_id = 1;
	uint32_t e = model_builder_add_node(b, 0, &n);
	n.kind = NODE_FUNCTION;
	n.ctx_id = 2;
	uint32_t f = model_builder_add_node(b, e, &n);
	n.kind = NODE_LOOP;
	n.ctx_id = 3;
	uint32_t l = model_builder_add_node(b, f, &n);
	n.kind = NODE_LINE;
	n.ctx_id = 4;
	model_builder_add_node(b, l, &n);
	n.kind = NODE_ENTRY;
	n.ctx_id = 5;
	model_builder_add_node(b, 0, &n);
	for (uint32_t i = 0; i < 4; i++) {
		struct model_timeline tl = {.profile = i,
					    .kind = TIMELINE_SAMPLES,
					    .count = t->counts[i]};
		model_builder_add_timeline(b, &tl);
	}
	model_builder_set_trace(b, &fake_ops, t);
	return fixture_finish(b);
}

static bool brute(const struct fake_trace *t, uint32_t line, uint64_t time,
		  uint64_t *index)
{
	bool found = false;
	for (uint64_t i = 0; i < t->counts[line]; i++)
		if (t->lines[line][i].time <= time) {
			*index = i;
			found = true;
		}
	return found;
}

static struct trace_sample line0[] = {
	{100, 4}, {200, 0}, {300, 3}, {300, 2}, {300, 4}, {450, 1}, {900, 5},
};
static struct trace_sample line2[] = {{500, 4}};

static struct fake_trace fixture(void)
{
	struct fake_trace t = {0};
	t.lines[0] = line0;
	t.counts[0] = sizeof(line0) / sizeof(line0[0]);
	t.lines[1] = NULL; /* empty line */
	t.lines[2] = line2;
	t.counts[2] = 1;
	return t;
}

static void test_degenerate(void **state)
{
	(void)state;
	struct fake_trace t = fixture();
	struct model *m = make_model(&t);
	struct trace_sample s;
	assert_false(trace_sample_at(NULL, 0, 0, &s, NULL));
	assert_false(trace_sample_at(m, 99, 100, &s, NULL)); /* no line */
	assert_false(trace_sample_at(m, 1, 100, &s, NULL));  /* empty */
	assert_false(trace_sample_at(m, 0, 99, &s, NULL));   /* before */
	uint32_t cells[3] = {7, 7, 7};
	trace_cells(m, 1, 0, 1000, 3, UINT32_MAX, cells);
	assert_int_equal(cells[0], 0);
	assert_int_equal(cells[2], 0);
	model_free(m);
}

static void test_lookups_match_brute_force(void **state)
{
	(void)state;
	struct fake_trace t = fixture();
	struct model *m = make_model(&t);
	for (uint32_t line = 0; line < 3; line++) {
		for (uint64_t time = 0; time < 1200; time += 5) {
			uint64_t want, got;
			struct trace_sample s;
			bool have = brute(&t, line, time, &want);
			bool found = trace_sample_at(m, line, time, &s, &got);
			assert_int_equal(have, found);
			if (have) {
				assert_int_equal(want, got);
				assert_int_equal(s.time,
						 t.lines[line][want].time);
			}
		}
	}
	/* exactly on a timestamp, equal consecutive timestamps: the last */
	struct trace_sample s;
	uint64_t idx;
	assert_true(trace_sample_at(m, 0, 300, &s, &idx));
	assert_int_equal(idx, 4);
	assert_int_equal(s.ctx_id, 4);
	/* idle sample */
	assert_true(trace_sample_at(m, 0, 250, &s, &idx));
	assert_int_equal(s.ctx_id, 0);
	/* after the last */
	assert_true(trace_sample_at(m, 0, UINT64_MAX, &s, &idx));
	assert_int_equal(idx, 6);
	/* one-sample line */
	assert_true(trace_sample_at(m, 2, 500, &s, &idx));
	assert_false(trace_sample_at(m, 2, 499, &s, &idx));
	model_free(m);
}

static void test_cells_match_brute_force(void **state)
{
	(void)state;
	struct fake_trace t = fixture();
	struct model *m = make_model(&t);
	/* narrower than samples, wider than the whole range */
	const uint32_t widths[] = {1, 2, 3, 7, 50, 1000};
	const uint64_t ranges[][2] = {{0, 2000}, {100, 901}, {290, 310},
				      {950, 960}, {0, 50}};
	for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
		for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]);
		     r++) {
			uint32_t cols = widths[w];
			uint32_t *cells = calloc(cols, sizeof(*cells));
			assert_non_null(cells);
			trace_cells(m, 0, ranges[r][0], ranges[r][1], cols,
				    UINT32_MAX, cells);
			for (uint32_t k = 0; k < cols; k++) {
				uint64_t time = ranges[r][0] +
						(ranges[r][1] - ranges[r][0]) *
							k / cols;
				uint64_t i;
				uint32_t want = brute(&t, 0, time, &i)
							? line0[i].ctx_id
							: 0;
				assert_int_equal(cells[k], want);
			}
			free(cells);
		}
	}
	model_free(m);
}

static void test_cell_time_no_overflow(void **state)
{
	(void)state;
	assert_int_equal(trace_cell_time(0, UINT64_MAX, 2, 1),
			 UINT64_MAX / 2);
	assert_int_equal(trace_cell_time(10, 10, 5, 3), 10);
	assert_int_equal(trace_cell_time(10, 20, 0, 3), 10);
}

static void test_depth(void **state)
{
	(void)state;
	struct fake_trace t = fixture();
	struct model *m = make_model(&t);
	/* stack of ctx 4: entry(1) f(2); loop/line are not frames */
	assert_int_equal(trace_ctx_at_depth(m, 4, 0), 1);
	assert_int_equal(trace_ctx_at_depth(m, 4, 1), 2);
	assert_int_equal(trace_ctx_at_depth(m, 4, 9), 2);
	assert_int_equal(trace_ctx_at_depth(m, 0, 0), 0);
	assert_int_equal(trace_ctx_at_depth(m, 77, 0), 0);
	assert_int_equal(trace_ctx_at_depth(m, 5, 3), 5);
	uint32_t cells[2];
	trace_cells(m, 0, 100, 500, 2, 0, cells); /* t=100 -> 4, t=300 -> 4 */
	assert_int_equal(cells[0], 1);
	assert_int_equal(cells[1], 1);
	model_free(m);
}

static void test_reads_are_logarithmic(void **state)
{
	(void)state;
	/* one million samples, a lookup touches ~20 of them */
	uint64_t n = 1000000;
	struct trace_sample *big = malloc(n * sizeof(*big));
	assert_non_null(big);
	for (uint64_t i = 0; i < n; i++) {
		big[i].time = 1000 + i * 3;
		big[i].ctx_id = (uint32_t)(i % 5);
	}
	struct fake_trace t = {0};
	t.lines[0] = big;
	t.counts[0] = n;
	struct model *m = make_model(&t);
	struct trace_sample s;
	t.reads = 0;
	assert_true(trace_sample_at(m, 0, 1000 + 3 * 777777 + 1, &s, NULL));
	assert_int_equal(s.time, 1000 + 3 * 777777);
	assert_true(t.reads <= 22);
	uint32_t cells[100];
	t.reads = 0;
	trace_cells(m, 0, 1000, 1000 + 3 * n, 100, UINT32_MAX, cells);
	/* one binary search, then a gallop of at most 2 log2(distance) + 3
	 * reads per cell */
	assert_true(t.reads <= 22 + 100 * 48);
	for (uint32_t k = 0; k < 100; k++)
		assert_int_equal(cells[k], (uint32_t)((k * 10000) % 5));
	/* a narrow window (100 cells over 300 samples) reads near its
	 * samples only: a first search plus a few reads per cell */
	t.reads = 0;
	trace_cells(m, 0, 1000 + 3 * 500000, 1000 + 3 * 500300, 100,
		    UINT32_MAX, cells);
	assert_true(t.reads <= 22 + 100 * 8);
	for (uint32_t k = 0; k < 100; k++)
		assert_int_equal(cells[k], (uint32_t)((500000 + k * 3) % 5));
	model_free(m);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_lookups_match_brute_force),
		cmocka_unit_test(test_cells_match_brute_force),
		cmocka_unit_test(test_cell_time_no_overflow),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_reads_are_logarithmic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
