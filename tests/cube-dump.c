/* cube-dump: the per-location values of a Cube file as the cube reader
 * gives them, for tests/check_cube_corpus.py: one line per call node,
 * statistic and location with a non-zero value:
 *   "L <cnode id> <metric> <I|E> <location> <value %.17g>"
 * and, first, "S <metric> <I|E> <stat index>" per statistic.  Exit 2 with
 * the error line when the file does not open. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "formats/reader.h"
#include "model/model.h"

#include "dump_error.h"

extern const struct reader reader_cube;

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: cube-dump FILE.cubex\n");
		return 64;
	}
	struct model *m = NULL;
	struct error err = {0};
	if (reader_open_path(&reader_cube, argv[1], &m, &err) != STATUS_OK) {
		return dump_error(NULL, &err);
	}
	/* the statistics the columns read, with the columns' kinds */
	char *kinds = calloc(model_n_stats(m) + 1, 1);
	if (!kinds)
		return 2;
	for (uint32_t c = 0; c < model_n_columns(m); c++) {
		uint32_t s = model_column_stat(m, c);
		if (s == MODEL_NONE)
			continue;
		kinds[s] = model_columns(m)[c].kind == COLUMN_INCLUSIVE ? 'I' : 'E';
		printf("S %s %c %u\n", model_str(m, model_stats(m)[s].metric),
		       kinds[s], (unsigned)s);
	}
	int status = 0;
	for (uint32_t node = 1; node < model_n_nodes(m); node++) {
		for (uint32_t s = 0; s < model_n_stats(m); s++) {
			if (!kinds[s])
				continue;
			struct profile_value *pv = NULL;
			size_t n = 0;
			if (model_per_profile(m, node, s, &pv, &n, &err) !=
			    STATUS_OK) {
				status = dump_error(NULL, &err);
				continue;
			}
			const char *name = model_str(m, model_stats(m)[s].metric);
			char kind = kinds[s];
			for (size_t i = 0; i < n; i++)
				printf("L %u %s %c %u %.17g\n",
				       (unsigned)(model_nodes(m)[node].ctx_id -
						  model_ctx_id_base(m)),
				       name, kind, (unsigned)pv[i].profile,
				       pv[i].value);
			free(pv);
		}
	}
	free(kinds);
	model_free(m);
	return status;
}
