/* dcpi_listing: Capstone over one procedure of an ELF image
 * (dcpi_listing.h).  Bytes Capstone cannot decode are listed one by one
 * as `.byte`, so the listing always covers the whole procedure.  Depends
 * on core/, formats/dcpi/dcpi_elf.h and Capstone. */
#include "config.h"

#include "formats/dcpi/dcpi_listing.h"

#include <capstone/capstone.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lazylib.h"
#include "formats/dcpi/dcpi_elf.h"

/* A procedure longer than this is refused (a bad symbol size). */
#define DCPI_LISTING_MAX (16u << 20)

static void hex_bytes(char *out, size_t cap, const uint8_t *b, size_t n)
{
	size_t w = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n && w + 4 <= cap; i++)
		w += (size_t)snprintf(out + w, cap - w, i ? " %02x" : "%02x",
				      b[i]);
}

/* Capstone's architecture and mode for ELF machine `machine`. */
static bool capstone_mode(unsigned machine, cs_arch *arch, cs_mode *mode)
{
	switch (machine) {
	case EM_X86_64:
		*arch = CS_ARCH_X86;
		*mode = CS_MODE_64;
		return true;
	case EM_386:
		*arch = CS_ARCH_X86;
		*mode = CS_MODE_32;
		return true;
	case EM_AARCH64:
		*arch = CS_ARCH_ARM64;
		*mode = CS_MODE_ARM;
		return true;
	default:
		return false;
	}
}

/* Every instruction of the `size` bytes of `code` at `entry`, with its
 * bytes and source line, to `emit`. */
static void emit_all(struct dcpi_elf *e, csh cs, cs_insn *insn,
		     const uint8_t *code, size_t size, uint64_t entry,
		     void (*emit)(void *ctx, const struct dcpi_insn *insn),
		     void *ctx)
{
	const uint8_t *p = code;
	size_t left = size;
	uint64_t a = entry;
	while (left > 0) {
		char bytes[3 * 16 + 1], text[192];
		struct dcpi_insn di = {.addr = a};
		const uint8_t *before = p;
		if (cs_disasm_iter(cs, &p, &left, &a, insn)) {
			di.size = insn->size;
			snprintf(text, sizeof(text), "%s%s%s", insn->mnemonic,
				 insn->op_str[0] ? " " : "", insn->op_str);
		} else {
			/* not decodable: one byte, and on */
			di.size = 1;
			snprintf(text, sizeof(text), ".byte 0x%02x", *p);
			p++;
			left--;
			a++;
		}
		hex_bytes(bytes, sizeof(bytes), before, di.size);
		di.bytes = bytes;
		di.text = text;
		if (!dcpi_elf_line(e, di.addr, &di.file, &di.line)) {
			di.file = NULL;
			di.line = 0;
		}
		emit(ctx, &di);
	}
}

enum status dcpi_listing(const char *path, uint64_t addr, char **name,
			 uint64_t *entry, uint64_t *size,
			 void (*emit)(void *ctx, const struct dcpi_insn *insn),
			 void *ctx, struct error *err)
{
	struct dcpi_elf *e = NULL;
	csh cs = 0;
	bool cs_opened = false;
	cs_insn *insn = NULL;
	const char *fname = NULL;
	const uint8_t *code = NULL;
	enum status st = dcpi_elf_open(path, &e, err);
	*name = NULL;
	if (st != STATUS_OK)
		return st;
	if (!dcpi_elf_function_range(e, addr, &fname, entry, size)) {
		st = error_set(err, STATUS_NOT_FOUND, path,
			       "no procedure symbol covers 0x%llx",
			       (unsigned long long)addr);
		goto out;
	}
	if (*size > DCPI_LISTING_MAX ||
	    !dcpi_elf_bytes(e, *entry, *size, &code)) {
		st = error_set(err, STATUS_CORRUPT, path,
			       "procedure %s: its %llu bytes at 0x%llx are not "
			       "in the file",
			       fname, (unsigned long long)*size,
			       (unsigned long long)*entry);
		goto out;
	}
	unsigned machine, elf_class;
	cs_arch arch;
	cs_mode mode;
	dcpi_elf_machine(e, &machine, &elf_class);
	if (!capstone_mode(machine, &arch, &mode)) {
		st = error_set(err, STATUS_UNSUPPORTED, path,
			       "no disassembler for ELF machine %u", machine);
		goto out;
	}
	(void)elf_class;
	if ((st = lazylib_require(LAZYLIB_CAPSTONE, err)) != STATUS_OK)
		goto out;
	if (cs_open(arch, mode, &cs) != CS_ERR_OK) {
		st = error_set(err, STATUS_UNSUPPORTED, path,
			       "Capstone cannot disassemble machine %u",
			       machine);
		goto out;
	}
	cs_opened = true;
	insn = cs_malloc(cs);
	if (!(*name = strdup(fname)) || !insn) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	emit_all(e, cs, insn, code, (size_t)*size, *entry, emit, ctx);
out:
	if (insn)
		cs_free(insn, 1);
	if (cs_opened)
		cs_close(&cs);
	dcpi_elf_close(e);
	if (st != STATUS_OK) {
		free(*name);
		*name = NULL;
	}
	return st;
}
