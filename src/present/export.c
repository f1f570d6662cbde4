/* export: folded stacks and speedscope's JSON from the stacks of
 * export_stacks, and the choice of export (see the header).  Both write
 * as they walk: nothing of the size of the tree is kept but speedscope's
 * weights of one profile and its table of frames.  No curses here. */
#include "config.h"

#include "present/export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/sanitize.h"
#include "present/export_stacks.h"
#include "present/export_trace.h"
#include "present/present_column.h"
#include "present/present_value.h"
#include "present/present_write.h"

static const char *const kind_names[] = {
	[EXPORT_FOLDED] = "folded",
	[EXPORT_SPEEDSCOPE] = "speedscope",
	[EXPORT_CHROME_TRACE] = "chrome-trace",
	[EXPORT_PPROF] = "pprof",
};

bool export_kind_parse(const char *name, enum export_kind *out)
{
	for (size_t k = 0; k < sizeof kind_names / sizeof *kind_names; k++)
		if (strcmp(name, kind_names[k]) == 0) {
			*out = (enum export_kind)k;
			return true;
		}
	return false;
}

const char *export_kind_name(enum export_kind kind)
{
	return kind_names[kind];
}

const char *export_kind_list(void)
{
	return "folded, speedscope, chrome-trace, pprof";
}

bool export_kind_is_stacks(enum export_kind kind)
{
	return kind != EXPORT_CHROME_TRACE;
}

double export_scale(const struct model *m, uint32_t column, const char **unit)
{
	struct present_kind k = present_column_kind(m, column);
	if (k.unit == PRESENT_TIME) {
		*unit = "nanoseconds";
		return k.scale * 1e9;
	}
	if (k.unit == PRESENT_BYTES) {
		*unit = "bytes";
		return k.scale;
	}
	*unit = "none";
	double total = 0;
	if (k.unit == PRESENT_COUNT || !model_column_total(m, column, &total) ||
	    !(fabs(total) > 0) || fabs(total) >= 1e9)
		return 1;
	/* a plain number (a GPU time of unknown unit, a ratio): enough
	 * decimal places that the total keeps nine digits */
	double factor = 1;
	while (fabs(total) * factor < 1e9 && factor < 1e18)
		factor *= 10;
	return factor;
}

/* A value as an integer of the export's scale. */
static long long scaled(double v, double factor)
{
	double x = llround(v * factor);
	return fabs(x) < 9.2e18 ? (long long)x : 0;
}

/* ---- folded ------------------------------------------------------------ */

struct folded {
	const struct model *m;
	FILE *out;
	double factor;
};

/* A frame's name as folded stacks allow: terminal-safe, no ';'. */
static bool put_folded_name(FILE *out, const struct model *m, uint32_t node)
{
	char *name = export_frame_name(m, node);
	char *safe = name ? sanitize_text(name, SANITIZE_TERMINAL) : NULL;
	free(name);
	if (!safe)
		return false;
	for (char *p = safe; *p; p++)
		if (*p == ';')
			*p = ':';
	fputs(*safe ? safe : "?", out);
	free(safe);
	return true;
}

static bool emit_folded(void *ctx, const uint32_t *frames, size_t n,
			const double *values)
{
	struct folded *f = ctx;
	long long v = scaled(values[0], f->factor);
	if (v <= 0)
		return true;
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(';', f->out);
		if (!put_folded_name(f->out, f->m, frames[i]))
			return false;
	}
	fprintf(f->out, " %lld\n", v);
	return !ferror(f->out);
}

/* ---- speedscope -------------------------------------------------------- */

struct speedscope {
	const struct model *m;
	FILE *out;
	size_t column; /* which of the walk's values */
	double factor;
	struct export_frames frames;
	uint32_t *open; /* an evented profile's open frames */
	size_t n_open, cap_open;
	long long *weights;
	size_t n_weights, cap_weights;
	long long total;
	double *negative; /* the walk's, n_columns */
};

