/* export_pprof: the stacks of export_stacks as a pprof profile
 * (profile.proto, compiled by protoc-c at build time; gzipped with zlib
 * as `pprof` and speedscope expect).  One sample per stack, innermost
 * location first, with one value per exported metric (the sample types,
 * named by the column titles, in nanoseconds, bytes or counts); one
 * location and one function per frame identity (a function record, else
 * a name), with the function's file and first line; one mapping per load
 * module.  Strings are valid UTF-8 (repaired where the database's are
 * not), interned in the string table.  The profile is built in memory
 * (O(stacks + frames)) and packed once.  No curses here. */
#include "config.h"

#include "present/export.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/array.h"
#include "core/lazylib.h"
#include "core/sanitize.h"
#include "present/export_stacks.h"
#include "present/present_column.h"
#include "present/profile.pb-c.h"

struct pprof {
	const struct model *m;
	size_t n_columns;
	double *factor;
	/* string table: index 0 is "" */
	char **strings;
	size_t n_strings, cap_strings;
	uint32_t *string_of; /* per model string handle, 0: not yet */
	/* frames: one location and one function each */
	struct export_frames frames;
	uint32_t *mapping_of; /* per module string handle, 0: none yet */
	uint32_t *mapping_name; /* per mapping: its string index */
	size_t n_mappings, cap_mappings;
	/* samples: location ids of all, then values of all */
	uint64_t *locs;
	size_t n_locs, cap_locs;
	size_t *loc_start; /* per sample, and one past the last */
	size_t n_samples, cap_starts;
	int64_t *values;
	size_t n_values, cap_values;
};

/* Intern text `s` (NULL: "") copied as valid UTF-8; 0 when out of memory
 * ("" is index 0 anyway). */
static uint32_t intern_text(struct pprof *p, const char *s)
{
	if (!s || !*s)
		return 0;
	char *copy = sanitize_text(s, SANITIZE_UTF8);
	if (!copy || !array_grow((void **)&p->strings, &p->cap_strings,
				 p->n_strings + 1, sizeof *p->strings)) {
		free(copy);
		return 0;
	}
	p->strings[p->n_strings] = copy;
	return (uint32_t)p->n_strings++;
}

/* Intern model string `h` once. */
static uint32_t intern(struct pprof *p, uint32_t h)
{
	if (h == 0 || h >= model_n_strings(p->m))
		return 0;
	if (!p->string_of[h])
		p->string_of[h] = intern_text(p, model_str(p->m, h));
	return p->string_of[h];
}

static uint32_t mapping_for(struct pprof *p, uint32_t module)
{
	if (module == 0 || module >= model_n_strings(p->m))
		return 0;
	if (p->mapping_of[module])
		return p->mapping_of[module];
	if (!array_grow((void **)&p->mapping_name, &p->cap_mappings,
			p->n_mappings + 1, sizeof *p->mapping_name))
		return 0;
	p->mapping_name[p->n_mappings++] = intern(p, module);
	return p->mapping_of[module] = (uint32_t)p->n_mappings;
}

static bool emit_sample(void *ctx, const uint32_t *frames, size_t n,
			const double *values)
{
	struct pprof *p = ctx;
	bool any = false;
	if (!array_grow((void **)&p->values, &p->cap_values,
			p->n_values + p->n_columns, sizeof *p->values))
		return false;
	for (size_t c = 0; c < p->n_columns; c++) {
		double x = values[c] * p->factor[c];
		int64_t v = x > 0 && x < 9.2e18 ? (int64_t)(x + 0.5) : 0;
		p->values[p->n_values + c] = v;
		any = any || v != 0;
	}
	if (!any)
		return true;
	if (!array_grow((void **)&p->locs, &p->cap_locs, p->n_locs + n,
			sizeof *p->locs) ||
	    !array_grow((void **)&p->loc_start, &p->cap_starts,
			p->n_samples + 2, sizeof *p->loc_start))
		return false;
	p->loc_start[p->n_samples] = p->n_locs;
	for (size_t i = n; i-- > 0;) { /* innermost first */
		uint32_t f = export_frames_index(&p->frames, frames[i]);
		if (f == MODEL_NONE)
			return false;
		p->locs[p->n_locs++] = (uint64_t)f + 1; /* ids from 1 */
	}
	p->n_values += p->n_columns;
	p->loc_start[++p->n_samples] = p->n_locs;
	return true;
}

/* The messages of the profile, all allocated at once, then packed. */
struct packed_parts {
	Perftools__Profiles__ValueType *types, **type_ptrs;
	Perftools__Profiles__Sample *samples, **sample_ptrs;
	Perftools__Profiles__Location *locations, **location_ptrs;
	Perftools__Profiles__Line *lines, **line_ptrs;
	Perftools__Profiles__Function *functions, **function_ptrs;
	Perftools__Profiles__Mapping *mappings, **mapping_ptrs;
};

