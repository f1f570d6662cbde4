/* test-xml-experiment: the experiment.xml parser and reader on small
 * documents written here.  Degenerate and hostile inputs first (empty,
 * no root, a foreign root, truncated, unbalanced tags, an unknown version,
 * a 1 MB attribute, an entity bomb, external and parameter entities,
 * nesting past the cap), each with its status and a message naming the
 * file and the line; then the 2.0, 2.2 and 4.0 shapes, whose trees, tables,
 * inline values and formulas are checked against values worked out by
 * hand from the documents. */
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

/* Parse `len` bytes named "t.xml"; the status, with *err filled. */
static enum status parse_mem(const char *text, size_t len,
			     struct model **model, struct xml_experiment *x,
			     struct error *err)
{
	struct blob *blob = NULL;
	struct model_builder *b = model_builder_new("test", "t.xml");
	assert_non_null(b);
	assert_int_equal(blob_open_memory(text, len, "t.xml", &blob, err),
			 STATUS_OK);
	enum status st = xml_experiment_parse(blob, b, x, err);
	blob_close(blob);
	if (st == STATUS_OK && model) {
		struct error e2 = {.status = STATUS_OK};
		*model = model_builder_finish(b, &e2);
		assert_non_null(*model);
	} else {
		model_builder_free(b);
	}
	return st;
}

static void expect_fail(const char *text, size_t len, enum status want,
			const char *needle)
{
	struct error err = {.status = STATUS_OK};
	struct xml_experiment x;
	enum status st = parse_mem(text, len, NULL, &x, &err);
	char *msg = error_format(&err);
	assert_non_null(msg);
	if (st != want || !strstr(msg, needle) || !strstr(msg, "t.xml"))
		fail_msg("status %d (want %d), message \"%s\" (want \"%s\")",
			 st, want, msg, needle);
	free(msg);
	error_clear(&err);
}

#define HEAD "<?xml version=\"1.0\"?>\n"

static void test_degenerate(void **state)
{
	(void)state;
	expect_fail("", 0, STATUS_NOT_DATABASE, "empty file");
	expect_fail(HEAD, strlen(HEAD), STATUS_NOT_DATABASE, "line");
	expect_fail(HEAD "<Foo/>", strlen(HEAD "<Foo/>"), STATUS_NOT_DATABASE,
		    "not <HPCToolkitExperiment>");
	expect_fail("\x01\x02\x03 binary", 10, STATUS_NOT_DATABASE, "line 1");
	static const char noversion[] = HEAD "<HPCToolkitExperiment/>";
	expect_fail(noversion, strlen(noversion), STATUS_CORRUPT, "version");
	static const char v3[] = HEAD
		"<HPCToolkitExperiment version=\"3.0\"></HPCToolkitExperiment>";
	expect_fail(v3, strlen(v3), STATUS_UNSUPPORTED, "version 3.0");
	static const char trunc[] = HEAD
		"<HPCToolkitExperiment version=\"2.0\">\n<Header n=\"x\">\n"
		"<SecCallPathProfile i=\"0\" n=\"x\"><SecCallPathProfileData>"
		"\n<PF i=\"2\" n=\"main\"";
	expect_fail(trunc, strlen(trunc), STATUS_CORRUPT, "line 5");
	static const char unbalanced[] = HEAD
		"<HPCToolkitExperiment version=\"2.0\">\n"
		"<SecCallPathProfile i=\"0\" n=\"x\"><SecCallPathProfileData>\n"
		"<PF i=\"2\" n=\"main\"><C i=\"3\" l=\"4\"></PF></C>\n"
		"</SecCallPathProfileData></SecCallPathProfile>"
		"</HPCToolkitExperiment>";
	expect_fail(unbalanced, strlen(unbalanced), STATUS_CORRUPT,
		    "mismatched tag");
	static const char badid[] = HEAD
		"<HPCToolkitExperiment version=\"2.0\">"
		"<SecCallPathProfile i=\"0\" n=\"x\"><SecCallPathProfileData>"
		"\n\n<PF i=\"two\" n=\"main\"/>"
		"</SecCallPathProfileData></SecCallPathProfile>"
		"</HPCToolkitExperiment>";
	expect_fail(badid, strlen(badid), STATUS_CORRUPT, "line 4");
	static const char badvalue[] = HEAD
		"<HPCToolkitExperiment version=\"2.0\">"
		"<SecCallPathProfile i=\"0\" n=\"x\"><SecCallPathProfileData>"
		"<M n=\"2\" v=\"lots\"/>"
		"</SecCallPathProfileData></SecCallPathProfile>"
		"</HPCToolkitExperiment>";
	expect_fail(badvalue, strlen(badvalue), STATUS_CORRUPT,
		    "is not a number");
}

