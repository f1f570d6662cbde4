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
 * ($CALLSCOPE_RUN_INDEX_MAX, 8 GiB): older runs' indexes go first. */
#include "config.h"

#include "formats/gpu_run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "core/span.h"
#include "net/url_cache.h"

#define RUN_MAGIC "CSRUNIX1"
#define IV_MAGIC "CSRUNIV1"
#define INDEX_VERSION 5u /* 4: instants; 5: line groups */
#define BYTE_ORDER_MARK 0x01020304u

/* ---- identity ------------------------------------------------------------ */

/* What must not have changed for an index to be used. */
struct file_id {
	uint64_t size, ino, dev;
	int64_t mtime_s, mtime_ns;
	int64_t ctime_s, ctime_ns; /* a user cannot set it back */
};

/* A file of the run as the index names it. */
struct ident {
	char *real; /* realpath() */
	struct file_id id;
};

static bool file_identity(const char *path, struct file_id *out)
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

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001b3ull;
	return h;
}

bool gpu_run_index_name(struct gpu_run *r, const char *dir)
{
	uint64_t h = fnv(0xcbf29ce484222325ull, r->family->format,
			 strlen(r->family->format) + 1);
	for (size_t i = 0; i < r->n_files; i++) {
		char *real = realpath(r->files[i].path, NULL);
		if (!real)
			return false;
		h = fnv(h, real, strlen(real) + 1);
		free(real);
	}
	free(r->index_base);
	r->index_base = NULL;
	struct error err = {0};
	bool made = url_cache_mkdirs(dir, &err) == STATUS_OK;
	error_clear(&err);
	if (!made)
		return false;
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
static void prune(const char *dir, const char *keep)
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
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 32;
				struct run_files *g = realloc(runs, nc * sizeof(*g));
				if (!g)
					break;
				runs = g;
				cap = nc;
			}
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

/* ---- writing --------------------------------------------------------------- */

struct out {
	FILE *f;
	bool ok;
	uLong crc; /* of every byte written (the run file ends with it) */
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->ok && n && fwrite(p, 1, n, o->f) != n)
		o->ok = false;
	for (size_t done = 0; o->ok && done < n;) {
		uInt part = n - done > (1u << 30) ? 1u << 30 : (uInt)(n - done);
		o->crc = crc32(o->crc, (const Bytef *)p + done, part);
		done += part;
	}
}

static void put_u32(struct out *o, uint32_t v)
{
	put(o, &v, sizeof(v));
}

static void put_u64(struct out *o, uint64_t v)
{
	put(o, &v, sizeof(v));
}

static void put_text(struct out *o, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	put_u32(o, (uint32_t)n);
	put(o, s, n);
}

/* Zero bytes up to a multiple of 8 of the file offset (arrays that are
 * mapped, not copied, must be aligned). */
static void put_align(struct out *o)
{
	static const char zero[8];
	long at = o->f ? ftell(o->f) : -1;
	if (at < 0)
		o->ok = false;
	else
		put(o, zero, (size_t)(-at & 7));
}

static void put_map(struct out *o, const struct gpu_run_map *m)
{
	put_u64(o, m->n);
	for (size_t i = 0; i < m->cap; i++)
		if (m->slot[i].used) {
			put_u64(o, m->slot[i].key);
			put_u32(o, m->slot[i].val);
		}
}

static void put_header(struct out *o, const char *magic,
		       const struct gpu_run *r, const struct ident *ids)
{
	put(o, magic, 8);
	put_u32(o, BYTE_ORDER_MARK);
	put_u32(o, INDEX_VERSION);
	put_u32(o, (uint32_t)sizeof(struct gpu_run_iv));
	/* the readers' behaviour, not only the layout, is the program's */
	put_text(o, PACKAGE_VERSION);
	put_text(o, r->family->format);
	put_u64(o, r->n_files);
	for (size_t i = 0; i < r->n_files; i++) {
		put_text(o, ids[i].real);
		put(o, &ids[i].id, sizeof(ids[i].id));
	}
	put_u64(o, r->index_stamp);
}

