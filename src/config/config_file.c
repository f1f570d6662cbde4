/* config_file: reads configuration files and themes (`set`, `bind`, `color`,
 * `theme`, `source`, `derive` lines) into a struct config.  Every problem in
 * the input is a warning naming the file and line; only a lack of memory
 * stops a load.  Files are read through blob; `source` nesting is bounded
 * in depth, in number of files and checked for cycles.  Must not depend on
 * curses or on ui/. */
#include "config.h"

#include "config/config_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/blob.h"
#include "core/sanitize.h"

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

static const char default_name[] = "<default>";

/* ---- small helpers ---------------------------------------------------- */

static enum status nomem(struct parse_ctx *ctx)
{
	return error_set(ctx->err, STATUS_NOMEM, NULL, "out of memory");
}

/* Make room for element `n` of an array of `n` elements: the capacity
 * doubles when `n` is a power of two, so no capacity needs to be stored
 * (it is always more than `n`).  Returns the array, possibly moved, or NULL
 * when out of memory (the old array is still valid then). */
static void *grow(void *array, size_t n, size_t size)
{
	if (n != 0 && (n & (n - 1)) != 0)
		return array;
	return realloc(array, (n ? n * 2 : 1) * size);
}

static enum status add_warning_text(struct parse_ctx *ctx, char *text)
{
	struct config *c = ctx->c;
	char *safe = sanitize_text(text, SANITIZE_TERMINAL);
	free(text);
	char **warnings = safe ? grow(c->warnings, c->n_warnings,
				      sizeof(*c->warnings))
			       : NULL;
	if (!warnings) {
		free(safe);
		return nomem(ctx);
	}
	c->warnings = warnings;
	c->warnings[c->n_warnings++] = safe;
	return STATUS_OK;
}

/* Record "FILE:LINE: problem" ("FILE: problem" when line is 0).  After
 * CONFIG_WARNINGS_MAX - 1 warnings one last says the rest are dropped. */
__attribute__((format(printf, 3, 4))) static enum status
warn(struct parse_ctx *ctx, struct where at, const char *fmt, ...)
{
	struct config *c = ctx->c;
	char *problem = NULL;
	char *text = NULL;
	int n;
	if (c->n_warnings >= CONFIG_WARNINGS_MAX)
		return STATUS_OK;
	if (c->n_warnings == CONFIG_WARNINGS_MAX - 1) {
		problem = strdup("too many warnings; further ones are not "
				 "shown");
		n = problem ? 0 : -1;
	} else {
		va_list ap;
		va_start(ap, fmt);
		n = vasprintf(&problem, fmt, ap);
		va_end(ap);
	}
	if (n < 0)
		return nomem(ctx);
	if (at.line)
		n = asprintf(&text, "%s:%u: %s", at.file, at.line, problem);
	else
		n = asprintf(&text, "%s: %s", at.file, problem);
	free(problem);
	return n < 0 ? nomem(ctx) : add_warning_text(ctx, text);
}

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' ||
	       ch == '\f';
}

/* Option, keymap and derived-column names: [A-Za-z0-9_.-], not empty,
 * at most CONFIG_NAME_MAX bytes. */
static bool valid_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > CONFIG_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' ||
		      ch == '.'))
			return false;
	}
	return true;
}

/* Theme names are file names without ".theme": a valid name that does not
 * start with '.' (so never "..", never a path). */
static bool valid_theme_name(const char *s)
{
	return s && valid_name(s) && s[0] != '.';
}

/* ---- tokens ----------------------------------------------------------- */

enum lex {
	LEX_END,
	LEX_TOKEN,
	LEX_UNTERMINATED,
	LEX_NOMEM,
};

/* The next token at *pos: blanks separate tokens, "..." (with \" and \\)
 * and '...' quote, quoted and unquoted parts of one token concatenate, `#`
 * outside quotes ends the line.  With `split_eq`, an unquoted '=' is a
 * token of its own.  On LEX_TOKEN *out is a heap string. */
