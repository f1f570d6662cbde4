/* layout: the split and full screen of the viewer's panes (see layout.h).
 * No curses here. */
#include "config.h"

#include "layout.h"

#include <string.h>

void layout_init(struct layout *l)
{
	memset(l, 0, sizeof(*l));
	l->percent = LAYOUT_PERCENT_DEFAULT;
}

void layout_fini(struct layout *l)
{
	if (l->split)
		l->split->ops->free(l->split);
	l->split = NULL;
}

void layout_toggle(struct layout *l)
{
	l->shown = !l->shown;
	l->focus = l->shown;
	if (!l->shown)
		l->full = false;
}

void layout_toggle_focus(struct layout *l)
{
	l->focus = l->shown && !l->focus;
}

void layout_toggle_full(struct layout *l)
{
	l->shown = l->focus = true;
	l->full = !l->full;
}

void layout_toggle_beside(struct layout *l)
{
	l->shown = true;
	l->full = false;
	l->beside = !l->beside;
}

void layout_resize(struct layout *l, int delta)
{
	l->shown = true;
	l->full = false;
	l->percent += delta;
	if (l->percent < 20)
		l->percent = 20;
	if (l->percent > 90)
		l->percent = 90;
}

struct pane *layout_split_shown(const struct layout *l)
{
	return l->shown ? l->split : NULL;
}

void layout_place(const struct layout *l, bool split_drawn, struct rect area,
		  int detail_h, struct rect *stack, struct rect *split,
		  struct rect *detail)
{
	*stack = area;
	stack->h -= detail_h;
	*split = (struct rect){area.y, area.x, 0, 0};
	*detail = (struct rect){stack->y + stack->h, area.x, detail_h, area.w};
	if (!split_drawn || !layout_split_shown(l))
		return;
	if (l->full) {
		*split = area;
		stack->h = 0;
		detail->h = 0;
		return;
	}
	if (l->beside) {
		/* the split on the right, the detail strip under the stack */
		int w = area.w * l->percent / 100;
		if (w < 20)
			w = 20;
		if (w > area.w)
			w = area.w;
		stack->w = area.w - w;
		*split = (struct rect){area.y, area.x + stack->w, area.h, w};
		detail->w = stack->w;
		return;
	}
	/* below: the stack, the detail strip, then the split */
	split->h = (area.h - detail_h) * l->percent / 100;
	if (split->h < 3)
		split->h = 3;
	stack->h -= split->h;
	split->y = stack->y + stack->h + detail_h;
	split->w = area.w;
	detail->y = stack->y + stack->h;
	if (stack->h < 1) {
		split->y = stack->y;
		split->h += stack->h + detail_h;
		stack->h = 0;
		detail->h = 0;
	}
}
