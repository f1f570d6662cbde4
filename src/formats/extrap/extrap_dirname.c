/* extrap_dirname: the parameters in the name of a directory of a
 * directory set (Cube sets; Extra-P 4.2.5 abstract_directory_reader.py,
 * notes 5.5): the text after the first '.' up to the first ".r" of the
 * whole name (all of it without a '.'), split into name / number tokens
 * at runs of [0-9.,] (',' is a decimal point, trailing dots dropped).
 * Extra-P's traps are kept: "app.ranks4.r1" has nothing between its first
 * '.' and its first ".r" (no parameter), "n2x4" is n=2, x=4.  Must not
 * depend on curses, on ui/ or on another format. */
#include "config.h"

#include "formats/extrap/extrap.h"
#include "formats/extrap/extrap_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool numch(char c)
{
	return (c >= '0' && c <= '9') || c == '.' || c == ',';
}

void extrap_dir_params_free(struct extrap_dir_params *d)
{
	for (uint32_t i = 0; i < d->n; i++)
		free(d->names[i]);
	free(d->names);
	free(d->values);
	memset(d, 0, sizeof(*d));
}

enum status extrap_dir_params(const char *name, struct extrap_dir_params *d,
			      char *why, size_t why_len)
{
	memset(d, 0, sizeof(*d));
	const char *dot = strchr(name, '.');
	const char *r = strstr(name, ".r");
	const char *b = dot ? dot + 1 : name;
	const char *e = r ? r : name + strlen(name);
	if (e < b)
		e = b;
	/* tokens: name, number, name, number, ..., trailing text */
	const char *p = b;
	while (p < e) {
		const char *ns = p;
		while (p < e && !numch(*p))
			p++;
		const char *ne = p;
		while (p < e && numch(*p))
			p++;
		if (p == ne)
			break; /* trailing text without a number: ignored */
		if (ne == ns) {
			snprintf(why, why_len, "a number without a parameter "
						"name");
			extrap_dir_params_free(d);
			return STATUS_CORRUPT;
		}
		char num[64];
		size_t k = 0;
		for (const char *q = ne; q < p && k + 1 < sizeof(num); q++)
			num[k++] = *q == ',' ? '.' : *q;
		while (k && num[k - 1] == '.')
			k--;
		num[k] = '\0';
		double v;
		if ((size_t)(p - ne) >= sizeof(num) ||
		    !extrap_parse_double(num, k, &v)) {
			snprintf(why, why_len, "\"%.*s\" is not a number",
				 (int)(p - ne > 40 ? 40 : p - ne), ne);
			extrap_dir_params_free(d);
			return STATUS_CORRUPT;
		}
		char **gn = realloc(d->names, (d->n + 1) * sizeof(*gn));
		if (gn)
			d->names = gn;
		double *gv = realloc(d->values, (d->n + 1) * sizeof(*gv));
		if (gv)
			d->values = gv;
		char *nm = gn && gv ? malloc((size_t)(ne - ns) + 1) : NULL;
		if (!nm) {
			extrap_dir_params_free(d);
			snprintf(why, why_len, "out of memory");
			return STATUS_NOMEM;
		}
		memcpy(nm, ns, (size_t)(ne - ns));
		nm[ne - ns] = '\0';
		d->names[d->n] = nm;
		d->values[d->n++] = v;
	}
	if (d->n == 0) {
		snprintf(why, why_len, "could not detect parameters");
		return STATUS_CORRUPT;
	}
	return STATUS_OK;
}
