/* cmd_fetch: `callscope fetch URL [-o DIR]` downloads what a URL names
 * (all of a database directory's files, or one file) into the cache or
 * DIR, without opening it, and prints the local path.  Must not depend on
 * curses or on ui/. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "http.h"
#include "remote_open.h"

int cmd_fetch(int argc, char **argv);
int cmd_fetch(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *dest = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			dest = optarg;
			break;
		case 'h':
			cli_usage(stdout);
			return CLI_EXIT_OK;
		default:
			fputs("Try 'callscope --help'.\n", stderr);
			return CLI_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fputs("callscope fetch: expected one URL\n", stderr);
		return CLI_EXIT_USAGE;
	}
	const char *url = argv[optind];
	if (!http_is_url(url)) {
		fputs("callscope fetch: '", stderr);
		cli_put_text(stderr, url);
		fputs("' is not a URL\n", stderr);
		return CLI_EXIT_USAGE;
	}
	struct error err = {0};
	char *path = NULL;
	const struct open_options *o = cli_transfer_begin();
	enum status st = remote_fetch(url, o, dest, &path, &err);
	cli_transfer_end();
	if (st != STATUS_OK) {
		char *line = error_format(&err);
		fputs("callscope: ", stderr);
		cli_put_text(stderr, line ? line : url);
		fputc('\n', stderr);
		free(line);
		error_clear(&err);
		return CLI_EXIT_DATA;
	}
	cli_put_text(stdout, path);
	fputc('\n', stdout);
	free(path);
	return CLI_EXIT_OK;
}
