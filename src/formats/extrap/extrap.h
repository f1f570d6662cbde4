/* extrap: the Extra-P readers' shared entry points: each text format's
 * parser from memory (what the fuzz targets call), the file read they
 * share, and the bids' content tests.  The readers themselves are the
 * `struct reader`s registered in formats/reader.c: extrap-text,
 * extrap-talpas, extrap-json (new, legacy, and JSON Lines as Extra-P falls
 * back to it), extrap-cubeset, extrap-nsight, extrap-experiment (.extra-p)
 * and extrap3; the point directories of the directory sets.
 * See doc/extrap.md.  Must not depend on curses, on ui/ or on another
 * format. */
#ifndef CALLSCOPE_EXTRAP_H
#define CALLSCOPE_EXTRAP_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"

/* The whole file at `path`, NUL-terminated (malloc'd, caller frees).
 * STATUS_NOT_FOUND, STATUS_IO, STATUS_NOMEM with `err` naming the file. */
enum status extrap_read_file(const char *path, char **data, size_t *len,
			     struct error *err);

/* A parser from memory, as below. */
typedef enum status (*extrap_parse_fn)(const char *data, size_t len,
				       const char *path, struct model **out,
				       struct error *err);

/* The open of a one-file reader: the file in->paths[0] read whole
 * (extrap_read_file) and handed to `parse`. */
struct reader_input;
enum status extrap_open_parsed(const struct reader_input *in,
			       extrap_parse_fn parse, struct model **out,
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

/* The parameters in a directory name of a directory set ("mm.x1y1z1.r1":
 * x, y, z = 1, 1, 1); see extrap_dirname.c. */
struct extrap_dir_params {
	char **names;
	double *values;
	uint32_t n;
};
/* STATUS_CORRUPT with the reason in `why` when the name has none or a bad
 * number; STATUS_NOMEM.  Free with extrap_dir_params_free (also after a
 * failure: it is left empty). */
enum status extrap_dir_params(const char *name, struct extrap_dir_params *d,
			      char *why, size_t why_len);
void extrap_dir_params_free(struct extrap_dir_params *d);


/* A point directory of a directory set (Cube sets, Nsight sets). */
struct extrap_point_dir {
	char *name;   /* full path */
	char **files; /* full paths, sorted */
	size_t n_files;
	struct extrap_dir_params p;
	uint32_t point;
};

/* The subdirectories of `path` not starting with '.' that hold files
 * ending in `suffix` (not starting with '.', links followed), sorted,
 * each with its files and its name's parameters; *n 0 when there is
 * none.  STATUS_IO, STATUS_NOMEM, STATUS_CORRUPT for a name without
 * parameters (naming the directory).  Free with extrap_point_dirs_free
 * (also after a failure). */
enum status extrap_point_dirs_list(const char *path, const char *suffix,
				   struct extrap_point_dir **out, size_t *n,
				   struct error *err);
/* Declare the set's parameters and points from the n directories: the
 * same names in the same order everywhere (else STATUS_CORRUPT naming two
 * directories), parameters with one value in the whole set dropped, at
 * least one left (a set needs two points); d[i].point set. */
struct extrap_set;
enum status extrap_point_dirs_points(const char *path,
				     struct extrap_point_dir *d, size_t n,
				     struct extrap_set *s, struct error *err);
void extrap_point_dirs_free(struct extrap_point_dir *d, size_t n);

#endif
