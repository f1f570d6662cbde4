/* otf2_internal: what the OTF2 reader's files share (private to
 * formats/otf2/).  The global definitions (otf2_defs.c) fill tables indexed
 * by the archive's definition ids; the event pass over each location
 * (otf2_events.c) builds the call tree from Enter/Leave, the values per
 * call path and location (exclusive and inclusive ticks, visits), the
 * location's intervals and its MPI messages; otf2_provider.c answers the
 * model's value and trace reads from them.  No OTF2 header here: the
 * library stays inside the .c files. */
#ifndef CALLSCOPE_OTF2_INTERNAL_H
#define CALLSCOPE_OTF2_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"

struct reader_options;
struct reader_progress;

/* Definition ids at or above this are refused ("billions claimed"): every
 * table indexed by an id holds at most this many entries. */
#define OTF2_MAX_DEF_ID (1u << 24)
/* Calls of a location read by one replay of its events, by default. */
#define OTF2_BLOCK_CALLS 4096u
/* Blocks kept read back, over every location, least recently used first
 * out (4096 calls of 40 bytes each: 42 MB at most). */
#define OTF2_SLOTS 256u
/* Values of a counter track read by one replay, and the replays kept. */
#define OTF2_COUNTER_BLOCK 4096u
#define OTF2_COUNTER_SLOTS 16u
/* Metric members with a column at most (the others: tracks only). */
#define OTF2_MAX_METRIC_COLUMNS 64u

/* A location's time samples (the context at evenly spaced times, for
 * zoomed-out windows: trace_ops.near) at most; their spacing doubles when
 * they would be more. */
#define OTF2_GRID_MAX 16384u

/* A location or counter track of at most this many blocks is always read
 * exactly (trace_ops.near answers nothing: its blocks stay read). */
#define OTF2_NEAR_MIN_BLOCKS 16u

/* Nesting deeper than this in one location is refused. */
#define OTF2_MAX_DEPTH 100000u

struct otf2_region {
	uint32_t name;      /* model string handle */
	uint32_t file;      /* model string handle, 0 when none */
	uint32_t line;      /* first line, 0 when none */
	uint32_t function;  /* model function, MODEL_NONE until used */
	bool defined;
};

struct otf2_stn { /* a system tree node: machine, node, ... */
	uint32_t name, class_name; /* model string handles */
	uint32_t parent;           /* id, UINT32_MAX for none */
	bool defined;
};

struct otf2_group { /* a location group: an MPI rank, a process */
	uint32_t name;   /* model string handle */
	uint32_t stn;    /* its system tree node id, UINT32_MAX for none */
	bool defined;
};

/* One call path's values in one location (ticks and counts).  This and
 * the block, snapshot, late end and message structures are written to the
 * cache as they are (otf2_cache.c): no padding bytes. */
struct otf2_cell {
	uint32_t node; /* call path (tree index) */
	uint32_t zero; /* (no padding: the cells are written to the cache) */
	uint64_t excl, incl;
	uint64_t visits, visits_incl;
};

/* The records kept as a call's attributes (otf2_records.c): MPI
 * point-to-point messages first (the links match them), then the others. */
enum otf2_msg_kind { OTF2_MSG_SEND, OTF2_MSG_RECV, OTF2_MSG_ISEND,
		     OTF2_MSG_IRECV, OTF2_REC_COLLECTIVE, OTF2_REC_RMA_PUT,
		     OTF2_REC_RMA_GET, OTF2_REC_RMA_ATOMIC, OTF2_REC_FORK,
		     OTF2_REC_JOIN, OTF2_REC_TEAM_BEGIN, OTF2_REC_TEAM_END,
		     OTF2_REC_THREAD_CREATE, OTF2_REC_THREAD_BEGIN,
		     OTF2_REC_THREAD_WAIT, OTF2_REC_THREAD_END,
		     OTF2_REC_LOCK_ACQUIRE, OTF2_REC_LOCK_RELEASE,
		     OTF2_REC_TASK_CREATE, OTF2_REC_TASK_COMPLETE,
		     OTF2_REC_IO_BEGIN, OTF2_REC_IO_COMPLETE, OTF2_REC_IO_CREATE,
		     OTF2_REC_IO_DESTROY, OTF2_REC_KINDS };

