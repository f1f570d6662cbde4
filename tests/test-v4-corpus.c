/* test-v4-corpus: every HPCToolkit v4 database of the shared corpus opens,
 * and matches the reference values computed by HPCToolkit's own Python
 * reader (shared/expected/hpctoolkit-v4/X.json): tree shape, node kinds,
 * names, every summary value, trace counts and probes.  The pre-release
 * 2022 databases and the trace.db-only directory are rejected with clear
 * messages. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "model/model.h"
#include "formats/reader.h"
#include "open.h"
#include "v4_corpus.h"

extern const struct reader reader_hpctoolkit_v4;

static char *shared_dir;
static size_t n_values_checked, n_probes_checked;

/* database directories found under corpus/hpctoolkit-v4 */
static char **dbs;
static size_t n_dbs;

static double jnum(const json_t *j)
{
	return json_is_integer(j) ? (double)json_integer_value(j)
				  : json_number_value(j);
}

/* Probes and timestamps need all 64 bits: integers when jansson could
 * parse them as such. */
static uint64_t ju64(const json_t *j)
{
	return json_is_integer(j) ? (uint64_t)json_integer_value(j)
				  : (uint64_t)json_number_value(j);
}

static json_t *load_json(const char *path)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	/* 9223372036854775808 (an empty trace's max) is past int64: read
	 * those files with reals */
	if (!root)
		root = json_load_file(path, JSON_DECODE_INT_AS_REAL, &jerr);
	if (!root)
		fail_msg("%s: %s", path, jerr.text);
	return root;
}

/* The stat whose metric|scope|formula|combine is `key`, or MODEL_NONE. */
static uint32_t find_stat(const struct model *m, const char *key)
{
	static const char *const combines[] = {"sum", "min", "max"};
	for (uint32_t i = 0; i < model_n_stats(m); i++) {
		const struct model_stat *s = &model_stats(m)[i];
		char *k = NULL;
		assert_true(asprintf(&k, "%s|%s|%s|%s",
				     model_str(m, s->metric),
				     model_str(m, s->scope),
				     model_str(m, s->formula),
				     combines[s->combine]) > 0);
		bool eq = strcmp(k, key) == 0;
		free(k);
		if (eq)
			return i;
	}
	return MODEL_NONE;
}

static void check_summary(const char *db, const struct model *m,
			  uint32_t node, json_t *summary)
{
	const char *key;
	json_t *val;
	size_t matched = 0;
	json_object_foreach(summary, key, val)
	{
		uint32_t stat = find_stat(m, key);
		if (stat == MODEL_NONE)
			fail_msg("%s: no statistic %s", db, key);
		double want = jnum(val), got;
		if (!model_stat_value(m, node, stat, &got))
			fail_msg("%s: ctx %u: no value for %s", db,
				 model_nodes(m)[node].ctx_id, key);
		double tol = 1e-9 * fmax(fabs(want), 1e-300);
		if (fabs(got - want) > tol)
			fail_msg("%s: ctx %u: %s = %.17g, expected %.17g", db,
				 model_nodes(m)[node].ctx_id, key, got, want);
		matched++;
		n_values_checked++;
	}
	/* and nothing more: a missing key means no value */
	size_t present = 0;
	for (uint32_t s = 0; s < model_n_stats(m); s++) {
		double v;
		if (model_stat_value(m, node, s, &v))
			present++;
	}
	if (present != matched)
		fail_msg("%s: ctx %u: %zu values present, %zu expected", db,
			 model_nodes(m)[node].ctx_id, present, matched);
}

/* HPCToolkit's words in the reference (its Python reader's "lexical" and
 * "relation") and the node kinds and relations the reader must give. */
struct hpc_word {
	const char *word;
	int value;
};

static const struct hpc_word lexical_kinds[] = {
    {"entry", NODE_ENTRY}, {"function", NODE_FUNCTION}, {"loop", NODE_LOOP},
    {"line", NODE_LINE},   {"instruction", NODE_INSTRUCTION},
};

static const struct hpc_word relations[] = {
    {"lexical", RELATION_LEXICAL},
    {"call", RELATION_CALL},
    {"inlined_call", RELATION_INLINED_CALL},
};

/* The value of `word` in table t, -1 when it is not there (or NULL). */
static int word_value(const struct hpc_word *t, size_t n, const char *word)
{
	for (size_t i = 0; word && i < n; i++)
		if (strcmp(t[i].word, word) == 0)
			return t[i].value;
	return -1;
}

