/* cube_anchor: anchor.xml -> tables (see cube_anchor.h).  One streaming
 * expat pass over the member, inflated on the fly when it is gzip or zlib
 * (Extra-P's files); the element stack is a heap array with a depth cap;
 * entity declarations and external entities stop the parse; the
 * attribute values CubeLib writes unquoted are quoted before expat reads
 * them (cube_quote.c).  Depends on core/, model/, io/ and cube_tar. */
#include "config.h"

#include "formats/cube/cube_anchor.h"
#include "formats/cube/cube_anchor_parse.h"
#include "formats/cube/cube_components.h"
#include "core/array.h"
#include "io/xml_guard.h"

#include <errno.h>
#include <expat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define ZLIB_CONST /* next_in points at read-only input */
#include <zlib.h>

typedef unsigned long long ull;

static void fail(struct parser *p, enum status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct parser *p, enum status st, const char *fmt, ...)
{
	if (p->st != STATUS_OK)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->st = error_set_at(p->err, st, p->name,
			     (uint64_t)XML_GetCurrentByteIndex(p->xp),
			     "anchor.xml line %lu: %s",
			     (unsigned long)XML_GetCurrentLineNumber(p->xp), msg);
	XML_StopParser(p->xp, XML_FALSE);
}

static const char *attr(const XML_Char **atts, const char *name)
{
	for (size_t i = 0; atts[i]; i += 2)
		if (strcmp(atts[i], name) == 0)
			return atts[i + 1];
	return NULL;
}

/* A decimal uint32 attribute; false (and a failure) when malformed. */
static bool u32_attr(struct parser *p, const XML_Char **atts,
		     const char *elem, const char *name, bool required,
		     uint32_t dflt, uint32_t *out)
{
	const char *s = attr(atts, name);
	*out = dflt;
	if (!s) {
		if (required)
			fail(p, STATUS_CORRUPT, "<%s> without %s", elem, name);
		return !required;
	}
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (end == s || *end || v < -1 || v > (long long)UINT32_MAX - 2) {
		fail(p, STATUS_CORRUPT, "<%s %s=\"%.40s\">: not a valid number",
		     elem, name, s);
		return false;
	}
	*out = v < 0 ? dflt : (uint32_t)v;
	return true;
}

static bool grow(struct parser *p, void **arr, uint32_t n, uint32_t *cap,
		 size_t size)
{
	if (array_grow_u32(arr, cap, (uint64_t)n + 1, size))
		return true;
	fail(p, STATUS_NOMEM, "out of memory");
	return false;
}

static uint32_t intern(struct parser *p, const char *s, size_t len)
{
	uint32_t h = model_builder_intern(p->b, s, len);
	if (h == MODEL_NONE) {
		fail(p, STATUS_NOMEM, "out of memory");
		return 0;
	}
	return h;
}

static const struct {
	const char *name;
	uint8_t elem, field;
} elems[] = {
	{"cube", E_CUBE, F_NONE},
	{"attr", E_ATTR, F_NONE},
	{"metric", E_METRIC, F_NONE},
	{"region", E_REGION, F_NONE},
	{"cnode", E_CNODE, F_NONE},
	{"parameter", E_PARAMETER, F_NONE},
	{"systemtreenode", E_STN, F_NONE},
	{"machine", E_STN, F_NONE},
	{"node", E_STN, F_NONE},
	{"locationgroup", E_GROUP, F_NONE},
	{"process", E_GROUP, F_NONE},
	{"location", E_LOCATION, F_NONE},
	{"thread", E_LOCATION, F_NONE},
	{"name", E_TEXT, F_NAME},
	{"uniq_name", E_TEXT, F_UNIQ},
	{"disp_name", E_TEXT, F_DISP},
	{"dtype", E_TEXT, F_DTYPE},
	{"uom", E_TEXT, F_UOM},
	{"descr", E_TEXT, F_DESCR},
	{"rank", E_TEXT, F_RANK},
	{"type", E_TEXT, F_TYPE},
	{"class", E_TEXT, F_CLASS},
	{"cubepl", E_TEXT, F_CUBEPL},
	{"cubeplinit", E_TEXT, F_CUBEPL_INIT},
	{"cubeplaggr", E_TEXT, F_CUBEPL_AGGR},
	{"mangled_name", E_TEXT, F_MANGLED},
	{"paradigm", E_TEXT, F_PARADIGM},
	{"role", E_TEXT, F_ROLE},
};

