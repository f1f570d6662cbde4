/* Tests of the value error channel (value_ops.take_error behind
 * model_take_value_error): a provider without the member and a model
 * without a provider report nothing; a fake provider whose reads fail at
 * random reports, at each take, the first failure since the previous take,
 * compared with a brute-force replay of the reads; and values stay what
 * they were (a failed read is absent). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "model/model.h"

/* Reads of context c fail when fail[c]; the first failure since the last
 * take is kept. */
struct fake {
	bool fail[64];
	struct error pending;
};

static bool fake_summary(void *impl, uint32_t ctx, uint32_t stat, double *out)
{
	struct fake *f = impl;
	(void)stat;
	if (ctx >= 64)
		return false;
	if (f->fail[ctx]) {
		if (f->pending.status == STATUS_OK)
			error_set(&f->pending, STATUS_IO, "remote/profile.db",
				  "read of context %u failed", (unsigned)ctx);
		return false;
	}
	*out = ctx;
	return true;
}

static bool fake_take_error(void *impl, struct error *err)
{
	struct fake *f = impl;
	if (f->pending.status == STATUS_OK)
		return false;
	if (err) {
		error_clear(err);
		*err = f->pending;
	} else {
		error_clear(&f->pending);
	}
	f->pending = (struct error){.status = STATUS_OK};
	return true;
}

static void fake_close(void *impl)
{
	error_clear(&((struct fake *)impl)->pending);
}

static const struct value_ops fake_ops = {
	.summary = fake_summary,
	.close = fake_close,
	.take_error = fake_take_error,
};

static const struct value_ops old_ops = {
	.summary = fake_summary,
	.close = fake_close,
};

static struct model *chain_model(const struct value_ops *ops, void *impl)
{
	struct model_builder *b = model_builder_new("test", "mem");
	assert_non_null(b);
	for (uint32_t i = 1; i < 64; i++) {
		struct model_node nd = {
			.ctx_id = i,
			.function = MODEL_NONE,
			.kind = NODE_FUNCTION,
		};
		assert_int_equal(model_builder_add_node(b, i - 1, &nd), i);
	}
	struct model_stat st = {.stat_id = 0, .prop_id = MODEL_NONE};
	assert_int_equal(model_builder_add_stat(b, &st), 0);
	model_builder_set_values(b, ops, impl);
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	return m;
}

static void test_degenerate(void **state)
{
	(void)state;
	struct error err = {0};
	assert_false(model_take_value_error(NULL, &err));
	struct model_builder *b = model_builder_new("test", "mem");
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	assert_false(model_take_value_error(m, &err));
	model_free(m);
	/* a provider without take_error: failures stay "absent" */
	struct fake f = {.fail = {[3] = true}};
	m = chain_model(&old_ops, &f);
	double v;
	assert_false(model_stat_value(m, 3, 0, &v));
	assert_false(model_take_value_error(m, &err));
	assert_int_equal(err.status, STATUS_OK);
	model_free(m);
}

static void test_random_failures(void **state)
{
	(void)state;
	srand(5);
	struct fake f = {0};
	for (int c = 0; c < 64; c++)
		f.fail[c] = rand() % 5 == 0;
	struct model *m = chain_model(&fake_ops, &f);
	uint32_t first = MODEL_NONE; /* brute force: first failing read */
	for (int step = 0; step < 5000; step++) {
		if (rand() % 10 == 0) {
			struct error err = {0};
			bool got = model_take_value_error(m, rand() % 4 ? &err
									 : NULL);
			assert_int_equal(got, first != MODEL_NONE);
			if (got && err.status != STATUS_OK) {
				char want[64];
				snprintf(want, sizeof(want),
					 "read of context %u failed",
					 (unsigned)first);
				assert_int_equal(err.status, STATUS_IO);
				assert_string_equal(err.message, want);
			}
			error_clear(&err);
			first = MODEL_NONE;
			continue;
		}
		uint32_t node = (uint32_t)(rand() % 64);
		double v = -1;
		bool ok = model_stat_value(m, node, 0, &v);
		assert_int_equal(ok, !f.fail[node]);
		if (ok)
			assert_true(v == node);
		else if (first == MODEL_NONE)
			first = node;
	}
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_random_failures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
