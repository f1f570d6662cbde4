/* outline_match: search and filter patterns (POSIX extended regular
 * expressions, smart case) matched once over the view's rows into bitsets;
 * each match marks its ancestors, so that a search step walks only the
 * subtrees that hold matches.  Rows a view makes later (bottom-up callers)
 * are matched when they appear (ol_sync_rows).  Also the filter's "under a
 * match" flag of a row.  Must not depend on curses or on ui/. */
#include "config.h"

#include "views/outline_internal.h"
#include "core/array.h"

#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* ---- patterns ---------------------------------------------------------- */

void ol_pattern_free(struct pattern *p)
{
	if (p->on)
		regfree(&p->re);
	free(p->text);
	*p = (struct pattern){0};
}

/* Compile `text` into *p (which must be off).  Smart case. */
enum status ol_pattern_compile(struct outline *o, struct pattern *p,
				   const char *text, struct error *err)
{
	size_t len = strlen(text);
	if (len > OUTLINE_MAX_PATTERN)
		return error_set(err, STATUS_LIMIT, NULL,
				 "pattern longer than %u bytes",
				 OUTLINE_MAX_PATTERN);
	int flags = REG_EXTENDED | REG_NOSUB | REG_ICASE;
	for (size_t i = 0; i < len; i++)
		if (isupper((unsigned char)text[i]))
			flags &= ~REG_ICASE;
	p->text = strdup(text);
	if (!p->text)
		return error_set(err, STATUS_NOMEM, model_path(o->m), "out of memory");
	int rc = regcomp(&p->re, text, flags);
	if (rc != 0) {
		size_t need = regerror(rc, &p->re, NULL, 0);
		char *msg = malloc(need ? need : 1);
		if (msg)
			regerror(rc, &p->re, msg, need);
		error_set(err, STATUS_USAGE, NULL, "bad pattern: %s",
			  msg ? msg : "invalid regular expression");
		free(msg);
		FREE_AND_NULL(p->text);
		return STATUS_USAGE;
	}
	p->on = true;
	return STATUS_OK;
}

/* Set `b` on `row` and its ancestors, stopping at one already set. */
static bool mark_up(const struct outline *o, struct bits *b, uint32_t row)
{
	uint64_t steps = 0;
	for (uint32_t r = row; r != MODEL_NONE && !ol_bits_get(b, r) &&
			       steps++ <= ol_depth_cap(o);
	     r = ol_parent_of(o, r))
		if (!ol_bits_set(b, r))
			return false;
	return true;
}

/* Match `row` against the patterns selected by `search` / `filter`. */
enum status ol_match_row(struct outline *o, uint32_t row, bool search,
			     bool filter, struct error *err)
{
	char *label = view_node_label(o->v, row);
	enum status st = STATUS_OK;
	if (!label)
		return error_set(err, STATUS_NOMEM, model_path(o->m),
				 "out of memory");
	if (search && regexec(&o->search.re, label, 0, NULL, 0) == 0) {
		if (!ol_bits_set(&o->smatch, row) ||
		    !mark_up(o, &o->sbelow, row))
			goto nomem;
		o->n_smatch++;
	}
	if (filter && regexec(&o->filter.re, label, 0, NULL, 0) == 0) {
		if (!ol_bits_set(&o->fmatch, row) ||
		    !mark_up(o, &o->fbelow, row))
			goto nomem;
	}
	goto out;
nomem:
	st = error_set(err, STATUS_NOMEM, model_path(o->m), "out of memory");
out:
	free(label);
	return st;
}

/* The number of rows the view has now (bottom-up grows as callers are
 * computed; rows are numbered densely). */
uint32_t ol_view_rows(struct outline *o)
{
	struct view_node vn;
	if (o->top_down)
		return model_n_nodes(o->m);
	while (o->rows_known < UINT32_MAX &&
	       view_node_get(o->v, o->rows_known, &vn))
		o->rows_known++;
	return o->rows_known;
}

/* Match the active patterns on rows the view made since the last call. */
enum status ol_sync_rows(struct outline *o, struct error *err)
{
	if (!o->search.on && !o->filter.on)
		return STATUS_OK;
	uint32_t n = ol_view_rows(o);
	for (; o->scanned < n; o->scanned++) {
		bool before =
		    o->filter.on && ol_bits_get(&o->fbelow, o->scanned);
		enum status st = ol_match_row(o, o->scanned, o->search.on,
					      o->filter.on, err);
		if (st != STATUS_OK)
			return st;
		if (o->fmode == OUTLINE_FILTER_ONLY && !before &&
		    ol_bits_get(&o->fbelow, o->scanned))
			o->dirty = true;
	}
	return STATUS_OK;
}

/* ---- filter ------------------------------------------------------------ */

/* Whether `row` or one of its ancestors matches an ONLY filter. */
bool ol_under_row(const struct outline *o, uint32_t row)
{
	if (o->fmode != OUTLINE_FILTER_ONLY)
		return false;
	uint64_t steps = 0;
	for (uint32_t r = row; r != MODEL_NONE && steps++ <= ol_depth_cap(o);
	     r = ol_parent_of(o, r))
		if (ol_bits_get(&o->fmatch, r))
			return true;
	return false;
}
