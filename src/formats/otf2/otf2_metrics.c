/* otf2_metrics: OTF2 metric events (PAPI counters, rusage, plugins) as
 * tree columns and as counter tracks.  Definitions: metric members (a
 * counter's name, unit, mode, base and exponent), metric classes and
 * instances (the members an event holds, in order).  The index pass: a
 * member whose values accumulate (accumulated mode: the value since the
 * start; relative mode: since the value before) gives each call path the
 * growth between its samples, charged to the innermost call open when the
 * later sample is read -- Score-P writes a call's metric event just before
 * its Enter and its Leave, so that the growth from a call's Enter to its
 * first callee's Enter is the call's own, as Cube shows it -- summed over
 * the locations (an exclusive column NAME (E), its inclusive NAME (I)
 * derived by the engine); an absolute member (a temperature, memory in
 * use) has no column.  Every member a location records is a counter track
 * of its values as recorded (times and value x base^exponent), the line
 * labelled "LOCATION: MEMBER", read back lazily: every OTF2_COUNTER_BLOCK
 * values the index pass keeps the event position of the first, and a
 * replay from there reads a block (OTF2_COUNTER_SLOTS blocks kept, least
 * recently used out).  Values per location (the thread pane) are not kept
 * for metric columns.  Must not depend on curses or on ui/. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "core/array.h"
#include "formats/otf2/otf2_pass.h"

/* ---- definitions --------------------------------------------------------- */

static OTF2_CallbackCode on_member(void *ud, OTF2_MetricMemberRef self,
				   OTF2_StringRef name, OTF2_StringRef descr,
				   OTF2_MetricType type, OTF2_MetricMode mode,
				   OTF2_Type value_type, OTF2_Base base,
				   int64_t exponent, OTF2_StringRef unit)
{
	struct otf2_run *r = ud;
	(void)descr;
	(void)type;
	(void)value_type;
	if (!otf2_table_hold(r, (void **)&r->members, &r->n_members, self,
		  sizeof(*r->members), "metric member"))
		return OTF2_CALLBACK_INTERRUPT;
	struct otf2_member *m = &r->members[self];
	m->name = otf2_string(r, name);
	m->unit = otf2_string(r, unit);
	m->mode = (uint8_t)mode;
	m->scale = pow(base == OTF2_BASE_BINARY ? 2.0 : 10.0,
		       (double)exponent);
	if (!isfinite(m->scale))
		m->scale = 1.0;
	m->column = UINT32_MAX;
	if ((mode & OTF2_METRIC_VALUE_MASK) != OTF2_METRIC_VALUE_ABSOLUTE &&
	    r->n_mcolumns < OTF2_MAX_METRIC_COLUMNS)
		m->column = r->n_mcolumns++;
	m->defined = true;
	return OTF2_CALLBACK_SUCCESS;
}

/* A class or instance `self` holding `n` members. */
static OTF2_CallbackCode add_class(struct otf2_run *r, uint32_t self,
				   uint32_t n, const uint32_t *members)
{
	if (!otf2_table_hold(r, (void **)&r->mclasses, &r->n_mclasses, self,
		  sizeof(*r->mclasses), "metric"))
		return OTF2_CALLBACK_INTERRUPT;
	struct otf2_mclass *c = &r->mclasses[self];
	free(c->members);
	c->members = malloc((n + 1) * sizeof(*c->members));
	if (!c->members) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (members[i] >= r->n_members ||
		    !r->members[members[i]].defined) {
			otf2_fail(r, STATUS_CORRUPT, "global definitions: "
				  "metric %u names member %u, which is not "
				  "defined", self, members[i]);
			return OTF2_CALLBACK_INTERRUPT;
		}
		c->members[i] = members[i];
	}
	c->n = n;
	c->defined = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_class(void *ud, OTF2_MetricRef self, uint8_t n,
				  const OTF2_MetricMemberRef *members,
				  OTF2_MetricOccurrence occurrence,
				  OTF2_RecorderKind kind)
{
	(void)occurrence;
	(void)kind;
	return add_class(ud, self, n, members);
}

static OTF2_CallbackCode on_instance(void *ud, OTF2_MetricRef self,
				     OTF2_MetricRef cls,
				     OTF2_LocationRef recorder,
				     OTF2_MetricScope scope_kind,
				     uint64_t scope)
{
	struct otf2_run *r = ud;
	(void)recorder;
	(void)scope_kind;
	(void)scope;
	if (cls >= r->n_mclasses || !r->mclasses[cls].defined) {
		otf2_fail(r, STATUS_CORRUPT, "global definitions: metric "
			  "instance %u of undefined class %u", self, cls);
		return OTF2_CALLBACK_INTERRUPT;
	}
	uint32_t n = r->mclasses[cls].n, *copy = malloc((n + 1) * sizeof(*copy));
	if (!copy) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	memcpy(copy, r->mclasses[cls].members, n * sizeof(*copy));
	OTF2_CallbackCode c = add_class(r, self, n, copy);
	free(copy);
	return c;
}

