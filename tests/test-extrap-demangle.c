/* Tests of the kernel-name demangler of the Extra-Prof reader
 * (extrap_demangle.c): degenerate names first (not mangled, empty, cut,
 * a substitution that does not exist, a length beyond the name), then the
 * subset it reads, each expected string as binutils' c++filt prints that
 * name (checked with c++filt 2.40 when this test was written), then names
 * outside the subset, which it leaves alone (NULL) as Extra-P leaves a
 * name its demangler does not take. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "formats/extrap/extrap_prof.h"

static void expect(const char *mangled, const char *want)
{
	char *got = extrap_demangle(mangled);
	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_degenerate(void **state)
{
	(void)state;
	expect("", NULL);
	expect("main", NULL);
	expect("_Z", NULL);
	expect("_Z0", NULL);
	expect("_Z9f", NULL);       /* length beyond the name */
	expect("_Z1fPS_", NULL);    /* no substitution yet */
	expect("_Z1fS0_", NULL);
	expect("_Z1fP", NULL);      /* a pointer to nothing */
	expect("_ZN1a1b", NULL);    /* no E */
	expect("__Z1fv", NULL);
}

static void test_subset(void **state)
{
	(void)state;
	expect("_Z1fv", "f()");
	expect("_Z1f", "f");
	expect("_Z4testPdmm", "test(double*, unsigned long, unsigned long)");
	expect("_Z5test0Pdmm", "test0(double*, unsigned long, unsigned long)");
	expect("_Z12gpuKernelLibifPfS_",
	       "gpuKernelLib(int, float, float*, float*)");
	expect("_Z3fooPN2ns1AES1_", "foo(ns::A*, ns::A*)");
	expect("_ZN2ns4kernEPKdS1_", "ns::kern(double const*, double const*)");
	expect("_Z3barRiRKc", "bar(int&, char const&)");
	expect("_Z3bazPPvS_", "baz(void**, void*)");
	expect("_Z1gz", "g(...)");
	expect("_Z3fooc", "foo(char)");
}

static void test_outside(void **state)
{
	(void)state;
	expect("_Z3maxIiET_S0_S0_", NULL); /* int max<int>(int, int) */
	expect("_ZNK1A1fEv", NULL);        /* A::f() const */
	expect("_ZSt4moveRi", NULL);       /* std::move(int&) */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_degenerate),
	    cmocka_unit_test(test_subset),
	    cmocka_unit_test(test_outside),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
