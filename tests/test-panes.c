/* Tests of the viewer's pane core without a terminal (ui/pane_core.c,
 * ui/layout.c, the keymaps of ui/actions.c): registry look-ups on a fake
 * registry (degenerate first: an empty one), keymap names taken from it,
 * the request flow with a fake pane and a fake host (handled, passed on to
 * the generic handler, translated into a request with a selection, a
 * translation cycle cut at PANE_RUN_MAX_STEPS), the services of
 * struct pane_env reaching the fake hub, the layout's rectangles
 * (below, beside, full screen, too small) against sums computed here, a
 * new pane's zeroed state (pane_alloc), an overlay's closing keys
 * (pane_close_keys) and the first key a hint names (keymap_first_key). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "actions.h"
#include "layout.h"
#include "pane.h"

/* ---- a fake hub ---------------------------------------------------------- */

struct fake_hub {
	enum action generic[16]; /* actions the generic handler ran */
	size_t n_generic;
	uint32_t selected;
	size_t n_selected;
	char message[128];
	bool message_error;
	struct pane *opened;
	bool translate_cycle; /* the generic handler answers with a request */
};

static struct reaction fake_generic(void *hub, enum action a)
{
	struct fake_hub *h = hub;
	if (h->n_generic < 16)
		h->generic[h->n_generic] = a;
	h->n_generic++;
	if (h->translate_cycle)
		return (struct reaction){HANDLED_REDRAW, ACTION_VIEW_NEXT,
					 MODEL_NONE};
	if (a == ACTION_QUIT)
		return REACTION(HANDLED_QUIT);
	return REACTION(HANDLED_YES);
}

static void fake_select(void *hub, uint32_t node)
{
	struct fake_hub *h = hub;
	h->selected = node;
	h->n_selected++;
}

static void fake_message(void *hub, bool error, const char *text)
{
	struct fake_hub *h = hub;
	snprintf(h->message, sizeof(h->message), "%s", text);
	h->message_error = error;
}

static void fake_open(void *hub, struct pane *pane)
{
	struct fake_hub *h = hub;
	h->opened = pane;
}

static bool fake_show_column(void *hub, uint32_t c, bool shown)
{
	(void)hub;
	(void)c;
	return shown;
}

static const struct pane_services fake_services = {
	.message = fake_message,
	.select = fake_select,
	.open = fake_open,
	.show_column = fake_show_column,
};

/* ---- a fake pane --------------------------------------------------------- */

/* Handles MOVE_DOWN itself, translates TOGGLE into "top-down view, select
 * node 42", posts a message on SORT (and passes it on), closes on BACK;
 * passes everything else on. */
static struct reaction fake_action(struct pane_env *env, struct pane *pane,
				   enum action a)
{
	int *count = pane->state;
	(*count)++;
	switch (a) {
	case ACTION_MOVE_DOWN:
		return REACTION(HANDLED_REDRAW);
	case ACTION_TOGGLE:
		return (struct reaction){HANDLED_REDRAW, ACTION_VIEW_TOP_DOWN,
					 42};
	case ACTION_SORT:
		pane_message(env, true, "sorted %d", *count);
		return REACTION(HANDLED_NO);
	case ACTION_BACK:
		return REACTION(HANDLED_CLOSE | HANDLED_REDRAW);
	default:
		return REACTION(HANDLED_NO);
	}
}

static void fake_free(struct pane *pane)
{
	free(pane);
}

static const struct pane_ops fake_base = {
	.name = "fakebase",
	.title = "Base",
	.flags = PANE_BASE,
	.action = fake_action,
	.free = fake_free,
};

static const struct pane_ops fake_split = {
	.name = "fakesplit",
	.title = "Split",
	.open = ACTION_TRACE,
	.flags = PANE_SPLIT | PANE_TAB_OPEN,
	.action = fake_action,
	.free = fake_free,
};

static const struct pane_ops fake_tab = {
	.name = "faketab",
	.title = "Tab",
	.open = ACTION_THREADS,
	.flags = PANE_TAB | PANE_CLEARS,
	.action = fake_action,
	.free = fake_free,
};