/* Open DIR/KEY.SUFFIX's temporary sibling for writing. */
static bool out_open(struct out *o, const struct gpu_run *r,
		     const char *suffix, char **tmp, char **final)
{
	*tmp = *final = NULL;
	o->f = NULL;
	o->ok = false;
	o->crc = crc32(0L, Z_NULL, 0);
	if (asprintf(final, "%s.%s", r->index_base, suffix) < 0) {
		*final = NULL;
		return false;
	}
	if (asprintf(tmp, "%s.tmp%ld", *final, (long)getpid()) < 0) {
		*tmp = NULL;
		return false;
	}
	int fd = open(*tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return false;
	o->f = fdopen(fd, "wb");
	if (!o->f) {
		close(fd);
		unlink(*tmp);
		return false;
	}
	o->ok = true;
	return true;
}

static void out_close(struct out *o, const struct gpu_run *r, char *tmp,
		      char *final)
{
	if (o->f && fclose(o->f) != 0)
		o->ok = false;
	if (tmp && (!o->ok || rename(tmp, final) != 0))
		unlink(tmp);
	free(tmp);
	free(final);
	/* DIR/KEY: the directory and the key */
	char *dir = strdup(r->index_base);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	if (slash) {
		*slash = '\0';
		prune(dir, slash + 1);
	}
	free(dir);
}

static void idents_free(const struct gpu_run *r, struct ident *ids)
{
	for (size_t i = 0; ids && i < r->n_files; i++)
		free(ids[i].real);
	free(ids);
}

/* Every file's real path and identity; false when one has none (gone, not
 * a regular file, a -wal beside it). */
static bool identities(const struct gpu_run *r, struct ident **out)
{
	*out = calloc(r->n_files ? r->n_files : 1, sizeof(**out));
	if (!*out)
		return false;
	for (size_t i = 0; i < r->n_files; i++)
		if (!((*out)[i].real = realpath(r->files[i].path, NULL)) ||
		    !file_identity((*out)[i].real, &(*out)[i].id)) {
			idents_free(r, *out);
			*out = NULL;
			return false;
		}
	return true;
}

#define NODE_DOUBLES(X)                                                    \
	X(gpu) X(calls) X(bytes) X(api_incl) X(api_excl) X(dur_n) X(dur_sum) \
	X(dur_min) X(dur_max) X(dur_sq) X(sized_ns)

void gpu_run_index_save(struct gpu_run *r)
{
	if (!r->index_base || !r->b)
		return;
	struct ident *ids = NULL;
	if (!identities(r, &ids))
		return;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	r->index_stamp = fnv((uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 32,
			     &ts.tv_sec, sizeof(ts.tv_sec));
	struct out o;
	char *tmp, *final;
	if (!out_open(&o, r, "run", &tmp, &final)) {
		free(tmp);
		free(final);
		idents_free(r, ids);
		return;
	}
	put_header(&o, RUN_MAGIC, r, ids);
	const struct model *m = model_builder_peek(r->b);
	/* strings 1.. in handle order */
	put_u32(&o, m->n_strings);
	for (uint32_t s = 1; s < m->n_strings; s++)
		put_text(&o, model_str(m, s));
	/* profiles */
	put_u32(&o, m->n_profiles);
	for (uint32_t p = 0; p < m->n_profiles; p++) {
		const struct model_profile *pr = &m->profiles[p];
		put_u32(&o, pr->label);
		put_u32(&o, pr->n_ids);
		for (uint32_t k = 0; k < pr->n_ids; k++) {
			const struct model_id *id = &m->ids[pr->first_id + k];
			put_u32(&o, id->kind_name);
			put_u32(&o, id->kind);
			put_u32(&o, id->is_physical);
			put_u32(&o, id->logical_id);
			put_u64(&o, id->physical_id);
		}
	}
	/* nodes (0 is the root) and their values */
	put_u32(&o, r->n_nodes);
	put(&o, r->parent, r->n_nodes * sizeof(*r->parent));
	put(&o, r->name, r->n_nodes * sizeof(*r->name));
	put(&o, r->kind, r->n_nodes * sizeof(*r->kind));
	put(&o, r->profile, r->n_nodes * sizeof(*r->profile));
	put(&o, r->present, r->n_nodes * sizeof(*r->present));
#define PUT_ARRAY(a) put(&o, r->a, r->n_nodes * sizeof(double));
	NODE_DOUBLES(PUT_ARRAY)
#undef PUT_ARRAY
	/* hardware counters: name, then a value (NaN: none) per node */
	put_u32(&o, r->n_counters);
	for (uint32_t k = 0; k < r->n_counters; k++) {
		put_u32(&o, r->counter_name[k]);
		put(&o, r->counter[k], r->n_nodes * sizeof(double));
	}
	/* GPU time and calls per (node, queue) */
	put_map(&o, &r->queue_split);
	put_u32(&o, r->n_split);
	put(&o, r->split_gpu, r->n_split * sizeof(double));
	put(&o, r->split_calls, r->n_split * sizeof(double));
	/* the files' table sets */
	for (size_t i = 0; i < r->n_files; i++) {
		const struct gpu_run_file *f = &r->files[i];
		put_u64(&o, f->n_sets);
		for (size_t s = 0; s < f->n_sets; s++) {
			const struct gpu_run_set *set = &f->sets[s];
			put_text(&o, set->suffix);
			uint32_t flags = (uint32_t)set->has_copy |
					 (uint32_t)set->has_pmc << 1 |
					 (uint32_t)set->has_arg << 2 |
					 (uint32_t)set->has_alloc << 3 |
					 (uint32_t)set->has_copyapi << 4 |
					 (uint32_t)set->has_kernelapi << 5 |
					 (uint32_t)set->has_monitor << 6;
			put_u32(&o, flags);
			put_u32(&o, set->opt);
			put_map(&o, &set->strings);
			put_map(&o, &set->kernels);
			put_map(&o, &set->threads);
			put_map(&o, &set->procs);
			put_map(&o, &set->thread_profiles);
		}
	}
	/* lines */
	put_u32(&o, r->n_lines);
	for (uint32_t i = 0; i < r->n_lines; i++) {
		const struct gpu_run_line *l = &r->lines[i];
		put_u32(&o, l->file);
		put_u32(&o, l->set);
		put_u32(&o, l->kind);
		put_u64(&o, l->a);
		put_u64(&o, l->b);
		put_u32(&o, l->label);
		put_u32(&o, l->profile);
		put_u64(&o, l->count);
		put_u64(&o, l->first);
		put_u64(&o, l->last);
		put_u32(&o, l->unit);
		put_u64(&o, l->n_inst);
		put_u32(&o, l->group);
		if (l->kind == GPU_RUN_LINE_COUNTER) {
			put(&o, l->times, l->count * sizeof(*l->times));
			put(&o, l->values, l->count * sizeof(*l->values));
		}
	}
	for (size_t i = 0; i < r->n_files; i++)
		put_u32(&o, r->file_host[i]);
	put_u64(&o, r->time_min);
	put_u64(&o, r->time_max);
	put_u64(&o, r->skipped_rows);
	put_u64(&o, r->unlinked);
	put_u32(&o, r->unattributed);
	put(&o, "END.", 4);
	put_u32(&o, (uint32_t)o.crc);
	out_close(&o, r, tmp, final);
	idents_free(r, ids);
}

void gpu_run_index_save_file(struct gpu_run *r, uint32_t fi)
{
	if (!r->index_base || !r->index_stamp || fi >= r->n_files ||
	    r->files[fi].iv_map)
		return;
	struct ident *ids = NULL;
	if (!identities(r, &ids))
		return;
	char suffix[32];
	snprintf(suffix, sizeof(suffix), "f%" PRIu32, fi);
	struct out o;
	char *tmp, *final;
	if (out_open(&o, r, suffix, &tmp, &final)) {
		put_header(&o, IV_MAGIC, r, ids);
		put_u32(&o, fi);
		uint32_t n = 0;
		for (uint32_t i = 0; i < r->n_lines; i++)
			n += r->lines[i].file == fi &&
			     r->lines[i].kind != GPU_RUN_LINE_COUNTER;
		put_u32(&o, n);
		for (uint32_t i = 0; i < r->n_lines; i++) {
			const struct gpu_run_line *l = &r->lines[i];
			if (l->file != fi || l->kind == GPU_RUN_LINE_COUNTER)
				continue;
			put_u32(&o, i);
			put_u64(&o, l->filled);
			put_align(&o);
			put(&o, l->iv, l->filled * sizeof(*l->iv));
			put_u64(&o, l->inst_filled);
			put_align(&o);
			put(&o, l->inst, l->inst_filled * sizeof(*l->inst));
		}
		put(&o, "END.", 4);
	}
	out_close(&o, r, tmp, final);
	idents_free(r, ids);
}

/* ---- reading --------------------------------------------------------------- */

struct in {
	struct span s;
	uint64_t at;
	bool ok;
};

static bool get(struct in *in, void *p, uint64_t n)
{
	struct span sub;
	if (!in->ok || !span_sub(in->s, in->at, n, &sub)) {
		in->ok = false;
		return false;
	}
	if (n)
		memcpy(p, sub.data, n);
	in->at += n;
	return true;
}

static uint32_t get_u32(struct in *in)
{
	uint32_t v = 0;
	get(in, &v, sizeof(v));
	return v;
}

static uint64_t get_u64(struct in *in)
{
	uint64_t v = 0;
	get(in, &v, sizeof(v));
	return v;
}

/* A text of the index: a pointer into the mapping and its length. */
static const char *get_text(struct in *in, uint32_t *len)
{
	*len = get_u32(in);
	struct span sub;
	if (!in->ok || !span_sub(in->s, in->at, *len, &sub)) {
		in->ok = false;
		return NULL;
	}
	in->at += *len;
	return (const char *)sub.data;
}

/* Whether `n` elements of `size` bytes can still follow (before any
 * allocation sized by a count from the file). */
static bool fits(const struct in *in, uint64_t n, uint64_t size)
{
	return in->ok && size && in->at <= in->s.len &&
	       n <= (in->s.len - in->at) / size;
}

static bool get_map(struct in *in, struct gpu_run_map *m, uint32_t bound)
{
	uint64_t n = get_u64(in);
	if (!fits(in, n, 12))
		return in->ok = false;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t key = get_u64(in);
		uint32_t val = get_u32(in);
		if (!in->ok || (bound && val >= bound) ||
		    !gpu_run_map_put(m, key, val))
			return in->ok = false;
	}
	return true;
}

static bool check_header(struct in *in, const char *magic,
			 const struct gpu_run *r, const struct ident *ids,
			 uint64_t *stamp)
{
	char got[8];
	if (!get(in, got, 8) || memcmp(got, magic, 8) != 0 ||
	    get_u32(in) != BYTE_ORDER_MARK || get_u32(in) != INDEX_VERSION ||
	    get_u32(in) != sizeof(struct gpu_run_iv))
		return false;
	uint32_t len;
	const char *ver = get_text(in, &len);
	if (!ver || len != strlen(PACKAGE_VERSION) ||
	    memcmp(ver, PACKAGE_VERSION, len) != 0)
		return false;
	const char *fam = get_text(in, &len);
	if (!fam || len != strlen(r->family->format) ||
	    memcmp(fam, r->family->format, len) != 0 ||
	    get_u64(in) != r->n_files)
		return false;
	for (size_t i = 0; i < r->n_files; i++) {
		const char *p = get_text(in, &len);
		struct file_id id;
		if (!p || len != strlen(ids[i].real) ||
		    memcmp(p, ids[i].real, len) != 0 ||
		    !get(in, &id, sizeof(id)) ||
		    memcmp(&id, &ids[i].id, sizeof(id)) != 0)
			return false;
	}
	*stamp = get_u64(in);
	return in->ok;
}

/* Map `path` read-only; false when it is missing or empty. */
static bool map_file(const char *path, void **base, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat sb;
	bool ok = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
		  sb.st_size > 0;
	*base = ok ? mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE,
			  fd, 0)
		   : MAP_FAILED;
	close(fd);
	if (*base == MAP_FAILED) {
		*base = NULL;
		return false;
	}
	*len = (size_t)sb.st_size;
	return true;
}

