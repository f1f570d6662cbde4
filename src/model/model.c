/* model: the immutable database model and the builder readers fill it
 * with, and the model's lifetime (finish, free, origin).  Strings are
 * interned in one buffer; nodes are one array with first-child/next-sibling
 * links; values are asked of the reader's provider when needed
 * (model_values.c, model_dense.c).  The context index is in model_ctx.c,
 * node labels in model_label.c.  Must not depend on curses, on ui/ or on
 * any reader. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"
#include "core/check.h"

#include "core/array.h"
#include "core/decimal.h"
#include "core/hash.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct model_builder *model_builder_new(const char *format, const char *path)
{
	struct model_builder *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	/* the model and its private part in one block, freed with the model */
	struct model_block {
		struct model m;
		struct model_private p;
	} *blk = calloc(1, sizeof(*blk));
	if (!blk)
		goto fail;
	b->m = &blk->m;
	b->m->priv = &blk->p;
	b->m->format = strdup(format ? format : "");
	b->m->path = strdup(path ? path : "");
	if (!b->m->format || !b->m->path)
		goto fail;
	/* handle 0 is the empty string */
	if (model_builder_intern(b, "", 0) != 0)
		goto fail;
	struct model_node root = {
		.parent = MODEL_NONE,
		.function = MODEL_NONE,
		.kind = NODE_ROOT,
		.relation = RELATION_NONE,
	};
	if (!array_grow_u32((void **)&b->m->nodes, &b->nodes_cap, 1,
		  sizeof(*b->m->nodes)) ||
	    !(b->last_child = malloc(b->nodes_cap * sizeof(uint32_t))))
		goto fail;
	root.first_child = root.next_sibling = MODEL_NONE;
	b->m->nodes[0] = root;
	b->last_child[0] = MODEL_NONE;
	b->m->n_nodes = 1;
	return b;
fail:
	model_builder_free(b);
	return NULL;
}

static bool rehash(struct model_builder *b)
{
	uint32_t ncap = b->hash_cap ? b->hash_cap * 2 : 1024;
	uint32_t *nh = calloc(ncap, sizeof(*nh));
	if (!nh)
		return false;
	for (uint32_t h = 0; h < b->m->n_strings; h++) {
		const char *s = b->m->strings + b->m->priv->string_offsets[h];
		uint64_t slot = fnv1a(FNV1A_SEED, s, strlen(s)) & (ncap - 1);
		while (nh[slot])
			slot = (slot + 1) & (ncap - 1);
		nh[slot] = h + 1;
	}
	free(b->hash);
	b->hash = nh;
	b->hash_cap = ncap;
	return true;
}

uint32_t model_builder_intern(struct model_builder *b, const char *s,
			      size_t len)
{
	if (!b || b->failed)
		return MODEL_NONE;
	/* strings are NUL-terminated in the pool: cut at an embedded NUL */
	const char *nul = len ? memchr(s, '\0', len) : NULL;
	if (nul)
		len = (size_t)(nul - s);
	if ((uint64_t)b->m->n_strings * 2 + 2 > b->hash_cap && !rehash(b))
		goto fail;
	uint64_t slot = fnv1a(FNV1A_SEED, s, len) & (b->hash_cap - 1);
	while (b->hash[slot]) {
		uint32_t h = b->hash[slot] - 1;
		const char *t = b->m->strings + b->m->priv->string_offsets[h];
		if (strncmp(t, s, len) == 0 && t[len] == '\0')
			return h;
		slot = (slot + 1) & (b->hash_cap - 1);
	}
	if (b->strings_len + len + 1 > UINT32_MAX)
		goto fail;
	if (b->strings_len + len + 1 > b->strings_cap) {
		size_t ncap = b->strings_cap ? b->strings_cap * 2 : 4096;
		while (ncap < b->strings_len + len + 1)
			ncap *= 2;
		char *p = realloc(b->m->strings, ncap);
		if (!p)
			goto fail;
		b->m->strings = p;
		b->strings_cap = ncap;
	}
	if (!array_grow_u32((void **)&b->m->priv->string_offsets,
			    &b->offsets_cap, b->m->n_strings + 1,
			    sizeof(uint32_t)))
		goto fail;
	uint32_t h = b->m->n_strings++;
	b->m->priv->string_offsets[h] = (uint32_t)b->strings_len;
	if (len)
		memcpy(b->m->strings + b->strings_len, s, len);
	b->m->strings[b->strings_len + len] = '\0';
	b->strings_len += len + 1;
	b->hash[slot] = h + 1;
	return h;
fail:
	b->failed = true;
	return MODEL_NONE;
}

