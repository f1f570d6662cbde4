/* model_deferred: subtrees a reader adds when they are first needed
 * (model_deferred.c): whether a node has children, loaded or not, and the
 * loading, which goes through the model's one mutable handle, struct
 * model_growth.  Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_MODEL_DEFERRED_H
#define CALLSCOPE_MODEL_DEFERRED_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"

struct model;

/* ---- deferred subtrees (model_deferred.c) ----------------------------
 *
 * The one way a model changes after finish: it grows.  Loading a deferred
 * node appends its subtree at the end of the node array (the indices, links,
 * values and derived sums of the nodes already there never change; the
 * loaded node gains its first child), so every view and outline keyed by
 * node index stays valid.  It must be called while no other thread reads
 * the model: the viewer does not build views in the background for a model
 * with deferred nodes, and the aggregated views (flat, bottom-up) load
 * everything before they are made, but NODE_TRAIT_DEFERRED_LEAVES nodes
 * (their totals stand for their rows; such a node loads when expanded, so
 * a view made earlier does not see its rows). */

/* The growth handle: what changes a finished model.  A model has one when
 * nodes were deferred at finish (model_growth returns NULL otherwise); it
 * holds the model as writable (the builder kept from finish), so growing
 * takes no const away: a caller with a `const struct model *` that wants
 * it to grow asks for the handle by name.  Growing reallocates
 * model.nodes: a `const struct model_node *` taken before a load does not
 * survive it (keep node indices across a load, as the views do). */
struct model_growth;
struct model_growth *model_growth(const struct model *m);

/* Load the children of deferred node `node` through `g` (a no-op for a
 * node that is not deferred); STATUS_USAGE for a NULL handle and a
 * deferred node.  Errors (a file changed since open, out of memory) leave
 * the model as it was. */
enum status model_growth_load(struct model_growth *g, uint32_t node,
			      struct error *err);

/* Whether node `node` has children, loaded or deferred. */
bool model_node_has_children(const struct model *m, uint32_t node);

/* Load the children of `node` when it is deferred (a no-op otherwise):
 * model_growth_load(model_growth(m), node, err), for the views that hold
 * the model as const.  Errors (a file changed since open, out of memory)
 * leave the model as it was. */
enum status model_load_children(const struct model *m, uint32_t node,
				struct error *err);

/* Load every deferred node that the aggregated views need (O(database):
 * the flat and bottom-up views, a search or report over everything): all
 * but those marked NODE_TRAIT_DEFERRED_LEAVES, whose totals stand for
 * their rows (they load when expanded). */
enum status model_load_all(const struct model *m, struct error *err);

/* How many deferred nodes model_load_all would load (n_deferred less the
 * NODE_TRAIT_DEFERRED_LEAVES ones). */
uint32_t model_deferred_pending(const struct model *m);

/* The same, calling `progress` (NULL: none) after each load with the
 * number of deferred nodes left to load (model_deferred_pending); when it
 * returns false the loading stops there (STATUS_LIMIT, "stopped"; what
 * was loaded stays). */
enum status model_load_all_progress(const struct model *m,
				    bool (*progress)(void *ctx, uint32_t left),
				    void *ctx, struct error *err);

#endif