/* One record of a location (a message, an RMA or I/O operation, a thread
 * event); what the fields hold depends on the kind (otf2_record_text). */
struct otf2_msg {
	uint64_t interval; /* the innermost interval it lies in */
	uint64_t time;     /* ns */
	uint64_t length;   /* bytes (a sequence number, an acquisition) */
	uint32_t partner;  /* rank in the communicator (root, lock, handle) */
	uint32_t comm;     /* communicator id (window, team) */
	uint32_t tag;      /* (collective operation, paradigm, I/O mode) */
	uint32_t kind;     /* enum otf2_msg_kind (32 bits: no padding) */
	uint64_t extra;    /* bytes received (a collective, an atomic) */
};

/* An MPI point-to-point message of a location as the index pass saw it,
 * for the links (otf2_links.c). */
struct otf2_p2p {
	uint64_t call;
	uint32_t partner, comm, tag, kind;
};

/* A call's message matched with its partner's: the call holding the
 * partner's event (line, call).  A location's links are sorted by call,
 * then by the order of its events. */
struct otf2_link {
	uint64_t call;
	uint64_t peer_call;
	uint32_t peer_line;
	uint32_t seq; /* its order among the location's messages (32 bits:
			 no padding, written to the cache) */
};

/* A metric member (a counter: PAPI_TOT_INS): a column of the tree when its
 * values accumulate (accumulated or relative modes), a counter track per
 * location that records it (otf2_metrics.c). */
struct otf2_member {
	uint32_t name, unit; /* model string handles */
	double scale;        /* base ^ exponent */
	uint32_t column;     /* its place among the accumulating members,
				UINT32_MAX for an absolute one */
	uint8_t mode;        /* OTF2_MetricMode */
	bool defined;
};

/* A metric class or instance: the members its events hold, in order. */
struct otf2_mclass {
	uint32_t *members;
	uint32_t n;
	bool defined;
};

/* Where a counter track's values [k * OTF2_COUNTER_BLOCK, + block) start:
 * the event position of the first one's Metric event. */
struct otf2_cpoint {
	uint64_t pos;
	uint64_t time; /* ns */
	double value;
};

/* One member's values in one location: a counter track. */
struct otf2_ctrack {
	uint32_t member;
	uint32_t zero;
	uint64_t n;                 /* values */
	struct otf2_cpoint *points; /* one per OTF2_COUNTER_BLOCK values */
	size_t n_points, cap_points;
	double prev;                /* the index pass: the value before */
};

/* An OTF2 group definition (communicators' members). */
struct otf2_ogroup {
	uint64_t *members;
	uint32_t n_members;
	uint8_t type, paradigm; /* OTF2_GroupType, OTF2_Paradigm */
	bool defined;
};

/* Where the replay of a block of a location's calls starts: the event
 * position of the block's first Enter, the time before it and the frames
 * open there (snaps[first_snap .. + depth) of the location). */
struct otf2_block {
	uint64_t pos;
	uint64_t last; /* ticks of the event before, when `any` */
	uint64_t first_snap;
	uint32_t depth;
	uint32_t any; /* a bool (32 bits: no padding) */
};

/* A frame open where a block starts. */
struct otf2_snap {
	uint64_t iv;
	uint32_t node, region;
};

/* The end of a call that its block's replay does not reach (its Leave
 * comes after the next block's first Enter). */
struct otf2_late {
	uint64_t iv;
	uint64_t end; /* ns */
};

/* The context running at a time (a sample of the grid). */
struct otf2_gsample {
	uint64_t time;  /* ticks during the index pass, then ns */
	uint32_t ctx;   /* tree index + 1, 0 when idle */
	uint32_t zero;  /* (no padding: written to the cache) */
};

/* A marker of a location (otf2_marks.c): an instant of its line. */
struct otf2_mark {
	uint64_t time; /* ns */
	uint32_t line; /* the location's index */
	uint32_t name; /* model string handle */
	uint32_t seq;  /* its order in the marker file */
};