void model_builder_add_warning(struct model_builder *b, const char *text)
{
	if (!b || b->failed || !text)
		return;
	char **w = realloc(b->m->warnings,
			   (b->m->n_warnings + 1) * sizeof(*b->m->warnings));
	if (!w || !(w[b->m->n_warnings] = strdup(text))) {
		if (w)
			b->m->warnings = w;
		b->failed = true;
		return;
	}
	b->m->warnings = w;
	b->m->n_warnings++;
}

void model_builder_vwarnf(struct model_builder *b, const char *where,
			  const char *fmt, va_list ap)
{
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	char *line = NULL;
	if (msg && where && asprintf(&line, "%s: %s", where, msg) < 0)
		line = NULL;
	if (msg && (line || !where))
		model_builder_add_warning(b, where ? line : msg);
	free(line);
	free(msg);
}

void model_builder_warnf(struct model_builder *b, const char *where,
			 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	model_builder_vwarnf(b, where, fmt, ap);
	va_end(ap);
}

void model_builder_set_ctx_id_base(struct model_builder *b, uint32_t base)
{
	if (b)
		b->m->ctx_id_base = base;
}

void model_builder_set_title(struct model_builder *b, const char *title,
			     const char *description)
{
	if (!b)
		return;
	free(b->m->title);
	free(b->m->description);
	b->m->title = title ? strdup(title) : NULL;
	b->m->description = description ? strdup(description) : NULL;
	if ((title && !b->m->title) || (description && !b->m->description))
		b->failed = true;
}

uint32_t model_builder_add_node(struct model_builder *b, uint32_t parent,
				const struct model_node *node)
{
	if (!b || b->failed || parent >= b->m->n_nodes)
		return MODEL_NONE;
	uint32_t n = b->m->n_nodes;
	if (n == MODEL_NONE - 1)
		goto fail;
	uint32_t cap = b->nodes_cap;
	if (!array_grow_u32((void **)&b->m->nodes, &b->nodes_cap, n + 1,
		  sizeof(*b->m->nodes)))
		goto fail;
	if (cap != b->nodes_cap) {
		uint32_t *lc = realloc(b->last_child,
				       (size_t)b->nodes_cap * sizeof(*lc));
		if (!lc)
			goto fail;
		b->last_child = lc;
	}
	struct model_node *dst = &b->m->nodes[n];
	*dst = *node;
	dst->parent = parent;
	dst->first_child = MODEL_NONE;
	dst->next_sibling = MODEL_NONE;
	dst->depth = b->m->nodes[parent].depth + 1;
	if (dst->depth > b->m->max_depth)
		b->m->max_depth = dst->depth;
	b->last_child[n] = MODEL_NONE;
	uint32_t last = b->last_child[parent];
	/* the parent's last child is its child and ends its sibling chain */
	CHECK(last == MODEL_NONE ||
	      (last < n && b->m->nodes[last].parent == parent &&
	       b->m->nodes[last].next_sibling == MODEL_NONE));
	CHECK((last == MODEL_NONE) ==
	      (b->m->nodes[parent].first_child == MODEL_NONE));
	if (last == MODEL_NONE)
		b->m->nodes[parent].first_child = n;
	else
		b->m->nodes[last].next_sibling = n;
	b->last_child[parent] = n;
	b->m->n_nodes = n + 1;
	return n;
fail:
	b->failed = true;
	return MODEL_NONE;
}

