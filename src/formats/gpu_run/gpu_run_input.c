/* gpu_run_input: which files an input of the SQLite GPU-trace readers
 * (rocpd, Nsight) names: each path as given, a directory replaced by the
 * files in it whose names the family accepts (and, as deep as the family
 * says, in its subdirectories: rocprofv3 writes HOST/PID_results.db),
 * sorted by name per directory; a file that lists the run's files (the
 * family's list_files: rocpd's index YAML) replaced by them.  Then
 * gpu_run_open().  Depends on core/,
 * model/ and formats/reader.h. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/array.h"
#include "formats/gpu_run/gpu_run.h"
#include "formats/gpu_run/gpu_run_internal.h"

struct paths {
	char **v;
	size_t n, cap;
};

/* Append `p` (heap; freed on failure). */
static bool paths_add(struct paths *ps, char *p)
{
	if (!p)
		return false;
	if (!array_grow((void **)&ps->v, &ps->cap, ps->n + 1, sizeof(*ps->v))) {
		free(p);
		return false;
	}
	ps->v[ps->n++] = p;
	return true;
}

static void paths_free(struct paths *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->v[i]);
	free(ps->v);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort_paths(char **v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), name_cmp);
}

/* The accepted files of `dir`, sorted, then those of its subdirectories
 * (sorted) while `level` < the family's dir_depth. */
static enum status expand_dir(const struct gpu_run_family *fam,
			      const char *dir, unsigned level,
			      struct paths *ps, struct error *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return error_set(err, STATUS_IO, dir,
				 "cannot list the directory");
	struct dirent *e;
	enum status st = STATUS_OK;
	size_t first = ps->n;
	struct paths subdirs = {0};
	while ((e = readdir(d)) && st == STATUS_OK) {
		if (e->d_name[0] == '.')
			continue;
		char *p = NULL;
		struct stat sb;
		if (asprintf(&p, "%s/%s", dir, e->d_name) < 0) {
			st = error_set(err, STATUS_NOMEM, dir, "out of memory");
			break;
		}
		if (stat(p, &sb) != 0) {
			free(p);
		} else if (S_ISREG(sb.st_mode) && fam->accept_name(e->d_name)) {
			if (!paths_add(ps, p))
				st = error_set(err, STATUS_NOMEM, dir,
					       "out of memory");
		} else if (S_ISDIR(sb.st_mode) && level < fam->dir_depth) {
			if (!paths_add(&subdirs, p))
				st = error_set(err, STATUS_NOMEM, dir,
					       "out of memory");
		} else {
			free(p);
		}
	}
	closedir(d);
	sort_paths(ps->v + first, ps->n - first);
	sort_paths(subdirs.v, subdirs.n);
	for (size_t i = 0; i < subdirs.n && st == STATUS_OK; i++)
		st = expand_dir(fam, subdirs.v[i], level + 1, ps, err);
	paths_free(&subdirs);
	return st;
}

enum status gpu_run_open_input(const struct gpu_run_family *fam,
			       const struct reader_input *in,
			       struct model **out, struct error *err)
{
	struct paths ps = {0};
	enum status st = STATUS_OK;
	*out = NULL;
	for (size_t i = 0; i < in->n_paths && st == STATUS_OK; i++) {
		struct stat sb;
		if (stat(in->paths[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
			size_t before = ps.n;
			st = expand_dir(fam, in->paths[i], 0, &ps, err);
			if (st == STATUS_OK && ps.n == before)
				st = error_set(err, STATUS_NOT_DATABASE,
					       in->paths[i],
					       "the directory holds no %s",
					       fam->files_noun);
		} else if (fam->list_name && fam->list_name(in->paths[i])) {
			char **v = NULL;
			size_t k = 0;
			st = fam->list_files(in->paths[i], &v, &k, err);
			for (size_t j = 0; j < k; j++) {
				if (st == STATUS_OK && !paths_add(&ps, v[j]))
					st = error_set(err, STATUS_NOMEM,
						       in->paths[i],
						       "out of memory");
				else if (st != STATUS_OK)
					free(v[j]);
			}
			free(v);
		} else if (!paths_add(&ps, strdup(in->paths[i]))) {
			st = error_set(err, STATUS_NOMEM, in->paths[i],
				       "out of memory");
		}
	}
	if (st == STATUS_OK)
		st = gpu_run_open(fam, in->paths[0], ps.v, ps.n, in->options,
				  out, err);
	paths_free(&ps);
	return st;
}
