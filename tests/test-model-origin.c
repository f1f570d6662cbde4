/* Tests of model_set_origin, the one change a container (archive, URL)
 * makes to a finished model: the path shown, the reader's path kept as
 * local_path, an appended warning, and a release hook that runs at
 * model_free after the value and trace providers are closed. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "build_fixture.h"

static char order[8];
static size_t n_order;

static void note(char c)
{
	if (n_order < sizeof(order) - 1)
		order[n_order++] = c;
}

static bool no_summary(void *impl, uint32_t ctx, uint32_t stat, double *out)
{
	(void)impl, (void)ctx, (void)stat, (void)out;
	return false;
}

static void values_close(void *impl)
{
	(void)impl;
	note('v');
}

static const struct value_ops values = {
	.summary = no_summary,
	.close = values_close,
};

static void release(void *arg)
{
	note(*(const char *)arg);
}

static struct model *small_model(void)
{
	struct model_builder *b = model_builder_new("test", "/tmp/x/db");
	assert_non_null(b);
	model_builder_add_warning(b, "first");
	model_builder_set_values(b, &values, NULL);
	return fixture_finish(b);
}

static void test_nothing_changed(void **state)
{
	(void)state;
	struct model *m = small_model();
	struct error err = {0};
	assert_int_equal(model_set_origin(m, NULL, NULL, NULL, NULL, &err),
			 STATUS_OK);
	assert_string_equal(model_path(m), "/tmp/x/db");
	assert_null(model_local_path(m));
	assert_int_equal(model_n_warnings(m), 1);
	memset(order, 0, sizeof(order));
	n_order = 0;
	model_free(m);
	assert_string_equal(order, "v");
}

static void test_origin(void **state)
{
	(void)state;
	struct model *m = small_model();
	struct error err = {0};
	static char mark = 'r';
	assert_int_equal(model_set_origin(m, "run.tar.gz/a", "holds 2",
					  release, &mark, &err),
			 STATUS_OK);
	assert_string_equal(model_path(m), "run.tar.gz/a");
	assert_string_equal(model_local_path(m), "/tmp/x/db");
	assert_int_equal(model_n_warnings(m), 2);
	assert_string_equal(model_warnings(m)[0], "first");
	assert_string_equal(model_warnings(m)[1], "holds 2");
	/* a second origin keeps the first local path */
	assert_int_equal(model_set_origin(m, "http://h/run.tar.gz", NULL,
					  NULL, NULL, &err),
			 STATUS_OK);
	assert_string_equal(model_path(m), "http://h/run.tar.gz");
	assert_string_equal(model_local_path(m), "/tmp/x/db");
	memset(order, 0, sizeof(order));
	n_order = 0;
	model_free(m);
	assert_string_equal(order, "vr"); /* providers first, then release */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_changed),
		cmocka_unit_test(test_origin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
