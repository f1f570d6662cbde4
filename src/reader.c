/* reader: the registry of format readers and database_open(), which asks
 * every reader to bid on a path and lets the highest bidder open it.
 * Must not depend on curses or on ui/. */
#include "reader.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

extern const struct reader reader_hpctoolkit_v4;
extern const struct reader reader_hpctoolkit_xml;

static const struct reader *const readers[] = {
	&reader_hpctoolkit_v4,
	&reader_hpctoolkit_xml,
	NULL,
};

const struct reader *const *reader_all(void)
{
	return readers;
}

enum status database_open(const char *path, struct model **out,
			  struct error *err)
{
	*out = NULL;
	struct stat sb;
	if (stat(path, &sb) != 0)
		return error_set(err,
				 errno == ENOENT ? STATUS_NOT_FOUND
						 : STATUS_IO,
				 path, "%s", strerror(errno));
	const struct reader *best = NULL;
	int best_bid = 0;
	for (const struct reader *const *r = readers; *r; r++) {
		int bid = (*r)->bid(path);
		if (bid > best_bid) {
			best_bid = bid;
			best = *r;
		}
	}
	if (!best)
		return error_set(err, STATUS_NOT_DATABASE, path,
				 "not a database callscope can read "
				 "(expected an HPCToolkit database directory "
				 "with meta.db or experiment.xml)");
	return best->open(path, out, err);
}
