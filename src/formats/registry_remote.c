/* registry_remote: a listing of names to a probe, a reader and the files
 * it reads (see registry_remote.h).  Depends on core/ and the registry. */
#include "config.h"

#include "formats/registry_remote.h"

#include <fnmatch.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void reader_names_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void reader_planned_free(struct reader_planned *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].name);
	free(v);
}

/* The names of `l` as a directory's probe: its files and subdirectories,
 * and the files one level down in its first READER_PROBE_SUBDIRS
 * subdirectories (each name once).  The arrays point into `l` and are
 * freed by probe_clear. */
struct names_probe {
	struct reader_probe p;
	const char **names, **subdirs, **subnames;
};

static void probe_clear(struct names_probe *np)
{
	free(np->names);
	free(np->subdirs);
	free(np->subnames);
}

static bool probe_of(const char *shown, const struct reader_listing *l,
		     struct names_probe *np)
{
	*np = (struct names_probe){0};
	size_t n = 0, d = 0, s = 0;
	np->names = malloc((l->n_files + 1) * sizeof(*np->names));
	np->subdirs = malloc((l->n_dirs + 1) * sizeof(*np->subdirs));
	np->subnames = malloc((l->n_files + 1) * sizeof(*np->subnames));
	if (!np->names || !np->subdirs || !np->subnames)
		return false;
	for (size_t i = 0; i < l->n_dirs; i++)
		if (!strchr(l->dirs[i], '/'))
			np->subdirs[d++] = l->dirs[i];
	if (d > 1)
		qsort(np->subdirs, d, sizeof(*np->subdirs), cmp_name);
	for (size_t i = 0; i < l->n_files; i++) {
		const char *f = l->files[i], *slash = strchr(f, '/');
		if (!slash) {
			np->names[n++] = f;
			continue;
		}
		if (strchr(slash + 1, '/'))
			continue;
		/* one level down: in one of the first subdirectories? */
		for (size_t k = 0; k < d && k < READER_PROBE_SUBDIRS; k++)
			if (strlen(np->subdirs[k]) == (size_t)(slash - f) &&
			    strncmp(np->subdirs[k], f, (size_t)(slash - f)) == 0) {
				np->subnames[s++] = slash + 1;
				break;
			}
	}
	if (n > 1)
		qsort(np->names, n, sizeof(*np->names), cmp_name);
	if (s > 1)
		qsort(np->subnames, s, sizeof(*np->subnames), cmp_name);
	size_t k = 0;
	for (size_t i = 0; i < s; i++)
		if (!k || strcmp(np->subnames[k - 1], np->subnames[i]) != 0)
			np->subnames[k++] = np->subnames[i];
	np->p = (struct reader_probe){
		.path = shown,
		.is_dir = true,
		.names = np->names,
		.n_names = n,
		.subdirs = np->subdirs,
		.n_subdirs = d,
		.subnames = np->subnames,
		.n_subnames = k,
	};
	return true;
}

static bool has_wildcard(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static bool is_listed(const struct reader_listing *l, const char *dir)
{
	for (size_t i = 0; i < l->n_listed; i++)
		if (strcmp(l->listed[i], dir) == 0)
			return true;
	return false;
}

/* The folder of relative path `name` ("" at the top) is listed. */
static bool folder_listed(const struct reader_listing *l, const char *name)
{
	const char *slash = strrchr(name, '/');
	if (!slash)
		return is_listed(l, "");
	char *dir = strndup(name, (size_t)(slash - name));
	bool yes = !dir || is_listed(l, dir);
	free(dir);
	return yes;
}

static bool push(struct reader_planned **v, size_t *n, size_t *cap,
		 const char *name, unsigned flags)
{
	char *s = strdup(name);
	if (!s || !array_grow((void **)v, cap, *n + 1, sizeof(**v))) {
		free(s);
		return false;
	}
	(*v)[(*n)++] = (struct reader_planned){s, flags};
	return true;
}

static bool planned_has(const struct reader_planned *v, size_t n,
			const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return true;
	return false;
}

/* The rule of `r` file `name` matches first (NULL: none). */
static const struct reader_file_rule *rule_of(const struct reader *r,
					      const char *name)
{
	for (const struct reader_file_rule *f = r->files; f && f->pattern; f++)
		if (fnmatch(f->pattern, name, FNM_PATHNAME) == 0)
			return !r->files_accept || r->files_accept(name) ? f
									: NULL;
	return NULL;
}

/* The files of `l` reader `r` reads, in the order of its rules (the key
 * file first, as readers list it), and its guessed names in folders that
 * have no listing. */
static bool plan_files(const struct reader *r, const struct reader_listing *l,
		       struct reader_planned **v, size_t *n)
{
	size_t cap = 0;
	if (!r->files) {
		for (size_t i = 0; i < l->n_files; i++)
			if (!push(v, n, &cap, l->files[i], 0))
				return false;
		return true;
	}
	for (const struct reader_file_rule *f = r->files; f->pattern; f++) {
		for (size_t i = 0; i < l->n_files; i++)
			if (rule_of(r, l->files[i]) == f &&
			    !push(v, n, &cap, l->files[i], f->flags))
				return false;
		if ((f->flags & READER_FILE_GUESS) &&
		    !has_wildcard(f->pattern) &&
		    !folder_listed(l, f->pattern) &&
		    !planned_has(*v, *n, f->pattern) &&
		    !push(v, n, &cap, f->pattern, f->flags))
			return false;
	}
	return true;
}

enum status reader_plan_listing(const char *shown,
				const struct reader_listing *l,
				struct reader_planned **out, size_t *n,
				const struct reader **chosen,
				struct error *err)
{
	*out = NULL;
	*n = 0;
	if (chosen)
		*chosen = NULL;
	struct names_probe np;
	if (!probe_of(shown, l, &np)) {
		probe_clear(&np);
		return error_set(err, STATUS_NOMEM, shown, "out of memory");
	}
	const struct reader *r = reader_choose(&np.p);
	probe_clear(&np);
	if (!r)
		return error_set(err, STATUS_NOT_DATABASE, shown,
				 "no database callscope recognises here "
				 "(`callscope formats` lists the formats it "
				 "reads)");
	if (!plan_files(r, l, out, n)) {
		reader_planned_free(*out, *n);
		*out = NULL;
		*n = 0;
		return error_set(err, STATUS_NOMEM, shown, "out of memory");
	}
	if (*n == 0)
		return error_set(err, STATUS_NOT_DATABASE, shown,
				 "no file here that %s reads", r->name);
	if (chosen)
		*chosen = r;
	return STATUS_OK;
}

enum status reader_guess_names(char ***out, size_t *n, struct error *err)
{
	*out = NULL;
	*n = 0;
	size_t cap = 0;
	for (const struct reader *const *r = reader_all(); *r; r++)
		for (const struct reader_file_rule *f = (*r)->files;
		     f && f->pattern; f++) {
			if (!(f->flags & READER_FILE_GUESS) ||
			    has_wildcard(f->pattern) || strchr(f->pattern, '/'))
				continue;
			bool seen = false;
			for (size_t i = 0; i < *n && !seen; i++)
				seen = strcmp((*out)[i], f->pattern) == 0;
			if (seen)
				continue;
			char *s = strdup(f->pattern);
			if (!s || !array_grow((void **)out, &cap, *n + 1,
					      sizeof(**out))) {
				free(s);
				reader_names_free(*out, *n);
				*out = NULL;
				*n = 0;
				return error_set(err, STATUS_NOMEM, NULL,
						 "out of memory");
			}
			(*out)[(*n)++] = s;
		}
	return STATUS_OK;
}
