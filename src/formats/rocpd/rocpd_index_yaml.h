/* rocpd_index_yaml: a run's index YAML file (rocprofv3 / `rocpd package`
 * `index.yaml` with a top-level `files:` list; roc-optiq's
 * `rocprofiler-sdk: rocpd: files:` form) into the databases it lists.
 * Depends on core/ and libyaml only; never prints. */
#ifndef CALLSCOPE_ROCPD_INDEX_YAML_H
#define CALLSCOPE_ROCPD_INDEX_YAML_H

#include <stdbool.h>
#include <stddef.h>

#include "core/status.h"

/* Limits: the file's size, the entries of its list, the nesting. */
#define ROCPD_YAML_MAX_BYTES (1u << 20)
#define ROCPD_YAML_MAX_FILES 4096u
#define ROCPD_YAML_MAX_DEPTH 32u

/* Whether `name` is named like an index YAML file (.yaml, .yml). */
bool rocpd_index_yaml_name(const char *name);

/* The entries of the `files:` list of YAML text buf[0..len), in order,
 * each checked: a non-empty relative path without a NUL, a "." or ".."
 * component, or a repeat.  Anchors and aliases, a missing list, a list
 * that is not a sequence of strings, more than ROCPD_YAML_MAX_FILES
 * entries or deeper nesting than ROCPD_YAML_MAX_DEPTH are refused:
 * STATUS_CORRUPT (STATUS_LIMIT, STATUS_NOMEM) with the problem, without
 * a file name, in `why` (one line).  *out is a heap array of heap
 * strings, freed with rocpd_index_yaml_free. */
enum status rocpd_index_yaml_parse(const char *buf, size_t len, char ***out,
				   size_t *n, char *why, size_t why_size);
void rocpd_index_yaml_free(char **v, size_t n);

/* The databases that index file `path` lists: its entries resolved
 * against the file's directory, each an existing regular file.  One-line
 * errors name `path` and the problem. */
enum status rocpd_index_yaml_read(const char *path, char ***out, size_t *n,
				  struct error *err);

#endif
