/* gpu_run: the run shared by the SQLite GPU-trace readers (see
 * gpu_run.h): the node mirror and its values, profiles, lines, and the
 * open (from the run's index, or a first pass over the files, then the
 * clocks and the model).  The providers are gpu_run_provider.c, the
 * columns gpu_run_columns.c, the first pass gpu_run_scan.c, the index
 * gpu_run_index*.c, the maps gpu_run_map.c, the SQLite helpers
 * gpu_run_sql.c.  Must not depend on curses or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <unistd.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "formats/gpu_run/gpu_run.h"
#include "core/symbol_name.h"
#include "formats/gpu_run/gpu_run_internal.h"
#include "io/sqlite_ro.h"

/* ---- nodes and values -------------------------------------------------- */

static uint64_t text_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return gpu_run_mix64(h);
}

uint32_t gpu_run_intern(struct gpu_run *r, const char *s)
{
	uint32_t h;
	if (!s)
		s = "";
	uint64_t key = text_hash(s);
	if (gpu_run_map_get(&r->texts, key, &h))
		return h;
	if (!r->b)
		return MODEL_NONE;
	h = model_builder_intern(r->b, s, strlen(s));
	if (h != MODEL_NONE && !gpu_run_map_put(&r->texts, key, h))
		return MODEL_NONE;
	return h;
}

static uint64_t node_hash(uint32_t parent, uint8_t kind, uint32_t name)
{
	return gpu_run_mix64(((uint64_t)parent << 32) ^ ((uint64_t)kind << 24) ^
		     name ^ ((uint64_t)name << 40));
}

bool gpu_run_grow(void *arrayp, size_t n, size_t cap, size_t size)
{
	void **a = arrayp;
	uint8_t *g = realloc(*a, cap * size);
	if (!g)
		return false;
	memset(g + n * size, 0, (cap - n) * size);
	*a = g;
	return true;
}

/* Grow array `ptr` of the node mirror from n to cap elements. */
#define GROWN(ptr) gpu_run_grow(&(ptr), n, cap, sizeof(*(ptr)))

static bool nodes_reserve(struct gpu_run *r)
{
	if (r->n_nodes < r->cap_nodes)
		return true;
	uint32_t cap = r->cap_nodes ? r->cap_nodes * 2 : 256, n = r->n_nodes;
	bool ok = GROWN(r->parent) && GROWN(r->name) && GROWN(r->kind) &&
		  GROWN(r->profile) && GROWN(r->node_next) && GROWN(r->gpu) &&
		  GROWN(r->calls) && GROWN(r->bytes) && GROWN(r->api_incl) &&
		  GROWN(r->api_excl) && GROWN(r->dur_n) && GROWN(r->dur_sum) &&
		  GROWN(r->dur_min) && GROWN(r->dur_max) && GROWN(r->dur_sq) &&
		  GROWN(r->sized_ns) && GROWN(r->present);
	for (uint32_t k = 0; k < r->n_counters && ok; k++) {
		double *g = realloc(r->counter[k], (size_t)cap * sizeof(*g));
		if (!g) {
			ok = false;
			break;
		}
		for (uint32_t i = r->cap_nodes; i < cap; i++)
			g[i] = NAN;
		r->counter[k] = g;
	}
	if (ok)
		r->cap_nodes = cap;
	return ok;
}

uint32_t gpu_run_counter(struct gpu_run *r, const char *name)
{
	uint32_t h = gpu_run_intern(r, name);
	if (h == MODEL_NONE)
		return MODEL_NONE;
	for (uint32_t k = 0; k < r->n_counters; k++)
		if (r->counter_name[k] == h)
			return k;
	if (r->second_pass || r->n_counters >= 4096)
		return MODEL_NONE;
	uint32_t *names = realloc(r->counter_name,
				  (r->n_counters + 1) * sizeof(*names));
	if (!names)
		return MODEL_NONE;
	r->counter_name = names;
	double **arrays = realloc(r->counter,
				  (r->n_counters + 1) * sizeof(*arrays));
	if (!arrays)
		return MODEL_NONE;
	r->counter = arrays;
	double *v = malloc((r->cap_nodes ? r->cap_nodes : 1) * sizeof(*v));
	if (!v)
		return MODEL_NONE;
	for (uint32_t i = 0; i < r->cap_nodes; i++)
		v[i] = NAN;
	names[r->n_counters] = h;
	arrays[r->n_counters] = v;
	return r->n_counters++;
}

