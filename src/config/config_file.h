/* config_file: the parser of callscope's configuration files and themes
 * (module prefix `config_`; the file is not called config.h because that is
 * the name of the header autoconf generates, which src/main.c includes).
 *
 * A configuration is a text file of lines, after tig:
 *
 *     set NAME = VALUE            an option (the last `set` of a name wins)
 *     bind KEYMAP KEY ACTION      a key binding (later ones override the
 *                                 same KEYMAP and KEY)
 *     color ROLE FG BG [ATTR...]  the look of a drawing role (per role, the
 *                                 last one wins)
 *     theme NAME                  the theme to load (NAME.theme)
 *     source PATH                 read another file here
 *     derive NAME = FORMULA       a user-derived metric column
 *
 * A theme is a file of `color` lines only.  Malformed lines never fail a
 * load: each becomes a warning "FILE:LINE: problem" and the rest of the
 * file still applies, so the program carries on with defaults.  Only running
 * out of memory (or a NULL config) is an error.  Option names, keymaps, key
 * names and actions are kept as strings: the UI checks them against its
 * action table.  doc/config.md describes the format for users.
 *
 * The parser is engine code so that it can be unit-tested and fuzzed: it
 * must not depend on curses or on ui/. */
#ifndef CALLSCOPE_CONFIG_FILE_H
#define CALLSCOPE_CONFIG_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/status.h"
#include "config/theme_roles.h"

/* Limits.  A longer line, a larger file or deeper `source` nesting is a
 * warning and is skipped. */
#define CONFIG_LINE_MAX 4096          /* bytes per line, without the newline */
#define CONFIG_FILE_MAX (1u << 20)    /* bytes per file */
#define CONFIG_SOURCE_DEPTH_MAX 16    /* nested `source` levels */
#define CONFIG_SOURCE_FILES_MAX 256   /* files read by one top-level load */
#define CONFIG_NAME_MAX 64            /* option, keymap and derived names */
#define CONFIG_KEY_MAX 32             /* key names in `bind` */
#define CONFIG_ENTRIES_MAX 1024       /* options, bindings, derived columns */
#define CONFIG_WARNINGS_MAX 100       /* the last says further ones dropped */

/* `set NAME = VALUE`.  VALUE is the tokens after the first `=`, unquoted
 * and joined by single spaces (may be empty). */
struct config_option {
	char *name;
	char *value;
	char *file;
	unsigned line;
};

/* `bind KEYMAP KEY ACTION`.  ACTION is the remaining tokens, unquoted and
 * joined by single spaces. */
struct config_binding {
	char *keymap;
	char *key;
	char *action;
	char *file;
	unsigned line;
};

enum config_color_kind {
	CONFIG_COLOR_DEFAULT, /* the terminal's own colour */
	CONFIG_COLOR_INDEX,   /* `index` is 0-255 (0-7 the basic colours,
				 8-15 their bright variants) */
};

struct config_color_value {
	enum config_color_kind kind;
	int index;
};

enum config_attr {
	CONFIG_ATTR_BOLD = 1u << 0,
	CONFIG_ATTR_REVERSE = 1u << 1,
	CONFIG_ATTR_UNDERLINE = 1u << 2,
	CONFIG_ATTR_DIM = 1u << 3,
	CONFIG_ATTR_STANDOUT = 1u << 4,
	CONFIG_ATTR_ITALIC = 1u << 5,
	CONFIG_ATTR_BLINK = 1u << 6,
};

/* `color ROLE FG BG [ATTR...]`.  `attrs` is a set of CONFIG_ATTR_* bits.
 * `from_theme` is set when the line came from a theme (config_load_theme)
 * rather than from a configuration file. */
struct config_color {
	enum theme_role role;
	struct config_color_value fg, bg;
	unsigned attrs;
	bool from_theme;
	char *file;
	unsigned line;
};

/* `derive NAME = FORMULA`.  FORMULA is the rest of the line after `=` as
 * written (quotes kept, comment and surrounding blanks removed); the
 * metrics code parses it.  A later `derive` of the same name replaces it. */
