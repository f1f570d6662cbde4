/* v4_cct: HPCToolkit v4 cct.db: the per-profile values of one context and
 * one propagated metric, read on demand from the context's Context-Major
 * Sparse Value Block.  Only the Context Info header is read at open.  Must
 * not depend on curses or on the other v4 files. */
#ifndef CALLSCOPE_V4_CCT_H
#define CALLSCOPE_V4_CCT_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "core/status.h"
#include "formats/hpctoolkit_v4/v4_file.h"

struct v4_cct;

/* Validate the Context Info section of the opened cct.db `f` (ownership
 * passes to the result, also on failure).  `n_profiles` bounds the
 * profIndex values the blocks may hold. */
enum status v4_cct_open(struct v4_file *f, uint32_t n_profiles,
			struct v4_cct **out, struct error *err);

/* The (profIndex, value) pairs of propagated metric `metric_id` (a
 * propMetricId) at context `ctx_id`, sorted by profile; *out malloc'd
 * (NULL when *n is 0).  STATUS_CORRUPT when the block does not validate. */
enum status v4_cct_values(struct v4_cct *c, uint32_t ctx_id,
			  uint32_t metric_id, struct profile_value **out,
			  size_t *n, struct error *err);

void v4_cct_close(struct v4_cct *c);

#endif