static bool load_strings(struct gpu_run *r, struct in *in)
{
	uint32_t n = get_u32(in);
	if (!fits(in, n, 4))
		return false;
	for (uint32_t s = 1; s < n; s++) {
		uint32_t len;
		const char *t = get_text(in, &len);
		char *z = t ? strndup(t, len) : NULL;
		/* the same handles as the scan's, or the index is not this
		 * builder's (a text with a NUL, a repeated text) */
		uint32_t h = z && strlen(z) == len ? gpu_run_intern(r, z)
						   : MODEL_NONE;
		free(z);
		if (h != s)
			return false;
	}
	r->index_strings = n;
	return in->ok;
}

static bool load_profiles(struct gpu_run *r, struct in *in)
{
	uint32_t n = get_u32(in);
	if (!fits(in, n, 8))
		return false;
	for (uint32_t p = 0; p < n; p++) {
		uint32_t label = get_u32(in), n_ids = get_u32(in);
		struct model_id ids[4];
		if (!in->ok || label >= r->index_strings || n_ids > 4)
			return false;
		for (uint32_t k = 0; k < n_ids; k++) {
			ids[k].kind_name = get_u32(in);
			ids[k].kind = (uint8_t)get_u32(in);
			ids[k].is_physical = get_u32(in) != 0;
			ids[k].logical_id = get_u32(in);
			ids[k].physical_id = get_u64(in);
			if (ids[k].kind_name >= r->index_strings)
				return false;
		}
		const struct model *m = model_builder_peek(r->b);
		if (!in->ok || model_builder_add_profile(r->b, false, ids, n_ids,
							 model_str(m, label)) != p)
			return false;
	}
	r->index_profiles = n;
	return true;
}

