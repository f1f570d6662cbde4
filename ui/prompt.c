/* prompt: the line prompts on the status line: search (applied as it is
 * typed on smaller trees), filter, the ":" command line, and a prompt a
 * pane asks for (HANDLED_PROMPT), whose text goes back to that pane. */
#include "config.h"

#include "hub.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"

const char *prompt_label(const struct app *app)
{
	switch (app->prompt) {
	case PROMPT_SEARCH:
		return "/";
	case PROMPT_FILTER:
		return "filter (!x hides x): ";
	case PROMPT_PANE:
		return app->prompt_pane && app->prompt_pane->ops->prompt
			       ? app->prompt_pane->ops->prompt
			       : "> ";
	default:
		return ":";
	}
}

void prompt_open(struct app *app, enum prompt_kind k)
{
	app->prompt = k;
	app->prompt_len = 0;
	if (!app->prompt_buf)
		(void)array_grow((void **)&app->prompt_buf, &app->prompt_cap, 64,
				 1);
	if (app->prompt_buf)
		app->prompt_buf[0] = '\0';
	app->prompt_origin = app_cursor(app)->node;
	free(app->message);
	app->message = NULL;
}

static void search_update(struct app *app, bool final)
{
	struct outline *o = app_outline(app);
	struct error err = {0};
	const char *pattern = app->prompt_buf ? app->prompt_buf : "";
	if (!final && model_n_nodes(app->model) > INCREMENTAL_SEARCH_MAX_NODES)
		return;
	if (outline_search_set(o, pattern, &err) != STATUS_OK) {
		app_error(app, &err);
		return;
	}
	if (!*pattern)
		return;
	uint32_t match;
	if (outline_search_next(o, app->prompt_origin, true, &match, &err) ==
	    STATUS_OK) {
		app_select(app, match);
		if (final)
			app_message(app, false, "/%s: %zu matches (n/N)",
				    pattern, outline_search_count(o));
	} else {
		if (final)
			app_message(app, true, "/%s: no match", pattern);
		error_clear(&err);
	}
}

static void prompt_commit(struct app *app)
{
	enum prompt_kind k = app->prompt;
	app->prompt = PROMPT_NONE;
	char *text = strdup(app->prompt_buf ? app->prompt_buf : "");
	if (!text)
		return;
	struct error err = {0};
	switch (k) {
	case PROMPT_SEARCH:
		search_update(app, true);
		break;
	case PROMPT_FILTER: {
		enum outline_filter mode = OUTLINE_FILTER_ONLY;
		const char *pattern = text;
		if (*pattern == '!') {
			mode = OUTLINE_FILTER_HIDE;
			pattern++;
		}
		if (!*pattern)
			mode = OUTLINE_FILTER_OFF;
		if (outline_set_filter(app_outline(app), pattern, mode, &err) !=
		    STATUS_OK)
			app_error(app, &err);
		else if (mode == OUTLINE_FILTER_OFF)
			app_message(app, false, "filter off");
		else
			app_message(app, false, "filter: %s rows matching %s "
						"(f then Enter clears)",
				    mode == OUTLINE_FILTER_HIDE ? "hiding"
								: "showing only",
				    pattern);
		break;
	}
	case PROMPT_COMMAND:
		app_command(app, text);
		break;
	case PROMPT_PANE:
		if (app->prompt_pane && app->prompt_pane->ops->input) {
			struct pane_env env = app_env(app, true);
			app->prompt_pane->ops->input(&env, app->prompt_pane,
						     text);
		}
		app->prompt_pane = NULL;
		break;
	case PROMPT_NONE:
		break;
	}
	free(text);
}

void prompt_key(struct app *app, int key, bool is_char, wint_t wc)
{
	if (!is_char && (key == KEY_ENTER)) {
		prompt_commit(app);
		return;
	}
	if (is_char && (wc == '\n' || wc == '\r')) {
		prompt_commit(app);
		return;
	}
	if (is_char && wc == 27) {
		if (app->prompt == PROMPT_SEARCH)
			app_select(app, app->prompt_origin);
		app->prompt = PROMPT_NONE;
		return;
	}
	if ((!is_char && key == KEY_BACKSPACE) ||
	    (is_char && (wc == 127 || wc == 8))) {
		while (app->prompt_len > 0) {
			app->prompt_len--;
			if ((app->prompt_buf[app->prompt_len] & 0xc0) != 0x80)
				break;
		}
		app->prompt_buf[app->prompt_len] = '\0';
	} else if (is_char && wc == 21) { /* C-u */
		app->prompt_len = 0;
		app->prompt_buf[0] = '\0';
	} else if (is_char && wc >= 32 && wc != 127) {
		char mb[MB_LEN_MAX + 1];
		mbstate_t st;
		memset(&st, 0, sizeof(st));
		size_t n = wcrtomb(mb, (wchar_t)wc, &st);
		if (n == (size_t)-1 || app->prompt_len + n > 4096)
			return;
		if (!array_grow((void **)&app->prompt_buf, &app->prompt_cap,
				app->prompt_len + n + 1, 1))
			return;
		memcpy(app->prompt_buf + app->prompt_len, mb, n);
		app->prompt_len += n;
		app->prompt_buf[app->prompt_len] = '\0';
	} else {
		return;
	}
	if (app->prompt == PROMPT_SEARCH)
		search_update(app, false);
}

