/* otf2_marks: an archive's markers (the OTF2 marker file beside the
 * anchor, `traces.marker`, written by tools such as MUST or by
 * otf2-marker: DefMarker = group, category, severity; Marker = time,
 * duration, scope, text), read at every open (the file is small and not
 * in the index cache).  A marker whose scope is a location is an instant
 * of that location's line (the trace pane's marker cells) and counts in
 * the Marks column at the call of that location running at its time,
 * half-open (enter <= t < leave: at a call's end it is after the call),
 * found through the trace's own lookup (otf2_call_at: blocks replayed as
 * the trace reads them); outside every call it counts in no row (the
 * tree has no location rows).  Markers of other scopes (global, a group,
 * a communicator, a system tree node) have no line: counted and warned
 * about.  Must not depend on curses or on ui/. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/otf2.h>

#include "core/array.h"
#include "formats/otf2/otf2_internal.h"

/* What the marker callbacks fill. */
struct mread {
	struct otf2_run *r;
	uint32_t *category; /* marker ref -> model string handle */
	uint32_t n_category;
	struct loc_ref {
		uint64_t ref;
		uint32_t line;
	} *locs; /* the locations by their archive id */
	size_t cap;
};

static int by_ref(const void *a, const void *b)
{
	uint64_t x = ((const struct loc_ref *)a)->ref,
		 y = ((const struct loc_ref *)b)->ref;
	return (x > y) - (x < y);
}

static OTF2_CallbackCode on_def_marker(void *ud, OTF2_MarkerRef self,
				       const char *group, const char *category,
				       OTF2_MarkerSeverity severity)
{
	struct mread *m = ud;
	(void)group;
	(void)severity;
	if (self >= OTF2_MAX_DEF_ID)
		return OTF2_CALLBACK_SUCCESS; /* its markers: no category */
	if (self >= m->n_category) {
		uint32_t *c = realloc(m->category, ((size_t)self + 1) *
							   sizeof(*c));
		if (!c) {
			otf2_fail(m->r, STATUS_NOMEM, "out of memory");
			return OTF2_CALLBACK_INTERRUPT;
		}
		memset(c + m->n_category, 0,
		       (self + 1 - m->n_category) * sizeof(*c));
		m->category = c;
		m->n_category = self + 1;
	}
	const char *c = category ? category : "";
	m->category[self] = model_builder_intern(m->r->b, c, strlen(c));
	return OTF2_CALLBACK_SUCCESS;
}

/* The instant's name: "CATEGORY: text", either alone when the other is
 * empty; 0 when out of memory. */
static uint32_t mark_name(struct mread *m, OTF2_MarkerRef ref,
			  const char *text)
{
	struct model_builder *b = m->r->b;
	const char *cat = ref < m->n_category
				  ? model_str(model_builder_peek(b),
					      m->category[ref])
				  : "";
	text = text ? text : "";
	if (!*cat || !*text) {
		const char *s = *text ? text : *cat ? cat : "<marker>";
		return model_builder_intern(b, s, strlen(s));
	}
	char *s = NULL;
	if (asprintf(&s, "%s: %s", cat, text) < 0)
		return 0;
	uint32_t h = model_builder_intern(b, s, strlen(s));
	free(s);
	return h;
}

static OTF2_CallbackCode on_marker(void *ud, OTF2_TimeStamp time,
				   OTF2_TimeStamp duration,
				   OTF2_MarkerRef ref, OTF2_MarkerScope scope,
				   uint64_t scope_ref, const char *text)
{
	struct mread *m = ud;
	struct otf2_run *r = m->r;
	(void)duration;
	struct loc_ref key = {.ref = scope_ref}, *hit = NULL;
	if (scope == OTF2_MARKER_SCOPE_LOCATION && r->n_locs)
		hit = bsearch(&key, m->locs, r->n_locs, sizeof(*m->locs),
			      by_ref);
	if (!hit) {
		r->marks_unshown++;
		return OTF2_CALLBACK_SUCCESS;
	}
	uint32_t name = mark_name(m, ref, text);
	if (!name || !array_grow((void **)&r->mark, &m->cap, r->n_marks + 1,
				 sizeof(*r->mark))) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	r->mark[r->n_marks] = (struct otf2_mark){
		.time = otf2_ns(r, time), .line = hit->line, .name = name,
		.seq = (uint32_t)r->n_marks};
	r->n_marks++;
	return OTF2_CALLBACK_SUCCESS;
}

