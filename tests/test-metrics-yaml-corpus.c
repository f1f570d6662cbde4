/* test-metrics-yaml-corpus: every metrics/default.yaml of the shared
 * corpus read by the METRICS.yaml reader, against statistics synthesized
 * (by a line scan independent of the reader) from its own `inputs:` list.
 * Skipped without ../shared. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <sys/stat.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/hpctoolkit_v4/metrics.h"
#include "formats/hpctoolkit_v4/metrics_yaml.h"
#include "model/model.h"
#include "metrics_yaml_fixture.h"


static char *unquote(const char *s)
{
	while (*s == ' ')
		s++;
	size_t len = strcspn(s, "\r\n");
	while (len && s[len - 1] == ' ')
		len--;
	if (len >= 2 && (s[0] == '"' || s[0] == '\'') && s[len - 1] == s[0]) {
		s++;
		len -= 2;
	}
	return strndup(s, len);
}

/* Stats from the `inputs:` block by a plain line scan: entries start with
 * "  - &" and carry "metric:", "scope:", "formula:", "combine:" lines. */
static struct model_builder *builder_from_inputs(const char *path,
						 size_t *lines)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	struct model_builder *b = new_builder();
	char line[4096];
	char *metric = NULL, *scope = NULL, *formula = NULL, *combine = NULL;
	bool in_inputs = false;
	*lines = 0;
	for (;;) {
		bool eof = !fgets(line, sizeof(line), f);
		if (!eof)
			(*lines)++;
		bool entry = !eof && strncmp(line, "  - ", 4) == 0;
		bool end = eof || (line[0] != ' ' && line[0] != '#');
		if ((entry || end) && metric) {
			enum stat_combine c = !combine ? COMBINE_SUM
				: strcmp(combine, "min") == 0 ? COMBINE_MIN
				: strcmp(combine, "max") == 0 ? COMBINE_MAX
				: COMBINE_SUM;
			add_stat(b, metric, scope ? scope : "",
				 formula ? formula : "$$", c);
			free(metric);
			free(scope);
			free(formula);
			free(combine);
			metric = scope = formula = combine = NULL;
		}
		if (eof)
			break;
		if (strncmp(line, "inputs:", 7) == 0) {
			in_inputs = true;
			continue;
		}
		if (end)
			in_inputs = false;
		if (!in_inputs)
			continue;
		const char *p = line + strspn(line, " -");
		if (strncmp(p, "metric:", 7) == 0)
			metric = unquote(p + 7);
		else if (strncmp(p, "scope:", 6) == 0)
			scope = unquote(p + 6);
		else if (strncmp(p, "formula:", 8) == 0)
			formula = unquote(p + 8);
		else if (strncmp(p, "combine:", 8) == 0)
			combine = unquote(p + 8);
	}
	fclose(f);
	return b;
}

static size_t corpus_files;

static int check_corpus_file(const char *path, const struct stat *sb,
			     int type, struct FTW *ftw)
{
	(void)sb;
	if (type != FTW_F || strcmp(path + ftw->base, "default.yaml") != 0)
		return 0;
	size_t lines = 0;
	struct model_builder *b = builder_from_inputs(path, &lines);
	uint32_t n_stats = model_n_stats(model_builder_peek(b));
	assert_true(n_stats > 0);
	char *warning = NULL;
	struct error err = {0};
	assert_int_equal(metrics_add_columns(b, path, &warning, &err),
			 STATUS_OK);
	if (warning)
		fail_msg("%s", warning);
	const struct model *m = model_builder_peek(b);
	assert_true(model_n_columns(m) >= 1);
	size_t with_expr = 0;
	for (uint32_t i = 0; i < model_n_columns(m); i++) {
		const struct model_column *c = &model_columns(m)[i];
		if (c->expr)
			with_expr++;
		assert_true(c->parent == MODEL_NONE || c->parent < i);
		assert_true(c->kind == COLUMN_INCLUSIVE ||
			    c->kind == COLUMN_EXCLUSIVE);
		/* every leaf is a stat of the model */
		char *s = c->expr ? formula_to_string(c->expr, NULL, NULL)
				  : NULL;
		for (const char *p = s; p && (p = strchr(p, '$')); p++)
			assert_true(strtoul(p + 1, NULL, 10) <= n_stats);
		free(s);
	}
	assert_true(with_expr >= 1);
	if (lines == 28 && n_stats == 3 &&
	    strcmp(model_str(m, model_stats(m)[0].metric), "CPUTIME (sec)") == 0) {
		/* execution, lex_aware, function in the file's order */
		assert_string_equal(model_str(m, model_stats(m)[1].scope),
				    "lex_aware");
		assert_int_equal(model_n_columns(m), 2);
		for (uint32_t i = 0; i < 2; i++) {
			assert_string_equal(model_columns(m)[i].name,
					    "CPUTIME (sec)");
			assert_string_equal(model_columns(m)[i].variant, "Sum");
			assert_string_equal(model_columns(m)[i].format, "%.2e");
			assert_int_equal(model_columns(m)[i].render,
					 RENDER_NUMBER | RENDER_PERCENT);
		}
		assert_int_equal(model_columns(m)[0].kind, COLUMN_INCLUSIVE);
		assert_leaf(model_columns(m)[0].expr, 0);
		assert_null(model_columns(m)[0].expr_standard);
		assert_int_equal(model_columns(m)[1].kind, COLUMN_EXCLUSIVE);
		assert_leaf(model_columns(m)[1].expr, 1);
		assert_leaf(model_columns(m)[1].expr_standard, 2);
	}
	model_builder_free(b);
	corpus_files++;
	return 0;
}

static void test_corpus(void **state)
{
	(void)state;
	const char *top = getenv("top_srcdir");
	char *dir = NULL;
	assert_true(asprintf(&dir, "%s/../shared/corpus", top ? top : ".")
		    > 0);
	if (access(dir, R_OK) != 0) {
		free(dir);
		skip();
	}
	corpus_files = 0;
	assert_int_equal(nftw(dir, check_corpus_file, 16, FTW_PHYS), 0);
	assert_true(corpus_files >= 26);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
