/* Tests for the theme files and theme_roles: every file in themes/ parses
 * without a warning and names every role, the compiled-in default theme
 * equals default.theme, the manual lists the roles, themes load by name.
 * Expected values are written out here by hand. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <unistd.h>

#include "config_fixture.h"

static const char *const theme_files[] = {"default", "light", "mono",
					  "high-contrast"};

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
	assert_int_equal(c.n_warnings, 1);
	assert_warning_is(&c, 0,
			  "%s:3: only color lines are allowed in a "
			  "theme",
			  user_theme);
	config_free(&c);

	free(user_theme);
	free(tdir);
	remove_tree(home);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_theme_files),
		cmocka_unit_test(test_default_theme_compiled_in),
		cmocka_unit_test(test_doc_lists_roles),
		cmocka_unit_test(test_load_theme),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
