/* gpu_run_lines: the lines of a GPU run (its timelines and counter
 * tracks): found or made by key (file, table set, kind, two numbers), their
 * intervals and instants counted in the first pass and stored in the
 * second, sorted and linked to the interval each nests in; at the end of
 * the open handed to the model's builder in a stable order.  Also the
 * run's profiles (the lines' owners).  Part of the gpu_run library (see
 * gpu_run.h); must not depend on curses or on ui/. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/hash.h"
#include "formats/gpu_run/gpu_run.h"
#include "formats/gpu_run/gpu_run_internal.h"

/* ---- profiles and lines -------------------------------------------------- */

uint32_t gpu_run_profile(struct gpu_run *r, const char *k1, uint64_t v1,
		       const char *k2, uint64_t v2, const char *label)
{
	if (!r->b)
		return MODEL_NONE;
	struct model_id ids[2] = {
		{.kind_name = gpu_run_intern(r, k1),
		 .is_physical = true,
		 .logical_id = (uint32_t)v1,
		 .physical_id = v1},
		{.kind_name = gpu_run_intern(r, k2),
		 .is_physical = true,
		 .logical_id = (uint32_t)v2,
		 .physical_id = v2},
	};
	return model_builder_add_profile(r->b, false, ids, k2 ? 2 : 1, label);
}

static uint64_t line_hash(uint32_t file, uint32_t set, uint8_t kind,
			  uint64_t a, uint64_t b)
{
	return hash_mix64(hash_mix64(((uint64_t)file << 32) ^ ((uint64_t)set << 8) ^
			   kind) ^
		     hash_mix64(a) * 31 ^ hash_mix64(b + 0x9e3779b97f4a7c15ull));
}

uint32_t gpu_run_line(struct gpu_run *r, uint32_t file, uint32_t set,
		    uint8_t kind, uint64_t a, uint64_t b, const char *label,
		    uint32_t profile)
{
	/* the second pass reads files side by side: a cache per thread (a
	 * hit is checked against the whole key, whichever run set it) */
	static _Thread_local uint32_t pass_hit[8];
	uint32_t *hit = r->second_pass ? &pass_hit[kind & 7]
				       : &r->line_hit[kind & 7];
	if (*hit && *hit <= r->n_lines) { /* checked: lines may be sorted */
		const struct gpu_run_line *l = &r->lines[*hit - 1];
		if (l->file == file && l->set == set && l->kind == kind &&
		    l->a == a && l->b == b)
			return *hit - 1;
	}
	uint64_t h = line_hash(file, set, kind, a, b);
	uint32_t first = MODEL_NONE;
	if (gpu_run_map_get(&r->line_keys, h, &first))
		for (uint32_t i = first; i != MODEL_NONE; i = r->line_next[i]) {
			const struct gpu_run_line *l = &r->lines[i];
			if (l->file == file && l->set == set &&
			    l->kind == kind && l->a == a && l->b == b) {
				*hit = i + 1;
				return i;
			}
		}
	if (r->second_pass || !label)
		return MODEL_NONE;
	if (r->n_lines == r->cap_lines) {
		uint32_t cap = r->cap_lines ? r->cap_lines * 2 : 16;
		if (!gpu_run_grow(&r->lines, r->n_lines, cap,
				  sizeof(*r->lines)) ||
		    !gpu_run_grow(&r->line_next, r->n_lines, cap,
				  sizeof(*r->line_next)))
			return MODEL_NONE;
		r->cap_lines = cap;
	}
	uint32_t id = r->n_lines;
	struct gpu_run_line *l = &r->lines[id];
	*l = (struct gpu_run_line){
		.file = file,
		.set = set,
		.kind = kind,
		.a = a,
		.b = b,
		.label = gpu_run_intern(r, label),
		.profile = profile,
		.first = UINT64_MAX,
	};
	if (l->label == MODEL_NONE || !gpu_run_map_put(&r->line_keys, h, id))
		return MODEL_NONE;
	r->line_next[id] = first;
	r->n_lines++;
	*hit = id + 1;
	return id;
}

