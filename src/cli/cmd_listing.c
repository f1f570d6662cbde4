/* cmd_listing: `callscope listing DB PROCEDURE [--format text|json]`:
 * dcpilist's procedure listing for a DCPI profile.  Every instruction of
 * the procedure, disassembled from the program's ELF image (Capstone),
 * with its samples per event (the exclusive columns: samples fall on
 * addresses; a sample inside an instruction counts for it) and their
 * percent of the procedure's total, source lines
 * interleaved where DWARF gives them, the hottest instruction of the first
 * event marked `>`.  PROCEDURE is a function name as the tree shows it;
 * the first such function of the first image that has it.  Must not
 * depend on curses or on ui/. */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/sanitize.h"
#include "views/proc_listing.h"

static void put_text_rows(const struct proc_listing *l)
{
	const char *last_file = NULL;
	uint32_t last_line = 0;
	for (size_t i = 0; i < l->n_rows; i++) {
		const struct proc_listing_row *r = &l->rows[i];
		const double *v = r->values;
		if (r->file && r->line &&
		    (r->line != last_line || !last_file ||
		     strcmp(r->file, last_file) != 0)) {
			fputs("  ", stdout);
			present_put_text(stdout, r->file);
			printf(":%" PRIu32 "\n", r->line);
			last_line = r->line;
			last_file = r->file;
		}
		for (size_t c = 0; c < l->n_columns; c++) {
			double pct = l->totals[c] > 0
					     ? 100.0 * v[c] / l->totals[c]
					     : 0;
			printf("%12.0f %6.1f%% ", v[c], pct);
		}
		putchar(l->has_hottest && i == l->hottest ? '>' : ' ');
		printf(" %" PRIx64 ":  %-24s ", r->addr, r->bytes);
		present_put_text(stdout, r->text);
		putchar('\n');
	}
}

static json_t *json_rows(const struct proc_listing *l)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < l->n_rows; i++) {
		const struct proc_listing_row *r = &l->rows[i];
		const double *v = r->values;
		json_t *o = json_object(), *vals = json_array();
		char addr[32];
		snprintf(addr, sizeof(addr), "0x%" PRIx64, r->addr);
		for (size_t c = 0; vals && c < l->n_columns; c++)
			json_array_append_new(vals, json_real(v[c]));
		if (!o || !vals ||
		    json_object_set_new(o, "address", json_string(addr)) ||
		    json_object_set_new(o, "bytes", json_string(r->bytes)) ||
		    json_object_set_new(o, "text", present_json_text(r->text)) ||
		    json_object_set_new(o, "file", present_json_text(r->file)) ||
		    json_object_set_new(o, "line",
					r->line ? json_integer(r->line)
						: json_null()) ||
		    json_object_set_new(o, "values", vals) ||
		    json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

int cmd_listing(struct session *s, int argc, char **argv);
int cmd_listing(struct session *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	enum present_format format = PRESENT_FORMAT_TEXT;
	struct model *m = NULL;
	struct proc_listing *l = NULL;
	struct error err = {0};
	json_t *root = NULL;
	int rc = CLI_EXIT_OK, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!cli_parse_format("listing", optarg, 5, &format))
				return CLI_EXIT_USAGE;
			break;
		case 'h':
			cli_usage(stdout);
			return CLI_EXIT_OK;
		default:
			fprintf(stderr, "Try 'callscope --help'.\n");
			return CLI_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "callscope listing: expected a database and a "
				"procedure\n");
		return CLI_EXIT_USAGE;
	}
	const char *proc = argv[optind + 1];
	m = cli_open_all(s, (const char *const *)argv + optind, 1);
	if (!m)
		return CLI_EXIT_DATA;
	if (strcmp(m->format, "dcpi") != 0) {
		fprintf(stderr, "callscope listing: %s is a %s database; "
				"listings are for DCPI profiles\n",
			argv[optind], m->format);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	/* every procedure: a large database's deferred images read first */
	if (!cli_load_all(m)) {
		rc = CLI_EXIT_DATA;
		goto out;
	}
	uint32_t fn = proc_listing_find(m, proc);
	if (fn == MODEL_NONE) {
		fputs("callscope listing: no procedure ", stderr);
		present_put_text(stderr, proc);
		fputs(" in the profile\n", stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	enum status st = proc_listing_build(m, fn, &l, &err);
	if (st != STATUS_OK) {
		cli_put_error(&err, status_message(st));
		rc = CLI_EXIT_DATA;
		goto out;
	}
	if (format != PRESENT_FORMAT_JSON) {
		fputs("Procedure ", stdout);
		present_put_text(stdout, proc);
		fputs(" in ", stdout);
		present_put_text(stdout, l->image);
		putchar('\n');
		for (size_t k = 0; k < l->n_columns; k++) {
			char *t = present_column_title(m, l->columns[k]);
			printf("%12.12s %7s ", t ? t : "?", "%");
			free(t);
		}
		printf("  address   bytes                     instruction\n");
		put_text_rows(l);
	} else {
		char buf[32];
		root = json_object();
		json_t *cols = json_array(), *tot = json_array();
		if (!root || !cols || !tot) {
			json_decref(cols);
			json_decref(tot);
			goto nomem;
		}
		for (size_t k = 0; k < l->n_columns; k++) {
			char *t = present_column_title(m, l->columns[k]);
			json_array_append_new(cols, present_json_text(t));
			json_array_append_new(tot, json_real(l->totals[k]));
			free(t);
		}
		json_object_set_new(root, "procedure",
				    present_json_text(l->procedure));
		json_object_set_new(root, "image", present_json_text(l->image));
		snprintf(buf, sizeof(buf), "0x%" PRIx64, l->entry);
		json_object_set_new(root, "entry", json_string(buf));
		json_object_set_new(root, "size",
				    json_integer((json_int_t)l->size));
		json_object_set_new(root, "columns", cols);
		json_object_set_new(root, "totals", tot);
		if (l->has_hottest) {
			snprintf(buf, sizeof(buf), "0x%" PRIx64,
				 l->rows[l->hottest].addr);
			json_object_set_new(root, "hottest", json_string(buf));
		} else {
			json_object_set_new(root, "hottest", json_null());
		}
		json_t *rows = json_rows(l);
		if (!rows)
			goto nomem;
		json_object_set_new(root, "instructions", rows);
		if (!present_put_json(stdout, root, JSON_INDENT(1)))
			goto nomem;
		putchar('\n');
	}
	if (cli_value_error(m))
		rc = CLI_EXIT_DATA;
	goto out;
nomem:
	fputs("callscope listing: out of memory\n", stderr);
	rc = CLI_EXIT_DATA;
out:
	json_decref(root);
	proc_listing_free(l);
	model_free(m);
	return rc;
}