static enum lex lex_token(const char **pos, bool split_eq, char **out)
{
	const char *p = *pos;
	while (is_blank(*p))
		p++;
	if (*p == '\0' || *p == '#') {
		*pos = p;
		return LEX_END;
	}
	char *tok = malloc(strlen(p) + 1);
	if (!tok)
		return LEX_NOMEM;
	size_t n = 0;
	if (split_eq && *p == '=') {
		tok[n++] = *p++;
	} else {
		while (*p && !is_blank(*p) && *p != '#' &&
		       !(split_eq && *p == '=')) {
			char q = *p;
			if (q != '"' && q != '\'') {
				tok[n++] = *p++;
				continue;
			}
			p++;
			while (*p && *p != q) {
				if (q == '"' && *p == '\\' &&
				    (p[1] == '"' || p[1] == '\\'))
					p++;
				tok[n++] = *p++;
			}
			if (*p != q) {
				free(tok);
				*pos = p;
				return LEX_UNTERMINATED;
			}
			p++;
		}
	}
	tok[n] = '\0';
	*pos = p;
	*out = tok;
	return LEX_TOKEN;
}

struct tokens {
	char **v;
	size_t n;
};

static void tokens_free(struct tokens *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

/* Split the rest of a line into tokens.  Returns LEX_END when done,
 * LEX_UNTERMINATED or LEX_NOMEM on failure (t keeps what it has). */
static enum lex lex_all(const char **pos, bool split_eq, struct tokens *t)
{
	for (;;) {
		char *tok = NULL;
		enum lex l = lex_token(pos, split_eq, &tok);
		if (l != LEX_TOKEN)
			return l;
		char **v = grow(t->v, t->n, sizeof(*t->v));
		if (!v) {
			free(tok);
			return LEX_NOMEM;
		}
		t->v = v;
		t->v[t->n++] = tok;
	}
}

/* The tokens v[from..n) joined by single spaces (a heap string, "" when
 * there are none), or NULL when out of memory. */
static char *tokens_join(const struct tokens *t, size_t from)
{
	size_t len = 1;
	for (size_t i = from; i < t->n; i++)
		len += strlen(t->v[i]) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	size_t n = 0;
	for (size_t i = from; i < t->n; i++) {
		if (i > from)
			s[n++] = ' ';
		size_t k = strlen(t->v[i]);
		memcpy(s + n, t->v[i], k);
		n += k;
	}
	s[n] = '\0';
	return s;
}

/* The raw rest of a line: up to a `#` outside quotes, blanks trimmed.
 * Returns LEX_TOKEN with a heap string, LEX_UNTERMINATED or LEX_NOMEM. */
static enum lex lex_raw_rest(const char *p, char **out)
{
	while (is_blank(*p))
		p++;
	const char *end = p;
	while (*end && *end != '#') {
		char q = *end++;
		if (q != '"' && q != '\'')
			continue;
		while (*end && *end != q) {
			if (q == '"' && *end == '\\' &&
			    (end[1] == '"' || end[1] == '\\'))
				end++;
			end++;
		}
		if (*end != q)
			return LEX_UNTERMINATED;
		end++;
	}
	while (end > p && is_blank(end[-1]))
		end--;
	char *s = strndup(p, (size_t)(end - p));
	if (!s)
		return LEX_NOMEM;
	*out = s;
	return LEX_TOKEN;
}

/* ---- colours ---------------------------------------------------------- */

static const char *const basic_colors[8] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

static const struct {
	const char *name;
	unsigned bit;
} attr_names[] = {
	{.name = "normal", .bit = 0},
	{.name = "bold", .bit = CONFIG_ATTR_BOLD},
	{.name = "reverse", .bit = CONFIG_ATTR_REVERSE},
	{.name = "underline", .bit = CONFIG_ATTR_UNDERLINE},
	{.name = "dim", .bit = CONFIG_ATTR_DIM},
	{.name = "standout", .bit = CONFIG_ATTR_STANDOUT},
	{.name = "italic", .bit = CONFIG_ATTR_ITALIC},
	{.name = "blink", .bit = CONFIG_ATTR_BLINK},
};

/* 0-255 written as 1-3 decimal digits. */
static bool parse_color_number(const char *s, int *out)
{
	size_t n = strlen(s);
	if (n == 0 || n > 3)
		return false;
	int v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v > 255)
		return false;
	*out = v;
	return true;
}