/* The slot of a <cubeplaggr> by its cubeplaggrtype (CubeLib's
 * Cube4Parser.yy: plus, minus, aggr). */
static uint8_t aggr_field(const char *type)
{
	if (type && strcmp(type, "plus") == 0)
		return F_CUBEPL_PLUS;
	if (type && strcmp(type, "minus") == 0)
		return F_CUBEPL_MINUS;
	if (type && strcmp(type, "aggr") == 0)
		return F_CUBEPL_AGGR_AGGR;
	return F_CUBEPL_AGGR_UNTYPED;
}

static void start_metric(struct parser *p, const XML_Char **atts,
			 const struct frame *parent, struct frame *fr)
{
	struct cube_anchor *a = p->a;
	uint32_t id;
	if (!u32_attr(p, atts, "metric", "id", true, 0, &id))
		return;
	if (!grow(p, (void **)&a->metrics, a->n_metrics, &p->caps[0],
		  sizeof(*a->metrics)))
		return;
	for (uint32_t i = 0; i < a->n_metrics; i++)
		if (a->metrics[i].id == id) {
			fail(p, STATUS_CORRUPT, "two metrics with id %u",
			     (unsigned)id);
			return;
		}
	fr->obj = a->n_metrics;
	uint8_t derived;
	uint8_t mtype = cube_mtype_of(attr(atts, "type"), &derived);
	a->metrics[a->n_metrics++] = (struct cube_metric){
		.id = id,
		.parent = parent && parent->elem == E_METRIC ? parent->obj
							     : MODEL_NONE,
		.mtype = mtype,
		.derived = derived,
		.dtype = CUBE_DT_DOUBLE,
		.elem_size = 8,
	};
}

static void start_region(struct parser *p, const XML_Char **atts,
			 struct frame *fr)
{
	struct cube_anchor *a = p->a;
	uint32_t id, begin;
	if (!u32_attr(p, atts, "region", "id", true, 0, &id) ||
	    !u32_attr(p, atts, "region", "begin", false, 0, &begin))
		return;
	if (!grow(p, (void **)&a->regions, a->n_regions, &p->caps[1],
		  sizeof(*a->regions)))
		return;
	const char *mod = attr(atts, "mod");
	fr->obj = a->n_regions;
	a->regions[a->n_regions++] = (struct cube_region){
		.id = id,
		.mod = mod ? intern(p, mod, strlen(mod)) : 0,
		.begin = begin,
		.function = MODEL_NONE,
	};
}

static void start_cnode(struct parser *p, const XML_Char **atts,
			const struct frame *parent, struct frame *fr)
{
	struct cube_anchor *a = p->a;
	uint32_t id, callee, line;
	if (!u32_attr(p, atts, "cnode", "id", true, 0, &id) ||
	    !u32_attr(p, atts, "cnode", "calleeId", true, 0, &callee) ||
	    !u32_attr(p, atts, "cnode", "line", false, 0, &line))
		return;
	if (!grow(p, (void **)&a->cnodes, a->n_cnodes, &p->caps[2],
		  sizeof(*a->cnodes)))
		return;
	const char *mod = attr(atts, "mod");
	fr->obj = a->n_cnodes;
	a->cnodes[a->n_cnodes++] = (struct cube_cnode){
		.id = id,
		.parent = parent && parent->elem == E_CNODE ? parent->obj
							    : MODEL_NONE,
		.callee = callee,
		.line = line,
		.mod = mod && *mod ? intern(p, mod, strlen(mod)) : 0,
	};
}

static void start_parameter(struct parser *p, const XML_Char **atts,
			    const struct frame *parent)
{
	if (!parent || parent->elem != E_CNODE)
		return;
	const char *k = attr(atts, "parkey"), *v = attr(atts, "parvalue");
	if (!k || !v)
		return;
	struct cube_cnode *c = &p->a->cnodes[parent->obj];
	const char *old = model_str(model_builder_peek(p->b), c->params);
	char *s = NULL;
	if (asprintf(&s, "%s%s%s=%s", old, *old ? ", " : "", k, v) < 0) {
		fail(p, STATUS_NOMEM, "out of memory");
		return;
	}
	c->params = intern(p, s, strlen(s));
	free(s);
}

static void start_group(struct parser *p, const struct frame *parent,
			struct frame *fr)
{
	if (!grow(p, (void **)&p->groups, p->n_groups, &p->groups_cap,
		  sizeof(*p->groups)))
		return;
	fr->obj = p->n_groups;
	p->groups[p->n_groups++] = (struct group){
		.stn = parent->elem == E_STN ? parent->obj : MODEL_NONE};
}