void gpu_run_add_counter(struct gpu_run *r, uint32_t node, uint32_t k,
			 double value)
{
	if (r->second_pass || node >= r->n_nodes || k >= r->n_counters ||
	    isnan(value))
		return;
	double *v = &r->counter[k][node];
	*v = isnan(*v) ? value : *v + value;
}

const char *gpu_run_group_name(const struct gpu_run_family *family,
			       uint8_t group)
{
	static const char *const fallback[GPU_RUN_N_GROUPS] = {
	    [GPU_RUN_GROUP_NONE] = "",
	    [GPU_RUN_GROUP_KERNEL] = "kernels",
	    [GPU_RUN_GROUP_COPY] = "memory copies",
	    [GPU_RUN_GROUP_MEMSET] = "memory sets",
	    [GPU_RUN_GROUP_GPU_OTHER] = "other GPU work",
	    [GPU_RUN_GROUP_API] = "API calls",
	    [GPU_RUN_GROUP_RANGE] = "ranges",
	    [GPU_RUN_GROUP_OS] = "OS runtime calls",
	};
	if (group >= GPU_RUN_N_GROUPS)
		return "";
	return family && family->group_names[group]
		   ? family->group_names[group]
		   : fallback[group];
}

void gpu_run_kernel_base(const char *name, char *out, size_t size)
{
	symbol_base_name(name, out, size);
}

bool gpu_run_kernel_names_parse(const char *s, enum gpu_run_kernel_names *out)
{
	if (!s || strcmp(s, "demangled") == 0)
		*out = GPU_RUN_KERNEL_DEMANGLED;
	else if (strcmp(s, "base") == 0)
		*out = GPU_RUN_KERNEL_BASE;
	else if (strcmp(s, "mangled") == 0)
		*out = GPU_RUN_KERNEL_MANGLED;
	else
		return false;
	return true;
}

enum status gpu_run_option(void *state, const char *key, const char *value,
			   struct error *err)
{
	struct gpu_run_settings *set = state, ignored;
	if (!set)
		set = &ignored;
	if (strcmp(key, "align-clocks") == 0) {
		if (strcmp(value, "yes") == 0 || strcmp(value, "true") == 0 ||
		    strcmp(value, "1") == 0)
			set->align_clocks = true;
		else if (strcmp(value, "no") == 0 ||
			 strcmp(value, "false") == 0 || strcmp(value, "0") == 0)
			set->align_clocks = false;
		else
			return error_set(err, STATUS_USAGE, NULL,
					 "align-clocks: yes or no, not '%s'",
					 value);
	} else if (strcmp(key, "kernel-names") == 0) {
		if (!gpu_run_kernel_names_parse(value, &set->kernel_names))
			return error_set(err, STATUS_USAGE, NULL,
					 "kernel names: base, demangled or "
					 "mangled, not '%s'",
					 value);
	} else {
		return error_set(err, STATUS_USAGE, NULL,
				 "GPU runs have no option '%s' (they take "
				 "align-clocks=yes|no and "
				 "kernel-names=demangled|base|mangled)",
				 key);
	}
	return STATUS_OK;
}

bool gpu_run_second_pass(const struct gpu_run *r)
{
	return r->second_pass;
}

enum gpu_run_kernel_names gpu_run_kernel_choice(const struct gpu_run *r)
{
	return (enum gpu_run_kernel_names)r->kernel_names;
}

size_t gpu_run_n_files(const struct gpu_run *r)
{
	return r->n_files;
}

struct gpu_run_file *gpu_run_file_at(struct gpu_run *r, size_t fi)
{
	return &r->files[fi];
}

uint32_t gpu_run_n_lines(const struct gpu_run *r)
{
	return r->n_lines;
}

struct gpu_run_line *gpu_run_line_at(struct gpu_run *r, uint32_t line)
{
	return &r->lines[line];
}

const char *gpu_run_node_name(const struct gpu_run *r, uint32_t node)
{
	if (node >= r->n_nodes)
		return "";
	return model_str(model_builder_peek(r->b), r->name[node]);
}

uint32_t gpu_run_node_profile(const struct gpu_run *r, uint32_t node)
{
	return r->profile[node];
}

