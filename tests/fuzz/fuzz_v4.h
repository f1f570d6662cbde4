/* fuzz_v4: what the four v4 file fuzz targets share: opening fuzz input
 * as one v4 file from memory, and a model builder that already holds what
 * the other files of a database would have added (identifier kind names
 * and profiles), so that profile.db, cct.db and trace.db are each fuzzed
 * alone, without a meta.db in the input.  Header-only, test code. */
#ifndef CALLSCOPE_TESTS_FUZZ_V4_H
#define CALLSCOPE_TESTS_FUZZ_V4_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "io/blob.h"
#include "model/model.h"
#include "formats/hpctoolkit_v4/v4_file.h"
#include "formats/hpctoolkit_v4/v4_meta.h"

/* Profiles the stand-in profile.db lists (bounds profIndex in cct.db and
 * trace.db), and identifier kinds the stand-in meta.db names. */
#define FUZZ_V4_PROFILES 64
#define FUZZ_V4_KINDS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as an opened v4 file of `format`; false when the header does
 * not validate (an ordinary outcome). */
static inline bool fuzz_v4_open(const uint8_t *data, size_t size,
				enum v4_format format, const char *name,
				struct v4_file *f, struct error *err)
{
	struct blob *blob = NULL;
	memset(f, 0, sizeof(*f));
	if (blob_open_memory(data, size, name, &blob, err) != STATUS_OK)
		return false;
	return v4_file_open_blob(blob, format, f, err) == STATUS_OK;
}

/* The kind names gen-v4db writes, interned into `b`, as v4_meta_read
 * would have left them. */
static inline bool fuzz_v4_meta(struct model_builder *b, struct v4_meta *meta,
				uint32_t *handles)
{
	static const char *const names[FUZZ_V4_KINDS] = {
		"SUMMARY", "NODE", "RANK", "THREAD",
		"GPUDEVICE", "GPUCONTEXT", "GPUSTREAM", "CORE",
	};
	for (uint32_t i = 0; i < FUZZ_V4_KINDS; i++) {
		handles[i] = model_builder_intern(b, names[i], strlen(names[i]));
		if (handles[i] == MODEL_NONE)
			return false;
	}
	meta->kind_names = handles;
	meta->n_kinds = FUZZ_V4_KINDS;
	return true;
}

/* FUZZ_V4_PROFILES profiles (the summary, then one thread each), as
 * v4_profile_open would have added them. */
static inline bool fuzz_v4_profiles(struct model_builder *b)
{
	for (uint32_t i = 0; i < FUZZ_V4_PROFILES; i++) {
		struct model_id id = {.kind = 3, .logical_id = i};
		if (model_builder_add_profile(b, i == 0, i ? &id : NULL,
					      i ? 1 : 0, NULL) == MODEL_NONE)
			return false;
	}
	return true;
}

#endif