static void parts_free(struct packed_parts *q)
{
	free(q->types), free(q->type_ptrs);
	free(q->samples), free(q->sample_ptrs);
	free(q->locations), free(q->location_ptrs);
	free(q->lines), free(q->line_ptrs);
	free(q->functions), free(q->function_ptrs);
	free(q->mappings), free(q->mapping_ptrs);
}

static bool parts_alloc(struct packed_parts *q, const struct pprof *p)
{
	size_t nt = p->n_columns, ns = p->n_samples, nf = p->frames.n,
	       nm = p->n_mappings;
	q->types = calloc(nt + 1, sizeof *q->types);
	q->type_ptrs = calloc(nt + 1, sizeof *q->type_ptrs);
	q->samples = calloc(ns + 1, sizeof *q->samples);
	q->sample_ptrs = calloc(ns + 1, sizeof *q->sample_ptrs);
	q->locations = calloc(nf + 1, sizeof *q->locations);
	q->location_ptrs = calloc(nf + 1, sizeof *q->location_ptrs);
	q->lines = calloc(nf + 1, sizeof *q->lines);
	q->line_ptrs = calloc(nf + 1, sizeof *q->line_ptrs);
	q->functions = calloc(nf + 1, sizeof *q->functions);
	q->function_ptrs = calloc(nf + 1, sizeof *q->function_ptrs);
	q->mappings = calloc(nm + 1, sizeof *q->mappings);
	q->mapping_ptrs = calloc(nm + 1, sizeof *q->mapping_ptrs);
	return q->types && q->type_ptrs && q->samples && q->sample_ptrs &&
	       q->locations && q->location_ptrs && q->lines && q->line_ptrs &&
	       q->functions && q->function_ptrs && q->mappings &&
	       q->mapping_ptrs;
}

/* The load module of frame `i` (its function record's, else its node's). */
static uint32_t frame_module(const struct pprof *p, size_t i)
{
	const struct model_node *n = &model_nodes(p->m)[p->frames.node[i]];
	if (n->function != MODEL_NONE && n->function < model_n_functions(p->m) &&
	    model_functions(p->m)[n->function].module)
		return model_functions(p->m)[n->function].module;
	return n->module;
}

/* One frame: its function, its line, its location. */
static bool fill_frame(struct pprof *p, struct packed_parts *q, size_t i)
{
	const struct model *m = p->m;
	uint32_t node = p->frames.node[i];
	uint32_t file, line;
	export_frame_source(m, node, &file, &line);
	char *name = export_frame_name(m, node);
	uint32_t name_index = name ? intern_text(p, name) : 0;
	free(name);
	if (!name)
		return false;
	Perftools__Profiles__Function *fn = &q->functions[i];
	perftools__profiles__function__init(fn);
	fn->id = i + 1;
	fn->name = fn->system_name = name_index;
	fn->filename = intern(p, file);
	fn->start_line = line;
	q->function_ptrs[i] = fn;
	Perftools__Profiles__Line *ln = &q->lines[i];
	perftools__profiles__line__init(ln);
	ln->function_id = i + 1;
	ln->line = line;
	q->line_ptrs[i] = ln;
	Perftools__Profiles__Location *loc = &q->locations[i];
	perftools__profiles__location__init(loc);
	loc->id = i + 1;
	loc->mapping_id = mapping_for(p, frame_module(p, i));
	loc->address = model_nodes(m)[node].offset;
	loc->n_line = 1;
	loc->line = &q->line_ptrs[i];
	q->location_ptrs[i] = loc;
	return true;
}

/* The sample types: the columns' titles and units. */
static bool fill_types(struct pprof *p, struct packed_parts *q,
		       const uint32_t *columns)
{
	for (size_t c = 0; c < p->n_columns; c++) {
		const char *unit;
		char *title = present_column_title(p->m, columns[c]);
		if (!title)
			return false;
		export_scale(p->m, columns[c], &unit);
		Perftools__Profiles__ValueType *t = &q->types[c];
		perftools__profiles__value_type__init(t);
		t->type = intern_text(p, title);
		t->unit = intern_text(p, strcmp(unit, "none") == 0 ? "count"
								  : unit);
		free(title);
		q->type_ptrs[c] = t;
	}
	return true;
}

static bool fill_rest(struct pprof *p, struct packed_parts *q)
{
	for (size_t i = 0; i < p->frames.n; i++)
		if (!fill_frame(p, q, i))
			return false;
	for (size_t i = 0; i < p->n_mappings; i++) {
		Perftools__Profiles__Mapping *mp = &q->mappings[i];
		perftools__profiles__mapping__init(mp);
		mp->id = i + 1;
		mp->filename = p->mapping_name[i];
		mp->has_functions = true;
		q->mapping_ptrs[i] = mp;
	}
	for (size_t s = 0; s < p->n_samples; s++) {
		Perftools__Profiles__Sample *sm = &q->samples[s];
		perftools__profiles__sample__init(sm);
		sm->n_location_id = p->loc_start[s + 1] - p->loc_start[s];
		sm->location_id = &p->locs[p->loc_start[s]];
		sm->n_value = p->n_columns;
		sm->value = &p->values[s * p->n_columns];
		q->sample_ptrs[s] = sm;
	}
	return true;
}

