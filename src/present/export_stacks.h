/* export_stacks: the calling-context tree as stacks of frames with a
 * "self" value each, the shape every flame-graph format wants (folded
 * stacks, speedscope's sampled profiles, pprof's samples).  A stack is
 * the frames (model_kind_is_frame: entry points, functions, kernels,
 * regions; and a context its parent calls, such as the addresses an
 * HPCToolkit database without structure information calls) from the
 * outermost down to one frame F; its value is F's
 * inclusive value minus the inclusive values of the frames nearest below
 * it (its calls): what F spent itself, loops, lines and instructions
 * included.  So the values of all stacks add up to the root's inclusive
 * value (but for negative self values, which are left out and summed), whatever the format stores (exclusive values, exclusive-only
 * statistics, inlined frames whose exclusive values are also in their
 * caller's).  A context outside every frame (a line directly under the
 * root) is a frame of its own, named by its label.  Only columns whose
 * values add up (view_column_adds_up) can be split this way.  One walk
 * of the loaded tree, O(nodes x columns), memory O(depth x columns).
 * No curses here. */
#ifndef CALLSCOPE_EXPORT_STACKS_H
#define CALLSCOPE_EXPORT_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"

/* Called once per stack whose values are not all zero, a frame after
 * the frames it calls (post-order), the root's own remainder last:
 * `frames` are model node ids, outermost first (n >= 1); `values` has
 * one value per column given to export_stacks_walk.  Return false to
 * stop the walk (export_stacks_walk then returns STATUS_IO). */
typedef bool (*export_stack_fn)(void *ctx, const uint32_t *frames, size_t n,
				const double *values);

/* The inclusive column that stands for `column` in a stack export: the
 * column itself when inclusive, else its inclusive pair.  MODEL_NONE,
 * with *why set to a sentence, when there is none or the column's values
 * do not add up (a mean, a minimum, a ratio). */
uint32_t export_stacks_column(const struct model *m, uint32_t column,
			      const char **why);

/* Walk the loaded tree of `m` (model_load_all first) with the inclusive
 * columns `columns` (export_stacks_column), calling `emit` per stack.  A
 * self value below 0 (a parent whose inclusive value is less than its
 * calls': rounded data, or a metric with negative values) is written as
 * 0; `negative` (n_columns) gets the sum of those left out per column. */
enum status export_stacks_walk(const struct model *m, const uint32_t *columns,
			       size_t n_columns, export_stack_fn emit,
			       void *ctx, double *negative, struct error *err);

/* The frames of an export as a table (speedscope's shared frames,
 * pprof's locations): one entry per frame identity, a function record,
 * else a name, else the node itself. */
struct export_frames {
	const struct model *m;
	uint32_t *of_function; /* per model function, MODEL_NONE: not yet */
	uint32_t *of_name;     /* per model string, MODEL_NONE: not yet */
	uint32_t *node;        /* per entry: a node standing for it */
	size_t n, cap;
};

/* False when out of memory (export_frames_free then). */
bool export_frames_init(struct export_frames *f, const struct model *m);
/* The entry of frame `node`, added when new; MODEL_NONE when out of
 * memory. */
uint32_t export_frames_index(struct export_frames *f, uint32_t node);
void export_frames_free(struct export_frames *f);

/* Where frame `node` is in the source: its function record's file and
 * first line, else the node's own (0, 0 when unknown). */
void export_frame_source(const struct model *m, uint32_t node, uint32_t *file,
			 uint32_t *line);

/* The name a frame has in an export: a function, kernel or region name,
 * else the node's short label ("loop at x.c:3", "<unknown function>").
 * Heap string (not sanitized), NULL when out of memory. */
char *export_frame_name(const struct model *m, uint32_t node);

#endif
