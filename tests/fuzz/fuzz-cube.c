/* fuzz-cube: libFuzzer target for the Cube4 reader.  The input is a .cubex
 * file (a tar of anchor.xml and per-metric index and data members),
 * written to a private temporary directory and opened through the
 * registry; then every statistic is read at every call node (the lazy
 * index, row and zlib paths), and the per-location values of the first
 * node, and of its code columns (SCALE_FUNC) the function texts, so
 * that a damaged member or cell found late is exercised too.  Whatever
 * the input: no crash, no leak, no hang.  Links the engine only. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/model.h"
#include "open.h"
#include "fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[FUZZ_TMP_MAX + 16];

static void read_values(const struct model *m)
{
	double *values = calloc(model_n_nodes(m) ? model_n_nodes(m) : 1, sizeof(*values));
	if (!values)
		return;
	for (uint32_t s = 0; s < model_n_stats(m); s++) {
		struct error err = {0};
		(void)model_stat_dense(m, s, values, NULL, &err);
		error_clear(&err);
	}
	free(values);
	for (uint32_t s = 0; model_n_nodes(m) > 1 && s < model_n_stats(m) && s < 4; s++) {
		struct profile_value *per = NULL;
		size_t n = 0;
		struct error err = {0};
		(void)model_per_profile(m, 1, s, &per, &n, &err);
		free(per);
		error_clear(&err);
	}
	for (uint32_t c = 0; model_n_nodes(m) > 1 && c < model_n_columns(m); c++) {
		if (!model_column_is_code(m, c))
			continue;
		struct profile_value *per = NULL;
		size_t n = 0;
		struct error e = {0};
		(void)model_per_profile(m, 1, model_column_stat(m, c), &per, &n, &e);
		error_clear(&e);
		for (size_t i = 0; i <= n; i++) {
			char *text = NULL;
			(void)model_value_text(m, 1, c, i < n ? per[i].profile : UINT32_MAX,
					       &text, &e);
			free(text);
			error_clear(&e);
		}
		free(per);
	}
	struct error err = {0};
	while (model_take_value_error(m, &err))
		error_clear(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!path[0])
		snprintf(path, sizeof(path), "%s/f.cubex", fuzz_tmp_dir("cube"));
	FILE *fp = fopen(path, "wb");
	if (!fp || (size && fwrite(data, 1, size, fp) != size))
		abort();
	fclose(fp);
	struct model *m = NULL;
	struct error err = {0};
	if (database_open(path, &m, &err) == STATUS_OK)
		read_values(m);
	model_free(m);
	error_clear(&err);
	return 0;
}
