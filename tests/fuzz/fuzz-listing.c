/* fuzz-listing: libFuzzer target for autoindex page parsing.  The input is
 * a page; every name kept must be non-empty, unique, without '/', NUL or
 * control characters, and neither "." nor ".." (the run traps otherwise).
 * Links the engine only. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/listing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct listing_entry *e = NULL;
	size_t n = 0;
	struct error err = {.status = STATUS_OK};
	if (listing_parse((const char *)data, size, "http://h/dir/", NULL, &e, &n,
			  &err) != STATUS_OK)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const char *s = e[i].name;
		size_t len = strlen(s);
		if (len == 0 || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
			__builtin_trap();
		for (size_t k = 0; k < len; k++) {
			unsigned char c = (unsigned char)s[k];
			if (c < 0x20 || c == 0x7f || c == '/')
				__builtin_trap();
		}
		/* the pages fuzzed are small: quadratic is fine */
		for (size_t j = 0; j < i; j++)
			if (strcmp(e[j].name, s) == 0)
				__builtin_trap();
	}
out:
	listing_free(e, n);
	error_clear(&err);
	return 0;
}
