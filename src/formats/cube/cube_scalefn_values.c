/* cube_scalefn_values: the values of a SCALE_FUNC metric (cube_scalefn.h
 * decodes, adds and ranks one function): at a call node, the function of
 * its cells added over the locations asked (stored exclusive: the
 * node's own row, or for the inclusive value every row of its subtree,
 * which runs on in document order; stored inclusive: the row, less the
 * children's rows for the exclusive value; the synthetic root: its
 * roots'), and its ranking code or text.
 * Codes do not add: every total is the code of a sum of functions, never
 * a sum of codes.  Totals are kept per node once computed.  A damaged
 * cell is a failed read (the first error kept, naming the file and the
 * metric), its value absent.  Called with v->lock held.  Must not depend
 * on curses or on another format. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cube/cube_internal.h"
#include "formats/cube/cube_scalefn.h"

#define ALL_LOCS UINT32_MAX

struct sf_metric {
	char *name;
	double *code[2];   /* per position, then the synthetic root */
	uint8_t *state[2]; /* 0 not computed, 1 present, 2 absent */
};

struct cube_sfv {
	uint32_t n_metrics;
	struct sf_metric *m;
};

enum status cube_sf_setup(struct cube_values *v, uint32_t mi, const char *name)
{
	if (!v->sf) {
		v->sf = calloc(1, sizeof(*v->sf));
		if (v->sf) {
			v->sf->m = calloc(v->n_metrics ? v->n_metrics : 1,
					  sizeof(*v->sf->m));
			v->sf->n_metrics = v->sf->m ? v->n_metrics : 0;
		}
	}
	if (!v->sf || mi >= v->sf->n_metrics)
		return STATUS_NOMEM;
	free(v->sf->m[mi].name);
	v->sf->m[mi].name = strdup(name);
	return v->sf->m[mi].name ? STATUS_OK : STATUS_NOMEM;
}

void cube_sf_values_free(struct cube_values *v)
{
	if (!v->sf)
		return;
	for (uint32_t i = 0; i < v->sf->n_metrics; i++) {
		struct sf_metric *s = &v->sf->m[i];
		free(s->name);
		for (int k = 0; k < 2; k++) {
			free(s->code[k]);
			free(s->state[k]);
		}
	}
	free(v->sf->m);
	free(v->sf);
	v->sf = NULL;
}

/* A damaged cell: the first failure, naming the file and metric. */
static void note_bad_cell(struct cube_values *v, uint32_t mi, uint32_t pos,
			  struct error *e)
{
	const char *name = v->sf && mi < v->sf->n_metrics && v->sf->m[mi].name
				   ? v->sf->m[mi].name
				   : "?";
	struct error named = {0};
	error_set(&named, e->status, v->name, "metric %s, call node %u: %s",
		  name, pos < v->n ? (unsigned)v->id[pos] : 0u,
		  e->message ? e->message : "damaged cell");
	error_clear(e);
	cube_note_error(v, &named);
}

/* Cell j of a row at `off` added to *to, or subtracted (`sub`). */
static enum status take_cell(struct cube_sf *to, struct span s, uint64_t off,
			     bool swap, bool sub, struct error *e)
{
	if (!sub)
		return cube_sf_add_cell(to, s, off, swap, e);
	struct cube_sf one = {0};
	enum status st = cube_sf_add_cell(&one, s, off, swap, e);
	if (st == STATUS_OK && !cube_sf_sub(to, &one))
		st = error_set(e, STATUS_NOMEM, NULL, "out of memory");
	cube_sf_free(&one);
	return st;
}

/* The cells of location `loc` (ALL_LOCS: every one, each into f[j] when
 * `per_loc`, else all into *f) of the rows at positions [lo, hi) added,
 * or subtracted (`sub`); false when a cell is damaged (noted) or out of
 * memory. */
static bool add_rows(struct cube_values *v, uint32_t mi, uint32_t lo,
		     uint32_t hi, uint32_t loc, struct cube_sf *f, bool per_loc,
		     bool sub)
{
	for (uint32_t p = lo; p < hi && p < v->n; p++) {
		bool swap = false;
		const uint8_t *row = cube_raw_row(v, mi, p, &swap);
		if (!row)
			continue;
		struct span s = {row, (uint64_t)v->n_loc * CUBE_SF_CELL};
		for (uint32_t j = 0; j < v->n_loc; j++) {
			if (loc != ALL_LOCS && j != loc)
				continue;
			struct error e = {0};
			struct cube_sf *to = per_loc ? &f[j] : f;
			if (take_cell(to, s, (uint64_t)j * CUBE_SF_CELL, swap,
				      sub, &e) != STATUS_OK) {
				note_bad_cell(v, mi, p, &e);
				return false;
			}
		}
	}
	return true;
}

/* The function of (pos, kind) added to f (as add_rows): an EXCLUSIVE
 * metric's exclusive one is its row, its inclusive one its subtree's
 * rows (document order: a run from pos); an INCLUSIVE one's inclusive is
 * its row, its exclusive one that less its children's rows; a SIMPLE
 * one's both its row; the synthetic root (CUBE_POS_ALL), inclusive
 * only, its roots' inclusive ones.  false: damaged or out of memory. */
