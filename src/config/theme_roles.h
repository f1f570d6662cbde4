/* theme_roles: the semantic drawing roles that `color` lines and themes
 * configure (the list is theme_roles.def).  The engine knows the roles by
 * name only; the UI turns each into a curses attribute.  Must not depend on
 * curses or on ui/. */
#ifndef CALLSCOPE_THEME_ROLES_H
#define CALLSCOPE_THEME_ROLES_H

#include <stdbool.h>

enum theme_role {
#define ROLE(upper, name, description) THEME_ROLE_##upper,
#include "config/theme_roles.def"
#undef ROLE
	THEME_ROLE_COUNT
};

/* The config name of a role ("tab-active"); NULL for an out-of-range
 * value. */
const char *theme_role_name(enum theme_role role);

/* One line describing a role, for the help screen and documentation; NULL
 * for an out-of-range value. */
const char *theme_role_description(enum theme_role role);

/* Look a role up by its config name (exact, case-sensitive).  Returns false
 * and leaves *out untouched for an unknown name or NULL. */
bool theme_role_parse(const char *name, enum theme_role *out);

#endif
