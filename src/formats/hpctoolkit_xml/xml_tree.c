/* xml_tree: the call path elements of an experiment.xml (PF, Pr, C, L, S)
 * turned into model nodes as their start tags arrive, the functions made
 * from the ProcedureTable on first use, the `it` trace ids and the inline
 * <M> values.  Must not depend on curses or on the binary legacy formats. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "formats/hpctoolkit_xml/xml_parser.h"

bool xml_tree_is_element(uint8_t elem)
{
	return elem >= XML_ELEM_PF && elem <= XML_ELEM_S;
}

/* The model function of procedure `n` (an id in the ProcedureTable or a
 * name), made on first use with the place of its first frame. */
static uint32_t function_of(struct xml_parser *p, const char *n, uint32_t name,
			    uint32_t module, uint32_t file, uint32_t line,
			    uint64_t offset)
{
	uint32_t id;
	struct xml_table_entry *e = NULL;
	if (n && xml_parser_parse_u32(n, &id))
		e = xml_header_find_entry(&p->procedures, id);
	if (e && e->function != MODEL_NONE)
		return e->function;
	struct model_function fn = {
		.name = name,
		.module = module,
		.file = file,
		.line = line,
		.offset = offset,
	};
	uint32_t f = model_builder_add_function(p->b, &fn);
	if (f == MODEL_NONE) {
		xml_parser_fail(p, STATUS_NOMEM, "out of memory");
		return MODEL_NONE;
	}
	if (e)
		e->function = f;
	return f;
}

static void add_trace_id(struct xml_parser *p, const char *it, uint32_t ctx_id)
{
	struct xml_experiment *x = p->x;
	uint32_t tid;
	if (!it)
		return;
	if (!xml_parser_parse_u32(it, &tid)) {
		xml_parser_fail(p, STATUS_CORRUPT,
				"it=\"%.40s\" is not a non-negative "
				"integer",
				it);
		return;
	}
	if (!array_grow((void **)&x->trace_ids, &p->trace_cap,
			x->n_trace_ids + 1, sizeof(*x->trace_ids))) {
		xml_parser_fail(p, STATUS_NOMEM, "out of memory");
		return;
	}
	x->trace_ids[x->n_trace_ids++] = (uint64_t)tid << 32 | ctx_id;
}

static const char *tree_name(uint8_t elem)
{
	switch (elem) {
	case XML_ELEM_PF:
		return "PF";
	case XML_ELEM_PR:
		return "Pr";
	case XML_ELEM_C:
		return "C";
	case XML_ELEM_L:
		return "L";
	default:
		return "S";
	}
}

