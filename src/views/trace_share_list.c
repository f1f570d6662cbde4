/* trace_share_list: lists of (context, colour, weight): the colour of a
 * frame context (a hash of its function's name), the shares of a drawn
 * grid's cells, and the merging of a list's entries by function name.
 * Works on a model's contexts, without a view.  Depends on the model
 * only. */
#include "config.h"

#include "views/trace_view.h"
#include "views/trace_view_internal.h"

#include <stdlib.h>
#include <string.h>

/* The function name a frame context's colour stands for: the node's name,
 * else its function's; "" for idle, unknown and unnamed frames. */
static const char *ctx_name(const struct model *m, uint32_t ctx)
{
	uint32_t node = ctx ? model_node_of_ctx(m, ctx) : MODEL_NONE;
	if (node == MODEL_NONE)
		return "";
	const struct model_node *n = &model_nodes(m)[node];
	const char *name = model_str(m, n->name);
	if (!*name && n->function < model_n_functions(m))
		name = model_str(m, model_functions(m)[n->function].name);
	return name;
}

uint32_t trace_view_name_hash(const struct model *m, uint32_t ctx)
{
	const char *name = ctx_name(m, ctx);
	/* FNV-1a over the name; unnamed frames hash their context id */
	uint32_t h = 2166136261u;
	if (*name) {
		for (const unsigned char *p = (const unsigned char *)name; *p;
		     p++)
			h = (h ^ *p) * 16777619u;
	} else {
		for (int i = 0; i < 4; i++)
			h = (h ^ ((ctx >> (8 * i)) & 0xff)) * 16777619u;
	}
	return h;
}

uint32_t trace_view_color(const struct model *m, uint32_t ctx,
			  uint32_t n_colors)
{
	if (ctx == 0 || n_colors == 0)
		return 0;
	return 1 + trace_view_name_hash(m, ctx) % n_colors;
}

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

int tv_by_cells(const void *a, const void *b)
{
	const struct trace_share *x = a, *y = b;
	if (x->cells != y->cells)
		return x->cells > y->cells ? -1 : 1;
	return x->ctx < y->ctx ? -1 : x->ctx > y->ctx;
}

/* Shares of the cells of column `col` (UINT32_MAX: of every column) of
 * the grid's rows that show a line, counter rows left out. */
static enum status shares(const struct model *m, const struct trace_grid *g,
			  uint32_t col, uint32_t n_colors,
			  struct trace_share **out, size_t *n_out,
			  struct error *err)
{
	*out = NULL;
	*n_out = 0;
	/* rows without a line are not cells of the trace */
	size_t rows = 0;
	while (rows < g->rows && g->row_line[rows] != MODEL_NONE)
		rows++;
	size_t per = col == UINT32_MAX ? g->columns : col < g->columns;
	size_t n = rows * per;
	uint32_t *copy = malloc((n ? n : 1) * sizeof(*copy));
	struct trace_share *s = malloc((n ? n : 1) * sizeof(*s));
	if (!copy || !s) {
		free(copy);
		free(s);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	n = 0;
	for (size_t r = 0; r < rows; r++) {
		if (tv_is_counter(m, g->row_line[r]))
			continue;
		const uint32_t *row = g->cells + r * g->columns;
		if (col == UINT32_MAX) {
			memcpy(copy + n, row, g->columns * sizeof(*copy));
			n += g->columns;
		} else if (per) {
			copy[n++] = row[col];
		}
	}
	qsort(copy, n, sizeof(*copy), by_u32);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && s[k - 1].ctx == copy[i]) {
			s[k - 1].cells++;
			continue;
		}
		s[k++] = (struct trace_share){
			.ctx = copy[i],
			.color = trace_view_color(m, copy[i], n_colors),
			.cells = 1,
		};
	}
	free(copy);
	qsort(s, k, sizeof(*s), tv_by_cells);
	*out = s;
	*n_out = k;
	return STATUS_OK;
}

enum status trace_grid_shares(const struct model *m,
			      const struct trace_grid *g, uint32_t n_colors,
			      struct trace_share **out, size_t *n,
			      struct error *err)
{
	return shares(m, g, UINT32_MAX, n_colors, out, n, err);
}

enum status trace_grid_column_shares(const struct model *m,
				     const struct trace_grid *g, uint32_t k,
				     uint32_t n_colors,
				     struct trace_share **out, size_t *n,
				     struct error *err)
{
	return shares(m, g, k, n_colors, out, n, err);
}

/* An entry of trace_shares_merge_names' sort: the name and the entry's
 * index in the share list (its rank by cells). */
struct named_share {
	const char *name;
	size_t index;
};

static int by_name(const void *a, const void *b)
{
	const struct named_share *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

enum status trace_shares_merge_names(const struct model *m,
				     struct trace_share *s, size_t *n,
				     struct error *err)
{
	if (!s || *n < 2)
		return STATUS_OK;
	struct named_share *order = malloc(*n * sizeof(*order));
	bool *gone = calloc(*n, sizeof(*gone));
	if (!order || !gone) {
		free(order);
		free(gone);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	for (size_t i = 0; i < *n; i++)
		order[i] = (struct named_share){
			.name = ctx_name(m, s[i].ctx),
			.index = i,
		};
	qsort(order, *n, sizeof(*order), by_name);
	/* within a run of one name the first index is the largest context:
	 * it stands for the run and takes the others' cells */
	size_t keep = 0;
	for (size_t i = 1; i < *n; i++) {
		if (!*order[i].name ||
		    strcmp(order[i].name, order[keep].name) != 0) {
			keep = i;
			continue;
		}
		s[order[keep].index].cells += s[order[i].index].cells;
		gone[order[i].index] = true;
	}
	size_t k = 0;
	for (size_t i = 0; i < *n; i++)
		if (!gone[i])
			s[k++] = s[i];
	free(order);
	free(gone);
	qsort(s, k, sizeof(*s), tv_by_cells);
	*n = k;
	return STATUS_OK;
}
