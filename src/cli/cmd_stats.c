/* cmd_stats: `callscope stats DB... [--kind KIND] [--format
 * text|csv|json]`: an `nsys stats`-like summary of a GPU trace per kind
 * (kernels, memory copies and sets, API calls, NVTX/roctx ranges, OS
 * runtime calls): for each name its share of the kind's time, total,
 * instances, mean, median, minimum, maximum and sample standard deviation
 * of the durations, sorted by total (src/views/kind_summary.c).  Text
 * shows times as a person reads them ("373.3 ms"); CSV and JSON keep raw
 * nanoseconds.  --kind keeps one kind ("kernel", "api", "copy", "range",
 * or a kind's name as the text output titles it).  Must not depend on
 * curses or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "present/present_value.h"
#include "present/present_write.h"
#include "views/kind_summary.h"

/* The text of one kind: a title, a header and a line per name. */
static void put_text_kind(const struct kind_summary_kind *k)
{
	char total[32];
	present_duration_ns(k->total, total, sizeof(total));
	if (*k->group) {
		present_put_text(stdout, k->group);
		putchar(' ');
	}
	present_put_text(stdout, k->kind);
	printf(" (%" PRIu64 " instance%s, %s)\n", k->count,
	       k->count == 1 ? "" : "s", total);
	printf("%8s %11s %11s %11s %11s %11s %11s %11s  %s\n", "Time (%)",
	       "Total", "Instances", "Mean", "Median", "Min", "Max", "StdDev",
	       "Name");
	for (size_t i = 0; i < k->n_rows; i++) {
		const struct kind_summary_row *r = &k->rows[i];
		const double v[] = {r->total, r->mean, r->median,
				    r->min,   r->max,  r->stddev};
		char t[6][32];
		for (size_t c = 0; c < 6; c++)
			present_duration_ns(v[c], t[c], sizeof(t[c]));
		printf("%8.1f %11s %11" PRIu64 " %11s %11s %11s %11s %11s  ",
		       r->percent, t[0], r->count, t[1], t[2], t[3], t[4],
		       t[5]);
		present_put_text(stdout, r->name);
		putchar('\n');
	}
}

static void put_csv_kind(const struct kind_summary_kind *k)
{
	for (size_t i = 0; i < k->n_rows; i++) {
		const struct kind_summary_row *r = &k->rows[i];
		present_put_csv(stdout, k->group);
		putchar(',');
		present_put_csv(stdout, k->kind);
		putchar(',');
		present_put_csv(stdout, r->name);
		printf(",%" PRIu64, r->count);
		const double v[] = {r->total, r->percent, r->mean, r->median,
				    r->min,   r->max,     r->stddev};
		for (size_t c = 0; c < sizeof(v) / sizeof(v[0]); c++) {
			putchar(',');
			present_put_number(stdout, v[c]);
		}
		putchar('\n');
	}
}

