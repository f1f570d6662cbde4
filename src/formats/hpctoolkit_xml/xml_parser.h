/* xml_parser: what the parts of the experiment.xml reader share while
 * expat runs: the parser state (element stack, header tables, the model
 * builder), the first-failure rule and the attribute helpers.  Internal to
 * xml_experiment.c, xml_header.c and xml_tree.c; must not depend on curses
 * or on the binary legacy formats. */
#ifndef CALLSCOPE_XML_PARSER_H
#define CALLSCOPE_XML_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The billion-laughs limits of expat >= 2.4 are declared only with
 * XML_DTD, which every distribution's libexpat is built with (its default:
 * DTD support is what parses the internal subset of experiment.xml). */
#ifndef XML_DTD
#define XML_DTD
#endif
#include <expat.h>

#include "model/model.h"
#include "formats/hpctoolkit_xml/xml_experiment.h"

enum xml_elem {
	XML_ELEM_OTHER,
	XML_ELEM_ROOT,
	XML_ELEM_HEADER,
	XML_ELEM_METRIC,
	XML_ELEM_METRIC_FORMULA,
	XML_ELEM_METRIC_DB,
	XML_ELEM_TRACE_DB,
	XML_ELEM_LOAD_MODULE,
	XML_ELEM_FILE,
	XML_ELEM_PROCEDURE,
	XML_ELEM_IDENTIFIER,
	XML_ELEM_DATA,
	XML_ELEM_FLAT,
	XML_ELEM_PF,
	XML_ELEM_PR,
	XML_ELEM_C,
	XML_ELEM_L,
	XML_ELEM_S,
	XML_ELEM_M,
};

/* A header table (LoadModuleTable, FileTable, ProcedureTable): id -> string
 * handle, plus the model function made for a procedure on first use. */
struct xml_table_entry {
	uint64_t id;
	uint32_t handle;
	uint32_t function; /* procedures: model function, or MODEL_NONE */
};

struct xml_table {
	struct xml_table_entry *e;
	size_t n, cap;
	bool sorted;
};

struct xml_frame {
	uint8_t elem;  /* enum xml_elem */
	uint32_t node; /* model node of a tree element (0 for the data) */
	uint32_t ctx_id;
	uint32_t file; /* string handle, inherited by enclosed elements */
	uint32_t module;
};

struct xml_parser {
	XML_Parser xp;
	const char *name;
	struct model_builder *b;
	struct xml_experiment *x;
	struct error *err;
	enum status st;
	struct xml_frame *stack;
	size_t depth, cap;
	struct xml_table modules, files, procedures;
	size_t metrics_cap, dbs_cap, trace_cap;
	uint32_t current_metric; /* index in x->metrics, or MODEL_NONE */
	bool seen_root;
	bool seen_data;
};

typedef unsigned long long ull; /* for printing u64 values portably */

/* Record the first failure, with the line, column and byte offset expat is
 * at, and stop the parser.  Returns the status kept. */
enum status xml_parser_fail(struct xml_parser *p, enum status st,
			    const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The value of attribute `name`, or NULL. */
const char *xml_parser_attr(const XML_Char **atts, const char *name);

/* A decimal integer (optionally signed), the whole string. */
bool xml_parser_parse_i64(const char *s, int64_t *out);
bool xml_parser_parse_u32(const char *s, uint32_t *out);

/* "0x4006a5" or a decimal number; 0 for anything else. */
uint64_t xml_parser_parse_address(const char *s);

/* A required non-negative id attribute; false (after failing the parse)
 * when absent or malformed. */
bool xml_parser_id_attr(struct xml_parser *p, const XML_Char **atts,
			const char *el, const char *name, uint32_t *out);

/* Intern a string into the model (0 for NULL); fails the parse when out of
 * memory. */
uint32_t xml_parser_intern(struct xml_parser *p, const char *s);

/* ---- xml_header.c: the SecHeader tables and the root ---------------- */

void xml_header_start_root(struct xml_parser *p, const XML_Char **atts);
void xml_header_add_entry(struct xml_parser *p, struct xml_table *t,
			  const char *el, const XML_Char **atts);
void xml_header_add_metric(struct xml_parser *p, const XML_Char **atts);
void xml_header_add_metric_formula(struct xml_parser *p, const XML_Char **atts);
void xml_header_add_metric_db(struct xml_parser *p, const XML_Char **atts);
void xml_header_add_identifier(struct xml_parser *p, const XML_Char **atts);
/* The entry of table `t` with id `id` (the table is sorted on first use),
 * or NULL. */
struct xml_table_entry *xml_header_find_entry(struct xml_table *t, uint64_t id);
/* An attribute that is "a string or an id in <table>": the table's string
 * when it is a known id, else the text itself. */
uint32_t xml_header_table_string(struct xml_parser *p, struct xml_table *t,
				 const char *s);

/* ---- xml_tree.c: the call path elements ------------------------------ */

/* True for PF, Pr, C, L, S. */
bool xml_tree_is_element(uint8_t elem);
/* A PF, Pr, C, L or S start tag: one model node under the parent frame. */
void xml_tree_start_element(struct xml_parser *p, struct xml_frame *fr,
			    const struct xml_frame *parent,
			    const XML_Char **atts);
/* An <M> under a tree element (or the data section: the root). */
void xml_tree_add_value(struct xml_parser *p, const struct xml_frame *parent,
			const XML_Char **atts);

#endif