static bool parse_color(const char *s, struct config_color_value *out)
{
	int index;
	if (strcmp(s, "default") == 0) {
		*out = (struct config_color_value){.kind = CONFIG_COLOR_DEFAULT};
		return true;
	}
	const char *base = s;
	int offset = 0;
	if (strncmp(s, "bright-", 7) == 0) {
		base = s + 7;
		offset = 8;
	}
	for (int i = 0; i < 8; i++) {
		if (strcmp(base, basic_colors[i]) == 0) {
			*out = (struct config_color_value){
				.kind = CONFIG_COLOR_INDEX,
				.index = i + offset,
			};
			return true;
		}
	}
	if (strncmp(s, "color", 5) == 0)
		s += 5;
	if (!parse_color_number(s, &index))
		return false;
	*out = (struct config_color_value){.kind = CONFIG_COLOR_INDEX,
					   .index = index};
	return true;
}

static bool parse_attr(const char *s, unsigned *bits)
{
	for (size_t i = 0; i < sizeof(attr_names) / sizeof(attr_names[0]);
	     i++) {
		if (strcmp(s, attr_names[i].name) == 0) {
			*bits |= attr_names[i].bit;
			return true;
		}
	}
	return false;
}

/* ---- storing entries -------------------------------------------------- */

static void option_free(struct config_option *o)
{
	free(o->name);
	free(o->value);
	free(o->file);
}

static void binding_free(struct config_binding *b)
{
	free(b->keymap);
	free(b->key);
	free(b->action);
	free(b->file);
}

static void color_free(struct config_color *col)
{
	free(col->file);
}

static void derived_free(struct config_derived *d)
{
	free(d->name);
	free(d->formula);
	free(d->file);
}

/* Takes ownership of `name` and `value` (freed on failure too). */
static enum status store_option(struct parse_ctx *ctx, struct where at,
				char *name, char *value)
{
	struct config *c = ctx->c;
	enum status st = STATUS_OK;
	char *file = strdup(at.file);
	if (!file) {
		st = nomem(ctx);
		goto out;
	}
	size_t i = 0;
	while (i < c->n_options && strcmp(c->options[i].name, name) != 0)
		i++;
	if (i == c->n_options) {
		if (c->n_options >= CONFIG_ENTRIES_MAX) {
			st = warn(ctx, at, "more than %d options; '%s' ignored",
				  CONFIG_ENTRIES_MAX, name);
			goto out;
		}
		struct config_option *grown = grow(c->options, c->n_options,
					  sizeof(*c->options));
		if (!grown) {
			st = nomem(ctx);
			goto out;
		}
		c->options = grown;
		c->n_options++;
	} else {
		option_free(&c->options[i]);
	}
	c->options[i] = (struct config_option){
		.name = name, .value = value, .file = file, .line = at.line};
	name = value = file = NULL;
out:
	free(name);
	free(value);
	free(file);
	return st;
}

static enum status store_binding(struct parse_ctx *ctx, struct where at,
				 char *keymap, char *key, char *action)
{
	struct config *c = ctx->c;
	enum status st = STATUS_OK;
	char *file = strdup(at.file);
	if (!file) {
		st = nomem(ctx);
		goto out;
	}
	size_t i = 0;
	while (i < c->n_bindings &&
	       (strcmp(c->bindings[i].keymap, keymap) != 0 ||
		strcmp(c->bindings[i].key, key) != 0))
		i++;
	if (i == c->n_bindings) {
		if (c->n_bindings >= CONFIG_ENTRIES_MAX) {
			st = warn(ctx, at, "more than %d bindings; '%s %s' "
				  "ignored", CONFIG_ENTRIES_MAX, keymap, key);
			goto out;
		}
		struct config_binding *grown = grow(c->bindings, c->n_bindings,
					  sizeof(*c->bindings));
		if (!grown) {
			st = nomem(ctx);
			goto out;
		}
		c->bindings = grown;
		c->n_bindings++;
	} else {
		binding_free(&c->bindings[i]);
	}
	c->bindings[i] = (struct config_binding){.keymap = keymap,
						 .key = key,
						 .action = action,
						 .file = file,
						 .line = at.line};
	keymap = key = action = file = NULL;
out:
	free(keymap);
	free(key);
	free(action);
	free(file);
	return st;
}

