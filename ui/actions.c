/* actions: the action table and key bindings. */
#include "config.h"

#include "actions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/strbuf.h"
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
	if (!array_grow((void **)&km->b, &km->cap, km->n + 1, sizeof(*km->b)))
		return false;
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

/* Whether `b` is one of the keys shown for `a`: a binding in "generic",
 * not an alias of Backspace (127, 8) or Enter ('\r'). */
static bool is_shown_key(const struct binding *b, enum action a)
{
	return b->map == 0 && b->action == a && b->key != 127 && b->key != 8 &&
	       b->key != '\r';
}

char *keymap_keys_of(const struct keymap *km, enum action a)
{
	struct strbuf out = {0};
	for (size_t i = 0; i < km->n; i++) {
		if (!is_shown_key(&km->b[i], a))
			continue;
		char name[24];
		strbuf_addf(&out, "%s%s", out.len ? " " : "",
			    keys_name(km->b[i].key, name, sizeof(name)));
	}
	return strbuf_take(&out);
}

bool keymap_first_key(const struct keymap *km, enum action a, char *buf,
		      size_t size)
{
	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < km->n; i++) {
		if (!is_shown_key(&km->b[i], a))
			continue;
		char name[24];
		keys_name(km->b[i].key, name, sizeof(name));
		/* its first word, as the hints read keymap_keys_of's list */
		snprintf(buf, size, "%.*s", (int)strcspn(name, " "), name);
		return true;
	}
	return false;
}

void actions_list(void)
{
	for (unsigned a = 1; a < ACTION_COUNT; a++)
		printf("%-18s %-14s %s\n", table[a].name, table[a].keys,
		       table[a].help);
}
