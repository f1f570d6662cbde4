/* dcpi_elf: the symbols and source lines of one profiled program image
 * (ELF), for the DCPI reader: functions from the symbol table (.symtab,
 * else .dynsym) through libelf, source lines from DWARF through libdw.
 * Depends on core/ only (and elfutils). */
#ifndef CALLSCOPE_DCPI_ELF_H
#define CALLSCOPE_DCPI_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct dcpi_elf;

/* Open the ELF file at `path`.  STATUS_NOT_FOUND when it cannot be
 * opened, STATUS_NOT_DATABASE when it is not ELF, STATUS_NOMEM. */
enum status dcpi_elf_open(const char *path, struct dcpi_elf **out,
			  struct error *err);
void dcpi_elf_close(struct dcpi_elf *e);

/* The .text section's address and size (false when there is none). */
bool dcpi_elf_text(const struct dcpi_elf *e, uint64_t *addr, uint64_t *size);

/* The function containing `addr`: its name (valid until close) and entry
 * address; false when no function symbol covers it.  A symbol of size 0
 * extends to the next symbol. */
bool dcpi_elf_function(const struct dcpi_elf *e, uint64_t addr,
		       const char **name, uint64_t *entry);

/* The same with the function's size (after the size-0 rule). */
bool dcpi_elf_function_range(const struct dcpi_elf *e, uint64_t addr,
			     const char **name, uint64_t *entry,
			     uint64_t *size);

/* The `len` bytes of the image at address `addr` (an allocated section
 * with contents holds them all): *out valid until close; false when no
 * section holds the whole range. */
bool dcpi_elf_bytes(const struct dcpi_elf *e, uint64_t addr, uint64_t len,
		    const uint8_t **out);

/* The ELF machine (EM_*) and class (ELFCLASS32 / ELFCLASS64). */
void dcpi_elf_machine(const struct dcpi_elf *e, unsigned *machine,
		      unsigned *elf_class);

/* The source file and line of `addr` from DWARF; false without DWARF or
 * without a line there.  *file is valid until close. */
bool dcpi_elf_line(struct dcpi_elf *e, uint64_t addr, const char **file,
		   uint32_t *line);

/* One inlined call around an address: the inlined function's name and
 * the call site (valid until close; file NULL and line 0 when unknown). */
struct dcpi_inline {
	const char *name;
	const char *call_file;
	uint32_t call_line;
};

/* The inlined calls whose code holds `addr`, outermost first, at most
 * `max` (DWARF DW_TAG_inlined_subroutine scopes); 0 without DWARF or
 * without inlining there. */
size_t dcpi_elf_inlines(struct dcpi_elf *e, uint64_t addr,
			struct dcpi_inline *out, size_t max);

#endif
