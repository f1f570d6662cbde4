/* gpu_run_index_write: writing a GPU run's index (gpu_run_index.c says
 * what it is): the run file DIR/KEY.run after the first pass (strings,
 * profiles, nodes and values, the table sets' maps, the lines; a CRC-32
 * at the end) and an interval file DIR/KEY.fN after a file's second pass,
 * each to a temporary name renamed into place, then the directory's
 * budget kept.  A failure leaves no index and is not an error. */
#include "config.h"

#include "formats/gpu_run/gpu_run.h"
#include "formats/gpu_run/gpu_run_index_internal.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

/* ---- writing --------------------------------------------------------------- */

struct out {
	FILE *f;
	bool ok;
	uLong crc; /* of every byte written (the run file ends with it) */
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->ok && n && fwrite(p, 1, n, o->f) != n)
		o->ok = false;
	for (size_t done = 0; o->ok && done < n;) {
		uInt part = n - done > (1u << 30) ? 1u << 30 : (uInt)(n - done);
		o->crc = crc32(o->crc, (const Bytef *)p + done, part);
		done += part;
	}
}

static void put_u32(struct out *o, uint32_t v)
{
	put(o, &v, sizeof(v));
}

static void put_u64(struct out *o, uint64_t v)
{
	put(o, &v, sizeof(v));
}

static void put_text(struct out *o, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	put_u32(o, (uint32_t)n);
	put(o, s, n);
}

/* Zero bytes up to a multiple of 8 of the file offset (arrays that are
 * mapped, not copied, must be aligned). */
static void put_align(struct out *o)
{
	static const char zero[8];
	long at = o->f ? ftell(o->f) : -1;
	if (at < 0)
		o->ok = false;
	else
		put(o, zero, (size_t)(-at & 7));
}

static void put_map(struct out *o, const struct gpu_run_map *m)
{
	put_u64(o, m->n);
	for (size_t i = 0; i < m->cap; i++)
		if (m->slot[i].used) {
			put_u64(o, m->slot[i].key);
			put_u32(o, m->slot[i].val);
		}
}

static void put_header(struct out *o, const char *magic,
		       const struct gpu_run *r, const struct ident *ids)
{
	put(o, magic, 8);
	put_u32(o, BYTE_ORDER_MARK);
	put_u32(o, INDEX_VERSION);
	put_u32(o, (uint32_t)sizeof(struct gpu_run_iv));
	/* the readers' behaviour, not only the layout, is the program's */
	put_text(o, PACKAGE_VERSION);
	put_text(o, r->family->format);
	put_u64(o, r->n_files);
	for (size_t i = 0; i < r->n_files; i++) {
		put_text(o, ids[i].real);
		put(o, &ids[i].id, sizeof(ids[i].id));
	}
	put_u64(o, r->index_stamp);
}

