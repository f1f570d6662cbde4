/* theme: drawing roles (src/theme_roles.def) mapped to curses attributes
 * from the config's `color` lines.  Falls back sensibly: 256-colour
 * indexes become the nearest of 8 colours on 8-colour terminals, and with
 * no colours (or NO_COLOR set) only attributes are used. */
#ifndef CALLSCOPE_UI_THEME_H
#define CALLSCOPE_UI_THEME_H

#include <curses.h>

#include "config/config_file.h"
#include "screen.h"
#include "config/theme_roles.h"

/* Build the role attributes from `c` (its colors) for a terminal with
 * `caps`. */
void theme_apply(const struct config *c, const struct screen_caps *caps);

attr_t theme_attr(enum theme_role role);

#endif
