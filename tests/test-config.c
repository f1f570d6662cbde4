/* Tests for config_file and theme_roles: the role list, every command,
 * quoting, overrides, warnings with their file and line.  Limits and
 * garbage are in test-config-limits.c, files and `source` in
 * test-config-files.c, the theme files in test-config-themes.c.  Expected
 * values are written out here by hand. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config_fixture.h"

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
	struct config *c = *state;
	parse(c,
	      "set view = top-down\n"
	      "set columns = time  (inc)   cycles\n"
	      "set empty =\n"
	      "set view = flat\n"
	      "set tight=1\n"
	      "set half =2\n"
	      "set Mixed_Case.name-1 = ok\n"
	      "set eq = a=b = c\n",
	      "a.conf");
	print_warnings(c);
	assert_int_equal(c->n_warnings, 0);
	assert_int_equal(c->n_options, 7);
	/* order of first appearance, the last value */
	assert_string_equal(c->options[0].name, "view");
	assert_string_equal(c->options[0].value, "flat");
	assert_int_equal(c->options[0].line, 4);
	assert_string_equal(c->options[0].file, "a.conf");
	assert_string_equal(option_value(c, "columns"), "time (inc) cycles");
	assert_string_equal(option_value(c, "empty"), "");
	assert_string_equal(option_value(c, "tight"), "1");
	assert_string_equal(option_value(c, "half"), "2");
	assert_string_equal(option_value(c, "Mixed_Case.name-1"), "ok");
	assert_string_equal(option_value(c, "eq"), "a=b = c");
	/* a later text overrides too */
	parse(c, "set view = bottom-up\n", "b.conf");
	assert_int_equal(c->n_options, 7);
	assert_string_equal(option_value(c, "view"), "bottom-up");
	assert_string_equal(option(c, "view")->file, "b.conf");
	assert_int_equal(option(c, "view")->line, 1);
}

static void test_bind(void **state)
{
	struct config *c = *state;
	parse(c,
	      "bind generic q quit\n"
	      "bind tree <Enter> toggle-expand\n"
	      "bind generic q view-close\n"
	      "bind flat q quit\n"
	      "bind tree = zoom-in\n"
	      "bind tree '#' toggle-guides\n"
	      "bind generic <C-x> :derive ipc = $2 / $1\n",
	      "keys");
	print_warnings(c);
	assert_int_equal(c->n_warnings, 0);
	assert_int_equal(c->n_bindings, 6);
	assert_string_equal(binding(c, "generic", "q")->action, "view-close");
	assert_int_equal(binding(c, "generic", "q")->line, 3);
	assert_string_equal(binding(c, "flat", "q")->action, "quit");
	assert_string_equal(binding(c, "tree", "<Enter>")->action,
			    "toggle-expand");
	assert_string_equal(binding(c, "tree", "=")->action, "zoom-in");
	assert_string_equal(binding(c, "tree", "#")->action, "toggle-guides");
	assert_string_equal(binding(c, "generic", "<C-x>")->action,
			    ":derive ipc = $2 / $1");
	assert_string_equal(c->bindings[0].keymap, "generic");
	assert_string_equal(c->bindings[0].key, "q");
}

static void test_bind_rejects(void **state)
{
	struct config *c = *state;
	parse(c,
	      "bind generic \"\" quit\n"
	      "bind generic 123456789012345678901234567890123 quit\n"
	      "bind generic 12345678901234567890123456789012 quit\n"
	      "bind bad/map q quit\n"
	      "bind generic q\n"
	      "bind generic q \"\"\n",
	      "k");
	assert_int_equal(c->n_bindings, 1);
	assert_string_equal(binding(c, "generic",
				    "12345678901234567890123456789012")
				    ->action,
			    "quit");
	static const char *const want[] = {
		"k:1: bind: key name must be 1 to 32 bytes",
		"k:2: bind: key name must be 1 to 32 bytes",
		"k:4: bind: bad keymap name 'bad/map'",
		"k:5: bind: expected 'bind KEYMAP KEY ACTION'",
		"k:6: bind: empty action",
	};
	assert_warnings(c, want, sizeof(want) / sizeof(want[0]));
}