static enum status store_derived(struct parse_ctx *ctx, struct where at,
				 char *name, char *formula)
{
	struct config *c = ctx->c;
	enum status st = STATUS_OK;
	char *file = strdup(at.file);
	if (!file) {
		st = nomem(ctx);
		goto out;
	}
	size_t i = 0;
	while (i < c->n_derived && strcmp(c->derived[i].name, name) != 0)
		i++;
	if (i == c->n_derived) {
		if (c->n_derived >= CONFIG_ENTRIES_MAX) {
			st = warn(ctx, at, "more than %d derived columns; "
				  "'%s' ignored", CONFIG_ENTRIES_MAX, name);
			goto out;
		}
		struct config_derived *grown = grow(c->derived, c->n_derived,
					  sizeof(*c->derived));
		if (!grown) {
			st = nomem(ctx);
			goto out;
		}
		c->derived = grown;
		c->n_derived++;
	} else {
		derived_free(&c->derived[i]);
	}
	c->derived[i] = (struct config_derived){
		.name = name, .formula = formula, .file = file, .line = at.line};
	name = formula = file = NULL;
out:
	free(name);
	free(formula);
	free(file);
	return st;
}

/* A theme's colour never replaces one from a configuration file. */
static enum status store_color(struct parse_ctx *ctx, struct where at,
			       struct config_color col)
{
	struct config *c = ctx->c;
	size_t i = 0;
	while (i < c->n_colors && c->colors[i].role != col.role)
		i++;
	if (i < c->n_colors && ctx->theme && !c->colors[i].from_theme)
		return STATUS_OK;
	col.from_theme = ctx->theme;
	col.line = at.line;
	col.file = strdup(at.file);
	if (!col.file)
		return nomem(ctx);
	if (i == c->n_colors) {
		struct config_color *grown = grow(c->colors, c->n_colors,
						  sizeof(*c->colors));
		if (!grown) {
			free(col.file);
			return nomem(ctx);
		}
		c->colors = grown;
		c->n_colors++;
	} else {
		color_free(&c->colors[i]);
	}
	c->colors[i] = col;
	return STATUS_OK;
}

/* ---- commands --------------------------------------------------------- */

static enum status load_path(struct parse_ctx *ctx, const char *path,
			     struct where from, bool missing_ok);

/* `set NAME = VALUE` and `derive NAME = FORMULA`. */
static enum status cmd_assign(struct parse_ctx *ctx, struct where at,
			      const char *cmd, const char *rest)
{
	enum status st = STATUS_OK;
	char *name = NULL;
	char *eq = NULL;
	char *value = NULL;
	struct tokens t = {0};
	bool derive = strcmp(cmd, "derive") == 0;
	enum lex l = lex_token(&rest, true, &name);
	if (l == LEX_TOKEN)
		l = lex_token(&rest, true, &eq);
	if (l == LEX_TOKEN && strcmp(eq, "=") == 0) {
		if (derive)
			l = lex_raw_rest(rest, &value);
		else
			l = lex_all(&rest, false, &t);
	}
	if (l == LEX_NOMEM) {
		st = nomem(ctx);
		goto out;
	}
	if (l == LEX_UNTERMINATED) {
		st = warn(ctx, at, "unterminated quote");
		goto out;
	}
	if (!name || !eq || strcmp(eq, "=") != 0) {
		st = warn(ctx, at, "%s: expected '%s NAME = %s'", cmd, cmd,
			  derive ? "FORMULA" : "VALUE");
		goto out;
	}
	if (!valid_name(name)) {
		st = warn(ctx, at, "%s: bad name '%s' (letters, digits, "
			  "'_', '-', '.'; at most %d)", cmd, name,
			  CONFIG_NAME_MAX);
		goto out;
	}
	if (derive) {
		if (value[0] == '\0') {
			st = warn(ctx, at, "derive: empty formula for '%s'",
				  name);
			goto out;
		}
		st = store_derived(ctx, at, name, value);
		name = value = NULL;
		goto out;
	}
	value = tokens_join(&t, 0);
	if (!value) {
		st = nomem(ctx);
		goto out;
	}
	st = store_option(ctx, at, name, value);
	name = value = NULL;
out:
	free(name);
	free(eq);
	free(value);
	tokens_free(&t);
	return st;
}

