/* file_tree: file_tree_remove() with nftw, depth first, physical (links
 * are removed, not followed), on one file system.  Depends on libc and the
 * status module only. */
#include "config.h"

#include "core/file_tree.h"

#include <errno.h>
#include <ftw.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int remove_one(const char *path, const struct stat *sb, int flag,
		      struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	int rc = flag == FTW_DP ? rmdir(path) : unlink(path);
	return rc != 0 && errno != ENOENT ? -1 : 0;
}

enum status file_tree_remove(const char *path, struct error *err)
{
	struct stat sb;
	if (!path)
		return error_set(err, STATUS_USAGE, NULL, "no path to remove");
	if (lstat(path, &sb) != 0)
		return errno == ENOENT ? STATUS_OK
				       : error_set(err, STATUS_IO, path, "%s",
						   strerror(errno));
	if (!S_ISDIR(sb.st_mode)) {
		if (unlink(path) != 0 && errno != ENOENT)
			return error_set(err, STATUS_IO, path,
					 "cannot remove: %s", strerror(errno));
		return STATUS_OK;
	}
	if (nftw(path, remove_one, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) != 0)
		return error_set(err, STATUS_IO, path, "cannot remove: %s",
				 strerror(errno));
	return STATUS_OK;
}
