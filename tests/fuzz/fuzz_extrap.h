/* fuzz_extrap: the promises of an Extra-P set's model that the Extra-P
 * fuzz targets check after a successful parse (see fuzz-extrap-text.c),
 * and one parse of an input through a parser with those checks; traps when
 * one is broken. */
#ifndef CALLSCOPE_FUZZ_EXTRAP_H
#define CALLSCOPE_FUZZ_EXTRAP_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

static inline void fuzz_extrap_check(const struct model *m)
{
	if (!m || model_n_params(m) == 0 || model_n_points(m) == 0 ||
	    model_n_measured(m) == 0 || model_n_profiles(m) != model_n_points(m))
		__builtin_trap();
	for (uint32_t p = 1; p < model_n_points(m); p++) {
		const double *a = model_point_coords(m, p - 1);
		const double *b = model_point_coords(m, p);
		uint32_t j = 0;
		while (j < model_n_params(m) && a[j] == b[j])
			j++;
		if (j == model_n_params(m) || a[j] > b[j])
			__builtin_trap(); /* not sorted, or a duplicate */
	}
	for (uint32_t n = 1; n < model_n_nodes(m); n++)
		for (uint32_t k = 0; k < model_n_measured(m); k++) {
			uint32_t have = 0;
			for (uint32_t p = 0; p < model_n_points(m); p++) {
				const struct model_measure *ms =
					model_measure_at(m, n, k, p);
				if (!ms)
					continue;
				have++;
				if (!isnan(ms->minimum) && !isnan(ms->maximum) &&
				    !isnan(ms->median) &&
				    (ms->minimum > ms->median ||
				     ms->median > ms->maximum))
					__builtin_trap();
			}
			if (have && have != model_n_points(m))
				__builtin_trap();
		}
}

/* An Extra-P parser's signature (extrap.h). */
typedef enum status (*fuzz_extrap_parser)(const char *, size_t, const char *,
					  struct model **, struct error *);

/* One parse of the input: a model keeps the promises above, a refusal
 * carries a status and a message; traps otherwise. */
static inline void fuzz_extrap_parse(fuzz_extrap_parser parse,
				     const uint8_t *data, size_t size)
{
	struct model *m = NULL;
	struct error err = {0};
	if (parse((const char *)data, size, "fuzz", &m, &err) == STATUS_OK)
		fuzz_extrap_check(m);
	else if (err.status == STATUS_OK || !err.message)
		__builtin_trap();
	model_free(m);
	error_clear(&err);
}

#endif