static void test_color(void **state)
{
	struct config *c = *state;
	parse(c,
	      "color title white blue bold\n"
	      "color tabs bright-black bright-white\n"
	      "color bar 196 default reverse underline dim standout italic "
	      "blink\n"
	      "color dim color244 color0 normal\n"
	      "color guide 0 255\n"
	      "color tree default default\n"
	      "color title yellow black\n",
	      "c");
	print_warnings(c);
	assert_int_equal(c->n_warnings, 0);
	assert_int_equal(c->n_colors, 6);
	const struct config_color *t = color(c, THEME_ROLE_TITLE);
	assert_int_equal(t->fg.kind, CONFIG_COLOR_INDEX);
	assert_int_equal(t->fg.index, 3);
	assert_int_equal(t->bg.index, 0);
	assert_int_equal(t->attrs, 0);
	assert_int_equal(t->line, 7);
	assert_false(t->from_theme);
	t = color(c, THEME_ROLE_TABS);
	assert_int_equal(t->fg.index, 8);
	assert_int_equal(t->bg.index, 15);
	t = color(c, THEME_ROLE_BAR);
	assert_int_equal(t->fg.index, 196);
	assert_int_equal(t->bg.kind, CONFIG_COLOR_DEFAULT);
	assert_int_equal(t->attrs,
			 CONFIG_ATTR_REVERSE | CONFIG_ATTR_UNDERLINE |
				 CONFIG_ATTR_DIM | CONFIG_ATTR_STANDOUT |
				 CONFIG_ATTR_ITALIC | CONFIG_ATTR_BLINK);
	t = color(c, THEME_ROLE_DIM);
	assert_int_equal(t->fg.index, 244);
	assert_int_equal(t->bg.kind, CONFIG_COLOR_INDEX);
	assert_int_equal(t->bg.index, 0);
	assert_int_equal(t->attrs, 0);
	t = color(c, THEME_ROLE_GUIDE);
	assert_int_equal(t->fg.index, 0);
	assert_int_equal(t->bg.index, 255);
	t = color(c, THEME_ROLE_TREE);
	assert_int_equal(t->fg.kind, CONFIG_COLOR_DEFAULT);
	assert_int_equal(t->bg.kind, CONFIG_COLOR_DEFAULT);
}