/* A system tree node, numbered in document order (CubeLib's Ids are that
 * order; an odd Id attribute is no reason to refuse the file). */
static void start_stn(struct parser *p, const struct frame *parent,
		      struct frame *fr)
{
	struct cube_anchor *a = p->a;
	if (!grow(p, (void **)&a->stns, a->n_stns, &p->stns_cap,
		  sizeof(*a->stns)))
		return;
	fr->obj = a->n_stns;
	a->stns[a->n_stns] = (struct cube_stn){
		.id = a->n_stns,
		.parent = parent->elem == E_STN ? parent->obj : MODEL_NONE};
	a->n_stns++;
}

static void start_location(struct parser *p, const XML_Char **atts,
			   const struct frame *parent, struct frame *fr)
{
	struct cube_anchor *a = p->a;
	uint32_t id;
	if (!u32_attr(p, atts, "location", "Id", false, MODEL_NONE, &id))
		return;
	if (id == MODEL_NONE && !u32_attr(p, atts, "location", "id", false,
					   MODEL_NONE, &id))
		return;
	uint32_t cap = p->caps[3];
	if (!grow(p, (void **)&a->locations, a->n_locations, &p->caps[3],
		  sizeof(*a->locations)))
		return;
	if (!grow(p, (void **)&p->loc_group, a->n_locations, &cap,
		  sizeof(*p->loc_group)))
		return;
	fr->obj = a->n_locations;
	p->loc_group[a->n_locations] =
		parent && parent->elem == E_GROUP ? parent->obj : MODEL_NONE;
	a->locations[a->n_locations++] = (struct cube_location){
		.id = id == MODEL_NONE ? a->n_locations : id};
}

static void XMLCALL on_start(void *ud, const XML_Char *name,
			     const XML_Char **atts)
{
	struct parser *p = ud;
	if (p->st != STATUS_OK)
		return;
	if (p->depth >= CUBE_MAX_DEPTH) {
		fail(p, STATUS_LIMIT, "elements nested deeper than %u",
		     (unsigned)CUBE_MAX_DEPTH);
		return;
	}
	if (!array_grow((void **)&p->stack, &p->cap, p->depth + 1,
			sizeof(*p->stack))) {
		fail(p, STATUS_NOMEM, "out of memory");
		return;
	}
	const struct frame *parent = p->depth ? &p->stack[p->depth - 1] : NULL;
	struct frame *fr = &p->stack[p->depth++];
	*fr = (struct frame){E_OTHER, F_NONE, MODEL_NONE};
	for (size_t i = 0; i < sizeof(elems) / sizeof(elems[0]); i++)
		if (name[0] == elems[i].name[0] &&
		    strcmp(name, elems[i].name) == 0) {
			fr->elem = elems[i].elem;
			fr->field = elems[i].field;
			break;
		}
	if (!parent) {
		if (fr->elem != E_CUBE) {
			fail(p, STATUS_NOT_DATABASE,
			     "root element <%.40s> is not <cube>", name);
			return;
		}
		p->seen_root = true;
		const char *v = attr(atts, "version");
		p->a->version = strdup(v ? v : "");
		if (!p->a->version)
			fail(p, STATUS_NOMEM, "out of memory");
		return;
	}
	switch ((enum elem)fr->elem) {
	case E_ATTR:
		if (parent->elem == E_CUBE) {
			const char *k = attr(atts, "key"), *v = attr(atts, "value");
			if (k && v) {
				size_t add = strlen(k) + strlen(v) + 4;
				char *na = realloc(p->attrs, p->attrs_len + add + 1);
				if (!na) {
					fail(p, STATUS_NOMEM, "out of memory");
					return;
				}
				p->attrs = na;
				p->attrs_len += (size_t)snprintf(
					na + p->attrs_len, add + 1, "%s%s=%s",
					p->attrs_len ? "; " : "", k, v);
				if (strcmp(k, "Creator") == 0 && !p->a->title)
					p->a->title = strdup(v);
			}
		}
		break;
	case E_METRIC:
		start_metric(p, atts, parent, fr);
		break;
	case E_REGION:
		start_region(p, atts, fr);
		break;
	case E_CNODE:
		start_cnode(p, atts, parent, fr);
		break;
	case E_PARAMETER:
		start_parameter(p, atts, parent);
		break;
	case E_GROUP:
		start_group(p, parent, fr);
		break;
	case E_LOCATION:
		start_location(p, atts, parent, fr);
		break;
	case E_TEXT:
		if (parent->elem == E_METRIC || parent->elem == E_REGION ||
		    parent->elem == E_GROUP || parent->elem == E_LOCATION ||
		    parent->elem == E_STN) {
			p->collecting = true;
			p->text_len = 0;
		}
		if (fr->field == F_CUBEPL_AGGR)
			fr->field = aggr_field(attr(atts, "cubeplaggrtype"));
		break;
	case E_STN:
		start_stn(p, parent, fr);
		break;
	case E_CUBE:
	case E_OTHER:
		break;
	}
}