static void test_hostile(void **state)
{
	(void)state;
	/* a 1 MB attribute */
	size_t big = 1024 * 1024;
	const char *pre = HEAD "<HPCToolkitExperiment version=\"2.0\">"
			       "<Header n=\"";
	const char *post = "\"/></HPCToolkitExperiment>";
	char *doc = malloc(strlen(pre) + big + strlen(post) + 1);
	assert_non_null(doc);
	strcpy(doc, pre);
	memset(doc + strlen(pre), 'a', big);
	strcpy(doc + strlen(pre) + big, post);
	expect_fail(doc, strlen(doc), STATUS_LIMIT, "longer than");
	free(doc);

	/* the billion laughs */
	static const char bomb[] = HEAD
		"<!DOCTYPE HPCToolkitExperiment [\n"
		"<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">\n"
		"<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n"
		"<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">\n"
		"]>\n<HPCToolkitExperiment version=\"2.0\">"
		"<Header n=\"&c;&c;&c;&c;&c;\"/></HPCToolkitExperiment>";
	expect_fail(bomb, strlen(bomb), STATUS_CORRUPT,
		    "entity declaration");
	/* an external entity */
	static const char ext[] = HEAD
		"<!DOCTYPE HPCToolkitExperiment [\n"
		"<!ENTITY x SYSTEM \"file:///etc/passwd\">\n]>\n"
		"<HPCToolkitExperiment version=\"2.0\">"
		"<Header n=\"&x;\"/></HPCToolkitExperiment>";
	expect_fail(ext, strlen(ext), STATUS_CORRUPT, "refused");
	/* an external DTD and a parameter entity */
	static const char param[] = HEAD
		"<!DOCTYPE HPCToolkitExperiment SYSTEM \"/etc/passwd\" [\n"
		"<!ENTITY % p SYSTEM \"file:///etc/passwd\">\n%p;\n]>\n"
		"<HPCToolkitExperiment version=\"2.0\"/>";
	expect_fail(param, strlen(param), STATUS_CORRUPT, "refused");
	/* an undeclared entity is a plain XML error */
	static const char undeclared[] = HEAD
		"<HPCToolkitExperiment version=\"2.0\">"
		"<Header n=\"&nope;\"/></HPCToolkitExperiment>";
	expect_fail(undeclared, strlen(undeclared), STATUS_CORRUPT,
		    "undefined entity");

	/* nesting past the cap */
	size_t depth = XML_EXPERIMENT_MAX_DEPTH + 1;
	const char *open = "<PF i=\"2\" n=\"f\">";
	const char *start = HEAD "<HPCToolkitExperiment version=\"2.0\">"
				 "<SecCallPathProfile i=\"0\" n=\"x\">"
				 "<SecCallPathProfileData>";
	doc = malloc(strlen(start) + depth * strlen(open) + 1);
	assert_non_null(doc);
	strcpy(doc, start);
	char *p = doc + strlen(start);
	for (size_t i = 0; i < depth; i++, p += strlen(open))
		memcpy(p, open, strlen(open));
	*p = '\0';
	expect_fail(doc, strlen(doc), STATUS_LIMIT, "nested deeper");
	free(doc);
}

/* A 2.0 database in the shape hpcprof wrote (cpi, lu.C.256): the tables,
 * a tree with a call site, a loop and statements, inline values and a
 * Mean metric whose finalize formula divides two accumulators. */
