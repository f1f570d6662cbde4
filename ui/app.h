/* app: the viewer's state and main loop.  The app owns the model, one view
 * and one outline per view kind, the column choice, the keymap and theme,
 * and a stack of panes: the tree pane at the bottom, and over it the
 * thread, source, columns and help panes.  Each pane is one file exporting
 * an ops table (tig style); a pane hands the actions it does not handle
 * back to the generic handler.  Handlers return flags (htop style). */
#ifndef CALLSCOPE_UI_APP_H
#define CALLSCOPE_UI_APP_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "actions.h"
#include "config/config_file.h"
#include "model/model.h"
#include "views/outline.h"
#include "screen.h"
#include "theme.h"
#include "views/view.h"

enum handled {
	HANDLED_NO = 0,          /* not handled: try the generic handler */
	HANDLED_YES = 1 << 0,    /* handled, nothing to redraw */
	HANDLED_REDRAW = 1 << 1, /* handled, redraw */
	HANDLED_QUIT = 1 << 2,   /* leave the program */
	HANDLED_CLOSE = 1 << 3,  /* close this pane */
};

struct rect {
	int y, x, h, w;
};

struct app;
struct pane;
struct prebuild;

struct pane_ops {
	const char *name;   /* keymap name: "tree", "threads", ... */
	const char *title;  /* tab title */
	void (*draw)(struct app *app, struct pane *pane, struct rect r);
	unsigned (*action)(struct app *app, struct pane *pane, enum action a);
	/* mouse click on row `y` of the pane's rect (optional) */
	unsigned (*click)(struct app *app, struct pane *pane, int y, int x,
			  bool twice);
	void (*free)(struct pane *pane);
};

struct pane {
	const struct pane_ops *ops;
	void *state;
};

/* A derived column typed with :derive NAME = FORMULA; its leaves are model
 * column indexes. */
struct derived_column {
	char *name;
	char *text;
	struct formula *expr;
};

enum prompt_kind {
	PROMPT_NONE,
	PROMPT_SEARCH,
	PROMPT_FILTER,
	PROMPT_COMMAND,
	PROMPT_TRACE_FILTER,
};

struct tree_cursor {
	uint32_t node; /* selected view row */
	size_t top;    /* first visible index */
};

struct app {
	struct model *model;
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

	double *totals;     /* per model column: percentages' base */
	uint8_t *has_total; /* per column: 0 not yet asked, 1 total known,
			       2 none; computed on first use (a hidden
			       column's total may need a pass over every
			       value: Cube metrics stored exclusive), once:
			       the model is immutable */
	uint32_t n_threads; /* execution contexts (non-summary profiles) */
	uint32_t *columns; /* shown model columns, in order */
	size_t n_columns;
	struct derived_column *derived;
	size_t n_derived;
	bool show_bars;
	double threshold; /* hot path threshold, percent */
	uint32_t sort_column;
	bool sort_ascending;

	struct pane *panes[8]; /* panes[0] is the tree */
	size_t n_panes;

	char *message;
	bool message_error;

	enum prompt_kind prompt;
	char *prompt_buf;
	size_t prompt_len, prompt_cap;
	uint32_t prompt_origin; /* selection when the search started */

	const char *config_path; /* where :derive saves; NULL: not saved */
	char *config_path_owned;
	/* the trace pane: beside the stack, split with the tree (below it),
	 * or full screen */
	struct pane *trace;
	bool trace_shown, trace_focus, trace_full;
	int trace_percent; /* the trace's share of the split */

	int tree_rows; /* height of the tree pane at the last draw */
	struct rect tree_rect;
	struct rect trace_rect; /* h == 0 when the trace is not drawn */
	bool quit;
};

/* Post a message on the status line (printf format; copies it). */
void app_message(struct app *app, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Post `err` formatted as a message (and clear it). */
void app_error(struct app *app, struct error *err);

struct view *app_view(struct app *app);
struct outline *app_outline(struct app *app);
struct tree_cursor *app_cursor(struct app *app);

/* The model node behind the selected row (MODEL_NONE if none). */
uint32_t app_selected_model_node(struct app *app);

/* Push a pane over the others (the app takes ownership). */
void app_push_pane(struct app *app, struct pane *pane);

/* Run a ":" command line. */
void app_command(struct app *app, const char *line);

/* The total percentages of model column `c` are relative to (computed once
 * at start); false when there is none. */
bool app_column_total(const struct app *app, uint32_t c, double *out);

/* Title of model column `c` for headers ("CPUTIME (sec) (I)"). */
char *app_column_title(const struct app *app, uint32_t c);

/* The panes. */
struct pane *pane_tree_new(void);
struct pane *pane_help_new(void);
struct pane *pane_threads_new(struct app *app);
struct pane *pane_source_new(struct app *app);
struct pane *pane_columns_new(struct app *app);
/* The trace timeline; NULL (with a message) when there is no trace. */
struct pane *pane_trace_new(struct app *app);
/* Apply a line filter typed at the trace filter prompt. */
void pane_trace_filter(struct app *app, struct pane *pane, const char *text);

/* Tree pane helpers used by the app (search, filter, commands). */
void tree_select(struct app *app, uint32_t node);
void tree_ensure_visible(struct app *app);

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
};

/* Run the viewer on `model` (taken over).  Returns the exit status. */
int app_run(struct model *model, const char *path, bool demo,
	    const struct ui_options *opt);

#endif
