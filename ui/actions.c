/* actions: the action table and key bindings. */
#include "config.h"

#include "actions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

static const struct {
	const char *name, *keys, *pane, *help;
} table[] = {
	[ACTION_NONE] = {"none", "", "", ""},
#define ACTION(id, name_, keys_, pane_, help_)                            \
	[ACTION_##id] = {.name = name_, .keys = keys_, .pane = pane_,      \
			 .help = help_},
#include "actions.def"
#undef ACTION
};

#define MAPS_MAX 32 /* keymaps: "generic" and one per pane */

struct binding {
	unsigned map;
	int key;
	enum action action;
};

struct keymap {
	struct binding *b;
	size_t n, cap;
	const char *maps[MAPS_MAX]; /* names, static (the pane registry's) */
	unsigned n_maps;
};

const char *action_name(enum action a)
{
	return a < ACTION_COUNT ? table[a].name : "";
}

const char *action_help(enum action a)
{
	return a < ACTION_COUNT ? table[a].help : "";
}

const char *action_pane(enum action a)
{
	return a < ACTION_COUNT ? table[a].pane : "";
}

const char *action_default_keys(enum action a)
{
	return a < ACTION_COUNT ? table[a].keys : "";
}

enum action action_parse(const char *name)
{
	for (unsigned a = 1; a < ACTION_COUNT; a++)
		if (strcmp(table[a].name, name) == 0)
			return (enum action)a;
	return ACTION_NONE;
}

static int map_index(const struct keymap *km, const char *map)
{
	for (unsigned i = 0; i < km->n_maps; i++)
		if (strcmp(km->maps[i], map) == 0)
			return (int)i;
	return -1;
}

bool keymap_add_map(struct keymap *km, const char *name)
{
	if (map_index(km, name) >= 0)
		return true;
	if (km->n_maps >= MAPS_MAX)
		return false;
	km->maps[km->n_maps++] = name;
	return true;
}

size_t keymap_maps(const struct keymap *km, const char *const **names)
{
	*names = km->maps;
	return km->n_maps;
}

static bool set_binding(struct keymap *km, unsigned map, int key,
			enum action a)
{
	for (size_t i = 0; i < km->n; i++)
		if (km->b[i].map == map && km->b[i].key == key) {
			km->b[i].action = a;
			return true;
		}
	if (km->n == km->cap) {
		size_t ncap = km->cap ? km->cap * 2 : 64;
		struct binding *p = realloc(km->b, ncap * sizeof(*p));
		if (!p)
			return false;
		km->b = p;
		km->cap = ncap;
	}
	km->b[km->n++] = (struct binding){map, key, a};
	return true;
}

struct keymap *keymap_new(void)
{
	struct keymap *km = calloc(1, sizeof(*km));
	if (!km)
		return NULL;
	km->maps[km->n_maps++] = "generic";
	for (unsigned a = 1; a < ACTION_COUNT; a++) {
		char *keys = strdup(table[a].keys);
		if (!keys) {
			keymap_free(km);
			return NULL;
		}
		char *save = NULL;
		for (char *k = strtok_r(keys, " ", &save); k;
		     k = strtok_r(NULL, " ", &save)) {
			int code = keys_parse(k);
			if (code >= 0 && !set_binding(km, 0, code,
						      (enum action)a)) {
				free(keys);
				keymap_free(km);
				return NULL;
			}
		}
		free(keys);
	}
	/* terminals send one of these for Backspace */
	set_binding(km, 0, 127, ACTION_ZOOM_OUT);
	set_binding(km, 0, 8, ACTION_ZOOM_OUT);
	set_binding(km, 0, '\r', ACTION_TOGGLE);
	return km;
}

void keymap_free(struct keymap *km)
{
	if (!km)
		return;
	free(km->b);
	free(km);
}

const char *keymap_bind(struct keymap *km, const char *map,
			const char *key_name, const char *name)
{
	int m = map_index(km, map);
	if (m < 0)
		return "unknown keymap (the help screen lists them)";
	int key = keys_parse(key_name);
	if (key < 0)
		return "unknown key name";
	enum action a = ACTION_NONE;
	if (strcmp(name, "none") != 0) {
		a = action_parse(name);
		if (a == ACTION_NONE)
			return "unknown action (see the help screen)";
	}
	return set_binding(km, (unsigned)m, key, a) ? NULL : "out of memory";
}

enum action keymap_lookup(const struct keymap *km, const char *map, int key)
{
	int m = map_index(km, map);
	if (m > 0)
		for (size_t i = 0; i < km->n; i++)
			if (km->b[i].map == (unsigned)m && km->b[i].key == key)
				return km->b[i].action;
	for (size_t i = 0; i < km->n; i++)
		if (km->b[i].map == 0 && km->b[i].key == key)
			return km->b[i].action;
	return ACTION_NONE;
}

char *keymap_keys_of(const struct keymap *km, enum action a)
{
	size_t cap = 64, len = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	out[0] = '\0';
	for (size_t i = 0; i < km->n; i++) {
		if (km->b[i].map != 0 || km->b[i].action != a ||
		    km->b[i].key == 127 || km->b[i].key == 8 ||
		    km->b[i].key == '\r')
			continue;
		char name[24];
		keys_name(km->b[i].key, name, sizeof(name));
		size_t nl = strlen(name);
		if (len + nl + 2 > cap) {
			cap = (len + nl + 2) * 2;
			char *p = realloc(out, cap);
			if (!p) {
				free(out);
				return NULL;
			}
			out = p;
		}
		len += (size_t)snprintf(out + len, cap - len, "%s%s",
					len ? " " : "", name);
	}
	return out;
}

void actions_list(void)
{
	for (unsigned a = 1; a < ACTION_COUNT; a++)
		printf("%-18s %-14s %s\n", table[a].name, table[a].keys,
		       table[a].help);
}
