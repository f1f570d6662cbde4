/* test-xml-reader: the experiment.xml reader through the model on small
 * documents written here: a lone .xml file, per-thread .metric-db files
 * (dense values, the statistics computed from them), inline sentinel
 * values and formulas in any order; values worked out by hand from the
 * documents and files. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "formats/reader.h"
#include "open.h"
#include "formats/hpctoolkit_xml/xml_experiment.h"

#include "xml_doc.h"

/* Writes `doc` to a new file named after the mkstemps template `path`
 * (its last 4 characters, ".xml", kept). */
static void write_doc(char *path, const char *doc)
{
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, doc, strlen(doc)), (ssize_t)strlen(doc));
	close(fd);
}

static void test_reader_lone_file(void **state)
{
	(void)state;
	char path[] = "/tmp/test-xml-experiment-XXXXXX.xml";
	write_doc(path, doc20);
	const struct reader *const *r = reader_all();
	const struct reader *xml = NULL;
	for (; *r; r++)
		if (strcmp((*r)->name, "hpctoolkit-xml") == 0)
			xml = *r;
	if (!xml)
		fail_msg("the hpctoolkit-xml reader is not registered");
	else
		assert_int_equal(reader_bid_path(xml, path), 80);
	struct error err = {.status = STATUS_OK};
	struct model *m = NULL;
	assert_int_equal(database_open(path, &m, &err), STATUS_OK);
	assert_string_equal(model_format(m), "hpctoolkit-xml");
	assert_int_equal(model_n_columns(m), 5);
	uint32_t sum_i = model_find_column(m, "T (us):Sum (I)");
	uint32_t mean_i = model_find_column(m, "T (us):Mean (I)");
	uint32_t sum_e = model_find_column(m, "T (us):Sum (E)");
	uint32_t min_i = model_find_column(m, "T (us):Min (I)");
	assert_int_not_equal(sum_i, MODEL_NONE);
	assert_int_not_equal(mean_i, MODEL_NONE);
	assert_int_not_equal(sum_e, MODEL_NONE);
	assert_int_equal(model_columns(m)[sum_i].pair, sum_e);
	assert_false(model_columns(m)[model_find_column(m, "T (us):Mean:num-src (I)")]
			     .visible);
	assert_int_equal(model_stats(m)[min_i].combine, COMBINE_MIN);
	double v = 0;
	assert_true(model_value(m, 0, sum_i, &v));
	assert_true(v == 100);
	/* Mean = $3 / $4 = 100 / 4 */
	assert_true(model_value(m, 0, mean_i, &v));
	assert_true(fabs(v - 25.0) < 1e-12);
	uint32_t main_ = child(m, 0, 0);
	assert_true(model_value(m, main_, sum_e, &v));
	assert_true(v == 10);
	assert_true(model_column_total(m, sum_i, &v));
	assert_true(v == 100);
	/* no inline value at Pr 8 */
	uint32_t pr8 = child(m, child(m, child(m, main_, 1), 0), 1);
	assert_false(model_value(m, pr8, sum_i, &v));
	assert_int_equal(model_n_profiles(m), 0);
	assert_int_equal(model_n_timelines(m), 0);
	model_free(m);
	/* a file that is not ours */
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("<?xml version=\"1.0\"?><svg/>", fp);
	fclose(fp);
	if (xml)
		assert_int_equal(reader_bid_path(xml, path), 0);
	unlink(path);
}

/* A 2.1 database without inline values and two per-thread metric-db files
 * written here (header: magic, "00.10b", nNodes, nMetrics, big-endian;
 * then nNodes x nMetrics doubles, row c-1 for context c): the summary is
 * the sum over threads, the root the sum of the top-level contexts, and
 * the thread view lists each thread's non-zero value. */