void gpu_run_set_node_profile(struct gpu_run *r, uint32_t node,
			      uint32_t profile)
{
	r->profile[node] = profile;
}

void gpu_run_skip_row(struct gpu_run *r)
{
	if (!r->second_pass)
		r->skipped_rows++;
}

void gpu_run_add_unlinked(struct gpu_run *r, uint64_t n)
{
	if (!r->second_pass)
		r->unlinked += n;
}

uint32_t gpu_run_unattributed(struct gpu_run *r, const char *label)
{
	if (!r->unattributed && !r->second_pass)
		r->unattributed = gpu_run_child(r, 0, NODE_ENTRY,
						gpu_run_intern(r, label));
	return r->unattributed;
}

uint32_t gpu_run_child(struct gpu_run *r, uint32_t parent, uint8_t kind,
		     uint32_t name)
{
	if (parent >= r->n_nodes || name == MODEL_NONE)
		return MODEL_NONE;
	uint32_t *hit = &r->child_hit[kind & 7], n = *hit - 1;
	if (*hit && n < r->n_nodes && r->parent[n] == parent &&
	    r->kind[n] == kind && r->name[n] == name)
		return n;
	uint64_t h = node_hash(parent, kind, name);
	uint32_t first = MODEL_NONE;
	if (gpu_run_map_get(&r->node_keys, h, &first))
		for (n = first; n != MODEL_NONE; n = r->node_next[n])
			if (r->parent[n] == parent && r->kind[n] == kind &&
			    r->name[n] == name) {
				*hit = n + 1;
				return n;
			}
	if (r->second_pass || !r->b || !nodes_reserve(r))
		return MODEL_NONE;
	uint32_t id = r->n_nodes, fn = MODEL_NONE;
	uint8_t plain = GPU_RUN_KIND_PLAIN(kind);
	/* one function per name, kind and group (a kernel and an API call
	 * never share one), for the flat and bottom-up views: its module
	 * and file say what it is ("GPU" / "kernels") */
	if (plain != NODE_ENTRY) {
		uint64_t fkey = (uint64_t)kind << 32 | name;
		if (!gpu_run_map_get(&r->functions, fkey, &fn)) {
			struct model_function mf = {.name = name};
			uint8_t g = GPU_RUN_KIND_GROUP(kind);
			if (g != GPU_RUN_GROUP_NONE && g < GPU_RUN_N_GROUPS) {
				mf.module = gpu_run_intern(
				    r, g <= GPU_RUN_GROUP_GPU_OTHER ? "GPU"
								  : "host");
				mf.file = gpu_run_intern(
				    r, gpu_run_group_name(r->family, g));
				if (mf.module == MODEL_NONE ||
				    mf.file == MODEL_NONE)
					return MODEL_NONE;
			}
			fn = model_builder_add_function(r->b, &mf);
			if (fn == MODEL_NONE ||
			    !gpu_run_map_put(&r->functions, fkey, fn))
				return MODEL_NONE;
		}
	}
	struct model_node node = {
		.ctx_id = id,
		.name = name,
		.function = fn,
		.kind = plain,
		.relation = plain == NODE_ENTRY ? RELATION_NONE : RELATION_CALL,
	};
	if (model_builder_add_node(r->b, parent, &node) != id)
		return MODEL_NONE;
	r->parent[id] = parent;
	r->name[id] = name;
	r->kind[id] = kind;
	r->profile[id] = r->profile[parent];
	r->node_next[id] = first;
	if (!gpu_run_map_put(&r->node_keys, h, id))
		return MODEL_NONE;
	r->n_nodes++;
	*hit = id + 1;
	return id;
}

/* One interval of `ns` at `node` in the node's duration statistics. */
static void add_duration(struct gpu_run *r, uint32_t node, uint64_t ns)
{
	double d = (double)ns;
	if (!(r->present[node] & 16) || d < r->dur_min[node])
		r->dur_min[node] = d;
	if (!(r->present[node] & 16) || d > r->dur_max[node])
		r->dur_max[node] = d;
	r->dur_n[node] += 1;
	r->dur_sum[node] += d;
	r->dur_sq[node] += d * d;
	r->present[node] |= 16;
}

