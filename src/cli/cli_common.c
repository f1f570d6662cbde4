/* cli_common: what the batch commands share: the skeleton of a command
 * (its options and operands, its JSON output, its error lines; see
 * cli.h), opening a database with a one-line error, argument parsing and
 * column selection (how values and rows are written is present/).  Must
 * not depend on curses or on ui/. */
#include "config.h"

#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "net/http.h"
#include "formats/reader.h"
#include "open.h"
#include "core/sanitize.h"
#include "views/view.h"
#include "present/present_write.h"

struct model *cli_open(struct session *s, const char *path)
{
	return cli_open_all(s, &path, 1);
}

/* The progress of a long first scan (a GPU run without its index yet) on
 * a terminal's stderr: one line, redrawn, cleared at the end.  Scans that
 * end within a second print nothing. */
static void on_scan(void *ctx, const struct reader_progress *p)
{
	bool *drawn = ctx;
	if (p->done || p->seconds < 1.0) {
		if (*drawn)
			fputs("\r\033[K", stderr);
		*drawn = false;
		return;
	}
	char done[32], total[32], left[32] = "";
	present_format_bytes(done, sizeof(done), (double)p->bytes_done);
	present_format_bytes(total, sizeof(total), (double)p->bytes_total);
	if (p->bytes_done > 0 && p->bytes_total > p->bytes_done) {
		double s = p->seconds * (double)(p->bytes_total - p->bytes_done) /
			   (double)p->bytes_done;
		if (s < 360000)
			snprintf(left, sizeof(left), ", %d:%02d left",
				 (int)s / 60, (int)s % 60);
	}
	const char *noun = p->noun ? p->noun : "run";
	fprintf(stderr, "\r\033[K%s the %s%s: %u of %u files, %s of %s, "
		"%.1f M %s%s", p->indexing ? "first open, building" : "reading",
		noun, p->indexing ? "'s index" : "", p->files_done, p->n_files,
		done, total, (double)p->rows / 1e6,
		p->items ? p->items : "rows", left);
	fflush(stderr);
	*drawn = true;
}

void cli_put_cmd_error(const char *cmd, struct error *err,
		       const char *fallback)
{
	char *line = error_format(err);
	fputs("callscope", stderr);
	if (cmd)
		fprintf(stderr, " %s", cmd);
	fputs(": ", stderr);
	present_put_text(stderr, line ? line : fallback);
	fputc('\n', stderr);
	free(line);
	error_clear(err);
}

void cli_put_error(struct error *err, const char *fallback)
{
	cli_put_cmd_error(NULL, err, fallback);
}

bool cli_put_bad_value(const char *cmd, const char *opt, const char *what,
		       const char *arg)
{
	fprintf(stderr, "callscope %s: %s expects %s, not '", cmd, opt, what);
	present_put_text(stderr, arg);
	fputs("'\n", stderr);
	return false;
}

void cli_put_db_problem(const char *cmd, const struct model *m,
			const char *problem)
{
	fprintf(stderr, "callscope %s: ", cmd);
	present_put_text(stderr, model_path(m));
	fprintf(stderr, ": %s\n", problem);
}

/* The progress of reading every deferred subtree (cli_load_all) on a
 * terminal's stderr, after a second: one line, redrawn. */
struct load_progress {
	double start;
	uint32_t total;
	bool drawn;
};

static bool on_load(void *ctx, uint32_t left)
{
	struct load_progress *p = ctx;
	double t = clock_now() - p->start;
	if (left == 0 || t < 1.0) {
		if (left == 0 && p->drawn)
			fputs("\r\033[K", stderr);
		p->drawn = p->drawn && left != 0;
		return true;
	}
	uint32_t done = p->total > left ? p->total - left : 0;
	char eta[32] = "";
	if (done > 0) {
		double s = t * (double)left / (double)done;
		if (s < 360000)
			snprintf(eta, sizeof(eta), ", %d:%02d left", (int)s / 60,
				 (int)s % 60);
	}
	fprintf(stderr, "\r\033[Kreading every deferred subtree: %u of %u%s",
		done, p->total, eta);
	fflush(stderr);
	p->drawn = true;
	return true;
}