void otf2_metrics_def_callbacks(void *cb)
{
	OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb, on_member);
	OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cb, on_class);
	OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(cb,
								on_instance);
}

/* ---- events -------------------------------------------------------------- */

static double value_of(OTF2_Type type, OTF2_MetricValue v)
{
	switch (type) {
	case OTF2_TYPE_INT64:
		return (double)v.signed_int;
	case OTF2_TYPE_DOUBLE:
		return v.floating_point;
	default:
		return (double)v.unsigned_int;
	}
}

/* The location's track of member `member` (added when new). */
static struct otf2_ctrack *track_of(struct otf2_location *l, uint32_t member,
				    size_t *cap)
{
	for (size_t i = 0; i < l->n_ctracks; i++)
		if (l->ctracks[i].member == member)
			return &l->ctracks[i];
	if (!array_grow((void **)&l->ctracks, cap, l->n_ctracks + 1,
			sizeof(*l->ctracks)))
		return NULL;
	struct otf2_ctrack *t = &l->ctracks[l->n_ctracks++];
	*t = (struct otf2_ctrack){.member = member};
	return t;
}

/* The growth of an accumulating member charged to the innermost call. */
static bool charge(struct pass *p, const struct otf2_member *m, double delta)
{
	if (!p->depth || m->column == UINT32_MAX)
		return true;
	uint32_t node = p->stack[p->depth - 1].node;
	size_t k = (size_t)node * p->r->n_mcolumns + m->column;
	if (k >= p->cap_mval) {
		size_t cap = p->cap_mval ? p->cap_mval : 256;
		while (cap <= k)
			cap *= 2;
		double *v = realloc(p->mval, cap * sizeof(*v));
		if (!v)
			return false;
		memset(v + p->cap_mval, 0, (cap - p->cap_mval) * sizeof(*v));
		p->mval = v;
		p->cap_mval = cap;
	}
	p->mval[k] += delta;
	return true;
}

/* The index pass's part: each member's growth, its track's count and
 * checkpoints. */
static bool index_metric(struct pass *p, uint64_t pos,
			 const struct otf2_mclass *c, const OTF2_Type *types,
			 const OTF2_MetricValue *values)
{
	struct otf2_run *r = p->r;
	for (uint32_t i = 0; i < c->n; i++) {
		const struct otf2_member *m = &r->members[c->members[i]];
		struct otf2_ctrack *t =
			track_of(p->l, c->members[i], &p->cap_ctracks);
		if (!t)
			return false;
		double v = value_of(types[i], values[i]) * m->scale;
		uint8_t kind = m->mode & OTF2_METRIC_VALUE_MASK;
		double delta = kind == OTF2_METRIC_VALUE_RELATIVE ? v
							   : v - t->prev;
		t->prev = v;
		if (!charge(p, m, delta))
			return false;
		if (t->n % OTF2_COUNTER_BLOCK == 0) {
			if (!array_grow((void **)&t->points, &t->cap_points,
					t->n_points + 1, sizeof(*t->points)))
				return false;
			t->points[t->n_points++] = (struct otf2_cpoint){
				.pos = pos, .time = otf2_ns(r, p->last),
				.value = v};
		}
		t->n++;
	}
	return true;
}

static OTF2_CallbackCode on_metric(OTF2_LocationRef loc, OTF2_TimeStamp time,
				   uint64_t pos, void *ud,
				   OTF2_AttributeList *attrs, OTF2_MetricRef id,
				   uint8_t n, const OTF2_Type *types,
				   const OTF2_MetricValue *values)
{
	struct pass *p = ud;
	struct otf2_run *r = p->r;
	(void)loc;
	(void)attrs;
	if (id >= r->n_mclasses || !r->mclasses[id].defined ||
	    r->mclasses[id].n != n)
		return OTF2_CALLBACK_SUCCESS; /* counted as not shown */
	const struct otf2_mclass *c = &r->mclasses[id];
	if (p->counting) {
		for (uint32_t i = 0; i < c->n; i++)
			if (c->members[i] == p->want && p->got < p->cap_got) {
				p->ctime[p->got] = otf2_ns(r, time);
				p->cvalue[p->got++] =
					value_of(types[i], values[i]) *
					r->members[c->members[i]].scale;
			}
		return p->got < p->cap_got ? OTF2_CALLBACK_SUCCESS
					   : OTF2_CALLBACK_INTERRUPT;
	}
	otf2_event_time(p, time);
	if (!p->indexing)
		return OTF2_CALLBACK_SUCCESS;
	p->shown++;
	if (!index_metric(p, pos, c, types, values)) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	return OTF2_CALLBACK_SUCCESS;
}