/* A PF, Pr, C, L or S start tag: one model node under the parent frame. */
void xml_tree_start_element(struct xml_parser *p, struct xml_frame *fr,
			    const struct xml_frame *parent,
			    const XML_Char **atts)
{
	const char *el = tree_name(fr->elem);
	const char *i = xml_parser_attr(atts, "i"),
		   *l = xml_parser_attr(atts, "l");
	int64_t id;
	if (!i || !xml_parser_parse_i64(i, &id) || id < INT32_MIN ||
	    id > UINT32_MAX) {
		xml_parser_fail(p, STATUS_CORRUPT,
				"<%s> has no i attribute or i=\"%.40s\" "
				"is not a context id",
				el, i ? i : "");
		return;
	}
	/* 4.0 (hpcprof2) writes a C with i="-N" next to the frame with id
	 * N: as the first child of PF N (the enclosing frame, which calls
	 * from there) or as the parent of PF N (the callee, for inlined and
	 * unknown frames).  It has no values of its own: it keeps context id
	 * N (values, trace ids) and is marked NODE_TRAIT_ALIAS_ID, so that
	 * reports show it as -N and ids stay unique. */
	uint32_t ctx_id = (uint32_t)(id < 0 ? -id : id);
	if (ctx_id == 0 || ctx_id == MODEL_NONE) {
		xml_parser_fail(p, STATUS_CORRUPT,
				"<%s i=\"%s\">: context id 0 is the "
				"root's",
				el, i);
		return;
	}
	uint32_t line = 0;
	if (l) {
		/* "beg-end" in older files: the first line */
		char *end = NULL;
		errno = 0;
		unsigned long long v = strtoull(l, &end, 10);
		if (errno || end == l || v > UINT32_MAX ||
		    (*end && *end != '-')) {
			xml_parser_fail(p, STATUS_CORRUPT,
					"<%s i=\"%s\"> l=\"%.40s\" is "
					"not a line number",
					el, i, l);
			return;
		}
		line = (uint32_t)v;
	}
	const char *f = xml_parser_attr(atts, "f"),
		   *lm = xml_parser_attr(atts, "lm");
	fr->file = f ? xml_header_table_string(p, &p->files, f) : parent->file;
	fr->module =
	    lm ? xml_header_table_string(p, &p->modules, lm) : parent->module;
	fr->ctx_id = ctx_id;
	struct model_node node = {
		.ctx_id = ctx_id,
		.function = MODEL_NONE,
		.file = fr->file,
		.line = line,
		.module = fr->module,
		.offset = xml_parser_parse_address(xml_parser_attr(atts, "v")),
	};
	switch (fr->elem) {
	case XML_ELEM_PF:
	case XML_ELEM_PR: {
		const char *n = xml_parser_attr(atts, "n"),
			   *a = xml_parser_attr(atts, "a");
		bool alien = a && strcmp(a, "1") == 0;
		node.kind = NODE_FUNCTION;
		node.name = xml_header_table_string(p, &p->procedures, n);
		node.relation =
		    fr->elem == XML_ELEM_PR
			? (alien ? RELATION_INLINED_CALL : RELATION_LEXICAL)
		    : parent->elem == XML_ELEM_DATA ? RELATION_NONE
						    : RELATION_CALL;
		node.function = function_of(p, n, node.name, fr->module,
					    fr->file, line, node.offset);
		/* hpcprof 2.x's exclusive values of the enclosing PF
		 * already hold the statements inlined here (4.0, from
		 * hpcprof2 as v4, keeps them apart) */
		if (fr->elem == XML_ELEM_PR && alien && p->x->major == 2)
			node.traits = NODE_TRAIT_EXCL_IN_FRAME;
		break;
	}
	case XML_ELEM_C:
		node.kind = NODE_LINE;
		node.relation = RELATION_LEXICAL;
		break;
	case XML_ELEM_L:
		node.kind = NODE_LOOP;
		node.relation = RELATION_LEXICAL;
		break;
	default:
		node.kind = NODE_LINE;
		node.relation = RELATION_LEXICAL;
		break;
	}
	if (id < 0)
		node.traits |= NODE_TRAIT_ALIAS_ID;
	if (p->st != STATUS_OK)
		return;
	fr->node = model_builder_add_node(p->b, parent->node, &node);
	if (fr->node == MODEL_NONE) {
		xml_parser_fail(p, STATUS_NOMEM, "out of memory");
		return;
	}
	p->x->n_contexts++;
	add_trace_id(p, xml_parser_attr(atts, "it"), ctx_id);
}

void xml_tree_add_value(struct xml_parser *p, const struct xml_frame *parent,
			const XML_Char **atts)
{
	uint32_t metric;
	const char *v = xml_parser_attr(atts, "v");
	double value;
	if (!xml_parser_id_attr(p, atts, "M", "n", &metric))
		return;
	if (!v || !formula_number_value(v, strlen(v), &value)) {
		/* hpcprof writes denormals and "inf"/"nan" in some files:
		 * strtod accepts them in the C locale */
		char *end = NULL;
		if (v) {
			errno = 0;
			value = strtod(v, &end);
		}
		if (!v || end == v || *end) {
			xml_parser_fail(p, STATUS_CORRUPT,
					"<M n=\"%" PRIu32 "\"> v=\"%.40s\""
					" is not a number",
					metric, v ? v : "");
			return;
		}
	}
	if (!xml_values_add(p->x->values, parent->ctx_id, metric, value))
		xml_parser_fail(p, STATUS_NOMEM, "out of memory");
}
