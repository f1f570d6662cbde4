/* xml_metrics: the statistics and columns of an experiment.xml's
 * MetricTable (see xml_metrics.c).  Private to formats/hpctoolkit_xml/.
 * Must not depend on curses or on another format. */
#ifndef CALLSCOPE_XML_METRICS_H
#define CALLSCOPE_XML_METRICS_H

#include "core/status.h"
#include "formats/hpctoolkit_xml/xml_experiment.h"
#include "formats/hpctoolkit_xml/xml_provider.h"
#include "model/model.h"

/* Add the statistics and columns of `x`'s metrics to `b`, whose values
 * come from `pv` (inline values, metric-db files or the sparse 2020
 * profile.db). */
enum status xml_add_metrics(struct model_builder *b,
			    const struct xml_experiment *x,
			    struct xml_provider *pv, struct error *err);

#endif
