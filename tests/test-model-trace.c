/* Tests of the model's interval tracks and counter lines (model_trace.c):
 * model_kv_pack on degenerate and random attribute lists, compared field
 * by field with its input; a fake provider with a sample line, a random
 * nested interval track with attributes and counter lines, read back
 * through model_interval, model_event_detail and model_counter and
 * compared with the arrays it was made from; model_counter_at against a
 * linear scan at random times (before, between, on and after values, with
 * repeated times). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

#define N_IV 500
#define N_CT 300

struct fake {
	struct trace_interval iv[N_IV];
	uint64_t ct_time[N_CT];
	double ct_value[N_CT];
	unsigned detail_calls;
};

static bool fake_interval(void *impl, uint32_t line, uint64_t i,
			  struct trace_interval *out)
{
	struct fake *f = impl;
	if (line != 1 || i >= N_IV)
		return false;
	*out = f->iv[i];
	return true;
}

static bool fake_counter(void *impl, uint32_t line, uint64_t i, uint64_t *t,
			 double *v)
{
	struct fake *f = impl;
	if (line != 2 || i >= N_CT)
		return false;
	*t = f->ct_time[i];
	*v = f->ct_value[i];
	return true;
}

/* Event e has e % 4 attributes: grid, registers, bytes. */
static enum status fake_detail(void *impl, uint32_t line, uint64_t event,
			       struct model_kv **out, size_t *n,
			       struct error *err)
{
	struct fake *f = impl;
	f->detail_calls++;
	if (event == 13)
		return error_set(err, STATUS_IO, "remote.rpd", "gone");
	char grid[32], regs[32];
	snprintf(grid, sizeof(grid), "%ux1x1", (unsigned)event);
	snprintf(regs, sizeof(regs), "%u", (unsigned)(event % 97));
	struct model_kv kv[3] = {
		{.key = "grid", .text = grid},
		{.key = "registers", .text = regs,
		 .number = (double)(event % 97), .is_number = true},
		{.key = "bytes", .text = NULL, .number = 0.5,
		 .is_number = true},
	};
	(void)line;
	*n = event % 4 < 3 ? event % 4 : 3;
	return model_kv_pack(kv, *n, out, err);
}

static const struct trace_ops fake_ops = {
	.interval = fake_interval,
	.counter = fake_counter,
	.event_detail = fake_detail,
};

static void test_kv_pack(void **state)
{
	(void)state;
	struct model_kv *out = (struct model_kv *)&out;
	struct error err = {0};
	assert_int_equal(model_kv_pack(NULL, 0, &out, &err), STATUS_OK);
	assert_null(out);
	struct model_kv bad[1] = {{.key = NULL, .text = "x"}};
	assert_int_equal(model_kv_pack(bad, 1, &out, &err), STATUS_USAGE);
	assert_null(out);
	error_clear(&err);
	srand(7);
	for (int round = 0; round < 50; round++) {
		size_t n = (size_t)(rand() % 20);
		struct model_kv in[20];
		char keys[20][40], texts[20][40];
		for (size_t i = 0; i < n; i++) {
			int kl = rand() % 39, tl = rand() % 39;
			for (int c = 0; c < kl; c++)
				keys[i][c] = (char)('a' + rand() % 26);
			keys[i][kl] = '\0';
			for (int c = 0; c < tl; c++)
				texts[i][c] = (char)('0' + rand() % 10);
			texts[i][tl] = '\0';
			in[i] = (struct model_kv){
				.key = keys[i],
				.text = rand() % 5 ? texts[i] : NULL,
				.number = rand() / 7.0,
				.is_number = rand() % 2,
			};
		}
		assert_int_equal(model_kv_pack(in, n, &out, &err), STATUS_OK);
		assert_true(n ? out != NULL : out == NULL);
		for (size_t i = 0; i < n; i++) {
			/* copies, not the caller's strings */
			assert_ptr_not_equal(out[i].key, in[i].key);
			assert_string_equal(out[i].key, in[i].key);
			assert_string_equal(out[i].text,
					    in[i].text ? in[i].text : "");
			assert_true(out[i].number == in[i].number);
			assert_int_equal(out[i].is_number, in[i].is_number);
		}
		free(out);
	}
}