static const struct pane_ops *const fake_registry[] = {
	&fake_base, &fake_split, &fake_tab, NULL};
static const struct pane_ops *const empty_registry[] = {NULL};

/* ---- tests --------------------------------------------------------------- */

static void test_registry_empty(void **state)
{
	(void)state;
	assert_null(pane_find_by_action(empty_registry, ACTION_TRACE));
	assert_null(pane_find_by_flags(empty_registry, PANE_BASE));
	assert_null(pane_find_by_action(fake_registry, ACTION_NONE));
	struct keymap *km = keymap_new();
	assert_non_null(km);
	assert_true(pane_registry_keymaps(empty_registry, km));
	const char *const *names = NULL;
	assert_int_equal(keymap_maps(km, &names), 1);
	assert_string_equal(names[0], "generic");
	keymap_free(km);
}

static void test_registry_lookup(void **state)
{
	(void)state;
	assert_ptr_equal(pane_find_by_action(fake_registry, ACTION_TRACE),
			 &fake_split);
	assert_ptr_equal(pane_find_by_action(fake_registry, ACTION_THREADS),
			 &fake_tab);
	assert_null(pane_find_by_action(fake_registry, ACTION_SOURCE));
	assert_ptr_equal(pane_find_by_flags(fake_registry, PANE_BASE),
			 &fake_base);
	assert_ptr_equal(pane_find_by_flags(fake_registry, PANE_SPLIT),
			 &fake_split);
	assert_ptr_equal(pane_find_by_flags(fake_registry,
					    PANE_TAB | PANE_CLEARS),
			 &fake_tab);
	assert_null(pane_find_by_flags(fake_registry, PANE_SPLIT | PANE_TAB));
}

/* The keymaps are the registry's names: bind works in them, a name not
 * in the registry is refused, and a pane keymap overrides "generic". */
static void test_registry_keymaps(void **state)
{
	(void)state;
	struct keymap *km = keymap_new();
	assert_non_null(km);
	assert_non_null(keymap_bind(km, "faketab", "Q", "quit"));
	assert_true(pane_registry_keymaps(fake_registry, km));
	assert_true(pane_registry_keymaps(fake_registry, km)); /* no twice */
	const char *const *names = NULL;
	assert_int_equal(keymap_maps(km, &names), 4);
	assert_string_equal(names[1], "fakebase");
	assert_string_equal(names[3], "faketab");
	assert_null(keymap_bind(km, "faketab", "Q", "quit"));
	assert_non_null(keymap_bind(km, "tree", "Q", "quit"));
	assert_int_equal(keymap_lookup(km, "faketab", 'Q'), ACTION_QUIT);
	assert_int_equal(keymap_lookup(km, "fakebase", 'Q'), ACTION_NONE);
	assert_int_equal(keymap_lookup(km, "fakebase", 'q'), ACTION_QUIT);
	/* rebinding changes what keymap_keys_of (the hints) reports */
	char *keys = keymap_keys_of(km, ACTION_QUIT);
	assert_string_equal(keys, "q");
	free(keys);
	assert_null(keymap_bind(km, "generic", "X", "quit"));
	assert_null(keymap_bind(km, "generic", "q", "none"));
	keys = keymap_keys_of(km, ACTION_QUIT);
	assert_string_equal(keys, "X");
	free(keys);
	/* key names in angle brackets, as doc/config.md writes them */
	assert_null(keymap_bind(km, "faketab", "<Enter>", "toggle"));
	assert_null(keymap_bind(km, "generic", "<C-q>", "quit"));
	assert_int_equal(keymap_lookup(km, "generic", 17), ACTION_QUIT);
	assert_null(keymap_bind(km, "generic", "<PgDn>", "quit"));
	assert_null(keymap_bind(km, "generic", "<Up>", "quit"));
	assert_null(keymap_bind(km, "generic", "<Esc>", "quit"));
	assert_null(keymap_bind(km, "generic", "<F5>", "quit"));
	assert_null(keymap_bind(km, "generic", "<x>", "quit"));
	assert_int_equal(keymap_lookup(km, "generic", 'x'), ACTION_QUIT);
	assert_null(keymap_bind(km, "generic", "<", "quit"));
	assert_non_null(keymap_bind(km, "generic", "<>", "quit"));
	assert_non_null(keymap_bind(km, "generic", "<<Enter>>", "quit"));
	assert_non_null(keymap_bind(km, "generic", "<Nosuch>", "quit"));
	keymap_free(km);
}

