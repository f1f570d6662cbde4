/* outline_fixture: what the outline tests share (test-outline.c,
 * test-outline-random.c): a model of named functions from a parent list,
 * an outline over a view, and its row i (cmocka). */
#ifndef CALLSCOPE_TESTS_OUTLINE_FIXTURE_H
#define CALLSCOPE_TESTS_OUTLINE_FIXTURE_H

#include <stdint.h>
#include <stdio.h>

#include "views/outline.h"
#include "views/view.h"
#include "view_fixture.h"

/* A model of named function nodes from a parent list; node i + 1 has parent
 * parent[i] and inclusive value incl[i]. */
static inline struct model *build(const uint32_t *parent, const char *const *name,
			   const double *incl, uint32_t n)
{
	struct model_builder *b = fx_builder("outline.db");
	struct fx_values *fv = fx_values_new(n + 2);
	fx_set(fv, 0, 0, 1000);
	for (uint32_t i = 0; i < n; i++) {
		char text[32];
		const char *nm = name ? name[i] : text;
		if (!name)
			snprintf(text, sizeof(text), "n%u", (unsigned)i + 1);
		struct model_node nd = {
			.ctx_id = i + 1,
			.kind = NODE_FUNCTION,
			.function = MODEL_NONE,
			.name = model_builder_intern(b, nm, strlen(nm)),
		};
		assert_int_equal(model_builder_add_node(b, parent[i], &nd),
				 i + 1);
		fx_set(fv, i + 1, 0, incl ? incl[i] : (double)(n - i));
	}
	return fx_finish(b, fv, true);
}

static inline struct outline *make(struct view *v, uint32_t col)
{
	struct outline *o = NULL;
	struct error err = {0};
	assert_int_equal(outline_new(v, col, false, &o, &err), STATUS_OK);
	return o;
}

static inline struct outline_row row_at(struct outline *o, size_t i)
{
	struct outline_row r;
	assert_true(outline_row_get(o, i, &r));
	return r;
}

#endif