static int by_line_time(const void *a, const void *b)
{
	const struct otf2_mark *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The marker file beside `anchor` (ANCHOR without ".otf2", ".marker"):
 * whether it exists. */
static bool has_marker_file(const char *anchor)
{
	size_t n = strlen(anchor);
	if (n > 5 && strcmp(anchor + n - 5, ".otf2") == 0)
		n -= 5;
	char *p = NULL;
	struct stat sb;
	bool ok = asprintf(&p, "%.*s.marker", (int)n, anchor) >= 0 &&
		  stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
	free(p);
	return ok;
}

/* Read the markers through `rd` (an OTF2_Reader): r->mark, sorted;
 * r->marks_damaged when the file could not be read to its end. */
static enum status read_file(struct otf2_run *r, OTF2_Reader *rd)
{
	struct mread m = {.r = r};
	m.locs = r->n_locs ? malloc(r->n_locs * sizeof(*m.locs)) : NULL;
	OTF2_MarkerReaderCallbacks *cb = OTF2_MarkerReaderCallbacks_New();
	OTF2_MarkerReader *mr = OTF2_Reader_GetMarkerReader(rd);
	if ((r->n_locs && !m.locs) || !cb) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
	} else if (!mr) {
		r->marks_damaged = true;
	} else {
		for (size_t i = 0; i < r->n_locs; i++)
			m.locs[i] = (struct loc_ref){r->locs[i].ref,
						     (uint32_t)i};
		qsort(m.locs, r->n_locs, sizeof(*m.locs), by_ref);
		OTF2_MarkerReaderCallbacks_SetDefMarkerCallback(cb,
								on_def_marker);
		OTF2_MarkerReaderCallbacks_SetMarkerCallback(cb, on_marker);
		uint64_t got = 0;
		/* a damaged marker file: the markers read so far, a warning */
		r->marks_damaged =
			OTF2_Reader_RegisterMarkerCallbacks(rd, mr, cb, &m) !=
				OTF2_SUCCESS ||
			OTF2_Reader_ReadAllMarkers(rd, mr, &got) !=
				OTF2_SUCCESS;
	}
	if (cb)
		OTF2_MarkerReaderCallbacks_Delete(cb);
	if (mr)
		OTF2_Reader_CloseMarkerReader(rd, mr);
	free(m.locs);
	free(m.category);
	if (r->n_marks)
		qsort(r->mark, r->n_marks, sizeof(*r->mark), by_line_time);
	return r->failed;
}

enum status otf2_read_marks(struct otf2_run *r, void *reader)
{
	if (!has_marker_file(r->path))
		return STATUS_OK;
	enum status st = read_file(r, reader);
	if (st != STATUS_OK || !r->n_marks)
		return st;
	if (!(r->mark_first = calloc(r->n_locs + 1, sizeof(*r->mark_first))) ||
	    !(r->marks = calloc(r->tree.n ? r->tree.n : 1, sizeof(*r->marks))))
		return error_set(r->err, STATUS_NOMEM, r->path, "out of memory");
	for (size_t i = 0; i < r->n_marks; i++)
		r->mark_first[r->mark[i].line + 1]++;
	for (size_t i = 0; i < r->n_locs; i++)
		r->mark_first[i + 1] += r->mark_first[i];
	for (size_t i = 0; i < r->n_marks; i++) {
		uint32_t node;
		struct error e = {0};
		if (otf2_call_at(r, r->mark[i].line, r->mark[i].time, &node,
				 &e))
			r->marks[node] += 1;
		else if (e.status != STATUS_OK) {
			enum status st2 = error_set(r->err, e.status, r->path,
						    "%s", e.message ? e.message
								    : "markers");
			error_clear(&e);
			return st2;
		} else
			r->marks_outside++;
	}
	return STATUS_OK;
}

bool otf2_marks_note(const struct otf2_run *r, char *out, size_t size)
{
	const struct {
		bool any;
		unsigned long long n;
		const char *before, *after;
	} part[] = {
		{r->marks_outside != 0, r->marks_outside, "",
		 " lie outside every call of their location (drawn on its line, "
		 "in no row of the tree)"},
		{r->marks_unshown != 0, r->marks_unshown, "",
		 " have a scope other than one location (the whole run, a "
		 "group, a communicator) and are not shown"},
		{r->marks_damaged, r->n_marks,
		 "the marker file could not be read to its end (", " read)"},
	};
	size_t at = 0;
	bool any = false;
	out[0] = '\0';
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		if (!part[i].any || at >= size)
			continue;
		int n = snprintf(out + at, size - at, "%s%s%llu%s",
				 any ? "; " : "markers: ", part[i].before,
				 part[i].n, part[i].after);
		at += n > 0 ? (size_t)n : 0;
		any = true;
	}
	return any;
}
