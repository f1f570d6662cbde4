/* Tests for config_file and theme_roles: every command, quoting, overrides,
 * warnings with their file and line, `source` (relative paths, cycles,
 * depth), limits, garbage input, the theme files and the compiled-in
 * default theme.  Expected values are written out here by hand. */
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

#include "config/config_file.h"
#include "config/theme_roles.h"

/* The role list as the UI was promised it, in order. */
static const char *const expected_roles[] = {
	"title",       "tabs",        "tab-active",   "column-header",
	"tree",        "guide",       "marker",       "value",
	"percent",     "bar",         "bar-empty",    "selected",
	"search-match", "detail",     "detail-label", "status",
	"status-key",  "message",     "error",        "help-key",
	"help-text",   "line-number", "source-hot",   "histogram",
	"trace-idle",  "dim",         "delta-worse",  "delta-better",
};
#define N_EXPECTED_ROLES (sizeof(expected_roles) / sizeof(expected_roles[0]))

static const char *const theme_files[] = {"default", "light", "mono",
					  "high-contrast"};

/* ---- helpers ---------------------------------------------------------- */

static void parse(struct config *c, const char *text, const char *name)
{
	struct error err = {0};
	assert_int_equal(config_parse_text(c, text, strlen(text), name, &err),
			 STATUS_OK);
	error_clear(&err);
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

static bool has_option(const struct config *c, const char *name)
{
	return find_option(c, name)->name[0] != '\0';
}

static const struct config_option *option(const struct config *c,
					  const char *name)
{
	if (!has_option(c, name))
		fail_msg("no option '%s'", name);
	return find_option(c, name);
}

static const char *option_value(const struct config *c, const char *name)
{
	return option(c, name)->value;
}

static const struct config_binding *binding(const struct config *c,
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

static const struct config_color *color(const struct config *c,
					enum theme_role role)
{
	static const struct config_color none = {.file = empty};
	for (size_t i = 0; i < c->n_colors; i++)
		if (c->colors[i].role == role)
			return &c->colors[i];
	fail_msg("no colour for role %d", (int)role);
	return &none;
}

static const struct config_derived *derived(const struct config *c,
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

static bool has_warning(const struct config *c, const char *text)
{
	for (size_t i = 0; i < c->n_warnings; i++)
		if (strcmp(c->warnings[i], text) == 0)
			return true;
	return false;
}

/* True when some warning starts with `prefix` and contains `part`. */
static bool has_warning_like(const struct config *c, const char *prefix,
			     const char *part)
{
	for (size_t i = 0; i < c->n_warnings; i++)
		if (strncmp(c->warnings[i], prefix, strlen(prefix)) == 0 &&
		    strstr(c->warnings[i], part))
			return true;
	return false;
}

static void print_warnings(const struct config *c)
{
	for (size_t i = 0; i < c->n_warnings; i++)
		print_message("warning: %s\n", c->warnings[i]);
}

static char *path_join(const char *dir, const char *leaf)
{
	char *p = NULL;
	assert_true(asprintf(&p, "%s/%s", dir, leaf) > 0);
	return p;
}

/* Write `text` to dir/leaf, creating the parent directories of leaf. */
static char *write_file(const char *dir, const char *leaf, const char *text)
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

static char *read_all(const char *path, size_t *len)
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

static char *make_tmpdir(void)
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

static void remove_tree(char *dir)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

static char *themes_dir(void)
{
	const char *top = getenv("top_srcdir");
	return path_join(top && *top ? top : ".", "themes");
}

/* Point the user's config directory at `dir` (so tests never see the real
 * one). */
static void set_config_home(const char *dir)
{
	assert_int_equal(setenv("XDG_CONFIG_HOME", dir, 1), 0);
}

/* ---- degenerate inputs ------------------------------------------------ */

static void test_degenerate(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	config_free(NULL);
	config_init(&c);
	assert_int_equal(config_parse_text(&c, NULL, 0, NULL, &err),
			 STATUS_OK);
	assert_int_equal(config_parse_text(&c, "", 0, "x", &err), STATUS_OK);
	parse(&c, "# only a comment\n\n   \t\n# another\n\n", "comments");
	parse(&c, "\n", "nl");
	assert_int_equal(c.n_options + c.n_bindings + c.n_colors +
				 c.n_derived + c.n_warnings,
			 0);
	assert_null(c.theme);
	config_free(&c);
	config_free(&c);
	assert_null(c.options);
	assert_int_equal(c.n_warnings, 0);

	assert_int_equal(config_parse_text(NULL, "set a = 1", 9, "x", &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(config_parse_text(&c, NULL, 3, "x", &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(config_load_file(&c, NULL, &err), STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(config_load_theme(NULL, "default", NULL, &err),
			 STATUS_USAGE);
	error_clear(&err);
	/* text without a final newline, and a name-less parse */
	parse(&c, "set last = 1", NULL);
	assert_string_equal(option_value(&c, "last"), "1");
	assert_string_equal(option(&c, "last")->file, "<default>");
	config_free(&c);
}

static void test_roles(void **state)
{
	(void)state;
	enum theme_role r = THEME_ROLE_DIM;
	assert_int_equal(THEME_ROLE_COUNT, N_EXPECTED_ROLES);
	for (unsigned i = 0; i < N_EXPECTED_ROLES; i++) {
		assert_string_equal(theme_role_name((enum theme_role)i),
				    expected_roles[i]);
		assert_non_null(theme_role_description((enum theme_role)i));
		assert_true(theme_role_parse(expected_roles[i], &r));
		assert_int_equal(r, i);
	}
	assert_int_equal(THEME_ROLE_TITLE, 0);
	assert_string_equal(theme_role_name(THEME_ROLE_TAB_ACTIVE),
			    "tab-active");
	assert_string_equal(theme_role_name(THEME_ROLE_TRACE_IDLE),
			    "trace-idle");
	assert_null(theme_role_name(THEME_ROLE_COUNT));
	assert_null(theme_role_description(THEME_ROLE_COUNT));
	r = THEME_ROLE_BAR;
	assert_false(theme_role_parse(NULL, &r));
	assert_false(theme_role_parse("", &r));
	assert_false(theme_role_parse("Title", &r));
	assert_false(theme_role_parse("title ", &r));
	assert_int_equal(r, THEME_ROLE_BAR);
}

/* ---- commands --------------------------------------------------------- */

static void test_set(void **state)
{
	(void)state;
	struct config c;
	config_init(&c);
	parse(&c,
	      "set view = top-down\n"
	      "set columns = time  (inc)   cycles\n"
	      "set empty =\n"
	      "set view = flat\n"
	      "set tight=1\n"
	      "set half =2\n"
	      "set Mixed_Case.name-1 = ok\n"
	      "set eq = a=b = c\n",
	      "a.conf");
	print_warnings(&c);
	assert_int_equal(c.n_warnings, 0);
	assert_int_equal(c.n_options, 7);
	/* order of first appearance, the last value */
	assert_string_equal(c.options[0].name, "view");
	assert_string_equal(c.options[0].value, "flat");
	assert_int_equal(c.options[0].line, 4);
	assert_string_equal(c.options[0].file, "a.conf");
	assert_string_equal(option_value(&c, "columns"), "time (inc) cycles");
	assert_string_equal(option_value(&c, "empty"), "");
	assert_string_equal(option_value(&c, "tight"), "1");
	assert_string_equal(option_value(&c, "half"), "2");
	assert_string_equal(option_value(&c, "Mixed_Case.name-1"), "ok");
	assert_string_equal(option_value(&c, "eq"), "a=b = c");
	/* a later text overrides too */
	parse(&c, "set view = bottom-up\n", "b.conf");
	assert_int_equal(c.n_options, 7);
	assert_string_equal(option_value(&c, "view"), "bottom-up");
	assert_string_equal(option(&c, "view")->file, "b.conf");
	assert_int_equal(option(&c, "view")->line, 1);
	config_free(&c);
}

static void test_bind(void **state)
{
	(void)state;
	struct config c;
	config_init(&c);
	parse(&c,
	      "bind generic q quit\n"
	      "bind tree <Enter> toggle-expand\n"
	      "bind generic q view-close\n"
	      "bind flat q quit\n"
	      "bind tree = zoom-in\n"
	      "bind tree '#' toggle-guides\n"
	      "bind generic <C-x> :derive ipc = $2 / $1\n",
	      "keys");
	print_warnings(&c);
	assert_int_equal(c.n_warnings, 0);
	assert_int_equal(c.n_bindings, 6);
	assert_string_equal(binding(&c, "generic", "q")->action, "view-close");
	assert_int_equal(binding(&c, "generic", "q")->line, 3);
	assert_string_equal(binding(&c, "flat", "q")->action, "quit");
	assert_string_equal(binding(&c, "tree", "<Enter>")->action,
			    "toggle-expand");
	assert_string_equal(binding(&c, "tree", "=")->action, "zoom-in");
	assert_string_equal(binding(&c, "tree", "#")->action, "toggle-guides");
	assert_string_equal(binding(&c, "generic", "<C-x>")->action,
			    ":derive ipc = $2 / $1");
	assert_string_equal(c.bindings[0].keymap, "generic");
	assert_string_equal(c.bindings[0].key, "q");
	config_free(&c);
}

static void test_bind_rejects(void **state)
{
	(void)state;
	struct config c;
	config_init(&c);
	parse(&c,
	      "bind generic \"\" quit\n"
	      "bind generic 123456789012345678901234567890123 quit\n"
	      "bind generic 12345678901234567890123456789012 quit\n"
	      "bind bad/map q quit\n"
	      "bind generic q\n"
	      "bind generic q \"\"\n",
	      "k");
	assert_int_equal(c.n_bindings, 1);
	assert_string_equal(binding(&c, "generic",
				    "12345678901234567890123456789012")
				    ->action,
			    "quit");
	assert_true(has_warning(&c, "k:1: bind: key name must be 1 to 32 "
				    "bytes"));
	assert_true(has_warning(&c, "k:2: bind: key name must be 1 to 32 "
				    "bytes"));
	assert_true(has_warning(&c, "k:4: bind: bad keymap name 'bad/map'"));
	assert_true(has_warning(&c, "k:5: bind: expected 'bind KEYMAP KEY "
				    "ACTION'"));
	assert_true(has_warning(&c, "k:6: bind: empty action"));
	assert_int_equal(c.n_warnings, 5);
	config_free(&c);
}

static void test_color(void **state)
{
	(void)state;
	struct config c;
	config_init(&c);
	parse(&c,
	      "color title white blue bold\n"
	      "color tabs bright-black bright-white\n"
	      "color bar 196 default reverse underline dim standout italic "
	      "blink\n"
	      "color dim color244 color0 normal\n"
	      "color guide 0 255\n"
	      "color tree default default\n"
	      "color title yellow black\n",
	      "c");
	print_warnings(&c);
	assert_int_equal(c.n_warnings, 0);
	assert_int_equal(c.n_colors, 6);
	const struct config_color *t = color(&c, THEME_ROLE_TITLE);
	assert_int_equal(t->fg.kind, CONFIG_COLOR_INDEX);
	assert_int_equal(t->fg.index, 3);
	assert_int_equal(t->bg.index, 0);
	assert_int_equal(t->attrs, 0);
	assert_int_equal(t->line, 7);
	assert_false(t->from_theme);
	t = color(&c, THEME_ROLE_TABS);
	assert_int_equal(t->fg.index, 8);
	assert_int_equal(t->bg.index, 15);
	t = color(&c, THEME_ROLE_BAR);
	assert_int_equal(t->fg.index, 196);
	assert_int_equal(t->bg.kind, CONFIG_COLOR_DEFAULT);
	assert_int_equal(t->attrs,
			 CONFIG_ATTR_REVERSE | CONFIG_ATTR_UNDERLINE |
				 CONFIG_ATTR_DIM | CONFIG_ATTR_STANDOUT |
				 CONFIG_ATTR_ITALIC | CONFIG_ATTR_BLINK);
	t = color(&c, THEME_ROLE_DIM);
	assert_int_equal(t->fg.index, 244);
	assert_int_equal(t->bg.kind, CONFIG_COLOR_INDEX);
	assert_int_equal(t->bg.index, 0);
	assert_int_equal(t->attrs, 0);
	t = color(&c, THEME_ROLE_GUIDE);
	assert_int_equal(t->fg.index, 0);
	assert_int_equal(t->bg.index, 255);
	t = color(&c, THEME_ROLE_TREE);
	assert_int_equal(t->fg.kind, CONFIG_COLOR_DEFAULT);
	assert_int_equal(t->bg.kind, CONFIG_COLOR_DEFAULT);
	config_free(&c);
}

static void test_color_rejects(void **state)
{
	(void)state;
	struct config c;
	config_init(&c);
	parse(&c,
	      "color nosuch red blue\n"
	      "color title 256 blue\n"
	      "color title red color256\n"
	      "color title red blue sparkly\n"
	      "color title red\n"
	      "color title -1 blue\n"
	      "color title bright-default blue\n"
	      "color title Red blue\n"
	      "color title 0012 blue\n"
	      "color title red blue bold\n",
	      "t.theme");
	assert_int_equal(c.n_colors, 1);
	assert_int_equal(color(&c, THEME_ROLE_TITLE)->attrs, CONFIG_ATTR_BOLD);
	assert_true(has_warning(&c, "t.theme:1: color: unknown role 'nosuch'"));
	assert_true(has_warning(&c, "t.theme:2: color: unknown colour '256'"));
	assert_true(
		has_warning(&c, "t.theme:3: color: unknown colour 'color256'"));
	assert_true(has_warning(&c, "t.theme:4: color: unknown attribute "
				    "'sparkly'"));
	assert_true(has_warning(&c, "t.theme:5: color: expected 'color ROLE "
				    "FG BG [ATTR...]'"));
	assert_true(has_warning(&c, "t.theme:6: color: unknown colour '-1'"));
	assert_true(has_warning(&c, "t.theme:7: color: unknown colour "
				    "'bright-default'"));
	assert_true(has_warning(&c, "t.theme:8: color: unknown colour 'Red'"));
	assert_true(has_warning(&c, "t.theme:9: color: unknown colour '0012'"));
	assert_int_equal(c.n_warnings, 9);
	config_free(&c);
}

static void test_theme_command(void **state)
{
	(void)state;
	struct config c;
	config_init(&c);
	parse(&c,
	      "theme light\n"
	      "theme mono\n"
	      "theme ../etc/passwd\n"
	      "theme .hidden\n"
	      "theme a b\n"
	      "theme\n",
	      "th");
	assert_string_equal(c.theme, "mono");
	assert_true(has_warning(&c, "th:3: theme: bad theme name "
				    "'../etc/passwd'"));
	assert_true(has_warning(&c, "th:4: theme: bad theme name '.hidden'"));
	assert_true(has_warning(&c, "th:5: theme: expected 'theme NAME'"));
	assert_true(has_warning(&c, "th:6: theme: expected 'theme NAME'"));
	assert_int_equal(c.n_warnings, 4);
	config_free(&c);
}

static void test_derive(void **state)
{
	(void)state;
	struct config c;
	config_init(&c);
	parse(&c,
	      "derive ipc = $2 / $1   # instructions per cycle\n"
	      "derive miss=($3+$4)*100\n"
	      "derive q = \"a # b\" + 'c' # comment\n"
	      "derive ipc = ($2 + 1) / $1\n"
	      "derive bad =\n"
	      "derive bad = # only a comment\n"
	      "derive nameonly\n"
	      "derive \"x y\" = 1\n"
	      "derive open = \"abc\n",
	      "d");
	assert_int_equal(c.n_derived, 3);
	assert_string_equal(c.derived[0].name, "ipc");
	assert_string_equal(c.derived[0].formula, "($2 + 1) / $1");
	assert_int_equal(c.derived[0].line, 4);
	assert_string_equal(derived(&c, "miss")->formula, "($3+$4)*100");
	assert_string_equal(derived(&c, "q")->formula, "\"a # b\" + 'c'");
	assert_true(has_warning(&c, "d:5: derive: empty formula for 'bad'"));
	assert_true(has_warning(&c, "d:6: derive: empty formula for 'bad'"));
	assert_true(has_warning(&c, "d:7: derive: expected 'derive NAME = "
				    "FORMULA'"));
	assert_true(has_warning_like(&c, "d:8: derive: bad name 'x y'", ""));
	assert_true(has_warning(&c, "d:9: unterminated quote"));
	assert_int_equal(c.n_warnings, 5);
	config_free(&c);
}

static void test_quoting(void **state)
{
	(void)state;
	struct config c;
	config_init(&c);
	parse(&c,
	      "set a = \"q\\\"uote\"\n"
	      "set b = 'single \"q\" \\n'\n"
	      "set c = x\"y z\"w\n"
	      "set d = \"\"\n"
	      "set e = \"a#b\" # c\n"
	      "set f = \"back\\\\slash\" \"\\t\"\n"
	      "set g = 'it''s'\n"
	      "set \"h\" = 1#2\n"
	      "set i = \"open\n"
	      "set j = 'open\n"
	      "bind x \"y\n"
	      "\"unterminated\n",
	      "q");
	assert_string_equal(option_value(&c, "a"), "q\"uote");
	assert_string_equal(option_value(&c, "b"), "single \"q\" \\n");
	assert_string_equal(option_value(&c, "c"), "xy zw");
	assert_string_equal(option_value(&c, "d"), "");
	assert_string_equal(option_value(&c, "e"), "a#b");
	assert_string_equal(option_value(&c, "f"), "back\\slash \\t");
	assert_string_equal(option_value(&c, "g"), "its");
	assert_string_equal(option_value(&c, "h"), "1");
	assert_false(has_option(&c, "i"));
	assert_false(has_option(&c, "j"));
	assert_true(has_warning(&c, "q:9: unterminated quote"));
	assert_true(has_warning(&c, "q:10: unterminated quote"));
	assert_true(has_warning(&c, "q:11: unterminated quote"));
	assert_true(has_warning(&c, "q:12: unterminated quote"));
	assert_int_equal(c.n_warnings, 4);
	config_free(&c);
}

static void test_malformed_warnings(void **state)
{
	(void)state;
	struct config c;
	config_init(&c);
	parse(&c,
	      "set\n"
	      "set = 1\n"
	      "set x 1\n"
	      "set bad/name = 1\n"
	      "frobnicate now\n"
	      "=\n"
	      "source\n"
	      "source a b\n"
	      "Set x = 1\n"
	      "set ok = yes\n",
	      "/etc/m.conf");
	assert_true(has_warning(&c, "/etc/m.conf:1: set: expected 'set NAME "
				    "= VALUE'"));
	assert_true(has_warning(&c, "/etc/m.conf:2: set: expected 'set NAME "
				    "= VALUE'"));
	assert_true(has_warning(&c, "/etc/m.conf:3: set: expected 'set NAME "
				    "= VALUE'"));
	assert_true(has_warning_like(&c, "/etc/m.conf:4: set: bad name "
					 "'bad/name'",
				     ""));
	assert_true(has_warning(&c, "/etc/m.conf:5: unknown command "
				    "'frobnicate'"));
	assert_true(has_warning(&c, "/etc/m.conf:6: unknown command '='"));
	assert_true(has_warning(&c, "/etc/m.conf:7: source: expected 'source "
				    "PATH'"));
	assert_true(has_warning(&c, "/etc/m.conf:8: source: expected 'source "
				    "PATH'"));
	assert_true(has_warning(&c, "/etc/m.conf:9: unknown command 'Set'"));
	assert_int_equal(c.n_warnings, 9);
	assert_int_equal(c.n_options, 1);
	assert_string_equal(option_value(&c, "ok"), "yes");
	config_free(&c);
}

/* Control characters from the input are escaped in warnings. */
static void test_warning_sanitized(void **state)
{
	(void)state;
	struct config c;
	config_init(&c);
	parse(&c, "\x1b]0;pwned\x07 x\n", "e");
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0],
			    "e:1: unknown command '\\x1b]0;pwned\\x07'");
	config_free(&c);
}

static void test_crlf(void **state)
{
	(void)state;
	struct config c;
	config_init(&c);
	parse(&c, "set a = 1\r\nset b = \"two words\"\r\n\r\nbind g x y\r\n",
	      "crlf");
	assert_int_equal(c.n_warnings, 0);
	assert_string_equal(option_value(&c, "a"), "1");
	assert_string_equal(option_value(&c, "b"), "two words");
	assert_string_equal(binding(&c, "g", "x")->action, "y");
	assert_int_equal(binding(&c, "g", "x")->line, 4);
	config_free(&c);
}

/* ---- limits and garbage ----------------------------------------------- */

static void test_long_lines(void **state)
{
	(void)state;
	struct config c;
	size_t n = 10000;
	/* line 1: 10,000 characters; line 2: exactly the limit; line 3 ok */
	char *text = malloc(n + CONFIG_LINE_MAX + 64);
	assert_non_null(text);
	size_t len = 0;
	len += (size_t)sprintf(text + len, "set long = ");
	while (len < n)
		text[len++] = 'x';
	text[len++] = '\n';
	size_t start = len;
	len += (size_t)sprintf(text + len, "set edge = ");
	while (len - start < CONFIG_LINE_MAX)
		text[len++] = 'y';
	text[len++] = '\n';
	len += (size_t)sprintf(text + len, "set after = 1\n");
	config_init(&c);
	struct error err = {0};
	assert_int_equal(config_parse_text(&c, text, len, "long", &err),
			 STATUS_OK);
	assert_false(has_option(&c, "long"));
	assert_int_equal(strlen(option_value(&c, "edge")),
			 CONFIG_LINE_MAX - strlen("set edge = "));
	assert_string_equal(option_value(&c, "after"), "1");
	assert_int_equal(option(&c, "after")->line, 3);
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0],
			    "long:1: line longer than 4096 bytes; ignored");
	config_free(&c);
	free(text);
}

static void test_binary_garbage(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	size_t n = 64 * 1024;
	char *buf = malloc(n);
	assert_non_null(buf);
	uint32_t x = 12345;
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (char)(x >> 16);
	}
	config_init(&c);
	c.source_disabled = true;
	assert_int_equal(config_parse_text(&c, buf, n, "garbage", &err),
			 STATUS_OK);
	assert_true(c.n_warnings <= CONFIG_WARNINGS_MAX);
	config_free(&c);

	/* a NUL byte costs only its own line */
	const char nul[] = "set a = 1\nset b\0 = 2\nset c = 3\n";
	config_init(&c);
	assert_int_equal(config_parse_text(&c, nul, sizeof(nul) - 1, "nul",
					   &err),
			 STATUS_OK);
	assert_string_equal(option_value(&c, "a"), "1");
	assert_false(has_option(&c, "b"));
	assert_string_equal(option_value(&c, "c"), "3");
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0], "nul:2: NUL byte in line; ignored");
	config_free(&c);
	free(buf);
}

static void test_warning_cap(void **state)
{
	(void)state;
	struct config c;
	size_t lines = 500;
	char *text = malloc(lines * 4 + 1);
	assert_non_null(text);
	for (size_t i = 0; i < lines; i++)
		memcpy(text + i * 4, "bad\n", 4);
	text[lines * 4] = '\0';
	config_init(&c);
	parse(&c, text, "w");
	assert_int_equal(c.n_warnings, CONFIG_WARNINGS_MAX);
	assert_string_equal(c.warnings[0], "w:1: unknown command 'bad'");
	assert_string_equal(c.warnings[CONFIG_WARNINGS_MAX - 1],
			    "w:100: too many warnings; further ones are not "
			    "shown");
	config_free(&c);
	free(text);
}

/* At most CONFIG_ENTRIES_MAX options, bindings and derived columns: one
 * more is a warning naming it, while a name already stored is still
 * replaced in place. */
static void test_entry_limit(void **state)
{
	(void)state;
	struct config c;
	size_t n = CONFIG_ENTRIES_MAX + 1;
	size_t cap = n * 64 + 64;
	char *text = malloc(cap);
	assert_non_null(text);
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"set o%zu = %zu\n", i, i);
	len += (size_t)snprintf(text + len, cap - len, "set o7 = again\n");
	config_init(&c);
	parse(&c, text, "lim");
	assert_int_equal(c.n_options, CONFIG_ENTRIES_MAX);
	char want[96];
	snprintf(want, sizeof(want), "lim:%zu: more than %d options; 'o%d' "
		 "ignored", n, CONFIG_ENTRIES_MAX, CONFIG_ENTRIES_MAX);
	assert_true(has_warning(&c, want));
	assert_false(has_option(&c, "o1024"));
	assert_string_equal(option_value(&c, "o7"), "again");
	assert_int_equal(option(&c, "o7")->line, n + 1);
	config_free(&c);

	len = 0;
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"bind main k%zu quit\n", i);
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"derive d%zu = $%zu\n", i, i);
	config_init(&c);
	parse(&c, text, "lim");
	assert_int_equal(c.n_bindings, CONFIG_ENTRIES_MAX);
	assert_int_equal(c.n_derived, CONFIG_ENTRIES_MAX);
	snprintf(want, sizeof(want), "lim:%zu: more than %d bindings; "
		 "'main k%d' ignored", n, CONFIG_ENTRIES_MAX, CONFIG_ENTRIES_MAX);
	assert_true(has_warning(&c, want));
	snprintf(want, sizeof(want), "lim:%zu: more than %d derived columns; "
		 "'d%d' ignored", 2 * n, CONFIG_ENTRIES_MAX, CONFIG_ENTRIES_MAX);
	assert_true(has_warning(&c, want));
	assert_string_equal(derived(&c, "d1023")->formula, "$1023");
	config_free(&c);
	free(text);
}