/* `data` gzipped to `out`. */
static bool write_gzip(FILE *out, const uint8_t *data, size_t len)
{
	z_stream z;
	uint8_t buf[65536];
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return false;
	bool ok = true;
	int flush;
	do {
		size_t take = len > (1u << 30) ? (1u << 30) : len;
		/* zlib's next_in is not const */
		memcpy(&z.next_in, &data, sizeof data);
		z.avail_in = (uInt)take;
		data += take;
		len -= take;
		flush = len ? Z_NO_FLUSH : Z_FINISH;
		do {
			z.next_out = buf;
			z.avail_out = sizeof buf;
			if (deflate(&z, flush) == Z_STREAM_ERROR) {
				ok = false;
				break;
			}
			size_t have = sizeof buf - z.avail_out;
			if (fwrite(buf, 1, have, out) != have)
				ok = false;
		} while (ok && z.avail_out == 0);
	} while (ok && flush != Z_FINISH);
	deflateEnd(&z);
	return ok;
}

static enum status pack_and_write(struct pprof *p, struct packed_parts *q,
				  FILE *out, struct error *err)
{
	Perftools__Profiles__Profile prof;
	perftools__profiles__profile__init(&prof);
	prof.n_sample_type = p->n_columns;
	prof.sample_type = q->type_ptrs;
	prof.n_sample = p->n_samples;
	prof.sample = q->sample_ptrs;
	prof.n_location = p->frames.n;
	prof.location = q->location_ptrs;
	prof.n_function = p->frames.n;
	prof.function = q->function_ptrs;
	prof.n_mapping = p->n_mappings;
	prof.mapping = q->mapping_ptrs;
	prof.n_string_table = p->n_strings;
	prof.string_table = p->strings;
	size_t len = perftools__profiles__profile__get_packed_size(&prof);
	uint8_t *buf = malloc(len ? len : 1);
	if (!buf)
		return error_set(err, STATUS_NOMEM, model_path(p->m), "out of memory");
	perftools__profiles__profile__pack(&prof, buf);
	bool ok = write_gzip(out, buf, len);
	free(buf);
	return ok ? STATUS_OK : STATUS_IO;
}

static bool pprof_init(struct pprof *p, const struct model *m,
		       size_t n_columns)
{
	p->m = m;
	p->n_columns = n_columns;
	p->factor = calloc(n_columns + 1, sizeof *p->factor);
	p->string_of = calloc((size_t)model_n_strings(m) + 1, sizeof *p->string_of);
	p->mapping_of = calloc((size_t)model_n_strings(m) + 1, sizeof *p->mapping_of);
	p->strings = calloc(1, sizeof *p->strings);
	if (!export_frames_init(&p->frames, m) || !p->factor ||
	    !p->string_of || !p->mapping_of || !p->strings ||
	    !(p->strings[0] = strdup("")))
		return false;
	p->n_strings = p->cap_strings = 1;
	return true;
}

static void pprof_free(struct pprof *p)
{
	for (size_t i = 0; p->strings && i < p->n_strings; i++)
		free(p->strings[i]);
	free(p->strings);
	free(p->factor);
	free(p->string_of);
	free(p->mapping_of);
	export_frames_free(&p->frames);
	free(p->mapping_name);
	free(p->locs);
	free(p->loc_start);
	free(p->values);
}

enum status export_pprof(const struct model *m, const uint32_t *columns,
			 size_t n_columns, FILE *out, double *negative,
			 struct error *err)
{
	struct pprof p = {0};
	struct packed_parts q = {0};
	enum status st = lazylib_require(LAZYLIB_PROTOBUF_C, err);
	if (st != STATUS_OK)
		return st;
	st = STATUS_NOMEM;
	if (!pprof_init(&p, m, n_columns))
		goto out;
	for (size_t c = 0; c < n_columns; c++) {
		const char *unit;
		p.factor[c] = export_scale(m, columns[c], &unit);
	}
	st = export_stacks_walk(m, columns, n_columns, emit_sample, &p,
				negative, err);
	if (st == STATUS_IO)
		st = STATUS_NOMEM; /* emit_sample fails only for memory */
	if (st != STATUS_OK)
		goto out;
	st = STATUS_NOMEM;
	/* the mappings first: parts_alloc counts them */
	for (size_t i = 0; i < p.frames.n; i++)
		if (frame_module(&p, i) && !mapping_for(&p, frame_module(&p, i)))
			goto out;
	if (!parts_alloc(&q, &p) || !fill_types(&p, &q, columns) ||
	    !fill_rest(&p, &q))
		goto out;
	st = pack_and_write(&p, &q, out, err);
out:
	if (st == STATUS_NOMEM && err && err->status == STATUS_OK)
		error_set(err, st, model_path(m), "out of memory");
	parts_free(&q);
	pprof_free(&p);
	return st;
}
