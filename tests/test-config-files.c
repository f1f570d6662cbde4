/* Tests for config_file's files: loading one, `source` (relative paths,
 * ~, cycles, depth, budget), the default path and appending a line, in a
 * private temporary folder.  Expected values are written out here by
 * hand. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_fixture.h"

/* The value of environment variable NAME (a heap copy; NULL when it is
 * not set), for env_restore to put back. */
static char *env_save(const char *name)
{
	const char *v = getenv(name);
	return v ? strdup(v) : NULL;
}

/* NAME as env_save found it (set to SAVED, or left as the test left it
 * when it was not set); frees SAVED. */
static void env_restore(const char *name, char *saved)
{
	if (saved)
		setenv(name, saved, 1);
	free(saved);
}

/* ---- files and source ------------------------------------------------- */

/* The fixture: an empty config and a private temporary folder. */
struct files_fx {
	struct config c;
	char *dir;
};

static int files_setup(void **state)
{
	struct files_fx *x = calloc(1, sizeof(*x));
	if (!x)
		return -1;
	config_init(&x->c);
	x->dir = make_tmpdir();
	*state = x;
	return 0;
}

static int files_teardown(void **state)
{
	struct files_fx *x = *state;
	config_free(&x->c);
	remove_tree(x->dir);
	free(x);
	return 0;
}

