/* legacy_values: per-thread metric values of pre-v4 HPCToolkit databases.
 * A metric-db file is a 32-byte header (magic "HPCPROF-metricdb__",
 * version "00.10", endianness 'b', u32 nNodes, u32 nMetrics) and a dense
 * big-endian matrix of doubles, row = context id - 1; experiment-1.mdb is a
 * table (legacy_common) followed by one such file per profile.  At open the
 * headers and extents are checked; values are read one at a time with
 * blob_read.  See doc/hpctoolkit-legacy-binaries.md.  Must not depend on
 * curses, on the XML parser or on the model builder. */
#include "config.h"

#include "formats/hpctoolkit_xml/legacy_values.h"

#include <stdlib.h>
#include <string.h>

#include "io/blob.h"
#include "formats/hpctoolkit_xml/legacy_common.h"
#include "core/span.h"

#define HEADER 32 /* magic, version, endianness, nNodes, nMetrics */

typedef unsigned long long ull;

static const struct legacy_kind metric_db = {
	.what = "metric-db",
	.merged = "mdb",
	.magic = "HPCPROF-metricdb__",
	.versions = {"00.10"},
	.header = HEADER,
};

struct legacy_values {
	struct legacy_files files; /* profile p is part p */
	uint32_t n_profiles;
	uint32_t n_nodes, n_metrics;
	bool have_shape; /* n_nodes/n_metrics set by the first header */
	struct legacy_failure failure;
};

/* Check the metric-db header of part `i` and fill the shape of `lv` (first
 * file) or compare with it (the others).  Its values follow the header. */
static enum status check_header(struct legacy_values *lv, uint32_t i,
				struct error *err)
{
	const struct legacy_part *part = &lv->files.parts[i];
	const char *name = blob_name(lv->files.blobs[part->blob]);
	uint64_t off = part->off, end = part->end;
	struct span s;
	uint32_t version = 0;
	enum status st = legacy_files_check_head(&lv->files, i, &s, &version,
						 err);
	if (st != STATUS_OK)
		return st;
	uint32_t nodes = 0, metrics = 0;
	(void)span_u32be(s, 24, &nodes);
	(void)span_u32be(s, 28, &metrics);
	if (nodes == UINT32_MAX)
		return error_set_at(err, STATUS_LIMIT, name, off + 24,
				    "nNodes %u is too large", (unsigned)nodes);
	uint64_t cells = (uint64_t)nodes * metrics;
	if (!span_count_fits(cells, 8, end - off - HEADER))
		return error_set_at(err, STATUS_CORRUPT, name, off + 24,
				    "nNodes %u x nMetrics %u doubles do not "
				    "fit in %llu bytes",
				    (unsigned)nodes, (unsigned)metrics,
				    (ull)(end - off - HEADER));
	if (!lv->have_shape) {
		lv->n_nodes = nodes;
		lv->n_metrics = metrics;
		lv->have_shape = true;
	} else if (nodes != lv->n_nodes || metrics != lv->n_metrics) {
		return error_set_at(err, STATUS_CORRUPT, name, off + 24,
				    "nNodes %u, nMetrics %u differ from the "
				    "first profile's %u, %u",
				    (unsigned)nodes, (unsigned)metrics,
				    (unsigned)lv->n_nodes,
				    (unsigned)lv->n_metrics);
	}
	return STATUS_OK;
}

enum status legacy_values_open(const struct legacy_source *from,
			       struct legacy_values **out, struct error *err)
{
	struct legacy_files files;
	*out = NULL;
	enum status st = legacy_files_open(from, &metric_db, &files, err);
	if (st != STATUS_OK)
		return st;
	struct legacy_values *lv = calloc(1, sizeof(*lv));
	if (!lv) {
		st = error_set(err, STATUS_NOMEM, files.name, "out of memory");
		legacy_files_close(&files);
		return st;
	}
	lv->files = files;
	for (; lv->n_profiles < files.n_parts; lv->n_profiles++) {
		st = check_header(lv, lv->n_profiles, err);
		if (st != STATUS_OK) {
			legacy_values_close(lv);
			return st;
		}
	}
	*out = lv;
	return STATUS_OK;
}

