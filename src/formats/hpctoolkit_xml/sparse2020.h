/* sparse2020: the binary files of the 2020 HPCToolkit sparse layout
 * (profile.db "HPCPROF-profdb__", cct.db "HPCPROF-cctdb___", trace.db
 * "HPCPROF-tracedb_", big-endian, version 1.0), whose metadata still lives
 * in experiment.xml.  Headers, profile tables and extents are checked at
 * open; values and trace samples are read lazily.  Spec:
 * shared/specs/hpctoolkit-2020-sparse-FORMATS.md, notes in
 * doc/hpctoolkit-legacy-binaries.md.  Must not depend on curses, on the XML
 * parser or on the model builder. */
#ifndef CALLSCOPE_SPARSE2020_H
#define CALLSCOPE_SPARSE2020_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/blob.h"
#include "formats/hpctoolkit_xml/legacy_trace.h"
#include "model/model.h"
#include "core/status.h"

struct sparse2020;

/* Open the database directory `dir`: profile.db and cct.db are required,
 * trace.db is optional (no trace lines when absent). */
enum status sparse2020_open(const char *dir, struct sparse2020 **out,
			    struct error *err);

/* The same on opened blobs (tests, fuzz targets, remote files): `trace`
 * may be NULL.  Ownership of the blobs passes to the result, also on
 * failure. */
enum status sparse2020_open_blobs(struct blob *prof, struct blob *cct,
				  struct blob *trace, struct sparse2020 **out,
				  struct error *err);

/* Number of profiles in profile.db, the summary profile included. */
uint32_t sparse2020_n_profiles(const struct sparse2020 *s);

/* Identifier tuple of profile p (kinds index the XML IdentifierNameTable;
 * kind_name is left 0 for the caller to fill); is_summary for the summary
 * profile.  *ids NULL and *n 0 when p is out of range.  The array stays
 * valid until sparse2020_close(). */
void sparse2020_profile_ids(const struct sparse2020 *s, uint32_t p,
			    const struct model_id **ids, uint32_t *n,
			    bool *is_summary);

/* Value of metric `metric_id` at context `ctx_id` in the summary profile.
 * Context ids are the experiment.xml node ids (0 is the root, the whole
 * program); metric ids are as stored: the summary profile uses the
 * <Metric i> ids, the thread profiles the <MetricDB i> ids.  False when
 * absent (zero) or unreadable. */
bool sparse2020_summary_value(struct sparse2020 *s, uint32_t ctx_id,
			      uint32_t metric_id, double *out);

/* All non-zero per-profile values of (ctx_id, metric_id), summary profile
 * excluded, as a malloc'd array sorted by profile (the caller frees it).
 * *out NULL and *n 0 when there are none. */
enum status sparse2020_profile_values(struct sparse2020 *s, uint32_t ctx_id,
				      uint32_t metric_id,
				      struct profile_value **out, size_t *n,
				      struct error *err);

/* Trace lines of trace.db (0 when absent). */
uint32_t sparse2020_n_trace_lines(const struct sparse2020 *s);

/* Line `line` (rank/thread from its profile's identifier tuple), or NULL when
 * out of range. */
const struct legacy_trace_line *sparse2020_trace_line(const struct sparse2020 *s,
						      uint32_t line);

/* Profile index of trace line `line`, UINT32_MAX when out of range. */
uint32_t sparse2020_trace_line_profile(const struct sparse2020 *s,
				       uint32_t line);

/* Sample `index` of line `line` (time in ns, context id).  False when out of
 * range or unreadable. */
bool sparse2020_trace_sample(struct sparse2020 *s, uint32_t line,
			     uint64_t index, struct trace_sample *out);

/* The first error met by a lazy read, or NULL when none. */
const struct error *sparse2020_error(const struct sparse2020 *s);

void sparse2020_close(struct sparse2020 *s);

#endif
