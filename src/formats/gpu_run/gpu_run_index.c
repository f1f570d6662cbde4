/* gpu_run_index: an index of a GPU run kept in callscope's cache
 * directory, so that a run is scanned once and every later open starts
 * from what that scan built.
 *
 * A run of millions of dispatches costs one pass over every row of every
 * file (gpu_run.c: seconds to minutes) before the tree can be shown, and a
 * second pass over a file before its timeline lines can.  Nothing in the
 * SQLite files lets that be skipped (no index on times; rows in writer
 * order), and callscope never writes into them.  So after the first pass
 * the run's state -- the interned strings, profiles, nodes and their
 * values, the table sets' id maps, the lines -- goes to one file
 * DIR/KEY.run, and after a file's second pass its sorted, linked intervals
 * go to DIR/KEY.fN, which later opens map read-only: a probe or a window
 * then reads only the pages it touches.
 *
 * KEY hashes the family and the files' real paths; the index records each
 * file's size, modification time, inode and device and is used only when
 * all of them still match (a file that has a -wal beside it may change:
 * no index).  An index is data from disk like any other: every count and
 * every index in it is checked before use, and one that does not check
 * out, is truncated or was written by another version is ignored (the run
 * is scanned again and the index rewritten).  Writes go to a temporary
 * name renamed into place; any failure to write leaves no index and is not
 * an error (the open does not depend on it).  The run file ends with a
 * CRC-32 of its bytes (zlib); the interval files, hundreds of megabytes,
 * are checked by structure only (every context and link in range, begins
 * in order) so that a probe does not read them whole: a flipped bit there
 * can misplace an interval, never make a read go astray.  Host byte
 * order, marked in the header.  The directory keeps a budget
 * ($CALLSCOPE_RUN_INDEX_MAX, 8 GiB): older runs' indexes go first.
 *
 * This file: the files' identities, the index's name and the directory's
 * budget; writing is gpu_run_index_write.c, reading and listing
 * gpu_run_index_read.c. */
#include "config.h"

#include "core/array.h"
#include "formats/gpu_run/gpu_run.h"
#include "formats/gpu_run/gpu_run_index_internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- identity ------------------------------------------------------------ */

bool gpu_run_index_file_identity(const char *path, struct file_id *out)
{
	struct stat sb;
	char *wal = NULL;
	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
		return false;
	/* a database with a write-ahead log may change without its own
	 * size or time changing */
	bool has_wal = asprintf(&wal, "%s-wal", path) < 0 ||
		       access(wal, F_OK) == 0;
	free(wal);
	if (has_wal)
		return false;
	*out = (struct file_id){
		.size = (uint64_t)sb.st_size,
		.ino = (uint64_t)sb.st_ino,
		.dev = (uint64_t)sb.st_dev,
		.mtime_s = (int64_t)sb.st_mtim.tv_sec,
		.mtime_ns = (int64_t)sb.st_mtim.tv_nsec,
		.ctime_s = (int64_t)sb.st_ctim.tv_sec,
		.ctime_ns = (int64_t)sb.st_ctim.tv_nsec,
	};
	return true;
}

uint64_t gpu_run_index_fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001b3ull;
	return h;
}

bool gpu_run_index_name(struct gpu_run *r, const char *dir)
{
	uint64_t h = gpu_run_index_fnv(0xcbf29ce484222325ull, r->family->format,
			 strlen(r->family->format) + 1);
	/* the kernel names chosen make another tree: another index */
	h = gpu_run_index_fnv(h, &r->kernel_names, sizeof(r->kernel_names));
	for (size_t i = 0; i < r->n_files; i++) {
		char *real = realpath(r->files[i].path, NULL);
		if (!real)
			return false;
		h = gpu_run_index_fnv(h, real, strlen(real) + 1);
		free(real);
	}
	free(r->index_base);
	r->index_base = NULL;
	/* `dir` exists: the reader's cache directory, made by src/open.c */
	return asprintf(&r->index_base, "%s/%016" PRIx64, dir, h) >= 0;
}

/* ---- keeping the directory small ------------------------------------------ */

/* The directory's budget: $CALLSCOPE_RUN_INDEX_MAX bytes (suffix K, M, G
 * allowed), else 8 GiB.  0 keeps everything. */
static uint64_t budget(void)
{
	const char *v = getenv("CALLSCOPE_RUN_INDEX_MAX");
	char *end = NULL;
	if (!v || !*v)
		return 8ull << 30;
	unsigned long long n = strtoull(v, &end, 10);
	int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
	if (shift)
		end++;
	return *end || n > (UINT64_MAX >> 30) ? 8ull << 30 : (uint64_t)n << shift;
}

struct run_files {
	char key[17];
	uint64_t bytes;
	int64_t used; /* the newest modification time of its files */
};

static int by_use(const void *pa, const void *pb)
{
	const struct run_files *a = pa, *b = pb;
	return a->used < b->used ? -1 : a->used > b->used;
}

/* Remove whole runs' indexes, least recently written or used first, until
 * the directory fits its budget; never `keep`'s (the run just opened). */
void gpu_run_index_prune(const char *dir, const char *keep)
{
	uint64_t max = budget(), total = 0;
	DIR *d = max ? opendir(dir) : NULL;
	if (!d)
		return;
	struct run_files *runs = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		struct stat sb;
		if (strlen(e->d_name) < 18 || e->d_name[16] != '.' ||
		    fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(sb.st_mode))
			continue;
		total += (uint64_t)sb.st_size;
		size_t i = 0;
		while (i < n && memcmp(runs[i].key, e->d_name, 16) != 0)
			i++;
		if (i == n) {
			if (!array_grow((void **)&runs, &cap, n + 1,
					sizeof(*runs)))
				break;
			memcpy(runs[n].key, e->d_name, 16);
			runs[n].key[16] = '\0';
			runs[n].bytes = 0;
			runs[n].used = INT64_MIN;
			n++;
		}
		runs[i].bytes += (uint64_t)sb.st_size;
		if ((int64_t)sb.st_mtim.tv_sec > runs[i].used)
			runs[i].used = (int64_t)sb.st_mtim.tv_sec;
	}
	if (total > max && n)
		qsort(runs, n, sizeof(*runs), by_use);
	rewinddir(d);
	for (size_t i = 0; i < n && total > max; i++) {
		if (strcmp(runs[i].key, keep) == 0)
			continue;
		while ((e = readdir(d)))
			if (memcmp(e->d_name, runs[i].key, 16) == 0 &&
			    e->d_name[16] == '.')
				unlinkat(dirfd(d), e->d_name, 0);
		rewinddir(d);
		total -= runs[i].bytes;
	}
	closedir(d);
	free(runs);
}

void gpu_run_index_idents_free(const struct gpu_run *r, struct ident *ids)
{
	for (size_t i = 0; ids && i < r->n_files; i++)
		free(ids[i].real);
	free(ids);
}

/* Every file's real path and identity; false when one has none (gone, not
 * a regular file, a -wal beside it). */
bool gpu_run_index_identities(const struct gpu_run *r, struct ident **out)
{
	*out = calloc(r->n_files ? r->n_files : 1, sizeof(**out));
	if (!*out)
		return false;
	for (size_t i = 0; i < r->n_files; i++)
		if (!((*out)[i].real = realpath(r->files[i].path, NULL)) ||
		    !gpu_run_index_file_identity((*out)[i].real, &(*out)[i].id)) {
			gpu_run_index_idents_free(r, *out);
			*out = NULL;
			return false;
		}
	return true;
}