struct flow {
	struct fake_hub hub;
	struct pane_host host;
	struct pane_env env;
	struct pane *pane;
	int count;
};

static void flow_init(struct flow *f)
{
	memset(f, 0, sizeof(*f));
	f->hub.selected = MODEL_NONE;
	f->host = (struct pane_host){fake_generic, fake_select, &f->hub};
	f->env.svc = &fake_services;
	f->env.hub = &f->hub;
	f->pane = pane_wrap(&fake_base, &f->count);
	assert_non_null(f->pane);
}

/* pane_alloc: a pane of the ops asked with a zeroed state of the size
 * asked (degenerate first: size 0 still gives a state to free). */
static void test_pane_alloc(void **state)
{
	(void)state;
	struct pane *p = pane_alloc(&fake_tab, 0);
	assert_non_null(p);
	assert_ptr_equal(p->ops, &fake_tab);
	assert_non_null(p->state);
	free(p->state);
	free(p);
	enum { SIZE = 257 };
	p = pane_alloc(&fake_split, SIZE);
	assert_non_null(p);
	assert_ptr_equal(p->ops, &fake_split);
	const unsigned char *bytes = p->state;
	size_t nonzero = 0;
	for (size_t i = 0; i < SIZE; i++)
		nonzero += bytes[i] != 0;
	assert_int_equal(nonzero, 0);
	free(p->state);
	free(p);
}

/* pane_close_keys: quit and the pane's own opening action close it, the
 * rest is not handled; a pane no action opens (its `open` ACTION_NONE)
 * is not closed by ACTION_NONE (degenerate first). */
static void test_close_keys(void **state)
{
	(void)state;
	struct pane base = {.ops = &fake_base}, tab = {.ops = &fake_tab};
	const unsigned close = HANDLED_CLOSE | HANDLED_REDRAW;
	assert_int_equal(pane_close_keys(&base, ACTION_NONE).flags, HANDLED_NO);
	assert_int_equal(pane_close_keys(&base, ACTION_QUIT).flags, close);
	assert_int_equal(pane_close_keys(&base, ACTION_THREADS).flags,
			 HANDLED_NO);
	assert_int_equal(pane_close_keys(&tab, ACTION_QUIT).flags, close);
	assert_int_equal(pane_close_keys(&tab, ACTION_THREADS).flags, close);
	assert_int_equal(pane_close_keys(&tab, ACTION_TRACE).flags, HANDLED_NO);
	struct reaction r = pane_close_keys(&tab, ACTION_MOVE_DOWN);
	assert_int_equal(r.flags, HANDLED_NO);
	assert_int_equal(r.then, ACTION_NONE);
	assert_int_equal(r.select, MODEL_NONE);
}

/* The first key a hint names (keymap_first_key): none for an unbound
 * action (degenerate first, the buffer emptied), the first of the shown
 * keys in binding order, never the Backspace and Enter aliases, cut to
 * the buffer. */
