/* config_theme: where the configuration lives ($XDG_CONFIG_HOME or
 * ~/.config/callscope) and themes: NAME.theme looked for in the user's
 * theme directory, then the given ones, over the compiled-in default
 * theme.  Must not depend on curses or on ui/. */
#include "config.h"

#include "config/config_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *config_home_path(const char *leaf)
{
	char *out = NULL;
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	int n;
	if (xdg && xdg[0] == '/')
		n = asprintf(&out, "%s/callscope/%s", xdg, leaf);
	else if (home && home[0])
		n = asprintf(&out, "%s/.config/callscope/%s", home, leaf);
	else
		return NULL;
	return n < 0 ? NULL : out;
}

char *config_default_path(void)
{
	return config_home_path("config");
}

char *config_user_theme_dir(void)
{
	return config_home_path("themes");
}

/* Drop every colour a theme set. */
static void drop_theme_colors(struct config *c)
{
	size_t kept = 0;
	for (size_t i = 0; i < c->n_colors; i++) {
		if (c->colors[i].from_theme)
			config_color_free(&c->colors[i]);
		else
			c->colors[kept++] = c->colors[i];
	}
	c->n_colors = kept;
}

/* The path of NAME.theme in the first directory that holds it: *out a heap
 * string, or NULL when none does; *searched lists the directories tried. */
static enum status find_theme(const char *name, const char *const *dirs,
			      char **out, char **searched)
{
	char *user = config_user_theme_dir();
	size_t n_dirs = 0;
	while (dirs && dirs[n_dirs])
		n_dirs++;
	*out = NULL;
	*searched = NULL;
	for (size_t i = 0; i <= n_dirs; i++) {
		const char *dir = i == 0 ? user : dirs[i - 1];
		if (!dir)
			continue;
		char *path = NULL;
		char *s = NULL;
		struct stat sb;
		if (asprintf(&path, "%s/%s.theme", dir, name) < 0)
			goto nomem;
		if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
			*out = path;
			break;
		}
		free(path);
		if (asprintf(&s, "%s%s%s", *searched ? *searched : "",
			     *searched ? ", " : "", dir) < 0)
			goto nomem;
		free(*searched);
		*searched = s;
	}
	free(user);
	return STATUS_OK;
nomem:
	free(user);
	free(*searched);
	*searched = NULL;
	return STATUS_NOMEM;
}

enum status config_load_theme(struct config *c, const char *name,
			      const char *const *dirs, struct error *err)
{
	enum status st = STATUS_OK;
	char *path = NULL;
	char *searched = NULL;
	char *copy = NULL;
	if (!c)
		return error_set(err, STATUS_USAGE, NULL,
				 "config_load_theme: NULL config");
	struct parse_ctx ctx = {.c = c, .err = err, .theme = true};
	drop_theme_colors(c);
	st = config_parse_buffer(&ctx, config_default_theme,
			  strlen(config_default_theme), "<default theme>");
	if (st != STATUS_OK)
		goto out;
	if (!config_valid_theme_name(name)) {
		st = error_set(err, STATUS_USAGE, NULL, "bad theme name '%s'",
			       name ? name : "");
		goto out;
	}
	if (find_theme(name, dirs, &path, &searched) != STATUS_OK) {
		st = config_nomem(&ctx);
		goto out;
	}
	if (!path && strcmp(name, "default") != 0) {
		st = error_set(err, STATUS_NOT_FOUND, NULL,
			       "theme '%s' not found (looked in: %s)", name,
			       searched ? searched : "no directory");
		goto out;
	}
	if (path) {
		st = config_load_path(&ctx, path, (struct where){.file = path},
			       false);
		if (st != STATUS_OK)
			goto out;
	}
	copy = strdup(name);
	if (!copy) {
		st = config_nomem(&ctx);
		goto out;
	}
	free(c->theme);
	c->theme = copy;
out:
	free(path);
	free(searched);
	return st;
}

