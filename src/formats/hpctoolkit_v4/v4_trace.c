/* v4_trace: trace.db v4.0 ("trace.db version 4.0" in FORMATS.md).  At
 * open: the Context Trace Headers section and each {CTH}, checked; trace
 * elements are never touched until v4_trace_sample() reads one through a
 * 12-byte blob_read window.  Must not depend on curses or on the other v4
 * files. */
#include "config.h"

#include "formats/hpctoolkit_v4/v4_trace.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SZ_CTH_MIN 0x18 /* {CTH}: profIndex, pStart, pEnd */
#define SZ_ELEM 0x0c    /* {Elem}: u64 timestamp, u32 ctxId */

struct trace_line {
	uint64_t start; /* absolute offset of element 0 */
	uint64_t count;
};

struct v4_trace {
	struct v4_file file;
	struct trace_line *lines;
	uint32_t n_lines;
	/* the first failed read not yet taken (a remote file's server gone) */
	pthread_mutex_t error_lock;
	struct error error;
};

typedef unsigned long long ull; /* for printing u64 values portably */

#define CORRUPT(off, ...)                                                  \
	error_set_at(err, STATUS_CORRUPT, t->file.name, (off), __VA_ARGS__)

/* Trace line i from its {CTH} `cth` (at file offset `at`): checked, kept
 * in t->lines[i] and added to the model as a sample timeline. */
static enum status add_line(struct v4_trace *t, struct model_builder *b,
			    struct span cth, uint64_t at, uint32_t i,
			    uint32_t n_profiles, struct error *err)
{
	const struct model *m = model_builder_peek(b);
	uint64_t body_end = t->file.size - 8; /* before the footer */
	uint32_t prof = span_get_u32le(cth, 0x00);
	uint64_t p_start = span_get_u64le(cth, 0x08);
	uint64_t p_end = span_get_u64le(cth, 0x10);
	/* profIndex: "Index of a profile listed in the profile.db" */
	if (prof >= n_profiles || prof >= model_n_profiles(m))
		return CORRUPT(at, "{CTH} %u: profIndex %u is "
			       "not a profile of profile.db (%u)",
			       i, prof, n_profiles);
	/* pStart <= pEnd, both inside the file, whole {Elem}s */
	if (p_start > p_end || p_end > body_end ||
	    (p_end - p_start) % SZ_ELEM != 0)
		return CORRUPT(at + 0x08, "{CTH} %u: trace "
			       "line [0x%llx, 0x%llx) is not a whole "
			       "number of 12-byte elements inside the "
			       "file",
			       i, (ull)p_start, (ull)p_end);
	t->lines[i] = (struct trace_line){
		.start = p_start,
		.count = (p_end - p_start) / SZ_ELEM,
	};
	struct model_timeline tl = {
		.profile = prof,
		.label = model_profiles(m)[prof].label,
		.kind = TIMELINE_SAMPLES,
		.count = t->lines[i].count,
	};
	if (model_builder_add_timeline(b, &tl) == MODEL_NONE)
		return error_set(err, STATUS_NOMEM, t->file.name,
				 "out of memory");
	return STATUS_OK;
}

enum status v4_trace_open(struct v4_file *f, uint32_t n_profiles,
			  struct model_builder *b, struct v4_trace **out,
			  struct error *err)
{
	enum status st = STATUS_OK;
	struct span w;
	*out = NULL;
	struct v4_trace *t = calloc(1, sizeof(*t));
	if (!t) {
		v4_file_close(f);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	pthread_mutex_init(&t->error_lock, NULL);
	t->file = *f;
	memset(f, 0, sizeof(*f));
	struct v4_section sec = t->file.sections[0];
	/* Context Trace Headers section: pTraces, nTraces, szTrace,
	 * minTimestamp, maxTimestamp (0x20 bytes) */
	if (sec.size < 0x20) {
		st = CORRUPT(sec.off, "Context Trace Headers section "
			     "too small for its 0x20-byte header");
		goto out;
	}
	st = blob_read(t->file.blob, sec.off, sec.size, &w, err);
	if (st != STATUS_OK)
		goto out;
	struct v4_region r = {.span = w, .base = sec.off};
	uint64_t p_traces = span_get_u64le(w, 0x00);
	uint32_t n_traces = span_get_u32le(w, 0x08);
	uint8_t sz_trace = 0;
	(void)span_u8(w, 0x0c, &sz_trace);
	uint64_t t_min = span_get_u64le(w, 0x10), t_max = span_get_u64le(w, 0x18);
	struct span arr;
	if (n_traces && sz_trace < SZ_CTH_MIN) {
		st = CORRUPT(sec.off + 0x0c, "Context Trace Headers: "
			     "szTrace %u is smaller than the v4.0 {CTH} size "
			     "%u",
			     (unsigned)sz_trace, SZ_CTH_MIN);
		goto out;
	}
	/* "The array pointed to by pTraces is completely within the Context
	 * Trace Headers section"; stride szTrace */
	if (!v4_region_array(r, p_traces, n_traces, sz_trace, &arr)) {
		st = CORRUPT(sec.off, "Context Trace Headers: "
			     "pTraces 0x%llx [%u x %u] lies outside the "
			     "section",
			     (ull)p_traces, n_traces, (unsigned)sz_trace);
		goto out;
	}
	if (n_traces) {
		t->lines = calloc(n_traces, sizeof(*t->lines));
		if (!t->lines) {
			st = error_set(err, STATUS_NOMEM, t->file.name,
				       "out of memory");
			goto out;
		}
	}
	for (uint32_t i = 0; i < n_traces && st == STATUS_OK; i++) {
		struct span cth = {0}; /* inside arr (v4_region_array) */
		(void)span_sub(arr, (uint64_t)i * sz_trace, sz_trace, &cth);
		st = add_line(t, b, cth, p_traces + (uint64_t)i * sz_trace, i,
			      n_profiles, err);
	}
	if (st != STATUS_OK)
		goto out;
	t->n_lines = n_traces;
	model_builder_set_time_range(b, t_min, t_max);
	*out = t;
	t = NULL;
out:
	v4_trace_close(t);
	return st;
}

bool v4_trace_sample(struct v4_trace *t, uint32_t line, uint64_t index,
		     struct trace_sample *out)
{
	struct span w;
	struct error err = {.status = STATUS_OK};
	if (line >= t->n_lines || index >= t->lines[line].count)
		return false;
	if (blob_read(t->file.blob, t->lines[line].start + index * SZ_ELEM,
		      SZ_ELEM, &w, &err) != STATUS_OK) {
		pthread_mutex_lock(&t->error_lock);
		if (t->error.status == STATUS_OK) {
			t->error = err;
			err = (struct error){.status = STATUS_OK};
		}
		pthread_mutex_unlock(&t->error_lock);
		error_clear(&err);
		return false;
	}
	out->time = span_get_u64le(w, 0);
	out->ctx_id = span_get_u32le(w, 8);
	return true;
}

bool v4_trace_take_error(struct v4_trace *t, struct error *err)
{
	pthread_mutex_lock(&t->error_lock);
	bool failed = error_take(&t->error, err);
	pthread_mutex_unlock(&t->error_lock);
	return failed;
}

void v4_trace_close(struct v4_trace *t)
{
	if (!t)
		return;
	error_clear(&t->error);
	pthread_mutex_destroy(&t->error_lock);
	v4_file_close(&t->file);
	free(t->lines);
	free(t);
}
