/* pane: what a pane of the viewer is and what it sees.  A pane is one file
 * exporting an ops table (tig's view_ops); the pane registry (panes.c) lists
 * them all, and everything the core knows of a pane comes from its entry:
 * the keymap name, the tab title, the action that opens it, where it goes
 * (stacked over the tree, or in the layout's split).  A pane sees a narrow
 * context, struct pane_env (htop's State): the model, the current view, its
 * outline and cursor, the columns, and a few services (post a message,
 * select a node, open a pane, show or hide a column); never the hub.
 *
 * A pane's action returns a struct reaction: what it did (HANDLED_* flags,
 * htop's HandlerResult) and, where needed, a request for the core to run
 * next (tig's request translation): the trace pane's "show this context in
 * the tree" is {HANDLED_REDRAW, ACTION_VIEW_TOP_DOWN, node}.  pane_run()
 * runs that flow; it and the registry look-ups need no terminal (no curses
 * here), so that they can be unit-tested with a fake pane and a fake host. */
#ifndef CALLSCOPE_UI_PANE_H
#define CALLSCOPE_UI_PANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "actions.h"
#include "core/status.h"
#include "model/model.h"
#include "present/present_derived.h"
#include "views/outline.h"
#include "views/view.h"

enum handled {
	HANDLED_NO = 0,          /* not handled: try the generic handler */
	HANDLED_YES = 1 << 0,    /* handled, nothing to redraw */
	HANDLED_REDRAW = 1 << 1, /* handled, redraw */
	HANDLED_QUIT = 1 << 2,   /* leave the program */
	HANDLED_CLOSE = 1 << 3,  /* close this pane */
	HANDLED_PROMPT = 1 << 4, /* open a line prompt (ops->prompt) whose
				    text goes to this pane's ops->input */
};

/* What an action did, and what the core runs next: when `then` is not
 * ACTION_NONE the core's generic handler runs it, and then, when `select`
 * is not MODEL_NONE, selects view node `select` of the view current by
 * then in the tree (revealing it) and gives the tree the keys. */
struct reaction {
	unsigned flags;
	enum action then;
	uint32_t select;
};

#define REACTION(f)                                                       \
	((struct reaction){.flags = (f), .then = ACTION_NONE,             \
			   .select = MODEL_NONE})

struct rect {
	int y, x, h, w;
};

struct tree_cursor {
	uint32_t node; /* selected view row */
	size_t top;    /* first visible index */
};

/* The sort "column" of the model severity (a parametric database's
 * top-down tree sorted by extrap_sort_key: `:sort severity`); the other
 * views then sort by the models' metric. */
#define COLUMN_SEVERITY (MODEL_NONE - 1)

struct pane;
struct pane_ops;
struct keymap;
struct screen_caps;
struct extrap;
struct diff;
struct system_focus;

/* The services the hub offers panes; `hub` is pane_env.hub. */
struct pane_services {
	void (*message)(void *hub, bool error, const char *text);
	/* select view node `node` of the current view in the tree */
	void (*select)(void *hub, uint32_t node);
	/* push `pane` (taken over) over the stack */
	void (*open)(void *hub, struct pane *pane);
	/* show or hide model column `c`; false (with a message) if refused */
	bool (*show_column)(void *hub, uint32_t c, bool shown);
	/* show model column `to` in the place of `from` (Cube's metric tree:
	 * a metric opened or closed); false if `from` is not shown */
	bool (*replace_column)(void *hub, uint32_t from, uint32_t to);
	/* show the call tree over part of the system (taken over; NULL:
	 * every context again) */
	void (*system_focus)(void *hub, struct system_focus *focus);
};

struct pane_env {
	const struct model *model;
	enum view_kind view_kind;
	struct view *view;         /* the tree's current view */
	struct outline *outline;   /* its state */
	struct tree_cursor *cursor;
	const struct column_set *cols;
	bool sort_magnitude; /* sorted by the sort column's absolute value */
	/* the compare view: the diff the model shows (compare/diff_view.h);
	 * NULL otherwise */
	const struct diff *diff;
	const struct keymap *keymap;
	const struct screen_caps *caps;
	const char *db_path;
	uint32_t n_threads; /* execution contexts (non-summary profiles) */
	bool focused;       /* the pane being called has the keys */
	/* the performance models of a parametric database (extrap.h), NULL
	 * when it is not parametric */
	struct extrap *extrap;
	/* the part of the system the tree's values are over (the threads
	 * pane's z, views/system_focus.h), NULL for all of it */
	struct system_focus *sys_focus;
	const struct pane_services *svc;
	void *hub;
};

