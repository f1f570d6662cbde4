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

#define MAGIC "HPCPROF-metricdb__"
#define MAGIC_LEN 18
#define METRIC_DB_VERSION "00.10"
#define METRIC_DB_VERSION_LEN 5
#define HEADER 32 /* magic, version, endianness, nNodes, nMetrics */

typedef unsigned long long ull;

struct lv_profile {
	uint32_t blob;     /* index into blobs */
	uint64_t data;     /* absolute offset of row 0 */
	uint32_t rank, thread;
};

struct legacy_values {
	struct blob **blobs;
	uint32_t n_blobs;
	struct lv_profile *profiles;
	uint32_t n_profiles;
	uint32_t n_nodes, n_metrics;
	bool have_shape; /* n_nodes/n_metrics set by the first header */
	struct error error;
	bool failed;
};

/* Check the metric-db header at [off, end) of `blob` and fill the shape of
 * `lv` (first file) or compare with it (the others).  `data` receives the
 * offset of the value matrix. */
static enum status check_header(struct legacy_values *lv, struct blob *blob,
				uint64_t off, uint64_t end, uint64_t *data,
				struct error *err)
{
	const char *name = blob_name(blob);
	struct span s;
	enum status st;
	if (end - off < HEADER)
		return error_set_at(err, STATUS_CORRUPT, name, off,
				    "metric-db of %llu bytes is shorter than "
				    "its %d-byte header",
				    (ull)(end - off), HEADER);
	st = blob_read(blob, off, HEADER, &s, err);
	if (st != STATUS_OK)
		return st;
	if (memcmp(s.data, MAGIC, MAGIC_LEN) != 0)
		return error_set_at(err, STATUS_NOT_DATABASE, name, off,
				    "bad magic (expected \"" MAGIC "\")");
	if (memcmp(s.data + MAGIC_LEN, METRIC_DB_VERSION, METRIC_DB_VERSION_LEN) != 0)
		return error_set_at(err, STATUS_UNSUPPORTED, name,
				    off + MAGIC_LEN,
				    "metric-db version \"%.5s\" (expected "
				    "\"" METRIC_DB_VERSION "\")",
				    (const char *)s.data + MAGIC_LEN);
	if (s.data[MAGIC_LEN + METRIC_DB_VERSION_LEN] != 'b')
		return error_set_at(err, STATUS_UNSUPPORTED, name,
				    off + MAGIC_LEN + METRIC_DB_VERSION_LEN,
				    "byte order '%c' (only 'b', big-endian, "
				    "is known)",
				    s.data[MAGIC_LEN + METRIC_DB_VERSION_LEN]);
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
	*data = off + HEADER;
	return STATUS_OK;
}

static struct legacy_values *values_new(uint32_t n_blobs, uint32_t n_profiles)
{
	struct legacy_values *lv = calloc(1, sizeof(*lv));
	if (!lv)
		return NULL;
	lv->blobs = calloc(n_blobs ? n_blobs : 1, sizeof(*lv->blobs));
	lv->profiles = calloc(n_profiles ? n_profiles : 1,
			      sizeof(*lv->profiles));
	if (!lv->blobs || !lv->profiles) {
		free(lv->blobs);
		free(lv->profiles);
		free(lv);
		return NULL;
	}
	return lv;
}