static enum status cmd_bind(struct parse_ctx *ctx, struct where at,
			    const struct tokens *t)
{
	if (t->n < 4)
		return warn(ctx, at, "bind: expected 'bind KEYMAP KEY "
			    "ACTION'");
	const char *keymap = t->v[1];
	const char *key = t->v[2];
	if (!valid_name(keymap))
		return warn(ctx, at, "bind: bad keymap name '%s'", keymap);
	size_t klen = strlen(key);
	if (klen == 0 || klen > CONFIG_KEY_MAX)
		return warn(ctx, at, "bind: key name must be 1 to %d bytes",
			    CONFIG_KEY_MAX);
	char *k = strdup(keymap);
	char *kk = strdup(key);
	char *action = tokens_join(t, 3);
	if (!k || !kk || !action) {
		free(k);
		free(kk);
		free(action);
		return nomem(ctx);
	}
	if (action[0] == '\0') {
		free(k);
		free(kk);
		free(action);
		return warn(ctx, at, "bind: empty action");
	}
	return store_binding(ctx, at, k, kk, action);
}

static enum status cmd_color(struct parse_ctx *ctx, struct where at,
			     const struct tokens *t)
{
	struct config_color col = {0};
	if (t->n < 4)
		return warn(ctx, at, "color: expected 'color ROLE FG BG "
			    "[ATTR...]'");
	if (!theme_role_parse(t->v[1], &col.role))
		return warn(ctx, at, "color: unknown role '%s'", t->v[1]);
	if (!parse_color(t->v[2], &col.fg))
		return warn(ctx, at, "color: unknown colour '%s'", t->v[2]);
	if (!parse_color(t->v[3], &col.bg))
		return warn(ctx, at, "color: unknown colour '%s'", t->v[3]);
	for (size_t i = 4; i < t->n; i++)
		if (!parse_attr(t->v[i], &col.attrs))
			return warn(ctx, at, "color: unknown attribute '%s'",
				    t->v[i]);
	return store_color(ctx, at, col);
}

static enum status cmd_theme(struct parse_ctx *ctx, struct where at,
			     const struct tokens *t)
{
	if (t->n != 2)
		return warn(ctx, at, "theme: expected 'theme NAME'");
	if (!valid_theme_name(t->v[1]))
		return warn(ctx, at, "theme: bad theme name '%s'", t->v[1]);
	char *name = strdup(t->v[1]);
	if (!name)
		return nomem(ctx);
	free(ctx->c->theme);
	ctx->c->theme = name;
	return STATUS_OK;
}

/* PATH with "~/" expanded and, when relative, resolved against the
 * directory of the including file; a heap string or NULL (*why set) */
static char *resolve_source(const char *path, const char *including,
			    const char **why)
{
	char *out = NULL;
	*why = "out of memory";
	if (strncmp(path, "~/", 2) == 0) {
		const char *home = getenv("HOME");
		if (!home || !*home) {
			*why = "HOME is not set";
			return NULL;
		}
		if (asprintf(&out, "%s/%s", home, path + 2) < 0)
			return NULL;
		return out;
	}
	const char *slash = strrchr(including, '/');
	if (path[0] == '/' || !slash)
		return strdup(path);
	int dir_len = (int)(slash - including + 1);
	if (asprintf(&out, "%.*s%s", dir_len, including, path) < 0)
		return NULL;
	return out;
}

static enum status cmd_source(struct parse_ctx *ctx, struct where at,
			      const struct tokens *t)
{
	if (t->n != 2 || t->v[1][0] == '\0')
		return warn(ctx, at, "source: expected 'source PATH'");
	if (ctx->c->source_disabled)
		return warn(ctx, at, "source: not followed here");
	if (ctx->depth >= CONFIG_SOURCE_DEPTH_MAX)
		return warn(ctx, at, "source: nested deeper than %d; '%s' "
			    "not read", CONFIG_SOURCE_DEPTH_MAX, t->v[1]);
	const char *why = NULL;
	char *path = resolve_source(t->v[1], at.file, &why);
	if (!path) {
		if (strcmp(why, "out of memory") == 0)
			return nomem(ctx);
		return warn(ctx, at, "source: %s: %s", t->v[1], why);
	}
	ctx->depth++;
	enum status st = load_path(ctx, path, at, false);
	ctx->depth--;
	free(path);
	return st;
}

