/* cmd_cache: `callscope cache list|clear|dir` -- what the cache holds
 * (downloads by URL, size, date; what readers keep there, such as the
 * indexes of GPU runs, by first file, asked of the reader registry),
 * emptying it, and where it is.  Must not depend
 * on curses or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "formats/reader.h"
#include "net/url_cache.h"

static void print_error(struct error *err)
{
	char *line = error_format(err);
	fputs("callscope cache: ", stderr);
	present_put_text(stderr, line ? line : "out of memory");
	fputc('\n', stderr);
	free(line);
	error_clear(err);
}

static void date_text(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (t <= 0 || !gmtime_r(&tt, &tm) ||
	    strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm) == 0)
		snprintf(buf, len, "-");
}

static int list(const char *root, enum present_format format)
{
	struct error err = {0};
	struct url_cache_entry *e = NULL;
	size_t n = 0;
	if (url_cache_list(root, &e, &n, &err) != STATUS_OK) {
		print_error(&err);
		return CLI_EXIT_DATA;
	}
	/* what the readers keep (ROOT/NAME of each reader's cache_name) */
	struct reader_cache_entry *runs = NULL;
	size_t n_runs = 0;
	if (reader_cache_list(root, &runs, &n_runs, &err) != STATUS_OK) {
		print_error(&err);
		url_cache_list_free(e, n);
		return CLI_EXIT_DATA;
	}
	if (format == PRESENT_FORMAT_JSON) {
		json_t *arr = json_array();
		for (size_t i = 0; arr && i < n; i++) {
			char date[64];
			date_text(e[i].date, date, sizeof(date));
			json_array_append_new(
				arr,
				json_pack("{s:o, s:s, s:I, s:s, s:b, s:b, s:o}",
					  "url", present_json_text(e[i].url),
					  "kind", e[i].kind, "size",
					  (json_int_t)e[i].size, "date", date,
					  "complete", e[i].complete, "remote",
					  e[i].remote, "path",
					  present_json_text(e[i].dir)));
		}
		for (size_t i = 0; arr && i < n_runs; i++) {
			char date[64];
			date_text(runs[i].date, date, sizeof(date));
			json_array_append_new(
				arr,
				json_pack("{s:o, s:s, s:I, s:s, s:b, s:b, s:o, "
					  "s:I}",
					  "url", present_json_text(runs[i].first),
					  "kind", runs[i].kind, "size",
					  (json_int_t)runs[i].bytes, "date",
					  date, "complete", true, "remote",
					  false, "path",
					  present_json_text(runs[i].path), "files",
					  (json_int_t)runs[i].n_files));
		}
		present_put_json(stdout, arr, JSON_INDENT(1));
		fputc('\n', stdout);
		json_decref(arr);
	} else {
		for (size_t i = 0; i < n; i++) {
			char date[64];
			date_text(e[i].date, date, sizeof(date));
			printf("%12" PRIu64 "  %-20s  ", e[i].size, date);
			present_put_text(stdout, e[i].url);
			fputs(!e[i].complete ? "  (incomplete)\n"
			      : e[i].remote ? "  (partly remote)\n"
					    : "\n",
			      stdout);
		}
	}
	if (format != PRESENT_FORMAT_JSON)
		for (size_t i = 0; i < n_runs; i++) {
			char date[64];
			date_text(runs[i].date, date, sizeof(date));
			printf("%12" PRIu64 "  %-20s  ", runs[i].bytes, date);
			present_put_text(stdout, runs[i].first);
			if (runs[i].n_files > 1)
				printf(" and %" PRIu32 " more", runs[i].n_files - 1);
			printf("  (%s)\n", runs[i].label);
		}
	reader_cache_list_free(runs, n_runs);
	url_cache_list_free(e, n);
	return CLI_EXIT_OK;
}

int cmd_cache(struct session *s, int argc, char **argv);
int cmd_cache(struct session *s, int argc, char **argv)
{
	enum present_format format = PRESENT_FORMAT_TEXT;
	int exit_code;
	const char *what = cli_one_operand("cache", argc, argv,
					   "list, clear or dir", &format, NULL,
					   &exit_code);
	if (!what)
		return exit_code;
	struct error err = {0};
	char *root = NULL;
	if (url_cache_root(&s->options, &root, &err) != STATUS_OK) {
		print_error(&err);
		return CLI_EXIT_DATA;
	}
	int rc = CLI_EXIT_OK;
	if (strcmp(what, "list") == 0) {
		rc = list(root, format);
	} else if (strcmp(what, "clear") == 0) {
		if (url_cache_clear(root, &err) != STATUS_OK) {
			print_error(&err);
			rc = CLI_EXIT_DATA;
		}
	} else if (strcmp(what, "dir") == 0) {
		present_put_text(stdout, root);
		fputc('\n', stdout);
	} else {
		fputs("callscope cache: expected list, clear or dir, not '",
		      stderr);
		present_put_text(stderr, what);
		fputs("'\n", stderr);
		rc = CLI_EXIT_USAGE;
	}
	free(root);
	return rc;
}
