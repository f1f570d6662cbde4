/* dcpi_elf: ELF symbols through libelf and DWARF lines through libdw for
 * the DCPI reader (dcpi_elf.h).  The image is untrusted input like the
 * profile: libelf checks the section table; symbol names are copied out
 * and sanitized only where shown.  Depends on core/ and elfutils (loaded
 * on the first open: core/lazylib). */
#include "config.h"

#include "core/array.h"
#include "formats/dcpi/dcpi_elf.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/lazylib.h"

struct sym {
	uint64_t addr, size;
	char *name;
};

struct dcpi_elf {
	int fd;
	Elf *elf;
	Dwarf *dw; /* NULL without DWARF */
	bool has_text;
	uint64_t text_addr, text_size;
	struct sym *syms; /* sorted by address, sizes filled in */
	size_t n_syms;
};

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* the sized symbol first, then by name for a stable order */
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Function symbols of the section of type `type` (SHT_SYMTAB or
 * SHT_DYNSYM); false when out of memory. */
static bool read_syms(struct dcpi_elf *e, GElf_Word type)
{
	Elf_Scn *scn = NULL;
	size_t cap = 0;
	while ((scn = elf_nextscn(e->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type ||
		    sh.sh_entsize == 0)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		size_t n = d->d_size / sh.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym s;
			if (!gelf_getsym(d, (int)i, &s))
				break;
			if (GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    s.st_shndx == SHN_UNDEF || s.st_value == 0)
				continue;
			const char *nm = elf_strptr(e->elf, sh.sh_link,
						    s.st_name);
			if (!nm || !*nm)
				continue;
			char *copy = NULL;
			if (!array_grow((void **)&e->syms, &cap, e->n_syms + 1,
					sizeof(*e->syms)) ||
			    !(copy = strdup(nm)))
				return false;
			e->syms[e->n_syms++] = (struct sym){
				.addr = s.st_value, .size = s.st_size,
				.name = copy};
		}
	}
	return true;
}

enum status dcpi_elf_open(const char *path, struct dcpi_elf **out,
			  struct error *err)
{
	*out = NULL;
	enum status need = lazylib_require(LAZYLIB_ELF, err);
	if (need != STATUS_OK || (need = lazylib_require(LAZYLIB_DW, err)))
		return need;
	struct dcpi_elf *e = calloc(1, sizeof(*e));
	if (!e)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	e->fd = -1;
	enum status st = STATUS_OK;
	elf_version(EV_CURRENT);
	e->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (e->fd < 0) {
		st = error_set(err, STATUS_NOT_FOUND, path, "cannot open");
		goto out;
	}
	e->elf = elf_begin(e->fd, ELF_C_READ_MMAP, NULL);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF) {
		st = error_set(err, STATUS_NOT_DATABASE, path, "not ELF");
		goto out;
	}
	size_t shstrndx;
	if (elf_getshdrstrndx(e->elf, &shstrndx) == 0) {
		Elf_Scn *scn = NULL;
		while ((scn = elf_nextscn(e->elf, scn)) != NULL) {
			GElf_Shdr sh;
			if (!gelf_getshdr(scn, &sh))
				continue;
			const char *nm = elf_strptr(e->elf, shstrndx,
						    sh.sh_name);
			if (nm && strcmp(nm, ".text") == 0) {
				e->has_text = true;
				e->text_addr = sh.sh_addr;
				e->text_size = sh.sh_size;
			}
		}
	}
	if (!read_syms(e, SHT_SYMTAB)) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	if (e->n_syms == 0 && !read_syms(e, SHT_DYNSYM)) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	if (e->n_syms)
		qsort(e->syms, e->n_syms, sizeof(*e->syms), sym_cmp);
	/* drop aliases at the same address (keep the first), then give
	 * each size-0 symbol the distance to the next one */
	size_t w = 0;
	for (size_t i = 0; i < e->n_syms; i++) {
		if (w && e->syms[w - 1].addr == e->syms[i].addr) {
			free(e->syms[i].name);
			continue;
		}
		e->syms[w++] = e->syms[i];
	}
	e->n_syms = w;
	for (size_t i = 0; i < e->n_syms; i++)
		if (e->syms[i].size == 0)
			e->syms[i].size = i + 1 < e->n_syms
				? e->syms[i + 1].addr - e->syms[i].addr
				: e->has_text &&
					  e->text_addr + e->text_size >
						  e->syms[i].addr
				? e->text_addr + e->text_size - e->syms[i].addr
				: 1;
	e->dw = dwarf_begin_elf(e->elf, DWARF_C_READ, NULL);
out:
	if (st != STATUS_OK) {
		dcpi_elf_close(e);
		return st;
	}
	*out = e;
	return STATUS_OK;
}