static void XMLCALL on_text(void *ud, const XML_Char *s, int len)
{
	struct parser *p = ud;
	if (!p->collecting || p->st != STATUS_OK || len <= 0)
		return;
	if (p->text_len + (size_t)len > CUBE_MAX_TEXT) {
		fail(p, STATUS_LIMIT, "element text longer than %u bytes",
		     (unsigned)CUBE_MAX_TEXT);
		return;
	}
	if (!array_grow((void **)&p->text, &p->text_cap,
			p->text_len + (size_t)len, 1)) {
		fail(p, STATUS_NOMEM, "out of memory");
		return;
	}
	memcpy(p->text + p->text_len, s, (size_t)len);
	p->text_len += (size_t)len;
}

static bool parse_u64_text(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t'))
		i++;
	bool any = false;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, any = true) {
		if (v > UINT64_MAX / 10 - 9)
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	while (i < len && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t'))
		i++;
	*out = v;
	return any && i == len;
}

static void end_text(struct parser *p, const struct frame *fr,
		     const struct frame *parent)
{
	const char *t = p->text ? p->text : "";
	size_t len = p->text_len;
	p->collecting = false;
	struct cube_anchor *a = p->a;
	switch ((enum elem)parent->elem) {
	case E_METRIC: {
		if (parent->obj == MODEL_NONE)
			return;
		struct cube_metric *m = &a->metrics[parent->obj];
		switch ((enum field)fr->field) {
		case F_UNIQ:
			m->uniq = intern(p, t, len);
			break;
		case F_DISP:
			m->disp = intern(p, t, len);
			break;
		case F_UOM:
			m->uom = intern(p, t, len);
			break;
		case F_DESCR:
			m->descr = intern(p, t, len);
			break;
		case F_DTYPE:
			m->dtype_text = intern(p, t, len);
			cube_set_dtype(m, t, len);
			break;
		case F_CUBEPL:
		case F_CUBEPL_INIT:
		case F_CUBEPL_PLUS:
		case F_CUBEPL_MINUS:
		case F_CUBEPL_AGGR_AGGR:
		case F_CUBEPL_AGGR_UNTYPED:
			m->cubepl[fr->field - F_CUBEPL] = intern(p, t, len);
			break;
		default:
			break;
		}
		break;
	}
	case E_REGION: {
		if (parent->obj == MODEL_NONE)
			return;
		struct cube_region *r = &a->regions[parent->obj];
		if (fr->field == F_NAME)
			r->name = intern(p, t, len);
		else if (fr->field == F_MANGLED)
			r->mangled = intern(p, t, len);
		else if (fr->field == F_PARADIGM)
			r->paradigm = intern(p, t, len);
		else if (fr->field == F_ROLE)
			r->role = intern(p, t, len);
		break;
	}
	case E_STN:
		if (parent->obj != MODEL_NONE && fr->field == F_NAME)
			a->stns[parent->obj].name = intern(p, t, len);
		else if (parent->obj != MODEL_NONE && fr->field == F_CLASS)
			a->stns[parent->obj].cls = intern(p, t, len);
		break;
	case E_GROUP:
	case E_LOCATION: {
		if (parent->obj == MODEL_NONE)
			return;
		uint32_t *name_h, *type_h;
		uint64_t *rank;
		if (parent->elem == E_GROUP) {
			struct group *g = &p->groups[parent->obj];
			name_h = &g->name, type_h = &g->type, rank = &g->rank;
		} else {
			struct cube_location *l = &a->locations[parent->obj];
			name_h = &l->name, type_h = &l->type, rank = &l->rank;
		}
		if (fr->field == F_NAME)
			*name_h = intern(p, t, len);
		else if (fr->field == F_TYPE)
			*type_h = intern(p, t, len);
		else if (fr->field == F_RANK && !parse_u64_text(t, len, rank))
			fail(p, STATUS_CORRUPT, "<rank> \"%.*s\" is not a "
			     "number", (int)(len > 40 ? 40 : len), t);
		break;
	}
	default:
		break;
	}
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
	struct parser *p = ud;
	(void)name;
	if (p->st != STATUS_OK || !p->depth)
		return;
	const struct frame *fr = &p->stack[p->depth - 1];
	if (fr->elem == E_TEXT && p->collecting && p->depth >= 2)
		end_text(p, fr, &p->stack[p->depth - 2]);
	p->depth--;
}

static void XMLCALL on_entity_decl(void *ud, const XML_Char *name,
				   int is_parameter, const XML_Char *value,
				   int value_len, const XML_Char *base,
				   const XML_Char *system_id,
				   const XML_Char *public_id,
				   const XML_Char *notation)
{
	(void)is_parameter, (void)value, (void)value_len, (void)base,
	    (void)system_id, (void)public_id, (void)notation;
	fail(ud, STATUS_CORRUPT,
	     "entity declaration <!ENTITY %.40s> refused (Cube writes none)",
	     name);
}

static int XMLCALL on_external_entity(XML_Parser xp, const XML_Char *context,
				      const XML_Char *base,
				      const XML_Char *system_id,
				      const XML_Char *public_id)
{
	(void)context, (void)base, (void)public_id;
	fail(XML_GetUserData(xp), STATUS_CORRUPT,
	     "external entity \"%.80s\" refused", system_id ? system_id : "");
	return XML_STATUS_ERROR;
}

static enum status feed(struct parser *p, const void *data, size_t len,
			bool last)
{
	if (p->st != STATUS_OK)
		return p->st;
	const char *q;
	size_t qn;
	if (!cube_quote_feed(&p->quote, data, len, last, &q, &qn))
		return p->st = error_set(p->err, STATUS_NOMEM, p->name,
					 "out of memory");
	if (XML_Parse(p->xp, q, (int)qn, last) != XML_STATUS_OK &&
	    p->st == STATUS_OK) {
		enum XML_Error code = XML_GetErrorCode(p->xp);
		p->st = error_set_at(
			p->err,
			p->seen_root ? STATUS_CORRUPT : STATUS_NOT_DATABASE,
			p->name, (uint64_t)XML_GetCurrentByteIndex(p->xp),
			"anchor.xml line %lu: %s",
			(unsigned long)XML_GetCurrentLineNumber(p->xp),
			XML_ErrorString(code));
	}
	return p->st;
}

#define WINDOW (1u << 20)

static enum status parse_member(struct parser *p,
				const struct cube_container *c,
				const struct cube_member *m)
{
	struct span w;
	enum status st;
	bool packed = false;
	if (m->size >= 2) {
		st = cube_member_read(c, m, 0, 2, &w, p->err);
		if (st != STATUS_OK)
			return st;
		/* gzip magic, or a zlib header (CMF 0x78) */
		packed = (w.data[0] == 0x1f && w.data[1] == 0x8b) ||
			 (w.data[0] == 0x78 &&
			  ((unsigned)w.data[0] << 8 | w.data[1]) % 31 == 0);
	}
	if (!packed) {
		for (uint64_t off = 0; off < m->size;) {
			uint64_t len = m->size - off < WINDOW ? m->size - off
							      : WINDOW;
			st = cube_member_read(c, m, off, len, &w, p->err);
			if (st != STATUS_OK)
				return st;
			off += len;
			st = feed(p, w.data, len, off == m->size);
			if (st != STATUS_OK)
				return st;
		}
		if (m->size == 0)
			return feed(p, "", 0, true);
		return STATUS_OK;
	}
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 32 + MAX_WBITS) != Z_OK)
		return error_set(p->err, STATUS_NOMEM, p->name,
				 "out of memory (zlib)");
	unsigned char *out = malloc(WINDOW);
	uint64_t off = 0, total = 0;
	bool done = false;
	st = out ? STATUS_OK
		 : error_set(p->err, STATUS_NOMEM, p->name, "out of memory");
	while (st == STATUS_OK && !done) {
		if (z.avail_in == 0) {
			if (off == m->size) {
				st = error_set(p->err, STATUS_CORRUPT, p->name,
					       "anchor.xml: compressed stream "
					       "ends early (truncated)");
				break;
			}
			uint64_t len = m->size - off < WINDOW ? m->size - off
							      : WINDOW;
			st = cube_member_read(c, m, off, len, &w, p->err);
			if (st != STATUS_OK)
				break;
			off += len;
			z.next_in = (const Bytef *)w.data;
			z.avail_in = (uInt)len;
		}
		z.next_out = out;
		z.avail_out = WINDOW;
		int zr = inflate(&z, Z_NO_FLUSH);
		if (zr != Z_OK && zr != Z_STREAM_END) {
			st = error_set(p->err, STATUS_CORRUPT, p->name,
				       "anchor.xml: bad compressed data (%s)",
				       z.msg ? z.msg : "zlib error");
			break;
		}
		size_t got = WINDOW - z.avail_out;
		total += got;
		if (total > CUBE_MAX_ANCHOR) {
			st = error_set(p->err, STATUS_LIMIT, p->name,
				       "anchor.xml inflates to more than "
				       "%llu bytes",
				       (ull)CUBE_MAX_ANCHOR);
			break;
		}
		done = zr == Z_STREAM_END;
		/* blob_read windows are per call: keep the input alive by
		 * re-reading when the next window is needed (above) */
		st = feed(p, out, got, done);
	}
	inflateEnd(&z);
	free(out);
	return st;
}

