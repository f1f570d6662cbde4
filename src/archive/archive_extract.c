/* archive_extract: libarchive reads the entries; this module decides what
 * may be written and writes it itself, relative to a directory descriptor
 * of a fresh temporary directory: every directory component is opened with
 * O_NOFOLLOW|O_DIRECTORY and every file created with O_EXCL|O_NOFOLLOW, so
 * neither the archive nor a link planted in the destination can redirect a
 * write.  Links of every kind are refused rather than created (an archive
 * of a database has no need for them).  Must not depend on curses, ui/ or
 * the model. */
#include "config.h"

#include "archive/archive_extract.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/array.h"
#include "core/file_tree.h"
#include "core/lazylib.h"
#include "core/sanitize.h"

#define ARCHIVE_BLOCK 65536
#define ENTRY_SHOWN 160 /* bytes of an entry name in a message */

struct extract {
	struct archive *a;
	const char *name; /* the archive, for messages */
	struct archive_limits lim;
	volatile sig_atomic_t *cancel;
	int root; /* descriptor of the temporary directory */
	uint64_t total;
	uint64_t entries;
	struct error *err;
};

struct archive_limits archive_limits_default(void)
{
	return (struct archive_limits){
		.max_total_bytes = (uint64_t)64 << 30,
		.max_entry_bytes = (uint64_t)64 << 30,
		.max_entries = 1000000,
		.max_path = 1024,
		.max_ratio = 1000,
		.ratio_floor = (uint64_t)256 << 20,
	};
}

/* A failure about entry `entry` (shown with its control characters
 * escaped). */
static enum status entry_error(struct extract *x, enum status st,
			       const char *entry, const char *what)
{
	char *shown = sanitize_text(entry ? entry : "", SANITIZE_TERMINAL);
	size_t len = shown ? strlen(shown) : 0;
	/* a path of thousands of bytes: its start and its end */
	if (len > ENTRY_SHOWN)
		error_set(x->err, st, x->name, "entry \"%.*s...%s\": %s",
			  ENTRY_SHOWN / 2, shown, shown + len - ENTRY_SHOWN / 2,
			  what);
	else
		error_set(x->err, st, x->name, "entry \"%s\": %s",
			  shown ? shown : "?", what);
	free(shown);
	return st;
}

static bool cancelled(const struct extract *x)
{
	return x->cancel && *x->cancel;
}

/* Normalise an entry path into a new string of '/'-separated components
 * without empty or "." ones.  Refuses absolute paths, ".." and components
 * longer than NAME_MAX.  *out is "" for the archive's top directory. */
static enum status clean_path(struct extract *x, const char *raw, char **out)
{
	*out = NULL;
	size_t len = strlen(raw);
	if (len > x->lim.max_path) {
		char what[96];
		snprintf(what, sizeof(what),
			 "path of %zu bytes exceeds the limit of %zu", len,
			 x->lim.max_path);
		return entry_error(x, STATUS_LIMIT, raw, what);
	}
	if (raw[0] == '/')
		return entry_error(x, STATUS_CORRUPT, raw,
				   "absolute path refused");
	char *clean = malloc(len + 1);
	if (!clean)
		return error_set(x->err, STATUS_NOMEM, x->name,
				 "out of memory");
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		size_t c = strcspn(raw + i, "/");
		if (c == 2 && raw[i] == '.' && raw[i + 1] == '.') {
			free(clean);
			return entry_error(x, STATUS_CORRUPT, raw,
					   "path with a \"..\" component "
					   "refused");
		}
		if (c > NAME_MAX) {
			free(clean);
			return entry_error(x, STATUS_LIMIT, raw,
					   "path component longer than "
					   "NAME_MAX");
		}
		if (c > 0 && !(c == 1 && raw[i] == '.')) {
			if (o > 0)
				clean[o++] = '/';
			memcpy(clean + o, raw + i, c);
			o += c;
		}
		i += c;
		if (i < len)
			i++;
	}
	clean[o] = '\0';
	*out = clean;
	return STATUS_OK;
}