static bool load_nodes(struct gpu_run *r, struct in *in)
{
	uint32_t n = get_u32(in);
	/* per node: 4 u32 arrays, 2 u8, 11 doubles */
	if (n == 0 || !fits(in, n, 4 * 4 + 2 + 11 * 8))
		return false;
	uint32_t *parent = malloc((size_t)n * sizeof(*parent));
	uint32_t *name = malloc((size_t)n * sizeof(*name));
	uint8_t *kind = malloc(n);
	bool ok = parent && name && kind && get(in, parent, 4ull * n) &&
		  get(in, name, 4ull * n) && get(in, kind, n) &&
		  parent[0] == MODEL_NONE;
	/* replayed in order: every parent comes before its children */
	for (uint32_t i = 1; i < n && ok; i++)
		ok = parent[i] < i && name[i] < r->index_strings &&
		     kind[i] <= NODE_ADDRESS &&
		     gpu_run_child(r, parent[i], kind[i], name[i]) == i;
	free(parent);
	free(name);
	free(kind);
	if (!ok || r->n_nodes != n)
		return false;
	ok = get(in, r->profile, 4ull * n) && get(in, r->present, n);
	for (uint32_t i = 0; i < n && ok; i++)
		ok = r->profile[i] == MODEL_NONE ||
		     r->profile[i] < r->index_profiles;
#define GET_ARRAY(a) ok = ok && get(in, r->a, 8ull * n);
	NODE_DOUBLES(GET_ARRAY)
#undef GET_ARRAY
	uint32_t n_counters = ok ? get_u32(in) : 0;
	ok = ok && fits(in, n_counters, 4 + 8ull * n);
	for (uint32_t k = 0; k < n_counters && ok; k++) {
		uint32_t label = get_u32(in);
		const struct model *m = model_builder_peek(r->b);
		ok = in->ok && label < r->index_strings &&
		     gpu_run_counter(r, model_str(m, label)) == k &&
		     get(in, r->counter[k], 8ull * n);
	}
	return ok;
}

