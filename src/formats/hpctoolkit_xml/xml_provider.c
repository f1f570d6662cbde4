/* xml_provider: value_ops and trace_ops over the sources of an
 * experiment.xml database (inline values, per-thread files, 2020 sparse
 * files).  Every lookup is bounds-checked by the module it calls; a value
 * the files do not have is "absent".  Must not depend on expat, on curses
 * or on ui/. */
#include "config.h"

#include "formats/hpctoolkit_xml/xml_provider.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"

uint32_t xml_provider_add_source(struct xml_provider *pv,
				 struct xml_source source)
{
	if (pv->n_sources >= UINT32_MAX - 1 ||
	    !array_grow((void **)&pv->sources, &pv->sources_cap,
			(size_t)pv->n_sources + 1, sizeof(*pv->sources)))
		return MODEL_NONE;
	pv->sources[pv->n_sources] = source;
	return pv->n_sources++;
}

uint32_t xml_provider_trace_ctx(const struct xml_provider *pv,
				uint32_t trace_id)
{
	return array_pairs_find(pv->trace_ids, pv->n_trace_ids, trace_id, 0);
}

/* Sum of metric `m` at `ctx` over all per-thread profiles; false when no
 * profile has a value. */
static bool sum_profiles(struct xml_provider *pv, uint32_t ctx, uint32_t m,
			 double *out)
{
	uint32_t n = legacy_values_n_profiles(pv->values);
	double sum = 0, v;
	bool any = false;
	for (uint32_t p = 0; p < n; p++)
		if (legacy_values_get(pv->values, p, ctx, m, &v)) {
			sum += v;
			any = true;
		}
	if (any)
		*out = sum;
	return any;
}

enum { ACC_SUM, ACC_SUMSQ, ACC_MIN, ACC_MAX, ACC_SLOTS };

static double *acc_slot(struct xml_provider *pv, uint32_t m, int slot)
{
	return pv->acc + ((size_t)m * ACC_SLOTS + (size_t)slot) * pv->acc_ctx;
}

static void acc_add(struct xml_provider *pv, uint32_t m, uint32_t ctx,
		    double v)
{
	if (v == 0)
		return;
	acc_slot(pv, m, ACC_SUM)[ctx] += v;
	acc_slot(pv, m, ACC_SUMSQ)[ctx] += v * v;
	double *mn = &acc_slot(pv, m, ACC_MIN)[ctx];
	double *mx = &acc_slot(pv, m, ACC_MAX)[ctx];
	if (isnan(*mn) || v < *mn)
		*mn = v;
	if (isnan(*mx) || v > *mx)
		*mx = v;
}

/* The statistics over threads of every file metric at every context: one
 * read of each profile.  The arrays are at most four times the size of one
 * per-thread file.  The root of an inclusive metric is, per thread, the
 * sum of the top-level contexts (the files have no row for it). */
static bool acc_build(struct xml_provider *pv)
{
	if (pv->acc_tried)
		return pv->acc != NULL;
	pv->acc_tried = true;
	uint32_t nm = legacy_values_n_metrics(pv->values);
	uint32_t nc = legacy_values_n_contexts(pv->values);
	uint32_t np = legacy_values_n_profiles(pv->values);
	size_t cells = (size_t)nm * nc;
	if (nm == 0 || nc == 0 || cells / nm != nc ||
	    cells > SIZE_MAX / sizeof(double) / ACC_SLOTS)
		return false;
	double *row = malloc(cells * sizeof(*row));
	pv->acc = malloc(cells * ACC_SLOTS * sizeof(*pv->acc));
	if (!row || !pv->acc)
		goto fail;
	pv->acc_ctx = nc;
	for (uint32_t m = 0; m < nm; m++)
		for (int a = 0; a < ACC_SLOTS; a++) {
			double *d = acc_slot(pv, m, a);
			double init = a == ACC_MIN || a == ACC_MAX ? (double)NAN : 0;
			for (uint32_t c = 0; c < nc; c++)
				d[c] = init;
		}
	for (uint32_t p = 0; p < np; p++) {
		if (legacy_values_read_profile(pv->values, p, row, NULL) !=
		    STATUS_OK)
			goto fail;
		for (uint32_t m = 0; m < nm; m++) {
			double root = 0;
			if (pv->inclusive && pv->inclusive[m])
				for (uint32_t i = 0; i < pv->n_top; i++)
					if (pv->top_ctx[i] < nc)
						root += row[(size_t)pv->top_ctx[i] *
								    nm +
							    m];
			acc_add(pv, m, 0, root);
			for (uint32_t c = 1; c < nc; c++)
				acc_add(pv, m, c, row[(size_t)c * nm + m]);
		}
	}
	free(row);
	return true;
fail:
	free(row);
	FREE_AND_NULL(pv->acc);
	return false;
}