static void test_first_key(void **state)
{
	(void)state;
	struct keymap *km = keymap_new();
	assert_non_null(km);
	char buf[24] = "junk";
	assert_null(keymap_bind(km, "generic", "q", "none"));
	assert_false(keymap_first_key(km, ACTION_QUIT, buf, sizeof(buf)));
	assert_string_equal(buf, "");
	/* keys no default binds, so bound in this order */
	assert_null(keymap_bind(km, "generic", "<F5>", "quit"));
	assert_null(keymap_bind(km, "generic", "<C-q>", "quit"));
	assert_true(keymap_first_key(km, ACTION_QUIT, buf, sizeof(buf)));
	assert_string_equal(buf, "F5");
	char two[2];
	assert_true(keymap_first_key(km, ACTION_QUIT, two, sizeof(two)));
	assert_string_equal(two, "F");
	/* zoom-out is "Z Backspace" (KEY_BACKSPACE) and the terminals' 127
	 * and 8, which never show */
	assert_true(keymap_first_key(km, ACTION_ZOOM_OUT, buf, sizeof(buf)));
	assert_string_equal(buf, "Z");
	assert_null(keymap_bind(km, "generic", "Z", "none"));
	assert_true(keymap_first_key(km, ACTION_ZOOM_OUT, buf, sizeof(buf)));
	assert_string_equal(buf, "Backspace");
	assert_null(keymap_bind(km, "generic", "Backspace", "none"));
	assert_false(keymap_first_key(km, ACTION_ZOOM_OUT, buf, sizeof(buf)));
	/* toggle is Enter, Space and '\r': Enter shows */
	assert_true(keymap_first_key(km, ACTION_TOGGLE, buf, sizeof(buf)));
	assert_string_equal(buf, "Enter");
	keymap_free(km);
}

static void test_flow_handled(void **state)
{
	(void)state;
	struct flow f;
	flow_init(&f);
	unsigned r = pane_run(&f.host, &f.env, f.pane, ACTION_MOVE_DOWN);
	assert_int_equal(r, HANDLED_REDRAW);
	assert_int_equal(f.count, 1);
	assert_int_equal(f.hub.n_generic, 0);
	assert_int_equal(f.hub.n_selected, 0);
	r = pane_run(&f.host, &f.env, f.pane, ACTION_BACK);
	assert_int_equal(r, HANDLED_CLOSE | HANDLED_REDRAW);
	assert_int_equal(f.hub.n_generic, 0);
	fake_free(f.pane);
}

static void test_flow_passed_on(void **state)
{
	(void)state;
	struct flow f;
	flow_init(&f);
	unsigned r = pane_run(&f.host, &f.env, f.pane, ACTION_QUIT);
	assert_int_equal(r, HANDLED_QUIT);
	assert_int_equal(f.count, 1);
	assert_int_equal(f.hub.n_generic, 1);
	assert_int_equal(f.hub.generic[0], ACTION_QUIT);
	/* the pane posts a message through the services and passes on */
	r = pane_run(&f.host, &f.env, f.pane, ACTION_SORT);
	assert_int_equal(r, HANDLED_YES);
	assert_string_equal(f.hub.message, "sorted 2");
	assert_true(f.hub.message_error);
	assert_int_equal(f.hub.generic[1], ACTION_SORT);
	/* no pane: the generic handler only */
	r = pane_run(&f.host, &f.env, NULL, ACTION_QUIT);
	assert_int_equal(r, HANDLED_QUIT);
	assert_int_equal(f.hub.n_generic, 3);
	fake_free(f.pane);
}

/* Translation: TOGGLE becomes the top-down view then a selection, the
 * generic handler never sees TOGGLE. */
static void test_flow_request(void **state)
{
	(void)state;
	struct flow f;
	flow_init(&f);
	unsigned r = pane_run(&f.host, &f.env, f.pane, ACTION_TOGGLE);
	assert_true(r & HANDLED_REDRAW);
	assert_int_equal(f.hub.n_generic, 1);
	assert_int_equal(f.hub.generic[0], ACTION_VIEW_TOP_DOWN);
	assert_int_equal(f.hub.n_selected, 1);
	assert_int_equal(f.hub.selected, 42);
	fake_free(f.pane);
}

/* A generic handler that always answers with another request stops after
 * PANE_RUN_MAX_STEPS. */
static void test_flow_cycle(void **state)
{
	(void)state;
	struct flow f;
	flow_init(&f);
	f.hub.translate_cycle = true;
	unsigned r = pane_run(&f.host, &f.env, f.pane, ACTION_QUIT);
	assert_int_equal(r, HANDLED_REDRAW);
	assert_int_equal(f.hub.n_generic, 1 + PANE_RUN_MAX_STEPS);
	fake_free(f.pane);
}