struct otf2_location {
	uint64_t ref;         /* the archive's location id */
	uint32_t name;        /* model string handle */
	uint32_t group;       /* location group id, UINT32_MAX for none */
	uint64_t claimed;     /* the definition's number of events */
	/* filled by the index pass */
	uint64_t events, unknown;
	struct otf2_cell *cells; /* sorted by node */
	size_t n_cells;
	uint64_t n_iv;             /* calls (intervals) */
	uint64_t first_begin;      /* ns, when n_iv */
	struct otf2_block *blocks; /* one per r->block calls */
	size_t n_blocks, cap_blocks;
	struct otf2_snap *snaps;
	size_t n_snaps, cap_snaps;
	struct otf2_late *late; /* sorted by iv */
	size_t n_late, cap_late;
	struct otf2_msg *msg; /* the late messages: their call's block's
				 replay does not reach them; by interval,
				 then time */
	size_t n_msg;
	struct otf2_p2p *p2p; /* during the index pass */
	size_t n_p2p, cap_p2p;
	struct otf2_link *links;
	size_t n_links;
	struct otf2_ctrack *ctracks; /* by member */
	size_t n_ctracks;
	struct otf2_gsample *grid; /* by time, evenly spaced */
	size_t n_grid;
	void *evt;                 /* its OTF2_EvtReader, kept open */
	uint32_t hit;              /* the cache slot it used last */
};

/* A block of calls read back: intervals [b * block, + block) of `line`. */
struct otf2_slot {
	uint32_t line;
	uint64_t b;    /* UINT64_MAX: empty */
	uint64_t used; /* the run's clock when last used */
	struct trace_interval *iv;
	struct otf2_msg *msg; /* its messages (but the late ones), sorted */
	size_t n_msg;
};

/* The call tree built from the events: node i (tree index) has model
 * context id i + 1 and model node index i + 1. */
struct otf2_tree {
	uint32_t *parent; /* tree index, UINT32_MAX for a top region */
	uint32_t *region; /* region id */
	uint32_t *depth;  /* 1 for a top region */
	uint32_t n, cap;
	uint64_t *slots;  /* hash of (parent + 1) << 32 | region -> index */
	uint32_t n_slots;
};

struct otf2_run {
	char *path;              /* the anchor file (owned) */
	struct model_builder *b; /* strings are interned here */
	/* global definitions */
	uint32_t *strings; /* string id -> model handle */
	uint32_t n_strings;
	struct otf2_region *regions;
	uint32_t n_regions;
	struct otf2_stn *stns;
	uint32_t n_stns;
	struct otf2_group *groups;
	uint32_t n_groups;
	uint32_t *comms; /* communicator id -> model string handle */
	uint32_t n_comms;
	uint32_t *comm_group; /* communicator id -> group id */
	uint32_t n_comm_group;
	struct otf2_ogroup *ogroups;
	uint32_t n_ogroups;
	struct otf2_member *members;
	uint32_t n_members;
	struct otf2_mclass *mclasses; /* metric classes and instances */
	uint32_t n_mclasses;
	uint32_t n_mcolumns;  /* accumulating members (columns) */
	double *mvals;        /* their exclusive values, [node * n_mcolumns +
				 column], over every location */
	uint32_t cap_mvals;   /* nodes it has room for */
	/* the counter tracks: line n_locs + i is location cline_loc[i]'s
	 * track cline_track[i] */
	uint32_t *cline_loc, *cline_track;
	uint32_t n_clines;
	struct otf2_cslot {
		uint32_t line;
		uint64_t b; /* UINT64_MAX: empty */
		uint64_t used;
		uint64_t *time;
		double *value;
	} cslots[OTF2_COUNTER_SLOTS];
	struct otf2_location *locs;
	size_t n_locs, cap_locs;
	uint64_t resolution, offset, length; /* the clock */
	bool has_clock;
	uint64_t unknown_defs;
	/* the event pass */
	struct otf2_tree tree;
	uint64_t *excl, *visits; /* per tree index, over every location */
	uint64_t *first; /* per tree index: (location << 40) | the rank of its
			    first touch there, the least (the index pass) */
	uint32_t cap_first;
	uint64_t time_min, time_max; /* ns */
	uint64_t unknown_events;
	uint64_t open_at_end, unmatched_leaves, backward_times;
	uint64_t unshown; /* events of kinds not shown */
	/* the markers (otf2_marks.c): the locations', sorted by (line, time,
	 * order); line i's are mark[mark_first[i] .. mark_first[i + 1]); the
	 * marks counted per tree index (NULL when none), those outside every
	 * call, those of other scopes (no line) */
	struct otf2_mark *mark;
	size_t n_marks;
	size_t *mark_first;
	double *marks;
	uint64_t marks_outside, marks_unshown;
	bool marks_damaged;
	void *names; /* otf2_provider.c's copy of the communicator names */
	/* the lazy trace: the OTF2 reader kept open, its event callbacks,
	 * calls per block (reader option otf2:calls-per-block) */
	void *reader, *callbacks;
	uint32_t block;
	const char *cache_dir; /* the reader's cache directory, or NULL */
	bool from_cache;       /* the index came from it (no event read) */
	pthread_mutex_t lock; /* the trace reads (the viewer's threads) */
	/* the index pass's threads: the tree, the run's sums, the failure,
	 * the progress */
	pthread_mutex_t index_lock;
	const struct reader_options *options; /* during the open only */
	struct reader_progress *progress;      /* during the index pass */
	struct otf2_slot slots[OTF2_SLOTS];
	uint64_t clock;
	struct error trace_error; /* the first failed read, for take_error */
	/* the first problem a callback met, ending the read */
	struct error *err;
	enum status failed;
};