bool cli_load_all(const struct model *m)
{
	if (!model_deferred_pending(m))
		return true;
	struct load_progress p = {.start = clock_now(),
				  .total = model_deferred_pending(m)};
	struct error err = {0};
	enum status st = model_load_all_progress(
		m, isatty(STDERR_FILENO) ? on_load : NULL, &p, &err);
	if (p.drawn)
		fputs("\r\033[K", stderr);
	if (st == STATUS_OK)
		return true;
	cli_put_error(&err, status_message(st));
	return false;
}

static bool on_trace_read(void *ctx, uint32_t done, uint32_t total)
{
	struct load_progress *p = ctx;
	double t = clock_now() - p->start;
	if (done == total || t < 1.0)
		return true;
	fprintf(stderr,
		"\r\033[Kthe timeline reads each file's intervals once: %u of "
		"%u files, %.0f s",
		done, total, t);
	fflush(stderr);
	p->drawn = true;
	return true;
}

void cli_trace_prepare(const struct model *m)
{
	struct load_progress p = {.start = clock_now()};
	/* read up front everywhere (the files side by side), shown on a
	 * terminal only */
	model_trace_prepare(m, isatty(STDERR_FILENO) ? on_trace_read : NULL,
			    &p);
	if (p.drawn)
		fputs("\r\033[K", stderr);
}

struct model *cli_open_all(struct session *s, const char *const *paths,
			   size_t n)
{
	return cli_open_partial(s, paths, n, NULL);
}

struct model *cli_open_partial(struct session *s, const char *const *paths,
			       size_t n, struct open_later **later)
{
	struct model *m = NULL;
	struct error err = {0};
	const char *path = paths[0];
	/* a URL: progress, Ctrl-C and Esc cancel the transfer; a local
	 * open keeps the default SIGINT */
	bool url = false;
	for (size_t i = 0; i < n; i++)
		url = url || http_is_url(paths[i]);
	const struct open_options *o = url ? cli_transfer_begin(s)
					   : &s->options;
	bool drawn = false;
	struct reader_options ro = {0};
	ro.list = cli_reader_options(&ro.n);
	if (isatty(STDERR_FILENO)) {
		ro.progress = on_scan;
		ro.progress_ctx = &drawn;
	}
	ro.later = later;
	if (later)
		*later = NULL;
	enum status st = database_open_paths(
		paths, n, o, ro.progress || ro.n || later ? &ro : NULL, &m,
		&err);
	if (url)
		cli_transfer_end();
	if (st != STATUS_OK) {
		if (!err.file)
			err.file = strdup(path);
		cli_put_error(&err, path);
		return NULL;
	}
	error_clear(&err);
	for (uint32_t i = 0; i < model_n_warnings(m); i++) {
		fputs("callscope: warning: ", stderr);
		present_put_text(stderr, model_warnings(m)[i]);
		fputc('\n', stderr);
	}
	return m;
}

bool cli_value_error(const struct model *m)
{
	struct error err = {0};
	if (!model_take_value_error(m, &err))
		return false;
	cli_put_error(&err, "a value could not be read");
	return true;
}

int cli_option_other(int c, int help_rc)
{
	if (c == 'h') {
		cli_usage(stdout);
		return help_rc;
	}
	fputs("Try 'callscope --help'.\n", stderr);
	return CLI_EXIT_USAGE;
}

