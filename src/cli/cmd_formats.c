/* cmd_formats: `callscope formats`: the readers compiled in, what files
 * each reads and what its models hold (capabilities), from the reader
 * table; the man page's format list is checked against it
 * (tests/test-man-keys.sh).  Must not depend on curses or on ui/. */
#include "config.h"

#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "formats/reader.h"

static void formats_text(void)
{
	for (const struct reader *const *r = reader_all(); *r; r++) {
		cli_put_item(stdout, (*r)->name, (*r)->description);
		char caps[256] = "";
		size_t len = 0;
		for (unsigned bit = 0; bit < READER_CAP_COUNT; bit++)
			if ((*r)->caps & (1u << bit))
				len += (size_t)snprintf(
					caps + len, sizeof(caps) - len, "%s%s",
					len ? ", " : "", reader_cap_name(bit));
		cli_put_item(stdout, "", caps);
	}
	fputs("\nCapabilities:\n", stdout);
	for (unsigned bit = 0; bit < READER_CAP_COUNT; bit++)
		cli_put_item(stdout, reader_cap_name(bit), reader_cap_text(bit));
}

static json_t *formats_json(void)
{
	json_t *list = json_array();
	for (const struct reader *const *r = reader_all(); *r; r++) {
		json_t *caps = json_array();
		for (unsigned bit = 0; bit < READER_CAP_COUNT; bit++)
			if ((*r)->caps & (1u << bit))
				json_array_append_new(
					caps, json_string(reader_cap_name(bit)));
		json_array_append_new(
			list, json_pack("{s:s, s:s, s:o}", "name", (*r)->name,
					"description", (*r)->description,
					"capabilities", caps));
	}
	return list;
}

int cmd_formats(struct session *s, int argc, char **argv);
int cmd_formats(struct session *s, int argc, char **argv)
{
	struct cli_args a = {.cmd = "formats", .formats = CLI_TEXT_JSON,
			     .expected = "no operand", .max_operands = -1};
	int c;
	while ((c = cli_args_next(&a, argc, argv)) > 0)
		; /* no options of its own */
	if (c == CLI_ARGS_EXIT)
		return a.exit_code;
	if (a.format == PRESENT_FORMAT_JSON) {
		json_t *doc = formats_json();
		present_put_json(stdout, doc, JSON_INDENT(1));
		fputc('\n', stdout);
		json_decref(doc);
	} else {
		formats_text();
	}
	return CLI_EXIT_OK;
}