void gpu_run_add_gpu(struct gpu_run *r, uint32_t node, uint64_t ns,
		   uint32_t queue_profile)
{
	if (r->second_pass || node >= r->n_nodes)
		return;
	add_duration(r, node, ns);
	r->gpu[node] += (double)ns;
	r->calls[node] += 1;
	r->present[node] |= 3;
	if (queue_profile != MODEL_NONE)
		gpu_run_split_add(r, node, queue_profile, (double)ns, 1);
}

void gpu_run_split_add(struct gpu_run *r, uint32_t node, uint32_t queue_profile,
		       double gpu, double calls)
{
	uint64_t key = (uint64_t)node << 32 | queue_profile;
	uint32_t slot;
	if (!gpu_run_map_get(&r->queue_split, key, &slot)) {
		if (r->n_split == r->cap_split) {
			uint32_t cap = r->cap_split ? r->cap_split * 2 : 64;
			if (!gpu_run_grow(&r->split_gpu, r->n_split, cap,
					  sizeof(*r->split_gpu)) ||
			    !gpu_run_grow(&r->split_calls, r->n_split, cap,
					  sizeof(*r->split_calls)))
				return;
			r->cap_split = cap;
		}
		slot = r->n_split;
		if (!gpu_run_map_put(&r->queue_split, key, slot))
			return;
		r->n_split++;
	}
	r->split_gpu[slot] += gpu;
	r->split_calls[slot] += calls;
}

void gpu_run_add_bytes(struct gpu_run *r, uint32_t node, double bytes,
		       uint64_t ns)
{
	if (r->second_pass || node >= r->n_nodes)
		return;
	r->bytes[node] += bytes;
	r->sized_ns[node] += (double)ns;
	r->present[node] |= 4 | 32;
}

void gpu_run_add_api(struct gpu_run *r, uint32_t node, uint32_t parent_region,
		   uint64_t ns)
{
	if (r->second_pass || node >= r->n_nodes)
		return;
	add_duration(r, node, ns);
	r->api_incl[node] += (double)ns;
	r->api_excl[node] += (double)ns;
	r->calls[node] += 1;
	r->present[node] |= 8 | 2;
	if (parent_region < r->n_nodes)
		r->api_excl[parent_region] -= (double)ns;
}

void gpu_run_file_host(struct gpu_run *r, uint32_t fi, const char *host)
{
	if (r->second_pass || fi >= r->n_files || !host || !*host)
		return;
	uint32_t h = gpu_run_intern(r, host);
	if (h == MODEL_NONE || r->file_host[fi] == h)
		return;
	r->file_host[fi] = r->file_host[fi] ? MODEL_NONE : h;
}

bool gpu_run_counter_push(struct gpu_run *r, uint32_t line, uint64_t t,
			  double value)
{
	if (r->second_pass || line >= r->n_lines)
		return true;
	struct gpu_run_line *l = &r->lines[line];
	if ((l->count & (l->count - 1)) == 0) { /* 0, 1, 2, 4, ...: grow */
		uint64_t cap = l->count ? l->count * 2 : 1;
		uint64_t *tg = realloc(l->times, cap * sizeof(*tg));
		if (tg)
			l->times = tg;
		double *vg = tg ? realloc(l->values, cap * sizeof(*vg)) : NULL;
		if (vg)
			l->values = vg;
		if (!tg || !vg)
			return false;
	}
	l->times[l->count] = t;
	l->values[l->count] = value;
	l->count++;
	gpu_run_time_seen(r, t, t);
	return true;
}

void gpu_run_time_seen(struct gpu_run *r, uint64_t begin, uint64_t end)
{
	if (begin < r->time_min)
		r->time_min = begin;
	if (end > r->time_max)
		r->time_max = end;
}

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
	return gpu_run_mix64(gpu_run_mix64(((uint64_t)file << 32) ^ ((uint64_t)set << 8) ^
			   kind) ^
		     gpu_run_mix64(a) * 31 ^ gpu_run_mix64(b + 0x9e3779b97f4a7c15ull));
}

