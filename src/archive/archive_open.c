/* archive_open: from an archive file to an open model.  Extracts (or
 * reuses a complete extraction in the cache), finds the database roots,
 * opens one with the opener it is given, and then rewrites what the user sees so
 * that it names the archive: the model's path, the messages of a failed
 * open, and a warning when the archive holds several databases.  Without
 * the cache the extraction lives in a temporary directory whose removal
 * is hooked on the model's value provider close, with an atexit sweep
 * for models never freed.  Must not depend on curses or ui/. */
#include "config.h"

#include "core/path.h"
#include "archive/archive_open.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/archive_extract.h"
#include "archive/archive_roots.h"
#include "core/hash.h"
#include "core/temp_dirs.h"

/* databases named in the warning of a multi-database archive */
#define WARN_MAX_OTHERS 10

static bool use_cache_default = true;

void archive_open_set_cache(bool use_cache)
{
	use_cache_default = use_cache;
}

bool archive_open_cache(void)
{
	return use_cache_default;
}

/* ---- temporary extractions: removed at model close or at exit ------- */

/* The model's release hook when the extraction is temporary. */
static void release_temp(void *arg)
{
	char *dir = arg;
	temp_dirs_release(dir);
	free(dir);
}

/* ---- the cache ------------------------------------------------------- */

static uint64_t fnv1a_u64(uint64_t h, uint64_t v)
{
	unsigned char b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	return fnv1a(h, b, sizeof(b));
}

/* mkdir -p for the parts of `path` after `from` bytes, mode 0700. */
static bool make_dirs(char *path, size_t from)
{
	for (char *p = path + from; *p; p++) {
		if (*p != '/' || p == path)
			continue;
		*p = '\0';
		bool ok = mkdir(path, 0700) == 0 || errno == EEXIST;
		*p = '/';
		if (!ok)
			return false;
	}
	return mkdir(path, 0700) == 0 || errno == EEXIST;
}

char *archive_cache_dir(const char *archive_path, struct error *err)
{
	char *real = NULL, *dir = NULL;
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	const char *base = NULL, *sub = "";
	if (xdg && xdg[0] == '/') {
		base = xdg;
	} else if (home && home[0] == '/') {
		base = home;
		sub = "/.cache";
	} else {
		error_set(err, STATUS_IO, archive_path,
			  "no cache directory: neither XDG_CACHE_HOME nor "
			  "HOME is an absolute path");
		goto out;
	}
	struct stat sb;
	real = realpath(archive_path, NULL);
	if (!real || stat(real, &sb) != 0) {
		error_set(err, errno == ENOENT ? STATUS_NOT_FOUND : STATUS_IO,
			  archive_path, "%s", strerror(errno));
		goto out;
	}
	uint64_t h = fnv1a(FNV1A_SEED, "callscope-extract-1", 19);
	h = fnv1a(h, real, strlen(real) + 1);
	h = fnv1a_u64(h, (uint64_t)sb.st_size);
	h = fnv1a_u64(h, (uint64_t)sb.st_mtim.tv_sec);
	h = fnv1a_u64(h, (uint64_t)sb.st_mtim.tv_nsec);
	h = fnv1a_u64(h, (uint64_t)sb.st_ino);
	if (asprintf(&dir, "%s%s/callscope/extract/%016llx", base, sub,
		     (unsigned long long)h) < 0) {
		dir = NULL;
		error_set(err, STATUS_NOMEM, archive_path, "out of memory");
	}
out:
	free(real);
	return dir;
}

/* ---- opening ----------------------------------------------------------- */

/* `inner` without "." components, doubled or trailing slashes; NULL when
 * it has a ".." component (or out of memory). */
static char *clean_inner(const char *inner)
{
	size_t len = strlen(inner);
	char *s = malloc(len + 1);
	if (!s)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		size_t c = strcspn(inner + i, "/");
		if (c == 2 && inner[i] == '.' && inner[i + 1] == '.') {
			free(s);
			return NULL;
		}
		if (c > 0 && !(c == 1 && inner[i] == '.')) {
			if (o > 0)
				s[o++] = '/';
			memcpy(s + o, inner + i, c);
			o += c;
		}
		i += c + (i + c < len);
	}
	s[o] = '\0';
	return s;
}