static void test_file_size_limit(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	size_t n = CONFIG_FILE_MAX + 1;
	char *big = malloc(n);
	assert_non_null(big);
	memset(big, '\n', n);
	memcpy(big, "set a = 1\n", 10);
	config_init(&c);
	assert_int_equal(config_parse_text(&c, big, n, "big", &err),
			 STATUS_OK);
	assert_int_equal(c.n_options, 0);
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0],
			    "big: larger than 1048576 bytes; not read");
	config_free(&c);

	/* the same through a file, and exactly the limit is read */
	char *dir = make_tmpdir();
	char *path = path_join(dir, "big.conf");
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(big, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	config_init(&c);
	assert_int_equal(config_load_file(&c, path, &err), STATUS_OK);
	assert_int_equal(c.n_options, 0);
	assert_int_equal(c.n_warnings, 1);
	assert_true(has_warning_like(&c, path, "larger than 1048576 bytes"));
	config_free(&c);
	assert_int_equal(truncate(path, (off_t)(n - 1)), 0);
	config_init(&c);
	assert_int_equal(config_load_file(&c, path, &err), STATUS_OK);
	assert_string_equal(option_value(&c, "a"), "1");
	assert_int_equal(c.n_warnings, 0);
	config_free(&c);
	free(path);
	remove_tree(dir);
	free(big);
}