static bool load_split(struct gpu_run *r, struct in *in)
{
	if (!get_map(in, &r->queue_split, 0))
		return false;
	uint32_t n = get_u32(in);
	if (!fits(in, n, 16))
		return false;
	for (size_t i = 0; i < r->queue_split.cap; i++)
		if (r->queue_split.slot[i].used &&
		    r->queue_split.slot[i].val >= n)
			return false;
	r->split_gpu = malloc((size_t)n * sizeof(double) + 8);
	r->split_calls = malloc((size_t)n * sizeof(double) + 8);
	if (!r->split_gpu || !r->split_calls)
		return false;
	r->n_split = r->cap_split = n;
	return get(in, r->split_gpu, 8ull * n) &&
	       get(in, r->split_calls, 8ull * n);
}

static bool load_sets(struct gpu_run *r, struct in *in)
{
	for (size_t i = 0; i < r->n_files; i++) {
		struct gpu_run_file *f = &r->files[i];
		uint64_t n = get_u64(in);
		if (n == 0 || !fits(in, n, 8))
			return false;
		f->sets = calloc(n, sizeof(*f->sets));
		if (!f->sets)
			return false;
		f->n_sets = n;
		for (size_t s = 0; s < n; s++) {
			struct gpu_run_set *set = &f->sets[s];
			uint32_t len;
			const char *suffix = get_text(in, &len);
			if (!suffix || !(set->suffix = strndup(suffix, len)))
				return false;
			uint32_t flags = get_u32(in);
			set->has_copy = flags & 1;
			set->has_pmc = flags >> 1 & 1;
			set->has_arg = flags >> 2 & 1;
			set->has_alloc = flags >> 3 & 1;
			set->has_copyapi = flags >> 4 & 1;
			set->has_kernelapi = flags >> 5 & 1;
			set->has_monitor = flags >> 6 & 1;
			set->opt = get_u32(in);
			if (!get_map(in, &set->strings, r->index_strings) ||
			    !get_map(in, &set->kernels, r->index_strings) ||
			    !get_map(in, &set->threads, r->n_nodes) ||
			    !get_map(in, &set->procs, r->n_nodes) ||
			    !get_map(in, &set->thread_profiles,
				     r->index_profiles))
				return false;
		}
	}
	return in->ok;
}

