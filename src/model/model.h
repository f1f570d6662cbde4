/* model: the one in-memory picture of a performance database, whatever
 * format it came from (HPCToolkit v4 and older layouts, rocpd, DCPI,
 * Extra-P).
 *
 * A reader fills a model through the builder (model_build.h), then the
 * model is immutable but for its deferred subtrees (model_deferred.h).  It
 * holds (each concern in a header of its own, which this one includes all
 * of; a file that needs less includes less: model_node.h, model_column.h,
 * model_profile.h, model_params.h, model_values.h, model_trace.h,
 * model_data.h for the accessors of struct model, which only the model's
 * own files see (model_internal.h), model_deferred.h, model_build.h):
 *  - a calling-context tree of compact nodes (node 0 is the synthetic root,
 *    the "global context"; its children are the entry points or, for formats
 *    without entries, the top functions);
 *  - interned strings (names, file and module paths);
 *  - functions (for grouping in bottom-up and flat views);
 *  - summary statistics stored in the database and the metric columns built
 *    over them (a column is a formula over statistics);
 *  - execution contexts ("profiles": threads, ranks, GPU streams) labelled by
 *    identifier tuples;
 *  - timelines: sample lines (context id over time) and, for later formats,
 *    interval tracks (nested, with attributes read on demand) and counter
 *    lines (time, value).
 * Metric values, per-profile values and trace samples are NOT loaded: the
 * model keeps the reader's provider (ops + impl) and asks it when a view
 * needs a value.  Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_MODEL_H
#define CALLSCOPE_MODEL_H

#include "model/model_node.h"
#include "model/model_column.h"
#include "model/model_profile.h"
#include "model/model_params.h"
#include "model/model_values.h"
#include "model/model_trace.h"
#include "model/model_data.h"
#include "model/model_deferred.h"
#include "model/model_build.h"

#endif
