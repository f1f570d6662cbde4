/* open_later: a model finished in the background.  A reader whose full
 * open is slow (a GPU run never opened before: every file scanned) may
 * give the viewer a partial model at once -- what small queries tell --
 * and the complete one later: the job that builds it runs in a thread of
 * its own, and the caller asks it, from its own thread, only "done?",
 * "how far?" (open_later_poll), "a better partial model?"
 * (open_later_take_better: one the work offered meanwhile, e.g. with the
 * files scanned so far exact) and then takes the model (open_later_take)
 * or gives up (open_later_free: the work is told to stop and the thread
 * joined).  The partial and the complete model are distinct, each
 * immutable once built; the job's own state is seen by the caller only
 * through these functions.  Generic: any reader may start one
 * (reader_options.later says the caller can take it); names no format.
 * Depends on core/, model/ and formats/reader.h; never prints. */
#ifndef CALLSCOPE_OPEN_LATER_H
#define CALLSCOPE_OPEN_LATER_H

#include <stdbool.h>

#include "core/status.h"
#include "formats/reader.h"
#include "model/model.h"

struct open_later;

/* The work of a job, run in its thread: build the complete model into
 * *out, reporting through `options` (its progress hook and its cancel
 * test are the job's: pass it to the reader's open as it is). */
typedef enum status (*open_later_work)(void *ctx,
				       const struct reader_options *options,
				       struct model **out, struct error *err);

/* Start `work(ctx, ...)` in a thread; `free_ctx(ctx)` is called once the
 * work has returned (from the job's thread or open_later_free).  On
 * failure (no thread) nothing runs: the caller keeps `ctx`. */
enum status open_later_start(open_later_work work, void *ctx,
			     void (*free_ctx)(void *ctx),
			     struct open_later **out, struct error *err);

/* Whether the job has finished (successfully or not), and its progress
 * so far in *p when `p` is not NULL (zeros before the first report). */
bool open_later_poll(struct open_later *j, struct reader_progress *p);

/* Wait for the job, then its result: the complete model in *out (the
 * caller's), or its error.  Call once. */
enum status open_later_take(struct open_later *j, struct model **out,
			    struct error *err);

/* From the work (`job`: its options' progress_ctx): a partial model
 * better than the one shown (`exact` of the run's files exact in it),
 * taken over; it replaces one offered before and not yet taken. */
void open_later_offer(void *job, struct model *m, unsigned exact);

/* The better partial model offered last and not taken (the caller's;
 * `*exact` set), or NULL: none, or the job has finished (its complete
 * model is the one to take). */
struct model *open_later_take_better(struct open_later *j, unsigned *exact);

/* Stop the job (its work is asked to cancel: a GPU run's scan stops
 * within a few thousand rows), join its thread, free it and any model it
 * made.  NULL is fine. */
void open_later_free(struct open_later *j);

/* For tests and readers: whether the job was asked to stop (the
 * reader_options.cancelled hook the job's options carry). */
bool open_later_cancelled(void *job);

#endif