void dcpi_elf_close(struct dcpi_elf *e)
{
	if (!e)
		return;
	if (e->dw)
		dwarf_end(e->dw);
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	for (size_t i = 0; i < e->n_syms; i++)
		free(e->syms[i].name);
	free(e->syms);
	free(e);
}

bool dcpi_elf_text(const struct dcpi_elf *e, uint64_t *addr, uint64_t *size)
{
	if (!e->has_text)
		return false;
	*addr = e->text_addr;
	*size = e->text_size;
	return true;
}

bool dcpi_elf_function(const struct dcpi_elf *e, uint64_t addr,
		       const char **name, uint64_t *entry)
{
	uint64_t size;
	return dcpi_elf_function_range(e, addr, name, entry, &size);
}

static bool sym_at_or_before(const void *elem, const void *key)
{
	return ((const struct sym *)elem)->addr <= *(const uint64_t *)key;
}

bool dcpi_elf_function_range(const struct dcpi_elf *e, uint64_t addr,
			     const char **name, uint64_t *entry,
			     uint64_t *size)
{
	/* the last symbol starting at or before addr */
	size_t lo = array_lower_bound(e->syms, e->n_syms, sizeof(*e->syms),
				      sym_at_or_before, &addr);
	if (lo == 0)
		return false;
	const struct sym *s = &e->syms[lo - 1];
	if (addr - s->addr >= s->size)
		return false;
	*name = s->name;
	*entry = s->addr;
	*size = s->size;
	return true;
}

bool dcpi_elf_bytes(const struct dcpi_elf *e, uint64_t addr, uint64_t len,
		    const uint8_t **out)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || addr < sh.sh_addr ||
		    addr - sh.sh_addr >= sh.sh_size)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		uint64_t off = addr - sh.sh_addr;
		if (!d || !d->d_buf || d->d_size < off ||
		    len > d->d_size - off)
			return false;
		*out = (const uint8_t *)d->d_buf + off;
		return true;
	}
	return false;
}

void dcpi_elf_machine(const struct dcpi_elf *e, unsigned *machine,
		      unsigned *elf_class)
{
	GElf_Ehdr eh;
	*machine = 0;
	*elf_class = (unsigned)gelf_getclass(e->elf);
	if (gelf_getehdr(e->elf, &eh))
		*machine = eh.e_machine;
}

bool dcpi_elf_line(struct dcpi_elf *e, uint64_t addr, const char **file,
		   uint32_t *line)
{
	if (!e->dw)
		return false;
	Dwarf_Die cu;
	if (!dwarf_addrdie(e->dw, addr, &cu))
		return false;
	Dwarf_Line *l = dwarf_getsrc_die(&cu, addr);
	if (!l)
		return false;
	int ln = 0;
	const char *f = dwarf_linesrc(l, NULL, NULL);
	if (!f || dwarf_lineno(l, &ln) != 0 || ln <= 0)
		return false;
	*file = f;
	*line = (uint32_t)ln;
	return true;
}

size_t dcpi_elf_inlines(struct dcpi_elf *e, uint64_t addr,
			struct dcpi_inline *out, size_t max)
{
	Dwarf_Die cu, *scopes = NULL;
	if (!e->dw || max == 0 || !dwarf_addrdie(e->dw, addr, &cu))
		return 0;
	int n = dwarf_getscopes(&cu, addr, &scopes);
	if (n <= 0)
		return 0;
	Dwarf_Files *files = NULL;
	size_t n_files = 0;
	if (dwarf_getsrcfiles(&cu, &files, &n_files) != 0)
		files = NULL;
	/* scopes run from the innermost outwards: fill from the end */
	size_t t = 0;
	for (int i = 0; i < n; i++)
		t += dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine;
	/* deeper than `max`: the outermost `max` */
	size_t skip = t > max ? t - max : 0, k = t - skip, w = k;
	for (int i = 0; i < n && w > 0; i++) {
		Dwarf_Die *d = &scopes[i];
		if (dwarf_tag(d) != DW_TAG_inlined_subroutine)
			continue;
		if (skip) {
			skip--;
			continue;
		}
		Dwarf_Attribute at;
		Dwarf_Word v;
		struct dcpi_inline in = {0};
		in.name = dwarf_formstring(
			dwarf_attr_integrate(d, DW_AT_name, &at));
		if (!in.name)
			in.name = "<inlined>";
		if (dwarf_attr(d, DW_AT_call_line, &at) &&
		    dwarf_formudata(&at, &v) == 0 && v <= UINT32_MAX)
			in.call_line = (uint32_t)v;
		if (files && dwarf_attr(d, DW_AT_call_file, &at) &&
		    dwarf_formudata(&at, &v) == 0 && v < n_files)
			in.call_file = dwarf_filesrc(files, v, NULL, NULL);
		out[--w] = in;
	}
	free(scopes);
	return k;
}