/* Read the global definitions of the archive `r->path` (an OTF2_Reader
 * passed as `reader`). */
enum status otf2_read_defs(struct otf2_run *r, void *reader);

/* Read each location's local definitions and events (`reader` as above,
 * its definitions read): the index pass.  The reader and the event
 * readers stay open for otf2_window (r->reader). */
enum status otf2_read_events(struct otf2_run *r, void *reader);

/* Read block `b` of location `line` into `out` (room for r->block
 * intervals) and its calls' messages (but the late ones) into *msg
 * (malloc'd, sorted by interval; NULL when none): one replay of its events
 * from the block's checkpoint.  An interval with messages has its own
 * index as its event.  Not thread-safe: the caller locks. */
enum status otf2_window(struct otf2_run *r, size_t line, uint64_t b,
			struct trace_interval *out, struct otf2_msg **msg,
			size_t *n_msg, struct error *err);

/* The index pass's results from the cache directory `dir` (otf2_cache.c):
 * false (and nothing loaded) when there is none for this archive as it is
 * now; after a pass, saved there (failures ignored). */
bool otf2_cache_load(struct otf2_run *r, const char *dir);
void otf2_cache_save(const struct otf2_run *r, const char *dir);
/* `callscope cache list`: the cache files of `dir` (struct
 * reader_cache_entry of formats/reader.h). */
struct reader_cache_entry;
enum status otf2_cache_list(const char *dir, struct reader_cache_entry **out,
			    size_t *n, struct error *err);

/* Metrics (otf2_metrics.c): the definitions' callbacks registered on
 * `cb` (an OTF2_GlobalDefReaderCallbacks), the columns and counter tracks
 * added to the builder, the counter values read back. */
void otf2_metrics_def_callbacks(void *cb);
/* Statistic `id` stored exclusive, and its derived inclusive one (per
 * profile: property `incl_prop`), as the columns NAME (I) and NAME (E)
 * (otf2.c). */
enum status otf2_build_metric(struct otf2_run *r, uint32_t id,
			      uint32_t incl_prop, const char *name,
			      const char *descr, const char *format,
			      uint8_t unit);
enum status otf2_metrics_build(struct otf2_run *r);
bool otf2_counter(void *impl, uint32_t line, uint64_t index, uint64_t *time,
		  double *value);
/* trace_ops.counter_near: the first value of a counter block at or after
 * t, when it lies before t + span. */
bool otf2_counter_near(void *impl, uint32_t line, uint64_t t, uint64_t span,
		       double *value, uint64_t *index);
/* Statistic `stat` (2 + 2 * column: the columns' exclusive statistics) of
 * tree index `node`: false when `stat` is no metric's. */
bool otf2_metric_value(const struct otf2_run *r, uint32_t node,
		       uint32_t stat, double *out);
void otf2_metrics_free(struct otf2_run *r);

/* The links (otf2_links.c): after the index pass, match each location's
 * MPI sends with their receives (the nth send from A to B on a
 * communicator with a tag is the nth receive on B from A with them) into
 * each location's links; the p2p lists are freed. */
