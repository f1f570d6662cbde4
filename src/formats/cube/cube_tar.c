/* cube_tar: the member table of a .cubex tar (own header walk, see
 * cube_tar.h) or of a directory: an extracted .cubex (anchor.xml, N.index,
 * N.data), or one that holds a single .cubex, read as that file.  Header layout: POSIX.1-1988 ustar
 * (name 0..99, size 124..135, chksum 148..155, typeflag 156, magic
 * 257..262, prefix 345..499), GNU long names ('L') and pax extended
 * headers ('x': path, size).  Depends on core/ and io/. */
#include "config.h"

#include "formats/cube/cube_tar.h"

#include "core/array.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 512
#define MAX_NAME 4096

typedef unsigned long long ull;

/* An octal field (NUL/space terminated), or the GNU base-256 form (high
 * bit of the first byte).  False when neither. */
static bool parse_number(const uint8_t *f, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	if (f[0] & 0x80) {
		if (f[0] != 0x80)
			return false; /* negative or > 2^64 */
		for (size_t i = 1; i < n; i++) {
			if (v >> 56)
				return false;
			v = v << 8 | f[i];
		}
		*out = v;
		return true;
	}
	size_t i = 0;
	while (i < n && f[i] == ' ')
		i++;
	bool digits = false;
	for (; i < n && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v >> 61)
			return false;
		v = v << 3 | (uint64_t)(f[i] - '0');
		digits = true;
	}
	for (; i < n; i++)
		if (f[i] != ' ' && f[i] != '\0')
			return false;
	*out = v;
	return digits;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* ustar: the checksum is the sum of the header's bytes as unsigned with
 * the chksum field taken as eight spaces; historic writers summed signed
 * chars.  Cube 4.8's writer stores exactly 32 less (pycubexr
 * custom_tarinfo.py tolerates any value; we tolerate that one). */
enum cksum { CKSUM_BAD, CKSUM_OK, CKSUM_CUBE48 };

static enum cksum check_sum(const uint8_t *h, uint64_t stored)
{
	uint64_t u = 0;
	int64_t s = 0;
	for (size_t i = 0; i < BLOCK; i++) {
		uint8_t b = i >= 148 && i < 156 ? ' ' : h[i];
		u += b;
		s += (int8_t)b;
	}
	if (stored == u || (s >= 0 && stored == (uint64_t)s))
		return CKSUM_OK;
	if (u >= 32 && stored == u - 32)
		return CKSUM_CUBE48;
	return CKSUM_BAD;
}

static enum status add_member(struct cube_container *c, const char *name,
			      size_t name_len, uint64_t off, uint64_t size,
			      uint32_t *cap, struct error *err)
{
	if (c->n_members >= CUBE_TAR_MAX_MEMBERS)
		return error_set_at(err, STATUS_LIMIT, c->name, off,
				    "more than %u tar members: not a Cube "
				    "file",
				    (unsigned)CUBE_TAR_MAX_MEMBERS);
	if (!array_grow_u32((void **)&c->members, cap,
			    (uint64_t)c->n_members + 1, sizeof(*c->members)))
		return error_set(err, STATUS_NOMEM, c->name, "out of memory");
	char *n = strndup(name, name_len);
	if (!n)
		return error_set(err, STATUS_NOMEM, c->name, "out of memory");
	/* "./anchor.xml" as written by some tar front ends */
	char *base = n;
	while (base[0] == '.' && base[1] == '/')
		base += 2;
	memmove(n, base, strlen(base) + 1);
	c->members[c->n_members++] = (struct cube_member){
		.name = n, .offset = off, .size = size, .blob = NULL};
	return STATUS_OK;
}

