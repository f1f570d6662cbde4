/* archive_roots: the databases of an extracted archive, found with the
 * bidder the caller gives (see archive_roots.h): a depth-first walk that
 * bids on each directory, then on its regular files and below its
 * subdirectories, and decides per directory from what it found.  Must
 * not depend on curses, ui/ or the readers. */
#include "config.h"

#include "archive/archive_roots.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/archive_extract.h"
#include "core/array.h"
#include "core/path.h"

#define ROOTS_MAX_DEPTH 64
#define ROOTS_MAX_DIRS 100000

/* One database found, relative to the top. */
struct root {
	char *rel;
	const void *who; /* its reader */
	bool direct;     /* a file directly in the directory that found it */
	bool file;       /* a file, or a guessed folder standing for the
			    files directly in it */
};

struct roots {
	struct root *v;
	size_t n, cap;
};

struct walk {
	const char *top;
	archive_bidder bid;
	void *ctx;
	int sure;
	size_t visited;
	struct error *err;
};

static void roots_clear(struct roots *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].rel);
	free(r->v);
	*r = (struct roots){0};
}

/* Append (taking `rel`); false when out of memory. */
static bool roots_push(struct roots *r, char *rel, const void *who,
		       bool direct, bool file)
{
	if (!rel || !array_grow((void **)&r->v, &r->cap, r->n + 1,
				sizeof(*r->v))) {
		free(rel);
		return false;
	}
	r->v[r->n++] = (struct root){rel, who, direct, file};
	return true;
}

/* "rel/name", or "name" at the top. */
static char *join(const char *rel, const char *name)
{
	return rel[0] ? path_join(rel, name) : strdup(name);
}