/* One line, NUL-terminated, already checked for length and NUL bytes. */
static enum status parse_line(struct parse_ctx *ctx, struct where at,
			      const char *line)
{
	enum status st = STATUS_OK;
	const char *p = line;
	char *cmd = NULL;
	struct tokens t = {0};
	enum lex l = lex_token(&p, false, &cmd);
	if (l == LEX_END)
		return STATUS_OK;
	if (l == LEX_NOMEM)
		return nomem(ctx);
	if (l == LEX_UNTERMINATED)
		return warn(ctx, at, "unterminated quote");
	if (ctx->theme && strcmp(cmd, "color") != 0) {
		st = warn(ctx, at, "only color lines are allowed in a theme");
		goto out;
	}
	if (strcmp(cmd, "set") == 0 || strcmp(cmd, "derive") == 0) {
		st = cmd_assign(ctx, at, cmd, p);
		goto out;
	}
	p = line;
	l = lex_all(&p, false, &t);
	if (l == LEX_NOMEM) {
		st = nomem(ctx);
		goto out;
	}
	if (l == LEX_UNTERMINATED) {
		st = warn(ctx, at, "unterminated quote");
		goto out;
	}
	if (strcmp(cmd, "bind") == 0)
		st = cmd_bind(ctx, at, &t);
	else if (strcmp(cmd, "color") == 0)
		st = cmd_color(ctx, at, &t);
	else if (strcmp(cmd, "theme") == 0)
		st = cmd_theme(ctx, at, &t);
	else if (strcmp(cmd, "source") == 0)
		st = cmd_source(ctx, at, &t);
	else
		st = warn(ctx, at, "unknown command '%s'", cmd);
out:
	free(cmd);
	tokens_free(&t);
	return st;
}

static enum status parse_buffer(struct parse_ctx *ctx, const char *text,
				size_t len, const char *name)
{
	enum status st = STATUS_OK;
	char *line = NULL;
	size_t off = 0;
	unsigned lineno = 0;
	if (len > CONFIG_FILE_MAX)
		return warn(ctx, (struct where){.file = name},
			    "larger than %u bytes; not read", CONFIG_FILE_MAX);
	line = malloc(CONFIG_LINE_MAX + 1);
	if (!line)
		return nomem(ctx);
	while (off < len) {
		const char *start = text + off;
		const char *nl = memchr(start, '\n', len - off);
		size_t n = nl ? (size_t)(nl - start) : len - off;
		off += n + (nl ? 1 : 0);
		struct where at = {.file = name, .line = ++lineno};
		if (n > 0 && start[n - 1] == '\r')
			n--;
		if (n > CONFIG_LINE_MAX) {
			st = warn(ctx, at, "line longer than %d bytes; ignored",
				  CONFIG_LINE_MAX);
		} else if (memchr(start, '\0', n)) {
			st = warn(ctx, at, "NUL byte in line; ignored");
		} else {
			memcpy(line, start, n);
			line[n] = '\0';
			st = parse_line(ctx, at, line);
		}
		if (st != STATUS_OK)
			break;
	}
	free(line);
	return st;
}

/* Read the file at `path` and parse it.  `from` is the `source` line that
 * asked for it (line 0 for a top-level load). */
