/* model_data: the accessors of struct model (model_data.h): each returns
 * one field, so that only the model's files see the struct.  Must not
 * depend on curses, on ui/ or on any reader. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"

/* Each accessor of model_data.h: TYPE model_NAME(m) returns m->NAME (the
 * compiler checks each against its declaration there). */
#define MODEL_FIELDS(X)                                                        \
	X(const char *, format)                                                \
	X(const char *, path)                                                  \
	X(const char *, local_path)                                            \
	X(const char *, title)                                                 \
	X(const char *, description)                                           \
	X(const char *, strings)                                               \
	X(uint32_t, n_strings)                                                 \
	X(const struct model_node *, nodes)                                    \
	X(uint32_t, n_nodes)                                                   \
	X(uint32_t, max_depth)                                                 \
	X(const struct model_function *, functions)                            \
	X(uint32_t, n_functions)                                               \
	X(const struct model_stat *, stats)                                    \
	X(uint32_t, n_stats)                                                   \
	X(const struct model_column *, columns)                                \
	X(uint32_t, n_columns)                                                 \
	X(const struct model_profile *, profiles)                              \
	X(uint32_t, n_profiles)                                                \
	X(const struct model_id *, ids)                                        \
	X(uint32_t, n_ids)                                                     \
	X(const struct model_param *, params)                                  \
	X(uint32_t, n_params)                                                  \
	X(uint32_t, n_points)                                                  \
	X(const struct model_timeline *, timelines)                            \
	X(uint32_t, n_timelines)                                               \
	X(uint64_t, time_min)                                                  \
	X(uint64_t, time_max)                                                  \
	X(const char *const *, warnings)                                       \
	X(uint32_t, n_warnings)                                                \
	X(uint32_t, ctx_id_base)                                               \
	X(uint32_t, n_deferred)

#define MODEL_ACCESSOR(type, name)                                             \
	type model_##name(const struct model *m)                               \
	{                                                                      \
		return (type)m->name;                                          \
	}
MODEL_FIELDS(MODEL_ACCESSOR)
