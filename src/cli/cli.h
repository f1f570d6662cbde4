/* cli: the batch command line (`callscope info|report|hotpath|trace`).
 *
 * Each command opens a database, computes what the viewer would show and
 * prints it as text, CSV or JSON on stdout.  Exit status: 0 success, 1
 * usage error, 2 the database cannot be read (one line on stderr naming the
 * file and the problem).  Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_CLI_H
#define CALLSCOPE_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "formats/reader.h"
#include "model/model.h"
#include "net/open_options.h"
#include "net/session.h"
#include "present/present_column.h"
#include "present/present_rows.h"
#include "present/present_write.h"
#include "views/view.h"

enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_USAGE = 1,
	CLI_EXIT_DATA = 2,
};


/* Run a batch command: argv[0] is the command name ("report", ...).
 * Returns the exit status.  Returns -1 when argv[0] is not a batch
 * command. */
int cli_run(struct session *s, int argc, char **argv);

/* What `callscope report` prints: the tree of view `view` of the database
 * at `db`, `metrics` naming the columns (all visible ones when
 * n_metrics is 0), rows down to `depth` (UINT32_MAX: all) and at least
 * `min_percent` of the first column's total, in `format`, on stdout. */
struct cli_report_options {
	const char *const *dbs; /* one or more, opened as one run */
	size_t n_dbs;
	enum view_kind view;
	char **metrics;
	size_t n_metrics;
	uint32_t depth;
	double min_percent;
	enum present_format format;
};

/* Print the report (the viewer's text output when not on a terminal);
 * returns the exit status. */
int cli_report(struct session *s, const struct cli_report_options *o);

/* Print usage of every command to `out`. */
void cli_usage(FILE *out);

/* Opening by URL (cli_url.c). */

/* Take the global options --no-cache --offline --download --insecure
 * --netrc --max-size N (also --max-size=N; K, M, G suffixes) out of argv,
 * wherever they are before a "--", into `o`, and the reader options
 * (--option READER:KEY=VALUE and the flags that stand for one, such as
 * --image-path DIR: reader_flag_option) into the list every open takes
 * (cli_reader_options); argv[0] stays, *argc shrinks.  Prints the problem
 * and returns false on a bad value or an option no reader takes. */
bool cli_take_open_options(int *argc, char **argv, struct open_options *o);

/* The reader options taken from the command line (set by flag, below),
 * handed to every open; *n their number. */
const struct reader_option *cli_reader_options(size_t *n);
/* Set the option flag `flag` ("kernel-names") stands for to `value` (the
 * string must outlive the run), replacing an earlier one; false when the
 * flag stands for no option, the value is refused, or out of memory. */
bool cli_set_reader_flag(const char *flag, const char *value);
/* The value the option of flag `flag` was last given, or NULL. */
const char *cli_reader_flag_value(const char *flag);

/* Around a transfer: progress on stderr when it is a terminal, Ctrl-C
 * and Esc (when stdin is a terminal) cancel; SIGTERM and SIGHUP cancel
 * too, and end then removes the temporary downloads and dies of them.  Begin returns the options
 * to transfer with; end restores the signal handler and the terminal and
 * clears the progress line (call it before the screen starts). */
const struct open_options *cli_transfer_begin(struct session *s);
void cli_transfer_end(void);

/* "  NAME            TEXT" with TEXT wrapped at 79 columns under
 * itself (cli.c): the format and capability lists. */
void cli_put_item(FILE *out, const char *name, const char *text);

/* Helpers shared by the commands (cli_common.c). */

/* Open `path` (or URL, with the global options); on failure print the
 * one-line error and return NULL. */
struct model *cli_open(struct session *s, const char *path);
/* The same for several paths opened as one run (open.h). */
struct model *cli_open_all(struct session *s, const char *const *paths,
			   size_t n);
/* cli_open_all for a caller that can show a partial model (the viewer): a
 * GPU run never opened before comes back as its sketch, with in *later the
 * job that builds the complete model (formats/open_later.h; NULL when the
 * model is complete). */
struct open_later;
struct model *cli_open_partial(struct session *s, const char *const *paths,
			       size_t n, struct open_later **later);
