/* config_internal: what the files of the configuration parser share: a
 * load in progress (struct parse_ctx) and where a line came from, the
 * words of a line (config_words.c), the entries and warnings it stores
 * (config_store.c), the reading of a file (config_file.c).  Private to
 * config/. */
#ifndef CALLSCOPE_CONFIG_INTERNAL_H
#define CALLSCOPE_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "config/config_file.h"

/* The identity of a file being read, for cycle detection. */
struct source_id {
	dev_t dev;
	ino_t ino;
};

/* State of one top-level load (a file, a text or a theme) across the
 * files it sources. */
struct parse_ctx {
	struct config *c;
	struct error *err;
	bool theme;            /* only `color` lines are allowed */
	unsigned depth;        /* nested `source` levels now active */
	unsigned n_files;      /* files read so far */
	unsigned n_open;       /* entries of `open` in use */
	struct source_id open[CONFIG_SOURCE_DEPTH_MAX + 1];
};

/* Where a line came from, for warnings and for the entries it makes. */
struct where {
	const char *file;
	unsigned line;
};

enum lex {
	LEX_END,
	LEX_TOKEN,
	LEX_UNTERMINATED,
	LEX_NOMEM,
};

struct tokens {
	char **v;
	size_t n;
};

/* ---- config_store.c: the config being built ---- */

enum status config_nomem(struct parse_ctx *ctx);

/* Make room for element `n` of an array of `n` elements: the capacity
 * doubles when `n` is a power of two, so no capacity needs to be stored
 * (it is always more than `n`).  Returns the array, possibly moved, or NULL
 * when out of memory (the old array is still valid then). */
void *config_grow(void *array, size_t n, size_t size);

/* Record "FILE:LINE: problem" ("FILE: problem" when line is 0).  After
 * CONFIG_WARNINGS_MAX - 1 warnings one last says the rest are dropped. */
enum status config_warn(struct parse_ctx *ctx, struct where at,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Each takes ownership of its strings (freed on failure too); a later
 * entry of the same name replaces an earlier one. */
enum status config_store_option(struct parse_ctx *ctx, struct where at,
				char *name, char *value);
enum status config_store_binding(struct parse_ctx *ctx, struct where at,
				 char *keymap, char *key, char *action);
enum status config_store_derived(struct parse_ctx *ctx, struct where at,
				 char *name, char *formula);
/* A theme's colour never replaces one from a configuration file. */
enum status config_store_color(struct parse_ctx *ctx, struct where at,
			       struct config_color col);
void config_color_free(struct config_color *col);

/* ---- config_words.c: the words of a line ---- */

/* Option, keymap and derived-column names: [A-Za-z0-9_.-], not empty,
 * at most CONFIG_NAME_MAX bytes. */
bool config_valid_name(const char *s);

/* Theme names are file names without ".theme": a valid name that does not
 * start with '.' (so never "..", never a path). */
bool config_valid_theme_name(const char *s);

/* The next token at *pos: blanks separate tokens, "..." (with \" and \\)
 * and '...' quote, quoted and unquoted parts of one token concatenate, `#`
 * outside quotes ends the line.  With `split_eq`, an unquoted '=' is a
 * token of its own.  On LEX_TOKEN *out is a heap string. */
enum lex config_lex_token(const char **pos, bool split_eq, char **out);

void config_tokens_free(struct tokens *t);

/* Split the rest of a line into tokens.  Returns LEX_END when done,
 * LEX_UNTERMINATED or LEX_NOMEM on failure (t keeps what it has). */
enum lex config_lex_all(const char **pos, bool split_eq, struct tokens *t);

/* The tokens v[from..n) joined by single spaces (a heap string, "" when
 * there are none), or NULL when out of memory. */
char *config_tokens_join(const struct tokens *t, size_t from);

/* The raw rest of a line: up to a `#` outside quotes, blanks trimmed.
 * Returns LEX_TOKEN with a heap string, LEX_UNTERMINATED or LEX_NOMEM. */
enum lex config_lex_raw_rest(const char *p, char **out);

/* A colour ("default", "red", "bright-red", "color42", "42") and an
 * attribute name ("bold"), added to *bits. */
bool config_parse_color(const char *s, struct config_color_value *out);
bool config_parse_attr(const char *s, unsigned *bits);

/* ---- config_file.c: reading ---- */

/* Parse `len` bytes of `text` named `name` in messages. */
enum status config_parse_buffer(struct parse_ctx *ctx, const char *text,
				size_t len, const char *name);

/* Read the file at `path` and parse it.  `from` is the `source` line that
 * asked for it (line 0 for a top-level load). */
enum status config_load_path(struct parse_ctx *ctx, const char *path,
			     struct where from, bool missing_ok);

#endif
