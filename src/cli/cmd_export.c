/* cmd_export: `callscope export DB... --to
 * folded|speedscope|pprof|chrome-trace [-o FILE] [--metric NAME]...`: the database in a format other tools
 * read (src/present/export.h): flame-graph stacks of the chosen metrics
 * (the first inclusive time column by default, as the viewer sorts) or
 * every trace line for Perfetto.  A stack export says on stderr which
 * metric its integers are and in which unit.  Output goes to standard
 * output or to FILE (written anew, never the database).  Must not depend
 * on curses or on ui/. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "present/export.h"
#include "present/export_stacks.h"
#include "present/present_column.h"
#include "present/present_write.h"

struct export_args {
	enum export_kind kind;
	bool have_kind;
	const char *output;
	char **metrics;
	size_t n_metrics;
	char **dbs;
	int n_dbs;
};

/* The options (cli_args_next: --help, the operands); -1 after --help. */
static int parse_args(int argc, char **argv, struct export_args *e)
{
	static const struct option own[] = {
		{"to", required_argument, NULL, 't'},
		{"output", required_argument, NULL, 'o'},
		{"metric", required_argument, NULL, 'm'},
		{NULL, 0, NULL, 0},
	};
	struct cli_args a = {.cmd = "export", .options = own,
			     .shortopts = "t:o:m:", .formats = 0,
			     .expected = "a database", .min_operands = 1};
	int c;
	while ((c = cli_args_next(&a, argc, argv)) > 0) {
		if (c == 't' && !export_kind_parse(optarg, &e->kind)) {
			fprintf(stderr, "callscope export: --to takes %s\n",
				export_kind_list());
			return CLI_EXIT_USAGE;
		}
		e->have_kind = e->have_kind || c == 't';
		if (c == 'o')
			e->output = optarg;
		else if (c == 'm')
			e->metrics[e->n_metrics++] = optarg;
	}
	if (c == CLI_ARGS_EXIT)
		return a.exit_code == CLI_EXIT_OK ? -1 : a.exit_code;
	if (!e->have_kind) {
		fprintf(stderr, "callscope export: --to %s is needed\n",
			export_kind_list());
		return CLI_EXIT_USAGE;
	}
	e->dbs = a.operands;
	e->n_dbs = a.n_operands;
	return CLI_EXIT_OK;
}

/* The inclusive columns of the stacks: those --metric names (each made
 * inclusive, once), else the column the viewer sorts the tree by. */
static int stack_columns(const struct model *m, struct export_args *a,
			 uint32_t **out, size_t *n_out)
{
	uint32_t *sel = NULL;
	size_t n_sel = 0, n = 0;
	if (!cli_select_columns("export", m, a->metrics, a->n_metrics, &sel,
				&n_sel))
		return CLI_EXIT_USAGE;
	if (a->n_metrics == 0 && n_sel > 0) {
		uint32_t d = view_default_column(m, VIEW_TOP_DOWN, sel, n_sel);
		sel[0] = d != MODEL_NONE ? d : sel[0];
		n_sel = 1;
	}
	for (size_t i = 0; i < n_sel; i++) {
		const char *why = NULL;
		uint32_t c = export_stacks_column(m, sel[i], &why);
		if (c == MODEL_NONE) {
			char *title = present_column_title(m, sel[i]);
			fputs("callscope export: ", stderr);
			present_put_text(stderr, model_path(m));
			fputs(": ", stderr);
			present_put_text(stderr, title ? title : "?");
			fprintf(stderr, " %s\n", why);
			free(title);
			free(sel);
			return CLI_EXIT_DATA;
		}
		bool seen = false;
		for (size_t j = 0; j < n; j++)
			seen = seen || sel[j] == c;
		if (!seen)
			sel[n++] = c;
	}
	if (n == 0) {
		fputs("callscope export: ", stderr);
		present_put_text(stderr, model_path(m));
		fputs(": the database has no metric\n", stderr);
		free(sel);
		return CLI_EXIT_DATA;
	}
	*out = sel;
	*n_out = n;
	return CLI_EXIT_OK;
}

/* What the integers of a stack export are, on stderr: "callscope
 * export: folded stacks of TITLE: its values x 1e+09, in nanoseconds",
 * and the negative self values left out. */
static void say_units(const struct model *m, enum export_kind kind,
		      const uint32_t *cols, size_t n, const double *negative)
{
	if (kind == EXPORT_FOLDED)
		n = 1;
	for (size_t i = 0; i < n; i++) {
		const char *unit;
		double factor = export_scale(m, cols[i], &unit);
		char *title = present_column_title(m, cols[i]);
		char num[32];
		fprintf(stderr, "callscope export: %s stacks of ",
			export_kind_name(kind));
		present_put_text(stderr, title ? title : "?");
		present_number_text(factor, num, sizeof num);
		fprintf(stderr, ": its values x %s, %s\n", num,
			strcmp(unit, "none") == 0 ? "rounded" : unit);
		if (negative[i] < 0) {
			present_number_text(negative[i], num, sizeof num);
			fprintf(stderr, "callscope export: stacks whose self "
					"value is below 0 (a parent holding "
					"less than its calls) are left out: "
					"%s in all\n", num);
		}
		free(title);
	}
}

int cmd_export(struct session *s, int argc, char **argv);
int cmd_export(struct session *s, int argc, char **argv)
{
	struct export_args a = {0};
	a.metrics = calloc((size_t)argc + 1, sizeof *a.metrics);
	if (!a.metrics)
		return CLI_EXIT_DATA;
	int rc = parse_args(argc, argv, &a);
	struct model *m = NULL;
	uint32_t *cols = NULL;
	size_t n_cols = 0;
	double *negative = NULL;
	FILE *out = stdout;
	struct error err = {0};
	if (rc != CLI_EXIT_OK) {
		rc = rc < 0 ? CLI_EXIT_OK : rc;
		goto out;
	}
	m = cli_open_all(s, (const char *const *)a.dbs, (size_t)a.n_dbs);
	if (!m || !cli_load_all(m)) {
		rc = CLI_EXIT_DATA;
		goto out;
	}
	if (export_kind_is_stacks(a.kind)) {
		rc = stack_columns(m, &a, &cols, &n_cols);
		if (rc != CLI_EXIT_OK)
			goto out;
		negative = calloc(n_cols, sizeof *negative);
		if (!negative) {
			rc = CLI_EXIT_DATA;
			goto out;
		}
	} else {
		cli_trace_prepare(m);
	}
	if (a.output && !(out = fopen(a.output, "w"))) {
		int e = errno;
		fprintf(stderr, "callscope export: cannot write ");
		present_put_text(stderr, a.output);
		fprintf(stderr, ": %s\n", strerror(e));
		out = stdout;
		rc = CLI_EXIT_DATA;
		goto out;
	}
	if (export_write(m, a.kind, cols, n_cols, out, negative, &err) !=
	    STATUS_OK) {
		cli_put_error(&err, "cannot export");
		rc = CLI_EXIT_DATA;
	} else if (negative) {
		say_units(m, a.kind, cols, n_cols, negative);
	}
	if (out != stdout && fclose(out) != 0 && rc == CLI_EXIT_OK) {
		fprintf(stderr, "callscope export: cannot write ");
		present_put_text(stderr, a.output);
		fputc('\n', stderr);
		rc = CLI_EXIT_DATA;
	}
	out = stdout;
out:
	error_clear(&err);
	free(cols);
	free(negative);
	free(a.metrics);
	if (m)
		model_free(m);
	return rc;
}
