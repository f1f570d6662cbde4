/* model_profile: execution contexts (model.profiles: threads, ranks, GPU
 * streams, summary profiles; in a parametric set, one repetition at one
 * point) and the identifier tuples that label them (model.ids).  Must not
 * depend on curses or on ui/. */
#ifndef CALLSCOPE_MODEL_PROFILE_H
#define CALLSCOPE_MODEL_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

struct model;

/* One element of an identifier tuple: its kind and id, and the name the
 * format gives that element when it gives one (Cube's system tree nodes,
 * "nodecard 2"; its processes, "MPI Rank 0").  The name only labels: two
 * elements are the same group by kind and logical id alone. */
struct model_id {
	uint32_t kind_name; /* string: "RANK", "THREAD", "NODE", ... */
	uint8_t kind;       /* the raw kind */
	bool is_physical;
	uint32_t logical_id;
	uint32_t name;      /* string: the element's own name, 0 when none
			       (fills what was padding: 24 bytes still) */
	uint64_t physical_id;
};

/* An execution context (thread, rank, GPU stream) or a summary profile;
 * in a parametric set (Extra-P), one measurement: a point of the parameter
 * space and a repetition there. */
struct model_profile {
	uint32_t label;      /* string: "RANK 0 THREAD 3"; "summary" */
	uint32_t first_id;   /* index into model.ids */
	uint32_t n_ids;
	bool is_summary;
	uint32_t point;      /* measurement point, MODEL_NONE when not
				parametric */
	uint32_t repetition; /* repetition at that point (0, 1, ...),
				MODEL_NONE when not parametric */
};

#endif