/* Post a message on the status line (printf format). */
void pane_message(struct pane_env *env, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Post `err` as an error message (and clear it). */
void pane_error(struct pane_env *env, struct error *err);
/* Select view node `node` in the tree. */
void pane_select(struct pane_env *env, uint32_t node);
/* Push `pane` over the others (taken over; NULL is ignored). */
void pane_open(struct pane_env *env, struct pane *pane);
/* The model node behind the selected row (MODEL_NONE if none). */
uint32_t pane_selected_model_node(const struct pane_env *env);
/* The total the percentages of model column `c` are relative to. */
bool pane_column_total(const struct pane_env *env, uint32_t c, double *out);
/* Title of column `c` (model or derived) for headers; heap string. */
char *pane_column_title(const struct pane_env *env, uint32_t c);

/* Where a pane goes and how it shows on the tab bar. */
enum pane_flag {
	PANE_BASE = 1u << 0,     /* the bottom of the stack (one pane) */
	PANE_TAB = 1u << 1,      /* always on the tab bar, with its key */
	PANE_TAB_OPEN = 1u << 2, /* on the tab bar while open, with its key */
	PANE_SPLIT = 1u << 3,    /* opens in the layout's split, beside or
				    below the stack, rather than on it */
	PANE_CLEARS = 1u << 4,   /* opening it closes the other overlays */
};

struct pane_ops {
	const char *name;  /* keymap name: "tree", "threads", ... */
	const char *title; /* tab title */
	enum action open;  /* the action that opens it (ACTION_NONE) */
	unsigned flags;    /* PANE_* */
	const char *prompt; /* label of the prompt HANDLED_PROMPT opens */
	/* a new pane, or NULL (with a message) when it has nothing to show */
	struct pane *(*new)(struct pane_env *env);
	void (*draw)(struct pane_env *env, struct pane *pane, struct rect r);
	struct reaction (*action)(struct pane_env *env, struct pane *pane,
				  enum action a);
	/* mouse click on row `y`, column `x` of the pane's rect (optional) */
	struct reaction (*click)(struct pane_env *env, struct pane *pane,
				 int y, int x, bool twice);
	/* the text typed at the prompt it asked for (optional) */
	void (*input)(struct pane_env *env, struct pane *pane,
		      const char *text);
	void (*free)(struct pane *pane);
};

struct pane {
	const struct pane_ops *ops;
	void *state;
};

/* A new pane of `ops` holding `state` (NULL when out of memory). */
struct pane *pane_wrap(const struct pane_ops *ops, void *state);

/* A new pane of `ops` with a zeroed state of `state_size` bytes
 * (pane->state), NULL when out of memory (nothing is left allocated then).
 * A pane's `new` fills the state in, and on a later failure hands the
 * pane to its own `free`, which sees the members not filled as zero. */
struct pane *pane_alloc(const struct pane_ops *ops, size_t state_size);

/* The tail of an overlay's `action`: quit and the action that opened the
 * pane (its ops' `open`) close it (HANDLED_CLOSE | HANDLED_REDRAW); any
 * other action is not handled (HANDLED_NO: the generic handler's). */
struct reaction pane_close_keys(const struct pane *pane, enum action a);

/* ---- the registry ---------------------------------------------------- */

/* The viewer's panes, NULL-terminated (panes.c). */
extern const struct pane_ops *const pane_registry[];

/* The pane of `reg` (NULL-terminated) that `a` opens, NULL if none. */
const struct pane_ops *pane_find_by_action(const struct pane_ops *const *reg,
					   enum action a);
/* The first pane of `reg` with every flag of `flags`, NULL if none. */
const struct pane_ops *pane_find_by_flags(const struct pane_ops *const *reg,
					  unsigned flags);
/* Add every pane's keymap name to `km` (after "generic"); false when
 * out of memory. */
bool pane_registry_keymaps(const struct pane_ops *const *reg,
			   struct keymap *km);

/* ---- the request flow ------------------------------------------------ */

/* The core as the request flow sees it. */
struct pane_host {
	/* the generic handler: actions no pane handled, and requests */
	struct reaction (*generic)(void *hub, enum action a);
	/* select view node `node` in the tree and give it the keys */
	void (*select)(void *hub, uint32_t node);
	void *hub;
};

/* Requests followed for one key at most (a pane translating in a cycle
 * stops there). */
#define PANE_RUN_MAX_STEPS 8

/* Run the requests of reaction `r` (what a pane's action or click
 * returned); returns the union of the flags. */
unsigned pane_follow(const struct pane_host *host, struct reaction r);

/* Run action `a`: pane `p` first (NULL: none), the generic handler when
 * it returns HANDLED_NO, then each request that comes back.  Returns the
 * union of the flags. */
unsigned pane_run(const struct pane_host *host, struct pane_env *env,
		  struct pane *p, enum action a);

/* ---- the panes (one file each), listed in pane_registry ------------ */

extern const struct pane_ops pane_tree_ops;
extern const struct pane_ops pane_threads_ops;
extern const struct pane_ops pane_source_ops;
extern const struct pane_ops pane_listing_ops;
extern const struct pane_ops pane_summary_ops;
extern const struct pane_ops pane_flame_ops;
extern const struct pane_ops pane_columns_ops;
extern const struct pane_ops pane_help_ops;
extern const struct pane_ops pane_trace_ops;
extern const struct pane_ops pane_plot_ops;

#endif
