/* Tests of model_kind_is_frame, the one definition of a call-stack frame:
 * every kind value against an independent table, and the trace index's
 * frame count (trace_ctx_frames) on random trees of every node kind against
 * a brute-force walk that counts ancestors from that table. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "model/model.h"
#include "views/trace_index.h"

/* The table written out, not computed: which kinds are frames. */
static bool expected_frame(unsigned kind)
{
	static const bool table[] = {
		[NODE_ROOT] = false,        [NODE_ENTRY] = true,
		[NODE_FUNCTION] = true,     [NODE_LOOP] = false,
		[NODE_LINE] = false,        [NODE_INSTRUCTION] = false,
		[NODE_KERNEL] = true,       [NODE_REGION] = true,
		[NODE_ADDRESS] = false,
	};
	return kind < sizeof(table) / sizeof(table[0]) && table[kind];
}

static void test_every_kind(void **state)
{
	(void)state;
	for (unsigned k = 0; k < 256; k++)
		assert_int_equal(model_kind_is_frame((uint8_t)k),
				 expected_frame(k));
}

static void test_trace_frames_random(void **state)
{
	(void)state;
	srand(12);
	for (int round = 0; round < 20; round++) {
		struct model_builder *b = model_builder_new("test", "mem");
		assert_non_null(b);
		uint32_t n = 1 + (uint32_t)(rand() % 300);
		for (uint32_t i = 1; i < n; i++) {
			struct model_node nd = {
				.ctx_id = i,
				.function = MODEL_NONE,
				.kind = (uint8_t)(1 + rand() % NODE_ADDRESS),
			};
			/* some chains, some bushes */
			uint32_t parent = rand() % 3 ? i - 1
						     : (uint32_t)rand() % i;
			assert_int_equal(model_builder_add_node(b, parent, &nd),
					 i);
		}
		struct model *m = model_builder_finish(b, NULL);
		assert_non_null(m);
		for (uint32_t i = 1; i < n; i++) {
			uint32_t frames = 0;
			for (uint32_t a = i; a != 0; a = model_nodes(m)[a].parent)
				frames += expected_frame(model_nodes(m)[a].kind);
			assert_int_equal(trace_ctx_frames(m, i),
					 frames ? frames : 1);
		}
		model_free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind),
		cmocka_unit_test(test_trace_frames_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