void otf2_metrics_callbacks(void *cb)
{
	OTF2_EvtReaderCallbacks_SetMetricCallback(cb, on_metric);
}

bool otf2_metrics_finish(struct pass *p)
{
	struct otf2_run *r = p->r;
	size_t k = r->n_mcolumns;
	if (!k || !p->mval)
		return true;
	size_t nodes = p->cap_mval / k;
	/* under the index lock (the caller's): the run's table as large as
	 * the tree */
	if (r->cap_mvals < r->tree.n) {
		double *v = realloc(r->mvals, (size_t)r->tree.n * k * sizeof(*v));
		if (!v)
			return false;
		memset(v + (size_t)r->cap_mvals * k, 0,
		       (size_t)(r->tree.n - r->cap_mvals) * k * sizeof(*v));
		r->mvals = v;
		r->cap_mvals = r->tree.n;
	}
	for (size_t i = 0; i < nodes && i < r->tree.n; i++)
		for (size_t c = 0; c < k; c++)
			r->mvals[i * k + c] += p->mval[i * k + c];
	memset(p->mval, 0, p->cap_mval * sizeof(*p->mval));
	return true;
}

/* ---- counter tracks read back --------------------------------------------- */

/* Read block `b` of counter line `cl` into slot `s` (under the run's
 * lock): a replay from the block's first value. */
static bool read_block(struct otf2_run *r, uint32_t cl, uint64_t b,
		       struct otf2_cslot *s)
{
	struct otf2_location *l = &r->locs[r->cline_loc[cl]];
	const struct otf2_ctrack *t = &l->ctracks[r->cline_track[cl]];
	if (b >= t->n_points || !r->reader)
		return false;
	if (!s->time && (!(s->time = malloc(OTF2_COUNTER_BLOCK *
					    sizeof(*s->time))) ||
			 !(s->value = malloc(OTF2_COUNTER_BLOCK *
					     sizeof(*s->value)))))
		return false;
	uint64_t want = t->n - b * OTF2_COUNTER_BLOCK;
	struct pass p = {.r = r, .l = l, .counting = true, .want = t->member,
			 .ctime = s->time, .cvalue = s->value,
			 .cap_got = want < OTF2_COUNTER_BLOCK
					    ? want
					    : OTF2_COUNTER_BLOCK};
	if (l->evt)
		OTF2_Reader_CloseEvtReader(r->reader, l->evt);
	OTF2_EvtReader *er = l->evt = OTF2_Reader_GetEvtReader(r->reader, l->ref);
	OTF2_ErrorCode e = er ? OTF2_EvtReader_Seek(er, t->points[b].pos)
			      : OTF2_ERROR_INVALID;
	if (e == OTF2_SUCCESS)
		e = OTF2_EvtReader_SetCallbacks(er, r->callbacks, &p);
	uint64_t got = 1;
	while (e == OTF2_SUCCESS && got && p.got < p.cap_got)
		e = OTF2_EvtReader_ReadEvents(er, 4096, &got);
	return p.got == p.cap_got;
}

bool otf2_counter(void *impl, uint32_t line, uint64_t index, uint64_t *time,
		  double *value)
{
	struct otf2_run *r = impl;
	if (line < r->n_locs || line - r->n_locs >= r->n_clines)
		return false;
	uint32_t cl = line - (uint32_t)r->n_locs;
	const struct otf2_ctrack *t =
		&r->locs[r->cline_loc[cl]].ctracks[r->cline_track[cl]];
	if (index >= t->n)
		return false;
	uint64_t b = index / OTF2_COUNTER_BLOCK;
	pthread_mutex_lock(&r->lock);
	struct otf2_cslot *s = NULL;
	uint32_t lru = 0;
	for (uint32_t i = 0; i < OTF2_COUNTER_SLOTS && !s; i++) {
		if (r->cslots[i].b == b && r->cslots[i].line == cl)
			s = &r->cslots[i];
		else if (r->cslots[i].used < r->cslots[lru].used)
			lru = i;
	}
	if (!s) {
		s = &r->cslots[lru];
		s->b = UINT64_MAX;
		if (read_block(r, cl, b, s)) {
			s->b = b;
			s->line = cl;
		} else {
			s = NULL;
		}
	}
	if (s) {
		s->used = ++r->clock;
		*time = s->time[index - b * OTF2_COUNTER_BLOCK];
		*value = s->value[index - b * OTF2_COUNTER_BLOCK];
	}
	pthread_mutex_unlock(&r->lock);
	return s != NULL;
}

