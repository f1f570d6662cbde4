/* xml_experiment: a streaming reader of HPCToolkit experiment.xml files
 * (versions 2.0, 2.1, 2.2 and 4.0) through expat.  It adds the calling
 * context tree, the functions and the strings to a model builder as the
 * elements arrive, and hands back the header tables (metrics, metric-db and
 * trace-db tables, identifier names), the inline metric values and the
 * trace-id map for the reader to wire up.  The file is fed in bounded
 * windows; no DTD, external entity or entity declaration is honoured.
 * Must not depend on curses, on ui/ or on the binary legacy formats. */
#ifndef CALLSCOPE_XML_EXPERIMENT_H
#define CALLSCOPE_XML_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/blob.h"
#include "model/model.h"
#include "core/status.h"
#include "formats/hpctoolkit_xml/xml_values.h"

/* Limits on hostile input. */
#define XML_EXPERIMENT_MAX_DEPTH 100000     /* element nesting */
#define XML_EXPERIMENT_MAX_ATTR (64 * 1024) /* bytes of one attribute value */
#define XML_EXPERIMENT_WINDOW (1024 * 1024) /* bytes fed to expat at once */

enum xml_metric_type {
	XML_METRIC_NIL,
	XML_METRIC_INCLUSIVE,
	XML_METRIC_EXCLUSIVE,
};

/* One <Metric> of the MetricTable. */
struct xml_metric {
	uint32_t id;         /* i */
	char *name;          /* n: "WALLCLOCK (us):Sum (I)" */
	char *description;   /* md, or NULL */
	uint8_t type;        /* enum xml_metric_type (t) */
	uint32_t partner;    /* partner, or MODEL_NONE */
	unsigned show;       /* show: 0 hidden, 1 shown, 4 invisible (4.0) */
	bool show_percent;   /* show-percent */
	uint32_t order;      /* o: the index "#N" formulas refer to, or
				MODEL_NONE */
	char *format;        /* fmt: printf format, or NULL */
	char *formula;       /* finalize (2.x) or view (4.0) frm, or NULL */
	char *combine;       /* combine frm, or NULL */
};

/* One <MetricDB> of the MetricDBTable. */
struct xml_metric_db {
	uint32_t id;      /* i */
	char *name;       /* n: "WALLCLOCK (us) (I)" */
	uint8_t type;     /* enum xml_metric_type */
	uint32_t db_id;   /* db-id: index in each per-thread file (else id) */
	uint32_t n_db;    /* db-num-metrics, 0 when absent */
};

struct xml_experiment {
	unsigned major, minor; /* version="2.2" */
	struct xml_metric *metrics;
	uint32_t n_metrics;
	uint64_t *metric_index;   /* (id << 32 | index), sorted by id */
	struct xml_metric_db *metric_dbs;
	uint32_t n_metric_dbs;
	bool has_trace_db;        /* a <TraceDB> was declared */
	uint64_t trace_unit;      /* TraceDB u= (ticks per second), 0 if none */
	char **id_names;          /* 4.0 IdentifierNameTable by kind */
	uint32_t n_id_names;
	struct xml_values *values; /* inline <M> values, sealed */
	uint64_t *trace_ids;      /* (it << 32 | ctx_id), sorted, unique it */
	size_t n_trace_ids;
	uint32_t n_contexts;      /* tree elements read */
	bool flat_only;           /* a SecFlatProfile but no call path tree */
};

/* Parse the whole file behind `blob` into `b` and `out` (zeroed first).
 * Failures name the file, the line and the byte offset:
 * STATUS_NOT_DATABASE (not an HPCToolkitExperiment), STATUS_UNSUPPORTED (a
 * version other than 2.x / 4.x), STATUS_CORRUPT (malformed XML, a bad
 * attribute, an entity declaration or external entity), STATUS_LIMIT (depth
 * or attribute length), STATUS_NOMEM. */
enum status xml_experiment_parse(struct blob *blob, struct model_builder *b,
				 struct xml_experiment *out,
				 struct error *err);

/* The node context id of trace id `it` (the `it` attribute), or
 * MODEL_NONE. */
uint32_t xml_experiment_trace_ctx(const struct xml_experiment *x,
				  uint32_t trace_id);

/* The metric with id `id`, or NULL. */
const struct xml_metric *xml_experiment_metric(const struct xml_experiment *x,
					       uint32_t id);

void xml_experiment_free(struct xml_experiment *x);

#endif
