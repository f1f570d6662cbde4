/* cube_scalefn: SCALE_FUNC cells decoded, added, ranked and written (see
 * cube_scalefn.h).  The layout is CubeScaleFuncValue's (toStream: the two
 * counts, then every term slot, then every measurement slot, zeros past
 * the used ones), in the file's byte order. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/strbuf.h"
#include "formats/cube/cube_scalefn.h"

#define TERM_SIZE 20

static bool rd32(struct span s, uint64_t off, bool swap, uint32_t *out)
{
	return swap ? span_u32be(s, off, out) : span_u32le(s, off, out);
}

static bool rd64f(struct span s, uint64_t off, bool swap, double *out)
{
	return swap ? span_f64be(s, off, out) : span_f64le(s, off, out);
}

/* The slot of (b, c, d) in f, or f->n when none. */
static size_t find_term(const struct cube_sf *f, int32_t b, uint32_t c,
			int32_t d)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->t[i].b == b && f->t[i].c == c && f->t[i].d == d)
			return i;
	return f->n;
}

static bool add_term(struct cube_sf *f, const struct cube_sf_term *t)
{
	size_t i = find_term(f, t->b, t->c, t->d);
	if (i < f->n) {
		f->t[i].a += t->a;
		return true;
	}
	if (!array_grow((void **)&f->t, &f->cap, f->n + 1, sizeof(*f->t)))
		return false;
	f->t[f->n++] = *t;
	return true;
}

enum status cube_sf_add_cell(struct cube_sf *f, struct span s, uint64_t off,
			     bool swap, struct error *err)
{
	struct span cell;
	uint32_t nt, nm;
	if (!span_sub(s, off, CUBE_SF_CELL, &cell) || !rd32(cell, 0, swap, &nt) ||
	    !rd32(cell, 4, swap, &nm))
		return error_set(err, STATUS_CORRUPT, NULL,
				 "a SCALE_FUNC cell at byte %llu is beyond "
				 "its row",
				 (unsigned long long)off);
	/* CubeScaleFuncValue: at most 30 terms and 10 measurements */
	if (nt > CUBE_SF_MAX_TERMS || nm > CUBE_SF_MAX_MEASUREMENTS)
		return error_set(err, STATUS_CORRUPT, NULL,
				 "a SCALE_FUNC cell claims %u terms and %u "
				 "measurements (at most %d and %d)",
				 (unsigned)nt, (unsigned)nm, CUBE_SF_MAX_TERMS,
				 CUBE_SF_MAX_MEASUREMENTS);
	for (uint32_t i = 0; i < nt; i++) {
		uint64_t at = 8 + (uint64_t)i * TERM_SIZE;
		struct cube_sf_term t;
		uint32_t b, d;
		if (!rd64f(cell, at, swap, &t.a) || !rd32(cell, at + 8, swap, &b) ||
		    !rd32(cell, at + 12, swap, &t.c) ||
		    !rd32(cell, at + 16, swap, &d))
			return error_set(err, STATUS_CORRUPT, NULL,
					 "a SCALE_FUNC term is beyond its cell");
		t.b = (int32_t)b;
		t.d = (int32_t)d;
		if (t.c == 0)
			return error_set(err, STATUS_CORRUPT, NULL,
					 "a SCALE_FUNC term has the exponent "
					 "%d/0",
					 (int)t.b);
		if (!add_term(f, &t))
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
	}
	return STATUS_OK;
}

bool cube_sf_add(struct cube_sf *f, const struct cube_sf *g)
{
	struct cube_sf copy = {0};
	for (size_t i = 0; i < f->n; i++)
		if (!add_term(&copy, &f->t[i]))
			goto fail;
	for (size_t i = 0; i < g->n; i++)
		if (!add_term(&copy, &g->t[i]))
			goto fail;
	cube_sf_free(f);
	*f = copy;
	return true;
fail:
	cube_sf_free(&copy);
	return false;
}

