/* model: the immutable database model and the builder readers fill it
 * with.  Strings are interned in one buffer; nodes are one array with
 * first-child/next-sibling links; values are asked of the reader's provider
 * when needed.  Must not depend on curses, on ui/ or on any reader. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"

#include "core/array.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

struct model_builder *model_builder_new(const char *format, const char *path)
{
	struct model_builder *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->m = calloc(1, sizeof(*b->m));
	if (!b->m)
		goto fail;
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
		const char *s = b->m->strings + b->m->string_offsets[h];
		uint64_t slot = hash_bytes(s, strlen(s)) & (ncap - 1);
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
	uint64_t slot = hash_bytes(s, len) & (b->hash_cap - 1);
	while (b->hash[slot]) {
		uint32_t h = b->hash[slot] - 1;
		const char *t = b->m->strings + b->m->string_offsets[h];
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
	if (!array_grow_u32((void **)&b->m->string_offsets, &b->offsets_cap,
		  b->m->n_strings + 1, sizeof(uint32_t)))
		goto fail;
	uint32_t h = b->m->n_strings++;
	b->m->string_offsets[h] = (uint32_t)b->strings_len;
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

static void column_release(struct model_column *c)
{
	free(c->name);
	free(c->variant);
	free(c->description);
	free(c->format);
	formula_free(c->expr);
	formula_free(c->expr_standard);
	memset(c, 0, sizeof(*c));
}

uint32_t model_builder_add_column(struct model_builder *b,
				  struct model_column *column)
{
	if (!b || b->failed) {
		column_release(column);
		return MODEL_NONE;
	}
	uint32_t idx = BUILDER_APPEND(b, columns, n_columns, columns_cap,
				      column);
	if (idx == MODEL_NONE)
		column_release(column);
	return idx;
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
		/* "RANK 0 THREAD 3": kind names with logical ids */
		size_t cap = 16 + (size_t)n_ids * 40, len = 0;
		char *text = malloc(cap);
		if (!text)
			goto fail;
		text[0] = '\0';
		if (n_ids == 0)
			len = (size_t)snprintf(text, cap, "%s",
					       is_summary ? "summary" : "");
		for (uint32_t i = 0; i < n_ids; i++) {
			const char *kn = model_str(b->m, ids[i].kind_name);
			char kbuf[16];
			if (!*kn) {
				snprintf(kbuf, sizeof(kbuf), "KIND%u",
					 (unsigned)ids[i].kind);
				kn = kbuf;
			}
			size_t klen = strlen(kn);
			char *t = realloc(text, cap + klen);
			if (!t) {
				free(text);
				goto fail;
			}
			text = t;
			cap += klen;
			len += (size_t)snprintf(text + len, cap - len,
						"%s%s %" PRIu32, i ? " " : "",
						kn, ids[i].logical_id);
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
	b->m->value_ops = ops;
	b->m->value_impl = impl;
}

void model_builder_set_trace(struct model_builder *b,
			     const struct trace_ops *ops, void *impl)
{
	if (!b)
		return;
	b->m->trace_ops = ops;
	b->m->trace_impl = impl;
}

