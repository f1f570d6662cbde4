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

static int why_fail(const char *cmd, char *why)
{
	fprintf(stderr, "callscope %s: ", cmd);
	present_put_text(stderr, why ? why : "out of memory");
	fputc('\n', stderr);
	free(why);
	return CLI_EXIT_DATA;
}

/* Pair the metrics: each --metric NAME in both runs, or BASE=NEW (split
 * at the first '=' that is not part of a column name of the base). */
static int pair(const char *cmd, struct cli_diff *cd, const struct model *b,
		const struct model *n, struct diff_metric **out, size_t *nout)
{
	size_t want = cd->n_metrics ? cd->n_metrics : 1;
	struct diff_metric *dm = calloc(want, sizeof(*dm));
	char *why = NULL;
	if (!dm)
		return why_fail(cmd, NULL);
	if (cd->n_metrics == 0 && !diff_pair_default(b, n, &dm[0], &why)) {
		free(dm);
		return why_fail(cmd, why);
	}
	for (size_t i = 0; i < cd->n_metrics; i++) {
		const char *spec = cd->metrics[i];
		const char *eq = strchr(spec, '=');
		bool ok;
		if (eq && model_find_column(b, spec) == MODEL_NONE) {
			char *bs = strndup(spec, (size_t)(eq - spec));
			ok = bs &&
			     diff_pair_metric(b, bs, n, eq + 1, &dm[i], &why);
			free(bs);
		} else {
			ok = diff_pair_metric(b, spec, n, spec, &dm[i], &why);
		}
		if (!ok) {
			free(dm);
			return why_fail(cmd, why);
		}
	}
	*out = dm;
	*nout = want;
	return CLI_EXIT_OK;
}

int cli_diff_open(struct session *s, const char *cmd, struct cli_diff *cd)
{
	struct model *b = cli_open(s, cd->base_path);
	struct model *n = b ? cli_open(s, cd->new_path) : NULL;
	struct diff_metric *dm = NULL;
	size_t ndm = 0;
	struct error err = {0};
	struct diff *d = NULL;
	int rc = CLI_EXIT_DATA;
	char *title = NULL;
	if (!b || !n || !cli_load_all(b) || !cli_load_all(n))
		goto out;
	if ((rc = pair(cmd, cd, b, n, &dm, &ndm)) != CLI_EXIT_OK)
		goto out;
	rc = CLI_EXIT_DATA;
	if (diff_build(b, n, dm, ndm, &cd->opt, &d, &err) != STATUS_OK) {
		cli_put_error(&err, "cannot compare");
		goto out;
	}
	if (cli_value_error(b) || cli_value_error(n)) {
		diff_free(d);
		goto out;
	}
	cd->base_format = strdup(b->format ? b->format : "");
	cd->new_format = strdup(n->format ? n->format : "");
	if (asprintf(&title, "%s -> %s", cd->base_path, cd->new_path) < 0)
		title = NULL;
	cd->diff = d;
	cd->model = diff_model_new(d, title ? title : "diff", cd->mark, &err);
	if (!cd->model) {
		cd->diff = NULL;
		cli_put_error(&err, "cannot compare");
		goto out;
	}
	rc = CLI_EXIT_OK;
out:
	free(title);
	free(dm);
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
