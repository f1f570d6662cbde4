/* present_write: writing text from a database safely, for the batch
 * commands and the viewer's exports alike: a terminal string, one CSV
 * field, a JSON document (DEL and C1 controls escaped), a JSON string
 * from text that may not be UTF-8, a number as JSON (NaN and infinities
 * as strings) and a byte count for people.  Numbers in CSV and JSON are
 * the shortest text that reads back as the same double (638.016958, not
 * 638.01695800000005).  No curses here. */
#ifndef CALLSCOPE_PRESENT_WRITE_H
#define CALLSCOPE_PRESENT_WRITE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Write `s` sanitized for a terminal ("?" when out of memory). */
void present_put_text(FILE *out, const char *s);

/* Write `s` as one CSV field (quoted when needed), sanitized. */
void present_put_csv(FILE *out, const char *s);

/* `v` as the shortest of %.15g, %.16g and %.17g that strtod reads back as
 * exactly `v`, with '.' whatever the locale (nan, inf, -inf as printf
 * writes them), into `buf` of `size` bytes (32 hold any double).  Returns
 * the length. */
size_t present_number_text(double v, char *buf, size_t size);

/* A finite `v` as present_put_json writes a real of a document (jansson's
 * %.17g made present_number_text's shortest form, when not longer), into
 * `buf` of `size` >= 40 bytes; its length.  0 (and "") for NaN, the
 * infinities and a smaller buffer. */
size_t present_json_real_text(double v, char *buf, size_t size);

/* Write present_number_text(v). */
void present_put_number(FILE *out, double v);

/* Write `j` as JSON (json_dumps `flags`), DEL and C1 controls escaped
 * (sanitize_json), every real number in present_number_text's shortest
 * form (jansson writes %.17g); strings in `j` must be SANITIZE_UTF8 text.
 * False when
 * out of memory (nothing is written then). */
bool present_put_json(FILE *out, const json_t *j, size_t flags);

/* A JSON string of text from input (invalid UTF-8 repaired); null for
 * NULL. */
json_t *present_json_text(const char *s);

/* Write present_json_text(s) as present_put_json writes it (jansson's
 * escapes, then sanitize_json's), without building it: "null" for NULL. */
void present_put_json_string(FILE *out, const char *s);

/* `v` as a JSON number, NaN and infinities as the strings "nan", "inf",
 * "-inf" (Extra-P's dumps). */
json_t *present_json_number(double v);

/* `v` bytes as "512 B", "1.5 KiB", ... "2.0 TiB" into `buf`. */
void present_format_bytes(char *buf, size_t len, double v);

#endif
