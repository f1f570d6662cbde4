/* registry_listing: procedure listings through the registry: the reader
 * a model's format names disassembles its own images (struct reader's
 * `listing`), so that views/ and cli/ ask for a listing knowing no
 * format.  Depends on core/ and the registry. */
#include "config.h"

#include "formats/reader.h"

#include <stdio.h>
#include <string.h>

static const struct reader *by_name(const char *format)
{
	for (const struct reader *const *r = reader_all(); format && *r; r++)
		if (strcmp((*r)->name, format) == 0)
			return *r;
	return NULL;
}

bool reader_has_listing(const char *format, char *names, size_t len)
{
	if (names && len) {
		size_t w = 0;
		names[0] = '\0';
		for (const struct reader *const *r = reader_all(); *r; r++) {
			if (!(*r)->listing)
				continue;
			int k = snprintf(names + w, len - w, "%s%s",
					 w ? ", " : "", (*r)->name);
			if (k < 0 || (size_t)k >= len - w)
				break;
			w += (size_t)k;
		}
	}
	const struct reader *r = by_name(format);
	return r && r->listing;
}

enum status reader_listing(const char *format, const char *image,
			   uint64_t addr, char **name, uint64_t *entry,
			   uint64_t *size, reader_insn_emit emit, void *ctx,
			   struct error *err)
{
	char names[256];
	const struct reader *r = by_name(format);
	if (!r || !r->listing) {
		reader_has_listing(format, names, sizeof(names));
		return error_set(err, STATUS_UNSUPPORTED, NULL,
				 "listings are for %s profiles, not %s",
				 names[0] ? names : "no", format ? format : "?");
	}
	return r->listing(image, addr, name, entry, size, emit, ctx, err);
}
