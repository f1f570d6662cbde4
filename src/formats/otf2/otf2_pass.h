/* otf2_pass: a pass over one location's events (private to the files
 * whose callbacks the OTF2 event reader calls: otf2_events.c,
 * otf2_records.c): the index pass or the replay of one block of calls,
 * with the frames open at the latest event. */
#ifndef CALLSCOPE_OTF2_PASS_H
#define CALLSCOPE_OTF2_PASS_H

#include "formats/otf2/otf2_internal.h"

struct frame {
	uint32_t node, region;
	uint64_t enter, child; /* ticks */
	uint64_t iv;           /* its interval */
};

/* A pass over one location's events: the index pass (`indexing`: the
 * tree, the values, the blocks' checkpoints, the late ends, the messages)
 * or the replay of one block (the intervals [w0, w1) into `out`). */
struct pass {
	struct otf2_run *r;
	struct otf2_location *l;
	bool indexing;
	struct frame *stack;
	size_t depth, cap_stack;
	struct otf2_cell *acc; /* per tree index, this location */
	uint8_t *touched_mark;
	uint32_t cap_acc;
	uint32_t *touched;
	size_t n_touched, cap_touched;
	size_t cap_msg;
	uint64_t last; /* ticks of the latest event */
	bool any;
	uint64_t n_iv; /* calls begun so far */
	/* the replay */
	uint64_t w0, w1;
	struct trace_interval *out;
	struct otf2_msg *msg; /* the block's messages */
	size_t n_msg;
	bool stopped;
	/* the index pass: what it counts (summed into the run's counts at
	 * each location's end), the call paths it found last (a cache of
	 * otf2_tree_child under the run's index lock: the locations are read
	 * on several threads) */
	uint64_t backward, unmatched, open_end, unknown, shown;
	uint64_t seen[256]; /* (parent + 1) << 32 | region, 0: empty */
	uint32_t seen_node[256];
	double *mval; /* the metric columns' growth, [node * n_mcolumns + c] */
	size_t cap_mval, cap_ctracks;
	/* a counter track's replay (otf2_metrics.c): only the Metric events
	 * of member `want`, their times and values, up to cap_got */
	bool counting;
	uint32_t want;
	uint64_t *ctime;
	double *cvalue;
	uint64_t got, cap_got;
	/* the index pass's time samples: the next one's time and their
	 * spacing (ticks) */
	uint64_t next_grid, grid_step;
	size_t cap_grid;
};

/* The time of an event in ticks, never before the one before it (an
 * earlier one is taken at that time and counted by the index pass). */
uint64_t otf2_event_time(struct pass *p, uint64_t t);

/* The index pass over location p->l (`rd` the OTF2 reader, `cb` the
 * event callbacks): its local definitions when `defs`, its events when
 * `events` (not when the index came from the cache); `report` is called
 * after each 1 M events read with their number (NULL: not).  The first
 * failure is the run's (otf2_fail). */
enum status otf2_index_location(struct pass *p, void *rd, const void *cb,
				bool defs, bool events,
				void (*report)(struct pass *p, uint64_t n));
/* The event callbacks of every pass (OTF2_EvtReaderCallbacks). */
void *otf2_event_callbacks(void);
void otf2_free_pass(struct pass *p);

/* Keep MPI point-to-point message `kind` of call `call` for the links
 * (the index pass); false when out of memory (failed). */
bool otf2_links_note(struct pass *p, uint64_t call, uint32_t kind,
		     uint32_t partner, uint32_t comm, uint32_t tag);

/* Metric events (otf2_metrics.c): their callback registered on `cb`; at a
 * location's end (under the run's index lock) the pass's metric growth
 * added to the run's (false when out of memory). */
void otf2_metrics_callbacks(void *cb);
bool otf2_metrics_finish(struct pass *p);

/* Register the callbacks of the records otf2_records.c reads. */
struct OTF2_EvtReaderCallbacks_struct;
void otf2_records_callbacks(struct OTF2_EvtReaderCallbacks_struct *cb);

#endif