bool otf2_counter_near(void *impl, uint32_t line, uint64_t t, uint64_t span,
		       double *value, uint64_t *index)
{
	const struct otf2_run *r = impl;
	if (line < r->n_locs || line - r->n_locs >= r->n_clines)
		return false;
	uint32_t cl = line - (uint32_t)r->n_locs;
	const struct otf2_ctrack *c =
		&r->locs[r->cline_loc[cl]].ctracks[r->cline_track[cl]];
	size_t lo = 0, hi = c->n_points;
	if (c->n_points <= OTF2_NEAR_MIN_BLOCKS)
		return false; /* reading it exactly costs little */
	while (lo < hi) { /* the first block whose first value is at >= t */
		size_t mid = lo + (hi - lo) / 2;
		if (c->points[mid].time < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= c->n_points || c->points[lo].time - t >= span)
		return false;
	*value = c->points[lo].value;
	*index = (uint64_t)lo * OTF2_COUNTER_BLOCK;
	return true;
}

/* ---- the model ------------------------------------------------------------ */

bool otf2_metric_value(const struct otf2_run *r, uint32_t node, uint32_t stat,
		       double *out)
{
	if (stat < 4 || stat - 4 >= r->n_mcolumns)
		return false;
	*out = node < r->cap_mvals
		       ? r->mvals[(size_t)node * r->n_mcolumns + (stat - 4)]
		       : 0.0;
	return true;
}

/* One counter line per track of each location, after the locations'. */
static enum status build_tracks(struct otf2_run *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_locs; i++)
		n += r->locs[i].n_ctracks;
	if (!n)
		return STATUS_OK;
	r->cline_loc = malloc(n * sizeof(*r->cline_loc));
	r->cline_track = malloc(n * sizeof(*r->cline_track));
	if (!r->cline_loc || !r->cline_track)
		return error_set(r->err, STATUS_NOMEM, r->path, "out of memory");
	const struct model *m = model_builder_peek(r->b);
	for (uint32_t i = 0; i < r->n_locs; i++) {
		const struct otf2_location *l = &r->locs[i];
		for (uint32_t k = 0; k < l->n_ctracks; k++) {
			const struct otf2_member *mb =
				&r->members[l->ctracks[k].member];
			char *label = NULL;
			if (asprintf(&label, "%s: %s",
				     model_str(m, model_timelines(m)[i].label),
				     model_str(m, mb->name)) < 0)
				return error_set(r->err, STATUS_NOMEM, r->path,
						 "out of memory");
			struct model_timeline tl = {
				.profile = model_timelines(m)[i].profile,
				.label = model_builder_intern(r->b, label,
							      strlen(label)),
				.kind = TIMELINE_COUNTER,
				.count = l->ctracks[k].n,
				.unit = mb->unit,
			};
			free(label);
			if (tl.label == MODEL_NONE ||
			    model_builder_add_timeline(r->b, &tl) == MODEL_NONE)
				return error_set(r->err, STATUS_NOMEM, r->path,
						 "out of memory");
			r->cline_loc[r->n_clines] = i;
			r->cline_track[r->n_clines++] = k;
			m = model_builder_peek(r->b);
		}
	}
	return STATUS_OK;
}

enum status otf2_metrics_build(struct otf2_run *r)
{
	const struct model *m = model_builder_peek(r->b);
	for (uint32_t i = 0; i < r->n_members; i++) {
		const struct otf2_member *mb = &r->members[i];
		if (!mb->defined || mb->column == UINT32_MAX)
			continue;
		char *descr = NULL;
		const char *unit = model_str(m, mb->unit);
		if (asprintf(&descr, "metric %s%s%s%s (its growth within the "
			     "call path, from its metric events)",
			     model_str(m, mb->name), *unit ? " (" : "", unit,
			     *unit ? ")" : "") < 0)
			return error_set(r->err, STATUS_NOMEM, r->path,
					 "out of memory");
		enum status st = otf2_build_metric(
			r, 4 + mb->column, 4 + r->n_mcolumns + mb->column,
			model_str(m, mb->name), descr, "%.6g", UNIT_COUNT);
		free(descr);
		if (st != STATUS_OK)
			return st;
		m = model_builder_peek(r->b);
	}
	return build_tracks(r);
}

void otf2_metrics_free(struct otf2_run *r)
{
	for (uint32_t i = 0; i < r->n_mclasses; i++)
		free(r->mclasses[i].members);
	free(r->mclasses);
	free(r->members);
	free(r->mvals);
	free(r->cline_loc);
	free(r->cline_track);
	for (uint32_t i = 0; i < OTF2_COUNTER_SLOTS; i++) {
		free(r->cslots[i].time);
		free(r->cslots[i].value);
	}
}