/* ---- files and source ------------------------------------------------- */

static void test_load_file(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	char *dir = make_tmpdir();
	char *missing = path_join(dir, "nope/config");
	char *path = write_file(dir, "config", "set a = 1\nbogus\n");
	config_init(&c);
	/* a missing file is silently nothing */
	assert_int_equal(config_load_file(&c, missing, &err), STATUS_OK);
	assert_int_equal(c.n_warnings + c.n_options, 0);
	assert_int_equal(config_load_file(&c, path, &err), STATUS_OK);
	assert_string_equal(option_value(&c, "a"), "1");
	assert_string_equal(option(&c, "a")->file, path);
	char *want = NULL;
	assert_true(asprintf(&want, "%s:2: unknown command 'bogus'", path) > 0);
	assert_true(has_warning(&c, want));
	free(want);
	/* a directory is a warning naming it */
	assert_int_equal(config_load_file(&c, dir, &err), STATUS_OK);
	assert_int_equal(c.n_warnings, 2);
	assert_true(has_warning_like(&c, dir, "not a regular file"));
	/* a FIFO is refused before it is opened (open would wait) */
	char *fifo = path_join(dir, "fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(config_load_file(&c, fifo, &err), STATUS_OK);
	parse(&c, "source fifo\n", path);
	assert_int_equal(c.n_warnings, 4);
	assert_true(has_warning_like(&c, fifo, "not a regular file"));
	assert_true(asprintf(&want, "%s:1: source: %s: not a regular file",
			     path, fifo) > 0);
	assert_true(has_warning(&c, want));
	free(want);
	free(fifo);
	config_free(&c);
	free(missing);
	free(path);
	remove_tree(dir);
}

static void test_source_relative(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	char *dir = make_tmpdir();
	char *main_conf = write_file(dir, "main.conf",
				     "set from = main\n"
				     "source sub/inc.conf\n"
				     "set after = main\n"
				     "source sub/missing.conf\n");
	char *inc = write_file(dir, "sub/inc.conf",
			       "set from = inc\n"
			       "source inc2.conf\n");
	char *inc2 = write_file(dir, "sub/inc2.conf", "set deep = inc2\n");
	config_init(&c);
	assert_int_equal(config_load_file(&c, main_conf, &err), STATUS_OK);
	assert_string_equal(option_value(&c, "from"), "inc");
	assert_string_equal(option(&c, "from")->file, inc);
	assert_int_equal(option(&c, "from")->line, 1);
	assert_string_equal(option_value(&c, "deep"), "inc2");
	assert_string_equal(option(&c, "deep")->file, inc2);
	assert_string_equal(option_value(&c, "after"), "main");
	assert_int_equal(c.n_warnings, 1);
	char *want = NULL;
	assert_true(asprintf(&want, "%s:4: source: %s/sub/missing.conf: No "
				    "such file or directory",
			     main_conf, dir) > 0);
	assert_string_equal(c.warnings[0], want);
	free(want);
	config_free(&c);

	/* parse_text resolves against the directory of its name */
	config_init(&c);
	parse(&c, "source inc2.conf\n", inc);
	assert_string_equal(option_value(&c, "deep"), "inc2");
	/* ...and `source` is refused when disabled */
	config_free(&c);
	config_init(&c);
	c.source_disabled = true;
	parse(&c, "source inc2.conf\n", inc);
	assert_false(has_option(&c, "deep"));
	assert_true(has_warning_like(&c, inc, ":1: source: not followed"));
	config_free(&c);
	free(main_conf);
	free(inc);
	free(inc2);
	remove_tree(dir);
}

static void test_source_tilde(void **state)
{
	(void)state;
	struct config c;
	char *dir = make_tmpdir();
	char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	char *conf = write_file(dir, "x/t.conf", "set tilde = yes\n");
	setenv("HOME", dir, 1);
	config_init(&c);
	parse(&c, "source ~/x/t.conf\n", "/nowhere/config");
	assert_string_equal(option_value(&c, "tilde"), "yes");
	assert_string_equal(option(&c, "tilde")->file, conf);
	assert_int_equal(c.n_warnings, 0);
	unsetenv("HOME");
	parse(&c, "source ~/x/t.conf\n", "h");
	assert_true(has_warning(&c, "h:1: source: ~/x/t.conf: HOME is not "
				    "set"));
	config_free(&c);
	if (old_home)
		setenv("HOME", old_home, 1);
	free(old_home);
	free(conf);
	remove_tree(dir);
}

static void test_source_cycle(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	char *dir = make_tmpdir();
	char *a = write_file(dir, "a.conf",
			     "set a = 1\nsource b.conf\nsource a.conf\n");
	char *b = write_file(dir, "b.conf", "set b = 2\nsource a.conf\n");
	config_init(&c);
	assert_int_equal(config_load_file(&c, a, &err), STATUS_OK);
	assert_string_equal(option_value(&c, "a"), "1");
	assert_string_equal(option_value(&c, "b"), "2");
	assert_int_equal(option(&c, "a")->line, 1);
	assert_string_equal(option(&c, "a")->file, a);
	assert_int_equal(c.n_warnings, 2);
	char *want = NULL;
	assert_true(asprintf(&want, "%s:2: source: %s/a.conf: already being "
				    "read (a cycle); not read again",
			     b, dir) > 0);
	assert_string_equal(c.warnings[0], want);
	free(want);
	assert_true(asprintf(&want, "%s:3: source: %s/a.conf: already being "
				    "read (a cycle); not read again",
			     a, dir) > 0);
	assert_string_equal(c.warnings[1], want);
	free(want);
	config_free(&c);
	free(a);
	free(b);
	remove_tree(dir);
}

/* f0 sources f1 ... f19; reading stops at CONFIG_SOURCE_DEPTH_MAX. */
static void test_source_depth(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	char *dir = make_tmpdir();
	char *paths[20] = {NULL};
	for (int i = 0; i < 20; i++) {
		char leaf[32];
		char text[96];
		snprintf(leaf, sizeof(leaf), "f%d.conf", i);
		snprintf(text, sizeof(text), "set level%d = %d\nsource f%d.conf\n",
			 i, i, i + 1);
		paths[i] = write_file(dir, leaf, text);
	}
	config_init(&c);
	assert_int_equal(config_load_file(&c, paths[0], &err), STATUS_OK);
	assert_int_equal(c.n_options, CONFIG_SOURCE_DEPTH_MAX + 1);
	assert_string_equal(option_value(&c, "level16"), "16");
	assert_false(has_option(&c, "level17"));
	assert_int_equal(c.n_warnings, 1);
	char *want = NULL;
	assert_true(asprintf(&want, "%s:2: source: nested deeper than 16; "
				    "'f17.conf' not read",
			     paths[16]) > 0);
	assert_string_equal(c.warnings[0], want);
	free(want);
	config_free(&c);
	for (int i = 0; i < 20; i++)
		free(paths[i]);
	remove_tree(dir);
}

/* A diamond of sources repeated at each level would read 2^16 files; the
 * file budget stops it. */
static void test_source_budget(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	char *dir = make_tmpdir();
	char *paths[16] = {NULL};
	for (int i = 0; i < 16; i++) {
		char leaf[32];
		char text[96];
		snprintf(leaf, sizeof(leaf), "d%d.conf", i);
		snprintf(text, sizeof(text), "source d%d.conf\nsource d%d.conf\n",
			 i + 1, i + 1);
		paths[i] = write_file(dir, leaf, text);
	}
	char *last = write_file(dir, "d16.conf", "set leaf = 1\n");
	config_init(&c);
	assert_int_equal(config_load_file(&c, paths[0], &err), STATUS_OK);
	assert_string_equal(option_value(&c, "leaf"), "1");
	assert_true(has_warning_like(&c, dir, "more than 256 files read"));
	config_free(&c);
	for (int i = 0; i < 16; i++)
		free(paths[i]);
	free(last);
	remove_tree(dir);
}

static void test_default_path(void **state)
{
	(void)state;
	char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	char *old_xdg = getenv("XDG_CONFIG_HOME")
				? strdup(getenv("XDG_CONFIG_HOME"))
				: NULL;
	setenv("XDG_CONFIG_HOME", "/xdg", 1);
	setenv("HOME", "/home/u", 1);
	char *p = config_default_path();
	assert_string_equal(p, "/xdg/callscope/config");
	free(p);
	p = config_user_theme_dir();
	assert_string_equal(p, "/xdg/callscope/themes");
	free(p);
	/* a relative XDG_CONFIG_HOME is ignored, as the XDG spec says */
	setenv("XDG_CONFIG_HOME", "rel", 1);
	p = config_default_path();
	assert_string_equal(p, "/home/u/.config/callscope/config");
	free(p);
	unsetenv("XDG_CONFIG_HOME");
	p = config_user_theme_dir();
	assert_string_equal(p, "/home/u/.config/callscope/themes");
	free(p);
	unsetenv("HOME");
	assert_null(config_default_path());
	if (old_home)
		setenv("HOME", old_home, 1);
	if (old_xdg)
		setenv("XDG_CONFIG_HOME", old_xdg, 1);
	free(old_home);
	free(old_xdg);
}

static void test_append_line(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	char *dir = make_tmpdir();
	char *path = path_join(dir, "a/b/config");
	size_t len = 0;
	assert_int_equal(config_append_line(path, "derive ipc = $2 / $1", &err),
			 STATUS_OK);
	assert_int_equal(config_append_line(path, "set view = flat", &err),
			 STATUS_OK);
	char *text = read_all(path, &len);
	assert_string_equal(text, "derive ipc = $2 / $1\nset view = flat\n");
	free(text);
	/* a file without a final newline gets one first */
	char *other = write_file(dir, "c", "set a = 1");
	assert_int_equal(config_append_line(other, "set b = 2", &err),
			 STATUS_OK);
	text = read_all(other, &len);
	assert_string_equal(text, "set a = 1\nset b = 2\n");
	free(text);
	assert_int_equal(config_append_line(other, "x\ny", &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(config_append_line(NULL, "x", &err), STATUS_USAGE);
	error_clear(&err);
	/* a parent that is a file */
	char *bad = path_join(other, "config");
	assert_int_equal(config_append_line(bad, "x", &err), STATUS_IO);
	error_clear(&err);
	/* what was appended reads back */
	config_init(&c);
	assert_int_equal(config_load_file(&c, path, &err), STATUS_OK);
	assert_string_equal(derived(&c, "ipc")->formula, "$2 / $1");
	assert_string_equal(option_value(&c, "view"), "flat");
	assert_int_equal(c.n_warnings, 0);
	config_free(&c);
	free(bad);
	free(other);
	free(path);
	remove_tree(dir);
}

/* ---- themes ----------------------------------------------------------- */

static void test_theme_files(void **state)
{
	(void)state;
	char *tdir = themes_dir();
	for (size_t t = 0; t < sizeof(theme_files) / sizeof(theme_files[0]);
	     t++) {
		char leaf[64];
		snprintf(leaf, sizeof(leaf), "%s.theme", theme_files[t]);
		char *path = path_join(tdir, leaf);
		size_t len = 0;
		char *text = read_all(path, &len);
		assert_non_null(text);
		/* opens with a comment naming the theme */
		char head[80];
		snprintf(head, sizeof(head), "# %s: ", theme_files[t]);
		assert_memory_equal(text, head, strlen(head));
		struct config c;
		config_init(&c);
		parse(&c, text, path);
		print_warnings(&c);
		assert_int_equal(c.n_warnings, 0);
		assert_int_equal(c.n_colors, THEME_ROLE_COUNT);
		for (unsigned r = 0; r < THEME_ROLE_COUNT; r++)
			assert_int_equal(color(&c, (enum theme_role)r)->role,
					 r);
		assert_int_equal(c.n_options + c.n_bindings + c.n_derived, 0);
		/* one color line per role: as many lines as roles + 1 */
		size_t lines = 0;
		for (size_t i = 0; i < len; i++)
			lines += text[i] == '\n';
		assert_int_equal(lines, THEME_ROLE_COUNT + 1);
		if (strcmp(theme_files[t], "mono") == 0) {
			for (size_t i = 0; i < c.n_colors; i++) {
				assert_int_equal(c.colors[i].fg.kind,
						 CONFIG_COLOR_DEFAULT);
				assert_int_equal(c.colors[i].bg.kind,
						 CONFIG_COLOR_DEFAULT);
			}
			assert_int_equal(color(&c, THEME_ROLE_SELECTED)->attrs,
					 CONFIG_ATTR_REVERSE);
		}
		config_free(&c);
		free(text);
		free(path);
	}
	free(tdir);
}

static void test_default_theme_compiled_in(void **state)
{
	(void)state;
	char *tdir = themes_dir();
	char *path = path_join(tdir, "default.theme");
	size_t len = 0;
	char *text = read_all(path, &len);
	assert_non_null(text);
	assert_int_equal(strlen(config_default_theme), len);
	assert_memory_equal(config_default_theme, text, len);
	free(text);
	free(path);
	free(tdir);
}

/* doc/config.md's role table names every role. */
static void test_doc_lists_roles(void **state)
{
	(void)state;
	const char *top = getenv("top_srcdir");
	char *path = path_join(top && *top ? top : ".", "doc/config.md");
	size_t len = 0;
	char *text = read_all(path, &len);
	assert_non_null(text);
	for (unsigned r = 0; r < THEME_ROLE_COUNT; r++) {
		char cell[64];
		snprintf(cell, sizeof(cell), "| `%s` | ",
			 theme_role_name((enum theme_role)r));
		if (!strstr(text, cell))
			fail_msg("doc/config.md does not list '%s'", cell);
	}
	free(text);
	free(path);
}

static void test_load_theme(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	char *home = make_tmpdir();
	char *tdir = themes_dir();
	const char *dirs[] = {"/nonexistent/themes", tdir, NULL};
	set_config_home(home);

	/* the compiled-in default, with a user colour that wins */
	config_init(&c);
	parse(&c, "color selected red blue underline\n", "user");
	assert_int_equal(config_load_theme(&c, "default", NULL, &err),
			 STATUS_OK);
	assert_int_equal(c.n_warnings, 0);
	assert_int_equal(c.n_colors, THEME_ROLE_COUNT);
	assert_string_equal(c.theme, "default");
	const struct config_color *sel = color(&c, THEME_ROLE_SELECTED);
	assert_false(sel->from_theme);
	assert_int_equal(sel->fg.index, 1);
	assert_int_equal(sel->attrs, CONFIG_ATTR_UNDERLINE);
	/* default.theme: "color title 231 24 bold" */
	const struct config_color *title = color(&c, THEME_ROLE_TITLE);
	assert_true(title->from_theme);
	assert_int_equal(title->fg.index, 231);
	assert_int_equal(title->bg.index, 24);
	assert_int_equal(title->attrs, CONFIG_ATTR_BOLD);

	/* switching to mono replaces every theme colour, not the user's */
	assert_int_equal(config_load_theme(&c, "mono", dirs, &err), STATUS_OK);
	assert_int_equal(c.n_warnings, 0);
	assert_int_equal(c.n_colors, THEME_ROLE_COUNT);
	assert_string_equal(c.theme, "mono");
	title = color(&c, THEME_ROLE_TITLE);
	assert_int_equal(title->fg.kind, CONFIG_COLOR_DEFAULT);
	assert_int_equal(title->attrs, CONFIG_ATTR_REVERSE | CONFIG_ATTR_BOLD);
	assert_int_equal(color(&c, THEME_ROLE_SELECTED)->fg.index, 1);
	char *mono_path = path_join(tdir, "mono.theme");
	assert_string_equal(title->file, mono_path);
	free(mono_path);

	/* every shipped theme loads without warnings */
	for (size_t t = 0; t < sizeof(theme_files) / sizeof(theme_files[0]);
	     t++) {
		assert_int_equal(config_load_theme(&c, theme_files[t], dirs,
						   &err),
				 STATUS_OK);
		assert_int_equal(c.n_warnings, 0);
		assert_int_equal(c.n_colors, THEME_ROLE_COUNT);
	}

	/* a theme that is not found: default applied, NOT_FOUND */
	assert_int_equal(config_load_theme(&c, "nosuch", dirs, &err),
			 STATUS_NOT_FOUND);
	assert_non_null(strstr(err.message, "nosuch"));
	error_clear(&err);
	assert_int_equal(color(&c, THEME_ROLE_TITLE)->fg.index, 231);
	assert_int_equal(config_load_theme(&c, "../x", dirs, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(config_load_theme(&c, NULL, dirs, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(c.n_colors, THEME_ROLE_COUNT);
	config_free(&c);

	/* the user's theme directory comes first; a partial theme falls back
	 * to the default per role; only color lines are allowed */
	char *user_theme = write_file(home, "callscope/themes/mono.theme",
				      "# mine\n"
				      "color title red default\n"
				      "set x = 1\n");
	config_init(&c);
	assert_int_equal(config_load_theme(&c, "mono", dirs, &err), STATUS_OK);
	assert_int_equal(c.n_colors, THEME_ROLE_COUNT);
	assert_int_equal(color(&c, THEME_ROLE_TITLE)->fg.index, 1);
	assert_int_equal(color(&c, THEME_ROLE_BAR)->fg.index, 167);
	assert_false(has_option(&c, "x"));
	char *want = NULL;
	assert_true(asprintf(&want, "%s:3: only color lines are allowed in a "
				    "theme",
			     user_theme) > 0);
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0], want);
	free(want);
	config_free(&c);

	free(user_theme);
	free(tdir);
	remove_tree(home);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_entry_limit),
		cmocka_unit_test(test_bind),
		cmocka_unit_test(test_bind_rejects),
		cmocka_unit_test(test_color),
		cmocka_unit_test(test_color_rejects),
		cmocka_unit_test(test_theme_command),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_malformed_warnings),
		cmocka_unit_test(test_warning_sanitized),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_binary_garbage),
		cmocka_unit_test(test_warning_cap),
		cmocka_unit_test(test_file_size_limit),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_source_relative),
		cmocka_unit_test(test_source_tilde),
		cmocka_unit_test(test_source_cycle),
		cmocka_unit_test(test_source_depth),
		cmocka_unit_test(test_source_budget),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_append_line),
		cmocka_unit_test(test_theme_files),
		cmocka_unit_test(test_default_theme_compiled_in),
		cmocka_unit_test(test_doc_lists_roles),
		cmocka_unit_test(test_load_theme),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