static const char doc20[] = HEAD
	"<!DOCTYPE HPCToolkitExperiment [\n"
	"<!ELEMENT HPCToolkitExperiment (Header, (SecCallPathProfile)*)>\n"
	"<!ATTLIST HPCToolkitExperiment version CDATA #REQUIRED>\n"
	"<!ATTLIST Metric i CDATA #REQUIRED n CDATA #REQUIRED\n"
	"  t (inclusive|exclusive|nil) \"nil\" show (1|0) \"1\">\n"
	"<!ATTLIST Pr a (1|0) \"0\">\n"
	"]>\n"
	"<HPCToolkitExperiment version=\"2.0\">\n"
	"<Header n=\"cpi\"><Info/></Header>\n"
	"<SecCallPathProfile i=\"0\" n=\"cpi\">\n"
	"<SecHeader>\n"
	"<MetricTable>\n"
	"<Metric i=\"2\" n=\"T (us):Sum (I)\" t=\"inclusive\" partner=\"5\">\n"
	"<MetricFormula t=\"combine\" frm=\"sum($2, $2)\"/>\n"
	"<MetricFormula t=\"finalize\" frm=\"$2\"/></Metric>\n"
	"<Metric i=\"3\" n=\"T (us):Mean (I)\" t=\"inclusive\">\n"
	"<MetricFormula t=\"finalize\" frm=\"$3 / $4\"/></Metric>\n"
	"<Metric i=\"4\" n=\"T (us):Mean:num-src (I)\" t=\"inclusive\" "
	"show=\"0\"/>\n"
	"<Metric i=\"5\" n=\"T (us):Sum (E)\" t=\"exclusive\" partner=\"2\">\n"
	"<MetricFormula t=\"combine\" frm=\"sum($5, $5)\"/></Metric>\n"
	"<Metric i=\"6\" n=\"T (us):Min (I)\" t=\"inclusive\">\n"
	"<MetricFormula t=\"combine\" frm=\"min($6, $6)\"/></Metric>\n"
	"</MetricTable>\n"
	"<MetricDBTable>\n"
	"<MetricDB i=\"0\" n=\"T (us) (I)\" t=\"inclusive\" db-id=\"0\" "
	"db-num-metrics=\"2\"/>\n"
	"<MetricDB i=\"1\" n=\"T (us) (E)\" t=\"exclusive\" db-id=\"1\" "
	"db-num-metrics=\"2\"/>\n"
	"</MetricDBTable>\n"
	"<LoadModuleTable><LoadModule i=\"7\" n=\"/bin/cpi\"/>"
	"<LoadModule i=\"8\" n=\"/lib/libc.so\"/></LoadModuleTable>\n"
	"<FileTable><File i=\"9\" n=\"./src/cpi.c\"/>"
	"<File i=\"10\" n=\"&lt;unknown file&gt;\"/></FileTable>\n"
	"<ProcedureTable><Procedure i=\"11\" n=\"main\"/>"
	"<Procedure i=\"12\" n=\"compute\"/><Procedure i=\"13\" "
	"n=\"inlined\"/></ProcedureTable>\n"
	"</SecHeader>\n"
	"<SecCallPathProfileData>\n"
	"<M n=\"2\" v=\"100\"/><M n=\"3\" v=\"100\"/><M n=\"4\" v=\"4\"/>"
	"<M n=\"6\" v=\"20\"/>\n"
	"<PF i=\"2\" s=\"11\" l=\"19\" lm=\"7\" f=\"9\" n=\"11\">\n"
	"<M n=\"2\" v=\"100\"/><M n=\"3\" v=\"100\"/><M n=\"4\" v=\"4\"/>"
	"<M n=\"5\" v=\"10\"/>\n"
	"<S i=\"3\" s=\"12\" l=\"21\" it=\"40\"><M n=\"5\" v=\"10\"/>"
	"<M n=\"2\" v=\"10\"/></S>\n"
	"<C i=\"4\" s=\"13\" l=\"27\">\n"
	"<M n=\"2\" v=\"90\"/>\n"
	"<PF i=\"5\" s=\"12\" l=\"40\" lm=\"8\" f=\"10\" n=\"12\">\n"
	"<M n=\"2\" v=\"90\"/><M n=\"5\" v=\"0.5\"/>\n"
	"<L i=\"6\" s=\"14\" l=\"42\" f=\"9\">\n"
	"<M n=\"2\" v=\"89.5\"/>\n"
	"<S i=\"7\" s=\"15\" l=\"43\" it=\"41\"><M n=\"2\" v=\"89.5\"/>"
	"<M n=\"5\" v=\"89.5\"/></S>\n"
	"</L>\n"
	"<Pr i=\"8\" s=\"16\" l=\"50\" n=\"13\" a=\"1\"/>\n"
	"<PF i=\"9\" n=\"not-in-table\"/>\n"
	"</PF>\n"
	"</C>\n"
	"</PF>\n"
	"</SecCallPathProfileData>\n"
	"</SecCallPathProfile>\n"
	"</HPCToolkitExperiment>\n";

