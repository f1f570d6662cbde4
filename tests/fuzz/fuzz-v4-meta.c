/* fuzz-v4-meta: libFuzzer target for the meta.db reader.  The input is
 * one meta.db file, read from memory (header, section table, footer, then
 * every section into a model builder); a model that reads is finished and
 * every node's label is built and sanitized, as the report would.  Links
 * the engine only. */
#include "config.h"

#include <stdlib.h>

#include "fuzz_v4.h"
#include "core/sanitize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = {0};
	struct v4_file f;
	struct v4_meta meta = {.kind_names = NULL, .n_kinds = 0};
	struct model_builder *b = NULL;
	struct model *m = NULL;
	if (!fuzz_v4_open(data, size, V4_FORMAT_META, "meta.db", &f, &err))
		goto out;
	b = model_builder_new("hpctoolkit-v4", "fuzz");
	if (!b)
		goto out;
	enum status st = v4_meta_read(&f, b, &meta, &err);
	if (st != STATUS_OK)
		goto out;
	m = model_builder_finish(b, &err);
	b = NULL;
	if (!m)
		goto out;
	for (uint32_t i = 0; i < meta.n_kinds; i++)
		if (meta.kind_names[i] >= model_n_strings(m))
			__builtin_trap();
	for (uint32_t i = 0; i < model_n_nodes(m); i++) {
		char *label = model_node_label(m, i);
		char *safe = sanitize_text(label, SANITIZE_TERMINAL);
		free(safe);
		free(label);
	}
out:
	model_free(m);
	model_builder_free(b);
	v4_file_close(&f);
	v4_meta_free(&meta);
	error_clear(&err);
	return 0;
}