/* Print `err` as one line on stderr ("callscope: FILE: problem", names
 * sanitized; `fallback` when it has no text) and clear it. */
void cli_put_error(struct error *err, const char *fallback);
/* Read every deferred subtree of `m` (model_load_all) with a progress line
 * on a terminal's stderr after a second; on failure print the one-line
 * error and return false. */
bool cli_load_all(const struct model *m);

/* `callscope RUN RUN RUN... --compare` (the viewer): the runs as one set
 * (`callscope compare`'s model: a column per run and the statistics
 * across runs), or as an Extra-P measurement set when their directory
 * names give at least two points (its models, the plot pane).  NULL after
 * saying why on stderr. */
struct model *cli_compare_open(struct session *s, char *const *paths,
			       size_t n);
/* On a terminal: read up front what every timeline needs
 * (model_trace_prepare) with a progress line on stderr after a second;
 * elsewhere the same without the progress line. */
void cli_trace_prepare(const struct model *m);

/* After the values of `m` were read: when a lazy read failed (a remote
 * file, a damaged per-thread file; model_take_value_error), print its
 * one-line error and return true (the command then exits 2: what it
 * printed lacks those values). */
bool cli_value_error(const struct model *m);

/* What getopt option `c` that a command does not take otherwise means:
 * 'h' prints the usage on stdout and gives `help_rc`; any other prints
 * "Try 'callscope --help'." on stderr and gives CLI_EXIT_USAGE. */
int cli_option_other(int c, int help_rc);

/* Parse "text", "csv", "json" (those allowed by `allowed`, a mask of
 * 1 << enum present_format).  Prints a usage error and returns false. */
bool cli_parse_format(const char *cmd, const char *arg, unsigned allowed,
		      enum present_format *out);

/* The options of the one-operand commands (info, cache, fetch): --format
 * text|json when `format` is given, --output DIR when `output` is given,
 * --help; then exactly one operand, returned.  Otherwise NULL with
 * `*exit_code` set: CLI_EXIT_OK after --help, CLI_EXIT_USAGE after a
 * usage error printed as "callscope CMD: expected EXPECTED". */
const char *cli_one_operand(const char *cmd, int argc, char **argv,
			    const char *expected, enum present_format *format,
			    const char **output, int *exit_code);
/* The same with one or more operands when `n` is given (their number
 * goes there): the first operand's place in argv, or NULL. */
char **cli_operands(const char *cmd, int argc, char **argv,
		    const char *expected, enum present_format *format,
		    const char **output, int *n, int *exit_code);

/* ---- the skeleton of a batch command (cli_common.c) -------------------
 *
 * Every command has the same shape: read its options (its own, plus
 * --format and --help, which mean the same everywhere), check its
 * operands, open the database(s), choose what to print (a node, a metric,
 * a window), print it as text or JSON, and turn what went wrong into one
 * line on stderr and an exit status.  The helpers below are that
 * skeleton; a command writes only what is its own:
 *
 *	static const struct option own[] = {
 *		{"metric", required_argument, NULL, 'm'},
 *		{NULL, 0, NULL, 0},
 *	};
 *	struct cli_args a = {.cmd = "points", .options = own,
 *			     .shortopts = "m:", .formats = CLI_TEXT_JSON,
 *			     .expected = "a measurement set",
 *			     .min_operands = 1};
 *	int c;
 *	while ((c = cli_args_next(&a, argc, argv)) > 0)
 *		switch (c) { case 'm': metric = optarg; break; }
 *	if (c == CLI_ARGS_EXIT)
 *		return a.exit_code;
 *	... a.operands[0 .. a.n_operands), a.format ...
 *
 * then cli_open / cli_open_all, and for the output cli_put_json (one
 * document) or cli_json_begin/_add/_end (a document per operand, an array
 * of them when there are several); errors through cli_put_error,
 * cli_put_cmd_error (a struct error) or cli_put_db_problem (a database
 * that lacks what the command needs). */

/* --format values: a mask of 1 << enum present_format. */
#define CLI_TEXT_JSON (1u << PRESENT_FORMAT_TEXT | 1u << PRESENT_FORMAT_JSON)
#define CLI_TEXT_CSV_JSON (CLI_TEXT_JSON | 1u << PRESENT_FORMAT_CSV)