/* A pax extended header's records "LEN key=value\n": path and size. */
static enum status read_pax(struct cube_container *c, uint64_t off,
			    uint64_t size, char **path, uint64_t *psize,
			    bool *has_size, struct error *err)
{
	struct span s;
	if (size > 1 << 20)
		return error_set_at(err, STATUS_CORRUPT, c->name, off,
				    "pax header of %llu bytes (limit 1 MiB)",
				    (ull)size);
	enum status st = blob_read(c->blob, off, size, &s, err);
	if (st != STATUS_OK)
		return st;
	uint64_t i = 0;
	while (i < s.len) {
		uint64_t len = 0, j = i;
		while (j < s.len && s.data[j] >= '0' && s.data[j] <= '9' &&
		       len < (1u << 21))
			len = len * 10 + (s.data[j++] - '0');
		if (j >= s.len || s.data[j] != ' ' || len <= j - i ||
		    len > s.len - i)
			return error_set_at(err, STATUS_CORRUPT, c->name, off + i,
					    "pax header: malformed record");
		const char *kv = (const char *)s.data + j + 1;
		size_t kvlen = (size_t)(i + len - (j + 1));
		if (kvlen && kv[kvlen - 1] == '\n')
			kvlen--;
		if (kvlen > 5 && memcmp(kv, "path=", 5) == 0) {
			free(*path);
			*path = strndup(kv + 5, kvlen - 5);
			if (!*path)
				return error_set(err, STATUS_NOMEM, c->name,
						 "out of memory");
		} else if (kvlen > 5 && memcmp(kv, "size=", 5) == 0) {
			uint64_t v = 0;
			for (size_t k = 5; k < kvlen; k++) {
				if (kv[k] < '0' || kv[k] > '9' || v > UINT64_MAX / 10 - 9)
					return error_set_at(
						err, STATUS_CORRUPT, c->name,
						off + i, "pax header: bad size");
				v = v * 10 + (uint64_t)(kv[k] - '0');
			}
			*psize = v;
			*has_size = true;
		}
		i += len;
	}
	return STATUS_OK;
}

/* The checksum and size fields of the header `hdr` at `off`. */
static enum status check_header(struct cube_container *c, uint64_t off,
				const uint8_t *hdr, uint64_t *msize,
				struct error *err)
{
	uint64_t stored = 0;
	if (!parse_number(hdr + 148, 8, &stored))
		return error_set_at(err, STATUS_CORRUPT, c->name, off + 148,
				    "tar header: checksum field is not "
				    "a number (not a tar file, or a "
				    "corrupt one)");
	enum cksum ck = check_sum(hdr, stored);
	if (ck == CKSUM_BAD)
		return error_set_at(err, STATUS_CORRUPT, c->name, off,
				    "tar header: checksum %llo does not "
				    "match the header's bytes",
				    (ull)stored);
	if (ck == CKSUM_CUBE48)
		c->checksum_bug++;
	if (!parse_number(hdr + 124, 12, msize))
		return error_set_at(err, STATUS_CORRUPT, c->name, off + 124,
				    "tar header: size field is not a "
				    "number");
	return STATUS_OK;
}

/* A GNU long name member (type 'L', header at `off`) into *long_name. */
static enum status read_long_name(struct cube_container *c, uint64_t off,
				  uint64_t data, uint64_t msize,
				  char **long_name, struct error *err)
{
	if (msize > MAX_NAME)
		return error_set_at(err, STATUS_CORRUPT, c->name, off,
				    "tar: long name of %llu "
				    "bytes", (ull)msize);
	struct span ln;
	enum status st = blob_read(c->blob, data, msize, &ln, err);
	if (st != STATUS_OK)
		return st;
	free(*long_name);
	*long_name = strndup((const char *)ln.data, msize);
	if (!*long_name)
		return error_set(err, STATUS_NOMEM, c->name, "out of memory");
	return STATUS_OK;
}

/* A regular file member: named by the long name before it, else by the
 * header (ustar: prefix "/" name when magic is "ustar\0" and the prefix
 * is set). */