static const char doc21[] = HEAD
	"<HPCToolkitExperiment version=\"2.1\">\n"
	"<Header n=\"k\"/><SecCallPathProfile i=\"0\" n=\"k\"><SecHeader>\n"
	"<MetricTable>\n"
	"<Metric i=\"2\" n=\"T:Sum (I)\" t=\"inclusive\" partner=\"3\">"
	"<MetricFormula t=\"combine\" frm=\"sum($2, $2)\"/></Metric>\n"
	"<Metric i=\"3\" n=\"T:Sum (E)\" t=\"exclusive\" partner=\"2\">"
	"<MetricFormula t=\"combine\" frm=\"sum($3, $3)\"/></Metric>\n"
	"</MetricTable><MetricDBTable>\n"
	"<MetricDB i=\"0\" n=\"T (I)\" t=\"inclusive\" db-id=\"0\"/>\n"
	"<MetricDB i=\"1\" n=\"T (E)\" t=\"exclusive\" db-id=\"1\"/>\n"
	"</MetricDBTable></SecHeader><SecCallPathProfileData>\n"
	"<PF i=\"1\" n=\"main\"><S i=\"2\" l=\"3\"/></PF>\n"
	"<PF i=\"3\" n=\"other\"/>\n"
	"</SecCallPathProfileData></SecCallPathProfile>\n"
	"</HPCToolkitExperiment>\n";