#define CLI_ARGS_OPTIONS 16 /* a command's own long options, at most */

enum { CLI_ARGS_DONE = -1, CLI_ARGS_EXIT = -2 };

struct cli_args {
	/* set by the command */
	const char *cmd;	      /* its name, in messages */
	const struct option *options; /* its own long options, NULL-ended
					 (NULL: none); never 'f' or 'h' */
	const char *shortopts;	      /* its own short options ("m:t:") */
	unsigned formats;	      /* --format values it takes (a mask of
					 1 << enum present_format); 0: the
					 command reads 'f' itself */
	const char *expected;	      /* what the operands are, for "callscope
					 CMD: expected EXPECTED" */
	int min_operands, max_operands; /* max 0: no limit, -1: none */
	int usage_exit;		      /* exit status of a usage error (0:
					 CLI_EXIT_USAGE) */
	/* set by cli_args_next */
	enum present_format format; /* --format (PRESENT_FORMAT_TEXT) */
	char **operands;	    /* after CLI_ARGS_DONE */
	int n_operands;
	int exit_code; /* after CLI_ARGS_EXIT */
	/* private */
	bool started;
	struct option all[CLI_ARGS_OPTIONS + 3];
	char all_short[2 * CLI_ARGS_OPTIONS + 8];
};

/* The next option of argv (getopt_long, optarg set) that is the
 * command's own; CLI_ARGS_DONE after the last option when the operands
 * are as many as the command takes (a->operands set); CLI_ARGS_EXIT when
 * the command returns a->exit_code now: after --help (the usage printed,
 * CLI_EXIT_OK), or after a bad --format, an unknown option or a wrong
 * number of operands (the message printed, the usage error's status). */
int cli_args_next(struct cli_args *a, int argc, char **argv);

/* Print `doc` on stdout with `flags` (present_put_json), a newline after,
 * and release it.  False when it could not be written. */
bool cli_put_json(json_t *doc, size_t flags);

/* The JSON of a command that prints one document per operand: with one
 * operand the document itself, at once; with several an array of them,
 * printed by cli_json_end when every operand succeeded.  Documents are
 * printed with JSON_INDENT(1) | JSON_REAL_PRECISION(17). */
struct cli_json_out {
	json_t *all;
};
void cli_json_begin(struct cli_json_out *o, int n_operands);
/* Takes the reference to `doc`. */
void cli_json_add(struct cli_json_out *o, json_t *doc);
void cli_json_end(struct cli_json_out *o, bool ok);

/* Print `err` as "callscope CMD: problem" on stderr (sanitized;
 * `fallback` when it has no text) and clear it; cli_put_error without the
 * command's name. */
void cli_put_cmd_error(const char *cmd, struct error *err,
		       const char *fallback);

/* "callscope CMD: PATH: PROBLEM" on stderr (PATH, the database's, sanitized):
 * a database that lacks what the command needs ("the database has no
 * trace"). */
void cli_put_db_problem(const char *cmd, const struct model *m,
			const char *problem);

/* "callscope CMD: OPT expects WHAT, not 'ARG'" on stderr (ARG
 * sanitized): an option's value that does not parse.  Returns false, so
 * that a parser can end with `return cli_put_bad_value(...)`. */
bool cli_put_bad_value(const char *cmd, const char *opt, const char *what,
		       const char *arg);

/* Resolve --metric arguments to columns.  NULL/empty selection: the
 * visible columns (all columns when none is visible).  "all": every column.
 * A metric name selects all its columns (inclusive and exclusive); "NAME
 * (I)", "NAME (E)", "NAME:VARIANT" and a column index select one.  Prints
 * the error and returns false on an unknown name. */
bool cli_select_columns(const char *cmd, const struct model *m,
			char **names, size_t n_names, uint32_t **out,
			size_t *n_out);

/* Parse a non-negative number; prints a usage error and returns false. */
bool cli_parse_double(const char *cmd, const char *opt, const char *arg,
		      double *out);
bool cli_parse_u32(const char *cmd, const char *opt, const char *arg,
		   uint32_t *out);

#endif