enum status legacy_values_open_metricdb_blobs(struct blob **blobs,
					      uint32_t n_blobs,
					      struct legacy_values **out,
					      struct error *err)
{
	struct legacy_source from = {.blobs = blobs, .n = n_blobs};
	return legacy_values_open(&from, out, err);
}

enum status legacy_values_open_metricdb(const char *const *paths,
					uint32_t n_paths,
					struct legacy_values **out,
					struct error *err)
{
	struct legacy_source from = {.paths = paths, .n = n_paths};
	return legacy_values_open(&from, out, err);
}

enum status legacy_values_open_mdb_blob(struct blob *blob,
					struct legacy_values **out,
					struct error *err)
{
	struct legacy_source from = {.merged = true, .blob = blob};
	return legacy_values_open(&from, out, err);
}

enum status legacy_values_open_mdb(const char *path,
				   struct legacy_values **out,
				   struct error *err)
{
	struct legacy_source from = {.merged = true, .path = path};
	return legacy_values_open(&from, out, err);
}

uint32_t legacy_values_n_profiles(const struct legacy_values *lv)
{
	return lv ? lv->n_profiles : 0;
}

uint32_t legacy_values_n_metrics(const struct legacy_values *lv)
{
	return lv ? lv->n_metrics : 0;
}

uint32_t legacy_values_n_contexts(const struct legacy_values *lv)
{
	/* ids 1..nNodes have rows; id 0 has none */
	return lv && lv->have_shape ? lv->n_nodes + 1 : 0;
}

void legacy_values_profile_id(const struct legacy_values *lv, uint32_t p,
			      uint32_t *rank, uint32_t *thread)
{
	*rank = UINT32_MAX;
	*thread = UINT32_MAX;
	if (!lv || p >= lv->n_profiles)
		return;
	*rank = lv->files.parts[p].rank;
	*thread = lv->files.parts[p].thread;
}

bool legacy_values_get(struct legacy_values *lv, uint32_t p, uint32_t ctx,
		       uint32_t m, double *out)
{
	if (!lv || p >= lv->n_profiles || ctx == 0 || ctx > lv->n_nodes ||
	    m >= lv->n_metrics)
		return false;
	const struct legacy_part *pr = &lv->files.parts[p];
	uint64_t off = pr->off + HEADER +
		       ((uint64_t)(ctx - 1) * lv->n_metrics + m) * 8;
	struct span s;
	struct error e = {0};
	if (blob_read(lv->files.blobs[pr->blob], off, 8, &s, &e) !=
	    STATUS_OK) {
		legacy_failure_keep(&lv->failure, &e);
		return false;
	}
	double v = 0;
	(void)span_f64be(s, 0, &v);
	if (v == 0)
		return false;
	*out = v;
	return true;
}

enum status legacy_values_read_profile(struct legacy_values *lv, uint32_t p,
				       double *out, struct error *err)
{
	if (!lv || !out || p >= lv->n_profiles)
		return error_set(err, STATUS_USAGE, NULL,
				 "no such profile");
	const struct legacy_part *pr = &lv->files.parts[p];
	/* the extent was checked against the file at open */
	uint64_t n = (uint64_t)lv->n_nodes * lv->n_metrics;
	struct span s;
	struct error e = {0};
	enum status st = blob_read(lv->files.blobs[pr->blob], pr->off + HEADER,
				   n * 8, &s, &e);
	if (st != STATUS_OK) {
		error_set(err, st, e.file, "%s",
			  e.message ? e.message : status_message(st));
		legacy_failure_keep(&lv->failure, &e);
		return st;
	}
	memset(out, 0, (size_t)lv->n_metrics * sizeof(*out));
	for (uint64_t i = 0; i < n; i++)
		(void)span_f64be(s, i * 8, &out[lv->n_metrics + i]);
	return STATUS_OK;
}

const struct error *legacy_values_error(const struct legacy_values *lv)
{
	return lv ? legacy_failure_get(&lv->failure) : NULL;
}

void legacy_values_close(struct legacy_values *lv)
{
	if (!lv)
		return;
	legacy_files_close(&lv->files);
	error_clear(&lv->failure.error);
	free(lv);
}
