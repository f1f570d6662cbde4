/* cube_components: the multi-value Cube types as component metrics (see
 * cube_components.h).  Layouts as CubeLib stores them, packed, in the
 * file's byte order: TAU_ATOMIC = uint32 n, double min, max, sum, sum2
 * (36 bytes); RATE = double main, double duration (16 bytes); HISTOGRAM(n)
 * = double min, max, n doubles (8 (n + 2) bytes). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cube/cube_components.h"
#include "formats/cube/cube_scalefn.h"

struct field {
	const char *name;
	uint8_t dtype;
	uint16_t off;
};

static const struct field tau_fields[] = {
	{"n", CUBE_DT_UINT32, 0},       {"min", CUBE_DT_MINDOUBLE, 4},
	{"max", CUBE_DT_MAXDOUBLE, 12}, {"sum", CUBE_DT_DOUBLE, 20},
	{"sum2", CUBE_DT_DOUBLE, 28},
};

static const struct field rate_fields[] = {
	{"main", CUBE_DT_DOUBLE, 0},
	{"time", CUBE_DT_DOUBLE, 8},
};

/* HISTOGRAM(n): double min, max, then n bins (CubeHistogramValue); the
 * bins' sum is the one number that adds up whatever the bins' ranges
 * (CubeLib's merge re-bins, keeping the mass), cell() sums them. */
static const struct field hist_fields[] = {
	{"min", CUBE_DT_MINDOUBLE, 0},
	{"max", CUBE_DT_MAXDOUBLE, 8},
	{"count", CUBE_DT_HISTOGRAM, 16},
};

static const struct field *fields_of(const struct cube_metric *m, uint32_t *n)
{
	if (m->dtype == CUBE_DT_HISTOGRAM && m->elem_size >= 16) {
		*n = sizeof(hist_fields) / sizeof(hist_fields[0]);
		return hist_fields;
	}
	if (m->dtype == CUBE_DT_TAU_ATOMIC && m->elem_size == 36) {
		*n = sizeof(tau_fields) / sizeof(tau_fields[0]);
		return tau_fields;
	}
	if (m->dtype == CUBE_DT_RATE && m->elem_size == 16) {
		*n = sizeof(rate_fields) / sizeof(rate_fields[0]);
		return rate_fields;
	}
	*n = 0;
	return NULL;
}

bool cube_has_components(const struct cube_metric *m)
{
	uint32_t n;
	return m->comp_off == 0 && !m->is_component && fields_of(m, &n);
}

const char *cube_unshown_why(const struct cube_metric *m)
{
	(void)m;
	return "has several values per cell and is not shown";
}

static uint32_t intern_joined(struct model_builder *b, const char *a,
			      const char *field)
{
	char buf[1024];
	int len = snprintf(buf, sizeof(buf), "%s/%s", a, field);
	if (len < 0 || (size_t)len >= sizeof(buf))
		len = (int)strlen(buf);
	return model_builder_intern(b, buf, (size_t)len);
}