bool cube_sf_sub(struct cube_sf *f, const struct cube_sf *g)
{
	for (size_t k = 0; k < g->n; k++) {
		const struct cube_sf_term *t = &g->t[k];
		size_t i = find_term(f, t->b, t->c, t->d);
		if (i == f->n) {
			struct cube_sf_term neg = *t;
			neg.a = -t->a;
			if (!add_term(f, &neg))
				return false;
			continue;
		}
		double a = f->t[i].a, d = a - t->a;
		double big = fabs(a) > fabs(t->a) ? fabs(a) : fabs(t->a);
		if (fabs(d) > 1e-12 * big) {
			f->t[i].a = d;
			continue;
		}
		memmove(&f->t[i], &f->t[i + 1], (f->n - i - 1) * sizeof(*f->t));
		f->n--;
	}
	return true;
}

/* >0 when term x grows faster than y: b/c (compared exactly, c > 0),
 * then d, then a (ScaleFuncValue's dominant term). */
static int growth_cmp(const struct cube_sf_term *x, const struct cube_sf_term *y)
{
	int64_t l = (int64_t)x->b * y->c, r = (int64_t)y->b * x->c;
	if (l != r)
		return l > r ? 1 : -1;
	if (x->d != y->d)
		return x->d > y->d ? 1 : -1;
	if (x->a != y->a)
		return x->a > y->a ? 1 : -1;
	return 0;
}

double cube_sf_code(const struct cube_sf *f)
{
	if (f->n == 0)
		return 0;
	const struct cube_sf_term *best = &f->t[0];
	for (size_t i = 1; i < f->n; i++)
		if (growth_cmp(&f->t[i], best) > 0)
			best = &f->t[i];
	return 1000.0 * best->b / best->c + best->d + best->a / 1000.0;
}

static int by_growth_desc(const void *a, const void *b)
{
	return growth_cmp(b, a);
}

/* "x^(b/c)", "x^b", "x", "" */
static void add_power(struct strbuf *sb, int32_t b, uint32_t c)
{
	if (b == 0)
		return;
	if (c == 1 && b == 1)
		strbuf_add(sb, "x");
	else if (c == 1)
		strbuf_addf(sb, "x^%d", (int)b);
	else
		strbuf_addf(sb, "x^(%d/%u)", (int)b, (unsigned)c);
}

char *cube_sf_text(const struct cube_sf *f)
{
	if (f->n == 0)
		return strdup("0");
	struct cube_sf_term *t = malloc(f->n * sizeof(*t));
	if (!t)
		return NULL;
	memcpy(t, f->t, f->n * sizeof(*t));
	qsort(t, f->n, sizeof(*t), by_growth_desc);
	struct strbuf sb = {0};
	for (size_t i = 0; i < f->n; i++) {
		double a = t[i].a;
		if (i)
			strbuf_add(&sb, a < 0 ? " - " : " + ");
		else if (a < 0)
			strbuf_add(&sb, "-");
		if (a < 0)
			a = -a;
		bool bare = t[i].b == 0 && t[i].d == 0;
		if (a != 1 || bare)
			strbuf_addf(&sb, "%.6g", a);
		size_t before = sb.len;
		if (a != 1 || bare) {
			if (t[i].b != 0 || t[i].d != 0)
				strbuf_add(&sb, "*");
			before = sb.len;
		}
		add_power(&sb, t[i].b, t[i].c);
		if (t[i].d != 0) {
			if (sb.len != before)
				strbuf_add(&sb, "*");
			if (t[i].d == 1)
				strbuf_add(&sb, "log2(x)");
			else
				strbuf_addf(&sb, "log2(x)^%d", (int)t[i].d);
		}
	}
	free(t);
	return strbuf_take(&sb);
}

void cube_sf_clear(struct cube_sf *f)
{
	f->n = 0;
}

void cube_sf_free(struct cube_sf *f)
{
	free(f->t);
	*f = (struct cube_sf){0};
}
