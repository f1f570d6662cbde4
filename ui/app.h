/* app: the viewer, as ui/main.c sees it: run it on a model.  The hub's
 * state (struct app) is private to the hub's files (hub.h); panes see
 * struct pane_env (pane.h). */
#ifndef CALLSCOPE_UI_APP_H
#define CALLSCOPE_UI_APP_H

#include <stdbool.h>
#include <stdio.h>

#include "model/model.h"

struct session;

struct ui_options {
	bool headless;
	int cols, rows;
	const char *keys;    /* headless key script */
	FILE *dump;          /* headless: write screen dumps here */
	bool dump_each;      /* dump after every key, not only at the end */
	FILE *timing;        /* write "KEY MICROSECONDS" per key */
	bool no_config;
	bool no_prebuild;    /* build the aggregated views only when shown */
	const char *config_path;
	/* the transfer state (net/session.h): the cancel flag the interrupt
	 * key sets, where progress of reads after the open goes */
	struct session *session;
	/* the column the tree is first sorted by, when set (the compare
	 * view: the delta) */
	bool has_sort_column;
	uint32_t sort_column;
};

/* What the viewer asks of its caller when it returns: `:set kernel-names
 * NAME` on a GPU run asks that the database be opened again with its
 * kernels named NAME (`names` not empty), the viewer then run on it from
 * key `keys` of the headless script on (NULL: none left). */
struct ui_reopen {
	char names[16];
	const char *keys;
	/* set by the caller: the kernel names of the run shown, and whether
	 * it was opened again for them (the viewer says so) */
	char current[16];
	bool reopened;
};

/* Run the viewer on `model` (taken over).  Returns the exit status;
 * `reopen` (may be NULL: never asked) says whether to run it again. */
int app_run(struct model *model, const char *path, bool demo,
	    const struct ui_options *opt, struct ui_reopen *reopen);

#endif
