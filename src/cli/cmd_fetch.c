/* cmd_fetch: `callscope fetch URL [-o DIR]` downloads what a URL names
 * (all of a database directory's files, or one file) into the cache or
 * DIR, without opening it, and prints the local path.  Must not depend on
 * curses or on ui/. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "net/http.h"
#include "formats/registry_remote.h"
#include "net/remote_open.h"
#include "open.h"

int cmd_fetch(struct session *s, int argc, char **argv);
int cmd_fetch(struct session *s, int argc, char **argv)
{
	const char *dest = NULL;
	int exit_code;
	const char *url = cli_one_operand("fetch", argc, argv, "one URL", NULL,
					  &dest, &exit_code);
	if (!url)
		return exit_code;
	if (!http_is_url(url)) {
		fputs("callscope fetch: '", stderr);
		present_put_text(stderr, url);
		fputs("' is not a URL\n", stderr);
		return CLI_EXIT_USAGE;
	}
	struct error err = {0};
	char *path = NULL;
	const struct open_options *o = cli_transfer_begin(s);
	enum status st = remote_fetch(url, o, registry_remote_planner(), dest,
				      &path, &err);
	cli_transfer_end();
	if (st != STATUS_OK) {
		cli_put_error(&err, url);
		return CLI_EXIT_DATA;
	}
	present_put_text(stdout, path);
	fputc('\n', stdout);
	free(path);
	return CLI_EXIT_OK;
}