static void check_contexts(const char *db, const struct model *m,
			   json_t *contexts)
{
	const char *key;
	json_t *c;
	assert_int_equal(json_object_size(contexts), model_n_nodes(m) - 1);
	json_object_foreach(contexts, key, c)
	{
		uint32_t id = (uint32_t)strtoul(key, NULL, 10);
		uint32_t node = model_node_of_ctx(m, id);
		if (node == MODEL_NONE)
			fail_msg("%s: ctx %u missing", db, id);
		const struct model_node *n = &model_nodes(m)[node];
		uint32_t parent = model_nodes(m)[n->parent].ctx_id;
		if (parent != (uint32_t)ju64(json_object_get(c, "parent")))
			fail_msg("%s: ctx %u: parent %u, expected %u", db, id,
				 parent,
				 (unsigned)ju64(json_object_get(c, "parent")));
		/* JSON depth counts entries as 0 */
		assert_int_equal(n->depth - 1,
				 ju64(json_object_get(c, "depth")));
		const char *lex = json_string_value(json_object_get(c, "lexical"));
		if (n->kind != word_value(lexical_kinds,
					  sizeof(lexical_kinds) /
					      sizeof(lexical_kinds[0]),
					  lex))
			fail_msg("%s: ctx %u: kind %u, expected %s", db, id,
				 (unsigned)n->kind, lex ? lex : "null");
		/* null: an entry point's, no relation */
		const char *rel =
			json_string_value(json_object_get(c, "relation"));
		int want = rel ? word_value(relations,
					    sizeof(relations) /
						sizeof(relations[0]),
					    rel)
			       : RELATION_NONE;
		if (n->relation != want)
			fail_msg("%s: ctx %u: relation %u, expected %s", db, id,
				 (unsigned)n->relation, rel ? rel : "null");
		const char *name = json_string_value(json_object_get(c, "name"));
		if ((n->kind == NODE_ENTRY ||
		     (n->kind == NODE_FUNCTION && n->name != 0)) &&
		    (!name || strcmp(name, model_str(m, n->name)) != 0))
			fail_msg("%s: ctx %u: name '%s', expected '%s'", db, id,
				 model_str(m, n->name), name ? name : "null");
		if (n->kind == NODE_LINE || n->kind == NODE_LOOP) {
			const char *file =
				json_string_value(json_object_get(c, "file"));
			assert_non_null(file);
			assert_string_equal(file, model_str(m, n->file));
			assert_int_equal(n->line,
					 ju64(json_object_get(c, "line")));
		}
		const char *module =
			json_string_value(json_object_get(c, "module"));
		if (module)
			assert_string_equal(module, model_str(m, n->module));
		check_summary(db, m, node, json_object_get(c, "summary"));
	}
}

/* Index of the last sample at or before `t` in `line`, or -1. */
static int64_t last_at_or_before(const struct model *m, uint32_t line,
				 uint64_t t)
{
	uint64_t lo = 0, hi = model_timelines(m)[line].count;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		struct trace_sample s;
		assert_true(model_sample(m, line, mid, &s));
		if (s.time <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int64_t)lo - 1;
}