bool xml_provider_values_all_zero(struct xml_provider *pv)
{
	if (!pv || !pv->values || !acc_build(pv))
		return false;
	uint32_t nm = legacy_values_n_metrics(pv->values);
	for (uint32_t m = 0; m < nm; m++) {
		const double *mn = acc_slot(pv, m, ACC_MIN);
		for (uint32_t c = 0; c < pv->acc_ctx; c++)
			if (!isnan(mn[c]))
				return false;
	}
	return true;
}

static bool stat_value(struct xml_provider *pv, const struct xml_source *s,
		       uint32_t ctx_id, double *out)
{
	if (!pv->values || !acc_build(pv) ||
	    s->key >= legacy_values_n_metrics(pv->values) ||
	    ctx_id >= pv->acc_ctx)
		return false;
	double mn = acc_slot(pv, s->key, ACC_MIN)[ctx_id];
	if (isnan(mn))
		return false;
	switch (s->acc) {
	case XML_ACC_SUM:
		*out = acc_slot(pv, s->key, ACC_SUM)[ctx_id];
		return true;
	case XML_ACC_SUMSQ:
		*out = acc_slot(pv, s->key, ACC_SUMSQ)[ctx_id];
		return true;
	case XML_ACC_COUNT:
		*out = legacy_values_n_profiles(pv->values);
		return true;
	case XML_ACC_MIN:
		*out = mn;
		return true;
	case XML_ACC_MAX:
		*out = acc_slot(pv, s->key, ACC_MAX)[ctx_id];
		return true;
	default:
		return false;
	}
}

/* hpcprof writes DBL_MIN (printed "2.22507e-308") as the Min and Max of
 * a context where no thread has a value, and a ":num-src" count where the
 * sum it divides is absent: both are shown as absent, as nothing. */
static bool inline_value(const struct xml_provider *pv,
			 const struct xml_source *s, uint32_t ctx_id,
			 double *out)
{
	double v, g;
	if (!xml_values_get(pv->inline_values, ctx_id, s->key, &v))
		return false;
	if ((s->acc == XML_ACC_MIN || s->acc == XML_ACC_MAX) &&
	    fabs(v) < 1e-300)
		return false;
	if (s->gate != MODEL_NONE &&
	    !xml_values_get(pv->inline_values, ctx_id, s->gate, &g))
		return false;
	*out = v;
	return true;
}

static bool summary(void *impl, uint32_t ctx_id, uint32_t stat_id,
		    double *out)
{
	struct xml_provider *pv = impl;
	if (stat_id >= pv->n_sources)
		return false;
	const struct xml_source *s = &pv->sources[stat_id];
	switch (s->kind) {
	case XML_SOURCE_INLINE:
		return inline_value(pv, s, ctx_id, out);
	case XML_SOURCE_SPARSE:
		return pv->sparse &&
		       sparse2020_summary_value(pv->sparse, ctx_id, s->key,
						out);
	case XML_SOURCE_STAT:
		return stat_value(pv, s, ctx_id, out);
	case XML_SOURCE_SUM:
		break;
	default:
		return false;
	}
	if (!pv->values)
		return false;
	if (ctx_id != 0)
		return sum_profiles(pv, ctx_id, s->key, out);
	double v;
	if (sum_profiles(pv, 0, s->key, &v) && v != 0) {
		*out = v;
		return true;
	}
	/* the root of per-thread files without a root value: the sum of
	 * the top-level contexts for an inclusive metric */
	if (!s->inclusive)
		return false;
	double sum = 0;
	bool any = false;
	for (uint32_t i = 0; i < pv->n_top; i++)
		if (sum_profiles(pv, pv->top_ctx[i], s->key, &v)) {
			sum += v;
			any = true;
		}
	if (any)
		*out = sum;
	return any;
}

static enum status summary_all(void *impl, uint32_t stat_id,
			       void (*emit)(void *ctx, uint32_t ctx_id,
					    double value),
			       void *ctx, struct error *err)
{
	struct xml_provider *pv = impl;
	(void)err;
	if (stat_id >= pv->n_sources)
		return STATUS_OK;
	const struct xml_source *s = &pv->sources[stat_id];
	if (s->kind == XML_SOURCE_NONE)
		return STATUS_OK;
	if ((s->kind == XML_SOURCE_SUM || s->kind == XML_SOURCE_STAT) &&
	    pv->values && acc_build(pv)) {
		/* from the statistics pass: the same sums, added in the same
		 * profile order as sum_profiles; the root as summary() makes
		 * it */
		struct xml_source stat = *s;
		if (s->kind == XML_SOURCE_SUM)
			stat.acc = XML_ACC_SUM;
		double v;
		if (summary(impl, 0, stat_id, &v))
			emit(ctx, 0, v);
		for (uint32_t c = 1; c < pv->acc_ctx; c++)
			if (stat_value(pv, &stat, c, &v))
				emit(ctx, c, v);
		return STATUS_OK;
	}
	if (s->kind != XML_SOURCE_INLINE || s->gate != MODEL_NONE ||
	    s->acc == XML_ACC_MIN || s->acc == XML_ACC_MAX)
		return STATUS_UNSUPPORTED;
	xml_values_each(pv->inline_values, s->key, emit, ctx);
	return STATUS_OK;
}