#define BUILDER_APPEND(b, array, count, cap, item)                        \
	(array_grow_u32((void **)&(b)->m->array, &(b)->cap, (b)->m->count + 1,      \
	      sizeof(*(b)->m->array))                                     \
		 ? ((b)->m->array[(b)->m->count] = *(item), (b)->m->count++) \
		 : ((b)->failed = true, MODEL_NONE))

uint32_t model_builder_add_function(struct model_builder *b,
				    const struct model_function *fn)
{
	if (!b || b->failed)
		return MODEL_NONE;
	return BUILDER_APPEND(b, functions, n_functions, functions_cap, fn);
}

uint32_t model_builder_add_stat(struct model_builder *b,
				const struct model_stat *stat)
{
	if (!b || b->failed)
		return MODEL_NONE;
	return BUILDER_APPEND(b, stats, n_stats, stats_cap, stat);
}

void model_column_release(struct model_column *c)
{
	free(c->name);
	free(c->variant);
	free(c->description);
	free(c->format);
	formula_free(c->expr);
	formula_free(c->expr_standard);
	memset(c, 0, sizeof(*c));
}

uint32_t model_builder_add_leaf_column(struct model_builder *b,
				       const struct model_leaf_column *l)
{
	struct model_column c = {
		.name = strdup(l->name),
		.variant = strdup(l->variant),
		.description = l->description ? strdup(l->description) : NULL,
		.format = strdup(l->format),
		.kind = l->kind,
		.render = l->render,
		.unit = l->unit,
		.visible = l->visible,
		.pair = MODEL_NONE,
		.parent = MODEL_NONE,
		.expr = formula_leaf(l->stat),
	};
	if (!c.name || !c.variant || !c.format || !c.expr ||
	    (l->description && !c.description)) {
		model_column_release(&c);
		if (b)
			b->failed = true;
		return MODEL_NONE;
	}
	return model_builder_add_column(b, &c);
}

uint32_t model_builder_add_column(struct model_builder *b,
				  struct model_column *column)
{
	if (!b || b->failed) {
		model_column_release(column);
		return MODEL_NONE;
	}
	column->own = MODEL_NONE;
	uint32_t idx = BUILDER_APPEND(b, columns, n_columns, columns_cap,
				      column);
	if (idx == MODEL_NONE)
		model_column_release(column);
	return idx;
}

bool model_builder_set_column_own(struct model_builder *b, uint32_t column,
				  uint32_t own)
{
	if (!b || b->failed || column >= b->m->n_columns ||
	    own >= b->m->n_columns || own <= column ||
	    b->m->columns[own].kind != b->m->columns[column].kind)
		return false;
	b->m->columns[column].own = own;
	return true;
}

