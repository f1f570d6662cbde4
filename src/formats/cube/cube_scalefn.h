/* cube_scalefn: Cube's SCALE_FUNC cells, the Extra-P scaling functions of
 * the process count x that CubeLib's CubeScaleFuncValue stores: decoded
 * from a cell through a checked span, combined (a sum of functions adds
 * the coefficients of equal (b, c, d) terms), ranked as the Cube GUI ranks
 * them (ScaleFuncValue::getDouble: the code 1000 b/c + d + a/1000 of the
 * dominant term), and written as text.  Pure: no file, no model; the
 * values over call nodes and locations are cube_scalefn_values.c's.
 * Depends on core/ only.  doc/cube.md, "SCALE_FUNC". */
#ifndef CALLSCOPE_CUBE_SCALEFN_H
#define CALLSCOPE_CUBE_SCALEFN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/span.h"
#include "core/status.h"

/* One cell: uint32 terms, uint32 measurements, 30 terms of 20 bytes
 * (double a, int32 b, uint32 c, int32 d), 10 measurements of 24 bytes. */
#define CUBE_SF_CELL 848
#define CUBE_SF_MAX_TERMS 30
#define CUBE_SF_MAX_MEASUREMENTS 10

/* The term a * x^(b/c) * log2(x)^d. */
struct cube_sf_term {
	double a;
	int32_t b;
	uint32_t c; /* never 0 once decoded */
	int32_t d;
};

/* A function: a sum of terms of distinct (b, c, d), in the order they
 * first came.  {0} is the empty function (no value). */
struct cube_sf {
	struct cube_sf_term *t;
	size_t n, cap;
};

/* Add the terms of the cell at `off` in `s` (CUBE_SF_CELL bytes; `swap`:
 * big-endian) to `f`.  STATUS_CORRUPT (the reason in err->message, no
 * file: the caller names it) for a cell beyond the span, more than 30
 * terms or 10 measurements, or a term with c == 0; STATUS_NOMEM. */
enum status cube_sf_add_cell(struct cube_sf *f, struct span s, uint64_t off,
			     bool swap, struct error *err);

/* Add function `g` to `f`.  false: out of memory (f unchanged then). */
bool cube_sf_add(struct cube_sf *f, const struct cube_sf *g);

/* Subtract function `g` from `f` (an exclusive function of one stored
 * inclusive): a term whose coefficient cancels to within rounding
 * (|a| <= 1e-12 of the larger of the two) is dropped, so that a term
 * only the children have ranks nothing.  false: out of memory (f may
 * then hold part of the difference). */
bool cube_sf_sub(struct cube_sf *f, const struct cube_sf *g);

/* The ranking code of `f`: for its dominant term (the largest b/c, then
 * the largest d, then the largest a), 1000 * b/c + d + a/1000; 0 for the
 * empty function. */
double cube_sf_code(const struct cube_sf *f);

/* `f` as text, its terms by decreasing growth: "2*x^(2/3)*log2(x)^4 +
 * x^(1/2)*log2(x)^3" (a coefficient 1 and exponents 1 not written, "0"
 * for the empty function).  Heap string, NULL when out of memory. */
char *cube_sf_text(const struct cube_sf *f);

/* Empty `f` (its buffer kept), or free it. */
void cube_sf_clear(struct cube_sf *f);
void cube_sf_free(struct cube_sf *f);

#endif
