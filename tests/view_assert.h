/* view_assert: the checks the view tests share (tests/test-view-*.c): a
 * row's children (and their labels), its label and its value in a
 * column, each asserted through the public view API (cmocka). */
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

/* The children of `node` sorted by column `col` are exactly `n` rows,
 * labelled labels[0..n-1] in that order; their ids in out[0..n-1]. */
static inline void assert_children(struct view *v, uint32_t node,
				   uint32_t col, size_t n,
				   const char *const *labels, uint32_t *out)
{
	size_t got = 0;
	uint32_t *kids = children(v, node, col, &got);
	assert_int_equal(got, n);
	for (size_t i = 0; i < n; i++) {
		assert_label(v, kids[i], labels[i]);
		out[i] = kids[i];
	}
	free(kids);
}

/* The single child of `node`, checked to have label `label`. */
static inline uint32_t only_child(struct view *v, uint32_t node,
				  const char *label)
{
	uint32_t k = 0;
	assert_children(v, node, 0, 1, &label, &k);
	return k;
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
