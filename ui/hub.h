/* hub: the viewer's core, private to its files (app.c: state, loop and
 * set-up; dispatch.c: actions, keys and the mouse; frame.c: drawing; prompt.c: line prompts; commands.c: ":"
 * commands and the option table; compare.c: `:compare` and the compare
 * view's state; input.c: the headless key script and the
 * progress note; prebuild.c: the background build).  Panes never include
 * this: they see struct pane_env (pane.h). */
#ifndef CALLSCOPE_UI_HUB_H
#define CALLSCOPE_UI_HUB_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <wchar.h>

#include "actions.h"
#include "app.h"
#include "config/config_file.h"
#include "layout.h"
#include "model/model.h"
#include "pane.h"
#include "screen.h"
#include "theme.h"
#include "views/outline.h"
#include "views/view.h"

/* Entering a search pattern is applied on every keystroke below this many
 * contexts, on Enter above. */
#define INCREMENTAL_SEARCH_MAX_NODES 500000u

#define STACK_MAX 8

enum prompt_kind {
	PROMPT_NONE,
	PROMPT_SEARCH,
	PROMPT_FILTER,
	PROMPT_COMMAND,
	PROMPT_PANE, /* text for the pane that asked (prompt_pane) */
};

struct prebuild;

struct app {
	struct model *model;
	/* the transfer state: options, cancel flag, progress of reads
	 * after the open (NULL in tests without one) */
	struct session *session;
	char *db_path;
	bool demo;
	struct screen_caps caps;
	struct config config;
	struct keymap *keymap;

	struct view *views[3];
	struct prebuild *prebuild; /* bottom-up and flat built in the
				      background after the first frame */
	struct outline *outlines[3];
	struct tree_cursor cursors[3];
	enum view_kind current;

	uint32_t n_threads;
	struct system_focus *sys_focus; /* owned; pane_env.sys_focus */
	uint32_t *columns; /* owned; cols.columns points here */
	struct derived_column *derived; /* owned; cols.derived */
	size_t columns_cap, derived_cap; /* their room (array_grow) */
	double *totals;
	uint8_t *has_total; /* see struct column_set */
	struct column_set cols;

	struct pane *stack[STACK_MAX]; /* stack[0] is the base (the tree) */
	size_t n_stack;
	struct layout layout;

	char *message;
	bool message_error;

	enum prompt_kind prompt;
	struct pane *prompt_pane; /* PROMPT_PANE: who gets the text */
	char *prompt_buf;
	size_t prompt_len, prompt_cap;
	uint32_t prompt_origin; /* selection when the search started */

	const char *config_path; /* where :derive saves; NULL: not saved */
	char *config_path_owned;
	char *theme_loaded;    /* the theme applied last (NULL: default) */
	bool screen_on;        /* curses is started: colours can apply */

	struct extrap *extrap; /* models of a parametric database, or NULL */
	/* the top-down outline's severity sort (COLUMN_SEVERITY): made for
	 * extrap generation `sev_gen`, retried at `sev_ready` models */
	uint64_t sev_gen, sev_ready;
	/* the user chose the sort column (s, :sort): until then each view
	 * opens on its own default (view_default_column) */
	bool sort_chosen;
	/* sorted by the absolute value of the sort column (the compare
	 * view's default, |delta|): the key of each view's rows */
	bool sort_magnitude;
	struct magnitude_key {
		struct app *app;
		enum view_kind k;
	} magnitude[3];

	/* the compare view (ui/compare.c): the diff the model shows, NULL
	 * otherwise; its runs' paths (heap); the run is several databases */
	const struct diff *diff;
	char *base_path, *new_path;
	bool several;
	const struct reader_option *reader_opts; /* for the runs opened */
	size_t n_reader_opts;

	struct rect stack_rect, split_rect; /* at the last draw */
	bool quit;
	/* the model is partial: the background open of the complete one
	 * (formats/open_later.h, owned; partial.c), and whether the status
	 * line shows its note */
	struct open_later *later;
	bool partial_note;
	/* of the run's files, how many are exact in the partial model (the
	 * scan's fill-ins; 0: a sketch only) */
	unsigned partial_exact;
	/* the view state carried to this model (partial.c), carried on */
	struct ui_carry *carry_in;
	/* where a reopen is asked (app_run's `reopen`; NULL: cannot) */
	struct ui_reopen *reopen;
};