/* Rewrite an error about the extraction directory to name the archive. */
static void rename_error(struct error *err, const char *dir,
			 const char *archive_path)
{
	if (!err || !err->file)
		return;
	size_t dl = strlen(dir);
	if (strncmp(err->file, dir, dl) != 0 ||
	    (err->file[dl] != '/' && err->file[dl] != '\0'))
		return;
	char *f = NULL;
	if (asprintf(&f, "%s%s", archive_path, err->file + dl) < 0)
		return;
	free(err->file);
	err->file = f;
}

/* "ARCHIVE holds N databases; opened A.  Others: B, C (open one with
 * ARCHIVE/B)". */
static char *several_warning(const char *archive_path, char **roots, size_t n)
{
	size_t len = strlen(archive_path) * 2 + 128;
	for (size_t i = 0; i < n; i++)
		len += strlen(roots[i]) * 2 + 4;
	char *s = malloc(len);
	if (!s)
		return NULL;
	int o = snprintf(s, len, "%s holds %zu databases; opened %s.  Others:",
			 archive_path, n, roots[0]);
	size_t shown = n - 1 < WARN_MAX_OTHERS ? n : WARN_MAX_OTHERS + 1;
	for (size_t i = 1; i < shown && o >= 0 && (size_t)o < len; i++)
		o += snprintf(s + o, len - (size_t)o, "%s %s", i > 1 ? "," : "",
			      roots[i]);
	if (shown < n && o >= 0 && (size_t)o < len)
		o += snprintf(s + o, len - (size_t)o, " and %zu more",
			      n - shown);
	if (o >= 0 && (size_t)o < len)
		snprintf(s + o, len - (size_t)o, " (open one as %s/%s)",
			 archive_path, roots[1]);
	return s;
}

/* Extract into the cache (reusing a complete extraction) or, without
 * it, into a temporary directory (*tmp_base, removed with the model):
 * *dest is where the archive's members are. */
