/* sanitize: the one place where text that came from input (names, paths,
 * titles, identifier names, messages quoting input) is made safe to show.
 *
 * Terminal mode: C0 controls, DEL and ESC become visible escapes (\x1b),
 * C1 controls (U+0080..U+009F) become \u{9b}, invalid UTF-8 bytes become
 * U+FFFD.  UTF-8 mode only repairs encoding (for JSON, whose encoder escapes
 * controls itself; sanitize_json then escapes the DEL and C1 controls its
 * encoder leaves raw).  Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_SANITIZE_H
#define CALLSCOPE_SANITIZE_H

#include <stddef.h>

enum sanitize_mode {
	SANITIZE_TERMINAL, /* safe to write to a terminal or a text file */
	SANITIZE_UTF8,     /* valid UTF-8, controls kept */
};

/* A heap copy of `s` made safe per `mode`; NULL only when out of memory.
 * NULL input gives "". */
char *sanitize_text(const char *s, enum sanitize_mode mode);

/* A heap copy of the JSON text `json` (valid UTF-8, as jansson writes it
 * from SANITIZE_UTF8 strings) in which DEL and the C1 controls, which JSON
 * allows raw inside strings, are written as \u007f and \u0080..\u009f, so
 * that no control reaches a terminal; the parsed strings are unchanged.
 * NULL only when out of memory; NULL input gives "". */
char *sanitize_json(const char *json);

/* Length in bytes of the valid UTF-8 sequence at `s` (1..4), or 0 when the
 * bytes at `s` are not valid UTF-8 (overlong, surrogate, truncated). */
size_t sanitize_utf8_len(const unsigned char *s, size_t avail);

#endif
