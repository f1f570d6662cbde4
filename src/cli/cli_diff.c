/* cli_diff: opening two runs as one merged tree for `diff` and `check`
 * (cli_diff.h).  Must not depend on curses or on ui/. */
#include "config.h"

#include "cli/cli_diff.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

bool cli_diff_parse_match(const char *cmd, const char *arg,
			  enum diff_match *out)
{
	if (strcmp(arg, "path") == 0)
		*out = DIFF_MATCH_PATH;
	else if (strcmp(arg, "function") == 0)
		*out = DIFF_MATCH_FUNCTION;
	else {
		fprintf(stderr, "callscope %s: unknown --match '", cmd);
		present_put_text(stderr, arg);
		fputs("' (expected path or function)\n", stderr);
		return false;
	}
	return true;
}

int cli_diff_open(struct session *s, const char *cmd, struct cli_diff *cd)
{
	struct model *b = cli_open(s, cd->base_path);
	struct model *n = b ? cli_open(s, cd->new_path) : NULL;
	struct error err = {0};
	int rc = CLI_EXIT_DATA;
	char *title = NULL;
	if (!b || !n || !cli_load_all(b) || !cli_load_all(n))
		goto out;
	if (asprintf(&title, "%s -> %s", cd->base_path, cd->new_path) < 0)
		title = NULL;
	struct diff_request rq = {
		.metrics = (const char *const *)cd->metrics,
		.n_metrics = cd->n_metrics,
		.opt = cd->opt,
		.mark = cd->mark,
		.title = title,
	};
	enum status st = diff_open_models(b, n, &rq, &cd->model, &cd->diff,
					  &err);
	if (st == STATUS_USAGE) { /* a pair that cannot be compared */
		fprintf(stderr, "callscope %s: ", cmd);
		present_put_text(stderr, err.message ? err.message : "?");
		fputc('\n', stderr);
		error_clear(&err);
		goto out;
	}
	if (st != STATUS_OK) {
		cli_put_error(&err, "cannot compare");
		goto out;
	}
	cd->base_format = strdup(b->format ? b->format : "");
	cd->new_format = strdup(n->format ? n->format : "");
	rc = CLI_EXIT_OK;
out:
	free(title);
	model_free(b);
	model_free(n);
	error_clear(&err);
	return rc;
}

void cli_diff_close(struct cli_diff *cd)
{
	model_free(cd->model);
	cd->model = NULL;
	cd->diff = NULL;
	free(cd->base_format);
	free(cd->new_format);
	cd->base_format = cd->new_format = NULL;
}
