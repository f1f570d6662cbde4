/* keys: names of keys as written in the config and shown in the help
 * ("Up", "PgDn", "Enter", "C-l", "F1", "q") and the curses key codes they
 * stand for. */
#ifndef CALLSCOPE_UI_KEYS_H
#define CALLSCOPE_UI_KEYS_H

#include <stddef.h>

/* The key code for a name, or -1 when the name is unknown.  The name may
 * be in angle brackets ("<Enter>", "<C-q>"): the same key. */
int keys_parse(const char *name);

/* The name of a key code into `buf` (at least 16 bytes); returns buf. */
const char *keys_name(int key, char *buf, size_t size);

#endif
