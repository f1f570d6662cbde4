/* export_stacks: the tree as stacks of frames with self values (see the
 * header).  The walk follows the first-child and next-sibling links with
 * an explicit stack of the open frames, so a tree of any depth costs no
 * recursion; each open frame holds its inclusive values, from which the
 * frames it calls take theirs away as they are entered.  No curses
 * here. */
#include "config.h"

#include "present/export_stacks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "views/view.h"

uint32_t export_stacks_column(const struct model *m, uint32_t column,
			      const char **why)
{
	if (column >= model_n_columns(m)) {
		*why = "no such column";
		return MODEL_NONE;
	}
	uint32_t c = column;
	if (model_columns(m)[c].kind != COLUMN_INCLUSIVE)
		c = model_columns(m)[c].pair;
	if (c == MODEL_NONE || c >= model_n_columns(m) ||
	    model_columns(m)[c].kind != COLUMN_INCLUSIVE) {
		*why = "has no inclusive values to split into stacks";
		return MODEL_NONE;
	}
	if (!view_column_adds_up(m, c)) {
		*why = "does not add up over contexts (a mean, a minimum, a "
		       "maximum or a ratio), so it cannot be split into stacks";
		return MODEL_NONE;
	}
	return c;
}

void export_frame_source(const struct model *m, uint32_t node, uint32_t *file,
			 uint32_t *line)
{
	const struct model_node *n = &model_nodes(m)[node];
	*file = n->file;
	*line = n->line;
	if (n->function != MODEL_NONE && n->function < model_n_functions(m)) {
		const struct model_function *f = &model_functions(m)[n->function];
		if (f->file)
			*file = f->file, *line = f->line;
	}
}

char *export_frame_name(const struct model *m, uint32_t node)
{
	const struct model_node *n = &model_nodes(m)[node];
	if (node != 0 && model_kind_is_frame(n->kind) && n->name != 0) {
		const char *s = model_str(m, n->name);
		if (s && *s)
			return strdup(s);
	}
	return model_node_short_label(m, node);
}

bool export_frames_init(struct export_frames *f, const struct model *m)
{
	size_t nf = (size_t)model_n_functions(m) + 1, ns = (size_t)model_n_strings(m) + 1;
	*f = (struct export_frames){.m = m};
	f->of_function = malloc(nf * sizeof *f->of_function);
	f->of_name = malloc(ns * sizeof *f->of_name);
	if (!f->of_function || !f->of_name)
		return false;
	memset(f->of_function, 0xff, nf * sizeof *f->of_function);
	memset(f->of_name, 0xff, ns * sizeof *f->of_name);
	return true;
}

uint32_t export_frames_index(struct export_frames *f, uint32_t node)
{
	const struct model_node *n = &model_nodes(f->m)[node];
	uint32_t *slot = NULL;
	if (n->function != MODEL_NONE && n->function < model_n_functions(f->m))
		slot = &f->of_function[n->function];
	else if (n->name != 0 && n->name < model_n_strings(f->m) && node != 0)
		slot = &f->of_name[n->name];
	if (slot && *slot != MODEL_NONE)
		return *slot;
	if (f->n >= UINT32_MAX - 1 ||
	    !array_grow((void **)&f->node, &f->cap, f->n + 1, sizeof *f->node))
		return MODEL_NONE;
	f->node[f->n] = node;
	if (slot)
		*slot = (uint32_t)f->n;
	return (uint32_t)f->n++;
}

void export_frames_free(struct export_frames *f)
{
	free(f->of_function);
	free(f->of_name);
	free(f->node);
	*f = (struct export_frames){0};
}

struct walk {
	const struct model *m;
	const uint32_t *columns;
	size_t n_columns;
	uint32_t *frames; /* open frames' nodes, outermost first */
	double *acc;      /* n_columns per open frame */
	size_t n, cap_frames, cap_acc;
	double *scratch;  /* n_columns */
	double *root;     /* the root's remainder */
	double *negative; /* the negative self values left out */
};

/* The inclusive values of `node` into out (absent: 0). */
static void inclusive(const struct walk *w, uint32_t node, double *out)
{
	for (size_t c = 0; c < w->n_columns; c++)
		if (!model_value(w->m, node, w->columns[c], &out[c]) ||
		    !isfinite(out[c]))
			out[c] = 0;
}

