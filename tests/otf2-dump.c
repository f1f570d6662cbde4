/* otf2-dump: the per-location values of an OTF2 archive as the otf2 reader
 * gives them (model_per_profile), for tests/check_otf2.py: one line per
 * call path, statistic and location with a non-zero value, tab-separated:
 *   "PATH<TAB>METRIC<TAB>I|E<TAB>LOCATION LABEL<TAB>VALUE (%.17g)"
 * where PATH is the region names from the top, joined by '/'.  Exit 2
 * with the error line when the archive does not open. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reader.h"
#include "model/model.h"

extern const struct reader reader_otf2;

static void print_path(const struct model *m, uint32_t node)
{
	if (m->nodes[node].parent != 0 && m->nodes[node].parent != MODEL_NONE) {
		print_path(m, m->nodes[node].parent);
		putchar('/');
	}
	fputs(model_str(m, m->nodes[node].name), stdout);
}

static int dump_node(const struct model *m, uint32_t node)
{
	int status = 0;
	for (uint32_t c = 0; c < m->n_columns; c++) {
		uint32_t s = model_column_stat(m, c);
		struct profile_value *pv = NULL;
		size_t n = 0;
		struct error err = {0};
		if (s == MODEL_NONE)
			continue;
		if (model_per_profile(m, node, s, &pv, &n, &err) != STATUS_OK) {
			char *line = error_format(&err);
			fprintf(stderr, "%s\n", line ? line : "error");
			free(line);
			error_clear(&err);
			status = 2;
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			print_path(m, node);
			printf("\t%s\t%c\t%s\t%.17g\n", m->columns[c].name,
			       m->columns[c].kind == COLUMN_INCLUSIVE ? 'I' : 'E',
			       model_str(m, m->profiles[pv[i].profile].label),
			       pv[i].value);
		}
		free(pv);
	}
	return status;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: otf2-dump ARCHIVE\n");
		return 64;
	}
	struct model *m = NULL;
	struct error err = {0};
	if (reader_open_path(&reader_otf2, argv[1], &m, &err) != STATUS_OK) {
		char *line = error_format(&err);
		fprintf(stderr, "%s\n", line ? line : "error");
		free(line);
		error_clear(&err);
		return 2;
	}
	int status = 0;
	for (uint32_t node = 1; node < m->n_nodes; node++)
		status |= dump_node(m, node);
	model_free(m);
	return status;
}