static void test_load_file(void **state)
{
	struct files_fx *x = *state;
	struct config *c = &x->c;
	const char *dir = x->dir;
	struct error err = {0};
	char *missing = path_join(dir, "nope/config");
	char *path = write_file(dir, "config", "set a = 1\nbogus\n");
	/* a missing file is silently nothing */
	assert_int_equal(config_load_file(c, missing, &err), STATUS_OK);
	assert_int_equal(c->n_warnings + c->n_options, 0);
	assert_int_equal(config_load_file(c, path, &err), STATUS_OK);
	assert_string_equal(option_value(c, "a"), "1");
	assert_string_equal(option(c, "a")->file, path);
	char *want = NULL;
	assert_true(asprintf(&want, "%s:2: unknown command 'bogus'", path) > 0);
	assert_true(has_warning(c, want));
	free(want);
	/* a directory is a warning naming it */
	assert_int_equal(config_load_file(c, dir, &err), STATUS_OK);
	assert_int_equal(c->n_warnings, 2);
	assert_true(has_warning_like(c, dir, "not a regular file"));
	/* a FIFO is refused before it is opened (open would wait) */
	char *fifo = path_join(dir, "fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(config_load_file(c, fifo, &err), STATUS_OK);
	parse(c, "source fifo\n", path);
	assert_int_equal(c->n_warnings, 4);
	assert_true(has_warning_like(c, fifo, "not a regular file"));
	assert_true(asprintf(&want, "%s:1: source: %s: not a regular file",
			     path, fifo) > 0);
	assert_true(has_warning(c, want));
	free(want);
	free(fifo);
	free(missing);
	free(path);
}

static void test_source_relative(void **state)
{
	struct files_fx *x = *state;
	struct config *c = &x->c;
	const char *dir = x->dir;
	struct error err = {0};
	char *main_conf = write_file(dir, "main.conf",
				     "set from = main\n"
				     "source sub/inc.conf\n"
				     "set after = main\n"
				     "source sub/missing.conf\n");
	char *inc = write_file(dir, "sub/inc.conf",
			       "set from = inc\n"
			       "source inc2.conf\n");
	char *inc2 = write_file(dir, "sub/inc2.conf", "set deep = inc2\n");
	assert_int_equal(config_load_file(c, main_conf, &err), STATUS_OK);
	assert_string_equal(option_value(c, "from"), "inc");
	assert_string_equal(option(c, "from")->file, inc);
	assert_int_equal(option(c, "from")->line, 1);
	assert_string_equal(option_value(c, "deep"), "inc2");
	assert_string_equal(option(c, "deep")->file, inc2);
	assert_string_equal(option_value(c, "after"), "main");
	assert_int_equal(c->n_warnings, 1);
	assert_warning_is(c, 0,
			  "%s:4: source: %s/sub/missing.conf: No "
			  "such file or directory",
			  main_conf, dir);
	config_free(c);

	/* parse_text resolves against the directory of its name */
	config_init(c);
	parse(c, "source inc2.conf\n", inc);
	assert_string_equal(option_value(c, "deep"), "inc2");
	/* ...and `source` is refused when disabled */
	config_free(c);
	config_init(c);
	c->source_disabled = true;
	parse(c, "source inc2.conf\n", inc);
	assert_false(has_option(c, "deep"));
	assert_true(has_warning_like(c, inc, ":1: source: not followed"));
	free(main_conf);
	free(inc);
	free(inc2);
}

static void test_source_tilde(void **state)
{
	struct files_fx *x = *state;
	struct config *c = &x->c;
	const char *dir = x->dir;
	char *old_home = env_save("HOME");
	char *conf = write_file(dir, "x/t.conf", "set tilde = yes\n");
	setenv("HOME", dir, 1);
	parse(c, "source ~/x/t.conf\n", "/nowhere/config");
	assert_string_equal(option_value(c, "tilde"), "yes");
	assert_string_equal(option(c, "tilde")->file, conf);
	assert_int_equal(c->n_warnings, 0);
	unsetenv("HOME");
	parse(c, "source ~/x/t.conf\n", "h");
	assert_true(has_warning(c, "h:1: source: ~/x/t.conf: HOME is not "
				    "set"));
	env_restore("HOME", old_home);
	free(conf);
}

static void test_source_cycle(void **state)
{
	struct files_fx *x = *state;
	struct config *c = &x->c;
	const char *dir = x->dir;
	struct error err = {0};
	char *a = write_file(dir, "a.conf",
			     "set a = 1\nsource b.conf\nsource a.conf\n");
	char *b = write_file(dir, "b.conf", "set b = 2\nsource a.conf\n");
	assert_int_equal(config_load_file(c, a, &err), STATUS_OK);
	assert_string_equal(option_value(c, "a"), "1");
	assert_string_equal(option_value(c, "b"), "2");
	assert_int_equal(option(c, "a")->line, 1);
	assert_string_equal(option(c, "a")->file, a);
	assert_int_equal(c->n_warnings, 2);
	assert_warning_is(c, 0,
			  "%s:2: source: %s/a.conf: already being "
			  "read (a cycle); not read again",
			  b, dir);
	assert_warning_is(c, 1,
			  "%s:3: source: %s/a.conf: already being "
			  "read (a cycle); not read again",
			  a, dir);
	free(a);
	free(b);
}

/* f0 sources f1 ... f19; reading stops at CONFIG_SOURCE_DEPTH_MAX. */
static void test_source_depth(void **state)
{
	struct files_fx *x = *state;
	struct config *c = &x->c;
	const char *dir = x->dir;
	struct error err = {0};
	char *paths[20] = {NULL};
	for (int i = 0; i < 20; i++) {
		char leaf[32];
		char text[96];
		snprintf(leaf, sizeof(leaf), "f%d.conf", i);
		snprintf(text, sizeof(text), "set level%d = %d\nsource f%d.conf\n",
			 i, i, i + 1);
		paths[i] = write_file(dir, leaf, text);
	}
	assert_int_equal(config_load_file(c, paths[0], &err), STATUS_OK);
	assert_int_equal(c->n_options, CONFIG_SOURCE_DEPTH_MAX + 1);
	assert_string_equal(option_value(c, "level16"), "16");
	assert_false(has_option(c, "level17"));
	assert_int_equal(c->n_warnings, 1);
	assert_warning_is(c, 0,
			  "%s:2: source: nested deeper than 16; "
			  "'f17.conf' not read",
			  paths[16]);
	for (int i = 0; i < 20; i++)
		free(paths[i]);
}

/* A diamond of sources repeated at each level would read 2^16 files; the
 * file budget stops it. */
static void test_source_budget(void **state)
{
	struct files_fx *x = *state;
	struct config *c = &x->c;
	const char *dir = x->dir;
	struct error err = {0};
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
	assert_int_equal(config_load_file(c, paths[0], &err), STATUS_OK);
	assert_string_equal(option_value(c, "leaf"), "1");
	assert_true(has_warning_like(c, dir, "more than 256 files read"));
	for (int i = 0; i < 16; i++)
		free(paths[i]);
	free(last);
}

static void test_default_path(void **state)
{
	(void)state;
	char *old_home = env_save("HOME");
	char *old_xdg = env_save("XDG_CONFIG_HOME");
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
	env_restore("HOME", old_home);
	env_restore("XDG_CONFIG_HOME", old_xdg);
}

static void test_append_line(void **state)
{
	struct files_fx *x = *state;
	struct config *c = &x->c;
	const char *dir = x->dir;
	struct error err = {0};
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
	assert_int_equal(config_load_file(c, path, &err), STATUS_OK);
	assert_string_equal(derived(c, "ipc")->formula, "$2 / $1");
	assert_string_equal(option_value(c, "view"), "flat");
	assert_int_equal(c->n_warnings, 0);
	free(bad);
	free(other);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_load_file,
						files_setup, files_teardown),
		cmocka_unit_test_setup_teardown(test_source_relative,
						files_setup, files_teardown),
		cmocka_unit_test_setup_teardown(test_source_tilde,
						files_setup, files_teardown),
		cmocka_unit_test_setup_teardown(test_source_cycle,
						files_setup, files_teardown),
		cmocka_unit_test_setup_teardown(test_source_depth,
						files_setup, files_teardown),
		cmocka_unit_test_setup_teardown(test_source_budget,
						files_setup, files_teardown),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test_setup_teardown(test_append_line,
						files_setup, files_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
