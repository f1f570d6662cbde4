/* legacy_trace: trace lines of HPCToolkit databases older than v4, read
 * from a set of `*.hpctrace` files (magic "HPCRUN-trace______", versions
 * 01.00 and 01.01, one file per line) or from one merged `experiment.mt`.
 * Headers and extents are checked at open; samples are read lazily with
 * blob_read.  Times are normalised to nanoseconds.  Layouts are documented
 * in doc/hpctoolkit-legacy-binaries.md.  Must not depend on curses, on the
 * XML parser or on the model builder. */
#ifndef CALLSCOPE_LEGACY_TRACE_H
#define CALLSCOPE_LEGACY_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "io/blob.h"
#include "formats/hpctoolkit_xml/legacy_common.h"
#include "model/model.h"
#include "core/status.h"

struct legacy_trace;

/* One trace line.  rank/thread are UINT32_MAX when unknown; t_min and t_max
 * are the first and last sample times in nanoseconds (0 when empty). */
struct legacy_trace_line {
	uint32_t rank, thread;
	uint64_t n_samples;
	uint64_t t_min, t_max; /* ns */
};

/* Open the trace files `from` names (legacy_common.h): hpctrace files
 * stored apart, one line each in the given order, rank and thread from the
 * file name, or one merged experiment.mt, lines in the order of its table.
 * Opened blobs pass to the result, also on failure. */
enum status legacy_trace_open(const struct legacy_source *from,
			      struct legacy_trace **out, struct error *err);

/* Open `n_paths` hpctrace files, one line each, in the given order.  Rank
 * and thread come from the file name as for metric-db files. */
enum status legacy_trace_open_hpctrace(const char *const *paths,
				       uint32_t n_paths,
				       struct legacy_trace **out,
				       struct error *err);

/* Open one merged experiment.mt. */
enum status legacy_trace_open_mt(const char *path, struct legacy_trace **out,
				 struct error *err);

/* The same on opened blobs (tests, fuzz targets, remote files); ownership
 * of every blob passes to the result, also on failure.  Rank and thread of
 * an hpctrace come from blob_name(). */
enum status legacy_trace_open_hpctrace_blobs(struct blob **blobs,
					     uint32_t n_blobs,
					     struct legacy_trace **out,
					     struct error *err);
enum status legacy_trace_open_mt_blob(struct blob *blob,
				      struct legacy_trace **out,
				      struct error *err);

/* Override the stored time unit (units per second: 1000000000 for ns,
 * 1000000 for us; it must divide 10^9).  By default version 01.00 stores
 * microseconds and 01.01 nanoseconds, but HPCToolkit 2020.03 wrote 01.01
 * files in microseconds: experiment.xml's <TraceDB u="..."> attribute, when
 * present, is authoritative, and its absence means microseconds.
 * STATUS_USAGE for a unit that does not divide a second, STATUS_CORRUPT
 * (unit unchanged) when a time would overflow. */
enum status legacy_trace_set_time_unit(struct legacy_trace *t,
				       uint64_t units_per_second,
				       struct error *err);

uint32_t legacy_trace_n_lines(const struct legacy_trace *t);

/* Line `line`, or NULL when out of range. */
const struct legacy_trace_line *legacy_trace_line(const struct legacy_trace *t,
						  uint32_t line);

/* Sample `index` of line `line`: time in ns and the context id (the XML
 * node id of the call site / procedure frame).  False when out of range or
 * unreadable (the first error is kept for legacy_trace_error()). */
bool legacy_trace_sample(struct legacy_trace *t, uint32_t line, uint64_t index,
			 struct trace_sample *out);

/* The first error met by legacy_trace_sample(), or NULL when none. */
const struct error *legacy_trace_error(const struct legacy_trace *t);

void legacy_trace_close(struct legacy_trace *t);

#endif
