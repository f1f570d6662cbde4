/* model_trace: timelines (model.timelines): sample lines, interval tracks
 * with instants and attributes, counter lines; the reader's provider
 * (struct trace_ops) and the accessors that go through it (model_trace.c).
 * Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_MODEL_TRACE_H
#define CALLSCOPE_MODEL_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct model;

struct trace_sample {
	uint64_t time;   /* nanoseconds as stored in the file */
	uint32_t ctx_id; /* database context id; 0 = idle */
};

#define MODEL_EVENT_NONE UINT64_MAX /* an interval without attributes */
#define MODEL_LINK_CALL UINT32_MAX /* trace_ops.linked: the launching call */

/* One interval of an interval track (a GPU queue, a host thread's API
 * calls, NVTX ranges).  Intervals of a track are sorted by begin and
 * properly nested: one at depth d + 1 lies inside the last one at depth d
 * that begins before it. */
struct trace_interval {
	uint64_t begin, end; /* nanoseconds, end exclusive */
	uint32_t ctx_id;     /* context (kernel, API call, copy) */
	uint32_t depth;      /* nesting depth in the track, 0 outermost */
	uint64_t event;      /* the reader's key for trace_ops.event_detail
				(a dispatch or row id), MODEL_EVENT_NONE when
				the interval has no attributes */
	uint64_t up;         /* 1 + the index of the interval this one lies
				in: the latest-begun interval of the track
				still running at this one's begin (its parent
				when nested; the earlier one of an overlap, as
				GPU queues with firmware timestamp errors
				have); 0 for none.  The trace index follows
				these links from an interval that ended to
				the one active at a time */
};

/* One instant of an interval track: a mark with a time and no duration
 * (a roctxMark or rocpd_sample row, an .rpd instant UserMarker, an NVTX
 * mark).  A track's instants are kept apart from its intervals, sorted
 * by time, so that they never change what is active at a time (the
 * intervals' nesting and depth), and searched by bisection. */
struct trace_instant {
	uint64_t time;  /* nanoseconds */
	uint64_t event; /* the reader's key for trace_ops.event_detail, or
			   MODEL_EVENT_NONE */
	uint32_t name;  /* string handle: the mark's text */
};

/* One attribute of an interval's event: a kernel's grid, its registers,
 * the bytes of a copy, an API call's arguments.  An array of them is one
 * heap block holding the array and every string (model_kv_pack): the
 * caller frees the array, and only the array, with free(). */
struct model_kv {
	const char *key;  /* "grid", "registers", "bytes", "arg0" */
	const char *text; /* the value as shown: "256x1x1", "64"; never NULL */
	double number;    /* the value as a number, when is_number */
	bool is_number;
};

enum timeline_kind {
	TIMELINE_SAMPLES,   /* context id over time (trace_ops.sample) */
	TIMELINE_INTERVALS, /* nested intervals (trace_ops.interval) */
	TIMELINE_COUNTER,   /* (time, value) samples (trace_ops.counter):
			       power, memory use, a hardware counter's rate;
			       drawn as a track at its place among
			       the lines */
};

/* GPU lines come in two groupings that show one at a time (a key in the
 * trace pane, `trace --gpu-lines`): by queue (rocpd; Nsight: by context)
 * or by stream.  A line of neither grouping is always shown.  The group
 * of the first grouped line in the model's order is shown first. */
enum timeline_group {
	TIMELINE_GROUP_NONE,
	TIMELINE_GROUP_QUEUE,
	TIMELINE_GROUP_STREAM,
};

/* One trace line (thread, rank, stream), interval track or counter. */
struct model_timeline {
	uint32_t profile;  /* index into model.profiles, or MODEL_NONE */
	uint32_t label;    /* string: label shown for the line */
	uint8_t kind;      /* enum timeline_kind */
	uint64_t count;    /* samples, intervals or counter values */
	uint32_t unit;     /* string: a counter's unit ("W", "bytes"), or 0 */
	uint64_t n_instants; /* an interval track's instants
				(trace_ops.instant), 0 for none */
	uint8_t group;       /* enum timeline_group */
};

