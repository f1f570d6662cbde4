/* Tests of the host-interval nesting of GPU runs
 * (src/formats/gpu_run/gpu_run_nest.c) and of where a mark lies in it
 * (gpu_run_nest_at, the Marks column): degenerate inputs first (an empty
 * stack, a mark before or after every interval, a zero-length interval),
 * then marks at an interval's begin (inside), at its end (outside, the
 * trace's half-open rule, while an interval ending there still nests
 * closed), inside nested intervals, and after the inner one ended. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "formats/gpu_run/gpu_run.h"

enum { THREAD = 100, OUTER = 1, INNER = 2, ZERO = 3 };

static void empty_stack_is_the_thread(void **state)
{
	(void)state;
	struct gpu_run_nest n = {0};
	assert_int_equal(gpu_run_nest_at(&n, 0, THREAD), THREAD);
	assert_int_equal(gpu_run_nest_at(&n, INT64_MAX, THREAD), THREAD);
	assert_int_equal(gpu_run_nest_at(&n, 5, MODEL_NONE), MODEL_NONE);
	assert_int_equal(n.depth, 0);
	gpu_run_nest_free(&n);
}

static void zero_length_interval_holds_no_mark(void **state)
{
	(void)state;
	struct gpu_run_nest n = {0};
	assert_true(gpu_run_nest_push(&n, 10, 10, ZERO));
	assert_int_equal(gpu_run_nest_at(&n, 10, THREAD), THREAD);
	gpu_run_nest_free(&n);
}

static void begin_inside_end_outside(void **state)
{
	(void)state;
	struct gpu_run_nest n = {0};
	assert_int_equal(gpu_run_nest_parent(&n, 10, 20, THREAD), THREAD);
	assert_true(gpu_run_nest_push(&n, 10, 20, OUTER));
	assert_int_equal(gpu_run_nest_at(&n, 10, THREAD), OUTER);
	assert_int_equal(gpu_run_nest_at(&n, 19, THREAD), OUTER);
	/* at the end: after the interval, which stays for an interval
	 * that ends there too (closed nesting) */
	assert_int_equal(gpu_run_nest_at(&n, 20, THREAD), THREAD);
	assert_int_equal(n.depth, 1);
	assert_int_equal(gpu_run_nest_parent(&n, 20, 20, THREAD), OUTER);
	/* past it: dropped */
	assert_int_equal(gpu_run_nest_at(&n, 21, THREAD), THREAD);
	assert_int_equal(n.depth, 0);
	gpu_run_nest_free(&n);
}

static void nested_intervals(void **state)
{
	(void)state;
	struct gpu_run_nest n = {0};
	assert_true(gpu_run_nest_push(&n, 0, 100, OUTER));
	assert_int_equal(gpu_run_nest_parent(&n, 10, 50, THREAD), OUTER);
	assert_true(gpu_run_nest_push(&n, 10, 50, INNER));
	/* marks in time order, as the walk meets them */
	assert_int_equal(gpu_run_nest_at(&n, 10, THREAD), INNER);
	assert_int_equal(gpu_run_nest_at(&n, 30, THREAD), INNER);
	assert_int_equal(gpu_run_nest_at(&n, 50, THREAD), OUTER);
	assert_int_equal(n.depth, 2);
	assert_int_equal(gpu_run_nest_at(&n, 60, THREAD), OUTER);
	assert_int_equal(n.depth, 1);
	assert_int_equal(gpu_run_nest_at(&n, 100, THREAD), THREAD);
	gpu_run_nest_free(&n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(empty_stack_is_the_thread),
	    cmocka_unit_test(zero_length_interval_holds_no_mark),
	    cmocka_unit_test(begin_inside_end_outside),
	    cmocka_unit_test(nested_intervals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