static bool load_lines(struct gpu_run *r, struct in *in)
{
	uint32_t n = get_u32(in);
	if (!fits(in, n, 64)) /* a line's fields */
		return false;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t file = get_u32(in), set = get_u32(in),
			 kind = get_u32(in);
		uint64_t a = get_u64(in), b = get_u64(in);
		uint32_t label = get_u32(in), profile = get_u32(in);
		uint64_t count = get_u64(in);
		uint64_t first = get_u64(in), last = get_u64(in);
		uint32_t unit = get_u32(in);
		uint64_t n_inst = get_u64(in);
		uint32_t group = get_u32(in);
		if (!in->ok || file >= r->n_files ||
		    group > TIMELINE_GROUP_STREAM ||
		    (kind == GPU_RUN_LINE_COUNTER && n_inst != 0) ||
		    set >= r->files[file].n_sets ||
		    kind > GPU_RUN_LINE_ALT || label >= r->index_strings ||
		    unit >= r->index_strings ||
		    (profile != MODEL_NONE && profile >= r->index_profiles))
			return false;
		const struct model *m = model_builder_peek(r->b);
		uint32_t l = gpu_run_line(r, file, set, (uint8_t)kind, a, b,
					  model_str(m, label), profile);
		if (l != i)
			return false;
		struct gpu_run_line *line = &r->lines[l];
		line->count = count;
		line->first = first;
		line->last = last;
		line->unit = unit;
		line->n_inst = n_inst;
		line->group = (uint8_t)group;
		/* interval indexes are 32 bits (up, links) */
		if (kind != GPU_RUN_LINE_COUNTER) {
			if (count > UINT32_MAX)
				return false;
			continue;
		}
		if (!fits(in, count, 16))
			return false;
		line->times = malloc(count * sizeof(*line->times) + 8);
		line->values = malloc(count * sizeof(*line->values) + 8);
		if (!line->times || !line->values ||
		    !get(in, line->times, 8 * count) ||
		    !get(in, line->values, 8 * count))
			return false;
	}
	return true;
}

static uint64_t ident_hash(const struct ident *id)
{
	return fnv(fnv(0xcbf29ce484222325ull, id->real, strlen(id->real)),
		   &id->id, sizeof(id->id));
}

bool gpu_run_index_unchanged(struct gpu_run *r, uint32_t fi)
{
	struct ident id = {0};
	bool same = fi < r->n_files &&
		    (id.real = realpath(r->files[fi].path, NULL)) &&
		    file_identity(id.real, &id.id) &&
		    ident_hash(&id) == r->files[fi].id_hash;
	free(id.real);
	return same;
}