static bool emit_speedscope(void *ctx, const uint32_t *frames, size_t n,
			    const double *values)
{
	struct speedscope *s = ctx;
	long long v = scaled(values[s->column], s->factor);
	if (v <= 0)
		return true;
	if (!array_grow((void **)&s->weights, &s->cap_weights,
			s->n_weights + 1, sizeof *s->weights))
		return false;
	fputs(s->n_weights ? ",\n[" : "\n[", s->out);
	for (size_t i = 0; i < n; i++) {
		uint32_t f = export_frames_index(&s->frames, frames[i]);
		if (f == MODEL_NONE)
			return false;
		fprintf(s->out, i ? ",%u" : "%u", f);
	}
	fputc(']', s->out);
	s->weights[s->n_weights++] = v;
	s->total += v;
	return !ferror(s->out);
}

static bool put_json_text(FILE *out, const char *s)
{
	json_t *j = present_json_text(s);
	bool ok = j && present_put_json(out, j, JSON_ENCODE_ANY);
	json_decref(j);
	return ok;
}

/* One frame of the shared table: {"name", "file", "line"}. */
static bool put_frame(FILE *out, const struct model *m, uint32_t node)
{
	uint32_t file, line;
	export_frame_source(m, node, &file, &line);
	char *name = export_frame_name(m, node);
	json_t *o = json_object();
	bool ok = name && o &&
		  !json_object_set_new(o, "name", present_json_text(name));
	if (ok && file)
		ok = !json_object_set_new(o, "file",
					  present_json_text(model_str(m, file)));
	if (ok && file && line)
		ok = !json_object_set_new(o, "line", json_integer(line));
	ok = ok && present_put_json(out, o, JSON_COMPACT);
	json_decref(o);
	free(name);
	return ok;
}

static enum status speedscope_profile(struct speedscope *s,
				      const uint32_t *columns,
				      size_t n_columns, size_t i,
				      double *negative, struct error *err)
{
	const struct model *m = s->m;
	const char *unit;
	char *title = present_column_title(m, columns[i]);
	s->column = i;
	s->factor = export_scale(m, columns[i], &unit);
	s->n_weights = 0;
	s->total = 0;
	fputs(i ? ",\n{\"type\":\"sampled\",\"name\":" : "{\"type\":\"sampled\",\"name\":",
	      s->out);
	bool ok = title && put_json_text(s->out, title);
	free(title);
	if (!ok)
		return error_set(err, STATUS_NOMEM, model_path(m), "out of memory");
	fprintf(s->out, ",\"unit\":\"%s\",\"startValue\":0,\"samples\":[", unit);
	enum status st = export_stacks_walk(m, columns, n_columns,
					    emit_speedscope, s, s->negative,
					    err);
	if (st != STATUS_OK)
		return st;
	fputs("],\n\"weights\":[", s->out);
	for (size_t w = 0; w < s->n_weights; w++)
		fprintf(s->out, w ? ",%lld" : "%lld", s->weights[w]);
	fprintf(s->out, "],\"endValue\":%lld}", s->total);
	negative[i] = s->negative[i];
	return STATUS_OK;
}

/* ---- speedscope: evented profiles of trace lines -------------------- */

struct evented {
	struct speedscope *s;
	uint64_t origin, first, last;
	bool any;
};

static bool evented_event(struct evented *e, char type, uint64_t t,
			  uint32_t frame)
{
	uint64_t at = t > e->origin ? t - e->origin : 0;
	if (!e->any)
		e->first = at;
	if (at > e->last)
		e->last = at;
	fprintf(e->s->out, "%s{\"type\":\"%c\",\"frame\":%u,\"at\":%llu}",
		e->any ? ",\n" : "\n", type, frame, (unsigned long long)at);
	e->any = true;
	return !ferror(e->s->out);
}

/* The frame of context `ctx_id`: its node's (the root's when unknown). */
static uint32_t ctx_frame(struct speedscope *s, uint32_t ctx_id)
{
	uint32_t node = model_node_of_ctx(s->m, ctx_id);
	return export_frames_index(&s->frames,
				   node == MODEL_NONE ? 0 : node);
}

static bool evented_open(void *ctx, uint64_t t, uint32_t ctx_id)
{
	struct evented *e = ctx;
	uint32_t f = ctx_frame(e->s, ctx_id);
	if (f == MODEL_NONE)
		return false;
	/* the frame of each open event, for its close */
	if (!array_grow((void **)&e->s->open, &e->s->cap_open,
			e->s->n_open + 1, sizeof *e->s->open))
		return false;
	e->s->open[e->s->n_open++] = f;
	return evented_event(e, 'O', t, f);
}

