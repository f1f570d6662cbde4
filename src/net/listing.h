/* listing: the names in a web server's directory listing ("autoindex"
 * page of nginx, Apache or Python's http.server), for opening a database
 * from a directory URL.  A page is untrusted input: libxml2's HTML parser
 * reads it (as a stream of start tags: no tree, no network, no external
 * entities), libcurl's URL API resolves each `<a href>` against the page's
 * URL, and only links naming a direct child of the listed directory
 * survive.  Must not depend on curses, ui/ or the network. */
#ifndef CALLSCOPE_LISTING_H
#define CALLSCOPE_LISTING_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/status.h"

struct listing_entry {
	char *name;  /* percent- and entity-decoded, no trailing '/' */
	bool is_dir; /* the link ended in '/' */
};

/* Links of an autoindex page over `len` bytes of `html` (need not be
 * NUL-terminated, may hold NUL bytes), read as a browser reads HTML (tag
 * and attribute names in any case, quoted or bare values, every HTML
 * character reference, broken markup repaired, nothing inside comments,
 * <script> or <style>).  Each href, stripped of surrounding spaces, is
 * resolved against the page's URL as a browser does; kept, in page order,
 * each name once (the first link to it decides is_dir), are links that
 * land on a direct child of the listed directory ("name", "name/",
 * "./name", "/dir/name", "http://host/dir/name", percent-encoded); the
 * name is the percent-decoded last segment.  Dropped: parent links and
 * "..", "." and the page itself, links to another scheme, host or port
 * ("mailto:", "//other/"), anything deeper or elsewhere on the server,
 * links with a query or a fragment (Apache's sort links "?C=N;O=D"), links
 * holding a raw '\' (a browser reads it as '/'), names that after decoding
 * contain '/', NUL or a control character, or are longer than 4096 bytes.
 *
 * `base_name` is the page's URL ("http://host/dir/"; a missing trailing
 * '/', a query and a fragment are ignored: a listing names a directory)
 * or its absolute path on an unknown host ("/dir/"), and names the page in
 * error messages; may be NULL.  When it is NULL or neither, only relative
 * links can name children: absolute paths and links with a scheme are
 * dropped.
 *
 * *out is a malloc'd array of *n entries (NULL when 0) to be released with
 * listing_free.  Fails with STATUS_USAGE for NULL arguments, STATUS_LIMIT
 * for a page over 64 MiB, over 1,000,000 kept names, with a tag, comment
 * or script over 128 KiB or elements nested over 128 deep (HTML's parser
 * takes time quadratic in those), STATUS_NOMEM, and STATUS_IO "cancelled"
 * once `cancel` (may be NULL; polled every 64 KiB) is non-zero; *out is
 * NULL and *n 0 on failure. */
enum status listing_parse(const char *html, size_t len, const char *base_name,
			  volatile sig_atomic_t *cancel,
			  struct listing_entry **out, size_t *n,
			  struct error *err);

/* Free what listing_parse returned (NULL is fine). */
void listing_free(struct listing_entry *entries, size_t n);

#endif
