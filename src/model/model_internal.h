/* model_internal: what the files of the model module share and nothing
 * else may see: the builder's state, and the steps of
 * model_builder_finish that live in the other files.  Must not depend on
 * curses, on ui/ or on any reader. */
#ifndef CALLSCOPE_MODEL_INTERNAL_H
#define CALLSCOPE_MODEL_INTERNAL_H

#include "model/model.h"

struct model_builder {
	struct model *m;
	size_t strings_len, strings_cap;
	uint32_t offsets_cap;
	uint32_t *hash; /* open addressing: handle+1, 0 = empty */
	uint32_t hash_cap;
	uint32_t nodes_cap;
	uint32_t *last_child;
	uint32_t functions_cap, stats_cap, columns_cap, profiles_cap;
	uint32_t ids_cap, timelines_cap;
	uint32_t params_cap, points_cap; /* model_params.c */
	bool failed;
};

/* model_params.c: the point -> profiles index.  False when out of
 * memory. */
bool model_params_finish(struct model *m);

#endif
