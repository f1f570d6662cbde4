/* v4_trace: HPCToolkit v4 trace.db: the Context Trace Headers, read at
 * open, and single trace elements, read lazily when asked for.  Opening
 * costs only the headers, whatever the size of the traces.  Must not depend
 * on curses or on the other v4 files. */
#ifndef CALLSCOPE_V4_TRACE_H
#define CALLSCOPE_V4_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "core/status.h"
#include "formats/hpctoolkit_v4/v4_file.h"

struct v4_trace;

/* Read the Context Trace Headers of the opened trace.db `f` (ownership
 * passes to the result, also on failure) and add one TIMELINE_SAMPLES
 * timeline per {CTH} to `b`, labelled with its profile's label (the
 * profiles must already be added; `n_profiles` bounds profIndex), and the
 * time range of the header. */
enum status v4_trace_open(struct v4_file *f, uint32_t n_profiles,
			  struct model_builder *b, struct v4_trace **out,
			  struct error *err);

/* Element `index` of trace line `line`, read from the file.  False for a
 * bad index, or when the read fails (kept for v4_trace_take_error). */
bool v4_trace_sample(struct v4_trace *t, uint32_t line, uint64_t index,
		     struct trace_sample *out);

/* The first failed read since the last call, moved into `err` (true), or
 * false when there was none.  Thread-safe. */
bool v4_trace_take_error(struct v4_trace *t, struct error *err);

void v4_trace_close(struct v4_trace *t);

#endif
