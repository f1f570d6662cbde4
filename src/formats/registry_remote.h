/* registry_remote: the reader registry's answer for a directory known
 * only by the names in it (a directory URL's listing and the listings of
 * its subdirectories): the names become a probe (a directory's probe
 * has no file contents), the highest bidder is chosen, and its file
 * rules (struct reader's `files`) say which of the listed files it reads
 * and how (whole, or in parts by range).  No I/O.  Depends on core/ and
 * the registry (formats/reader.h). */
#ifndef CALLSCOPE_REGISTRY_REMOTE_H
#define CALLSCOPE_REGISTRY_REMOTE_H

#include <stddef.h>

#include "core/status.h"
#include "formats/reader.h"

/* A directory known by names: relative paths ("a.db", "metrics/x.yaml"). */
struct reader_listing {
	const char *const *files; /* the files, sorted */
	size_t n_files;
	const char *const *dirs; /* the subdirectories */
	size_t n_dirs;
	/* the directories whose names are known ("" the directory
	 * itself): a file rule with READER_FILE_GUESS in another one is
	 * tried by its name */
	const char *const *listed;
	size_t n_listed;
};

/* One file the chosen reader reads: `name` (heap) and its
 * reader_file_flag bits. */
struct reader_planned {
	char *name;
	unsigned flags;
};

/* The files of the directory `shown` (a URL, for messages) the best
 * bidder on `l` reads, in *out (n >= 1; free with
 * reader_planned_free), its reader in *chosen (NULL allowed).
 * STATUS_NOT_DATABASE when no reader bids or the chosen one reads none
 * of the files. */
enum status reader_plan_listing(const char *shown,
				const struct reader_listing *l,
				struct reader_planned **out, size_t *n,
				const struct reader **chosen,
				struct error *err);

/* The names worth trying in a directory that has no listing: every
 * reader's READER_FILE_GUESS rule that names one file of the directory
 * itself (no wildcard, no folder), each once (heap array of heap
 * strings, free with reader_planned_free's sibling below). */
enum status reader_guess_names(char ***out, size_t *n, struct error *err);

void reader_planned_free(struct reader_planned *v, size_t n);
void reader_names_free(char **v, size_t n);

/* The registry as net/'s planner of directory URLs
 * (formats/registry_planner.c): which files of a listing are fetched and
 * how, as the reader the listing's names choose says. */
struct remote_planner;
const struct remote_planner *registry_remote_planner(void);

#endif
