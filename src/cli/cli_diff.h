/* cli_diff: what `callscope diff` and `callscope check` share: open the
 * two runs, pair their metrics (--metric M or BASE=NEW; the default pair
 * otherwise), build the merged tree and make it a model (compare/).
 * Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_CLI_DIFF_H
#define CALLSCOPE_CLI_DIFF_H

#include "compare/diff_open.h"
#include "net/session.h"

struct cli_diff {
	const char *base_path, *new_path;
	char **metrics; /* --metric arguments */
	size_t n_metrics;
	struct diff_options opt;
	bool mark; /* new and gone names marked (diff_model_new) */
	/* out */
	struct model *model; /* the merged tree; owns `diff` */
	struct diff *diff;
	char *base_format, *new_format;
};

/* Open, pair, build; the exit status (CLI_EXIT_DATA after printing why:
 * an unreadable run, a pair that cannot be compared). */
int cli_diff_open(struct session *s, const char *cmd, struct cli_diff *cd);
void cli_diff_close(struct cli_diff *cd);

/* "--match" values. */
bool cli_diff_parse_match(const char *cmd, const char *arg,
			  enum diff_match *out);

#endif
