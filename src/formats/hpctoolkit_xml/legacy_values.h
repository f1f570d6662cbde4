/* legacy_values: per-thread metric values of HPCToolkit databases older
 * than v4, read from a set of `*.metric-db` files (magic
 * "HPCPROF-metricdb__", one file per profile) or from one merged
 * `experiment-1.mdb`.  Headers and extents are validated at open; values are
 * read lazily with blob_read.  Layouts are documented in
 * doc/hpctoolkit-legacy-binaries.md.  Must not depend on curses, on the XML
 * parser or on the model builder. */
#ifndef CALLSCOPE_LEGACY_VALUES_H
#define CALLSCOPE_LEGACY_VALUES_H

#include <stdbool.h>
#include <stdint.h>

#include "io/blob.h"
#include "formats/hpctoolkit_xml/legacy_common.h"
#include "core/status.h"

struct legacy_values;

/* Open the value files `from` names (legacy_common.h): metric-db files
 * stored apart or one merged experiment-1.mdb, as below.  Opened blobs
 * pass to the result, also on failure. */
enum status legacy_values_open(const struct legacy_source *from,
			       struct legacy_values **out, struct error *err);

/* Open `n_paths` metric-db files, one profile each, in the given order
 * (profile p is paths[p]).  Rank and thread come from the file name
 * (`NAME-RANK-THREAD-HOSTID-PID-GEN.metric-db`), UINT32_MAX when the name
 * does not follow that pattern.  Every file must declare the same number of
 * contexts and metrics.  n_paths == 0 is STATUS_USAGE. */
enum status legacy_values_open_metricdb(const char *const *paths,
					uint32_t n_paths,
					struct legacy_values **out,
					struct error *err);

/* Open one merged experiment-1.mdb (profiles in the order of its internal
 * table). */
enum status legacy_values_open_mdb(const char *path,
				   struct legacy_values **out,
				   struct error *err);

/* The same on opened blobs (tests, fuzz targets, remote files); ownership
 * of every blob passes to the result, also on failure.  Rank and thread come
 * from blob_name(). */
enum status legacy_values_open_metricdb_blobs(struct blob **blobs,
					      uint32_t n_blobs,
					      struct legacy_values **out,
					      struct error *err);
enum status legacy_values_open_mdb_blob(struct blob *blob,
					struct legacy_values **out,
					struct error *err);

uint32_t legacy_values_n_profiles(const struct legacy_values *lv);

/* Metrics per context in each file (file order). */
uint32_t legacy_values_n_metrics(const struct legacy_values *lv);

/* Context ids run 0..n-1 and are the node ids (`i` attributes) of
 * experiment.xml: id c is row c-1 of each file (nNodes rows), so n is
 * nNodes + 1 and id 0 never has a value.  0 when there are no profiles. */
uint32_t legacy_values_n_contexts(const struct legacy_values *lv);

/* Rank and thread of profile p (UINT32_MAX when unknown or p out of
 * range). */
void legacy_values_profile_id(const struct legacy_values *lv, uint32_t p,
			      uint32_t *rank, uint32_t *thread);

/* Value of metric m (file order) at context id ctx in profile p.  False when
 * absent (the files store 0.0 for absent, so a stored 0.0 is reported as
 * absent) or out of range; on an I/O error also false, and the first error
 * is kept for legacy_values_error(). */
bool legacy_values_get(struct legacy_values *lv, uint32_t p, uint32_t ctx,
		       uint32_t m, double *out);

/* Every value of profile p in one read: out[ctx * n_metrics + m] for
 * ctx in 0..legacy_values_n_contexts()-1 (row 0, the root, is all 0.0; a
 * stored 0.0 stays 0.0).  `out` must hold n_contexts * n_metrics doubles.
 * STATUS_USAGE for p out of range; a read error is returned and kept for
 * legacy_values_error(). */
enum status legacy_values_read_profile(struct legacy_values *lv, uint32_t p,
				       double *out, struct error *err);

/* The first error met by legacy_values_get(), or NULL when none. */
const struct error *legacy_values_error(const struct legacy_values *lv);

void legacy_values_close(struct legacy_values *lv);

#endif