static bool add_value(struct cube_values *v, uint32_t mi, uint32_t pos,
		      uint32_t kind, uint32_t loc, struct cube_sf *f,
		      bool per_loc)
{
	if (pos == CUBE_POS_ALL) {
		for (uint32_t p = 0; kind == KIND_INCL && p < v->n;
		     p += v->subtree[p])
			if (!add_value(v, mi, p, KIND_INCL, loc, f, per_loc))
				return false;
		return true;
	}
	if (pos >= v->n)
		return true;
	switch ((enum cube_mtype)v->metrics[mi].mtype) {
	case CUBE_MT_INCLUSIVE:
		if (!add_rows(v, mi, pos, pos + 1, loc, f, per_loc, false))
			return false;
		for (uint32_t c = v->first_child[pos];
		     kind == KIND_EXCL && c != UINT32_MAX; c = v->next_sibling[c])
			if (!add_rows(v, mi, c, c + 1, loc, f, per_loc, true))
				return false;
		return true;
	case CUBE_MT_SIMPLE:
		return add_rows(v, mi, pos, pos + 1, loc, f, per_loc, false);
	case CUBE_MT_EXCLUSIVE:
	case CUBE_MT_DERIVED:
		break;
	}
	uint32_t hi = kind == KIND_INCL ? pos + v->subtree[pos] : pos + 1;
	return add_rows(v, mi, pos, hi, loc, f, per_loc, false);
}

/* The function at (pos, kind) over location `loc` (ALL_LOCS: all) into
 * *f (emptied first); false when absent or damaged. */
static bool function_at(struct cube_values *v, uint32_t mi, uint32_t pos,
			uint32_t kind, uint32_t loc, struct cube_sf *f)
{
	cube_sf_clear(f);
	return add_value(v, mi, pos, kind, loc, f, false) && f->n > 0;
}

static struct sf_metric *cache_of(struct cube_values *v, uint32_t mi,
				  uint32_t kind)
{
	if (!v->sf || mi >= v->sf->n_metrics || kind > 1)
		return NULL;
	struct sf_metric *s = &v->sf->m[mi];
	if (!s->code[kind]) {
		s->code[kind] = malloc(((size_t)v->n + 1) * sizeof(double));
		s->state[kind] = calloc((size_t)v->n + 1, 1);
		if (!s->code[kind] || !s->state[kind]) {
			free(s->code[kind]);
			free(s->state[kind]);
			s->code[kind] = NULL;
			s->state[kind] = NULL;
			return NULL;
		}
	}
	return s;
}

bool cube_sf_total(struct cube_values *v, uint32_t mi, uint32_t pos,
		   uint32_t kind, double *out)
{
	*out = 0;
	if (pos != CUBE_POS_ALL && pos >= v->n)
		return false;
	struct sf_metric *s = cache_of(v, mi, kind);
	size_t at = pos == CUBE_POS_ALL ? v->n : pos;
	if (s && s->state[kind][at]) {
		*out = s->code[kind][at];
		return s->state[kind][at] == 1;
	}
	struct cube_sf f = {0};
	bool ok = function_at(v, mi, pos, kind, ALL_LOCS, &f);
	*out = ok ? cube_sf_code(&f) : 0;
	cube_sf_free(&f);
	/* a damaged cell is not kept: asked again, it fails again */
	if (s && (ok || v->first_error.status == STATUS_OK)) {
		s->code[kind][at] = *out;
		s->state[kind][at] = ok ? 1 : 2;
	}
	return ok;
}

bool cube_sf_fill(struct cube_values *v, uint32_t mi, uint32_t kind)
{
	/* stored inclusive or simple: each row is a node's value */
	if (v->metrics[mi].mtype != CUBE_MT_EXCLUSIVE)
		return true;
	struct sf_metric *s = cache_of(v, mi, kind);
	struct cube_sf *fn = calloc((size_t)v->n + 1, sizeof(*fn));
	bool ok = s && fn;
	/* positions in reverse document order: every child before its
	 * parent, whose function takes the child's over (then freed) */
	for (uint32_t p = v->n; ok && p-- > 0;) {
		if (!add_rows(v, mi, p, p + 1, ALL_LOCS, &fn[p], false,
			      false)) {
			ok = false;
			break;
		}
		if (kind == KIND_INCL)
			for (uint32_t c = v->first_child[p]; c != UINT32_MAX;
			     c = v->next_sibling[c]) {
				ok = cube_sf_add(&fn[p], &fn[c]);
				cube_sf_free(&fn[c]);
				if (!ok)
					break;
			}
		s->code[kind][p] = cube_sf_code(&fn[p]);
		s->state[kind][p] = fn[p].n ? 1 : 2;
		if (kind != KIND_INCL)
			cube_sf_free(&fn[p]);
	}
	for (uint32_t p = 0; fn && p < v->n; p++)
		cube_sf_free(&fn[p]);
	free(fn);
	return ok;
}

bool cube_sf_cells(struct cube_values *v, uint32_t mi, uint32_t pos,
		   uint32_t kind, double *out)
{
	uint32_t L = v->n_loc;
	memset(out, 0, L * sizeof(*out));
	struct cube_sf *f = calloc(L ? L : 1, sizeof(*f));
	bool any = false;
	if (f && add_value(v, mi, pos, kind, ALL_LOCS, f, true))
		for (uint32_t j = 0; j < L; j++) {
			out[j] = cube_sf_code(&f[j]);
			any |= f[j].n > 0;
		}
	for (uint32_t j = 0; f && j < L; j++)
		cube_sf_free(&f[j]);
	free(f);
	return any;
}

enum status cube_sf_text_at(struct cube_values *v, uint32_t mi, uint32_t pos,
			    uint32_t kind, uint32_t loc, char **out)
{
	*out = NULL;
	if (loc != ALL_LOCS && loc >= v->n_loc)
		return STATUS_OK;
	struct cube_sf f = {0};
	enum status st = STATUS_OK;
	if (function_at(v, mi, pos, kind, loc, &f)) {
		*out = cube_sf_text(&f);
		if (!*out)
			st = STATUS_NOMEM;
	}
	cube_sf_free(&f);
	return st;
}
