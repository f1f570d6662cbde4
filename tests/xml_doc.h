/* xml_doc: what the experiment.xml tests share (test-xml-experiment.c,
 * test-xml-reader.c): the XML declaration, the 2.0 document in the shape
 * hpcprof wrote, and the k-th child of a model node (cmocka). */
#ifndef CALLSCOPE_TESTS_XML_DOC_H
#define CALLSCOPE_TESTS_XML_DOC_H

#include <stdint.h>

#include "model/model.h"

#define HEAD "<?xml version=\"1.0\"?>\n"

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


static inline uint32_t child(const struct model *m, uint32_t node, uint32_t k)
{
	uint32_t c = model_nodes(m)[node].first_child;
	while (k-- && c != MODEL_NONE)
		c = model_nodes(m)[c].next_sibling;
	assert_int_not_equal(c, MODEL_NONE);
	return c;
}

#endif