static bool evented_close(void *ctx, uint64_t t)
{
	struct evented *e = ctx;
	return e->s->n_open &&
	       evented_event(e, 'C', t, e->s->open[--e->s->n_open]);
}

/* Every trace line as an evented profile (after the sampled ones). */
static enum status speedscope_lines(struct speedscope *s, struct error *err)
{
	static const struct export_trace_ops ops = {evented_open,
						    evented_close};
	const struct model *m = s->m;
	uint8_t group = export_trace_group(m);
	for (uint32_t line = 0; line < model_n_timelines(m); line++) {
		uint8_t kind = model_timelines(m)[line].kind;
		if ((kind != TIMELINE_INTERVALS && kind != TIMELINE_SAMPLES) ||
		    !export_trace_shown(m, line, group))
			continue;
		struct evented e = {.s = s, .origin = model_time_min(m)};
		s->n_open = 0;
		fputs(",\n{\"type\":\"evented\",\"name\":", s->out);
		if (!put_json_text(s->out, model_str(m, model_timelines(m)[line].label)))
			return error_set(err, STATUS_NOMEM, model_path(m),
					 "out of memory");
		fputs(",\"unit\":\"nanoseconds\",\"events\":[", s->out);
		if (!export_trace_line(m, line, &ops, &e))
			return error_set(err, STATUS_IO, model_path(m),
					 "cannot read trace line %u", line);
		fprintf(s->out, "],\"startValue\":%llu,\"endValue\":%llu}",
			(unsigned long long)e.first,
			(unsigned long long)e.last);
	}
	return STATUS_OK;
}

static enum status write_speedscope(const struct model *m,
				    const uint32_t *columns, size_t n_columns,
				    FILE *out, double *negative,
				    struct error *err)
{
	struct speedscope s = {.m = m, .out = out};
	enum status st = STATUS_OK;
	s.negative = calloc(n_columns + 1, sizeof *s.negative);
	if (!export_frames_init(&s.frames, m) || !s.negative) {
		st = error_set(err, STATUS_NOMEM, model_path(m), "out of memory");
		goto out;
	}
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
	      "\"exporter\":\"callscope " PACKAGE_VERSION "\",\"name\":",
	      out);
	if (!put_json_text(out, model_title(m) ? model_title(m) : model_path(m))) {
		st = error_set(err, STATUS_NOMEM, model_path(m), "out of memory");
		goto out;
	}
	fputs(",\"activeProfileIndex\":0,\"profiles\":[\n", out);
	for (size_t i = 0; i < n_columns && st == STATUS_OK; i++)
		st = speedscope_profile(&s, columns, n_columns, i, negative,
					err);
	if (st == STATUS_OK)
		st = speedscope_lines(&s, err);
	if (st != STATUS_OK)
		goto out;
	fputs("],\n\"shared\":{\"frames\":[", out);
	for (size_t f = 0; f < s.frames.n; f++) {
		fputs(f ? ",\n" : "\n", out);
		if (!put_frame(out, m, s.frames.node[f])) {
			st = error_set(err, STATUS_NOMEM, model_path(m),
				       "out of memory");
			goto out;
		}
	}
	fputs("]}}\n", out);
out:
	export_frames_free(&s.frames);
	free(s.open);
	free(s.negative);
	free(s.weights);
	return st;
}

enum status export_write(const struct model *m, enum export_kind kind,
			 const uint32_t *columns, size_t n_columns, FILE *out,
			 double *negative, struct error *err)
{
	enum status st;
	if (kind == EXPORT_CHROME_TRACE)
		st = export_chrome_trace(m, out, err);
	else if (kind == EXPORT_PPROF)
		st = export_pprof(m, columns, n_columns, out, negative, err);
	else if (kind == EXPORT_SPEEDSCOPE)
		st = write_speedscope(m, columns, n_columns, out, negative,
				      err);
	else {
		const char *unit;
		struct folded f = {.m = m, .out = out};
		f.factor = n_columns ? export_scale(m, columns[0], &unit) : 1;
		st = export_stacks_walk(m, columns, n_columns ? 1 : 0,
					emit_folded, &f, negative, err);
	}
	if (st == STATUS_OK && (fflush(out) != 0 || ferror(out)))
		st = STATUS_IO;
	if (st == STATUS_IO && err && err->status == STATUS_OK)
		error_set(err, st, NULL, "cannot write the export");
	return st;
}
