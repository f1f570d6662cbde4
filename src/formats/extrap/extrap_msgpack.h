/* extrap_msgpack: the first MessagePack object of a file's bytes as a
 * msgpack-c object tree (msgpack_object in a msgpack_zone), for the
 * Extra-Prof reader (extrap_prof.c).  msgpack-c's own msgpack_unpack_next
 * stops at 32 nested containers (an Extra-Prof call tree 15 levels deep),
 * so the library's unpacker template is instantiated here with a deeper
 * stack; and before it runs, a checked walk over the bytes refuses what
 * would make it allocate for data that is not there (a container or a
 * string whose count exceeds the bytes left) or nest past the stack.
 * Must not depend on curses, on ui/ or on another format. */
#ifndef CALLSCOPE_EXTRAP_MSGPACK_H
#define CALLSCOPE_EXTRAP_MSGPACK_H

#include <stddef.h>

#include <msgpack.h>

#include "core/status.h"

/* The most nested containers read (an Extra-Prof node is two). */
#define EXTRAP_MSGPACK_MAX_DEPTH 1000

/* Decode the first object of `len` bytes into *out, allocated in `zone`
 * (which the caller made with msgpack_zone_new and frees).
 * STATUS_CORRUPT naming `path` (truncated, a bad byte, a count beyond the
 * data, nesting too deep), STATUS_NOMEM. */
enum status extrap_msgpack_read(const char *data, size_t len,
				msgpack_zone *zone, msgpack_object *out,
				const char *path, struct error *err);

#endif
