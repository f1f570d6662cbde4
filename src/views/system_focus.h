/* system_focus: the call tree's values restricted to part of the system
 * (the Cube GUI's "system first"): a set of execution contexts (a thread,
 * a process, a node of the system tree) and, per call-tree node and
 * statistic, their per-profile values combined as the statistic combines
 * contexts (sum, min, max; a context without a value counts 0).  Values
 * are read lazily, one model_per_profile per node and statistic asked
 * for, and kept (so a redraw reads nothing): nothing is O(database).
 * Depends on model/ only. */
#ifndef CALLSCOPE_SYSTEM_FOCUS_H
#define CALLSCOPE_SYSTEM_FOCUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"

struct system_focus;

/* A focus on profiles[0..n) of `m` (indexes into model.profiles; those
 * out of range or summary are left out), called `label` (copied; shown
 * in titles).  NULL when out of memory. */
struct system_focus *system_focus_new(const struct model *m,
				      const uint32_t *profiles, size_t n,
				      const char *label);
void system_focus_free(struct system_focus *f);

const char *system_focus_label(const struct system_focus *f);
/* The contexts in the focus. */
size_t system_focus_count(const struct system_focus *f);
/* Whether profile `p` is in it. */
bool system_focus_has(const struct system_focus *f, uint32_t p);

/* Statistic `stat` at model node `node` over the focus's contexts into
 * *out; *present false when none of them has a value there.
 * STATUS_UNSUPPORTED when the statistic has no per-profile values (the
 * format has none, or not for it: `err` says so); a failed read's status
 * otherwise (not kept: asked again next time). */
enum status system_focus_value(struct system_focus *f, uint32_t node,
			       uint32_t stat, double *out, bool *present,
			       struct error *err);

#endif