static uint32_t child(const struct model *m, uint32_t node, uint32_t k)
{
	uint32_t c = model_nodes(m)[node].first_child;
	while (k-- && c != MODEL_NONE)
		c = model_nodes(m)[c].next_sibling;
	assert_int_not_equal(c, MODEL_NONE);
	return c;
}

static void test_v20(void **state)
{
	(void)state;
	struct error err = {.status = STATUS_OK};
	struct xml_experiment x;
	struct model *m = NULL;
	assert_int_equal(parse_mem(doc20, strlen(doc20), &m, &x, &err),
			 STATUS_OK);
	assert_int_equal(x.major, 2);
	assert_int_equal(x.minor, 0);
	assert_string_equal(model_title(m), "cpi");
	/* root + PF main, S, C, PF compute, L, S, Pr, PF */
	assert_int_equal(model_n_nodes(m), 9);
	assert_int_equal(x.n_contexts, 8);
	uint32_t main_ = child(m, 0, 0);
	assert_int_equal(model_nodes(m)[main_].ctx_id, 2);
	assert_int_equal(model_nodes(m)[main_].kind, NODE_FUNCTION);
	assert_string_equal(model_str(m, model_nodes(m)[main_].name), "main");
	assert_string_equal(model_str(m, model_nodes(m)[main_].file), "./src/cpi.c");
	assert_string_equal(model_str(m, model_nodes(m)[main_].module), "/bin/cpi");
	assert_int_equal(model_nodes(m)[main_].line, 19);
	uint32_t s3 = child(m, main_, 0), c4 = child(m, main_, 1);
	assert_int_equal(model_nodes(m)[s3].kind, NODE_LINE);
	assert_int_equal(model_nodes(m)[s3].line, 21);
	/* a statement inherits the file of its procedure */
	assert_string_equal(model_str(m, model_nodes(m)[s3].file), "./src/cpi.c");
	assert_int_equal(model_nodes(m)[c4].ctx_id, 4);
	uint32_t pf5 = child(m, c4, 0);
	assert_int_equal(model_nodes(m)[pf5].relation, RELATION_CALL);
	assert_string_equal(model_str(m, model_nodes(m)[pf5].name), "compute");
	assert_string_equal(model_str(m, model_nodes(m)[pf5].file), "<unknown file>");
	uint32_t l6 = child(m, pf5, 0), pr8 = child(m, pf5, 1),
		 pf9 = child(m, pf5, 2);
	assert_int_equal(model_nodes(m)[l6].kind, NODE_LOOP);
	assert_string_equal(model_str(m, model_nodes(m)[l6].file), "./src/cpi.c");
	assert_int_equal(model_nodes(m)[child(m, l6, 0)].line, 43);
	assert_int_equal(model_nodes(m)[pr8].relation, RELATION_INLINED_CALL);
	assert_string_equal(model_str(m, model_nodes(m)[pr8].name), "inlined");
	/* an alien frame's exclusive value is also in its PF's; no other
	 * node is marked */
	for (uint32_t i = 0; i < model_n_nodes(m); i++)
		assert_int_equal(model_nodes(m)[i].traits,
				 i == pr8 ? NODE_TRAIT_EXCL_IN_FRAME : 0);
	/* a procedure name that is not an id of the table is the name */
	assert_string_equal(model_str(m, model_nodes(m)[pf9].name), "not-in-table");
	/* 4 distinct procedures: main, compute, inlined, not-in-table */
	assert_int_equal(model_n_functions(m), 4);
	/* tables and formulas */
	assert_int_equal(x.n_metrics, 5);
	assert_int_equal(x.n_metric_dbs, 2);
	const struct xml_metric *mean = xml_experiment_metric(&x, 3);
	assert_non_null(mean);
	assert_string_equal(mean->formula, "$3 / $4");
	assert_int_equal(xml_experiment_metric(&x, 4)->show, 0);
	assert_int_equal(xml_experiment_metric(&x, 2)->partner, 5);
	/* the DTD's default applies where the attribute is absent */
	assert_int_equal(xml_experiment_metric(&x, 2)->show, 1);
	assert_null(xml_experiment_metric(&x, 99));
	/* inline values: 4 at the root, 4 at main, 2 at S3, 1 at C4,
	 * 2 at PF5, 1 at L6, 2 at S7 */
	assert_int_equal(xml_values_count(x.values), 16);
	double v = 0;
	assert_true(xml_values_get(x.values, 0, 2, &v));
	assert_true(v == 100);
	assert_true(xml_values_get(x.values, 7, 5, &v));
	assert_true(v == 89.5);
	assert_false(xml_values_get(x.values, 8, 2, &v));
	/* trace ids */
	assert_int_equal(xml_experiment_trace_ctx(&x, 40), 3);
	assert_int_equal(xml_experiment_trace_ctx(&x, 41), 7);
	assert_int_equal(xml_experiment_trace_ctx(&x, 42), MODEL_NONE);
	xml_experiment_free(&x);
	model_free(m);
}

