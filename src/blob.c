/* blob: local implementation of the file access interface (read-only
 * mmap of a whole file, or caller-owned memory).  A remote implementation
 * will sit beside this one behind the same functions.  Depends on POSIX
 * only. */
#include "blob.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Files at least this large are mapped for random access. */
#define BLOB_RANDOM_ACCESS_SIZE ((uint64_t)256 << 20)

struct blob {
	char *name;
	const uint8_t *data;
	uint64_t len;
	bool mapped;
};

static enum status blob_new(const char *name, struct blob **out,
			    struct error *err)
{
	struct blob *blob = calloc(1, sizeof(*blob));
	if (!blob || !(blob->name = strdup(name))) {
		free(blob);
		return error_set(err, STATUS_NOMEM, name, "out of memory");
	}
	*out = blob;
	return STATUS_OK;
}

enum status blob_open_file(const char *path, struct blob **out,
			   struct error *err)
{
	struct blob *blob = NULL;
	enum status st = STATUS_OK;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		return error_set(err,
				 e == ENOENT ? STATUS_NOT_FOUND : STATUS_IO,
				 path, "%s", strerror(e));
	}
	struct stat sb;
	if (fstat(fd, &sb) != 0) {
		st = error_set(err, STATUS_IO, path, "%s", strerror(errno));
		goto out;
	}
	if (!S_ISREG(sb.st_mode)) {
		st = error_set(err, STATUS_IO, path, "not a regular file");
		goto out;
	}
	st = blob_new(path, &blob, err);
	if (st != STATUS_OK)
		goto out;
	blob->len = (uint64_t)sb.st_size;
	if (blob->len > 0) {
		void *p = mmap(NULL, (size_t)blob->len, PROT_READ, MAP_PRIVATE,
			       fd, 0);
		if (p == MAP_FAILED) {
			st = error_set(err, STATUS_IO, path, "cannot map: %s",
				       strerror(errno));
			goto out;
		}
		blob->data = p;
		blob->mapped = true;
		/* Large files are read where binary searches land (trace
		 * lines, value blocks): read-ahead around each probe would
		 * only fill memory with pages nobody looks at. */
		if (blob->len >= BLOB_RANDOM_ACCESS_SIZE)
			madvise(p, (size_t)blob->len, MADV_RANDOM);
	}
	*out = blob;
	blob = NULL;
out:
	close(fd);
	blob_close(blob);
	return st;
}

enum status blob_open_memory(const void *data, uint64_t len, const char *name,
			     struct blob **out, struct error *err)
{
	struct blob *blob = NULL;
	enum status st = blob_new(name ? name : "<memory>", &blob, err);
	if (st != STATUS_OK)
		return st;
	blob->data = data;
	blob->len = len;
	*out = blob;
	return STATUS_OK;
}

uint64_t blob_size(const struct blob *blob)
{
	return blob->len;
}

const char *blob_name(const struct blob *blob)
{
	return blob->name;
}

enum status blob_map_all(struct blob *blob, struct span *out,
			 struct error *err)
{
	(void)err;
	out->data = blob->data;
	out->len = blob->len;
	return STATUS_OK;
}

enum status blob_read(struct blob *blob, uint64_t off, uint64_t len,
		      struct span *out, struct error *err)
{
	struct span all = {blob->data, blob->len};
	if (!span_sub(all, off, len, out))
		return error_set_at(err, STATUS_CORRUPT, blob->name, off,
				    "%llu bytes wanted past the end of the "
				    "file (size %llu)",
				    (unsigned long long)len,
				    (unsigned long long)blob->len);
	return STATUS_OK;
}

void blob_close(struct blob *blob)
{
	if (!blob)
		return;
	if (blob->mapped)
		munmap((void *)blob->data, (size_t)blob->len);
	free(blob->name);
	free(blob);
}
