/* config_store: the struct config a load builds: its warnings (bounded,
 * sanitized for the terminal) and its entries (options, bindings,
 * derived columns, colours: a later one of the same name replaces an
 * earlier one, at most CONFIG_ENTRIES_MAX of each); config_init and
 * config_free.  Must not depend on curses or on ui/. */
#include "config.h"

#include "config/config_internal.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sanitize.h"

enum status config_nomem(struct parse_ctx *ctx)
{
	return error_set(ctx->err, STATUS_NOMEM, NULL, "out of memory");
}

/* Make room for element `n` of an array of `n` elements: the capacity
 * doubles when `n` is a power of two, so no capacity needs to be stored
 * (it is always more than `n`).  Returns the array, possibly moved, or NULL
 * when out of memory (the old array is still valid then). */
void *config_grow(void *array, size_t n, size_t size)
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
	char **warnings = safe ? config_grow(c->warnings, c->n_warnings,
				      sizeof(*c->warnings))
			       : NULL;
	if (!warnings) {
		free(safe);
		return config_nomem(ctx);
	}
	c->warnings = warnings;
	c->warnings[c->n_warnings++] = safe;
	return STATUS_OK;
}

/* Record "FILE:LINE: problem" ("FILE: problem" when line is 0).  After
 * CONFIG_WARNINGS_MAX - 1 warnings one last says the rest are dropped. */
enum status config_warn(struct parse_ctx *ctx, struct where at,
			const char *fmt, ...)
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
		return config_nomem(ctx);
	if (at.line)
		n = asprintf(&text, "%s:%u: %s", at.file, at.line, problem);
	else
		n = asprintf(&text, "%s: %s", at.file, problem);
	free(problem);
	return n < 0 ? config_nomem(ctx) : add_warning_text(ctx, text);
}

/* ---- storing entries -------------------------------------------------- */

static void option_free(void *entry)
{
	struct config_option *o = entry;
	free(o->name);
	free(o->value);
	free(o->file);
}

static void binding_free(void *entry)
{
	struct config_binding *b = entry;
	free(b->keymap);
	free(b->key);
	free(b->action);
	free(b->file);
}

void config_color_free(struct config_color *col)
{
	free(col->file);
}

static void color_free(void *entry)
{
	config_color_free(entry);
}

static void derived_free(void *entry)
{
	struct config_derived *d = entry;
	free(d->name);
	free(d->formula);
	free(d->file);
}

/* Make entry `i` of the array *array (*n entries of `size` bytes) ready
 * for a new value: `i == *n` appends one, unless there are `limit`
 * already (*full then, nothing changed); an existing entry is released
 * first.  Only a lack of memory fails. */
static enum status take_slot(struct parse_ctx *ctx, void **array, size_t *n,
			     size_t i, size_t size, size_t limit,
			     void (*release)(void *entry), bool *full)
{
	*full = false;
	if (i < *n) {
		release((char *)*array + i * size);
		return STATUS_OK;
	}
	if (*n >= limit) {
		*full = true;
		return STATUS_OK;
	}
	void *grown = config_grow(*array, *n, size);
	if (!grown)
		return config_nomem(ctx);
	*array = grown;
	(*n)++;
	return STATUS_OK;
}

/* One kind of entry: the array *array of *n entries of `size` bytes,
 * `release` to free an entry's strings, `same` true when two entries have
 * the same name (a later one replaces the earlier), `what` it is called
 * in the warning when there are CONFIG_ENTRIES_MAX already. */
struct entry_table {
	void **array;
	size_t *n;
	size_t size;
	void (*release)(void *entry);
	bool (*same)(const void *a, const void *b);
	const char *what;
};

/* Store `entry` (whose strings it owns, `file` among them) in table `t`,
 * in place of the entry of the same name or after the last; when it is
 * not stored (no copy of the file name, a full table, out of memory) its
 * strings are freed.  A full table is a warning naming the entry ("NAME"
 * or "NAME NAME2"). */
static enum status store_entry(struct parse_ctx *ctx, struct where at,
			       const struct entry_table *t, void *entry,
			       const char *file, const char *name,
			       const char *name2)
{
	size_t i = 0;
	while (i < *t->n && !t->same((char *)*t->array + i * t->size, entry))
		i++;
	bool full = false;
	enum status st = file ? take_slot(ctx, t->array, t->n, i, t->size,
					  CONFIG_ENTRIES_MAX, t->release, &full)
			      : config_nomem(ctx);
	if (st == STATUS_OK && full) {
		st = config_warn(ctx, at, "more than %d %s; '%s%s%s' ignored",
				 CONFIG_ENTRIES_MAX, t->what, name,
				 name2 ? " " : "", name2 ? name2 : "");
	} else if (st == STATUS_OK) {
		memcpy((char *)*t->array + i * t->size, entry, t->size);
		return STATUS_OK;
	}
	t->release(entry);
	return st;
}

static bool option_same(const void *a, const void *b)
{
	const struct config_option *x = a, *y = b;
	return strcmp(x->name, y->name) == 0;
}

/* Takes ownership of `name` and `value` (freed on failure too). */
enum status config_store_option(struct parse_ctx *ctx, struct where at,
				char *name, char *value)
{
	struct config *c = ctx->c;
	struct config_option o = {.name = name, .value = value,
				  .file = strdup(at.file), .line = at.line};
	const struct entry_table t = {(void **)&c->options, &c->n_options,
				      sizeof(o), option_free, option_same,
				      "options"};
	return store_entry(ctx, at, &t, &o, o.file, name, NULL);
}

/* A binding's name: its keymap and key. */
static bool binding_same(const void *a, const void *b)
{
	const struct config_binding *x = a, *y = b;
	return strcmp(x->keymap, y->keymap) == 0 && strcmp(x->key, y->key) == 0;
}

enum status config_store_binding(struct parse_ctx *ctx, struct where at,
				 char *keymap, char *key, char *action)
{
	struct config *c = ctx->c;
	struct config_binding b = {.keymap = keymap, .key = key,
				   .action = action, .file = strdup(at.file),
				   .line = at.line};
	const struct entry_table t = {(void **)&c->bindings, &c->n_bindings,
				      sizeof(b), binding_free, binding_same,
				      "bindings"};
	return store_entry(ctx, at, &t, &b, b.file, keymap, key);
}

static bool derived_same(const void *a, const void *b)
{
	const struct config_derived *x = a, *y = b;
	return strcmp(x->name, y->name) == 0;
}

enum status config_store_derived(struct parse_ctx *ctx, struct where at,
				 char *name, char *formula)
{
	struct config *c = ctx->c;
	struct config_derived d = {.name = name, .formula = formula,
				   .file = strdup(at.file), .line = at.line};
	const struct entry_table t = {(void **)&c->derived, &c->n_derived,
				      sizeof(d), derived_free, derived_same,
				      "derived columns"};
	return store_entry(ctx, at, &t, &d, d.file, name, NULL);
}

/* A theme's colour never replaces one from a configuration file; there
 * is one colour per role, so no limit applies. */
enum status config_store_color(struct parse_ctx *ctx, struct where at,
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
		return config_nomem(ctx);
	bool full = false;
	enum status st = take_slot(ctx, (void **)&c->colors, &c->n_colors, i,
				   sizeof(*c->colors), SIZE_MAX, color_free,
				   &full);
	if (st != STATUS_OK) {
		free(col.file);
		return st;
	}
	c->colors[i] = col;
	return STATUS_OK;
}

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
		config_color_free(&c->colors[i]);
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

