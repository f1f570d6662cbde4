/* view_assert: the checks the view tests share (tests/test-view-*.c): a
 * row's children, its label and its value in a column, each asserted
 * through the public view API (cmocka). */
#ifndef CALLSCOPE_TESTS_VIEW_ASSERT_H
#define CALLSCOPE_TESTS_VIEW_ASSERT_H

#include <stdint.h>
#include <stdlib.h>

#include "views/view.h"

/* A view of kind `kind` over m. */
static inline struct view *view_of(const struct model *m,
				   enum view_kind kind)
{
	struct view *v = NULL;
	struct error err = {0};
	assert_int_equal(view_new(m, kind, &v, &err), STATUS_OK);
	return v;
}

/* The children of `node` sorted by column `col` (heap, *n of them). */
static inline uint32_t *children(struct view *v, uint32_t node, uint32_t col,
				 size_t *n)
{
	uint32_t *kids = NULL;
	struct error err = {0};
	assert_int_equal(view_children(v, node, col, false, &kids, n, &err),
			 STATUS_OK);
	return kids;
}

static inline void assert_label(struct view *v, uint32_t node,
				const char *want)
{
	char *label = view_node_label(v, node);
	assert_string_equal(label, want);
	free(label);
}

/* The value of `node` in column `col` is `want` (< 0: absent). */
static inline void assert_value(struct view *v, uint32_t node, uint32_t col,
				double want)
{
	double x = -12345;
	if (want < 0) {
		assert_false(view_value(v, node, col, &x));
		return;
	}
	assert_true(view_value(v, node, col, &x));
	assert_true(x == want);
}

#endif
