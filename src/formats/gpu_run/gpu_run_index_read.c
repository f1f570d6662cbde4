/* gpu_run_index_read: reading a GPU run's index (gpu_run_index.c says
 * what it is): the run file checked whole (header, identities, every count
 * and index, the CRC-32) and loaded into the run; an interval file mapped
 * read-only and checked by structure; and the listing of a cache
 * directory's runs (callscope's cache commands).  Anything that does not
 * check out is ignored: the run is scanned again. */
#include "config.h"

#include "formats/gpu_run/gpu_run.h"
#include "formats/gpu_run/gpu_run_index_internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/span.h"

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
	/* per node: 4 u32 arrays, 2 u8, 12 doubles */
	if (n == 0 || !fits(in, n, 4 * 4 + 2 + 12 * 8))
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
		     GPU_RUN_KIND_PLAIN(kind[i]) <= NODE_ADDRESS &&
		     GPU_RUN_KIND_GROUP(kind[i]) < GPU_RUN_N_GROUPS &&
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
	return gpu_run_index_fnv(gpu_run_index_fnv(0xcbf29ce484222325ull, id->real, strlen(id->real)),
		   &id->id, sizeof(id->id));
}

bool gpu_run_index_unchanged(struct gpu_run *r, uint32_t fi)
{
	struct ident id = {0};
	bool same = fi < r->n_files &&
		    (id.real = realpath(r->files[fi].path, NULL)) &&
		    gpu_run_index_file_identity(id.real, &id.id) &&
		    ident_hash(&id) == r->files[fi].id_hash;
	free(id.real);
	return same;
}

/* The identities of the run's files (*ids, for check_header) and the
 * index's file "BASE.NAME" mapped (*base, *len); false, nothing kept,
 * when either fails. */
static bool map_index_file(struct gpu_run *r, const char *name,
			   struct ident **ids, void **base, size_t *len)
{
	if (!gpu_run_index_identities(r, ids))
		return false;
	char *path = NULL;
	bool ok = asprintf(&path, "%s.%s", r->index_base, name) >= 0 &&
		  map_file(path, base, len);
	free(path);
	if (!ok)
		gpu_run_index_idents_free(r, *ids);
	return ok;
}

bool gpu_run_index_load(struct gpu_run *r)
{
	if (!r->index_base || !r->b || r->n_nodes != 1)
		return false;
	struct ident *ids = NULL;
	void *base = NULL;
	size_t len = 0;
	if (!map_index_file(r, "run", &ids, &base, &len))
		return false;
	/* the run file's values are checked by its CRC (the interval files
	 * only by their structure: they are large, and read when a probe
	 * needs them) */
	uint32_t crc_stored = 0;
	bool ok = len > 4;
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
	gpu_run_index_idents_free(r, ids);
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
	void *base = NULL;
	size_t len = 0;
	char name[16];
	snprintf(name, sizeof(name), "f%" PRIu32, fi);
	if (!map_index_file(r, name, &ids, &base, &len))
		return false;
	struct in in = {.s = {base, len}, .ok = true};
	uint64_t stamp = 0;
	bool ok = check_header(&in, IV_MAGIC, r, ids, &stamp) &&
	     stamp == r->index_stamp && get_u32(&in) == fi;
	gpu_run_index_idents_free(r, ids);
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
	const struct reader_cache_entry *a = pa, *b = pb;
	return strcmp(a->path, b->path);
}

enum status gpu_run_index_list(const char *dir,
			       struct reader_cache_entry **out, size_t *n,
			       struct error *err)
{
	*out = NULL;
	*n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return STATUS_OK;
	struct reader_cache_entry *v = NULL;
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
				struct reader_cache_entry *g =
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
			v[i].kind = "run index";
			v[i].label = "index of a GPU run";
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
		reader_cache_list_free(v, *n);
		*n = 0;
		return st;
	}
	if (*n > 1)
		qsort(v, *n, sizeof(*v), entry_cmp);
	*out = v;
	return STATUS_OK;
}