bool cli_parse_format(const char *cmd, const char *arg, unsigned allowed,
		      enum present_format *out)
{
	static const char *const names[] = {"text", "csv", "json"};
	for (unsigned i = 0; i < 3; i++) {
		if ((allowed & (1u << i)) && strcmp(arg, names[i]) == 0) {
			*out = (enum present_format)i;
			return true;
		}
	}
	fprintf(stderr, "callscope %s: unknown --format '", cmd);
	present_put_text(stderr, arg);
	fputs("' (expected", stderr);
	for (unsigned i = 0, first = 1; i < 3; i++)
		if (allowed & (1u << i)) {
			fprintf(stderr, "%s%s", first ? " " : "|", names[i]);
			first = 0;
		}
	fputs(")\n", stderr);
	return false;
}

/* The command's options, then --format and --help. */
static bool args_start(struct cli_args *a)
{
	size_t n = 0;
	for (; a->options && a->options[n].name; n++) {
		if (n == CLI_ARGS_OPTIONS)
			return false;
		a->all[n] = a->options[n];
	}
	if (a->formats)
		a->all[n++] = (struct option){"format", required_argument,
					      NULL, 'f'};
	a->all[n++] = (struct option){"help", no_argument, NULL, 'h'};
	a->all[n] = (struct option){NULL, 0, NULL, 0};
	int k = snprintf(a->all_short, sizeof(a->all_short), "%s%s",
			 a->shortopts ? a->shortopts : "",
			 a->formats ? "f:h" : "h");
	if (k < 0 || (size_t)k >= sizeof(a->all_short))
		return false;
	a->started = true;
	optind = 1;
	return true;
}

int cli_args_next(struct cli_args *a, int argc, char **argv)
{
	int usage = a->usage_exit ? a->usage_exit : CLI_EXIT_USAGE;
	a->exit_code = usage;
	if (!a->started && !args_start(a)) {
		fprintf(stderr, "callscope %s: too many options\n", a->cmd);
		return CLI_ARGS_EXIT;
	}
	int c = getopt_long(argc, argv, a->all_short, a->all, NULL);
	if (c == 'f' && a->formats)
		return cli_parse_format(a->cmd, optarg, a->formats, &a->format)
			       ? cli_args_next(a, argc, argv)
			       : CLI_ARGS_EXIT;
	if (c == 'h' || c == '?' || c == ':') {
		a->exit_code = cli_option_other(c, CLI_EXIT_OK) == CLI_EXIT_OK
				       ? CLI_EXIT_OK
				       : usage;
		return CLI_ARGS_EXIT;
	}
	if (c != -1)
		return c;
	int n = argc - optind;
	int max = a->max_operands < 0 ? 0 : a->max_operands;
	if (n < a->min_operands || (a->max_operands && n > max)) {
		fprintf(stderr, "callscope %s: expected %s\n", a->cmd,
			a->expected);
		return CLI_ARGS_EXIT;
	}
	a->operands = argv + optind;
	a->n_operands = n;
	return CLI_ARGS_DONE;
}

bool cli_put_json(json_t *doc, size_t flags)
{
	bool ok = doc && present_put_json(stdout, doc, flags);
	if (ok)
		fputc('\n', stdout);
	json_decref(doc);
	return ok;
}

#define CLI_JSON_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(17))

void cli_json_begin(struct cli_json_out *o, int n_operands)
{
	o->all = n_operands > 1 ? json_array() : NULL;
}

void cli_json_add(struct cli_json_out *o, json_t *doc)
{
	if (o->all)
		json_array_append_new(o->all, doc);
	else
		cli_put_json(doc, CLI_JSON_FLAGS);
}

void cli_json_end(struct cli_json_out *o, bool ok)
{
	if (o->all && ok)
		cli_put_json(o->all, CLI_JSON_FLAGS);
	else
		json_decref(o->all);
	o->all = NULL;
}

