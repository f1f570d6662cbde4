/* system_tree: the system tree of a database, as the Cube GUI shows it
 * (machine > node > process > thread), built from the execution contexts'
 * identifier tuples (model.ids: HPCToolkit's NODE > RANK > THREAD, Cube's
 * and OTF2's RANK > THREAD, the GPU readers' tuples): a context is a leaf,
 * placed under one group per element of its tuple but the last, groups
 * shared by the contexts whose tuples begin alike (same kind name, same
 * logical id).  A context without a tuple is a leaf at the top; tuples of
 * different lengths mix (a group and a leaf may sit side by side).  The
 * value of a group is its leaves' per-profile values combined as the
 * metric combines contexts (sum, min, max); the visible rows follow
 * per-node expanded flags, siblings by value or in tuple order.  Summary
 * profiles are no part of it.  Depends on model/ only. */
#ifndef CALLSCOPE_SYSTEM_TREE_H
#define CALLSCOPE_SYSTEM_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"

#define SYSTREE_NONE UINT32_MAX

struct systree_node {
	uint32_t parent;       /* SYSTREE_NONE at the top */
	uint32_t first_child;  /* SYSTREE_NONE for a leaf */
	uint32_t next_sibling; /* SYSTREE_NONE for the last */
	uint32_t profile;      /* a leaf: its profile; a group: SYSTREE_NONE */
	uint32_t level;        /* 0 at the top */
	uint32_t id;           /* a group: the tuple element (index into
				  model.ids) it stands for; a leaf:
				  SYSTREE_NONE */
	uint32_t n_leaves;     /* contexts below it (1 for a leaf) */
};

/* Nodes in preorder (a parent before its children, siblings in tuple
 * order: kind name, then logical id, shorter tuples first, then profile
 * index). */
struct systree {
	struct systree_node *nodes;
	uint32_t n;
	uint32_t n_leaves; /* the non-summary profiles */
	uint32_t n_groups;
};

/* The system tree of `m`'s non-summary profiles into *out (free with
 * systree_free).  STATUS_NOMEM; an empty tree for a model without
 * profiles. */
enum status systree_build(const struct model *m, struct systree *out,
			  struct error *err);
void systree_free(struct systree *t);

/* Every node's value into out[0..t->n): a leaf's is by_profile[its
 * profile] (profiles at or past n_profiles read 0), a group's its
 * children's combined by `combine`.  A group without leaves cannot
 * exist. */
void systree_aggregate(const struct systree *t, const double *by_profile,
		       uint32_t n_profiles, enum stat_combine combine,
		       double *out);

/* As systree_aggregate for statistic `stat` of `m` where the reader
 * combines profiles its own way (model_combine_profiles): a group's
 * value is that combination of the values of the leaves below it, in
 * order.  false (out untouched): the statistic has none, or no memory. */
bool systree_aggregate_own(const struct model *m, uint32_t stat,
			   const struct systree *t, const double *by_profile,
			   uint32_t n_profiles, double *out);

/* The label of node `i`: a leaf's profile label, a group's name when its
 * tuple element has one that is not blank (Cube's "nodecard 2", "MPI Rank
 * 0", as the Cube GUI labels them), else its "KIND id" ("RANK 3").  Heap
 * string (unsanitized: the database's names), or NULL when out of
 * memory. */
char *systree_label(const struct model *m, const struct systree *t,
		    uint32_t i);

/* The rows shown: nodes in depth-first order, the children of a node
 * listed only when expanded[node] (expanded may be NULL: only the top
 * level), siblings by `values` descending (ties in tuple order) when
 * by_value, else in tuple order.  rows must hold t->n entries; returns
 * how many were written, or SIZE_MAX when out of memory. */
size_t systree_visible(const struct systree *t, const uint8_t *expanded,
		       const double *values, bool by_value, uint32_t *rows);

/* The node whose leaf is profile `profile`, SYSTREE_NONE when none. */
uint32_t systree_leaf_of(const struct systree *t, uint32_t profile);

#endif