static enum status per_profile(void *impl, uint32_t ctx_id, uint32_t prop_id,
			       struct profile_value **out, size_t *n,
			       struct error *err)
{
	struct xml_provider *pv = impl;
	*out = NULL;
	*n = 0;
	if (pv->sparse)
		return sparse2020_profile_values(pv->sparse, ctx_id, prop_id,
						 out, n, err);
	if (!pv->values)
		return error_set(err, STATUS_UNSUPPORTED, NULL,
				 "the database has no per-thread files "
				 "(*.metric-db or experiment-1.mdb)");
	uint32_t np = legacy_values_n_profiles(pv->values);
	struct profile_value *vals = NULL;
	size_t k = 0, cap = 0;
	/* the files have no row for the root: an inclusive metric's root
	 * value is the sum over the top-level contexts */
	bool root_sum = ctx_id == 0 && pv->inclusive &&
			prop_id < legacy_values_n_metrics(pv->values) &&
			pv->inclusive[prop_id];
	for (uint32_t p = 0; p < np; p++) {
		double v = 0, t;
		if (root_sum) {
			for (uint32_t i = 0; i < pv->n_top; i++)
				if (legacy_values_get(pv->values, p,
						      pv->top_ctx[i], prop_id,
						      &t))
					v += t;
		} else if (!legacy_values_get(pv->values, p, ctx_id, prop_id,
					      &v)) {
			continue;
		}
		if (v == 0)
			continue;
		if (!array_grow((void **)&vals, &cap, k + 1, sizeof(*vals))) {
			free(vals);
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
		}
		vals[k++] = (struct profile_value){.profile = p, .value = v};
	}
	const struct error *e = legacy_values_error(pv->values);
	if (e && e->status != STATUS_OK && k == 0) {
		free(vals);
		return error_set(err, e->status, e->file, "%s",
				 e->message ? e->message : "read error");
	}
	*out = vals;
	*n = k;
	return STATUS_OK;
}

void xml_provider_free(struct xml_provider *pv)
{
	if (!pv)
		return;
	xml_values_free(pv->inline_values);
	legacy_values_close(pv->values);
	sparse2020_close(pv->sparse);
	legacy_trace_close(pv->trace);
	free(pv->trace_ids);
	free(pv->top_ctx);
	free(pv->inclusive);
	free(pv->sources);
	free(pv->acc);
	free(pv->line_map);
	free(pv);
}

static void values_close(void *impl)
{
	xml_provider_free(impl);
}

/* Copy a module's kept error into `err` once (`taken` remembers). */
static bool take_kept(const struct error *e, bool *taken, struct error *err)
{
	if (!e || e->status == STATUS_OK || *taken)
		return false;
	*taken = true;
	error_copy(err, e);
	return true;
}

/* The per-thread files (legacy_values) and the 2020 sparse files keep only
 * their first read error: each is reported once, the per-thread files'
 * first. */
static bool values_take_error(void *impl, struct error *err)
{
	struct xml_provider *pv = impl;
	return take_kept(legacy_values_error(pv->values),
			 &pv->values_error_taken, err) ||
	       take_kept(sparse2020_error(pv->sparse), &pv->sparse_error_taken,
			 err);
}

const struct value_ops xml_provider_value_ops = {
	.summary = summary,
	.per_profile = per_profile,
	.close = values_close,
	.summary_all = summary_all,
	.take_error = values_take_error,
};

static bool trace_sample(void *impl, uint32_t line, uint64_t index,
			 struct trace_sample *out)
{
	struct xml_provider *pv = impl;
	struct trace_sample s;
	bool ok;
	if (pv->trace)
		ok = legacy_trace_sample(pv->trace, line, index, &s);
	else if (pv->sparse && line < pv->n_lines)
		ok = sparse2020_trace_sample(pv->sparse, pv->line_map[line],
					     index, &s);
	else
		ok = false;
	if (!ok)
		return false;
	out->time = s.time;
	out->ctx_id = xml_provider_trace_ctx(pv, s.ctx_id);
	return true;
}

static void trace_close(void *impl)
{
	(void)impl;
}

const struct trace_ops xml_provider_trace_ops = {
	.sample = trace_sample,
	.close = trace_close,
};
