/* theme_roles: names and descriptions of the drawing roles, generated from
 * theme_roles.def.  Must not depend on curses or on ui/. */
#include "config.h"

#include "config/theme_roles.h"

#include <stddef.h>
#include <string.h>

static const char *const role_names[THEME_ROLE_COUNT] = {
#define ROLE(upper, name, description) [THEME_ROLE_##upper] = name,
#include "config/theme_roles.def"
#undef ROLE
};

static const char *const role_descriptions[THEME_ROLE_COUNT] = {
#define ROLE(upper, name, description) [THEME_ROLE_##upper] = description,
#include "config/theme_roles.def"
#undef ROLE
};

const char *theme_role_name(enum theme_role role)
{
	if ((unsigned)role >= THEME_ROLE_COUNT)
		return NULL;
	return role_names[role];
}

const char *theme_role_description(enum theme_role role)
{
	if ((unsigned)role >= THEME_ROLE_COUNT)
		return NULL;
	return role_descriptions[role];
}

bool theme_role_parse(const char *name, enum theme_role *out)
{
	if (!name)
		return false;
	for (unsigned i = 0; i < THEME_ROLE_COUNT; i++) {
		if (strcmp(role_names[i], name) == 0) {
			*out = (enum theme_role)i;
			return true;
		}
	}
	return false;
}