static void check_trace(const char *db, const struct model *m,
			const json_t *trace)
{
	if (!trace) {
		assert_int_equal(model_n_timelines(m), 0);
		return;
	}
	assert_int_equal(model_n_timelines(m), ju64(json_object_get(trace, "lines")));
	uint64_t total = 0;
	for (uint32_t i = 0; i < model_n_timelines(m); i++) {
		assert_int_equal(model_timelines(m)[i].kind, TIMELINE_SAMPLES);
		assert_int_equal(model_timelines(m)[i].label,
				 model_profiles(m)[model_timelines(m)[i].profile].label);
		total += model_timelines(m)[i].count;
	}
	assert_int_equal(total, ju64(json_object_get(trace, "elements")));
	const json_t *jmin = json_object_get(trace, "min");
	const json_t *jmax = json_object_get(trace, "max");
	if (total == 0) {
		/* no samples: the reference gives the header's placeholders
		 * (hpcprof's INT64_MAX .. INT64_MIN); there is no range */
		assert_int_equal(model_time_min(m), 0);
		assert_int_equal(model_time_max(m), 0);
	} else if (json_is_integer(jmin) && json_is_integer(jmax)) {
		assert_int_equal(model_time_min(m), ju64(jmin));
		assert_int_equal(model_time_max(m), ju64(jmax));
	} else {
		assert_true((double)model_time_min(m) == jnum(jmin));
		assert_true((double)model_time_max(m) == jnum(jmax));
	}
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(trace, "probes"), i, p)
	{
		uint32_t line = (uint32_t)ju64(json_object_get(p, "line"));
		uint64_t t = ju64(json_object_get(p, "t"));
		uint32_t ctx = (uint32_t)ju64(json_object_get(p, "ctx"));
		assert_true(line < model_n_timelines(m));
		assert_int_equal(model_timelines(m)[line].profile,
				 ju64(json_object_get(p, "prof_index")));
		int64_t k = last_at_or_before(m, line, t);
		uint32_t got = 0;
		if (k >= 0) {
			struct trace_sample s;
			assert_true(model_sample(m, line, (uint64_t)k, &s));
			got = s.ctx_id;
		}
		n_probes_checked++;
		if (got != ctx)
			fail_msg("%s: probe line %u t %llu: ctx %u, expected "
				 "%u",
				 db, line, (unsigned long long)t, got, ctx);
	}
}

/* shared_dir/corpus/REL (heap) */
static char *corpus_path(const char *rel)
{
	char *p = NULL;
	assert_true(asprintf(&p, "%s/corpus/%s", shared_dir, rel) > 0);
	return p;
}

static void test_corpus_opens_and_matches(void **state)
{
	(void)state;
	char *root = NULL;
	assert_true(asprintf(&root, "%s/corpus/hpctoolkit-v4", shared_dir) > 0);
	dbs = v4_corpus_dbs(root, &n_dbs);
	assert_true(n_dbs >= 25);
	size_t with_expected = 0;
	for (size_t i = 0; i < n_dbs; i++) {
		const char *rel = dbs[i] + strlen(root) + 1;
		struct model *m = NULL;
		struct error err = {.status = STATUS_OK};
		assert_int_equal(reader_bid_path(&reader_hpctoolkit_v4, dbs[i]), 90);
		enum status st = reader_open_path(&reader_hpctoolkit_v4, dbs[i], &m, &err);
		if (st != STATUS_OK) {
			char *msg = error_format(&err);
			fail_msg("%s: %s", rel, msg);
		}
		assert_string_equal(model_format(m), "hpctoolkit-v4");
		assert_true(model_n_columns(m) > 0);
		char *exp = NULL;
		assert_true(asprintf(&exp, "%s/expected/hpctoolkit-v4/%s.json",
				     shared_dir, rel) > 0);
		struct stat sb;
		if (stat(exp, &sb) == 0) {
			json_t *j = load_json(exp);
			with_expected++;
			assert_string_equal(
				model_title(m) ? model_title(m) : "",
				json_string_value(json_object_get(j, "title")));
			assert_int_equal(model_n_profiles(m),
					 ju64(json_object_get(j, "profiles")));
			assert_true(model_profiles(m)[0].is_summary);
			check_contexts(rel, m, json_object_get(j, "contexts"));
			check_summary(rel, m, 0, json_object_get(j, "global"));
			check_trace(rel, m, json_object_get(j, "trace"));
			json_decref(j);
		}
		free(exp);
		model_free(m);
		error_clear(&err);
	}
	assert_int_equal(with_expected, 27);
	print_message("%zu databases, %zu summary values, %zu probes\n",
		      n_dbs, n_values_checked, n_probes_checked);
	assert_true(n_values_checked > 10000);
	free(root);
}

