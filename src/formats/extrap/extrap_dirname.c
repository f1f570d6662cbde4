/* extrap_dirname: the point directories of a directory set (Cube sets,
 * Nsight sets: DIR/<point>/files, listed and turned into the set's
 * parameters and points), and the parameters in the name of one
 * (Extra-P 4.2.5 abstract_directory_reader.py, notes 5.5): the text
 * after the first '.' up to the first ".r" of the whole name (all of it
 * without a '.'), split into name / number tokens
 * at runs of [0-9.,] (',' is a decimal point, trailing dots dropped).
 * Extra-P's traps are kept: "app.ranks4.r1" has nothing between its first
 * '.' and its first ".r" (no parameter), "n2x4" is n=2, x=4.  Must not
 * depend on curses, on ui/ or on another format. */
#include "config.h"

#include "core/array.h"
#include "core/path.h"
#include "formats/extrap/extrap.h"
#include "formats/extrap/extrap_set.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool numch(char c)
{
	return (c >= '0' && c <= '9') || c == '.' || c == ',';
}

void extrap_dir_params_free(struct extrap_dir_params *d)
{
	array_free_each(d->names, d->n);
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of `dir` not starting with '.' that are directories (dirs)
 * or regular files ending in `suffix`, links followed, sorted. */
static enum status list(const char *dir, bool dirs, const char *suffix,
			char ***out, size_t *n, struct error *err)
{
	*out = NULL;
	*n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return error_set(err, STATUS_IO, dir,
				 "cannot list the directory");
	struct dirent *e;
	size_t cap = 0, sl = suffix ? strlen(suffix) : 0;
	enum status st = STATUS_OK;
	while (st == STATUS_OK && (e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (e->d_name[0] == '.' ||
		    (suffix && (l <= sl || strcmp(e->d_name + l - sl, suffix))))
			continue;
		char *full = NULL;
		struct stat sb;
		if (!(full = path_join(dir, e->d_name))) {
			st = error_set(err, STATUS_NOMEM, dir, "out of memory");
			break;
		}
		if (stat(full, &sb) != 0 ||
		    !(dirs ? S_ISDIR(sb.st_mode) : S_ISREG(sb.st_mode))) {
			free(full);
			continue;
		}
		if (!array_grow((void **)out, &cap, *n + 1, sizeof(**out))) {
			free(full);
			st = error_set(err, STATUS_NOMEM, dir, "out of memory");
			break;
		}
		(*out)[(*n)++] = full;
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_str);
	return st;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

enum status extrap_point_dirs_list(const char *path, const char *suffix,
				   struct extrap_point_dir **out, size_t *n,
				   struct error *err)
{
	char **subs = NULL;
	size_t n_subs = 0;
	*out = NULL;
	*n = 0;
	enum status st = list(path, true, NULL, &subs, &n_subs, err);
	if (st == STATUS_OK && !(*out = calloc(n_subs + 1, sizeof(**out))))
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
	for (size_t i = 0; i < n_subs && st == STATUS_OK; i++) {
		struct extrap_point_dir *d = &(*out)[*n];
		st = list(subs[i], false, suffix, &d->files, &d->n_files, err);
		if (d->n_files == 0) {
			FREE_AND_NULL(d->files);
			continue;
		}
		d->name = subs[i];
		subs[i] = NULL;
		(*n)++;
		char why[128];
		enum status ps = extrap_dir_params(base(d->name), &d->p, why,
						   sizeof(why));
		if (ps != STATUS_OK)
			st = error_set(err, ps, path, "directory \"%s\": %s",
				       base(d->name), why);
	}
	array_free_each(subs, n_subs);
	return st;
}

enum status extrap_point_dirs_points(const char *path,
				     struct extrap_point_dir *dirs, size_t n,
				     struct extrap_set *s, struct error *err)
{
	enum status st = STATUS_OK;
	/* the same names in the same order everywhere */
	for (size_t i = 1; i < n && st == STATUS_OK; i++) {
		const struct extrap_dir_params *a = &dirs[0].p, *b = &dirs[i].p;
		bool same = a->n == b->n;
		for (uint32_t k = 0; same && k < a->n; k++)
			same = strcmp(a->names[k], b->names[k]) == 0;
		if (!same)
			st = error_set(err, STATUS_CORRUPT, path,
				       "parameters must be the same and in the "
				       "same order in every directory: \"%s\" "
				       "and \"%s\" differ",
				       base(dirs[0].name), base(dirs[i].name));
	}
	if (st != STATUS_OK || n == 0)
		return st;
	/* parameters with one value across the set are dropped */
	const struct extrap_dir_params *p0 = &dirs[0].p;
	bool *keep = calloc(p0->n + 1, sizeof(*keep));
	double *coords = calloc(p0->n + 1, sizeof(*coords));
	if (!keep || !coords)
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
	for (uint32_t k = 0; st == STATUS_OK && k < p0->n; k++) {
		for (size_t i = 1; i < n && !keep[k]; i++)
			keep[k] = dirs[i].p.values[k] != p0->values[k];
		if (keep[k] && extrap_set_param(s, p0->names[k],
						strlen(p0->names[k])) ==
				       MODEL_NONE)
			st = error_set(err, STATUS_CORRUPT, path,
				       "parameter \"%s\" is named twice",
				       p0->names[k]);
	}
	if (st == STATUS_OK && extrap_set_n_params(s) == 0)
		st = error_set(err, STATUS_CORRUPT, path,
			       "every parameter has one value in the whole set "
			       "(a set needs two points)");
	for (size_t i = 0; i < n && st == STATUS_OK; i++) {
		uint32_t k2 = 0;
		for (uint32_t k = 0; k < p0->n; k++)
			if (keep[k])
				coords[k2++] = dirs[i].p.values[k];
		dirs[i].point = extrap_set_point(s, coords);
		if (dirs[i].point == MODEL_NONE)
			st = error_set(err, STATUS_NOMEM, path, "out of memory");
	}
	free(keep);
	free(coords);
	return st;
}

void extrap_point_dirs_free(struct extrap_point_dir *d, size_t n)
{
	for (size_t i = 0; d && i < n; i++) {
		for (size_t k = 0; k < d[i].n_files; k++)
			free(d[i].files[k]);
		free(d[i].files);
		free(d[i].name);
		extrap_dir_params_free(&d[i].p);
	}
	free(d);
}