static void test_color_rejects(void **state)
{
	struct config *c = *state;
	parse(c,
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
	assert_int_equal(c->n_colors, 1);
	assert_int_equal(color(c, THEME_ROLE_TITLE)->attrs, CONFIG_ATTR_BOLD);
	static const char *const want[] = {
		"t.theme:1: color: unknown role 'nosuch'",
		"t.theme:2: color: unknown colour '256'",
		"t.theme:3: color: unknown colour 'color256'",
		"t.theme:4: color: unknown attribute 'sparkly'",
		"t.theme:5: color: expected 'color ROLE FG BG [ATTR...]'",
		"t.theme:6: color: unknown colour '-1'",
		"t.theme:7: color: unknown colour 'bright-default'",
		"t.theme:8: color: unknown colour 'Red'",
		"t.theme:9: color: unknown colour '0012'",
	};
	assert_warnings(c, want, sizeof(want) / sizeof(want[0]));
}

static void test_theme_command(void **state)
{
	struct config *c = *state;
	parse(c,
	      "theme light\n"
	      "theme mono\n"
	      "theme ../etc/passwd\n"
	      "theme .hidden\n"
	      "theme a b\n"
	      "theme\n",
	      "th");
	assert_string_equal(c->theme, "mono");
	static const char *const want[] = {
		"th:3: theme: bad theme name '../etc/passwd'",
		"th:4: theme: bad theme name '.hidden'",
		"th:5: theme: expected 'theme NAME'",
		"th:6: theme: expected 'theme NAME'",
	};
	assert_warnings(c, want, sizeof(want) / sizeof(want[0]));
}

static void test_derive(void **state)
{
	struct config *c = *state;
	parse(c,
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
	assert_int_equal(c->n_derived, 3);
	assert_string_equal(c->derived[0].name, "ipc");
	assert_string_equal(c->derived[0].formula, "($2 + 1) / $1");
	assert_int_equal(c->derived[0].line, 4);
	assert_string_equal(derived(c, "miss")->formula, "($3+$4)*100");
	assert_string_equal(derived(c, "q")->formula, "\"a # b\" + 'c'");
	assert_true(has_warning(c, "d:5: derive: empty formula for 'bad'"));
	assert_true(has_warning(c, "d:6: derive: empty formula for 'bad'"));
	assert_true(has_warning(c, "d:7: derive: expected 'derive NAME = "
				    "FORMULA'"));
	assert_true(has_warning_like(c, "d:8: derive: bad name 'x y'", ""));
	assert_true(has_warning(c, "d:9: unterminated quote"));
	assert_int_equal(c->n_warnings, 5);
}

static void test_quoting(void **state)
{
	struct config *c = *state;
	parse(c,
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
	assert_string_equal(option_value(c, "a"), "q\"uote");
	assert_string_equal(option_value(c, "b"), "single \"q\" \\n");
	assert_string_equal(option_value(c, "c"), "xy zw");
	assert_string_equal(option_value(c, "d"), "");
	assert_string_equal(option_value(c, "e"), "a#b");
	assert_string_equal(option_value(c, "f"), "back\\slash \\t");
	assert_string_equal(option_value(c, "g"), "its");
	assert_string_equal(option_value(c, "h"), "1");
	assert_false(has_option(c, "i"));
	assert_false(has_option(c, "j"));
	static const char *const want[] = {
		"q:9: unterminated quote",
		"q:10: unterminated quote",
		"q:11: unterminated quote",
		"q:12: unterminated quote",
	};
	assert_warnings(c, want, sizeof(want) / sizeof(want[0]));
}

static void test_malformed_warnings(void **state)
{
	struct config *c = *state;
	parse(c,
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
	assert_true(has_warning(c, "/etc/m.conf:1: set: expected 'set NAME "
				    "= VALUE'"));
	assert_true(has_warning(c, "/etc/m.conf:2: set: expected 'set NAME "
				    "= VALUE'"));
	assert_true(has_warning(c, "/etc/m.conf:3: set: expected 'set NAME "
				    "= VALUE'"));
	assert_true(has_warning_like(c, "/etc/m.conf:4: set: bad name "
					 "'bad/name'",
				     ""));
	assert_true(has_warning(c, "/etc/m.conf:5: unknown command "
				    "'frobnicate'"));
	assert_true(has_warning(c, "/etc/m.conf:6: unknown command '='"));
	assert_true(has_warning(c, "/etc/m.conf:7: source: expected 'source "
				    "PATH'"));
	assert_true(has_warning(c, "/etc/m.conf:8: source: expected 'source "
				    "PATH'"));
	assert_true(has_warning(c, "/etc/m.conf:9: unknown command 'Set'"));
	assert_int_equal(c->n_warnings, 9);
	assert_int_equal(c->n_options, 1);
	assert_string_equal(option_value(c, "ok"), "yes");
}

/* Control characters from the input are escaped in warnings. */
static void test_warning_sanitized(void **state)
{
	struct config *c = *state;
	parse(c, "\x1b]0;pwned\x07 x\n", "e");
	assert_int_equal(c->n_warnings, 1);
	assert_string_equal(c->warnings[0],
			    "e:1: unknown command '\\x1b]0;pwned\\x07'");
}

static void test_crlf(void **state)
{
	struct config *c = *state;
	parse(c, "set a = 1\r\nset b = \"two words\"\r\n\r\nbind g x y\r\n",
	      "crlf");
	assert_int_equal(c->n_warnings, 0);
	assert_string_equal(option_value(c, "a"), "1");
	assert_string_equal(option_value(c, "b"), "two words");
	assert_string_equal(binding(c, "g", "x")->action, "y");
	assert_int_equal(binding(c, "g", "x")->line, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_roles),
		cmocka_unit_test_setup_teardown(test_set,
						config_setup, config_teardown),
		cmocka_unit_test_setup_teardown(test_bind,
						config_setup, config_teardown),
		cmocka_unit_test_setup_teardown(test_bind_rejects,
						config_setup, config_teardown),
		cmocka_unit_test_setup_teardown(test_color,
						config_setup, config_teardown),
		cmocka_unit_test_setup_teardown(test_color_rejects,
						config_setup, config_teardown),
		cmocka_unit_test_setup_teardown(test_theme_command,
						config_setup, config_teardown),
		cmocka_unit_test_setup_teardown(test_derive,
						config_setup, config_teardown),
		cmocka_unit_test_setup_teardown(test_quoting,
						config_setup, config_teardown),
		cmocka_unit_test_setup_teardown(test_malformed_warnings,
						config_setup, config_teardown),
		cmocka_unit_test_setup_teardown(test_warning_sanitized,
						config_setup, config_teardown),
		cmocka_unit_test_setup_teardown(test_crlf,
						config_setup, config_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