static void test_prerelease_rejected(void **state)
{
	(void)state;
	static const char *const names[] = {"loop-inline", "multithread",
					    "quicksilver"};
	for (size_t i = 0; i < 3; i++) {
		char *dir = NULL;
		struct model *m = NULL;
		struct error err = {.status = STATUS_OK};
		assert_true(asprintf(&dir,
				     "%s/corpus/hpctoolkit-v4-prerelease-2022/"
				     "hpcviewer.e4/tests/resources/metadb/%s",
				     shared_dir, names[i]) > 0);
		enum status st = reader_open_path(&reader_hpctoolkit_v4, dir, &m, &err);
		assert_null(m);
		assert_true(st == STATUS_UNSUPPORTED || st == STATUS_CORRUPT);
		assert_non_null(err.message);
		assert_non_null(strstr(err.message, "layout"));
		assert_non_null(strstr(err.message, "pre-release"));
		if (i == 0) {
			char *msg = error_format(&err);
			print_message("%s\n", msg);
			free(msg);
		}
		error_clear(&err);
		/* and through the meta.db path too */
		char *meta = NULL;
		assert_true(asprintf(&meta, "%s/meta.db", dir) > 0);
		assert_int_equal(reader_bid_path(&reader_hpctoolkit_v4, meta), 90);
		assert_int_equal(database_open(meta, &m, &err), st);
		assert_null(m);
		error_clear(&err);
		free(meta);
		free(dir);
	}
}

static void test_trace_only_rejected(void **state)
{
	(void)state;
	struct model *m = NULL;
	struct error err = {.status = STATUS_OK};
	char *dir = corpus_path("hpctoolkit-v4/hpcviewer.e4/tests/"
				"resources/metadb/out.of.memory");
	assert_true(reader_bid_path(&reader_hpctoolkit_v4, dir) > 0);
	enum status st = database_open(dir, &m, &err);
	assert_int_equal(st, STATUS_NOT_FOUND);
	assert_null(m);
	assert_non_null(strstr(err.message, "meta.db is missing"));
	assert_non_null(strstr(err.file, "meta.db"));
	error_clear(&err);
	free(dir);
}

static void test_per_profile(void **state)
{
	(void)state;
	/* loops-cputime-t.d: the per-thread values of a context sum to its
	 * summary "Sum" statistic of the same scope */
	struct model *m = NULL;
	struct error err = {.status = STATUS_OK};
	char *dir = corpus_path("hpctoolkit-v4/hpctoolkit/tests/data/"
				"dbase/loops-cputime-t.d");
	assert_int_equal(reader_open_path(&reader_hpctoolkit_v4, dir, &m, &err), STATUS_OK);
	uint32_t stat = find_stat(m, "CPUTIME (sec)|execution|$$|sum");
	assert_int_not_equal(stat, MODEL_NONE);
	size_t checked = 0;
	for (uint32_t node = 1; node < model_n_nodes(m); node++) {
		double want;
		if (!model_stat_value(m, node, stat, &want))
			continue;
		struct profile_value *vals = NULL;
		size_t n = 0;
		assert_int_equal(model_per_profile(m, node, stat, &vals, &n,
						   &err),
				 STATUS_OK);
		double sum = 0;
		for (size_t i = 0; i < n; i++) {
			assert_true(vals[i].profile > 0);
			assert_true(vals[i].profile < model_n_profiles(m));
			if (i)
				assert_true(vals[i - 1].profile <
					    vals[i].profile);
			sum += vals[i].value;
		}
		assert_true(fabs(sum - want) <= 1e-9 * fabs(want) + 1e-12);
		free(vals);
		checked++;
	}
	assert_true(checked > 10);
	model_free(m);
	free(dir);
}

static void test_open_largest_fast(void **state)
{
	(void)state;
	struct model *m = NULL;
	struct error err = {.status = STATUS_OK};
	char *dir = corpus_path("hpctoolkit-v4/hpcviewer.e4/tests/"
				"resources/metadb/issue-233");
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	assert_int_equal(reader_open_path(&reader_hpctoolkit_v4, dir, &m, &err), STATUS_OK);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 +
		    (double)(b.tv_nsec - a.tv_nsec) / 1e6;
	print_message("issue-233: %u nodes, %u timelines opened in %.2f ms\n",
		      model_n_nodes(m), model_n_timelines(m), ms);
	assert_true(ms < 1000.0);
	model_free(m);
	free(dir);
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	struct stat sb;
	if (asprintf(&shared_dir, "%s/../shared", top ? top : "..") < 0)
		return 1;
	if (stat(shared_dir, &sb) != 0) {
		fprintf(stderr, "%s absent: skipped\n", shared_dir);
		free(shared_dir);
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_only_rejected),
		cmocka_unit_test(test_prerelease_rejected),
		cmocka_unit_test(test_corpus_opens_and_matches),
		cmocka_unit_test(test_per_profile),
		cmocka_unit_test(test_open_largest_fast),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	v4_corpus_free(dbs, n_dbs);
	free(shared_dir);
	return rc;
}
