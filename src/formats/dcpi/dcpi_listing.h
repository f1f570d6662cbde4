/* dcpi_listing: a procedure's instructions, disassembled from the
 * profiled program's ELF image with Capstone, with the source line of
 * each (DWARF), for `callscope listing` (dcpilist's listing).  Knows no
 * model: the caller joins the sample counts per address.  Depends on
 * core/, formats/dcpi/dcpi_elf.h and Capstone. */
#ifndef CALLSCOPE_DCPI_LISTING_H
#define CALLSCOPE_DCPI_LISTING_H

#include <stdint.h>

#include "core/status.h"

/* One instruction; strings valid during the emit call only. */
struct dcpi_insn {
	uint64_t addr;
	uint32_t size;
	const char *bytes; /* "55 48 89 e5" */
	const char *text;  /* "mov rbp, rsp"; ".byte 0xNN" when undecodable */
	const char *file;  /* source file (DWARF), NULL when unknown */
	uint32_t line;     /* 0 when unknown */
};

/* The procedure of the ELF image at `path` that contains `addr`: its
 * name (heap copy in *name), entry and size, and each instruction in
 * address order through `emit`.  STATUS_NOT_FOUND when the image does
 * not open or no symbol covers `addr`, STATUS_UNSUPPORTED for a machine
 * Capstone is not set up for here (x86, x86-64, AArch64), STATUS_CORRUPT
 * when the procedure's bytes are not in the file. */
enum status dcpi_listing(const char *path, uint64_t addr, char **name,
			 uint64_t *entry, uint64_t *size,
			 void (*emit)(void *ctx, const struct dcpi_insn *insn),
			 void *ctx, struct error *err);

#endif
