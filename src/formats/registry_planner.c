/* registry_planner: the registry as net/'s planner for a directory URL
 * (handed to net/ by src/open.c and `callscope fetch`): the server's
 * listing goes to the reader registry (registry_remote.c), whose chosen
 * reader says which files it reads and which it reads in parts (those may
 * stay on the server and be read by range); net/ fetches them knowing no
 * format.  Must not depend on curses or on ui/. */
#include "config.h"

#include <stdlib.h>

#include "formats/registry_remote.h"
#include "net/remote_open.h"

/* reader_file_flag bits to remote_file_flag bits. */
static unsigned remote_flags(unsigned f)
{
	return (f & READER_FILE_LAZY ? REMOTE_FILE_LAZY : 0) |
	       (f & READER_FILE_KEY ? REMOTE_FILE_KEY : 0) |
	       (f & READER_FILE_KEY_ALL ? REMOTE_FILE_KEY_ALL : 0);
}

static enum status plan(void *ctx, const char *url,
			const struct remote_listing *l,
			struct remote_file **out, size_t *n,
			struct error *err)
{
	(void)ctx;
	*out = NULL;
	*n = 0;
	struct reader_listing rl = {
		.files = (const char *const *)l->files,
		.n_files = l->n_files,
		.dirs = (const char *const *)l->dirs,
		.n_dirs = l->n_dirs,
		.listed = (const char *const *)l->listed,
		.n_listed = l->n_listed,
	};
	struct reader_planned *p = NULL;
	size_t k = 0;
	enum status st = reader_plan_listing(url, &rl, &p, &k, NULL, err);
	if (st != STATUS_OK)
		return st;
	*out = calloc(k, sizeof(**out));
	if (!*out) {
		reader_planned_free(p, k);
		return error_set(err, STATUS_NOMEM, url, "out of memory");
	}
	for (size_t i = 0; i < k; i++) {
		(*out)[i] = (struct remote_file){p[i].name,
						 remote_flags(p[i].flags)};
		p[i].name = NULL;
	}
	*n = k;
	reader_planned_free(p, k);
	return STATUS_OK;
}

static enum status guess(void *ctx, char ***out, size_t *n,
			 struct error *err)
{
	(void)ctx;
	return reader_guess_names(out, n, err);
}

static const struct remote_planner planner = {
	.plan = plan,
	.guess = guess,
};

const struct remote_planner *registry_remote_planner(void)
{
	return &planner;
}
