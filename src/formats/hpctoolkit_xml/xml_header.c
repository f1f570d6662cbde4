/* xml_header: the header of an experiment.xml as expat delivers it: the
 * root's version, the MetricTable (with its MetricFormulas), the
 * MetricDBTable, the TraceDBTable, the identifier names of 4.0 and the
 * LoadModule, File and Procedure tables that tree attributes refer to.
 * Must not depend on curses or on the binary legacy formats. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "formats/hpctoolkit_xml/xml_parser.h"

static uint8_t metric_type(const char *t)
{
	if (t && strcmp(t, "inclusive") == 0)
		return XML_METRIC_INCLUSIVE;
	if (t && strcmp(t, "exclusive") == 0)
		return XML_METRIC_EXCLUSIVE;
	return XML_METRIC_NIL;
}

void xml_header_add_entry(struct xml_parser *p, struct xml_table *t,
			  const char *el, const XML_Char **atts)
{
	uint32_t id;
	if (!xml_parser_id_attr(p, atts, el, "i", &id))
		return;
	const char *n = xml_parser_attr(atts, "n");
	if (!n) {
		xml_parser_fail(p, STATUS_CORRUPT,
				"<%s i=\"%" PRIu32 "\"> has no n "
				"attribute",
				el, id);
		return;
	}
	if (!array_grow((void **)&t->e, &t->cap, t->n + 1, sizeof(*t->e))) {
		xml_parser_fail(p, STATUS_NOMEM, "out of memory");
		return;
	}
	t->e[t->n++] = (struct xml_table_entry){
		.id = id,
		.handle = xml_parser_intern(p, n),
		.function = MODEL_NONE,
	};
	t->sorted = false;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct xml_table_entry *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static bool entry_below(const void *elem, const void *key)
{
	return ((const struct xml_table_entry *)elem)->id <
	       *(const uint64_t *)key;
}

struct xml_table_entry *xml_header_find_entry(struct xml_table *t, uint64_t id)
{
	if (!t->sorted) {
		if (t->n)
			qsort(t->e, t->n, sizeof(*t->e), cmp_entry);
		t->sorted = true;
	}
	size_t lo = array_lower_bound(t->e, t->n, sizeof(*t->e), entry_below,
				      &id);
	return lo < t->n && t->e[lo].id == id ? &t->e[lo] : NULL;
}

/* An attribute that is "a string or an id in <table>": the table's string
 * when it is a known id, else the text itself. */
uint32_t xml_header_table_string(struct xml_parser *p, struct xml_table *t,
				 const char *s)
{
	uint32_t id;
	if (!s)
		return 0;
	if (xml_parser_parse_u32(s, &id)) {
		struct xml_table_entry *e = xml_header_find_entry(t, id);
		if (e)
			return e->handle;
	}
	return xml_parser_intern(p, s);
}

void xml_header_add_metric(struct xml_parser *p, const XML_Char **atts)
{
	struct xml_experiment *x = p->x;
	uint32_t id;
	if (!xml_parser_id_attr(p, atts, "Metric", "i", &id))
		return;
	const char *n = xml_parser_attr(atts, "n"),
		   *md = xml_parser_attr(atts, "md");
	const char *partner = xml_parser_attr(atts, "partner"),
		   *show = xml_parser_attr(atts, "show");
	const char *pct = xml_parser_attr(atts, "show-percent"),
		   *o = xml_parser_attr(atts, "o");
	const char *fmt = xml_parser_attr(atts, "fmt");
	if (!n) {
		xml_parser_fail(p, STATUS_CORRUPT,
				"<Metric i=\"%" PRIu32 "\"> has no n "
				"attribute",
				id);
		return;
	}
	if (x->n_metrics == UINT32_MAX - 1 ||
	    !array_grow((void **)&x->metrics, &p->metrics_cap,
			(size_t)x->n_metrics + 1, sizeof(*x->metrics))) {
		xml_parser_fail(p, STATUS_NOMEM, "out of memory");
		return;
	}
	struct xml_metric *m = &x->metrics[x->n_metrics];
	*m = (struct xml_metric){
		.id = id,
		.name = strdup(n),
		.description = md ? strdup(md) : NULL,
		.type = metric_type(xml_parser_attr(atts, "t")),
		.partner = MODEL_NONE,
		.show = 1,
		.show_percent = !pct || strcmp(pct, "0") != 0,
		.order = MODEL_NONE,
		.format = fmt ? strdup(fmt) : NULL,
	};
	x->n_metrics++;
	if (!m->name || (md && !m->description) || (fmt && !m->format)) {
		xml_parser_fail(p, STATUS_NOMEM, "out of memory");
		return;
	}
	if (partner && !xml_parser_parse_u32(partner, &m->partner))
		m->partner = MODEL_NONE;
	if (o && !xml_parser_parse_u32(o, &m->order))
		m->order = MODEL_NONE;
	if (show && !xml_parser_parse_u32(show, &m->show))
		m->show = 1;
	p->current_metric = x->n_metrics - 1;
}