static json_t *json_kind(const struct kind_summary_kind *k)
{
	json_t *o = json_object(), *rows = json_array();
	if (!o || !rows ||
	    json_object_set_new(o, "group", present_json_text(k->group)) ||
	    json_object_set_new(o, "kind", present_json_text(k->kind)) ||
	    json_object_set_new(o, "count", json_integer((json_int_t)k->count)) ||
	    json_object_set_new(o, "total", present_json_number(k->total))) {
		json_decref(o);
		json_decref(rows);
		return NULL;
	}
	for (size_t i = 0; i < k->n_rows; i++) {
		const struct kind_summary_row *r = &k->rows[i];
		json_t *x = json_object();
		if (!x ||
		    json_object_set_new(x, "name", present_json_text(r->name)) ||
		    json_object_set_new(x, "count",
					json_integer((json_int_t)r->count)) ||
		    json_object_set_new(x, "total", present_json_number(r->total)) ||
		    json_object_set_new(x, "percent", present_json_number(r->percent)) ||
		    json_object_set_new(x, "mean", present_json_number(r->mean)) ||
		    json_object_set_new(x, "median", present_json_number(r->median)) ||
		    json_object_set_new(x, "min", present_json_number(r->min)) ||
		    json_object_set_new(x, "max", present_json_number(r->max)) ||
		    json_object_set_new(x, "stddev", present_json_number(r->stddev)) ||
		    json_array_append_new(rows, x)) {
			json_decref(x);
			json_decref(o);
			json_decref(rows);
			return NULL;
		}
	}
	if (json_object_set_new(o, "rows", rows)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int cmd_stats(struct session *session, int argc, char **argv);
int cmd_stats(struct session *session, int argc, char **argv)
{
	static const struct option own[] = {
		{"kind", required_argument, NULL, 'k'},
		{NULL, 0, NULL, 0},
	};
	struct cli_args a = {.cmd = "stats", .options = own,
			     .shortopts = "k:", .formats = CLI_TEXT_CSV_JSON,
			     .expected = "a database", .min_operands = 1};
	const char *kind = NULL;
	int c;
	while ((c = cli_args_next(&a, argc, argv)) > 0)
		kind = optarg; /* -k */
	if (c == CLI_ARGS_EXIT)
		return a.exit_code;
	enum present_format format = a.format;
	struct model *m = cli_open_all(session, (const char *const *)a.operands,
				       (size_t)a.n_operands);
	if (!m)
		return CLI_EXIT_DATA;
	struct kind_summary *s = NULL;
	struct error err = {0};
	int rc = CLI_EXIT_OK;
	enum status st = kind_summary_build(m, &s, &err);
	if (st != STATUS_OK) {
		cli_put_error(&err, status_message(st));
		rc = st == STATUS_UNSUPPORTED ? CLI_EXIT_USAGE : CLI_EXIT_DATA;
		goto out;
	}
	const struct kind_summary_kind *only = NULL;
	if (kind) {
		only = kind_summary_find(s, kind);
		if (!only) {
			fputs("callscope stats: no kind ", stderr);
			present_put_text(stderr, kind);
			fputs(" in this run (", stderr);
			for (size_t i = 0; i < s->n_kinds; i++) {
				if (i)
					fputs(", ", stderr);
				present_put_text(stderr, s->kinds[i].kind);
			}
			fputs(")\n", stderr);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
	}
	size_t first = only ? (size_t)(only - s->kinds) : 0,
	       end = only ? first + 1 : s->n_kinds;
	if (format == PRESENT_FORMAT_JSON) {
		json_t *root = json_object(), *kinds = json_array();
		bool ok = root && kinds;
		for (size_t i = first; ok && i < end; i++) {
			json_t *k = json_kind(&s->kinds[i]);
			ok = k && json_array_append_new(kinds, k) == 0;
		}
		if (ok && json_object_set_new(root, "kinds", kinds) == 0) {
			kinds = NULL;
			ok = present_put_json(stdout, root, JSON_INDENT(1));
		} else {
			ok = false;
		}
		json_decref(kinds);
		json_decref(root);
		if (!ok) {
			fputs("callscope stats: out of memory\n", stderr);
			rc = CLI_EXIT_DATA;
		}
	} else if (format == PRESENT_FORMAT_CSV) {
		puts("group,kind,name,count,total_ns,percent,mean_ns,median_ns,"
		     "min_ns,max_ns,stddev_ns");
		for (size_t i = first; i < end; i++)
			put_csv_kind(&s->kinds[i]);
	} else {
		for (size_t i = first; i < end; i++) {
			if (i > first)
				putchar('\n');
			put_text_kind(&s->kinds[i]);
		}
	}
	if (rc == CLI_EXIT_OK && fflush(stdout) != 0)
		rc = CLI_EXIT_DATA;
out:
	kind_summary_free(s);
	model_free(m);
	return rc;
}