bool gpu_run_index_load(struct gpu_run *r)
{
	if (!r->index_base || !r->b || r->n_nodes != 1)
		return false;
	struct ident *ids = NULL;
	if (!identities(r, &ids))
		return false;
	char *path = NULL;
	void *base = NULL;
	size_t len = 0;
	bool ok = asprintf(&path, "%s.run", r->index_base) >= 0 &&
		  map_file(path, &base, &len);
	free(path);
	if (!ok) {
		idents_free(r, ids);
		return false;
	}
	/* the run file's values are checked by its CRC (the interval files
	 * only by their structure: they are large, and read when a probe
	 * needs them) */
	uint32_t crc_stored = 0;
	ok = len > 4;
	if (ok) {
		memcpy(&crc_stored, (const char *)base + len - 4, 4);
		uLong c = crc32(0L, Z_NULL, 0);
		for (size_t done = 0; done < len - 4;) {
			uInt part = len - 4 - done > (1u << 30)
					    ? 1u << 30
					    : (uInt)(len - 4 - done);
			c = crc32(c, (const Bytef *)base + done, part);
			done += part;
		}
		ok = (uint32_t)c == crc_stored;
	}
	struct in in = {.s = {base, ok ? len - 4 : 0}, .ok = ok};
	uint64_t stamp = 0;
	ok = ok && check_header(&in, RUN_MAGIC, r, ids, &stamp) && stamp &&
	     load_strings(r, &in) && load_profiles(r, &in) &&
	     load_nodes(r, &in) && load_split(r, &in) && load_sets(r, &in) &&
	     load_lines(r, &in);
	for (size_t i = 0; ok && i < r->n_files; i++) {
		r->file_host[i] = get_u32(&in);
		ok = in.ok && (r->file_host[i] < r->index_strings ||
			       r->file_host[i] == MODEL_NONE);
	}
	if (ok) {
		r->time_min = get_u64(&in);
		r->time_max = get_u64(&in);
		r->skipped_rows = get_u64(&in);
		r->unlinked = get_u64(&in);
		r->unattributed = get_u32(&in);
		char end[4];
		ok = get(&in, end, 4) && memcmp(end, "END.", 4) == 0 &&
		     in.at == len - 4 && r->unattributed < r->n_nodes;
	}
	munmap(base, len);
	for (size_t i = 0; ok && i < r->n_files; i++)
		r->files[i].id_hash = ident_hash(&ids[i]);
	idents_free(r, ids);
	if (ok) {
		r->index_stamp = stamp;
		/* used now: the last to go when the directory is pruned */
		char *run = NULL;
		if (asprintf(&run, "%s.run", r->index_base) >= 0)
			utimensat(AT_FDCWD, run, NULL, 0);
		free(run);
	}
	return ok;
}

bool gpu_run_index_load_file(struct gpu_run *r, uint32_t fi)
{
	struct gpu_run_file *f = &r->files[fi];
	if (!r->index_base || !r->index_stamp)
		return false;
	struct ident *ids = NULL;
	if (!identities(r, &ids))
		return false;
	char *path = NULL;
	void *base = NULL;
	size_t len = 0;
	bool ok = asprintf(&path, "%s.f%" PRIu32, r->index_base, fi) >= 0 &&
		  map_file(path, &base, &len);
	free(path);
	if (!ok) {
		idents_free(r, ids);
		return false;
	}
	struct in in = {.s = {base, len}, .ok = true};
	uint64_t stamp = 0;
	ok = check_header(&in, IV_MAGIC, r, ids, &stamp) &&
	     stamp == r->index_stamp && get_u32(&in) == fi;
	idents_free(r, ids);
	uint32_t want = 0;
	for (uint32_t i = 0; i < r->n_lines; i++)
		want += r->lines[i].file == fi &&
			r->lines[i].kind != GPU_RUN_LINE_COUNTER;
	ok = ok && get_u32(&in) == want;
	/* every line of the file, each checked before any is used */
	struct gpu_run_iv **at = calloc(want ? want : 1, sizeof(*at));
	struct gpu_run_instant **inst = calloc(want ? want : 1, sizeof(*inst));
	uint32_t *which = calloc(want ? want : 1, sizeof(*which));
	ok = ok && at && inst && which;
	for (uint32_t k = 0; k < want && ok; k++) {
		uint32_t i = get_u32(&in);
		uint64_t n = get_u64(&in);
		in.at = (in.at + 7) & ~(uint64_t)7;
		ok = in.ok && i < r->n_lines && r->lines[i].file == fi &&
		     r->lines[i].kind != GPU_RUN_LINE_COUNTER &&
		     r->lines[i].count == n && !r->lines[i].iv &&
		     (k == 0 || i > which[k - 1]) &&
		     fits(&in, n, sizeof(struct gpu_run_iv));
		if (!ok)
			break;
		/* the intervals themselves are checked where they are read
		 * (gpu_run.c: context, enclosing and link indexes), so that
		 * a probe touches only the pages it reads */
		at[k] = (struct gpu_run_iv *)(void *)((char *)base + in.at);
		which[k] = i;
		in.at += n * sizeof(struct gpu_run_iv);
		/* then the line's instants */
		uint64_t ni = get_u64(&in);
		in.at = (in.at + 7) & ~(uint64_t)7;
		ok = in.ok && r->lines[i].n_inst == ni &&
		     fits(&in, ni, sizeof(struct gpu_run_instant));
		if (!ok)
			break;
		inst[k] = (struct gpu_run_instant *)(void *)((char *)base +
							     in.at);
		in.at += ni * sizeof(struct gpu_run_instant);
	}
	char end[4];
	ok = ok && get(&in, end, 4) && memcmp(end, "END.", 4) == 0 &&
	     in.at == len;
	if (ok) {
		for (uint32_t k = 0; k < want; k++) {
			struct gpu_run_line *l = &r->lines[which[k]];
			l->iv = at[k];
			l->filled = l->count;
			l->inst = l->n_inst ? inst[k] : NULL;
			l->inst_filled = l->n_inst;
		}
		f->iv_map = base;
		f->iv_map_len = len;
	} else {
		munmap(base, len);
	}
	free(at);
	free(inst);
	free(which);
	return ok;
}