enum status cube_components_expand(struct cube_metric **metrics, uint32_t *n,
				   struct model_builder *b,
				   struct cube_components **sets,
				   uint32_t *n_sets, struct error *err)
{
	*sets = NULL;
	*n_sets = 0;
	uint32_t extra = 0, n_multi = 0, nf;
	for (uint32_t i = 0; i < *n; i++)
		if (cube_has_components(&(*metrics)[i])) {
			fields_of(&(*metrics)[i], &nf);
			extra += nf;
			n_multi++;
		}
	if (n_multi == 0)
		return STATUS_OK;
	struct cube_metric *nm =
		realloc(*metrics, ((size_t)*n + extra) * sizeof(*nm));
	struct cube_components *cs = malloc(n_multi * sizeof(*cs));
	if (nm)
		*metrics = nm;
	if (!nm || !cs) {
		free(cs);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	uint32_t at = *n, k = 0, orig = *n;
	for (uint32_t i = 0; i < orig; i++) {
		const struct cube_metric *m = &nm[i];
		if (!cube_has_components(m))
			continue;
		const struct field *f = fields_of(m, &nf);
		const struct model *mm = model_builder_peek(b);
		cs[k++] = (struct cube_components){.metric = i, .first = at,
						   .n = nf, .dtype = m->dtype};
		for (uint32_t j = 0; j < nf; j++) {
			struct cube_metric c = *m;
			c.parent = i;
			c.uniq = intern_joined(b, model_str(mm, m->uniq),
					       f[j].name);
			mm = model_builder_peek(b);
			c.disp = intern_joined(b, model_str(mm, m->disp),
					       f[j].name);
			mm = model_builder_peek(b);
			if (c.uniq == MODEL_NONE || c.disp == MODEL_NONE) {
				free(cs);
				return error_set(err, STATUS_NOMEM, NULL,
						 "out of memory");
			}
			c.dtype = f[j].dtype;
			c.comp_off = f[j].off;
			c.is_component = true;
			nm[at++] = c;
		}
	}
	*n = at;
	*sets = cs;
	*n_sets = n_multi;
	return STATUS_OK;
}

/* DTYPE text -> type and element size (CubeMetric.cpp; pycubexr
 * metric_formats.py).  "INTEGER" is 64-bit, "FLOAT" is 8 bytes. */
void cube_set_dtype(struct cube_metric *m, const char *t, size_t len)
{
	static const struct {
		const char *text;
		uint8_t dtype;
		uint8_t size;
	} types[] = {
		{"DOUBLE", CUBE_DT_DOUBLE, 8},
		{"FLOAT", CUBE_DT_DOUBLE, 8},
		{"INT8", CUBE_DT_INT8, 1},
		{"CHAR", CUBE_DT_UINT8, 1},
		{"UINT8", CUBE_DT_UINT8, 1},
		{"INT16", CUBE_DT_INT16, 2},
		{"SHORT INT", CUBE_DT_INT16, 2},
		{"UINT16", CUBE_DT_UINT16, 2},
		{"UNSIGNED SHORT INT", CUBE_DT_UINT16, 2},
		{"INT32", CUBE_DT_INT32, 4},
		{"INT", CUBE_DT_INT32, 4},
		{"UINT32", CUBE_DT_UINT32, 4},
		{"UNSIGNED INT", CUBE_DT_UINT32, 4},
		{"INT64", CUBE_DT_INT64, 8},
		{"INTEGER", CUBE_DT_INT64, 8},
		{"SIGNED INTEGER", CUBE_DT_INT64, 8},
		{"UINT64", CUBE_DT_UINT64, 8},
		{"UNSIGNED INTEGER", CUBE_DT_UINT64, 8},
		{"MINDOUBLE", CUBE_DT_MINDOUBLE, 8},
		{"MAXDOUBLE", CUBE_DT_MAXDOUBLE, 8},
		{"COMPLEX", CUBE_DT_COMPLEX, 16},
		{"RATE", CUBE_DT_RATE, 16},
		{"TAU_ATOMIC", CUBE_DT_TAU_ATOMIC, 36},
		{"SCALE_FUNC", CUBE_DT_SCALE_FUNC, 0},
	};
	while (len && (*t == ' ' || *t == '\n' || *t == '\t'))
		t++, len--;
	while (len && (t[len - 1] == ' ' || t[len - 1] == '\n' ||
		       t[len - 1] == '\t'))
		len--;
	m->known_dtype = true;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i].text) == len &&
		    memcmp(types[i].text, t, len) == 0) {
			m->dtype = types[i].dtype;
			m->elem_size = types[i].dtype == CUBE_DT_SCALE_FUNC
					       ? CUBE_SF_CELL
					       : types[i].size;
			return;
		}
	/* NDOUBLES(n), HISTOGRAM(n) */
	unsigned long n = 0;
	int used = 0;
	char buf[64];
	if (len < sizeof(buf)) {
		memcpy(buf, t, len);
		buf[len] = '\0';
		if (sscanf(buf, "NDOUBLES(%lu)%n", &n, &used) == 1 &&
		    (size_t)used == len && n >= 1 && n <= 65536) {
			m->dtype = CUBE_DT_NDOUBLES;
			m->elem_size = (uint32_t)(8 * n);
			return;
		}
		if (sscanf(buf, "HISTOGRAM(%lu)%n", &n, &used) == 1 &&
		    (size_t)used == len && n <= 65536) {
			m->dtype = CUBE_DT_HISTOGRAM;
			m->elem_size = (uint32_t)(8 * (n + 2));
			return;
		}
	}
	m->known_dtype = false; /* CubeLib: a warning, then DOUBLE */
	m->dtype = CUBE_DT_DOUBLE;
	m->elem_size = 8;
}

/* TYPE text -> enum cube_mtype and enum cube_derived (CubeMetric.cpp). */
uint8_t cube_mtype_of(const char *t, uint8_t *derived)
{
	*derived = CUBE_DV_NONE;
	if (!t)
		return CUBE_MT_EXCLUSIVE;
	if (strcmp(t, "INCLUSIVE") == 0)
		return CUBE_MT_INCLUSIVE;
	if (strcmp(t, "SIMPLE") == 0)
		return CUBE_MT_SIMPLE;
	if (strcmp(t, "PREDERIVED_EXCLUSIVE") == 0)
		*derived = CUBE_DV_PRE_EXCL;
	else if (strcmp(t, "PREDERIVED_INCLUSIVE") == 0)
		*derived = CUBE_DV_PRE_INCL;
	else if (strcmp(t, "POSTDERIVED") == 0 || strcmp(t, "DERIVED") == 0)
		*derived = CUBE_DV_POST;
	if (strstr(t, "DERIVED"))
		return CUBE_MT_DERIVED;
	return CUBE_MT_EXCLUSIVE; /* CubeMetric.cpp: unknown is EXCLUSIVE */
}
