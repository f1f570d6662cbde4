/* v4_meta: reads an HPCToolkit v4 meta.db into a model builder: General
 * Properties (title, description), Identifier Names, Performance Metrics
 * (one model_stat per summary statistic), and the Context Tree (entry
 * points and contexts, with their functions, files and modules).
 *
 * The tree is decoded in one iterative pass with an explicit stack and a
 * visited-bytes bitmap, so every byte of the Context Tree section is decoded
 * at most once (no cycles, no shared subtrees, no quadratic work).  Must not
 * depend on curses or on the other v4 files. */
#ifndef CALLSCOPE_V4_META_H
#define CALLSCOPE_V4_META_H

#include <stdint.h>

#include "model/model.h"
#include "core/status.h"
#include "formats/hpctoolkit_v4/v4_file.h"

/* What the other v4 files need from meta.db. */
struct v4_meta {
	uint32_t *kind_names; /* string handle per identifier kind, or NULL */
	uint32_t n_kinds;
};

/* Read the opened meta.db `f` into `b`.  Databases written by pre-release
 * HPCToolkit (2022) whose headers say 4.0 but whose Performance Metrics and
 * Context Tree use an older layout are STATUS_UNSUPPORTED with a message
 * naming the layout.  On failure *out is left empty. */
enum status v4_meta_read(struct v4_file *f, struct model_builder *b,
			 struct v4_meta *out, struct error *err);

void v4_meta_free(struct v4_meta *meta);

#endif
