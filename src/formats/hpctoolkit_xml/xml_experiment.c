/* xml_experiment: HPCToolkit experiment.xml (2.0, 2.1, 2.2, 4.0) read with
 * expat in one streaming pass.  The header tables are kept until the call
 * path data starts; every tree element (PF, Pr, C, L, S) becomes a model
 * node as soon as its start tag arrives, so the tree is never held twice.
 * The element stack is a heap array with a depth cap; expat runs without
 * namespaces, parameter entities, external entities or entity declarations
 * (an HPCToolkit file's internal DTD subset declares elements and attribute
 * lists only).  This file drives expat and dispatches the elements; the
 * header tables are xml_header.c's, the tree xml_tree.c's.  Must not depend
 * on curses, on ui/ or on the binary legacy formats. */
#include "config.h"

#include "formats/hpctoolkit_xml/xml_experiment.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "io/xml_guard.h"
#include "formats/hpctoolkit_xml/xml_parser.h"

static const struct {
	const char *name;
	enum xml_elem elem;
} elem_names[] = {
	{"HPCToolkitExperiment", XML_ELEM_ROOT},
	{"Header", XML_ELEM_HEADER},
	{"Metric", XML_ELEM_METRIC},
	{"MetricFormula", XML_ELEM_METRIC_FORMULA},
	{"MetricDB", XML_ELEM_METRIC_DB},
	{"TraceDB", XML_ELEM_TRACE_DB},
	{"LoadModule", XML_ELEM_LOAD_MODULE},
	{"File", XML_ELEM_FILE},
	{"Procedure", XML_ELEM_PROCEDURE},
	{"Identifier", XML_ELEM_IDENTIFIER},
	{"SecCallPathProfileData", XML_ELEM_DATA},
	{"SecFlatProfile", XML_ELEM_FLAT},
	{"PF", XML_ELEM_PF},
	{"Pr", XML_ELEM_PR},
	{"C", XML_ELEM_C},
	{"L", XML_ELEM_L},
	{"S", XML_ELEM_S},
	{"M", XML_ELEM_M},
};

/* ---- errors ---------------------------------------------------------- */

/* Record the first failure with the position expat is at and stop. */
enum status xml_parser_fail(struct xml_parser *p, enum status st,
			    const char *fmt, ...)
{
	if (p->st != STATUS_OK)
		return p->st;
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	XML_Index at = XML_GetCurrentByteIndex(p->xp);
	p->st =
	    error_set_at(p->err, st, p->name, at < 0 ? 0 : (uint64_t)at,
			 "line %lu, column %lu: %s",
			 (unsigned long)XML_GetCurrentLineNumber(p->xp),
			 (unsigned long)XML_GetCurrentColumnNumber(p->xp) + 1,
			 n < 0 ? "out of memory" : msg);
	free(msg);
	XML_StopParser(p->xp, XML_FALSE);
	return p->st;
}

/* ---- attributes -------------------------------------------------------- */

const char *xml_parser_attr(const XML_Char **atts, const char *name)
{
	for (size_t i = 0; atts[i]; i += 2)
		if (strcmp(atts[i], name) == 0)
			return atts[i + 1];
	return NULL;
}

/* A decimal integer (optionally signed), the whole string. */
bool xml_parser_parse_i64(const char *s, int64_t *out)
{
	if (!s || !*s)
		return false;
	char *end = NULL;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return false;
	*out = v;
	return true;
}

