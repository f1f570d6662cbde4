/* config_file: reads configuration files and themes (`set`, `bind`, `color`,
 * `theme`, `source`, `derive` lines) into a struct config.  Every problem in
 * the input is a warning naming the file and line; only a lack of memory
 * stops a load.  Files are read through blob; `source` nesting is bounded
 * in depth, in number of files and checked for cycles.  Must not depend on
 * curses or on ui/. */
#include "config.h"

#include "core/path.h"
#include "config/config_internal.h"

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

static const char default_name[] = "<default>";

/* ---- commands --------------------------------------------------------- */

/* A line the lexer gave up on: out of memory, or an open quote. */
static enum status lex_failure(struct parse_ctx *ctx, struct where at,
			       enum lex l)
{
	if (l == LEX_NOMEM)
		return config_nomem(ctx);
	return config_warn(ctx, at, "unterminated quote");
}

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
	enum lex l = config_lex_token(&rest, true, &name);
	if (l == LEX_TOKEN)
		l = config_lex_token(&rest, true, &eq);
	if (l == LEX_TOKEN && strcmp(eq, "=") == 0) {
		if (derive)
			l = config_lex_raw_rest(rest, &value);
		else
			l = config_lex_all(&rest, false, &t);
	}
	if (l == LEX_NOMEM || l == LEX_UNTERMINATED) {
		st = lex_failure(ctx, at, l);
		goto out;
	}
	if (!name || !eq || strcmp(eq, "=") != 0) {
		st = config_warn(ctx, at, "%s: expected '%s NAME = %s'", cmd, cmd,
			  derive ? "FORMULA" : "VALUE");
		goto out;
	}
	if (!config_valid_name(name)) {
		st = config_warn(ctx, at, "%s: bad name '%s' (letters, digits, "
			  "'_', '-', '.'; at most %d)", cmd, name,
			  CONFIG_NAME_MAX);
		goto out;
	}
	if (derive) {
		if (value[0] == '\0') {
			st = config_warn(ctx, at, "derive: empty formula for '%s'",
				  name);
			goto out;
		}
		st = config_store_derived(ctx, at, name, value);
		name = value = NULL;
		goto out;
	}
	value = config_tokens_join(&t, 0);
	if (!value) {
		st = config_nomem(ctx);
		goto out;
	}
	st = config_store_option(ctx, at, name, value);
	name = value = NULL;
out:
	free(name);
	free(eq);
	free(value);
	config_tokens_free(&t);
	return st;
}

static enum status cmd_bind(struct parse_ctx *ctx, struct where at,
			    const struct tokens *t)
{
	if (t->n < 4)
		return config_warn(ctx, at, "bind: expected 'bind KEYMAP KEY "
			    "ACTION'");
	const char *keymap = t->v[1];
	const char *key = t->v[2];
	if (!config_valid_name(keymap))
		return config_warn(ctx, at, "bind: bad keymap name '%s'", keymap);
	size_t klen = strlen(key);
	if (klen == 0 || klen > CONFIG_KEY_MAX)
		return config_warn(ctx, at, "bind: key name must be 1 to %d bytes",
			    CONFIG_KEY_MAX);
	char *action = config_tokens_join(t, 3);
	if (action && action[0] == '\0') {
		free(action);
		return config_warn(ctx, at, "bind: empty action");
	}
	char *k = strdup(keymap);
	char *kk = strdup(key);
	if (!k || !kk || !action) {
		free(k);
		free(kk);
		free(action);
		return config_nomem(ctx);
	}
	return config_store_binding(ctx, at, k, kk, action);
}

static enum status cmd_color(struct parse_ctx *ctx, struct where at,
			     const struct tokens *t)
{
	struct config_color col = {0};
	if (t->n < 4)
		return config_warn(ctx, at, "color: expected 'color ROLE FG BG "
			    "[ATTR...]'");
	if (!theme_role_parse(t->v[1], &col.role))
		return config_warn(ctx, at, "color: unknown role '%s'", t->v[1]);
	if (!config_parse_color(t->v[2], &col.fg))
		return config_warn(ctx, at, "color: unknown colour '%s'", t->v[2]);
	if (!config_parse_color(t->v[3], &col.bg))
		return config_warn(ctx, at, "color: unknown colour '%s'", t->v[3]);
	for (size_t i = 4; i < t->n; i++)
		if (!config_parse_attr(t->v[i], &col.attrs))
			return config_warn(ctx, at, "color: unknown attribute '%s'",
				    t->v[i]);
	return config_store_color(ctx, at, col);
}

