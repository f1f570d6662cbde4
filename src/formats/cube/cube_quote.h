/* cube_quote: CubeLib writes two attributes of derived metrics without
 * quotes (Metric::writeXML: `<cubepl rowwise=false>` and `<cubeplaggr
 * cubeplaggrtype=plus>`, `=minus>`, `=aggr>`), which is not XML: expat
 * refuses the whole anchor.  cube_quote_feed quotes exactly those forms
 * in the stream before expat sees it, across the windows the anchor
 * arrives in (the last bytes of a window wait for the next).  Byte
 * offsets in expat's messages count the quoted text.  Must not depend on
 * curses or on another format. */
#ifndef CALLSCOPE_FORMATS_CUBE_CUBE_QUOTE_H
#define CALLSCOPE_FORMATS_CUBE_CUBE_QUOTE_H

#include <stdbool.h>
#include <stddef.h>

struct cube_quote {
	char *held;  /* bytes kept from the last window */
	size_t n_held;
	char *buf;   /* the text handed out */
	size_t cap;
};

/* The text to parse now: the held bytes and `data`, quoted, minus a tail
 * that may begin one of the forms (none when `last`).  *out stays valid
 * until the next call.  false: out of memory. */
bool cube_quote_feed(struct cube_quote *q, const void *data, size_t len,
		     bool last, const char **out, size_t *n);

void cube_quote_free(struct cube_quote *q);

#endif
