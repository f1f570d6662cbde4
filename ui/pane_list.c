/* pane_list: cursor movement for list panes, and the life cycle of the
 * panes whose state is a list cursor alone. */
#include "config.h"

#include "pane_list.h"

#include <stdlib.h>

#include "pane.h"

bool list_move(struct list_cursor *l, enum action a)
{
	size_t page = l->rows > 1 ? (size_t)l->rows - 1 : 1;
	size_t last = l->count ? l->count - 1 : 0;
	switch (a) {
	case ACTION_MOVE_UP:
		if (l->cursor > 0)
			l->cursor--;
		break;
	case ACTION_MOVE_DOWN:
		if (l->cursor < last)
			l->cursor++;
		break;
	case ACTION_PAGE_UP:
		l->cursor = l->cursor > page ? l->cursor - page : 0;
		break;
	case ACTION_PAGE_DOWN:
		l->cursor = l->cursor + page < last ? l->cursor + page : last;
		break;
	case ACTION_MOVE_FIRST:
		l->cursor = 0;
		break;
	case ACTION_MOVE_LAST:
		l->cursor = last;
		break;
	default:
		return false;
	}
	list_fit(l, l->rows);
	return true;
}

void list_fit(struct list_cursor *l, int rows)
{
	l->rows = rows;
	size_t r = rows > 0 ? (size_t)rows : 1;
	if (l->cursor < l->top)
		l->top = l->cursor;
	else if (l->cursor >= l->top + r)
		l->top = l->cursor - r + 1;
}

void list_show(struct list_cursor *l, size_t line)
{
	l->cursor = line;
	l->top = line > 5 ? line - 5 : 0;
}

struct pane *list_pane_new(const struct pane_ops *ops)
{
	return pane_alloc(ops, sizeof(struct list_cursor));
}

void list_pane_free(struct pane *pane)
{
	free(pane->state);
	free(pane);
}