/* ---- listing ------------------------------------------------------------- */

/* The first file and the file count a run file's header names. */
static void describe(int dirfd_, const char *name, char **first,
		     uint32_t *n_files)
{
	*first = NULL;
	*n_files = 0;
	int fd = openat(dirfd_, name, O_RDONLY | O_CLOEXEC);
	char head[8192];
	ssize_t got = fd >= 0 ? read(fd, head, sizeof(head)) : -1;
	if (fd >= 0)
		close(fd);
	struct in in = {.s = {(const uint8_t *)head, got > 0 ? (uint64_t)got : 0},
			.ok = got > 0};
	char magic[8];
	uint32_t len;
	if (!get(&in, magic, 8) || memcmp(magic, RUN_MAGIC, 8) != 0)
		return;
	get_u32(&in);
	get_u32(&in);
	get_u32(&in);
	get_text(&in, &len); /* version */
	get_text(&in, &len); /* family */
	uint64_t n = get_u64(&in);
	const char *p = get_text(&in, &len);
	if (in.ok && p && n > 0 && n <= UINT32_MAX) {
		*first = strndup(p, len);
		*n_files = (uint32_t)n;
	}
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct gpu_run_index_entry *a = pa, *b = pb;
	return strcmp(a->path, b->path);
}

enum status gpu_run_index_list(const char *dir,
			       struct gpu_run_index_entry **out, size_t *n,
			       struct error *err)
{
	*out = NULL;
	*n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return STATUS_OK;
	struct gpu_run_index_entry *v = NULL;
	size_t cap = 0;
	enum status st = STATUS_OK;
	struct dirent *e;
	while (st == STATUS_OK && (e = readdir(d))) {
		struct stat sb;
		if (strlen(e->d_name) < 18 || e->d_name[16] != '.' ||
		    fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(sb.st_mode))
			continue;
		size_t i = 0;
		while (i < *n && strncmp(v[i].path + strlen(dir) + 1, e->d_name,
					 16) != 0)
			i++;
		if (i == *n) {
			if (*n == cap) {
				size_t nc = cap ? cap * 2 : 16;
				struct gpu_run_index_entry *g =
					realloc(v, nc * sizeof(*g));
				if (!g) {
					st = error_set(err, STATUS_NOMEM, dir,
						       "out of memory");
					break;
				}
				v = g;
				cap = nc;
			}
			memset(&v[i], 0, sizeof(v[i]));
			if (asprintf(&v[i].path, "%s/%.16s", dir, e->d_name) < 0) {
				v[i].path = NULL;
				st = error_set(err, STATUS_NOMEM, dir,
					       "out of memory");
				break;
			}
			(*n)++;
		}
		v[i].bytes += (uint64_t)sb.st_size;
		if ((int64_t)sb.st_mtim.tv_sec > v[i].date)
			v[i].date = (int64_t)sb.st_mtim.tv_sec;
		if (strcmp(e->d_name + 16, ".run") == 0)
			describe(dirfd(d), e->d_name, &v[i].first,
				 &v[i].n_files);
	}
	closedir(d);
	for (size_t i = 0; st == STATUS_OK && i < *n; i++)
		if (!v[i].first && !(v[i].first = strdup("?")))
			st = error_set(err, STATUS_NOMEM, dir, "out of memory");
	if (st != STATUS_OK) {
		gpu_run_index_list_free(v, *n);
		*n = 0;
		return st;
	}
	if (*n > 1)
		qsort(v, *n, sizeof(*v), entry_cmp);
	*out = v;
	return STATUS_OK;
}

void gpu_run_index_list_free(struct gpu_run_index_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].path);
		free(e[i].first);
	}
	free(e);
}
