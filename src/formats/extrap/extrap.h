/* extrap: the Extra-P readers' shared entry points: each text format's
 * parser from memory (what the fuzz targets call), the file read they
 * share, and the bids' content tests.  The readers themselves are the
 * `struct reader`s registered in formats/reader.c: extrap-text,
 * extrap-talpas, extrap-json (new, legacy, and JSON Lines as Extra-P falls
 * back to it), extrap-cubeset, extrap-experiment (.extra-p) and extrap3.
 * See doc/extrap.md.  Must not depend on curses, on ui/ or on another
 * format. */
#ifndef CALLSCOPE_EXTRAP_H
#define CALLSCOPE_EXTRAP_H

#include <stddef.h>

#include "core/status.h"
#include "model/model.h"

/* The whole file at `path`, NUL-terminated (malloc'd, caller frees).
 * STATUS_NOT_FOUND, STATUS_IO, STATUS_NOMEM with `err` naming the file. */
enum status extrap_read_file(const char *path, char **data, size_t *len,
			     struct error *err);

/* Parse `len` bytes of an Extra-P text file / TaLPas file / JSON or JSON
 * Lines file named `path` (for messages and the model) into *out. */
enum status extrap_text_parse(const char *data, size_t len, const char *path,
			      struct model **out, struct error *err);
enum status extrap_talpas_parse(const char *data, size_t len,
				const char *path, struct model **out,
				struct error *err);
enum status extrap_json_parse(const char *data, size_t len, const char *path,
			      struct model **out, struct error *err);
enum status extrap_jsonl_parse(const char *data, size_t len, const char *path,
			       struct model **out, struct error *err);

#endif
