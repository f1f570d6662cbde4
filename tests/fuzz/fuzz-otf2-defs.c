/* fuzz-otf2-defs: libFuzzer target for the OTF2 reader's global
 * definitions (read through the OTF2 library by
 * src/formats/otf2/otf2_defs.c: strings, clock, system tree, groups,
 * locations, regions, communicators, and the reader's own checks of ids,
 * dangling references and cycles).  The input is a traces.def file, written
 * beside a fixed anchor (that of tests/gen_otf2.py's "nested" case: four
 * locations) in a private temporary directory and opened through the
 * registry; the locations' event files are absent, so an input that passes
 * the definitions ends at the first location, as a missing file must.
 * Whatever the input: no crash, no leak, no hang.  Links the engine only. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/model.h"
#include "open.h"
#include "fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* tests/gen_otf2.py's nested/traces.otf2 (OTF2 3.0, 4 locations) */
static const uint8_t anchor[] = {
	  0x03, 0x42, 0x4f, 0x54, 0x46, 0x32, 0x00, 0x03, 0x02, 0x03, 0x00, 0x02,
	  0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00,
	  0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00,
	  0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	  0x00, 0x00, 0x00, 0x00, 0x00, 0x60, 0x80, 0x2b, 0x58, 0xdf, 0x72, 0x5e,
	  0x51, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x01, 0x00
};

static char path[FUZZ_TMP_MAX + 16], defs[FUZZ_TMP_MAX + 16];

static void write_file(const char *name, const uint8_t *data, size_t size)
{
	FILE *fp = fopen(name, "wb");
	if (!fp || (size && fwrite(data, 1, size, fp) != size))
		abort();
	fclose(fp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!path[0]) {
		const char *base = fuzz_tmp_dir("otf2");
		snprintf(path, sizeof(path), "%s/traces.otf2", base);
		snprintf(defs, sizeof(defs), "%s/traces.def", base);
		write_file(path, anchor, sizeof(anchor));
	}
	write_file(defs, data, size);
	struct model *m = NULL;
	struct error err = {0};
	if (database_open(path, &m, &err) == STATUS_OK) {
		double v;
		for (uint32_t n = 0; n < model_n_nodes(m); n++)
			(void)model_value(m, n, 0, &v);
	}
	model_free(m);
	error_clear(&err);
	return 0;
}
