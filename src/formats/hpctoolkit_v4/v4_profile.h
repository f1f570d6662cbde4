/* v4_profile: HPCToolkit v4 profile.db: the profile list (identifier
 * tuples, labelled through the identifier names of meta.db) and the summary
 * statistic values of the canonical summary profile (profile 0), looked up
 * by binary search when a view needs one.  Must not depend on curses or on
 * the other v4 files. */
#ifndef CALLSCOPE_V4_PROFILE_H
#define CALLSCOPE_V4_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "core/status.h"
#include "formats/hpctoolkit_v4/v4_file.h"
#include "formats/hpctoolkit_v4/v4_meta.h"

struct v4_profile;

/* Read the Profile Info and Identifier Tuple sections of the opened
 * profile.db `f` (ownership passes to the result, also on failure), add
 * one model profile per {PI} in file order (profile i of the model is
 * profIndex i), and validate the summary profile's value block. */
enum status v4_profile_open(struct v4_file *f, const struct v4_meta *meta,
			    struct model_builder *b, struct v4_profile **out,
			    struct error *err);

/* Number of profiles (profIndex values) listed. */
uint32_t v4_profile_count(const struct v4_profile *p);

/* Summary value of statistic `stat_id` (a statMetricId) at context
 * `ctx_id`.  False when absent (or when the block is inconsistent). */
bool v4_profile_summary(const struct v4_profile *p, uint32_t ctx_id,
			uint32_t stat_id, double *out);

/* Every summary value of statistic `stat_id`, by one walk over the summary
 * profile's context index in file order: emit(ctx, ctx_id, value) once for
 * each context where v4_profile_summary finds a value, with that value, in
 * increasing ctx_id order.  STATUS_UNSUPPORTED (after some emits) when the
 * index is not sorted by ctxId, since the binary search of
 * v4_profile_summary then finds what no walk reproduces. */
enum status v4_profile_summary_all(const struct v4_profile *p,
				   uint32_t stat_id,
				   void (*emit)(void *ctx, uint32_t ctx_id,
						double value),
				   void *ctx, struct error *err);

void v4_profile_close(struct v4_profile *p);

#endif