/* Open DIR/KEY.SUFFIX's temporary sibling for writing. */
static bool out_open(struct out *o, const struct gpu_run *r,
		     const char *suffix, char **tmp, char **final)
{
	*tmp = *final = NULL;
	o->f = NULL;
	o->ok = false;
	o->crc = crc32(0L, Z_NULL, 0);
	if (asprintf(final, "%s.%s", r->index_base, suffix) < 0) {
		*final = NULL;
		return false;
	}
	if (asprintf(tmp, "%s.tmp%ld", *final, (long)getpid()) < 0) {
		*tmp = NULL;
		return false;
	}
	int fd = open(*tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return false;
	o->f = fdopen(fd, "wb");
	if (!o->f) {
		close(fd);
		unlink(*tmp);
		return false;
	}
	o->ok = true;
	return true;
}

static void out_close(struct out *o, const struct gpu_run *r, char *tmp,
		      char *final)
{
	if (o->f && fclose(o->f) != 0)
		o->ok = false;
	if (tmp && (!o->ok || rename(tmp, final) != 0))
		unlink(tmp);
	free(tmp);
	free(final);
	/* DIR/KEY: the directory and the key */
	char *dir = strdup(r->index_base);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	if (slash) {
		*slash = '\0';
		gpu_run_index_prune(dir, slash + 1);
	}
	free(dir);
}

/* The run's strings (1.. in handle order) and profiles. */
static void put_model(struct out *o, const struct model *m)
{
	/* strings 1.. in handle order */
	put_u32(o, model_n_strings(m));
	for (uint32_t s = 1; s < model_n_strings(m); s++)
		put_text(o, model_str(m, s));
	/* profiles */
	put_u32(o, model_n_profiles(m));
	for (uint32_t p = 0; p < model_n_profiles(m); p++) {
		const struct model_profile *pr = &model_profiles(m)[p];
		put_u32(o, pr->label);
		put_u32(o, pr->n_ids);
		for (uint32_t k = 0; k < pr->n_ids; k++) {
			const struct model_id *id = &model_ids(m)[pr->first_id + k];
			put_u32(o, id->kind_name);
			put_u32(o, id->kind);
			put_u32(o, id->is_physical);
			put_u32(o, id->logical_id);
			put_u64(o, id->physical_id);
		}
	}
}

/* The nodes (0 is the root), their values and counters, and the GPU time
 * and calls per (node, queue). */
static void put_nodes(struct out *o, const struct gpu_run *r)
{
	/* nodes (0 is the root) and their values */
	put_u32(o, r->n_nodes);
	put(o, r->parent, r->n_nodes * sizeof(*r->parent));
	put(o, r->name, r->n_nodes * sizeof(*r->name));
	put(o, r->kind, r->n_nodes * sizeof(*r->kind));
	put(o, r->profile, r->n_nodes * sizeof(*r->profile));
	put(o, r->present, r->n_nodes * sizeof(*r->present));
#define PUT_ARRAY(a) put(o, r->a, r->n_nodes * sizeof(double));
	NODE_DOUBLES(PUT_ARRAY)
#undef PUT_ARRAY
	/* hardware counters: name, then a value (NaN: none) per node */
	put_u32(o, r->n_counters);
	for (uint32_t k = 0; k < r->n_counters; k++) {
		put_u32(o, r->counter_name[k]);
		put(o, r->counter[k], r->n_nodes * sizeof(double));
	}
	/* GPU time and calls per (node, queue) */
	put_map(o, &r->queue_split);
	put_u32(o, r->n_split);
	put(o, r->split_gpu, r->n_split * sizeof(double));
	put(o, r->split_calls, r->n_split * sizeof(double));
}

/* The files' table sets. */
static void put_sets(struct out *o, const struct gpu_run *r)
{
	/* the files' table sets */
	for (size_t i = 0; i < r->n_files; i++) {
		const struct gpu_run_file *f = &r->files[i];
		put_u64(o, f->n_sets);
		for (size_t s = 0; s < f->n_sets; s++) {
			const struct gpu_run_set *set = &f->sets[s];
			put_text(o, set->suffix);
			uint32_t flags = (uint32_t)set->has_copy |
					 (uint32_t)set->has_pmc << 1 |
					 (uint32_t)set->has_arg << 2 |
					 (uint32_t)set->has_alloc << 3 |
					 (uint32_t)set->has_copyapi << 4 |
					 (uint32_t)set->has_kernelapi << 5 |
					 (uint32_t)set->has_monitor << 6;
			put_u32(o, flags);
			put_u32(o, set->opt);
			put_map(o, &set->strings);
			put_map(o, &set->kernels);
			put_map(o, &set->threads);
			put_map(o, &set->procs);
			put_map(o, &set->thread_profiles);
		}
	}
}

/* The lines (a counter's samples with it). */
static void put_lines(struct out *o, const struct gpu_run *r)
{
	/* lines */
	put_u32(o, r->n_lines);
	for (uint32_t i = 0; i < r->n_lines; i++) {
		const struct gpu_run_line *l = &r->lines[i];
		put_u32(o, l->file);
		put_u32(o, l->set);
		put_u32(o, l->kind);
		put_u64(o, l->a);
		put_u64(o, l->b);
		put_u32(o, l->label);
		put_u32(o, l->profile);
		put_u64(o, l->count);
		put_u64(o, l->first);
		put_u64(o, l->last);
		put_u32(o, l->unit);
		put_u64(o, l->n_inst);
		put_u32(o, l->group);
		if (l->kind == GPU_RUN_LINE_COUNTER) {
			put(o, l->times, l->count * sizeof(*l->times));
			put(o, l->values, l->count * sizeof(*l->values));
		}
	}
}

void gpu_run_index_save(struct gpu_run *r)
{
	if (!r->index_base || !r->b)
		return;
	struct ident *ids = NULL;
	if (!gpu_run_index_identities(r, &ids))
		return;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	r->index_stamp = gpu_run_index_fnv((uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 32,
			     &ts.tv_sec, sizeof(ts.tv_sec));
	struct out o;
	char *tmp, *final;
	if (!out_open(&o, r, "run", &tmp, &final)) {
		free(tmp);
		free(final);
		gpu_run_index_idents_free(r, ids);
		return;
	}
	put_header(&o, RUN_MAGIC, r, ids);
	const struct model *m = model_builder_peek(r->b);
	put_model(&o, m);
	put_nodes(&o, r);
	put_sets(&o, r);
	put_lines(&o, r);
	for (size_t i = 0; i < r->n_files; i++)
		put_u32(&o, r->file_host[i]);
	put_u64(&o, r->time_min);
	put_u64(&o, r->time_max);
	put_u64(&o, r->skipped_rows);
	put_u64(&o, r->unlinked);
	put_u32(&o, r->unattributed);
	put(&o, "END.", 4);
	put_u32(&o, (uint32_t)o.crc);
	out_close(&o, r, tmp, final);
	gpu_run_index_idents_free(r, ids);
}

void gpu_run_index_save_file(struct gpu_run *r, uint32_t fi)
{
	if (!r->index_base || !r->index_stamp || fi >= r->n_files ||
	    r->files[fi].iv_map)
		return;
	struct ident *ids = NULL;
	if (!gpu_run_index_identities(r, &ids))
		return;
	char suffix[32];
	snprintf(suffix, sizeof(suffix), "f%" PRIu32, fi);
	struct out o;
	char *tmp, *final;
	if (out_open(&o, r, suffix, &tmp, &final)) {
		put_header(&o, IV_MAGIC, r, ids);
		put_u32(&o, fi);
		uint32_t n = 0;
		for (uint32_t i = 0; i < r->n_lines; i++)
			n += r->lines[i].file == fi &&
			     r->lines[i].kind != GPU_RUN_LINE_COUNTER;
		put_u32(&o, n);
		for (uint32_t i = 0; i < r->n_lines; i++) {
			const struct gpu_run_line *l = &r->lines[i];
			if (l->file != fi || l->kind == GPU_RUN_LINE_COUNTER)
				continue;
			put_u32(&o, i);
			put_u64(&o, l->filled);
			put_align(&o);
			put(&o, l->iv, l->filled * sizeof(*l->iv));
			put_u64(&o, l->inst_filled);
			put_align(&o);
			put(&o, l->inst, l->inst_filled * sizeof(*l->inst));
		}
		put(&o, "END.", 4);
	}
	out_close(&o, r, tmp, final);
	gpu_run_index_idents_free(r, ids);
}