static enum status cmd_theme(struct parse_ctx *ctx, struct where at,
			     const struct tokens *t)
{
	if (t->n != 2)
		return config_warn(ctx, at, "theme: expected 'theme NAME'");
	if (!config_valid_theme_name(t->v[1]))
		return config_warn(ctx, at, "theme: bad theme name '%s'", t->v[1]);
	char *name = strdup(t->v[1]);
	if (!name)
		return config_nomem(ctx);
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
		if (!(out = path_join(home, path + 2)))
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
		return config_warn(ctx, at, "source: expected 'source PATH'");
	if (ctx->c->source_disabled)
		return config_warn(ctx, at, "source: not followed here");
	if (ctx->depth >= CONFIG_SOURCE_DEPTH_MAX)
		return config_warn(ctx, at, "source: nested deeper than %d; '%s' "
			    "not read", CONFIG_SOURCE_DEPTH_MAX, t->v[1]);
	const char *why = NULL;
	char *path = resolve_source(t->v[1], at.file, &why);
	if (!path) {
		if (strcmp(why, "out of memory") == 0)
			return config_nomem(ctx);
		return config_warn(ctx, at, "source: %s: %s", t->v[1], why);
	}
	ctx->depth++;
	enum status st = config_load_path(ctx, path, at, false);
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
	enum lex l = config_lex_token(&p, false, &cmd);
	if (l == LEX_END)
		return STATUS_OK;
	if (l == LEX_NOMEM || l == LEX_UNTERMINATED)
		return lex_failure(ctx, at, l);
	if (ctx->theme && strcmp(cmd, "color") != 0) {
		st = config_warn(ctx, at, "only color lines are allowed in a theme");
		goto out;
	}
	if (strcmp(cmd, "set") == 0 || strcmp(cmd, "derive") == 0) {
		st = cmd_assign(ctx, at, cmd, p);
		goto out;
	}
	p = line;
	l = config_lex_all(&p, false, &t);
	if (l == LEX_NOMEM || l == LEX_UNTERMINATED) {
		st = lex_failure(ctx, at, l);
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
		st = config_warn(ctx, at, "unknown command '%s'", cmd);
out:
	free(cmd);
	config_tokens_free(&t);
	return st;
}

enum status config_parse_buffer(struct parse_ctx *ctx, const char *text,
				size_t len, const char *name)
{
	enum status st = STATUS_OK;
	char *line = NULL;
	size_t off = 0;
	unsigned lineno = 0;
	if (len > CONFIG_FILE_MAX)
		return config_warn(ctx, (struct where){.file = name},
			    "larger than %u bytes; not read", CONFIG_FILE_MAX);
	line = malloc(CONFIG_LINE_MAX + 1);
	if (!line)
		return config_nomem(ctx);
	while (off < len) {
		const char *start = text + off;
		const char *nl = memchr(start, '\n', len - off);
		size_t n = nl ? (size_t)(nl - start) : len - off;
		off += n + (nl ? 1 : 0);
		struct where at = {.file = name, .line = ++lineno};
		if (n > 0 && start[n - 1] == '\r')
			n--;
		if (n > CONFIG_LINE_MAX) {
			st = config_warn(ctx, at, "line longer than %d bytes; ignored",
				  CONFIG_LINE_MAX);
		} else if (memchr(start, '\0', n)) {
			st = config_warn(ctx, at, "NUL byte in line; ignored");
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
enum status config_load_path(struct parse_ctx *ctx, const char *path,
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
		return config_warn(ctx, from, "%s%s: %s", what, path,
			    strerror(errno));
	}
	/* before open(2), which would wait on a FIFO */
	if (!S_ISREG(sb.st_mode))
		return config_warn(ctx, from, "%s%s: not a regular file", what, path);
	for (unsigned i = 0; i < ctx->n_open; i++)
		if (ctx->open[i].dev == sb.st_dev &&
		    ctx->open[i].ino == sb.st_ino)
			return config_warn(ctx, from, "%s%s: already being read "
				    "(a cycle); not read again", what, path);
	if (ctx->n_files >= CONFIG_SOURCE_FILES_MAX)
		return config_warn(ctx, from, "%s%s: more than %d files read; not "
			    "read", what, path, CONFIG_SOURCE_FILES_MAX);
	ctx->n_files++;
	st = blob_open_file(path, &blob, &berr);
	if (st == STATUS_OK && blob_size(blob) > CONFIG_FILE_MAX) {
		st = config_warn(ctx, from, "%s%s: larger than %u bytes; not read",
			  what, path, CONFIG_FILE_MAX);
		goto out;
	}
	if (st == STATUS_OK)
		st = blob_map_all(blob, &all, &berr);
	if (st == STATUS_NOMEM) {
		st = config_nomem(ctx);
		goto out;
	}
	if (st != STATUS_OK) {
		st = config_warn(ctx, from, "%s%s: %s", what, path,
			  berr.message ? berr.message : status_message(st));
		goto out;
	}
	ctx->open[ctx->n_open++] =
		(struct source_id){.dev = sb.st_dev, .ino = sb.st_ino};
	st = config_parse_buffer(ctx, (const char *)all.data, (size_t)all.len, path);
	ctx->n_open--;
out:
	blob_close(blob);
	error_clear(&berr);
	return st;
}

/* ---- public ----------------------------------------------------------- */

enum status config_parse_text(struct config *c, const char *text, size_t len,
			      const char *name, struct error *err)
{
	if (!c || (!text && len))
		return error_set(err, STATUS_USAGE, name,
				 "config_parse_text: NULL argument");
	struct parse_ctx ctx = {.c = c, .err = err};
	return config_parse_buffer(&ctx, text, len, name ? name : default_name);
}

enum status config_load_file(struct config *c, const char *path,
			     struct error *err)
{
	if (!c || !path)
		return error_set(err, STATUS_USAGE, path,
				 "config_load_file: NULL argument");
	struct parse_ctx ctx = {.c = c, .err = err};
	return config_load_path(&ctx, path, (struct where){.file = path}, true);
}

