/* config_fixture: what the config_file tests share (tests/config_fixture.c):
 * parsing text, looking entries up (a missing one fails the test),
 * warnings, files in a private temporary folder, the themes folder and
 * the user's config directory. */
#ifndef CALLSCOPE_TESTS_CONFIG_FIXTURE_H
#define CALLSCOPE_TESTS_CONFIG_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config_file.h"
#include "config/theme_roles.h"

void parse(struct config *c, const char *text, const char *name);

/* a cmocka fixture: *state is an empty config (config_init), freed after */
int config_setup(void **state);
int config_teardown(void **state);

/* lookups: a missing option, binding, colour or derived column fails */
bool has_option(const struct config *c, const char *name);
const struct config_option *option(const struct config *c, const char *name);
const char *option_value(const struct config *c, const char *name);
const struct config_binding *binding(const struct config *c,
				     const char *keymap, const char *key);
const struct config_color *color(const struct config *c, enum theme_role role);
const struct config_derived *derived(const struct config *c, const char *name);

/* warnings: one equal to `text`; one starting with `prefix` holding `part` */
bool has_warning(const struct config *c, const char *text);
bool has_warning_like(const struct config *c, const char *prefix,
		      const char *part);
void print_warnings(const struct config *c);
/* c's warning i is the printf-formatted text fmt */
void assert_warning_is(const struct config *c, size_t i, const char *fmt,
		       ...) __attribute__((format(printf, 3, 4)));
/* c's warnings are exactly want[0..n-1]: each one of them, n in all
 * (otherwise c's are printed and the test fails) */
void assert_warnings(const struct config *c, const char *const *want,
		     size_t n);

/* files (heap strings the caller frees) */
char *path_join(const char *dir, const char *leaf);
char *write_file(const char *dir, const char *leaf, const char *text);
char *read_all(const char *path, size_t *len);
char *make_tmpdir(void);
void remove_tree(char *dir); /* and frees dir */
char *themes_dir(void);
/* the user's config directory is `dir` (tests never see the real one) */
void set_config_home(const char *dir);

#endif
