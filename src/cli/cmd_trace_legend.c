/* cmd_trace_legend: counts the context ids of the window form's text
 * cells and prints what each stands for (see cmd_trace_legend.h).  Each
 * line's cells are sorted and merged into one sorted list, so memory holds
 * the distinct ids, not the cells.  Must not depend on curses or on ui/. */
#include "config.h"

#include "cli/cmd_trace_legend.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/present_write.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

bool trace_legend_add(struct trace_legend *l, const uint32_t *cells,
		      uint32_t n)
{
	if (n == 0)
		return true;
	uint32_t *s = malloc((size_t)n * sizeof(*s));
	if (!s)
		return false;
	memcpy(s, cells, (size_t)n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_u32);
	size_t distinct = 1;
	for (uint32_t i = 1; i < n; i++)
		distinct += s[i] != s[i - 1];
	/* the merged list holds at most l->n + distinct entries */
	size_t need = l->n + distinct;
	struct trace_legend_entry *out = malloc(need * sizeof(*out));
	if (!out) {
		free(s);
		return false;
	}
	size_t a = 0, k = 0;
	uint32_t i = 0;
	while (a < l->n || i < n) {
		if (i == n || (a < l->n && l->e[a].ctx < s[i])) {
			out[k++] = l->e[a++];
			continue;
		}
		uint32_t ctx = s[i];
		uint64_t c = 0;
		while (i < n && s[i] == ctx) {
			c++;
			i++;
		}
		if (a < l->n && l->e[a].ctx == ctx)
			c += l->e[a++].cells;
		out[k++] = (struct trace_legend_entry){.ctx = ctx, .cells = c};
	}
	free(s);
	free(l->e);
	l->e = out;
	l->n = k;
	l->cells += n;
	return true;
}

static int cmp_by_cells(const void *a, const void *b)
{
	const struct trace_legend_entry *x = a, *y = b;
	if (x->cells != y->cells)
		return x->cells < y->cells ? 1 : -1;
	return (x->ctx > y->ctx) - (x->ctx < y->ctx);
}

static int digits(uint64_t v)
{
	int d = 1;
	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

void trace_legend_put(const struct model *m, const struct trace_legend *l)
{
	if (l->n == 0 || l->cells == 0)
		return;
	struct trace_legend_entry *e = malloc(l->n * sizeof(*e));
	if (!e)
		return;
	memcpy(e, l->e, l->n * sizeof(*e));
	qsort(e, l->n, sizeof(*e), cmp_by_cells);
	uint32_t max_ctx = 0;
	for (size_t i = 0; i < l->n; i++)
		if (e[i].ctx > max_ctx)
			max_ctx = e[i].ctx;
	int wc = digits(max_ctx), wn = digits(e[0].cells);
	if (wc < 3)
		wc = 3;
	if (wn < 5)
		wn = 5;
	printf("\n%*s  %*s  %6s  %s\n", wc, "ctx", wn, "cells", "share",
	       "name (what the cells' numbers above stand for)");
	for (size_t i = 0; i < l->n; i++) {
		printf("%*" PRIu32 "  %*" PRIu64 "  %5.1f%%  ", wc, e[i].ctx, wn,
		       e[i].cells, 100.0 * (double)e[i].cells / (double)l->cells);
		uint32_t node =
			e[i].ctx ? model_node_of_ctx(m, e[i].ctx) : MODEL_NONE;
		char *name = node != MODEL_NONE ? model_node_label(m, node)
						 : NULL;
		present_put_text(stdout, name         ? name
					 : e[i].ctx ? "(unknown context)"
						    : "(idle)");
		free(name);
		fputc('\n', stdout);
	}
	free(e);
}

void trace_legend_free(struct trace_legend *l)
{
	free(l->e);
	*l = (struct trace_legend){0};
}