/* app.c */
void app_message(struct app *app, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void app_error(struct app *app, struct error *err);
struct view *app_view(struct app *app);
struct outline *app_outline(struct app *app);
struct tree_cursor *app_cursor(struct app *app);
/* The context a pane is called with. */
struct pane_env app_env(struct app *app, bool focused);
void app_push_pane(struct app *app, struct pane *pane);
void app_pop_pane(struct app *app);
/* Pop everything over the base pane. */
void app_pop_overlays(struct app *app);
struct pane *app_top(struct app *app);
/* Select view node `node` of the current view, revealing it. */
void app_select(struct app *app, uint32_t node);
bool app_ensure_view(struct app *app, enum view_kind k);
void app_switch_view(struct app *app, enum view_kind k);
/* Sort by model column `column` (or COLUMN_SEVERITY), largest first
 * (smallest first when `ascending`); by its absolute value when
 * `magnitude` (the compare view's |delta|).  The user's choice: every
 * view follows it. */
void app_set_sort(struct app *app, uint32_t column, bool ascending,
		  bool magnitude);
/* Per frame, O(1) unless something changed: the severity sort made again
 * when the evaluation point, metric, statistic or definition changed, and
 * its waiting sibling sets sorted when their models arrived. */
void app_sort_tick(struct app *app);
/* Show model column `c` (before the first shown column of a higher
 * number) or hide it. */
bool app_show_column(struct app *app, uint32_t c, bool shown);
/* Show model column `c` at place `at` (at most the number shown) of the
 * shown columns; false when out of memory. */
bool app_insert_column(struct app *app, size_t at, uint32_t c);
/* Show model column `to` where `from` is shown (the sort too, if by
 * `from`); false when `from` is not shown.  Only hides `from` when `to`
 * is shown already. */
bool app_replace_column(struct app *app, uint32_t from, uint32_t to);

/* A new pane of `ops` (NULL when it has nothing to show). */
struct pane *app_make_pane(struct app *app, const struct pane_ops *ops);

/* dispatch.c */
void app_handle_key(struct app *app, int key, bool is_char, wint_t wc);

/* frame.c */
void frame_draw(struct app *app);

/* prompt.c */
void prompt_open(struct app *app, enum prompt_kind k);
void prompt_key(struct app *app, int key, bool is_char, wint_t wc);
/* The label shown before the text. */
const char *prompt_label(const struct app *app);

/* commands.c */
void app_command(struct app *app, const char *line);
/* Apply the configuration held in app->config (options, bindings,
 * colours, theme, derived columns); posts its first warning. */
void app_apply_config(struct app *app);
/* Read the default theme and the user's configuration file, then apply. */
void app_load_config(struct app *app, bool no_config, const char *path);
/* Add (or replace) derived column NAME = TEXT (present_derived.h: $N or
 * $"TITLE"), kept by title; `save` appends it to the configuration file.
 * False when it is not added: out of memory, a bad formula (posted), or a
 * title the database lacks, then named in *missing (heap; posted when
 * `save`, else left to the caller). */
bool app_add_derived(struct app *app, const char *name, const char *text,
		     bool save, char **missing);

/* compare.c */
/* The compare view's state from `opt` (nothing when it is not one); false
 * when out of memory. */
bool compare_setup(struct app *app, const struct ui_options *opt);
/* `:compare [PATH]`: the open run (the base of the comparison shown)
 * compared with PATH, the viewer run again on the merged tree; what
 * fails, or no PATH, said on the status line. */
void app_compare(struct app *app, const char *arg);

/* input.c */
struct script {
	const char *p;
	bool wait_scan; /* <Scan>: wait for the background open's end */
	bool wait_fill; /* <Fill>: wait for its next partial model or end */
};
bool script_next(struct script *s, int *key, bool *is_char, wint_t *wc);
double input_now_us(void);
/* The first frame is drawn: its wall-clock time (seconds since the
 * epoch) written to $CALLSCOPE_FIRST_FRAME_FILE when set (benchmarks
 * of the time to the first frame: bench/bench-first-frame.sh). */
void input_first_frame(void);
void input_key_label(int key, bool is_char, wint_t wc, char *buf, size_t n);
/* Show a progress note when a frame waits on a server (from the key's
 * time `*frame_start_us`); off when !on. */
void input_watch_reads(struct session *s, bool on,
		       const double *frame_start_us);

/* prebuild.c */
void prebuild_start(struct app *app);
/* Wait for the background build and take its views (no-op when none). */
void prebuild_join(struct app *app);
/* At exit: true when the build still runs (the caller leaves without
 * waiting); otherwise its views are taken. */
bool prebuild_running_at_exit(struct app *app);
void prebuild_free(struct app *app);

#endif
