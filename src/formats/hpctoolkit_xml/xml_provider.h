/* xml_provider: the lazily read values and trace samples of a database
 * described by an experiment.xml, behind the model's value_ops and
 * trace_ops.  A statistic's summary values come from one source: the
 * inline <M> values of the XML, sums over the per-thread files (*.metric-db
 * or experiment-1.mdb) when the XML has none, or the summary profile of a
 * 2020 profile.db.  Per-thread values come from the per-thread files or
 * profile.db; trace samples from *.hpctrace / experiment.mt or trace.db,
 * with the trace ids of the files mapped to context ids through the XML's
 * `it` attributes.  Must not depend on expat, on curses or on ui/. */
#ifndef CALLSCOPE_XML_PROVIDER_H
#define CALLSCOPE_XML_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/hpctoolkit_xml/legacy_trace.h"
#include "formats/hpctoolkit_xml/legacy_values.h"
#include "model/model.h"
#include "formats/hpctoolkit_xml/sparse2020.h"
#include "formats/hpctoolkit_xml/xml_values.h"

enum xml_source_kind {
	XML_SOURCE_NONE,   /* no values */
	XML_SOURCE_INLINE, /* key: the XML metric id of the <M> values */
	XML_SOURCE_SUM,    /* key: metric index in the per-thread files */
	XML_SOURCE_SPARSE, /* key: metric id in profile.db */
	XML_SOURCE_STAT,   /* key: metric index in the per-thread files,
			      acc: the statistic over the threads */
};

/* Statistics over the per-thread values of one context, as hpcprof
 * computes the <M> values of its statistic metrics: absent (0.0) values
 * count as zeros, except for the minimum. */
enum xml_acc {
	XML_ACC_SUM,   /* sum */
	XML_ACC_SUMSQ, /* sum of squares (":accum2") */
	XML_ACC_COUNT, /* number of threads (":num-src"), where any has a
			  value */
	XML_ACC_MIN,   /* smallest non-zero value */
	XML_ACC_MAX,   /* largest non-zero value */
};

struct xml_source {
	uint8_t kind; /* enum xml_source_kind */
	uint32_t key;
	uint8_t acc;    /* XML_SOURCE_STAT: enum xml_acc; XML_SOURCE_INLINE:
			   XML_ACC_MIN / XML_ACC_MAX drop hpcprof's
			   "no value" sentinel (+-DBL_MIN, 2.22507e-308) */
	uint32_t gate;  /* XML_SOURCE_INLINE: the XML metric id that must
			   have a value at the context too (a ":num-src"
			   count is written where its sum has none), or
			   MODEL_NONE */
	bool inclusive; /* XML_SOURCE_SUM: the root is the sum of its
			   children when the files have no root value */
};

/* Owns everything it is given; freed by the value ops' close. */
struct xml_provider {
	struct xml_values *inline_values;
	struct legacy_values *values;   /* or NULL */
	struct sparse2020 *sparse;      /* or NULL */
	struct legacy_trace *trace;     /* or NULL */
	uint64_t *trace_ids;            /* (it << 32 | ctx_id), sorted */
	size_t n_trace_ids;
	uint32_t *top_ctx;              /* context ids of the root's children */
	uint32_t n_top;
	uint8_t *inclusive;             /* per metric of the per-thread files:
					   1 when inclusive (the root's value
					   is then the sum of the top-level
					   contexts'), or NULL */
	struct xml_source *sources;     /* indexed by stat_id */
	uint32_t n_sources;
	size_t sources_cap;
	double *acc;                    /* XML_SOURCE_STAT: one pass over
					   the per-thread files, made when
					   first asked: sum, sum of squares,
					   min (NAN: no value), max for each
					   file metric and context */
	uint32_t acc_ctx;               /* contexts per array of `acc` */
	bool acc_tried;                 /* the pass was made (or failed) */
	uint32_t *line_map;             /* sparse traces: model line -> file */
	uint32_t n_lines;
	/* value_ops.take_error: legacy_values and sparse2020 each keep the
	 * first read error they meet (and per_profile still reports it);
	 * each is handed out once */
	bool values_error_taken, sparse_error_taken;
};

/* Append a source; its index is the stat_id to give the statistic.
 * MODEL_NONE when out of memory. */
uint32_t xml_provider_add_source(struct xml_provider *pv,
				 struct xml_source source);

/* The context id a trace file's id `trace_id` stands for (0 when the XML
 * does not know it). */
uint32_t xml_provider_trace_ctx(const struct xml_provider *pv,
				uint32_t trace_id);

/* True when the per-thread files could be read and hold no non-zero
 * value at all (the pass behind XML_SOURCE_STAT is made if not yet: call
 * it after the sources and top-level contexts are set). */
bool xml_provider_values_all_zero(struct xml_provider *pv);

extern const struct value_ops xml_provider_value_ops;
/* The trace side shares the provider: its close does nothing, the value
 * ops' close frees both. */
extern const struct trace_ops xml_provider_trace_ops;

/* Free a provider that was not handed to a model. */
void xml_provider_free(struct xml_provider *pv);

#endif