static enum status extract(const char *archive_path, bool use_cache,
			   char **dest, char **tmp_base, struct error *err)
{
	if (!use_cache) {
		enum status st = temp_dirs_create("extract", tmp_base, err);
		if (st != STATUS_OK)
			return st;
		if (asprintf(dest, "%s/db", *tmp_base) < 0) {
			*dest = NULL;
			return error_set(err, STATUS_NOMEM, archive_path,
					 "out of memory");
		}
		return archive_extract_file(archive_path, *dest, NULL, NULL,
					    err);
	}
	*dest = archive_cache_dir(archive_path, err);
	if (!*dest)
		return err ? err->status : STATUS_IO;
	/* create ".../callscope/extract", the parent of the "/KEY" (17
	 * bytes) that ends `dest` */
	size_t keep = strlen(*dest) - 17;
	(*dest)[keep] = '\0';
	bool made = make_dirs(*dest, 1);
	(*dest)[keep] = '/';
	if (!made)
		return error_set(err, STATUS_IO, *dest,
				 "cannot create the cache directory: %s",
				 strerror(errno));
	struct stat sb;
	if (lstat(*dest, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return archive_extract_file(archive_path, *dest, NULL, NULL,
					    err);
	return STATUS_OK;
}

/* The database to open below `dest`: `want`, or the first root found
 * (*roots, *n_roots: all of them). */
static enum status pick_database(const char *archive_path, const char *dest,
				 const char *want,
				 const struct archive_db_ops *ops,
				 char ***roots, size_t *n_roots,
				 const char **pick, struct error *err)
{
	*pick = want;
	if (want)
		return STATUS_OK;
	enum status st = archive_find_roots(dest, ops->bid, ops->ctx, ops->sure,
					    roots, n_roots, err);
	if (st != STATUS_OK) {
		rename_error(err, dest, archive_path);
		return st;
	}
	if (*n_roots == 0)
		return error_set(err, STATUS_NOT_DATABASE, archive_path,
				 "the archive holds no database callscope "
				 "recognises (`callscope formats` lists the "
				 "formats it reads)");
	*pick = (*roots)[0];
	return STATUS_OK;
}

/* Open dest/pick with `open_db`, its messages naming the archive. */
static enum status open_picked(const char *archive_path, const char *dest,
			       const char *pick, archive_opener open_db,
			       struct model **m, struct error *err)
{
	char *full = NULL;
	if (!(full = path_join(dest, pick)))
		return error_set(err, STATUS_NOMEM, archive_path,
				 "out of memory");
	struct stat sb;
	enum status st;
	if (lstat(full, &sb) != 0 ||
	    !(S_ISDIR(sb.st_mode) || S_ISREG(sb.st_mode)))
		st = error_set(err, STATUS_NOT_DATABASE, archive_path,
			       "\"%s\" is not in the archive", pick);
	else
		st = open_db(full, m, err);
	if (st != STATUS_OK)
		rename_error(err, dest, archive_path);
	free(full);
	return st;
}

/* The model names ARCHIVE[/INNER], warns of the other databases, and
 * removes a temporary extraction when it is freed. */
static enum status set_origin(struct model *m, const char *archive_path,
			      const char *inner, char **roots, size_t n_roots,
			      char *tmp_base, struct error *err)
{
	char *shown = NULL, *warning = NULL;
	enum status st;
	bool in = inner && inner[0];
	if (asprintf(&shown, "%s%s%s", archive_path, in ? "/" : "",
		     in ? inner : "") < 0)
		shown = NULL;
	if (shown && n_roots > 1)
		warning = several_warning(archive_path, roots, n_roots);
	if (!shown || (n_roots > 1 && !warning))
		st = error_set(err, STATUS_NOMEM, archive_path, "out of memory");
	else
		st = model_set_origin(m, shown, warning,
				      tmp_base ? release_temp : NULL, tmp_base,
				      err);
	free(shown);
	free(warning);
	return st;
}

enum status archive_open_database(const char *archive_path, const char *inner,
				  bool use_cache,
				  const struct archive_db_ops *ops,
				  struct model **out, struct error *err)
{
	char *dest = NULL, *tmp_base = NULL, *want = NULL;
	char **roots = NULL;
	size_t n_roots = 0;
	struct model *m = NULL;
	const char *pick = NULL;
	enum status st = STATUS_OK;
	if (out)
		*out = NULL;
	if (!archive_path || !out || !ops || !ops->open || !ops->bid)
		return error_set(err, STATUS_USAGE, archive_path,
				 "archive_open_database: NULL argument");
	if (inner && inner[0] && !(want = clean_inner(inner)))
		return error_set(err, STATUS_USAGE, archive_path,
				 "\"%s\": a path inside an archive may not "
				 "have \"..\" components",
				 inner);
	st = extract(archive_path, use_cache, &dest, &tmp_base, err);
	if (st == STATUS_OK)
		st = pick_database(archive_path, dest, want, ops, &roots,
				   &n_roots, &pick, err);
	if (st == STATUS_OK)
		st = open_picked(archive_path, dest, pick, ops->open, &m, err);
	if (st == STATUS_OK)
		st = set_origin(m, archive_path, inner, roots, n_roots,
				tmp_base, err);
	if (st == STATUS_OK) {
		tmp_base = NULL; /* the model's release hook owns it now */
		*out = m;
		m = NULL;
	}
	model_free(m);
	if (tmp_base) {
		temp_dirs_release(tmp_base);
		free(tmp_base);
	}
	archive_free_paths(roots, n_roots);
	free(dest);
	free(want);
	return st;
}

bool archive_split_path(const char *path, char **archive, char **inner)
{
	*archive = NULL;
	*inner = NULL;
	if (!path)
		return false;
	size_t len = strlen(path);
	char *copy = strdup(path);
	if (!copy)
		return false;
	/* the longest prefix that exists decides: only it can be a file */
	for (size_t i = len; i > 0; i--) {
		if (copy[i - 1] != '/' || i == 1)
			continue;
		copy[i - 1] = '\0';
		struct stat sb;
		if (stat(copy, &sb) != 0) {
			copy[i - 1] = '/';
			continue;
		}
		if (!S_ISREG(sb.st_mode) || !archive_is_archive(copy))
			break;
		const char *rest = path + i;
		while (*rest == '/')
			rest++;
		*inner = strdup(rest);
		*archive = copy;
		if (!*inner) {
			free(copy);
			*archive = NULL;
			return false;
		}
		return true;
	}
	free(copy);
	return false;
}