static enum status add_file(struct cube_container *c, const uint8_t *hdr,
			    const char *long_name, uint64_t data,
			    uint64_t msize, uint32_t *cap, struct error *err)
{
	if (long_name)
		return add_member(c, long_name, strlen(long_name), data, msize,
				  cap, err);
	char name[256 + 2];
	size_t nl = 0, pl = 0;
	if (memcmp(hdr + 257, "ustar\0", 6) == 0)
		pl = strnlen((const char *)hdr + 345, 155);
	if (pl) {
		memcpy(name, hdr + 345, pl);
		name[pl] = '/';
		nl = pl + 1;
	}
	size_t l = strnlen((const char *)hdr, 100);
	memcpy(name + nl, hdr, l);
	nl += l;
	return add_member(c, name, nl, data, msize, cap, err);
}

static enum status walk(struct cube_container *c, struct error *err)
{
	uint64_t size = blob_size(c->blob), off = 0;
	uint32_t cap = 0;
	char *long_name = NULL;
	uint64_t pax_size = 0;
	bool has_pax_size = false;
	enum status st = STATUS_OK;
	for (;;) {
		if (off == size) {
			c->no_end_marker = true; /* tolerated, as GNU tar does */
			break;
		}
		struct span h;
		if (size - off < BLOCK) {
			st = error_set_at(err, STATUS_CORRUPT, c->name, off,
					  "truncated tar: %llu bytes left where "
					  "a 512-byte header should be",
					  (ull)(size - off));
			goto out;
		}
		st = blob_read(c->blob, off, BLOCK, &h, err);
		if (st != STATUS_OK)
			goto out;
		if (all_zero(h.data, BLOCK))
			break; /* end of archive */
		uint8_t hdr[BLOCK];
		memcpy(hdr, h.data, BLOCK);
		uint64_t msize = 0;
		st = check_header(c, off, hdr, &msize, err);
		if (st != STATUS_OK)
			goto out;
		uint8_t type = hdr[156];
		bool file = type == '0' || type == '\0' || type == '7';
		if (file && has_pax_size)
			msize = pax_size;
		uint64_t data = off + BLOCK;
		if (msize > size - data) {
			st = error_set_at(err, STATUS_CORRUPT, c->name, off,
					  "truncated tar: member of %llu bytes "
					  "at 0x%llx runs past the end of the "
					  "file (%llu bytes)",
					  (ull)msize, (ull)data, (ull)size);
			goto out;
		}
		if (type == 'L') {
			st = read_long_name(c, off, data, msize, &long_name,
					    err);
		} else if (type == 'x') {
			st = read_pax(c, data, msize, &long_name, &pax_size,
				      &has_pax_size, err);
		} else {
			/* a file; directories, links, global pax headers:
			 * skipped */
			if (file)
				st = add_file(c, hdr, long_name, data, msize,
					      &cap, err);
			FREE_AND_NULL(long_name);
			has_pax_size = false;
		}
		if (st != STATUS_OK)
			goto out;
		uint64_t padded = msize % BLOCK ? msize + (BLOCK - msize % BLOCK) : msize;
		if (padded > size - data) /* the last member's padding */
			padded = size - data;
		off = data + padded;
	}
out:
	free(long_name);
	return st;
}

static int cmp_member(const void *a, const void *b)
{
	const struct cube_member *x = a, *y = b;
	return strcmp(x->name, y->name);
}

