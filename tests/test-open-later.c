/* Tests of open_later (a model finished in a thread of its own):
 * degenerate uses first (freeing NULL, taking twice), then a work that
 * succeeds (its model taken, its progress seen by poll, its context freed
 * once), a work that fails (its error taken, no model), and a work that
 * runs until it is cancelled (open_later_free cancels and joins: the work
 * saw the cancel through its options' hook, its context was freed), and
 * a work that offers better partial models meanwhile (the latest one
 * taken, none twice, none once the job is done; one never taken freed
 * with the job). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "formats/open_later.h"
#include "view_fixture.h"

struct ctx {
	int mode; /* 0 succeed, 1 fail, 2 run until cancelled, 3 offer two
		     partial models then run until cancelled, 4 offer one
		     then succeed */
	int *freed;
	int *saw_cancel;
};

static void free_ctx(void *arg)
{
	struct ctx *c = arg;
	(*c->freed)++;
	free(c);
}

static struct model *tiny_model(void)
{
	struct model_builder *b = model_builder_new("fixture", "later.db");
	struct error err = {0};
	fx_add_columns(b);
	struct fx_values *fv = fx_values_new(2);
	fx_set(fv, 0, 0, 7);
	model_builder_set_values(b, &fx_value_ops, fv);
	struct model *m = model_builder_finish(b, &err);
	error_clear(&err);
	return m;
}

static enum status work(void *arg, const struct reader_options *o,
			struct model **out, struct error *err)
{
	struct ctx *c = arg;
	struct reader_progress p = {.files_done = 3, .n_files = 4};
	o->progress(o->progress_ctx, &p);
	if (c->mode == 1)
		return error_set(err, STATUS_CORRUPT, "f.db", "bad page");
	if (c->mode == 3 || c->mode == 4)
		open_later_offer(o->progress_ctx, tiny_model(), 1);
	if (c->mode == 3)
		open_later_offer(o->progress_ctx, tiny_model(), 2);
	if (c->mode == 2 || c->mode == 3) {
		struct timespec ts = {0, 1000000};
		while (!o->cancelled(o->progress_ctx))
			nanosleep(&ts, NULL);
		*c->saw_cancel = 1;
		return error_set(err, STATUS_IO, "f.db", "cancelled");
	}
	*out = tiny_model();
	return *out ? STATUS_OK : STATUS_NOMEM;
}

static struct ctx *ctx_new(int mode, int *freed, int *saw)
{
	struct ctx *c = calloc(1, sizeof(*c));
	assert_non_null(c);
	c->mode = mode;
	c->freed = freed;
	c->saw_cancel = saw;
	return c;
}

/* A job running work of `mode` (its counters in *freed, *saw). */
static struct open_later *start(int mode, int *freed, int *saw)
{
	struct open_later *j = NULL;
	struct error err = {0};
	assert_int_equal(open_later_start(work, ctx_new(mode, freed, saw),
					  free_ctx, &j, &err),
			 STATUS_OK);
	return j;
}

static void test_degenerate(void **state)
{
	(void)state;
	open_later_free(NULL);
	int freed = 0, saw = 0;
	struct open_later *j = start(0, &freed, &saw);
	struct error err = {0};
	struct model *m = NULL;
	assert_int_equal(open_later_take(j, &m, &err), STATUS_OK);
	assert_non_null(m);
	model_free(m);
	/* taken twice: a usage error, no model */
	assert_int_equal(open_later_take(j, &m, &err), STATUS_USAGE);
	assert_null(m);
	error_clear(&err);
	open_later_free(j);
	assert_int_equal(freed, 1);
}

static void test_success(void **state)
{
	(void)state;
	int freed = 0, saw = 0;
	struct open_later *j = start(0, &freed, &saw);
	struct error err = {0};
	struct reader_progress p;
	struct timespec ts = {0, 1000000};
	while (!open_later_poll(j, &p))
		nanosleep(&ts, NULL);
	assert_int_equal(p.files_done, 3);
	assert_int_equal(p.n_files, 4);
	assert_int_equal(freed, 1); /* freed by the job's thread */
	struct model *m = NULL;
	assert_int_equal(open_later_take(j, &m, &err), STATUS_OK);
	assert_non_null(m);
	assert_int_equal(model_n_nodes(m), 1);
	open_later_free(j);
	model_free(m);
}

static void test_failure(void **state)
{
	(void)state;
	int freed = 0, saw = 0;
	struct open_later *j = start(1, &freed, &saw);
	struct error err = {0};
	struct model *m = NULL;
	assert_int_equal(open_later_take(j, &m, &err), STATUS_CORRUPT);
	assert_null(m);
	assert_string_equal(err.message, "bad page");
	error_clear(&err);
	open_later_free(j);
	assert_int_equal(freed, 1);
}

static void test_cancel(void **state)
{
	(void)state;
	int freed = 0, saw = 0;
	struct open_later *j = start(2, &freed, &saw);
	assert_false(open_later_poll(j, NULL));
	open_later_free(j); /* cancels, joins */
	assert_int_equal(saw, 1);
	assert_int_equal(freed, 1);
}

static void test_better(void **state)
{
	(void)state;
	int freed = 0, saw = 0;
	struct open_later *j = start(3, &freed, &saw);
	struct timespec ts = {0, 1000000};
	unsigned exact = 0;
	struct model *m = NULL;
	/* the first offer may be taken before the second replaces it */
	while (exact != 2) {
		while (!(m = open_later_take_better(j, &exact)))
			nanosleep(&ts, NULL);
		assert_true(exact == 1 || exact == 2);
		assert_int_equal(model_n_nodes(m), 1);
		model_free(m);
	}
	assert_null(open_later_take_better(j, &exact));
	open_later_free(j);
	assert_int_equal(saw, 1);
	/* offered, then done: the complete model is the one to take */
	j = start(4, &freed, &saw);
	while (!open_later_poll(j, NULL))
		nanosleep(&ts, NULL);
	assert_null(open_later_take_better(j, &exact));
	open_later_free(j); /* frees the model offered and the complete one */
	assert_int_equal(freed, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_success),
		cmocka_unit_test(test_failure),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_better),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