uint32_t model_builder_add_profile(struct model_builder *b, bool is_summary,
				   const struct model_id *ids, uint32_t n_ids,
				   const char *label)
{
	if (!b || b->failed)
		return MODEL_NONE;
	if (n_ids > UINT32_MAX - b->m->n_ids ||
	    !array_grow_u32((void **)&b->m->ids, &b->ids_cap, b->m->n_ids + n_ids,
		  sizeof(*b->m->ids)))
		goto fail;
	struct model_profile p = {
		.first_id = b->m->n_ids,
		.n_ids = n_ids,
		.is_summary = is_summary,
		.point = MODEL_NONE,
		.repetition = MODEL_NONE,
	};
	if (n_ids)
		memcpy(b->m->ids + b->m->n_ids, ids, n_ids * sizeof(*ids));
	b->m->n_ids += n_ids;
	if (label) {
		p.label = model_builder_intern(b, label, strlen(label));
	} else {
		/* "RANK 0 THREAD 3": kind names with logical ids, without
		 * printf (a third of opening 100,000 profiles) */
		size_t cap = 16 + (size_t)n_ids * 40, len = 0;
		char *text = malloc(cap);
		if (!text)
			goto fail;
		text[0] = '\0';
		if (n_ids == 0 && is_summary)
			len = (size_t)snprintf(text, cap, "summary");
		for (uint32_t i = 0; i < n_ids; i++) {
			const char *kn = model_str(b->m, ids[i].kind_name);
			char kbuf[16];
			if (!*kn) {
				snprintf(kbuf, sizeof(kbuf), "KIND%u",
					 (unsigned)ids[i].kind);
				kn = kbuf;
			}
			size_t klen = strlen(kn);
			if (len + klen + 16 > cap) {
				char *t = realloc(text, cap + klen + 16);
				if (!t) {
					free(text);
					goto fail;
				}
				text = t;
				cap += klen + 16;
			}
			if (i)
				text[len++] = ' ';
			memcpy(text + len, kn, klen);
			len += klen;
			text[len++] = ' ';
			len += decimal_u64(ids[i].logical_id, text + len);
			text[len] = '\0';
		}
		p.label = model_builder_intern(b, text, len);
		free(text);
	}
	if (p.label == MODEL_NONE)
		goto fail;
	return BUILDER_APPEND(b, profiles, n_profiles, profiles_cap, &p);
fail:
	b->failed = true;
	return MODEL_NONE;
}

uint32_t model_builder_add_timeline(struct model_builder *b,
				    const struct model_timeline *tl)
{
	if (!b || b->failed)
		return MODEL_NONE;
	return BUILDER_APPEND(b, timelines, n_timelines, timelines_cap, tl);
}

uint32_t model_builder_add_counter(struct model_builder *b, uint32_t profile,
				   const char *label, const char *unit,
				   uint64_t count)
{
	if (!b || b->failed)
		return MODEL_NONE;
	struct model_timeline tl = {
		.profile = profile,
		.label = label ? model_builder_intern(b, label, strlen(label))
			       : 0,
		.kind = TIMELINE_COUNTER,
		.count = count,
		.unit = unit ? model_builder_intern(b, unit, strlen(unit)) : 0,
	};
	if (tl.label == MODEL_NONE || tl.unit == MODEL_NONE)
		return MODEL_NONE;
	return model_builder_add_timeline(b, &tl);
}

void model_builder_set_time_range(struct model_builder *b, uint64_t min,
				  uint64_t max)
{
	if (!b)
		return;
	/* traces without samples have no time range, whatever the file
	 * declares (hpcprof writes min INT64_MAX, max INT64_MIN, read as
	 * unsigned: 0x7fff... < 0x8000...): 0 .. 0, shown as "no samples" */
	uint64_t samples = 0;
	for (uint32_t i = 0; i < b->m->n_timelines; i++)
		samples += b->m->timelines[i].count;
	if (min > max || samples == 0)
		min = max = 0;
	b->m->time_min = min;
	b->m->time_max = max;
}

void model_builder_set_values(struct model_builder *b,
			      const struct value_ops *ops, void *impl)
{
	if (!b)
		return;
	b->m->priv->value_ops = ops;
	b->m->priv->value_impl = impl;
}

void model_builder_set_trace(struct model_builder *b,
			     const struct trace_ops *ops, void *impl)
{
	if (!b)
		return;
	b->m->priv->trace_ops = ops;
	b->m->priv->trace_impl = impl;
}

const struct model *model_builder_peek(const struct model_builder *b)
{
	return b ? b->m : NULL;
}

struct col_ref {
	const char *name, *variant;
	uint32_t index;
};

static int cmp_col_ref(const void *a, const void *b)
{
	const struct col_ref *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (!c)
		c = strcmp(x->variant, y->variant);
	if (!c)
		c = x->index < y->index ? -1 : x->index > y->index;
	return c;
}