/* gpu_run_line whose label is printed from `fmt` and `ap` when the line is
 * made, with profile `profile`, or (k1 not NULL) a new profile of ids
 * (k1 v1, k2 v2) labelled the same. */
static uint32_t line_vf(struct gpu_run *r, uint32_t file, uint32_t set,
			uint8_t kind, uint64_t a, uint64_t b, uint32_t profile,
			const char *k1, uint64_t v1, const char *k2,
			uint64_t v2, const char *fmt, va_list ap)
{
	uint32_t id = gpu_run_line(r, file, set, kind, a, b, NULL, profile);
	if (id != MODEL_NONE || r->second_pass)
		return id;
	char label[256];
	vsnprintf(label, sizeof(label), fmt, ap);
	if (k1)
		profile = gpu_run_profile(r, k1, v1, k2, v2, label);
	return gpu_run_line(r, file, set, kind, a, b, label, profile);
}

uint32_t gpu_run_linef(struct gpu_run *r, uint32_t file, uint32_t set,
		       uint8_t kind, uint64_t a, uint64_t b, uint32_t profile,
		       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	uint32_t id = line_vf(r, file, set, kind, a, b, profile, NULL, 0, NULL,
			      0, fmt, ap);
	va_end(ap);
	return id;
}

uint32_t gpu_run_queue_line(struct gpu_run *r, uint32_t file, uint32_t set,
			    uint64_t a, uint64_t b, const char *k1,
			    uint64_t v1, const char *k2, uint64_t v2,
			    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	uint32_t id = line_vf(r, file, set, GPU_RUN_LINE_QUEUE, a, b, 0, k1,
			      v1, k2, v2, fmt, ap);
	va_end(ap);
	return id;
}

/* The first pass: one more row on line `l` spanning [begin, end]. */
static void line_seen(struct gpu_run *r, struct gpu_run_line *l,
		      uint64_t begin, uint64_t end)
{
	if (begin < l->first)
		l->first = begin;
	if (end > l->last)
		l->last = end;
	gpu_run_row_seen(r);
}

bool gpu_run_line_add(struct gpu_run *r, uint32_t line, uint64_t begin,
		    uint64_t end, uint32_t ctx, uint64_t event, uint64_t link)
{
	if (line >= r->n_lines)
		return false;
	struct gpu_run_line *l = &r->lines[line];
	if (!r->second_pass) {
		l->count++;
		line_seen(r, l, begin, end);
		return true;
	}
	if (!l->iv || l->filled >= l->count)
		return false; /* the file changed since the first pass */
	l->iv[l->filled++] = (struct gpu_run_iv){
		.begin = begin,
		.end = end,
		.event = event,
		.ctx = ctx,
		.link = link,
		.next = GPU_RUN_NO_LINK,
	};
	return true;
}

bool gpu_run_instant_add(struct gpu_run *r, uint32_t line, uint64_t t,
			 uint32_t name, uint64_t event)
{
	if (line >= r->n_lines)
		return false;
	struct gpu_run_line *l = &r->lines[line];
	if (!r->second_pass) {
		l->n_inst++;
		gpu_run_time_seen(r, t, t);
		line_seen(r, l, t, t);
		return true;
	}
	if (!l->inst || l->inst_filled >= l->n_inst)
		return false; /* the file changed since the first pass */
	l->inst[l->inst_filled++] = (struct gpu_run_instant){
		.t = t, .event = event, .name = name};
	return true;
}

static int inst_cmp(const void *pa, const void *pb)
{
	const struct gpu_run_instant *a = pa, *b = pb;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->event < b->event ? -1 : a->event > b->event;
}