const struct model *model_builder_peek(const struct model_builder *b)
{
	return b ? b->m : NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

bool model_ctx_index_build(struct model *m)
{
	free(m->ctx_index);
	free(m->ctx_sorted);
	m->ctx_index = NULL;
	m->ctx_sorted = NULL;
	m->ctx_index_len = 0;
	uint32_t max_id = 0;
	for (uint32_t i = 1; i < m->n_nodes; i++)
		if (m->nodes[i].ctx_id > max_id)
			max_id = m->nodes[i].ctx_id;
	if ((uint64_t)max_id <= (uint64_t)m->n_nodes * 4 + 1024) {
		m->ctx_index_len = max_id + 1;
		m->ctx_index = malloc((size_t)m->ctx_index_len *
				      sizeof(*m->ctx_index));
		if (!m->ctx_index)
			return false;
		memset(m->ctx_index, 0xff,
		       (size_t)m->ctx_index_len * sizeof(*m->ctx_index));
		/* reverse order so the first node with an id wins */
		bool shared = false;
		for (uint32_t i = m->n_nodes; i-- > 0;) {
			uint32_t *slot = &m->ctx_index[m->nodes[i].ctx_id];
			shared |= *slot != MODEL_NONE;
			*slot = i;
		}
		m->ctx_index[0] = 0;
		m->ctx_unique = !shared;
		return true;
	}
	m->ctx_sorted = malloc((size_t)m->n_nodes * sizeof(*m->ctx_sorted));
	if (!m->ctx_sorted)
		return false;
	for (uint32_t i = 0; i < m->n_nodes; i++)
		m->ctx_sorted[i] = (uint64_t)m->nodes[i].ctx_id << 32 | i;
	qsort(m->ctx_sorted, m->n_nodes, sizeof(*m->ctx_sorted), cmp_u64);
	m->ctx_unique = true;
	for (uint32_t i = 1; i < m->n_nodes; i++)
		if (m->ctx_sorted[i] >> 32 == m->ctx_sorted[i - 1] >> 32)
			m->ctx_unique = false;
	return true;
}

bool model_ctx_index_extend(struct model *m, uint32_t from)
{
	if (!m->ctx_index)
		return model_ctx_index_build(m);
	uint32_t max_id = 0;
	for (uint32_t i = from; i < m->n_nodes; i++)
		if (m->nodes[i].ctx_id > max_id)
			max_id = m->nodes[i].ctx_id;
	if ((uint64_t)max_id > (uint64_t)m->n_nodes * 4 + 1024)
		return model_ctx_index_build(m);
	if (max_id >= m->ctx_index_len) {
		/* geometric: loads one after another stay linear */
		uint64_t len = (uint64_t)m->ctx_index_len * 2;
		if (len <= max_id)
			len = (uint64_t)max_id + 1;
		if (len > UINT32_MAX)
			len = UINT32_MAX;
		uint32_t *t = realloc(m->ctx_index, (size_t)len * sizeof(*t));
		if (!t)
			return false;
		memset(t + m->ctx_index_len, 0xff,
		       (size_t)(len - m->ctx_index_len) * sizeof(*t));
		m->ctx_index = t;
		m->ctx_index_len = (uint32_t)len;
	}
	/* the first node with an id wins, as in the build */
	for (uint32_t i = from; i < m->n_nodes; i++) {
		uint32_t *slot = &m->ctx_index[m->nodes[i].ctx_id];
		if (*slot == MODEL_NONE)
			*slot = i;
		else
			m->ctx_unique = false;
	}
	return true;
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
	if (m->deferred_ops && m->n_deferred) {
		/* kept to grow with (model_load_children) */
		m->grower = b;
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
	return m && m->trace_ops && m->trace_ops->take_error &&
	       m->trace_ops->take_error(m->trace_impl, err);
}

bool model_take_value_error(const struct model *m, struct error *err)
{
	if (!m)
		return false;
	if (m->value_ops && m->value_ops->take_error &&
	    m->value_ops->take_error(m->value_impl, err))
		return true;
	return model_inclusive_take_error(m, err);
}

void model_free(struct model *m)
{
	if (!m)
		return;
	if (m->value_ops && m->value_ops->close)
		m->value_ops->close(m->value_impl);
	if (m->trace_ops && m->trace_ops->close)
		m->trace_ops->close(m->trace_impl);
	if (m->deferred_ops && m->deferred_ops->close)
		m->deferred_ops->close(m->deferred_impl);
	if (m->grower) {
		m->grower->m = NULL;
		model_builder_free(m->grower);
	}
	if (m->release)
		m->release(m->release_arg);
	model_inclusive_free(m);
	model_measures_free(m);
	for (uint32_t i = 0; i < m->n_columns; i++)
		column_release(&m->columns[i]);
	free(m->columns);
	free(m->format);
	free(m->path);
	free(m->local_path);
	free(m->title);
	free(m->description);
	free(m->strings);
	free(m->string_offsets);
	free(m->nodes);
	free(m->functions);
	free(m->stats);
	free(m->profiles);
	free(m->ids);
	free(m->timelines);
	free(m->params);
	free(m->point_coords);
	free(m->point_first);
	free(m->point_profiles);
	for (uint32_t i = 0; i < m->n_warnings; i++)
		free(m->warnings[i]);
	free(m->warnings);
	free(m->ctx_index);
	free(m->ctx_sorted);
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
		m->release = release;
		m->release_arg = arg;
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
	return m->strings + m->string_offsets[h];
}

uint32_t model_node_of_ctx(const struct model *m, uint32_t ctx_id)
{
	if (m->ctx_index)
		return ctx_id < m->ctx_index_len ? m->ctx_index[ctx_id]
						 : MODEL_NONE;
	if (!m->ctx_sorted)
		return MODEL_NONE;
	size_t lo = 0, hi = m->n_nodes;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((m->ctx_sorted[mid] >> 32) < ctx_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->n_nodes && (m->ctx_sorted[lo] >> 32) == ctx_id)
		return (uint32_t)m->ctx_sorted[lo];
	return MODEL_NONE;
}

struct leaf_ctx {
	const struct model *m;
	uint32_t node;
};

static bool stat_leaf(void *ctx, uint32_t leaf, double *out)
{
	const struct leaf_ctx *lc = ctx;
	return model_stat_value(lc->m, lc->node, leaf, out);
}

bool model_stat_value(const struct model *m, uint32_t node, uint32_t stat,
		      double *out)
{
	if (node >= m->n_nodes || stat >= m->n_stats)
		return false;
	if (m->stats[stat].flags & STAT_DERIVED_INCLUSIVE)
		return model_inclusive_value(m, node, stat, out);
	if (!m->value_ops || !m->value_ops->summary)
		return false;
	return m->value_ops->summary(m->value_impl, m->nodes[node].ctx_id,
				     m->stats[stat].stat_id, out);
}

bool model_value(const struct model *m, uint32_t node, uint32_t column,
		 double *out)
{
	if (column >= m->n_columns || node >= m->n_nodes ||
	    !m->columns[column].expr)
		return false;
	struct leaf_ctx lc = {m, node};
	return formula_eval(m->columns[column].expr, stat_leaf, &lc, out);
}

bool model_value_standard(const struct model *m, uint32_t node,
			  uint32_t column, double *out)
{
	if (column >= m->n_columns || node >= m->n_nodes)
		return false;
	const struct formula *f = m->columns[column].expr_standard
					  ? m->columns[column].expr_standard
					  : m->columns[column].expr;
	if (!f)
		return false;
	struct leaf_ctx lc = {m, node};
	return formula_eval(f, stat_leaf, &lc, out);
}

/* ---- values of every node at once ----------------------------------- */

struct dense_fill {
	const struct model *m;
	double *values;
	uint8_t *present;
	size_t cursor; /* ctx_sorted: where the last context id was found */
};

static size_t ctx_lower_bound(const struct model *m, size_t lo, size_t hi,
			      uint32_t ctx_id)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((m->ctx_sorted[mid] >> 32) < ctx_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* model_node_of_ctx, galloping forward from the previous answer when the
 * context ids come in increasing order (as providers emit them). */
static uint32_t dense_node_of(struct dense_fill *d, uint32_t ctx_id)
{
	const struct model *m = d->m;
	if (!m->ctx_sorted)
		return model_node_of_ctx(m, ctx_id);
	size_t n = m->n_nodes, lo = 0, hi = n;
	/* the cursor is a lower bound: everything before it is smaller */
	if (d->cursor < n && (m->ctx_sorted[d->cursor] >> 32) <= ctx_id) {
		size_t step = 1;
		lo = d->cursor;
		hi = lo + 1;
		while (hi < n && (m->ctx_sorted[hi] >> 32) < ctx_id) {
			lo = hi + 1;
			hi = lo + step;
			step *= 2;
		}
		if (hi > n)
			hi = n;
	}
	lo = ctx_lower_bound(m, lo, hi, ctx_id);
	d->cursor = lo;
	if (lo < n && (m->ctx_sorted[lo] >> 32) == ctx_id)
		return (uint32_t)m->ctx_sorted[lo];
	return MODEL_NONE;
}

static void dense_emit(void *ctx, uint32_t ctx_id, double value)
{
	struct dense_fill *d = ctx;
	uint32_t node = dense_node_of(d, ctx_id);
	if (node == MODEL_NONE)
		return;
	d->values[node] = value;
	if (d->present)
		d->present[node] = 1;
}

static void dense_clear(const struct model *m, double *values,
			uint8_t *present)
{
	for (uint32_t i = 0; i < m->n_nodes; i++)
		values[i] = 0;
	if (present)
		memset(present, 0, m->n_nodes);
}

enum status model_stat_dense(const struct model *m, uint32_t stat,
			     double *values, uint8_t *present,
			     struct error *err)
{
	dense_clear(m, values, present);
	if (stat >= m->n_stats)
		return error_set(err, STATUS_USAGE, m->path,
				 "no statistic %u", (unsigned)stat);
	if (m->stats[stat].flags & STAT_DERIVED_INCLUSIVE) {
		model_inclusive_dense(m, stat, values, present);
		return STATUS_OK;
	}
	if (!m->value_ops)
		return STATUS_OK;
	if (m->value_ops->summary_all) {
		struct dense_fill d = {
			.m = m,
			.values = values,
			.present = present,
		};
		struct error sub = {0};
		enum status st = m->value_ops->summary_all(
			m->value_impl, m->stats[stat].stat_id, dense_emit, &d,
			&sub);
		if (st == STATUS_OK) {
			error_clear(&sub);
			/* the provider gave the first node of each context
			 * id; the others with the same id read the same */
			for (uint32_t i = 0; !m->ctx_unique && i < m->n_nodes;
			     i++) {
				uint32_t first = model_node_of_ctx(
					m, m->nodes[i].ctx_id);
				if (first == i || first >= m->n_nodes)
					continue;
				values[i] = values[first];
				if (present)
					present[i] = present[first];
			}
			return STATUS_OK;
		}
		if (st != STATUS_UNSUPPORTED) {
			/* the provider's detail is the caller's */
			if (err) {
				error_clear(err);
				*err = sub;
			} else {
				error_clear(&sub);
			}
			dense_clear(m, values, present);
			return st;
		}
		error_clear(&sub);
		dense_clear(m, values, present);
	}
	for (uint32_t i = 0; i < m->n_nodes; i++) {
		double v;
		if (!model_stat_value(m, i, stat, &v))
			continue;
		values[i] = v;
		if (present)
			present[i] = 1;
	}
	return STATUS_OK;
}

/* The distinct statistics a formula reads (leaves < n_stats), appended to
 * *stats.  Formulas come from parsers that bound their depth. */
static bool formula_stats(const struct model *m, const struct formula *f,
			  uint32_t **stats, uint32_t *n, uint32_t *cap)
{
	uint32_t leaf;
	if (formula_is_leaf(f, &leaf)) {
		if (leaf >= m->n_stats)
			return true;
		for (uint32_t i = 0; i < *n; i++)
			if ((*stats)[i] == leaf)
				return true;
		if (!array_grow_u32((void **)stats, cap, *n + 1, sizeof(**stats)))
			return false;
		(*stats)[(*n)++] = leaf;
		return true;
	}
	for (size_t i = 0; i < f->nargs; i++)
		if (!formula_stats(m, f->args[i], stats, n, cap))
			return false;
	return true;
}

struct dense_leaves {
	const uint32_t *stats;
	uint32_t n;
	double **values;   /* per entry of stats: per node */
	uint8_t **present;
	uint32_t node;
};

static bool dense_leaf(void *ctx, uint32_t leaf, double *out)
{
	const struct dense_leaves *dl = ctx;
	for (uint32_t i = 0; i < dl->n; i++) {
		if (dl->stats[i] != leaf)
			continue;
		if (!dl->present[i][dl->node])
			return false;
		*out = dl->values[i][dl->node];
		return true;
	}
	return false;
}

enum status model_column_dense(const struct model *m, uint32_t column,
			       bool standard, double *values, uint8_t *present,
			       struct error *err)
{
	uint32_t *stats = NULL;
	uint32_t n_stats = 0, cap = 0;
	struct dense_leaves dl = {0};
	enum status st = STATUS_OK;
	dense_clear(m, values, present);
	if (column >= m->n_columns)
		return error_set(err, STATUS_USAGE, m->path, "no column %u",
				 (unsigned)column);
	const struct model_column *c = &m->columns[column];
	const struct formula *f =
		standard && c->expr_standard ? c->expr_standard : c->expr;
	uint32_t leaf;
	if (!f)
		return STATUS_OK;
	if (formula_is_leaf(f, &leaf))
		return leaf < m->n_stats
			       ? model_stat_dense(m, leaf, values, present, err)
			       : STATUS_OK;
	if (!formula_stats(m, f, &stats, &n_stats, &cap))
		goto nomem;
	dl.stats = stats;
	dl.values = calloc((size_t)n_stats + 1, sizeof(*dl.values));
	dl.present = calloc((size_t)n_stats + 1, sizeof(*dl.present));
	if (!dl.values || !dl.present)
		goto nomem;
	for (uint32_t i = 0; i < n_stats; i++) {
		dl.values[i] = malloc((size_t)m->n_nodes * sizeof(double));
		dl.present[i] = malloc(m->n_nodes);
		dl.n = i + 1;
		if (!dl.values[i] || !dl.present[i])
			goto nomem;
		st = model_stat_dense(m, stats[i], dl.values[i],
				      dl.present[i], err);
		if (st != STATUS_OK)
			goto out;
	}
	for (uint32_t i = 0; i < m->n_nodes; i++) {
		double v;
		dl.node = i;
		if (!formula_eval(f, dense_leaf, &dl, &v))
			continue;
		values[i] = v;
		if (present)
			present[i] = 1;
	}
	goto out;
nomem:
	st = error_set(err, STATUS_NOMEM, m->path, "out of memory");
out:
	for (uint32_t i = 0; i < dl.n; i++) {
		free(dl.values[i]);
		free(dl.present[i]);
	}
	free(dl.values);
	free(dl.present);
	free(stats);
	if (st != STATUS_OK)
		dense_clear(m, values, present);
	return st;
}

uint32_t model_column_stat(const struct model *m, uint32_t column)
{
	uint32_t leaf;
	if (column < m->n_columns && m->columns[column].expr &&
	    formula_is_leaf(m->columns[column].expr, &leaf) &&
	    leaf < m->n_stats)
		return leaf;
	return MODEL_NONE;
}

bool model_column_total(const struct model *m, uint32_t column,
			double *out)
{
	if (column >= m->n_columns)
		return false;
	uint32_t c = column;
	if (m->columns[c].kind != COLUMN_INCLUSIVE)
		c = m->columns[c].pair;
	if (c == MODEL_NONE)
		c = column;
	double v;
	if (!model_value(m, 0, c, &v) || v == 0)
		return false;
	*out = v;
	return true;
}

uint32_t model_find_column(const struct model *m, const char *spec)
{
	if (!spec || !*spec)
		return MODEL_NONE;
	char *end;
	unsigned long idx = strtoul(spec, &end, 10);
	if (*end == '\0' && idx < m->n_columns)
		return (uint32_t)idx;
	size_t len = strlen(spec);
	int want_kind = -1;
	if (len > 4 && (strcmp(spec + len - 4, " (I)") == 0 ||
			strcmp(spec + len - 4, " (E)") == 0)) {
		want_kind = spec[len - 2] == 'I' ? COLUMN_INCLUSIVE
						 : COLUMN_EXCLUSIVE;
		len -= 4;
	}
	/* exact name (optionally NAME:VARIANT), inclusive first */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < m->n_columns; i++) {
			const struct model_column *c = &m->columns[i];
			if (want_kind >= 0 && c->kind != want_kind)
				continue;
			if (want_kind < 0 && pass == 0 &&
			    c->kind != COLUMN_INCLUSIVE)
				continue;
			size_t nl = strlen(c->name);
			if (nl == len && strncmp(c->name, spec, len) == 0)
				return i;
			if (nl < len && strncmp(c->name, spec, nl) == 0 &&
			    spec[nl] == ':' && c->variant &&
			    strlen(c->variant) == len - nl - 1 &&
			    strncmp(c->variant, spec + nl + 1, len - nl - 1) ==
				    0)
				return i;
		}
	}
	return MODEL_NONE;
}

static const char *last_component(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

char *model_node_short_label(const struct model *m, uint32_t node)
{
	if (node >= m->n_nodes)
		return strdup("");
	const struct model_node *n = &m->nodes[node];
	const char *file = last_component(model_str(m, n->file));
	const char *module = last_component(model_str(m, n->module));
	char *out = NULL;
	int r = -1;
	switch ((enum node_kind)n->kind) {
	case NODE_LOOP:
		r = asprintf(&out, "loop at %s:%" PRIu32, *file ? file : "?",
			     n->line);
		break;
	case NODE_LINE:
		r = asprintf(&out, "%s:%" PRIu32, *file ? file : "?", n->line);
		break;
	case NODE_INSTRUCTION:
	case NODE_ADDRESS:
		r = asprintf(&out, "%s@0x%" PRIx64, *module ? module : "?",
			     n->offset);
		break;
	default:
		return model_node_label(m, node);
	}
	return r < 0 ? NULL : out;
}

char *model_node_label(const struct model *m, uint32_t node)
{
	if (node >= m->n_nodes)
		return strdup("");
	const struct model_node *n = &m->nodes[node];
	const char *name = model_str(m, n->name);
	const char *file = model_str(m, n->file);
	const char *module = model_str(m, n->module);
	char *out = NULL;
	int r = -1;
	switch ((enum node_kind)n->kind) {
	case NODE_ROOT:
		r = asprintf(&out, "%s", *name ? name : "<program root>");
		break;
	case NODE_ENTRY:
	case NODE_FUNCTION:
	case NODE_KERNEL:
	case NODE_REGION:
		if (*name) {
			r = asprintf(&out, "%s", name);
			break;
		}
		/* no name: the function's load module and entry offset, as
		 * hpcviewer shows them ("<unknown function> [libfoo.so @
		 * 0x1234]"); a context without a function shows its module
		 * only (the bottom-up and flat views group such contexts by
		 * name and module, whatever their offsets) */
		uint64_t offset = 0;
		if (n->function < m->n_functions &&
		    m->functions[n->function].module) {
			module = model_str(m, m->functions[n->function].module);
			offset = m->functions[n->function].offset;
		}
		if (*module && offset)
			r = asprintf(&out, "<unknown function> [%s @ 0x%" PRIx64
					   "]",
				     last_component(module), offset);
		else if (*module)
			r = asprintf(&out, "<unknown function> [%s]",
				     last_component(module));
		else
			r = asprintf(&out, "<unknown function>");
		break;
	case NODE_LOOP:
		r = asprintf(&out, "loop at %s:%" PRIu32, *file ? file : "?",
			     n->line);
		break;
	case NODE_LINE:
		r = asprintf(&out, "%s:%" PRIu32, *file ? file : "?",
			     n->line);
		break;
	case NODE_INSTRUCTION:
	case NODE_ADDRESS:
		r = asprintf(&out, "%s@0x%" PRIx64, *module ? module : "?",
			     n->offset);
		break;
	}
	return r < 0 ? NULL : out;
}

enum status model_per_profile(const struct model *m, uint32_t node,
			      uint32_t stat, struct profile_value **out,
			      size_t *n, struct error *err)
{
	*out = NULL;
	*n = 0;
	if (node >= m->n_nodes || stat >= m->n_stats)
		return error_set(err, STATUS_USAGE, m->path,
				 "no such node or statistic");
	if (!m->value_ops || !m->value_ops->per_profile ||
	    m->stats[stat].prop_id == MODEL_NONE)
		return error_set(err, STATUS_UNSUPPORTED, m->path,
				 "the database has no per-thread values for "
				 "this metric");
	return m->value_ops->per_profile(m->value_impl, m->nodes[node].ctx_id,
					 m->stats[stat].prop_id, out, n, err);
}