char **cli_operands(const char *cmd, int argc, char **argv,
		    const char *expected, enum present_format *format,
		    const char **output, int *n, int *exit_code)
{
	static const struct option own[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{NULL, 0, NULL, 0},
	};
	struct cli_args a = {.cmd = cmd, .options = own, .shortopts = "f:o:",
			     .expected = expected, .min_operands = 1,
			     .max_operands = n ? 0 : 1};
	int c;
	while ((c = cli_args_next(&a, argc, argv)) > 0) {
		if (c == 'f' && format) {
			if (!cli_parse_format(cmd, optarg, CLI_TEXT_JSON,
					      format))
				c = CLI_ARGS_EXIT;
		} else if (c == 'o' && output) {
			*output = optarg;
		} else {
			fprintf(stderr, "callscope %s: no option -%c\n", cmd, c);
			fputs("Try 'callscope --help'.\n", stderr);
			c = CLI_ARGS_EXIT;
		}
		if (c == CLI_ARGS_EXIT) {
			*exit_code = CLI_EXIT_USAGE;
			return NULL;
		}
	}
	*exit_code = a.exit_code;
	if (c == CLI_ARGS_EXIT)
		return NULL;
	if (n)
		*n = a.n_operands;
	return a.operands;
}

const char *cli_one_operand(const char *cmd, int argc, char **argv,
			    const char *expected, enum present_format *format,
			    const char **output, int *exit_code)
{
	char **op = cli_operands(cmd, argc, argv, expected, format, output,
				 NULL, exit_code);
	return op ? op[0] : NULL;
}

bool cli_parse_double(const char *cmd, const char *opt, const char *arg,
		      double *out)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v < 0)
		return cli_put_bad_value(cmd, opt, "a non-negative number", arg);
	*out = v;
	return true;
}

bool cli_parse_u32(const char *cmd, const char *opt, const char *arg,
		   uint32_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || v >= UINT32_MAX)
		return cli_put_bad_value(cmd, opt, "a non-negative integer",
					 arg);
	*out = (uint32_t)v;
	return true;
}

static bool push_column(uint32_t **cols, size_t *n, size_t *cap, uint32_t c)
{
	for (size_t i = 0; i < *n; i++)
		if ((*cols)[i] == c)
			return true;
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		uint32_t *p = realloc(*cols, ncap * sizeof(*p));
		if (!p)
			return false;
		*cols = p;
		*cap = ncap;
	}
	(*cols)[(*n)++] = c;
	return true;
}

bool cli_select_columns(const char *cmd, const struct model *m,
			char **names, size_t n_names, uint32_t **out,
			size_t *n_out)
{
	uint32_t *cols = NULL;
	size_t n = 0, cap = 0;
	bool ok = true;
	if (n_names == 0) {
		for (uint32_t c = 0; c < model_n_columns(m) && ok; c++)
			if (model_columns(m)[c].visible)
				ok = push_column(&cols, &n, &cap, c);
		for (uint32_t c = 0; n == 0 && c < model_n_columns(m) && ok; c++)
			ok = push_column(&cols, &n, &cap, c);
	}
	for (size_t i = 0; i < n_names && ok; i++) {
		const char *name = names[i];
		if (strcmp(name, "all") == 0) {
			for (uint32_t c = 0; c < model_n_columns(m) && ok; c++)
				ok = push_column(&cols, &n, &cap, c);
			continue;
		}
		bool found = false;
		for (uint32_t c = 0; c < model_n_columns(m) && ok; c++)
			if (strcmp(model_columns(m)[c].name, name) == 0) {
				ok = push_column(&cols, &n, &cap, c);
				found = true;
			}
		if (!found) {
			uint32_t c = model_find_column(m, name);
			if (c != MODEL_NONE) {
				ok = push_column(&cols, &n, &cap, c);
				found = true;
			}
		}
		if (!found) {
			fprintf(stderr, "callscope %s: no metric '", cmd);
			present_put_text(stderr, name);
			fputs("' in ", stderr);
			present_put_text(stderr, model_path(m));
			fputs(" (see `callscope info`)\n", stderr);
			free(cols);
			return false;
		}
	}
	if (!ok) {
		fprintf(stderr, "callscope %s: out of memory\n", cmd);
		free(cols);
		return false;
	}
	*out = cols;
	*n_out = n;
	return true;
}