/* What a reader provides for lazily read timelines.  Samples in a line are
 * sorted by time; the engine binary-searches them through `sample`. */
struct trace_ops {
	/* Sample `index` (< count) of sample line `line`. */
	bool (*sample)(void *impl, uint32_t line, uint64_t index,
		       struct trace_sample *out);
	/* Interval `index` of interval track `line` (sorted by begin). */
	bool (*interval)(void *impl, uint32_t line, uint64_t index,
			 struct trace_interval *out);
	void (*close)(void *impl);
	/* Optional (NULL: reads never fail but for a bad index).  A sample
	 * or interval read that fails for another reason (an I/O error of a
	 * lazily read file: a remote file whose server went away) returns
	 * false like an absent element; this moves the first such failure
	 * since the last call into `err` and returns true, or returns false
	 * when there was none. */
	bool (*take_error)(void *impl, struct error *err);
	/* Optional (NULL: no counter lines): value `index` (< count) of
	 * counter line `line`, sorted by time: its time (ns) and value.
	 * False for a bad index or a failed read (as `sample`). */
	bool (*counter)(void *impl, uint32_t line, uint64_t index,
			uint64_t *time, double *value);
	/* Optional (NULL: no attributes): the attributes of event `event`
	 * (trace_interval.event) of interval track `line`, read when asked
	 * (an interval under the cursor).  *out is one heap block made by
	 * model_kv_pack that the caller frees; *out NULL and *n 0 when the
	 * event has none.  STATUS_CORRUPT, STATUS_IO, STATUS_NOMEM with
	 * `err` set on failure. */
	enum status (*event_detail)(void *impl, uint32_t line, uint64_t event,
				    struct model_kv **out, size_t *n,
				    struct error *err);
	/* Optional (NULL: intervals have no links): the interval linked to
	 * interval `index` of interval track `line`, as the file records it
	 * (a correlation id, an explicit link): with `nth` MODEL_LINK_CALL,
	 * the API call that launched GPU work `index` (a kernel, a copy);
	 * with `nth` 0, 1, ..., the nth kernel or copy that API call `index`
	 * launched.  Sets the linked interval's track and index; false when
	 * there is none (GPU work launched nothing, a call has no launcher).
	 * Costs O(nth) once the tracks are read. */
	bool (*linked)(void *impl, uint32_t line, uint64_t index, uint32_t nth,
		       uint32_t *to_line, uint64_t *to_index);
	/* Optional (NULL: no instants): instant `index` (< the line's
	 * n_instants) of interval track `line`, sorted by (time, event).
	 * False for a bad index or a failed read (as `interval`). */
	bool (*instant)(void *impl, uint32_t line, uint64_t index,
			struct trace_instant *out);
	/* Optional (NULL: nothing to read up front): read now what the
	 * lines will need (a GPU run: each file's intervals, the first time
	 * they are shown), calling `progress` (may be NULL) before the first
	 * step and after each with the steps done and in all; when it
	 * returns false, stop there
	 * (what was read stays; the rest is read when asked).  Returns the
	 * number of steps there were to do (0: everything was read). */
	uint32_t (*prepare)(void *impl,
			    bool (*progress)(void *ctx, uint32_t done,
					     uint32_t total),
			    void *ctx);
	/* Optional (NULL: none): a context of interval track `line` at
	 * some time in [t, t + span) that the reader knows without reading
	 * events (a checkpoint of its index falls there): for wide cells and
	 * sampled slices of a zoomed-out window, where any time in the span
	 * is as good a sample as its start.  False when it knows none. */
	bool (*near)(void *impl, uint32_t line, uint64_t t, uint64_t span,
		     uint32_t *ctx_id);
	/* Optional (NULL: none): the same for counter line `line`: a value
	 * at some time in [t, t + span) known without reading events, and
	 * its index. */
	bool (*counter_near)(void *impl, uint32_t line, uint64_t t,
			     uint64_t span, double *value, uint64_t *index);
	/* Optional (NULL: GPU launches): what `linked` links, for the
	 * words shown ("message": a call's matched MPI messages, `nth` the
	 * nth of them, MODEL_LINK_CALL never). */
	const char *link_noun;
};