/* Random properly nested intervals sorted by begin: a stack of open
 * intervals; each step opens a child of the innermost or closes it. */
static void make_intervals(struct fake *f)
{
	uint64_t t = 1000, stack_end[64];
	uint32_t top = 0;
	for (uint32_t i = 0; i < N_IV; i++) {
		t += (uint64_t)(rand() % 5);
		while (top > 0 && (rand() % 3 == 0 || t >= stack_end[top - 1]))
			t = stack_end[--top] + (uint64_t)(rand() % 3);
		uint64_t room = top ? stack_end[top - 1] - t : 100000;
		if (room < 2) {
			t = stack_end[--top];
			i--;
			continue;
		}
		uint64_t len = 1 + (uint64_t)rand() % (room - 1);
		f->iv[i] = (struct trace_interval){
			.begin = t,
			.end = t + len,
			.ctx_id = (uint32_t)(rand() % 50),
			.depth = top,
			.event = rand() % 10 ? i : MODEL_EVENT_NONE,
		};
		if (top < 64)
			stack_end[top++] = t + len;
	}
}

static struct model *make_model(struct fake *f)
{
	struct model_builder *b = model_builder_new("test", "mem");
	assert_non_null(b);
	struct model_timeline samples = {.profile = MODEL_NONE,
					 .kind = TIMELINE_SAMPLES,
					 .count = 0};
	struct model_timeline ivs = {.profile = MODEL_NONE,
				     .kind = TIMELINE_INTERVALS,
				     .count = N_IV};
	assert_int_equal(model_builder_add_timeline(b, &samples), 0);
	assert_int_equal(model_builder_add_timeline(b, &ivs), 1);
	assert_int_equal(model_builder_add_counter(b, MODEL_NONE, "power",
						   "W", N_CT),
			 2);
	assert_int_equal(model_builder_add_counter(b, MODEL_NONE, "empty",
						   NULL, 0),
			 3);
	model_builder_set_trace(b, &fake_ops, f);
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	return m;
}

static bool fake_sample(void *impl, uint32_t line, uint64_t i,
			struct trace_sample *out)
{
	(void)impl;
	if (line != 0)
		return false;
	out->time = 1000 + 10 * i; /* beyond the count too: the model bounds */
	out->ctx_id = (uint32_t)i + 1;
	return true;
}

/* model_sample: a sample line's samples through the provider; false for a
 * NULL model, another kind of line, an index past the count, an unknown
 * line and a provider without samples. */
static void test_samples(void **state)
{
	(void)state;
	static const struct trace_ops with = {.sample = fake_sample,
					      .interval = fake_interval};
	static const struct trace_ops without = {.interval = fake_interval};
	for (int k = 0; k < 2; k++) {
		struct model_builder *b = model_builder_new("test", "mem");
		struct model_timeline sl = {.profile = MODEL_NONE,
					    .kind = TIMELINE_SAMPLES,
					    .count = 3};
		struct model_timeline il = {.profile = MODEL_NONE,
					    .kind = TIMELINE_INTERVALS,
					    .count = 1};
		assert_int_equal(model_builder_add_timeline(b, &sl), 0);
		assert_int_equal(model_builder_add_timeline(b, &il), 1);
		model_builder_set_trace(b, k == 0 ? &with : &without, NULL);
		struct model *m = model_builder_finish(b, NULL);
		assert_non_null(m);
		struct trace_sample s = {0};
		assert_false(model_sample(NULL, 0, 0, &s));
		assert_false(model_sample(m, 1, 0, &s));
		assert_false(model_sample(m, 0, 3, &s));
		assert_false(model_sample(m, 7, 0, &s));
		for (uint64_t i = 0; i < 3; i++) {
			assert_int_equal(model_sample(m, 0, i, &s), k == 0);
			if (k == 0) {
				assert_int_equal(s.time, 1000 + 10 * i);
				assert_int_equal(s.ctx_id, i + 1);
			}
		}
		model_free(m);
	}
}