static void put_be(unsigned char *p, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

static void write_metricdb(const char *path, const double *vals,
			   uint32_t n_nodes, uint32_t n_metrics)
{
	unsigned char head[32] = "HPCPROF-metricdb__00.10b";
	put_be(head + 24, n_nodes, 4);
	put_be(head + 28, n_metrics, 4);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	fwrite(head, 1, sizeof(head), fp);
	for (uint32_t i = 0; i < n_nodes * n_metrics; i++) {
		uint64_t bits;
		unsigned char b[8];
		memcpy(&bits, &vals[i], 8);
		put_be(b, bits, 8);
		fwrite(b, 1, 8, fp);
	}
	fclose(fp);
}

/* model_stat_dense (the provider's one-pass summary_all) gives exactly
 * what model_stat_value gives node by node, for every statistic. */
static void check_dense(const struct model *m)
{
	double *vals = calloc(model_n_nodes(m), sizeof(*vals));
	uint8_t *present = calloc(model_n_nodes(m), 1);
	assert_non_null(vals);
	assert_non_null(present);
	for (uint32_t st = 0; st < model_n_stats(m); st++) {
		struct error err = {.status = STATUS_OK};
		assert_int_equal(model_stat_dense(m, st, vals, present, &err),
				 STATUS_OK);
		for (uint32_t i = 0; i < model_n_nodes(m); i++) {
			double v = 0;
			bool ok = model_stat_value(m, i, st, &v);
			assert_int_equal(present[i], ok);
			if (ok)
				assert_true(vals[i] == v);
		}
	}
	free(vals);
	free(present);
}

static void test_reader_metricdb(void **state)
{
	(void)state;
	char dir[] = "/tmp/test-xml-db-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *xml = NULL, *f0 = NULL, *f1 = NULL;
	assert_true(asprintf(&xml, "%s/experiment.xml", dir) > 0);
	assert_true(asprintf(&f0, "%s/1.k-000000-000-a8c0-1-0.metric-db",
			     dir) > 0);
	assert_true(asprintf(&f1, "%s/1.k-000001-002-a8c0-2-0.metric-db",
			     dir) > 0);
	FILE *fp = fopen(xml, "w");
	assert_non_null(fp);
	fputs(doc21, fp);
	fclose(fp);
	/* contexts 1 (main), 2 (S), 3 (other); metrics (I), (E) */
	static const double t0[] = {5, 1, 4, 4, 2, 2};
	static const double t1[] = {7, 0, 7, 7, 0, 0};
	write_metricdb(f0, t0, 3, 2);
	write_metricdb(f1, t1, 3, 2);
	struct error err = {.status = STATUS_OK};
	struct model *m = NULL;
	enum status st = database_open(dir, &m, &err);
	if (st != STATUS_OK)
		fail_msg("open: %s", err.message);
	assert_int_equal(model_n_profiles(m), 2);
	assert_string_equal(model_str(m, model_profiles(m)[0].label),
			    "RANK 0 THREAD 0");
	assert_string_equal(model_str(m, model_profiles(m)[1].label),
			    "RANK 1 THREAD 2");
	uint32_t incl = model_find_column(m, "T (I)");
	uint32_t excl = model_find_column(m, "T (E)");
	assert_int_not_equal(incl, MODEL_NONE);
	uint32_t main_ = child(m, 0, 0), s2 = child(m, main_, 0),
		 other = child(m, 0, 1);
	double v = 0;
	assert_true(model_value(m, main_, incl, &v));
	assert_true(v == 12);
	assert_true(model_value(m, s2, incl, &v));
	assert_true(v == 11);
	assert_true(model_value(m, other, excl, &v));
	assert_true(v == 2);
	/* the root: main + other = 12 + 2 */
	assert_true(model_value(m, 0, incl, &v));
	assert_true(v == 14);
	assert_false(model_value(m, 0, excl, &v));
	struct profile_value *pv = NULL;
	size_t n = 0;
	assert_int_equal(model_per_profile(m, main_, model_column_stat(m, incl),
					   &pv, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 2);
	assert_int_equal(pv[0].profile, 0);
	assert_true(pv[0].value == 5);
	assert_int_equal(pv[1].profile, 1);
	assert_true(pv[1].value == 7);
	free(pv);
	/* the root's per-thread values: main + other in each file */
	assert_int_equal(model_per_profile(m, 0, model_column_stat(m, incl),
					   &pv, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 2);
	assert_true(pv[0].value == 5 + 2);
	assert_true(pv[1].value == 7 + 0);
	free(pv);
	assert_int_equal(model_per_profile(m, 0, model_column_stat(m, excl),
					   &pv, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 0);
	free(pv);
	/* thread 1 has no exclusive value at main */
	assert_int_equal(model_per_profile(m, main_, model_column_stat(m, excl),
					   &pv, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 1);
	assert_true(pv[0].value == 1);
	free(pv);
	check_dense(m);
	model_free(m);
	/* a metric-db cut inside its values: exit-2 material */
	fp = fopen(f1, "r+b");
	assert_non_null(fp);
	assert_int_equal(ftruncate(fileno(fp), 40), 0);
	fclose(fp);
	assert_int_not_equal(database_open(dir, &m, &err), STATUS_OK);
	char *msg = error_format(&err);
	assert_non_null(strstr(msg, "metric-db"));
	free(msg);
	error_clear(&err);
	unlink(f0);
	unlink(f1);
	unlink(xml);
	rmdir(dir);
	free(xml);
	free(f0);
	free(f1);
}

/* Statistic metrics without inline values, computed from three
 * per-thread files as hpcprof computes them (N = 3 threads, zeros of the
 * threads without a value count, except for Min): values worked by hand
 * below.  Then the same files with only zeros: a warning says so. */
static const char docstat[] = HEAD
	"<HPCToolkitExperiment version=\"2.1\">\n"
	"<Header n=\"k\"/><SecCallPathProfile i=\"0\" n=\"k\"><SecHeader>\n"
	"<MetricTable>\n"
	"<Metric i=\"2\" n=\"T:Sum (I)\" t=\"inclusive\"/>\n"
	"<Metric i=\"3\" n=\"T:Mean (I)\" t=\"inclusive\">"
	"<MetricFormula t=\"finalize\" frm=\"$3 / $4\"/></Metric>\n"
	"<Metric i=\"4\" n=\"T:Mean:num-src (I)\" t=\"inclusive\" "
	"show=\"0\"/>\n"
	"<Metric i=\"5\" n=\"T:StdDev (I)\" t=\"inclusive\">"
	"<MetricFormula t=\"finalize\" "
	"frm=\"sqrt(($6 / $7) - pow($5 / $7, 2))\"/></Metric>\n"
	"<Metric i=\"6\" n=\"T:StdDev:accum2 (I)\" t=\"inclusive\" "
	"show=\"0\"/>\n"
	"<Metric i=\"7\" n=\"T:StdDev:num-src (I)\" t=\"inclusive\" "
	"show=\"0\"/>\n"
	"<Metric i=\"8\" n=\"T:Min (I)\" t=\"inclusive\">"
	"<MetricFormula t=\"combine\" frm=\"min($8, $8)\"/></Metric>\n"
	"<Metric i=\"9\" n=\"T:Max (I)\" t=\"inclusive\">"
	"<MetricFormula t=\"combine\" frm=\"max($9, $9)\"/></Metric>\n"
	"</MetricTable><MetricDBTable>\n"
	"<MetricDB i=\"0\" n=\"T (I)\" t=\"inclusive\" db-id=\"0\"/>\n"
	"</MetricDBTable></SecHeader><SecCallPathProfileData>\n"
	"<PF i=\"1\" n=\"main\"><S i=\"2\" l=\"3\"/></PF>\n"
	"<PF i=\"3\" n=\"other\"/>\n"
	"</SecCallPathProfileData></SecCallPathProfile>\n"
	"</HPCToolkitExperiment>\n";

static double column_at(const struct model *m, uint32_t node,
			const char *name, bool *present)
{
	uint32_t c = model_find_column(m, name);
	if (c == MODEL_NONE)
		fail_msg("no column %s", name);
	double v = -1;
	*present = model_value(m, node, c, &v);
	return v;
}

static void expect(const struct model *m, uint32_t node, const char *name,
		   double want)
{
	bool present = false;
	double v = column_at(m, node, name, &present);
	if (!present || fabs(v - want) > 1e-12 * fabs(want))
		fail_msg("%s at node %u: %g (present %d), want %g", name, node,
			 v, present, want);
}

/* The `source` of a column: the statistic's formula and combine. */
static void expect_source(const struct model *m, const char *name,
			  const char *formula, uint8_t combine)
{
	uint32_t c = model_find_column(m, name);
	uint32_t s = c == MODEL_NONE ? MODEL_NONE : model_column_stat(m, c);
	if (s == MODEL_NONE)
		fail_msg("column %s reads no single statistic", name);
	if (strcmp(model_str(m, model_stats(m)[s].formula), formula) != 0 ||
	    model_stats(m)[s].combine != combine)
		fail_msg("%s: formula %s combine %u, want %s %u", name,
			 model_str(m, model_stats(m)[s].formula),
			 model_stats(m)[s].combine, formula, combine);
}

static void test_reader_metricdb_stats(void **state)
{
	(void)state;
	char dir[] = "/tmp/test-xml-stat-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *xml = NULL, *f[3] = {NULL, NULL, NULL};
	assert_true(asprintf(&xml, "%s/experiment.xml", dir) > 0);
	for (int t = 0; t < 3; t++)
		assert_true(asprintf(&f[t], "%s/1.k-00000%d-000-a8c0-1-0."
				     "metric-db", dir, t) > 0);
	FILE *fp = fopen(xml, "w");
	assert_non_null(fp);
	fputs(docstat, fp);
	fclose(fp);
	/* contexts 1 (main), 2 (S), 3 (other) */
	static const double vals[3][3] = {{4, 2, 1}, {6, 0, 0}, {2, 2, 0}};
	for (int t = 0; t < 3; t++)
		write_metricdb(f[t], vals[t], 3, 1);
	struct error err = {.status = STATUS_OK};
	struct model *m = NULL;
	if (database_open(dir, &m, &err) != STATUS_OK)
		fail_msg("open: %s", err.message);
	assert_int_equal(model_n_warnings(m), 0);
	uint32_t main_ = child(m, 0, 0), s2 = child(m, main_, 0),
		 other = child(m, 0, 1);
	/* main: 4, 6, 2 */
	expect(m, main_, "T (I)", 12);
	expect(m, main_, "T:Mean (I)", 4);
	expect(m, main_, "T:Mean:num-src (I)", 3);
	expect(m, main_, "T:StdDev:accum2 (I)", 56);
	expect(m, main_, "T:StdDev (I)", sqrt(56.0 / 3 - 16));
	expect(m, main_, "T:Min (I)", 2);
	expect(m, main_, "T:Max (I)", 6);
	/* S: 2, -, 2 (the absent value is a zero for the mean, not a min) */
	expect(m, s2, "T:Mean (I)", 4.0 / 3);
	expect(m, s2, "T:StdDev (I)", sqrt(8.0 / 3 - 16.0 / 9));
	expect(m, s2, "T:Min (I)", 2);
	expect(m, s2, "T:Max (I)", 2);
	/* other: 1, -, - */
	expect(m, other, "T:Mean (I)", 1.0 / 3);
	expect(m, other, "T:Min (I)", 1);
	/* the root, per thread main + other: 5, 6, 2 */
	expect(m, 0, "T (I)", 13);
	expect(m, 0, "T:Mean (I)", 13.0 / 3);
	expect(m, 0, "T:StdDev:accum2 (I)", 25 + 36 + 4);
	expect(m, 0, "T:Min (I)", 2);
	expect(m, 0, "T:Max (I)", 6);
	/* what each statistic holds (issue 19): a count of the threads
	 * with a value, a sum of squares, sums, minima, maxima */
	expect_source(m, "T:Mean:num-src (I)", "1", COMBINE_SUM);
	expect_source(m, "T:StdDev:num-src (I)", "1", COMBINE_SUM);
	expect_source(m, "T:StdDev:accum2 (I)", "($$^2)", COMBINE_SUM);
	expect_source(m, "T:Sum (I)", "$$", COMBINE_SUM);
	expect_source(m, "T:Min (I)", "$$", COMBINE_MIN);
	expect_source(m, "T:Max (I)", "$$", COMBINE_MAX);
	check_dense(m);
	model_free(m);
	/* only zeros: no values anywhere, and a warning */
	static const double zeros[3] = {0, 0, 0};
	for (int t = 0; t < 3; t++)
		write_metricdb(f[t], zeros, 3, 1);
	if (database_open(dir, &m, &err) != STATUS_OK)
		fail_msg("open: %s", err.message);
	assert_int_equal(model_n_warnings(m), 1);
	assert_non_null(strstr(model_warnings(m)[0], "only zeros"));
	bool present = true;
	(void)column_at(m, main_, "T:Min (I)", &present);
	assert_false(present);
	(void)column_at(m, 0, "T (I)", &present);
	assert_false(present);
	(void)column_at(m, 0, "T:Mean:num-src (I)", &present);
	assert_false(present);
	check_dense(m);
	model_free(m);
	for (int t = 0; t < 3; t++) {
		unlink(f[t]);
		free(f[t]);
	}
	unlink(xml);
	rmdir(dir);
	free(xml);
}

/* hpcprof's inline artifacts: a ":num-src" count where the sum it divides
 * has no value, and DBL_MIN (2.22507e-308) as the Min of a context where
 * no thread has a value.  Both are shown as absent. */
static const char docsentinel[] = HEAD
	"<HPCToolkitExperiment version=\"2.0\">\n"
	"<Header n=\"k\"/><SecCallPathProfile i=\"0\" n=\"k\"><SecHeader>\n"
	"<MetricTable>\n"
	"<Metric i=\"2\" n=\"T:Mean (E)\" t=\"exclusive\">"
	"<MetricFormula t=\"finalize\" frm=\"$2 / $3\"/></Metric>\n"
	"<Metric i=\"3\" n=\"T:Mean:num-src (E)\" t=\"exclusive\"/>\n"
	"<Metric i=\"4\" n=\"T:Min (E)\" t=\"exclusive\">"
	"<MetricFormula t=\"combine\" frm=\"min($4, $4)\"/></Metric>\n"
	"</MetricTable></SecHeader><SecCallPathProfileData>\n"
	"<M n=\"3\" v=\"4\"/><M n=\"4\" v=\"2.22507e-308\"/>\n"
	"<PF i=\"1\" n=\"main\"><M n=\"2\" v=\"8\"/><M n=\"3\" v=\"4\"/>"
	"<M n=\"4\" v=\"1.5\"/></PF>\n"
	"</SecCallPathProfileData></SecCallPathProfile>\n"
	"</HPCToolkitExperiment>\n";

static void test_reader_inline_sentinels(void **state)
{
	(void)state;
	char path[] = "/tmp/test-xml-sentinel-XXXXXX.xml";
	write_doc(path, docsentinel);
	struct error err = {.status = STATUS_OK};
	struct model *m = NULL;
	if (database_open(path, &m, &err) != STATUS_OK)
		fail_msg("open: %s", err.message);
	uint32_t main_ = child(m, 0, 0);
	bool present = true;
	(void)column_at(m, 0, "T:Mean (E)", &present);
	assert_false(present);
	(void)column_at(m, 0, "T:Mean:num-src (E)", &present);
	assert_false(present);
	(void)column_at(m, 0, "T:Min (E)", &present);
	assert_false(present);
	expect(m, main_, "T:Mean (E)", 2);
	expect(m, main_, "T:Mean:num-src (E)", 4);
	expect(m, main_, "T:Min (E)", 1.5);
	model_free(m);
	unlink(path);
}

/* 2.2 GPU metrics: a view formula "#N" names the metric whose o attribute
 * is N (the exclusive partner's for an exclusive column), fmt gives the
 * format when it is a plain one, and a formula naming no metric falls back
 * to the metric's own values with a warning. */
static const char docorder[] = HEAD
	"<HPCToolkitExperiment version=\"2.2\">\n"
	"<Header n=\"gpu\"/><SecCallPathProfile i=\"0\" n=\"gpu\"><SecHeader>\n"
	"<MetricTable>\n"
	"<Metric i=\"10\" n=\"A:Sum (I)\" o=\"4\" t=\"inclusive\" "
	"partner=\"11\"/>\n"
	"<Metric i=\"11\" n=\"A:Sum (E)\" o=\"-1\" t=\"exclusive\" "
	"partner=\"10\"/>\n"
	"<Metric i=\"12\" n=\"B:Sum (I)\" o=\"5\" t=\"inclusive\" "
	"partner=\"13\"/>\n"
	"<Metric i=\"13\" n=\"B:Sum (E)\" o=\"-1\" t=\"exclusive\" "
	"partner=\"12\"/>\n"
	"<Metric i=\"14\" n=\"R:Sum (I)\" o=\"6\" t=\"inclusive\" "
	"fmt=\"%6.1f\"><MetricFormula t=\"view\" frm=\"100*(#4/#5)\"/>"
	"</Metric>\n"
	"<Metric i=\"15\" n=\"R:Sum (E)\" o=\"-1\" t=\"exclusive\" "
	"fmt=\"%n%s\"><MetricFormula t=\"view\" frm=\"100*(#4/#5)\"/>"
	"</Metric>\n"
	"<Metric i=\"16\" n=\"Z:Sum (I)\" t=\"inclusive\">"
	"<MetricFormula t=\"view\" frm=\"#99\"/></Metric>\n"
	"</MetricTable></SecHeader><SecCallPathProfileData>\n"
	"<M n=\"10\" v=\"3\"/><M n=\"12\" v=\"4\"/><M n=\"11\" v=\"1\"/>"
	"<M n=\"13\" v=\"8\"/><M n=\"16\" v=\"7\"/>\n"
	"<PF i=\"2\" n=\"k\"/>\n"
	"</SecCallPathProfileData></SecCallPathProfile>\n"
	"</HPCToolkitExperiment>\n";

static void test_reader_order_formulas(void **state)
{
	(void)state;
	char path[] = "/tmp/test-xml-order-XXXXXX.xml";
	write_doc(path, docorder);
	struct error err = {.status = STATUS_OK};
	struct model *m = NULL;
	assert_int_equal(database_open(path, &m, &err), STATUS_OK);
	uint32_t ri = model_find_column(m, "R:Sum (I)");
	uint32_t re = model_find_column(m, "R:Sum (E)");
	uint32_t z = model_find_column(m, "Z:Sum (I)");
	assert_int_not_equal(ri, MODEL_NONE);
	double v = 0;
	/* inclusive: 100 * (A(I) 3 / B(I) 4) */
	assert_true(model_value(m, 0, ri, &v));
	assert_true(fabs(v - 75.0) < 1e-12);
	/* exclusive: 100 * (A(E) 1 / B(E) 8) */
	assert_true(model_value(m, 0, re, &v));
	assert_true(fabs(v - 12.5) < 1e-12);
	assert_string_equal(model_columns(m)[ri].format, "%6.1f");
	assert_string_equal(model_columns(m)[re].format, "%.2e");
	/* #99 names no metric: Z's own value, and a warning */
	assert_true(model_value(m, 0, z, &v));
	assert_true(v == 7);
	assert_int_equal(model_n_warnings(m), 1);
	assert_non_null(strstr(model_warnings(m)[0], "#99"));
	model_free(m);
	unlink(path);
}

/* 2.2: `it` trace ids, `v` addresses, an inlined Pr, a TraceDB unit. */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader_lone_file),
		cmocka_unit_test(test_reader_metricdb),
		cmocka_unit_test(test_reader_metricdb_stats),
		cmocka_unit_test(test_reader_inline_sentinels),
		cmocka_unit_test(test_reader_order_formulas),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
