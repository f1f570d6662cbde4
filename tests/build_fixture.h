/* build_fixture: the end of a cmocka test's model fixture, one call for
 * what every such test wrote out (finish the builder, stop the test with
 * the builder's message when it fails).  Include after <cmocka.h>. */
#ifndef CALLSCOPE_TESTS_BUILD_FIXTURE_H
#define CALLSCOPE_TESTS_BUILD_FIXTURE_H

#include "core/status.h"
#include "model/model_build.h"

/* The model of builder `b` (consumed); the test fails when there is none. */
static inline struct model *fixture_finish(struct model_builder *b)
{
	struct error err = {0};
	struct model *m = model_builder_finish(b, &err);
	if (!m)
		fail_msg("model_builder_finish: %s",
			 err.message ? err.message : status_message(err.status));
	error_clear(&err);
	return m;
}

#endif
