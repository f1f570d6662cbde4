/* test-legacy-dump: prints what the legacy binary readers (legacy_values,
 * legacy_trace, sparse2020) see in real files, one fact per line, for
 * tests/check_legacy_bins.py to compare with its own decoding.
 *
 *   test-legacy-dump metricdb FILE...  |  mdb FILE    (values)
 *   test-legacy-dump hpctrace FILE...  |  mt FILE     (traces)
 *   test-legacy-dump sparse DIR
 *
 * Values: the sum over profiles of each metric at each context that has
 * one.  Sparse values: every summary and per-profile value of contexts
 * 0..$LEGACY_DUMP_MAX_CTX and metrics 0..$LEGACY_DUMP_MAX_METRIC.
 * $LEGACY_DUMP_UNIT sets the trace time unit (units per second).  Exit 0,
 * or 2 with the error message on stderr. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/hpctoolkit_xml/legacy_trace.h"
#include "formats/hpctoolkit_xml/legacy_values.h"
#include "formats/hpctoolkit_xml/sparse2020.h"

#include "dump_error.h"

static int fail(const struct error *e)
{
	return dump_error_print("test-legacy-dump", e);
}

static int dump_values(struct legacy_values *lv)
{
	uint32_t np = legacy_values_n_profiles(lv);
	uint32_t nc = legacy_values_n_contexts(lv);
	uint32_t nm = legacy_values_n_metrics(lv);
	printf("profiles %" PRIu32 "\ncontexts %" PRIu32 "\nmetrics %" PRIu32
	       "\n",
	       np, nc, nm);
	for (uint32_t p = 0; p < np; p++) {
		uint32_t r, t;
		legacy_values_profile_id(lv, p, &r, &t);
		printf("profile %" PRIu32 " rank %" PRId64 " thread %" PRId64
		       "\n",
		       p, r == UINT32_MAX ? -1 : (int64_t)r,
		       t == UINT32_MAX ? -1 : (int64_t)t);
	}
	for (uint32_t c = 0; c < nc; c++) {
		for (uint32_t m = 0; m < nm; m++) {
			double sum = 0;
			bool any = false;
			for (uint32_t p = 0; p < np; p++) {
				double v;
				if (legacy_values_get(lv, p, c, m, &v)) {
					sum += v;
					any = true;
				}
			}
			if (any)
				printf("sum %" PRIu32 " %" PRIu32 " %.17g\n",
				       c, m, sum);
		}
	}
	const struct error *e = legacy_values_error(lv);
	return e ? fail(e) : 0;
}

static int dump_trace(struct legacy_trace *t)
{
	uint32_t n = legacy_trace_n_lines(t);
	printf("lines %" PRIu32 "\n", n);
	for (uint32_t i = 0; i < n; i++) {
		const struct legacy_trace_line *l = legacy_trace_line(t, i);
		struct trace_sample first = {0}, last = {0};
		if (l->n_samples) {
			if (!legacy_trace_sample(t, i, 0, &first) ||
			    !legacy_trace_sample(t, i, l->n_samples - 1,
						 &last))
				break;
		}
		printf("line %" PRIu32 " rank %" PRId64 " thread %" PRId64
		       " n %" PRIu64 " tmin %" PRIu64 " tmax %" PRIu64
		       " first %" PRIu64 " %" PRIu32 " last %" PRIu64
		       " %" PRIu32 "\n",
		       i, l->rank == UINT32_MAX ? -1 : (int64_t)l->rank,
		       l->thread == UINT32_MAX ? -1 : (int64_t)l->thread,
		       l->n_samples, l->t_min, l->t_max, first.time,
		       first.ctx_id, last.time, last.ctx_id);
	}
	const struct error *e = legacy_trace_error(t);
	return e ? fail(e) : 0;
}

static int dump_sparse(struct sparse2020 *s, uint32_t max_ctx,
		       uint32_t max_metric)
{
	uint32_t np = sparse2020_n_profiles(s);
	printf("profiles %" PRIu32 "\n", np);
	for (uint32_t p = 0; p < np; p++) {
		const struct model_id *ids;
		uint32_t n;
		bool summary;
		sparse2020_profile_ids(s, p, &ids, &n, &summary);
		printf("profile %" PRIu32 " summary %d ids", p, (int)summary);
		for (uint32_t k = 0; k < n; k++)
			printf(" %u:%" PRIu64 ":%" PRIu32, (unsigned)ids[k].kind,
			       ids[k].physical_id, ids[k].logical_id);
		printf("\n");
	}
	for (uint32_t c = 0; c <= max_ctx; c++) {
		for (uint32_t m = 0; m <= max_metric; m++) {
			double v;
			if (sparse2020_summary_value(s, c, m, &v))
				printf("summary %" PRIu32 " %" PRIu32
				       " %.17g\n",
				       c, m, v);
			struct profile_value *pv = NULL;
			size_t n = 0;
			struct error e = {0};
			if (sparse2020_profile_values(s, c, m, &pv, &n, &e) !=
			    STATUS_OK) {
				int rc = fail(&e);
				error_clear(&e);
				return rc;
			}
			for (size_t k = 0; k < n; k++)
				printf("value %" PRIu32 " %" PRIu32
				       " %" PRIu32 " %.17g\n",
				       c, m, pv[k].profile, pv[k].value);
			free(pv);
		}
	}
	uint32_t nl = sparse2020_n_trace_lines(s);
	printf("lines %" PRIu32 "\n", nl);
	for (uint32_t i = 0; i < nl; i++) {
		const struct legacy_trace_line *l = sparse2020_trace_line(s, i);
		printf("line %" PRIu32 " profile %" PRIu32 " n %" PRIu64
		       " tmin %" PRIu64 " tmax %" PRIu64 "\n",
		       i, sparse2020_trace_line_profile(s, i), l->n_samples,
		       l->t_min, l->t_max);
	}
	const struct error *e = sparse2020_error(s);
	return e ? fail(e) : 0;
}

int main(int argc, char **argv)
{
	struct error err = {0};
	int rc = 2;
	if (argc < 3) {
		fprintf(stderr, "usage: test-legacy-dump metricdb|mdb|hpctrace|mt|"
				"sparse FILE...\n");
		return 2;
	}
	const char *mode = argv[1];
	const char *const *paths = (const char *const *)argv + 2;
	uint32_t n = (uint32_t)(argc - 2);
	if (!strcmp(mode, "metricdb") || !strcmp(mode, "mdb")) {
		struct legacy_values *lv = NULL;
		enum status st =
			!strcmp(mode, "mdb")
				? legacy_values_open_mdb(paths[0], &lv, &err)
				: legacy_values_open_metricdb(paths, n, &lv,
							      &err);
		rc = st == STATUS_OK ? dump_values(lv) : fail(&err);
		legacy_values_close(lv);
	} else if (!strcmp(mode, "hpctrace") || !strcmp(mode, "mt")) {
		struct legacy_trace *t = NULL;
		enum status st =
			!strcmp(mode, "mt")
				? legacy_trace_open_mt(paths[0], &t, &err)
				: legacy_trace_open_hpctrace(paths, n, &t,
							     &err);
		const char *unit = getenv("LEGACY_DUMP_UNIT");
		if (st == STATUS_OK && unit)
			st = legacy_trace_set_time_unit(
				t, strtoull(unit, NULL, 10), &err);
		rc = st == STATUS_OK ? dump_trace(t) : fail(&err);
		legacy_trace_close(t);
	} else if (!strcmp(mode, "sparse")) {
		struct sparse2020 *s = NULL;
		const char *mc = getenv("LEGACY_DUMP_MAX_CTX");
		const char *mm = getenv("LEGACY_DUMP_MAX_METRIC");
		if (sparse2020_open(paths[0], &s, &err) == STATUS_OK)
			rc = dump_sparse(s, mc ? (uint32_t)atol(mc) : 64,
					 mm ? (uint32_t)atol(mm) : 1024);
		else
			rc = fail(&err);
		sparse2020_close(s);
	} else {
		fprintf(stderr, "test-legacy-dump: unknown mode %s\n", mode);
	}
	error_clear(&err);
	return rc;
}