/* Each column's pair: the first other column (by index) with the same
 * name and variant and another kind.  The columns sorted by (name,
 * variant, index), so that a set with tens of thousands of metrics
 * (Extra-P) does not cost columns squared.  Out of memory leaves the
 * columns unpaired. */
static void pair_columns(struct model *m)
{
	for (uint32_t i = 0; i < m->n_columns; i++)
		m->columns[i].pair = MODEL_NONE;
	struct col_ref *r = malloc(((size_t)m->n_columns + 1) * sizeof(*r));
	if (!r)
		return;
	for (uint32_t i = 0; i < m->n_columns; i++) {
		const struct model_column *c = &m->columns[i];
		r[i] = (struct col_ref){c->name, c->variant ? c->variant : "",
					i};
	}
	qsort(r, m->n_columns, sizeof(*r), cmp_col_ref);
	for (uint32_t i = 0, e; i < m->n_columns; i = e) {
		for (e = i + 1; e < m->n_columns &&
				strcmp(r[e].name, r[i].name) == 0 &&
				strcmp(r[e].variant, r[i].variant) == 0;
		     e++)
			;
		/* the group's first column, and its first of another kind */
		uint32_t first = r[i].index, other = MODEL_NONE;
		uint8_t k0 = m->columns[first].kind;
		for (uint32_t j = i + 1; j < e && other == MODEL_NONE; j++)
			if (m->columns[r[j].index].kind != k0)
				other = r[j].index;
		for (uint32_t j = i; j < e; j++) {
			struct model_column *c = &m->columns[r[j].index];
			c->pair = c->kind == k0 ? other : first;
		}
	}
	free(r);
}

#ifdef CALLSCOPE_CHECKS
void model_check_links(const struct model *m, uint32_t from)
{
	const struct model_node *nd = m->nodes;
	uint32_t n = m->n_nodes;
	CHECK(n >= 1 && nd[0].parent == MODEL_NONE && nd[0].depth == 0);
	for (uint32_t i = from ? from : 1; i < n; i++) {
		CHECK(nd[i].parent < i);
		CHECK(nd[i].depth == nd[nd[i].parent].depth + 1);
		CHECK(nd[i].depth <= m->max_depth);
	}
	for (uint32_t i = from; i < n; i++) {
		uint32_t c = nd[i].first_child, s = nd[i].next_sibling;
		CHECK(c == MODEL_NONE || (c > i && c < n && nd[c].parent == i));
		CHECK(s == MODEL_NONE ||
		      (s > i && s < n && nd[s].parent == nd[i].parent));
	}
}
#endif

struct model *model_builder_finish(struct model_builder *b,
				   struct error *err)
{
	if (!b) {
		error_set(err, STATUS_NOMEM, NULL, "out of memory");
		return NULL;
	}
	struct model *m = b->m;
	if (b->failed || !model_ctx_index_build(m) ||
	    !model_deferred_finish(m)) {
		error_set(err, STATUS_NOMEM, m->path,
			  "out of memory while building the model");
		model_builder_free(b);
		return NULL;
	}
	if (!model_params_finish(m) || !model_measures_finish(m) ||
	    !model_inclusive_init(m)) {
		error_set(err, STATUS_NOMEM, m->path,
			  "out of memory while building the model");
		model_builder_free(b);
		return NULL;
	}
	pair_columns(m);
	model_check_links(m, 0);
	if (m->priv->deferred_ops && m->n_deferred) {
		/* the builder becomes the growth handle (model_growth_load) */
		struct model_growth *g = malloc(sizeof(*g));
		if (!g) {
			error_set(err, STATUS_NOMEM, m->path,
				  "out of memory while building the model");
			model_builder_free(b);
			return NULL;
		}
		g->b = *b;
		free(b);
		m->priv->growth = g;
		return m;
	}
	b->m = NULL;
	model_builder_free(b);
	return m;
}