/* Open frame `node`: its values less those of the frame it lies in. */
static bool open_frame(struct walk *w, uint32_t node)
{
	if (!array_grow((void **)&w->frames, &w->cap_frames, w->n + 1,
			sizeof *w->frames) ||
	    !array_grow((void **)&w->acc, &w->cap_acc,
			(w->n + 1) * w->n_columns, sizeof *w->acc))
		return false;
	double *mine = &w->acc[w->n * w->n_columns];
	double *outer = w->n ? &w->acc[(w->n - 1) * w->n_columns] : w->root;
	inclusive(w, node, mine);
	for (size_t c = 0; c < w->n_columns; c++)
		outer[c] -= mine[c];
	w->frames[w->n++] = node;
	return true;
}

/* A self value that is only the rounding of a subtraction is 0; one
 * below 0 (a parent whose inclusive value is less than its calls': data
 * rounded to a few digits, as legacy experiment.xml writes them, or a
 * metric with negative values) is 0 and counted. */
static bool settle(struct walk *w, double *v, const double *scale)
{
	bool any = false;
	for (size_t c = 0; c < w->n_columns; c++) {
		if (fabs(v[c]) <= 1e-12 * fabs(scale[c]))
			v[c] = 0;
		if (v[c] < 0) {
			w->negative[c] += v[c];
			v[c] = 0;
		}
		any = any || v[c] != 0;
	}
	return any;
}

/* Close the innermost open frame: emit its stack. */
static bool close_frame(struct walk *w, export_stack_fn emit, void *ctx)
{
	double *mine = &w->acc[(w->n - 1) * w->n_columns];
	double *scale = w->scratch;
	inclusive(w, w->frames[w->n - 1], scale);
	bool ok = !settle(w, mine, scale) ||
		  emit(ctx, w->frames, w->n, mine);
	w->n--;
	return ok;
}

/* Whether `node` opens a frame of the export: a frame, a context its
 * parent calls (an HPCToolkit database without structure information
 * calls addresses: instruction contexts that stand for the functions
 * there), or a context with no frame above it (not the root). */
static bool is_export_frame(const struct walk *w, uint32_t node)
{
	const struct model_node *n = &model_nodes(w->m)[node];
	return node != 0 &&
	       (model_kind_is_frame(n->kind) || n->relation == RELATION_CALL ||
		n->relation == RELATION_INLINED_CALL || w->n == 0);
}

static enum status walk_tree(struct walk *w, export_stack_fn emit, void *ctx)
{
	const struct model_node *nodes = model_nodes(w->m);
	uint32_t cur = 0;
	for (;;) {
		uint32_t child = nodes[cur].first_child;
		if (child != MODEL_NONE && child < model_n_nodes(w->m)) {
			cur = child;
			if (is_export_frame(w, cur) && !open_frame(w, cur))
				return STATUS_NOMEM;
			continue;
		}
		for (;;) {
			if (w->n && w->frames[w->n - 1] == cur &&
			    !close_frame(w, emit, ctx))
				return STATUS_IO;
			if (cur == 0)
				return STATUS_OK;
			uint32_t next = nodes[cur].next_sibling;
			if (next != MODEL_NONE && next < model_n_nodes(w->m)) {
				cur = next;
				if (is_export_frame(w, cur) &&
				    !open_frame(w, cur))
					return STATUS_NOMEM;
				break;
			}
			cur = nodes[cur].parent;
			if (cur == MODEL_NONE || cur >= model_n_nodes(w->m))
				return STATUS_CORRUPT;
		}
	}
}

enum status export_stacks_walk(const struct model *m, const uint32_t *columns,
			       size_t n_columns, export_stack_fn emit,
			       void *ctx, double *negative, struct error *err)
{
	struct walk w = {.m = m, .columns = columns, .n_columns = n_columns,
			 .negative = negative};
	enum status st = STATUS_NOMEM;
	for (size_t c = 0; c < n_columns; c++)
		negative[c] = 0;
	if (model_n_nodes(m) == 0 || n_columns == 0)
		return STATUS_OK;
	w.scratch = calloc(n_columns, sizeof *w.scratch);
	w.root = calloc(n_columns, sizeof *w.root);
	if (!w.scratch || !w.root)
		goto out;
	inclusive(&w, 0, w.root);
	st = walk_tree(&w, emit, ctx);
	if (st == STATUS_OK) {
		/* what the root holds beyond its children: a stack of its own */
		uint32_t root = 0;
		inclusive(&w, 0, w.scratch);
		if (settle(&w, w.root, w.scratch) &&
		    !emit(ctx, &root, 1, w.root))
			st = STATUS_IO;
	}
out:
	if (st == STATUS_NOMEM)
		error_set(err, st, model_path(m), "out of memory");
	else if (st == STATUS_CORRUPT)
		error_set(err, st, model_path(m),
			  "a context's links do not form a tree");
	free(w.frames);
	free(w.acc);
	free(w.scratch);
	free(w.root);
	return st;
}