static void test_intervals(void **state)
{
	(void)state;
	static struct fake f;
	srand(11);
	make_intervals(&f);
	struct model *m = make_model(&f);
	struct trace_interval iv;
	assert_false(model_interval(NULL, 1, 0, &iv));
	assert_false(model_interval(m, 0, 0, &iv));
	assert_false(model_interval(m, 2, 0, &iv));
	assert_false(model_interval(m, 1, N_IV, &iv));
	assert_false(model_interval(m, 99, 0, &iv));
	for (uint64_t i = 0; i < N_IV; i++) {
		assert_true(model_interval(m, 1, i, &iv));
		assert_memory_equal(&iv, &f.iv[i], sizeof(iv));
		/* nesting: the enclosing interval (brute force: the last
		 * earlier one a level up) contains it */
		if (iv.depth > 0) {
			uint64_t j = i;
			while (j-- > 0 && f.iv[j].depth != iv.depth - 1)
				;
			assert_true(f.iv[j].begin <= iv.begin &&
				    iv.end <= f.iv[j].end);
		}
		struct model_kv *kv = NULL;
		size_t n = 99;
		struct error err = {0};
		unsigned calls = f.detail_calls;
		enum status st = model_event_detail(m, 1, iv.event, &kv, &n,
						    &err);
		if (iv.event == MODEL_EVENT_NONE) {
			assert_int_equal(st, STATUS_OK);
			assert_int_equal(f.detail_calls, calls);
			assert_null(kv);
			assert_int_equal(n, 0);
			continue;
		}
		if (iv.event == 13) {
			assert_int_equal(st, STATUS_IO);
			assert_string_equal(err.message, "gone");
			assert_null(kv);
			error_clear(&err);
			continue;
		}
		assert_int_equal(st, STATUS_OK);
		size_t want = iv.event % 4 < 3 ? iv.event % 4 : 3;
		assert_int_equal(n, want);
		char grid[32];
		snprintf(grid, sizeof(grid), "%ux1x1", (unsigned)iv.event);
		if (n > 0) {
			assert_string_equal(kv[0].key, "grid");
			assert_string_equal(kv[0].text, grid);
			assert_false(kv[0].is_number);
		}
		if (n > 1) {
			assert_string_equal(kv[1].key, "registers");
			assert_true(kv[1].is_number);
			assert_true(kv[1].number == (double)(iv.event % 97));
		}
		if (n > 2) {
			assert_string_equal(kv[2].text, "");
			assert_true(kv[2].number == 0.5);
		}
		free(kv);
	}
	struct model_kv *kv = NULL;
	size_t n = 0;
	struct error err = {0};
	assert_int_equal(model_event_detail(m, 2, 0, &kv, &n, &err),
			 STATUS_USAGE);
	error_clear(&err);
	model_free(m);
}

static void test_counters(void **state)
{
	(void)state;
	static struct fake f;
	srand(3);
	uint64_t t = 500;
	for (int i = 0; i < N_CT; i++) {
		t += (uint64_t)(rand() % 4); /* repeated times too */
		f.ct_time[i] = t;
		f.ct_value[i] = rand() / 3.0;
	}
	struct model *m = make_model(&f);
	assert_int_equal(model_timelines(m)[2].kind, TIMELINE_COUNTER);
	assert_string_equal(model_str(m, model_timelines(m)[2].label), "power");
	assert_string_equal(model_str(m, model_timelines(m)[2].unit), "W");
	assert_int_equal(model_timelines(m)[3].unit, 0);
	uint64_t time, index;
	double v;
	assert_false(model_counter(m, 1, 0, &time, &v));
	assert_false(model_counter(m, 2, N_CT, &time, &v));
	assert_false(model_counter_at(m, 3, 1000, &index));
	assert_false(model_counter_at(m, 1, 1000, &index));
	for (int i = 0; i < N_CT; i++) {
		assert_true(model_counter(m, 2, (uint64_t)i, &time, &v));
		assert_int_equal(time, f.ct_time[i]);
		assert_true(v == f.ct_value[i]);
	}
	for (uint64_t q = 0; q < t + 10; q++) {
		/* brute force: the last value at or before q */
		int want = -1;
		for (int i = 0; i < N_CT; i++)
			if (f.ct_time[i] <= q)
				want = i;
		bool got = model_counter_at(m, 2, q, &index);
		assert_int_equal(got, want >= 0);
		if (got)
			assert_int_equal(index, (uint64_t)want);
	}
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kv_pack),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_counters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
