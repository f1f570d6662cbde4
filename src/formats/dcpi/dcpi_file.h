/* dcpi_file: one DCPI profile file, decoded and checked exactly per
 * ../shared/specs/dcpiformat.txt: the ASCII header (both editions: the
 * OpenVMS text, and the NT one with its `version pdb-M.m` and `tstart HEX`
 * lines) and the version-0 binary samples (chunks, footer).  Works on a
 * span only; no I/O, no model.  Depends on core/. */
#ifndef CALLSCOPE_DCPI_FILE_H
#define CALLSCOPE_DCPI_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/span.h"
#include "core/status.h"

/* One sampled address: text offset and its count (never 0). */
struct dcpi_sample {
	uint32_t offset; /* from text_start(image) */
	uint32_t count;
};

struct dcpi_profile {
	/* header; strings are heap copies (NUL-terminated, not sanitized) */
	char *image;    /* the image id, hex digits as written */
	char *epoch;    /* 10 or 14 digits (12 accepted) */
	char *platform;
	char *event;
	char *path;     /* NULL when absent */
	uint64_t period, tsize, cpuspeed;
	bool has_period;
	bool has_version; /* NT edition */
	uint32_t major, minor;
	bool has_tstart;  /* NT edition */
	uint64_t tstart;
	uint64_t data_off; /* where the binary section starts */
	/* binary section (major version 0) */
	struct dcpi_sample *samples; /* by increasing offset; NULL when none */
	size_t n_samples;
	uint64_t sum_counts; /* the counts' exact sum */
	uint32_t total_offsets, total_samples; /* the footer */
};

/* Whether `head` starts like a DCPI header: its first line is a header
 * key of the spec followed by a separator.  For bidding. */
bool dcpi_head_looks_like(const uint8_t *head, size_t len);

/* Decode `s` (the whole file).  STATUS_CORRUPT with the place (`path`,
 * offset) for any violation of the spec, STATUS_UNSUPPORTED for a major
 * version other than 0, STATUS_NOMEM.  Free with dcpi_profile_clear. */
enum status dcpi_profile_parse(struct span s, const char *path,
			       struct dcpi_profile *out, struct error *err);
/* The same checks, without keeping the samples: n_samples and
 * sum_counts only (samples NULL).  For deferred images. */
enum status dcpi_profile_scan(struct span s, const char *path,
			      struct dcpi_profile *out, struct error *err);
void dcpi_profile_clear(struct dcpi_profile *p);

#endif
