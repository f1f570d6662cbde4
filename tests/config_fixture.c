/* The helpers of the config_file tests (declared in tests/config_fixture.h).
 * The lookups never return NULL (the compiler checks dereferences): a
 * missing entry fails the test, or is a static empty entry for the has_*()
 * checks of absence. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_fixture.h"

void parse(struct config *c, const char *text, const char *name)
{
	struct error err = {0};
	assert_int_equal(config_parse_text(c, text, strlen(text), name, &err),
			 STATUS_OK);
	error_clear(&err);
}

int config_setup(void **state)
{
	struct config *c = malloc(sizeof(*c));
	if (!c)
		return -1;
	config_init(c);
	*state = c;
	return 0;
}

int config_teardown(void **state)
{
	config_free(*state);
	free(*state);
	return 0;
}

/* The lookups below never return NULL (the compiler checks dereferences):
 * a missing entry fails the test, or is a static empty entry for the
 * has_*() checks of absence. */
static char empty[1];
static const struct config_option *find_option(const struct config *c,
					       const char *name)
{
	static const struct config_option none = {.name = empty, .value = empty,
						  .file = empty};
	for (size_t i = 0; i < c->n_options; i++)
		if (strcmp(c->options[i].name, name) == 0)
			return &c->options[i];
	return &none;
}

bool has_option(const struct config *c, const char *name)
{
	return find_option(c, name)->name[0] != '\0';
}

const struct config_option *option(const struct config *c,
				   const char *name)
{
	if (!has_option(c, name))
		fail_msg("no option '%s'", name);
	return find_option(c, name);
}

const char *option_value(const struct config *c, const char *name)
{
	return option(c, name)->value;
}

const struct config_binding *binding(const struct config *c,
				     const char *keymap,
				     const char *key)
{
	static const struct config_binding none = {
		.keymap = empty, .key = empty, .action = empty, .file = empty};
	for (size_t i = 0; i < c->n_bindings; i++)
		if (strcmp(c->bindings[i].keymap, keymap) == 0 &&
		    strcmp(c->bindings[i].key, key) == 0)
			return &c->bindings[i];
	fail_msg("no binding '%s %s'", keymap, key);
	return &none;
}

const struct config_color *color(const struct config *c,
				 enum theme_role role)
{
	static const struct config_color none = {.file = empty};
	for (size_t i = 0; i < c->n_colors; i++)
		if (c->colors[i].role == role)
			return &c->colors[i];
	fail_msg("no colour for role %d", (int)role);
	return &none;
}

const struct config_derived *derived(const struct config *c,
				     const char *name)
{
	static const struct config_derived none = {.name = empty, .formula = empty,
						   .file = empty};
	for (size_t i = 0; i < c->n_derived; i++)
		if (strcmp(c->derived[i].name, name) == 0)
			return &c->derived[i];
	fail_msg("no derived column '%s'", name);
	return &none;
}

bool has_warning(const struct config *c, const char *text)
{
	for (size_t i = 0; i < c->n_warnings; i++)
		if (strcmp(c->warnings[i], text) == 0)
			return true;
	return false;
}

/* True when some warning starts with `prefix` and contains `part`. */
bool has_warning_like(const struct config *c, const char *prefix,
		      const char *part)
{
	for (size_t i = 0; i < c->n_warnings; i++)
		if (strncmp(c->warnings[i], prefix, strlen(prefix)) == 0 &&
		    strstr(c->warnings[i], part))
			return true;
	return false;
}

void print_warnings(const struct config *c)
{
	for (size_t i = 0; i < c->n_warnings; i++)
		print_message("warning: %s\n", c->warnings[i]);
}

void assert_warning_is(const struct config *c, size_t i, const char *fmt,
		       ...)
{
	char *want = NULL;
	va_list ap;
	va_start(ap, fmt);
	assert_true(vasprintf(&want, fmt, ap) > 0);
	va_end(ap);
	assert_true(i < c->n_warnings);
	assert_string_equal(c->warnings[i], want);
	free(want);
}

void assert_warnings(const struct config *c, const char *const *want,
		     size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!has_warning(c, want[i])) {
			print_warnings(c);
			fail_msg("no warning '%s'", want[i]);
		}
	if (c->n_warnings != n) {
		print_warnings(c);
		fail_msg("%zu warnings, expected %zu", c->n_warnings, n);
	}
}

char *path_join(const char *dir, const char *leaf)
{
	char *p = NULL;
	assert_true(asprintf(&p, "%s/%s", dir, leaf) > 0);
	return p;
}

/* Write `text` to dir/leaf, creating the parent directories of leaf. */
char *write_file(const char *dir, const char *leaf, const char *text)
{
	char *path = path_join(dir, leaf);
	for (char *p = path + strlen(dir) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0777);
		*p = '/';
	}
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	assert_int_equal(fclose(f), 0);
	return path;
}

char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	assert_non_null(buf);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

char *make_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *tmpl = NULL;
	assert_true(asprintf(&tmpl, "%s/test-config.XXXXXX",
			     base && *base ? base : "/tmp") > 0);
	assert_non_null(mkdtemp(tmpl));
	return tmpl;
}

static int remove_one(const char *path, const struct stat *sb, int flag,
		      struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void remove_tree(char *dir)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

char *themes_dir(void)
{
	const char *top = getenv("top_srcdir");
	return path_join(top && *top ? top : ".", "themes");
}

/* Point the user's config directory at `dir` (so tests never see the real
 * one). */
void set_config_home(const char *dir)
{
	assert_int_equal(setenv("XDG_CONFIG_HOME", dir, 1), 0);
}

