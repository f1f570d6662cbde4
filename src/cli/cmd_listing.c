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

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/sanitize.h"
#include "formats/reader.h"
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
			json_array_append_new(vals, present_json_number(v[c]));
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

static void put_text(const struct model *m, const struct proc_listing *l,
		     const char *proc)
{
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
}

/* The listing as a JSON object, NULL when out of memory. */
static json_t *listing_json(const struct model *m,
			    const struct proc_listing *l)
{
	char buf[32];
	json_t *cols = json_array(), *tot = json_array();
	json_t *root = cols && tot ? json_object() : NULL;
	if (!root) {
		json_decref(cols);
		json_decref(tot);
		return NULL;
	}
	for (size_t k = 0; k < l->n_columns; k++) {
		char *t = present_column_title(m, l->columns[k]);
		json_array_append_new(cols, present_json_text(t));
		json_array_append_new(tot, present_json_number(l->totals[k]));
		free(t);
	}
	json_object_set_new(root, "procedure", present_json_text(l->procedure));
	json_object_set_new(root, "image", present_json_text(l->image));
	snprintf(buf, sizeof(buf), "0x%" PRIx64, l->entry);
	json_object_set_new(root, "entry", json_string(buf));
	json_object_set_new(root, "size", json_integer((json_int_t)l->size));
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
	if (!rows) {
		json_decref(root);
		return NULL;
	}
	json_object_set_new(root, "instructions", rows);
	return root;
}

/* The procedure `proc` of DCPI profile `m`: its function, or MODEL_NONE
 * with the exit status in *rc and a line on stderr. */
static uint32_t find_procedure(const struct model *m, const char *db,
			       const char *proc, int *rc)
{
	*rc = CLI_EXIT_USAGE;
	char names[128];
	if (!reader_has_listing(model_format(m), names, sizeof(names))) {
		fprintf(stderr, "callscope listing: %s is a %s database; "
				"listings are for %s profiles\n",
			db, model_format(m), names);
		return MODEL_NONE;
	}
	/* every procedure: a large database's deferred images read first */
	if (!cli_load_all(m)) {
		*rc = CLI_EXIT_DATA;
		return MODEL_NONE;
	}
	uint32_t fn = proc_listing_find(m, proc);
	if (fn == MODEL_NONE) {
		fputs("callscope listing: no procedure ", stderr);
		present_put_text(stderr, proc);
		fputs(" in the profile\n", stderr);
	}
	return fn;
}

int cmd_listing(struct session *s, int argc, char **argv);
int cmd_listing(struct session *s, int argc, char **argv)
{
	struct cli_args a = {.cmd = "listing", .formats = CLI_TEXT_JSON,
			     .expected = "a database and a procedure",
			     .min_operands = 2, .max_operands = 2};
	int rc, c;
	while ((c = cli_args_next(&a, argc, argv)) > 0)
		;
	if (c == CLI_ARGS_EXIT)
		return a.exit_code;
	const char *proc = a.operands[1];
	struct model *m = cli_open_all(s, (const char *const *)a.operands, 1);
	struct proc_listing *l = NULL;
	struct error err = {0};
	if (!m)
		return CLI_EXIT_DATA;
	uint32_t fn = find_procedure(m, a.operands[0], proc, &rc);
	if (fn == MODEL_NONE)
		goto out;
	rc = CLI_EXIT_DATA;
	enum status st = proc_listing_build(m, fn, &l, &err);
	if (st != STATUS_OK) {
		cli_put_error(&err, status_message(st));
		goto out;
	}
	if (a.format != PRESENT_FORMAT_JSON) {
		put_text(m, l, proc);
	} else if (!cli_put_json(listing_json(m, l), JSON_INDENT(1))) {
		fputs("callscope listing: out of memory\n", stderr);
		goto out;
	}
	rc = cli_value_error(m) ? CLI_EXIT_DATA : CLI_EXIT_OK;
out:
	proc_listing_free(l);
	model_free(m);
	return rc;
}
