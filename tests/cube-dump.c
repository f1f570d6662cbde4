/* cube-dump: the per-location values of a Cube file as the cube reader
 * gives them, for tests/check_cube_corpus.py: one line per call node,
 * statistic and location with a non-zero value:
 *   "L <cnode id> <metric> <I|E> <location> <value %.17g>"
 * and, first, "S <metric> <I|E> <stat index>" per statistic; for a
 * column of codes (model_column_is_code: SCALE_FUNC) the text each value
 * stands for, over every location and per location with a value:
 *   "F <cnode id> <metric> <I|E> <location|all> <text>".  Exit 2 with
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
	uint32_t *code_col = calloc(model_n_stats(m) + 1, sizeof(*code_col));
	if (!kinds || !code_col)
		return 2;
	for (uint32_t c = 0; c < model_n_columns(m); c++) {
		uint32_t s = model_column_stat(m, c);
		if (s == MODEL_NONE)
			continue;
		kinds[s] = model_columns(m)[c].kind == COLUMN_INCLUSIVE ? 'I' : 'E';
		code_col[s] = model_column_is_code(m, c) ? c + 1 : 0;
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
			unsigned id = (unsigned)(model_nodes(m)[node].ctx_id -
						 model_ctx_id_base(m));
			for (size_t i = 0; i < n; i++)
				printf("L %u %s %c %u %.17g\n", id, name, kind,
				       (unsigned)pv[i].profile, pv[i].value);
			for (size_t i = 0; code_col[s] && i <= n; i++) {
				char *text = NULL;
				uint32_t p = i < n ? pv[i].profile : UINT32_MAX;
				if (model_value_text(m, node, code_col[s] - 1,
						     p, &text, &err) !=
				    STATUS_OK) {
					status = dump_error(NULL, &err);
					break;
				}
				if (!text)
					continue;
				if (i < n)
					printf("F %u %s %c %u %s\n", id, name,
					       kind, (unsigned)p, text);
				else
					printf("F %u %s %c all %s\n", id, name,
					       kind, text);
				free(text);
			}
			free(pv);
		}
	}
	free(kinds);
	free(code_col);
	model_free(m);
	return status;
}