uint32_t gpu_run_line(struct gpu_run *r, uint32_t file, uint32_t set,
		    uint8_t kind, uint64_t a, uint64_t b, const char *label,
		    uint32_t profile)
{
	uint32_t *hit = &r->line_hit[kind & 7];
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

uint32_t gpu_run_linef(struct gpu_run *r, uint32_t file, uint32_t set,
		       uint8_t kind, uint64_t a, uint64_t b, uint32_t profile,
		       const char *fmt, ...)
{
	uint32_t id = gpu_run_line(r, file, set, kind, a, b, NULL, profile);
	if (id != MODEL_NONE || r->second_pass)
		return id;
	char label[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(label, sizeof(label), fmt, ap);
	va_end(ap);
	return gpu_run_line(r, file, set, kind, a, b, label, profile);
}

bool gpu_run_line_add(struct gpu_run *r, uint32_t line, uint64_t begin,
		    uint64_t end, uint32_t ctx, uint64_t event, uint64_t link)
{
	if (line >= r->n_lines)
		return false;
	struct gpu_run_line *l = &r->lines[line];
	if (!r->second_pass) {
		l->count++;
		if (begin < l->first)
			l->first = begin;
		if (end > l->last)
			l->last = end;
		gpu_run_row_seen(r);
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
		if (t < l->first)
			l->first = t;
		if (t > l->last)
			l->last = t;
		gpu_run_time_seen(r, t, t);
		gpu_run_row_seen(r);
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

/* ---- open ------------------------------------------------------------- */

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
static enum status add_lines(struct gpu_run *r, struct error *err)
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

/* A file may change only when someone can write it: immutable=1 when we
 * cannot and there is no WAL beside it. */
static bool cannot_change(const char *path)
{
	char *wal = NULL;
	bool r = access(path, W_OK) != 0;
	if (r && asprintf(&wal, "%s-wal", path) >= 0) {
		r = access(wal, F_OK) != 0;
		free(wal);
	}
	return r;
}

enum status gpu_run_open_file(const struct gpu_run_family *fam,
			       struct gpu_run_file *f, struct error *err)
{
	enum status st = sqlite_ro_open(f->path, cannot_change(f->path),
					&f->db, err);
	if (st != STATUS_OK)
		return st;
	f->noun = fam->noun;
	f->layout = fam->layout_of(f);
	if (!f->layout)
		return error_set(err, STATUS_UNSUPPORTED, f->path,
				 "not a %s: its tables are not a layout "
				 "callscope reads",
				 fam->noun);
	return STATUS_OK;
}

/* Hand the scan's progress to the hook: at the end (`last`), else at most
 * four times a second. */
void gpu_run_report(struct gpu_run *r, bool last)
{
	if (!r->options || !r->options->progress)
		return;
	double t = clock_now();
	if (!last && t - r->last_report < 0.25)
		return;
	r->last_report = t;
	r->progress.seconds = t - r->scan_began;
	r->progress.done = last;
	r->options->progress(r->options->progress_ctx, &r->progress);
}

void gpu_run_row_seen(struct gpu_run *r)
{
	/* a shard's count is read by the thread that merges (gpu_run_scan.c) */
	uint64_t rows = __atomic_add_fetch(&r->progress.rows, 1,
					   __ATOMIC_RELAXED);
	if ((rows & 0xffff) == 0)
		gpu_run_report(r, false);
}

struct gpu_run *gpu_run_blank(const struct gpu_run_family *family,
			      const char *shown, size_t n)
{
	struct gpu_run *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->family = family;
	pthread_mutex_init(&r->lock, NULL);
	r->time_min = UINT64_MAX;
	r->path = strdup(shown);
	r->files = calloc(n ? n : 1, sizeof(*r->files));
	r->b = model_builder_new(family->format, shown);
	r->n_files = n;
	r->file_host = calloc(n ? n : 1, sizeof(*r->file_host));
	r->file_shift = calloc(n ? n : 1, sizeof(*r->file_shift));
	if (!r->path || !r->files || !r->b || !r->file_host ||
	    !r->file_shift || !nodes_reserve(r)) {
		gpu_run_discard(r);
		return NULL;
	}
	/* node 0: the root */
	r->parent[0] = MODEL_NONE;
	r->profile[0] = MODEL_NONE;
	r->node_next[0] = MODEL_NONE;
	r->n_nodes = 1;
	return r;
}

void gpu_run_discard(struct gpu_run *r)
{
	if (!r)
		return;
	if (r->b)
		model_builder_free(r->b);
	r->b = NULL;
	gpu_run_free(r);
}

/* A run of `n` files with only the root node, its files opened unless
 * `lazy` (they are opened when first needed). */
static enum status run_new(const struct gpu_run_family *family,
			   const char *shown, char **paths, size_t n,
			   bool lazy, struct gpu_run **out, struct error *err)
{
	enum status st = STATUS_OK;
	struct gpu_run *r = gpu_run_blank(family, shown, n);
	*out = NULL;
	if (!r)
		return error_set(err, STATUS_NOMEM, shown, "out of memory");
	for (size_t i = 0; i < n && st == STATUS_OK; i++) {
		r->files[i].path = strdup(paths[i]);
		if (!r->files[i].path) {
			st = error_set(err, STATUS_NOMEM, shown,
				       "out of memory");
			break;
		}
		if (!lazy)
			st = gpu_run_open_file(family, &r->files[i], err);
	}
	if (st != STATUS_OK) {
		gpu_run_discard(r);
		return st;
	}
	*out = r;
	return STATUS_OK;
}

/* The run of `paths` after its first pass: from its index when it has a
 * usable one, else read from the files (and the index written). */
static enum status run_scanned(const struct gpu_run_family *family,
			       const char *shown, char **paths, size_t n,
			       const struct reader_options *options,
			       enum gpu_run_kernel_names kn,
			       struct gpu_run **out, struct error *err)
{
	struct gpu_run *r;
	const char *index_dir = options ? options->cache_dir : NULL;
	enum status st;
	bool named = false;
	if (index_dir) {
		/* from the index: the files are opened only when needed */
		st = run_new(family, shown, paths, n, true, &r, err);
		if (st != STATUS_OK)
			return st;
		r->kernel_names = (uint8_t)kn;
		named = gpu_run_index_name(r, index_dir);
		if (named && gpu_run_index_load(r)) {
			*out = r;
			return STATUS_OK;
		}
		gpu_run_discard(r);
	}
	st = run_new(family, shown, paths, n, false, &r, err);
	if (st != STATUS_OK)
		return st;
	r->kernel_names = (uint8_t)kn;
	if (named)
		named = gpu_run_index_name(r, index_dir);
	r->options = options;
	r->progress.indexing = named;
	st = gpu_run_scan(r, err);
	r->options = NULL;
	if (st != STATUS_OK) {
		gpu_run_discard(r);
		return st;
	}
	if (named)
		gpu_run_index_save(r);
	*out = r;
	return STATUS_OK;
}

/* The earliest and latest time of file `fi` as stored, over its lines;
 * false when it has none. */
static bool file_span(const struct gpu_run *r, uint32_t fi, uint64_t *first,
		      uint64_t *last)
{
	*first = UINT64_MAX;
	*last = 0;
	for (uint32_t i = 0; i < r->n_lines; i++) {
		const struct gpu_run_line *l = &r->lines[i];
		uint64_t a = l->first, b = l->last;
		if (l->file != fi)
			continue;
		if (l->kind == GPU_RUN_LINE_COUNTER && l->count && l->times) {
			a = l->times[0];
			b = l->times[l->count - 1];
		}
		if (a <= b) {
			*first = a < *first ? a : *first;
			*last = b > *last ? b : *last;
		}
	}
	return *first <= *last;
}

/* Files of several hosts: their clocks are independent.  Say so, or
 * (`align`) shift each host's times so that its first event is at the
 * run's start, and the run's time range with them. */
static void align_clocks(struct gpu_run *r, bool align)
{
	uint32_t hosts = 0;
	for (uint32_t i = 0; i < r->n_files; i++) {
		uint32_t h = r->file_host[i];
		bool seen = false;
		for (uint32_t j = 0; j < i && !seen; j++)
			seen = r->file_host[j] == h;
		hosts += h && h != MODEL_NONE && !seen;
	}
	if (hosts < 2)
		return;
	char msg[240];
	if (!align) {
		snprintf(msg, sizeof(msg),
			 "the run's files come from %u hosts whose clocks are "
			 "independent: times are shown as stored "
			 "(--align-clocks starts every host at the run's "
			 "first event)",
			 hosts);
		model_builder_add_warning(r->b, msg);
		return;
	}
	uint64_t run_first = UINT64_MAX, a, b;
	for (uint32_t i = 0; i < r->n_files; i++)
		if (file_span(r, i, &a, &b) && a < run_first)
			run_first = a;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint32_t i = 0; i < r->n_files; i++) {
		uint32_t h = r->file_host[i];
		uint64_t host_first = UINT64_MAX;
		for (uint32_t j = 0; h && h != MODEL_NONE && j < r->n_files; j++)
			if (r->file_host[j] == h && file_span(r, j, &a, &b) &&
			    a < host_first)
				host_first = a;
		if (host_first != UINT64_MAX && run_first != UINT64_MAX)
			r->file_shift[i] =
				-(int64_t)(host_first - run_first);
		if (file_span(r, i, &a, &b)) {
			a = (uint64_t)((int64_t)a + r->file_shift[i]);
			b = (uint64_t)((int64_t)b + r->file_shift[i]);
			lo = a < lo ? a : lo;
			hi = b > hi ? b : hi;
		}
	}
	if (lo <= hi) {
		r->time_min = lo;
		r->time_max = hi;
	}
	snprintf(msg, sizeof(msg),
		 "the times of %u hosts were shifted so that each host's "
		 "first event is at the run's start (--align-clocks)",
		 hosts);
	model_builder_add_warning(r->b, msg);
}

enum status gpu_run_open(const struct gpu_run_family *family,
			 const char *shown, char **paths, size_t n,
			 const struct reader_options *options,
			 struct model **out, struct error *err)
{
	*out = NULL;
	struct gpu_run *r = NULL;
	struct gpu_run_settings set = {0};
	enum status st =
		reader_options_apply(family->reader, options, &set, err);
	if (st == STATUS_OK)
		st = run_scanned(family, shown, paths, n, options,
				 set.kernel_names, &r, err);
	if (st != STATUS_OK)
		return st;
	if (!r)
		return error_set(err, STATUS_NOMEM, shown, "out of memory");
	/* API time of threads, processes and the root: their top regions */
	for (uint32_t nd = r->n_nodes; nd-- > 1;) {
		uint32_t p = r->parent[nd];
		if (p != MODEL_NONE &&
		    (p == 0 || GPU_RUN_KIND_PLAIN(r->kind[p]) == NODE_ENTRY) &&
		    (r->present[nd] & 8)) {
			r->api_incl[p] += r->api_incl[nd];
			r->present[p] |= 8;
		}
	}
	align_clocks(r, set.align_clocks);
	st = gpu_run_add_columns(r, err);
	if (st == STATUS_OK)
		st = add_lines(r, err);
	if (st != STATUS_OK)
		goto out;
	if (r->time_min > r->time_max)
		r->time_min = r->time_max = 0;
	model_builder_set_time_range(r->b, r->time_min, r->time_max);
	if (r->skipped_rows) {
		char msg[160];
		snprintf(msg, sizeof(msg),
			 "%" PRIu64 " rows without integer start and end "
			 "times were left out",
			 r->skipped_rows);
		model_builder_add_warning(r->b, msg);
	}
	if (r->unlinked) {
		char msg[200];
		snprintf(msg, sizeof(msg),
			 "%" PRIu64 " kernels or copies have no link to the "
			 "API call that launched them: %s",
			 r->unlinked, family->unlinked_where);
		model_builder_add_warning(r->b, msg);
	}
	char title[96];
	snprintf(title, sizeof(title), "%zu %s file%s", n, family->noun,
		 n == 1 ? "" : "s");
	model_builder_set_title(r->b, title, NULL);
	model_builder_set_values(r->b, &gpu_run_value_ops, r);
	model_builder_set_trace(r->b, &gpu_run_trace_ops, r);
	struct model_builder *b = r->b;
	r->n_strings = model_builder_peek(b)->n_strings;
	r->b = NULL;
	/* the SQLite string statements are no longer needed */
	for (size_t i = 0; i < r->n_files; i++)
		for (size_t s = 0; s < r->files[i].n_sets; s++) {
			sqlite3_finalize(r->files[i].sets[s].string_stmt);
			r->files[i].sets[s].string_stmt = NULL;
		}
	*out = model_builder_finish(b, err);
	if (!*out)
		return STATUS_NOMEM; /* finish closed the providers */
	return STATUS_OK;
out:
	if (r->b)
		model_builder_free(r->b);
	r->b = NULL;
	gpu_run_free(r);
	return st;
}
