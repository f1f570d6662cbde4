/* probe: what the reader registry reads of an input path, once, for every
 * bidder (see reader.h): a file's first bytes, a directory's file and
 * subdirectory names (with the files registered as remote) and the file
 * names in its first subdirectories, an SQLite
 * file's tables (opened read-only), an archive's member names.  Bounded:
 * at most PROBE_MAX_NAMES names of each kind, the archive listing stops
 * after PROBE_MAX_MEMBERS members or PROBE_ARCHIVE_BYTES of the file.
 * Depends on core/, io/ and archive/. */
#include "config.h"

#include "core/array.h"
#include "formats/reader.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/archive_extract.h"
#include "io/blob.h"
#include "io/sqlite_ro.h"

#define PROBE_MAX_NAMES 1000000
#define PROBE_MAX_TABLES 100000
#define PROBE_MAX_MEMBERS 4096
#define PROBE_ARCHIVE_BYTES (16u << 20)

/* The probe and what it owns. */
struct probe_owned {
	struct reader_probe p; /* first: the public part */
	uint8_t *head;
	char **names, **subdirs, **tables, **members, **subnames;
	size_t n_names, n_subdirs, n_tables, n_members, n_subnames;
	size_t cap_names, cap_subdirs, cap_subnames;
};

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void reader_probe_free(struct reader_probe *p)
{
	struct probe_owned *o = (struct probe_owned *)p;
	if (!o)
		return;
	free(o->head);
	free_names(o->names, o->n_names);
	free_names(o->subdirs, o->n_subdirs);
	free_names(o->tables, o->n_tables);
	free_names(o->members, o->n_members);
	free_names(o->subnames, o->n_subnames);
	free(o);
}

static bool push(char ***v, size_t *n, size_t *cap, const char *name)
{
	if (!array_grow((void **)v, cap, *n + 1, sizeof(**v)) ||
	    !((*v)[*n] = strdup(name)))
		return false;
	(*n)++;
	return true;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* qsort wants a non-NULL base even for no elements */
static void sort_names(char **v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_name);
}

static bool sorted_has(const char *const *v, size_t n, const char *name)
{
	return n && bsearch(&name, v, n, sizeof(*v), cmp_name) != NULL;
}

/* The regular files (links followed) in `dir`/`sub` into o->subnames,
 * at most READER_PROBE_SUBNAMES in all; an unreadable one adds none. */
static bool read_subdir(struct probe_owned *o, int dirfd_, const char *sub)
{
	int fd = openat(dirfd_, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return true;
	}
	struct dirent *e;
	bool ok = true;
	while (ok && o->n_subnames < READER_PROBE_SUBNAMES &&
	       (e = readdir(d))) {
		struct stat sb;
		if (e->d_name[0] == '.' ||
		    fstatat(dirfd(d), e->d_name, &sb, 0) != 0 ||
		    !S_ISREG(sb.st_mode))
			continue;
		ok = push(&o->subnames, &o->n_subnames, &o->cap_subnames,
			  e->d_name);
	}
	closedir(d);
	return ok;
}

/* Files and subdirectories of `dir`, then the remote files it lacks. */
static enum status read_dir(struct probe_owned *o, const char *dir,
			    struct error *err)
{
	enum status st = STATUS_OK;
	char **remote = NULL;
	size_t n_remote = 0;
	DIR *d = opendir(dir);
	if (!d)
		return error_set(err, STATUS_IO, dir, "cannot list: %s",
				 strerror(errno));
	int fd = dirfd(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (o->n_names + o->n_subdirs >= PROBE_MAX_NAMES) {
			st = error_set(err, STATUS_LIMIT, dir,
				       "more than %d entries", PROBE_MAX_NAMES);
			goto out;
		}
		unsigned char type = e->d_type;
		if (type == DT_LNK || type == DT_UNKNOWN) {
			struct stat sb;
			type = fstatat(fd, e->d_name, &sb, 0) != 0 ? DT_UNKNOWN
			       : S_ISDIR(sb.st_mode)	      ? DT_DIR
			       : S_ISREG(sb.st_mode)	      ? DT_REG
							      : DT_UNKNOWN;
		}
		bool ok = true;
		if (type == DT_REG)
			ok = push(&o->names, &o->n_names, &o->cap_names,
				  e->d_name);
		else if (type == DT_DIR)
			ok = push(&o->subdirs, &o->n_subdirs, &o->cap_subdirs,
				  e->d_name);
		if (!ok) {
			st = error_set(err, STATUS_NOMEM, dir, "out of memory");
			goto out;
		}
	}
	sort_names(o->names, o->n_names);
	st = blob_remote_names_in(dir, &remote, &n_remote, err);
	if (st != STATUS_OK)
		goto out;
	size_t n_local = o->n_names;
	for (size_t i = 0; i < n_remote; i++)
		if (!sorted_has((const char *const *)o->names, n_local,
				remote[i]) &&
		    !push(&o->names, &o->n_names, &o->cap_names, remote[i])) {
			st = error_set(err, STATUS_NOMEM, dir, "out of memory");
			goto out;
		}
	sort_names(o->names, o->n_names);
	sort_names(o->subdirs, o->n_subdirs);
	for (size_t i = 0; i < o->n_subdirs && i < READER_PROBE_SUBDIRS; i++)
		if (!read_subdir(o, fd, o->subdirs[i])) {
			st = error_set(err, STATUS_NOMEM, dir, "out of memory");
			goto out;
		}
	/* sorted, each name once */
	sort_names(o->subnames, o->n_subnames);
	size_t k = 0;
	for (size_t i = 0; i < o->n_subnames; i++) {
		if (k && strcmp(o->subnames[k - 1], o->subnames[i]) == 0)
			free(o->subnames[i]);
		else
			o->subnames[k++] = o->subnames[i];
	}
	o->n_subnames = k;
out:
	free_names(remote, n_remote);
	closedir(d);
	return st;
}

