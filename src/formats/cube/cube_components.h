/* cube_components: the Cube data types: the TYPE and DTYPE texts of a
 * metric read into kind, type and element size, and the types that hold
 * several numbers per cell and have a documented layout, shown as their
 * components: TAU_ATOMIC (n, min, max, sum, sum of squares:
 * CubeTauAtomicValue), RATE (main value, duration: CubeRateValue) and
 * HISTOGRAM(n) (min, max, and the count of its bins: CubeHistogramValue).
 * Each component becomes a metric of its own after the file's metrics,
 * reading one field of the cell (comp_off) with the field's type (so n
 * sums, min takes the minimum, max the maximum), a child of the
 * multi-value metric in the metric tree; cube_metrics.c adds the derived
 * columns (TAU_ATOMIC mean and standard deviation, RATE rate) as formulas
 * over the components.  SCALE_FUNC cells (848 bytes) are read whole by
 * cube_scalefn*.c.  Depends on core/,
 * model/ and cube_anchor.h. */
#ifndef CALLSCOPE_CUBE_COMPONENTS_H
#define CALLSCOPE_CUBE_COMPONENTS_H

#include <stdint.h>

#include "core/status.h"
#include "formats/cube/cube_anchor.h"
#include "model/model.h"

/* The components of one multi-value metric. */
struct cube_components {
	uint32_t metric; /* the multi-value metric's index */
	uint32_t first;  /* its first component's index */
	uint32_t n;      /* components, in the layout's order */
	uint8_t dtype;   /* CUBE_DT_TAU_ATOMIC, _RATE or _HISTOGRAM */
};

/* Set m->dtype, m->elem_size and m->known_dtype from the DTYPE text `t`
 * (`len` bytes, blanks around it ignored); an unknown type is read as
 * DOUBLE, as CubeLib does, with known_dtype false. */
void cube_set_dtype(struct cube_metric *m, const char *t, size_t len);

/* The metric TYPE attribute `t` (NULL: none) as an enum cube_mtype, with
 * *derived the enum cube_derived; a missing or unknown type is EXCLUSIVE
 * (CubeMetric.cpp). */
uint8_t cube_mtype_of(const char *t, uint8_t *derived);

/* Whether metric `m` is shown through components. */
bool cube_has_components(const struct cube_metric *m);

/* Why metric `m`, neither scalar, nor shown through components, nor a
 * SCALE_FUNC metric, is not shown: the rest of a warning after "data
 * type DTYPE " (static text): several values with no one to show. */
const char *cube_unshown_why(const struct cube_metric *m);

/* Append the components of every such metric of (*metrics, *n) to the
 * array (reallocated), named "UNIQ/field" (interned through `b`), and
 * describe them in *sets (malloc'd, *n_sets of them; NULL when none).
 * STATUS_NOMEM. */
enum status cube_components_expand(struct cube_metric **metrics, uint32_t *n,
				   struct model_builder *b,
				   struct cube_components **sets,
				   uint32_t *n_sets, struct error *err);

#endif
