/* actions: the user actions of the viewer, generated from actions.def,
 * and the keymap that binds keys to them (defaults from the table,
 * overridden by `bind KEYMAP KEY ACTION` config lines).  A pane looks a key
 * up in its own keymap first, then in "generic". */
#ifndef CALLSCOPE_UI_ACTIONS_H
#define CALLSCOPE_UI_ACTIONS_H

#include <stdbool.h>
#include <stddef.h>

enum action {
	ACTION_NONE,
#define ACTION(id, name, keys, pane, help) ACTION_##id,
#include "actions.def"
#undef ACTION
	ACTION_COUNT
};

const char *action_name(enum action a);
const char *action_help(enum action a);
const char *action_default_keys(enum action a);
/* Where `a` works (actions.def): "tree", "trace", "plot", "models", or ""
 * for any pane. */
const char *action_pane(enum action a);
/* ACTION_NONE when unknown. */
enum action action_parse(const char *name);

struct keymap;

/* A keymap with the default bindings (all in "generic"). */
struct keymap *keymap_new(void);
void keymap_free(struct keymap *km);

/* Add keymap `name` (static storage: a pane registry's name); the keymap
 * "generic" is always there.  False when there are too many. */
bool keymap_add_map(struct keymap *km, const char *name);

/* The keymap names, "generic" first; returns how many. */
size_t keymap_maps(const struct keymap *km, const char *const **names);

/* Bind `key_name` in keymap `map` ("generic" or a pane's name, see
 * keymap_maps) to `action_name` ("none" unbinds).  Returns
 * NULL or a static text saying what is wrong. */
const char *keymap_bind(struct keymap *km, const char *map,
			const char *key_name, const char *action_name);

/* The action for `key` in pane keymap `map`, falling back to generic. */
enum action keymap_lookup(const struct keymap *km, const char *map, int key);

/* The keys bound to `a` in "generic", as "Up k"; heap string. */
char *keymap_keys_of(const struct keymap *km, enum action a);

/* The first of those keys ("Up") into `buf` (`size` bytes, cut to fit):
 * what a hint names.  False, with `buf` empty, when no key is bound to
 * `a` in "generic". */
bool keymap_first_key(const struct keymap *km, enum action a, char *buf,
		      size_t size);

/* Print the action table (name, default keys, help), for the man page. */
void actions_list(void);

#endif
