/* proc_listing_fit and proc_listing_bytes_keep (views/proc_listing, critique
 * b6: the DCPI listing cut instructions at 80 columns to keep their bytes):
 * degenerate listings and widths first, then the three layouts (every
 * byte, bytes shortened to whole bytes and an ellipsis, no bytes) at
 * widths computed here from the rows' lengths written out by hand. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "views/proc_listing.h"

static void test_degenerate(void **state)
{
	(void)state;
	struct proc_listing_fit f = {.addr_w = 9, .bytes_w = 9};
	proc_listing_fit(NULL, 80, &f);
	assert_int_equal(f.addr_w, 0);
	assert_int_equal(f.bytes_w, 0);
	struct proc_listing empty = {0};
	proc_listing_fit(&empty, -5, &f);
	assert_int_equal(f.bytes_w, 0);
	assert_int_equal(f.text_w, 0);
	/* rows without bytes or text */
	struct proc_listing_row rows[] = {{.addr = 0}, {.addr = 0xabc}};
	struct proc_listing l = {.rows = rows, .n_rows = 2};
	proc_listing_fit(&l, 0, &f);
	assert_int_equal(f.addr_w, 3);
	assert_int_equal(f.bytes_w, 0);
	assert_false(f.bytes_cut);
	assert_int_equal(proc_listing_bytes_keep(NULL, 10), 0);
	assert_int_equal(proc_listing_bytes_keep("48 89", 0), 0);
	assert_int_equal(proc_listing_bytes_keep("48 89", -3), 0);
	assert_int_equal(proc_listing_bytes_keep("", 4), 0);
	/* not even one byte and an ellipsis */
	assert_int_equal(proc_listing_bytes_keep("48 89", 2), 0);
}

static void test_layouts(void **state)
{
	(void)state;
	char b1[] = "48 89 05 f2 2d 00 00", t1[] = "mov qword ptr [rip + 0x2df2], rax";
	char b2[] = "c3", t2[] = "ret";
	struct proc_listing_row rows[] = {
		{.addr = 0x401227, .bytes = b1, .text = t1},
		{.addr = 0x401256, .bytes = b2, .text = t2},
	};
	struct proc_listing l = {.rows = rows, .n_rows = 2};
	/* "401227: " 8, bytes 20, a space, text 33: 62 columns */
	struct proc_listing_fit f;
	proc_listing_fit(&l, 62, &f);
	assert_int_equal(f.addr_w, 6);
	assert_int_equal(f.text_w, 33);
	assert_int_equal(f.bytes_w, 20);
	assert_false(f.bytes_cut);
	proc_listing_fit(&l, 200, &f);
	assert_int_equal(f.bytes_w, 20);
	/* one short: the bytes give the room up, whole bytes kept */
	proc_listing_fit(&l, 61, &f);
	assert_int_equal(f.bytes_w, 19);
	assert_true(f.bytes_cut);
	assert_int_equal(proc_listing_bytes_keep(b1, 19), 17); /* 48 ... 2d */
	assert_int_equal(proc_listing_bytes_keep(b2, 19), 2);
	/* the narrowest shortened column: two bytes and the ellipsis */
	proc_listing_fit(&l, 8 + PROC_LISTING_BYTES_MIN + 1 + 33, &f);
	assert_int_equal(f.bytes_w, PROC_LISTING_BYTES_MIN);
	assert_int_equal(proc_listing_bytes_keep(b1, f.bytes_w), 5);
	/* below it: no bytes column; the instruction may still be cut */
	proc_listing_fit(&l, 8 + PROC_LISTING_BYTES_MIN + 33, &f);
	assert_int_equal(f.bytes_w, 0);
	proc_listing_fit(&l, 20, &f);
	assert_int_equal(f.bytes_w, 0);
	/* whole bytes only: a column of 4 holds "48" and an ellipsis */
	assert_int_equal(proc_listing_bytes_keep(b1, 4), 2);
	assert_int_equal(proc_listing_bytes_keep(b1, 5), 2);
	assert_int_equal(proc_listing_bytes_keep(b1, 6), 5);
	assert_int_equal(proc_listing_bytes_keep(b1, 20), 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_layouts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