struct config_derived {
	char *name;
	char *formula;
	char *file;
	unsigned line;
};

/* Everything read so far.  The arrays hold one entry per option name, per
 * keymap+key, per role and per derived name, in order of first appearance.
 * `theme` is the last `theme` line's name (NULL when none).  `warnings` are
 * heap strings "FILE:LINE: problem", already safe to show on a terminal. */
struct config {
	struct config_option *options;
	size_t n_options;
	struct config_binding *bindings;
	size_t n_bindings;
	struct config_color *colors;
	size_t n_colors;
	struct config_derived *derived;
	size_t n_derived;
	char *theme;
	char **warnings;
	size_t n_warnings;
	/* When set, `source` lines are warnings and are not followed (fuzz
	 * targets, which must not read arbitrary files). */
	bool source_disabled;
};

/* An empty configuration (no options, no colours, no warnings). */
void config_init(struct config *c);

/* Free everything and leave `c` empty, as after config_init.  NULL is
 * allowed, as is calling it twice. */
void config_free(struct config *c);

/* Parse `len` bytes of configuration text (a file's contents, which need
 * not be NUL-terminated and may hold any bytes).  `name` is used in
 * warnings ("<default>" when NULL); a `source` with a relative path is
 * resolved against the directory of `name` (the current directory when
 * `name` has no '/').  Adds to what `c` holds; later lines override earlier
 * ones.  Returns STATUS_OK unless out of memory (STATUS_NOMEM) or `c` is
 * NULL (STATUS_USAGE); `text` may be NULL when `len` is 0. */
enum status config_parse_text(struct config *c, const char *text, size_t len,
			      const char *name, struct error *err);

/* Read and parse the file at `path`.  A missing file is not a problem: it
 * returns STATUS_OK and adds nothing (no user config is the usual case).
 * A file that cannot be read (a directory, no permission) or is larger
 * than CONFIG_FILE_MAX becomes a warning "PATH: problem".  Returns
 * STATUS_NOMEM or STATUS_USAGE (NULL arguments) only. */
enum status config_load_file(struct config *c, const char *path,
			     struct error *err);

/* $XDG_CONFIG_HOME/callscope/config when XDG_CONFIG_HOME is set to an
 * absolute path, else $HOME/.config/callscope/config.  A heap string, or
 * NULL when neither variable is usable or out of memory. */
char *config_default_path(void);

/* The user's theme directory: $XDG_CONFIG_HOME/callscope/themes, else
 * $HOME/.config/callscope/themes; NULL as for config_default_path. */
char *config_user_theme_dir(void);

/* Apply a theme's colours.  First every colour that came from a theme is
 * dropped and the compiled-in default theme applied, so a partial theme
 * falls back to the default per role; then NAME.theme is read from the
 * first directory holding it: the user's theme directory, then each of
 * `dirs` (a NULL-terminated list, e.g. the installed data directory and the
 * source tree's themes/; `dirs` may be NULL).  Colours from `color` lines
 * of configuration files always win over the theme's.  The theme "default"
 * not found in any directory is the compiled-in one.  Only `color` lines
 * are allowed in a theme; other lines are warnings.  On success c->theme
 * is set to `name`.
 *
 * A name that is empty, starts with '.' or holds '/' is STATUS_USAGE; a
 * theme found nowhere is STATUS_NOT_FOUND (err says where it looked); in
 * both cases the default theme has been applied.  STATUS_NOMEM as usual. */
enum status config_load_theme(struct config *c, const char *name,
			      const char *const *dirs, struct error *err);

/* The default theme's text (themes/default.theme, compiled in). */
extern const char config_default_theme[];

/* Append `line` and a newline to the file at `path` (for `:derive`),
 * creating the file and missing parent directories.  One write(2) in
 * append mode; a newline is written first when the file does not end with
 * one.  A line holding a newline or carriage return is STATUS_USAGE;
 * system failures are STATUS_IO with the reason. */
enum status config_append_line(const char *path, const char *line,
			       struct error *err);

#endif
