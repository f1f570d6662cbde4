/* test-xml-experiment: the experiment.xml parser and reader on small
 * documents written here.  Degenerate and hostile inputs first (empty,
 * no root, a foreign root, truncated, unbalanced tags, an unknown version,
 * a 1 MB attribute, an entity bomb, external and parameter entities,
 * nesting past the cap), each with its status and a message naming the
 * file and the line; then the 2.0, 2.2 and 4.0 shapes, whose trees, tables,
 * inline values and formulas are checked against values worked out by
 * hand from the documents.  The reader (lone files, .metric-db files,
 * statistics) is tested in test-xml-reader.c. */
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

/* The whole document `doc` parsed (asserted), its model; x filled. */
static struct model *parse_ok(const char *doc, struct xml_experiment *x)
{
	struct error err = {.status = STATUS_OK};
	struct model *m = NULL;
	assert_int_equal(parse_mem(doc, strlen(doc), &m, x, &err), STATUS_OK);
	return m;
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


/* A document that must fail, with its status and a part of its message. */
struct bad_doc {
	const char *text;
	size_t len;
	enum status status;
	const char *needle;
};
#define BAD(text, status, needle) {text, sizeof(text) - 1, status, needle}
/* A 2.0 document whose profile data is `body` */
#define PROFILE_DATA(body)                                                  \
	HEAD "<HPCToolkitExperiment version=\"2.0\">"                         \
	     "<SecCallPathProfile i=\"0\" n=\"x\"><SecCallPathProfileData>" body \
	     "</SecCallPathProfileData></SecCallPathProfile>"                \
	     "</HPCToolkitExperiment>"

static void expect_fail_all(const struct bad_doc *docs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		expect_fail(docs[i].text, docs[i].len, docs[i].status,
			    docs[i].needle);
}

static void test_degenerate(void **state)
{
	(void)state;
	static const struct bad_doc docs[] = {
	    BAD("", STATUS_NOT_DATABASE, "empty file"),
	    BAD(HEAD, STATUS_NOT_DATABASE, "line"),
	    BAD(HEAD "<Foo/>", STATUS_NOT_DATABASE,
		"not <HPCToolkitExperiment>"),
	    BAD("\x01\x02\x03 binary", STATUS_NOT_DATABASE, "line 1"),
	    BAD(HEAD "<HPCToolkitExperiment/>", STATUS_CORRUPT, "version"),
	    BAD(HEAD "<HPCToolkitExperiment version=\"3.0\">"
		     "</HPCToolkitExperiment>",
		STATUS_UNSUPPORTED, "version 3.0"),
	    /* truncated */
	    BAD(HEAD "<HPCToolkitExperiment version=\"2.0\">\n<Header n=\"x\">\n"
		     "<SecCallPathProfile i=\"0\" n=\"x\"><SecCallPathProfileData>"
		     "\n<PF i=\"2\" n=\"main\"",
		STATUS_CORRUPT, "line 5"),
	    /* unbalanced */
	    BAD(HEAD "<HPCToolkitExperiment version=\"2.0\">\n"
		     "<SecCallPathProfile i=\"0\" n=\"x\"><SecCallPathProfileData>\n"
		     "<PF i=\"2\" n=\"main\"><C i=\"3\" l=\"4\"></PF></C>\n"
		     "</SecCallPathProfileData></SecCallPathProfile>"
		     "</HPCToolkitExperiment>",
		STATUS_CORRUPT, "mismatched tag"),
	    BAD(PROFILE_DATA("\n\n<PF i=\"two\" n=\"main\"/>"), STATUS_CORRUPT,
		"line 4"),
	    BAD(PROFILE_DATA("<M n=\"2\" v=\"lots\"/>"), STATUS_CORRUPT,
		"is not a number"),
	};
	expect_fail_all(docs, sizeof(docs) / sizeof(docs[0]));
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

	static const struct bad_doc docs[] = {
	    /* the billion laughs */
	    BAD(HEAD "<!DOCTYPE HPCToolkitExperiment [\n"
		     "<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">\n"
		     "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n"
		     "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">\n"
		     "]>\n<HPCToolkitExperiment version=\"2.0\">"
		     "<Header n=\"&c;&c;&c;&c;&c;\"/></HPCToolkitExperiment>",
		STATUS_CORRUPT, "entity declaration"),
	    /* an external entity */
	    BAD(HEAD "<!DOCTYPE HPCToolkitExperiment [\n"
		     "<!ENTITY x SYSTEM \"file:///etc/passwd\">\n]>\n"
		     "<HPCToolkitExperiment version=\"2.0\">"
		     "<Header n=\"&x;\"/></HPCToolkitExperiment>",
		STATUS_CORRUPT, "refused"),
	    /* an external DTD and a parameter entity */
	    BAD(HEAD "<!DOCTYPE HPCToolkitExperiment SYSTEM \"/etc/passwd\" [\n"
		     "<!ENTITY % p SYSTEM \"file:///etc/passwd\">\n%p;\n]>\n"
		     "<HPCToolkitExperiment version=\"2.0\"/>",
		STATUS_CORRUPT, "refused"),
	    /* an undeclared entity is a plain XML error */
	    BAD(HEAD "<HPCToolkitExperiment version=\"2.0\">"
		     "<Header n=\"&nope;\"/></HPCToolkitExperiment>",
		STATUS_CORRUPT, "undefined entity"),
	};
	expect_fail_all(docs, sizeof(docs) / sizeof(docs[0]));

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


static void test_v20(void **state)
{
	(void)state;
	struct xml_experiment x;
	struct model *m = parse_ok(doc20, &x);
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
	struct xml_experiment x;
	struct model *m = parse_ok(doc22, &x);
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
	struct xml_experiment x;
	struct model *m = parse_ok(doc40, &x);
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
		cmocka_unit_test(test_v22),
		cmocka_unit_test(test_v40),
		cmocka_unit_test(test_truncations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
