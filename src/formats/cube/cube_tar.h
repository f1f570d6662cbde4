/* cube_tar: the member table of a Cube4 .cubex file (a POSIX tar), read
 * with our own bounded header walk, without extracting anything; or the
 * files of a directory holding anchor.xml and the N.index / N.data files.
 * Members are read later, lazily, through the blob of the container.
 *
 * Why our own walk: libarchive (and GNU tar) refuse the files written by
 * Cube 4.8, whose every header checksum is exactly 32 lower than the
 * correct sum; the walk checks each header's structure and its checksum,
 * and accepts that one known defect (reported as a warning) and nothing
 * else.  Depends on core/ and io/. */
#ifndef CALLSCOPE_CUBE_TAR_H
#define CALLSCOPE_CUBE_TAR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "io/blob.h"

/* At most this many members (a Cube file has 2 per metric + 2). */
#define CUBE_TAR_MAX_MEMBERS 65536

struct cube_member {
	char *name;      /* member name (tar) or file name (directory) */
	uint64_t offset; /* of the member's bytes in the container */
	uint64_t size;
	struct blob *blob; /* directory input: the file (owned), else NULL:
			      the container's tar */
};

struct cube_container {
	char *name;               /* the path given, for messages */
	struct blob *blob;        /* the tar; NULL for a directory */
	struct cube_member *members;
	uint32_t n_members;
	uint32_t checksum_bug;    /* headers with the Cube 4.8 checksum */
	bool no_end_marker;       /* the tar ends without zero blocks */
};

/* Index the members of the tar file `path` (checksums verified, the Cube
 * 4.8 bug tolerated), or the files of directory `path`.  STATUS_CORRUPT
 * with the offset for a bad header, a member running past the end of the
 * file, too many members. */
enum status cube_container_open(const char *path, bool is_dir,
				struct cube_container *out, struct error *err);

/* The same on a blob the caller opened (tests, fuzz targets); the
 * container takes the blob (closed by cube_container_close, also on
 * failure). */
enum status cube_container_open_blob(struct blob *blob, const char *name,
				     struct cube_container *out,
				     struct error *err);

/* The member called `name`, or NULL. */
const struct cube_member *cube_container_find(const struct cube_container *c,
					      const char *name);

/* The window [off, off+len) of member `m` (blob_read: valid until the
 * same thread's next read of the container).  STATUS_CORRUPT when the
 * range lies outside the member. */
enum status cube_member_read(const struct cube_container *c,
			     const struct cube_member *m, uint64_t off,
			     uint64_t len, struct span *out, struct error *err);

void cube_container_close(struct cube_container *c);

#endif