void gpu_run_instants_sort(struct gpu_run_instant *in, uint64_t n)
{
	if (n > 1)
		qsort(in, n, sizeof(*in), inst_cmp);
}

static int iv_cmp(const void *pa, const void *pb)
{
	const struct gpu_run_iv *a = pa, *b = pb;
	if (a->begin != b->begin)
		return a->begin < b->begin ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	return a->event < b->event ? -1 : a->event > b->event;
}

void gpu_run_iv_sort_link(struct gpu_run_iv *iv, uint64_t n)
{
	if (n == 0)
		return;
	qsort(iv, n, sizeof(*iv), iv_cmp);
	/* the stack of intervals running at the current begin is the chain
	 * of `up` links: pop those that ended, link to the top */
	for (uint64_t i = 0; i < n; i++) {
		uint64_t top = i;
		iv[i].up = 0;
		if (i > 0) {
			top = i - 1;
			for (int guard = 0; guard < 1 << 20; guard++) {
				if (iv[top].end > iv[i].begin) {
					iv[i].up = (uint32_t)(top + 1);
					break;
				}
				if (iv[top].up == 0)
					break;
				top = iv[top].up - 1;
			}
		}
	}
}

uint64_t gpu_run_iv_active(const struct gpu_run_iv *iv, uint64_t n, uint64_t t)
{
	uint64_t lo = 0, hi = n;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (iv[mid].begin <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return UINT64_MAX;
	uint64_t i = lo - 1;
	for (int guard = 0; guard < 1 << 20; guard++) {
		if (t >= iv[i].begin && t < iv[i].end)
			return i;
		if (iv[i].up == 0 || iv[i].up - 1 >= i)
			return UINT64_MAX;
		i = iv[i].up - 1;
	}
	return UINT64_MAX;
}

static int line_order(const void *pa, const void *pb)
{
	const struct gpu_run_line *a = pa, *b = pb;
	/* the other grouping's lines last: the lines of the grouping shown
	 * first keep their places */
	bool alt_a = a->kind == GPU_RUN_LINE_ALT,
	     alt_b = b->kind == GPU_RUN_LINE_ALT;
	if (alt_a != alt_b)
		return alt_a ? 1 : -1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	if (a->set != b->set)
		return a->set < b->set ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return a->b < b->b ? -1 : a->b > b->b;
}

/* Lines in a stable order (file, table set, host threads, queues, copies,
 * counters), their key index rebuilt, handed to the builder. */
enum status gpu_run_add_lines(struct gpu_run *r, struct error *err)
{
	if (r->n_lines > 1)
		qsort(r->lines, r->n_lines, sizeof(*r->lines), line_order);
	gpu_run_map_free(&r->line_keys);
	for (uint32_t i = 0; i < r->n_lines; i++) {
		struct gpu_run_line *l = &r->lines[i];
		uint64_t h = line_hash(l->file, l->set, l->kind, l->a, l->b);
		uint32_t first = MODEL_NONE;
		gpu_run_map_get(&r->line_keys, h, &first);
		r->line_next[i] = first;
		if (!gpu_run_map_put(&r->line_keys, h, i))
			return error_set(err, STATUS_NOMEM, r->path,
					 "out of memory");
		uint32_t got;
		if (l->kind == GPU_RUN_LINE_COUNTER)
			got = model_builder_add_counter(
				r->b, l->profile,
				model_str(model_builder_peek(r->b), l->label),
				model_str(model_builder_peek(r->b), l->unit),
				l->count);
		else
			got = model_builder_add_timeline(
				r->b, &(struct model_timeline){
					      .profile = l->profile,
					      .label = l->label,
					      .kind = TIMELINE_INTERVALS,
					      .count = l->count,
					      .n_instants = l->n_inst,
					      .group = l->group,
				      });
		if (got != i)
			return error_set(err, STATUS_NOMEM, r->path,
					 "out of memory");
	}
	return STATUS_OK;
}
