/* gpu_run: the run shared by the SQLite GPU-trace readers (see
 * gpu_run.h): a blank run, its node mirror and the values of the nodes
 * (GPU time, calls, bytes, API times, durations, counters), the reader
 * options.  The lines are gpu_run_lines.c, the open (index or first pass,
 * clocks, model) gpu_run_open.c, the providers gpu_run_provider.c, the
 * columns gpu_run_columns.c, the first pass gpu_run_scan.c, the index
 * gpu_run_index*.c, the maps gpu_run_map.c, the SQLite helpers
 * gpu_run_sql.c.  Must not depend on curses or on ui/. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "formats/gpu_run/gpu_run.h"
#include "core/symbol_name.h"
#include "formats/gpu_run/gpu_run_internal.h"

/* ---- nodes and values -------------------------------------------------- */

static uint64_t text_hash(const char *s)
{
	return hash_mix64(fnv1a(FNV1A_SEED, s, strlen(s)));
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
	return hash_mix64(((uint64_t)parent << 32) ^ ((uint64_t)kind << 24) ^
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

/* The node mirror's arrays made `cap` long (>= n_nodes: grown, the new
 * elements zero, counters NaN; or shrunk). */
static bool nodes_resize(struct gpu_run *r, uint32_t cap)
{
	uint32_t n = r->n_nodes;
	bool ok = GROWN(r->parent) && GROWN(r->name) && GROWN(r->kind) &&
		  GROWN(r->profile) && GROWN(r->node_next) && GROWN(r->gpu) &&
		  GROWN(r->calls) && GROWN(r->bytes) && GROWN(r->api_incl) &&
		  GROWN(r->api_excl) && GROWN(r->dur_n) && GROWN(r->dur_sum) &&
		  GROWN(r->dur_min) && GROWN(r->dur_max) && GROWN(r->dur_sq) &&
		  GROWN(r->sized_ns) && GROWN(r->marks) && GROWN(r->calls_in) &&
		  GROWN(r->present);
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

static bool nodes_reserve(struct gpu_run *r)
{
	if (r->n_nodes < r->cap_nodes)
		return true;
	return nodes_resize(r, r->cap_nodes ? r->cap_nodes * 2 : 256);
}

void gpu_run_nodes_fit(struct gpu_run *r)
{
	nodes_resize(r, r->n_nodes ? r->n_nodes : 1);
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
	/* the second pass reads files side by side: a cache per thread */
	static _Thread_local uint32_t pass_hit[8];
	uint32_t *hit = r->second_pass ? &pass_hit[kind & 7]
				       : &r->child_hit[kind & 7];
	uint32_t n = *hit - 1;
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

/* One call of `ns` at `node`: its count and its duration statistics
 * (present bits 2 and 16). */
static void add_call(struct gpu_run *r, uint32_t node, uint64_t ns)
{
	double d = (double)ns;
	if (!(r->present[node] & 16) || d < r->dur_min[node])
		r->dur_min[node] = d;
	if (!(r->present[node] & 16) || d > r->dur_max[node])
		r->dur_max[node] = d;
	r->dur_n[node] += 1;
	r->dur_sum[node] += d;
	r->dur_sq[node] += d * d;
	r->calls[node] += 1;
	r->present[node] |= 16 | 2;
}

void gpu_run_add_calls(struct gpu_run *r, uint32_t node, uint64_t calls)
{
	if (r->second_pass || node >= r->n_nodes)
		return;
	r->calls_in[node] += (double)calls;
	r->present[node] |= 128;
}

void gpu_run_add_gpu(struct gpu_run *r, uint32_t node, uint64_t ns,
		   uint32_t queue_profile)
{
	if (r->second_pass || node >= r->n_nodes)
		return;
	add_call(r, node, ns);
	r->gpu[node] += (double)ns;
	r->present[node] |= 1;
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

void gpu_run_add_mark(struct gpu_run *r, uint32_t node)
{
	if (r->second_pass || node >= r->n_nodes)
		return;
	r->marks[node] += 1;
	r->present[node] |= 64;
}

void gpu_run_add_api(struct gpu_run *r, uint32_t node, uint32_t parent_region,
		   uint64_t ns)
{
	if (r->second_pass || node >= r->n_nodes)
		return;
	add_call(r, node, ns);
	r->api_incl[node] += (double)ns;
	r->api_excl[node] += (double)ns;
	r->present[node] |= 8;
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

struct gpu_run *gpu_run_blank(const struct gpu_run_family *family,
			      const char *shown, size_t n)
{
	struct gpu_run *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->family = family;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->file_read, NULL);
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
