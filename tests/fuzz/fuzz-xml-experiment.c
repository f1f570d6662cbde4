/* fuzz-xml-experiment: libFuzzer target for the experiment.xml parser.
 * The input is parsed as an experiment.xml into a model builder; when it
 * parses, the model is finished and every inline value and trace id is
 * looked up again, so that the tables the parser built are walked.  Links
 * the engine only. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "io/blob.h"
#include "model/model.h"
#include "formats/hpctoolkit_xml/xml_experiment.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count(void *ctx, uint32_t ctx_id, double value)
{
	(void)ctx_id;
	(void)value;
	(*(size_t *)ctx)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = {0};
	struct blob *blob = NULL;
	struct model *m = NULL;
	struct xml_experiment x;
	struct model_builder *b = model_builder_new("fuzz", "fuzz.xml");
	if (!b || blob_open_memory(data, size, "fuzz.xml", &blob, &err) !=
			  STATUS_OK)
		goto out;
	if (xml_experiment_parse(blob, b, &x, &err) != STATUS_OK)
		goto out;
	m = model_builder_finish(b, &err);
	b = NULL;
	size_t seen = 0;
	for (uint32_t i = 0; i < x.n_metrics; i++) {
		const struct xml_metric *metric =
			xml_experiment_metric(&x, x.metrics[i].id);
		if (!metric)
			__builtin_trap();
		xml_values_each(x.values, metric->id, count, &seen);
	}
	for (size_t i = 0; i < x.n_trace_ids; i++)
		if (xml_experiment_trace_ctx(&x, (uint32_t)(x.trace_ids[i] >>
							    32)) ==
		    MODEL_NONE)
			__builtin_trap();
	if (m)
		for (uint32_t n = 0; n < model_n_nodes(m); n++) {
			double v;
			(void)xml_values_get(x.values, model_nodes(m)[n].ctx_id, 2,
					     &v);
		}
	xml_experiment_free(&x);
out:
	model_free(m);
	model_builder_free(b);
	blob_close(blob);
	error_clear(&err);
	return 0;
}
