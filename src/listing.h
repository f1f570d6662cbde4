/* listing: the names in a web server's directory listing ("autoindex"
 * page of nginx, Apache or Python's http.server), for opening a database
 * from a directory URL.  A page is untrusted input: it is scanned for
 * `<a ... href=...>` links without an HTML library, and only links naming
 * a direct child of the listed directory survive.  Must not depend on
 * curses, ui/, the network or any HTML library. */
#ifndef CALLSCOPE_LISTING_H
#define CALLSCOPE_LISTING_H

#include <stdbool.h>
#include <stddef.h>

#include "status.h"

struct listing_entry {
	char *name;  /* percent- and entity-decoded, no trailing '/' */
	bool is_dir; /* the link ended in '/' */
};

/* Links of an autoindex page over `len` bytes of `html` (need not be
 * NUL-terminated, may hold NUL bytes).  Kept, in page order, each name
 * once (the first link to it decides is_dir): relative links to direct
 * children ("name", "name/", "./name", percent-encoded or with HTML
 * entities).  Dropped: parent links and "..", "." and the page itself,
 * links with a scheme ("http:", "mailto:") or to another host ("//host"),
 * absolute paths, links with a query or a fragment (Apache's sort links
 * "?C=N;O=D"), names that after decoding contain '/', NUL or a control
 * character, or are longer than 4096 bytes.
 *
 * `base_name` names the page in error messages (its URL); may be NULL.
 * When it is a URL ("http://host/dir/") or an absolute path ("/dir/"),
 * links spelled as that same URL or path followed by a child name are
 * kept too (some servers link "/dir/name"), a bare "/dir/" is the page
 * itself.
 *
 * *out is a malloc'd array of *n entries (NULL when 0) to be released with
 * listing_free.  Fails with STATUS_USAGE for NULL arguments, STATUS_LIMIT
 * for a page over 64 MiB or over 1,000,000 kept names, STATUS_NOMEM;
 * *out is NULL and *n 0 on failure. */
enum status listing_parse(const char *html, size_t len, const char *base_name,
			  struct listing_entry **out, size_t *n,
			  struct error *err);

/* Free what listing_parse returned (NULL is fine). */
void listing_free(struct listing_entry *entries, size_t n);

#endif
