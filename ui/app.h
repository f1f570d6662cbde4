/* app: the viewer, as ui/main.c sees it: run it on a model.  The hub's
 * state (struct app) is private to the hub's files (hub.h); panes see
 * struct pane_env (pane.h). */
#ifndef CALLSCOPE_UI_APP_H
#define CALLSCOPE_UI_APP_H

#include <stdbool.h>
#include <stdio.h>

#include "model/model.h"

struct session;
struct diff;
struct reader_option;

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
	 * view: the delta), and by its magnitude (the absolute value) */
	bool has_sort_column;
	uint32_t sort_column;
	bool sort_magnitude;
	/* the compare view: the diff the model shows (NULL otherwise) and
	 * the paths of its runs (`:compare PATH` compares the base with
	 * PATH instead) */
	const struct diff *diff;
	const char *base_path, *new_path;
	const char *replaced; /* the new run a second `:compare` replaced */
	/* the run is several databases opened as one (not a base for
	 * `:compare`) */
	bool several;
	/* the reader options of the command line, for the runs `:compare`
	 * opens */
	const struct reader_option *reader_opts;
	size_t n_reader_opts;
};

/* What the viewer asks of its caller when it returns: `:set kernel-names
 * NAME` on a GPU run asks that the database be opened again with its
 * kernels named NAME (`names` not empty); `:compare PATH` that the viewer
 * run on the merged tree it built (`compare`, with its diff and runs'
 * paths: the caller's to free when it does not run it); either way the
 * viewer then runs from key `keys` of the headless script on (NULL: none
 * left). */
struct ui_reopen {
	char names[16];
	struct model *compare;
	const struct diff *diff;
	char *base_path, *new_path;
	const char *keys;
	/* set by the caller: the kernel names of the run shown, and whether
	 * it was opened again for them (the viewer says so) */
	char current[16];
	bool reopened;
	/* a partial model (a GPU run shown while it is scanned): set by the
	 * caller, the background open of the complete model (the viewer
	 * takes it); set by the viewer, the complete model (or a better
	 * partial one, `later` then handed back) to run next with
	 * the views' state carried over (`carry`, taken by that run) */
	struct open_later *later;
	struct model *complete;
	struct ui_carry *carry;
	/* set by the viewer with `later` when `complete` is a better
	 * partial model (the scan goes on): its files exact */
	unsigned exact_files;
};

/* Run the viewer on `model` (taken over).  Returns the exit status;
 * `reopen` (may be NULL: never asked) says whether to run it again. */
int app_run(struct model *model, const char *path, bool demo,
	    const struct ui_options *opt, struct ui_reopen *reopen);

#endif