enum status legacy_values_open_metricdb_blobs(struct blob **blobs,
					      uint32_t n_blobs,
					      struct legacy_values **out,
					      struct error *err)
{
	enum status st = STATUS_OK;
	struct legacy_values *lv = NULL;
	*out = NULL;
	if (!blobs || n_blobs == 0)
		return error_set(err, STATUS_USAGE, NULL,
				 "no metric-db files given");
	lv = values_new(n_blobs, n_blobs);
	if (!lv) {
		for (uint32_t i = 0; i < n_blobs; i++)
			blob_close(blobs[i]);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	for (uint32_t i = 0; i < n_blobs; i++)
		lv->blobs[lv->n_blobs++] = blobs[i];
	for (uint32_t i = 0; i < n_blobs; i++) {
		struct lv_profile *p = &lv->profiles[i];
		st = check_header(lv, blobs[i], 0, blob_size(blobs[i]),
				  &p->data, err);
		if (st != STATUS_OK)
			goto out;
		p->blob = i;
		(void)legacy_name_parse(blob_name(blobs[i]), &p->rank,
					&p->thread);
		lv->n_profiles++;
	}
	*out = lv;
	lv = NULL;
out:
	legacy_values_close(lv);
	return st;
}

enum status legacy_values_open_metricdb(const char *const *paths,
					uint32_t n_paths,
					struct legacy_values **out,
					struct error *err)
{
	struct blob **blobs = NULL;
	*out = NULL;
	enum status st =
		legacy_blobs_open(paths, n_paths, "metric-db", &blobs, err);
	if (st == STATUS_OK)
		st = legacy_values_open_metricdb_blobs(blobs, n_paths, out, err);
	free(blobs);
	return st;
}

enum status legacy_values_open_mdb_blob(struct blob *blob,
					struct legacy_values **out,
					struct error *err)
{
	enum status st = STATUS_OK;
	struct legacy_values *lv = NULL;
	struct legacy_table_entry *tab = NULL;
	uint32_t n = 0, type = 0;
	*out = NULL;
	if (!blob)
		return error_set(err, STATUS_USAGE, NULL, "no mdb file given");
	st = legacy_table_read(blob, &type, &tab, &n, err);
	if (st != STATUS_OK)
		goto out;
	lv = values_new(1, n);
	if (!lv) {
		st = error_set(err, STATUS_NOMEM, blob_name(blob),
			       "out of memory");
		goto out;
	}
	lv->blobs[lv->n_blobs++] = blob;
	blob = NULL;
	for (uint32_t i = 0; i < n; i++) {
		struct lv_profile *p = &lv->profiles[i];
		st = check_header(lv, lv->blobs[0], tab[i].off, tab[i].end,
				  &p->data, err);
		if (st != STATUS_OK)
			goto out;
		p->blob = 0;
		p->rank = tab[i].rank;
		p->thread = tab[i].thread;
		lv->n_profiles++;
	}
	*out = lv;
	lv = NULL;
out:
	free(tab);
	blob_close(blob);
	legacy_values_close(lv);
	return st;
}

enum status legacy_values_open_mdb(const char *path,
				   struct legacy_values **out,
				   struct error *err)
{
	struct blob *b = NULL;
	*out = NULL;
	if (!path)
		return error_set(err, STATUS_USAGE, NULL, "no mdb file given");
	enum status st = blob_open_file(path, &b, err);
	if (st != STATUS_OK)
		return st;
	return legacy_values_open_mdb_blob(b, out, err);
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
	*rank = lv->profiles[p].rank;
	*thread = lv->profiles[p].thread;
}

bool legacy_values_get(struct legacy_values *lv, uint32_t p, uint32_t ctx,
		       uint32_t m, double *out)
{
	if (!lv || p >= lv->n_profiles || ctx == 0 || ctx > lv->n_nodes ||
	    m >= lv->n_metrics)
		return false;
	const struct lv_profile *pr = &lv->profiles[p];
	uint64_t off = pr->data +
		       ((uint64_t)(ctx - 1) * lv->n_metrics + m) * 8;
	struct span s;
	struct error e = {0};
	if (blob_read(lv->blobs[pr->blob], off, 8, &s, &e) != STATUS_OK) {
		if (!lv->failed) {
			lv->error = e;
			lv->failed = true;
		} else {
			error_clear(&e);
		}
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
	const struct lv_profile *pr = &lv->profiles[p];
	/* the extent was checked against the file at open */
	uint64_t n = (uint64_t)lv->n_nodes * lv->n_metrics;
	struct span s;
	struct error e = {0};
	enum status st = blob_read(lv->blobs[pr->blob], pr->data, n * 8, &s, &e);
	if (st != STATUS_OK) {
		error_set(err, st, e.file, "%s",
			  e.message ? e.message : status_message(st));
		if (!lv->failed) {
			lv->error = e;
			lv->failed = true;
		} else {
			error_clear(&e);
		}
		return st;
	}
	memset(out, 0, (size_t)lv->n_metrics * sizeof(*out));
	for (uint64_t i = 0; i < n; i++)
		(void)span_f64be(s, i * 8, &out[lv->n_metrics + i]);
	return STATUS_OK;
}

const struct error *legacy_values_error(const struct legacy_values *lv)
{
	return lv && lv->failed ? &lv->error : NULL;
}

void legacy_values_close(struct legacy_values *lv)
{
	if (!lv)
		return;
	for (uint32_t i = 0; i < lv->n_blobs; i++)
		blob_close(lv->blobs[i]);
	free(lv->blobs);
	free(lv->profiles);
	error_clear(&lv->error);
	free(lv);
}