void model_builder_free(struct model_builder *b)
{
	if (!b)
		return;
	model_free(b->m);
	free(b->hash);
	free(b->last_child);
	free(b);
}

bool model_trace_take_error(const struct model *m, struct error *err)
{
	return m && m->priv->trace_ops && m->priv->trace_ops->take_error &&
	       m->priv->trace_ops->take_error(m->priv->trace_impl, err);
}

bool model_take_value_error(const struct model *m, struct error *err)
{
	if (!m)
		return false;
	if (m->priv->value_ops && m->priv->value_ops->take_error &&
	    m->priv->value_ops->take_error(m->priv->value_impl, err))
		return true;
	return model_inclusive_take_error(m, err);
}

void model_free(struct model *m)
{
	if (!m)
		return;
	if (m->priv->value_ops && m->priv->value_ops->close)
		m->priv->value_ops->close(m->priv->value_impl);
	if (m->priv->trace_ops && m->priv->trace_ops->close)
		m->priv->trace_ops->close(m->priv->trace_impl);
	if (m->priv->deferred_ops && m->priv->deferred_ops->close)
		m->priv->deferred_ops->close(m->priv->deferred_impl);
	if (m->priv->growth) {
		/* the handle's builder is its first member: freed with it */
		struct model_builder *b = &m->priv->growth->b;
		b->m = NULL;
		model_builder_free(b);
	}
	if (m->priv->release)
		m->priv->release(m->priv->release_arg);
	model_inclusive_free(m);
	model_measures_free(m);
	for (uint32_t i = 0; i < m->n_columns; i++)
		model_column_release(&m->columns[i]);
	free(m->columns);
	free(m->format);
	free(m->path);
	free(m->local_path);
	free(m->title);
	free(m->description);
	free(m->strings);
	free(m->priv->string_offsets);
	free(m->nodes);
	free(m->functions);
	free(m->stats);
	free(m->profiles);
	free(m->ids);
	free(m->timelines);
	free(m->params);
	free(m->point_coords);
	free(m->priv->point_first);
	free(m->priv->point_profiles);
	array_free_each(m->warnings, m->n_warnings);
	free(m->priv->ctx_index);
	free(m->priv->ctx_sorted);
	free(m);
}

enum status model_set_origin(struct model *m, const char *shown,
			     const char *warning, void (*release)(void *arg),
			     void *arg, struct error *err)
{
	char *path = shown ? strdup(shown) : NULL;
	char *text = warning ? strdup(warning) : NULL;
	char **grown = NULL;
	if ((shown && !path) || (warning && !text))
		goto nomem;
	if (warning) {
		grown = realloc(m->warnings,
				(m->n_warnings + 1) * sizeof(*grown));
		if (!grown)
			goto nomem;
		m->warnings = grown;
		m->warnings[m->n_warnings++] = text;
	}
	if (path) {
		if (m->local_path)
			free(m->path);
		else
			m->local_path = m->path;
		m->path = path;
	}
	if (release) {
		m->priv->release = release;
		m->priv->release_arg = arg;
	}
	return STATUS_OK;
nomem:
	free(path);
	free(text);
	return error_set(err, STATUS_NOMEM, shown, "out of memory");
}

bool model_kind_is_frame(uint8_t kind)
{
	switch ((enum node_kind)kind) {
	case NODE_ENTRY:
	case NODE_FUNCTION:
	case NODE_KERNEL:
	case NODE_REGION:
		return true;
	case NODE_ROOT:
	case NODE_LOOP:
	case NODE_LINE:
	case NODE_INSTRUCTION:
	case NODE_ADDRESS:
		break;
	}
	return false;
}

const char *model_str(const struct model *m, uint32_t h)
{
	if (!m || h >= m->n_strings)
		return "";
	return m->strings + m->priv->string_offsets[h];
}