/* Locations in data-column order: by Id when the Ids are 0..n-1 (CubeLib
 * indexes columns by Id), else in document order (pycubexr's reading). */
static enum status order_locations(struct parser *p)
{
	struct cube_anchor *a = p->a;
	uint32_t n = a->n_locations;
	struct cube_location *sorted = calloc(n ? n : 1, sizeof(*sorted));
	if (!sorted)
		return error_set(p->err, STATUS_NOMEM, p->name,
				 "out of memory");
	bool perm = true;
	for (uint32_t i = 0; i < n && perm; i++) {
		uint32_t id = a->locations[i].id;
		if (id >= n || sorted[id].name == UINT32_MAX)
			perm = false;
		else
			sorted[id].name = UINT32_MAX;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct cube_location l = a->locations[i];
		uint32_t g = p->loc_group[i];
		l.stn = g != MODEL_NONE ? p->groups[g].stn : MODEL_NONE;
		if (g != MODEL_NONE) {
			l.group_name = p->groups[g].name;
			l.group_type = p->groups[g].type;
			l.group_rank = p->groups[g].rank;
		}
		sorted[perm ? l.id : i] = l;
	}
	free(a->locations);
	a->locations = sorted;
	a->location_ids_doc_order = !perm;
	return STATUS_OK;
}