static enum status load_path(struct parse_ctx *ctx, const char *path,
			     struct where from, bool missing_ok)
{
	enum status st = STATUS_OK;
	struct blob *blob = NULL;
	struct error berr = {0};
	struct span all = {0};
	struct stat sb;
	const char *what = from.line ? "source: " : "";
	if (stat(path, &sb) != 0) {
		if (errno == ENOENT && missing_ok)
			return STATUS_OK;
		return warn(ctx, from, "%s%s: %s", what, path,
			    strerror(errno));
	}
	/* before open(2), which would wait on a FIFO */
	if (!S_ISREG(sb.st_mode))
		return warn(ctx, from, "%s%s: not a regular file", what, path);
	for (unsigned i = 0; i < ctx->n_open; i++)
		if (ctx->open[i].dev == sb.st_dev &&
		    ctx->open[i].ino == sb.st_ino)
			return warn(ctx, from, "%s%s: already being read "
				    "(a cycle); not read again", what, path);
	if (ctx->n_files >= CONFIG_SOURCE_FILES_MAX)
		return warn(ctx, from, "%s%s: more than %d files read; not "
			    "read", what, path, CONFIG_SOURCE_FILES_MAX);
	ctx->n_files++;
	st = blob_open_file(path, &blob, &berr);
	if (st == STATUS_OK && blob_size(blob) > CONFIG_FILE_MAX) {
		st = warn(ctx, from, "%s%s: larger than %u bytes; not read",
			  what, path, CONFIG_FILE_MAX);
		goto out;
	}
	if (st == STATUS_OK)
		st = blob_map_all(blob, &all, &berr);
	if (st == STATUS_NOMEM) {
		st = nomem(ctx);
		goto out;
	}
	if (st != STATUS_OK) {
		st = warn(ctx, from, "%s%s: %s", what, path,
			  berr.message ? berr.message : status_message(st));
		goto out;
	}
	ctx->open[ctx->n_open++] =
		(struct source_id){.dev = sb.st_dev, .ino = sb.st_ino};
	st = parse_buffer(ctx, (const char *)all.data, (size_t)all.len, path);
	ctx->n_open--;
out:
	blob_close(blob);
	error_clear(&berr);
	return st;
}

/* ---- public ----------------------------------------------------------- */

void config_init(struct config *c)
{
	*c = (struct config){0};
}

void config_free(struct config *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_options; i++)
		option_free(&c->options[i]);
	for (size_t i = 0; i < c->n_bindings; i++)
		binding_free(&c->bindings[i]);
	for (size_t i = 0; i < c->n_colors; i++)
		color_free(&c->colors[i]);
	for (size_t i = 0; i < c->n_derived; i++)
		derived_free(&c->derived[i]);
	for (size_t i = 0; i < c->n_warnings; i++)
		free(c->warnings[i]);
	free(c->options);
	free(c->bindings);
	free(c->colors);
	free(c->derived);
	free(c->warnings);
	free(c->theme);
	bool source_disabled = c->source_disabled;
	*c = (struct config){.source_disabled = source_disabled};
}

enum status config_parse_text(struct config *c, const char *text, size_t len,
			      const char *name, struct error *err)
{
	if (!c || (!text && len))
		return error_set(err, STATUS_USAGE, name,
				 "config_parse_text: NULL argument");
	struct parse_ctx ctx = {.c = c, .err = err};
	return parse_buffer(&ctx, text, len, name ? name : default_name);
}

enum status config_load_file(struct config *c, const char *path,
			     struct error *err)
{
	if (!c || !path)
		return error_set(err, STATUS_USAGE, path,
				 "config_load_file: NULL argument");
	struct parse_ctx ctx = {.c = c, .err = err};
	return load_path(&ctx, path, (struct where){.file = path}, true);
}

static char *config_home_path(const char *leaf)
{
	char *out = NULL;
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	int n;
	if (xdg && xdg[0] == '/')
		n = asprintf(&out, "%s/callscope/%s", xdg, leaf);
	else if (home && home[0])
		n = asprintf(&out, "%s/.config/callscope/%s", home, leaf);
	else
		return NULL;
	return n < 0 ? NULL : out;
}

char *config_default_path(void)
{
	return config_home_path("config");
}

char *config_user_theme_dir(void)
{
	return config_home_path("themes");
}

/* Drop every colour a theme set. */
static void drop_theme_colors(struct config *c)
{
	size_t kept = 0;
	for (size_t i = 0; i < c->n_colors; i++) {
		if (c->colors[i].from_theme)
			color_free(&c->colors[i]);
		else
			c->colors[kept++] = c->colors[i];
	}
	c->n_colors = kept;
}

/* The path of NAME.theme in the first directory that holds it: *out a heap
 * string, or NULL when none does; *searched lists the directories tried. */
