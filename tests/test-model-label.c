/* Tests of model_node_label and model_node_short_label: the name a node
 * shows in the tree and in every report (text, CSV, JSON), in particular
 * a function without a name, shown with its load module and offset as
 * hpcviewer does ("<unknown function> [libfoo.so @ 0x1234]"). */
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

static uint32_t intern(struct model_builder *b, const char *s)
{
	return model_builder_intern(b, s, strlen(s));
}

static void expect_label(const struct model *m, uint32_t node,
			 const char *want)
{
	char *got = model_node_label(m, node);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
	got = model_node_short_label(m, node);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_degenerate(void **state)
{
	(void)state;
	struct model_builder *b = model_builder_new("test", "/tmp/db");
	assert_non_null(b);
	struct model *m = fixture_finish(b);
	expect_label(m, 0, "<program root>");
	char *s = model_node_label(m, 7); /* no such node */
	assert_string_equal(s, "");
	free(s);
	model_free(m);
}

static void test_unknown_function(void **state)
{
	(void)state;
	struct model_builder *b = model_builder_new("test", "/tmp/db");
	assert_non_null(b);
	uint32_t lib = intern(b, "/usr/lib64/libfoo.so.1");
	/* a function without a name, in a module, at an offset */
	struct model_function anon = {.module = lib, .offset = 0x1234};
	uint32_t f_anon = model_builder_add_function(b, &anon);
	struct model_function bare = {.name = 0};
	uint32_t f_bare = model_builder_add_function(b, &bare);
	/* 1: the function's module and offset (v4: {FS} pModule, offset) */
	struct model_node n1 = {.ctx_id = 1, .kind = NODE_FUNCTION,
				.function = f_anon};
	/* 2: the function's place, not the context's (the views group
	 * contexts by function) */
	struct model_node n2 = {.ctx_id = 2, .kind = NODE_FUNCTION,
				.function = f_anon,
				.module = intern(b, "/opt/libbar.so"),
				.offset = 0xabc};
	/* 3: no function: the context's module, without its offset (the
	 * views group such contexts by name and module) */
	struct model_node n3 = {.ctx_id = 3, .kind = NODE_FUNCTION,
				.function = MODEL_NONE, .module = lib,
				.offset = 0x99};
	/* 4: nothing known */
	struct model_node n4 = {.ctx_id = 4, .kind = NODE_FUNCTION,
				.function = f_bare};
	/* 5: a name wins */
	struct model_node n5 = {.ctx_id = 5, .kind = NODE_FUNCTION,
				.function = f_anon, .name = intern(b, "main")};
	assert_int_equal(model_builder_add_node(b, 0, &n1), 1);
	assert_int_equal(model_builder_add_node(b, 0, &n2), 2);
	assert_int_equal(model_builder_add_node(b, 0, &n3), 3);
	assert_int_equal(model_builder_add_node(b, 0, &n4), 4);
	assert_int_equal(model_builder_add_node(b, 0, &n5), 5);
	struct model *m = fixture_finish(b);
	expect_label(m, 1, "<unknown function> [libfoo.so.1 @ 0x1234]");
	expect_label(m, 2, "<unknown function> [libfoo.so.1 @ 0x1234]");
	expect_label(m, 3, "<unknown function> [libfoo.so.1]");
	expect_label(m, 4, "<unknown function>");
	expect_label(m, 5, "main");
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_unknown_function),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
