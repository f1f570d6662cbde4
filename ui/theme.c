/* theme: role -> curses attribute table. */
#include "config.h"

#include "theme.h"

#include <stdlib.h>

static attr_t attrs[THEME_ROLE_COUNT];

/* nearest of the 8 basic colours for a 256-colour index */
static short to_basic(int idx)
{
	if (idx < 8)
		return (short)idx;
	if (idx < 16)
		return (short)(idx - 8);
	int r, g, b;
	if (idx >= 232) {
		int level = (idx - 232) * 10 + 8;
		return level > 127 ? COLOR_WHITE : COLOR_BLACK;
	}
	idx -= 16;
	r = idx / 36;
	g = (idx / 6) % 6;
	b = idx % 6;
	return (short)((r >= 3 ? 1 : 0) | (g >= 3 ? 2 : 0) | (b >= 3 ? 4 : 0));
}

static short map_color(struct config_color_value v, int n_colors)
{
	if (v.kind == CONFIG_COLOR_DEFAULT)
		return -1;
	if (v.index < n_colors)
		return (short)v.index;
	if (n_colors >= 16 && v.index < 16)
		return (short)v.index;
	return to_basic(v.index);
}

/* A config line's attributes (CONFIG_ATTR_*) as curses attributes. */
static attr_t curses_attrs(unsigned a)
{
	static const struct {
		unsigned config;
		attr_t curses;
	} map[] = {
		{CONFIG_ATTR_BOLD, A_BOLD},           {CONFIG_ATTR_REVERSE, A_REVERSE},
		{CONFIG_ATTR_UNDERLINE, A_UNDERLINE}, {CONFIG_ATTR_DIM, A_DIM},
		{CONFIG_ATTR_STANDOUT, A_STANDOUT},   {CONFIG_ATTR_ITALIC, A_ITALIC},
		{CONFIG_ATTR_BLINK, A_BLINK},
	};
	attr_t r = A_NORMAL;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (a & map[i].config)
			r |= map[i].curses;
	return r;
}

void theme_apply(const struct config *c, const struct screen_caps *caps)
{
	for (int r = 0; r < THEME_ROLE_COUNT; r++)
		attrs[r] = A_NORMAL;
	/* the roles whose colour (not only attributes) made them stand out */
	bool coloured[THEME_ROLE_COUNT] = {false};
	for (size_t i = 0; c && i < c->n_colors; i++) {
		const struct config_color *col = &c->colors[i];
		if ((int)col->role < 0 || col->role >= THEME_ROLE_COUNT)
			continue;
		attr_t a = curses_attrs(col->attrs);
		if (caps->colors && COLOR_PAIRS > THEME_ROLE_COUNT) {
			short pair = (short)(col->role + 1);
			init_pair(pair, map_color(col->fg, caps->n_colors),
				  map_color(col->bg, caps->n_colors));
			a |= COLOR_PAIR(pair);
		}
		attrs[col->role] = a;
		coloured[col->role] = col->fg.kind != CONFIG_COLOR_DEFAULT ||
				      col->bg.kind != CONFIG_COLOR_DEFAULT;
	}
	/* without colours, the roles that must stand out use attributes: added
	 * to a role that stood out by its colour (a colour theme's selected
	 * row, "231 25 bold", would be bold only, hard to see), and given to
	 * a role with no attribute; a role set with attributes only (the mono
	 * theme) keeps its own */
	if (!caps->colors) {
		static const struct {
			enum theme_role role;
			attr_t attr;
		} must[] = {
			{THEME_ROLE_SELECTED, A_REVERSE},
			{THEME_ROLE_TITLE, A_REVERSE},
			{THEME_ROLE_TAB_ACTIVE, A_REVERSE | A_BOLD},
			{THEME_ROLE_STATUS, A_REVERSE},
			{THEME_ROLE_COLUMN_HEADER, A_BOLD | A_UNDERLINE},
			{THEME_ROLE_SEARCH_MATCH, A_BOLD | A_UNDERLINE},
			{THEME_ROLE_ERROR, A_BOLD},
			{THEME_ROLE_BAR, A_REVERSE},
			{THEME_ROLE_DELTA_WORSE, A_BOLD},
		};
		for (size_t i = 0; i < sizeof(must) / sizeof(must[0]); i++)
			if (coloured[must[i].role] || attrs[must[i].role] == 0)
				attrs[must[i].role] |= must[i].attr;
	}
	if (attrs[THEME_ROLE_SELECTED] == A_NORMAL)
		attrs[THEME_ROLE_SELECTED] = A_REVERSE;
}

attr_t theme_attr(enum theme_role role)
{
	if ((int)role < 0 || role >= THEME_ROLE_COUNT)
		return A_NORMAL;
	return attrs[role];
}