/* Open (creating as needed) the directories of `rel` but its last
 * component, relative to x->root.  *dir_fd is the last directory's
 * descriptor (x->root itself when `rel` has one component; only then is it
 * not to be closed), *leaf its last component inside `rel`. */
static enum status open_parent(struct extract *x, char *rel,
			       const char *entry, int *dir_fd,
			       const char **leaf)
{
	int fd = x->root;
	char *comp = rel;
	char *slash;
	while ((slash = strchr(comp, '/'))) {
		*slash = '\0';
		if (mkdirat(fd, comp, 0755) != 0 && errno != EEXIST) {
			int e = errno;
			*slash = '/';
			if (fd != x->root)
				close(fd);
			return entry_error(x, STATUS_IO, entry, strerror(e));
		}
		int next = openat(fd, comp,
				  O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					  O_CLOEXEC);
		int e = errno;
		*slash = '/';
		if (fd != x->root)
			close(fd);
		if (next < 0)
			return entry_error(x,
					   e == ENOTDIR || e == ELOOP
						   ? STATUS_CORRUPT
						   : STATUS_IO,
					   entry,
					   e == ENOTDIR || e == ELOOP
						   ? "a non-directory is in "
						     "the way"
						   : strerror(e));
		fd = next;
		comp = slash + 1;
	}
	*dir_fd = fd;
	*leaf = comp;
	return STATUS_OK;
}