static enum status find_theme(const char *name, const char *const *dirs,
			      char **out, char **searched)
{
	char *user = config_user_theme_dir();
	size_t n_dirs = 0;
	while (dirs && dirs[n_dirs])
		n_dirs++;
	*out = NULL;
	*searched = NULL;
	for (size_t i = 0; i <= n_dirs; i++) {
		const char *dir = i == 0 ? user : dirs[i - 1];
		if (!dir)
			continue;
		char *path = NULL;
		char *s = NULL;
		struct stat sb;
		if (asprintf(&path, "%s/%s.theme", dir, name) < 0)
			goto nomem;
		if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
			*out = path;
			break;
		}
		free(path);
		if (asprintf(&s, "%s%s%s", *searched ? *searched : "",
			     *searched ? ", " : "", dir) < 0)
			goto nomem;
		free(*searched);
		*searched = s;
	}
	free(user);
	return STATUS_OK;
nomem:
	free(user);
	free(*searched);
	*searched = NULL;
	return STATUS_NOMEM;
}

enum status config_load_theme(struct config *c, const char *name,
			      const char *const *dirs, struct error *err)
{
	enum status st = STATUS_OK;
	char *path = NULL;
	char *searched = NULL;
	char *copy = NULL;
	if (!c)
		return error_set(err, STATUS_USAGE, NULL,
				 "config_load_theme: NULL config");
	struct parse_ctx ctx = {.c = c, .err = err, .theme = true};
	drop_theme_colors(c);
	st = parse_buffer(&ctx, config_default_theme,
			  strlen(config_default_theme), "<default theme>");
	if (st != STATUS_OK)
		goto out;
	if (!valid_theme_name(name)) {
		st = error_set(err, STATUS_USAGE, NULL, "bad theme name '%s'",
			       name ? name : "");
		goto out;
	}
	if (find_theme(name, dirs, &path, &searched) != STATUS_OK) {
		st = nomem(&ctx);
		goto out;
	}
	if (!path && strcmp(name, "default") != 0) {
		st = error_set(err, STATUS_NOT_FOUND, NULL,
			       "theme '%s' not found (looked in: %s)", name,
			       searched ? searched : "no directory");
		goto out;
	}
	if (path) {
		st = load_path(&ctx, path, (struct where){.file = path},
			       false);
		if (st != STATUS_OK)
			goto out;
	}
	copy = strdup(name);
	if (!copy) {
		st = nomem(&ctx);
		goto out;
	}
	free(c->theme);
	c->theme = copy;
out:
	free(path);
	free(searched);
	return st;
}

/* mkdir -p of the directory part of `path`. */
static enum status make_parents(const char *path, struct error *err)
{
	enum status st = STATUS_OK;
	char *dir = strdup(path);
	if (!dir)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
			st = error_set(err, STATUS_IO, path,
				       "cannot create %s: %s", dir,
				       strerror(errno));
			goto out;
		}
		*p = '/';
	}
out:
	free(dir);
	return st;
}

enum status config_append_line(const char *path, const char *line,
			       struct error *err)
{
	enum status st = STATUS_OK;
	char *buf = NULL;
	int fd = -1;
	if (!path || !*path || !line)
		return error_set(err, STATUS_USAGE, path,
				 "config_append_line: NULL argument");
	if (strpbrk(line, "\n\r"))
		return error_set(err, STATUS_USAGE, path,
				 "a config line cannot hold a line break");
	st = make_parents(path, err);
	if (st != STATUS_OK)
		return st;
	fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	if (fd < 0)
		return error_set(err, STATUS_IO, path, "%s", strerror(errno));
	struct stat sb;
	char last = '\n';
	if (fstat(fd, &sb) != 0) {
		st = error_set(err, STATUS_IO, path, "%s", strerror(errno));
		goto out;
	}
	if (sb.st_size > 0 && pread(fd, &last, 1, sb.st_size - 1) != 1)
		last = '\n';
	size_t len = strlen(line);
	buf = malloc(len + 3);
	if (!buf) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	size_t n = 0;
	if (last != '\n')
		buf[n++] = '\n';
	memcpy(buf + n, line, len);
	n += len;
	buf[n++] = '\n';
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(fd, buf + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			st = error_set(err, STATUS_IO, path, "cannot write: %s",
				       w < 0 ? strerror(errno) : "no progress");
			goto out;
		}
		done += (size_t)w;
	}
out:
	if (fd >= 0 && close(fd) != 0 && st == STATUS_OK)
		st = error_set(err, STATUS_IO, path, "%s", strerror(errno));
	free(buf);
	return st;
}