/* The reader on the same document as a lone .xml file: columns, formulas
 * and values through the model. */
static void test_reader_lone_file(void **state)
{
	(void)state;
	char path[] = "/tmp/test-xml-experiment-XXXXXX.xml";
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, doc20, strlen(doc20)),
			 (ssize_t)strlen(doc20));
	close(fd);
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
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, docsentinel, strlen(docsentinel)),
			 (ssize_t)strlen(docsentinel));
	close(fd);
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
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, docorder, strlen(docorder)),
			 (ssize_t)strlen(docorder));
	close(fd);
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
static const char doc22[] = HEAD
	"<HPCToolkitExperiment version=\"2.2\">\n"
	"<!--DTD file=\"experiment.dtd\"-->\n"
	"<Header n=\"inline\"><Info/></Header>\n"
	"<SecCallPathProfile i=\"0\" n=\"inline\"><SecHeader>\n"
	"<MetricTable><Metric i=\"4\" n=\"cycles:Sum (I)\" t=\"inclusive\" "
	"md=\"Sum of cycles\" show=\"1\" show-percent=\"1\">"
	"<MetricFormula t=\"finalize\" frm=\"$4\"/></Metric></MetricTable>\n"
	"<TraceDBTable><TraceDB i=\"0\" u=\"1000000000\" "
	"db-glob=\"*.hpctrace\"/></TraceDBTable>\n"
	"<LoadModuleTable><LoadModule i=\"2\" n=\"/a.out\"/></LoadModuleTable>"
	"<FileTable><File i=\"3\" n=\"main.c\"/></FileTable>"
	"<ProcedureTable><Procedure i=\"6\" n=\"main\" v=\"0x400\"/>"
	"</ProcedureTable></SecHeader>\n"
	"<SecCallPathProfileData><M n=\"4\" v=\"1.5e+10\"/>\n"
	"<PF i=\"2\" s=\"6\" l=\"7\" lm=\"2\" f=\"3\" n=\"6\">"
	"<M n=\"4\" v=\"1.5e+10\"/>\n"
	"<C i=\"3\" s=\"7\" l=\"11\" v=\"0x40078b\" it=\"19\"/>\n"
	"<Pr i=\"4\" s=\"6\" l=\"2\" n=\"6\" a=\"1\"><S i=\"5\" l=\"3\" "
	"it=\"20\"/></Pr>\n"
	"</PF></SecCallPathProfileData></SecCallPathProfile>\n"
	"</HPCToolkitExperiment>\n";

static void test_v22(void **state)
{
	(void)state;
	struct error err = {.status = STATUS_OK};
	struct xml_experiment x;
	struct model *m = NULL;
	assert_int_equal(parse_mem(doc22, strlen(doc22), &m, &x, &err),
			 STATUS_OK);
	assert_int_equal(x.minor, 2);
	assert_true(x.has_trace_db);
	assert_true(x.trace_unit == 1000000000ull);
	assert_int_equal(model_n_nodes(m), 5);
	uint32_t pf = child(m, 0, 0), c = child(m, pf, 0);
	assert_true(model_nodes(m)[c].offset == 0x40078b);
	assert_int_equal(xml_experiment_trace_ctx(&x, 19), 3);
	assert_int_equal(xml_experiment_trace_ctx(&x, 20), 5);
	/* main and its inlined copy are one function */
	assert_int_equal(model_n_functions(m), 1);
	assert_string_equal(xml_experiment_metric(&x, 4)->description,
			    "Sum of cycles");
	xml_experiment_free(&x);
	model_free(m);
}

