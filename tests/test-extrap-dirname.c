/* Tests of the parameters in Cube-set directory names (extrap_dirname.c)
 * against the examples of the research notes (5.5), which were checked by
 * calling Extra-P 4.2.5's own function: degenerate names first (empty, no
 * number, a number without a name, Extra-P's ".r" trap), then the
 * accepted forms (decimal points and commas, trailing dots, no prefix,
 * digits in names). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "formats/extrap/extrap.h"

static void expect_fail(const char *name)
{
	struct extrap_dir_params d;
	char why[128];
	assert_int_not_equal(extrap_dir_params(name, &d, why, sizeof(why)),
			     STATUS_OK);
	assert_int_equal(d.n, 0);
	extrap_dir_params_free(&d);
}

static void expect(const char *name, uint32_t n, const char *const *names,
		   const double *values)
{
	struct extrap_dir_params d;
	char why[128];
	assert_int_equal(extrap_dir_params(name, &d, why, sizeof(why)),
			 STATUS_OK);
	assert_int_equal(d.n, n);
	for (uint32_t i = 0; i < n; i++) {
		assert_string_equal(d.names[i], names[i]);
		assert_true(d.values[i] == values[i]);
	}
	extrap_dir_params_free(&d);
}

static void test_degenerate(void **state)
{
	(void)state;
	expect_fail("");
	expect_fail("call_tree_test");
	expect_fail("app.ranks4.r1"); /* nothing between '.' and ".r" */
	expect_fail("lulesh2.0.p8");  /* "0." has no name */
	expect_fail("x1.2.3");        /* "1.2.3" is not a number */
}

static void test_forms(void **state)
{
	(void)state;
	static const char *const xyz[] = {"x", "y", "z"};
	expect("mm.x1y1z1.r1", 3, xyz, (const double[]){1, 1, 1});
	expect("mm.x1.1y1.1z1.1", 3, xyz, (const double[]){1.1, 1.1, 1.1});
	expect("mm.x20,5.y20,5.z1,5.r1", 3, xyz,
	       (const double[]){20.5, 20.5, 1.5});
	expect("mm.x21.5,y21,5,z1.15.r1", 3, xyz,
	       (const double[]){21.5, 21.5, 1.15});
	expect("x10y1z1", 3, xyz, (const double[]){10, 1, 1});
	static const char *const ps[] = {"p", "size"};
	expect("lulesh.p27.size25.r1", 2, ps, (const double[]){27, 25});
	static const char *const pdg[] = {"p", "d", "g"};
	expect("kripke.p8.d2.g32.r1", 3, pdg, (const double[]){8, 2, 32});
	static const char *const nx[] = {"n", "x"};
	expect("n2x4", 2, nx, (const double[]){2, 4});
	static const char *const xe[] = {"x", "e"};
	expect("x1e3", 2, xe, (const double[]){1, 3});
	static const char *const s[] = {"s"};
	expect("gpu.s128", 1, s, (const double[]){128});
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_forms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