/* The first failed trace read since the last call (see trace_ops
 * take_error), moved into `err`: true when there was one. */
bool model_trace_take_error(const struct model *m, struct error *err);

/* ---- interval tracks and counter lines (model_trace.c) -------------- */

/* Copy `n` attributes (keys and texts, NULL texts as "") into one heap
 * block: *out is the array, its strings stored after it, freed with one
 * free().  *out NULL for n 0.  STATUS_NOMEM (or STATUS_USAGE for a NULL
 * key) leaves *out NULL. */
enum status model_kv_pack(const struct model_kv *kv, size_t n,
			  struct model_kv **out, struct error *err);

/* Read up front what the timelines need (trace_ops.prepare; nothing when
 * the reader has no such step): `progress` (may be NULL) is called after
 * each step with the steps done and in all, and stops the reading when
 * it returns false.  Returns the number of steps there were (0: none). */
uint32_t model_trace_prepare(const struct model *m,
			     bool (*progress)(void *ctx, uint32_t done,
					      uint32_t total),
			     void *ctx);

/* Sample `index` of sample line `line`; false when `line` is not a sample
 * line, `index` >= its count, or the read fails. */
bool model_sample(const struct model *m, uint32_t line, uint64_t index,
		  struct trace_sample *out);

/* Interval `index` of interval track `line`; false when `line` is not an
 * interval track, `index` >= its count, or the read fails. */
bool model_interval(const struct model *m, uint32_t line, uint64_t index,
		    struct trace_interval *out);

/* The interval linked to interval `index` of interval track `line`
 * (trace_ops.linked: with `nth` MODEL_LINK_CALL GPU work's launching API
 * call, else an API call's `nth` launched kernel or copy) into *to_line,
 * *to_index; false when there is
 * none, when the format records no links, or when what the reader gives
 * is not an interval of an interval track. */
bool model_interval_linked(const struct model *m, uint32_t line,
			   uint64_t index, uint32_t nth, uint32_t *to_line,
			   uint64_t *to_index);

/* trace_ops.near and counter_near (false when the reader has none or
 * knows no time in [t, t + span) cheaply; `span` 0: false). */
bool model_interval_near(const struct model *m, uint32_t line, uint64_t t,
			 uint64_t span, uint32_t *ctx_id);
bool model_counter_near(const struct model *m, uint32_t line, uint64_t t,
			uint64_t span, double *value, uint64_t *index);

/* What the model's interval links are (trace_ops.link_noun): NULL for GPU
 * launches (a call and the kernels and copies it launched), else a noun
 * ("message"). */
const char *model_trace_link_noun(const struct model *m);

/* The attributes of `event` on interval track `line` (trace_ops
 * event_detail; ownership as there).  *out NULL, *n 0 and STATUS_OK for
 * MODEL_EVENT_NONE; STATUS_USAGE when `line` is not an interval track;
 * STATUS_UNSUPPORTED when the format has no attributes. */
enum status model_event_detail(const struct model *m, uint32_t line,
			       uint64_t event, struct model_kv **out,
			       size_t *n, struct error *err);

/* Instant `index` of interval track `line`; false when the line has no
 * such instant or the read fails. */
bool model_instant(const struct model *m, uint32_t line, uint64_t index,
		   struct trace_instant *out);

/* The first instant of interval track `line` whose time is >= t (by
 * bisection: O(log n_instants) reads); false when there is none. */
bool model_instant_from(const struct model *m, uint32_t line, uint64_t t,
			uint64_t *index);

/* Value `index` of counter line `line`; false when `line` is not a counter
 * line, `index` >= its count, or the read fails. */
bool model_counter(const struct model *m, uint32_t line, uint64_t index,
		   uint64_t *time, double *value);

/* The counter value in force at time `t`: the index of the last value of
 * counter line `line` whose time is <= t, by binary search (O(log count)
 * reads).  False when there is none (t before the first value, an empty or
 * unknown line, a failed read). */
bool model_counter_at(const struct model *m, uint32_t line, uint64_t t,
		      uint64_t *index);

#endif