bool xml_parser_parse_u32(const char *s, uint32_t *out)
{
	int64_t v;
	if (!xml_parser_parse_i64(s, &v) || v < 0 || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* "0x4006a5" (hexadecimal) or a decimal number; 0 for anything else
 * (older files write vma range sets there). */
uint64_t xml_parser_parse_address(const char *s)
{
	if (!s || !*s || *s == '-')
		return 0;
	char *end = NULL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return 0;
	return v;
}

/* A required id attribute. */
bool xml_parser_id_attr(struct xml_parser *p, const XML_Char **atts,
			const char *el, const char *name, uint32_t *out)
{
	const char *s = xml_parser_attr(atts, name);
	if (!s) {
		xml_parser_fail(p, STATUS_CORRUPT, "<%s> has no %s attribute",
				el, name);
		return false;
	}
	if (!xml_parser_parse_u32(s, out)) {
		xml_parser_fail(
		    p, STATUS_CORRUPT,
		    "<%s> %s=\"%.40s\" is not a non-negative integer", el, name,
		    s);
		return false;
	}
	return true;
}

uint32_t xml_parser_intern(struct xml_parser *p, const char *s)
{
	if (!s)
		return 0;
	uint32_t h = model_builder_intern(p->b, s, strlen(s));
	if (h == MODEL_NONE) {
		xml_parser_fail(p, STATUS_NOMEM, "out of memory");
		return 0;
	}
	return h;
}

/* ---- expat callbacks ----------------------------------------------------- */

static enum xml_elem elem_of(const char *name)
{
	for (size_t i = 0; i < sizeof(elem_names) / sizeof(elem_names[0]); i++)
		if (strcmp(elem_names[i].name, name) == 0)
			return elem_names[i].elem;
	return XML_ELEM_OTHER;
}

static void XMLCALL on_start(void *ud, const XML_Char *name,
			     const XML_Char **atts)
{
	struct xml_parser *p = ud;
	if (p->st != STATUS_OK)
		return;
	for (size_t i = 0; atts[i]; i += 2)
		if (strlen(atts[i + 1]) > XML_EXPERIMENT_MAX_ATTR) {
			xml_parser_fail(p, STATUS_LIMIT,
					"<%.40s> attribute %.40s is "
					"longer than %d bytes",
					name, atts[i], XML_EXPERIMENT_MAX_ATTR);
			return;
		}
	if (p->depth >= XML_EXPERIMENT_MAX_DEPTH) {
		xml_parser_fail(p, STATUS_LIMIT,
				"elements nested deeper than %d",
				XML_EXPERIMENT_MAX_DEPTH);
		return;
	}
	if (!array_grow((void **)&p->stack, &p->cap, p->depth + 1,
			sizeof(*p->stack))) {
		xml_parser_fail(p, STATUS_NOMEM, "out of memory");
		return;
	}
	enum xml_elem el = elem_of(name);
	if (p->depth == 0) {
		if (el != XML_ELEM_ROOT || p->seen_root) {
			xml_parser_fail(p, STATUS_NOT_DATABASE,
					"the document element is "
					"<%.40s>, not <HPCToolkitExperiment>",
					name);
			return;
		}
		p->seen_root = true;
	}
	const struct xml_frame *parent =
	    p->depth ? &p->stack[p->depth - 1] : NULL;
	struct xml_frame *fr = &p->stack[p->depth++];
	*fr = (struct xml_frame){.elem = (uint8_t)el, .node = MODEL_NONE};
	switch (el) {
	case XML_ELEM_ROOT:
		xml_header_start_root(p, atts);
		break;
	case XML_ELEM_HEADER: {
		const char *n = xml_parser_attr(atts, "n");
		if (n && parent && parent->elem == XML_ELEM_ROOT)
			model_builder_set_title(p->b, n, NULL);
		break;
	}
	case XML_ELEM_METRIC:
		xml_header_add_metric(p, atts);
		break;
	case XML_ELEM_METRIC_FORMULA:
		xml_header_add_metric_formula(p, atts);
		break;
	case XML_ELEM_METRIC_DB:
		xml_header_add_metric_db(p, atts);
		break;
	case XML_ELEM_TRACE_DB: {
		p->x->has_trace_db = true;
		const char *u = xml_parser_attr(atts, "u");
		int64_t u64;
		if (u && xml_parser_parse_i64(u, &u64) && u64 > 0)
			p->x->trace_unit = (uint64_t)u64;
		break;
	}
	case XML_ELEM_LOAD_MODULE:
		xml_header_add_entry(p, &p->modules, "LoadModule", atts);
		break;
	case XML_ELEM_FILE:
		/* File elements of the FileTable only (the flat profile
		 * section has its own F) */
		xml_header_add_entry(p, &p->files, "File", atts);
		break;
	case XML_ELEM_PROCEDURE:
		xml_header_add_entry(p, &p->procedures, "Procedure", atts);
		break;
	case XML_ELEM_IDENTIFIER:
		xml_header_add_identifier(p, atts);
		break;
	case XML_ELEM_DATA:
		p->seen_data = true;
		fr->node = 0;
		fr->ctx_id = 0;
		break;
	case XML_ELEM_FLAT:
		p->x->flat_only = true;
		break;
	case XML_ELEM_PF:
	case XML_ELEM_PR:
	case XML_ELEM_C:
	case XML_ELEM_L:
	case XML_ELEM_S:
		if (parent && (parent->elem == XML_ELEM_DATA ||
			       xml_tree_is_element(parent->elem)))
			xml_tree_start_element(p, fr, parent, atts);
		else
			fr->elem = XML_ELEM_OTHER;
		break;
	case XML_ELEM_M:
		if (parent && (parent->elem == XML_ELEM_DATA ||
			       xml_tree_is_element(parent->elem)))
			xml_tree_add_value(p, parent, atts);
		break;
	case XML_ELEM_OTHER:
		break;
	}
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
	struct xml_parser *p = ud;
	(void)name;
	if (p->st != STATUS_OK || p->depth == 0)
		return;
	struct xml_frame *fr = &p->stack[--p->depth];
	if (fr->elem == XML_ELEM_METRIC)
		p->current_metric = MODEL_NONE;
}

/* Any <!ENTITY> declaration stops the parse: HPCToolkit never writes one,
 * and refusing them all rules out entity expansion attacks. */
static void XMLCALL on_entity_decl(void *ud, const XML_Char *name,
				   int is_parameter, const XML_Char *value,
				   int value_len, const XML_Char *base,
				   const XML_Char *system_id,
				   const XML_Char *public_id,
				   const XML_Char *notation)
{
	struct xml_parser *p = ud;
	(void)is_parameter, (void)value, (void)value_len, (void)base,
	    (void)system_id, (void)public_id, (void)notation;
	xml_parser_fail(p, STATUS_CORRUPT,
			"entity declaration <!ENTITY %.40s> refused "
			"(experiment.xml files declare none)",
			name);
}

static int XMLCALL on_external_entity(XML_Parser xp, const XML_Char *context,
				      const XML_Char *base,
				      const XML_Char *system_id,
				      const XML_Char *public_id)
{
	(void)context, (void)base, (void)public_id;
	struct xml_parser *p = XML_GetUserData(xp);
	xml_parser_fail(p, STATUS_CORRUPT, "external entity \"%.80s\" refused",
			system_id ? system_id : "");
	return XML_STATUS_ERROR;
}

/* ---- driver ------------------------------------------------------------ */

static enum status finish(struct xml_parser *p)
{
	struct xml_experiment *x = p->x;
	if (!p->seen_root)
		return error_set(p->err, STATUS_NOT_DATABASE, p->name,
				 "no <HPCToolkitExperiment> element: not an "
				 "HPCToolkit experiment.xml");
	if (!xml_values_seal(x->values))
		return error_set(p->err, STATUS_NOMEM, p->name,
				 "out of memory");
	if (x->n_metrics) {
		x->metric_index =
		    malloc((size_t)x->n_metrics * sizeof(*x->metric_index));
		if (!x->metric_index)
			return error_set(p->err, STATUS_NOMEM, p->name,
					 "out of memory");
		for (uint32_t i = 0; i < x->n_metrics; i++)
			x->metric_index[i] =
			    (uint64_t)x->metrics[i].id << 32 | i;
		qsort(x->metric_index, x->n_metrics, sizeof(*x->metric_index),
		      array_cmp_u64);
		for (uint32_t i = 1; i < x->n_metrics; i++)
			if (x->metric_index[i] >> 32 ==
			    x->metric_index[i - 1] >> 32)
				return error_set(
				    p->err, STATUS_CORRUPT, p->name,
				    "<Metric i=\"%llu\"> is "
				    "declared twice",
				    (ull)(x->metric_index[i] >> 32));
	}
	if (x->n_trace_ids) {
		qsort(x->trace_ids, x->n_trace_ids, sizeof(*x->trace_ids),
		      array_cmp_u64);
		size_t k = 0;
		for (size_t i = 0; i < x->n_trace_ids; i++)
			if (k == 0 ||
			    x->trace_ids[k - 1] >> 32 != x->trace_ids[i] >> 32)
				x->trace_ids[k++] = x->trace_ids[i];
		x->n_trace_ids = k;
	}
	if (!p->seen_data)
		x->flat_only = x->flat_only && x->n_contexts == 0;
	else
		x->flat_only = false;
	return STATUS_OK;
}

enum status xml_experiment_parse(struct blob *blob, struct model_builder *b,
				 struct xml_experiment *out, struct error *err)
{
	memset(out, 0, sizeof(*out));
	struct xml_parser p = {
		.name = blob_name(blob),
		.b = b,
		.x = out,
		.err = err,
		.current_metric = MODEL_NONE,
	};
	enum status st = STATUS_OK;
	out->values = xml_values_new();
	p.xp = XML_ParserCreate(NULL);
	if (!out->values || !p.xp) {
		st = error_set(err, STATUS_NOMEM, p.name, "out of memory");
		goto out;
	}
	XML_SetUserData(p.xp, &p);
	XML_SetElementHandler(p.xp, on_start, on_end);
	XML_SetEntityDeclHandler(p.xp, on_entity_decl);
	XML_SetExternalEntityRefHandler(p.xp, on_external_entity);
	xml_guard(p.xp);
	uint64_t size = blob_size(blob);
	if (size == 0) {
		st = error_set(err, STATUS_NOT_DATABASE, p.name,
			       "empty file: not an HPCToolkit experiment.xml");
		goto out;
	}
	for (uint64_t off = 0; off < size;) {
		uint64_t len = size - off < XML_EXPERIMENT_WINDOW
				   ? size - off
				   : XML_EXPERIMENT_WINDOW;
		struct span w;
		st = blob_read(blob, off, len, &w, err);
		if (st != STATUS_OK)
			goto out;
		off += len;
		enum XML_Status xs = XML_Parse(p.xp, (const char *)w.data,
					       (int)len, off == size);
		blob_release(blob, w);
		if (p.st != STATUS_OK) {
			st = p.st;
			goto out;
		}
		if (xs != XML_STATUS_OK) {
			enum XML_Error code = XML_GetErrorCode(p.xp);
			XML_Index at = XML_GetCurrentByteIndex(p.xp);
			st = error_set_at(
			    err,
			    p.seen_root ? STATUS_CORRUPT : STATUS_NOT_DATABASE,
			    p.name, at < 0 ? 0 : (uint64_t)at,
			    "line %lu, column %lu: %s%s",
			    (unsigned long)XML_GetCurrentLineNumber(p.xp),
			    (unsigned long)XML_GetCurrentColumnNumber(p.xp) + 1,
			    XML_ErrorString(code),
			    code == XML_ERROR_NO_ELEMENTS
				? " (the file ends before the "
				  "document does: truncated?)"
				: "");
			goto out;
		}
	}
	st = finish(&p);
out:
	if (p.xp)
		XML_ParserFree(p.xp);
	free(p.stack);
	free(p.modules.e);
	free(p.files.e);
	free(p.procedures.e);
	if (st != STATUS_OK)
		xml_experiment_free(out);
	return st;
}

uint32_t xml_experiment_trace_ctx(const struct xml_experiment *x,
				  uint32_t trace_id)
{
	return array_pairs_find(x->trace_ids, x->n_trace_ids, trace_id,
				MODEL_NONE);
}

const struct xml_metric *xml_experiment_metric(const struct xml_experiment *x,
					       uint32_t id)
{
	uint32_t i = array_pairs_find(x->metric_index, x->n_metrics, id,
				      MODEL_NONE);
	return i == MODEL_NONE ? NULL : &x->metrics[i];
}

void xml_experiment_free(struct xml_experiment *x)
{
	if (!x)
		return;
	for (uint32_t i = 0; i < x->n_metrics; i++) {
		free(x->metrics[i].name);
		free(x->metrics[i].description);
		free(x->metrics[i].formula);
		free(x->metrics[i].combine);
		free(x->metrics[i].format);
	}
	free(x->metrics);
	free(x->metric_index);
	for (uint32_t i = 0; i < x->n_metric_dbs; i++)
		free(x->metric_dbs[i].name);
	free(x->metric_dbs);
	array_free_each(x->id_names, x->n_id_names);
	xml_values_free(x->values);
	free(x->trace_ids);
	memset(x, 0, sizeof(*x));
}
