/* remote-cli: a test-only front end to the batch commands that registers
 * files as remote first, standing in for the URL opening of the program:
 *   remote-cli [--remote LOCAL_PATH=URL]... [--exec SHELL_CMD] COMMAND ARGS...
 * Each LOCAL_PATH is then read lazily from URL (blob_register_remote, the
 * blocks persisted in LOCAL_PATH.blocks); SHELL_CMD runs after the
 * registrations (a test switches a server fault on between the probe and
 * the reads); the command runs as `callscope COMMAND ARGS...` would.  Exit
 * status as the CLI's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/blob.h"
#include "cli/cli.h"
#include "net/open_options.h"
#include "net/session.h"

#include "dump_error.h"

int main(int argc, char **argv)
{
	struct open_options o;
	open_options_init(&o);
	int i = 1;
	while (i + 1 < argc && strcmp(argv[i], "--remote") == 0) {
		char *spec = argv[i + 1], *eq = strchr(spec, '=');
		if (!eq) {
			fprintf(stderr, "remote-cli: --remote LOCAL=URL\n");
			return 1;
		}
		*eq = '\0';
		struct error err = {0};
		if (blob_register_remote(spec, eq + 1, &o, &err) != STATUS_OK) {
			return dump_error("remote-cli", &err);
		}
		i += 2;
	}
	if (i + 1 < argc && strcmp(argv[i], "--exec") == 0) {
		if (system(argv[i + 1]) != 0) {
			fprintf(stderr, "remote-cli: --exec failed\n");
			return 1;
		}
		i += 2;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: remote-cli [--remote LOCAL=URL]... "
				"[--exec CMD] COMMAND ARGS...\n");
		return 1;
	}
	struct session session;
	session_init(&session, &o);
	int rc = cli_run(&session, argc - i, argv + i);
	blob_unregister_all();
	return rc < 0 ? 1 : rc;
}