enum status cube_container_open_blob(struct blob *blob, const char *name,
				     struct cube_container *out,
				     struct error *err)
{
	memset(out, 0, sizeof(*out));
	out->blob = blob;
	out->name = strdup(name);
	if (!out->name) {
		cube_container_close(out);
		return error_set(err, STATUS_NOMEM, name, "out of memory");
	}
	enum status st = walk(out, err);
	if (st != STATUS_OK) {
		cube_container_close(out);
		return st;
	}
	/* sorted by name for cube_container_find; a later member of the same
	 * name replaces an earlier one, as tar extraction would: keep order
	 * stable by offset first */
	if (out->n_members > 1)
		qsort(out->members, out->n_members, sizeof(*out->members),
		      cmp_member);
	uint32_t w = 0;
	for (uint32_t i = 0; i < out->n_members; i++) {
		if (w && strcmp(out->members[w - 1].name,
				out->members[i].name) == 0) {
			struct cube_member *prev = &out->members[w - 1];
			if (out->members[i].offset > prev->offset) {
				free(prev->name);
				*prev = out->members[i];
			} else {
				free(out->members[i].name);
			}
			continue;
		}
		out->members[w++] = out->members[i];
	}
	out->n_members = w;
	return STATUS_OK;
}

static enum status open_dir(const char *path, struct cube_container *c,
			    struct error *err)
{
	uint32_t cap = 0;
	enum status st = STATUS_OK;
	DIR *d = opendir(path);
	if (!d)
		return error_set(err, STATUS_IO, path, "cannot list the "
				 "directory");
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *n = e->d_name;
		size_t l = strlen(n);
		bool want = strcmp(n, "anchor.xml") == 0 ||
			    (l > 6 && strcmp(n + l - 6, ".index") == 0) ||
			    (l > 5 && strcmp(n + l - 5, ".data") == 0);
		if (!want)
			continue;
		char *fp = NULL;
		if (asprintf(&fp, "%s/%s", path, n) < 0) {
			st = error_set(err, STATUS_NOMEM, path,
				       "out of memory");
			break;
		}
		if (!blob_path_exists(fp)) {
			free(fp);
			continue;
		}
		struct blob *b = NULL;
		st = blob_open_file(fp, &b, err);
		free(fp);
		if (st != STATUS_OK)
			break;
		st = add_member(c, n, l, 0, blob_size(b), &cap, err);
		if (st != STATUS_OK) {
			blob_close(b);
			break;
		}
		c->members[c->n_members - 1].blob = b;
	}
	closedir(d);
	if (st == STATUS_OK && c->n_members > 1)
		qsort(c->members, c->n_members, sizeof(*c->members),
		      cmp_member);
	return st;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_cubex_name(const char *n)
{
	size_t l = strlen(n);
	return n[0] != '.' && l > 6 && strcmp(n + l - 6, ".cubex") == 0;
}

/* Keep `name` of directory `dir` in names[0..*n) when it is a .cubex there
 * (a file, or a remote file registered: a directory URL reads it by range)
 * and not yet kept; false when out of memory. */
static bool keep_cubex(const char *dir, const char *name, char ***names,
		       size_t *n, size_t *cap)
{
	if (!is_cubex_name(name))
		return true;
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*names)[i], name) == 0)
			return true;
	char *fp = NULL;
	if (asprintf(&fp, "%s/%s", dir, name) < 0)
		return false;
	bool there = blob_path_exists(fp);
	free(fp);
	if (!there)
		return true;
	char *copy = strdup(name);
	if (!copy || !array_grow((void **)names, cap, *n + 1, sizeof(**names))) {
		free(copy);
		return false;
	}
	(*names)[(*n)++] = copy;
	return true;
}

/* The .cubex files of directory `dir` (not starting with '.'), on disk
 * and registered remote, into *names (heap, sorted). */
static enum status dir_cubex(const char *dir, char ***names, size_t *n,
			     struct error *err)
{
	*names = NULL;
	*n = 0;
	size_t cap = 0;
	char **remote = NULL;
	size_t n_remote = 0;
	bool ok = true;
	DIR *d = opendir(dir);
	for (struct dirent *e; ok && d && (e = readdir(d));)
		ok = keep_cubex(dir, e->d_name, names, n, &cap);
	if (d)
		closedir(d);
	enum status st = blob_remote_names_in(dir, &remote, &n_remote, err);
	for (size_t i = 0; i < n_remote; i++) {
		ok = ok && keep_cubex(dir, remote[i], names, n, &cap);
		free(remote[i]);
	}
	free(remote);
	if (st == STATUS_OK && !ok)
		st = error_set(err, STATUS_NOMEM, dir, "out of memory");
	if (st == STATUS_OK && *n > 1)
		qsort(*names, *n, sizeof(**names), cmp_name);
	return st;
}