enum status cube_anchor_read(const struct cube_container *c,
			     struct model_builder *b, struct cube_anchor *out,
			     struct error *err)
{
	memset(out, 0, sizeof(*out));
	const struct cube_member *m = cube_container_find(c, "anchor.xml");
	if (!m)
		return error_set(err, STATUS_CORRUPT, c->name,
				 "no anchor.xml in the Cube file (%u members)",
				 (unsigned)c->n_members);
	struct parser p = {.name = c->name, .b = b, .a = out, .err = err};
	p.xp = XML_ParserCreate(NULL);
	if (!p.xp)
		return error_set(err, STATUS_NOMEM, c->name, "out of memory");
	XML_SetUserData(p.xp, &p);
	XML_SetElementHandler(p.xp, on_start, on_end);
	XML_SetCharacterDataHandler(p.xp, on_text);
	XML_SetEntityDeclHandler(p.xp, on_entity_decl);
	XML_SetExternalEntityRefHandler(p.xp, on_external_entity);
	xml_guard(p.xp);
	enum status st = parse_member(&p, c, m);
	if (st == STATUS_OK && p.st != STATUS_OK)
		st = p.st;
	if (st == STATUS_OK && !p.seen_root)
		st = error_set(err, STATUS_NOT_DATABASE, c->name,
			       "anchor.xml has no <cube> element");
	if (st == STATUS_OK)
		st = order_locations(&p);
	if (st == STATUS_OK && p.attrs) {
		out->attrs = p.attrs;
		p.attrs = NULL;
	}
	XML_ParserFree(p.xp);
	cube_quote_free(&p.quote);
	free(p.stack);
	free(p.text);
	free(p.groups);
	free(p.loc_group);
	free(p.attrs);
	if (st != STATUS_OK)
		cube_anchor_free(out);
	return st;
}

void cube_anchor_free(struct cube_anchor *a)
{
	if (!a)
		return;
	free(a->version);
	free(a->title);
	free(a->attrs);
	free(a->metrics);
	free(a->regions);
	free(a->cnodes);
	free(a->locations);
	free(a->stns);
	memset(a, 0, sizeof(*a));
}