void xml_header_add_metric_formula(struct xml_parser *p, const XML_Char **atts)
{
	if (p->current_metric == MODEL_NONE)
		return;
	struct xml_metric *m = &p->x->metrics[p->current_metric];
	const char *t = xml_parser_attr(atts, "t"),
		   *frm = xml_parser_attr(atts, "frm");
	if (!frm)
		return;
	char **slot = NULL;
	/* 2.x: "finalize" gives the shown value; 4.0: "view" */
	if (!t || strcmp(t, "finalize") == 0 || strcmp(t, "view") == 0)
		slot = &m->formula;
	else if (strcmp(t, "combine") == 0)
		slot = &m->combine;
	if (!slot)
		return;
	free(*slot);
	*slot = strdup(frm);
	if (!*slot)
		xml_parser_fail(p, STATUS_NOMEM, "out of memory");
}

void xml_header_add_metric_db(struct xml_parser *p, const XML_Char **atts)
{
	struct xml_experiment *x = p->x;
	uint32_t id;
	if (!xml_parser_id_attr(p, atts, "MetricDB", "i", &id))
		return;
	const char *n = xml_parser_attr(atts, "n");
	if (!n) {
		xml_parser_fail(p, STATUS_CORRUPT,
				"<MetricDB i=\"%" PRIu32 "\"> has no "
				"n attribute",
				id);
		return;
	}
	if (x->n_metric_dbs == UINT32_MAX - 1 ||
	    !array_grow((void **)&x->metric_dbs, &p->dbs_cap,
			(size_t)x->n_metric_dbs + 1, sizeof(*x->metric_dbs))) {
		xml_parser_fail(p, STATUS_NOMEM, "out of memory");
		return;
	}
	struct xml_metric_db *d = &x->metric_dbs[x->n_metric_dbs++];
	*d = (struct xml_metric_db){
		.id = id,
		.name = strdup(n),
		.type = metric_type(xml_parser_attr(atts, "t")),
		.db_id = id,
	};
	if (!d->name) {
		xml_parser_fail(p, STATUS_NOMEM, "out of memory");
		return;
	}
	const char *db_id = xml_parser_attr(atts, "db-id"),
		   *num = xml_parser_attr(atts, "db-num-metrics");
	if (db_id && !xml_parser_parse_u32(db_id, &d->db_id))
		xml_parser_fail(p, STATUS_CORRUPT,
				"<MetricDB i=\"%" PRIu32 "\"> db-id "
				"is not a non-negative integer",
				id);
	if (num && !xml_parser_parse_u32(num, &d->n_db))
		xml_parser_fail(p, STATUS_CORRUPT,
				"<MetricDB i=\"%" PRIu32 "\"> "
				"db-num-metrics is not a non-negative integer",
				id);
}

void xml_header_add_identifier(struct xml_parser *p, const XML_Char **atts)
{
	struct xml_experiment *x = p->x;
	uint32_t id;
	const char *n = xml_parser_attr(atts, "n");
	if (!xml_parser_id_attr(p, atts, "Identifier", "i", &id) || !n)
		return;
	/* identifier kinds are small (a u16 in profile.db) */
	if (id > UINT16_MAX) {
		xml_parser_fail(p, STATUS_CORRUPT,
				"<Identifier i=\"%" PRIu32 "\"> is "
				"not an identifier kind (0..65535)",
				id);
		return;
	}
	if (id >= x->n_id_names) {
		char **names =
		    realloc(x->id_names, ((size_t)id + 1) * sizeof(*names));
		if (!names) {
			xml_parser_fail(p, STATUS_NOMEM, "out of memory");
			return;
		}
		memset(names + x->n_id_names, 0,
		       ((size_t)id + 1 - x->n_id_names) * sizeof(*names));
		x->id_names = names;
		x->n_id_names = id + 1;
	}
	free(x->id_names[id]);
	x->id_names[id] = strdup(n);
	if (!x->id_names[id])
		xml_parser_fail(p, STATUS_NOMEM, "out of memory");
}

/* ---- the root ---------------------------------------------------------- */

void xml_header_start_root(struct xml_parser *p, const XML_Char **atts)
{
	const char *v = xml_parser_attr(atts, "version");
	unsigned major = 0, minor = 0;
	int used = 0;
	if (!v || sscanf(v, "%u.%u%n", &major, &minor, &used) != 2 ||
	    v[used] != '\0') {
		xml_parser_fail(p, STATUS_CORRUPT,
				"<HPCToolkitExperiment> has no "
				"version=\"MAJOR.MINOR\" attribute");
		return;
	}
	if (major != 2 && major != 4) {
		xml_parser_fail(
		    p, STATUS_UNSUPPORTED,
		    "experiment.xml version %u.%u is "
		    "not supported (this reader knows 2.0-2.2 and 4.0)",
		    major, minor);
		return;
	}
	p->x->major = major;
	p->x->minor = minor;
}
