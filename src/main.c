/* main: the callscope program.  With a batch command it runs it; with a
 * database path (or nothing, meaning the demo database) it shows the
 * database.  Until the viewer lands, "showing" is the batch report. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "sanitize.h"

#ifndef CALLSCOPE_DEMO_DIR
#define CALLSCOPE_DEMO_DIR "demo"
#endif

static bool is_dir(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* $CALLSCOPE_DEMO, then the demo generated in the build tree. */
static const char *find_demo(void)
{
	const char *env = getenv("CALLSCOPE_DEMO");
	if (env && *env)
		return env;
	if (is_dir(CALLSCOPE_DEMO_DIR))
		return CALLSCOPE_DEMO_DIR;
	return NULL;
}

static int show(const char *db, bool demo)
{
	if (demo) {
		fputs("callscope: no database given; showing the demo "
		      "database ",
		      stderr);
		cli_put_text(stderr, db);
		fputs("\n", stderr);
	}
	char report[] = "report", depth[] = "--depth", six[] = "6",
	     min[] = "--min-percent", one[] = "1";
	char *path = strdup(db);
	if (!path)
		return CLI_EXIT_DATA;
	char *argv[] = {report, path, depth, six, min, one, NULL};
	int rc = cli_run(6, argv);
	free(path);
	return rc;
}

int main(int argc, char **argv)
{
	/* `callscope report DB | head` ends quietly */
	signal(SIGPIPE, SIG_DFL);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
			  strcmp(argv[1], "-h") == 0)) {
		cli_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
		puts(PACKAGE_STRING);
		return CLI_EXIT_OK;
	}
	if (argc >= 2) {
		int rc = cli_run(argc - 1, argv + 1);
		if (rc >= 0)
			return rc;
		if (argc > 2 || argv[1][0] == '-') {
			fputs("callscope: unknown command or option '", stderr);
			cli_put_text(stderr, argv[1]);
			fputs("'\nTry 'callscope --help'.\n", stderr);
			return CLI_EXIT_USAGE;
		}
		return show(argv[1], false);
	}
	const char *demo = find_demo();
	if (!demo) {
		fputs("callscope: no database given and no demo database "
		      "found; run `make demo` or give a database path\n",
		      stderr);
		return CLI_EXIT_USAGE;
	}
	return show(demo, true);
}