/* A directory without anchor.xml that holds one .cubex (a profile's
 * folder, as Score-P and pycubexr's test data keep it): that file's path
 * into *file (heap); NULL when the directory has none (read as an
 * extracted .cubex); STATUS_NOT_DATABASE naming them when it has several. */
static enum status dir_profile(const char *path, char **file,
			       struct error *err)
{
	*file = NULL;
	char *anchor = NULL;
	if (asprintf(&anchor, "%s/anchor.xml", path) < 0)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	bool extracted = blob_path_exists(anchor);
	free(anchor);
	if (extracted)
		return STATUS_OK;
	char **names = NULL;
	size_t n = 0;
	enum status st = dir_cubex(path, &names, &n, err);
	if (st == STATUS_OK && n == 1 &&
	    asprintf(file, "%s/%s", path, names[0]) < 0) {
		*file = NULL;
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
	}
	if (st == STATUS_OK && n > 1)
		st = error_set(err, STATUS_NOT_DATABASE, path,
			       "%zu Cube files here (%s, %s%s): open one of "
			       "them",
			       n, names[0], names[1], n > 2 ? ", ..." : "");
	array_free_each(names, n);
	return st;
}

enum status cube_container_open(const char *path, bool is_dir,
				struct cube_container *out, struct error *err)
{
	memset(out, 0, sizeof(*out));
	char *file = NULL;
	if (is_dir) {
		enum status st = dir_profile(path, &file, err);
		if (st != STATUS_OK)
			return st;
	}
	if (is_dir && file) {
		struct blob *b = NULL;
		enum status st = blob_open_file(file, &b, err);
		if (st == STATUS_OK)
			st = cube_container_open_blob(b, file, out, err);
		free(file);
		return st;
	}
	if (is_dir) {
		out->name = strdup(path);
		if (!out->name)
			return error_set(err, STATUS_NOMEM, path,
					 "out of memory");
		enum status st = open_dir(path, out, err);
		if (st != STATUS_OK)
			cube_container_close(out);
		return st;
	}
	struct blob *b = NULL;
	enum status st = blob_open_file(path, &b, err);
	if (st != STATUS_OK)
		return st;
	return cube_container_open_blob(b, path, out, err);
}

static bool member_below(const void *elem, const void *key)
{
	return strcmp(((const struct cube_member *)elem)->name, key) < 0;
}

const struct cube_member *cube_container_find(const struct cube_container *c,
					      const char *name)
{
	size_t i = array_lower_bound(c->members, c->n_members,
				     sizeof(*c->members), member_below, name);
	return i < c->n_members && strcmp(c->members[i].name, name) == 0
		       ? &c->members[i]
		       : NULL;
}

enum status cube_member_read(const struct cube_container *c,
			     const struct cube_member *m, uint64_t off,
			     uint64_t len, struct span *out, struct error *err)
{
	if (m->size < off || len > m->size - off)
		return error_set_at(err, STATUS_CORRUPT, c->name,
				    m->offset + off,
				    "%s: %llu bytes at %llu lie outside the "
				    "member (%llu bytes)",
				    m->name, (ull)len, (ull)off, (ull)m->size);
	return blob_read(m->blob ? m->blob : c->blob, m->offset + off, len,
			 out, err);
}

void cube_container_close(struct cube_container *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < c->n_members; i++) {
		free(c->members[i].name);
		blob_close(c->members[i].blob);
	}
	free(c->members);
	blob_close(c->blob);
	free(c->name);
	memset(c, 0, sizeof(*c));
}