static void test_services(void **state)
{
	(void)state;
	struct flow f;
	flow_init(&f);
	pane_select(&f.env, 7);
	assert_int_equal(f.hub.selected, 7);
	pane_open(&f.env, NULL);
	assert_null(f.hub.opened);
	pane_open(&f.env, f.pane);
	assert_ptr_equal(f.hub.opened, f.pane);
	struct error err = {0};
	error_set(&err, STATUS_CORRUPT, "x.db", "bad %d", 3);
	pane_error(&f.env, &err);
	assert_true(f.hub.message_error);
	assert_non_null(strstr(f.hub.message, "bad 3"));
	assert_int_equal(err.status, STATUS_OK);
	fake_free(f.pane);
}

static int rect_area(struct rect r)
{
	return r.h > 0 && r.w > 0 ? r.h * r.w : 0;
}

static void test_layout(void **state)
{
	(void)state;
	struct layout l;
	layout_init(&l);
	struct rect area = {2, 0, 40, 100}, stack, split, detail;
	int count = 0;
	/* nothing split: the stack and the detail strip */
	layout_place(&l, true, area, 4, &stack, &split, &detail);
	assert_int_equal(stack.h, 36);
	assert_int_equal(split.h, 0);
	assert_int_equal(detail.y, 38);
	l.split = pane_wrap(&fake_split, &count);
	assert_null(layout_split_shown(&l));
	layout_toggle(&l);
	assert_true(l.shown && l.focus);
	assert_ptr_equal(layout_split_shown(&l), l.split);
	/* below: everything adds up, nothing overlaps */
	layout_place(&l, true, area, 4, &stack, &split, &detail);
	assert_int_equal(stack.h + detail.h + split.h, 40);
	assert_int_equal(split.h, 18);
	assert_int_equal(split.y, stack.y + stack.h + detail.h);
	/* an overlay on the stack: the split is not drawn */
	layout_place(&l, false, area, 4, &stack, &split, &detail);
	assert_int_equal(split.h, 0);
	assert_int_equal(stack.h, 36);
	/* beside */
	layout_toggle_beside(&l);
	layout_place(&l, true, area, 4, &stack, &split, &detail);
	assert_int_equal(stack.w + split.w, 100);
	assert_int_equal(split.x, stack.w);
	assert_int_equal(split.h, 40);
	assert_int_equal(rect_area(stack) + rect_area(detail) +
				 rect_area(split),
			 40 * 100);
	/* sizes stay within 20-90 percent */
	for (int i = 0; i < 20; i++)
		layout_resize(&l, 10);
	assert_int_equal(l.percent, 90);
	for (int i = 0; i < 20; i++)
		layout_resize(&l, -10);
	assert_int_equal(l.percent, 20);
	/* full screen: the split only */
	layout_toggle_full(&l);
	layout_place(&l, true, area, 4, &stack, &split, &detail);
	assert_int_equal(rect_area(split), 40 * 100);
	assert_int_equal(stack.h, 0);
	assert_int_equal(detail.h, 0);
	layout_toggle_full(&l);
	layout_toggle_focus(&l);
	assert_false(l.focus);
	/* a tiny area below: the split takes it all */
	layout_toggle_beside(&l);
	struct rect tiny = {0, 0, 5, 30};
	layout_place(&l, true, tiny, 3, &stack, &split, &detail);
	assert_int_equal(stack.h, 0);
	assert_int_equal(split.h, 5);
	layout_toggle(&l);
	assert_null(layout_split_shown(&l));
	layout_fini(&l);
	assert_null(l.split);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_empty),
		cmocka_unit_test(test_registry_lookup),
		cmocka_unit_test(test_registry_keymaps),
		cmocka_unit_test(test_first_key),
		cmocka_unit_test(test_pane_alloc),
		cmocka_unit_test(test_close_keys),
		cmocka_unit_test(test_flow_handled),
		cmocka_unit_test(test_flow_passed_on),
		cmocka_unit_test(test_flow_request),
		cmocka_unit_test(test_flow_cycle),
		cmocka_unit_test(test_services),
		cmocka_unit_test(test_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