/* Up to READER_PROBE_HEAD bytes of a local file (a remote one, read
 * lazily, has no head: its reader opens it by name). */
static enum status read_head(struct probe_owned *o, const char *path,
			     struct error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno == ENOENT ? STATUS_OK
				       : error_set(err, STATUS_IO, path, "%s",
						   strerror(errno));
	o->head = malloc(READER_PROBE_HEAD);
	size_t got = 0;
	enum status st = STATUS_OK;
	if (!o->head) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	while (got < READER_PROBE_HEAD) {
		ssize_t r = read(fd, o->head + got, READER_PROBE_HEAD - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			st = error_set(err, STATUS_IO, path, "%s",
				       strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	o->p.head = o->head;
	o->p.head_len = got;
out:
	close(fd);
	return st;
}

static enum status read_tables(struct probe_owned *o, const char *path,
			       struct error *err)
{
	sqlite3 *db = NULL;
	enum status st = sqlite_ro_open(path, false, &db, err);
	/* a WAL database in a directory we cannot write (no -shm to
	 * create): read what the main file holds, as SQLite allows only
	 * with immutable=1 */
	if (st == STATUS_IO) {
		error_clear(err);
		st = sqlite_ro_open(path, true, &db, err);
	}
	if (st == STATUS_OK)
		st = sqlite_ro_tables(db, path, PROBE_MAX_TABLES, &o->tables,
				      &o->n_tables, err);
	sqlite3_close(db);
	return st;
}

enum status reader_probe_read(const char *path, struct reader_probe **out,
			      struct error *err)
{
	*out = NULL;
	struct probe_owned *o = calloc(1, sizeof(*o));
	if (!o)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	o->p.path = path;
	enum status st = STATUS_OK;
	struct stat sb;
	if (stat(path, &sb) != 0) {
		if (!blob_path_exists(path)) {
			int e = errno;
			st = error_set(err,
				       e == ENOENT || e == ENOTDIR
					       ? STATUS_NOT_FOUND
					       : STATUS_IO,
				       path, "%s", strerror(e));
			reader_probe_free(&o->p);
			return st;
		}
		o->p.is_file = true; /* remote, no local bytes */
	} else if (S_ISDIR(sb.st_mode)) {
		o->p.is_dir = true;
		st = read_dir(o, path, err);
	} else if (S_ISREG(sb.st_mode) || blob_path_exists(path)) {
		o->p.is_file = true;
		st = read_head(o, path, err);
		if (st == STATUS_OK &&
		    sqlite_ro_is_sqlite(o->p.head, o->p.head_len)) {
			o->p.is_sqlite = true;
			st = read_tables(o, path, err);
		} else if (st == STATUS_OK && o->p.head_len) {
			bool is_archive = false, complete = false;
			st = archive_list_members(path, PROBE_MAX_MEMBERS,
						  PROBE_ARCHIVE_BYTES,
						  &is_archive, &o->members,
						  &o->n_members, &complete,
						  err);
			o->p.is_archive = is_archive;
			o->p.members_complete = complete;
		}
	}
	o->p.names = (const char *const *)o->names;
	o->p.n_names = o->n_names;
	o->p.subdirs = (const char *const *)o->subdirs;
	o->p.n_subdirs = o->n_subdirs;
	o->p.subnames = (const char *const *)o->subnames;
	o->p.n_subnames = o->n_subnames;
	o->p.tables = (const char *const *)o->tables;
	o->p.n_tables = o->n_tables;
	o->p.members = (const char *const *)o->members;
	o->p.n_members = o->n_members;
	*out = &o->p;
	return st;
}

bool reader_probe_has(const struct reader_probe *p, const char *name)
{
	return p && sorted_has(p->names, p->n_names, name);
}

bool reader_probe_has_table(const struct reader_probe *p, const char *name)
{
	return p && sorted_has(p->tables, p->n_tables, name);
}

bool reader_probe_has_table_prefix(const struct reader_probe *p,
				   const char *prefix)
{
	size_t n = strlen(prefix);
	for (size_t i = 0; p && i < p->n_tables; i++)
		if (strncmp(p->tables[i], prefix, n) == 0)
			return true;
	return false;
}

bool reader_name_ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);
	return n >= k && strcmp(name + n - k, suffix) == 0;
}

bool reader_probe_dir_has_suffix(const struct reader_probe *p,
				 const char *suffix)
{
	for (size_t i = 0; p && i < p->n_names; i++)
		if (reader_name_ends_with(p->names[i], suffix))
			return true;
	return false;
}

bool reader_probe_subdirs_have_suffix(const struct reader_probe *p,
				      const char *suffix)
{
	for (size_t i = 0; p && i < p->n_subnames; i++)
		if (p->subnames[i][0] != '.' &&
		    reader_name_ends_with(p->subnames[i], suffix))
			return true;
	return false;
}

const char *reader_probe_base(const struct reader_probe *p)
{
	const char *s = strrchr(p->path, '/');
	return s ? s + 1 : p->path;
}

bool reader_probe_head_is(const struct reader_probe *p, const void *magic,
			  size_t len)
{
	return p->head && p->head_len >= len &&
	       memcmp(p->head, magic, len) == 0;
}