enum status otf2_links_match(struct otf2_run *r);
/* The call linked to call `call` of `line` by its `nth` matched message:
 * false when there is none. */
bool otf2_links_of(const struct otf2_run *r, uint32_t line, uint64_t call,
		   uint32_t nth, uint32_t *to_line, uint64_t *to_call);

/* A record's attribute key ("MPI send") and text ("16384 bytes to rank 1,
 * tag 10, MPI_COMM_WORLD"; `comm` the communicator's name or ""), the
 * text by asprintf (its result returned). */
const char *otf2_record_key(uint32_t kind);
int otf2_record_text(const struct otf2_msg *m, const char *comm, char **out);

/* The markers of the archive (otf2_marks.c): read when the marker file
 * is there (`reader` an OTF2_Reader, the events read), each counted at the
 * call running at its time on its location (otf2_call_at); the run's
 * reader and slots must be ready for the trace's reads. */
enum status otf2_read_marks(struct otf2_run *r, void *reader);
/* What a warning says of the markers (outside every call, of no
 * location, a damaged file) into `out`: false when nothing. */
bool otf2_marks_note(const struct otf2_run *r, char *out, size_t size);
/* The statistic of the Marks column (exclusive; its inclusive one is the
 * next id): after the time, the visits and the metric columns. */
#define OTF2_MARKS_STAT(r) (4u + 2u * (r)->n_mcolumns)

/* The trace's lookup (otf2_provider.c): the tree index of the innermost
 * call of location `line` running at `t` ns (enter <= t < leave): false
 * when none, or when a block cannot be read (*err set). */
bool otf2_call_at(struct otf2_run *r, uint32_t line, uint64_t t,
		  uint32_t *node, struct error *err);
/* The block slots emptied (before the first trace read). */
void otf2_slots_reset(struct otf2_run *r);

/* Close the OTF2 reader kept open (nothing when none). */
void otf2_close_reader(struct otf2_run *r);

/* The first of `n` elements of `size` bytes at `base`, sorted by key(e),
 * whose key is >= `want` (n when none): the searches of the cells, late
 * ends and messages (otf2_tree.c). */
size_t otf2_lower_bound(const void *base, size_t n, size_t size,
			uint64_t (*key)(const void *e), uint64_t want);

/* The call tree (otf2_tree.c): the call path of `region` under `parent`
 * (UINT32_MAX: a top region), added when `add` and new; UINT32_MAX when
 * absent (not `add`) or out of memory. */
uint32_t otf2_tree_child(struct otf2_run *r, uint32_t parent, uint32_t region,
			 bool add);

/* The order the call paths would have, had the locations been read one
 * after the other (the tree's numbers must not depend on the threads):
 * location `loc` touched `nodes` first in this order (under the index
 * lock; false when out of memory); after the pass, the tree renumbered in
 * that order, with everything that holds its numbers. */
bool otf2_tree_first_seen(struct otf2_run *r, size_t loc,
			  const uint32_t *nodes, size_t n);
enum status otf2_tree_canonical(struct otf2_run *r);

/* Make table *t (of `size`-byte entries, *n of them, indexed by a
 * definition id) hold id `id`, the new entries zeroed; false (and the run
 * failed) for an id at or above OTF2_MAX_DEF_ID or out of memory. */
bool otf2_table_hold(struct otf2_run *r, void **t, uint32_t *n, uint32_t id,
		     size_t size, const char *what);

/* The model string handle of string id `id` (0 for none or unknown). */
uint32_t otf2_string(const struct otf2_run *r, uint32_t id);

/* Ticks since the clock's offset, in nanoseconds. */
uint64_t otf2_ns(const struct otf2_run *r, uint64_t ticks);

/* Record the first failure of a callback (later ones are dropped);
 * thread-safe. */
void otf2_fail(struct otf2_run *r, enum status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Hand the run's values and trace to the builder (otf2_provider.c); the
 * run is the providers' from then on, freed by their close. */
void otf2_set_providers(struct otf2_run *r);
/* Free what the index pass (or the cache) gave location `l`, keeping its
 * definition and its event reader. */
void otf2_location_forget(struct otf2_location *l);
void otf2_run_free(struct otf2_run *r);

#endif
