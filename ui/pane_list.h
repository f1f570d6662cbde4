/* pane_list: scrolling state shared by the list-like panes (help,
 * columns, threads, source): a cursor and a first visible line, moved by
 * the generic movement actions; and the life cycle of a pane whose state
 * is that cursor alone (help, columns). */
#ifndef CALLSCOPE_UI_PANE_LIST_H
#define CALLSCOPE_UI_PANE_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "actions.h"

struct list_cursor {
	size_t cursor, top, count;
	int rows; /* visible rows at the last draw */
};

/* Apply a movement action; true when it was one. */
bool list_move(struct list_cursor *l, enum action a);

/* Keep the cursor on screen for `rows` visible rows. */
void list_fit(struct list_cursor *l, int rows);

/* Put the cursor on `line` with up to 5 lines shown above it (a place a
 * pane opens on or jumps to: a source line, the hottest instruction). */
void list_show(struct list_cursor *l, size_t line);

struct pane;
struct pane_ops;

/* A pane of `ops` whose state is a new list_cursor at the top (NULL when
 * out of memory), and its `free`. */
struct pane *list_pane_new(const struct pane_ops *ops);
void list_pane_free(struct pane *pane);

#endif
