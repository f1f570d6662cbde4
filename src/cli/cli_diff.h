/* cli_diff: what `callscope diff`, `check` and `compare` share: open the
 * two runs, pair their metrics (--metric M or BASE=NEW; the default pair
 * otherwise), build the merged tree and make it a model (compare/);
 * and the options they all take (cli_diff_getopt).
 * Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_CLI_DIFF_H
#define CALLSCOPE_CLI_DIFF_H

#include <getopt.h>

#include "compare/diff_model.h"
#include "present/present_rows.h"
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

/* The options every comparing command (diff, check, compare) takes:
 * --metric M|BASE=NEW (repeatable; with `one_metric` the last counts),
 * --match path|function, --no-normalize, --help, and --depth and
 * --format text|csv|json for those that write a tree; the command's own
 * options go to `own` (its short letters in `shorts`, its long options
 * in `longs`, ended by a zeroed one), and so do the operands, in the
 * order given (c 1: before a "--", c 2: after it), so that an option
 * may name what follows it (compare's --param). */
struct cli_diff_args {
	const char *cmd;
	const char *shorts;
	const struct option *longs;
	int (*own)(void *ctx, int c, const char *arg);
	void *ctx;
	int usage_rc; /* a usage error's exit status */
	bool one_metric;
	/* when set, --depth N and --format text|csv|json are parsed here */
	uint32_t *depth;
	enum present_format *format;
};

/* Parse argv into `cd` (its metrics array is the caller's to free) and
 * through `a->own`: CLI_EXIT_OK, -1 after --help (usage printed), or the
 * exit status of a usage error (message printed). */
int cli_diff_getopt(const struct cli_diff_args *a, int argc, char **argv,
		    struct cli_diff *cd);

/* The tree of a comparison written as `report` writes one: rows in
 * pre-order from the view's root down to `depth` (UINT32_MAX: all),
 * children sorted by the absolute value of column `sort_col` (absent
 * last), each row after what `row` writes (text and CSV: its own first
 * field; JSON: members added to the node's object `j`, NULL otherwise);
 * with `measure`, the rows are only measured (present_rows_measure). */
struct cli_walk {
	struct present_rows *rows;
	struct view *v;
	uint32_t sort_col;
	uint32_t depth;
	bool measure;
	void (*row)(void *ctx, uint32_t row, json_t *j, FILE *out,
		    enum present_format format);
	void *ctx;
};

enum status cli_walk_rows(struct cli_walk *w, struct error *err);

/* What comes before the rows of a comparison's tree (cli_walk_tree): in
 * text `preamble(ctx)` (lines about the runs) and `text_head` before the
 * header, in CSV `csv_head` before it (the titles of what `row` writes);
 * in JSON `json_open(ctx, rows)` starts the document (cli_json_open_tree). */
struct cli_tree_head {
	const char *text_head, *csv_head;
	void (*preamble)(void *ctx);
	void (*json_open)(void *ctx, struct present_rows *rows);
	void *ctx;
};

/* Write the tree of walk `w` in its rows' format: in text the rows
 * measured first, then the head, the rows, and in JSON the document's
 * end.  False after printing why (the rows may be half written). */
bool cli_walk_tree(struct cli_walk *w, const struct cli_tree_head *h);

/* Start a comparison's JSON document: `head` (taken; NULL when out of
 * memory) with its "columns" (`cols`, taken; [] when NULL) and an empty
 * "nodes" array, written to `out` whole but for that array's and the
 * object's end, so that the walk's nodes follow and
 * present_rows_json_close ends it; when it cannot be made, the start of
 * an empty document of format `format`. */
void cli_json_open_tree(json_t *head, json_t *cols, const char *format,
			FILE *out);

/* The writer of every column of a comparison's model `m` in view `kind`
 * (*v and *cols made here: free them after present_rows_fini), each text
 * column as wide as "VARIANT (I)" so that the header names its run or
 * role whole.  False after printing why. */
bool cli_tree_rows(struct present_rows *rows, const struct model *m,
		   enum view_kind kind, enum present_format format,
		   struct view **v, uint32_t **cols);

/* "--match" values. */
bool cli_diff_parse_match(const char *cmd, const char *arg,
			  enum diff_match *out);

#endif
