/* dcpi_epochs: the per-epoch values of a DCPI profile database whose files
 * span several epochs.  Each epoch becomes a profile of the model (labelled
 * "EPOCH 2611241530"), and a context's samples in each epoch are its
 * per-profile values, so that the viewer's per-thread pane and anything else
 * that splits a cost over profiles show how the epochs compare.  The
 * summary values (every epoch summed) stay dcpi.c's.  Exclusive values are
 * kept per sampled row (the leaves); inclusive ones are summed once, at
 * open, for every inner node (image, procedure, inlined call, line), so a
 * query costs a binary search and O(epochs), never a walk; up to 256 MB of
 * them (beyond, inner nodes have no per-epoch values, and the reader says
 * so).  Depends on
 * core/ and model/. */
#ifndef CALLSCOPE_DCPI_EPOCHS_H
#define CALLSCOPE_DCPI_EPOCHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"

struct dcpi_epochs;

/* For `n_epochs` (> 1) epochs and `n_events` events; NULL when out of
 * memory. */
struct dcpi_epochs *dcpi_epochs_new(uint32_t n_epochs, uint32_t n_events);

/* Samples `value` of `event` in `epoch` at leaf node `node`; calls come in
 * increasing (node, event, epoch) order, equal triples summed.  False when
 * out of memory or out of order. */
bool dcpi_epochs_add(struct dcpi_epochs *e, uint32_t node, uint32_t event,
		     uint32_t epoch, double value);

/* After the last add: the inner nodes' inclusive sums over the tree built
 * so far (`m`, a builder's view: parent links), and the profile index of
 * epoch 0 (epoch k is profile first_profile + k).  False when out of
 * memory. */
bool dcpi_epochs_finish(struct dcpi_epochs *e, const struct model *m,
			uint32_t first_profile);

/* The per-profile values of context `ctx_id` (the node index) for
 * `prop_id`: event k's exclusive samples for prop_id k, its inclusive
 * samples for prop_id n_events + k; non-zero values only, by profile.  As
 * value_ops.per_profile. */
enum status dcpi_epochs_per_profile(const struct dcpi_epochs *e,
				    uint32_t ctx_id, uint32_t prop_id,
				    struct profile_value **out, size_t *n,
				    struct error *err);

/* False when the inclusive sums were too large to keep (more than 32 M
 * inner nodes x events x epochs): inner nodes then have no per-epoch
 * values, sampled rows still do. */
bool dcpi_epochs_inner_kept(const struct dcpi_epochs *e);

/* Deferred images (dcpi_lazy.c).  After finish, `value` samples of
 * `event` in `epoch` under deferred node `node` (an image's file sum),
 * into its inner sums and its ancestors'. */
void dcpi_epochs_add_deferred(struct dcpi_epochs *e, const struct model *m,
			      uint32_t node, uint32_t event, uint32_t epoch,
			      double value);
/* After dcpi_epochs_grow: `value` samples of `event` in `epoch` into the
 * inner sums of new deferred node `node` alone (an image's group of
 * addresses without a symbol: its ancestors hold them already). */
void dcpi_epochs_add_inner(struct dcpi_epochs *e, const struct model *m,
			   uint32_t node, uint32_t event, uint32_t epoch,
			   double value);
/* Before a load adds leaf values for nodes from `from` on: forget any left
 * by a load the model undid. */
void dcpi_epochs_forget_from(struct dcpi_epochs *e, uint32_t from);
/* After a load appended nodes [from, n_nodes) and added their leaf values:
 * rows for the new inner nodes, summed from the new leaves (the loaded
 * node's sums stay: they were its files' sums).  False when out of
 * memory. */
bool dcpi_epochs_grow(struct dcpi_epochs *e, const struct model *m,
		      uint32_t from);

void dcpi_epochs_free(struct dcpi_epochs *e);

#endif