static int bid_at(struct walk *w, const char *rel, const void **who,
		  bool *merges)
{
	char *full = NULL;
	*who = NULL;
	*merges = false;
	if (asprintf(&full, "%s%s%s", w->top, rel[0] ? "/" : "", rel) < 0)
		return -1;
	int b = w->bid(w->ctx, full, who, merges);
	free(full);
	return b;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in directory `rel` (sorted), files and subdirectories apart,
 * symbolic links and special files left out. */
static bool list_dir(struct walk *w, const char *rel, char ***files,
		     size_t *n_files, char ***dirs, size_t *n_dirs)
{
	char *full = NULL;
	size_t cap_f = 0, cap_d = 0;
	if (asprintf(&full, "%s%s%s", w->top, rel[0] ? "/" : "", rel) < 0)
		return false;
	DIR *d = opendir(full);
	free(full);
	if (!d)
		return true; /* unreadable: passed over */
	struct dirent *de;
	bool ok = true;
	while (ok && (de = readdir(d))) {
		struct stat sb;
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		bool dir = S_ISDIR(sb.st_mode);
		if (!dir && !S_ISREG(sb.st_mode))
			continue;
		char ***v = dir ? dirs : files;
		size_t *n = dir ? n_dirs : n_files;
		char *name = strdup(de->d_name);
		ok = name && array_grow((void **)v, dir ? &cap_d : &cap_f,
					*n + 1, sizeof(**v));
		if (ok)
			(*v)[(*n)++] = name;
		else
			free(name);
	}
	closedir(d);
	if (*n_files > 1)
		qsort(*files, *n_files, sizeof(**files), by_name);
	if (*n_dirs > 1)
		qsort(*dirs, *n_dirs, sizeof(**dirs), by_name);
	return ok;
}

/* A guessed directory (its reader `who`) over what was found in it: the
 * directory itself when nothing surer is below it, when all of it is of
 * its reader and that reader merges or it is files directly in the
 * directory (one run in several files or directories), or when all of it
 * is files in its subdirectories, of other readers (a set made of
 * them). */
static bool guess_wins(const struct roots *c, const void *who, bool merges)
{
	bool all_mine = true, all_direct = true, all_set = true;
	for (size_t i = 0; i < c->n; i++) {
		all_mine &= c->v[i].who == who;
		all_direct &= c->v[i].direct;
		all_set &= c->v[i].file && !c->v[i].direct &&
			   c->v[i].who != who;
	}
	return c->n == 0 || (all_mine && (merges || all_direct)) || all_set;
}

static void free_list(char **v, size_t n)
{
	array_free_each(v, n);
}

/* The roots at or below directory `rel` into *out (appended). */
static enum status find(struct walk *w, const char *rel, unsigned depth,
			struct roots *out)
{
	if (++w->visited > ROOTS_MAX_DIRS)
		return error_set(w->err, STATUS_LIMIT, w->top,
				 "more than %d directories to search for "
				 "databases",
				 ROOTS_MAX_DIRS);
	const void *who = NULL;
	bool merges = false;
	int b = bid_at(w, rel, &who, &merges);
	if (b > w->sure)
		return roots_push(out, strdup(rel[0] ? rel : "."), who, false,
				  false)
			       ? STATUS_OK
			       : error_set(w->err, STATUS_NOMEM, w->top,
					   "out of memory");
	char **files = NULL, **dirs = NULL;
	size_t n_files = 0, n_dirs = 0;
	struct roots c = {0};
	enum status st = STATUS_OK;
	if (b < 0 || !list_dir(w, rel, &files, &n_files, &dirs, &n_dirs))
		st = error_set(w->err, STATUS_NOMEM, w->top, "out of memory");
	for (size_t i = 0; st == STATUS_OK && i < n_files; i++) {
		char *p = join(rel, files[i]);
		const void *fwho = NULL;
		bool fmerges = false;
		int fb = p ? bid_at(w, p, &fwho, &fmerges) : -1;
		if (fb < 0 ||
		    (fb > w->sure && !roots_push(&c, p, fwho, true, true)))
			st = error_set(w->err, STATUS_NOMEM, w->top,
				       "out of memory");
		else if (fb <= w->sure)
			free(p);
	}
	for (size_t i = 0; st == STATUS_OK && i < n_dirs &&
			   depth + 1 <= ROOTS_MAX_DEPTH;
	     i++) {
		char *p = join(rel, dirs[i]);
		st = p ? find(w, p, depth + 1, &c)
		       : error_set(w->err, STATUS_NOMEM, w->top,
				   "out of memory");
		free(p);
	}
	free_list(files, n_files);
	free_list(dirs, n_dirs);
	if (st == STATUS_OK && b > 0 && guess_wins(&c, who, merges)) {
		/* a folder standing for the files directly in it (a Cube
		 * profile's folder) counts as a file to a set above it */
		bool wraps = c.n > 0;
		for (size_t i = 0; i < c.n; i++)
			wraps &= c.v[i].file && c.v[i].direct;
		roots_clear(&c);
		if (!roots_push(out, strdup(rel[0] ? rel : "."), who, false,
				wraps))
			st = error_set(w->err, STATUS_NOMEM, w->top,
				       "out of memory");
	}
	for (size_t i = 0; st == STATUS_OK && i < c.n; i++) {
		if (!roots_push(out, c.v[i].rel, c.v[i].who, false,
				c.v[i].file)) {
			c.v[i].rel = NULL;
			st = error_set(w->err, STATUS_NOMEM, w->top,
				       "out of memory");
		}
		c.v[i].rel = NULL;
	}
	roots_clear(&c);
	return st;
}

static int by_rel(const void *a, const void *b)
{
	return strcmp(((const struct root *)a)->rel,
		      ((const struct root *)b)->rel);
}

enum status archive_find_roots(const char *dir, archive_bidder bid,
			       void *ctx, int sure, char ***out, size_t *n,
			       struct error *err)
{
	if (out)
		*out = NULL;
	if (n)
		*n = 0;
	if (!dir || !bid || !out || !n)
		return error_set(err, STATUS_USAGE, dir,
				 "archive_find_roots: NULL argument");
	struct stat sb;
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return error_set(err,
				 errno == ENOENT ? STATUS_NOT_FOUND : STATUS_IO,
				 dir, "%s", strerror(errno ? errno : ENOTDIR));
	struct walk w = {dir, bid, ctx, sure, 0, err};
	struct roots r = {0};
	enum status st = find(&w, "", 0, &r);
	if (st == STATUS_OK && r.n > 1)
		qsort(r.v, r.n, sizeof(*r.v), by_rel);
	char **paths = st == STATUS_OK && r.n ? malloc(r.n * sizeof(*paths))
					      : NULL;
	if (st == STATUS_OK && r.n && !paths)
		st = error_set(err, STATUS_NOMEM, dir, "out of memory");
	if (st != STATUS_OK) {
		roots_clear(&r);
		return st;
	}
	for (size_t i = 0; i < r.n; i++)
		paths[i] = r.v[i].rel;
	free(r.v);
	*out = paths;
	*n = r.n;
	return STATUS_OK;
}