/* 4.0: the identifier names, negative call site ids, view formulas. */
static const char doc40[] = HEAD
	"<HPCToolkitExperiment version=\"4.0\">\n"
	"<Header n=\"loop\"><Info/></Header>\n"
	"<SecCallPathProfile i=\"0\" n=\"loop\"><SecHeader>\n"
	"<IdentifierNameTable><Identifier i=\"0\" n=\"SUMMARY\"/>"
	"<Identifier i=\"2\" n=\"RANK\"/></IdentifierNameTable>\n"
	"<MetricTable>\n"
	"<Metric i=\"512\" n=\"RT (sec):PARTIAL:0 (I)\" md=\"RT (sec)\" "
	"t=\"inclusive\" show=\"4\"/>\n"
	"<Metric i=\"767\" n=\"RT (sec):Sum (I)\" t=\"inclusive\" show=\"1\">"
	"<MetricFormula t=\"view\" frm=\"$512\"/></Metric>\n"
	"</MetricTable>\n"
	"<MetricDBTable><MetricDB i=\"2\" n=\"RT (sec) (I)\"/></MetricDBTable>\n"
	"</SecHeader><SecCallPathProfileData>\n"
	"<PF i=\"1\" n=\"3\" s=\"3\" l=\"0\">\n"
	"<C i=\"-16\" it=\"16\" s=\"19\" l=\"33\">\n"
	"<PF i=\"16\" n=\"f\" l=\"10\"><S i=\"24\" it=\"24\" l=\"10\"/>"
	"<Pr i=\"25\" n=\"g\" l=\"11\" a=\"1\"/></PF>\n"
	"</C></PF>\n"
	"</SecCallPathProfileData></SecCallPathProfile>\n"
	"</HPCToolkitExperiment>\n";

static void test_v40(void **state)
{
	(void)state;
	struct error err = {.status = STATUS_OK};
	struct xml_experiment x;
	struct model *m = NULL;
	assert_int_equal(parse_mem(doc40, strlen(doc40), &m, &x, &err),
			 STATUS_OK);
	assert_int_equal(x.major, 4);
	assert_int_equal(x.n_id_names, 3);
	assert_string_equal(x.id_names[2], "RANK");
	assert_null(x.id_names[1]);
	uint32_t pf = child(m, 0, 0), c = child(m, pf, 0);
	/* a call site -N shares the callee's context id N */
	assert_int_equal(model_nodes(m)[c].ctx_id, 16);
	assert_int_equal(model_nodes(m)[child(m, c, 0)].ctx_id, 16);
	/* i="-16" shares context 16: marked, so reports show it as -16 */
	assert_true(model_nodes(m)[c].traits & NODE_TRAIT_ALIAS_ID);
	assert_false(model_nodes(m)[child(m, c, 0)].traits & NODE_TRAIT_ALIAS_ID);
	/* hpcprof2's exclusive values keep inlined code apart: unmarked */
	uint32_t pr = child(m, child(m, c, 0), 1);
	assert_int_equal(model_nodes(m)[pr].relation, RELATION_INLINED_CALL);
	assert_int_equal(model_nodes(m)[pr].traits, 0);
	assert_int_equal(xml_experiment_trace_ctx(&x, 24), 24);
	assert_string_equal(xml_experiment_metric(&x, 767)->formula, "$512");
	assert_int_equal(xml_experiment_metric(&x, 512)->show, 4);
	xml_experiment_free(&x);
	model_free(m);
}

/* Every truncation of the 2.0 document fails cleanly (or, cut inside the
 * trailing whitespace, succeeds). */
static void test_truncations(void **state)
{
	(void)state;
	size_t len = strlen(doc20);
	size_t end = strstr(doc20, "</HPCToolkitExperiment>") - doc20 +
		     strlen("</HPCToolkitExperiment>");
	for (size_t cut = 0; cut < len; cut++) {
		struct error err = {.status = STATUS_OK};
		struct xml_experiment x;
		struct model *m = NULL;
		enum status st = parse_mem(doc20, cut, &m, &x, &err);
		if (cut >= end) {
			assert_int_equal(st, STATUS_OK);
			xml_experiment_free(&x);
			model_free(m);
		} else {
			assert_int_not_equal(st, STATUS_OK);
			assert_non_null(err.message);
		}
		error_clear(&err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_v20),
		cmocka_unit_test(test_reader_lone_file),
		cmocka_unit_test(test_reader_metricdb),
		cmocka_unit_test(test_reader_metricdb_stats),
		cmocka_unit_test(test_reader_inline_sentinels),
		cmocka_unit_test(test_reader_order_formulas),
		cmocka_unit_test(test_v22),
		cmocka_unit_test(test_v40),
		cmocka_unit_test(test_truncations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