static enum status make_dir(struct extract *x, char *rel, const char *entry)
{
	if (!rel[0])
		return STATUS_OK;
	int fd = -1;
	const char *leaf = NULL;
	enum status st = open_parent(x, rel, entry, &fd, &leaf);
	if (st != STATUS_OK)
		return st;
	if (mkdirat(fd, leaf, 0755) != 0) {
		struct stat sb;
		int e = errno;
		if (e != EEXIST ||
		    fstatat(fd, leaf, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISDIR(sb.st_mode))
			st = entry_error(x,
					 e == EEXIST ? STATUS_CORRUPT
						     : STATUS_IO,
					 entry,
					 e == EEXIST ? "a file is in the way"
						     : strerror(e));
	}
	if (fd != x->root)
		close(fd);
	return st;
}

/* Copy the current entry's data into `out`, checking every limit. */
static enum status copy_data(struct extract *x, int out, const char *entry)
{
	uint64_t size = 0; /* end of the data written so far */
	for (;;) {
		const void *buf = NULL;
		size_t len = 0;
		la_int64_t off = 0;
		if (cancelled(x))
			return error_set(x->err, STATUS_IO, x->name,
					 "interrupted");
		int r = archive_read_data_block(x->a, &buf, &len, &off);
		if (r == ARCHIVE_EOF)
			return STATUS_OK;
		if (r < ARCHIVE_WARN)
			return entry_error(x, STATUS_CORRUPT, entry,
					   archive_error_string(x->a)
						   ? archive_error_string(x->a)
						   : "damaged data");
		if (off < 0 || (uint64_t)off > UINT64_MAX - len)
			return entry_error(x, STATUS_CORRUPT, entry,
					   "bad data offset");
		uint64_t end = (uint64_t)off + len;
		if (end > x->lim.max_entry_bytes)
			return entry_error(x, STATUS_LIMIT, entry,
					   "contents exceed the per-entry "
					   "size limit");
		if (end > size) {
			uint64_t grow = end - size;
			if (grow > x->lim.max_total_bytes - x->total)
				return entry_error(x, STATUS_LIMIT, entry,
						   "contents exceed the "
						   "total size limit");
			x->total += grow;
			size = end;
		}
		la_int64_t in = archive_filter_bytes(x->a, -1);
		if (x->total > x->lim.ratio_floor && in > 0 &&
		    x->total / x->lim.max_ratio > (uint64_t)in)
			return entry_error(x, STATUS_LIMIT, entry,
					   "compression ratio exceeds the "
					   "limit (a decompression bomb?)");
		const char *p = buf;
		while (len > 0) {
			ssize_t w = pwrite(out, p, len, (off_t)off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return entry_error(x, STATUS_IO, entry,
						   w < 0 ? strerror(errno)
							 : "short write");
			p += w;
			len -= (size_t)w;
			off += w;
		}
	}
}

static enum status make_file(struct extract *x, char *rel, const char *entry)
{
	if (!rel[0])
		return entry_error(x, STATUS_CORRUPT, entry,
				   "file without a name");
	int dir = -1, fd = -1;
	const char *leaf = NULL;
	enum status st = open_parent(x, rel, entry, &dir, &leaf);
	if (st != STATUS_OK)
		return st;
	int e = 0;
	for (int attempt = 0; attempt < 2 && fd < 0; attempt++) {
		fd = openat(dir, leaf,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0644);
		e = errno;
		struct stat sb;
		/* a later copy of a file replaces the earlier one (tar -r) */
		if (fd < 0 && e == EEXIST && attempt == 0 &&
		    fstatat(dir, leaf, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(sb.st_mode) && unlinkat(dir, leaf, 0) == 0)
			continue;
		if (fd < 0)
			break;
	}
	if (fd < 0) {
		st = entry_error(x, e == EEXIST ? STATUS_CORRUPT : STATUS_IO,
				 entry,
				 e == EEXIST ? "a directory is in the way"
					     : strerror(e));
		goto out;
	}
	st = copy_data(x, fd, entry);
	if (close(fd) != 0 && st == STATUS_OK)
		st = entry_error(x, STATUS_IO, entry, strerror(errno));
out:
	if (dir != x->root)
		close(dir);
	return st;
}

static enum status extract_entry(struct extract *x, struct archive_entry *e)
{
	const char *entry = archive_entry_pathname(e);
	if (!entry)
		entry = archive_entry_pathname_utf8(e);
	if (!entry)
		return error_set(x->err, STATUS_CORRUPT, x->name,
				 "entry %" PRIu64 " has no readable name",
				 x->entries);
	if (++x->entries > x->lim.max_entries) {
		char what[80];
		snprintf(what, sizeof(what),
			 "more than %" PRIu64 " entries", x->lim.max_entries);
		return entry_error(x, STATUS_LIMIT, entry, what);
	}
	mode_t type = archive_entry_filetype(e);
	if (archive_entry_hardlink(e))
		return entry_error(x, STATUS_UNSUPPORTED, entry,
				   "hard links are refused");
	if (type == AE_IFLNK || archive_entry_symlink(e))
		return entry_error(x, STATUS_UNSUPPORTED, entry,
				   "symbolic links are refused");
	if (type != AE_IFREG && type != AE_IFDIR)
		return entry_error(x, STATUS_UNSUPPORTED, entry,
				   "devices, FIFOs and sockets are refused");
	if (type == AE_IFREG && archive_entry_size_is_set(e) &&
	    archive_entry_size(e) > 0 &&
	    ((uint64_t)archive_entry_size(e) > x->lim.max_entry_bytes ||
	     (uint64_t)archive_entry_size(e) >
		     x->lim.max_total_bytes - x->total))
		return entry_error(x, STATUS_LIMIT, entry,
				   "declared size exceeds the size limit");
	char *rel = NULL;
	enum status st = clean_path(x, entry, &rel);
	if (st != STATUS_OK)
		return st;
	st = type == AE_IFDIR ? make_dir(x, rel, entry)
			      : make_file(x, rel, entry);
	free(rel);
	return st;
}

/* A failure of libarchive before the first entry or between entries:
 * the system's error, "not an archive" when nothing in the input was
 * recognised, else a damaged archive. */
static enum status read_failure(struct archive *a, const char *name,
				uint64_t entries, struct error *err)
{
	int e = archive_errno(a);
	const char *why = archive_error_string(a);
	if (e == ENOENT)
		return error_set(err, STATUS_NOT_FOUND, name, "%s",
				 strerror(e));
	if (e > 0 && e != EILSEQ && e != EINVAL)
		return error_set(err, STATUS_IO, name, "%s", strerror(e));
	if (e == EILSEQ && entries == 0 && archive_filter_count(a) <= 1 &&
	    archive_format(a) == 0)
		return error_set(err, STATUS_NOT_DATABASE, name,
				 "not an archive (tar, tar.gz, tar.xz, "
				 "tar.zst, tar.bz2 or zip)");
	return error_set(err, STATUS_CORRUPT, name,
			 "damaged or truncated archive: %s",
			 why ? why : "unreadable entry");
}

static enum status extract_all(struct extract *x)
{
	for (;;) {
		struct archive_entry *e = NULL;
		if (cancelled(x))
			return error_set(x->err, STATUS_IO, x->name,
					 "interrupted");
		int r = archive_read_next_header(x->a, &e);
		if (r == ARCHIVE_EOF)
			break;
		if (r == ARCHIVE_RETRY)
			continue;
		if (r < ARCHIVE_WARN)
			return read_failure(x->a, x->name, x->entries, x->err);
		enum status st = extract_entry(x, e);
		if (st != STATUS_OK)
			return st;
	}
	if (x->entries == 0)
		return error_set(x->err, STATUS_NOT_DATABASE, x->name,
				 "empty archive");
	return STATUS_OK;
}

static struct archive *reader_new(void)
{
	struct archive *a = archive_read_new();
	if (!a)
		return NULL;
	/* the filters libarchive has built in; not archive_read_support_
	 * filter_all, which may run external programs on the input */
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_bzip2(a);
	archive_read_support_filter_xz(a);
	archive_read_support_filter_lzma(a);
	archive_read_support_filter_zstd(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_zip(a);
	return a;
}

/* A reader (reader_new) once libarchive is loaded: STATUS_OK, else why
 * (its message on `err`, naming `name`, when `err` is not NULL). */
static enum status reader_start(struct archive **a, const char *name,
				struct error *err)
{
	*a = NULL;
	enum status need = lazylib_require(LAZYLIB_ARCHIVE, err);
	if (need != STATUS_OK)
		return need;
	*a = reader_new();
	if (!*a)
		return error_set(err, STATUS_NOMEM, name, "out of memory");
	return STATUS_OK;
}

/* Extract from the opened reader `a` (freed here) into `dest`. */
static enum status extract_into(struct archive *a, int opened,
				const char *name, const char *dest,
				const struct archive_limits *limits,
				volatile sig_atomic_t *cancel,
				struct error *err)
{
	char *tmp = NULL;
	struct extract x = {
		.a = a,
		.name = name,
		.lim = limits ? *limits : archive_limits_default(),
		.cancel = cancel,
		.root = -1,
		.err = err,
	};
	enum status st = STATUS_OK;
	if (x.lim.max_ratio == 0)
		x.lim.max_ratio = 1;
	if (opened != ARCHIVE_OK) {
		st = read_failure(a, name, 0, err);
		goto out;
	}
	size_t dl = strlen(dest);
	tmp = malloc(dl + sizeof(".tmp-XXXXXX"));
	if (!tmp) {
		st = error_set(err, STATUS_NOMEM, name, "out of memory");
		goto out;
	}
	memcpy(tmp, dest, dl);
	memcpy(tmp + dl, ".tmp-XXXXXX", sizeof(".tmp-XXXXXX"));
	if (!mkdtemp(tmp)) {
		st = error_set(err, STATUS_IO, dest,
			       "cannot create a directory next to it: %s",
			       strerror(errno));
		FREE_AND_NULL(tmp);
		goto out;
	}
	x.root = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (x.root < 0) {
		st = error_set(err, STATUS_IO, tmp, "%s", strerror(errno));
		goto out;
	}
	st = extract_all(&x);
	if (st != STATUS_OK)
		goto out;
	close(x.root);
	x.root = -1;
	if (rename(tmp, dest) != 0) {
		struct stat sb;
		if ((errno == EEXIST || errno == ENOTEMPTY) &&
		    lstat(dest, &sb) == 0 && S_ISDIR(sb.st_mode))
			goto out; /* another extraction finished first */
		st = error_set(err, STATUS_IO, dest, "cannot rename %s: %s",
			       tmp, strerror(errno));
	}
	if (st == STATUS_OK) {
		FREE_AND_NULL(tmp);
	}
out:
	if (x.root >= 0)
		close(x.root);
	if (tmp) {
		file_tree_remove(tmp, NULL);
		free(tmp);
	}
	archive_read_free(a);
	return st;
}

enum status archive_extract_file(const char *archive_path, const char *dest,
				 const struct archive_limits *limits,
				 volatile sig_atomic_t *cancel,
				 struct error *err)
{
	if (!archive_path || !dest)
		return error_set(err, STATUS_USAGE, archive_path,
				 "archive_extract_file: NULL path");
	struct stat sb;
	if (stat(archive_path, &sb) != 0)
		return error_set(err,
				 errno == ENOENT ? STATUS_NOT_FOUND : STATUS_IO,
				 archive_path, "%s", strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return error_set(err, STATUS_NOT_DATABASE, archive_path,
				 "not an archive (not a regular file)");
	struct archive *a;
	enum status st = reader_start(&a, archive_path, err);
	if (st != STATUS_OK)
		return st;
	int r = archive_read_open_filename(a, archive_path, ARCHIVE_BLOCK);
	return extract_into(a, r, archive_path, dest, limits, cancel, err);
}

enum status archive_extract_memory(const void *data, size_t len,
				   const char *name, const char *dest,
				   const struct archive_limits *limits,
				   volatile sig_atomic_t *cancel,
				   struct error *err)
{
	if ((!data && len > 0) || !dest)
		return error_set(err, STATUS_USAGE, name,
				 "archive_extract_memory: NULL argument");
	struct archive *a;
	enum status st = reader_start(&a, name, err);
	if (st != STATUS_OK)
		return st;
	int r = archive_read_open_memory(a, data ? data : "", len);
	return extract_into(a, r, name ? name : "(memory)", dest, limits,
			    cancel, err);
}

bool archive_is_archive(const char *path)
{
	struct stat sb;
	struct archive *a;
	if (!path || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    reader_start(&a, path, NULL) != STATUS_OK)
		return false;
	bool yes = false;
	if (archive_read_open_filename(a, path, ARCHIVE_BLOCK) == ARCHIVE_OK) {
		struct archive_entry *e = NULL;
		int r = archive_read_next_header(a, &e);
		yes = r == ARCHIVE_OK || r == ARCHIVE_WARN;
	}
	archive_read_free(a);
	return yes;
}

enum status archive_list_members(const char *path, size_t max_members,
				 uint64_t max_bytes, bool *is_archive,
				 char ***names, size_t *n, bool *complete,
				 struct error *err)
{
	*is_archive = false;
	*names = NULL;
	*n = 0;
	*complete = false;
	/* without libarchive no file is taken for an archive: the formats
	 * that need no archive (DCPI, OTF2, Extra-P...) still open */
	if (lazylib_require(LAZYLIB_ARCHIVE, NULL) != STATUS_OK)
		return STATUS_OK;
	enum status st = STATUS_OK;
	char **v = NULL;
	size_t count = 0;
	struct archive *a = reader_new();
	if (!a)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	if (archive_read_open_filename(a, path, ARCHIVE_BLOCK) != ARCHIVE_OK)
		goto out;
	v = calloc(max_members ? max_members : 1, sizeof(*v));
	if (!v) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	for (;;) {
		struct archive_entry *e = NULL;
		int r = archive_read_next_header(a, &e);
		if (r == ARCHIVE_EOF) {
			*complete = *is_archive = true;
			break;
		}
		if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
			break; /* a damaged tail: the prefix stands */
		*is_archive = true;
		if (count == max_members ||
		    (uint64_t)archive_filter_bytes(a, -1) > max_bytes)
			break;
		const char *name = archive_entry_pathname(e);
		if (!(v[count] = strdup(name ? name : ""))) {
			st = error_set(err, STATUS_NOMEM, path, "out of memory");
			goto out;
		}
		count++;
	}
	if (*is_archive && count) {
		*names = v;
		*n = count;
		v = NULL;
		count = 0;
	}
out:
	archive_free_paths(v, count);
	archive_read_free(a);
	return st;
}

void archive_free_paths(char **paths, size_t n)
{
	if (!paths)
		return;
	array_free_each(paths, n);
}
