/* present_value: how one metric value is written, for every screen and
 * every text output.  present_value_raw() is the column's own format (the
 * database's printf format when it is safe, else %.2e), which the batch
 * text and CSV reports keep byte for byte.  present_value_fit() is the
 * viewer's: the value in at most a given number of columns, never cut to
 * a prefix, in the unit of its metric (373.3 ms, 3.932 GB, 732,833,917,381
 * or 732.8 G), switching to a shorter form when the longer one does not
 * fit.  ASCII only, so that a byte is a column.  No curses here. */
#ifndef CALLSCOPE_PRESENT_VALUE_H
#define CALLSCOPE_PRESENT_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct model;

/* true when FMT is a printf format with exactly one floating-point
 * conversion and nothing else that printf would read */
bool present_format_is_safe(const char *fmt);

/* the value V of COLUMN in the column's own format; NULL when out of
 * memory (the caller frees) */
char *present_value_raw(const struct model *m, uint32_t column, double v);

/* What a column's values measure, as the viewer writes them. */
enum present_unit {
	PRESENT_PLAIN, /* the column's format, else the shortest %g form */
	PRESENT_COUNT, /* digit groups, else plain digits, else SI: 732.8 G */
	PRESENT_TIME,  /* s, ms, us, ns */
	PRESENT_BYTES, /* B, KB, MB, GB, TB (powers of 1000) */
};

/* The forms a count may take: a column of values picks one for all its
 * rows, so that 687642879 never stands beside 732.8 G. */
enum present_count_form {
	PRESENT_COUNT_GROUPED, /* 732,833,917,381, else the next forms */
	PRESENT_COUNT_DIGITS,  /* 732833917381, else SI */
	PRESENT_COUNT_SI,      /* 732.8 G */
};

struct present_kind {
	enum present_unit unit;
	double scale;	    /* value * scale is in seconds or bytes */
	const char *format; /* the column's printf format (PLAIN), or NULL */
	enum present_count_form count_form; /* COUNT: the first form tried */
};

/* The significant digits a unit form shows at most by default. */
#define PRESENT_DIGITS 4

/* What COLUMN measures: the reader's unit (model_column.unit), else what
 * its name says ("CPUTIME (sec)", "WALLCLOCK (us)", "GPU time (ns)",
 * "Bytes"; a CfVar variant has no unit), else a count when its format
 * is "%.0f".  Out-of-range columns (derived ones) are PLAIN with %.2e. */
struct present_kind present_column_kind(const struct model *m, uint32_t column);

/* V written in at most WIDTH columns (and SIZE - 1 bytes) into BUF: the
 * longest form of its kind that fits, with at most DIGITS significant
 * digits in unit forms (>= 1).  Never a cut prefix: when nothing fits,
 * "#".  nan, inf and -inf as such; 0 as "0".  Returns the length. */
size_t present_number_fit(struct present_kind k, double v, int width,
			  int digits, char *buf, size_t size);

/* A duration of NS nanoseconds as a person reads it ("373.3 ms", "18.36
 * us"), present_number_fit() of a time with PRESENT_DIGITS in at most
 * SIZE - 1 columns.  Returns the length. */
size_t present_duration_ns(double ns, char *buf, size_t size);

/* present_number_fit() for COLUMN's kind with PRESENT_DIGITS. */
size_t present_value_fit(const struct model *m, uint32_t column, double v,
			 int width, char *buf, size_t size);

/* V's share of TOTAL in percent: true and *PCT when both are finite,
 * TOTAL is not 0 and the share is finite; false otherwise (an inf value,
 * a NaN, a zero total), where a share would read "nan%" or "inf%". */
bool present_share(double v, double total, double *pct);

/* present_share() as text of the width of "100.0%" ("%5.1f%%"), or
 * blanks of that width when there is no share.  Returns the length. */
size_t present_share_text(double v, double total, char *buf, size_t size);

#endif
